//! A throwaway redis-server on a free loopback port, without persistence (as the README runs
//! it), that a test can stop, restart empty, or freeze.

use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A running redis-server, stopped when dropped.
pub struct Redis {
    child: Child,
    /// `redis://127.0.0.1:PORT`.
    pub url: String,
}

impl Redis {
    /// A throwaway redis-server on a free loopback port, or `None` where there is none.
    pub fn start() -> Option<Redis> {
        let port = std::net::TcpListener::bind("127.0.0.1:0").ok()?.local_addr().ok()?.port();
        Redis::start_on(port)
    }

    /// The same on `port`.
    pub fn start_on(port: u16) -> Option<Redis> {
        Redis::start_on_with(port, &[])
    }

    /// A throwaway redis-server with more settings (`--maxmemory 4mb`, `--replicaof …`).
    pub fn start_with(extra: &[&str]) -> Option<Redis> {
        Redis::start_on_with(free_port(), extra)
    }

    /// The same on `port`: a redis-server, or with `--sentinel` among `extra` a Sentinel
    /// (its configuration file the first of `extra`).
    pub fn start_on_with(port: u16, extra: &[&str]) -> Option<Redis> {
        let dir = std::env::temp_dir().join(format!("mrtr-redis-{}-{port}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        // A Sentinel is Debian's redis-sentinel (the same program, started by that name).
        let program = if extra.contains(&"--sentinel") { "redis-sentinel" } else { "redis-server" };
        let child = Command::new(program)
            .args(extra.iter().take_while(|a| a.ends_with(".conf")))
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
            .args(["--dir", &dir.to_string_lossy()])
            .args(extra.iter().skip_while(|a| a.ends_with(".conf")))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn();
        let child = match child {
            Ok(child) => child,
            Err(_) if std::env::var_os("MRTR_REQUIRE_REDIS").is_none() => {
                eprintln!("redis-server is not installed (scripts/setup.sh installs it): skipped");
                return None;
            }
            Err(e) => panic!("redis-server: {e}"),
        };
        let url = format!("redis://127.0.0.1:{port}");
        let client = redis::Client::open(url.as_str()).expect("a Redis address");
        for _ in 0..100 {
            if client.get_connection().is_ok_and(|mut c| redis::cmd("PING").query::<String>(&mut c).is_ok()) {
                return Some(Redis { child, url });
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("redis-server did not answer on {url}");
    }

    /// Kills it: what it remembered is gone (no persistence).
    pub fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A free loopback port.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).expect("a free port")
}

/// A free loopback port for a Redis Cluster node: at most 55535, with the port 10000 above
/// it (the cluster bus) free too.
pub fn free_cluster_port() -> u16 {
    use std::sync::atomic::{AtomicU16, Ordering};
    static NEXT: AtomicU16 = AtomicU16::new(0);
    let seed = (std::process::id() % 997) as u16 * 31;
    for _ in 0..2_000 {
        let port = 20_000 + (seed.wrapping_add(NEXT.fetch_add(7, Ordering::SeqCst))) % 30_000;
        let free = |p: u16| std::net::TcpListener::bind(("127.0.0.1", p)).is_ok();
        if free(port) && free(port + 10_000) {
            return port;
        }
    }
    panic!("no free port pair for a cluster node")
}

impl Redis {
    /// Runs one command (`["CONFIG", "SET", "maxmemory", "4mb"]`) and reads its answer.
    pub fn query<T: redis::FromRedisValue>(&self, args: &[&str]) -> redis::RedisResult<T> {
        let mut connection = redis::Client::open(self.url.as_str())?.get_connection()?;
        let mut cmd = redis::cmd(args[0]);
        for arg in &args[1..] {
            cmd.arg(*arg);
        }
        cmd.query(&mut connection)
    }

    /// One field of `INFO`: `info("replication", "role")`.
    pub fn info(&self, section: &str, field: &str) -> String {
        let text: String = self.query(&["INFO", section]).unwrap_or_default();
        let prefix = format!("{field}:");
        text.lines().find_map(|l| l.strip_prefix(&prefix)).unwrap_or_default().trim().to_owned()
    }

    /// Its process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Its port.
    pub fn port(&self) -> u16 {
        self.url.rsplit(':').next().and_then(|p| p.parse().ok()).unwrap_or(0)
    }

    /// Freezes it (SIGSTOP): it accepts connections and answers nothing.
    pub fn freeze(&self) {
        signal(self.child.id(), "STOP");
    }

    /// Thaws it (SIGCONT).
    pub fn thaw(&self) {
        signal(self.child.id(), "CONT");
    }
}

impl Drop for Redis {
    fn drop(&mut self) {
        self.thaw();
        self.stop();
    }
}

/// Sends `SIG<name>` to `pid`.
pub fn signal(pid: u32, name: &str) {
    let _ = Command::new("kill").arg(format!("-{name}")).arg(pid.to_string()).status();
}
