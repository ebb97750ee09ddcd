//! How `mrtr call` reaches a server: Streamable HTTP (one POST per request, the request
//! metadata headers set, replicas taking turns) or stdio (a server process it starts, one
//! line each way).

use serde_json::Value;
use std::process::Stdio;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout};

/// How long the client waits for one response.
const RESPONSE_TIMEOUT: Duration = Duration::from_secs(30);

/// A server process and the two ends of its stdio.
#[derive(Debug)]
pub struct Piped {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: Lines<BufReader<ChildStdout>>,
}

/// A connection to the server.
#[derive(Debug)]
pub enum Transport {
    /// HTTP to one URL, or to several in turn.
    Http { client: reqwest::Client, urls: Vec<String>, next: usize, token: Option<String> },
    /// A child process's stdin and stdout.
    Stdio(Box<Piped>),
}

impl Transport {
    /// HTTP to `urls`, taking turns.
    pub fn http(urls: Vec<String>, token: Option<String>) -> Result<Transport, String> {
        let client = reqwest::Client::builder().timeout(RESPONSE_TIMEOUT).build().map_err(|e| e.to_string())?;
        Ok(Transport::Http { client, urls, next: 0, token })
    }

    /// Starts `command` (a program and its arguments) and talks to it on stdio; its stderr
    /// goes to this process's.
    pub fn stdio(command: &[String]) -> Result<Transport, String> {
        let (program, args) = command.split_first().ok_or("-- needs a command to start")?;
        let mut child = tokio::process::Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| format!("cannot start {program}: {e}"))?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().ok_or("the server's stdout is not a pipe")?;
        Ok(Transport::Stdio(Box::new(Piped { child, stdin, stdout: BufReader::new(stdout).lines() })))
    }

    /// Where the next request goes, for the printed lines.
    pub fn name(&self) -> String {
        match self {
            Transport::Http { urls, next, .. } => urls[*next % urls.len()].clone(),
            Transport::Stdio(_) => "stdio".into(),
        }
    }

    /// Sends one request and returns its response.
    pub async fn send(&mut self, message: &Value) -> Result<Value, String> {
        self.send_as(message, None).await
    }

    /// [`Transport::send`] with another bearer token than the transport's own (HTTP).
    pub async fn send_as(&mut self, message: &Value, bearer: Option<&str>) -> Result<Value, String> {
        match self {
            Transport::Http { client, urls, next, token } => {
                let url = urls[*next % urls.len()].clone();
                *next += 1;
                post(client, &url, bearer.or(token.as_deref()), message).await
            }
            Transport::Stdio(piped) => {
                let Piped { stdin, stdout, .. } = &mut **piped;
                let stdin = stdin.as_mut().ok_or("the server's stdin is closed")?;
                stdin.write_all(format!("{message}\n").as_bytes()).await.map_err(|e| format!("stdio: {e}"))?;
                stdin.flush().await.map_err(|e| format!("stdio: {e}"))?;
                let id = &message["id"];
                loop {
                    let line = tokio::time::timeout(RESPONSE_TIMEOUT, stdout.next_line())
                        .await
                        .map_err(|_| "stdio: no response in time".to_owned())?
                        .map_err(|e| format!("stdio: {e}"))?
                        .ok_or("stdio: the server closed its stdout")?;
                    // Anything but the response to this request (a notification) is passed over.
                    match serde_json::from_str::<Value>(&line) {
                        Ok(response) if response.get("id") == Some(id) || response.get("id").is_none() => {
                            return Ok(response);
                        }
                        Ok(_) => {}
                        Err(e) => return Err(format!("stdio: the server wrote a line that is not JSON ({e})")),
                    }
                }
            }
        }
    }

    /// Closes stdin and waits for a stdio server to exit (it must, when its stdin closes).
    pub async fn close(&mut self) {
        if let Transport::Stdio(piped) = self {
            let Piped { child, stdin, .. } = &mut **piped;
            drop(stdin.take());
            if tokio::time::timeout(Duration::from_secs(5), child.wait()).await.is_err() {
                let _ = child.kill().await;
            }
        }
    }
}

async fn post(client: &reqwest::Client, url: &str, token: Option<&str>, message: &Value) -> Result<Value, String> {
    let mut request = client.post(url);
    for (name, value) in mrtr_sim::protocol::http_headers(message) {
        request = request.header(name, value);
    }
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.body(message.to_string()).send().await.map_err(|e| format!("{url}: {e}"))?;
    let status = response.status();
    let kind = response.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or("").to_owned();
    let body = response.text().await.map_err(|e| format!("{url}: {e}"))?;
    if kind.starts_with("text/event-stream") {
        return Err(format!("{url}: HTTP {status} with an event stream, which this client does not read"));
    }
    serde_json::from_str(&body).map_err(|_| format!("{url}: HTTP {status}, and the body is not JSON: {}", body.trim()))
}
