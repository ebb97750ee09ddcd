//! JSON values: written as JSON in Rust source ([`json!`]), read from JSON text ([`parse`],
//! or member by member with a [`Reader`] that builds no value), and written as text
//! (`Display`: compact, or pretty with `{:#}`).
//!
//! [`Value`] has serde_json's API for what the workspace uses of it, and its text is
//! serde_json's byte for byte; a test holds the reader and the writer to serde_json. The
//! difference is inside: an object's members are a list in the order inserted (objects in
//! the protocol have a handful), not a hash table, and neither reader nor writer is generic
//! over the types serde could read into or write from. The lab's wasm carries no serde_json.
//!
//! [`json!`] reads like `serde_json::json!`, but each value in it becomes a [`Value`] by
//! `Value::from`, which moves it in, instead of by `serde_json::to_value`, which serializes a
//! borrowed copy and unwraps a `Result` that cannot be an error. So a `Value` already built (a
//! request's params, an error object) is moved, not copied member by member, and no
//! serializer or panic is compiled for each kind of value.
//!
//! A value is anything `Value: From` takes: strings, numbers, booleans, `Option`s and
//! `Vec`s of them, a `Map`, a `Value`. Something else is turned into one first (`.as_str()`,
//! `.to_string()`), which the compiler asks for.
//!
//! ```
//! use mrtr_json::json;
//! let params = json!({"name": "deploy", "arguments": {"env": "staging"}});
//! let id = 7;
//! let line = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params});
//! assert_eq!(
//!     line.to_string(),
//!     r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"deploy","arguments":{"env":"staging"}}}"#
//! );
//! let empty: [u8; 0] = [];
//! assert_eq!(json!([null, true, -1.5, [], {}, (empty.len())]).to_string(), "[null,true,-1.5,[],{},0]");
//! ```

mod map;
mod read;
mod value;
mod with_serde;
mod write;

pub use map::{by_name, Map};
pub use read::{Error, Reader, MAX_DEPTH};
pub use value::{Key, Number, Value};
pub use write::write_string;

/// A JSON value read from text or bytes: the one way the workspace reads a JSON value
/// ([`Reader`] reads one without building it, for a typed reader).
///
/// ```
/// assert_eq!(mrtr_json::parse(r#"{"id": 7}"#).unwrap()["id"], 7);
/// assert_eq!(mrtr_json::parse(b"[1, 2]".as_slice()).unwrap(), mrtr_json::json!([1, 2]));
/// assert_eq!(mrtr_json::parse("{").unwrap_err().to_string(), "the text ends inside an array or object at line 1 column 2");
/// ```
pub fn parse(json: impl AsRef<[u8]>) -> Result<Value, Error> {
    parse_bytes(json.as_ref())
}

/// [`parse`] once for every type of text it takes.
fn parse_bytes(json: &[u8]) -> Result<Value, Error> {
    let mut reader = Reader::new(json)?;
    let value = reader.value()?;
    reader.end()?;
    Ok(value)
}

/// A [`Value`] from JSON written in Rust: objects, arrays and `null` as in JSON; any other
/// value an expression that `Value::from` takes, moved in. An object's members keep the
/// order written. A member's name is a string literal, a variable, or an expression in
/// parentheses: anything `String: From` takes.
#[macro_export]
macro_rules! json {
    (null) => {
        $crate::Value::Null
    };
    ([]) => {
        $crate::Value::Array(::std::vec::Vec::new())
    };
    ([ $($items:tt)+ ]) => {
        $crate::Value::Array($crate::__json_items!([] () $($items)+))
    };
    ({}) => {
        $crate::Value::Object($crate::Map::new())
    };
    ({ $($members:tt)+ }) => {
        $crate::Value::Object({
            let mut members = $crate::Map::new();
            $crate::__json_members!(members () $($members)+);
            members
        })
    };
    ($value:expr) => {
        $crate::Value::from($value)
    };
}

/// An array's items: the tokens of the item being read gather in `( )` up to a comma outside
/// any brackets, then the item is built and joins those done in `[ ]`.
#[doc(hidden)]
#[macro_export]
macro_rules! __json_items {
    ([$($done:expr,)*] ()) => {
        ::std::vec![$($done,)*]
    };
    ([$($done:expr,)*] ($($item:tt)+)) => {
        ::std::vec![$($done,)* $crate::json!($($item)+)]
    };
    ([$($done:expr,)*] ($($item:tt)+) , $($rest:tt)*) => {
        $crate::__json_items!([$($done,)* $crate::json!($($item)+),] () $($rest)*)
    };
    ([$($done:expr,)*] ($($item:tt)*) $next:tt $($rest:tt)*) => {
        $crate::__json_items!([$($done,)*] ($($item)* $next) $($rest)*)
    };
}

