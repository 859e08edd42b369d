//! The fixture's trusted configuration, read from its environment only (the `WIRE_*` names), never from the wire:
//! the twin of shared-store's `TrustedEnvironment` and the other fixtures' readers, accepting the same values and
//! refusing the rest with the same messages, which name the variable and never its value
//! (`vectors/rules/trusted-environment.json`). A refusal is meant for one stderr line and exit 2 (`BAD_CONFIGURATION`).

use std::fmt;

pub const SERVER_DB: &str = "WIRE_SERVER_DB";
/// A PostgreSQL ledger, which the bridge opens (with the user and password below); with it `WIRE_SERVER_DB` may be
/// absent. The fixture validates none of the four: the bridge does.
pub const LEDGER_URL: &str = "WIRE_LEDGER_URL";
pub const LEDGER_USER: &str = "WIRE_LEDGER_USER";
pub const LEDGER_PASSWORD_FILE: &str = "WIRE_LEDGER_PASSWORD_FILE";
pub const LEDGER_PASSWORD: &str = "WIRE_LEDGER_PASSWORD";
pub const BACKEND_ID: &str = "WIRE_BACKEND_ID";
pub const PRINCIPAL: &str = "WIRE_PRINCIPAL";
pub const CLOCK_EPOCH: &str = "WIRE_CLOCK_EPOCH";
pub const AUTHORITY_TTL: &str = "WIRE_AUTHORITY_TTL";
pub const REPLAY_RETENTION_TTL: &str = "WIRE_REPLAY_RETENTION_TTL";
pub const REQUEST_STATE_TTL: &str = "WIRE_REQUEST_STATE_TTL";
pub const STATE_KEY_HEX: &str = "WIRE_STATE_KEY_HEX";
pub const FINGERPRINT_KEY_HEX: &str = "WIRE_FINGERPRINT_KEY_HEX";
pub const FAULT: &str = "WIRE_FAULT";
pub const BEARER_TOKENS_FILE: &str = "WIRE_BEARER_TOKENS_FILE";
pub const HTTP_READ_TIMEOUT_MS: &str = "WIRE_HTTP_READ_TIMEOUT_MS";

/// The exit status of a bad configuration.
pub const BAD_CONFIGURATION: i32 = 2;

/// How long an HTTP client may take to send a whole request when `WIRE_HTTP_READ_TIMEOUT_MS` is unset.
pub const DEFAULT_HTTP_READ_TIMEOUT_MS: u64 = 10_000;

/// The shortest key accepted.
pub const MIN_KEY_BYTES: usize = 32;

const MAX_SAFE_INTEGER: u64 = 9_007_199_254_740_991;
/// The TypeScript fixture's bound on the read timeout, kept so every fixture accepts the same values.
const MAX_READ_TIMEOUT_MS: u64 = 2_147_483_647;

/// A lab fault. The three `ExitAfter…` are acted on by the bridge, which exits 71, 72 or 73 mid-apply;
/// `CloseAfterCommit` exists in HTTP mode only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Fault {
    DropAfterCommit,
    ExitAfterLedgerInsert,
    ExitAfterIssueInsert,
    ExitAfterPartialFirstCommit,
    CloseAfterCommit,
}

impl Fault {
    /// The stdio faults, in `LabFault`'s order (the order the refusal lists them in).
    pub const STDIO: [Fault; 4] = [
        Fault::DropAfterCommit,
        Fault::ExitAfterLedgerInsert,
        Fault::ExitAfterIssueInsert,
        Fault::ExitAfterPartialFirstCommit,
    ];
    /// The stdio faults and HTTP mode's own.
    pub const HTTP: [Fault; 5] = [
        Fault::DropAfterCommit,
        Fault::ExitAfterLedgerInsert,
        Fault::ExitAfterIssueInsert,
        Fault::ExitAfterPartialFirstCommit,
        Fault::CloseAfterCommit,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Fault::DropAfterCommit => "drop-after-commit",
            Fault::ExitAfterLedgerInsert => "exit-after-ledger-insert",
            Fault::ExitAfterIssueInsert => "exit-after-issue-insert",
            Fault::ExitAfterPartialFirstCommit => "exit-after-partial-first-commit",
            Fault::CloseAfterCommit => "close-after-commit",
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Key bytes. Neither `Debug` nor anything else here shows them.
#[derive(Clone, PartialEq, Eq)]
pub struct Key(Vec<u8>);

impl Key {
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }
}

impl fmt::Debug for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Key([redacted; {} bytes])", self.0.len())
    }
}

