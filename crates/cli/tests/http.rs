//! `mrtr serve --http`: the Streamable HTTP endpoint answers hostile and malformed input with
//! the status and the error the transports page gives it, and keeps serving.

mod common;

use common::crowd::Heard;
use common::{post, request, Served};
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::time::{Duration, Instant};

fn client() -> reqwest::Client {
    reqwest::Client::builder().timeout(Duration::from_secs(20)).build().expect("a client")
}

/// A raw POST: these headers, this body.
async fn raw(client: &reqwest::Client, url: &str, headers: &[(&str, &str)], body: Vec<u8>) -> (u16, Value) {
    let mut builder = client.post(url);
    for (name, value) in headers {
        builder = builder.header(*name, *value);
    }
    let response = builder.body(body).send().await.expect("the server answers");
    let status = response.status().as_u16();
    (status, serde_json::from_str(&response.text().await.unwrap_or_default()).unwrap_or(Value::Null))
}

/// A raw connection to the server at `url`, reads bounded by 20 s, and its `host:port`: for
/// what an HTTP client library would not send.
fn connect(url: &str) -> (std::net::TcpStream, String) {
    let address = url.trim_start_matches("http://").trim_end_matches("/mcp").to_owned();
    let socket = std::net::TcpStream::connect(&address).expect("connects");
    socket.set_read_timeout(Some(Duration::from_secs(20))).expect("a read timeout");
    (socket, address)
}

/// What the server says to headers announcing a body over 1 MiB: it answers from the
/// announced length, before any of the body is sent (so no client is cut off mid-send).
fn too_large(url: &str) -> String {
    let (mut socket, address) = connect(url);
    let length = (1 << 20) + 1;
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nContent-Length: {length}\r\n\r\n"
    );
    socket.write_all(head.as_bytes()).expect("the headers");
    let mut answer = [0u8; 64];
    let read = socket.read(&mut answer).unwrap_or(0);
    String::from_utf8_lossy(&answer[..read]).into_owned()
}

const JSON: (&str, &str) = ("content-type", "application/json");
const VERSION: (&str, &str) = ("mcp-protocol-version", "2026-07-28");

