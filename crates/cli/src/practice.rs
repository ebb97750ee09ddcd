//! The class's practice servers: `mrtr serve`'s own core at the class's address, so that "Test
//! your server", `mrtr probe` and `mrtr call` work from any laptop in the room without running
//! a server of their own. `/practice/safe/mcp` checks everything (signed tickets, a record of
//! used ones); `/practice/careless/mcp` signs nothing and records nothing, for the attacks to
//! get through. Bearer tokens as `mrtr serve`'s: bob-token and alice-token.

use crate::http::{router, HttpOptions};
use crate::record::{Record, RecordOptions, RecordSpec};
use crate::service::Service;
use axum::Router;
use mrtr_sim::server::{Server, ServerConfig};
use mrtr_ticket::{Key, Mode};
use std::collections::HashMap;
use std::sync::Arc;

/// The most requests with a ticket each practice server answers at once.
const IN_FLIGHT: usize = 64;

fn practice(mode: Mode, record: &RecordSpec, options: &HttpOptions) -> Result<Router, String> {
    let mut key = [0u8; 32];
    getrandom::fill(&mut key).map_err(|e| format!("the system's random source: {e}"))?;
    let server =
        Server::new(Key::new(key).map_err(|e| e.to_string())?, ServerConfig { mode, ..ServerConfig::default() });
    let tokens: HashMap<String, String> =
        mrtr_sim::cluster::PRINCIPALS.map(|(t, p)| (t.to_owned(), p.to_owned())).into();
    let record = Record::open(record, crate::clock::now_ms(), &RecordOptions::default())?;
    Ok(router(Arc::new(Service::new(server, tokens, record, "practice".into())), options.clone()))
}

/// Both practice servers, nested at `/practice/safe` and `/practice/careless`; `hosts` and
/// `origins` are the class's own, so that pages from its address may call them.
pub fn routes(hosts: Vec<String>, origins: Vec<String>) -> Result<Router, String> {
    let options = HttpOptions { origins, hosts, allow_anonymous: false, max_in_flight: IN_FLIGHT };
    Ok(Router::new()
        .nest("/practice/safe", practice(Mode::Signed, &RecordSpec::Memory, &options)?)
        .nest("/practice/careless", practice(Mode::Unsigned, &RecordSpec::Off, &options)?))
}
