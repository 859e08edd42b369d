//! The guarded tool's `requestState`: rmcp's own codec (`RequestStateCodec`, HMAC-SHA256, feature
//! `request-state`) seals the fixture's payload, with the binding as the codec's associated data.
//!
//! The binding (method, tool, a digest of the canonical arguments, principal, this fixture as audience) is mixed
//! into the tag and not stored, so a state opens only for the call it was minted for. The codec's own TTL reads the
//! system clock, and the lab's clock is injected (`WIRE_CLOCK_EPOCH`), so the expiry is a payload member on the
//! injected clock instead, as the Go and Python fixtures keep it.

use rmcp::model::{RequestStateCodec, SealOptions};
use serde_json::{Value, json};
use std::collections::BTreeMap;

pub const MAX_LENGTH: usize = 8192;
pub const AUDIENCE: &str = "continuation-replay-rust-fixture";
pub const METHOD: &str = "tools/call";

/// The application state the guard reads; the bridge's apply request carries it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContinuationState {
    pub operation_id: String,
    pub nonce: String,
    pub issued_at: i64,
    pub authority_expires_at: i64,
    pub replay_expires_at: i64,
}

impl ContinuationState {
    /// A fresh state with a new 16-byte nonce, so two first rounds are two operations.
    pub fn new(operation_id: &str, now: i64, authority_ttl: i64, replay_ttl: i64) -> Self {
        let mut nonce = [0u8; 16];
        getrandom::fill(&mut nonce).expect("the operating system's random source");
        ContinuationState {
            operation_id: operation_id.to_owned(),
            nonce: hex::encode(nonce),
            issued_at: now,
            authority_expires_at: now + authority_ttl,
            replay_expires_at: now + replay_ttl,
        }
    }

    pub fn to_json(&self) -> Value {
        json!({"v": 1, "operation_id": self.operation_id, "nonce": self.nonce, "issued_at": self.issued_at,
            "authority_expires_at": self.authority_expires_at, "replay_expires_at": self.replay_expires_at})
    }

    fn from_json(value: &Value) -> Option<Self> {
        let object = value.as_object()?;
        const MEMBERS: [&str; 6] = ["authority_expires_at", "issued_at", "nonce", "operation_id", "replay_expires_at", "v"];
        if object.len() != MEMBERS.len() || !MEMBERS.iter().all(|m| object.contains_key(*m)) || object["v"].as_i64() != Some(1) {
            return None;
        }
        Some(ContinuationState {
            operation_id: object["operation_id"].as_str()?.to_owned(),
            nonce: object["nonce"].as_str()?.to_owned(),
            issued_at: object["issued_at"].as_i64()?,
            authority_expires_at: object["authority_expires_at"].as_i64()?,
            replay_expires_at: object["replay_expires_at"].as_i64()?,
        })
    }
}

/// What a state is bound to, besides the key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    pub tool: String,
    pub arguments_digest: String,
    pub principal: String,
}

impl Binding {
    fn associated_data(&self) -> Vec<u8> {
        let members: BTreeMap<&str, &str> = BTreeMap::from([
            ("arguments_digest", self.arguments_digest.as_str()),
            ("audience", AUDIENCE),
            ("method", METHOD),
            ("principal", self.principal.as_str()),
            ("tool", self.tool.as_str()),
        ]);
        serde_json::to_vec(&members).expect("strings serialise")
    }
}

/// Why a state did not open: stderr only, never the wire.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejection(pub String);

impl std::fmt::Display for Rejection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "requestState rejected: {}", self.0)
    }
}

pub struct Codec {
    codec: RequestStateCodec,
    ttl: i64,
    now: i64,
}

/// The SDK's codec for `key`, its own length check included (rmcp 3.2.0 and later).
#[cfg(not(feature = "rmcp-before-3-2"))]
fn sdk_codec(key: &[u8]) -> Result<RequestStateCodec, String> {
    RequestStateCodec::try_new(key.to_vec()).map_err(|e| e.to_string())
}

/// Before 3.2.0 rmcp has no checked constructor; the caller has already refused a key under 32 bytes.
#[cfg(feature = "rmcp-before-3-2")]
fn sdk_codec(key: &[u8]) -> Result<RequestStateCodec, String> {
    Ok(RequestStateCodec::new(key.to_vec()))
}

