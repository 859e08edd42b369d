use std::fmt::{self, Write};

use super::Error;
use super::canonical::{ValueError, ValueProblem};
use super::path::{Segment, spell};
use super::value::{InexactKind, InexactNumber, MAX_SAFE_INTEGER, Object, Value};

/// The deepest JSON text the parser reads; deeper than the canonical limit, so that one names the path.
pub const MAX_PARSE_DEPTH: usize = 1100;
pub const MAX_NUMBER_LITERAL_LENGTH: usize = 1000;

/// Text that is not one JSON value. The wording is this parser's own, as the Go fixture's; the other languages word
/// syntax errors their own way, and only the rejection must agree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SyntaxError {
    /// `offset` counts bytes.
    At {
        offset: usize,
        problem: SyntaxProblem,
    },
    /// From [`classify_number_literal`] given a literal outside the JSON grammar.
    MalformedNumber { literal: String },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SyntaxProblem {
    UnexpectedEnd,
    ContentAfterValue,
    UnexpectedCharacter(char),
    /// The literal (`true`, `false` or `null`) its first letter started.
    Expected(&'static str),
    MalformedNumber,
    NumberTooLong,
    UnterminatedString,
    UnescapedControl,
    InvalidUtf8,
    InvalidUnicodeEscape,
    InvalidEscape,
    TooDeep,
    ExpectedArrayDelimiter,
    ExpectedObjectDelimiter,
    ExpectedKey,
    ExpectedColon,
}

impl fmt::Display for SyntaxProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SyntaxProblem::UnexpectedEnd => f.write_str("unexpected end of input"),
            SyntaxProblem::ContentAfterValue => {
                f.write_str("unexpected content after the JSON value")
            }
            SyntaxProblem::UnexpectedCharacter(c) => {
                write!(f, "unexpected character {}", GoQuoted(*c))
            }
            SyntaxProblem::Expected(word) => write!(f, "expected {word}"),
            SyntaxProblem::MalformedNumber => f.write_str("malformed number"),
            SyntaxProblem::NumberTooLong => {
                write!(
                    f,
                    "number literal longer than {MAX_NUMBER_LITERAL_LENGTH} characters"
                )
            }
            SyntaxProblem::UnterminatedString => f.write_str("unterminated string"),
            SyntaxProblem::UnescapedControl => f.write_str("unescaped control character in string"),
            SyntaxProblem::InvalidUtf8 => f.write_str("invalid UTF-8"),
            SyntaxProblem::InvalidUnicodeEscape => f.write_str("invalid \\u escape"),
            SyntaxProblem::InvalidEscape => f.write_str("invalid escape"),
            SyntaxProblem::TooDeep => write!(f, "nesting deeper than {MAX_PARSE_DEPTH} levels"),
            SyntaxProblem::ExpectedArrayDelimiter => f.write_str("expected , or ] in array"),
            SyntaxProblem::ExpectedObjectDelimiter => f.write_str("expected , or } in object"),
            SyntaxProblem::ExpectedKey => f.write_str("expected a string key"),
            SyntaxProblem::ExpectedColon => f.write_str("expected : after key"),
        }
    }
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SyntaxError::At { offset, problem } => {
                write!(f, "invalid JSON at offset {offset}: {problem}")
            }
            SyntaxError::MalformedNumber { literal } => {
                write!(f, "invalid JSON: malformed number {literal}")
            }
        }
    }
}

impl std::error::Error for SyntaxError {}

/// A character quoted as Go's `%q` quotes a rune, so that this parser words an unexpected character as the Go
/// fixture does: printable characters raw, others escaped (a byte order mark is `'\ufeff'`).
struct GoQuoted(char);

