//! [`Value`]: any JSON value, and [`Number`]: a JSON number, with serde_json's API for the
//! parts the workspace uses.

use crate::Map;
use std::fmt;

/// Any JSON value.
///
/// Looking a member or an item up with `[]` gives `null` when there is none; `get` gives
/// `None`. Assigning through `[]` adds the member (a `null` becomes an object first).
///
/// ```
/// use mrtr_json::{json, Value};
/// let mut line = json!({"id": 7, "params": {"name": "deploy"}});
/// assert_eq!(line["params"]["name"], "deploy");
/// assert_eq!(line["missing"][0], Value::Null);
/// line["params"]["arguments"] = json!({"env": "staging"});
/// assert_eq!(line.pointer("/params/arguments/env").and_then(Value::as_str), Some("staging"));
/// ```
#[derive(Clone, Default, PartialEq, Eq)]
pub enum Value {
    /// `null`.
    #[default]
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number.
    Number(Number),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Value>),
    /// An object.
    Object(Map),
}

/// A JSON number: an integer within `i64` or `u64`, or a finite double.
#[derive(Clone, Copy, PartialEq)]
pub struct Number(N);

#[derive(Clone, Copy, PartialEq)]
enum N {
    /// Zero or more.
    PosInt(u64),
    /// Less than zero.
    NegInt(i64),
    /// Always finite.
    Float(f64),
}

// The doubles in a `Number` are finite, so equality is an equivalence.
impl Eq for Number {}

impl Number {
    /// A number for a double; `None` for infinities and NaN, which JSON cannot write.
    pub fn from_f64(f: f64) -> Option<Number> {
        f.is_finite().then_some(Number(N::Float(f)))
    }

    /// The number as a `u64`, if it is an integer in range.
    pub fn as_u64(&self) -> Option<u64> {
        match self.0 {
            N::PosInt(u) => Some(u),
            _ => None,
        }
    }

    /// The number as an `i64`, if it is an integer in range.
    pub fn as_i64(&self) -> Option<i64> {
        match self.0 {
            N::PosInt(u) => i64::try_from(u).ok(),
            N::NegInt(i) => Some(i),
            N::Float(_) => None,
        }
    }

    /// The number as a double (the nearest one, for a large integer).
    pub fn as_f64(&self) -> Option<f64> {
        Some(match self.0 {
            N::PosInt(u) => u as f64,
            N::NegInt(i) => i as f64,
            N::Float(f) => f,
        })
    }

    /// Whether it is an integer from 0 to 2^64 - 1.
    pub fn is_u64(&self) -> bool {
        matches!(self.0, N::PosInt(_))
    }

    /// Whether it is an integer within `i64`.
    pub fn is_i64(&self) -> bool {
        self.as_i64().is_some()
    }

    /// Whether it was written, or made, as a double.
    pub fn is_f64(&self) -> bool {
        matches!(self.0, N::Float(_))
    }
}

impl From<u64> for Number {
    fn from(u: u64) -> Self {
        Number(N::PosInt(u))
    }
}

impl From<i64> for Number {
    fn from(i: i64) -> Self {
        Number(if i < 0 { N::NegInt(i) } else { N::PosInt(i as u64) })
    }
}

impl fmt::Display for Number {
    /// As JSON writes it: integers in full, doubles in the shortest digits that read back
    /// the same (`95.5`, `190.0`, `1e21`), as serde_json writes them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            N::PosInt(u) => fmt::Display::fmt(&u, f),
            N::NegInt(i) => fmt::Display::fmt(&i, f),
            N::Float(x) => f.write_str(zmij::Buffer::new().format_finite(x)),
        }
    }
}

impl fmt::Debug for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Number({self})")
    }
}

impl fmt::Debug for Value {
    /// The value as pretty JSON, which reads better in a failed assertion than the enum.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:#}")
    }
}

static NULL: Value = Value::Null;

impl Value {
    /// The member or item `key` names (a `&str` for a member, a `usize` for an item).
    pub fn get<K: Key>(&self, key: K) -> Option<&Value> {
        key.lookup(self)
    }

    /// The member or item `key` names, to change.
    pub fn get_mut<K: Key>(&mut self, key: K) -> Option<&mut Value> {
        key.lookup_mut(self)
    }

    /// The value a JSON Pointer (RFC 6901) names: `"/params/arguments/env"`; `""` is the
    /// whole value.
    pub fn pointer(&self, pointer: &str) -> Option<&Value> {
        if pointer.is_empty() {
            return Some(self);
        }
        let rest = pointer.strip_prefix('/')?;
        rest.split('/').try_fold(self, |value, token| {
            let token = match token.contains('~') {
                true => std::borrow::Cow::Owned(token.replace("~1", "/").replace("~0", "~")),
                false => std::borrow::Cow::Borrowed(token),
            };
            match value {
                Value::Object(map) => map.get(&token),
                // An index is digits, without a sign or a leading zero.
                Value::Array(items) => match token.as_bytes() {
                    [b'0', _, ..] | [b'+', ..] => None,
                    _ => token.parse::<usize>().ok().and_then(|i| items.get(i)),
                },
                _ => None,
            }
        })
    }

