//! Reading a transcript: whatever was pasted, the JSON-RPC messages in it, in order, each with
//! its direction, the line it came from and, where the transcript says, whose it was.
//!
//! Forms read: a HAR file (the browser's devtools, "Save all as HAR"), `mrtr serve`'s log
//! (`--log text` or `--log json`), `mrtr call`'s output (its text or `--json`), an HTTP
//! transcript with `>>>`/`<<<` lines (as the official SDKs' tests print them), and plain
//! JSON-RPC lines or a JSON array of messages. Nothing here trusts the input: a line that is
//! not a message is skipped and said to be, never a panic.

use serde::Serialize;
use serde_json::Value;

/// The longest transcript read, bytes (64 MiB): a day of a busy server's log is bigger, and a
/// paste that size is a mistake.
pub const MAX_LEN: usize = 64 << 20;
/// How many skipped lines a report names (it counts them all).
const SKIPPED_SHOWN: usize = 20;

/// What the transcript was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// A HAR file: `log.entries`, each a request and its response.
    Har,
    /// `mrtr serve --log json`: one exchange a line.
    ServeLogJson,
    /// `mrtr serve --log text` or `mrtr call`: `C->S`/`S->C` before each message.
    Arrows,
    /// `mrtr call --json`: `{"from": "client"|"server", "message": …}` a line.
    CallJson,
    /// `>>>   body: …` and `<<<   body: …` lines.
    HttpTranscript,
    /// JSON-RPC messages, one a line, or a JSON array of them.
    JsonRpc,
}

impl Format {
    /// What it is, for people.
    pub fn words(self) -> &'static str {
        match self {
            Format::Har => "a HAR file",
            Format::ServeLogJson => "mrtr serve's JSON log",
            Format::Arrows => "a C->S / S->C transcript (mrtr serve's text log, mrtr call)",
            Format::CallJson => "mrtr call --json",
            Format::HttpTranscript => "an HTTP transcript (>>> and <<< lines)",
            Format::JsonRpc => "JSON-RPC messages",
        }
    }
}

/// One JSON-RPC message of the transcript.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Message {
    /// Where it starts in the input, from 1 (in a HAR file: the entry, from 1).
    pub line: usize,
    /// Sent by the client (a request); else by the server (a response).
    pub from_client: bool,
    /// Whose it was: the principal a server log names, or `bearer 1`, `bearer 2`, … for each
    /// bearer token in the order they appear (a token is never repeated in a report).
    pub who: Option<String>,
    /// The message.
    pub json: Value,
}

/// A line that was not read as a message, and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Skipped {
    /// Where, from 1.
    pub line: usize,
    /// Why.
    pub why: String,
}

/// What was read.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Transcript {
    /// Its form.
    pub format: Format,
    /// The messages, in order.
    pub messages: Vec<Message>,
    /// Lines with something on them that were not messages (the first few).
    pub skipped: Vec<Skipped>,
    /// How many such lines there were.
    pub skipped_count: usize,
    /// Parts that held traffic but could not be read (a file cut short, a body missing or
    /// still compressed): what the report cannot speak for.
    pub unreadable: Vec<Skipped>,
}

/// Bearer tokens, named in the order they appear.
#[derive(Default)]
struct Bearers(Vec<String>);

impl Bearers {
    fn name(&mut self, header: &str) -> Option<String> {
        let token = mrtr_wire::bearer::token(header).ok()?;
        let at = match self.0.iter().position(|t| t == token) {
            Some(at) => at,
            None => {
                self.0.push(token.to_owned());
                self.0.len() - 1
            }
        };
        Some(format!("bearer {}", at + 1))
    }
}

struct Reader {
    format: Option<Format>,
    messages: Vec<Message>,
    skipped: Vec<Skipped>,
    skipped_count: usize,
    unreadable: Vec<Skipped>,
}

impl Reader {
    fn pass_over(&mut self, line: usize, why: impl Into<String>) {
        self.skipped_count += 1;
        if self.skipped.len() < SKIPPED_SHOWN {
            self.skipped.push(Skipped { line, why: why.into() });
        }
    }

