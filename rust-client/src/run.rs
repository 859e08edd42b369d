//! Plays a checked script through rmcp's client, one record per step. The driver never judges: whatever the SDK
//! returns is the step's record, and the next step runs regardless.

use std::borrow::Cow;
use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ClientCapabilities, ClientConfig, ElicitRequestParams,
    ElicitResult, ElicitationAction, ElicitationCapability, ErrorData, FormElicitationCapability, Implementation,
    InputRequiredResult, ProtocolVersion,
};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RequestContext, RoleClient, RunningService};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::{IntoTransport, StreamableHttpClientTransport, TokioChildProcess, Transport as RmcpTransport};
use rmcp::{ClientHandler, ServiceExt};
use serde_json::{Value, json};

use crate::records::{CLIENT, Describe, Outcome, RECORD_FORMAT, Record, RecordFile, SDK_VERSION, Thrown};
use crate::script::{CallOnce, JsonObject, Script, Server, Step, StepKind, TopStep, Transport, VersionMode, tamper};

const STATUS_TOOL: &str = "get_operation_status";
const CLIENT_NAME: &str = "continuation-replay-rust-client";
const CLIENT_VERSION: &str = "0.1.0";

/// How each op reaches the SDK, as the record's `api` names it.
mod api {
    pub const STDIO: &str =
        "TokioChildProcess::new(tokio::process::Command::new(..).args(..).envs(env).kill_on_drop(true))";
    pub const HTTP: &str = "StreamableHttpClientTransport::from_config(StreamableHttpClientTransportConfig::with_uri(url).auth_header(token))";
    pub const PIN: &str =
        "handler.serve_with_lifecycle(transport, ClientLifecycleMode::Discover {preferred_versions: [2026-07-28]})";
    pub const AUTO: &str = "handler.serve_with_lifecycle(transport, ClientLifecycleMode::Auto {preferred_versions: [2026-07-28], legacy_version: None})";
    pub const DEFAULT: &str = "handler.serve(transport) (ClientLifecycleMode::Initialize)";
    pub const LIST_TOOLS: &str = "client.list_tools(None)";
    pub const CALL: &str = "client.call_tool(CallToolRequestParams::new(name).with_arguments(..)) (RunningService: rounds answered by the ClientHandler)";
    pub const CALL_ONCE: &str = "client.call_tool_once(CallToolRequestParams::new(name).with_arguments(..)[.with_input_responses(..)][.with_request_state(..)])";
    pub const CLOSE: &str = "client.close()";
}

type Client = RunningService<RoleClient, Elicitor>;

/// The connection's `ClientHandler`: it answers a form elicitation with the `answer` of the `call` step in
/// progress on its connection, and declines without one.
#[derive(Clone, Default)]
struct Elicitor {
    answer: Arc<Mutex<Option<JsonObject>>>,
}

impl Elicitor {
    fn set_answer(&self, answer: Option<JsonObject>) {
        *self.answer.lock().unwrap_or_else(PoisonError::into_inner) = answer;
    }
}

impl ClientHandler for Elicitor {
    async fn create_elicitation(
        &self,
        _request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let answer = self.answer.lock().unwrap_or_else(PoisonError::into_inner).clone();
        Ok(match answer {
            Some(content) => ElicitResult::new(ElicitationAction::Accept).with_content(Value::Object(content)),
            None => ElicitResult::new(ElicitationAction::Decline),
        })
    }

    fn get_info(&self) -> ClientConfig {
        let mut capabilities = ClientCapabilities::default();
        capabilities.elicitation = Some(ElicitationCapability::new().with_form(FormElicitationCapability::new()));
        ClientConfig::new(capabilities, Implementation::new(CLIENT_NAME, CLIENT_VERSION))
    }
}

/// One script connection: its handler, and its client once `connect` delivered one (taken out by `close`).
struct Connection {
    name: String,
    elicitor: Elicitor,
    client: tokio::sync::Mutex<Option<Client>>,
    /// rmcp's child-process transport once rmcp dropped it (over stdio), so that the driver can end the server.
    child: ChildSlot,
}

