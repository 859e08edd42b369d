use std::collections::BTreeMap;

/// 2^53 − 1, the largest integer every language's numbers hold exactly.
pub const MAX_SAFE_INTEGER: i64 = 9_007_199_254_740_991;

/// A JSON object's members. A `String`'s byte order is its code-point order, so a `BTreeMap` iterates in the
/// canonical order; a later duplicate key replaces an earlier one, as `JSON.parse` and Jackson do.
pub type Object = BTreeMap<String, Value>;

/// A JSON value as the fingerprint sees it: numbers exact, strings possibly not Unicode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Null,
    Bool(bool),
    /// The parser only makes safe integers; one built in code outside ±(2^53−1) has no canonical text.
    Integer(i64),
    /// A number literal that is not exactly a safe integer, kept so the canonicaliser can name its path.
    Inexact(InexactNumber),
    String(String),
    /// A string's UTF-16 code units, holding an unpaired surrogate (only a `\u` escape can spell one). It is valid
    /// JSON but not Unicode text, kept so the canonicaliser can refuse it with its path, as the other languages do.
    IllFormedString(Vec<u16>),
    Array(Vec<Value>),
    Object(Object),
}

/// A number literal that is not exactly an integer within ±(2^53−1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InexactNumber {
    /// The literal as it was spelt.
    pub literal: String,
    pub kind: InexactKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InexactKind {
    /// A fractional part (`1.5`, `1e-1`, `1.0000000000000000001`).
    Fraction,
    /// An integer beyond ±(2^53−1) (`9007199254740992`, `1e400`).
    OutsideSafeRange,
}

impl From<&str> for Value {
    fn from(s: &str) -> Self {
        Value::String(s.to_owned())
    }
}

impl From<String> for Value {
    fn from(s: String) -> Self {
        Value::String(s)
    }
}

impl From<i64> for Value {
    fn from(n: i64) -> Self {
        Value::Integer(n)
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Self {
        Value::Bool(b)
    }
}

impl From<Vec<Value>> for Value {
    fn from(items: Vec<Value>) -> Self {
        Value::Array(items)
    }
}

impl From<Object> for Value {
    fn from(members: Object) -> Self {
        Value::Object(members)
    }
}