#[tokio::test]
async fn malformed_requests_get_the_transports_pages_answers() {
    let served = Served::start(&[]);
    let (client, url) = (client(), served.url.as_str());
    let list = request(1, "tools/list", json!({}));
    let body = |v: &Value| v.to_string().into_bytes();
    let list_headers = [JSON, VERSION, ("mcp-method", "tools/list")];

    assert!(too_large(url).starts_with("HTTP/1.1 413"), "a body over 1 MiB");
    let (status, error) = raw(&client, url, &list_headers, b"{\"jsonrpc\": ".to_vec()).await;
    assert_eq!((status, error["error"]["code"].clone()), (400, json!(-32700)), "not JSON");
    let (status, error) = raw(&client, url, &list_headers, vec![b'"', 0xff, 0xfe, b'"']).await;
    assert_eq!((status, error["error"]["code"].clone()), (400, json!(-32700)), "not UTF-8");
    let (status, _) = raw(&client, url, &[("content-type", "text/plain"), VERSION], body(&list)).await;
    assert_eq!(status, 415, "the wrong content type");
    let (status, error) = raw(&client, url, &[JSON, ("mcp-method", "tools/list")], body(&list)).await;
    assert_eq!((status, error["error"]["code"].clone(), error["id"].clone()), (400, json!(-32020), json!(1)));
    assert!(error["error"]["message"].as_str().is_some_and(|m| m.contains("MCP-Protocol-Version")));
    let (status, error) = raw(&client, url, &[JSON, VERSION, ("mcp-method", "prompts/list")], body(&list)).await;
    assert_eq!((status, error["error"]["code"].clone()), (400, json!(-32020)), "Mcp-Method mismatched");
    let call = request(2, "tools/call", json!({"name": "deploy", "arguments": {"env": "staging"}}));
    let call_headers = [JSON, VERSION, ("mcp-method", "tools/call"), ("mcp-name", "greedy")];
    let (status, error) = raw(&client, url, &call_headers, body(&call)).await;
    assert_eq!((status, error["error"]["code"].clone()), (400, json!(-32020)), "Mcp-Name mismatched");
    let (status, error) = raw(&client, url, &[JSON, VERSION, ("mcp-method", "tools/call")], body(&call)).await;
    assert_eq!((status, error["error"]["code"].clone()), (400, json!(-32020)), "Mcp-Name missing");
    let (status, _) = raw(&client, url, &[JSON, ("origin", "https://evil.example")], body(&list)).await;
    assert_eq!(status, 403, "another site's page");

    let bob = Some("bob-token");
    let (status, error) = post(&client, url, &request(3, "tools/destroy", json!({})), bob).await;
    assert_eq!((status, error["error"]["code"].clone()), (404, json!(-32601)), "an unknown method");
    let (status, error) =
        post(&client, url, &request(4, "initialize", json!({"protocolVersion": "2025-11-25"})), bob).await;
    assert_eq!((status, error["error"]["data"]["supported"].clone()), (404, json!(["2026-07-28"])));
    let (status, _) = post(&client, url, &request(5, "tools/list", json!({})), Some("mallory-token")).await;
    assert_eq!(status, 401, "a token nobody was given");
    let nobody = client
        .post(url)
        .header("content-type", "application/json")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/list")
        .body(list.to_string())
        .send()
        .await
        .expect("an answer");
    assert_eq!(nobody.status().as_u16(), 401, "no token at all");
    assert_eq!(nobody.headers().get("www-authenticate").and_then(|v| v.to_str().ok()), Some("Bearer"));
    let twice = [
        JSON,
        VERSION,
        ("mcp-method", "tools/list"),
        ("mcp-method", "tools/list"),
        ("authorization", "Bearer bob-token"),
    ];
    let (status, error) = raw(&client, url, &twice, body(&list)).await;
    assert_eq!((status, error["error"]["code"].clone()), (400, json!(-32020)), "a header given twice");
    assert_eq!(foreign_host(url), 403, "a Host that is not this server's (DNS rebinding)");
    let notification = json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {}});
    let with_bob = [JSON, ("authorization", "Bearer bob-token")];
    let (status, body) = raw(&client, url, &with_bob, notification.to_string().into_bytes()).await;
    assert_eq!((status, body), (202, Value::Null), "a notification");
    let get = client.get(url).send().await.expect("an answer");
    assert_eq!(get.status().as_u16(), 405, "no GET stream");

    // Through all of it the server kept serving.
    let (status, listed) = post(&client, url, &list, Some("bob-token")).await;
    assert_eq!(status, 200);
    assert!(listed["result"]["tools"].as_array().is_some_and(|tools| !tools.is_empty()));
}

#[tokio::test]
async fn a_full_round_trip_over_http_with_bobs_token() {
    let served = Served::start(&[]);
    let (client, url) = (client(), served.url.as_str());
    let params = json!({"name": "deploy", "arguments": {"env": "staging"}});
    let (status, first) = post(&client, url, &request(1, "tools/call", params.clone()), Some("bob-token")).await;
    assert_eq!((status, first["result"]["resultType"].clone()), (200, json!("input_required")));
    let mut retry = params.clone();
    retry["inputResponses"] = json!({"confirm": {"action": "accept", "content": {"confirm": true}}});
    retry["requestState"] = first["result"]["requestState"].clone();
    let (_, by_alice) = post(&client, url, &request(2, "tools/call", retry.clone()), Some("alice-token")).await;
    assert_eq!(by_alice["error"]["data"]["check"], "principal", "alice presents bob's ticket");
    let (_, done) = post(&client, url, &request(3, "tools/call", retry.clone()), Some("bob-token")).await;
    assert_eq!(done["result"]["content"][0]["text"], "deployed to staging");
    let (_, again) = post(&client, url, &request(4, "tools/call", retry), Some("bob-token")).await;
    assert_eq!(again["error"]["data"]["check"], "single-use", "the record in memory by default");
    let (status, invalid) = post(
        &client,
        url,
        &request(5, "tools/call", json!({"name": "deploy", "arguments": {"env": 7}})),
        Some("bob-token"),
    )
    .await;
    assert_eq!((status, invalid["result"]["isError"].clone()), (200, json!(true)), "a tool error a model can read");
}

#[tokio::test]
async fn anonymous_requests_are_served_only_when_allowed() {
    let served = Served::start(&["--allow-anonymous"]);
    let (status, listed) = post(&client(), &served.url, &request(1, "tools/list", json!({})), None).await;
    assert_eq!(status, 200, "{listed}");
}

