//! Fuzzes the Streamable HTTP endpoint in process: arbitrary header lines and an arbitrary
//! body, through the same router `mrtr serve --http` serves (memory record, the lab's tools).
//! No input may panic it; every answer is below 500 (or 503, load shed), and every body it
//! sends is one JSON object.
//!
//! The input: header lines `name: value`, a blank line, then the body.
#![no_main]

use axum::body::Body;
use libfuzzer_sys::fuzz_target;
use mrtr::http::{router, HttpOptions};
use mrtr::record::{Record, RecordOptions, RecordSpec};
use mrtr::service::Service;
use mrtr_sim::server::{Server, ServerConfig};
use std::sync::{Arc, LazyLock};
use tower::ServiceExt as _;

static RUNTIME: LazyLock<tokio::runtime::Runtime> =
    LazyLock::new(|| tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime"));

static ROUTER: LazyLock<axum::Router> = LazyLock::new(|| {
    let server = Server::new(mrtr_ticket::Key::new([7u8; 32]).expect("32 bytes"), ServerConfig::default());
    let tokens = [("bob-token".to_owned(), "bob".to_owned())].into();
    let record = Record::open(&RecordSpec::Memory, 0, &RecordOptions::default()).expect("memory");
    let service = Arc::new(Service::new(server, tokens, record, "F".into()));
    router(service, HttpOptions { origins: vec![], hosts: vec![], allow_anonymous: false, max_in_flight: 8 })
});

fuzz_target!(|data: &[u8]| {
    let (head, body) = match data.windows(2).position(|w| w == b"\n\n") {
        Some(at) => (&data[..at], &data[at + 2..]),
        None => (data, &[][..]),
    };
    let mut request = axum::http::Request::builder().method("POST").uri("/mcp");
    for line in head.split(|b| *b == b'\n') {
        let Some(colon) = line.iter().position(|b| *b == b':') else { continue };
        let (name, value) = (&line[..colon], line[colon + 1..].trim_ascii());
        if let (Ok(name), Ok(value)) =
            (axum::http::HeaderName::from_bytes(name), axum::http::HeaderValue::from_bytes(value))
        {
            request = request.header(name, value);
        }
    }
    let Ok(request) = request.body(Body::from(body.to_vec())) else { return };
    RUNTIME.block_on(async {
        let response = ROUTER.clone().oneshot(request).await.expect("the router answers");
        let status = response.status();
        assert!(status.as_u16() < 500 || status.as_u16() == 503, "{status}");
        let bytes = axum::body::to_bytes(response.into_body(), 4 << 20).await.expect("a body");
        if !bytes.is_empty() {
            let value: serde_json::Value = serde_json::from_slice(&bytes).expect("a JSON body");
            assert!(value.is_object(), "{value}");
        }
    });
});
