//! A ticket's layers, found by structure: JSON text, base64 of something readable, dot-separated
//! segments (one of them a readable payload, the one after it a tag), bytes before a JSON payload,
//! digits, and opaque bytes. Each layer is written back the way it came ([`Node::render`]).

use super::spelling::Spelling;
use serde_json::Value;

/// How many layers deep the reader looks: a base64 of a dotted ticket of base64 of JSON is three.
const DEEPEST: usize = 4;

/// The most bytes before a JSON payload read as a binary head (an expiry, a version, a nonce).
const LONGEST_HEAD: usize = 16;

/// The most texts one edit is written in, one per spelling the server may use.
pub const MOST_SPELLINGS: usize = 8;

/// Names of a JSON member that holds a tag over the rest.
const TAG_NAMES: &[&str] = &["sig", "signature", "tag", "mac", "hmac", "hash", "digest", "auth"];

/// One layer of a ticket.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    /// JSON text. `tag` names the member that holds a tag over the others, if one does.
    Json {
        /// The value.
        value: Value,
        /// Written with a space after `,` and `:` (as Python writes JSON).
        spaced: bool,
        /// The member holding the tag.
        tag: Option<String>,
    },
    /// Base64 of the inner layer's bytes.
    Base64 {
        /// How it was spelt.
        spelling: Spelling,
        /// What it holds.
        inner: Box<Node>,
    },
    /// Bytes before a JSON payload (a binary expiry, a version).
    Binary {
        /// The bytes before.
        head: Vec<u8>,
        /// The payload.
        inner: Box<Node>,
    },
    /// Segments split by one separator (a dot, or another mark that base64 never holds).
    Dotted {
        /// The separator.
        sep: char,
        /// The segments as sent.
        segments: Vec<String>,
        /// The readable segment and what it reads as.
        payload: Option<(usize, Box<Node>)>,
        /// The segment after the payload: its tag (possibly empty).
        tag: Option<usize>,
    },
    /// Decimal digits.
    Digits(String),
    /// Bytes that read as nothing: sealed, random, or a key into the server's store.
    Opaque(Vec<u8>),
}

/// Where a ticket's tag is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TagAt {
    /// A dot-separated segment, by index.
    Segment(usize),
    /// A JSON member, by name.
    Member(String),
}

impl Node {
    /// Reads text.
    pub fn read(text: &str) -> Node {
        read_text(text, 0).unwrap_or_else(|| Node::Opaque(text.as_bytes().to_vec()))
    }

    /// True when a JSON payload can be read without the server's key.
    pub fn readable(&self) -> bool {
        self.json().is_some()
    }

    /// The innermost JSON layer.
    pub fn json(&self) -> Option<(&Value, Option<&str>)> {
        match self {
            Node::Json { value, tag, .. } => Some((value, tag.as_deref())),
            Node::Base64 { inner, .. } | Node::Binary { inner, .. } => inner.json(),
            Node::Dotted { payload: Some((_, inner)), .. } => inner.json(),
            _ => None,
        }
    }

    /// The innermost JSON value, to edit.
    pub fn json_mut(&mut self) -> Option<&mut Value> {
        match self {
            Node::Json { value, .. } => Some(value),
            Node::Base64 { inner, .. } | Node::Binary { inner, .. } => inner.json_mut(),
            Node::Dotted { payload: Some((_, inner)), .. } => inner.json_mut(),
            _ => None,
        }
    }

    /// What a tag covers, to edit: beside a tag member, the one other member that holds the
    /// claims (an object or array), or else every member but the tag; elsewhere the JSON.
    pub fn payload_mut(&mut self) -> Option<&mut Value> {
        match self {
            Node::Json { value, tag: Some(name), .. } => {
                let wrapped = value.as_object().and_then(|members| {
                    let mut others = members.iter().filter(|(k, _)| *k != name);
                    match (others.next(), others.next()) {
                        (Some((key, v)), None) if v.is_object() || v.is_array() => Some(key.clone()),
                        _ => None,
                    }
                });
                match wrapped {
                    Some(key) => value.get_mut(&key),
                    None => Some(value),
                }
            }
            Node::Base64 { inner, .. } | Node::Binary { inner, .. } => inner.payload_mut(),
            Node::Dotted { payload: Some((_, inner)), .. } => inner.payload_mut(),
            _ => self.json_mut(),
        }
    }

    /// The binary head before the payload, if there is one.
    pub fn head(&self) -> Option<&[u8]> {
        match self {
            Node::Binary { head, .. } => Some(head),
            Node::Base64 { inner, .. } => inner.head(),
            Node::Dotted { payload: Some((_, inner)), .. } => inner.head(),
            _ => None,
        }
    }

