//! The client record (`client-record/1`): one JSON line per step, written down as the SDK gave it back.

use std::error::Error;
use std::fs::File;
use std::io::{self, Write};
use std::sync::Mutex;

use rmcp::ErrorData;
use rmcp::service::{ClientInitializeError, ServiceError};
use rmcp::transport::DynamicTransportError;
use rmcp::transport::streamable_http_client::{AuthRequiredError, HttpStatusError, StreamableHttpError};
use serde::Serialize;
use serde_json::{Value, json};

use crate::script::{StepId, Transport};

pub const RECORD_FORMAT: &str = "client-record/1";
pub const CLIENT: &str = "rust";
/// The `rmcp` the crate pins (`=3.11.0`); a test checks it against Cargo.lock, so a record names the SDK that was
/// really linked.
pub const SDK_VERSION: &str = "3.11.0";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Connected,
    Closed,
    Listed,
    Result,
    ToolError,
    InputRequired,
    Threw,
}

/// A record's `threw`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Thrown {
    #[serde(rename = "type")]
    pub kind: String,
    pub code: Value,
    pub message: String,
    pub data: Value,
    pub cause: Option<String>,
}

impl Thrown {
    pub fn not_runnable(message: impl Into<String>) -> Self {
        Self {
            kind: String::from("StepNotRunnable"),
            code: Value::Null,
            message: message.into(),
            data: Value::Null,
            cause: None,
        }
    }
}

#[derive(Debug, Serialize)]
pub struct Record<'a> {
    pub format: &'static str,
    pub client: &'static str,
    pub sdk_version: &'static str,
    pub step: StepId,
    pub op: &'static str,
    pub connection: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transport: Option<Transport>,
    pub api: Option<String>,
    pub sent: Option<Value>,
    pub outcome: Outcome,
    pub result: Option<Value>,
    pub threw: Option<Thrown>,
    pub saved_state: Option<String>,
    pub started_ms: u64,
    pub elapsed_ms: u64,
}

/// Appends each record as soon as its step ends, one write per line: if the driver dies later, what already
/// happened is on disk.
#[derive(Debug)]
pub struct RecordFile {
    file: Mutex<File>,
}

impl RecordFile {
    pub fn new(file: File) -> Self {
        Self { file: Mutex::new(file) }
    }

    pub fn write(&self, record: &Record<'_>) -> io::Result<()> {
        let mut line = serde_json::to_vec(record).map_err(io::Error::other)?;
        line.push(b'\n');
        let mut file = self
            .file
            .lock()
            .map_err(|_| io::Error::other("the records file lock is poisoned"))?;
        file.write_all(&line)
    }
}

/// Every `requestState` becomes its length: a state is a bearer credential for the continuation.
pub fn without_request_states(value: Value) -> Value {
    match value {
        Value::Array(items) => Value::Array(items.into_iter().map(without_request_states).collect()),
        Value::Object(members) => Value::Object(
            members
                .into_iter()
                .map(|(name, member)| {
                    if name == "requestState" {
                        (
                            String::from("request_state_length"),
                            member.as_str().map_or(Value::Null, |s| json!(s.len())),
                        )
                    } else {
                        (name, without_request_states(member))
                    }
                })
                .collect(),
        ),
        other => other,
    }
}

/// The variant's name from a derived `Debug`: `TransportClosed`, `McpError(..)` and `Timeout { .. }` all start
/// with it, and it covers the variants a `#[non_exhaustive]` enum may add later.
fn variant(debug: &str) -> &str {
    let end = debug
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
        .unwrap_or(debug.len());
    &debug[..end]
}

