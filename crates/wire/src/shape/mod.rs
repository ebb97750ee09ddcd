//! Tickets of any shape, read by structure ([`layer`]): which layers a ticket has, where its
//! payload and tag are, when it says it expires ([`time`]), and the edits each attack makes,
//! each written back in the server's own shape ([`spelling`]).
//!
//! A server's ticket is foreign input. Nothing here indexes into it: every part is found by
//! search, every decode may fail, and an edit that has no meaning for a shape, or that could
//! not be written the way the server writes its tickets, is left out, so the attack says "not
//! tested" with the reason instead of sending something malformed whose refusal proves nothing.

mod layer;
mod spelling;
mod time;

use layer::Node;
use mrtr_sim::moves::forged_with_attacker_key;
use serde::Serialize;
use serde_json::Value;
pub use spelling::decode_base64;
use spelling::Spelling;

/// A ticket's structure, as the reader found it: its layers from the outside in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shape {
    layers: String,
    readable: bool,
    tagged: bool,
}

impl Serialize for Shape {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.layers)
    }
}

impl Shape {
    /// Its layers, e.g. `v1.base64(JSON).tag`, `base64(JSON with a tag in "sig")`, `opaque`.
    pub fn id(&self) -> &str {
        &self.layers
    }

    /// What it is, in a few words for a report.
    pub fn words(&self) -> String {
        let kind = match (self.readable, self.tagged) {
            (true, true) => "a readable ticket with a tag",
            (true, false) => "a readable ticket with no tag",
            (false, _) => "an opaque ticket",
        };
        format!("{kind} ({})", self.layers)
    }

    /// True when its payload reads without the server's key.
    pub fn readable(&self) -> bool {
        self.readable
    }
}

/// A ticket read as far as its structure allows.
#[derive(Debug, Clone, PartialEq)]
pub struct Ticket {
    /// The ticket as the server sent it.
    pub text: String,
    /// Its shape.
    pub shape: Shape,
    /// The payload's JSON, when it reads without the key (a tag member included).
    pub claims: Option<Value>,
    node: Node,
}

/// How many edits of one kind an attack tries at most.
const MOST_EDITS: usize = 3;

/// How many variants of one edit are tried for one that reads the same in every spelling.
const VARIANTS: u32 = 24;

/// Strings shorter than this are left alone by byte edits: likely a flag or a unit.
const SHORTEST_EDITED: usize = 3;

impl Ticket {
    /// Reads `text`. Never fails; what it cannot name is opaque.
    ///
    /// ```
    /// use mrtr_wire::Ticket;
    /// let ticket = Ticket::read(r#"{"sub": "bob", "n": "k2j4h5", "exp": 1800000000}"#);
    /// assert_eq!(ticket.shape.id(), "JSON");
    /// assert_eq!(ticket.expires_at_ms(), Some(1_800_000_000_000), "seconds, by magnitude");
    /// assert!(ticket.byte_edits()[0].contains("\"sub\": \"bob\""), "written back as it came");
    /// assert_eq!(Ticket::read("hello").shape.id(), "opaque");
    /// ```
    pub fn read(text: &str) -> Ticket {
        let node = Node::read(text);
        let tagged = node.tag().is_some_and(|t| !t.is_empty());
        let shape = Shape { layers: node.describe(), readable: node.readable(), tagged };
        let claims = node.json().map(|(v, _)| v.clone());
        Ticket { text: text.to_owned(), shape, claims, node }
    }

    /// True when the ticket has a tag apart from its payload, and it is not empty.
    pub fn has_tag(&self) -> bool {
        self.shape.tagged
    }

    /// True when the ticket has a place for a tag, and it is empty: the server signs nothing.
    pub fn has_empty_tag(&self) -> bool {
        self.node.tag().is_some_and(|t| t.is_empty())
    }

    /// Every text `node` may be written as for this server, other than the ticket itself.
    fn spellings(&self, node: &Node) -> Vec<String> {
        node.render().into_iter().filter_map(|b| String::from_utf8(b).ok()).filter(|t| *t != self.text).collect()
    }

    /// The first of `make`'s variants that is written in one text whatever the server's base64
    /// spelling; else the first variant in every spelling the server may use.
    fn best(&self, make: impl Fn(u32) -> Option<Node>) -> Vec<String> {
        let mut fallback = Vec::new();
        for variant in 0..VARIANTS {
            let Some(node) = make(variant) else { continue };
            let texts = self.spellings(&node);
            if texts.len() == 1 {
                return texts;
            }
            if fallback.is_empty() {
                fallback = texts;
            }
        }
        fallback
    }