impl fmt::Display for GoQuoted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = self.0;
        f.write_char('\'')?;
        match c {
            '\'' | '\\' => write!(f, "\\{c}")?,
            '\x07' => f.write_str("\\a")?,
            '\x08' => f.write_str("\\b")?,
            '\x0c' => f.write_str("\\f")?,
            '\n' => f.write_str("\\n")?,
            '\r' => f.write_str("\\r")?,
            '\t' => f.write_str("\\t")?,
            '\x0b' => f.write_str("\\v")?,
            '\0'..='\x1f' | '\x7f' => write!(f, "\\x{:02x}", u32::from(c))?,
            ' '..='~' => f.write_char(c)?,
            _ if is_printable(c) => f.write_char(c)?,
            _ if u32::from(c) < 0x10000 => write!(f, "\\u{:04x}", u32::from(c))?,
            _ => write!(f, "\\U{:08x}", u32::from(c))?,
        }
        f.write_char('\'')
    }
}

/// Go's `unicode.IsPrint` for a non-ASCII character: letters, marks, numbers, punctuation and symbols. Rust's
/// `escape_debug` escapes exactly the other categories (separators, controls, format, private use, unassigned), and
/// a combining mark too when it starts a string, hence the leading letter.
fn is_printable(c: char) -> bool {
    let mut probe = String::from("a");
    probe.push(c);
    probe.escape_debug().eq(probe.chars())
}

/// Parses one JSON text (RFC 8259, no byte order mark, surrounding whitespace allowed). Numbers are never rounded:
/// each is a safe integer or an [`InexactNumber`]; a string with an unpaired surrogate is a
/// [`Value::IllFormedString`]; an object key with one is refused at once (the object's path), as Jackson does.
pub fn parse_exact(text: &[u8]) -> Result<Value, Error> {
    let mut parser = Parser { text, pos: 0 };
    parser.skip_whitespace();
    let value = parser.value()?;
    parser.skip_whitespace();
    if parser.pos != text.len() {
        return Err(parser.fail(SyntaxProblem::ContentAfterValue).into());
    }
    Ok(value)
}

/// Decides from a number literal's digits whether it is exactly a safe integer: [`Value::Integer`] if so (every
/// spelling of zero, `-0` included, is 0), else [`Value::Inexact`].
pub fn classify_number_literal(literal: &str) -> Result<Value, SyntaxError> {
    let malformed = || SyntaxError::MalformedNumber {
        literal: literal.to_owned(),
    };
    let (negative, unsigned) = match literal.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, literal),
    };
    let (int_part, rest) =
        unsigned.split_at(unsigned.find(['.', 'e', 'E']).unwrap_or(unsigned.len()));
    let (fraction, rest) = match rest.strip_prefix('.') {
        Some(after) => after.split_at(after.find(['e', 'E']).unwrap_or(after.len())),
        None => ("", rest),
    };
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if int_part.is_empty()
        || !all_digits(int_part)
        || (unsigned.contains('.') && fraction.is_empty())
        || !all_digits(fraction)
    {
        return Err(malformed());
    }
    let exponent = match rest.get(1..) {
        None => 0,
        Some(text) => exponent_value(text).ok_or_else(malformed)?,
    };

    let significant: Vec<u8> = int_part
        .bytes()
        .chain(fraction.bytes())
        .skip_while(|&b| b == b'0')
        .collect();
    if significant.is_empty() {
        return Ok(Value::Integer(0));
    }
    let trailing_zeros = significant.iter().rev().take_while(|&&b| b == b'0').count();
    let significant = &significant[..significant.len() - trailing_zeros];
    let exponent = exponent - i64::try_from(fraction.len()).unwrap_or(i64::MAX)
        + i64::try_from(trailing_zeros).unwrap_or(i64::MAX);
    let inexact = |kind| {
        Ok(Value::Inexact(InexactNumber {
            literal: literal.to_owned(),
            kind,
        }))
    };
    if exponent < 0 {
        return inexact(InexactKind::Fraction);
    }
    let length = i64::try_from(significant.len()).unwrap_or(i64::MAX);
    if length.saturating_add(exponent) > 16 {
        return inexact(InexactKind::OutsideSafeRange);
    }
    // At most 16 digits, so below 10^16 and far from overflowing.
    let mut magnitude = significant
        .iter()
        .fold(0i64, |n, &d| n * 10 + i64::from(d - b'0'));
    for _ in 0..exponent {
        magnitude *= 10;
    }
    if magnitude > MAX_SAFE_INTEGER {
        return inexact(InexactKind::OutsideSafeRange);
    }
    Ok(Value::Integer(if negative {
        -magnitude
    } else {
        magnitude
    }))
}

