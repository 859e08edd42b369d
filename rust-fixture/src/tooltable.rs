//! The tools this fixture lists, as `vectors/rules/tools.json` declares them for every server: compiled into the
//! binary, so it carries the table wherever it runs. A tool has name, description, inputSchema and optionally
//! outputSchema; any other member is refused, as the other servers' readers refuse it.

use rmcp::model::{JsonObject, Tool};
use serde_json::Value;
use std::sync::Arc;

pub const FORMAT: &str = "tool-table/1";
pub const SHIPPED: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../vectors/rules/tools.json"));

/// Which set of tools a process serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Served {
    Guarded,
    Unguarded,
}

impl Served {
    fn table_key(self) -> &'static str {
        match self {
            Served::Guarded => "guarded",
            Served::Unguarded => "unguarded",
        }
    }

    fn names(self) -> &'static [&'static str] {
        match self {
            Served::Guarded => &["create_guarded_issue", "get_operation_status"],
            Served::Unguarded => &["create_issue"],
        }
    }
}

#[derive(Debug, Clone)]
pub struct ToolSet {
    kind: Served,
    tools: Vec<Tool>,
}

impl ToolSet {
    pub fn kind(&self) -> Served {
        self.kind
    }

    pub fn listed(&self) -> Vec<Tool> {
        self.tools.clone()
    }

    pub fn shipped(kind: Served) -> Result<ToolSet, String> {
        Self::from_table(SHIPPED, kind)
    }

    /// The tools `kind` serves, in the table's order; a table that renames, adds or drops one is refused.
    pub fn from_table(table: &str, kind: Served) -> Result<ToolSet, String> {
        let root: Value = serde_json::from_str(table).map_err(|e| format!("the tool table is not JSON: {e}"))?;
        if root.get("format").and_then(Value::as_str) != Some(FORMAT) {
            return Err(format!("the tool table's format must be \"{FORMAT}\""));
        }
        let key = kind.table_key();
        let entries = root.get(key).and_then(Value::as_array).ok_or_else(|| format!("the tool table has no \"{key}\" array of objects"))?;
        let mut tools = Vec::new();
        for entry in entries {
            let entry = entry.as_object().ok_or_else(|| format!("the tool table has no \"{key}\" array of objects"))?;
            let name = entry.get("name").and_then(Value::as_str).unwrap_or_default().to_owned();
            if let Some(other) = entry.keys().find(|m| !["name", "description", "inputSchema", "outputSchema"].contains(&m.as_str())) {
                return Err(format!("the tool table's {key} tool \"{name}\" has a member this server does not pass on: {other}"));
            }
            let description = entry.get("description").and_then(Value::as_str).unwrap_or_default().to_owned();
            if name.is_empty() || description.is_empty() {
                return Err(format!("the tool table's {key} tool \"{name}\" needs a non-empty name and description"));
            }
            let schemas = format!("the tool table's {name} needs an object inputSchema (and outputSchema, if any)");
            let object = |member: &str| -> Result<Option<JsonObject>, String> {
                match entry.get(member) {
                    None => Ok(None),
                    Some(Value::Object(o)) => Ok(Some(o.clone())),
                    Some(_) => Err(schemas.clone()),
                }
            };
            let input = object("inputSchema")?.ok_or_else(|| schemas.clone())?;
            let output = object("outputSchema")?;
            let mut tool = Tool::new(name, description, Arc::new(input));
            tool.output_schema = output.map(Arc::new);
            tools.push(tool);
        }
        let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
        if names != kind.names() {
            return Err(format!("the tool table's {key} tools are {names:?}, but this server serves {:?}", kind.names()));
        }
        Ok(ToolSet { kind, tools })
    }
}
