//! What changes in a class, told at once to every open page: the instructor's live table and
//! each student's page (a room reset clears them all). One broadcast channel, read as an
//! event stream per page.

use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::stream::{self, Stream};
use serde_json::{json, Value};
use std::convert::Infallible;
use std::time::Duration;
use tokio::sync::broadcast;

/// How many changes a slow page may fall behind before it is told to reload.
const BACKLOG: usize = 1024;

/// One change, as every page receives it.
#[derive(Debug, Clone)]
pub struct Change(pub Value);

/// The class's channel of changes.
#[derive(Debug, Clone)]
pub struct Live {
    sender: broadcast::Sender<Change>,
}

impl Default for Live {
    fn default() -> Self {
        Live { sender: broadcast::channel(BACKLOG).0 }
    }
}

impl Live {
    /// Tells every open page.
    pub fn tell(&self, kind: &str, mut detail: Value) {
        detail["type"] = kind.into();
        // Nobody listening is no error.
        let _ = self.sender.send(Change(detail));
    }

    /// An event stream of every change from now on; `keep` chooses which a page hears.
    pub fn stream(
        &self,
        keep: impl Fn(&Value) -> bool + Send + 'static,
    ) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
        let receiver = self.sender.subscribe();
        let events = stream::unfold((receiver, keep), |(mut receiver, keep)| async move {
            loop {
                match receiver.recv().await {
                    Ok(Change(change)) if keep(&change) => {
                        return Some((Ok(Event::default().data(change.to_string())), (receiver, keep)));
                    }
                    Ok(_) => continue,
                    // Fell behind: the page reloads what it shows.
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        let reload = json!({"type": "reload"}).to_string();
                        return Some((Ok(Event::default().data(reload)), (receiver, keep)));
                    }
                    Err(broadcast::error::RecvError::Closed) => return None,
                }
            }
        });
        Sse::new(events).keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
    }
}
