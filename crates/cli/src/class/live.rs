//! What changes in a class, told at once to every open page: the instructor's live table and
//! each student's page (a room reset clears them all). One broadcast channel, read as an
//! event stream per page.

use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::stream::{self, Stream};
use serde_json::{json, Value};
use std::convert::Infallible;
use std::time::Duration;
use tokio::sync::{broadcast, watch};

/// How many changes a slow page may fall behind before it is told to reload.
const BACKLOG: usize = 1024;

/// One change, as every page receives it.
#[derive(Debug, Clone)]
pub struct Change(pub Value);

/// The class's channel of changes.
#[derive(Debug, Clone)]
pub struct Live {
    sender: broadcast::Sender<Change>,
    /// True once the server is stopping: every stream ends.
    closing: watch::Sender<bool>,
}

impl Default for Live {
    fn default() -> Self {
        Live { sender: broadcast::channel(BACKLOG).0, closing: watch::channel(false).0 }
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

    /// An event stream of every change from now on; `keep` chooses which a page hears.
    pub fn stream(
        &self,
        keep: impl Fn(&Value) -> bool + Send + 'static,
    ) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
        let receiver = self.sender.subscribe();
        let closing = self.closing.subscribe();
        let events = stream::unfold((receiver, closing, keep), |(mut receiver, mut closing, keep)| async move {
            loop {
                let received = tokio::select! {
                    // What was told before the close is delivered first.
                    biased;
                    received = receiver.recv() => received,
                    // Closing, or the sender gone: the stream ends.
                    _ = closing.wait_for(|closing| *closing) => return None,
                };
                match received {
                    Ok(Change(change)) if keep(&change) => {
                        return Some((Ok(Event::default().data(change.to_string())), (receiver, closing, keep)));
                    }
                    Ok(_) => continue,
                    // Fell behind: the page reloads what it shows.
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        let reload = json!({"type": "reload"}).to_string();
                        return Some((Ok(Event::default().data(reload)), (receiver, closing, keep)));
                    }
                    Err(broadcast::error::RecvError::Closed) => return None,
                }
            }
        });
        Sse::new(events).keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::response::IntoResponse;

    #[tokio::test]
    async fn a_stream_ends_whole_when_the_server_closes() {
        let live = Live::default();
        let stream = live.stream(|change| change["type"] == "claim").into_response();
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
}
