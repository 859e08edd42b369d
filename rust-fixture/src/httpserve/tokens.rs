//! HTTP mode's bearer tokens (`WIRE_BEARER_TOKENS_FILE`): a JSON object of principal to token, checked with the
//! TypeScript and Go fixtures' rules and messages, which name the variable and the principal, never a token.

use crate::config::BEARER_TOKENS_FILE;
use crate::fingerprint::push_quoted;
use serde::de::{Deserializer as _, MapAccess, Visitor};
use serde_json::value::RawValue;
use sha2::{Digest, Sha256};
use std::fmt;

/// The shortest bearer token accepted.
pub const MIN_TOKEN_CHARS: usize = 32;

/// A refused tokens file: one stderr line, exit 2.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokensError(String);

impl fmt::Display for TokensError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TokensError {}

/// Maps a presented token to its principal. Only the tokens' SHA-256 digests are kept, and every entry is compared
/// in full, so the time taken tells neither which entry matched nor how much of a token was right.
pub struct BearerTokens {
    entries: Vec<(String, [u8; 32])>,
}

impl fmt::Debug for BearerTokens {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let principals: Vec<&str> = self.entries.iter().map(|(p, _)| p.as_str()).collect();
        f.debug_struct("BearerTokens").field("principals", &principals).finish_non_exhaustive()
    }
}

fn digest(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

fn same_digest(a: &[u8; 32], b: &[u8; 32]) -> bool {
    a.iter().zip(b).fold(0u8, |difference, (x, y)| difference | (x ^ y)) == 0
}

/// RFC 6750's b64token: `[A-Za-z0-9-._~+/]+ =*`.
fn is_b64token(token: &str) -> bool {
    let body = token.trim_end_matches('=');
    !body.is_empty() && body.bytes().all(|b| b.is_ascii_alphanumeric() || b"-._~+/".contains(&b))
}

/// The token of an `Authorization` value: the scheme `Bearer` in any case, spaces, one token, optional spaces.
fn bearer_token(authorization: &str) -> Option<&str> {
    let (scheme, rest) = authorization.split_at_checked(6)?;
    if !scheme.eq_ignore_ascii_case("bearer") || !rest.starts_with(' ') {
        return None;
    }
    let token = rest.trim_start_matches(' ').trim_end_matches(' ');
    (!token.is_empty() && !token.bytes().any(|b| b.is_ascii_whitespace())).then_some(token)
}

impl BearerTokens {
    /// The table of principal to token, already checked.
    pub fn new(tokens: impl IntoIterator<Item = (String, String)>) -> BearerTokens {
        BearerTokens { entries: tokens.into_iter().map(|(principal, token)| (principal, digest(&token))).collect() }
    }

    /// The principal an `Authorization` value authenticates; `None` for another scheme or an unknown token.
    pub fn principal_for(&self, authorization: &str) -> Option<String> {
        let presented = digest(bearer_token(authorization)?);
        let mut found = None;
        for (principal, entry) in &self.entries {
            if same_digest(&presented, entry) {
                found = Some(principal.clone());
            }
        }
        found
    }

    /// Reads and checks the file `WIRE_BEARER_TOKENS_FILE` names: at least one principal, none empty, every token a
    /// b64token of at least 32 characters, no token shared by two principals.
    pub fn read(path: &str) -> Result<BearerTokens, TokensError> {
        let shape = || TokensError(format!("{BEARER_TOKENS_FILE} must name a file holding a JSON object of principal to token"));
        let text = std::fs::read(path).map_err(|_| shape())?;
        let text = std::str::from_utf8(&text).map_err(|_| shape())?;
        let trimmed = text.trim();
        if !trimmed.starts_with('{') {
            return Err(shape());
        }
        let mut de = serde_json::Deserializer::from_str(trimmed);
        let members = de.deserialize_map(InFileOrder).map_err(|_| shape())?;
        de.end().map_err(|_| shape())?;
        if members.is_empty() {
            return Err(TokensError(format!("{BEARER_TOKENS_FILE} names no principal")));
        }
        let mut tokens: Vec<(String, String)> = Vec::new();
        for (principal, raw) in members {
            if principal.is_empty() {
                return Err(TokensError(format!("{BEARER_TOKENS_FILE} has an empty principal")));
            }
            let token = serde_json::from_str::<String>(raw.get())
                .ok()
                .filter(|t| raw.get().starts_with('"') && t.chars().count() >= MIN_TOKEN_CHARS && is_b64token(t))
                .ok_or_else(|| {
                    TokensError(format!(
                        "{BEARER_TOKENS_FILE}: the token of principal {} must be a bearer token of at least {MIN_TOKEN_CHARS} characters",
                        quoted(&principal)
                    ))
                })?;
            // One token for two principals would make the principal depend on the file's order.
            if let Some((owner, _)) = tokens.iter().find(|(_, t)| *t == token) {
                return Err(TokensError(format!(
                    "{BEARER_TOKENS_FILE}: principals {} and {} share a token",
                    quoted(owner),
                    quoted(&principal)
                )));
            }
            tokens.push((principal, token));
        }
        Ok(BearerTokens::new(tokens))
    }
}

/// JSON.stringify's spelling of a principal, as the other fixtures name it.
fn quoted(s: &str) -> String {
    let mut out = String::new();
    push_quoted(&mut out, s);
    out
}

/// An object's members in file order; a repeated principal keeps its first place and its last value, as JSON.parse
/// and Object.entries read it.
struct InFileOrder;

impl<'de> Visitor<'de> for InFileOrder {
    type Value = Vec<(String, Box<RawValue>)>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut members: Self::Value = Vec::new();
        while let Some(name) = map.next_key::<String>()? {
            let value: Box<RawValue> = map.next_value()?;
            match members.iter_mut().find(|(n, _)| *n == name) {
                Some(member) => member.1 = value,
                None => members.push((name, value)),
            }
        }
        Ok(members)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALICE: &str = "alice-token-0123456789abcdef0123456789abcdef";
    const BOB: &str = "bob-token-0123456789abcdef0123456789abcdef00";

    #[test]
    fn the_authorization_header_is_read_as_the_go_fixture_reads_it() {
        let tokens = BearerTokens::new([("alice".to_string(), ALICE.to_string()), ("bob".to_string(), BOB.to_string())]);
        let cases = [
            (format!("Bearer {ALICE}"), Some("alice")),
            (format!("bearer  {BOB} "), Some("bob")),
            (format!("BEARER {ALICE}"), Some("alice")),
            (format!("Bearer {ALICE}x"), None),
            (format!("Basic {ALICE}"), None),
            ("Bearer".to_string(), None),
            (String::new(), None),
            (ALICE.to_string(), None),
            (format!("Bearer {ALICE} extra"), None),
            (format!("Bearer\t{ALICE}"), None),
        ];
        for (header, want) in cases {
            assert_eq!(tokens.principal_for(&header).as_deref(), want, "{header:?}");
        }
    }

    #[test]
    fn b64token_shape() {
        assert!(is_b64token("abc-._~+/=="));
        assert!(!is_b64token("=="));
        assert!(!is_b64token("a b"));
        assert!(!is_b64token("a=b"));
    }
}
