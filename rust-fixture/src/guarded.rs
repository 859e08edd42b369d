//! The rules the fixture applies before any bridge call: the arguments of `create_guarded_issue` and the
//! continuation's input responses, with the messages of shared-store's `GuardedIssueArguments` and
//! `InputResponses` (`vectors/rules/guarded-arguments.json`, `input-responses.json`). Both read the JSON as the
//! client sent it, not as an SDK's typed view of it, which may drop members the rules must see.

use std::fmt;

use crate::fingerprint;
use serde_json::{Map, Value, json};

/// Limits, in UTF-16 code units as Java and JavaScript count them.
pub const MAX_OPERATION_ID_LENGTH: usize = 256;
pub const MAX_TEXT_LENGTH: usize = 65536;

/// The refusal of a body response that is not accepted text.
pub const NOT_ACCEPTED_TEXT: &str = "body response must be accepted text";

/// How the issue is applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mode {
    Atomic,
    Partial,
}

impl Mode {
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Atomic => "atomic",
            Mode::Partial => "partial",
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// `create_guarded_issue`'s arguments, mode after defaulting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Arguments {
    pub operation_id: String,
    pub title: String,
    pub mode: Mode,
}

/// Refused arguments, with the shared message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidArguments(String);

impl fmt::Display for InvalidArguments {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for InvalidArguments {}

/// Refused input responses, with the shared message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidInputResponses(String);

impl fmt::Display for InvalidInputResponses {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for InvalidInputResponses {}

/// The length of `s` in UTF-16 code units, as Java's `String.length` and JavaScript count it.
pub fn utf16_length(s: &str) -> usize {
    s.chars().map(char::len_utf16).sum()
}

/// Validates the arguments object: operation_id, then title, then mode; other members are not read. An absent
/// mode is atomic; a JSON null mode is refused, as TypeScript's `guardedArguments` does (the table records Java's
/// difference).
pub fn read_arguments(args: &Map<String, Value>) -> Result<Arguments, InvalidArguments> {
    let text = |name: &str| {
        args.get(name)
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
    };
    let (Some(operation_id), Some(title)) = (text("operation_id"), text("title")) else {
        return Err(InvalidArguments(
            "operation_id and title are required".into(),
        ));
    };
    if utf16_length(operation_id) > MAX_OPERATION_ID_LENGTH {
        return Err(InvalidArguments(format!(
            "operation_id is longer than {MAX_OPERATION_ID_LENGTH} characters"
        )));
    }
    if utf16_length(title) > MAX_TEXT_LENGTH {
        return Err(InvalidArguments(format!(
            "title is longer than {MAX_TEXT_LENGTH} characters"
        )));
    }
    let mode = match args.get("mode") {
        None => Mode::Atomic,
        Some(Value::String(s)) if s == "atomic" => Mode::Atomic,
        Some(Value::String(s)) if s == "partial" => Mode::Partial,
        Some(_) => {
            return Err(InvalidArguments(
                "mode must be 'atomic' or 'partial'".into(),
            ));
        }
    };
    Ok(Arguments {
        operation_id: operation_id.to_owned(),
        title: title.to_owned(),
        mode,
    })
}

const BODY_RESPONSE_MEMBERS: [&str; 3] = ["action", "content", "_meta"];

/// The accepted text of the continuation's input responses, which must be exactly
/// `{"body": {"action": "accept", "content": {"body": <text>}}}` with at most a null `_meta` beside action and
/// content. The checks go in the shared order, so each refusal is the one the other languages give.
pub fn accepted_body(responses: &Value) -> Result<String, InvalidInputResponses> {
    let refuse = |message: &str| Err(InvalidInputResponses(message.to_owned()));
    let Value::Object(responses) = responses else {
        return refuse("invalid input responses");
    };
    let Some(response) = responses.get("body") else {
        return refuse("missing body input response");
    };
    if responses.len() != 1 {
        return refuse("unsupported input response fields");
    }
    let Value::Object(response) = response else {
        return refuse(NOT_ACCEPTED_TEXT);
    };
    let mut unsupported: Vec<&str> = response
        .keys()
        .map(String::as_str)
        .filter(|name| !BODY_RESPONSE_MEMBERS.contains(name))
        .collect();
    // Sorted here, not left to the map, whose order changes with serde_json's preserve_order feature.
    unsupported.sort_unstable();
    if !unsupported.is_empty() {
        return refuse(&format!(
            "unsupported body response fields: [{}]",
            unsupported.join(", ")
        ));
    }
    let accepted = response.get("action").and_then(Value::as_str) == Some("accept");
    let meta_is_null = response.get("_meta").is_none_or(Value::is_null);
    let body = match response.get("content") {
        Some(Value::Object(content)) if content.len() == 1 => {
            content.get("body").and_then(Value::as_str)
        }
        _ => None,
    };
    let Some(body) = body.filter(|_| accepted && meta_is_null) else {
        return refuse(NOT_ACCEPTED_TEXT);
    };
    if utf16_length(body) > MAX_TEXT_LENGTH {
        return refuse(&format!("body is longer than {MAX_TEXT_LENGTH} characters"));
    }
    Ok(body.to_owned())
}

/// `{"body":{"_meta":null,"action":"accept","content":{"body":<body>}}}`: what the bridge binds.
pub fn normalised_responses(body: &str) -> Value {
    json!({"body": {"_meta": null, "action": "accept", "content": {"body": body}}})
}

/// The exact-number view of a value the SDK has already typed: an integer serde_json holds as i64 or u64 stays an
/// integer (the canonicaliser refuses one outside ±(2^53−1)); any other number is a fraction.
fn exact(value: &Value) -> fingerprint::Value {
    match value {
        Value::Null => fingerprint::Value::Null,
        Value::Bool(b) => fingerprint::Value::Bool(*b),
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) if i.abs() <= fingerprint::MAX_SAFE_INTEGER => fingerprint::Value::Integer(i),
            (Some(_), _) | (None, Some(_)) => fingerprint::Value::Inexact(fingerprint::InexactNumber {
                literal: n.to_string(),
                kind: fingerprint::InexactKind::OutsideSafeRange,
            }),
            _ => fingerprint::Value::Inexact(fingerprint::InexactNumber {
                literal: n.to_string(),
                kind: fingerprint::InexactKind::Fraction,
            }),
        },
        Value::String(s) => fingerprint::Value::String(s.clone()),
        Value::Array(items) => fingerprint::Value::Array(items.iter().map(exact).collect()),
        Value::Object(members) => fingerprint::Value::Object(members.iter().map(|(k, v)| (k.clone(), exact(v))).collect()),
    }
}

