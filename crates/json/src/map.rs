//! [`Map`]: a JSON object's members, in the order they were inserted.

use crate::Value;

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

impl PartialEq for Map {
    fn eq(&self, other: &Map) -> bool {
        self.len() == other.len() && self.iter().all(|(name, value)| other.get(name) == Some(value))
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