impl Connection {
    /// Ends the server child this connection started the way rmcp's own close does (its stdin closed, then a wait,
    /// SIGTERM, a kill), when rmcp dropped the transport instead: a refused or timed-out initialize drops it, and
    /// rmcp then kills the child outright from a task of its own that nobody waits for. Killed outright, a fixture
    /// never ends its bridge, which may still hold the ledger when the lab seals it.
    async fn end_child(&self) {
        let dropped = self.child.lock().unwrap_or_else(PoisonError::into_inner).take();
        if let Some(mut transport) = dropped
            && let Err(error) = transport.graceful_shutdown().await
        {
            eprintln!("rust-client: ending the server of connection {}: {error}", self.name);
        }
    }

    fn not_runnable(&self) -> Thrown {
        Thrown::not_runnable(format!(
            "connection {} is not connected (its connect step failed, or it was closed)",
            self.name
        ))
    }
}

/// What one SDK call gave back, before it becomes a record.
struct Reply {
    outcome: Outcome,
    result: Option<Value>,
    saved_state: Option<String>,
    /// The state itself: kept by the run, never written to a record.
    request_state: Option<String>,
}

impl Reply {
    fn bare(outcome: Outcome) -> Self {
        Self {
            outcome,
            result: None,
            saved_state: None,
            request_state: None,
        }
    }
}

/// Plays a checked script.
pub struct Run {
    script: Script,
    records: RecordFile,
    started: Instant,
    connections: Mutex<HashMap<String, Arc<Connection>>>,
    states: Mutex<HashMap<String, String>>,
}

impl Run {
    pub fn new(script: Script, records: RecordFile, started: Instant) -> Self {
        Self {
            script,
            records,
            started,
            connections: Mutex::default(),
            states: Mutex::default(),
        }
    }

    /// Runs every step; an SDK failure is a step's record, never the run's end. An error is the driver's own
    /// defect (the records file could not be written).
    pub async fn play(&self) -> io::Result<()> {
        let played = self.play_steps().await;
        let open: Vec<Arc<Connection>> = self
            .connections
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .values()
            .cloned()
            .collect();
        for connection in open {
            if let Some(mut client) = connection.client.lock().await.take()
                && let Err(error) = client.close().await
            {
                eprintln!(
                    "rust-client: closing connection {} at the end: {error}",
                    connection.name
                );
            }
            connection.end_child().await;
        }
        played
    }

    async fn play_steps(&self) -> io::Result<()> {
        for top in &self.script.steps {
            match top {
                TopStep::Single(step) => self.inner(step).await?,
                // Every inner step is polled once before any can be answered: that is the barrier.
                TopStep::Parallel(steps) => {
                    futures::future::join_all(steps.iter().map(|step| self.inner(step)))
                        .await
                        .into_iter()
                        .collect::<io::Result<()>>()?;
                }
            }
        }
        Ok(())
    }

