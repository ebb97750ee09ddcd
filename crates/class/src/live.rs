//! What changes in a class, told at once to every open page: the instructor's live table and
//! each student's page (a room reset clears them all). One broadcast channel, read as an
//! event stream per page.
//!
//! Streams are bounded: each holder (a seat, the instructor) keeps at most
//! [`STREAMS_PER_HOLDER`] open, a newer one ending the oldest (a page reloaded, a second tab),
//! and the class at most [`MAX_STREAMS`] in all, so one seat opening streams in a loop holds
//! two, and never the connections other students need.

use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::stream::{self, Stream};
use serde_json::{json, Value};
use std::collections::{HashMap, VecDeque};
use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{broadcast, oneshot, watch, OwnedSemaphorePermit, Semaphore};

/// How many changes a slow page may fall behind before it is told to reload.
const BACKLOG: usize = 1024;
/// The most streams one holder keeps open: a newer one ends the oldest.
pub const STREAMS_PER_HOLDER: usize = 2;
/// The most streams the class keeps open in all (a thousand seats, each with a page, and room
/// for a second tab each).
pub const MAX_STREAMS: usize = 2_100;

/// One change, as every page receives it.
#[derive(Debug, Clone)]
pub struct Change(pub Value);

/// The class's channel of changes.
#[derive(Debug, Clone)]
pub struct Live {
    sender: broadcast::Sender<Change>,
    /// True once the server is stopping: every stream ends.
    closing: watch::Sender<bool>,
    /// Each holder's open streams, oldest first: how to end each.
    open: Arc<Mutex<Holders>>,
    /// One permit per open stream.
    budget: Arc<Semaphore>,
}

#[derive(Debug, Default)]
struct Holders {
    next: u64,
    streams: HashMap<String, VecDeque<(u64, oneshot::Sender<()>)>>,
}

impl Default for Live {
    fn default() -> Self {
        Live {
            sender: broadcast::channel(BACKLOG).0,
            closing: watch::channel(false).0,
            open: Arc::default(),
            budget: Arc::new(Semaphore::new(MAX_STREAMS)),
        }
    }
}

/// The class keeps [`MAX_STREAMS`] open already: the page should try again later.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Full;

/// A stream's place among its holder's: given back when the stream ends, however it ends.
struct Place {
    open: Arc<Mutex<Holders>>,
    holder: String,
    id: u64,
    _permit: OwnedSemaphorePermit,
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut open = self.open.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(streams) = open.streams.get_mut(&self.holder) {
            streams.retain(|(id, _)| *id != self.id);
            if streams.is_empty() {
                open.streams.remove(&self.holder);
            }
        }
    }
}

impl Live {
    /// Tells every open page.
    pub fn tell(&self, kind: &str, mut detail: Value) {
        detail["type"] = kind.into();
        // Nobody listening is no error.
        let _ = self.sender.send(Change(detail));
    }

    /// Ends every stream, as the server stops: each page's response ends as a response
    /// should (not cut off), and the browser connects again to the server that comes back.
    pub fn close(&self) {
        self.closing.send_replace(true);
    }

    /// How many streams are open.
    pub fn open_streams(&self) -> usize {
        MAX_STREAMS - self.budget.available_permits()
    }

    /// An event stream of every change from now on, held by `holder`; `keep` chooses which a
    /// page hears. The holder's oldest stream ends when this one makes one too many.
    pub fn stream(
        &self,
        holder: &str,
        keep: impl Fn(&Value) -> bool + Send + 'static,
    ) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, Full> {
        let permit = self.budget.clone().try_acquire_owned().map_err(|_| Full)?;
        let (ended, end) = oneshot::channel();
        let place = {
            let mut open = self.open.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            open.next += 1;
            let id = open.next;
            let streams = open.streams.entry(holder.to_owned()).or_default();
            streams.push_back((id, ended));
            while streams.len() > STREAMS_PER_HOLDER {
                if let Some((_, oldest)) = streams.pop_front() {
                    let _ = oldest.send(());
                }
            }
            Place { open: self.open.clone(), holder: holder.to_owned(), id, _permit: permit }
        };
        let receiver = self.sender.subscribe();
        let closing = self.closing.subscribe();
        let state = (receiver, closing, Some(end), keep, place);
        let events = stream::unfold(state, |(mut receiver, mut closing, end, keep, place)| async move {
            // Replaced: the page was told so, and the stream ends.
            let mut end = end?;
            loop {
                let received = tokio::select! {
                    // What was told before the close is delivered first.
                    biased;
                    received = receiver.recv() => Some(received),
                    // Closing, or the sender gone: the stream ends.
                    _ = closing.wait_for(|closing| *closing) => return None,
                    // A newer stream of the same holder took this one's place.
                    _ = &mut end => None,
                };
                // Replaced: the page hears so last, and does not open it again (it would end
                // the newer one).
                let Some(received) = received else {
                    let replaced = Event::default().data(json!({"type": "replaced"}).to_string());
                    return Some((Ok(replaced), (receiver, closing, None, keep, place)));
                };
                match received {
                    Ok(Change(change)) if keep(&change) => {
                        let event = Event::default().data(change.to_string());
                        return Some((Ok(event), (receiver, closing, Some(end), keep, place)));
                    }
                    Ok(_) => continue,
                    // Fell behind: the page reloads what it shows.
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        let reload = Event::default().data(json!({"type": "reload"}).to_string());
                        return Some((Ok(reload), (receiver, closing, Some(end), keep, place)));
                    }
                    Err(broadcast::error::RecvError::Closed) => return None,
                }
            }
        });
        Ok(Sse::new(events).keep_alive(KeepAlive::new().interval(Duration::from_secs(15))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::response::IntoResponse;

    #[tokio::test]
    async fn a_stream_ends_whole_when_the_server_closes() {
        let live = Live::default();
        let stream = live.stream("seat", |change| change["type"] == "claim").expect("room").into_response();
        live.tell("claim", json!({"seat": 1}));
        live.tell("quiz", json!({"seat": 2}));
        live.close();
        // The body ends (it would wait forever otherwise), with what the page keeps.
        let body = tokio::time::timeout(Duration::from_secs(5), axum::body::to_bytes(stream.into_body(), 1 << 20))
            .await
            .expect("the stream ended")
            .expect("a whole body");
        let text = String::from_utf8_lossy(&body);
        assert!(text.contains(r#""seat":1"#) && !text.contains(r#""seat":2"#), "{text}");
    }

    #[tokio::test]
    async fn a_holder_keeps_two_streams_the_newest() {
        let live = Live::default();
        let mut streams: Vec<_> =
            (0..5).map(|_| live.stream("seat", |_| true).expect("room").into_response().into_body()).collect();
        let other = live.stream("another seat", |_| true).expect("room");
        let newest = streams.split_off(3);
        for body in streams {
            let ended = tokio::time::timeout(Duration::from_secs(5), axum::body::to_bytes(body, 1 << 20)).await;
            let said = ended.expect("the three oldest ended").expect("whole");
            assert!(String::from_utf8_lossy(&said).contains(r#""type":"replaced""#), "each told why");
        }
        assert_eq!(live.open_streams(), 3, "the seat's two newest and the other seat's");
        for body in newest {
            let open = tokio::time::timeout(Duration::from_millis(200), axum::body::to_bytes(body, 1 << 20)).await;
            assert!(open.is_err(), "the two newest stay open");
        }
        drop(other);
        assert_eq!(live.open_streams(), 0, "every place given back");
    }
}