    /// The ticket with one character changed, in its shape: inside a string of a readable
    /// payload (the longest first, a few of them), else in the middle of its longest part.
    pub fn byte_edits(&self) -> Vec<String> {
        let Some((value, tag)) = self.node.json() else {
            return self.opaque_flip().into_iter().collect();
        };
        let mut paths = string_paths(value, tag);
        paths.sort_by_key(|(_, len)| std::cmp::Reverse(*len));
        let mut edits = Vec::new();
        if paths.is_empty() {
            // No string to change: a number's last digit (not a time's), one character still.
            return number_paths(value, tag)
                .iter()
                .take(MOST_EDITS)
                .flat_map(|path| {
                    self.best(|variant| {
                        let mut node = self.node.clone();
                        let number = node.json_mut()?.pointer_mut(path)?;
                        let n = number.as_i64()?;
                        let step = i64::from(variant) + 1;
                        *number = (if n.rem_euclid(10) + step < 10 { n + step } else { n - step }).into();
                        Some(node)
                    })
                })
                .collect();
        }
        for (path, _) in paths.iter().take(MOST_EDITS) {
            edits.extend(self.best(|variant| {
                let mut node = self.node.clone();
                let Value::String(text) = node.json_mut()?.pointer_mut(path)? else { return None };
                *text = flip_middle(text, char::from(b'A' + (variant % 26) as u8))?;
                Some(node)
            }));
        }
        edits
    }

    /// One character changed in the middle of the longest part of an unreadable ticket.
    fn opaque_flip(&self) -> Option<String> {
        let (start, len) = self
            .text
            .split('.')
            .scan(0usize, |at, part| {
                let here = *at;
                *at += part.len() + 1;
                Some((here, part.len()))
            })
            .max_by_key(|(_, len)| *len)?;
        let part = self.text.get(start..start + len)?;
        let flipped = flip_middle(part, 'A')?;
        Some(format!("{}{flipped}{}", self.text.get(..start)?, self.text.get(start + len..)?))
    }

    /// The ticket with one character in the middle of its tag changed.
    pub fn tag_edits(&self) -> Vec<String> {
        let Some(tag) = self.node.tag().filter(|t| !t.is_empty()) else { return Vec::new() };
        self.best(|variant| {
            let mut node = self.node.clone();
            node.set_tag(Some(&flip_middle(&tag, char::from(b'A' + (variant % 26) as u8))?));
            Some(node)
        })
    }

    /// The ticket without its tag (a segment emptied, its dot kept; a member removed).
    pub fn without_tag(&self) -> Vec<String> {
        if !self.has_tag() {
            return Vec::new();
        }
        let mut node = self.node.clone();
        node.set_tag(None);
        self.spellings(&node)
    }

    /// This ticket under `other`'s tag, when both have one where the other has it, and the
    /// result differs from both tickets (a splice that reproduces a ticket is no splice).
    pub fn with_tag_of(&self, other: &Ticket) -> Vec<String> {
        let theirs = other.node.tag().filter(|t| !t.is_empty());
        let Some(theirs) = theirs.filter(|_| self.has_tag() && self.node.tag_at() == other.node.tag_at()) else {
            return Vec::new();
        };
        let mut node = self.node.clone();
        node.set_tag(Some(&theirs));
        self.spellings(&node).into_iter().filter(|spliced| *spliced != other.text).collect()
    }

    /// The readable payload edited, the tag kept: a member added, its expiry an hour later,
    /// its most tempting value changed.
    pub fn payload_edits(&self) -> Vec<String> {
        self.edited(None)
    }

    /// The payload edits of [`Ticket::payload_edits`], each under a well-formed tag made with
    /// the attacker's own key (of the length and spelling of the server's): only the server's
    /// key makes it right. A place for a tag left empty (a server that signs nothing) gets one
    /// of 32 bytes.
    pub fn resigned(&self) -> Vec<String> {
        match self.node.tag() {
            Some(tag) => self.edited(Some(&tag)),
            None => Vec::new(),
        }
    }

    /// Each payload edit, under the attacker's tag when `tag` is the server's.
    fn edited(&self, tag: Option<&str>) -> Vec<String> {
        let edits: [fn(&mut Value, u32); 3] = [add_member, later_expiry, tempting_value];
        let mut out: Vec<String> = Vec::new();
        for edit in edits {
            let texts = self.best(|variant| {
                let mut node = self.node.clone();
                let value = node.payload_mut()?;
                let before = value.clone();
                edit(value, variant);
                if *value == before {
                    return None;
                }
                if let Some(tag) = tag {
                    node.set_tag(Some(&attacker_tag(tag, variant)));
                }
                Some(node)
            });
            out.extend(texts.into_iter().filter(|t| !out.contains(t)).collect::<Vec<_>>());
        }
        out
    }