/// The status a request gets whose `Host` names another site (a page that rebound its DNS
/// name to this machine).
fn foreign_host(url: &str) -> u16 {
    let (mut socket, _) = connect(url);
    let body = request(1, "tools/list", json!({})).to_string();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: evil.example\r\nContent-Type: application/json\r\nMCP-Protocol-Version: 2026-07-28\r\n\
         Mcp-Method: tools/list\r\nAuthorization: Bearer bob-token\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    socket.write_all(head.as_bytes()).expect("the request");
    let mut answer = String::new();
    let _ = socket.read_to_string(&mut answer);
    answer.get(9..12).and_then(|code| code.parse().ok()).unwrap_or(0)
}

#[test]
fn a_client_that_sends_its_headers_slowly_is_cut_off() {
    let served = Served::start(&[]);
    let (mut socket, _) = connect(&served.url);
    socket.write_all(b"POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: appl").expect("half the headers");
    let started = Instant::now();
    let mut rest = Vec::new();
    // The server closes the connection (perhaps after a 408): the read ends, it does not hang.
    let _ = socket.read_to_end(&mut rest);
    assert!(started.elapsed() < Duration::from_secs(19), "still open after {:?}", started.elapsed());
    let said = String::from_utf8_lossy(&rest);
    assert!(rest.is_empty() || said.starts_with("HTTP/1.1 408"), "{said}");
}

#[tokio::test]
async fn the_fuzz_corpus_and_random_bytes_as_bodies_are_all_answered() {
    let served = Served::start(&[]);
    let (client, url) = (client(), served.url.as_str());
    let seeds = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fuzz/seeds");
    let mut bodies: Vec<Vec<u8>> = std::fs::read_dir(seeds)
        .into_iter()
        .flatten()
        .flatten()
        .flat_map(|target| std::fs::read_dir(target.path()).into_iter().flatten().flatten())
        .filter_map(|seed| std::fs::read(seed.path()).ok())
        .collect();
    assert!(!bodies.is_empty(), "the committed fuzz seeds");
    let mut random = mrtr_ticket::SplitMix64::new(11);
    for _ in 0..200 {
        let mut body = vec![0; random.below(600) as usize];
        mrtr_ticket::NonceSource::fill(&mut random, &mut body);
        bodies.push(body);
    }
    for body in bodies {
        let headers = [JSON, VERSION, ("mcp-method", "tools/list"), ("authorization", "Bearer bob-token")];
        let (status, _) = raw(&client, url, &headers, body).await;
        assert!((200..500).contains(&status), "an answer, not a failure: {status}");
    }
    let (status, _) = post(&client, url, &request(9, "tools/list", json!({})), Some("bob-token")).await;
    assert_eq!(status, 200, "still serving");
}

/// A panic in one request answers -32603, and the server keeps serving: whether the request
/// was answered on the async threads (no ticket) or in the blocking pool (a ticket).
#[cfg(feature = "careless")]
#[tokio::test]
async fn a_panic_in_one_request_is_answered_and_the_server_keeps_serving() {
    let served = Served::start(&[]);
    let (client, url) = (client(), served.url.as_str());
    for params in [json!({}), json!({"requestState": "v1.e30.AAAA"})] {
        let (status, error) = post(&client, url, &request(1, "mrtr/test-panic", params), Some("bob-token")).await;
        assert_eq!((status, error["error"]["code"].clone()), (500, json!(-32603)), "{error}");
        let (status, listed) = post(&client, url, &request(2, "tools/list", json!({})), Some("bob-token")).await;
        assert_eq!(status, 200, "{listed}");
    }
}

