//! Forwarding the class's xAPI statements to an external LRS (the statements resource,
//! `POST …/statements`, xAPI 1.0.3), when one is configured. Statements are kept first and
//! sent after, oldest first, in batches; a batch is marked sent only when the LRS says it
//! stored it, and retried with a growing pause while the LRS is down: nothing is lost, and an
//! LRS that got a batch twice keeps each statement once by its id.
//!
//! An LRS rejects a whole batch when one statement in it is invalid (xAPI 1.0.3, 400). Such a
//! batch is split in halves, and each half sent, until the statement the LRS refuses on its
//! own is found: that one is parked (shown to the instructor with the LRS's answer, never
//! sent again) and every other goes on.

use crate::store::Store;
use std::time::Duration;

/// The most statements in one POST.
const BATCH: i64 = 50;

/// Where and how to forward.
#[derive(Debug, Clone)]
pub struct Lrs {
    /// The statements resource: `https://lrs.example/xapi/statements`.
    pub url: String,
    /// The `Authorization` header's value, if the LRS asks for one (`Basic …`).
    pub authorization: Option<String>,
    /// How long to wait when there is nothing to send.
    pub idle: Duration,
    /// The longest pause between retries.
    pub most_backoff: Duration,
}

/// Forwards for ever (a task of the class server). Each error is logged once per pause.
pub async fn forward(store: Store, lrs: Lrs) {
    let client = match reqwest::Client::builder().timeout(Duration::from_secs(20)).build() {
        Ok(client) => client,
        Err(e) => return tracing::error!(target: "mrtr::class", "the LRS client: {e}"),
    };
    let mut backoff = lrs.idle;
    loop {
        match send_batch(&store, &client, &lrs).await {
            Ok(0) => tokio::time::sleep(lrs.idle).await,
            Ok(_) => backoff = lrs.idle,
            Err(why) => {
                tracing::warn!(target: "mrtr::class", "forwarding statements to {}: {why}; again in {backoff:?}", lrs.url);
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(lrs.most_backoff);
            }
        }
    }
}

/// What the LRS said of a batch.
enum Answer {
    /// Stored (or already had it: 409).
    Stored,
    /// Refused for what the batch holds (400, 413, 422): the LRS's status and words.
    Rejected(String),
}

/// Sends one batch, splitting what the LRS rejects: how many statements were stored or parked.
async fn send_batch(store: &Store, client: &reqwest::Client, lrs: &Lrs) -> Result<usize, String> {
    let kept = |e: crate::store::StoreError| e.to_string();
    let batch = store.unforwarded(BATCH).await.map_err(kept)?;
    let handled = batch.len();
    let mut parts = vec![batch];
    while let Some(part) = parts.pop() {
        if part.is_empty() {
            continue;
        }
        match post(client, lrs, &part).await? {
            Answer::Stored => {
                let ids: Vec<String> = part.into_iter().map(|(id, _)| id).collect();
                let now = crate::state::now_ms();
                store.forwarded(&ids, now).await.map_err(kept)?;
            }
            Answer::Rejected(why) if part.len() == 1 => {
                let (id, _) = &part[0];
                tracing::warn!(target: "mrtr::class", "the LRS refused statement {id}: {why}; parked");
                store.park(id, &why).await.map_err(kept)?;
            }
            Answer::Rejected(_) => {
                let mut first = part;
                let second = first.split_off(first.len() / 2);
                // The first half is sent first: statements keep their order.
                parts.push(second);
                parts.push(first);
            }
        }
    }
    Ok(handled)
}

/// POSTs statements as one batch.
async fn post(client: &reqwest::Client, lrs: &Lrs, batch: &[(String, String)]) -> Result<Answer, String> {
    let body = format!("[{}]", batch.iter().map(|(_, body)| body.as_str()).collect::<Vec<_>>().join(","));
    let mut request = client
        .post(&lrs.url)
        .header("content-type", "application/json")
        .header("x-experience-api-version", "1.0.3")
        .body(body);
    if let Some(authorization) = &lrs.authorization {
        request = request.header("authorization", authorization);
    }
    let answer = request.send().await.map_err(|e| e.to_string())?;
    let status = answer.status();
    // 409: the LRS has these ids already (a batch it stored whose answer was lost).
    if status.is_success() || status.as_u16() == 409 {
        return Ok(Answer::Stored);
    }
    if matches!(status.as_u16(), 400 | 413 | 422) {
        let words = answer.text().await.unwrap_or_default();
        let words = mrtr_sim::text::clip(words.split_whitespace().collect::<Vec<_>>().join(" "), 300);
        return Ok(Answer::Rejected(format!("HTTP {status}: {words}")));
    }
    // Down, or not letting this server in (401, 403): the same batch again later.
    Err(format!("HTTP {status}"))
}