    fn cannot_read(&mut self, line: usize, why: impl Into<String>) {
        if self.unreadable.len() < SKIPPED_SHOWN {
            self.unreadable.push(Skipped { line, why: why.into() });
        }
    }

    fn saw(&mut self, format: Format) {
        self.format.get_or_insert(format);
    }

    /// Adds `json` (a message, or a batch of them) as sent by the client or the server; a
    /// direction of `None` is read from the message's shape.
    fn push(&mut self, line: usize, from_client: Option<bool>, who: Option<String>, json: Value) {
        if let Value::Array(batch) = json {
            for item in batch {
                self.push(line, from_client, who.clone(), item);
            }
            return;
        }
        let Some(object) = json.as_object() else {
            return self.pass_over(line, "JSON, but not a JSON-RPC message");
        };
        let request = object.get("method").and_then(Value::as_str).is_some();
        let response = object.contains_key("result") || object.contains_key("error");
        if request && !object.contains_key("id") {
            return self.pass_over(line, "a notification: no round of any operation");
        }
        if request == response {
            return self.pass_over(line, "JSON, but neither a request nor a response");
        }
        // A request the transcript says the server sent: this revision's servers send none.
        if from_client.is_some_and(|client| client != request) {
            let says = if request { "a request from the server" } else { "a response from the client" };
            return self.pass_over(line, format!("{says}: no part of a client's operation"));
        }
        self.messages.push(Message { line, from_client: request, who, json });
    }
}

/// The JSON value of `text` from its first `{` (or, failing that, its first `[`: a batch),
/// with what came before it. A log's `[principal]` before the message is not a batch.
fn json_in(text: &str) -> Option<(&str, Value)> {
    [text.find('{'), text.find('[')].into_iter().flatten().find_map(|at| {
        let mut values = serde_json::Deserializer::from_str(&text[at..]).into_iter::<Value>();
        match values.next() {
            Some(Ok(value)) => Some((&text[..at], value)),
            _ => None,
        }
    })
}

/// The JSON-RPC messages of an HTTP body: JSON, or an event stream's events.
fn body_messages(body: &str) -> Vec<Value> {
    if let Ok(value) = serde_json::from_str::<Value>(body) {
        return vec![value];
    }
    mrtr_wire::sse::events(body).into_iter().filter_map(|event| serde_json::from_str(&event.data).ok()).collect()
}

/// A HAR file's entries.
fn read_har(entries: &[Value], reader: &mut Reader) {
    let mut bearers = Bearers::default();
    for (n, entry) in entries.iter().enumerate() {
        let line = n + 1;
        let request = &entry["request"];
        let header = |message: &Value, name: &str| {
            message["headers"].as_array().and_then(|headers| {
                headers
                    .iter()
                    .find(|h| h["name"].as_str().is_some_and(|n| n.eq_ignore_ascii_case(name)))
                    .and_then(|h| h["value"].as_str().map(str::to_owned))
            })
        };
        let who = header(request, "authorization").and_then(|value| bearers.name(&value));
        let Some(sent) = request["postData"]["text"].as_str() else {
            reader.pass_over(line, format!("{} with no body", request["method"].as_str().unwrap_or("a request")));
            continue;
        };
        match serde_json::from_str::<Value>(sent) {
            Ok(json) => reader.push(line, Some(true), who, json),
            Err(_) => reader.pass_over(line, "a request body that is not JSON"),
        }
        let response = &entry["response"];
        let content = &response["content"];
        let expects_answer = serde_json::from_str::<Value>(sent).is_ok_and(|json| json.get("id").is_some());
        let body = match (content["text"].as_str(), content["encoding"].as_str()) {
            (Some(text), Some("base64")) => Body::of(mrtr_wire::decode_base64(text).unwrap_or_default()),
            (Some(text), _) => Body::of(text.as_bytes().to_vec()),
            (None, _) => Body::Missing,
        };
        let status = response["status"].as_u64().unwrap_or(0);
        match body {
            Body::Text(text) => {
                let messages = body_messages(&text);
                if messages.is_empty() && expects_answer && !text.trim().is_empty() {
                    reader.cannot_read(line, "the response body is neither JSON nor an event stream of JSON-RPC");
                }
                for json in messages {
                    reader.push(line, Some(false), None, json);
                }
            }
            Body::Compressed(how) => {
                reader.cannot_read(line, format!("the response body is still compressed ({how}): save the HAR again"));
            }
            Body::Binary => reader.cannot_read(line, "the response body is bytes, not text"),
            Body::Missing if expects_answer && status == 200 => reader.cannot_read(
                line,
                "the response body is not in the HAR (saved without content: use \"Save all as HAR with content\")",
            ),
            Body::Missing => {}
        }
    }
}

