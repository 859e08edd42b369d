//! The shared rule tables (`<repository>/vectors/rules/*.json`) as the tests read them, with the format rules of
//! the Java, TypeScript and Go readers. A case has a unique name and either `expect` (every language) or
//! `expect_by_language` (`{java, typescript}`, two different verdicts) with a `difference`; `expand` maps a
//! placeholder to `{repeat, times}`.
//!
//! The tables name two languages. This fixture is checked against `expect` where it gives that verdict, and
//! against one of the two verdicts of `expect_by_language` otherwise; each test says which one it must be.

use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

/// The repository this crate sits in: the crate lives at `<repository>/rust-fixture`.
pub fn repository_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `<repository>/vectors/rules`.
pub fn rules_dir() -> PathBuf {
    repository_root().join("vectors").join("rules")
}

/// The first folder at or above `dir` holding `vectors/rules`: how a built binary finds its repository (and so
/// the bridge jar) from its own location.
pub fn root_above(dir: &Path) -> Result<PathBuf, TableError> {
    let mut current = Some(dir);
    while let Some(candidate) = current {
        if candidate.join("vectors").join("rules").is_dir() {
            return Ok(candidate.to_path_buf());
        }
        current = candidate.parent();
    }
    Err(TableError(format!(
        "no vectors/rules above {}",
        dir.display()
    )))
}

/// A table that cannot be read or breaks the format rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableError(String);

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TableError {}

/// Whose verdict a result matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    /// The verdict every language must give (`expect`).
    Shared,
    Java,
    TypeScript,
}

/// What a case expects.
#[derive(Debug, Clone, PartialEq)]
pub enum Expected {
    Shared(Map<String, Value>),
    ByLanguage {
        java: Map<String, Value>,
        typescript: Map<String, Value>,
        difference: String,
    },
}

/// One row, its placeholders expanded.
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    pub name: String,
    pub row: Map<String, Value>,
    pub expected: Expected,
}

impl Case {
    /// The verdict every language must give, or `None` where the languages differ.
    pub fn shared(&self) -> Option<&Map<String, Value>> {
        match &self.expected {
            Expected::Shared(verdict) => Some(verdict),
            Expected::ByLanguage { .. } => None,
        }
    }

    /// Which verdict `got` is, if it is one of them. Numbers compare by value, as after a JSON round trip.
    pub fn matches(&self, got: &Value) -> Option<Language> {
        let is = |want: &Map<String, Value>| same(&Value::Object(want.clone()), got);
        match &self.expected {
            Expected::Shared(want) => is(want).then_some(Language::Shared),
            Expected::ByLanguage {
                java, typescript, ..
            } => {
                if is(java) {
                    Some(Language::Java)
                } else if is(typescript) {
                    Some(Language::TypeScript)
                } else {
                    None
                }
            }
        }
    }
}

fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

/// One rule file.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    pub file: PathBuf,
    pub root: Map<String, Value>,
    /// Empty for a table without `cases` (the JVM option lists).
    pub cases: Vec<Case>,
}

/// `vectors/rules/<file>` of this crate's repository.
pub fn load(file: &str) -> Result<Table, TableError> {
    load_path(&rules_dir().join(file))
}

/// A rule file at `path`, its format rules checked.
pub fn load_path(path: &Path) -> Result<Table, TableError> {
    let shown = path.display();
    let text = fs::read(path).map_err(|e| TableError(format!("{shown}: {e}")))?;
    let parsed: Value =
        serde_json::from_slice(&text).map_err(|e| TableError(format!("{shown}: {e}")))?;
    let Value::Object(root) = parsed else {
        return Err(TableError(format!("{shown}: not an object")));
    };
    let mut table = Table {
        file: path.to_path_buf(),
        root,
        cases: Vec::new(),
    };
    let Some(rows) = table.root.get("cases") else {
        return Ok(table);
    };
    let rows = match rows {
        Value::Array(rows) if !rows.is_empty() => rows,
        _ => {
            return Err(TableError(format!(
                "{shown}: \"cases\" must be a non-empty array"
            )));
        }
    };
    let mut cases = Vec::with_capacity(rows.len());
    let mut names = std::collections::HashSet::new();
    for raw in rows {
        let empty = Map::new();
        let row = raw.as_object().unwrap_or(&empty);
        let name = row.get("name").and_then(Value::as_str).unwrap_or("");
        if name.is_empty() || !names.insert(name.to_owned()) {
            return Err(TableError(format!(
                "{shown}: every case needs a name of its own, not {name:?}"
            )));
        }
        let row = match row.get("expand").and_then(Value::as_object) {
            Some(expansions) => row
                .iter()
                .map(|(k, v)| {
                    (
                        k.clone(),
                        if k == "expand" {
                            v.clone()
                        } else {
                            expand(v, expansions)
                        },
                    )
                })
                .collect(),
            None => row.clone(),
        };
        let expected =
            expected_of(&row).map_err(|why| TableError(format!("{shown}: case {name:?} {why}")))?;
        cases.push(Case {
            name: name.to_owned(),
            row,
            expected,
        });
    }
    table.cases = cases;
    Ok(table)
}

fn expected_of(row: &Map<String, Value>) -> Result<Expected, &'static str> {
    let common = row.get("expect").and_then(Value::as_object);
    let each = row.get("expect_by_language").and_then(Value::as_object);
    match (common, each) {
        (Some(_), Some(_)) | (None, None) => Err("needs exactly one of expect, expect_by_language"),
        (Some(_), None) if row.contains_key("difference") => {
            Err("has a difference but one verdict")
        }
        (Some(common), None) => Ok(Expected::Shared(common.clone())),
        (None, Some(each)) => {
            let java = each.get("java").and_then(Value::as_object);
            let typescript = each.get("typescript").and_then(Value::as_object);
            let difference = row.get("difference").and_then(Value::as_str).unwrap_or("");
            match (java, typescript) {
                (Some(java), Some(typescript))
                    if each.len() == 2 && java != typescript && !difference.trim().is_empty() =>
                {
                    Ok(Expected::ByLanguage {
                        java: java.clone(),
                        typescript: typescript.clone(),
                        difference: difference.to_owned(),
                    })
                }
                _ => Err("needs two different verdicts and a difference"),
            }
        }
    }
}

fn expand(v: &Value, expansions: &Map<String, Value>) -> Value {
    match v {
        Value::String(s) => match expansions.get(s).and_then(Value::as_object) {
            Some(how) => {
                let repeat = how.get("repeat").and_then(Value::as_str).unwrap_or("");
                let times = how.get("times").and_then(Value::as_u64).unwrap_or(0);
                Value::String(repeat.repeat(usize::try_from(times).unwrap_or(0)))
            }
            None => v.clone(),
        },
        Value::Array(items) => {
            Value::Array(items.iter().map(|item| expand(item, expansions)).collect())
        }
        Value::Object(members) => Value::Object(
            members
                .iter()
                .map(|(k, item)| (k.clone(), expand(item, expansions)))
                .collect(),
        ),
        _ => v.clone(),
    }
}
