//! The Streamable HTTP transport of 2026-07-28, stateless: one endpoint, `POST /mcp`, one
//! JSON-RPC request per POST answered with one JSON object; no sessions and no GET stream
//! (GET and DELETE get 405). Before the body reaches the server core, the transport checks
//! what the transports page asks of it:
//!
//! - `Origin`, when present, must be an allowed origin (403);
//! - `Content-Type` must be `application/json` (415); a body over 1 MiB gets 413;
//! - `MCP-Protocol-Version`, `Mcp-Method` and, for `tools/call`, `prompts/get` and
//!   `resources/read`, `Mcp-Name` must be there and match the body (400, `HeaderMismatch`);
//! - `Host` must name this server: a loopback name, or one given with `--allow-host` (403:
//!   a page on another site cannot reach it by DNS rebinding);
//! - each MCP header comes once (400);
//! - `Authorization: Bearer <token>` names the principal (an unknown token, or none unless
//!   anonymous requests are allowed, gets 401 with `WWW-Authenticate: Bearer`).
//!
//! A notification gets 202 with no body; an unknown method 404 with -32601; an unsupported
//! version, a missing capability or a malformed request 400; every other answer 200.
//!
//! Bounded work: a client that sends its headers or its body too slowly is cut off, idle
//! connections close, at most [`MAX_CONNECTIONS`] are served at once, and at most
//! `max_in_flight` requests that carry a ticket to a Redis record (the only ones that may
//! wait) are answered at once: one more gets 503 with `Retry-After`. A request without a
//! ticket, or with a memory record, never waits. Past the connection cap a connection is still
//! accepted and answered, 503 with `Retry-After` and closed, while as many again are open; only
//! past both does the next wait in the system's queue to be accepted. No connection the server
//! accepted is closed without an answer to a request it sent. On SIGTERM or SIGINT the server
//! stops accepting, finishes the requests in flight (up to [`DRAIN`]), and returns.

use crate::log;
use crate::service::Service;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use mrtr_sim::jsonrpc::{self, HEADER_MISMATCH, INVALID_REQUEST, PARSE_ERROR};
use mrtr_sim::protocol::{read_header_value, META_VERSION};
use mrtr_sim::server::Incoming;
use serde_json::Value;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tower::ServiceExt as _;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::cors::{AllowOrigin, CorsLayer};
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::timeout::{RequestBodyTimeoutLayer, TimeoutLayer};

/// The largest body the endpoint reads.
pub const MAX_BODY: usize = 1 << 20;
/// How long a client may take to send its request's headers.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(5);
/// How long a client may take to send its request's body.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(5);
/// How long one request may take in all.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// The most connections open at once.
pub const MAX_CONNECTIONS: usize = 512;
/// How long a stopping server waits for the requests in flight.
pub const DRAIN: Duration = Duration::from_secs(10);

/// How the endpoint is set up.
#[derive(Debug, Clone)]
pub struct HttpOptions {
    /// Origins a browser page may call from, beside loopback ones (`http://localhost:*`,
    /// `http://127.0.0.1:*`, `http://[::1]:*`), which are always allowed.
    pub origins: Vec<String>,
    /// Hosts the endpoint answers to, beside `localhost`, `127.0.0.1` and `[::1]`.
    pub hosts: Vec<String>,
    /// Serve requests without a bearer token (as `anonymous`) instead of answering 401.
    pub allow_anonymous: bool,
    /// The most requests carrying a ticket answered at once.
    pub max_in_flight: usize,
}

struct Endpoint {
    service: Arc<Service>,
    options: HttpOptions,
    in_flight: Arc<tokio::sync::Semaphore>,
}

/// The router: `POST /mcp`, with the body limit, the request timeout and CORS.
pub fn router(service: Arc<Service>, options: HttpOptions) -> Router {
    let in_flight = Arc::new(tokio::sync::Semaphore::new(options.max_in_flight.max(1)));
    let endpoint = Arc::new(Endpoint { service, options: options.clone(), in_flight });
    let cors = CorsLayer::new()
        .allow_origin(AllowOrigin::predicate(move |origin, _| allowed(origin, &options.origins)))
        .allow_methods([Method::POST])
        // A page from a public site calling a server on this machine asks first (Chrome's
        // private-network access): the lab's "Test your server" panel is such a page.
        .allow_private_network(true)
        .allow_headers([
            header::CONTENT_TYPE,
            header::AUTHORIZATION,
            header::ACCEPT,
            "mcp-protocol-version".parse().unwrap_or(header::ACCEPT),
            "mcp-method".parse().unwrap_or(header::ACCEPT),
            "mcp-name".parse().unwrap_or(header::ACCEPT),
        ]);
    Router::new()
        .route("/mcp", post(mcp))
        .with_state(endpoint)
        .layer(cors)
        .layer(CatchPanicLayer::custom(panicked))
        .layer(RequestBodyLimitLayer::new(MAX_BODY))
        .layer(RequestBodyTimeoutLayer::new(BODY_TIMEOUT))
        .layer(TimeoutLayer::with_status_code(StatusCode::REQUEST_TIMEOUT, REQUEST_TIMEOUT))
}