    /// Tickets the server never issued, in its shape: a readable payload with its longest
    /// random-looking string replaced, then every one, and a member added (under the
    /// attacker's tag where it has one); or an unreadable ticket's every character replaced
    /// by another of its kind.
    pub fn forgeries(&self) -> Vec<String> {
        if !self.node.readable() {
            let replaced: String = self.text.chars().map(other_of_its_kind).collect();
            return (replaced != self.text).then_some(replaced).into_iter().collect();
        }
        let tag = self.node.tag().filter(|t| !t.is_empty());
        let mut out: Vec<String> = Vec::new();
        // The longest string alone (likely the nonce) first: a server that binds a long value
        // (a method's name) refuses the second for that reason alone.
        for only_longest in [true, false] {
            let texts = self.best(|variant| {
                let mut node = self.node.clone();
                let tag_name = node.json().and_then(|(_, t)| t.map(str::to_owned));
                replace_nonces(node.json_mut()?, tag_name.as_deref(), only_longest);
                add_member(node.payload_mut()?, variant);
                if let Some(tag) = &tag {
                    node.set_tag(Some(&attacker_tag(tag, variant)));
                }
                Some(node)
            });
            out.extend(texts.into_iter().filter(|t| !out.contains(t)).collect::<Vec<_>>());
        }
        out
    }

    /// The same claims in other bytes (JSON pretty-printed, or base64 respelt): what a client
    /// that "tidies" the ticket sends. Empty when there is no other spelling.
    pub fn reencoded(&self) -> Vec<String> {
        if let Some((value, _)) = self.node.json() {
            let Ok(pretty) = serde_json::to_string_pretty(value) else { return Vec::new() };
            let texts = [pretty.clone(), format!("{pretty}\n"), format!(" {pretty}"), format!("{pretty}\n\n")];
            return self.best(|variant| with_json_text(&self.node, texts.get(variant as usize)?));
        }
        if matches!(self.node, Node::Digits(_)) {
            return Vec::new();
        }
        let parts: Vec<String> =
            self.text.split('.').map(|part| Spelling::respelt(part).unwrap_or_else(|| part.to_owned())).collect();
        let respelt = parts.join(".");
        (respelt != self.text).then_some(respelt).into_iter().collect()
    }

    /// When the ticket says it expires, ms since the epoch: a field named for it, or an
    /// 8-byte binary head before the payload, judged by magnitude (0: never).
    pub fn expires_at_ms(&self) -> Option<u64> {
        if let Some(at) = self.claims.as_ref().and_then(|c| time::find(c, time::Field::Expires)) {
            return Some(at);
        }
        let head: [u8; 8] = self.node.head()?.try_into().ok()?;
        time::by_magnitude(i64::from_be_bytes(head) as f64)
    }

    /// How long the ticket lives, ms, where it says when it was issued too.
    pub fn lifetime_ms(&self) -> Option<u64> {
        let issued = time::find(self.claims.as_ref()?, time::Field::Issued)?;
        self.expires_at_ms()?.checked_sub(issued)
    }
}

/// `node` with its JSON layer written as `text` byte for byte.
fn with_json_text(node: &Node, text: &str) -> Option<Node> {
    let mut out = node.clone();
    *find_json_mut(&mut out)? = Node::Opaque(text.as_bytes().to_vec());
    Some(out)
}

fn find_json_mut(node: &mut Node) -> Option<&mut Node> {
    match node {
        Node::Json { .. } => Some(node),
        Node::Base64 { inner, .. } | Node::Binary { inner, .. } => find_json_mut(inner),
        Node::Dotted { payload: Some((_, inner)), .. } => find_json_mut(inner),
        _ => None,
    }
}