    /// The value, leaving `null` in its place.
    pub fn take(&mut self) -> Value {
        std::mem::take(self)
    }

    /// The string, if it is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The boolean, if it is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The number as a `u64`, if it is an integer in range.
    pub fn as_u64(&self) -> Option<u64> {
        self.as_number()?.as_u64()
    }

    /// The number as an `i64`, if it is an integer in range.
    pub fn as_i64(&self) -> Option<i64> {
        self.as_number()?.as_i64()
    }

    /// The number as a double.
    pub fn as_f64(&self) -> Option<f64> {
        self.as_number()?.as_f64()
    }

    /// The number, if it is one.
    pub fn as_number(&self) -> Option<&Number> {
        match self {
            Value::Number(n) => Some(n),
            _ => None,
        }
    }

    /// The items, if it is an array.
    pub fn as_array(&self) -> Option<&Vec<Value>> {
        match self {
            Value::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The items to change, if it is an array.
    pub fn as_array_mut(&mut self) -> Option<&mut Vec<Value>> {
        match self {
            Value::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The members, if it is an object.
    pub fn as_object(&self) -> Option<&Map> {
        match self {
            Value::Object(map) => Some(map),
            _ => None,
        }
    }

    /// The members to change, if it is an object.
    pub fn as_object_mut(&mut self) -> Option<&mut Map> {
        match self {
            Value::Object(map) => Some(map),
            _ => None,
        }
    }

    /// Whether it is `null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// Whether it is an integer from 0 to 2^64 - 1.
    pub fn is_u64(&self) -> bool {
        self.as_number().is_some_and(Number::is_u64)
    }

    /// Whether it is an integer within `i64`.
    pub fn is_i64(&self) -> bool {
        self.as_number().is_some_and(Number::is_i64)
    }

    /// Whether it is a number written, or made, as a double.
    pub fn is_f64(&self) -> bool {
        self.as_number().is_some_and(Number::is_f64)
    }

    /// Whether it is a string.
    pub fn is_string(&self) -> bool {
        matches!(self, Value::String(_))
    }

    /// Whether it is an array.
    pub fn is_array(&self) -> bool {
        matches!(self, Value::Array(_))
    }

    /// Whether it is an object.
    pub fn is_object(&self) -> bool {
        matches!(self, Value::Object(_))
    }
}

/// What names a member (`&str`, `String`) or an item (`usize`) in [`Value::get`] and `[]`.
pub trait Key: private::Sealed {
    #[doc(hidden)]
    fn lookup<'v>(&self, value: &'v Value) -> Option<&'v Value>;
    #[doc(hidden)]
    fn lookup_mut<'v>(&self, value: &'v mut Value) -> Option<&'v mut Value>;
    /// For `value[key] = …`: the member, added as `null` if missing (a `null` becomes an
    /// object first); an item must exist.
    #[doc(hidden)]
    fn lookup_or_insert<'v>(&self, value: &'v mut Value) -> &'v mut Value;
}

mod private {
    pub trait Sealed {}
    impl Sealed for str {}
    impl Sealed for String {}
    impl Sealed for usize {}
    impl<T: Sealed + ?Sized> Sealed for &T {}
}

impl Key for str {
    fn lookup<'v>(&self, value: &'v Value) -> Option<&'v Value> {
        value.as_object()?.get(self)
    }

    fn lookup_mut<'v>(&self, value: &'v mut Value) -> Option<&'v mut Value> {
        value.as_object_mut()?.get_mut(self)
    }

    #[inline(never)]
    fn lookup_or_insert<'v>(&self, value: &'v mut Value) -> &'v mut Value {
        if value.is_null() {
            *value = Value::Object(Map::new());
        }
        match value {
            Value::Object(map) => map.get_or_insert_null(self),
            other => panic!("cannot set member `{self}` of a JSON value that is not an object: {other}"),
        }
    }
}

impl Key for String {
    fn lookup<'v>(&self, value: &'v Value) -> Option<&'v Value> {
        self.as_str().lookup(value)
    }

    fn lookup_mut<'v>(&self, value: &'v mut Value) -> Option<&'v mut Value> {
        self.as_str().lookup_mut(value)
    }

    fn lookup_or_insert<'v>(&self, value: &'v mut Value) -> &'v mut Value {
        self.as_str().lookup_or_insert(value)
    }
}

