//! The strict frame gate between stdin and rmcp's line transport, and its HTTP counterpart for POST bodies
//! (`judge_http_body`).
//!
//! rmcp 3.11.0 reads each stdin line into its typed message with serde_json. A line it cannot type is dropped
//! without a reply when serde_json calls the failure a syntax error (a number beyond f64 such as `1e400`, nesting
//! deeper than 128), and a `tools/call` whose `requestState` is not a string is answered -32601 with the method
//! name as its message (docs/findings/rust-sdk-stdio-frames.md). So every line is judged here first, with the
//! verdicts of the TypeScript gate where `vectors/rules/strict-frames.json` gives them, and only lines the SDK
//! types reach it, byte for byte or as the gate read them.

use rmcp::model::{ClientJsonRpcMessage, ClientRequest, JsonRpcMessage};
use serde::de::{Deserializer as _, IgnoredAny, MapAccess, Visitor};
use serde_json::value::RawValue;
use std::collections::HashMap;
use crate::fingerprint::push_quoted;
use std::fmt;

pub const PROTOCOL_VERSION: &str = "2026-07-28";
pub const VERSION_KEY: &str = "io.modelcontextprotocol/protocolVersion";
pub const STATE_REFUSAL_MESSAGE: &str = "Invalid or expired requestState";
pub const STATE_REFUSAL_REASON: &str = "invalid_request_state";
/// Below rmcp's own line limit; a longer line is answered once and discarded without being kept.
pub const MAX_LINE_BYTES: usize = 8 * 1024 * 1024;
/// encoding/json's and Jackson's order of magnitude: deeper is not treated as JSON at all.
const MAX_DEPTH: usize = 10_000;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// To the SDK: as read (`None`) or this line instead.
    Forward(Option<String>),
    /// This one line on stdout, nothing to the SDK.
    Reply(String),
    Drop,
}

