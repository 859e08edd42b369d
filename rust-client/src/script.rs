//! The step script (`client-script/1`, docs/client-drivers.md): read and checked whole before anything starts.
//! Every refusal is one line, `script error: <where><problem>`, in the wording and order of checks that all the
//! drivers share (vectors/rules/client-script.json).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde::Serialize;
use serde_json::{Map, Value};

pub const SCRIPT_FORMAT: &str = "client-script/1";

/// The servers' own minimum for a bearer token.
pub const MIN_TOKEN_LENGTH: usize = 32;

/// The largest whole number a JavaScript number holds exactly, so the largest timeout of every driver.
const MAX_TIMEOUT_MS: u64 = (1 << 53) - 1;

// As written in the URL: 127.1 reaches the same address, but a script should say what it means.
const LOOPBACK_HOSTS: [&str; 3] = ["127.0.0.1", "localhost", "[::1]"];

pub type JsonObject = Map<String, Value>;

/// A script the driver cannot run; its display is the whole stderr line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptError {
    line: String,
}

impl ScriptError {
    fn new(place: &str, problem: impl fmt::Display) -> Self {
        Self {
            line: format!("script error: {place}{problem}"),
        }
    }

    pub fn line(&self) -> &str {
        &self.line
    }
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.line)
    }
}

impl std::error::Error for ScriptError {}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Connect,
    ListTools,
    Call,
    CallOnce,
    Status,
    Parallel,
    Close,
}

impl Op {
    const ALL: [Op; 7] = [
        Op::Connect,
        Op::ListTools,
        Op::Call,
        Op::CallOnce,
        Op::Status,
        Op::Parallel,
        Op::Close,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Op::Connect => "connect",
            Op::ListTools => "list_tools",
            Op::Call => "call",
            Op::CallOnce => "call_once",
            Op::Status => "status",
            Op::Parallel => "parallel",
            Op::Close => "close",
        }
    }

    fn from_name(name: &str) -> Option<Op> {
        Op::ALL.into_iter().find(|op| op.name() == name)
    }

    fn members(self) -> &'static [&'static str] {
        match self {
            Op::Connect => &["op", "connection", "server"],
            Op::ListTools | Op::Close => &["op", "connection"],
            Op::Call => &["op", "connection", "tool", "arguments", "answer"],
            // ts_api names a TypeScript call form; this driver accepts it and plays the one form its SDK has.
            Op::CallOnce => &[
                "op",
                "connection",
                "tool",
                "arguments",
                "input_responses",
                "state",
                "state_transform",
                "save_state",
                "ts_api",
            ],
            Op::Status => &["op", "connection", "operation_id"],
            Op::Parallel => &["op", "steps"],
        }
    }
}

/// A bearer token read from the driver's environment. Its `Debug` is redacted and it has no `Display`, so neither
/// a log line nor a record can print it.
#[derive(Clone, PartialEq, Eq)]
pub struct Token(String);

