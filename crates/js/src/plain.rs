//! Plain data from JavaScript: what serde-wasm-bindgen cannot be trusted to read. It reads a
//! `Date` as `{}`, a `BigInt` as a number and `NaN` as `null`, and follows a value that
//! contains itself until the stack runs out; [`check`] refuses each of these first, naming
//! its place, and serde-wasm-bindgen then reads what passed.

use std::fmt::Write;
use wasm_bindgen::{JsCast, JsValue};

/// The deepest an argument may nest arrays and objects: as deep as serde_json reads.
const MOST_NESTED: usize = 127;
/// The most values an argument may hold, counting a value reached twice twice.
const MOST_VALUES: usize = 1 << 20;
/// `Number.MAX_SAFE_INTEGER`: the largest whole number a double holds exactly.
pub const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// Checks that a JS value is JSON data, as `JSON.stringify` would write it without loss. A
/// function, a symbol, a `BigInt`, a number JSON cannot hold (`NaN`, `Infinity`) or an
/// instance of a class (a `Map`, a `Date`) is refused, named by its place: `data.when: a
/// Date is not JSON data`. So is a value nested deeper than JSON's reader takes (which also
/// ends a value that contains itself) and one of more than 2^20 values (a value shared at
/// every level would otherwise take 2^depth steps). `undefined` and `null` pass: both read
/// as `null`, and an optional option given either way is not given.
pub fn check(value: &JsValue) -> Result<(), String> {
    Walk { seen: 0 }.value(value, &mut String::new(), 0)
}

struct Walk {
    seen: usize,
}

impl Walk {
    /// `place` is the path to `value` (`request.params.items[2]`), extended and cut back as
    /// the walk goes in and out.
    fn value(&mut self, value: &JsValue, place: &mut String, depth: usize) -> Result<(), String> {
        self.seen += 1;
        if self.seen > MOST_VALUES {
            return Err(format!("more than {MOST_VALUES} values"));
        }
        if value.is_null() || value.is_undefined() || value.as_bool().is_some() || value.is_string() {
            return Ok(());
        }
        if let Some(number) = value.as_f64() {
            return match number.is_finite() {
                true => Ok(()),
                false => Err(refusal(place, &format!("{number} is not a number JSON can hold"))),
            };
        }
        if !value.is_object() {
            return Err(refusal(place, &format!("a {} is not JSON data", type_name(value))));
        }
        if depth == MOST_NESTED {
            return Err(refusal(
                place,
                &format!("arrays and objects nested more than {MOST_NESTED} deep (or a value that contains itself)"),
            ));
        }
        if let Some(items) = value.dyn_ref::<js_sys::Array>() {
            for (index, item) in items.iter().enumerate() {
                let mark = place.len();
                enter_item(place, index);
                self.value(&item, place, depth + 1)?;
                place.truncate(mark);
            }
            return Ok(());
        }
        let object: &js_sys::Object = value.unchecked_ref();
        if !is_plain(object) {
            return Err(refusal(place, &format!("a {} is not JSON data", class_name(object))));
        }
        for entry in js_sys::Object::entries(object).iter() {
            let entry: js_sys::Array = entry.unchecked_into();
            let mark = place.len();
            enter_member(place, &entry.get(0).as_string().unwrap_or_default());
            self.value(&entry.get(1), place, depth + 1)?;
            place.truncate(mark);
        }
        Ok(())
    }
}

/// An object literal or `Object.create(null)`: its prototype is `Object.prototype` (of any
/// realm: the one whose own prototype is null) or null.
fn is_plain(object: &js_sys::Object) -> bool {
    let prototype = js_sys::Object::get_prototype_of(object);
    prototype.is_null() || js_sys::Object::get_prototype_of(&prototype).is_null()
}

/// `value.constructor.name`, or "class instance" when it has none.
fn class_name(object: &js_sys::Object) -> String {
    js_sys::Reflect::get(object, &"constructor".into())
        .and_then(|class| js_sys::Reflect::get(&class, &"name".into()))
        .ok()
        .and_then(|name| name.as_string())
        .filter(|name| !name.is_empty())
        .unwrap_or_else(|| "class instance".into())
}

/// A place one member further in: `request` → `request.params` (a name alone at the start).
pub fn enter_member(place: &mut String, name: &str) {
    if !place.is_empty() {
        place.push('.');
    }
    place.push_str(name);
}

/// A place one item further in: `data.list` → `data.list[2]`.
pub fn enter_item(place: &mut String, index: usize) {
    let _ = write!(place, "[{index}]");
}

/// `typeof`, with `null` and an array called by their names.
pub fn type_name(value: &JsValue) -> String {
    if value.is_null() {
        "null".into()
    } else if js_sys::Array::is_array(value) {
        "array".into()
    } else {
        value.js_typeof().as_string().unwrap_or_default()
    }
}

/// What is wrong, after the place where it is (nothing for the argument itself).
pub fn refusal(place: &str, why: &str) -> String {
    if place.is_empty() {
        why.into()
    } else {
        format!("`{place}`: {why}")
    }
}
