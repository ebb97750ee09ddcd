//! The stdio transport: newline-delimited JSON-RPC on stdin and stdout, the log on stderr,
//! a clean exit when stdin closes or `stop` resolves (a line being answered is answered
//! first). Each line is answered in order; a line too long to read, or not UTF-8, is answered
//! with an error, and the server keeps serving.

use crate::log;
use crate::service::Service;
use mrtr_sim::jsonrpc::{self, PARSE_ERROR};
use mrtr_sim::server::{Incoming, MAX_LINE};
use serde_json::Value;
use std::sync::Arc;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};

/// Serves `service` on stdin/stdout for `principal` until stdin closes or `stop` resolves.
pub async fn serve(
    service: Arc<Service>,
    principal: String,
    stop: impl std::future::Future<Output = ()>,
) -> std::io::Result<()> {
    let mut lines = BufReader::new(tokio::io::stdin());
    let mut stdout = tokio::io::stdout();
    let mut buffer = Vec::new();
    tokio::pin!(stop);
    loop {
        buffer.clear();
        // Read at most one byte past the limit: a longer line is refused without being kept.
        let mut limited = (&mut lines).take(MAX_LINE as u64 + 1);
        let read = tokio::select! {
            read = limited.read_until(b'\n', &mut buffer) => read?,
            () = &mut stop => return Ok(()),
        };
        if read == 0 {
            return Ok(());
        }
        if buffer.last() != Some(&b'\n') && buffer.len() > MAX_LINE {
            skip_rest_of_line(&mut lines).await?;
        }
        let response = match std::str::from_utf8(&buffer) {
            Err(_) => Some(
                jsonrpc::error(Value::Null, PARSE_ERROR, "Parse error: the line is not UTF-8 text", None).to_string(),
            ),
            Ok(text) => {
                let line = text.trim_end_matches(['\n', '\r']);
                if line.trim().is_empty() {
                    continue;
                }
                let (service, principal, line) = (service.clone(), principal.clone(), line.to_owned());
                let id = Incoming::read(&line).message.and_then(Result::ok).and_then(|m| m.get("id").cloned());
                let answered = tokio::task::spawn_blocking(move || {
                    let exchange = service.answer(&Incoming::read(&line), &principal);
                    log::exchange(service.replica(), &line, &exchange);
                    exchange
                })
                .await;
                match answered {
                    Ok(exchange) => exchange.response,
                    // A panic answering this line: -32603, and the next line is read.
                    Err(_) => Some(
                        jsonrpc::error(id.unwrap_or(Value::Null), jsonrpc::INTERNAL_ERROR, "Internal error", None)
                            .to_string(),
                    ),
                }
            }
        };
        if let Some(response) = response {
            stdout.write_all(response.as_bytes()).await?;
            stdout.write_all(b"\n").await?;
            stdout.flush().await?;
        }
    }
}

/// Reads and drops the rest of a line too long to answer.
async fn skip_rest_of_line(lines: &mut BufReader<tokio::io::Stdin>) -> std::io::Result<()> {
    let mut chunk = Vec::new();
    loop {
        chunk.clear();
        let read = (&mut *lines).take(64 * 1024).read_until(b'\n', &mut chunk).await?;
        if read == 0 || chunk.last() == Some(&b'\n') {
            return Ok(());
        }
    }
}
