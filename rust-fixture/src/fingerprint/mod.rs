//! The lab's keyed request fingerprint (docs/fingerprint.md): a strict JSON parser that never rounds a number,
//! canonical JSON, the HMAC binding of the opaque fields and the SHA-256 of the payload. It must give the same text,
//! digest and error message as the Java, TypeScript, Python and Go implementations on every input.

mod canonical;
mod exact_json;
mod keyed;
mod lines;
mod path;
mod request;
mod value;

use std::fmt;

pub use canonical::{MAX_CANONICAL_DEPTH, ValueError, ValueProblem, canonical, push_quoted};
pub use exact_json::{
    MAX_NUMBER_LITERAL_LENGTH, MAX_PARSE_DEPTH, SyntaxError, SyntaxProblem,
    classify_number_literal, parse_exact,
};
pub use keyed::{
    Key, KeyError, MIN_KEY_BYTES, OpaqueField, bind_opaque_field, fingerprint, sha256_hex,
};
pub use lines::{LineError, fingerprint_line, is_blank_line};
pub use request::{
    Entry, LogicalRequest, RequestMember, ShapeError, read_entry, read_logical_request,
};
pub use value::{InexactKind, InexactNumber, MAX_SAFE_INTEGER, Object, Value};

/// Why an input (a JSON Lines line, a JSON text, a request) has no fingerprint. `Display` is the message every
/// language prints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// The line's bytes are not UTF-8.
    InvalidUtf8,
    /// Not one JSON text; the wording is this parser's own (only the rejection must agree across languages).
    Syntax(SyntaxError),
    /// Valid JSON holding something no fingerprint can bind; the message names its JSON path.
    Value(ValueError),
    /// Valid JSON that is not a (named) LogicalRequest.
    Shape(ShapeError),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidUtf8 => f.write_str("invalid UTF-8"),
            Error::Syntax(e) => e.fmt(f),
            Error::Value(e) => e.fmt(f),
            Error::Shape(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Error {}

impl From<SyntaxError> for Error {
    fn from(e: SyntaxError) -> Self {
        Error::Syntax(e)
    }
}

impl From<ValueError> for Error {
    fn from(e: ValueError) -> Self {
        Error::Value(e)
    }
}

impl From<ShapeError> for Error {
    fn from(e: ShapeError) -> Self {
        Error::Shape(e)
    }
}
