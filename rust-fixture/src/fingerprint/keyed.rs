use std::fmt;

use hmac::{Hmac, KeyInit, Mac};
use sha2::{Digest, Sha256};

use super::canonical::{ValueError, write_object, write_value};
use super::request::LogicalRequest;
use super::value::Value;

/// The shortest fingerprint key accepted.
pub const MIN_KEY_BYTES: usize = 32;

/// A secret HMAC-SHA256 key of at least [`MIN_KEY_BYTES`]; it never prints its bytes.
#[derive(Clone)]
pub struct Key {
    // Keyed once: each use clones the state instead of hashing the key's pads again.
    mac: Hmac<Sha256>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyError {
    NotEvenLengthHex,
    TooShort,
}

impl fmt::Display for KeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeyError::NotEvenLengthHex => {
                f.write_str("fingerprint key must be an even-length hexadecimal string")
            }
            KeyError::TooShort => write!(
                f,
                "fingerprint key must contain at least {MIN_KEY_BYTES} bytes"
            ),
        }
    }
}

impl std::error::Error for KeyError {}

impl Key {
    pub fn new(bytes: &[u8]) -> Result<Key, KeyError> {
        if bytes.len() < MIN_KEY_BYTES {
            return Err(KeyError::TooShort);
        }
        let mac = Hmac::<Sha256>::new_from_slice(bytes).map_err(|_| KeyError::TooShort)?;
        Ok(Key { mac })
    }

    /// A key spelt in hex, either case.
    pub fn from_hex(text: &str) -> Result<Key, KeyError> {
        if !text.len().is_multiple_of(2) {
            return Err(KeyError::NotEvenLengthHex);
        }
        let bytes = text
            .as_bytes()
            .chunks_exact(2)
            .map(|pair| {
                let high = char::from(pair[0]).to_digit(16)?;
                let low = char::from(pair[1]).to_digit(16)?;
                u8::try_from(high << 4 | low).ok()
            })
            .collect::<Option<Vec<u8>>>()
            .ok_or(KeyError::NotEvenLengthHex)?;
        Key::new(&bytes)
    }

    /// Lowercase hex of HMAC-SHA256(key, message).
    pub fn hmac_hex(&self, message: &[u8]) -> String {
        let mut mac = self.mac.clone();
        mac.update(message);
        lower_hex(&mac.finalize().into_bytes())
    }
}

impl fmt::Debug for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("FingerprintKey[redacted]")
    }
}

/// The fields bound through HMAC, in the order they are bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpaqueField {
    ContinuationState,
    InputResponses,
}

impl OpaqueField {
    pub fn name(self) -> &'static str {
        match self {
            OpaqueField::ContinuationState => "continuation_state",
            OpaqueField::InputResponses => "input_responses",
        }
    }
}

/// `hex(HMAC(key, field || 0x00 || canonical(value)))`; a missing field binds as [`Value::Null`].
pub fn bind_opaque_field(
    key: &Key,
    field: OpaqueField,
    value: &Value,
) -> Result<String, ValueError> {
    let mut message = String::with_capacity(64);
    message.push_str(field.name());
    message.push('\0');
    write_value(&mut message, value, 0).map_err(|r| r.at(&format!("$.{}", field.name())))?;
    Ok(key.hmac_hex(message.as_bytes()))
}

/// Lowercase hex of SHA-256.
pub fn sha256_hex(data: &[u8]) -> String {
    lower_hex(&Sha256::digest(data))
}

/// The request's fingerprint, 64 lowercase hex characters. The checks run in the other languages' order: the two
/// bound fields, then the arguments (one level below the payload).
pub fn fingerprint(key: &Key, request: &LogicalRequest) -> Result<String, ValueError> {
    let null = Value::Null;
    let bound_state = bind_opaque_field(
        key,
        OpaqueField::ContinuationState,
        request.continuation_state.as_ref().unwrap_or(&null),
    )?;
    let bound_responses = bind_opaque_field(
        key,
        OpaqueField::InputResponses,
        request.input_responses.as_ref().unwrap_or(&null),
    )?;
    // The payload's members are fixed, so it is written straight in canonical key order.
    let mut payload = String::with_capacity(256);
    payload.push_str("{\"arguments\":");
    write_object(&mut payload, &request.arguments, 1).map_err(|r| r.at("$.arguments"))?;
    payload.push_str(",\"continuation_state\":\"");
    payload.push_str(&bound_state);
    payload.push_str("\",\"input_responses\":\"");
    payload.push_str(&bound_responses);
    payload.push_str("\",\"principal\":");
    match &request.principal {
        Some(principal) => super::push_quoted(&mut payload, principal),
        None => payload.push_str("null"),
    }
    payload.push_str(",\"tool_id\":");
    super::push_quoted(&mut payload, &request.tool_id);
    payload.push_str(",\"tool_version\":");
    super::push_quoted(&mut payload, &request.tool_version);
    payload.push('}');
    Ok(sha256_hex(payload.as_bytes()))
}

fn lower_hex(bytes: &[u8]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        out.push(char::from(HEX[usize::from(b >> 4)]));
        out.push(char::from(HEX[usize::from(b & 0xf)]));
    }
    out
}