/// An exponent's value, `[+-]?[0-9]+`. Past ±10^15 it saturates: no literal has enough fraction digits for that
/// to change the sign of the adjusted exponent or its comparison with 16.
fn exponent_value(text: &str) -> Option<i64> {
    let (negative, digits) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let magnitude = digits.bytes().fold(0i64, |n, d| {
        (n * 10 + i64::from(d - b'0')).min(1_000_000_000_000_000)
    });
    Some(if negative { -magnitude } else { magnitude })
}

/// A parsed JSON string: Unicode text, or UTF-16 code units holding an unpaired surrogate.
enum Unescaped {
    Text(String),
    Units(Vec<u16>),
}

impl Unescaped {
    fn push_str(&mut self, s: &str) {
        match self {
            Unescaped::Text(text) => text.push_str(s),
            Unescaped::Units(units) => units.extend(s.encode_utf16()),
        }
    }

    fn push_char(&mut self, c: char) {
        match self {
            Unescaped::Text(text) => text.push(c),
            Unescaped::Units(units) => units.extend(c.encode_utf16(&mut [0; 2]).iter()),
        }
    }

    fn push_lone_surrogate(&mut self, unit: u16) {
        if let Unescaped::Text(text) = self {
            *self = Unescaped::Units(text.encode_utf16().collect());
        }
        if let Unescaped::Units(units) = self {
            units.push(unit);
        }
    }
}

struct StringBuilder {
    out: Unescaped,
    /// A high surrogate escape just read, paired only with a low surrogate escape right after it.
    pending_high: Option<u16>,
}

impl StringBuilder {
    fn settle(&mut self) {
        if let Some(high) = self.pending_high.take() {
            self.out.push_lone_surrogate(high);
        }
    }

    fn push_str(&mut self, s: &str) {
        if !s.is_empty() {
            self.settle();
            self.out.push_str(s);
        }
    }

    fn push_char(&mut self, c: char) {
        self.settle();
        self.out.push_char(c);
    }

    fn push_unit(&mut self, unit: u16) {
        match (self.pending_high.take(), unit) {
            (Some(high), 0xdc00..=0xdfff) => {
                let code =
                    0x10000 + ((u32::from(high) - 0xd800) << 10) + (u32::from(unit) - 0xdc00);
                self.out
                    .push_char(char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER));
            }
            (high, _) => {
                self.pending_high = high;
                self.settle();
                match unit {
                    0xd800..=0xdbff => self.pending_high = Some(unit),
                    _ => match char::from_u32(u32::from(unit)) {
                        Some(c) => self.out.push_char(c),
                        None => self.out.push_lone_surrogate(unit),
                    },
                }
            }
        }
    }

    fn finish(mut self) -> Unescaped {
        self.settle();
        self.out
    }
}

struct Parser<'a> {
    text: &'a [u8],
    pos: usize,
}

impl<'a> Parser<'a> {
    fn fail(&self, problem: SyntaxProblem) -> SyntaxError {
        SyntaxError::At {
            offset: self.pos,
            problem,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.text.get(self.pos).copied()
    }

    fn skip_whitespace(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.pos += 1;
        }
    }

