//! # mrtr: the lab's server core and client for real
//!
//! `mrtr sim` runs the simulation's scenarios and prints their raw lines; `mrtr serve` serves
//! the same server core over stdio or Streamable HTTP, with the same checks, a real clock, a
//! key of its own and a record of used tickets that replicas can share in Redis; `mrtr call`
//! is the honest client against any MCP 2026-07-28 server; `mrtr bench` drives full round
//! trips at a server and prints how many it makes a second. `mrtr class` runs the
//! `mrtr-class` command beside it (crates/class), which holds the class server and its
//! database drivers, so that a server author's build of `mrtr` compiles none.
//!
//! ```
//! use mrtr::record::{Record, RecordOptions, RecordSpec};
//! use mrtr::service::Service;
//! use mrtr_sim::server::{Incoming, Server, ServerConfig};
//! use mrtr_ticket::Key;
//!
//! let server = Server::new(Key::new([7u8; 32]).unwrap(), ServerConfig::default());
//! let service = Service::new(server, Default::default(), Record::open(&RecordSpec::Memory, 0, &RecordOptions::default()).unwrap(), "A".into());
//! let exchange = service.answer(&Incoming::read(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#), "bob");
//! assert!(exchange.response.unwrap().contains("-32601"));
//! ```

pub mod bench;
pub mod call;
pub mod clock;
pub mod fail_on;
pub mod http;
pub mod lint;
pub mod log;
pub mod practice;
pub mod probe;
pub mod record;
pub mod serve;
pub mod service;
pub mod sim;
pub mod stdio;