/// The trusted configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// The SQLite file; `None` only when `WIRE_LEDGER_URL` names a ledger and `WIRE_SERVER_DB` is unset or empty.
    pub database: Option<String>,
    pub backend_id: String,
    /// `None` in HTTP mode, where a request's principal comes from its bearer token.
    pub principal: Option<String>,
    pub clock_epoch: u64,
    pub authority_ttl: u64,
    pub replay_retention_ttl: u64,
    pub request_state_ttl: u64,
    pub state_key: Key,
    pub fingerprint_key: Key,
    pub fault: Option<Fault>,
}

/// HTTP mode's own configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Http {
    /// `None` only under the conformance profile without a file.
    pub tokens_file: Option<String>,
    pub read_timeout_ms: u64,
}

/// A refusal: names the variable, never its value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError(String);

impl ConfigError {
    pub fn message(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ConfigError {}

fn refuse(message: String) -> ConfigError {
    ConfigError(message)
}

/// This process's environment as a lookup. A value that is not UTF-8 reads with U+FFFD in place of the bad bytes,
/// which every number and key rule refuses as the Go fixture does.
pub fn os_env(name: &str) -> Option<String> {
    std::env::var_os(name).map(|v| v.to_string_lossy().into_owned())
}

/// Every stdio variable, in a fixed order; the first bad one is the error.
pub fn read(env: impl Fn(&str) -> Option<String>) -> Result<Config, ConfigError> {
    common(&env, true, &Fault::STDIO)
}

/// HTTP mode's variables in `read`'s order, without `WIRE_PRINCIPAL`, then `WIRE_BEARER_TOKENS_FILE` (optional
/// under the conformance profile, whose suite sends no token) and `WIRE_HTTP_READ_TIMEOUT_MS`.
pub fn read_http(
    env: impl Fn(&str) -> Option<String>,
    conformance: bool,
) -> Result<(Config, Http), ConfigError> {
    let config = common(&env, false, &Fault::HTTP)?;
    let tokens_file = match env(BEARER_TOKENS_FILE) {
        Some(v) if !v.is_empty() => Some(v),
        _ if conformance => None,
        _ => return Err(refuse(format!("{BEARER_TOKENS_FILE} is required"))),
    };
    let read_timeout_ms = read_timeout_ms(&env)?;
    Ok((
        config,
        Http {
            tokens_file,
            read_timeout_ms,
        },
    ))
}

fn common(
    env: &impl Fn(&str) -> Option<String>,
    with_principal: bool,
    faults: &[Fault],
) -> Result<Config, ConfigError> {
    // The fixture never opens the ledger itself; the bridge does, and validates the URL and its password.
    let database = if env(LEDGER_URL).is_some_and(|url| !url.is_empty()) {
        env(SERVER_DB).filter(|db| !db.is_empty())
    } else {
        Some(required(env, SERVER_DB)?)
    };
    let backend_id = required(env, BACKEND_ID)?;
    let principal = if with_principal {
        Some(required(env, PRINCIPAL)?)
    } else {
        None
    };
    Ok(Config {
        database,
        backend_id,
        principal,
        clock_epoch: clock(env)?,
        authority_ttl: positive_seconds(env, AUTHORITY_TTL)?,
        replay_retention_ttl: positive_seconds(env, REPLAY_RETENTION_TTL)?,
        request_state_ttl: positive_seconds(env, REQUEST_STATE_TTL)?,
        state_key: key_bytes(env, STATE_KEY_HEX)?,
        fingerprint_key: key_bytes(env, FINGERPRINT_KEY_HEX)?,
        fault: fault_of(env, faults)?,
    })
}

/// The variable's value; unset or empty is refused.
pub fn required(env: impl Fn(&str) -> Option<String>, name: &str) -> Result<String, ConfigError> {
    match env(name) {
        Some(v) if !v.is_empty() => Ok(v),
        _ => Err(refuse(format!("{name} is required"))),
    }
}

/// The injected clock: whole epoch seconds, not negative.
pub fn clock(env: impl Fn(&str) -> Option<String>) -> Result<u64, ConfigError> {
    let d = decimal(&env, CLOCK_EPOCH)?;
    if d.is_negative() {
        return Err(refuse(format!("{CLOCK_EPOCH} must not be negative")));
    }
    whole_units(CLOCK_EPOCH, &d, "seconds")
}

/// A TTL: whole seconds, positive.
pub fn positive_seconds(
    env: impl Fn(&str) -> Option<String>,
    name: &str,
) -> Result<u64, ConfigError> {
    positive(&env, name, "seconds")
}

fn positive(
    env: &impl Fn(&str) -> Option<String>,
    name: &str,
    unit: &str,
) -> Result<u64, ConfigError> {
    let d = decimal(env, name)?;
    if d.is_negative() || d.is_zero() {
        return Err(refuse(format!("{name} must be positive")));
    }
    whole_units(name, &d, unit)
}

fn read_timeout_ms(env: &impl Fn(&str) -> Option<String>) -> Result<u64, ConfigError> {
    if env(HTTP_READ_TIMEOUT_MS).is_none_or(|v| v.is_empty()) {
        return Ok(DEFAULT_HTTP_READ_TIMEOUT_MS);
    }
    let ms = positive(env, HTTP_READ_TIMEOUT_MS, "milliseconds")?;
    if ms > MAX_READ_TIMEOUT_MS {
        return Err(refuse(format!("{HTTP_READ_TIMEOUT_MS} is too large")));
    }
    Ok(ms)
}

/// An even-length hexadecimal key of at least 32 bytes, either case.
pub fn key_bytes(env: impl Fn(&str) -> Option<String>, name: &str) -> Result<Key, ConfigError> {
    let text = required(env, name)?;
    let not_hex = || refuse(format!("{name} must be hexadecimal"));
    if !text.bytes().all(|b| b.is_ascii_hexdigit()) || text.len() % 2 != 0 {
        return Err(not_hex());
    }
    let nibble = |b: u8| char::from(b).to_digit(16).map(|d| d as u8);
    let bytes = text
        .as_bytes()
        .chunks(2)
        .map(|pair| Some(nibble(pair[0])? << 4 | nibble(pair[1])?))
        .collect::<Option<Vec<u8>>>()
        .ok_or_else(not_hex)?;
    if bytes.len() < MIN_KEY_BYTES {
        return Err(refuse(format!(
            "{name} must contain at least {MIN_KEY_BYTES} bytes"
        )));
    }
    Ok(Key(bytes))
}

/// One of the stdio faults, or `None` for none (unset or empty).
pub fn fault_name(env: impl Fn(&str) -> Option<String>) -> Result<Option<Fault>, ConfigError> {
    fault_of(&env, &Fault::STDIO)
}

fn fault_of(
    env: &impl Fn(&str) -> Option<String>,
    faults: &[Fault],
) -> Result<Option<Fault>, ConfigError> {
    let Some(value) = env(FAULT).filter(|v| !v.is_empty()) else {
        return Ok(None);
    };
    if let Some(fault) = faults.iter().find(|f| f.name() == value) {
        return Ok(Some(*fault));
    }
    let choices: Vec<&str> = faults.iter().map(|f| f.name()).collect();
    Err(refuse(format!(
        "{FAULT} must be one of [{}]",
        choices.join(", ")
    )))
}

/// A number as `java.math.BigDecimal` reads it: value = ±magnitude × 10^-scale.
struct Decimal {
    negative: bool,
    /// Decimal digits without leading zeros; empty for zero.
    magnitude: String,
    /// Within Java's int range, as BigDecimal's scale is.
    scale: i64,
}

impl Decimal {
    fn is_zero(&self) -> bool {
        self.magnitude.is_empty()
    }

    fn is_negative(&self) -> bool {
        self.negative && !self.is_zero()
    }
}

const INT_MIN: i64 = i32::MIN as i64;
const INT_MAX: i64 = i32::MAX as i64;

fn decimal(env: &impl Fn(&str) -> Option<String>, name: &str) -> Result<Decimal, ConfigError> {
    let raw = required(env, name)?;
    let text = java_trim(&raw);
    let lower = simple_lowercase(text);
    if lower == "nan" || lower.contains("inf") {
        return Err(refuse(format!("{name} must be finite")));
    }
    parse_big_decimal(text).ok_or_else(|| refuse(format!("{name} must be numeric")))
}

/// `String.trim`: strips every code unit up to U+0020 at both ends, and nothing else.
fn java_trim(s: &str) -> &str {
    s.trim_matches(|c: char| c <= '\u{20}')
}

/// Lowercase one code point at a time by the simple mapping, as the Go fixture does; only whether the text reads
/// "nan" or holds "inf" matters, and the only code points whose simple lowercase is ASCII are ASCII letters,
/// U+0130 and U+212A.
fn simple_lowercase(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '\u{130}' => 'i',
            '\u{212a}' => 'k',
            _ => c.to_ascii_lowercase(),
        })
        .collect()
}