/// A flood of connections that announce a body and never send it (more than the server keeps
/// open at once) holds no client off for long: each is cut off once its body is late, and an
/// honest request is answered soon after.
#[test]
fn a_flood_of_silent_bodies_is_cut_off_and_the_server_serves_again() {
    let served = Served::start(&[]);
    let address = served.url.trim_start_matches("http://").trim_end_matches("/mcp").to_owned();
    let started = Instant::now();
    let mut silent = Vec::new();
    for _ in 0..1_100 {
        let Ok(mut socket) = std::net::TcpStream::connect(&address) else { break };
        let head = format!(
            "POST /mcp HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n"
        );
        if socket.write_all(head.as_bytes()).is_ok() {
            silent.push(socket);
        }
    }
    assert_eq!(silent.len(), 1_100, "every flooding connection was made");
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
    let (status, listed) = runtime.block_on(async {
        let client = reqwest::Client::builder().timeout(Duration::from_secs(30)).build().expect("a client");
        post(&client, &served.url, &request(1, "tools/list", json!({})), Some("bob-token")).await
    });
    let waited = started.elapsed();
    assert_eq!(status, 200, "{listed}");
    // A body has 5 s to arrive and at most 512 connections are open: the 1,100 are cut off in
    // batches of 512, every 5 s, and the honest request, queued behind them by the kernel, is
    // answered when its batch is accepted: within three batches.
    assert!(waited < Duration::from_secs(20), "answered after {waited:?}");
    // The flooding connections were closed by the server, each after its body was late.
    let mut closed = 0;
    for socket in &mut silent {
        socket.set_read_timeout(Some(Duration::from_secs(20))).expect("a read timeout");
        let mut rest = Vec::new();
        if socket.read_to_end(&mut rest).is_ok() {
            closed += 1;
        }
    }
    assert_eq!(closed, 1_100, "the server closed every silent connection");
    println!("flood: answered after {waited:?}; every silent connection closed after {:?}", started.elapsed());
}

/// `--threads N` sets how many worker threads answer HTTP requests.
#[test]
fn threads_sets_the_worker_threads() {
    let workers = |served: &Served| {
        let tasks = std::fs::read_dir(format!("/proc/{}/task", served.pid())).expect("its threads");
        tasks
            .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("comm")).ok())
            .filter(|name| name.trim() == "tokio-rt-worker")
            .count()
    };
    // Each thread names itself once it runs: a busy machine may take a moment.
    let settled = |served: &Served, expected: usize| {
        let asked = Instant::now();
        while workers(served) < expected && asked.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(20));
        }
        std::thread::sleep(Duration::from_millis(200));
        workers(served)
    };
    assert_eq!(settled(&Served::start(&["--threads", "1"]), 1), 1);
    assert_eq!(settled(&Served::start(&["--threads", "3"]), 3), 3);
}

/// Twice the connection cap of clients at once, each holding its connection open: every one
/// is answered, 200 within the cap and 503 with `Retry-After` past it, and none is closed
/// unanswered; then the server serves as before.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn twice_the_connection_cap_at_once_are_all_answered() {
    let served = Served::start(&[]);
    let address = served.url.trim_start_matches("http://").trim_end_matches("/mcp").to_owned();
    let list = request(1, "tools/list", json!({})).to_string();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nAuthorization: Bearer bob-token\r\n\
         MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/list\r\nContent-Length: {}\r\n\r\n{list}",
        list.len()
    );
    let clients = 2 * mrtr::http::MAX_CONNECTIONS;
    let heard = common::crowd::crowd(&address, clients, head.as_bytes()).await;
    let count = |wanted: &Heard| heard.iter().filter(|h| *h == wanted).count();
    let (ok, busy) = (count(&Heard::Status(200, false)), count(&Heard::Status(503, true)));
    println!("{clients} clients at once: {ok} answered 200, {busy} answered 503 with Retry-After");
    let other: Vec<&Heard> =
        heard.iter().filter(|h| **h != Heard::Status(200, false) && **h != Heard::Status(503, true)).collect();
    assert!(other.is_empty(), "every client hears 200 or 503 with Retry-After: {:?}", &other[..other.len().min(5)]);
    assert!(ok >= mrtr::http::MAX_CONNECTIONS / 2, "most of the cap is served: {ok}");
    let (status, _) = post(&client(), &served.url, &request(2, "tools/list", json!({})), Some("bob-token")).await;
    assert_eq!(status, 200, "and the server serves as before");
}

/// A body announced and never sent is answered 408, with a JSON-RPC error saying so, when
/// its time is up.
#[test]
fn a_body_that_never_arrives_is_answered_408() {
    let served = Served::start(&[]);
    let (mut socket, address) = connect(&served.url);
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nAuthorization: Bearer bob-token\r\n\
         Content-Length: 64\r\nConnection: close\r\n\r\n"
    );
    socket.write_all(head.as_bytes()).expect("the headers");
    let mut answer = String::new();
    let _ = socket.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    let body = answer.split_once("\r\n\r\n").map_or("", |(_, body)| body);
    let error: Value = serde_json::from_str(body).expect("a JSON-RPC error");
    assert_eq!(error["error"]["code"], -32600, "{error}");
}
