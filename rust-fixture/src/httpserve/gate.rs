//! The checks every request passes before rmcp sees it, in the contract's order: a head over 16 KiB (431), Host and
//! Origin (403), the path (404), the in-flight limit (503), the bearer token (401); then for a POST `Accept` (406),
//! `Content-Type` (415), the body's size (413), a body not received whole (408, 400), the strict body rules (400)
//! and repeated routing headers (400). Every other method goes to rmcp, which answers it 405.

use super::{ENDPOINT, MAX_BODY_BYTES, MAX_HEAD_BYTES, MAX_IN_FLIGHT, Principals};
use crate::frames::{self, HttpBody};
use crate::server::{CutConnection, Principal};
use bytes::{Bytes, BytesMut};
use http::header::{ACCEPT, AUTHORIZATION, CONNECTION, CONTENT_TYPE, HOST, ORIGIN, RETRY_AFTER, WWW_AUTHENTICATE};
use http::{HeaderMap, HeaderValue, Method, Request, Response, StatusCode};
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full};
use hyper::body::{Body, Frame, Incoming, SizeHint};
use rmcp::ServerHandler;
use rmcp::transport::StreamableHttpService;
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use std::convert::Infallible;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::time::{Instant, timeout_at};

pub type Reply = Response<BoxBody<Bytes, Infallible>>;

/// The params of a request as the gate passed them (JSON text), for handlers that must digest exactly what the
/// client sent rather than rmcp's typed view of it.
#[derive(Debug, Clone)]
pub struct SentParams(pub String);

const FORBIDDEN: &str = "forbidden: Host and Origin must be this loopback server";
const NOT_FOUND: &str = "not found";
const BUSY: &str = "too many requests in flight";
const UNAUTHORIZED: &str = "unauthorized";
const NOT_ACCEPTABLE: &str = "not acceptable: Accept must name application/json and text/event-stream";
const UNSUPPORTED_MEDIA_TYPE: &str = "unsupported media type: Content-Type must be application/json";
const TOO_LARGE: &str = "request body over 4 MiB";
const TIMED_OUT: &str = "request body not received within the read timeout";
const UNREADABLE: &str = "request body could not be read";
/// Refused when repeated, as the other servers refuse them, with their names as the other fixtures spell them: rmcp
/// reads the first MCP-Protocol-Version of several (it refuses a second Mcp-Method or Mcp-Name itself, in other
/// words).
const ROUTING_HEADERS: [(&str, &str); 3] =
    [("mcp-method", "Mcp-Method"), ("mcp-name", "Mcp-Name"), ("mcp-protocol-version", "Mcp-Protocol-Version")];
/// How much of a body a refusal judged from the head reads and drops first, so the socket is not closed on the
/// client's unread bytes (which can turn the answer into a reset).
const EARLY_DRAIN_LIMIT: u64 = 64 << 10;

pub struct Gate<S> {
    sdk: StreamableHttpService<S, NeverSessionManager>,
    principals: Principals,
    read_timeout: Duration,
    in_flight: Arc<AtomicUsize>,
}

fn reply(status: StatusCode, content_type: &'static str, body: String) -> Reply {
    let mut reply = Response::new(Full::new(Bytes::from(body)).boxed());
    *reply.status_mut() = status;
    reply.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    reply
}

fn plain(status: StatusCode, message: &str) -> Reply {
    reply(status, "text/plain; charset=utf-8", format!("{message}\n"))
}

fn json_line(line: String) -> Reply {
    reply(StatusCode::BAD_REQUEST, "application/json", line)
}

fn with_header(mut reply: Reply, name: http::HeaderName, value: &'static str) -> Reply {
    reply.headers_mut().insert(name, HeaderValue::from_static(value));
    reply
}

/// A Host (or an Origin's host), with or without a port, naming this machine's loopback.
pub fn is_loopback_host(host_port: &str) -> bool {
    let host = split_host_port(host_port)
        .unwrap_or_else(|| host_port.strip_prefix('[').and_then(|h| h.strip_suffix(']')).unwrap_or(host_port));
    matches!(host.to_ascii_lowercase().as_str(), "localhost" | "127.0.0.1" | "::1")
}

/// The host of `host:port` or `[host]:port` (the port unchecked), as Go's `net.SplitHostPort` splits it.
fn split_host_port(host_port: &str) -> Option<&str> {
    if let Some(rest) = host_port.strip_prefix('[') {
        let (host, after) = rest.split_once(']')?;
        return (after.starts_with(':') && !host.contains('[')).then_some(host);
    }
    let (host, _) = host_port.rsplit_once(':')?;
    (!host.contains(':') && !host.contains('[') && !host.contains(']')).then_some(host)
}

