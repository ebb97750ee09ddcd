//! Writing a [`Value`] as JSON text: `{}` compact, `{:#}` pretty (two spaces a level), both
//! byte for byte as serde_json writes them.

use crate::Value;
use std::fmt::{self, Write};

impl fmt::Display for Value {
    /// ```
    /// let value = mrtr_json::json!({"id": 7, "list": [1, "two"], "empty": {}});
    /// assert_eq!(value.to_string(), r#"{"id":7,"list":[1,"two"],"empty":{}}"#);
    /// assert_eq!(format!("{value:#}"), "{\n  \"id\": 7,\n  \"list\": [\n    1,\n    \"two\"\n  ],\n  \"empty\": {}\n}");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let indent = if f.alternate() { Some(0) } else { None };
        write_value(f, self, indent)
    }
}

/// Writes `value`; `indent` is the pretty writer's depth, `None` for compact text.
fn write_value(out: &mut impl Write, value: &Value, indent: Option<usize>) -> fmt::Result {
    match value {
        Value::Null => out.write_str("null"),
        Value::Bool(b) => out.write_str(if *b { "true" } else { "false" }),
        Value::Number(n) => write!(out, "{n}"),
        Value::String(s) => write_string(out, s),
        Value::Array(items) => {
            write_list(out, ('[', ']'), items, indent, |out, item, indent| write_value(out, item, indent))
        }
        Value::Object(map) => write_list(out, ('{', '}'), map, indent, |out, (name, value), indent| {
            write_string(out, name)?;
            out.write_str(if indent.is_some() { ": " } else { ":" })?;
            write_value(out, value, indent)
        }),
    }
}

/// An array's items or an object's members between their brackets: comma-separated, and in
/// pretty text each on its own line one level in (an empty list stays `[]` or `{}`).
fn write_list<W: Write, T>(
    out: &mut W,
    (open, close): (char, char),
    items: impl IntoIterator<Item = T>,
    indent: Option<usize>,
    write_item: impl Fn(&mut W, T, Option<usize>) -> fmt::Result,
) -> fmt::Result {
    out.write_char(open)?;
    let inner = indent.map(|depth| depth + 1);
    let mut any = false;
    for item in items {
        if any {
            out.write_char(',')?;
        }
        any = true;
        new_line(out, inner)?;
        write_item(out, item, inner)?;
    }
    if any {
        new_line(out, indent)?;
    }
    out.write_char(close)
}

fn new_line(out: &mut impl Write, indent: Option<usize>) -> fmt::Result {
    if let Some(depth) = indent {
        out.write_char('\n')?;
        for _ in 0..depth {
            out.write_str("  ")?;
        }
    }
    Ok(())
}

/// Writes `s` as a JSON string, escaped minimally: `"` `\` and the control characters below
/// U+0020 (`\b \f \n \r \t` by name, the rest as `\u00xx` in lower-case hex); everything else
/// as it is. This is both serde_json's escaping and canonical JSON's (RFC 8785).
///
/// ```
/// let mut out = String::new();
/// mrtr_json::write_string(&mut out, "a\"\\\n\u{1}é").unwrap();
/// assert_eq!(out, r#""a\"\\\n\u0001é""#);
/// ```
///
/// One copy in the wasm whatever it writes into (`dyn`): a `Formatter` here, a `String` for
/// canonical JSON.
pub fn write_string(out: &mut dyn Write, s: &str) -> fmt::Result {
    out.write_char('"')?;
    let mut plain = 0;
    for (i, byte) in s.bytes().enumerate() {
        let escape = match byte {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            0..0x20 => "",
            _ => continue,
        };
        out.write_str(&s[plain..i])?;
        plain = i + 1;
        if escape.is_empty() {
            write!(out, "\\u{byte:04x}")?;
        } else {
            out.write_str(escape)?;
        }
    }
    out.write_str(&s[plain..])?;
    out.write_char('"')
}
