//! [`Map`]: a JSON object's members, in the order they were inserted.

use crate::Value;
use std::collections::BinaryHeap;

/// A JSON object's members in the order first inserted, each name once.
///
/// The objects of the protocol have a handful of members, so the map is a list searched
/// from the start: no hashing, and no hash table's code in the lab's wasm. Two maps are
/// equal when they have the same members, whatever their order.
///
/// ```
/// use mrtr_json::{Map, Value};
/// let mut map = Map::new();
/// map.insert("b".to_owned(), Value::from(1));
/// map.insert("a".to_owned(), Value::from(2));
/// assert_eq!(map.insert("b".to_owned(), Value::from(3)), Some(Value::from(1)));
/// assert_eq!(map.keys().collect::<Vec<_>>(), ["b", "a"]);
/// assert_eq!(map.remove("b"), Some(Value::from(3)));
/// assert_eq!(Value::Object(map).to_string(), r#"{"a":2}"#);
/// ```
#[derive(Clone, Default)]
pub struct Map {
    members: Vec<(String, Value)>,
}

impl Map {
    /// An empty map.
    pub const fn new() -> Self {
        Map { members: Vec::new() }
    }

    /// Where the member named `name` is: the one search, called from every look-up rather
    /// than copied into each (the protocol's code looks members up in hundreds of places).
    #[inline(never)]
    fn position(&self, name: &str) -> Option<usize> {
        self.members.iter().position(|(n, _)| n == name)
    }

    /// The member named `name`, if there is one.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.position(name).map(|i| &self.members[i].1)
    }

    /// The member named `name`, to change.
    pub fn get_mut(&mut self, name: &str) -> Option<&mut Value> {
        self.position(name).map(|i| &mut self.members[i].1)
    }

    /// Whether there is a member named `name`.
    pub fn contains_key(&self, name: &str) -> bool {
        self.position(name).is_some()
    }

    /// Sets the member `name` to `value`, in its place if it was there (returning the
    /// value it had), last if it was not.
    pub fn insert(&mut self, name: String, value: Value) -> Option<Value> {
        match self.position(&name) {
            Some(i) => Some(std::mem::replace(&mut self.members[i].1, value)),
            None => {
                self.members.push((name, value));
                None
            }
        }
    }

    /// The members read from a text, in order: a name read twice keeps its first place and
    /// takes its last value, as serde_json reads it. Looking each name up as it comes would
    /// take n² steps for an object of n members (a pasted megabyte of them: a minute), so a
    /// large object's names are sorted once (n log n) to find the ones read twice.
    pub(crate) fn from_members(mut members: Vec<(String, Value)>) -> Map {
        if members.len() <= 16 {
            // Few enough for a look-up per member, in place: the members read become the map.
            let mut i = 0;
            while i < members.len() {
                match members[..i].iter().position(|(name, _)| *name == members[i].0) {
                    Some(first) => members[first].1 = members.remove(i).1,
                    None => i += 1,
                }
            }
            return Map { members };
        }
        // Each name's places, in order of name and then place: a name read twice is a run.
        let sorted = by_name(members.iter().map(|(name, _)| name.as_str()));
        let mut keep = vec![true; members.len()];
        let mut run = 0;
        for i in 1..=sorted.len() {
            if i < sorted.len() && members[sorted[i]].0 == members[sorted[run]].0 {
                continue;
            }
            // sorted[run..i] are one name's places: the first keeps the last value.
            let (first, last) = (sorted[run], sorted[i - 1]);
            if last != first {
                members.swap(first, last);
                sorted[run + 1..i].iter().for_each(|&j| keep[j] = false);
            }
            run = i;
        }
        let mut keep = keep.into_iter();
        members.retain(|_| keep.next().unwrap_or(false));
        Map { members }
    }

    /// The member named `name`, made `null` first if there was none.
    pub(crate) fn get_or_insert_null(&mut self, name: &str) -> &mut Value {
        let i = self.position(name).unwrap_or_else(|| {
            self.members.push((name.to_owned(), Value::Null));
            self.members.len() - 1
        });
        &mut self.members[i].1
    }

    /// Takes the member named `name` out; the others keep their order.
    pub fn remove(&mut self, name: &str) -> Option<Value> {
        self.position(name).map(|i| self.members.remove(i).1)
    }

    /// How many members.
    pub fn len(&self) -> usize {
        self.members.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// The members in order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (&String, &Value)> + ExactSizeIterator {
        self.members.iter().map(|(n, v)| (n, v))
    }

    /// The members in order, their values to change.
    pub fn iter_mut(&mut self) -> impl DoubleEndedIterator<Item = (&String, &mut Value)> + ExactSizeIterator {
        self.members.iter_mut().map(|(n, v)| (&*n, v))
    }

    /// The names in order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &String> + ExactSizeIterator {
        self.members.iter().map(|(n, _)| n)
    }

    /// The values in order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &Value> + ExactSizeIterator {
        self.members.iter().map(|(_, v)| v)
    }
}