/// An HTTP body as a HAR file holds it.
enum Body {
    Text(String),
    Compressed(&'static str),
    Binary,
    Missing,
}

impl Body {
    fn of(bytes: Vec<u8>) -> Body {
        match bytes.as_slice() {
            [0x1f, 0x8b, ..] => Body::Compressed("gzip"),
            [0x28, 0xb5, 0x2f, 0xfd, ..] => Body::Compressed("zstd"),
            _ => match String::from_utf8(bytes) {
                Ok(text) => Body::Text(text),
                // Brotli and deflate have no magic bytes: text that is not UTF-8.
                Err(_) => Body::Binary,
            },
        }
    }
}

/// A HAR file's entries that parse, when the file as a whole does not (cut short, or broken
/// part way): each entry read on its own from where the `entries` array starts, and where the
/// reading stopped.
fn salvage_har(text: &str) -> Option<(Vec<Value>, usize)> {
    let head = text.get(..text.len().min(4096))?;
    if !head.trim_start().starts_with('{') || !head.contains("\"log\"") {
        return None;
    }
    let start = text.find("\"entries\"")?;
    let mut at = start + text[start..].find('[')? + 1;
    let mut entries = Vec::new();
    loop {
        let rest = &text[at..];
        let skip = rest.len() - rest.trim_start_matches(|c: char| c.is_whitespace() || c == ',').len();
        at += skip;
        if text[at..].starts_with(']') {
            return Some((entries, text.len()));
        }
        let mut values = serde_json::Deserializer::from_str(&text[at..]).into_iter::<Value>();
        match values.next() {
            Some(Ok(entry)) => {
                at += values.byte_offset();
                entries.push(entry);
            }
            _ => return Some((entries, at)),
        }
    }
}

/// The line `offset` is on, from 1.
fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())].iter().filter(|b| **b == b'\n').count() + 1
}

