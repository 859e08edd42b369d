//! The conformance profile (`--http PORT --conformance`): the official conformance suite's fixture tools, prompts,
//! resources and completion (`@modelcontextprotocol/conformance` 0.2.0-alpha.12, requirements 2026-07-28) beside
//! the guarded tools, with the TypeScript and Go fixtures' list and texts. None of them has an effect.
//!
//! The multi-round fixtures seal every requestState they issue (`state`) and read their progress only from the
//! opened payload. `test_input_required_result_elicitation` is the one exception, forced by the suite: its
//! ignore-extra-params and missing-input-response scenarios continue it without any state and expect it to complete
//! or ask again, so it issues none, and a state sent to it is refused.

mod state;

pub use state::{Call, Clock, MAX_STATE_LENGTH, StateProblem, States, system_clock};

use crate::config::{self, ConfigError};
use crate::fingerprint::{self, Object, Value};
use crate::httpserve::SentParams;
use crate::server::{self, Fixture, Principal, from_http, state_refusal};
use rmcp::model::*;
use rmcp::service::{RequestContext, RoleServer, SubscriptionContext, SubscriptionSink};
use rmcp::{ErrorData, ServerHandler};
use serde_json::json;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// Every request's principal when the profile runs without a tokens file.
pub const PRINCIPAL: &str = "conformance";
/// How long the fixtures' states live (whole seconds), read like the other TTLs; unset or empty is the default.
pub const STATE_TTL_VARIABLE: &str = "WIRE_CONFORMANCE_STATE_TTL";
pub const DEFAULT_STATE_TTL: u64 = 60;

const TOOLS_CALL: &str = "tools/call";
const PROMPTS_GET: &str = "prompts/get";

const ELICITATION: &str = "test_input_required_result_elicitation";
const SAMPLING: &str = "test_input_required_result_sampling";
const LIST_ROOTS: &str = "test_input_required_result_list_roots";
const REQUEST_STATE: &str = "test_input_required_result_request_state";
const MULTIPLE_INPUTS: &str = "test_input_required_result_multiple_inputs";
const MULTI_ROUND: &str = "test_input_required_result_multi_round";
const TAMPERED_STATE: &str = "test_input_required_result_tampered_state";
const CAPABILITIES: &str = "test_input_required_result_capabilities";
const MISSING_CAPABILITY: &str = "test_missing_capability";
const STREAMING_ELICITATION: &str = "test_streaming_elicitation";
const MRTR_PROMPT: &str = "test_input_required_result_prompt";
const ARGUMENTS_PROMPT: &str = "test_prompt_with_arguments";
const TRIGGER_TOOL_CHANGE: &str = "test_trigger_tool_change";
const TRIGGER_PROMPT_CHANGE: &str = "test_trigger_prompt_change";

/// A 1×1 PNG and a 1 ms WAV, made for these fixtures.
const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC";
const WAV: &str = "UklGRiwAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQgAAACAgICAgICAgA==";

/// The tools, in the order they are listed after the guarded ones.
const TOOLS: [(&str, &str); 20] = [
    ("test_simple_text", "Returns one text block."),
    ("test_image_content", "Returns one PNG image."),
    ("test_audio_content", "Returns one WAV clip."),
    ("test_embedded_resource", "Returns an embedded text resource."),
    ("test_multiple_content_types", "Returns text, an image and an embedded resource."),
    ("test_error_handling", "Always fails, as a tool error result."),
    ("test_tool_with_progress", "Reports progress 0, 50 and 100 of 100 when given a progress token."),
    ("test_logging_tool", "Logs at info level; nothing is sent unless the request asked for a log level."),
    (TRIGGER_TOOL_CHANGE, "Announces a tool list change to open subscriptions."),
    (TRIGGER_PROMPT_CHANGE, "Announces a prompt list change to open subscriptions."),
    (ELICITATION, "Asks for a name (user_name) and greets it; issues no requestState."),
    (SAMPLING, "Asks the client to sample an answer (capital_question)."),
    (LIST_ROOTS, "Asks for the client's roots (client_roots)."),
    (REQUEST_STATE, "Asks for a confirmation (confirm) and says state-ok once its sealed state came back."),
    (MULTIPLE_INPUTS, "Asks for a name, a sampled greeting and the roots in one round."),
    (MULTI_ROUND, "Asks for a name (step1), then a colour (step2), each round with a new sealed state."),
    (TAMPERED_STATE, "Asks for a confirmation; a continuation whose state fails verification is refused."),
    (CAPABILITIES, "Asks only for what the request's client capabilities declare."),
    (MISSING_CAPABILITY, "Always asks for sampling."),
    (STREAMING_ELICITATION, "Asks for a name by input_required, never by a request of its own."),
];