/// A name and its place, ordered by the name's UTF-16 code units, then by place.
struct Named<'a>(&'a str, usize);

impl Ord for Named<'_> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.encode_utf16().cmp(other.0.encode_utf16()).then(self.1.cmp(&other.1))
    }
}

impl PartialOrd for Named<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Named<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other).is_eq()
    }
}

impl Eq for Named<'_> {}

/// The places of `names`, in the order of their UTF-16 code units (canonical JSON's order
/// of an object's members, RFC 8785), a name that comes twice by place. A binary heap sorts
/// them: n log n steps, for an object of any size.
///
/// ```
/// assert_eq!(mrtr_json::by_name(["b", "a", "é", "a"]), [1, 3, 0, 2]);
/// ```
pub fn by_name<'a>(names: impl IntoIterator<Item = &'a str>) -> Vec<usize> {
    let heap: BinaryHeap<Named> = names.into_iter().enumerate().map(|(i, name)| Named(name, i)).collect();
    heap.into_sorted_vec().into_iter().map(|Named(_, i)| i).collect()
}

impl PartialEq for Map {
    /// Member by member while both are in the same order (a map and its copy: n steps), by
    /// name from the first difference on.
    fn eq(&self, other: &Map) -> bool {
        let same_order = self.members.iter().zip(&other.members).take_while(|(a, b)| a.0 == b.0).count();
        self.len() == other.len()
            && self.members[..same_order].iter().zip(&other.members).all(|(a, b)| a.1 == b.1)
            && self.members[same_order..].iter().all(|(name, value)| other.get(name) == Some(value))
    }
}

impl Eq for Map {}

impl std::fmt::Debug for Map {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl Extend<(String, Value)> for Map {
    fn extend<I: IntoIterator<Item = (String, Value)>>(&mut self, members: I) {
        for (name, value) in members {
            self.insert(name, value);
        }
    }
}

impl FromIterator<(String, Value)> for Map {
    fn from_iter<I: IntoIterator<Item = (String, Value)>>(members: I) -> Self {
        let mut map = Map::new();
        map.extend(members);
        map
    }
}

impl IntoIterator for Map {
    type Item = (String, Value);
    type IntoIter = std::vec::IntoIter<(String, Value)>;

    fn into_iter(self) -> Self::IntoIter {
        self.members.into_iter()
    }
}

impl<'a> IntoIterator for &'a Map {
    type Item = (&'a String, &'a Value);
    type IntoIter =
        std::iter::Map<std::slice::Iter<'a, (String, Value)>, fn(&'a (String, Value)) -> (&'a String, &'a Value)>;

    fn into_iter(self) -> Self::IntoIter {
        self.members.iter().map(|(n, v)| (n, v))
    }
}

impl std::ops::Index<&str> for Map {
    type Output = Value;

    /// The member named `name`; panics if there is none, as a map's index does.
    fn index(&self, name: &str) -> &Value {
        self.get(name).expect("no member of that name")
    }
}