/// The zero of every run of ten decimal digits (Unicode category Nd) in the Basic Multilingual Plane.
const BMP_DIGIT_ZEROS: [u32; 37] = [
    0x0030, 0x0660, 0x06F0, 0x07C0, 0x0966, 0x09E6, 0x0A66, 0x0AE6, 0x0B66, 0x0BE6, 0x0C66, 0x0CE6,
    0x0D66, 0x0DE6, 0x0E50, 0x0ED0, 0x0F20, 0x1040, 0x1090, 0x17E0, 0x1810, 0x1946, 0x19D0, 0x1A80,
    0x1A90, 0x1B50, 0x1BB0, 0x1C40, 0x1C50, 0xA620, 0xA8D0, 0xA900, 0xA9D0, 0xA9F0, 0xAA50, 0xABF0,
    0xFF10,
];

/// `Character.digit(c, 10)` for one code point. Java reads UTF-16 code units one at a time, so a code point
/// outside the BMP (half of a surrogate pair to Java) is never a digit.
fn digit_value(c: char) -> Option<u8> {
    let code = u32::from(c);
    BMP_DIGIT_ZEROS
        .iter()
        .find(|&&zero| (zero..zero + 10).contains(&code))
        .map(|zero| (code - zero) as u8)
}

/// An optional sign, taken: whether it was '-'.
fn take_sign(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) -> bool {
    match chars.peek() {
        Some('-') => {
            chars.next();
            true
        }
        Some('+') => {
            chars.next();
            false
        }
        _ => false,
    }
}

