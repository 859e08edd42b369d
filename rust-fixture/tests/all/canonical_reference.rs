//! append_test.go: the Go fixture checks its fast path against its path-building walk. Here the one-pass writer,
//! which spells a path only when it refuses, is checked against a plain recursive walk that builds every path as it
//! goes: the same text for every value, and the same message (path included) for every refused one.

use std::fmt::Write;

use rust_fixture::fingerprint::{
    InexactKind, InexactNumber, MAX_SAFE_INTEGER, Object, Value, canonical,
};

/// splitmix64: a fixed seed gives the same values on every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

const ALPHABET: [&str; 11] = [
    "a",
    "\"",
    "\\",
    "\n",
    "\u{1}",
    "\u{2028}",
    "é",
    "漢",
    "\u{1F600}",
    "\u{7f}",
    "/",
];

fn random_text(rng: &mut Rng) -> String {
    (0..rng.below(4))
        .map(|_| ALPHABET[rng.below(ALPHABET.len())])
        .collect()
}

fn random_value(rng: &mut Rng, depth: usize) -> Value {
    let kinds = if depth >= 4 { 8 } else { 10 };
    match rng.below(kinds) {
        0 => Value::String(random_text(rng)),
        1 => Value::Integer(
            [
                0,
                -1,
                7,
                MAX_SAFE_INTEGER,
                -MAX_SAFE_INTEGER,
                MAX_SAFE_INTEGER + 1,
                i64::MIN,
            ][rng.below(7)],
        ),
        2 => Value::Inexact(InexactNumber {
            literal: "0.5".into(),
            kind: [InexactKind::Fraction, InexactKind::OutsideSafeRange][rng.below(2)],
        }),
        3 => Value::Bool(rng.below(2) == 0),
        4 => Value::Null,
        5 => {
            let mut units: Vec<u16> = random_text(rng).encode_utf16().collect();
            if rng.below(2) == 0 {
                units.insert(
                    rng.below(units.len() + 1),
                    [0xd800, 0xdbff, 0xdc00, 0xdfff][rng.below(4)],
                );
            }
            Value::IllFormedString(units)
        }
        6 | 7 => Value::String(random_text(rng)),
        8 => Value::Array(
            (0..rng.below(4))
                .map(|_| random_value(rng, depth + 1))
                .collect(),
        ),
        _ => Value::Object(
            (0..rng.below(4))
                .map(|_| (random_text(rng), random_value(rng, depth + 1)))
                .collect(),
        ),
    }
}

/// The walk before any speed-up: the path of every value is built whether or not it is needed.
fn reference(out: &mut String, value: &Value, path: &str, depth: usize) -> Result<(), String> {
    let refuse = |what: &str| Err(format!("{path}: {what}"));
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(&b.to_string()),
        Value::Integer(n) if (-MAX_SAFE_INTEGER..=MAX_SAFE_INTEGER).contains(n) => {
            out.push_str(&n.to_string())
        }
        Value::Integer(_)
        | Value::Inexact(InexactNumber {
            kind: InexactKind::OutsideSafeRange,
            ..
        }) => {
            return refuse("integer is outside the interoperable safe range");
        }
        Value::Inexact(_) => {
            return refuse("number must be an integer in the interoperable safe range");
        }
        Value::String(s) => quote(out, s),
        Value::IllFormedString(units) => match String::from_utf16(units) {
            Ok(s) => quote(out, &s),
            Err(_) => return refuse("unpaired UTF-16 surrogate is not valid Unicode"),
        },
        Value::Array(items) => {
            if depth + 1 > 1000 {
                return refuse("nesting deeper than 1000 levels");
            }
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                reference(out, item, &format!("{path}[{i}]"), depth + 1)?;
            }
            out.push(']');
        }
        Value::Object(members) => {
            if depth + 1 > 1000 {
                return refuse("nesting deeper than 1000 levels");
            }
            let mut keys: Vec<&String> = members.keys().collect();
            keys.sort_by(|a, b| a.chars().cmp(b.chars()));
            out.push('{');
            for (i, key) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                let mut member_path = format!("{path}.");
                for c in key.chars() {
                    if c < ' ' {
                        let _ = write!(member_path, "\\u{:04x}", c as u32);
                    } else {
                        member_path.push(c);
                    }
                }
                quote(out, key);
                out.push(':');
                reference(out, &members[key], &member_path, depth + 1)?;
            }
            out.push('}');
        }
    }
    Ok(())
}

fn quote(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c < ' ' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[test]
fn the_one_pass_writer_agrees_with_the_path_building_walk() {
    let mut rng = Rng(20261206);
    let (mut accepted, mut refused) = (0, 0);
    for _ in 0..5000 {
        let value = random_value(&mut rng, 0);
        let mut walked = String::new();
        let want = reference(&mut walked, &value, "$", 0).map(|()| walked);
        let got = canonical(&value).map_err(|e| e.to_string());
        assert_eq!(got, want, "{value:?}");
        if got.is_ok() {
            accepted += 1;
        } else {
            refused += 1;
        }
    }
    assert!(accepted >= 1000, "only {accepted} values were accepted");
    assert!(refused >= 1000, "only {refused} values were refused");
}

#[test]
fn nesting_at_the_limit_agrees_too() {
    for levels in [999, 1000, 1001] {
        for (i, leaf) in [
            Value::Null,
            Value::Inexact(InexactNumber {
                literal: "1.5".into(),
                kind: InexactKind::Fraction,
            }),
        ]
        .into_iter()
        .enumerate()
        {
            let mut value = leaf;
            for level in 0..levels {
                value = if (level + i) % 2 == 0 {
                    Value::Array(vec![Value::Null, value])
                } else {
                    Value::Object(Object::from([
                        ("k\u{1}".to_owned(), value),
                        ("a".to_owned(), Value::Null),
                    ]))
                };
            }
            let mut walked = String::new();
            let want = reference(&mut walked, &value, "$", 0).map(|()| walked);
            assert_eq!(
                canonical(&value).map_err(|e| e.to_string()),
                want,
                "{levels} levels, leaf {i}"
            );
        }
    }
}
