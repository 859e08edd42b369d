use std::fmt::{self, Write};

use super::path::{Segment, spell};
use super::value::{InexactKind, MAX_SAFE_INTEGER, Object, Value};

/// The deepest canonical value; the parser allows more so that this limit, not a syntax error, names the path.
pub const MAX_CANONICAL_DEPTH: usize = 1000;

/// A value that no fingerprint can bind: `<path>: <problem>`, the same text in every language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueError {
    /// `$`, `.key` for members and `[i]` for items, a key's control characters shown as `\uXXXX`.
    pub path: String,
    pub problem: ValueProblem,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueProblem {
    NotAnInteger,
    OutsideSafeRange,
    UnpairedSurrogate,
    /// Found while parsing, before the key is known, so the path is the object's.
    UnpairedSurrogateInKey,
    TooDeep,
}

impl fmt::Display for ValueProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ValueProblem::NotAnInteger => {
                f.write_str("number must be an integer in the interoperable safe range")
            }
            ValueProblem::OutsideSafeRange => {
                f.write_str("integer is outside the interoperable safe range")
            }
            ValueProblem::UnpairedSurrogate => {
                f.write_str("unpaired UTF-16 surrogate is not valid Unicode")
            }
            ValueProblem::UnpairedSurrogateInKey => {
                f.write_str("object key with an unpaired UTF-16 surrogate is not valid Unicode")
            }
            ValueProblem::TooDeep => write!(f, "nesting deeper than {MAX_CANONICAL_DEPTH} levels"),
        }
    }
}

impl fmt::Display for ValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.problem)
    }
}

impl std::error::Error for ValueError {}

/// A refusal before its path is spelt: the caller knows the base path.
#[derive(Debug)]
pub(crate) struct Refusal {
    /// The path below the base.
    below: String,
    problem: ValueProblem,
}

impl Refusal {
    pub(crate) fn at(self, base: &str) -> ValueError {
        ValueError {
            path: format!("{base}{}", self.below),
            problem: self.problem,
        }
    }
}

/// The canonical JSON text of `value` (seed spec §2.3). The first problem in canonical order is reported.
pub fn canonical(value: &Value) -> Result<String, ValueError> {
    let mut out = String::new();
    write_value(&mut out, value, 0).map_err(|r| r.at("$"))?;
    Ok(out)
}

/// Appends `s` as a JSON string with only the contract's escapes: `\" \\ \b \f \n \r \t`, lowercase `\u00xx` for
/// the other C0 controls, everything else raw.
pub fn push_quoted(out: &mut String, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push('"');
    let mut start = 0;
    for (i, b) in s.bytes().enumerate() {
        let escape = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            0x08 => "\\b",
            0x0c => "\\f",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x00..=0x1f => "",
            _ => continue,
        };
        // i is an ASCII byte, so a character boundary.
        out.push_str(&s[start..i]);
        if escape.is_empty() {
            out.push_str("\\u00");
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 0xf)]));
        } else {
            out.push_str(escape);
        }
        start = i + 1;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

/// Appends the canonical text of `value`, found `depth` containers below the value being canonicalised.
pub(crate) fn write_value(out: &mut String, value: &Value, depth: usize) -> Result<(), Refusal> {
    Writer {
        out,
        depth,
        open: Vec::new(),
    }
    .write_from(value)
}

/// [`write_value`] of an object held outside a [`Value`].
pub(crate) fn write_object(
    out: &mut String,
    members: &Object,
    depth: usize,
) -> Result<(), Refusal> {
    let mut writer = Writer {
        out,
        depth,
        open: Vec::new(),
    };
    writer.open_object(members)?;
    match writer.next_value() {
        Some(value) => writer.write_from(value),
        None => Ok(()),
    }
}

