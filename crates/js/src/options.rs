//! Options objects from JavaScript, checked with sentences a person can act on.

use crate::{number, plain};
use mrtr_ticket::{Codec, Key, Mint, Mode, RequestDigest};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;
use serde_json::Value;
use serde_path_to_error::Segment;
use wasm_bindgen::prelude::*;

/// Reads a JS options object into a Rust type. A wrong shape becomes an `Error` naming the
/// place (``mrtr: bad options: `request.method`: invalid type: integer `3`, expected a
/// string``), and a name the type does not know is refused, not ignored: a misspelt
/// `replayrecord: true` must not leave a verifier without its record.
pub fn parse<T: DeserializeOwned>(value: JsValue) -> Result<T, JsError> {
    read(Json::Object(object_of(&value)?)).map_err(|why| bad(&why))
}

/// Reads options that carry a codec's (`key`, `mode`, `maxLen`, `replayRecord`) beside the
/// call's own: the codec's members are taken out and read as [`CodecOptions`], the rest as
/// `T` (serde cannot refuse an unknown name through `flatten`, so this is not one struct).
pub fn parse_with_codec<T: DeserializeOwned>(value: JsValue) -> Result<(CodecOptions, T), JsError> {
    split_codec(object_of(&value)?).map_err(|why| bad(&why))
}

/// [`parse_with_codec`] once the options are JSON members.
fn split_codec<T: DeserializeOwned>(mut members: serde_json::Map<String, Json>) -> Result<(CodecOptions, T), String> {
    let (codec_names, names) = (field_names::<CodecOptions>(), field_names::<T>());
    if let Some(unknown) =
        members.keys().find(|name| !codec_names.contains(&name.as_str()) && !names.contains(&name.as_str()))
    {
        let known: Vec<_> = codec_names.iter().chain(names).map(|name| format!("`{name}`")).collect();
        return Err(format!("unknown field `{unknown}`, expected one of {}", known.join(", ")));
    }
    let codec = codec_names.iter().filter_map(|name| members.shift_remove_entry(*name)).collect();
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
    // Any other object is refused by the check (a Date, a Map) or read as an object.
    plain::check(value).map_err(|why| bad(&why))?;
    serde_wasm_bindgen::from_value(value.clone()).map_err(|_| not_an_object())
}

/// Reads JSON into `T`, or a sentence with the place of what is wrong.
fn read<T: DeserializeOwned>(value: Json) -> Result<T, String> {
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
        plain::refusal(&place, &why)
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
        (Some(r), None) => RequestDigest::of(&r.method, r.params.as_ref().unwrap_or(&Value::Null))
            .map_err(|e| bad(&format!("`request.params`: {e}"))),
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn members(value: Json) -> serde_json::Map<String, Json> {
        match value {
            Json::Object(members) => members,
            _ => unreachable!("an object"),
        }
    }

    fn open_options(value: Json) -> Result<(CodecOptions, OpenOptions), String> {
        split_codec(members(value))
    }

    const KEY: &str = "mrtr-lab demo key, not a secret!";

    #[test]
    fn options_read_with_the_codec_apart() {
        let (codec, open) = open_options(json!({
            "key": KEY, "mode": "sealed", "maxLen": 100, "replayRecord": null,
            "principal": "bob", "request": {"method": "tools/list"}, "nowMs": 1.5
        }))
        .expect("valid options");
        assert_eq!((codec.mode, codec.max_len, codec.replay_record), (Some(Mode::Sealed), Some(100), None));
        assert_eq!(open.principal, "bob");
        assert_eq!(open.now_ms, 1, "a fraction of a millisecond is dropped");
    }

    #[test]
    fn an_unknown_name_is_refused_with_the_names_known() {
        let why = open_options(json!({"key": KEY, "principal": "bob", "nowMs": 0, "colour": 1})).err();
        assert_eq!(
            why.as_deref(),
            Some(
                "unknown field `colour`, expected one of `key`, `mode`, `maxLen`, `replayRecord`, `principal`, \
                 `request`, `digest`, `nowMs`"
            )
        );
        let nested =
            open_options(json!({"key": KEY, "principal": "bob", "nowMs": 0, "request": {"method": "m", "id": 1}}));
        assert_eq!(nested.err().as_deref(), Some("`request`: unknown field `id`, expected `method` or `params`"));
    }

    #[test]
    fn a_wrong_value_is_named_by_its_place_in_javascript_terms() {
        let cases = [
            (json!({"key": KEY, "principal": "bob", "nowMs": 0, "request": {"method": 3}}),
             "`request.method`: invalid type: integer `3`, expected a string"),
            (json!({"key": KEY, "principal": "bob", "nowMs": -5}),
             "`nowMs`: invalid value: integer `-5`, expected a number of milliseconds from 0 to Number.MAX_SAFE_INTEGER"),
            (json!({"key": KEY, "principal": "bob", "nowMs": "7"}),
             "`nowMs`: invalid type: string \"7\", expected a number of milliseconds from 0 to Number.MAX_SAFE_INTEGER"),
            (json!({"key": KEY, "principal": "bob", "nowMs": 9007199254740992_u64}),
             "`nowMs`: invalid value: integer `9007199254740992`, expected a number of milliseconds"),
            (json!({"key": KEY, "maxLen": 2.5, "principal": "bob", "nowMs": 0}),
             "`maxLen`: invalid value: floating point `2.5`, expected a whole number from 0 to Number.MAX_SAFE_INTEGER"),
            (json!({"key": 5, "principal": "bob", "nowMs": 0}), "`key`: invalid type: integer `5`, expected a string"),
            (json!({"key": KEY, "mode": "loose", "principal": "bob", "nowMs": 0}), "`mode`: unknown variant `loose`"),
        ];
        for (options, want) in cases {
            let why = open_options(options.clone()).err().unwrap_or_default();
            assert!(why.starts_with(want), "{options}: {why}");
        }
    }

    #[test]
    fn null_counts_as_not_given() {
        let (codec, _) =
            open_options(json!({"key": KEY, "mode": null, "maxLen": null, "principal": "bob", "nowMs": 0}))
                .expect("valid options");
        assert_eq!((codec.mode, codec.max_len, codec.replay_record), (None, None, None));
    }
}
