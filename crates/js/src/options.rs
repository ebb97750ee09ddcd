//! Options objects from JavaScript, checked with sentences a person can act on.

use mrtr_json::Value;
use mrtr_ticket::{Codec, Key, Mint, Mode, RequestDigest};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

/// Reads a JS object into a Rust type; a wrong shape becomes an `Error` naming the field.
pub fn parse<T: DeserializeOwned>(value: JsValue) -> Result<T, JsError> {
    if !value.is_object() {
        return Err(JsError::new(&format!("mrtr: bad options: expected an object, got {}", type_name(&value))));
    }
    within_bounds(&value).map_err(|why| JsError::new(&format!("mrtr: bad options: {why}")))?;
    serde_wasm_bindgen::from_value(value).map_err(|e| JsError::new(&format!("mrtr: bad options: {e}")))
}

/// The deepest an argument may nest arrays and objects: the JSON reader's limit.
const MOST_NESTED: usize = mrtr_json::MAX_DEPTH;
/// The most values an argument may hold, counting a value reached twice twice.
const MOST_VALUES: usize = 1 << 20;

/// Whether a JS value can be read into Rust: the conversion recurses once per level and
/// visits a shared value once per path to it, so a value nested thousands deep would
/// overflow the wasm's stack (a memory fault that breaks every later call), a value that
/// contains itself would never end, and one that shares a child at every level would take
/// 2^depth steps. Walked here without recursion, and refused with a sentence.
fn within_bounds(value: &JsValue) -> Result<(), String> {
    let mut pending = vec![(value.clone(), 0)];
    let mut seen = 0;
    while let Some((value, depth)) = pending.pop() {
        seen += 1;
        if seen > MOST_VALUES {
            return Err(format!("more than {MOST_VALUES} values"));
        }
        if !value.is_object() {
            continue;
        }
        if depth == MOST_NESTED {
            return Err(format!(
                "arrays and objects nested more than {MOST_NESTED} deep (or a value that contains itself)"
            ));
        }
        // What the conversion reads inside it: an iterable's items (a Map's entries, a Set's
        // members; at most as many as are left to count), or an object's own values.
        let room = MOST_VALUES + 1 - seen;
        match js_sys::try_iter(&value) {
            Ok(Some(items)) => pending.extend(items.take(room).map(|item| (item.unwrap_or_default(), depth + 1))),
            _ => pending.extend(
                js_sys::Object::values(value.unchecked_ref()).iter().take(room).map(|child| (child, depth + 1)),
            ),
        }
    }
    Ok(())
}

/// `typeof`, with `null` called by its name.
fn type_name(value: &JsValue) -> String {
    if value.is_null() {
        "null".into()
    } else {
        value.js_typeof().as_string().unwrap_or_default()
    }
}

/// Writes plain data as a plain JS object, the way `JSON.parse` reads it: maps as objects,
/// and a whole number past 2^53 (an attacker's `exp`, say) as the nearest double, where a
/// direct conversion would refuse the whole result.
pub fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    let text =
        serde_json::to_string(value).map_err(|e| JsError::new(&format!("mrtr: cannot write the result: {e}")))?;
    js_sys::JSON::parse(&text).map_err(|_| JsError::new("mrtr: cannot hand the result to JS"))
}

/// A text argument, or an `Error` saying what came instead (wasm-bindgen's own conversion
/// of a number or `undefined` into a string fails with a memory fault, not a sentence).
pub fn text(value: &JsValue, name: &str) -> Result<String, JsError> {
    value.as_string().ok_or_else(|| JsError::new(&format!("mrtr: `{name}` must be a string, got {}", type_name(value))))
}

/// The key and mode every call needs.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CodecOptions {
    key: String,
    #[serde(default = "signed")]
    mode: Mode,
    #[serde(default)]
    max_len: Option<usize>,
    #[serde(default)]
    pub replay_record: bool,
}

fn signed() -> Mode {
    Mode::Signed
}

impl CodecOptions {
    pub fn build(&self) -> Result<Codec, JsError> {
        let key = Key::new(self.key.as_bytes()).map_err(|e| JsError::new(&format!("mrtr: {e}")))?;
        let codec = Codec::new(key, self.mode);
        Ok(match self.max_len {
            Some(max) => codec.with_max_len(max),
            None => codec,
        })
    }
}

/// A request as `{method, params}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Request {
    method: String,
    #[serde(default = "empty_object")]
    params: Value,
}

fn empty_object() -> Value {
    Value::Object(Default::default())
}

fn digest(request: &Option<Request>, digest: &Option<String>) -> Result<RequestDigest, JsError> {
    match (request, digest) {
        (Some(r), None) => Ok(RequestDigest::of(&r.method, &r.params)),
        (None, Some(d)) => Ok(RequestDigest::from_encoded(d.clone())),
        _ => Err(JsError::new("mrtr: give either `request` ({method, params}) or `digest`, not both or neither")),
    }
}

/// Options of `mint`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MintOptions {
    #[serde(flatten)]
    pub codec: CodecOptions,
    principal: String,
    #[serde(default)]
    request: Option<Request>,
    #[serde(default)]
    digest: Option<String>,
    #[serde(default)]
    data: Value,
    now_ms: f64,
    ttl_ms: f64,
}

impl MintOptions {
    pub fn to_mint(&self) -> Result<Mint, JsError> {
        Ok(Mint {
            principal: self.principal.clone(),
            request: digest(&self.request, &self.digest)?,
            data: self.data.clone(),
            now_ms: millis(self.now_ms, "nowMs")?,
            ttl_ms: millis(self.ttl_ms, "ttlMs")?,
        })
    }
}

/// Options of `open` and `explain`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OpenOptions {
    #[serde(flatten)]
    pub codec: CodecOptions,
    pub principal: String,
    #[serde(default)]
    request: Option<Request>,
    #[serde(default)]
    digest: Option<String>,
    now_ms: f64,
}

impl OpenOptions {
    /// The request digest and the clock, checked.
    pub fn request_and_now(&self) -> Result<(RequestDigest, u64), JsError> {
        Ok((digest(&self.request, &self.digest)?, millis(self.now_ms, "nowMs")?))
    }
}

fn millis(value: f64, name: &str) -> Result<u64, JsError> {
    if (0.0..=9_007_199_254_740_991.0).contains(&value) {
        Ok(value as u64)
    } else {
        // `{:?}`: 1e300 as 1e300, not as its 301 digits.
        Err(JsError::new(&format!(
            "mrtr: `{name}` must be a number of milliseconds from 0 to Number.MAX_SAFE_INTEGER, got {value:?}"
        )))
    }
}
