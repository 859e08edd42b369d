//! The shared vectors, read where the Java, TypeScript, Python and Go tests read them.

#![allow(dead_code)]

use rust_fixture::fingerprint::{
    Key, LogicalRequest, Object, Value, parse_exact, read_entry, read_logical_request,
};

pub const VECTORS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../vectors/fingerprint_vectors.json"
);
pub const TEST_KEY_ASCII: &str = "test-only-cross-language-key-32b";
pub const TEST_KEY_HEX: &str = "746573742d6f6e6c792d63726f73732d6c616e67756167652d6b65792d333262";
pub const VECTOR_00_DIGEST: &str =
    "8053811d58bacfa928adfe862a3e1bda8040d18feef86b1b6eca9cd807c2cd97";

pub struct Vector {
    pub name: String,
    /// The entry as the file holds it, `{"name": …, "request": …}`.
    pub entry: Value,
    pub request: LogicalRequest,
}

pub struct VectorFile {
    pub vectors: Vec<Vector>,
    pub expected: Object,
}

pub fn object(value: &Value) -> &Object {
    match value {
        Value::Object(members) => members,
        other => panic!("not an object: {other:?}"),
    }
}

pub fn string(value: &Value) -> &str {
    match value {
        Value::String(s) => s,
        other => panic!("not a string: {other:?}"),
    }
}

pub fn load_vectors() -> VectorFile {
    let text = std::fs::read(VECTORS).unwrap_or_else(|e| panic!("{VECTORS}: {e}"));
    let Value::Object(mut file) = parse_exact(&text).expect("the vector file parses") else {
        panic!("the vector file is not an object");
    };
    let Some(Value::Array(entries)) = file.remove("vectors") else {
        panic!("no vectors")
    };
    let Some(Value::Object(expected)) = file.remove("expected") else {
        panic!("no expected")
    };
    let vectors = entries
        .into_iter()
        .map(|entry| {
            let read = read_entry(entry.clone()).expect("a vector entry");
            let name = read.name.expect("a vector without a name");
            let request =
                read_logical_request(read.request).unwrap_or_else(|e| panic!("{name}: {e}"));
            Vector {
                name,
                entry,
                request,
            }
        })
        .collect();
    VectorFile { vectors, expected }
}

pub fn test_key() -> Key {
    Key::new(TEST_KEY_ASCII.as_bytes()).expect("the test key is 32 bytes")
}
