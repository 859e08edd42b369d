use std::fmt;

use super::Error;
use super::canonical::{ValueError, ValueProblem, write_object, write_value};
use super::path::push_member;
use super::value::{Object, Value};

/// What the fingerprint binds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogicalRequest {
    pub principal: Option<String>,
    pub tool_id: String,
    pub tool_version: String,
    pub arguments: Object,
    /// Absent binds as `null`, the same as `Some(Value::Null)`.
    pub continuation_state: Option<Value>,
    pub input_responses: Option<Value>,
}

/// The members of a LogicalRequest line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RequestMember {
    Principal,
    ToolId,
    ToolVersion,
    Arguments,
    ContinuationState,
    InputResponses,
}

impl RequestMember {
    const ALL: [RequestMember; 6] = [
        RequestMember::Principal,
        RequestMember::ToolId,
        RequestMember::ToolVersion,
        RequestMember::Arguments,
        RequestMember::ContinuationState,
        RequestMember::InputResponses,
    ];

    pub fn name(self) -> &'static str {
        match self {
            RequestMember::Principal => "principal",
            RequestMember::ToolId => "tool_id",
            RequestMember::ToolVersion => "tool_version",
            RequestMember::Arguments => "arguments",
            RequestMember::ContinuationState => "continuation_state",
            RequestMember::InputResponses => "input_responses",
        }
    }
}

/// An input line that is not a (named) LogicalRequest; the messages are `LogicalRequestReader.java`'s.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShapeError {
    LineNotObject,
    NamedEntryMembers,
    NameNotPlainString,
    RequestNotObject,
    UnknownMember(String),
    Required(RequestMember),
    PrincipalNotString,
    NotString(RequestMember),
    ArgumentsNotObject,
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShapeError::LineNotObject => f.write_str("a line must hold a JSON object"),
            ShapeError::NamedEntryMembers => {
                f.write_str("a named entry must have exactly the members \"name\" and \"request\"")
            }
            ShapeError::NameNotPlainString => {
                f.write_str("$.name: must be a string without control characters")
            }
            ShapeError::RequestNotObject => f.write_str("a LogicalRequest must be a JSON object"),
            ShapeError::UnknownMember(key) => {
                let mut path = String::from("$");
                push_member(&mut path, key);
                write!(f, "{path}: unknown LogicalRequest member")
            }
            ShapeError::Required(member) => write!(f, "$.{}: required", member.name()),
            ShapeError::PrincipalNotString => f.write_str("$.principal: must be a string or null"),
            ShapeError::NotString(member) => write!(f, "$.{}: must be a string", member.name()),
            ShapeError::ArgumentsNotObject => f.write_str("$.arguments: must be a JSON object"),
        }
    }
}

impl std::error::Error for ShapeError {}

/// One input line: `{"name": …, "request": …}`, or a bare request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub name: Option<String>,
    pub request: Value,
}

/// Splits a parsed line into its name, if it is a named entry, and the request it holds.
pub fn read_entry(line: Value) -> Result<Entry, Error> {
    let Value::Object(mut members) = line else {
        return Err(ShapeError::LineNotObject.into());
    };
    if !members.contains_key("request") {
        return Ok(Entry {
            name: None,
            request: Value::Object(members),
        });
    }
    if members.len() != 2 || !members.contains_key("name") {
        return Err(ShapeError::NamedEntryMembers.into());
    }
    let is_control = |unit: u32| unit < 0x20 || unit == 0x7f;
    let name = match members.remove("name") {
        Some(Value::String(name)) if !name.chars().any(|c| is_control(u32::from(c))) => name,
        Some(Value::IllFormedString(units)) if !units.iter().any(|&u| is_control(u32::from(u))) => {
            return Err(ValueError {
                path: "$.name".into(),
                problem: ValueProblem::UnpairedSurrogate,
            }
            .into());
        }
        _ => return Err(ShapeError::NameNotPlainString.into()),
    };
    let request = members.remove("request").unwrap_or(Value::Null);
    Ok(Entry {
        name: Some(name),
        request,
    })
}

/// A text member (principal, tool_id, tool_version) as parsed: the text, or the member if it holds an unpaired
/// surrogate.
type Text = Result<String, RequestMember>;

fn text(member: RequestMember, value: Value) -> Option<Text> {
    match value {
        Value::String(s) => Some(Ok(s)),
        Value::IllFormedString(_) => Some(Err(member)),
        _ => None,
    }
}

/// Checks the members of a parsed LogicalRequest.
pub fn read_logical_request(request: Value) -> Result<LogicalRequest, Error> {
    let Value::Object(mut members) = request else {
        return Err(ShapeError::RequestNotObject.into());
    };
    // Code-point order, so every language reports the same member.
    if let Some(unknown) = members
        .keys()
        .find(|k| RequestMember::ALL.iter().all(|m| m.name() != k.as_str()))
    {
        return Err(ShapeError::UnknownMember(unknown.clone()).into());
    }
    let principal = match members.remove("principal") {
        None => return Err(ShapeError::Required(RequestMember::Principal).into()),
        Some(Value::Null) => None,
        Some(value) => {
            Some(text(RequestMember::Principal, value).ok_or(ShapeError::PrincipalNotString)?)
        }
    };
    let mut required_text = |member: RequestMember| {
        let value = members
            .remove(member.name())
            .ok_or(ShapeError::Required(member))?;
        text(member, value).ok_or(ShapeError::NotString(member))
    };
    let tool_id = required_text(RequestMember::ToolId)?;
    let tool_version = required_text(RequestMember::ToolVersion)?;
    let arguments = match members.remove("arguments") {
        None => return Err(ShapeError::Required(RequestMember::Arguments).into()),
        Some(Value::Object(arguments)) => arguments,
        Some(_) => return Err(ShapeError::ArgumentsNotObject.into()),
    };
    let continuation_state = members.remove("continuation_state");
    let input_responses = members.remove("input_responses");
    let (principal, tool_id, tool_version) = match (principal.transpose(), tool_id, tool_version) {
        (Ok(principal), Ok(tool_id), Ok(tool_version)) => (principal, tool_id, tool_version),
        (Err(member), _, _) | (_, Err(member), _) | (_, _, Err(member)) => {
            // The fingerprint refuses the bound fields and the arguments before these members.
            let mut scratch = String::new();
            for (field, value) in [
                ("continuation_state", &continuation_state),
                ("input_responses", &input_responses),
            ] {
                if let Some(value) = value {
                    write_value(&mut scratch, value, 0).map_err(|r| r.at(&format!("$.{field}")))?;
                }
            }
            write_object(&mut scratch, &arguments, 1).map_err(|r| r.at("$.arguments"))?;
            let path = format!("$.{}", member.name());
            return Err(ValueError {
                path,
                problem: ValueProblem::UnpairedSurrogate,
            }
            .into());
        }
    };
    Ok(LogicalRequest {
        principal,
        tool_id,
        tool_version,
        arguments,
        continuation_state,
        input_responses,
    })
}