    /// One JSON value. Open containers are kept on a stack of their own, not the call stack: 1,100 levels of
    /// recursion need megabytes of stack in a debug build, more than a worker thread has.
    fn value(&mut self) -> Result<Value, Error> {
        let mut open: Vec<Open> = Vec::new();
        loop {
            let mut value = match self.peek() {
                None => return Err(self.fail(SyntaxProblem::UnexpectedEnd).into()),
                Some(b'[') => {
                    self.enter(open.len() + 1)?;
                    if self.peek() == Some(b']') {
                        self.pos += 1;
                        Value::Array(Vec::new())
                    } else {
                        open.push(Open::Array(Vec::new()));
                        continue;
                    }
                }
                Some(b'{') => {
                    self.enter(open.len() + 1)?;
                    if self.peek() == Some(b'}') {
                        self.pos += 1;
                        Value::Object(Object::new())
                    } else {
                        let key = self.key(&open)?;
                        open.push(Open::Object(Object::new(), key));
                        continue;
                    }
                }
                Some(b'"') => match self.string()? {
                    Unescaped::Text(text) => Value::String(text),
                    Unescaped::Units(units) => Value::IllFormedString(units),
                },
                Some(b't') => self.literal("true", Value::Bool(true))?,
                Some(b'f') => self.literal("false", Value::Bool(false))?,
                Some(b'n') => self.literal("null", Value::Null)?,
                Some(b'-' | b'0'..=b'9') => self.number()?,
                Some(_) => {
                    // The whole character, not its first byte: a byte order mark is named '\ufeff', not 'ï'.
                    let c = first_char(&self.text[self.pos..])
                        .map_or(char::REPLACEMENT_CHARACTER, |(c, _)| c);
                    return Err(self.fail(SyntaxProblem::UnexpectedCharacter(c)).into());
                }
            };
            // The value is complete: it goes into the innermost open container, which may close in turn.
            loop {
                self.skip_whitespace();
                let Some(container) = open.pop() else {
                    return Ok(value);
                };
                let (container, close, problem) = match container {
                    Open::Array(mut items) => {
                        items.push(value);
                        (
                            Open::Array(items),
                            b']',
                            SyntaxProblem::ExpectedArrayDelimiter,
                        )
                    }
                    Open::Object(mut members, key) => {
                        members.insert(key, value); // a later duplicate replaces an earlier one
                        (
                            Open::Object(members, String::new()),
                            b'}',
                            SyntaxProblem::ExpectedObjectDelimiter,
                        )
                    }
                };
                match self.peek() {
                    Some(b',') => {
                        self.pos += 1;
                        self.skip_whitespace();
                        open.push(match container {
                            Open::Object(members, _) => Open::Object(members, self.key(&open)?),
                            array => array,
                        });
                        break;
                    }
                    Some(c) if c == close => {
                        self.pos += 1;
                        value = match container {
                            Open::Array(items) => Value::Array(items),
                            Open::Object(members, _) => Value::Object(members),
                        };
                    }
                    _ => return Err(self.fail(problem).into()),
                }
            }
        }
    }

    /// A member's key and its colon. `open` holds the containers around the object, which a key with an unpaired
    /// surrogate names: the key itself is not known, as Jackson does not know it.
    fn key(&mut self, open: &[Open]) -> Result<String, Error> {
        if self.peek() != Some(b'"') {
            return Err(self.fail(SyntaxProblem::ExpectedKey).into());
        }
        let Unescaped::Text(key) = self.string()? else {
            let path = spell("$", open.iter().map(Open::segment));
            return Err(ValueError {
                path,
                problem: ValueProblem::UnpairedSurrogateInKey,
            }
            .into());
        };
        self.skip_whitespace();
        if self.peek() != Some(b':') {
            return Err(self.fail(SyntaxProblem::ExpectedColon).into());
        }
        self.pos += 1;
        self.skip_whitespace();
        Ok(key)
    }

    fn literal(&mut self, word: &'static str, value: Value) -> Result<Value, SyntaxError> {
        if !self.text[self.pos..].starts_with(word.as_bytes()) {
            return Err(self.fail(SyntaxProblem::Expected(word)));
        }
        self.pos += word.len();
        Ok(value)
    }