    fn now_ms(&self) -> u64 {
        u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    fn connection(&self, name: &str) -> io::Result<Arc<Connection>> {
        self.connections
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(name)
            .cloned()
            .ok_or_else(|| io::Error::other(format!("connection {name} passed the script check but was never made")))
    }

    /// One SDK call, bounded by `request_timeout_ms` when the script sets it: rmcp's `call_tool`, `call_tool_once`
    /// and `list_tools` take no timeout of their own, so the call is dropped when the time is up (rmcp then sends
    /// `notifications/cancelled` for a request in flight). An automatic `call` is bounded as a whole.
    async fn bounded<T, E: Describe>(&self, call: impl Future<Output = Result<T, E>>) -> Result<T, Thrown> {
        let Some(ms) = self.script.request_timeout_ms else {
            return call.await.map_err(|error| error.describe());
        };
        match tokio::time::timeout(Duration::from_millis(ms), call).await {
            Ok(done) => done.map_err(|error| error.describe()),
            Err(elapsed) => Err(elapsed.describe()),
        }
    }

    async fn inner(&self, step: &Step) -> io::Result<()> {
        match &step.kind {
            StepKind::Connect { server } => self.connect(step, server).await,
            StepKind::ListTools => {
                let connection = self.connection(&step.connection)?;
                self.timed(step, Some(api::LIST_TOOLS.into()), None, None, async {
                    let guard = connection.client.lock().await;
                    let client = guard.as_ref().ok_or_else(|| connection.not_runnable())?;
                    let listed = self.bounded(client.list_tools(None)).await?;
                    let mut reply = Reply::bare(Outcome::Listed);
                    reply.result = Some(json!({"tools": listed.tools}));
                    Ok(reply)
                })
                .await
                .map(drop)
            }
            StepKind::Close => {
                let connection = self.connection(&step.connection)?;
                self.timed(step, Some(api::CLOSE.into()), None, None, async {
                    let mut client = connection
                        .client
                        .lock()
                        .await
                        .take()
                        .ok_or_else(|| connection.not_runnable())?;
                    let closed = client.close().await.map_err(|error| error.describe());
                    connection.end_child().await;
                    closed?;
                    Ok(Reply::bare(Outcome::Closed))
                })
                .await
                .map(drop)
            }
            StepKind::Call {
                tool,
                arguments,
                answer,
            } => self.call(step, tool, arguments, answer.as_ref()).await,
            StepKind::Status { operation_id } => {
                let mut arguments = JsonObject::new();
                arguments.insert(String::from("operation_id"), json!(operation_id));
                self.call(step, STATUS_TOOL, &arguments, None).await
            }
            StepKind::CallOnce(once) => self.call_once(step, once).await,
        }
    }

    async fn connect(&self, step: &Step, server: &str) -> io::Result<()> {
        let spec = self
            .script
            .servers
            .get(server)
            .ok_or_else(|| io::Error::other(format!("server {server} passed the script check but is unknown")))?;
        let connection = Arc::new(Connection {
            name: step.connection.clone(),
            elicitor: Elicitor::default(),
            client: tokio::sync::Mutex::new(None),
            child: ChildSlot::default(),
        });
        self.connections
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(step.connection.clone(), Arc::clone(&connection));
        let mode = self.script.version_mode;
        let mut sent = json!({"server": server, "version_mode": mode.name()});
        let transport_api = match spec {
            Server::Stdio { .. } => api::STDIO,
            Server::Http(http) => {
                sent["url"] = json!(http.url);
                sent["bearer_token_env"] = json!(http.token_env);
                api::HTTP
            }
        };
        let serve_api = match mode {
            VersionMode::Pin => api::PIN,
            VersionMode::Auto => api::AUTO,
            VersionMode::Default => api::DEFAULT,
        };
        let api = format!("{transport_api}; {serve_api}");
        self.timed(step, Some(api), Some(sent), Some(spec.transport()), async {
            let elicitor = connection.elicitor.clone();
            let client = match spec {
                Server::Stdio { command, env } => {
                    let mut child = tokio::process::Command::new(&command[0]);
                    // The child gets the driver's whole environment (tokio's default) plus the script's, which wins.
                    // kill_on_drop: rmcp kills a dropped transport's child from a task it spawns, which never runs
                    // when the drop is the runtime's last act (a connect that timed out just before the end).
                    child.args(&command[1..]).envs(env).kill_on_drop(true);
                    let transport = TokioChildProcess::new(child).map_err(|error| error.describe())?;
                    let kept = Kept {
                        inner: Some(transport),
                        slot: Arc::clone(&connection.child),
                    };
                    let served = self.bounded(serve(elicitor, kept, mode)).await;
                    if served.is_err() {
                        connection.end_child().await;
                    }
                    served?
                }
                Server::Http(http) => {
                    let config = StreamableHttpClientTransportConfig::with_uri(http.url.as_str())
                        .auth_header(http.token.expose());
                    let transport = StreamableHttpClientTransport::from_config(config);
                    self.bounded(serve(elicitor, transport, mode)).await?
                }
            };
            *connection.client.lock().await = Some(client);
            Ok(Reply::bare(Outcome::Connected))
        })
        .await
        .map(drop)
    }

    async fn call(
        &self,
        step: &Step,
        tool: &str,
        arguments: &JsonObject,
        answer: Option<&JsonObject>,
    ) -> io::Result<()> {
        let connection = self.connection(&step.connection)?;
        let sent = json!({"tool": tool, "arguments": arguments, "answer": answer, "input_responses": null,
                          "request_state": "absent"});
        self.timed(step, Some(api::CALL.into()), Some(sent), None, async {
            let guard = connection.client.lock().await;
            let client = guard.as_ref().ok_or_else(|| connection.not_runnable())?;
            connection.elicitor.set_answer(answer.cloned());
            let params = CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments.clone());
            let called = self.bounded(client.call_tool(params)).await;
            connection.elicitor.set_answer(None);
            Ok(complete_reply(called?))
        })
        .await
        .map(drop)
    }

