//! The guarded fixture on rmcp 3.11.0: `create_guarded_issue`, a two-round MRTR call whose continuation applies
//! once through the bridge, and `get_operation_status`, the authoritative read-back (seed spec §8.1); or, with
//! `--unguarded`, the control's `create_issue`. The handler is the SDK's low-level `ServerHandler::call_tool`, so
//! JSON-RPC errors reach the wire as given and no schema is enforced by the SDK (the fixture checks the arguments
//! itself, by the shared rule).

use crate::bridge::{self, Answer};
use crate::guarded;
use crate::requeststate::{Binding, Codec, ContinuationState};
use crate::tooltable::{self, ToolSet};
use rmcp::model::*;
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ErrorData, ServerHandler};
use serde_json::{Value, json};
use std::borrow::Cow;
use std::sync::Arc;

pub const NAME: &str = "continuation-replay-rust-fixture";
pub const VERSION: &str = "0.1.0";
pub const GUARDED_TOOL: &str = "create_guarded_issue";
pub const STATUS_TOOL: &str = "get_operation_status";
pub const CONTROL_TOOL: &str = "create_issue";
pub const DROP_AFTER_COMMIT_EXIT: i32 = 70;

/// The bridge of a principal: on stdio the one bridge, over HTTP one child per principal (the bridge takes its
/// principal from its own environment; its protocol has no principal field).
pub type Bridges = Arc<dyn Fn(&str) -> bridge::Client + Send + Sync>;

/// The faults a fixture plays itself (the bridge plays the others).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OwnFault {
    None,
    /// Exit 70 after a fresh commit, before the reply: the lost reply.
    DropAfterCommit,
    /// HTTP only: cut the request's connection after a fresh commit and keep serving.
    CloseAfterCommit,
}

#[derive(Debug, Clone)]
pub struct Settings {
    pub clock_epoch: i64,
    pub authority_ttl: i64,
    pub replay_retention_ttl: i64,
    pub fault: OwnFault,
}

/// Where a request's principal comes from: stdio's trusted environment, or a bearer token over HTTP (put in the
/// request's extensions by the HTTP layer).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Principal(pub String);

/// Cuts the connection a request came on (HTTP's close-after-commit), put in the request's extensions by the HTTP
/// layer.
#[derive(Clone)]
pub struct CutConnection(pub Arc<dyn Fn() + Send + Sync>);

/// A value the HTTP layer put in the request's extensions: rmcp hands them on inside the request's
/// `http::request::Parts`.
pub fn from_http<T: Send + Sync + 'static>(context: &RequestContext<RoleServer>) -> Option<&T> {
    context.extensions.get::<http::request::Parts>().and_then(|parts| parts.extensions.get::<T>())
}

#[derive(Clone)]
pub struct Fixture {
    inner: Arc<Inner>,
}

struct Inner {
    tools: ToolSet,
    codec: Codec,
    settings: Settings,
    bridges: Bridges,
    stdio_principal: Option<String>,
}

impl Fixture {
    pub fn new(tools: ToolSet, codec: Codec, settings: Settings, bridges: Bridges, stdio_principal: Option<String>) -> Self {
        Fixture { inner: Arc::new(Inner { tools, codec, settings, bridges, stdio_principal }) }
    }
}

/// The frozen refusal of any requestState that does not open.
pub fn state_refusal() -> ErrorData {
    ErrorData::new(ErrorCode::INVALID_PARAMS, "Invalid or expired requestState", Some(json!({"reason": "invalid_request_state"})))
}

/// -32021: the request's own client capabilities do not declare form elicitation (the SDK does not check).
pub fn missing_elicitation() -> ErrorData {
    ErrorData::new(
        ErrorCode(-32021),
        "Cannot request input 'body' (elicitation/create): the request's client capabilities do not declare form elicitation",
        Some(json!({"requiredCapabilities": {"elicitation": {"form": {}}}})),
    )
}

/// A complete result: the bridge's result as it wrote it, as text and as structured content.
pub fn complete(result: &str) -> CallToolResult {
    let value: Value = serde_json::from_str(result).unwrap_or(Value::Null);
    let mut complete = CallToolResult::structured(value);
    complete.content = vec![ContentBlock::text(result)];
    complete.is_error = None;
    complete
}

/// An isError result with one text: how the other fixtures report an application refusal.
pub fn tool_error(text: impl Into<String>) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(text.into())])
}

/// operation_* → the code itself; an invalid request → the guard's message; else `bridge_error: kind`.
pub fn bridge_error_text(kind: &str, detail: &str) -> String {
    match kind {
        "operation_conflict" | "operation_authority_expired" | "operation_retention_expired" | "operation_in_progress" => kind.into(),
        "invalid_application_request" => detail.into(),
        _ => format!("bridge_error: {kind}"),
    }
}

