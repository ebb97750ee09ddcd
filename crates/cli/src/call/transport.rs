//! How `mrtr call` reaches a server: Streamable HTTP (one POST per request, the request
//! metadata headers set, replicas taking turns) or stdio (a server process it starts, one
//! line each way).

use mrtr_wire::Reply;
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::process::Stdio;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout};

/// How long the client waits for one response.
const RESPONSE_TIMEOUT: Duration = Duration::from_secs(30);

/// How long the client waits for a connection.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// A server process and the two ends of its stdio.
#[derive(Debug)]
pub struct Piped {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: Lines<BufReader<ChildStdout>>,
    /// The ids of the requests written whose responses have not been taken yet.
    awaited: HashSet<String>,
    /// Responses that came while another was read: a server may answer concurrent requests
    /// in any order.
    early: HashMap<String, Value>,
    /// Past every integer id sent.
    unused_id: i64,
}

/// A connection to the server.
#[derive(Debug)]
pub enum Transport {
    /// HTTP to one URL, or to several in turn.
    Http(Box<Http>),
    /// A child process's stdin and stdout.
    Stdio(Box<Piped>),
}

/// `below`, or past `sent`'s id when that is an integer as high: what [`Transport::unused_id`] keeps.
fn past(sent: &Value, below: i64) -> i64 {
    sent.get("id").and_then(Value::as_i64).map_or(below, |id| below.max(id.saturating_add(1)))
}

/// HTTP to one URL, or to several in turn, with the headers every request carries.
#[derive(Debug)]
pub struct Http {
    client: reqwest::Client,
    urls: Vec<String>,
    next: usize,
    token: Option<String>,
    headers: Vec<(String, String)>,
    /// Past every integer id sent.
    unused_id: i64,
}

/// The PEM text of `--cacert FILE`, when given.
pub fn read_cacert(path: Option<&std::path::Path>) -> Result<Option<Vec<u8>>, String> {
    path.map(|path| std::fs::read(path).map_err(|e| format!("--cacert {}: {e}", path.display()))).transpose()
}

impl Transport {
    /// HTTP to `urls`, taking turns.
    pub fn http(urls: Vec<String>, token: Option<String>) -> Result<Transport, String> {
        Transport::http_with(urls, token, Vec::new(), None)
    }

    /// HTTP to `urls`, taking turns, each request with `headers` too (`--header`). An
    /// `https://` URL's certificate must chain to the bundled public roots (webpki-roots) or to
    /// a certificate in `ca_pem`, PEM text (`--cacert`: a private or self-signed one).
    pub fn http_with(
        urls: Vec<String>,
        token: Option<String>,
        headers: Vec<(String, String)>,
        ca_pem: Option<&[u8]>,
    ) -> Result<Transport, String> {
        if urls.is_empty() {
            return Err("no URL to send to".into());
        }
        let mut builder = reqwest::Client::builder().timeout(RESPONSE_TIMEOUT).connect_timeout(CONNECT_TIMEOUT);
        if let Some(pem) = ca_pem {
            let certificates = reqwest::Certificate::from_pem_bundle(pem)
                .map_err(|e| format!("--cacert: not PEM certificates ({e})"))?;
            if certificates.is_empty() {
                return Err("--cacert: the file holds no certificate".into());
            }
            for certificate in certificates {
                builder = builder.add_root_certificate(certificate);
            }
        }
        let client = builder.build().map_err(|e| e.to_string())?;
        Ok(Transport::Http(Box::new(Http { client, urls, next: 0, token, headers, unused_id: 0 })))
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
        let stdout = BufReader::new(stdout).lines();
        Ok(Transport::Stdio(Box::new(Piped {
            child,
            stdin,
            stdout,
            awaited: HashSet::new(),
            early: HashMap::new(),
            unused_id: 0,
        })))
    }

