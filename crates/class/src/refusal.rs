//! How the class server says no: a status and one sentence, as JSON, with `Retry-After`
//! where trying again later helps.

use crate::store::StoreError;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

/// A refusal: the status and one sentence, as JSON.
pub fn refuse(status: StatusCode, why: impl std::fmt::Display) -> Response {
    (status, Json(json!({ "error": why.to_string() }))).into_response()
}

/// The database did not answer: 503, nothing recorded, the cause in the log.
pub fn failed(why: StoreError) -> Response {
    tracing::error!(target: "mrtr::class", "{why}");
    refuse(StatusCode::SERVICE_UNAVAILABLE, "the class database did not answer; nothing was recorded, try again")
}

/// 429 with `Retry-After`: a bound reached, said in a sentence.
pub fn slow_down(why: &str) -> Response {
    let mut response = refuse(StatusCode::TOO_MANY_REQUESTS, why);
    response.headers_mut().insert(header::RETRY_AFTER, header::HeaderValue::from_static("5"));
    response
}

/// 503 with `Retry-After: seconds`: busy now, said in a sentence.
pub fn busy(why: &str, seconds: &'static str) -> Response {
    let mut response = refuse(StatusCode::SERVICE_UNAVAILABLE, why);
    response.headers_mut().insert(header::RETRY_AFTER, header::HeaderValue::from_static(seconds));
    response
}