/// `new BigDecimal(String)`: sign? digits with at most one '.', then (e|E) sign? digits.
fn parse_big_decimal(text: &str) -> Option<Decimal> {
    let mut chars = text.chars().peekable();
    let negative = take_sign(&mut chars);
    let mut digits = String::new();
    let mut fraction_digits: i64 = 0;
    let mut saw_point = false;
    let mut saw_exponent = false;
    for c in chars.by_ref() {
        match c {
            '.' if saw_point => return None,
            '.' => saw_point = true,
            'e' | 'E' => {
                saw_exponent = true;
                break;
            }
            _ => {
                digits.push(char::from(b'0' + digit_value(c)?));
                if saw_point {
                    fraction_digits += 1;
                }
            }
        }
    }
    if digits.is_empty() {
        return None;
    }
    let mut exponent: i64 = 0;
    if saw_exponent {
        let exponent_negative = take_sign(&mut chars);
        let mut exponent_digits = String::new();
        for c in chars {
            exponent_digits.push(char::from(b'0' + digit_value(c)?));
        }
        if exponent_digits.is_empty() {
            return None;
        }
        let significant = exponent_digits.trim_start_matches('0');
        // more than ten digits is outside Java's int range whatever they are
        if significant.len() > 10 {
            return None;
        }
        let magnitude: i64 = if significant.is_empty() {
            0
        } else {
            significant.parse().ok()?
        };
        exponent = if exponent_negative {
            -magnitude
        } else {
            magnitude
        };
        if !(INT_MIN..=INT_MAX).contains(&exponent) {
            return None;
        }
    }
    let scale = fraction_digits - exponent;
    if !(INT_MIN..=INT_MAX).contains(&scale) {
        return None;
    }
    Some(Decimal {
        negative,
        magnitude: digits.trim_start_matches('0').to_owned(),
        scale,
    })
}

/// Whole units only, within the safe-integer range (state times are bound into canonical JSON). The callers have
/// refused negative values already.
fn whole_units(name: &str, d: &Decimal, unit: &str) -> Result<u64, ConfigError> {
    if d.is_zero() {
        return Ok(0);
    }
    let text = &d.magnitude;
    let trailing_zeros = (text.len() - text.trim_end_matches('0').len()) as i64;
    if d.scale > trailing_zeros {
        return Err(refuse(format!("{name} must be a whole number of {unit}")));
    }
    let too_large = || refuse(format!("{name} is too large"));
    // 2^53-1 has 16 digits: more digits after scaling is too large, decided without computing 10^-scale.
    if text.len() as i64 - d.scale > 16 {
        return Err(too_large());
    }
    let whole_digits = if d.scale >= 0 {
        text[..text.len() - d.scale as usize].to_owned()
    } else {
        format!("{text}{}", "0".repeat(d.scale.unsigned_abs() as usize))
    };
    let whole: u64 = whole_digits.parse().map_err(|_| too_large())?;
    if whole > MAX_SAFE_INTEGER {
        return Err(too_large());
    }
    Ok(whole)
}