    /// Where the next request goes, for the printed lines.
    pub fn name(&self) -> String {
        match self {
            Transport::Http(http) => http.urls[http.next % http.urls.len()].clone(),
            Transport::Stdio(_) => "stdio".into(),
        }
    }

    /// An id above every integer id sent on this connection: each new client starts its ids
    /// here, so that no id is sent twice and a late answer is never taken for another request's.
    pub fn unused_id(&self) -> i64 {
        match self {
            Transport::Http(http) => http.unused_id,
            Transport::Stdio(piped) => piped.unused_id,
        }
    }

    /// How many URLs take turns (1 over stdio).
    pub fn replicas(&self) -> usize {
        match self {
            Transport::Http(http) => http.urls.len(),
            Transport::Stdio(_) => 1,
        }
    }

    /// True over HTTP, where a bearer token says who speaks.
    pub fn carries_tokens(&self) -> bool {
        matches!(self, Transport::Http(_))
    }

    /// Sends one request and returns its response.
    pub async fn send(&mut self, message: &Value) -> Result<Value, String> {
        self.send_as(message, None).await
    }

    /// [`Transport::send`] with another bearer token than the transport's own (HTTP).
    pub async fn send_as(&mut self, message: &Value, bearer: Option<&str>) -> Result<Value, String> {
        self.exchange(message, bearer).await.body
    }

    /// Sends one request: the response with its HTTP status, or why none came.
    pub async fn exchange(&mut self, message: &Value, bearer: Option<&str>) -> Reply {
        match self {
            Transport::Http(http) => {
                let url = http.urls[http.next % http.urls.len()].clone();
                http.next += 1;
                http.unused_id = past(message, http.unused_id);
                post(&http.client, &url, bearer.or(http.token.as_deref()), &http.headers, message).await
            }
            Transport::Stdio(piped) => {
                let sent = piped.write(message).await;
                match sent {
                    Err(why) => Reply::from(Err(why)),
                    Ok(()) => Reply::from(piped.read_response(&message["id"]).await),
                }
            }
        }
    }