/// JSON pointers to the leaves of `value` that `keep` says yes to, with the leaves: not under
/// the top-level `tag` member, nor under a member whose name `skip` says yes to.
fn leaf_paths<'a>(
    value: &'a Value,
    tag: Option<&str>,
    skip: fn(&str) -> bool,
    keep: fn(&Value) -> bool,
) -> Vec<(String, &'a Value)> {
    /// Which members to pass over, and which leaves to keep.
    #[derive(Clone, Copy)]
    struct Rules {
        skip: fn(&str) -> bool,
        keep: fn(&Value) -> bool,
    }
    fn walk<'a>(
        value: &'a Value,
        top: Option<&str>,
        at: &mut String,
        rules: Rules,
        out: &mut Vec<(String, &'a Value)>,
    ) {
        let len = at.len();
        match value {
            Value::Object(members) => {
                for (name, member) in
                    members.iter().filter(|(name, _)| Some(name.as_str()) != top && !(rules.skip)(name))
                {
                    at.push('/');
                    at.push_str(&name.replace('~', "~0").replace('/', "~1"));
                    walk(member, None, at, rules, out);
                    at.truncate(len);
                }
            }
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    at.push_str(&format!("/{i}"));
                    walk(item, None, at, rules, out);
                    at.truncate(len);
                }
            }
            leaf if (rules.keep)(leaf) => out.push((at.clone(), leaf)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(value, tag, &mut String::new(), Rules { skip, keep }, &mut out);
    out
}

/// JSON pointers to the string leaves worth a byte edit, with their lengths: not the tag
/// member, not a date, not a flag or a unit (shorter than [`SHORTEST_EDITED`]).
fn string_paths(value: &Value, tag: Option<&str>) -> Vec<(String, usize)> {
    let worth = |v: &Value| v.as_str().is_some_and(|t| t.chars().count() >= SHORTEST_EDITED && !time::is_iso8601(t));
    leaf_paths(value, tag, |_| false, worth)
        .into_iter()
        .map(|(path, leaf)| (path, leaf.as_str().map_or(0, str::len)))
        .collect()
}

/// JSON pointers to the integers that are not times, not under the tag member.
fn number_paths(value: &Value, tag: Option<&str>) -> Vec<String> {
    let named_a_time = |name: &str| time::field_named(name).is_some();
    let integer = |v: &Value| v.is_i64() && time::millis(v).is_none();
    leaf_paths(value, tag, named_a_time, integer).into_iter().map(|(path, _)| path).collect()
}

/// The character of its kind that replaces `c`: a digit for a digit, a letter of the same case
/// for a letter (hex stays hex), anything else kept.
fn other_of_its_kind(c: char) -> char {
    match c {
        '0'..='8' => char::from(c as u8 + 1),
        '9' => '0',
        'a'..='e' | 'A'..='E' => char::from(c as u8 + 1),
        'f' => 'a',
        'F' => 'A',
        'g'..='y' | 'G'..='Y' => char::from(c as u8 + 1),
        'z' => 'g',
        'Z' => 'G',
        other => other,
    }
}

/// `text` with its middle character replaced: by `preferred` (or the letter after it when it
/// is already that), kept in its kind (a digit by a digit, a lowercase letter by one).
fn flip_middle(text: &str, preferred: char) -> Option<String> {
    let chars: Vec<char> = text.chars().collect();
    let at = chars.len() / 2;
    let old = *chars.get(at)?;
    let new = match old {
        '0'..='9' => {
            if old == '0' {
                '1'
            } else {
                '0'
            }
        }
        'a'..='z' => {
            let p = preferred.to_ascii_lowercase();
            if old == p {
                other_of_its_kind(p)
            } else {
                p
            }
        }
        'A'..='Z' => {
            let p = preferred.to_ascii_uppercase();
            if old == p {
                other_of_its_kind(p)
            } else {
                p
            }
        }
        _ => {
            if old == preferred {
                other_of_its_kind(preferred)
            } else {
                preferred
            }
        }
    };
    let mut chars = chars;
    chars[at] = new;
    Some(chars.into_iter().collect())
}

/// Adds a member the server never wrote (`variant` changes its value, for a neutral encoding):
/// to an object, or as an item to an array; another JSON value is wrapped.
fn add_member(value: &mut Value, variant: u32) {
    let added: Value = match variant {
        0 => true.into(),
        1 => 1.into(),
        n => format!("{}{}", "x".repeat((n % 4) as usize), n / 4).into(),
    };
    match value {
        Value::Object(members) => {
            members.insert("probe".into(), added);
        }
        Value::Array(items) => items.push(added),
        other => *other = serde_json::json!([other.clone(), added]),
    }
}

/// Moves the first expiry an hour later (`variant` adds seconds, for a neutral encoding).
fn later_expiry(value: &mut Value, variant: u32) {
    fn walk(value: &mut Value, variant: u32, depth: usize) -> bool {
        let Value::Object(members) = value else { return false };
        for (name, member) in members.iter_mut() {
            if time::field_named(name) != Some(time::Field::Expires) {
                continue;
            }
            let Some(at) = time::millis(member) else { continue };
            let later = at + 3_600_000 + u64::from(variant) * 1000;
            *member = match member {
                Value::Number(n) if n.as_f64().is_some_and(|t| t < 1e11) => (later / 1000).into(),
                Value::Number(_) => later.into(),
                Value::String(text) if text.bytes().all(|b| b.is_ascii_digit()) => {
                    if text.len() <= 11 { (later / 1000).to_string() } else { later.to_string() }.into()
                }
                // An ISO date: an hour is added by writing the same form with the hour moved.
                Value::String(text) => match bump_iso_hour(text) {
                    Some(bumped) => bumped.into(),
                    None => continue,
                },
                _ => continue,
            };
            return true;
        }
        depth < 3 && members.values_mut().any(|m| walk(m, variant, depth + 1))
    }
    walk(value, variant, 0);
}

/// An ISO date an hour later in the same form, where the hour is below 23.
fn bump_iso_hour(text: &str) -> Option<String> {
    let hour: u8 = text.get(11..13)?.parse().ok()?;
    (hour < 23)
        .then(|| format!("{}{:02}{}", text.get(..11).unwrap_or_default(), hour + 1, text.get(13..).unwrap_or_default()))
}

/// The most tempting edit: `staging` becomes `prod`, another first string gets a suffix, or
/// else the first number that is not a time grows.
fn tempting_value(value: &mut Value, variant: u32) {
    fn first<'a>(value: &'a mut Value, is: &dyn Fn(&str, &Value) -> bool, name: &str) -> Option<&'a mut Value> {
        match value {
            Value::Array(items) => items.iter_mut().find_map(|v| first(v, is, name)),
            Value::Object(members) => members.iter_mut().find_map(|(n, v)| first(v, is, n)),
            leaf if is(name, leaf) => Some(leaf),
            _ => None,
        }
    }
    let suffix = "-edited".to_owned() + &"x".repeat(variant as usize);
    let text = |_: &str, v: &Value| v.as_str().is_some_and(|t| !time::is_iso8601(t) && t.len() >= SHORTEST_EDITED);
    let number = |name: &str, v: &Value| v.is_number() && time::field_named(name).is_none();
    if let Some(Value::String(t)) = first(value, &text, "") {
        *t = if t == "staging" && variant == 0 { "prod".to_owned() } else { format!("{t}{suffix}") };
    } else if let Some(n) = first(value, &number, "") {
        *n = (n.as_f64().unwrap_or(0.0) + 1.0 + f64::from(variant)).into();
    }
}