impl Key for usize {
    fn lookup<'v>(&self, value: &'v Value) -> Option<&'v Value> {
        value.as_array()?.get(*self)
    }

    fn lookup_mut<'v>(&self, value: &'v mut Value) -> Option<&'v mut Value> {
        value.as_array_mut()?.get_mut(*self)
    }

    #[inline(never)]
    fn lookup_or_insert<'v>(&self, value: &'v mut Value) -> &'v mut Value {
        match value {
            Value::Array(items) => {
                let len = items.len();
                items.get_mut(*self).unwrap_or_else(|| panic!("item {self} of a JSON array of {len}"))
            }
            other => panic!("cannot set item {self} of a JSON value that is not an array: {other}"),
        }
    }
}

impl<T: Key + ?Sized> Key for &T {
    fn lookup<'v>(&self, value: &'v Value) -> Option<&'v Value> {
        (**self).lookup(value)
    }

    fn lookup_mut<'v>(&self, value: &'v mut Value) -> Option<&'v mut Value> {
        (**self).lookup_mut(value)
    }

    fn lookup_or_insert<'v>(&self, value: &'v mut Value) -> &'v mut Value {
        (**self).lookup_or_insert(value)
    }
}

impl<K: Key> std::ops::Index<K> for Value {
    type Output = Value;

    fn index(&self, key: K) -> &Value {
        key.lookup(self).unwrap_or(&NULL)
    }
}

impl<K: Key> std::ops::IndexMut<K> for Value {
    fn index_mut(&mut self, key: K) -> &mut Value {
        key.lookup_or_insert(self)
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Self {
        Value::Bool(b)
    }
}

impl From<String> for Value {
    fn from(s: String) -> Self {
        Value::String(s)
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Self {
        Value::String(s.to_owned())
    }
}

impl From<&String> for Value {
    fn from(s: &String) -> Self {
        Value::String(s.clone())
    }
}

impl From<std::borrow::Cow<'_, str>> for Value {
    fn from(s: std::borrow::Cow<'_, str>) -> Self {
        Value::String(s.into_owned())
    }
}

macro_rules! from_integer {
    ($via:ty: $($t:ty)*) => {$(
        impl From<$t> for Value {
            fn from(n: $t) -> Self {
                Value::Number(Number::from(n as $via))
            }
        }
    )*};
}
from_integer!(u64: u8 u16 u32 u64 usize);
from_integer!(i64: i8 i16 i32 i64 isize);

impl From<f64> for Value {
    /// A number, or `null` for an infinity or NaN, as serde_json makes them.
    fn from(f: f64) -> Self {
        Number::from_f64(f).map_or(Value::Null, Value::Number)
    }
}

impl From<Number> for Value {
    fn from(n: Number) -> Self {
        Value::Number(n)
    }
}

impl From<Map> for Value {
    fn from(map: Map) -> Self {
        Value::Object(map)
    }
}

impl<T: Into<Value>> From<Vec<T>> for Value {
    fn from(items: Vec<T>) -> Self {
        Value::from_iter(items)
    }
}

impl<T: Into<Value>, const N: usize> From<[T; N]> for Value {
    fn from(items: [T; N]) -> Self {
        Value::from_iter(items)
    }
}

impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(value: Option<T>) -> Self {
        value.map_or(Value::Null, Into::into)
    }
}

impl<T: Into<Value>> FromIterator<T> for Value {
    fn from_iter<I: IntoIterator<Item = T>>(items: I) -> Self {
        Value::Array(items.into_iter().map(Into::into).collect())
    }
}

// Comparisons with plain Rust values, both ways round, as in `assert_eq!(line["id"], 7)`.
impl PartialEq<str> for Value {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == Some(other)
    }
}

impl PartialEq<&str> for Value {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == Some(*other)
    }
}

impl PartialEq<String> for Value {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == Some(other.as_str())
    }
}

impl PartialEq<Value> for str {
    fn eq(&self, other: &Value) -> bool {
        other == self
    }
}

impl PartialEq<Value> for &str {
    fn eq(&self, other: &Value) -> bool {
        other == *self
    }
}

impl PartialEq<Value> for String {
    fn eq(&self, other: &Value) -> bool {
        other == self
    }
}

impl PartialEq<bool> for Value {
    fn eq(&self, other: &bool) -> bool {
        self.as_bool() == Some(*other)
    }
}

macro_rules! eq_number {
    ($via:ty, $as:ident: $($t:ty)*) => {$(
        impl PartialEq<$t> for Value {
            fn eq(&self, other: &$t) -> bool {
                self.$as().is_some_and(|n| n == *other as $via)
            }
        }
        impl PartialEq<Value> for $t {
            fn eq(&self, other: &Value) -> bool {
                other == self
            }
        }
        impl PartialEq<$t> for &Value {
            fn eq(&self, other: &$t) -> bool {
                *self == other
            }
        }
    )*};
}
eq_number!(u64, as_u64: u8 u16 u32 u64 usize);
eq_number!(i64, as_i64: i8 i16 i32 i64 isize);
eq_number!(f64, as_f64: f32 f64);