    /// Where the tag is, in the outermost layer that has one.
    pub fn tag_at(&self) -> Option<TagAt> {
        match self {
            Node::Dotted { tag: Some(at), .. } => Some(TagAt::Segment(*at)),
            Node::Dotted { payload: Some((_, inner)), .. } => inner.tag_at(),
            Node::Json { tag: Some(name), .. } => Some(TagAt::Member(name.clone())),
            Node::Base64 { inner, .. } | Node::Binary { inner, .. } => inner.tag_at(),
            _ => None,
        }
    }

    /// The tag's text.
    pub fn tag(&self) -> Option<String> {
        match self {
            Node::Dotted { segments, tag: Some(at), .. } => segments.get(*at).cloned(),
            Node::Dotted { payload: Some((_, inner)), .. } => inner.tag(),
            Node::Json { value, tag: Some(name), .. } => value.get(name)?.as_str().map(str::to_owned),
            Node::Base64 { inner, .. } | Node::Binary { inner, .. } => inner.tag(),
            _ => None,
        }
    }

    /// Sets the tag's text (`None`: removes a member tag, empties a segment tag).
    pub fn set_tag(&mut self, text: Option<&str>) -> bool {
        match self {
            Node::Dotted { segments, tag: Some(at), .. } => match segments.get_mut(*at) {
                Some(segment) => {
                    *segment = text.unwrap_or_default().to_owned();
                    true
                }
                None => false,
            },
            Node::Dotted { payload: Some((_, inner)), .. } => inner.set_tag(text),
            Node::Json { value: Value::Object(members), tag: Some(name), .. } => {
                match text {
                    Some(text) => members.insert(name.clone(), text.into()),
                    None => members.shift_remove(name.as_str()),
                };
                true
            }
            Node::Base64 { inner, .. } | Node::Binary { inner, .. } => inner.set_tag(text),
            _ => false,
        }
    }

    /// The layers' bytes, each written the way it came: one text for each spelling the server
    /// may use where a base64 layer did not show its own (at most [`MOST_SPELLINGS`]).
    pub fn render(&self) -> Vec<Vec<u8>> {
        let mut out: Vec<Vec<u8>> = match self {
            Node::Json { value, spaced, .. } => match serde_json::to_string(value) {
                Ok(compact) => vec![if *spaced { spaced_json(&compact) } else { compact }.into_bytes()],
                Err(_) => Vec::new(),
            },
            Node::Base64 { spelling, inner } => inner
                .render()
                .iter()
                .flat_map(|bytes| spelling.candidates().into_iter().map(move |s| s.encode(bytes).into_bytes()))
                .collect(),
            Node::Binary { head, inner } => inner.render().into_iter().map(|b| [head.clone(), b].concat()).collect(),
            Node::Dotted { sep, segments, payload, .. } => match payload {
                Some((at, inner)) => inner
                    .render()
                    .into_iter()
                    .filter_map(|bytes| {
                        let mut segments = segments.clone();
                        *segments.get_mut(*at)? = String::from_utf8(bytes).ok()?;
                        Some(segments.join(&sep.to_string()).into_bytes())
                    })
                    .collect(),
                None => vec![segments.join(&sep.to_string()).into_bytes()],
            },
            Node::Digits(digits) => vec![digits.clone().into_bytes()],
            Node::Opaque(bytes) => vec![bytes.clone()],
        };
        let mut seen = std::collections::HashSet::new();
        out.retain(|b| seen.insert(b.clone()));
        out.truncate(MOST_SPELLINGS);
        out
    }

    /// The layers from the outside in, in words: `base64(JSON)`, `prefix.base64(JSON).tag`.
    pub fn describe(&self) -> String {
        match self {
            Node::Json { tag: Some(name), .. } => format!("JSON with a tag in \"{name}\""),
            Node::Json { .. } => "JSON".into(),
            Node::Base64 { spelling, inner } => {
                // The alphabet is left out: a ticket shows it only when its bytes happen to need
                // `+/` or `-_`, and one server's shape must read the same from flow to flow.
                let _ = spelling;
                format!("base64({})", inner.describe())
            }
            Node::Binary { head, inner } => format!("{} bytes + {}", head.len(), inner.describe()),
            Node::Dotted { sep, segments, payload, tag } => segments
                .iter()
                .enumerate()
                .map(|(i, s)| match (payload, tag) {
                    (Some((at, inner)), _) if *at == i => inner.describe(),
                    (_, Some(t)) if *t == i && s.is_empty() => "(empty tag)".into(),
                    (_, Some(t)) if *t == i => "tag".into(),
                    _ if s.is_empty() => "(empty)".into(),
                    _ if s.len() <= 4 && s.bytes().all(|b| b.is_ascii_alphanumeric()) => s.clone(),
                    _ => "opaque".into(),
                })
                .collect::<Vec<_>>()
                .join(&sep.to_string()),
            Node::Digits(_) => "digits".into(),
            Node::Opaque(_) => "opaque".into(),
        }
    }
}