/// Replaces strings of 8 characters or more that are not dates (nonces, ids) by others of the
/// same length and kinds: the longest one only, or every one.
fn replace_nonces(value: &mut Value, tag: Option<&str>, only_longest: bool) {
    let mut paths = string_paths(value, tag);
    paths.retain(|(_, len)| *len >= 8);
    paths.sort_by_key(|(_, len)| std::cmp::Reverse(*len));
    if only_longest {
        paths.truncate(1);
    }
    for (path, _) in paths {
        if let Some(Value::String(text)) = value.pointer_mut(&path) {
            *text = text.chars().map(other_of_its_kind).collect();
        }
    }
}

/// A tag made with the attacker's key, as long as `tag` and spelt as it is: hex for hex,
/// base64 in its spelling otherwise.
fn attacker_tag(tag: &str, variant: u32) -> String {
    let seed = forged_with_attacker_key("v1.e30.x", &serde_json::json!({"variant": variant}));
    let mac = decode_base64(seed.rsplit('.').next().unwrap_or_default()).unwrap_or_else(|| vec![0x5a; 32]);
    let stream = |n: usize| -> Vec<u8> { mac.iter().cycle().take(n).copied().collect() };
    if tag.is_empty() {
        return Spelling { url: Some(true), padded: Some(false) }.encode(&stream(32));
    }
    if tag.bytes().all(|b| b.is_ascii_hexdigit()) && tag.len().is_multiple_of(2) {
        let upper = tag.bytes().any(|b| b.is_ascii_uppercase());
        let bytes = stream(tag.len() / 2);
        return if upper { hex::encode_upper(bytes) } else { hex::encode(bytes) };
    }
    match (Spelling::of(tag), Spelling::decode(tag)) {
        (Some(spelling), Some(bytes)) => spelling.encode(&stream(bytes.len())),
        _ => tag.chars().map(other_of_its_kind).collect(),
    }
}

#[cfg(test)]
mod tests;