/// Serves `router` on `addr` until `stop` resolves, then drains (see [`serve_on`]).
pub async fn serve(
    addr: SocketAddr,
    router: Router,
    stop: impl std::future::Future<Output = ()>,
) -> std::io::Result<()> {
    let listener = tokio::net::TcpListener::bind(addr).await?;
    serve_on(listener, router, stop).await
}

/// Serves `router` on a listener already bound (a test binds port 0 and reads the port) until
/// `stop` resolves; then stops accepting and waits up to [`DRAIN`] for the requests in flight
/// to be answered. A client that takes longer than [`HEADER_TIMEOUT`] to send its headers, or
/// to send the next request on a kept-alive connection, is cut off.
pub async fn serve_on(
    listener: tokio::net::TcpListener,
    router: Router,
    stop: impl std::future::Future<Output = ()>,
) -> std::io::Result<()> {
    serve_limited(listener, router, stop, MAX_CONNECTIONS).await
}

/// [`serve_on`] with at most `max_connections` served at once, and as many again answered 503
/// with `Retry-After` (see the module's doc). Every request carries its connection's peer
/// address as axum's `ConnectInfo<SocketAddr>`.
pub async fn serve_limited(
    listener: tokio::net::TcpListener,
    router: Router,
    stop: impl std::future::Future<Output = ()>,
    max_connections: usize,
) -> std::io::Result<()> {
    raise_file_limit(2 * max_connections);
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    let served = Arc::new(tokio::sync::Semaphore::new(max_connections.max(1)));
    let turned_away = Arc::new(tokio::sync::Semaphore::new(max_connections.max(1)));
    tokio::pin!(stop);
    loop {
        // Both budgets spent: the next connection waits in the system's queue, not accepted.
        if served.available_permits() == 0 && turned_away.available_permits() == 0 {
            tokio::select! {
                _ = served.acquire() => {}
                _ = turned_away.acquire() => {}
                () = &mut stop => break,
            }
        }
        let (socket, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                // Out of file descriptors, say: wait a moment and keep serving.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        let io = TokioIo::new(socket);
        let mut builder = hyper::server::conn::http1::Builder::new();
        builder.timer(TokioTimer::new()).header_read_timeout(HEADER_TIMEOUT);
        let (permit, at_cap) = if let Ok(permit) = served.clone().try_acquire_owned() {
            (permit, false)
        } else if let Ok(permit) = turned_away.clone().try_acquire_owned() {
            (permit, true)
        } else {
            // A budget was spent between the look above and this accept: this one waits its turn.
            let Ok(permit) = served.clone().acquire_owned().await else { break };
            (permit, false)
        };
        if at_cap {
            let connection = builder.keep_alive(false).serve_connection(io, hyper::service::service_fn(at_capacity));
            spawn_watched(&graceful, connection, permit);
        } else {
            let router = router.clone();
            let service = hyper::service::service_fn(move |mut request: axum::http::Request<hyper::body::Incoming>| {
                request.extensions_mut().insert(axum::extract::ConnectInfo(peer));
                router.clone().oneshot(request)
            });
            spawn_watched(&graceful, builder.serve_connection(io, service), permit);
        }
    }
    drop(listener);
    let _ = tokio::time::timeout(DRAIN, graceful.shutdown()).await;
    Ok(())
}

/// Serves `connection` on a task of its own, watched for the graceful stop; `permit` is given
/// back when it closes.
fn spawn_watched<C>(
    graceful: &hyper_util::server::graceful::GracefulShutdown,
    connection: C,
    permit: tokio::sync::OwnedSemaphorePermit,
) where
    C: hyper_util::server::graceful::GracefulConnection + Send + 'static,
    C::Output: Send,
{
    let watched = graceful.watch(connection);
    tokio::spawn(async move {
        let _ = watched.await;
        drop(permit);
    });
}

/// The answer to a request on a connection past the cap: its body read (so that the client
/// hears the answer, not a reset), then 503 with `Retry-After`, and the connection closed.
async fn at_capacity(
    request: axum::http::Request<hyper::body::Incoming>,
) -> Result<axum::http::Response<axum::body::Body>, std::convert::Infallible> {
    let body = axum::body::Body::new(request.into_body());
    let _ = tokio::time::timeout(BODY_TIMEOUT, axum::body::to_bytes(body, MAX_BODY)).await;
    let said = r#"{"error":"the server has as many connections as it serves at once: retry in a second"}"#;
    let mut response = axum::http::Response::new(axum::body::Body::from(said));
    *response.status_mut() = StatusCode::SERVICE_UNAVAILABLE;
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    headers.insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
    Ok(response)
}

/// Raises this process's open-file limit as far as the system lets it, up to what `connections`
/// sockets and the rest of the process need (a shell gives 1,024 by default); says so on
/// stderr when the system keeps it lower.
pub fn raise_file_limit(connections: usize) {
    let wanted = connections as u64 + 256;
    match rlimit::increase_nofile_limit(wanted) {
        Ok(got) if got < wanted => eprintln!(
            "open files: at most {got} here (the system's hard limit), fewer than {wanted} for {connections} \
             connections: raise it (ulimit -Hn, systemd's LimitNOFILE=)"
        ),
        Ok(_) => {}
        Err(e) => eprintln!("open files: the limit could not be raised ({e})"),
    }
}

/// Resolves on SIGTERM or SIGINT: how every server of this crate is told to stop (a
/// container's or systemd's stop sends SIGTERM, a terminal's Ctrl-C SIGINT).
pub async fn stop_signal() {
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        () = terminate => {}
    }
}