/// One line of a line-by-line transcript.
fn read_line(line: usize, text: &str, bearers: &mut Bearers, who: &mut Option<String>, reader: &mut Reader) {
    let trimmed = text.trim();
    // Blank lines, comments, and a log's indented lines under an exchange (its checks).
    if trimmed.is_empty()
        || trimmed.starts_with('#')
        || (text.starts_with(char::is_whitespace) && !trimmed.contains('{'))
    {
        return;
    }
    // An HTTP transcript's header lines: the bearer applies to the body that follows.
    if let Some(rest) = trimmed.strip_prefix(">>>") {
        let rest = rest.trim();
        if let Some(value) = rest.strip_prefix("authorization:").or_else(|| rest.strip_prefix("Authorization:")) {
            *who = bearers.name(value);
            return;
        }
        if rest.starts_with("POST ") {
            *who = None;
        }
    }
    let Some((before, json)) = json_in(trimmed) else {
        if trimmed.contains('{') {
            reader.pass_over(line, "a message that does not parse (a log cuts lines longer than 2,000 characters)");
        } else if !trimmed.starts_with(">>>") && !trimmed.starts_with("<<<") && !trimmed.starts_with("===") {
            reader.pass_over(line, "not a message");
        }
        return;
    };
    // mrtr serve --log json: the request and the response of one exchange.
    if json["message"] == "exchange" && json["request"].is_string() {
        reader.saw(Format::ServeLogJson);
        let principal = json["principal"].as_str().map(str::to_owned);
        for (field, client) in [("request", true), ("response", false)] {
            match json[field].as_str().map(serde_json::from_str::<Value>) {
                Some(Ok(message)) => reader.push(line, Some(client), principal.clone().filter(|_| client), message),
                Some(Err(_)) if json[field] != "" => reader.pass_over(line, format!("the {field} does not parse")),
                _ => {}
            }
        }
        return;
    }
    // mrtr call --json.
    if let (Some(from), Some(message)) = (json["from"].as_str(), json.get("message")) {
        reader.saw(Format::CallJson);
        reader.push(line, Some(from == "client"), None, message.clone());
        return;
    }
    let client_marks = ["C->S", ">>>"];
    let server_marks = ["S->C", "<<<"];
    let from_client = if client_marks.iter().any(|m| before.contains(m)) {
        Some(true)
    } else if server_marks.iter().any(|m| before.contains(m)) {
        Some(false)
    } else {
        None
    };
    if before.contains(">>>") || before.contains("<<<") {
        reader.saw(Format::HttpTranscript);
    } else if from_client.is_some() {
        reader.saw(Format::Arrows);
    } else {
        reader.saw(Format::JsonRpc);
    }
    // mrtr serve --log text names the principal in brackets before the request.
    let named = before.rsplit_once('[').and_then(|(_, rest)| rest.split_once(']')).map(|(name, _)| name.to_owned());
    let by = if from_client == Some(true) { named.or_else(|| who.clone()) } else { None };
    reader.push(line, from_client, by, json);
}

/// A size in the words people read: `12.3 MB`.
pub fn megabytes(bytes: usize) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}

/// Reads `text`: a HAR file, a log, a transcript or JSON-RPC lines.
///
/// ```
/// let text = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"deploy"}}
/// {"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[]}}"#;
/// let read = mrtr_lint::read(text).unwrap();
/// assert_eq!(read.messages.len(), 2);
/// assert!(read.messages[0].from_client && !read.messages[1].from_client);
/// assert!(mrtr_lint::read("nothing to see").unwrap().messages.is_empty());
/// ```
pub fn read(text: &str) -> Result<Transcript, String> {
    if text.len() > MAX_LEN {
        return Err(format!("the transcript is {}; the most read is {}", megabytes(text.len()), megabytes(MAX_LEN)));
    }
    let mut reader =
        Reader { format: None, messages: Vec::new(), skipped: Vec::new(), skipped_count: 0, unreadable: Vec::new() };
    let whole = serde_json::from_str::<Value>(text).ok();
    let salvaged = if whole.is_none() { salvage_har(text) } else { None };
    if let Some(entries) = whole.as_ref().and_then(|w| w["log"]["entries"].as_array()) {
        reader.saw(Format::Har);
        read_har(entries, &mut reader);
    } else if let Some((entries, stopped)) = salvaged {
        reader.saw(Format::Har);
        read_har(&entries, &mut reader);
        let line = line_of(text, stopped);
        let why = format!(
            "the HAR file is cut short or broken after entry {} (line {line}): the entries after it are not read",
            entries.len()
        );
        reader.cannot_read(line, why);
    } else if let Some(Value::Array(messages)) = whole {
        reader.saw(Format::JsonRpc);
        for (n, message) in messages.into_iter().enumerate() {
            reader.push(n + 1, None, None, message);
        }
    } else {
        let (mut bearers, mut who) = (Bearers::default(), None);
        for (n, line) in text.lines().enumerate() {
            read_line(n + 1, line, &mut bearers, &mut who, &mut reader);
        }
    }
    Ok(Transcript {
        format: reader.format.unwrap_or(Format::JsonRpc),
        messages: reader.messages,
        skipped: reader.skipped,
        skipped_count: reader.skipped_count,
        unreadable: reader.unreadable,
    })
}
