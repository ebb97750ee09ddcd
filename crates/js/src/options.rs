//! Options objects from JavaScript, checked with sentences a person can act on.

use crate::{number, plain};
use mrtr_json::Value;
use mrtr_ticket::{Codec, Key, Mint, Mode, RequestDigest};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;
use serde_path_to_error::Segment;
use wasm_bindgen::prelude::*;

/// Reads a JS options object into a Rust type. A wrong shape becomes an `Error` naming the
/// place (``mrtr: bad options: `request.method`: invalid type: integer `3`, expected a
/// string``), and a name the type does not know is refused, not ignored: a misspelt
/// `replayrecord: true` must not leave a verifier without its record.
pub fn parse<T: DeserializeOwned>(value: JsValue) -> Result<T, JsError> {
    read(Json::Object(object_of(&value)?))
}

/// Reads options that carry a codec's (`key`, `mode`, `maxLen`, `replayRecord`) beside the
/// call's own: the codec's members are taken out and read as [`CodecOptions`], the rest as
/// `T` (serde cannot refuse an unknown name through `flatten`, so this is not one struct).
pub fn parse_with_codec<T: DeserializeOwned>(value: JsValue) -> Result<(CodecOptions, T), JsError> {
    let mut members = object_of(&value)?;
    let (codec_names, names) = (field_names::<CodecOptions>(), field_names::<T>());
    if let Some(unknown) =
        members.keys().find(|name| !codec_names.contains(&name.as_str()) && !names.contains(&name.as_str()))
    {
        let known: Vec<_> = codec_names.iter().chain(names).map(|name| format!("`{name}`")).collect();
        return Err(bad(&format!("unknown field `{unknown}`, expected one of {}", known.join(", "))));
    }
    let codec = codec_names.iter().filter_map(|name| members.remove_entry(*name)).collect();
    Ok((read(Json::Object(codec))?, read(Json::Object(members))?))
}

/// The names a derived struct reads, as serde's derive lists them (renamed): its
/// `Deserialize` hands them to the deserializer, which keeps them and stops there.
fn field_names<T: DeserializeOwned>() -> &'static [&'static str] {
    struct Names<'a>(&'a mut &'static [&'static str]);
    impl<'de> serde::Deserializer<'de> for Names<'_> {
        type Error = serde::de::value::Error;
        fn deserialize_any<V: serde::de::Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
            Err(serde::de::Error::custom("not a struct"))
        }
        fn deserialize_struct<V: serde::de::Visitor<'de>>(
            self,
            _: &'static str,
            fields: &'static [&'static str],
            _: V,
        ) -> Result<V::Value, Self::Error> {
            *self.0 = fields;
            Err(serde::de::Error::custom("names taken"))
        }
        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option unit
            unit_struct newtype_struct seq tuple tuple_struct map enum identifier ignored_any
        }
    }
    let mut names: &'static [&'static str] = &[];
    let _ = T::deserialize(Names(&mut names));
    names
}

/// The argument's members as JSON, once it is known to be an object (not an array, which
/// is an object to `typeof`).
fn object_of(value: &JsValue) -> Result<serde_json::Map<String, Json>, JsError> {
    let not_an_object = || bad(&format!("expected an object, got {}", plain::type_name(value)));
    if !value.is_object() || js_sys::Array::is_array(value) {
        return Err(not_an_object());
    }
    // The walk reads any other object as an object, or refuses it (a Date, a Map).
    match plain::json_of(value).map_err(|why| bad(&why))? {
        Json::Object(members) => Ok(members),
        _ => Err(not_an_object()),
    }
}

fn read<T: DeserializeOwned>(value: Json) -> Result<T, JsError> {
    serde_path_to_error::deserialize(value).map_err(|e| {
        let why = e.inner().to_string();
        // An unknown name's place ends with that name, which the sentence already says.
        let segments: Vec<_> = e.path().iter().collect();
        let shown = if why.starts_with("unknown field") { segments.len().saturating_sub(1) } else { segments.len() };
        let mut place = String::new();
        for segment in &segments[..shown] {
            match segment {
                Segment::Seq { index } => plain::enter_item(&mut place, *index),
                named => plain::enter_member(&mut place, &named.to_string()),
            }
        }
        bad(&plain::refusal(&place, &why))
    })
}

fn bad(why: &str) -> JsError {
    JsError::new(&format!("mrtr: bad options: {why}"))
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
    value
        .as_string()
        .ok_or_else(|| JsError::new(&format!("mrtr: `{name}` must be a string, got {}", plain::type_name(value))))
}

/// The key and mode every call needs.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CodecOptions {
    key: String,
    #[serde(default)]
    mode: Option<Mode>,
    #[serde(default, deserialize_with = "number::some_whole")]
    max_len: Option<u64>,
    #[serde(default)]
    pub replay_record: Option<bool>,
}

impl CodecOptions {
    pub fn build(&self) -> Result<Codec, JsError> {
        let key = Key::new(self.key.as_bytes()).map_err(|e| JsError::new(&format!("mrtr: {e}")))?;
        let codec = Codec::new(key, self.mode.unwrap_or(Mode::Signed));
        Ok(match self.max_len {
            Some(max) => codec.with_max_len(usize::try_from(max).unwrap_or(usize::MAX)),
            None => codec,
        })
    }
}

/// A request as `{method, params}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Request {
    method: String,
    /// Not given (or `null`): `{}`, as a JSON-RPC request without params.
    #[serde(default)]
    params: Option<Value>,
}

fn digest(request: &Option<Request>, digest: &Option<String>) -> Result<RequestDigest, JsError> {
    match (request, digest) {
        (Some(r), None) => {
            Ok(RequestDigest::of(&r.method, r.params.as_ref().unwrap_or(&Value::Object(Default::default()))))
        }
        (None, Some(d)) => Ok(RequestDigest::from_encoded(d.clone())),
        _ => Err(JsError::new("mrtr: give either `request` ({method, params}) or `digest`, not both or neither")),
    }
}

/// Options of `mint`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MintOptions {
    principal: String,
    #[serde(default)]
    request: Option<Request>,
    #[serde(default)]
    digest: Option<String>,
    #[serde(default)]
    data: Value,
    #[serde(deserialize_with = "number::millis")]
    now_ms: u64,
    #[serde(deserialize_with = "number::millis")]
    ttl_ms: u64,
}

impl MintOptions {
    pub fn to_mint(&self) -> Result<Mint, JsError> {
        Ok(Mint {
            principal: self.principal.clone(),
            request: digest(&self.request, &self.digest)?,
            data: self.data.clone(),
            now_ms: self.now_ms,
            ttl_ms: self.ttl_ms,
        })
    }
}

/// Options of `open` and `explain`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OpenOptions {
    pub principal: String,
    #[serde(default)]
    request: Option<Request>,
    #[serde(default)]
    digest: Option<String>,
    #[serde(deserialize_with = "number::millis")]
    now_ms: u64,
}

impl OpenOptions {
    /// The request digest and the clock, checked.
    pub fn request_and_now(&self) -> Result<(RequestDigest, u64), JsError> {
        Ok((digest(&self.request, &self.digest)?, self.now_ms))
    }
}
