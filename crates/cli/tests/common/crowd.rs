//! A crowd of clients at once: each opens its own connection; once all are connected each
//! sends one request and reads the answer's status; and every connection stays open until the
//! whole crowd has its answers, so that the server holds them all at the same time.

use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// What one client of the crowd heard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Heard {
    /// An answer: its status, and whether it said `Retry-After`.
    Status(u16, bool),
    /// The connection closed, or nothing came within the time, before any answer.
    Nothing(String),
}

/// `clients` connections to `address` (`127.0.0.1:PORT`) at once, each sending `request` (a
/// whole HTTP/1.1 request) once every one is connected.
pub async fn crowd(address: &str, clients: usize, request: &[u8]) -> Vec<Heard> {
    mrtr::http::raise_file_limit(clients + 64);
    let all_heard = Arc::new(tokio::sync::Barrier::new(clients));
    let all_connected = Arc::new(tokio::sync::Barrier::new(clients));
    let request: Arc<[u8]> = request.into();
    let tasks: Vec<_> = (0..clients)
        .map(|_| {
            let (address, request) = (address.to_owned(), request.clone());
            let (all_connected, all_heard) = (all_connected.clone(), all_heard.clone());
            tokio::spawn(async move {
                let connected = tokio::time::timeout(Duration::from_secs(20), tokio::net::TcpStream::connect(&address));
                let connected = connected.await;
                let _ = tokio::time::timeout(Duration::from_secs(20), all_connected.wait()).await;
                let (heard, _open) = match connected {
                    Ok(Ok(socket)) => one(socket, &request).await,
                    _ => (Heard::Nothing("no connection".into()), None),
                };
                // Held open until every client has heard: the server serves them all at once.
                let _ = tokio::time::timeout(Duration::from_secs(30), all_heard.wait()).await;
                heard
            })
        })
        .collect();
    let mut heard = Vec::new();
    for task in tasks {
        heard.push(task.await.unwrap_or_else(|e| Heard::Nothing(e.to_string())));
    }
    heard
}

/// One client on its connection: what it heard, and the connection (kept open by the caller).
async fn one(mut socket: tokio::net::TcpStream, request: &[u8]) -> (Heard, Option<tokio::net::TcpStream>) {
    if let Err(e) = socket.write_all(request).await {
        return (Heard::Nothing(format!("sending: {e}")), None);
    }
    let mut head = Vec::new();
    let mut buf = [0u8; 1024];
    let read = async {
        while !head.windows(4).any(|w| w == b"\r\n\r\n") {
            match socket.read(&mut buf).await {
                Ok(0) | Err(_) => return false,
                Ok(n) => head.extend_from_slice(&buf[..n]),
            }
        }
        true
    };
    match tokio::time::timeout(Duration::from_secs(20), read).await {
        Ok(true) => {}
        Ok(false) => return (Heard::Nothing("closed before an answer".into()), None),
        Err(_) => return (Heard::Nothing("no answer within 20 s".into()), None),
    }
    let head = String::from_utf8_lossy(&head).to_ascii_lowercase();
    let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    (Heard::Status(status, head.contains("\r\nretry-after:")), Some(socket))
}
