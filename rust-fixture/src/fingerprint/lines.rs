use std::fmt;

use super::Error;
use super::exact_json::parse_exact;
use super::keyed::{Key, fingerprint};
use super::request::{read_entry, read_logical_request};

/// Only spaces, tabs and carriage returns: a JSON Lines line to skip (it is still counted).
pub fn is_blank_line(line: &[u8]) -> bool {
    line.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r'))
}

/// A bad line: why, and its name when the line was a named entry whose name was read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineError {
    pub name: Option<String>,
    pub error: Error,
}

impl LineError {
    /// What `--keep-going` prints in the line's place: `!<reason>`, after `name<TAB>` when the name is known.
    pub fn in_place(&self) -> String {
        match &self.name {
            Some(name) => format!("{name}\t!{}", self.error),
            None => format!("!{}", self.error),
        }
    }
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.error.fmt(f)
    }
}

impl std::error::Error for LineError {}

/// The output for one non-blank JSON Lines line (docs/fingerprint.md, "The CLIs"): the digest, or
/// `name<TAB>digest` for a named entry.
pub fn fingerprint_line(key: &Key, line: &[u8]) -> Result<String, LineError> {
    let unnamed = |error: Error| LineError { name: None, error };
    if std::str::from_utf8(line).is_err() {
        return Err(unnamed(Error::InvalidUtf8));
    }
    let entry = parse_exact(line).and_then(read_entry).map_err(unnamed)?;
    let digest = read_logical_request(entry.request)
        .and_then(|request| fingerprint(key, &request).map_err(Error::from))
        .map_err(|error| LineError {
            name: entry.name.clone(),
            error,
        })?;
    Ok(match entry.name {
        Some(name) => format!("{name}\t{digest}"),
        None => digest,
    })
}