    async fn call_once(&self, step: &Step, once: &CallOnce) -> io::Result<()> {
        let connection = self.connection(&step.connection)?;
        let mut params = CallToolRequestParams::new(once.tool.clone()).with_arguments(once.arguments.clone());
        if let Some(responses) = &once.input_responses {
            params = params.with_input_responses(responses.clone().into_iter().collect());
        }
        let mut shown = "absent";
        if let Some(use_state) = &once.state {
            let saved = self
                .states
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .get(&use_state.name)
                .cloned();
            let Some(saved) = saved else {
                // The script saw a save_state earlier, but that step got no input_required answer: nothing to send.
                let threw = Thrown::not_runnable(format!(
                    "no requestState was saved under \"{}\" (the saving step got no input_required answer)",
                    use_state.name
                ));
                let started = self.now_ms();
                return self.write(step, None, Some(sent_once(once, shown)), None, started, 0, &Err(threw));
            };
            if use_state.tamper {
                params = params.with_request_state(tamper(&saved));
                shown = "tampered";
            } else {
                params = params.with_request_state(saved);
                shown = "present";
            }
        }
        let reply = self
            .timed(
                step,
                Some(api::CALL_ONCE.into()),
                Some(sent_once(once, shown)),
                None,
                async {
                    let guard = connection.client.lock().await;
                    let client = guard.as_ref().ok_or_else(|| connection.not_runnable())?;
                    Ok(match self.bounded(client.call_tool_once(params)).await? {
                        CallToolResponse::Complete(result) => complete_reply(result),
                        CallToolResponse::InputRequired(result) => {
                            input_required_reply(result, once.save_state.as_deref())
                        }
                        // Not a result this lab's servers give: written down as rmcp serialized it.
                        other => {
                            let mut reply = Reply::bare(Outcome::Result);
                            reply.result = Some(result_members(
                                &serde_json::to_value(rmcp::model::ServerResult::from(other)).unwrap_or(Value::Null),
                            ));
                            reply
                        }
                    })
                },
            )
            .await?;
        if let Ok(Reply {
            saved_state: Some(name),
            request_state: Some(state),
            ..
        }) = reply
        {
            self.states
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .insert(name, state);
        }
        Ok(())
    }

    /// Runs one step's SDK work, turns a failure into the `threw` outcome, and writes the record as soon as it is
    /// known. `transport` is given by a connect step only, whatever its outcome.
    async fn timed(
        &self,
        step: &Step,
        api: Option<String>,
        sent: Option<Value>,
        transport: Option<Transport>,
        work: impl Future<Output = Result<Reply, Thrown>>,
    ) -> io::Result<Result<Reply, Thrown>> {
        let started = self.now_ms();
        let clock = Instant::now();
        let got = work.await;
        let elapsed = u64::try_from(clock.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.write(step, api, sent, transport, started, elapsed, &got)?;
        Ok(got)
    }

    #[allow(clippy::too_many_arguments)]
    fn write(
        &self,
        step: &Step,
        api: Option<String>,
        sent: Option<Value>,
        transport: Option<Transport>,
        started_ms: u64,
        elapsed_ms: u64,
        got: &Result<Reply, Thrown>,
    ) -> io::Result<()> {
        let (outcome, result, threw, saved_state) = match got {
            Ok(reply) => (reply.outcome, reply.result.clone(), None, reply.saved_state.clone()),
            Err(threw) => (Outcome::Threw, None, Some(threw.clone()), None),
        };
        self.records.write(&Record {
            format: RECORD_FORMAT,
            client: CLIENT,
            sdk_version: SDK_VERSION,
            step: step.id,
            op: step.op().name(),
            connection: &step.connection,
            transport,
            api,
            sent,
            outcome,
            result,
            threw,
            saved_state,
            started_ms,
            elapsed_ms,
        })
    }
}

type ChildSlot = Arc<Mutex<Option<TokioChildProcess>>>;

/// rmcp's `TokioChildProcess`, unchanged on the wire, that goes back to its connection's slot when rmcp drops it
/// rather than being dropped (which kills the child at once).
struct Kept {
    inner: Option<TokioChildProcess>,
    slot: ChildSlot,
}

impl Kept {
    fn transport(&mut self) -> &mut TokioChildProcess {
        self.inner
            .as_mut()
            .expect("the transport is only taken out when dropped")
    }
}

impl RmcpTransport<RoleClient> for Kept {
    type Error = io::Error;