/// The host part of a `Host` header: `127.0.0.1:3077` → `127.0.0.1`, `[::1]:80` → `[::1]`.
fn host_name(host: &str) -> &str {
    match host.rsplit_once(':') {
        Some((name, port)) if !name.is_empty() && port.bytes().all(|b| b.is_ascii_digit()) && !name.ends_with(':') => {
            name
        }
        _ => host,
    }
}

/// A loopback host, or one of `extra` (compared without case).
fn host_allowed(host: &str, extra: &[String]) -> bool {
    let name = host_name(host);
    matches!(name, "localhost" | "127.0.0.1" | "[::1]")
        || extra.iter().any(|allowed| allowed.eq_ignore_ascii_case(name))
}

/// A loopback origin, or one of `extra`.
fn allowed(origin: &HeaderValue, extra: &[String]) -> bool {
    let Ok(origin) = origin.to_str() else { return false };
    if extra.iter().any(|allowed| allowed == origin) {
        return true;
    }
    let Some(rest) = origin.strip_prefix("http://").or_else(|| origin.strip_prefix("https://")) else {
        return false;
    };
    let host = match rest.rsplit_once(':') {
        Some((host, port)) if !host.is_empty() && port.bytes().all(|b| b.is_ascii_digit()) => host,
        _ => rest,
    };
    matches!(host, "localhost" | "127.0.0.1" | "[::1]")
}

/// A request that panicked: -32603, and the server keeps serving.
fn panicked(_: Box<dyn std::any::Any + Send + 'static>) -> Response {
    refuse(StatusCode::INTERNAL_SERVER_ERROR, Value::Null, jsonrpc::INTERNAL_ERROR, "Internal error")
}

/// A JSON-RPC error as an HTTP response.
fn refuse(status: StatusCode, id: Value, code: i64, message: &str) -> Response {
    json_response(status, jsonrpc::error(id, code, message, None).to_string())
}

/// `response` with one more header.
fn with_header(mut response: Response, name: header::HeaderName, value: &'static str) -> Response {
    response.headers_mut().insert(name, HeaderValue::from_static(value));
    response
}