    /// Sends every request at once (over HTTP, spread over the URLs in turn; over stdio, every
    /// line written before any response is read) and gives the replies in the same order.
    pub async fn race(&mut self, messages: &[(Value, Option<String>)]) -> Vec<Reply> {
        match self {
            Transport::Http(http) => {
                let mut tasks = tokio::task::JoinSet::new();
                for (at, (message, bearer)) in messages.iter().enumerate() {
                    let url = http.urls[http.next % http.urls.len()].clone();
                    http.next += 1;
                    http.unused_id = past(message, http.unused_id);
                    let (client, headers, message) = (http.client.clone(), http.headers.clone(), message.clone());
                    let bearer = bearer.clone().or(http.token.clone());
                    tasks.spawn(async move { (at, post(&client, &url, bearer.as_deref(), &headers, &message).await) });
                }
                let mut replies: Vec<Reply> = messages.iter().map(|_| Reply::from(Err("not sent".into()))).collect();
                while let Some(done) = tasks.join_next().await {
                    if let Ok((at, reply)) = done {
                        if let Some(slot) = replies.get_mut(at) {
                            *slot = reply;
                        }
                    }
                }
                replies
            }
            Transport::Stdio(piped) => {
                for (message, _) in messages {
                    if let Err(why) = piped.write(message).await {
                        return messages.iter().map(|_| Reply::from(Err(why.clone()))).collect();
                    }
                }
                let mut replies = Vec::new();
                for (message, _) in messages {
                    replies.push(Reply::from(piped.read_response(&message["id"]).await));
                }
                replies
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

impl Piped {
    async fn write(&mut self, message: &Value) -> Result<(), String> {
        let stdin = self.stdin.as_mut().ok_or("the server's stdin is closed")?;
        stdin.write_all(format!("{message}\n").as_bytes()).await.map_err(|e| format!("stdio: {e}"))?;
        stdin.flush().await.map_err(|e| format!("stdio: {e}"))?;
        self.unused_id = past(message, self.unused_id);
        if let Some(id) = message.get("id") {
            self.awaited.insert(id.to_string());
        }
        Ok(())
    }

    /// The response to the request whose id is `id`. Responses to other requests still awaited
    /// are kept for their own reads; notifications, the server's own requests and anything else
    /// are passed over. Once read, or given up on, `id` is awaited no more.
    async fn read_response(&mut self, id: &Value) -> Result<Value, String> {
        let key = id.to_string();
        let read = match self.early.remove(&key) {
            Some(response) => Ok(response),
            None => self.read_until(id).await,
        };
        self.awaited.remove(&key);
        read
    }

    async fn read_until(&mut self, id: &Value) -> Result<Value, String> {
        let deadline = tokio::time::Instant::now() + RESPONSE_TIMEOUT;
        loop {
            let line = tokio::time::timeout_at(deadline, self.stdout.next_line())
                .await
                .map_err(|_| format!("stdio: no response in {} s", RESPONSE_TIMEOUT.as_secs()))?
                .map_err(|e| format!("stdio: {e}"))?
                .ok_or("stdio: the server closed its stdout")?;
            if line.trim().is_empty() {
                continue;
            }
            let message: Value = serde_json::from_str(&line)
                .map_err(|e| format!("stdio: the server wrote a line that is not JSON ({e})"))?;
            match answered(&message) {
                Some(other) if message.get("id") != Some(id) && self.awaited.contains(&other) => {
                    self.early.insert(other, message);
                }
                _ => {
                    if let Some(response) = mrtr_wire::sse::response_to(message, id) {
                        return Ok(response);
                    }
                }
            }
        }
    }
}

/// The id `message` answers, as its JSON text, when it is a response with an id.
fn answered(message: &Value) -> Option<String> {
    message.get("id").filter(|id| mrtr_wire::sse::is_response(message) && !id.is_null()).map(Value::to_string)
}

/// The words for a request that got no HTTP answer: the OS's reason where there is one.
fn unreachable(url: &str, error: &reqwest::Error) -> String {
    let mut source: Option<&dyn std::error::Error> = Some(error);
    let mut deepest = error.to_string();
    while let Some(cause) = source {
        deepest = cause.to_string();
        source = cause.source();
    }
    let what = if error.is_timeout() {
        "no answer in time"
    } else if error.is_connect() {
        "cannot connect"
    } else {
        "no answer"
    };
    let hint = if deepest.contains("certificate") {
        " (a self-signed or private certificate is trusted with --cacert FILE)"
    } else {
        ""
    };
    format!("{url}: {what}: {deepest}{hint}")
}

async fn post(
    client: &reqwest::Client,
    url: &str,
    token: Option<&str>,
    headers: &[(String, String)],
    message: &Value,
) -> Reply {
    let mut request = client.post(url);
    for (name, value) in mrtr_sim::protocol::http_headers(message) {
        request = request.header(name, value);
    }
    for (name, value) in headers {
        request = request.header(name.as_str(), value.as_str());
    }
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = match request.body(message.to_string()).send().await {
        Ok(response) => response,
        Err(e) => return Reply::from(Err(unreachable(url, &e))),
    };
    let status = response.status();
    let header = |name: &str| response.headers().get(name).and_then(|v| v.to_str().ok()).unwrap_or("").to_owned();
    let (kind, challenge) = (header("content-type"), header("www-authenticate"));
    let body = match response.text().await {
        Ok(body) => body,
        Err(e) => return Reply::http(status.as_u16(), Err(format!("{url}: HTTP {status}, the body broke off: {e}"))),
    };
    let parsed = if kind.starts_with("text/event-stream") {
        mrtr_wire::sse::response(&body, &message["id"]).map_err(|why| format!("{url}: HTTP {status}: {why}"))
    } else {
        serde_json::from_str(&body).map_err(|_| {
            let shown = mrtr_sim::text::clip(body.trim().lines().next().unwrap_or_default().to_owned(), 120);
            let challenge =
                if challenge.is_empty() { String::new() } else { format!(" (WWW-Authenticate: {challenge})") };
            format!("{url}: HTTP {status}{challenge}, and the body is not JSON: {shown}")
        })
    };
    let parsed = match (status.as_u16(), parsed) {
        (401 | 403, Ok(body)) if !challenge.is_empty() => Ok(with_challenge(body, &challenge)),
        (_, parsed) => parsed,
    };
    Reply::http(status.as_u16(), parsed)
}

/// A 401 or 403's JSON body with the `WWW-Authenticate` challenge beside it, for the report.
fn with_challenge(mut body: Value, challenge: &str) -> Value {
    if let Some(members) = body.as_object_mut() {
        members.insert("wwwAuthenticate".into(), challenge.into());
    }
    body
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A stdio server that reads `count` requests, then answers them last first, with a
    /// notification and a response to an id nobody sent among the answers.
    fn answers_backwards(count: usize) -> Transport {
        let script = format!(
            "import json, sys\n\
             ids = [json.loads(sys.stdin.readline())['id'] for _ in range({count})]\n\
             print(json.dumps({{'jsonrpc': '2.0', 'method': 'notifications/message', 'params': {{}}}}))\n\
             print(json.dumps({{'jsonrpc': '2.0', 'id': 999, 'result': {{}}}}))\n\
             for id in reversed(ids): print(json.dumps({{'jsonrpc': '2.0', 'id': id, 'result': {{'for': id}}}}))\n\
             sys.stdout.flush()\n\
             sys.stdin.read()\n"
        );
        Transport::stdio(&["python3".into(), "-c".into(), script]).expect("python3 starts")
    }

    #[tokio::test]
    async fn concurrent_answers_in_any_order_each_reach_their_request() {
        let mut transport = answers_backwards(3);
        let sends: Vec<_> = (7..10).map(|id| (json!({"jsonrpc": "2.0", "id": id, "method": "ping"}), None)).collect();
        let started = std::time::Instant::now();
        let replies = transport.race(&sends).await;
        let got: Vec<_> = replies.iter().map(|r| r.body.as_ref().ok().map(|b| b["result"]["for"].clone())).collect();
        assert_eq!(got, [Some(json!(7)), Some(json!(8)), Some(json!(9))]);
        assert!(started.elapsed() < RESPONSE_TIMEOUT / 2, "no reply waited for its timeout");
        assert_eq!(transport.unused_id(), 10, "the next client starts past every id sent");
        transport.close().await;
    }

    #[test]
    fn a_cacert_that_is_missing_or_holds_no_certificate_is_refused_with_its_reason() {
        let missing = read_cacert(Some(std::path::Path::new("/no/such/ca.pem")));
        assert!(missing.is_err_and(|why| why.starts_with("--cacert /no/such/ca.pem: ")));
        let urls = vec!["https://127.0.0.1:9/mcp".to_owned()];
        let empty = Transport::http_with(urls.clone(), None, Vec::new(), Some(b"not a certificate"));
        assert!(empty.is_err_and(|why| why == "--cacert: the file holds no certificate"));
        assert!(Transport::http_with(urls, None, Vec::new(), None).is_ok());
    }

    #[test]
    fn the_unused_id_passes_every_integer_id_sent() {
        assert_eq!(past(&json!({"id": 4}), 0), 5);
        assert_eq!(past(&json!({"id": 4}), 9), 9);
        assert_eq!(past(&json!({"id": "a"}), 3), 3);
        assert_eq!(past(&json!({"id": i64::MAX}), 0), i64::MAX);
        assert_eq!(past(&json!({"method": "notifications/initialized"}), 2), 2);
    }
}
