//! The fixtures' sealed requestState: `v1.<base64url payload>.<base64url HMAC-SHA256>` under the state key, with
//! another audience and MAC label than the guarded tools' state, so neither kind opens as the other. The payload is
//! the canonical JSON of the method, the fixture's name, the SHA-256 of the canonical arguments, the principal, an
//! expiry on the real clock and the fixture's progress (`data`), which is only ever read back from here.

use crate::fingerprint::{self, Object, Value};
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;
use std::fmt;
use std::sync::Arc;

const AUDIENCE: &str = "continuation-replay-rust-fixture/conformance";
const LABEL: &str = "continuation-replay-rust-fixture conformance-fixture\0";
pub const MAX_STATE_LENGTH: usize = 8192;
const MAC_CHARS: usize = 43;

/// Why a state did not open or could not be sealed: stderr only, never the wire.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StateProblem(&'static str);

impl fmt::Display for StateProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

/// Whole epoch seconds.
pub type Clock = Arc<dyn Fn() -> i64 + Send + Sync>;

/// The machine's clock: the fixtures' states live on it, while the guarded tools keep the injected one.
pub fn system_clock() -> Clock {
    Arc::new(|| std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64))
}

pub struct States {
    mac: Hmac<Sha256>,
    ttl: i64,
    now: Clock,
}

/// What a state is minted for.
pub struct Call<'a> {
    pub method: &'a str,
    pub name: &'a str,
    /// The request's `arguments` as sent; absent counts as `{}`.
    pub arguments: Option<&'a Value>,
    pub principal: &'a str,
}

fn arguments_digest(arguments: Option<&Value>) -> Result<String, StateProblem> {
    let empty = Value::Object(Object::new());
    let arguments = arguments.unwrap_or(&empty);
    if !matches!(arguments, Value::Object(_)) {
        return Err(StateProblem("arguments are not an object"));
    }
    let text = fingerprint::canonical(arguments).map_err(|_| StateProblem("arguments have no canonical text"))?;
    Ok(fingerprint::sha256_hex(text.as_bytes()))
}

fn constant_time_equal(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |difference, (x, y)| difference | (x ^ y)) == 0
}

impl States {
    /// `key` of at least 32 bytes (the guarded state key), `ttl` in seconds.
    pub fn new(key: &[u8], ttl: i64, now: Clock) -> Result<States, String> {
        if key.len() < 32 {
            return Err("the conformance state key must contain at least 32 bytes".into());
        }
        let mac = Hmac::<Sha256>::new_from_slice(key).map_err(|e| e.to_string())?;
        Ok(States { mac, ttl, now })
    }