fn json_response(status: StatusCode, body: String) -> Response {
    (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

/// The HTTP status for an answer: what the transports page gives each error.
fn status_of(response: &Value) -> StatusCode {
    match jsonrpc::error_code(response) {
        Some(jsonrpc::METHOD_NOT_FOUND) => StatusCode::NOT_FOUND,
        Some(
            PARSE_ERROR
            | INVALID_REQUEST
            | HEADER_MISMATCH
            | jsonrpc::MISSING_CAPABILITY
            | jsonrpc::UNSUPPORTED_VERSION,
        ) => StatusCode::BAD_REQUEST,
        _ => StatusCode::OK,
    }
}

/// A header's value, decoded from the `=?base64?…?=` form where it uses it.
fn header_text(headers: &HeaderMap, name: &str) -> Result<Option<String>, String> {
    let Some(value) = headers.get(name) else { return Ok(None) };
    let text = value.to_str().map_err(|_| format!("the {name} header holds characters a header may not"))?;
    read_header_value(text).map(Some).ok_or_else(|| format!("the {name} header's base64 value does not decode to text"))
}

/// Checks the request metadata headers against the body (Server Validation).
fn check_headers(headers: &HeaderMap, message: &Value) -> Result<(), String> {
    for name in ["mcp-protocol-version", "mcp-method", "mcp-name"] {
        if headers.get_all(name).iter().count() > 1 {
            return Err(format!("the {name} header appears more than once"));
        }
    }
    let version = header_text(headers, "mcp-protocol-version")?.ok_or("the MCP-Protocol-Version header is missing")?;
    let body_version = message.pointer("/params/_meta").and_then(|m| m.get(META_VERSION)).and_then(Value::as_str);
    if body_version != Some(version.as_str()) {
        return Err(format!(
            "MCP-Protocol-Version header value '{version}' does not match body value '{}'",
            body_version.unwrap_or("(none)")
        ));
    }
    let method = message.get("method").and_then(Value::as_str).unwrap_or_default();
    let header_method = header_text(headers, "mcp-method")?.ok_or("the Mcp-Method header is missing")?;
    if header_method != method {
        return Err(format!("Mcp-Method header value '{header_method}' does not match body value '{method}'"));
    }
    let Some(name_member) = mrtr_sim::protocol::target_member(method) else { return Ok(()) };
    let body_name = message.get("params").and_then(|p| p.get(name_member)).and_then(Value::as_str);
    let name = header_text(headers, "mcp-name")?.ok_or("the Mcp-Name header is missing")?;
    if body_name != Some(name.as_str()) {
        return Err(format!(
            "Mcp-Name header value '{name}' does not match body value '{}'",
            body_name.unwrap_or("(none)")
        ));
    }
    Ok(())
}

/// Whether a request's body could not be read because its time ran out (tower-http's body
/// timeout is among the error's causes): the transport answers 408, as every server of the
/// crate does.
pub fn timed_out(error: &(dyn std::error::Error + 'static)) -> bool {
    let mut cause = Some(error);
    while let Some(error) = cause {
        if error.is::<tower_http::timeout::TimeoutError>() {
            return true;
        }
        cause = error.source();
    }
    false
}

async fn mcp(
    State(endpoint): State<Arc<Endpoint>>,
    headers: HeaderMap,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Response {
    let body = match body {
        Ok(body) => body,
        Err(rejection) if timed_out(&rejection) => {
            let message = format!("Request Timeout: the body did not arrive within {} s", BODY_TIMEOUT.as_secs());
            return refuse(StatusCode::REQUEST_TIMEOUT, Value::Null, INVALID_REQUEST, &message);
        }
        Err(rejection) => {
            let message = format!("Bad request: {}", rejection.body_text());
            return refuse(rejection.status(), Value::Null, INVALID_REQUEST, &message);
        }
    };
    match headers.get(header::HOST).map(HeaderValue::to_str) {
        Some(Ok(host)) if host_allowed(host, &endpoint.options.hosts) => {}
        Some(Ok(host)) => {
            let message = format!(
                "Forbidden: this server does not answer to the Host {host} (start it with --allow-host {})",
                host_name(host)
            );
            return refuse(StatusCode::FORBIDDEN, Value::Null, INVALID_REQUEST, &message);
        }
        _ => return refuse(StatusCode::BAD_REQUEST, Value::Null, INVALID_REQUEST, "Bad request: no Host header"),
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        if !allowed(origin, &endpoint.options.origins) {
            let shown = origin.to_str().unwrap_or("(not text)");
            return refuse(
                StatusCode::FORBIDDEN,
                Value::Null,
                INVALID_REQUEST,
                &format!("Forbidden: origin {shown} may not call this server"),
            );
        }
    }
    let json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"));
    if !json {
        let message = "Unsupported Media Type: the body must be application/json";
        return refuse(StatusCode::UNSUPPORTED_MEDIA_TYPE, Value::Null, INVALID_REQUEST, message);
    }
    let Ok(line) = std::str::from_utf8(&body) else {
        return refuse(StatusCode::BAD_REQUEST, Value::Null, PARSE_ERROR, "Parse error: the body is not UTF-8 text");
    };
    let message = match serde_json::from_str::<Value>(line) {
        Ok(message) => message,
        Err(e) => return refuse(StatusCode::BAD_REQUEST, Value::Null, PARSE_ERROR, &format!("Parse error: {e}")),
    };
    let id =
        message.get("id").cloned().filter(|id| id.is_string() || id.is_i64() || id.is_u64()).unwrap_or(Value::Null);
    // A request has a method and an id; a notification (no id) has no headers defined for it.
    let is_request = message.get("method").is_some_and(Value::is_string) && !id.is_null();
    if is_request {
        if let Err(why) = check_headers(&headers, &message) {
            return refuse(StatusCode::BAD_REQUEST, id, HEADER_MISMATCH, &format!("Header mismatch: {why}"));
        }
    }
    let bearer = headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()).map(|v| v.trim());
    let bearer = match bearer {
        None if !endpoint.options.allow_anonymous => {
            let message = "Unauthorized: send a bearer token (Authorization: Bearer <token>)";
            let unauthorized = refuse(StatusCode::UNAUTHORIZED, id, INVALID_REQUEST, message);
            return with_header(unauthorized, header::WWW_AUTHENTICATE, mrtr_wire::bearer::CHALLENGE);
        }
        None => None,
        Some(value) => match mrtr_wire::bearer::token(value) {
            Ok(token) => Some(token.to_owned()),
            Err(why) => {
                let unauthorized =
                    refuse(StatusCode::UNAUTHORIZED, id, INVALID_REQUEST, &format!("Unauthorized: {why}"));
                return with_header(unauthorized, header::WWW_AUTHENTICATE, mrtr_wire::bearer::CHALLENGE);
            }
        },
    };
    let Ok(principal) = endpoint.service.principal(bearer.as_deref()) else {
        return refuse(
            StatusCode::UNAUTHORIZED,
            id,
            INVALID_REQUEST,
            "Unauthorized: this server does not know that bearer token",
        );
    };
    let may_wait = endpoint.service.may_wait() && message.pointer("/params/requestState").is_some();
    let answer = {
        let service = endpoint.service.clone();
        let line = line.to_owned();
        move || {
            let incoming = Incoming { line: &line, message: Some(Ok(message)) };
            let exchange = service.answer(&incoming, &principal);
            log::exchange(service.replica(), &line, &exchange);
            exchange
        }
    };
    // Only a ticket may wait, on a Redis record: those requests go to the blocking pool, a
    // bounded number at a time; everything else is answered here, at once.
    let exchange = if may_wait {
        let Ok(_permit) = endpoint.in_flight.clone().try_acquire_owned() else {
            let message = "Service unavailable: too many requests in flight. Retry shortly with the same ticket.";
            let busy = refuse(StatusCode::SERVICE_UNAVAILABLE, id, jsonrpc::INTERNAL_ERROR, message);
            return with_header(busy, header::RETRY_AFTER, "1");
        };
        match tokio::task::spawn_blocking(answer).await {
            Ok(exchange) => exchange,
            Err(_) => return refuse(StatusCode::INTERNAL_SERVER_ERROR, id, jsonrpc::INTERNAL_ERROR, "Internal error"),
        }
    } else {
        answer()
    };
    match (exchange.handled.response, exchange.response) {
        (Some(response), Some(text)) => json_response(status_of(&response), text),
        // A notification, or a response a client should not send: accepted, no body.
        _ => StatusCode::ACCEPTED.into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_origins_and_the_listed_ones_are_allowed() {
        let extra = vec!["https://lab.example".to_owned()];
        for (origin, ok) in [
            ("http://localhost:8080", true),
            ("http://127.0.0.1:3077", true),
            ("http://[::1]:9", true),
            ("http://localhost", true),
            ("https://lab.example", true),
            ("https://evil.example", false),
            ("http://localhost.evil.example", false),
            ("null", false),
        ] {
            assert_eq!(allowed(&HeaderValue::from_static(origin), &extra), ok, "{origin}");
        }
    }

    #[test]
    fn loopback_hosts_and_the_listed_ones_are_answered() {
        let extra = vec!["mcp.example".to_owned()];
        for (host, ok) in [
            ("127.0.0.1:3077", true),
            ("localhost", true),
            ("[::1]:9", true),
            ("MCP.example:443", true),
            ("evil.example", false),
            ("127.0.0.1.evil.example:80", false),
        ] {
            assert_eq!(host_allowed(host, &extra), ok, "{host}");
        }
    }

    #[test]
    fn a_name_header_may_be_base64() {
        let mut headers = HeaderMap::new();
        headers.insert("mcp-name", HeaderValue::from_static("=?base64?ZMOpcGxveQ==?="));
        assert_eq!(header_text(&headers, "mcp-name"), Ok(Some("déploy".to_owned())));
    }
}