/// Writes a value's text in one pass. Open containers are kept on a stack of their own, not the call stack: 1,000
/// levels of recursion need megabytes of stack in a debug build, more than a worker thread has.
struct Writer<'o, 'v> {
    out: &'o mut String,
    /// How many containers are above the value being written, outside this writer.
    depth: usize,
    open: Vec<Open<'v>>,
}

/// A container being written, with the position of the member or item being written.
enum Open<'v> {
    Array {
        items: std::slice::Iter<'v, Value>,
        index: Option<usize>,
    },
    Object {
        members: std::collections::btree_map::Iter<'v, String, Value>,
        key: Option<&'v str>,
    },
}

impl<'v> Writer<'_, 'v> {
    fn write_from(&mut self, first: &'v Value) -> Result<(), Refusal> {
        let mut value = first;
        loop {
            self.write_one(value)?;
            match self.next_value() {
                Some(next) => value = next,
                None => return Ok(()),
            }
        }
    }

    /// A scalar's text, or the start of a container (its contents come from [`Writer::next_value`]).
    fn write_one(&mut self, value: &'v Value) -> Result<(), Refusal> {
        match value {
            Value::Null => self.out.push_str("null"),
            Value::Bool(b) => self.out.push_str(if *b { "true" } else { "false" }),
            Value::Integer(n) => {
                if n.unsigned_abs() > MAX_SAFE_INTEGER.unsigned_abs() {
                    return Err(self.refuse(ValueProblem::OutsideSafeRange));
                }
                let _ = write!(self.out, "{n}");
            }
            Value::Inexact(number) => {
                return Err(self.refuse(match number.kind {
                    InexactKind::Fraction => ValueProblem::NotAnInteger,
                    InexactKind::OutsideSafeRange => ValueProblem::OutsideSafeRange,
                }));
            }
            Value::String(s) => push_quoted(self.out, s),
            Value::IllFormedString(units) => match String::from_utf16(units) {
                Ok(s) => push_quoted(self.out, &s),
                Err(_) => return Err(self.refuse(ValueProblem::UnpairedSurrogate)),
            },
            Value::Array(items) => {
                self.enter()?;
                self.out.push('[');
                self.open.push(Open::Array {
                    items: items.iter(),
                    index: None,
                });
            }
            Value::Object(members) => self.open_object(members)?,
        }
        Ok(())
    }

    fn open_object(&mut self, members: &'v Object) -> Result<(), Refusal> {
        self.enter()?;
        self.out.push('{');
        self.open.push(Open::Object {
            members: members.iter(),
            key: None,
        });
        Ok(())
    }

    fn enter(&self) -> Result<(), Refusal> {
        if self.depth + self.open.len() + 1 > MAX_CANONICAL_DEPTH {
            return Err(self.refuse(ValueProblem::TooDeep));
        }
        Ok(())
    }

    /// The next member or item to write, after closing the containers that are done.
    fn next_value(&mut self) -> Option<&'v Value> {
        while let Some(open) = self.open.last_mut() {
            match open {
                Open::Array { items, index } => {
                    if let Some(item) = items.next() {
                        *index = Some(index.map_or(0, |i| {
                            self.out.push(',');
                            i + 1
                        }));
                        return Some(item);
                    }
                    self.out.push(']');
                }
                Open::Object { members, key } => {
                    if let Some((name, value)) = members.next() {
                        if key.is_some() {
                            self.out.push(',');
                        }
                        *key = Some(name);
                        push_quoted(self.out, name);
                        self.out.push(':');
                        return Some(value);
                    }
                    self.out.push('}');
                }
            }
            self.open.pop();
        }
        None
    }

    /// The value being written is refused: its path is that of the members and items now open.
    fn refuse(&self, problem: ValueProblem) -> Refusal {
        let segments = self.open.iter().filter_map(|open| match open {
            Open::Array { index, .. } => index.map(Segment::Item),
            Open::Object { key, .. } => key.map(Segment::Member),
        });
        Refusal {
            below: spell("", segments),
            problem,
        }
    }
}
