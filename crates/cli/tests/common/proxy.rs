//! A TCP relay on loopback that a test steers: it points new connections at one port or
//! another (the one address a managed Redis endpoint or a Sentinel-managed name gives, which
//! moves on failover), cuts the connections it carries, or holds their bytes (a replication
//! link that stalls). It runs on a thread and runtime of its own, so a test of synchronous
//! code can use it.

use std::sync::atomic::{AtomicBool, AtomicU16, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A relay from `127.0.0.1:port` to `127.0.0.1:<target>`.
pub struct Proxy {
    /// The port it listens on.
    pub port: u16,
    target: Arc<AtomicU16>,
    held: Arc<AtomicBool>,
    carried: Arc<Mutex<Vec<tokio::task::AbortHandle>>>,
}

impl Proxy {
    /// A relay to `target`.
    pub fn start(target: u16) -> Proxy {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
        let port = listener.local_addr().expect("an address").port();
        listener.set_nonblocking(true).expect("non-blocking");
        let proxy = Proxy {
            port,
            target: Arc::new(AtomicU16::new(target)),
            held: Arc::new(AtomicBool::new(false)),
            carried: Arc::new(Mutex::new(Vec::new())),
        };
        let (target, held, carried) = (proxy.target.clone(), proxy.held.clone(), proxy.carried.clone());
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::from_std(listener).expect("a listener");
                while let Ok((client, _)) = listener.accept().await {
                    let to = target.load(Ordering::SeqCst);
                    let held = held.clone();
                    let task = tokio::spawn(async move {
                        let Ok(server) = tokio::net::TcpStream::connect(("127.0.0.1", to)).await else { return };
                        let (cr, cw) = client.into_split();
                        let (sr, sw) = server.into_split();
                        tokio::join!(relay(cr, sw, held.clone()), relay(sr, cw, held));
                    });
                    carried.lock().expect("carried").push(task.abort_handle());
                }
            });
        });
        proxy
    }

    /// New connections go to `target`; the ones it carries are cut.
    pub fn point_to(&self, target: u16) {
        self.target.store(target, Ordering::SeqCst);
        for task in self.carried.lock().expect("carried").drain(..) {
            task.abort();
        }
    }

    /// Holds every byte (true) or lets them through again (false).
    pub fn hold(&self, held: bool) {
        self.held.store(held, Ordering::SeqCst);
    }
}

async fn relay(
    mut from: tokio::net::tcp::OwnedReadHalf,
    mut to: tokio::net::tcp::OwnedWriteHalf,
    held: Arc<AtomicBool>,
) {
    let mut buffer = vec![0u8; 64 * 1024];
    loop {
        let n = match from.read(&mut buffer).await {
            Ok(0) | Err(_) => return,
            Ok(n) => n,
        };
        while held.load(Ordering::SeqCst) {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        if to.write_all(&buffer[..n]).await.is_err() {
            return;
        }
    }
}