/// The request's own clientCapabilities (never an earlier request's) hold elicitation, empty (form only) or with form.
fn declares_form_elicitation(meta: &RequestMetaObject) -> bool {
    let Some(elicitation) = meta
        .0
        .0
        .get("io.modelcontextprotocol/clientCapabilities")
        .and_then(|c| c.get("elicitation"))
        .and_then(Value::as_object)
    else {
        return false;
    };
    elicitation.is_empty() || elicitation.get("form").is_some_and(Value::is_object)
}

fn body_request(title: &str, token: String) -> CallToolResponse {
    let request: InputRequest = serde_json::from_value(json!({
        "method": "elicitation/create",
        "params": {"mode": "form", "message": format!("Body for {title}?"),
            "requestedSchema": {"type": "object", "properties": {"body": {"type": "string"}}, "required": ["body"]}}
    }))
    .expect("a form elicitation");
    let mut requests = InputRequests::new();
    requests.insert("body".into(), request);
    CallToolResponse::InputRequired(InputRequiredResult::new(Some(requests), Some(token)))
}

impl Inner {
    fn principal(&self, context: &RequestContext<RoleServer>) -> Result<String, ErrorData> {
        if let Some(Principal(p)) = context.extensions.get::<Principal>().or_else(|| from_http::<Principal>(context)) {
            return Ok(p.clone());
        }
        self.stdio_principal.clone().ok_or_else(|| ErrorData::internal_error("no principal for this request", None))
    }

    /// One bridge call as `principal`; a machinery failure or a refusal becomes the isError result the client sees.
    async fn call(&self, principal: &str, request: Value) -> Result<String, CallToolResult> {
        match (self.bridges)(principal).call(&request).await {
            Ok(Answer::Ok { result }) => Ok(result),
            Ok(Answer::Error { kind, detail }) => Err(tool_error(bridge_error_text(&kind, &detail))),
            Err(failure) => Err(tool_error(failure.message())),
        }
    }

    async fn status(&self, request: CallToolRequestParams, principal: String) -> Result<CallToolResponse, ErrorData> {
        // A single-round tool mints no state, so no requestState can be valid for it.
        if request.request_state.is_some() {
            eprintln!("{NAME}: requestState refused: {STATUS_TOOL} has no continuation");
            return Err(state_refusal());
        }
        let Some(operation_id) = request.arguments.as_ref().and_then(|a| a.get("operation_id")).and_then(Value::as_str) else {
            return Ok(tool_error("operation_id is required").into());
        };
        let result = self.call(&principal, json!({"op": "status", "operation_id": operation_id})).await;
        Ok(result.map(|r| complete(&r)).unwrap_or_else(|refusal| refusal).into())
    }

    async fn guarded(
        &self,
        request: CallToolRequestParams,
        meta: &RequestMetaObject,
        principal: String,
        cut: Option<CutConnection>,
    ) -> Result<CallToolResponse, ErrorData> {
        let raw_arguments = request.arguments.clone().unwrap_or_default();
        // The state is checked before anything else, so a tampered, expired, foreign state, or one minted for
        // other arguments, never reaches the bridge.
        let state = match &request.request_state {
            None => None,
            Some(token) => {
                let digest = guarded::digest(&raw_arguments).map_err(|_| state_refusal())?;
                let binding = Binding { tool: GUARDED_TOOL.into(), arguments_digest: digest, principal: principal.clone() };
                match self.codec.open(token, &binding) {
                    Ok(state) => Some(state),
                    Err(why) => {
                        eprintln!("{NAME}: {why}");
                        return Err(state_refusal());
                    }
                }
            }
        };
        let arguments = match guarded::read_arguments(&raw_arguments) {
            Ok(arguments) => arguments,
            Err(message) => return Ok(tool_error(message.to_string()).into()),
        };
        let Some(responses) = &request.input_responses else {
            if state.is_some() {
                return Ok(tool_error("requestState without input responses").into());
            }
            return self.first_round(meta, &principal, &arguments);
        };
        let Some(state) = state else {
            return Ok(tool_error("unsupported continuation: input responses require requestState").into());
        };
        let responses = Value::Object(responses.iter().map(|(k, v)| (k.clone(), v.clone())).collect());
        let body = match guarded::accepted_body(&responses) {
            Ok(body) => body,
            Err(message) => return Ok(tool_error(message.to_string()).into()),
        };
        let apply = json!({"op": "apply", "operation_id": arguments.operation_id, "title": arguments.title,
            "mode": arguments.mode.as_str(), "body": body, "state": state.to_json(), "responses": guarded::normalised_responses(&body)});
        let result = match self.call(&principal, apply).await {
            Ok(result) => result,
            Err(refusal) => return Ok(refusal.into()),
        };
        let fresh = serde_json::from_str::<Value>(&result).ok().and_then(|r| r.get("replayed").cloned()) == Some(Value::Bool(false));
        match (self.settings.fault, fresh, cut) {
            (OwnFault::DropAfterCommit, true, _) => {
                eprintln!("drop-after-commit: the effect is committed; exiting before the reply");
                std::process::exit(DROP_AFTER_COMMIT_EXIT);
            }
            (OwnFault::CloseAfterCommit, true, Some(CutConnection(cut))) => {
                eprintln!("close-after-commit: the effect is committed; closing the connection before the reply");
                cut();
            }
            _ => {}
        }
        Ok(complete(&result).into())
    }