/// Compact JSON with a space after each `,` and `:` outside strings.
fn spaced_json(compact: &str) -> String {
    let mut out = String::with_capacity(compact.len() + compact.len() / 4);
    let (mut in_string, mut escaped) = (false, false);
    for c in compact.chars() {
        out.push(c);
        if in_string {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
        } else if c == '"' {
            in_string = true;
        } else if c == ',' || c == ':' {
            out.push(' ');
        }
    }
    out
}

/// A JSON object or array (or, `scalars`, any JSON value), and whether it was written spaced.
fn read_json(text: &str, scalars: bool) -> Option<Node> {
    let trimmed = text.trim_start();
    if !scalars && !trimmed.starts_with('{') && !trimmed.starts_with('[') {
        return None;
    }
    let value: Value = serde_json::from_str(text).ok()?;
    let spaced = text.contains(", ") || text.contains(": ");
    let tag = value.as_object().and_then(|members| {
        members.iter().find_map(|(name, v)| {
            let lower = name.to_ascii_lowercase();
            let named = TAG_NAMES.contains(&lower.as_str()) || lower.ends_with("sig") || lower.ends_with("mac");
            (named && v.is_string() && members.len() > 1).then(|| name.clone())
        })
    });
    Some(Node::Json { value, spaced, tag })
}

fn read_text(text: &str, depth: usize) -> Option<Node> {
    if depth > DEEPEST {
        return None;
    }
    if let Some(json) = read_json(text, false) {
        return Some(json);
    }
    if !text.is_empty() && text.len() <= 64 && text.bytes().all(|b| b.is_ascii_digit()) {
        return Some(Node::Digits(text.to_owned()));
    }
    if let Some(suffixed) = read_json_then_tag(text) {
        return Some(suffixed);
    }
    if text.contains('.') {
        return read_dotted(text, depth, '.');
    }
    // Another mark splits a ticket only where every segment is a token (base64 or hex), so
    // text that merely holds one (bytes before JSON, a time) is not cut at it.
    let token = |segment: &str| segment.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_+/=".contains(&b));
    if let Some(sep) = SEPARATORS.iter().copied().find(|sep| text.contains(*sep) && text.split(*sep).all(token)) {
        return read_dotted(text, depth, sep);
    }
    read_base64(text, depth, false)
}

/// Marks that split a ticket into segments: none of them is a base64 or hex character.
const SEPARATORS: &[char] = &['.', '~', '|', ':', '!', '$', '*', ','];

/// JSON text, then one separator and a tag (`{"a":1}.3f9c…`, `{…}~tag`): the JSON is read
/// whole, so a dot or a separator inside its strings does not split it.
fn read_json_then_tag(text: &str) -> Option<Node> {
    if !matches!(text.trim_start().as_bytes().first(), Some(b'{' | b'[')) {
        return None;
    }
    let mut values = serde_json::Deserializer::from_str(text).into_iter::<Value>();
    values.next()?.ok()?;
    let end = values.byte_offset();
    let (json, rest) = text.split_at(end);
    let mut chars = rest.chars();
    let sep = chars.next().filter(|c| SEPARATORS.contains(c))?;
    let tag = chars.as_str();
    if tag.is_empty() || tag.contains(sep) || !tag.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_+/=".contains(&b)) {
        return None;
    }
    let payload = read_json(json, false)?;
    Some(Node::Dotted {
        sep,
        segments: vec![json.to_owned(), tag.to_owned()],
        payload: Some((0, Box::new(payload))),
        tag: Some(1),
    })
}

/// Base64 of a readable layer; in a dotted ticket's segment (`segment`), a JSON number or
/// string too, which random bytes almost never are.
fn read_base64(text: &str, depth: usize, segment: bool) -> Option<Node> {
    let spelling = if segment { Spelling::of_at_least(text, 2) } else { Spelling::of(text) }?;
    let bytes = Spelling::decode(text)?;
    let scalar = segment.then(|| std::str::from_utf8(&bytes).ok().and_then(|t| read_json(t, true))).flatten();
    let inner = match scalar {
        Some(json) => json,
        None => read_bytes(&bytes, depth + 1)?,
    };
    matches!(
        inner,
        Node::Json { .. } | Node::Binary { .. } | Node::Dotted { payload: Some(_), .. } | Node::Base64 { .. }
    )
    .then(|| Node::Base64 { spelling, inner: Box::new(inner) })
}

