//! # mrtr-wire: the MRTR vocabulary the probe, lint, call and serve share
//!
//! What every tool that reads MRTR traffic needs, written once: a server's ticket of any shape
//! read by structure and edited in that shape ([`Ticket`]), the page's requirements in its
//! own words with their grades ([`spec`], [`Grade`]), event streams ([`sse`]), bearer tokens
//! ([`bearer`]), and what a reply amounts to ([`Reply`], [`Outcome`]). Sans-IO: nothing here sends or reads a socket.
//!
//! ```
//! use mrtr_wire::{Outcome, Reply, Ticket};
//! use serde_json::json;
//!
//! let ticket = Ticket::read(r#"{"sub": "bob", "exp": 1800000000}"#);
//! assert!(ticket.shape.readable() && !ticket.has_tag());
//! let refused = json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32602, "message": "Invalid requestState"}});
//! assert!(matches!(Outcome::of(&Reply::http(200, Ok(refused))), Outcome::Refused { .. }));
//! ```

pub mod bearer;
mod reply;
mod shape;
pub mod spec;
pub mod sse;

pub use reply::{Outcome, Reply};
pub use shape::{decode_base64, Shape, Ticket};
pub use spec::Grade;
