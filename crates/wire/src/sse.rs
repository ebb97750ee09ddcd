//! One reader of `text/event-stream` bodies, as the HTML standard defines them: lines end in
//! LF, CRLF or CR; a line starting with `:` is a comment; `data:` lines join with LF; an
//! event ends at a blank line (or the end of the body); `id:` and `event:` are kept.

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