impl Codec {
    /// `key` of at least 32 bytes; `ttl` in seconds; `now` is the injected clock, fixed for the process.
    pub fn new(key: &[u8], ttl: i64, now: i64) -> Result<Self, String> {
        if key.len() < 32 {
            return Err("the requestState key must contain at least 32 bytes".into());
        }
        Ok(Codec { codec: sdk_codec(key)?, ttl, now })
    }

    pub fn mint(&self, binding: &Binding, state: &ContinuationState) -> String {
        let payload = json!({"expires_at": self.now + self.ttl, "state": state.to_json()});
        let ad = binding.associated_data();
        self.codec.seal_with(payload.to_string().as_bytes(), &SealOptions::new().associated_data(&ad))
    }

    /// Checks the length, the tag over payload and binding, the payload's shape and the expiry (valid while now <
    /// expires_at), and returns the continuation state.
    pub fn open(&self, token: &str, binding: &Binding) -> Result<ContinuationState, Rejection> {
        if token.len() > MAX_LENGTH {
            return Err(Rejection(format!("longer than {MAX_LENGTH} characters")));
        }
        let payload = self
            .codec
            .open_with(token, &binding.associated_data())
            .map_err(|e| Rejection(format!("the codec refused it ({e})")))?;
        let payload: Value = serde_json::from_slice(&payload).map_err(|_| Rejection("payload is not JSON".into()))?;
        let object = payload.as_object().filter(|o| o.len() == 2).ok_or_else(|| Rejection("payload members".into()))?;
        let expires_at = object.get("expires_at").and_then(Value::as_i64).ok_or_else(|| Rejection("payload members".into()))?;
        if self.now >= expires_at {
            return Err(Rejection("expired".into()));
        }
        object.get("state").and_then(ContinuationState::from_json).ok_or_else(|| Rejection("state members".into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &[u8] = b"0123456789abcdef0123456789abcdef";

    fn binding() -> Binding {
        Binding { tool: "create_guarded_issue".into(), arguments_digest: "d".into(), principal: "alice".into() }
    }

    #[test]
    fn a_minted_state_opens_for_its_own_binding_only() {
        let codec = Codec::new(KEY, 600, 1000).unwrap();
        let state = ContinuationState::new("op", 1000, 300, 360);
        let token = codec.mint(&binding(), &state);
        assert_eq!(codec.open(&token, &binding()), Ok(state));
        for other in [
            Binding { tool: "x".into(), ..binding() },
            Binding { arguments_digest: "e".into(), ..binding() },
            Binding { principal: "bob".into(), ..binding() },
        ] {
            assert!(codec.open(&token, &other).is_err(), "{other:?}");
        }
    }

    #[test]
    fn expiry_follows_the_injected_clock() {
        let token = Codec::new(KEY, 600, 1000).unwrap().mint(&binding(), &ContinuationState::new("op", 1000, 300, 360));
        assert!(Codec::new(KEY, 600, 1599).unwrap().open(&token, &binding()).is_ok());
        assert_eq!(Codec::new(KEY, 600, 1600).unwrap().open(&token, &binding()), Err(Rejection("expired".into())));
    }

    #[test]
    fn another_key_a_flipped_character_and_an_overlong_token_are_refused() {
        let codec = Codec::new(KEY, 600, 1000).unwrap();
        let token = codec.mint(&binding(), &ContinuationState::new("op", 1000, 300, 360));
        assert!(Codec::new(b"another key of thirty-two bytes!!", 600, 1000).unwrap().open(&token, &binding()).is_err());
        let mut flipped = token.clone().into_bytes();
        let i = flipped.len() / 2;
        flipped[i] = if flipped[i] == b'A' { b'B' } else { b'A' };
        assert!(codec.open(std::str::from_utf8(&flipped).unwrap(), &binding()).is_err());
        assert!(codec.open(&"a".repeat(MAX_LENGTH + 1), &binding()).is_err());
        assert!(Codec::new(&KEY[..31], 600, 1000).is_err());
    }
}