    /// Scans `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`; a `.` or exponent without digits is left unread.
    fn number(&mut self) -> Result<Value, SyntaxError> {
        let t = self.text;
        let digits_from = |mut i: usize| {
            while t.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            i
        };
        let mut i = self.pos;
        if t.get(i) == Some(&b'-') {
            i += 1;
        }
        if t.get(i) == Some(&b'0') {
            i += 1;
        } else {
            let end = digits_from(i);
            if end == i {
                return Err(self.fail(SyntaxProblem::MalformedNumber));
            }
            i = end;
        }
        if t.get(i) == Some(&b'.') {
            let end = digits_from(i + 1);
            if end > i + 1 {
                i = end;
            }
        }
        if let Some(b'e' | b'E') = t.get(i) {
            let mut j = i + 1;
            if let Some(b'+' | b'-') = t.get(j) {
                j += 1;
            }
            let end = digits_from(j);
            if end > j {
                i = end;
            }
        }
        if i - self.pos > MAX_NUMBER_LITERAL_LENGTH {
            return Err(self.fail(SyntaxProblem::NumberTooLong));
        }
        let literal = std::str::from_utf8(&t[self.pos..i])
            .map_err(|_| self.fail(SyntaxProblem::MalformedNumber))?;
        self.pos = i;
        classify_number_literal(literal)
    }

    /// The raw text from `start` to here, which must be UTF-8: a bad byte is named where it starts.
    fn run(&self, start: usize) -> Result<&'a str, SyntaxError> {
        std::str::from_utf8(&self.text[start..self.pos]).map_err(|e| SyntaxError::At {
            offset: start + e.valid_up_to(),
            problem: SyntaxProblem::InvalidUtf8,
        })
    }

    fn string(&mut self) -> Result<Unescaped, SyntaxError> {
        self.pos += 1;
        let mut builder = StringBuilder {
            out: Unescaped::Text(String::new()),
            pending_high: None,
        };
        let mut run_start = self.pos;
        loop {
            let Some(c) = self.peek() else {
                self.run(run_start)?;
                return Err(self.fail(SyntaxProblem::UnterminatedString));
            };
            match c {
                b'"' => {
                    builder.push_str(self.run(run_start)?);
                    self.pos += 1;
                    return Ok(builder.finish());
                }
                b'\\' => {
                    builder.push_str(self.run(run_start)?);
                    self.escape(&mut builder)?;
                    run_start = self.pos;
                }
                0x00..=0x1f => {
                    self.run(run_start)?;
                    return Err(self.fail(SyntaxProblem::UnescapedControl));
                }
                _ => self.pos += 1,
            }
        }
    }

    fn escape(&mut self, builder: &mut StringBuilder) -> Result<(), SyntaxError> {
        let Some(&e) = self.text.get(self.pos + 1) else {
            return Err(self.fail(SyntaxProblem::UnterminatedString));
        };
        let c = match e {
            b'"' | b'\\' | b'/' => char::from(e),
            b'b' => '\x08',
            b'f' => '\x0c',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let unit = self
                    .text
                    .get(self.pos + 2..self.pos + 6)
                    .and_then(hex_unit)
                    .ok_or_else(|| self.fail(SyntaxProblem::InvalidUnicodeEscape))?;
                builder.push_unit(unit);
                self.pos += 6;
                return Ok(());
            }
            _ => return Err(self.fail(SyntaxProblem::InvalidEscape)),
        };
        builder.push_char(c);
        self.pos += 2;
        Ok(())
    }

    fn enter(&mut self, depth: usize) -> Result<(), SyntaxError> {
        if depth > MAX_PARSE_DEPTH {
            return Err(self.fail(SyntaxProblem::TooDeep));
        }
        self.pos += 1;
        self.skip_whitespace();
        Ok(())
    }
}

/// A container being read.
enum Open {
    Array(Vec<Value>),
    /// The members so far and the key whose value is being read.
    Object(Object, String),
}

impl Open {
    fn segment(&self) -> Segment<'_> {
        match self {
            Open::Array(items) => Segment::Item(items.len()),
            Open::Object(_, key) => Segment::Member(key),
        }
    }
}

fn hex_unit(digits: &[u8]) -> Option<u16> {
    digits.iter().try_fold(0u16, |unit, &d| {
        Some(unit << 4 | u16::try_from(char::from(d).to_digit(16)?).ok()?)
    })
}