/// Bytes: text of a readable layer, or a short binary head before JSON.
fn read_bytes(bytes: &[u8], depth: usize) -> Option<Node> {
    if let Ok(text) = std::str::from_utf8(bytes) {
        if let Some(node) = read_text(text, depth).filter(|n| !matches!(n, Node::Digits(_))) {
            return Some(node);
        }
    }
    (1..=LONGEST_HEAD.min(bytes.len().saturating_sub(2))).find_map(|at| {
        let rest = bytes.get(at..)?;
        if !matches!(rest.first(), Some(b'{' | b'[')) {
            return None;
        }
        let inner = read_json(std::str::from_utf8(rest).ok()?, false)?;
        Some(Node::Binary { head: bytes[..at].to_vec(), inner: Box::new(inner) })
    })
}

/// Segments split by `sep`: the payload is the last one that reads as JSON and is not a JOSE
/// header; the segment right after it is its tag.
fn read_dotted(text: &str, depth: usize, sep: char) -> Option<Node> {
    let segments: Vec<String> = text.split(sep).map(str::to_owned).collect();
    let read: Vec<Option<Node>> = segments.iter().map(|s| read_base64(s, depth, true)).collect();
    let readable: Vec<usize> = (0..segments.len()).filter(|i| read[*i].is_some()).collect();
    let is_header = |i: usize| {
        read[i].as_ref().and_then(Node::json).and_then(|(v, _)| v.get("alg")).is_some()
            && readable.iter().any(|j| *j > i)
    };
    let payload = readable.iter().rev().copied().find(|i| !is_header(*i));
    let tag = payload.map(|at| at + 1).filter(|at| *at < segments.len());
    let payload = payload.and_then(|at| Some((at, Box::new(read.get(at)?.clone()?))));
    if payload.is_none() && segments.iter().filter(|s| !s.is_empty()).count() < 2 {
        return None;
    }
    Some(Node::Dotted { sep, segments, payload, tag })
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
    use base64::Engine;
    use serde_json::json;

    fn url(text: &str) -> String {
        URL_SAFE_NO_PAD.encode(text)
    }

    #[test]
    fn layers_are_found_by_structure_and_written_back_the_same() {
        let claims = r#"{"sub":"bob","n":"a1b2c3","exp":1800000000}"#;
        let dotted = format!("v1.{}.{}", url(claims), url("tag-bytes-0123456789"));
        let nested = url(&dotted);
        let jwt = format!("{}.{}.", url(r#"{"alg":"none"}"#), url(claims));
        let cases = [
            (claims.to_owned(), "JSON"),
            (r#"{"p": {"sub": "bob"}, "sig": "abc"}"#.to_owned(), "JSON with a tag in \"sig\""),
            (STANDARD.encode(claims), "base64(JSON)"),
            (dotted.clone(), "v1.base64(JSON).tag"),
            (nested.clone(), "base64(v1.base64(JSON).tag)"),
            (jwt.clone(), "opaque.base64(JSON).(empty tag)"),
            ("1234567".to_owned(), "digits"),
            ("0f3a9c0f3a9c0f3a9c0f3a9c".to_owned(), "opaque"),
            ("v1e.bm9uY2Vub25jZQ.Ym94Ym94Ym94Ym94".to_owned(), "v1e.opaque.opaque"),
        ];
        for (text, words) in cases {
            let node = Node::read(&text);
            assert_eq!(node.describe(), words, "{text}");
            let written: Vec<String> = node.render().into_iter().filter_map(|b| String::from_utf8(b).ok()).collect();
            assert!(written.contains(&text), "{text} written back: {written:?}");
        }
        assert_eq!(Node::read(&nested).json().map(|(v, _)| v["sub"].clone()), Some(json!("bob")));
        assert_eq!(Node::read(&dotted).tag(), Some(url("tag-bytes-0123456789")));
    }

    #[test]
    fn a_binary_head_before_json_is_kept() {
        let mut bytes = 1_800_000_000_000i64.to_be_bytes().to_vec();
        bytes.extend_from_slice(br#"{"tool":"deploy"}"#);
        let text = format!("rs1.{}.{}", URL_SAFE_NO_PAD.encode(&bytes), url("a tag of some length"));
        let node = Node::read(&text);
        assert_eq!(node.head().map(<[u8]>::len), Some(8));
        assert_eq!(node.json().map(|(v, _)| v.clone()), Some(json!({"tool": "deploy"})));
        assert!(node.render().contains(&text.into_bytes()));
    }

    #[test]
    fn python_spacing_is_written_back() {
        assert_eq!(spaced_json(r#"{"a":"x, y: z","b":[1,2]}"#), r#"{"a": "x, y: z", "b": [1, 2]}"#);
    }
}