    // Errors that name the transport name rmcp's own type, as without this wrapper.
    fn name() -> Cow<'static, str> {
        <TokioChildProcess as RmcpTransport<RoleClient>>::name()
    }

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), io::Error>> + Send + 'static {
        self.transport().send(item)
    }

    fn receive(&mut self) -> impl Future<Output = Option<RxJsonRpcMessage<RoleClient>>> + Send {
        self.transport().receive()
    }

    fn close(&mut self) -> impl Future<Output = Result<(), io::Error>> + Send {
        self.transport().close()
    }
}

impl Drop for Kept {
    fn drop(&mut self) {
        if let Some(transport) = self.inner.take() {
            *self.slot.lock().unwrap_or_else(PoisonError::into_inner) = Some(transport);
        }
    }
}

async fn serve<T, E, A>(
    handler: Elicitor,
    transport: T,
    mode: VersionMode,
) -> Result<Client, rmcp::service::ClientInitializeError>
where
    T: IntoTransport<RoleClient, E, A>,
    E: std::error::Error + Send + Sync + 'static,
{
    match mode {
        VersionMode::Pin => {
            let lifecycle = ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            };
            handler.serve_with_lifecycle(transport, lifecycle).await
        }
        VersionMode::Auto => {
            let lifecycle = ClientLifecycleMode::Auto {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
                legacy_version: None,
            };
            handler.serve_with_lifecycle(transport, lifecycle).await
        }
        // No option at all: what an application that never heard of negotiation gets from `serve`.
        VersionMode::Default => handler.serve(transport).await,
    }
}

fn sent_once(once: &CallOnce, request_state: &str) -> Value {
    json!({"tool": once.tool, "arguments": once.arguments, "answer": null, "input_responses": once.input_responses,
           "request_state": request_state})
}

/// The members a record keeps of a result, as rmcp serializes it; a `requestState` only by its length.
fn result_members(wire: &Value) -> Value {
    let member = |name: &str| wire.get(name).cloned().unwrap_or(Value::Null);
    let state_length = wire.get("requestState").and_then(Value::as_str).map(str::len);
    json!({"resultType": member("resultType"), "isError": member("isError"),
           "structuredContent": member("structuredContent"), "content": member("content"),
           "request_state_length": state_length})
}

fn complete_reply(result: CallToolResult) -> Reply {
    let outcome = if result.is_error == Some(true) {
        Outcome::ToolError
    } else {
        Outcome::Result
    };
    let mut reply = Reply::bare(outcome);
    reply.result = Some(result_members(&serde_json::to_value(&result).unwrap_or(Value::Null)));
    reply
}

/// Only an input_required answer's state is saved: a complete result has nothing to continue.
fn input_required_reply(result: InputRequiredResult, save_as: Option<&str>) -> Reply {
    let mut reply = Reply::bare(Outcome::InputRequired);
    reply.result = Some(result_members(&serde_json::to_value(&result).unwrap_or(Value::Null)));
    reply.saved_state = result.request_state.as_ref().and(save_as.map(str::to_owned));
    reply.request_state = result.request_state;
    reply
}
