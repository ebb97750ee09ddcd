//! What the real server's tests share: starting `mrtr serve` on a free port, and requests
//! as a 2026-07-28 client sends them.
#![allow(dead_code, reason = "each test file uses its own part")]

pub mod crowd;
pub mod proxy;
pub mod redis_server;

use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

/// A running `mrtr serve --http`, stopped when dropped.
pub struct Served {
    child: Child,
    /// `http://127.0.0.1:PORT/mcp`.
    pub url: String,
    /// Its stderr, kept open and never read (see [`Served::start_unread`]).
    unread: Option<std::process::ChildStderr>,
}

impl Served {
    /// Starts `mrtr serve --http 127.0.0.1:0 --quiet ARGS…` and waits for its address.
    pub fn start(args: &[&str]) -> Served {
        Served::spawn(&[&["--quiet"], args].concat(), false)
    }

    /// Starts `mrtr serve --http 127.0.0.1:0 ARGS…` with its log on, its stderr a pipe that
    /// nobody reads once the address is known.
    pub fn start_unread(args: &[&str]) -> Served {
        Served::spawn(args, true)
    }

    /// Its process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends SIGTERM and waits: whether it exited with 0.
    pub fn terminate(&mut self) -> bool {
        redis_server::signal(self.child.id(), "TERM");
        self.child.wait().is_ok_and(|status| status.success())
    }

    fn spawn(args: &[&str], unread: bool) -> Served {
        let mut child = Command::new(env!("CARGO_BIN_EXE_mrtr"))
            .args(["serve", "--http", "127.0.0.1:0"])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("mrtr serve starts");
        let stderr = child.stderr.take().expect("stderr");
        let mut reader = BufReader::new(stderr);
        let url = loop {
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                panic!("mrtr serve {args:?} exited");
            }
            if let Some((_, url)) = line.trim_end().split_once(" on ") {
                break url.to_owned();
            }
        };
        if unread {
            return Served { child, url, unread: Some(reader.into_inner()) };
        }
        // Keep reading its stderr so the server never blocks on a full pipe.
        std::thread::spawn(move || reader.lines().for_each(drop));
        Served { child, url, unread: None }
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `_meta` as a client that declares a form elicitation sends it.
pub fn meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}},
    })
}

/// A request with `_meta` filled in.
pub fn request(id: u64, method: &str, mut params: Value) -> Value {
    params["_meta"] = meta();
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

/// POSTs `message` with the headers a client sets, as `bearer` when given; returns the status
/// and the body as JSON (`Null` for none).
pub async fn post(client: &reqwest::Client, url: &str, message: &Value, bearer: Option<&str>) -> (u16, Value) {
    let method = message["method"].as_str().unwrap_or_default();
    let mut builder = client
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", method);
    if let Some(name) = message.pointer("/params/name").and_then(Value::as_str) {
        builder = builder.header("mcp-name", name);
    }
    if let Some(bearer) = bearer {
        builder = builder.bearer_auth(bearer);
    }
    let response = builder.body(message.to_string()).send().await.expect("the server answers");
    let status = response.status().as_u16();
    let body = response.text().await.expect("a body");
    (status, serde_json::from_str(&body).unwrap_or(Value::Null))
}

/// [`post`] as bob, saying why when no answer came instead of failing the test.
pub async fn try_post(client: &reqwest::Client, url: &str, message: &Value) -> Result<(u16, Value), String> {
    let method = message["method"].as_str().unwrap_or_default();
    let mut builder = client
        .post(url)
        .header("content-type", "application/json")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", method)
        .bearer_auth("bob-token");
    if let Some(name) = message.pointer("/params/name").and_then(Value::as_str) {
        builder = builder.header("mcp-name", name);
    }
    let response = builder.body(message.to_string()).send().await.map_err(|e| e.to_string())?;
    let status = response.status().as_u16();
    let body = response.text().await.map_err(|e| e.to_string())?;
    Ok((status, serde_json::from_str(&body).unwrap_or(Value::Null)))
}

/// A key file both replicas of a test read, named for `test` and this process.
pub fn key_file(test: &str) -> String {
    let key = std::env::temp_dir().join(format!("mrtr-{test}-{}.key", std::process::id()));
    std::fs::write(&key, b"a key both replicas read, 32 bytes or more").expect("a key file");
    key.to_string_lossy().into_owned()
}