/// The first UTF-8 character of `bytes` and its length, or `None` if they do not start with one.
fn first_char(bytes: &[u8]) -> Option<(char, usize)> {
    let head = &bytes[..bytes.len().min(4)];
    let valid = match std::str::from_utf8(head) {
        Ok(s) => s,
        Err(e) => std::str::from_utf8(&head[..e.valid_up_to()]).ok()?,
    };
    valid.chars().next().map(|c| (c, c.len_utf8()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn syntax_message(text: &[u8]) -> String {
        match parse_exact(text) {
            Err(Error::Syntax(e)) => e.to_string(),
            other => panic!("{text:?}: {other:?}"),
        }
    }

    #[test]
    fn characters_are_quoted_as_go_quotes_a_rune() {
        for (c, want) in [
            ('.', "'.'"),
            ('é', "'é'"),
            ('\u{feff}', "'\\ufeff'"),
            ('\'', "'\\''"),
            ('\\', "'\\\\'"),
            ('"', "'\"'"),
            ('\x0b', "'\\v'"),
            ('\x01', "'\\x01'"),
            ('\x7f', "'\\x7f'"),
            ('\u{85}', "'\\u0085'"),
            ('\u{a0}', "'\\u00a0'"),
            ('\u{2028}', "'\\u2028'"),
            ('\u{e000}', "'\\ue000'"),
            ('\u{301}', "'\u{301}'"),
            ('😀', "'😀'"),
            ('\u{e0001}', "'\\U000e0001'"),
            (char::REPLACEMENT_CHARACTER, "'\u{fffd}'"),
        ] {
            assert_eq!(GoQuoted(c).to_string(), want, "{c:?}");
        }
    }

    #[test]
    fn syntax_errors_name_the_byte_offset() {
        for (text, want) in [
            (
                &b""[..],
                "invalid JSON at offset 0: unexpected end of input",
            ),
            (b"[1,", "invalid JSON at offset 3: unexpected end of input"),
            (
                b"01",
                "invalid JSON at offset 1: unexpected content after the JSON value",
            ),
            (
                b"1.",
                "invalid JSON at offset 1: unexpected content after the JSON value",
            ),
            (b"-", "invalid JSON at offset 0: malformed number"),
            (b"tru", "invalid JSON at offset 0: expected true"),
            (
                b"[1 2]",
                "invalid JSON at offset 3: expected , or ] in array",
            ),
            (
                b"{\"a\" 1}",
                "invalid JSON at offset 5: expected : after key",
            ),
            (
                b"{\"a\":1,}",
                "invalid JSON at offset 7: expected a string key",
            ),
            (
                b"{\"a\":1 x",
                "invalid JSON at offset 7: expected , or } in object",
            ),
            (b"\"ab", "invalid JSON at offset 3: unterminated string"),
            (b"\"a\\", "invalid JSON at offset 2: unterminated string"),
            (
                b"\"a\x01\"",
                "invalid JSON at offset 2: unescaped control character in string",
            ),
            (
                b"\"\xc3\xa9\xff\x01\"",
                "invalid JSON at offset 3: invalid UTF-8",
            ),
            (b"\"\xe2\x82\"", "invalid JSON at offset 1: invalid UTF-8"),
            (b"\"\xe2", "invalid JSON at offset 1: invalid UTF-8"),
            (
                b"\"\xed\xa0\x80\"",
                "invalid JSON at offset 1: invalid UTF-8",
            ),
            (b"\"\\x\"", "invalid JSON at offset 1: invalid escape"),
            (b"\"\\u12\"", "invalid JSON at offset 1: invalid \\u escape"),
            (
                b"\"\\u12g4\"",
                "invalid JSON at offset 1: invalid \\u escape",
            ),
            (
                b"\xff",
                "invalid JSON at offset 0: unexpected character '\u{fffd}'",
            ),
        ] {
            assert_eq!(syntax_message(text), want, "{text:?}");
        }
        let long = format!("[{}]", "9".repeat(MAX_NUMBER_LITERAL_LENGTH + 1));
        assert_eq!(
            syntax_message(long.as_bytes()),
            "invalid JSON at offset 1: number literal longer than 1000 characters"
        );
        let deep = "[".repeat(MAX_PARSE_DEPTH + 1);
        assert_eq!(
            syntax_message(deep.as_bytes()),
            "invalid JSON at offset 1100: nesting deeper than 1100 levels"
        );
    }

    #[test]
    fn number_literals_are_classified_from_their_digits() {
        let integer = |n| Ok(Value::Integer(n));
        let inexact = |literal: &str, kind| {
            Ok(Value::Inexact(InexactNumber {
                literal: literal.to_owned(),
                kind,
            }))
        };
        use InexactKind::{Fraction, OutsideSafeRange};
        for (literal, want) in [
            ("0", integer(0)),
            ("-0", integer(0)),
            ("-0.0e5", integer(0)),
            ("0e-400", integer(0)),
            ("1.0", integer(1)),
            ("1e2", integer(100)),
            ("12.50e1", integer(125)),
            ("0.1e1", integer(1)),
            ("900719925474099.1e1", integer(9_007_199_254_740_991)),
            ("-9007199254740991", integer(-9_007_199_254_740_991)),
            ("1.5", inexact("1.5", Fraction)),
            ("1e-1", inexact("1e-1", Fraction)),
            (
                "1.0000000000000000001",
                inexact("1.0000000000000000001", Fraction),
            ),
            (
                "9007199254740992",
                inexact("9007199254740992", OutsideSafeRange),
            ),
            (
                "-9007199254740992",
                inexact("-9007199254740992", OutsideSafeRange),
            ),
            ("1e400", inexact("1e400", OutsideSafeRange)),
            (
                "1e99999999999999999999999",
                inexact("1e99999999999999999999999", OutsideSafeRange),
            ),
            (
                "1e-99999999999999999999999",
                inexact("1e-99999999999999999999999", Fraction),
            ),
            ("10000000000000000e-1", integer(1_000_000_000_000_000)),
            ("90071992547409910e-1", integer(9_007_199_254_740_991)),
            (
                "90071992547409920e-1",
                inexact("90071992547409920e-1", OutsideSafeRange),
            ),
            (
                "0.00000000000000000009007199254740991e35",
                integer(9_007_199_254_740_991),
            ),
        ] {
            assert_eq!(classify_number_literal(literal), want, "{literal}");
        }
        for literal in ["", "-", "1.", ".5", "1e", "1e+", "a", "1.2.3", "1e5.3"] {
            assert_eq!(
                classify_number_literal(literal),
                Err(SyntaxError::MalformedNumber {
                    literal: literal.to_owned()
                }),
                "{literal}"
            );
        }
        assert_eq!(
            classify_number_literal("1e+").unwrap_err().to_string(),
            "invalid JSON: malformed number 1e+"
        );
    }

    #[test]
    fn escapes_pair_surrogates_only_when_adjacent() {
        let parsed = |text: &str| parse_exact(text.as_bytes()).unwrap();
        assert_eq!(parsed(r#""\ud83d\ude00""#), Value::from("😀"));
        assert_eq!(
            parsed(r#""a\ud83dx""#),
            Value::IllFormedString(vec![0x61, 0xd83d, 0x78])
        );
        assert_eq!(
            parsed(r#""\ud800\ud83d\ude00""#),
            Value::IllFormedString(vec![0xd800, 0xd83d, 0xde00])
        );
        assert_eq!(
            parsed(r#""\ude00\ud83d""#),
            Value::IllFormedString(vec![0xde00, 0xd83d])
        );
        assert_eq!(
            parsed(r#""\ud800\n\udc00""#),
            Value::IllFormedString(vec![0xd800, 0x0a, 0xdc00])
        );
        assert_eq!(parsed(r#""\u00e9\/""#), Value::from("é/"));
    }
}
