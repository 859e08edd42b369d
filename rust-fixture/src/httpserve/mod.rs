//! HTTP mode (`--http PORT`): rmcp's own Streamable HTTP service (stateless, one JSON body per reply) on hyper,
//! behind the checks it leaves to the embedding, so that a refused request never reaches a handler and has no
//! effect. The contract is docs/http.md (the TypeScript fixture's, as the Go fixture follows it); where rmcp answers
//! otherwise is docs/findings/rust-sdk-http-embedding.md.

mod bridges;
mod gate;
mod tokens;

pub use bridges::PrincipalBridges;
pub use gate::{SentParams, is_loopback_host};
pub use tokens::{BearerTokens, MIN_TOKEN_CHARS, TokensError};

use crate::server::CutConnection;
use gate::Gate;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use rmcp::ServerHandler;
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use std::convert::Infallible;
use std::fmt;
use std::net::Ipv4Addr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;
use tokio::task::{JoinHandle, JoinSet};
use tokio_util::sync::CancellationToken;

/// The endpoint and the limits, the TypeScript and Go fixtures'.
pub const ENDPOINT: &str = "/mcp";
pub const MAX_BODY_BYTES: usize = 4 << 20;
pub const MAX_IN_FLIGHT: usize = 64;
/// A request's head (request line and headers), Node's default bound.
pub const MAX_HEAD_BYTES: usize = 16 << 10;
/// How long SIGTERM waits for requests in progress before it cuts their connections.
pub const STOP_GRACE: Duration = Duration::from_secs(5);

/// Who a request is.
pub enum Principals {
    /// Every request carries one of these bearer tokens.
    Tokens(BearerTokens),
    /// No token is asked for (the conformance profile without a tokens file only).
    Fixed(String),
}

pub struct Options {
    /// A request not received whole by then is answered 408 (a body) or its connection closed (a head).
    pub read_timeout: Duration,
    pub principals: Principals,
    /// Every reply an event stream (the conformance profile), rather than one JSON body where the handler sends
    /// nothing before its result.
    pub event_streams: bool,
}

#[derive(Debug)]
pub struct ListenError(std::io::Error);

impl fmt::Display for ListenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for ListenError {}

/// A listening server.
pub struct Running {
    pub url: String,
    stop: oneshot::Sender<Duration>,
    done: JoinHandle<()>,
}

impl Running {
    /// Closes the listener, lets requests in progress finish for up to `grace`, then cuts every connection.
    pub async fn stop(self, grace: Duration) {
        let _ = self.stop.send(grace);
        let _ = self.done.await;
    }
}

/// Listens on 127.0.0.1:`port` (0: a free port) and serves `handler` in the background.
pub async fn serve<S>(port: u16, options: Options, handler: S) -> Result<Running, ListenError>
where
    S: ServerHandler + Clone + Send + Sync + 'static,
{
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, port)).await.map_err(ListenError)?;
    let address = listener.local_addr().map_err(ListenError)?;
    let sdk_stop = CancellationToken::new();
    // 2026-07-28 is served statelessly whatever legacy_session_mode says; turning it off keeps every other version
    // off the session path too, and the metadata requirement refuses a request without MCP-Protocol-Version or
    // without the _meta version (400) where rmcp would otherwise take it for 2025-03-26.
    let config = require_protocol_metadata(StreamableHttpServerConfig::default())
        .with_legacy_session_mode(false)
        .with_json_response(!options.event_streams)
        .with_max_request_body_bytes(MAX_BODY_BYTES)
        .with_cancellation_token(sdk_stop.clone());
    let sdk = StreamableHttpService::new(move || Ok(handler.clone()), Arc::new(NeverSessionManager::default()), config);
    let gate = Arc::new(Gate::new(sdk, options.principals, options.read_timeout));
    let (stop, stopped) = oneshot::channel();
    let done = tokio::spawn(accept(listener, gate, stopped, sdk_stop));
    Ok(Running { url: format!("http://{address}{ENDPOINT}"), stop, done })
}

async fn accept<S>(listener: TcpListener, gate: Arc<Gate<S>>, mut stopped: oneshot::Receiver<Duration>, sdk_stop: CancellationToken)
where
    S: ServerHandler + Clone + Send + Sync + 'static,
{
    let draining = CancellationToken::new();
    let cutting = CancellationToken::new();
    let mut connections = JoinSet::new();
    let grace = loop {
        tokio::select! {
            grace = &mut stopped => break grace.unwrap_or(Duration::ZERO),
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => {
                    connections.spawn(connection(stream, Arc::clone(&gate), draining.clone(), cutting.clone()));
                }
                Err(e) => {
                    // Out of descriptors and the like: the listener stays, and the next accept may succeed.
                    eprintln!("{}: accepting a connection: {e}", crate::server::NAME);
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            },
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
        }
    };
    drop(listener);
    draining.cancel();
    let finished = async { while connections.join_next().await.is_some() {} };
    if tokio::time::timeout(grace, finished).await.is_err() {
        cutting.cancel();
        sdk_stop.cancel();
        while connections.join_next().await.is_some() {}
    }
}

/// One client connection: HTTP/1.1 with the head limit and the read timeout, until the client or the server ends
/// it, or a request cuts it (close-after-commit).
async fn connection<S>(stream: TcpStream, gate: Arc<Gate<S>>, draining: CancellationToken, cutting: CancellationToken)
where
    S: ServerHandler + Clone + Send + Sync + 'static,
{
    // Replies are small and written whole; waiting for an ACK before the last segment only adds latency.
    let _ = stream.set_nodelay(true);
    let cut = CancellationToken::new();
    let cut_connection = CutConnection(Arc::new({
        let cut = cut.clone();
        move || cut.cancel()
    }));
    let read_timeout = gate.read_timeout();
    let used = Arc::new(AtomicBool::new(false));
    let service = service_fn({
        let used = Arc::clone(&used);
        move |request| {
            used.store(true, Ordering::SeqCst);
            let gate = Arc::clone(&gate);
            let cut_connection = cut_connection.clone();
            async move { Ok::<_, Infallible>(gate.handle(request, cut_connection).await) }
        }
    });
    let mut builder = http1::Builder::new();
    builder.timer(TokioTimer::new()).header_read_timeout(read_timeout).max_header_size(MAX_HEAD_BYTES);
    let connection = builder.serve_connection(TokioIo::new(stream), service);
    let mut connection = std::pin::pin!(connection);
    let mut graceful = false;
    loop {
        tokio::select! {
            biased;
            // Dropping the connection closes its socket; a reply written later goes nowhere.
            () = cut.cancelled() => return,
            () = cutting.cancelled() => return,
            () = draining.cancelled(), if !graceful => {
                // hyper's graceful shutdown leaves a connection that has not sent a request yet open until its
                // head's read timeout; nothing is lost by closing it now.
                if !used.load(Ordering::SeqCst) {
                    return;
                }
                connection.as_mut().graceful_shutdown();
                graceful = true;
            }
            _ = connection.as_mut() => return,
        }
    }
}

/// Refuses a stateless request without the `_meta` version (400) instead of taking it for an older protocol.
#[cfg(not(feature = "rmcp-before-3-2"))]
fn require_protocol_metadata(config: StreamableHttpServerConfig) -> StreamableHttpServerConfig {
    config.with_stateless_protocol_metadata_required(true)
}

/// Before 3.2.0 rmcp has no such switch, and its HTTP rows measure the SDK as it was (lab versions plays stdio only).
#[cfg(feature = "rmcp-before-3-2")]
fn require_protocol_metadata(config: StreamableHttpServerConfig) -> StreamableHttpServerConfig {
    config
}