/// A name for an error found as a `source()`, where only `dyn Error` is left: the concrete types the SDK's
/// errors wrap, else the start of its `Debug` (`hyper::Error(..)` names its own type).
fn label(error: &(dyn Error + 'static)) -> String {
    let debug = format!("{error:?}");
    if error.is::<DynamicTransportError>() {
        String::from("DynamicTransportError")
    } else if error.is::<io::Error>() {
        String::from("std::io::Error")
    } else if error.is::<StreamableHttpError<reqwest::Error>>() {
        format!("StreamableHttpError::{}", variant(&debug))
    } else if error.is::<reqwest::Error>() {
        String::from("reqwest::Error")
    } else if error.is::<HttpStatusError>() {
        String::from("HttpStatusError")
    } else if error.is::<AuthRequiredError>() {
        String::from("AuthRequiredError")
    } else if error.is::<ServiceError>() {
        format!("ServiceError::{}", variant(&debug))
    } else if error.is::<ClientInitializeError>() {
        format!("ClientInitializeError::{}", variant(&debug))
    } else {
        variant(&debug).to_owned()
    }
}

/// The first `source()` as `<type>: <message>`, and the deeper ones after it: the SDK's messages do not always
/// repeat them (a reqwest error never shows the hyper error under it).
fn cause(error: &(dyn Error + 'static)) -> Option<String> {
    chain(error.source())
}

fn chain(first: Option<&(dyn Error + 'static)>) -> Option<String> {
    let mut parts = Vec::new();
    let mut next = first;
    while let Some(current) = next {
        parts.push(format!("{}: {current}", label(current)));
        // The HTTP client's own error is a field of StreamableHttpError::Client, not its source().
        next = match current.downcast_ref::<StreamableHttpError<reqwest::Error>>() {
            Some(StreamableHttpError::Client(inner)) => Some(inner),
            _ => current.source(),
        };
    }
    (!parts.is_empty()).then(|| parts.join("; caused by "))
}

/// What the transport's own error types expose beside the message: an HTTP status, an auth challenge.
fn transport_data(error: &(dyn Error + 'static)) -> Value {
    let mut next: Option<&(dyn Error + 'static)> = Some(error);
    while let Some(current) = next {
        if let Some(status) = current.downcast_ref::<HttpStatusError>() {
            return json!({"statusCode": status.status, "retryAfter": status.retry_after});
        }
        if let Some(challenge) = current.downcast_ref::<AuthRequiredError>() {
            return json!({"wwwAuthenticate": challenge.www_authenticate_header});
        }
        next = current.source();
    }
    Value::Null
}

fn error_data(data: &ErrorData) -> Value {
    data.data.clone().map_or(Value::Null, without_request_states)
}

/// Turns what an SDK call returned as an error into a record's `threw`: `type` is the error's Rust type, `code`
/// the JSON-RPC code it carries, else the SDK's name for the failure (its enum variant, or an I/O error's kind).
pub trait Describe {
    fn describe(&self) -> Thrown;
}

impl Describe for ServiceError {
    fn describe(&self) -> Thrown {
        let (code, data) = match self {
            ServiceError::McpError(error) => (json!(error.code.0), error_data(error)),
            other => (json!(variant(&format!("{other:?}"))), transport_data(other)),
        };
        Thrown {
            kind: String::from("ServiceError"),
            code,
            message: self.to_string(),
            data,
            cause: cause(self),
        }
    }
}

impl Describe for ClientInitializeError {
    fn describe(&self) -> Thrown {
        // The transport's error is a field of TransportError, not its source().
        let cause = match self {
            ClientInitializeError::TransportError { error, .. } => chain(Some(error)),
            other => cause(other),
        };
        let (code, data) = match self {
            ClientInitializeError::JsonRpcError(error) => (json!(error.code.0), error_data(error)),
            // Its message says only that both failed; the two errors are fields, not sources.
            ClientInitializeError::LegacyFallbackFailed { discover, fallback } => (
                json!("LegacyFallbackFailed"),
                json!({"discover": discover.describe(), "fallback": fallback.describe()}),
            ),
            ClientInitializeError::NoCompatibleProtocolVersion {
                client_supported,
                server_supported,
            } => (
                json!("NoCompatibleProtocolVersion"),
                json!({"client_supported": client_supported, "server_supported": server_supported}),
            ),
            ClientInitializeError::TransportError { error, .. } => (json!("TransportError"), transport_data(error)),
            other => (json!(variant(&format!("{other:?}"))), transport_data(other)),
        };
        Thrown {
            kind: String::from("ClientInitializeError"),
            code,
            message: self.to_string(),
            data,
            cause,
        }
    }
}

impl Describe for io::Error {
    fn describe(&self) -> Thrown {
        Thrown {
            kind: String::from("std::io::Error"),
            code: json!(format!("{:?}", self.kind())),
            message: self.to_string(),
            data: Value::Null,
            cause: cause(self),
        }
    }
}

impl Describe for tokio::time::error::Elapsed {
    fn describe(&self) -> Thrown {
        Thrown {
            kind: String::from("tokio::time::error::Elapsed"),
            code: Value::Null,
            message: self.to_string(),
            data: Value::Null,
            cause: None,
        }
    }
}

impl Describe for tokio::task::JoinError {
    fn describe(&self) -> Thrown {
        Thrown {
            kind: String::from("tokio::task::JoinError"),
            code: json!(if self.is_panic() { "Panic" } else { "Cancelled" }),
            message: self.to_string(),
            data: Value::Null,
            cause: cause(self),
        }
    }
}
