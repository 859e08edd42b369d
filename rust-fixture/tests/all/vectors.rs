//! vectors_test.go: the shared vectors give their digests and relations under the public test key.


use std::collections::BTreeMap;

use crate::common::{
    TEST_KEY_ASCII, TEST_KEY_HEX, VECTOR_00_DIGEST, load_vectors, object, string, test_key,
};
use rust_fixture::fingerprint::{
    Key, KeyError, Object, OpaqueField, Value, bind_opaque_field, canonical, fingerprint,
    sha256_hex,
};

const VECTOR_00_BOUND_STATE: &str =
    "d4d85246fe21047dd450f54774a06f90fab65dab0476eab70af3aac5da739cfc";
const VECTOR_00_BOUND_RESPONSES: &str =
    "41f2c8de4cba8e1429b26d4320fc7f3d93f513f04356c17c45b95ba60001de98";

fn is_lower_hex_64(s: &str) -> bool {
    s.len() == 64 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

#[test]
fn seventeen_vectors_give_their_digests_and_relations() {
    let file = load_vectors();
    assert_eq!(file.vectors.len(), 17);
    assert_eq!(
        string(&file.expected["key_ascii"]),
        TEST_KEY_ASCII,
        "the file's key is not the public test key"
    );
    assert_eq!(
        string(&file.expected["key_hex"]),
        TEST_KEY_HEX,
        "the file's key is not the public test key"
    );
    let digests = object(&file.expected["digests"]);
    assert_eq!(digests.len(), 17);
    let key = test_key();
    let mut got = BTreeMap::new();
    for vector in &file.vectors {
        let digest =
            fingerprint(&key, &vector.request).unwrap_or_else(|e| panic!("{}: {e}", vector.name));
        assert!(
            is_lower_hex_64(&digest),
            "{}: {digest} is not 64 lowercase hex",
            vector.name
        );
        assert_eq!(digest, string(&digests[&vector.name]), "{}", vector.name);
        got.insert(vector.name.clone(), digest);
    }
    let Value::Array(relations) = &file.expected["relations"] else {
        panic!("no relations")
    };
    for relation in relations {
        let relation = object(relation);
        let (left, right) = (string(&relation["left"]), string(&relation["right"]));
        let Value::Bool(equal) = relation["equal"] else {
            panic!("relation without equal")
        };
        assert_eq!(
            got[left] == got[right],
            equal,
            "{left} / {right}: {}",
            string(&relation["why"])
        );
    }
}

/// docs/fingerprint.md: two vectors have equal digests exactly when a relation says equal, directly or through
/// another vector; no other pair coincides.
#[test]
fn only_the_related_vectors_coincide() {
    let file = load_vectors();
    let key = test_key();
    let Value::Array(relations) = &file.expected["relations"] else {
        panic!("no relations")
    };
    let mut group: BTreeMap<&str, usize> = file
        .vectors
        .iter()
        .enumerate()
        .map(|(i, v)| (v.name.as_str(), i))
        .collect();
    for relation in relations.iter().map(object) {
        if relation["equal"] == Value::Bool(true) {
            let (from, to) = (
                group[string(&relation["right"])],
                group[string(&relation["left"])],
            );
            group
                .values_mut()
                .filter(|g| **g == from)
                .for_each(|g| *g = to);
        }
    }
    let digests: Vec<(String, usize)> = file
        .vectors
        .iter()
        .map(|v| {
            (
                fingerprint(&key, &v.request).unwrap(),
                group[v.name.as_str()],
            )
        })
        .collect();
    for (i, (a, group_a)) in digests.iter().enumerate() {
        for (j, (b, group_b)) in digests.iter().enumerate().skip(i + 1) {
            assert_eq!(
                a == b,
                group_a == group_b,
                "{} / {}",
                file.vectors[i].name,
                file.vectors[j].name
            );
        }
    }
}

#[test]
fn vector_00_is_the_worked_example() {
    let file = load_vectors();
    let vector = &file.vectors[0];
    assert_eq!(vector.name, "00_control_single_round");
    let request = &vector.request;
    for key in [
        Key::new(TEST_KEY_ASCII.as_bytes()),
        Key::from_hex(TEST_KEY_HEX),
        Key::from_hex(&TEST_KEY_HEX.to_uppercase()),
    ] {
        assert_eq!(
            fingerprint(&key.unwrap(), request).unwrap(),
            VECTOR_00_DIGEST
        );
    }
    let key = test_key();
    let state = request.continuation_state.as_ref().unwrap();
    assert_eq!(
        bind_opaque_field(&key, OpaqueField::ContinuationState, state).unwrap(),
        VECTOR_00_BOUND_STATE
    );
    let responses = request.input_responses.as_ref().unwrap();
    assert_eq!(
        bind_opaque_field(&key, OpaqueField::InputResponses, responses).unwrap(),
        VECTOR_00_BOUND_RESPONSES
    );
    let payload = canonical(&Value::Object(Object::from([
        (
            "principal".to_owned(),
            Value::from(request.principal.clone().unwrap()),
        ),
        ("tool_id".to_owned(), Value::from(request.tool_id.as_str())),
        (
            "tool_version".to_owned(),
            Value::from(request.tool_version.as_str()),
        ),
        (
            "arguments".to_owned(),
            Value::Object(request.arguments.clone()),
        ),
        (
            "continuation_state".to_owned(),
            Value::from(VECTOR_00_BOUND_STATE),
        ),
        (
            "input_responses".to_owned(),
            Value::from(VECTOR_00_BOUND_RESPONSES),
        ),
    ])))
    .unwrap();
    let want = format!(
        "{{\"arguments\":{{\"title\":\"spec\"}},\"continuation_state\":\"{VECTOR_00_BOUND_STATE}\",\"input_responses\":\"{VECTOR_00_BOUND_RESPONSES}\",\"principal\":\"alice\",\"tool_id\":\"create_issue\",\"tool_version\":\"1.0\"}}"
    );
    assert_eq!(payload, want);
    assert_eq!(sha256_hex(payload.as_bytes()), VECTOR_00_DIGEST);
}

#[test]
fn a_missing_opaque_field_binds_as_null() {
    let file = load_vectors();
    let key = test_key();
    let mut request = file
        .vectors
        .iter()
        .find(|v| v.name == "maximum_safe_integer")
        .unwrap()
        .request
        .clone();
    let with_nulls = fingerprint(&key, &request).unwrap();
    request.continuation_state = None;
    request.input_responses = None;
    assert_eq!(fingerprint(&key, &request).unwrap(), with_nulls);
}

#[test]
fn short_keys_are_refused_and_keys_never_print() {
    assert_eq!(Key::new(&[0; 31]).unwrap_err(), KeyError::TooShort);
    assert_eq!(
        KeyError::TooShort.to_string(),
        "fingerprint key must contain at least 32 bytes"
    );
    assert_eq!(Key::from_hex("00112233").unwrap_err(), KeyError::TooShort);
    for text in ["abc", "zz", &"0g".repeat(32)] {
        assert_eq!(
            Key::from_hex(text).unwrap_err(),
            KeyError::NotEvenLengthHex,
            "{text}"
        );
    }
    let key = Key::new(&[7; 32]).unwrap();
    assert_eq!(format!("{key:?}"), "FingerprintKey[redacted]");
}
