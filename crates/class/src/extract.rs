//! Who asks, and what they send: the seat a student's secret holds, the instructor's token,
//! the class as it stands, the client's address and a JSON body, each read from a request or
//! refused with a sentence. Secrets come in the `Authorization` header only, never in an
//! address a proxy would log.

use crate::refusal::{failed, refuse};
use crate::secret;
use crate::state::ClassState;
use crate::store::{ClassRow, Seat};
use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use axum::http::{header, StatusCode};
use axum::response::Response;
use axum::Json;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;

/// The bearer token of the `Authorization` header: the only place a secret is read from (an
/// address's query ends up in access logs).
fn bearer(parts: &Parts) -> Option<String> {
    let header = parts.headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok())?;
    mrtr_wire::bearer::token(header).ok().map(str::to_owned)
}

/// A request from a student: the seat their secret holds (a bearer token), or the refusal.
#[derive(Debug)]
pub struct Student(pub Seat);

impl FromRequestParts<Arc<ClassState>> for Student {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &Arc<ClassState>) -> Result<Self, Response> {
        let Some(secret) = bearer(parts) else {
            return Err(refuse(
                StatusCode::UNAUTHORIZED,
                "join the class first: no seat secret came with this request",
            ));
        };
        match state.store.seat_by_secret(&state.code, &secret::sha256(&secret)).await {
            Ok(Some(seat)) => Ok(Student(seat)),
            Ok(None) => {
                Err(refuse(StatusCode::UNAUTHORIZED, "this seat secret holds no seat in this class: join again"))
            }
            Err(why) => Err(failed(why)),
        }
    }
}

/// A request from the instructor (their token), with the class as it stands; or the refusal.
#[derive(Debug)]
pub struct Instructor(pub ClassRow);

impl FromRequestParts<Arc<ClassState>> for Instructor {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &Arc<ClassState>) -> Result<Self, Response> {
        let Current(class) = Current::from_request_parts(parts, state).await?;
        match bearer(parts) {
            Some(token) if secret::matches(&token, &class.instructor_sha256) => Ok(Instructor(class)),
            _ => Err(refuse(
                StatusCode::UNAUTHORIZED,
                "the instructor's token (printed when the class server started) is needed",
            )),
        }
    }
}

/// A JSON request body; one that is not JSON, or not the JSON an endpoint takes, is refused
/// with a JSON sentence saying so (400, or 415 without `content-type: application/json`; 408
/// when it did not arrive in time).
#[derive(Debug)]
pub struct Body<T>(pub T);

impl<T: serde::de::DeserializeOwned, S: Send + Sync> axum::extract::FromRequest<S> for Body<T> {
    type Rejection = Response;

    async fn from_request(request: axum::extract::Request, state: &S) -> Result<Self, Self::Rejection> {
        match Json::<T>::from_request(request, state).await {
            Ok(Json(value)) => Ok(Body(value)),
            Err(rejection) if mrtr::http::timed_out(&rejection) => {
                Err(refuse(StatusCode::REQUEST_TIMEOUT, "the request's body did not arrive in time"))
            }
            Err(rejection) => Err(refuse(rejection.status(), rejection.body_text())),
        }
    }
}

/// The client's address (the connection's peer), for what is counted per address.
#[derive(Debug)]
pub struct Peer(pub IpAddr);

impl<S: Send + Sync> FromRequestParts<S> for Peer {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        let connected = parts.extensions.get::<ConnectInfo<SocketAddr>>();
        Ok(Peer(connected.map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |ConnectInfo(addr)| addr.ip())))
    }
}

/// The class as it stands (its settings and generation) when a request comes, or the refusal.
/// Handlers take it after `Student`: a request without a seat is refused before the class is read.
#[derive(Debug)]
pub struct Current(pub ClassRow);

impl FromRequestParts<Arc<ClassState>> for Current {
    type Rejection = Response;

    async fn from_request_parts(_: &mut Parts, state: &Arc<ClassState>) -> Result<Self, Response> {
        match state.store.find_class(&state.code).await {
            Ok(Some(class)) => Ok(Current(class)),
            Ok(None) => Err(refuse(StatusCode::NOT_FOUND, "no such class")),
            Err(why) => Err(failed(why)),
        }
    }
}
