//! Forwarding the class's xAPI statements to an external LRS (the statements resource,
//! `POST …/statements`, xAPI 1.0.3), when one is configured. Statements are kept first and
//! sent after, oldest first, in batches; a batch is marked sent only when the LRS says it
//! stored it, and retried with a growing pause while the LRS is down or refuses: nothing is
//! lost, and an LRS that got a batch twice keeps each statement once by its id.

use super::store::Store;
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

/// Sends one batch: how many statements were sent.
async fn send_batch(store: &Store, client: &reqwest::Client, lrs: &Lrs) -> Result<usize, String> {
    let batch = store.unforwarded(BATCH).await?;
    if batch.is_empty() {
        return Ok(0);
    }
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
    if !(status.is_success() || status.as_u16() == 409) {
        return Err(format!("HTTP {status}"));
    }
    let ids: Vec<String> = batch.into_iter().map(|(id, _)| id).collect();
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64);
    store.forwarded(&ids, now).await?;
    Ok(ids.len())
}
