//! One reader of `text/event-stream` bodies, as the HTML standard defines them: lines end in
//! LF, CRLF or CR; a line starting with `:` is a comment; `data:` lines join with LF; an
//! event ends at a blank line (or the end of the body); `id:` and `event:` are kept. And the
//! one response to a request among what a stream carries ([`response`]).

use serde_json::Value;

/// One event of a stream.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Event {
    /// Its `event:` type, if it named one.
    pub kind: Option<String>,
    /// Its `id:`, if it had one.
    pub id: Option<String>,
    /// Its `data:` lines joined with LF.
    pub data: String,
}

/// The events of `body` that carry data, in order.
///
/// ```
/// let body = ": hello\r\nevent: message\r\nid: 7\r\ndata: {\"a\":\r\ndata: 1}\r\n\r\ndata: x";
/// let events = mrtr_wire::sse::events(body);
/// assert_eq!(events.len(), 2);
/// assert_eq!(events[0].data, "{\"a\":\n1}");
/// assert_eq!(events[0].id.as_deref(), Some("7"));
/// assert_eq!(events[1].data, "x");
/// ```
pub fn events(body: &str) -> Vec<Event> {
    let mut out = Vec::new();
    let mut event = Event::default();
    let mut has_data = false;
    for line in lines(body).chain(std::iter::once("")) {
        if line.is_empty() {
            if has_data {
                out.push(std::mem::take(&mut event));
            }
            event = Event::default();
            has_data = false;
            continue;
        }
        if line.starts_with(':') {
            continue;
        }
        let (field, value) = match line.split_once(':') {
            Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
            None => (line, ""),
        };
        match field {
            "data" => {
                if has_data {
                    event.data.push('\n');
                }
                event.data.push_str(value);
                has_data = true;
            }
            "id" if !value.contains('\0') => event.id = Some(value.to_owned()),
            "event" => event.kind = Some(value.to_owned()),
            _ => {}
        }
    }
    out
}

/// A JSON-RPC result or an error, not a request or a notification.
pub fn is_response(message: &Value) -> bool {
    message.get("method").is_none() && (message.get("result").is_some() || message.get("error").is_some())
}

/// `message` if it is the response to the request `id` (or an error that names no id, which
/// answers a request the server could not read), `None` for anything else the server sends
/// meanwhile: notifications, requests of its own, responses to other requests.
pub fn response_to(message: Value, id: &Value) -> Option<Value> {
    let ours = match message.get("id") {
        Some(Value::Null) | None => message.get("error").is_some(),
        Some(other) => other == id,
    };
    (is_response(&message) && ours || !message.is_object()).then_some(message)
}

/// The response to `id` in a `text/event-stream` body: the first event whose data is the
/// response taken, everything else (notifications, requests) passed over.
pub fn response(body: &str, id: &Value) -> Result<Value, String> {
    let events = events(body);
    let count = events.len();
    events
        .into_iter()
        .filter_map(|event| serde_json::from_str::<Value>(&event.data).ok())
        .find_map(|message| response_to(message, id))
        .ok_or_else(|| format!("the event stream ended after {count} events without the response"))
}

/// True when `body` reads as an event stream: its first field line names a field of one.
pub fn looks_like(body: &str) -> bool {
    lines(body)
        .find(|l| !l.is_empty() && !l.starts_with(':'))
        .is_some_and(|l| ["data:", "event:", "id:", "retry:"].iter().any(|f| l.starts_with(f)) || l == "data")
}

/// The lines of `body`, each ended by CRLF, LF or CR.
fn lines(body: &str) -> impl Iterator<Item = &str> {
    let mut rest = body;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let end = rest.find(['\r', '\n']).unwrap_or(rest.len());
        let line = &rest[..end];
        let skip = if rest[end..].starts_with("\r\n") { 2 } else { usize::from(end < rest.len()) };
        rest = &rest[end + skip..];
        Some(line)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    #[test]
    fn an_event_stream_answer_is_read_past_notifications_and_requests() {
        let body = "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{}}\n\n\
                    data: {\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\"}\n\n\
                    data: {\"jsonrpc\":\"2.0\",\r\ndata: \"id\":3,\"result\":{}}\r\n\r\n";
        assert_eq!(response(body, &json!(3)), Ok(json!({"jsonrpc": "2.0", "id": 3, "result": {}})));
        assert!(response(": keep-alive\n\n", &json!(3)).is_err());
    }
    #[test]
    fn only_the_response_to_the_request_is_taken() {
        let id = json!(4);
        assert!(response_to(json!({"jsonrpc": "2.0", "method": "notifications/progress"}), &id).is_none());
        assert!(response_to(json!({"jsonrpc": "2.0", "id": 4, "method": "elicitation/create"}), &id).is_none());
        assert!(response_to(json!({"jsonrpc": "2.0", "id": 5, "result": {}}), &id).is_none());
        assert!(response_to(json!({"jsonrpc": "2.0", "id": 4, "result": {}}), &id).is_some());
        assert!(response_to(json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700}}), &id).is_some());
    }

    #[test]
    fn every_line_ending_reads_the_same() {
        for end in ["\n", "\r\n", "\r"] {
            let body = format!("id: 1{end}data: a{end}data: b{end}{end}: comment{end}data:c{end}{end}");
            let read = events(&body);
            assert_eq!(read.len(), 2, "{end:?}");
            assert_eq!((read[0].data.as_str(), read[1].data.as_str()), ("a\nb", "c"), "{end:?}");
            assert!(looks_like(&body));
        }
        assert!(events("event: ping\n\n").is_empty(), "no data, no event");
        assert!(!looks_like("{\"jsonrpc\":\"2.0\"}"));
    }
}
