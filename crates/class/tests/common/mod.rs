//! What the class server's tests share: a real `mrtr-class serve` on a database and built lab
//! of its own, students' laptops at addresses of their own, and requests as its pages send
//! them.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::net::{IpAddr, Ipv4Addr};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// The class's code.
pub const CODE: &str = "SEC-1";

/// A running `mrtr-class serve`, stopped when dropped.
pub struct Class {
    pub child: Child,
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    /// The instructor's token, printed when the class was made.
    pub token: String,
    pub db: String,
    pub dir: std::path::PathBuf,
}

impl Class {
    /// A new class (its own database and built lab) with `args` beside the defaults.
    pub fn start(name: &str, args: &[&str]) -> Class {
        let dir = std::env::temp_dir().join(format!("mrtr-hostile-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("dist/probe")).expect("a dist folder");
        std::fs::write(dir.join("dist/embed.html"), "<!doctype html><title>lab</title>").expect("embed.html");
        std::fs::write(dir.join("dist/probe/quiz.js"), "// the questions").expect("quiz.js");
        let key = include_str!("../../../../web/probe/quiz-key.json");
        std::fs::write(dir.join("dist/probe/quiz-key.json"), key).expect("the key");
        let db = format!("sqlite://{}", dir.join("class.db").display());
        let mut class = Class::spawn(&dir, &db, args);
        assert!(!class.token.is_empty(), "a new class prints its instructor token");
        class.dir = dir;
        class
    }

    pub fn spawn(dir: &std::path::Path, db: &str, args: &[&str]) -> Class {
        let dist = dir.join("dist");
        let mut child = Command::new(env!("CARGO_BIN_EXE_mrtr-class"))
            .args(["serve", "--class", CODE, "--addr", "127.0.0.1:0", "--db", db])
            .arg("--dist")
            .arg(&dist)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("mrtr-class serve starts");
        let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
        let (mut url, mut token) = (String::new(), String::new());
        for line in lines.by_ref() {
            let line = line.expect("a line");
            if let Some(rest) = line.strip_prefix(&format!("class {CODE} on ")) {
                url = rest.split_whitespace().next().unwrap_or_default().trim_end_matches('/').to_owned();
            }
            if let Some((_, t)) = line.split_once("#token=") {
                token = t.split_whitespace().next().unwrap_or_default().trim_end_matches('…').to_owned();
            }
            if line.starts_with("practice servers") {
                break;
            }
        }
        assert!(!url.is_empty(), "mrtr-class serve printed its address");
        std::thread::spawn(move || lines.for_each(drop));
        Class { child, url, token, db: db.to_owned(), dir: dir.to_owned() }
    }

    /// The host and port.
    pub fn address(&self) -> String {
        self.url.trim_start_matches("http://").to_owned()
    }

    /// Sends SIGTERM and waits: the exit status's code.
    pub fn terminate(&mut self) -> Option<i32> {
        let _ = Command::new("kill").args(["-TERM", &self.child.id().to_string()]).status();
        self.child.wait().ok().and_then(|status| status.code())
    }
}

impl Drop for Class {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A client whose connections come from `127.0.0.N`: one student's laptop.
pub fn laptop(n: u8) -> reqwest::Client {
    reqwest::Client::builder()
        .local_address(IpAddr::V4(Ipv4Addr::new(127, 0, 0, n)))
        .timeout(Duration::from_secs(20))
        .build()
        .expect("a client")
}

pub async fn send(
    client: &reqwest::Client,
    method: &str,
    url: &str,
    secret: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let mut request = client.request(method.parse().expect("a method"), url);
    if !secret.is_empty() {
        request = request.bearer_auth(secret);
    }
    if let Some(body) = body {
        request = request.header("content-type", "application/json").body(body.to_string());
    }
    let answer = request.send().await.expect("an answer");
    let status = answer.status().as_u16();
    (status, serde_json::from_str(&answer.text().await.unwrap_or_default()).unwrap_or(Value::Null))
}

/// Joins as `name` from `client`: the seat's secret, or the refusal's status and body.
pub async fn join(client: &reqwest::Client, class: &Class, name: &str, passcode: &str) -> Result<String, (u16, Value)> {
    let body = json!({"class": CODE, "name": name, "passcode": passcode});
    match send(client, "POST", &format!("{}/api/join", class.url), "", Some(body)).await {
        (201, seat) => Ok(seat["secret"].as_str().unwrap_or_default().to_owned()),
        refused => Err(refused),
    }
}