impl Token {
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Token(redacted)")
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpServer {
    pub url: String,
    pub token_env: String,
    pub token: Token,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Server {
    Stdio {
        command: Vec<String>,
        env: BTreeMap<String, String>,
    },
    Http(HttpServer),
}

impl Server {
    pub fn transport(&self) -> Transport {
        match self {
            Server::Stdio { .. } => Transport::Stdio,
            Server::Http(_) => Transport::Http,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Transport {
    Stdio,
    Http,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VersionMode {
    Pin,
    Auto,
    Default,
}

impl VersionMode {
    pub fn name(self) -> &'static str {
        match self {
            VersionMode::Pin => "pin",
            VersionMode::Auto => "auto",
            VersionMode::Default => "default",
        }
    }
}

/// A record's `step`: a number at the top level, `"3.1"` inside a parallel step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepId {
    Top(usize),
    Inner(usize, usize),
}

impl fmt::Display for StepId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StepId::Top(index) => write!(f, "{index}"),
            StepId::Inner(index, position) => write!(f, "{index}.{position}"),
        }
    }
}

impl Serialize for StepId {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            StepId::Top(index) => serializer.serialize_u64(*index as u64),
            StepId::Inner(..) => serializer.collect_str(self),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct SavedStateUse {
    pub name: String,
    pub tamper: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct CallOnce {
    pub tool: String,
    pub arguments: JsonObject,
    pub input_responses: Option<JsonObject>,
    pub state: Option<SavedStateUse>,
    pub save_state: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum StepKind {
    Connect {
        server: String,
    },
    ListTools,
    Call {
        tool: String,
        arguments: JsonObject,
        answer: Option<JsonObject>,
    },
    CallOnce(CallOnce),
    Status {
        operation_id: String,
    },
    Close,
}

/// One step that gets a record: a top-level step, or one inner step of a parallel step.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    pub id: StepId,
    pub connection: String,
    pub kind: StepKind,
}

impl Step {
    pub fn op(&self) -> Op {
        match self.kind {
            StepKind::Connect { .. } => Op::Connect,
            StepKind::ListTools => Op::ListTools,
            StepKind::Call { .. } => Op::Call,
            StepKind::CallOnce(_) => Op::CallOnce,
            StepKind::Status { .. } => Op::Status,
            StepKind::Close => Op::Close,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum TopStep {
    Single(Step),
    Parallel(Vec<Step>),
}

impl TopStep {
    pub fn steps(&self) -> &[Step] {
        match self {
            TopStep::Single(step) => std::slice::from_ref(step),
            TopStep::Parallel(steps) => steps,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Script {
    pub servers: BTreeMap<String, Server>,
    pub request_timeout_ms: Option<u64>,
    pub version_mode: VersionMode,
    pub steps: Vec<TopStep>,
}

/// JSON spelling of a name or value inside a message.
fn shown(value: &Value) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| String::from("?"))
}

fn quoted(text: &str) -> String {
    shown(&Value::String(text.to_owned()))
}

/// Sorted explicitly: the first unknown member named must not depend on how serde_json orders a map.
fn sorted_keys(object: &JsonObject) -> Vec<&String> {
    let mut keys: Vec<&String> = object.keys().collect();
    keys.sort();
    keys
}

/// The members of one object and where they are, for the refusals.
struct Members<'a> {
    place: String,
    object: &'a JsonObject,
}

impl<'a> Members<'a> {
    fn new(place: String, object: &'a JsonObject, allowed: &[&str]) -> Result<Self, ScriptError> {
        if let Some(unknown) = sorted_keys(object)
            .into_iter()
            .find(|name| !allowed.contains(&name.as_str()))
        {
            return Err(ScriptError::new(&place, format!("unknown member {}", quoted(unknown))));
        }
        Ok(Self { place, object })
    }

    fn fail(&self, problem: impl fmt::Display) -> ScriptError {
        ScriptError::new(&self.place, problem)
    }

    fn has(&self, name: &str) -> bool {
        self.object.contains_key(name)
    }

    fn string(&self, name: &str) -> Result<String, ScriptError> {
        match self.object.get(name) {
            None => Err(self.fail(format!("{name} is required"))),
            Some(Value::String(text)) if !text.is_empty() => Ok(text.clone()),
            Some(_) => Err(self.fail(format!("{name} must be a non-empty string"))),
        }
    }

    // A member given as null is present: it is refused as the wrong type, never read as absent.
    fn optional_string(&self, name: &str) -> Result<Option<String>, ScriptError> {
        if self.has(name) {
            self.string(name).map(Some)
        } else {
            Ok(None)
        }
    }

    fn object(&self, name: &str) -> Result<JsonObject, ScriptError> {
        match self.object.get(name) {
            None => Err(self.fail(format!("{name} is required"))),
            Some(Value::Object(object)) => Ok(object.clone()),
            Some(_) => Err(self.fail(format!("{name} must be an object"))),
        }
    }

    fn optional_object(&self, name: &str) -> Result<Option<JsonObject>, ScriptError> {
        if self.has(name) {
            self.object(name).map(Some)
        } else {
            Ok(None)
        }
    }

    fn one_of(
        &self,
        name: &str,
        allowed: &[&'static str],
        fallback: &'static str,
    ) -> Result<&'static str, ScriptError> {
        let Some(value) = self.object.get(name) else {
            return Ok(fallback);
        };
        if let Some(found) = value.as_str().and_then(|text| allowed.iter().find(|a| **a == text)) {
            return Ok(found);
        }
        let listed: Vec<String> = allowed.iter().map(|a| quoted(a)).collect();
        Err(self.fail(format!("{name} must be one of {}", listed.join(", "))))
    }
}

/// Reads and checks a whole script; `lookup` is the driver's environment, where bearer tokens are read.
pub fn parse(text: &[u8], lookup: impl Fn(&str) -> Option<String>) -> Result<Script, ScriptError> {
    let document: Value =
        serde_json::from_slice(text).map_err(|error| ScriptError::new("", format!("not JSON ({error})")))?;
    let Value::Object(top) = &document else {
        return Err(ScriptError::new("", "the script must be a JSON object"));
    };
    let m = Members::new(
        String::new(),
        top,
        &["format", "servers", "request_timeout_ms", "version_mode", "steps"],
    )?;
    // The tag first: a script of another format version must be named as such, not by whichever member differs.
    if top.get("format").and_then(Value::as_str) != Some(SCRIPT_FORMAT) {
        let got = top.get("format").map_or_else(|| String::from("null"), shown);
        return Err(m.fail(format!("format must be {} (got {got})", quoted(SCRIPT_FORMAT))));
    }
    let servers = parse_servers(&m.object("servers")?, &lookup)?;
    let request_timeout_ms = match top.get("request_timeout_ms") {
        None => return Err(m.fail("request_timeout_ms is required (null for the SDK default)")),
        Some(Value::Null) => None,
        Some(value) => match value.as_u64() {
            Some(ms) if (1..=MAX_TIMEOUT_MS).contains(&ms) => Some(ms),
            _ => return Err(m.fail("request_timeout_ms must be null or a positive whole number of milliseconds")),
        },
    };
    if !m.has("version_mode") {
        return Err(m.fail("version_mode is required"));
    }
    let version_mode = match m.one_of("version_mode", &["pin", "auto", "default"], "pin")? {
        "auto" => VersionMode::Auto,
        "default" => VersionMode::Default,
        _ => VersionMode::Pin,
    };
    let Some(Value::Array(raw_steps)) = top.get("steps") else {
        return Err(m.fail("steps must be an array"));
    };
    let mut scope = Scope::default();
    let mut steps = Vec::with_capacity(raw_steps.len());
    for (index, raw) in raw_steps.iter().enumerate() {
        steps.push(parse_step(raw, index, &servers, &mut scope)?);
    }
    Ok(Script {
        servers,
        request_timeout_ms,
        version_mode,
        steps,
    })
}

fn parse_servers(
    raw: &JsonObject,
    lookup: &impl Fn(&str) -> Option<String>,
) -> Result<BTreeMap<String, Server>, ScriptError> {
    let mut servers = BTreeMap::new();
    for name in sorted_keys(raw) {
        let place = format!("servers.{name}: ");
        let Some(Value::Object(spec)) = raw.get(name) else {
            return Err(ScriptError::new(&place, "must be an object"));
        };
        let server = if spec.contains_key("url") {
            Server::Http(parse_http_server(place, spec, lookup)?)
        } else {
            parse_stdio_server(place, spec)?
        };
        servers.insert(name.clone(), server);
    }
    Ok(servers)
}

fn parse_stdio_server(place: String, spec: &JsonObject) -> Result<Server, ScriptError> {
    let m = Members::new(place, spec, &["command", "env"])?;
    let bad_command = || m.fail("command must be a non-empty array of strings");
    let Some(Value::Array(parts)) = spec.get("command") else {
        return Err(bad_command());
    };
    if parts.is_empty() {
        return Err(bad_command());
    }
    let mut command = Vec::with_capacity(parts.len());
    for (i, part) in parts.iter().enumerate() {
        match part.as_str() {
            Some(text) if i > 0 || !text.is_empty() => command.push(text.to_owned()),
            _ => return Err(bad_command()),
        }
    }
    let mut env = BTreeMap::new();
    if let Some(raw_env) = m.optional_object("env")? {
        for variable in sorted_keys(&raw_env) {
            let Some(Value::String(value)) = raw_env.get(variable) else {
                return Err(m.fail(format!("env.{variable} must be a string")));
            };
            env.insert(variable.clone(), value.clone());
        }
    }
    Ok(Server::Stdio { command, env })
}

/// `scheme://authority` as written, the way `^([A-Za-z][A-Za-z0-9+.-]*)://([^/?#]*)` reads it.
fn scheme_and_authority(text: &str) -> Option<(&str, &str)> {
    let first = text.chars().next()?;
    if !first.is_ascii_alphabetic() {
        return None;
    }
    let scheme_end = text
        .char_indices()
        .find(|(_, c)| !(c.is_ascii_alphanumeric() || matches!(c, '+' | '.' | '-')))
        .map_or(text.len(), |(i, _)| i);
    let rest = text[scheme_end..].strip_prefix("://")?;
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    Some((&text[..scheme_end], &rest[..authority_end]))
}

/// Reads the token now, so a missing or unusable one stops the driver before any request; no message holds it,
/// and none repeats a URL's user information.
fn parse_http_server(
    place: String,
    spec: &JsonObject,
    lookup: &impl Fn(&str) -> Option<String>,
) -> Result<HttpServer, ScriptError> {
    let m = Members::new(place, spec, &["url", "bearer_token_env"])?;
    let url = m.string("url")?;
    if url.chars().any(|c| c <= '\u{20}' || c == '\u{7f}') {
        return Err(m.fail("url is not a URL"));
    }
    let Some((_, authority)) = scheme_and_authority(&url).filter(|(scheme, _)| scheme.eq_ignore_ascii_case("http"))
    else {
        return Err(m.fail("url must be an http:// URL"));
    };
    if authority.contains('@') {
        return Err(m.fail("url must not carry user information"));
    }
    let (host, rest) = if authority.starts_with('[') {
        match authority.find(']') {
            Some(end) => authority.split_at(end + 1),
            None => (authority, ""),
        }
    } else {
        match authority.find(':') {
            Some(colon) => authority.split_at(colon),
            None => (authority, ""),
        }
    };
    if !LOOPBACK_HOSTS.contains(&host.to_ascii_lowercase().as_str()) {
        let named = if host.is_empty() {
            String::new()
        } else {
            format!(", not {host}")
        };
        return Err(m.fail(format!(
            "url must name a loopback host (127.0.0.1, localhost or [::1]){named}"
        )));
    }
    if !rest.is_empty() {
        // Read as Go's strconv.Atoi reads it (a sign is allowed), so every driver takes the same ports.
        let port = rest.strip_prefix(':').and_then(|digits| digits.parse::<i64>().ok());
        match port {
            Some(0) => return Err(m.fail("url has port 0, outside 1..65535")),
            Some(1..=65535) => {}
            _ => return Err(m.fail("url is not a URL")),
        }
    }
    let variable = m.string("bearer_token_env")?;
    let Some(token) = lookup(&variable) else {
        return Err(m.fail(format!(
            "bearer_token_env {variable} is not set in the driver's environment"
        )));
    };
    if token.len() < MIN_TOKEN_LENGTH {
        return Err(m.fail(format!(
            "bearer_token_env {variable} holds a token shorter than {MIN_TOKEN_LENGTH} characters"
        )));
    }
    if !token.bytes().all(|b| (0x21..=0x7e).contains(&b)) {
        return Err(m.fail(format!(
            "bearer_token_env {variable} holds a character other than printable ASCII (no spaces)"
        )));
    }
    Ok(HttpServer {
        url,
        token_env: variable,
        token: Token(token),
    })
}

/// What the steps before a given step leave behind, for the "used before" checks.
#[derive(Debug, Clone, Default)]
struct Scope {
    open: BTreeSet<String>,
    saved: BTreeSet<String>,
}

impl Scope {
    fn apply(&mut self, step: &Step) {
        match &step.kind {
            StepKind::Connect { .. } => {
                self.open.insert(step.connection.clone());
            }
            StepKind::Close => {
                self.open.remove(&step.connection);
            }
            StepKind::CallOnce(CallOnce {
                save_state: Some(name), ..
            }) => {
                self.saved.insert(name.clone());
            }
            _ => {}
        }
    }
}

fn parse_step(
    raw: &Value,
    index: usize,
    servers: &BTreeMap<String, Server>,
    scope: &mut Scope,
) -> Result<TopStep, ScriptError> {
    let Value::Object(object) = raw else {
        return Err(ScriptError::new(&format!("step {index}: "), "must be an object"));
    };
    if object.get("op").and_then(Value::as_str) != Some(Op::Parallel.name()) {
        let step = parse_inner(object, StepId::Top(index), servers, scope)?;
        scope.apply(&step);
        return Ok(TopStep::Single(step));
    }
    // Inner steps run at once: each sees what the steps before the parallel step left; what they open, close or
    // save counts from the next step on.
    let m = Members::new(format!("step {index} (parallel): "), object, Op::Parallel.members())?;
    let inner = match object.get("steps") {
        Some(Value::Array(inner)) if !inner.is_empty() => inner,
        _ => return Err(m.fail("steps must be a non-empty array")),
    };
    let before = scope.clone();
    let mut used: BTreeMap<String, StepId> = BTreeMap::new();
    let mut steps = Vec::with_capacity(inner.len());
    for (position, child) in inner.iter().enumerate() {
        let id = StepId::Inner(index, position);
        let Value::Object(child_object) = child else {
            return Err(ScriptError::new(&format!("step {id}: "), "must be an object"));
        };
        if child_object.get("op").and_then(Value::as_str) == Some(Op::Parallel.name()) {
            return Err(ScriptError::new(
                &format!("step {id} (parallel): "),
                "a parallel step cannot contain another one",
            ));
        }
        let step = parse_inner(child_object, id, servers, &before)?;
        if let Some(earlier) = used.get(&step.connection) {
            return Err(ScriptError::new(
                &format!("step {id} ({}): ", step.op().name()),
                format!(
                    "connection {} is already used by step {earlier} of this parallel step",
                    quoted(&step.connection)
                ),
            ));
        }
        used.insert(step.connection.clone(), id);
        scope.apply(&step);
        steps.push(step);
    }
    Ok(TopStep::Parallel(steps))
}

fn parse_inner(
    object: &JsonObject,
    id: StepId,
    servers: &BTreeMap<String, Server>,
    before: &Scope,
) -> Result<Step, ScriptError> {
    let Some(raw_op) = object.get("op") else {
        return Err(ScriptError::new(&format!("step {id}: "), "op is required"));
    };
    let op = match raw_op.as_str().and_then(Op::from_name) {
        Some(op) if op != Op::Parallel => op,
        _ => {
            return Err(ScriptError::new(
                &format!("step {id}: "),
                format!("unknown op {}", shown(raw_op)),
            ));
        }
    };
    let m = Members::new(format!("step {id} ({}): ", op.name()), object, op.members())?;
    let connection = m.string("connection")?;
    if op == Op::Connect {
        let server = m.string("server")?;
        if !servers.contains_key(&server) {
            return Err(m.fail(format!("unknown server {}", quoted(&server))));
        }
        if before.open.contains(&connection) {
            return Err(m.fail(format!("connection {} is already connected", quoted(&connection))));
        }
        return Ok(Step {
            id,
            connection,
            kind: StepKind::Connect { server },
        });
    }
    if !before.open.contains(&connection) {
        return Err(m.fail(format!(
            "connection {} is used before it is connected",
            quoted(&connection)
        )));
    }
    let kind = match op {
        Op::ListTools => StepKind::ListTools,
        Op::Close => StepKind::Close,
        Op::Status => StepKind::Status {
            operation_id: m.string("operation_id")?,
        },
        Op::Call => StepKind::Call {
            tool: m.string("tool")?,
            arguments: m.object("arguments")?,
            answer: m.optional_object("answer")?,
        },
        Op::CallOnce => StepKind::CallOnce(parse_call_once(&m, before)?),
        Op::Connect | Op::Parallel => unreachable!("handled above"),
    };
    Ok(Step { id, connection, kind })
}

fn parse_call_once(m: &Members<'_>, before: &Scope) -> Result<CallOnce, ScriptError> {
    let tool = m.string("tool")?;
    let arguments = m.object("arguments")?;
    let input_responses = m.optional_object("input_responses")?;
    let state = m.optional_string("state")?;
    if let Some(name) = &state
        && !before.saved.contains(name)
    {
        return Err(m.fail(format!("state {} is used before it is saved", quoted(name))));
    }
    if state.is_none() && m.has("state_transform") {
        return Err(m.fail("state_transform needs a state"));
    }
    let tamper = m.one_of("state_transform", &["none", "tamper"], "none")? == "tamper";
    let save_state = m.optional_string("save_state")?;
    m.one_of("ts_api", &["callTool", "request"], "callTool")?;
    Ok(CallOnce {
        tool,
        arguments,
        input_responses,
        state: state.map(|name| SavedStateUse { name, tamper }),
        save_state,
    })
}

/// The seed's tamper, as case 05 applies it: the middle character becomes `A`, or `B` if it already is.
pub fn tamper(token: &str) -> String {
    let chars: Vec<char> = token.chars().collect();
    let middle = chars.len() / 2;
    if middle >= chars.len() {
        return token.to_owned();
    }
    let replacement = if chars[middle] == 'A' { 'B' } else { 'A' };
    chars
        .iter()
        .enumerate()
        .map(|(i, c)| if i == middle { replacement } else { *c })
        .collect()
}