/// An object's members, inserted in order into the map named first: a name and a colon, then
/// the value's tokens gathered in `( )` up to a comma outside any brackets.
#[doc(hidden)]
#[macro_export]
macro_rules! __json_members {
    ($map:ident ()) => {};
    ($map:ident () $name:literal : $($rest:tt)+) => {
        $crate::__json_members!(@value $map [$name] () $($rest)+)
    };
    ($map:ident () $name:ident : $($rest:tt)+) => {
        $crate::__json_members!(@value $map [$name] () $($rest)+)
    };
    ($map:ident () ($name:expr) : $($rest:tt)+) => {
        $crate::__json_members!(@value $map [$name] () $($rest)+)
    };
    (@value $map:ident [$name:expr] ($($value:tt)+) , $($rest:tt)*) => {
        $crate::__insert(&mut $map, $name, $crate::json!($($value)+));
        $crate::__json_members!($map () $($rest)*)
    };
    (@value $map:ident [$name:expr] ($($value:tt)+)) => {
        $crate::__insert(&mut $map, $name, $crate::json!($($value)+));
    };
    (@value $map:ident [$name:expr] ($($value:tt)*) $next:tt $($rest:tt)*) => {
        $crate::__json_members!(@value $map [$name] ($($value)* $next) $($rest)*)
    };
}

/// Inserts an object's member for [`json!`]: one call at each member, instead of the name's
/// copy, the map's insert and the old value's drop written out at each (1.9 KB gzip of the
/// lab's wasm, whose messages are written with `json!`).
#[doc(hidden)]
#[inline(never)]
pub fn __insert(map: &mut Map, name: impl Into<String>, value: Value) {
    map.insert(name.into(), value);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_like_serde_json() {
        let seat = String::from("12A");
        let quantity: u64 = 2;
        let maybe: Option<&str> = None;
        let quantity_name = "quantity";
        let ours = json!({
            "jsonrpc": "2.0", "id": -3, "ok": true, "none": null, "maybe": maybe,
            "price": 95.5, "scaled": quantity as f64 / 4.0, "seat": seat.clone(),
            "nested": {"list": [1, "two", [3, {"four": 4}], {}], "empty": []},
            ("computed".to_owned() + "-name"): format!("{seat}, {}", 1 + 2),
            "trailing": [1, 2,], quantity_name: 0,
        });
        let theirs = serde_json::json!({
            "jsonrpc": "2.0", "id": -3, "ok": true, "none": null, "maybe": maybe,
            "price": 95.5, "scaled": quantity as f64 / 4.0, "seat": seat,
            "nested": {"list": [1, "two", [3, {"four": 4}], {}], "empty": []},
            ("computed".to_owned() + "-name"): format!("12A, {}", 1 + 2),
            "trailing": [1, 2,], quantity_name: 0,
        });
        assert_eq!(serde_json::to_value(&ours).expect("serializable"), theirs);
        assert_eq!(ours.to_string(), theirs.to_string(), "members in the order written");
        assert_eq!(format!("{ours:#}"), format!("{theirs:#}"));
    }

    #[test]
    fn a_pointer_finds_what_serde_json_finds() {
        let text = r#"{"a": [10, {"b/c": 1, "d~e": 2}], "": 3, "01": 4}"#;
        let (ours, theirs) =
            (parse(text).expect("JSON"), serde_json::from_str::<serde_json::Value>(text).expect("JSON"));
        for pointer in
            ["", "/a", "/a/0", "/a/1/b~1c", "/a/1/d~0e", "/", "/01", "/a/01", "/a/+1", "/a/2", "/a/x", "a", "/a/0/x"]
        {
            let found = ours.pointer(pointer).map(|v| serde_json::to_value(v).expect("serializable"));
            assert_eq!(found.as_ref(), theirs.pointer(pointer), "{pointer}");
        }
    }

    #[test]
    fn moves_a_value_in() {
        let params = json!({"name": "deploy"});
        let line = json!({"params": params});
        assert_eq!(line["params"]["name"], "deploy");
    }

    #[test]
    fn a_non_finite_number_is_null_as_in_serde_json() {
        assert_eq!(json!({"x": f64::NAN}).to_string(), serde_json::json!({"x": f64::NAN}).to_string());
        assert_eq!(json!(f64::INFINITY), Value::Null);
    }
}