/// None or one Origin, an http(s) URL whose host is loopback.
fn origin_allowed(headers: &HeaderMap) -> bool {
    let mut origins = headers.get_all(ORIGIN).iter();
    let (Some(origin), None) = (origins.next(), origins.next()) else {
        return headers.get(ORIGIN).is_none();
    };
    let Some((scheme, rest)) = origin.to_str().ok().and_then(|o| o.split_once("://")) else {
        return false;
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host = authority.rsplit_once('@').map_or(authority, |(_, host)| host);
    matches!(scheme.to_ascii_lowercase().as_str(), "http" | "https") && is_loopback_host(host)
}

fn loopback_request<B>(request: &Request<B>) -> bool {
    let mut hosts = request.headers().get_all(HOST).iter();
    let host = match (hosts.next(), hosts.next()) {
        (Some(host), None) => host.to_str().is_ok_and(is_loopback_host),
        _ => false,
    };
    // An absolute-form target names its own authority, which Go's net/http takes for the host.
    let target = request.uri().authority().is_none_or(|a| is_loopback_host(a.as_str()));
    host && target && origin_allowed(request.headers())
}

/// The head's size as hyper parsed it: hyper's own limit is checked per read, so a head that arrives whole in one
/// read of its growing buffer can pass it by several KiB.
fn head_bytes<B>(request: &Request<B>) -> usize {
    let line = request.method().as_str().len() + 1 + request.uri().to_string().len() + 1 + "HTTP/1.1\r\n".len();
    request.headers().iter().fold(line + 2, |n, (name, value)| n + name.as_str().len() + value.len() + 4)
}

/// rmcp's rule, checked here so it comes before the body: both types named, neither with q=0.
fn accepts_json_and_event_stream(headers: &HeaderMap) -> bool {
    let mut accepted = headers
        .get_all(ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .filter_map(|entry| {
            let mut parts = entry.split(';');
            let essence = parts.next()?.trim().to_ascii_lowercase();
            let excluded = parts.any(|p| p.split_once('=').is_some_and(|(n, v)| n.trim().eq_ignore_ascii_case("q") && zero_weight(v.trim())));
            (!excluded).then_some(essence)
        });
    let (mut json, mut event_stream) = (false, false);
    for essence in accepted.by_ref() {
        json |= essence == "application/json";
        event_stream |= essence == "text/event-stream";
    }
    json && event_stream
}

fn zero_weight(q: &str) -> bool {
    let (whole, fraction) = q.split_once('.').unwrap_or((q, ""));
    whole == "0" && fraction.len() <= 3 && fraction.bytes().all(|d| d == b'0')
}

/// Exactly one Content-Type, of media type application/json (parameters such as a charset allowed): rmcp reads the
/// first of several.
fn content_type_is_json(headers: &HeaderMap) -> bool {
    let mut types = headers.get_all(CONTENT_TYPE).iter();
    let (Some(value), None) = (types.next(), types.next()) else {
        return false;
    };
    value.to_str().ok().and_then(|v| v.split(';').next()).is_some_and(|essence| essence.trim().eq_ignore_ascii_case("application/json"))
}

/// One of the in-flight slots, given back when dropped.
struct Slot(Arc<AtomicUsize>);

impl Slot {
    fn take(in_flight: &Arc<AtomicUsize>) -> Option<Slot> {
        if in_flight.fetch_add(1, Ordering::SeqCst) >= MAX_IN_FLIGHT {
            in_flight.fetch_sub(1, Ordering::SeqCst);
            return None;
        }
        Some(Slot(Arc::clone(in_flight)))
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A reply's body that holds its request's slot until the body is sent or dropped: an event stream is a request
/// in flight until it ends.
struct Held {
    body: BoxBody<Bytes, Infallible>,
    _slot: Slot,
}

impl Body for Held {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

enum BodyProblem {
    /// Over 4 MiB; `read_whole` tells whether the client has sent all of it (else the connection is closed).
    TooLarge { read_whole: bool },
    /// The read timeout ended a body shorter than its Content-Length, or a chunked body without its last chunk.
    TimedOut,
    /// A bad chunk size or framing, or the client gone mid-body.
    Broken,
}

/// The whole body, or why there is none. A declared length over the limit is refused from the head; a longer
/// chunked body is read and dropped, so a client still sending it gets to read the 413.
async fn read_body(mut body: Incoming, deadline: Instant) -> Result<Bytes, BodyProblem> {
    if body.size_hint().exact().is_some_and(|n| n > MAX_BODY_BYTES as u64) {
        return Err(BodyProblem::TooLarge { read_whole: false });
    }
    let mut collected = BytesMut::new();
    loop {
        let frame = match timeout_at(deadline, body.frame()).await {
            Err(_) => return Err(BodyProblem::TimedOut),
            Ok(None) => return Ok(collected.freeze()),
            Ok(Some(Err(_))) => return Err(BodyProblem::Broken),
            Ok(Some(Ok(frame))) => frame,
        };
        let Ok(data) = frame.into_data() else { continue };
        if collected.len() + data.len() > MAX_BODY_BYTES {
            let read_whole = drain(body, u64::MAX, deadline).await;
            return Err(BodyProblem::TooLarge { read_whole });
        }
        collected.extend_from_slice(&data);
    }
}

/// Reads and drops at most `limit` bytes of a body; true if it ended within them and the deadline.
async fn drain(mut body: Incoming, limit: u64, deadline: Instant) -> bool {
    let mut read = 0u64;
    loop {
        match timeout_at(deadline, body.frame()).await {
            Ok(None) => return true,
            Ok(Some(Ok(frame))) => {
                read += frame.data_ref().map_or(0, |d| d.len() as u64);
                if read > limit {
                    return false;
                }
            }
            Ok(Some(Err(_))) | Err(_) => return false,
        }
    }
}

impl<S> Gate<S>
where
    S: ServerHandler + Clone + Send + Sync + 'static,
{
    pub fn new(sdk: StreamableHttpService<S, NeverSessionManager>, principals: Principals, read_timeout: Duration) -> Self {
        Gate { sdk, principals, read_timeout, in_flight: Arc::new(AtomicUsize::new(0)) }
    }

    pub fn read_timeout(&self) -> Duration {
        self.read_timeout
    }

    /// The request's principal, or the challenge of the 401.
    fn principal(&self, headers: &HeaderMap) -> Result<String, &'static str> {
        let tokens = match &self.principals {
            Principals::Fixed(principal) => return Ok(principal.clone()),
            Principals::Tokens(tokens) => tokens,
        };
        let mut values = headers.get_all(AUTHORIZATION).iter();
        let found = match (values.next(), values.next()) {
            (Some(value), None) => value.to_str().ok().and_then(|v| tokens.principal_for(v)),
            _ => None,
        };
        found.ok_or(if headers.contains_key(AUTHORIZATION) { r#"Bearer error="invalid_token""# } else { "Bearer" })
    }

    pub async fn handle(&self, request: Request<Incoming>, cut: CutConnection) -> Reply {
        let deadline = Instant::now() + self.read_timeout;
        if head_bytes(&request) > MAX_HEAD_BYTES {
            let mut refused = with_header(Response::new(Full::new(Bytes::new()).boxed()), CONNECTION, "close");
            *refused.status_mut() = StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE;
            return refused;
        }
        // DNS rebinding first: a page on a foreign origin must learn nothing, not even whether a token is valid.
        if !loopback_request(&request) {
            return refuse_from_head(request, deadline, plain(StatusCode::FORBIDDEN, FORBIDDEN)).await;
        }
        if request.uri().path() != ENDPOINT {
            return refuse_from_head(request, deadline, plain(StatusCode::NOT_FOUND, NOT_FOUND)).await;
        }
        let Some(slot) = Slot::take(&self.in_flight) else {
            let busy = with_header(plain(StatusCode::SERVICE_UNAVAILABLE, BUSY), RETRY_AFTER, "1");
            return refuse_from_head(request, deadline, busy).await;
        };
        let principal = match self.principal(request.headers()) {
            Ok(principal) => principal,
            Err(challenge) => {
                let unauthorized = with_header(plain(StatusCode::UNAUTHORIZED, UNAUTHORIZED), WWW_AUTHENTICATE, challenge);
                return refuse_from_head(request, deadline, unauthorized).await;
            }
        };
        let reply = self.admitted(request, principal, cut, deadline).await;
        reply.map(|body| Held { body, _slot: slot }.boxed())
    }

    async fn admitted(&self, request: Request<Incoming>, principal: String, cut: CutConnection, deadline: Instant) -> Reply {
        let post = request.method() == Method::POST;
        if post && !accepts_json_and_event_stream(request.headers()) {
            return refuse_from_head(request, deadline, plain(StatusCode::NOT_ACCEPTABLE, NOT_ACCEPTABLE)).await;
        }
        if post && !content_type_is_json(request.headers()) {
            return refuse_from_head(request, deadline, plain(StatusCode::UNSUPPORTED_MEDIA_TYPE, UNSUPPORTED_MEDIA_TYPE)).await;
        }
        let (mut parts, body) = request.into_parts();
        if !post {
            drain(body, EARLY_DRAIN_LIMIT, deadline).await;
            return self.to_sdk(parts, Bytes::new(), principal, cut, None).await;
        }
        let body = match read_body(body, deadline).await {
            Ok(body) => body,
            Err(BodyProblem::TooLarge { read_whole }) => {
                let too_large = plain(StatusCode::PAYLOAD_TOO_LARGE, TOO_LARGE);
                return if read_whole { too_large } else { with_header(too_large, CONNECTION, "close") };
            }
            // Answered, never dropped: a request that never arrived whole must not look like one served.
            Err(BodyProblem::TimedOut) => return with_header(plain(StatusCode::REQUEST_TIMEOUT, TIMED_OUT), CONNECTION, "close"),
            Err(BodyProblem::Broken) => return with_header(plain(StatusCode::BAD_REQUEST, UNREADABLE), CONNECTION, "close"),
        };
        // What is refused here never reaches a handler.
        let body = match frames::judge_http_body(&body) {
            HttpBody::Refuse(line) => return json_line(line),
            HttpBody::Forward(None) => body,
            HttpBody::Forward(Some(judged)) => Bytes::from(judged),
        };
        for (name, spelling) in ROUTING_HEADERS {
            if parts.headers.get_all(name).iter().nth(1).is_some() {
                let id = frames::http_request_id(&body);
                return json_line(frames::error_line(id.as_deref(), -32020, &format!("repeated {spelling} header"), None));
            }
        }
        let params = frames::http_params(&body).map(SentParams);
        parts.headers.remove(http::header::CONTENT_LENGTH);
        self.to_sdk(parts, body, principal, cut, params).await
    }

    async fn to_sdk(&self, mut parts: http::request::Parts, body: Bytes, principal: String, cut: CutConnection, params: Option<SentParams>) -> Reply {
        // The token stays here: the handlers get the principal decided above.
        parts.headers.remove(AUTHORIZATION);
        parts.extensions.insert(Principal(principal));
        parts.extensions.insert(cut);
        if let Some(params) = params {
            parts.extensions.insert(params);
        }
        self.sdk.handle(Request::from_parts(parts, Full::new(body))).await
    }
}

/// Answers a refusal judged from the head alone, after reading and dropping a small body.
async fn refuse_from_head(request: Request<Incoming>, deadline: Instant, refusal: Reply) -> Reply {
    let body = request.into_body();
    if body.size_hint().exact().is_some_and(|n| n <= EARLY_DRAIN_LIMIT) {
        drain(body, EARLY_DRAIN_LIMIT, deadline).await;
    }
    refusal
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_names() {
        let cases = [
            ("127.0.0.1:8080", true),
            ("localhost:1", true),
            ("LOCALHOST", true),
            ("[::1]:9", true),
            ("[::1]", true),
            ("127.0.0.1", true),
            ("::1", true),
            ("evil.example", false),
            ("127.0.0.2:80", false),
            ("localhost.evil.example", false),
            ("", false),
            ("0.0.0.0:80", false),
            ("[localhost]:80x", true),
            ("localhost:", true),
        ];
        for (host, want) in cases {
            assert_eq!(is_loopback_host(host), want, "{host:?}");
        }
    }

    #[test]
    fn origins() {
        let judge = |values: &[&str]| {
            let mut headers = HeaderMap::new();
            for v in values {
                headers.append(ORIGIN, HeaderValue::from_str(v).unwrap());
            }
            origin_allowed(&headers)
        };
        assert!(judge(&[]));
        assert!(judge(&["http://127.0.0.1:9"]));
        assert!(judge(&["HTTPS://localhost"]));
        assert!(judge(&["http://user@[::1]:80/path"]));
        assert!(!judge(&["http://evil.example"]));
        assert!(!judge(&["null"]));
        assert!(!judge(&["ftp://localhost"]));
        assert!(!judge(&["http://localhost", "http://evil.example"]));
        assert!(!judge(&["http://localhost", "http://localhost"]));
    }

    #[test]
    fn accept_and_content_type() {
        let headers = |name: http::HeaderName, values: &[&str]| {
            let mut h = HeaderMap::new();
            for v in values {
                h.append(name.clone(), HeaderValue::from_str(v).unwrap());
            }
            h
        };
        assert!(accepts_json_and_event_stream(&headers(ACCEPT, &["application/json, text/event-stream"])));
        assert!(accepts_json_and_event_stream(&headers(ACCEPT, &["application/json", "Text/Event-Stream;q=0.5"])));
        assert!(!accepts_json_and_event_stream(&headers(ACCEPT, &["application/json"])));
        assert!(!accepts_json_and_event_stream(&headers(ACCEPT, &["*/*"])));
        assert!(!accepts_json_and_event_stream(&headers(ACCEPT, &["application/json, text/event-stream;q=0.000"])));
        assert!(content_type_is_json(&headers(CONTENT_TYPE, &["application/json; charset=utf-8"])));
        assert!(content_type_is_json(&headers(CONTENT_TYPE, &["Application/JSON"])));
        assert!(!content_type_is_json(&headers(CONTENT_TYPE, &["application/jsonx"])));
        assert!(!content_type_is_json(&headers(CONTENT_TYPE, &["application/json", "application/json"])));
        assert!(!content_type_is_json(&HeaderMap::new()));
    }
}