/// Lowercase hex SHA-256 of the canonical `{operation_id, title, mode}` as sent (an absent or null mode counts as
/// "atomic"): what a requestState is bound to, checked before the arguments themselves are.
pub fn digest(args: &Map<String, Value>) -> Result<String, fingerprint::ValueError> {
    let mode = args.get("mode").filter(|m| !m.is_null()).cloned().unwrap_or_else(|| Value::from("atomic"));
    let bound = json!({"operation_id": args.get("operation_id"), "title": args.get("title"), "mode": mode});
    Ok(fingerprint::sha256_hex(fingerprint::canonical(&exact(&bound))?.as_bytes()))
}

/// `digest` of validated arguments.
pub fn digest_of(arguments: &Arguments) -> String {
    let bound = json!({"operation_id": arguments.operation_id, "title": arguments.title, "mode": arguments.mode.as_str()});
    fingerprint::sha256_hex(fingerprint::canonical(&exact(&bound)).expect("strings have canonical text").as_bytes())
}

/// Lowercase hex SHA-256 of canonical `{title}`: the control binds its one argument as the guarded tool binds its
/// three. An absent title binds nothing.
pub fn title_digest(args: &Map<String, Value>) -> Option<String> {
    let title = args.get("title")?;
    let text = fingerprint::canonical(&exact(&json!({"title": title}))).ok()?;
    Some(fingerprint::sha256_hex(text.as_bytes()))
}

/// The control's one argument: a non-empty title within the text limit.
pub fn read_title(args: &Map<String, Value>) -> Result<String, InvalidArguments> {
    let Some(title) = args.get("title").and_then(Value::as_str).filter(|t| !t.is_empty()) else {
        return Err(InvalidArguments("title is required".into()));
    };
    if utf16_length(title) > MAX_TEXT_LENGTH {
        return Err(InvalidArguments(format!("title is longer than {MAX_TEXT_LENGTH} characters")));
    }
    Ok(title.to_owned())
}
