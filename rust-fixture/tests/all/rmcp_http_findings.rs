//! rmcp 3.11.0's Streamable HTTP service alone, without the fixture's gate: the smallest reproduction of each way it
//! answers otherwise than docs/http.md asks (docs/findings/rust-sdk-http-embedding.md). A test here fails when rmcp
//! changes that behaviour; the fixture's own answers are in tests/http.rs.


use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use rmcp::model::*;
use rmcp::service::{RequestContext, RoleServer};
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ErrorData, ServerHandler};
use serde_json::json;
use std::convert::Infallible;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use crate::support::{Reply, exchange};

/// One tool server: `probe` counts its calls and completes, `plain` returns a result read from JSON, `refuse`
/// fails with -32602, `sample` asks for sampling whatever the client declared, `log` sends one info message.
#[derive(Clone, Default)]
struct Probe {
    calls: Arc<AtomicUsize>,
}

impl ServerHandler for Probe {
    fn get_info(&self) -> ServerConfig {
        let mut info = ServerConfig::new(ServerCapabilities::builder().enable_tools().build());
        info.protocol_version = ProtocolVersion::V_2026_07_28;
        info
    }

    async fn call_tool(&self, request: CallToolRequestParams, context: RequestContext<RoleServer>) -> Result<CallToolResponse, ErrorData> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        match request.name.as_ref() {
            "plain" => Ok(serde_json::from_value::<CallToolResult>(json!({"content": [{"type": "text", "text": "ran"}]})).unwrap().into()),
            "refuse" => Err(ErrorData::invalid_params("Invalid or expired requestState", Some(json!({"reason": "invalid_request_state"})))),
            "sample" => {
                let ask: InputRequest = serde_json::from_value(json!({"method": "sampling/createMessage",
                    "params": {"messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}], "maxTokens": 5}}))
                .unwrap();
                Ok(InputRequiredResult::new(Some(InputRequests::from([("s".to_owned(), ask)])), Some("opaque".into())).into())
            }
            "headers" => {
                let parts = context.extensions.get::<http::request::Parts>().expect("rmcp hands the request's head on");
                let names: Vec<&str> = parts.headers.keys().map(|n| n.as_str()).collect();
                Ok(CallToolResult::success(vec![ContentBlock::text(names.join(","))]).into())
            }
            "log" => {
                let message = json!({"method": "notifications/message", "params": {"level": "info", "data": "ran"}});
                let _ = context.peer.send_notification(serde_json::from_value(message).unwrap()).await;
                Ok(CallToolResult::success(vec![ContentBlock::text("logged")]).into())
            }
            _ => Ok(CallToolResult::success(vec![ContentBlock::text("ran")]).into()),
        }
    }
}

/// rmcp's service on a plain hyper HTTP/1.1 server on 127.0.0.1, in a thread of its own; the fixture's settings
/// except the opt-in metadata requirement when `require_metadata` is false.
fn serve(probe: Probe, require_metadata: bool) -> String {
    let (address_tx, address_rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            address_tx.send(listener.local_addr().unwrap().to_string()).unwrap();
            let config = StreamableHttpServerConfig::default()
                .with_legacy_session_mode(false)
                .with_json_response(true)
                .with_stateless_protocol_metadata_required(require_metadata);
            let service = StreamableHttpService::new(move || Ok(probe.clone()), Arc::new(NeverSessionManager::default()), config);
            loop {
                let (stream, _) = listener.accept().await.unwrap();
                let service = service.clone();
                tokio::spawn(async move {
                    let handle = service_fn(move |request| {
                        let service = service.clone();
                        async move { Ok::<_, Infallible>(service.handle(request).await) }
                    });
                    let _ = http1::Builder::new().serve_connection(TokioIo::new(stream), handle).await;
                });
            }
        });
    });
    address_rx.recv().unwrap()
}

const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

fn head(address: &str, tool: &str) -> String {
    format!(
        "POST /mcp HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n\
         MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: {tool}\r\n"
    )
}

fn call(id: &str, tool: &str, extra: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{tool}","arguments":{{}}{extra},{META}}}}}"#)
}

fn post(address: &str, tool: &str, body: &str) -> Reply {
    exchange(address, &head(address, tool), body.as_bytes())
}

fn calls(probe: &Probe) -> usize {
    probe.calls.load(Ordering::SeqCst)
}