/// `WIRE_CONFORMANCE_STATE_TTL`, default 60 seconds.
pub fn state_ttl(env: impl Fn(&str) -> Option<String>) -> Result<u64, ConfigError> {
    match env(STATE_TTL_VARIABLE) {
        Some(v) if !v.is_empty() => config::positive_seconds(env, STATE_TTL_VARIABLE),
        _ => Ok(DEFAULT_STATE_TTL),
    }
}

/// One question of an input_required result.
#[derive(Debug, Clone)]
enum Ask {
    Elicit { message: &'static str, schema: serde_json::Value },
    Sample { prompt: &'static str, max_tokens: u32 },
    Roots,
}

fn string_schema(fields: &[&str]) -> serde_json::Value {
    let properties: serde_json::Map<String, serde_json::Value> = fields.iter().map(|f| (f.to_string(), json!({"type": "string"}))).collect();
    json!({"type": "object", "properties": properties, "required": fields})
}

fn ask_name(message: &'static str) -> Ask {
    Ask::Elicit { message, schema: string_schema(&["name"]) }
}

fn ask_confirm() -> Ask {
    Ask::Elicit { message: "Please confirm", schema: json!({"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}) }
}

fn ask_color() -> Ask {
    Ask::Elicit { message: "Step 2: What is your favorite color?", schema: string_schema(&["color"]) }
}

impl Ask {
    /// The capability it needs, its method, and `data.requiredCapabilities` when undeclared.
    fn needs(&self) -> (&'static str, &'static str, serde_json::Value) {
        match self {
            Ask::Elicit { .. } => ("elicitation", "elicitation/create", json!({"elicitation": {"form": {}}})),
            Ask::Sample { .. } => ("sampling", "sampling/createMessage", json!({"sampling": {}})),
            Ask::Roots => ("roots", "roots/list", json!({"roots": {}})),
        }
    }

    fn request(&self) -> Result<InputRequest, ErrorData> {
        let wire = match self {
            Ask::Elicit { message, schema } => {
                json!({"method": "elicitation/create", "params": {"mode": "form", "message": message, "requestedSchema": schema}})
            }
            Ask::Sample { prompt, max_tokens } => json!({"method": "sampling/createMessage",
                "params": {"messages": [{"role": "user", "content": {"type": "text", "text": prompt}}], "maxTokens": max_tokens}}),
            Ask::Roots => json!({"method": "roots/list"}),
        };
        serde_json::from_value(wire).map_err(|e| ErrorData::internal_error(format!("an input request: {e}"), None))
    }
}

type Asks = BTreeMap<String, Ask>;

fn asks<const N: usize>(list: [(&str, Ask); N]) -> Asks {
    list.into_iter().map(|(key, ask)| (key.to_owned(), ask)).collect()
}

/// One round of a sealed fixture.
enum Outcome {
    /// A complete tool result of one text block.
    Done(String),
    /// A complete prompt of one user text message.
    Prompt(String),
    /// These questions, and the progress to seal.
    Ask(Asks, Value),
}

fn done(text: impl Into<String>) -> Outcome {
    Outcome::Done(text.into())
}

/// A request as the HTTP layer handed it over: the params as sent, read exactly, and the principal.
struct Sent {
    params: Object,
    principal: String,
}

fn sent(context: &RequestContext<RoleServer>) -> Result<Sent, ErrorData> {
    let Some(Principal(principal)) = from_http::<Principal>(context) else {
        return Err(ErrorData::internal_error("an unauthenticated request reached the SDK", None));
    };
    let params = from_http::<SentParams>(context).and_then(|SentParams(text)| fingerprint::parse_exact(text.as_bytes()).ok());
    let Some(Value::Object(params)) = params else {
        return Err(ErrorData::internal_error("the request's params were not handed over", None));
    };
    Ok(Sent { params, principal: principal.clone() })
}

fn object(value: Option<&Value>) -> Option<&Object> {
    match value {
        Some(Value::Object(o)) => Some(o),
        _ => None,
    }
}

fn text(value: Option<&Value>) -> Option<&str> {
    match value {
        Some(Value::String(s)) => Some(s),
        _ => None,
    }
}

/// The request's own clientCapabilities.
fn declared(params: &Object) -> Option<&Object> {
    object(object(params.get("_meta"))?.get("io.modelcontextprotocol/clientCapabilities"))
}

fn accepted_content(responses: Option<&Object>, key: &str) -> Option<Object> {
    let response = object(responses?.get(key))?;
    if text(response.get("action")) != Some("accept") {
        return None;
    }
    Some(object(response.get("content")).cloned().unwrap_or_default())
}

fn accepted_string(responses: Option<&Object>, key: &str, field: &str) -> Option<String> {
    text(accepted_content(responses, key)?.get(field)).map(str::to_owned)
}

/// The first text block of a sampling result (its content one block or a list).
fn sampled_text(responses: Option<&Object>, key: &str) -> Option<String> {
    let response = object(responses?.get(key))?;
    if matches!(response.get("role"), None | Some(Value::Null)) {
        return None;
    }
    let blocks = match response.get("content") {
        Some(Value::Array(blocks)) => blocks.iter().collect(),
        other => other.into_iter().collect::<Vec<_>>(),
    };
    blocks
        .into_iter()
        .filter_map(|b| object(Some(b)))
        .filter(|b| text(b.get("type")) == Some("text"))
        .find_map(|b| text(b.get("text")).map(str::to_owned))
}

fn root_uris(responses: Option<&Object>, key: &str) -> Option<Vec<String>> {
    let Some(Value::Array(roots)) = object(responses?.get(key))?.get("roots") else {
        return None;
    };
    Some(roots.iter().filter_map(|r| text(object(Some(r))?.get("uri")).map(str::to_owned)).collect())
}

/// -32021 when a question needs a capability the request's own clientCapabilities do not declare: rmcp sends input
/// requests whatever the client declared.
fn undeclared(params: &Object, questions: &Asks) -> Result<(), ErrorData> {
    let declared = declared(params);
    for (key, ask) in questions {
        let (capability, method, required) = ask.needs();
        if object(declared.and_then(|d| d.get(capability))).is_none() {
            return Err(ErrorData::new(
                ErrorCode(-32021),
                format!("Cannot request input '{key}' ({method}): the request's client capabilities do not declare {capability}"),
                Some(json!({"requiredCapabilities": required})),
            ));
        }
    }
    Ok(())
}

/// The step of each sealed fixture: the opened data (`None` on a first round), the responses (only with a state)
/// and the params as sent.
fn step(name: &str, data: Option<&Value>, responses: Option<&Object>, params: &Object) -> Outcome {
    let asked = matches!(data, Some(Value::String(d)) if d == "asked");
    match name {
        SAMPLING => match sampled_text(responses, "capital_question").filter(|_| asked) {
            Some(answer) => done(format!("Sampling response: {answer}")),
            None => Outcome::Ask(asks([("capital_question", Ask::Sample { prompt: "What is the capital of France?", max_tokens: 100 })]), "asked".into()),
        },
        LIST_ROOTS => match root_uris(responses, "client_roots").filter(|_| asked) {
            Some(roots) if roots.is_empty() => done("Client roots: (none)"),
            Some(roots) => done(format!("Client roots: {}", roots.join(", "))),
            None => Outcome::Ask(asks([("client_roots", Ask::Roots)]), "asked".into()),
        },
        REQUEST_STATE => match accepted_content(responses, "confirm").filter(|_| asked) {
            Some(answer) => {
                let ok = match answer.get("ok") {
                    None | Some(Value::Null) => "undefined".to_owned(),
                    Some(ok) => fingerprint::canonical(ok).unwrap_or_default(),
                };
                done(format!("state-ok: the requestState verified; ok={ok}"))
            }
            None => Outcome::Ask(asks([("confirm", ask_confirm())]), "asked".into()),
        },
        MULTIPLE_INPUTS => {
            let answers = (
                accepted_string(responses, "user_name", "name"),
                sampled_text(responses, "greeting"),
                root_uris(responses, "client_roots"),
            );
            match answers {
                (Some(name), Some(greeting), Some(roots)) if asked => {
                    done(format!("name={name}; greeting={greeting}; roots={}", roots.join(", ")))
                }
                _ => Outcome::Ask(
                    asks([
                        ("user_name", ask_name("What is your name?")),
                        ("greeting", Ask::Sample { prompt: "Generate a greeting", max_tokens: 50 }),
                        ("client_roots", Ask::Roots),
                    ]),
                    "asked".into(),
                ),
            }
        }
        MULTI_ROUND => {
            let named = |name: String| Value::Object(Object::from([("name".to_owned(), Value::from(name))]));
            if let Some(name) = object(data).and_then(|d| text(d.get("name"))) {
                return match accepted_string(responses, "step2", "color") {
                    Some(color) => done(format!("{name} likes {color}.")),
                    None => Outcome::Ask(asks([("step2", ask_color())]), named(name.to_owned())),
                };
            }
            let first_round_answered = matches!(data, Some(Value::String(d)) if d == "step1");
            match accepted_string(responses, "step1", "name").filter(|_| first_round_answered) {
                Some(name) => Outcome::Ask(asks([("step2", ask_color())]), named(name)),
                None => Outcome::Ask(asks([("step1", ask_name("Step 1: What is your name?"))]), "step1".into()),
            }
        }
        TAMPERED_STATE => match accepted_content(responses, "confirm").filter(|_| asked) {
            Some(_) => done("The requestState verified."),
            None => Outcome::Ask(asks([("confirm", ask_confirm())]), "asked".into()),
        },
        CAPABILITIES => {
            if let (true, Some(responses)) = (asked, responses) {
                let answered: Vec<&str> = responses.keys().map(String::as_str).collect();
                let answered = if answered.is_empty() { "(nothing)".to_owned() } else { answered.join(", ") };
                return done(format!("Answered: {answered}"));
            }
            let declared = declared(params);
            let has = |capability: &str| declared.is_some_and(|d| d.contains_key(capability));
            let mut questions = Asks::new();
            if has("elicitation") {
                questions.insert("user_name".into(), ask_name("What is your name?"));
            }
            if has("sampling") {
                questions.insert("greeting".into(), Ask::Sample { prompt: "Generate a greeting", max_tokens: 50 });
            }
            if has("roots") {
                questions.insert("client_roots".into(), Ask::Roots);
            }
            if questions.is_empty() {
                return done("The client declared none of elicitation, sampling and roots; nothing to ask.");
            }
            Outcome::Ask(questions, "asked".into())
        }
        MISSING_CAPABILITY => match sampled_text(responses, "sample").filter(|_| asked) {
            Some(answer) => done(format!("Sampled: {answer}")),
            None => Outcome::Ask(asks([("sample", Ask::Sample { prompt: "Say something", max_tokens: 20 })]), "asked".into()),
        },
        STREAMING_ELICITATION => match accepted_string(responses, "user_name", "name").filter(|_| asked) {
            Some(name) => done(format!("Hello, {name}!")),
            None => Outcome::Ask(asks([("user_name", ask_name("What is your name?"))]), "asked".into()),
        },
        MRTR_PROMPT => match accepted_string(responses, "user_context", "context").filter(|_| asked) {
            Some(context) => Outcome::Prompt(format!("Use this context: {context}")),
            None => Outcome::Ask(
                asks([("user_context", Ask::Elicit { message: "What context should the prompt use?", schema: string_schema(&["context"]) })]),
                "asked".into(),
            ),
        },
        _ => done(""),
    }
}

fn is_sealed_tool(name: &str) -> bool {
    [SAMPLING, LIST_ROOTS, REQUEST_STATE, MULTIPLE_INPUTS, MULTI_ROUND, TAMPERED_STATE, CAPABILITIES, MISSING_CAPABILITY, STREAMING_ELICITATION]
        .contains(&name)
}

/// A complete result from its wire form. rmcp's constructors set `resultType`, but a result read with serde has
/// none unless the JSON names it, and rmcp does not add it for a 2026-07-28 peer, where it is required.
fn complete<T: serde::de::DeserializeOwned>(what: &str, mut wire: serde_json::Value) -> Result<T, ErrorData> {
    wire["resultType"] = json!("complete");
    serde_json::from_value(wire).map_err(|e| ErrorData::internal_error(format!("{what}: {e}"), None))
}

fn tool_result(wire: serde_json::Value) -> Result<CallToolResult, ErrorData> {
    complete("a tool result", wire)
}

fn text_result(text: &str) -> Result<CallToolResult, ErrorData> {
    tool_result(json!({"content": [{"type": "text", "text": text}]}))
}

fn input_required(questions: &Asks, state: Option<String>) -> Result<InputRequiredResult, ErrorData> {
    let requests = questions.iter().map(|(key, ask)| Ok((key.clone(), ask.request()?))).collect::<Result<InputRequests, ErrorData>>()?;
    Ok(InputRequiredResult::new(Some(requests), state))
}

fn prompt_result(wire: serde_json::Value) -> Result<GetPromptResult, ErrorData> {
    complete("a prompt", wire)
}

fn user_text(text: &str) -> serde_json::Value {
    json!({"role": "user", "content": {"type": "text", "text": text}})
}

/// The listed form of a wire value (tools, prompts, resources, templates).
fn listed<T: serde::de::DeserializeOwned>(wire: serde_json::Value) -> T {
    serde_json::from_value(wire).expect("the profile's own listings are well formed")
}

fn completions(argument: &str) -> &'static [&'static str] {
    match argument {
        "arg1" => &["paris", "park", "party", "test", "testing"],
        "arg2" => &["world", "wonder", "work"],
        _ => &[],
    }
}

/// The conformance suite's fixtures beside the guarded tools.
#[derive(Clone)]
pub struct Profile {
    inner: Arc<Inner>,
}

struct Inner {
    guarded: Fixture,
    guarded_tools: Vec<Tool>,
    states: States,
    listeners: Mutex<Listeners>,
}

/// The open `subscriptions/listen` streams, which the list-change triggers notify.
#[derive(Default)]
struct Listeners {
    next: u64,
    open: Vec<(u64, SubscriptionSink)>,
}

impl Profile {
    pub fn new(guarded: Fixture, guarded_tools: Vec<Tool>, states: States) -> Profile {
        Profile { inner: Arc::new(Inner { guarded, guarded_tools, states, listeners: Mutex::default() }) }
    }

    fn listeners(&self) -> std::sync::MutexGuard<'_, Listeners> {
        self.inner.listeners.lock().unwrap_or_else(PoisonError::into_inner)
    }

    async fn announce(&self, tools: bool) {
        let sinks: Vec<SubscriptionSink> = self.listeners().open.iter().map(|(_, sink)| sink.clone()).collect();
        for sink in sinks {
            let _ = if tools { sink.notify_tool_list_changed().await } else { sink.notify_prompt_list_changed().await };
        }
    }

    /// One round of a sealed fixture: opens the state of a continuation (refusing a continuation without one),
    /// runs the step, and seals the next state.
    fn round(&self, method: &str, name: &str, sent: &Sent) -> Result<(Outcome, Option<String>), ErrorData> {
        let params = &sent.params;
        let call = Call { method, name, arguments: params.get("arguments"), principal: &sent.principal };
        let (data, responses) = match params.get("requestState") {
            Some(Value::String(token)) => match self.inner.states.open(token, &call) {
                Ok(data) => (Some(data), object(params.get("inputResponses"))),
                Err(why) => {
                    eprintln!("{name}: fixture state refused: {why}");
                    return Err(state_refusal());
                }
            },
            Some(_) => return Err(state_refusal()),
            // A continuation without its state: every sealed fixture depends on it, so none completes.
            None if params.contains_key("inputResponses") => return Err(state_refusal()),
            None => (None, None),
        };
        let outcome = step(name, data.as_ref(), responses, params);
        let Outcome::Ask(questions, progress) = outcome else {
            return Ok((outcome, None));
        };
        undeclared(params, &questions)?;
        let token = self.inner.states.seal(&call, progress).map_err(|why| {
            eprintln!("{name}: no fixture state: {why}");
            state_refusal()
        })?;
        Ok((Outcome::Ask(questions, Value::Null), Some(token)))
    }

    async fn fixture_tool(&self, name: &str, context: &RequestContext<RoleServer>) -> Result<CallToolResponse, ErrorData> {
        let image = json!({"type": "image", "data": PNG, "mimeType": "image/png"});
        let result = match name {
            "test_simple_text" => text_result("This is a simple text response for testing.")?,
            "test_image_content" => tool_result(json!({"content": [image]}))?,
            "test_audio_content" => tool_result(json!({"content": [{"type": "audio", "data": WAV, "mimeType": "audio/wav"}]}))?,
            "test_embedded_resource" => tool_result(json!({"content": [{"type": "resource", "resource": {
                "uri": "test://embedded-resource", "mimeType": "text/plain", "text": "This is an embedded resource content."}}]}))?,
            "test_multiple_content_types" => tool_result(json!({"content": [
                {"type": "text", "text": "Multiple content types test:"},
                image,
                {"type": "resource", "resource": {"uri": "test://mixed-content-resource", "mimeType": "application/json",
                    "text": r#"{"test":"data","value":123}"#}}]}))?,
            "test_error_handling" => tool_result(json!({"content": [{"type": "text", "text": "This tool intentionally returns an error for testing"}], "isError": true}))?,
            "test_tool_with_progress" => self.progress(context).await?,
            "test_logging_tool" => self.log(context).await?,
            TRIGGER_TOOL_CHANGE => {
                self.announce(true).await;
                text_result("Tool list change announced.")?
            }
            TRIGGER_PROMPT_CHANGE => {
                self.announce(false).await;
                text_result("Prompt list change announced.")?
            }
            ELICITATION => return self.elicitation(context),
            sealed if is_sealed_tool(sealed) => {
                let sent = sent(context)?;
                return match self.round(TOOLS_CALL, sealed, &sent)? {
                    (Outcome::Ask(questions, _), token) => Ok(input_required(&questions, token)?.into()),
                    (Outcome::Done(text), _) => Ok(text_result(&text)?.into()),
                    (Outcome::Prompt(_), _) => Err(ErrorData::internal_error("a tool made a prompt", None)),
                };
            }
            other => return Err(ErrorData::invalid_params(format!("Unknown tool: {other}"), None)),
        };
        Ok(result.into())
    }

    async fn progress(&self, context: &RequestContext<RoleServer>) -> Result<CallToolResult, ErrorData> {
        let token = context.meta.get_progress_token();
        for progress in [0.0, 50.0, 100.0] {
            if let Some(token) = &token {
                let param = ProgressNotificationParam::new(token.clone(), progress).with_total(100.0);
                let _ = context.peer.notify_progress(param).await;
            }
            if progress < 100.0 {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
        text_result(if token.is_some() { "Progress tool finished." } else { "Progress tool finished (no progress token)." })
    }

    /// One info message, sent only when the request's own `_meta` asked for info or a lower level (2026-07-28
    /// has no session to remember a level in).
    async fn log(&self, context: &RequestContext<RoleServer>) -> Result<CallToolResult, ErrorData> {
        const LEVELS: [&str; 8] = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];
        let sent = sent(context)?;
        let requested = text(object(sent.params.get("_meta")).and_then(|m| m.get("io.modelcontextprotocol/logLevel")));
        let rank = |level: &str| LEVELS.iter().position(|l| *l == level);
        if requested.and_then(rank).is_some_and(|r| r <= 1) {
            let message = json!({"method": "notifications/message", "params": {"level": "info", "data": "test_logging_tool ran"}});
            let notification: ServerNotification =
                serde_json::from_value(message).map_err(|e| ErrorData::internal_error(format!("a log message: {e}"), None))?;
            let _ = context.peer.send_notification(notification).await;
        }
        text_result("Logging tool finished.")
    }

    fn elicitation(&self, context: &RequestContext<RoleServer>) -> Result<CallToolResponse, ErrorData> {
        let sent = sent(context)?;
        // It issues no state, so none can be its own.
        if sent.params.contains_key("requestState") {
            return Err(state_refusal());
        }
        match accepted_string(object(sent.params.get("inputResponses")), "user_name", "name") {
            Some(name) => Ok(text_result(&format!("Hello, {name}!"))?.into()),
            // No answer to user_name (none, another key, not an accepted form): ask again, as SEP-2322 recommends.
            None => Ok(input_required(&asks([("user_name", ask_name("What is your name?"))]), None)?.into()),
        }
    }

    fn fixture_tools() -> Vec<Tool> {
        TOOLS
            .iter()
            .map(|(name, description)| listed(json!({"name": name, "description": description, "inputSchema": {"type": "object"}})))
            .collect()
    }
}

impl ServerHandler for Profile {
    fn get_info(&self) -> InitializeResult {
        let capabilities = listed(json!({"tools": {"listChanged": true}, "prompts": {"listChanged": true}, "resources": {},
            "completions": {}, "logging": {}}));
        let mut info = InitializeResult::new(capabilities);
        info.protocol_version = ProtocolVersion::V_2026_07_28;
        info.server_info = Implementation::new(server::NAME, server::VERSION);
        info
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Owned(vec![ProtocolVersion::V_2026_07_28])
    }

    async fn list_tools(&self, _request: Option<PaginatedRequestParams>, _context: RequestContext<RoleServer>) -> Result<ListToolsResult, ErrorData> {
        let mut tools = self.inner.guarded_tools.clone();
        tools.extend(Profile::fixture_tools());
        Ok(ListToolsResult::with_all_items(tools))
    }

    async fn call_tool(&self, request: CallToolRequestParams, context: RequestContext<RoleServer>) -> Result<CallToolResponse, ErrorData> {
        if self.inner.guarded_tools.iter().any(|t| t.name == request.name) {
            return self.inner.guarded.call_tool(request, context).await;
        }
        self.fixture_tool(&request.name, &context).await
    }

    async fn list_prompts(&self, _request: Option<PaginatedRequestParams>, _context: RequestContext<RoleServer>) -> Result<ListPromptsResult, ErrorData> {
        let argument = |name: &str, description: &str| json!({"name": name, "description": description, "required": true});
        Ok(ListPromptsResult::with_all_items(vec![
            listed(json!({"name": "test_simple_prompt", "description": "A prompt without arguments."})),
            listed(json!({"name": ARGUMENTS_PROMPT, "description": "A prompt with two required arguments.",
                "arguments": [argument("arg1", "First test argument"), argument("arg2", "Second test argument")]})),
            listed(json!({"name": "test_prompt_with_embedded_resource", "description": "A prompt that embeds the resource it is given.",
                "arguments": [argument("resourceUri", "URI of the resource to embed")]})),
            listed(json!({"name": "test_prompt_with_image", "description": "A prompt with an image."})),
            listed(json!({"name": MRTR_PROMPT, "description": "Asks for the context (user_context) before it returns its messages."})),
        ]))
    }

    async fn get_prompt(&self, request: GetPromptRequestParams, context: RequestContext<RoleServer>) -> Result<GetPromptResponse, ErrorData> {
        let argument = |name: &str| request.arguments.as_ref().and_then(|a| a.get(name)).and_then(serde_json::Value::as_str).unwrap_or_default().to_owned();
        let messages = match request.name.as_str() {
            "test_simple_prompt" => vec![user_text("This is a simple prompt for testing.")],
            ARGUMENTS_PROMPT => {
                vec![user_text(&format!("Prompt with arguments: arg1='{}', arg2='{}'", argument("arg1"), argument("arg2")))]
            }
            "test_prompt_with_embedded_resource" => vec![
                json!({"role": "user", "content": {"type": "resource", "resource": {"uri": argument("resourceUri"),
                    "mimeType": "text/plain", "text": "Embedded resource content for testing."}}}),
                user_text("Please process the embedded resource above."),
            ],
            "test_prompt_with_image" => vec![
                json!({"role": "user", "content": {"type": "image", "data": PNG, "mimeType": "image/png"}}),
                user_text("Please analyze the image above."),
            ],
            MRTR_PROMPT => {
                let sent = sent(&context)?;
                return match self.round(PROMPTS_GET, MRTR_PROMPT, &sent)? {
                    (Outcome::Ask(questions, _), token) => Ok(input_required(&questions, token)?.into()),
                    (Outcome::Prompt(text), _) => Ok(prompt_result(json!({"messages": [user_text(&text)]}))?.into()),
                    (Outcome::Done(_), _) => Err(ErrorData::internal_error("a prompt made a tool result", None)),
                };
            }
            other => return Err(ErrorData::invalid_params(format!("Unknown prompt: {other}"), None)),
        };
        Ok(prompt_result(json!({"messages": messages}))?.into())
    }

    async fn list_resources(&self, _request: Option<PaginatedRequestParams>, _context: RequestContext<RoleServer>) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(vec![
            listed(json!({"name": "static-text", "uri": "test://static-text", "description": "A fixed text resource.", "mimeType": "text/plain"})),
            listed(json!({"name": "static-binary", "uri": "test://static-binary", "description": "A fixed PNG resource.", "mimeType": "image/png"})),
        ]))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(ListResourceTemplatesResult::with_all_items(vec![listed(json!({"name": "template-data",
            "uriTemplate": "test://template/{id}/data", "description": "JSON data for any id.", "mimeType": "application/json"}))]))
    }

    async fn read_resource(&self, request: ReadResourceRequestParams, _context: RequestContext<RoleServer>) -> Result<ReadResourceResponse, ErrorData> {
        let uri = request.uri.as_str();
        let contents = match uri {
            "test://static-text" => json!({"uri": uri, "mimeType": "text/plain", "text": "This is the content of the static text resource."}),
            "test://static-binary" => json!({"uri": uri, "mimeType": "image/png", "blob": PNG}),
            _ => {
                let id = uri.strip_prefix("test://template/").and_then(|rest| rest.strip_suffix("/data")).filter(|id| !id.is_empty() && !id.contains('/'));
                let Some(id) = id else {
                    return Err(ErrorData::resource_not_found("Resource not found", Some(json!({"uri": uri}))));
                };
                let data = json!({"data": format!("Data for ID: {id}"), "id": id, "templateTest": true});
                json!({"uri": uri, "mimeType": "application/json", "text": data.to_string()})
            }
        };
        let result: ReadResourceResult = complete("a resource", json!({"contents": [contents]}))?;
        Ok(result.into())
    }

    async fn complete(&self, request: CompleteRequestParams, _context: RequestContext<RoleServer>) -> Result<CompleteResult, ErrorData> {
        let candidates = match &request.r#ref {
            Reference::Prompt(prompt) if prompt.name == ARGUMENTS_PROMPT => completions(&request.argument.name),
            _ => &[],
        };
        let values: Vec<&str> = candidates.iter().copied().filter(|v| v.starts_with(request.argument.value.as_str())).collect();
        complete("a completion", json!({"completion": {"values": values, "total": values.len()}}))
    }

    fn accepted_subscription_filter(&self, _requested: &SubscriptionFilter) -> Option<SubscriptionFilter> {
        Some(SubscriptionFilter::builder().tools_list_changed().prompts_list_changed().build())
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        let id = {
            let mut listeners = self.listeners();
            let id = listeners.next;
            listeners.next += 1;
            listeners.open.push((id, context.sink().clone()));
            id
        };
        context.cancelled().await;
        self.listeners().open.retain(|(open, _)| *open != id);
        Ok(())
    }
}
