//! The stdio transport: newline-delimited JSON-RPC on stdin and stdout, the log on stderr,
//! a clean exit when stdin closes. Each line is answered in order; a line too long to read is
//! answered with an error and skipped, and the server keeps serving.

use crate::log;
use crate::service::Service;
use mrtr_sim::server::{Incoming, MAX_LINE};
use std::sync::Arc;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};

/// Serves `service` on stdin/stdout for `principal` until stdin closes.
pub async fn serve(service: Arc<Service>, principal: String, quiet: bool) -> std::io::Result<()> {
    let mut lines = BufReader::new(tokio::io::stdin());
    let mut stdout = tokio::io::stdout();
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        // Read at most one byte past the limit: a longer line is refused without being kept.
        let read = (&mut lines).take(MAX_LINE as u64 + 1).read_until(b'\n', &mut buffer).await?;
        if read == 0 {
            return Ok(());
        }
        if buffer.last() != Some(&b'\n') && buffer.len() > MAX_LINE {
            skip_rest_of_line(&mut lines).await?;
        }
        let text = String::from_utf8_lossy(&buffer);
        let line = text.trim_end_matches(['\n', '\r']);
        if line.trim().is_empty() {
            continue;
        }
        let (service, principal, line) = (service.clone(), principal.clone(), line.to_owned());
        let exchange = tokio::task::spawn_blocking(move || {
            let exchange = service.answer(&Incoming::read(&line), &principal);
            if !quiet {
                log::exchange(&mut std::io::stderr().lock(), service.replica(), &line, &exchange);
            }
            exchange
        })
        .await
        .map_err(std::io::Error::other)?;
        if let Some(response) = exchange.response {
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