/// Finding 1: A body its typed messages cannot hold is answered 415 Unsupported Media Type, in plain text with serde's
/// words, not a JSON-RPC -32700 or -32600 (Java, TypeScript, Python and Go answer 400 with a JSON-RPC error).
#[test]
fn a_body_rmcp_cannot_type_is_415_with_serdes_words() {
    let probe = Probe::default();
    let address = serve(probe.clone(), true);
    for (name, body) in [
        ("empty", String::new()),
        ("not JSON", "{".to_owned()),
        ("a batch", format!("[{}]", call("1", "probe", ""))),
        ("no jsonrpc", r#"{"id":5,"method":"tools/call"}"#.to_owned()),
        ("jsonrpc 1.0", call("5", "probe", "").replace("2.0", "1.0")),
        ("an id 1.5", call("1.5", "probe", "")),
        ("an id null", call("null", "probe", "")),
        ("params 5", r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":5}"#.to_owned()),
        ("a number beyond f64", call("1", "probe", r#","x":1e400"#)),
    ] {
        let reply = post(&address, "probe", &body);
        assert_eq!(reply.status, 415, "{name}: {}", reply.body);
        assert!(reply.body.starts_with("fail to deserialize request body"), "{name}: {}", reply.body);
        assert_eq!(reply.header("Content-Type"), None, "{name}");
    }
    assert_eq!(calls(&probe), 0);
}

/// Finding 2: A `tools/call` whose params do not fit the typed call (a requestState that is not a string, a repeated member,
/// arguments that are not an object) is read as a custom request and answered 404 with -32601 and the method's name as the message.
#[test]
fn a_tools_call_that_does_not_fit_is_a_custom_request_answered_404() {
    let probe = Probe::default();
    let address = serve(probe.clone(), true);
    let arguments_5 = call("1", "probe", "").replace(r#""arguments":{}"#, r#""arguments":5"#);
    for (name, body) in [
        ("requestState 42", call("1", "probe", r#","requestState":42"#)),
        ("a repeated member", call("1", "probe", r#","name":"probe""#)),
        ("arguments 5", arguments_5),
    ] {
        let reply = post(&address, "probe", &body);
        assert_eq!((reply.status, reply.body.as_str()), (404, r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"tools/call"}}"#), "{name}");
    }
    assert_eq!(calls(&probe), 0);
}

/// Finding 3: A body hyper cannot read (a bad chunk size) is 500 with hyper's words.
#[test]
fn an_unreadable_body_is_500() {
    let address = serve(Probe::default(), true);
    let reply = exchange(&address, &format!("{}Transfer-Encoding: chunked\r\n", head(&address, "probe")), b"zz\r\n{}\r\n0\r\n\r\n");
    assert_eq!((reply.status, reply.body.as_str()), (500, "Failed to read request body: error reading a body from connection"));
}

/// Finding 4: A declared length over the limit is not refused from the head: rmcp waits for the body (with no read timeout
/// of its own), reads 4 MiB of it, then answers 413 without reading the rest.
#[test]
fn a_declared_length_over_the_limit_is_read_before_the_413() {
    use std::io::{Read, Write};
    let address = serve(Probe::default(), true);
    let mut stream = std::net::TcpStream::connect(&address).unwrap();
    stream.write_all(format!("{}Content-Length: 4194305\r\nConnection: close\r\n\r\n", head(&address, "probe")).as_bytes()).unwrap();
    stream.set_read_timeout(Some(std::time::Duration::from_millis(500))).unwrap();
    let mut first = [0u8; 64];
    assert!(stream.read(&mut first).is_err(), "answered from the head");
    stream.write_all(&vec![b' '; 4 << 20]).unwrap();
    stream.write_all(b" ").unwrap();
    stream.set_read_timeout(Some(std::time::Duration::from_secs(10))).unwrap();
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw);
    let reply = crate::support::parse(raw).unwrap();
    assert_eq!((reply.status, reply.body.as_str()), (413, "Payload Too Large: request body exceeds 4194304 bytes"));
}

/// Finding 5: Origin is not checked unless `allowed_origins` is set: a foreign Origin with a loopback Host runs the tool.
#[test]
fn a_foreign_origin_is_served_by_default() {
    let probe = Probe::default();
    let address = serve(probe.clone(), true);
    let reply = exchange(&address, &format!("{}Origin: http://evil.example\r\n", head(&address, "probe")), call("1", "probe", "").as_bytes());
    assert_eq!((reply.status, calls(&probe)), (200, 1), "{}", reply.body);
}

/// Finding 6: Accept must name both types, even where the reply is one JSON body: `*/*` and `application/json` are 406.
#[test]
fn accept_must_name_both_types() {
    let address = serve(Probe::default(), true);
    for accept in ["*/*", "application/json", "application/*, text/*"] {
        let h = head(&address, "probe").replace("application/json, text/event-stream", accept);
        let reply = exchange(&address, &h, call("1", "probe", "").as_bytes());
        assert_eq!((reply.status, reply.body.as_str()), (406, "Not Acceptable: Client must accept both application/json and text/event-stream"), "{accept}");
    }
}

/// Finding 7: Only the first Content-Type and the first MCP-Protocol-Version are read: a second, different copy of either is
/// served (a second Mcp-Method or Mcp-Name is refused, -32020 "duplicate Mcp-Method header").
#[test]
fn only_the_first_content_type_and_protocol_version_count() {
    let probe = Probe::default();
    let address = serve(probe.clone(), true);
    for extra in ["Content-Type: text/plain", "MCP-Protocol-Version: 2025-06-18"] {
        let reply = exchange(&address, &format!("{}{extra}\r\n", head(&address, "probe")), call("1", "probe", "").as_bytes());
        assert_eq!(reply.status, 200, "{extra}: {}", reply.body);
    }
    assert_eq!(calls(&probe), 2);
    let reply = exchange(&address, &format!("{}Mcp-Method: tools/list\r\n", head(&address, "probe")), call("1", "probe", "").as_bytes());
    assert_eq!((reply.status, reply.json()["error"]["message"].as_str()), (400, Some("duplicate Mcp-Method header")));
}

/// Finding 8: An id beyond ±(2^53−1) runs and is echoed as sent, though a JavaScript client cannot read it back.
#[test]
fn an_id_beyond_the_safe_integers_runs() {
    let probe = Probe::default();
    let address = serve(probe.clone(), true);
    let reply = post(&address, "probe", &call("9007199254740993", "probe", ""));
    assert!(reply.status == 200 && reply.body.starts_with(r#"{"jsonrpc":"2.0","id":9007199254740993,"result""#), "{}", reply.body);
    assert_eq!(calls(&probe), 1);
}

/// Finding 9: A handler's -32602 is HTTP 200 when the request's _meta is well formed (the Go SDK, Java and Python: 400).
#[test]
fn a_handlers_invalid_params_is_http_200() {
    let address = serve(Probe::default(), true);
    let reply = post(&address, "refuse", &call("1", "refuse", ""));
    assert_eq!(reply.status, 200);
    assert_eq!(reply.json()["error"]["code"], -32602);
}

/// Finding 10: Without `stateless_protocol_metadata_required` (off by default), a request without MCP-Protocol-Version and
/// without the _meta version is taken for 2025-03-26 and runs, even on a server that supports 2026-07-28 only.
#[test]
fn without_the_opt_in_a_request_without_a_version_runs_as_2025_03_26() {
    let probe = Probe::default();
    let address = serve(probe.clone(), false);
    let no_version = head(&address, "probe").replace("MCP-Protocol-Version: 2026-07-28\r\n", "");
    let reply = exchange(&address, &no_version, br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"probe","arguments":{}}}"#);
    assert_eq!((reply.status, calls(&probe)), (200, 1), "{}", reply.body);
    assert!(reply.json()["result"].get("resultType").is_none(), "the legacy shape: {}", reply.body);
}

/// Finding 11: A result read with serde has no resultType unless its JSON names one, and rmcp does not add it for a
/// 2026-07-28 peer (the suite's wire schema requires it).
#[test]
fn a_result_read_from_json_goes_out_without_result_type() {
    let address = serve(Probe::default(), true);
    let reply = post(&address, "plain", &call("1", "plain", ""));
    assert_eq!(reply.body, r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"ran"}]}}"#);
}

/// Finding 12: An input request goes out whatever the request's client capabilities declare (the Java and TypeScript SDKs
/// answer -32021).
#[test]
fn input_requests_go_out_whatever_the_client_declared() {
    let address = serve(Probe::default(), true);
    let reply = post(&address, "sample", &call("1", "sample", ""));
    assert_eq!(reply.json()["result"]["resultType"], "input_required", "{}", reply.body);
}

/// Finding 13: A log message is sent whatever level the request asked for, none included (the reply then becomes an event
/// stream).
#[test]
fn a_log_message_goes_out_without_a_requested_level() {
    let address = serve(Probe::default(), true);
    let reply = post(&address, "log", &call("1", "log", ""));
    assert_eq!(reply.header("Content-Type"), Some("text/event-stream"));
    assert!(reply.body.contains(r#""method":"notifications/message""#), "{}", reply.body);
}

/// Finding 14: Every request header reaches the handlers in `http::request::Parts`, Authorization included; there is no
/// other way to hand a handler the request's principal.
#[test]
fn every_header_reaches_the_handlers() {
    let address = serve(Probe::default(), true);
    let h = format!("{}Authorization: Bearer secret-token-0123456789abcdef0123\r\n", head(&address, "headers"));
    let reply = exchange(&address, &h, call("1", "headers", "").as_bytes());
    let names = reply.json()["result"]["content"][0]["text"].as_str().unwrap().to_owned();
    assert!(names.split(',').any(|n| n == "authorization"), "{names}");
}