    fn first_round(&self, meta: &RequestMetaObject, principal: &str, arguments: &guarded::Arguments) -> Result<CallToolResponse, ErrorData> {
        if !declares_form_elicitation(meta) {
            return Err(missing_elicitation());
        }
        let s = &self.settings;
        let state = ContinuationState::new(&arguments.operation_id, s.clock_epoch, s.authority_ttl, s.replay_retention_ttl);
        let binding = Binding { tool: GUARDED_TOOL.into(), arguments_digest: guarded::digest_of(arguments), principal: principal.into() };
        Ok(body_request(&arguments.title, self.codec.mint(&binding, &state)))
    }

    /// The control: the same two rounds, its state bound to the title and the principal, and a continuation that
    /// writes a new issue through the bridge's `create` every time.
    async fn control(&self, request: CallToolRequestParams, meta: &RequestMetaObject, principal: String) -> Result<CallToolResponse, ErrorData> {
        let raw_arguments = request.arguments.clone().unwrap_or_default();
        let title_digest = guarded::title_digest(&raw_arguments);
        if let Some(token) = &request.request_state {
            let Some(digest) = title_digest.clone() else {
                return Err(state_refusal());
            };
            let binding = Binding { tool: CONTROL_TOOL.into(), arguments_digest: digest, principal: principal.clone() };
            if let Err(why) = self.codec.open(token, &binding) {
                eprintln!("{NAME}: {why}");
                return Err(state_refusal());
            }
        }
        let title = match guarded::read_title(&raw_arguments) {
            Ok(title) => title,
            Err(message) => return Ok(tool_error(message.to_string()).into()),
        };
        let Some(responses) = &request.input_responses else {
            if request.request_state.is_some() {
                return Ok(tool_error("requestState without input responses").into());
            }
            if !declares_form_elicitation(meta) {
                return Err(missing_elicitation());
            }
            // The control has no operation: its state carries a nonce and an empty operation id.
            let state = ContinuationState::new("", self.settings.clock_epoch, 0, 0);
            let binding = Binding { tool: CONTROL_TOOL.into(), arguments_digest: title_digest.unwrap_or_default(), principal };
            return Ok(body_request(&title, self.codec.mint(&binding, &state)));
        };
        if request.request_state.is_none() {
            return Ok(tool_error("unsupported continuation: input responses require requestState").into());
        }
        let responses = Value::Object(responses.iter().map(|(k, v)| (k.clone(), v.clone())).collect());
        let body = match guarded::accepted_body(&responses) {
            Ok(body) => body,
            Err(message) => return Ok(tool_error(message.to_string()).into()),
        };
        let create = json!({"op": "create", "title": title, "body": body, "responses": guarded::normalised_responses(&body)});
        match self.call(&principal, create).await {
            Ok(result) => Ok(complete(&result).into()),
            Err(refusal) => Ok(refusal.into()),
        }
    }
}

impl ServerHandler for Fixture {
    fn get_info(&self) -> InitializeResult {
        let mut info = InitializeResult::new(ServerCapabilities::builder().enable_tools().build());
        info.protocol_version = ProtocolVersion::V_2026_07_28;
        info.server_info = Implementation::new(NAME, VERSION);
        info
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Owned(vec![ProtocolVersion::V_2026_07_28])
    }

    async fn list_tools(&self, _request: Option<PaginatedRequestParams>, _context: RequestContext<RoleServer>) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.inner.tools.listed()))
    }

    async fn call_tool(&self, request: CallToolRequestParams, context: RequestContext<RoleServer>) -> Result<CallToolResponse, ErrorData> {
        let principal = self.inner.principal(&context)?;
        match (self.inner.tools.kind(), request.name.as_ref()) {
            (tooltable::Served::Guarded, GUARDED_TOOL) => {
                let cut = from_http::<CutConnection>(&context).cloned();
                self.inner.guarded(request, &context.meta, principal, cut).await
            }
            (tooltable::Served::Guarded, STATUS_TOOL) => self.inner.status(request, principal).await,
            (tooltable::Served::Unguarded, CONTROL_TOOL) => self.inner.control(request, &context.meta, principal).await,
            (_, name) => Err(ErrorData::invalid_params(format!("Unknown tool: {name}"), None)),
        }
    }
}