    fn tag(&self, body: &str) -> String {
        let mut mac = self.mac.clone();
        mac.update(LABEL.as_bytes());
        mac.update(b"v1.");
        mac.update(body.as_bytes());
        URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes())
    }

    /// A state for this call carrying the fixture's progress.
    pub fn seal(&self, call: &Call, data: Value) -> Result<String, StateProblem> {
        let payload = Object::from([
            ("arguments_digest".to_owned(), Value::from(arguments_digest(call.arguments)?)),
            ("audience".to_owned(), Value::from(AUDIENCE)),
            ("data".to_owned(), data),
            ("expires_at".to_owned(), Value::Integer((self.now)() + self.ttl)),
            ("method".to_owned(), Value::from(call.method)),
            ("name".to_owned(), Value::from(call.name)),
            ("principal".to_owned(), Value::from(call.principal)),
        ]);
        let text = fingerprint::canonical(&Value::Object(payload)).map_err(|_| StateProblem("data has no canonical text"))?;
        let body = URL_SAFE_NO_PAD.encode(text.as_bytes());
        Ok(format!("v1.{body}.{}", self.tag(&body)))
    }

    /// The data of a state minted by `seal` for exactly this call.
    pub fn open(&self, token: &str, call: &Call) -> Result<Value, StateProblem> {
        if token.len() > MAX_STATE_LENGTH {
            return Err(StateProblem("too long"));
        }
        let base64url = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        let shape = token
            .strip_prefix("v1.")
            .and_then(|rest| rest.split_once('.'))
            .filter(|(body, tag)| base64url(body) && base64url(tag) && tag.len() == MAC_CHARS);
        let Some((body, tag)) = shape else {
            return Err(StateProblem("not a fixture state"));
        };
        if !constant_time_equal(tag.as_bytes(), self.tag(body).as_bytes()) {
            return Err(StateProblem("MAC mismatch"));
        }
        let raw = URL_SAFE_NO_PAD.decode(body).ok().filter(|raw| URL_SAFE_NO_PAD.encode(raw) == body);
        let Some(raw) = raw else {
            return Err(StateProblem("payload not canonical base64url"));
        };
        let Ok(Value::Object(mut payload)) = fingerprint::parse_exact(&raw) else {
            return Err(StateProblem("payload shape"));
        };
        if payload.len() != 7 {
            return Err(StateProblem("payload shape"));
        }
        let text = |payload: &Object, name: &str| match payload.get(name) {
            Some(Value::String(s)) => Some(s.clone()),
            _ => None,
        };
        if text(&payload, "audience").as_deref() != Some(AUDIENCE) {
            return Err(StateProblem("another audience"));
        }
        if text(&payload, "method").as_deref() != Some(call.method) || text(&payload, "name").as_deref() != Some(call.name) {
            return Err(StateProblem("minted for another fixture"));
        }
        if text(&payload, "arguments_digest") != Some(arguments_digest(call.arguments)?) {
            return Err(StateProblem("minted for other arguments"));
        }
        if text(&payload, "principal").as_deref() != Some(call.principal) {
            return Err(StateProblem("minted for another principal"));
        }
        match payload.get("expires_at") {
            Some(Value::Integer(expires_at)) if (self.now)() < *expires_at => {}
            _ => return Err(StateProblem("expired")),
        }
        payload.remove("data").ok_or(StateProblem("payload shape"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicI64, Ordering};

    const KEY: &[u8] = b"0123456789abcdef0123456789abcdef";

    fn arguments(b: i64) -> Value {
        Value::Object(Object::from([("b".to_owned(), Value::Integer(b))]))
    }

    fn flip(token: &str, at: usize) -> String {
        let mut bytes = token.as_bytes().to_vec();
        bytes[at] = if bytes[at] == b'A' { b'B' } else { b'A' };
        String::from_utf8(bytes).unwrap()
    }

    #[test]
    fn a_state_opens_only_for_its_own_call_principal_and_lifetime() {
        let now = Arc::new(AtomicI64::new(1000));
        let clock: Clock = {
            let now = Arc::clone(&now);
            Arc::new(move || now.load(Ordering::SeqCst))
        };
        let states = States::new(KEY, 60, clock.clone()).unwrap();
        let args = arguments(1);
        let call = |method, name, arguments, principal| Call { method, name, arguments, principal };
        let own = call("tools/call", "test_input_required_result_request_state", Some(&args), "alice");
        let token = states.seal(&own, Value::from("asked")).unwrap();
        assert_eq!(states.open(&token, &own), Ok(Value::from("asked")));
        let other_args = arguments(2);
        let list = Value::Array(vec![]);
        let refusals = [
            ("another method", token.clone(), call("prompts/get", own.name, Some(&args), "alice")),
            ("another fixture", token.clone(), call("tools/call", "test_input_required_result_tampered_state", Some(&args), "alice")),
            ("other arguments", token.clone(), call("tools/call", own.name, Some(&other_args), "alice")),
            ("absent arguments", token.clone(), call("tools/call", own.name, None, "alice")),
            ("another principal", token.clone(), call("tools/call", own.name, Some(&args), "bob")),
            ("a flipped bit", flip(&token, 5), call("tools/call", own.name, Some(&args), "alice")),
            ("a cut MAC", token[..token.len() - 1].to_owned(), call("tools/call", own.name, Some(&args), "alice")),
            ("padding added", format!("{token}="), call("tools/call", own.name, Some(&args), "alice")),
            ("arguments list", token.clone(), call("tools/call", own.name, Some(&list), "alice")),
        ];
        for (name, token, call) in refusals {
            assert!(states.open(&token, &call).is_err(), "{name}");
        }
        let other_key = States::new(b"fedcba9876543210fedcba9876543210", 60, clock).unwrap();
        assert!(other_key.open(&token, &own).is_err(), "another key");
        now.store(1059, Ordering::SeqCst);
        assert!(states.open(&token, &own).is_ok(), "within its lifetime");
        now.store(1060, Ordering::SeqCst);
        assert_eq!(states.open(&token, &own), Err(StateProblem("expired")));
    }
}
