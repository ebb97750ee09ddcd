//! Numbers from JavaScript, checked and described in JavaScript's terms: a time in
//! milliseconds and a whole number (a seed, a length), each from 0 to
//! `Number.MAX_SAFE_INTEGER`. An option reads through [`millis`], [`some_millis`] and
//! [`some_whole`] (serde's `deserialize_with`), so a wrong one is refused at its place with
//! the same words a positional argument gets from [`Kind::check`]:
//! ``bad options: `nowMs`: invalid type: string "7", expected a number of milliseconds from 0
//! to Number.MAX_SAFE_INTEGER``, not serde's "expected f64".

use crate::plain::MAX_SAFE_INTEGER;
use serde::de::{Deserializer, Error, Unexpected, Visitor};
use std::fmt;
use wasm_bindgen::JsError;

/// What a number stands for.
#[derive(Debug, Clone, Copy)]
pub enum Kind {
    /// A time or a duration: a fraction of a millisecond is dropped.
    Millis,
    /// A count or a seed: a fraction is refused, so that 1.5 does not quietly act as 1.
    Whole,
}

impl Kind {
    /// The number as a `u64`, or `None` when it is not one of this kind (`NaN`, an argument
    /// left out, is not).
    pub fn of(self, value: f64) -> Option<u64> {
        let whole_enough = matches!(self, Kind::Millis) || value.fract() == 0.0;
        ((0.0..=MAX_SAFE_INTEGER).contains(&value) && whole_enough).then_some(value as u64)
    }

    /// A positional argument's number, or an `Error` naming the argument.
    pub fn check(self, value: f64, name: &str) -> Result<u64, JsError> {
        // `{:?}`: 1e300 as 1e300, not as its 301 digits.
        self.of(value).ok_or_else(|| JsError::new(&format!("mrtr: `{name}` must be {self}, got {value:?}")))
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kind::Millis => "a number of milliseconds from 0 to Number.MAX_SAFE_INTEGER",
            Kind::Whole => "a whole number from 0 to Number.MAX_SAFE_INTEGER",
        })
    }
}

impl<'de> Visitor<'de> for Kind {
    type Value = u64;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }

    fn visit_u64<E: Error>(self, value: u64) -> Result<u64, E> {
        self.of(value as f64).ok_or_else(|| E::invalid_value(Unexpected::Unsigned(value), &self))
    }

    fn visit_i64<E: Error>(self, value: i64) -> Result<u64, E> {
        self.of(value as f64).ok_or_else(|| E::invalid_value(Unexpected::Signed(value), &self))
    }

    fn visit_f64<E: Error>(self, value: f64) -> Result<u64, E> {
        self.of(value).ok_or_else(|| E::invalid_value(Unexpected::Float(value), &self))
    }
}

/// A required time option.
pub fn millis<'de, D: Deserializer<'de>>(from: D) -> Result<u64, D::Error> {
    from.deserialize_f64(Kind::Millis)
}

/// An optional time option (`null` counts as not given, like `undefined`).
pub fn some_millis<'de, D: Deserializer<'de>>(from: D) -> Result<Option<u64>, D::Error> {
    from.deserialize_option(Optional(Kind::Millis))
}

/// An optional whole-number option.
pub fn some_whole<'de, D: Deserializer<'de>>(from: D) -> Result<Option<u64>, D::Error> {
    from.deserialize_option(Optional(Kind::Whole))
}

struct Optional(Kind);

impl<'de> Visitor<'de> for Optional {
    type Value = Option<u64>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }

    fn visit_none<E: Error>(self) -> Result<Option<u64>, E> {
        Ok(None)
    }

    fn visit_unit<E: Error>(self) -> Result<Option<u64>, E> {
        Ok(None)
    }

    fn visit_some<D: Deserializer<'de>>(self, from: D) -> Result<Option<u64>, D::Error> {
        from.deserialize_f64(self.0).map(Some)
    }
}