/// `{"jsonrpc":"2.0"[,"id":<id>],"error":{"code","message"[,"data"]}}`; `id` and `data` are JSON text.
pub fn error_line(id: Option<&str>, code: i64, message: &str, data: Option<&str>) -> String {
    let mut out = String::from(r#"{"jsonrpc":"2.0","#);
    if let Some(id) = id {
        out.push_str(r#""id":"#);
        out.push_str(id);
        out.push(',');
    }
    out.push_str(r#""error":{"code":"#);
    out.push_str(&code.to_string());
    out.push_str(r#","message":"#);
    push_quoted(&mut out, message);
    if let Some(data) = data {
        out.push_str(r#","data":"#);
        out.push_str(data);
    }
    out.push_str("}}");
    out
}

pub fn parse_error() -> String {
    error_line(None, -32700, "Parse error", None)
}

pub fn invalid_request(id: Option<&str>) -> String {
    error_line(id, -32600, "Invalid Request", None)
}

pub fn too_large() -> String {
    error_line(None, -32600, "Invalid Request: line longer than 8 MiB", None)
}

pub fn state_refusal(id: Option<&str>) -> String {
    error_line(id, -32602, STATE_REFUSAL_MESSAGE, Some(&format!(r#"{{"reason":"{STATE_REFUSAL_REASON}"}}"#)))
}

/// Whether a JSON text nests at most [`MAX_DEPTH`] deep (strings skipped): deeper is refused before any
/// recursive reader sees it.
fn depth_within_limit(text: &[u8]) -> bool {
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for &b in text {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return false;
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    true
}

/// Exactly one RFC 8259 value with optional whitespace around it. Numbers are checked for spelling only.
fn is_json(text: &str) -> bool {
    if !depth_within_limit(text.as_bytes()) {
        return false;
    }
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    de.deserialize_ignored_any(IgnoredAny).is_ok() && de.end().is_ok()
}

/// An object's members in first-seen order, each with its last value, and whether any member repeats (rmcp's
/// typed messages refuse a repeated member even with the same value).
struct Members {
    list: Vec<(String, Box<RawValue>)>,
    changed: bool,
}

impl Members {
    fn get(&self, name: &str) -> Option<&RawValue> {
        self.list.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_ref())
    }

    fn has(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    fn write(&self) -> String {
        let mut out = String::from("{");
        for (i, (name, value)) in self.list.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            push_quoted(&mut out, name);
            out.push(':');
            out.push_str(value.get());
        }
        out.push('}');
        out
    }
}

struct MembersVisitor;

impl<'de> Visitor<'de> for MembersVisitor {
    type Value = Members;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Members, A::Error> {
        let mut members = Members { list: Vec::new(), changed: false };
        let mut at: HashMap<String, usize> = HashMap::new();
        while let Some(name) = map.next_key::<String>()? {
            let value: Box<RawValue> = map.next_value()?;
            match at.get(&name) {
                Some(&i) => {
                    members.changed = true;
                    members.list[i].1 = value;
                }
                None => {
                    at.insert(name.clone(), members.list.len());
                    members.list.push((name, value));
                }
            }
        }
        Ok(members)
    }
}

/// The members of a JSON text that is an object, else `None`.
fn members(raw: Option<&RawValue>) -> Option<Members> {
    let text = raw?.get().trim_start();
    if !text.starts_with('{') {
        return None;
    }
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    de.deserialize_map(MembersVisitor).ok()
}

fn is_object(raw: Option<&RawValue>) -> bool {
    raw.is_some_and(|r| r.get().starts_with('{'))
}

fn is_string(raw: Option<&RawValue>) -> bool {
    raw.is_some_and(|r| r.get().starts_with('"'))
}

fn string_value(raw: Option<&RawValue>) -> Option<String> {
    raw.filter(|r| r.get().starts_with('"')).and_then(|r| serde_json::from_str::<String>(r.get()).ok())
}

/// The id's JSON text for a reply if it is a valid MCP id: a string as sent, or an integer spelt as one within
/// ±(2^53−1), in plain decimal (`-0` as `0`).
pub fn valid_id(raw: &RawValue) -> Option<String> {
    let text = raw.get();
    if text.starts_with('"') {
        return Some(text.to_owned());
    }
    let digits = text.strip_prefix('-').unwrap_or(text);
    let spelt_as_integer = !digits.is_empty()
        && digits.len() <= 16
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (digits == "0" || !digits.starts_with('0'));
    if !spelt_as_integer {
        return None;
    }
    let n: i64 = text.parse().ok()?;
    (n.abs() <= (1i64 << 53) - 1).then(|| n.to_string())
}

type Answer = Box<dyn Fn(Option<&str>) -> String>;

/// The TypeScript gate's rules for requests and notifications.
fn problem(msg: &Members) -> Option<Answer> {
    let invalid: Answer = Box::new(invalid_request);
    if string_value(msg.get("jsonrpc")).as_deref() != Some("2.0") || !is_string(msg.get("method")) || msg.has("result") || msg.has("error") {
        return Some(invalid);
    }
    let Some(params_raw) = msg.get("params") else {
        return None;
    };
    if !is_object(Some(params_raw)) {
        return Some(invalid);
    }
    let params = members(Some(params_raw))?;
    let meta_raw = params.get("_meta")?;
    if !is_object(Some(meta_raw)) {
        return Some(Box::new(|id| error_line(id, -32602, "params._meta must be an object", None)));
    }
    let version = members(Some(meta_raw)).and_then(|meta| string_value(meta.get(VERSION_KEY)));
    match version {
        Some(v) if v != PROTOCOL_VERSION => Some(unsupported_version(v)),
        _ => None,
    }
}

/// -32022 with the one version this server speaks and the one asked for.
fn unsupported_version(requested: String) -> Answer {
    Box::new(move |id| {
        let mut data = format!(r#"{{"supported":["{PROTOCOL_VERSION}"],"requested":"#);
        push_quoted(&mut data, &requested);
        data.push('}');
        error_line(id, -32022, "Unsupported protocol version", Some(&data))
    })
}

/// This fixture's own rules for requests:
///
/// - an `initialize` (the handshake of the versions before 2026-07-28) gets -32022 with the supported version, as
///   the Python gate answers it: rmcp answers it -32022 too, but then ends the whole session, so every later line
///   goes unanswered;
/// - a `tools/call` whose `requestState` is present but not a string gets the frozen state refusal, where rmcp
///   would answer -32601 with the method's name.
fn request_problem(msg: &Members) -> Option<Answer> {
    let method = string_value(msg.get("method"));
    let params = members(msg.get("params"));
    if method.as_deref() == Some("initialize") && params.as_ref().is_some_and(|p| p.has("protocolVersion")) {
        let requested = params.as_ref().and_then(|p| string_value(p.get("protocolVersion"))).unwrap_or_default();
        return Some(unsupported_version(requested));
    }
    let state = params?.get("requestState")?.to_owned();
    (method.as_deref() == Some("tools/call") && !is_string(Some(&state))).then(|| Box::new(state_refusal) as Answer)
}

/// The line the SDK is to read: the object as sent, or, when a member repeats, each member
/// once at its first place with its last value (serde refuses a repeated field of a typed struct outright), the
/// same one level down in params.
fn as_judged(object: &str, msg: &Members) -> Option<String> {
    let params = members(msg.get("params")).filter(|p| p.changed);
    if !msg.changed && params.is_none() {
        return None;
    }
    let mut list: Vec<(String, Box<RawValue>)> = msg.list.clone();
    if let Some(params) = params {
        for (name, value) in list.iter_mut() {
            if name == "params" {
                *value = RawValue::from_string(params.write()).expect("members write JSON");
            }
        }
    }
    let _ = object;
    Some(Members { list, changed: false }.write())
}

/// Whether rmcp's transport types this line: it drops or misanswers what it cannot.
fn sdk_reads(line: &str) -> bool {
    serde_json::from_str::<rmcp::model::ClientJsonRpcMessage>(line).is_ok()
}

/// A request the gate lets through that the SDK cannot type: answered here, with its id.
fn unreadable(id: Option<&str>) -> String {
    error_line(id, -32602, "Invalid params: the request cannot be read (a number beyond 64-bit floating point, or nesting deeper than 128)", None)
}

pub fn judge(line: &[u8]) -> Verdict {
    if line.is_empty() || line == b"\r" {
        return Verdict::Drop;
    }
    let Ok(text) = std::str::from_utf8(line) else {
        return Verdict::Reply(parse_error());
    };
    if !is_json(text) {
        return Verdict::Reply(parse_error());
    }
    let trimmed = text.trim_start_matches([' ', '\t', '\r', '\n']);
    let Some(msg) = (trimmed.starts_with('{')).then(|| members(RawValue::from_string(trimmed.to_owned()).ok().as_deref())).flatten() else {
        return Verdict::Reply(invalid_request(None));
    };
    let forward = || {
        let judged = as_judged(trimmed, &msg);
        Verdict::Forward(judged)
    };
    let (has_id, has_method, has_result, has_error) = (msg.has("id"), msg.has("method"), msg.has("result"), msg.has("error"));
    if !has_id {
        if has_method {
            return if problem(&msg).is_none() && sdk_reads_verdict(trimmed, &forward()) { forward() } else { Verdict::Drop };
        }
        if has_result || has_error {
            return forward();
        }
        return Verdict::Reply(invalid_request(None));
    }
    if !has_method && (has_result || has_error) {
        return forward();
    }
    let Some(id) = msg.get("id").and_then(valid_id) else {
        return Verdict::Reply(invalid_request(None));
    };
    if let Some(answer) = problem(&msg).or_else(|| request_problem(&msg)) {
        return Verdict::Reply(answer(Some(&id)));
    }
    let verdict = forward();
    if !sdk_reads_verdict(trimmed, &verdict) {
        return Verdict::Reply(unreadable(Some(&id)));
    }
    verdict
}

fn sdk_reads_verdict(trimmed: &str, verdict: &Verdict) -> bool {
    match verdict {
        Verdict::Forward(Some(line)) => sdk_reads(line),
        _ => sdk_reads(trimmed),
    }
}

/// What the HTTP gate makes of one POST body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HttpBody {
    /// To the SDK: the body as sent (`None`) or as the gate read it.
    Forward(Option<String>),
    /// Answered here with 400 and this line; the SDK never sees the body.
    Refuse(String),
}

/// The HTTP gate (docs/http.md, "Strict bodies"): the Java server's three rules, the Go fixture's two HTTP rules,
/// and one for what rmcp 3.11.0 cannot type.
///
/// - not strict UTF-8, not JSON, empty, or more than one JSON value: -32700 without id;
/// - JSON but not an object: -32600 without id;
/// - `jsonrpc` missing or not the string "2.0" (the last of repeated members counts): -32600, with the id when it
///   is a string or an integer within ±(2^53−1);
/// - a request whose id is present but not such a string or integer: -32600 without id (rmcp would run
///   9007199254740992 as an id that JavaScript clients cannot read back);
/// - a `tools/call` whose `requestState` is present but not a string: the frozen state refusal, as on stdio;
/// - a body rmcp cannot type (a number beyond f64, nesting deeper than 128, `params` or `_meta` not an object,
///   …), which rmcp answers 415 "fail to deserialize request body" with serde's words: the stdio
///   gate's line for it, else -32602 "the request cannot be read";
/// - a request of a 2026-07-28 method whose params its typed request cannot hold (`"arguments":5`, `"name":7`),
///   which rmcp reads as a custom request and answers 404 -32601 with the method's name: -32602 "Invalid params".
///
/// A repeated member reaches the SDK as the gate read it (its first place, its last value), as on stdio: serde
/// refuses a repeated field of a typed struct outright.
pub fn judge_http_body(body: &[u8]) -> HttpBody {
    let Ok(text) = std::str::from_utf8(body) else {
        return HttpBody::Refuse(parse_error());
    };
    if !is_json(text) {
        return HttpBody::Refuse(parse_error());
    }
    let trimmed = text.trim_start_matches([' ', '\t', '\r', '\n']);
    let msg = trimmed
        .starts_with('{')
        .then(|| RawValue::from_string(trimmed.to_owned()).ok())
        .flatten()
        .and_then(|raw| members(Some(&raw)));
    let Some(msg) = msg else {
        return HttpBody::Refuse(invalid_request(None));
    };
    if string_value(msg.get("jsonrpc")).as_deref() != Some("2.0") {
        let id = msg.get("id").and_then(valid_id);
        return HttpBody::Refuse(invalid_request(id.as_deref()));
    }
    let id = match (msg.has("method"), msg.get("id")) {
        (true, Some(raw)) => match valid_id(raw) {
            Some(id) => Some(id),
            None => return HttpBody::Refuse(invalid_request(None)),
        },
        _ => None,
    };
    let method = string_value(msg.get("method"));
    let state = members(msg.get("params")).and_then(|p| p.get("requestState").map(|s| s.get().to_owned()));
    if method.as_deref() == Some("tools/call") && state.is_some_and(|s| !s.starts_with('"')) {
        return HttpBody::Refuse(state_refusal(id.as_deref()));
    }
    let judged = as_judged(trimmed, &msg);
    match serde_json::from_str::<ClientJsonRpcMessage>(judged.as_deref().unwrap_or(trimmed)) {
        Err(_) => HttpBody::Refuse(match judge(trimmed.as_bytes()) {
            Verdict::Reply(line) => line,
            _ => unreadable(id.as_deref()),
        }),
        Ok(JsonRpcMessage::Request(request)) if misread(&request.request) => {
            HttpBody::Refuse(error_line(id.as_deref(), -32602, "Invalid params", None))
        }
        Ok(_) => HttpBody::Forward(judged),
    }
}

/// The request methods of 2026-07-28 (extensions aside). A removed one (`initialize`, `ping`, `logging/setLevel`,
/// `resources/subscribe`) or an unknown one stays rmcp's -32601 with HTTP 404, as the suite expects.
const CURRENT_METHODS: [&str; 10] = [
    "server/discover",
    "completion/complete",
    "prompts/get",
    "prompts/list",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "subscriptions/listen",
    "tools/call",
    "tools/list",
];

/// A request of a current method that rmcp could only read as a custom request.
fn misread(request: &ClientRequest) -> bool {
    matches!(request, ClientRequest::CustomRequest(custom) if CURRENT_METHODS.contains(&custom.method.as_str()))
}

/// The id to echo in a refusal of a body the HTTP gate passed: a request's id as sent, `None` for a notification.
pub fn http_request_id(body: &[u8]) -> Option<String> {
    let text = std::str::from_utf8(body).ok()?.trim_start_matches([' ', '\t', '\r', '\n']);
    let msg = members(RawValue::from_string(text.to_owned()).ok().as_deref())?;
    if !msg.has("method") {
        return None;
    }
    valid_id(msg.get("id")?)
}

/// The `params` of a body the HTTP gate passed, as JSON text, if it has an object there.
pub fn http_params(body: &[u8]) -> Option<String> {
    let text = std::str::from_utf8(body).ok()?.trim_start_matches([' ', '\t', '\r', '\n']);
    let msg = members(RawValue::from_string(text.to_owned()).ok().as_deref())?;
    msg.get("params").filter(|p| p.get().starts_with('{')).map(|p| p.get().to_owned())
}
