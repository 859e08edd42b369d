//! HTTP mode as a process on real sockets, with rmcp's own Streamable HTTP service, the real bridge per principal
//! and a SQLite file: the port of the Go fixture's httpserve_test.go, plus the command line, close-after-commit,
//! drop-after-commit and SIGTERM.


use serde_json::{Value, json};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};
use crate::support::*;

const PARSE_ERROR: &str = r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}"#;
const INVALID_REQUEST: &str = r#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request"}}"#;
const FORBIDDEN: &str = "forbidden: Host and Origin must be this loopback server\n";
const STATE_REFUSAL: &str = r#"{"code":-32602,"message":"Invalid or expired requestState","data":{"reason":"invalid_request_state"}}"#;
const USAGE: &str = "usage: rust-fixture [--http PORT [--conformance]] [--unguarded] (configuration from the WIRE_* environment)";

fn expect(name: &str, reply: &Reply, status: u16, body: &str) {
    assert_eq!((reply.status, reply.body.as_str()), (status, body), "{name}");
}

fn status_call(id: i64, operation_id: &str) -> String {
    call(id, STATUS_TOOL, &format!(r#"{{"operation_id":"{operation_id}"}}"#), "")
}

fn accepted(body: &str) -> String {
    format!(r#","inputResponses":{{"body":{{"action":"accept","content":{{"body":"{body}"}}}}}}"#)
}

fn continuation(id: i64, operation_id: &str, state: &str) -> String {
    let arguments = format!(r#"{{"operation_id":"{operation_id}","title":"T"}}"#);
    call(id, GUARDED_TOOL, &arguments, &format!(r#"{}, "requestState":{}"#, accepted("b"), json!(state)))
}

fn first_round(server: &Server, token: &str, id: i64, operation_id: &str) -> String {
    let arguments = format!(r#"{{"operation_id":"{operation_id}","title":"T"}}"#);
    request_state(&server.post(token, GUARDED_TOOL, &call(id, GUARDED_TOOL, &arguments, "")))
}

#[test]
fn the_command_line_follows_the_go_fixtures_rules() {
    let dir = TempDir::new();
    let env = environment(&dir);
    for (args, message) in [
        (vec!["--stdio"], USAGE),
        (vec!["--http"], USAGE),
        (vec!["--http", "1", "--http", "2"], USAGE),
        (vec!["--http", "70000"], "--http 70000 is not a port (0 to 65535)"),
        (vec!["--http", "08"], "--http 08 is not a port (0 to 65535)"),
        (vec!["--conformance"], "--conformance needs --http PORT"),
        (vec!["--http", "0", "--conformance", "--unguarded"], "--unguarded serves the control, which has no conformance fixtures"),
    ] {
        let (code, stdout, stderr) = run(&env, &args);
        assert_eq!((code, stdout.as_str(), stderr.as_str()), (Some(2), "", format!("{message}\n").as_str()), "{args:?}");
    }
    let (code, _, stderr) = run(&without(env.clone(), "WIRE_BEARER_TOKENS_FILE"), &["--http", "0"]);
    assert_eq!((code, stderr.as_str()), (Some(2), "WIRE_BEARER_TOKENS_FILE is required\n"));
    let (code, _, stderr) = run(&with(env.clone(), "WIRE_HTTP_READ_TIMEOUT_MS", "0"), &["--http", "0"]);
    assert_eq!((code, stderr.as_str()), (Some(2), "WIRE_HTTP_READ_TIMEOUT_MS must be positive\n"));
    let (code, _, stderr) = run(&with(env.clone(), "WIRE_CONFORMANCE_STATE_TTL", "1.5"), &["--http", "0", "--conformance"]);
    assert_eq!((code, stderr.as_str()), (Some(2), "WIRE_CONFORMANCE_STATE_TTL must be a whole number of seconds\n"));
    // stdio refuses HTTP's own fault; HTTP mode needs no principal.
    let (code, _, stderr) = run(&with(with(env.clone(), "WIRE_PRINCIPAL", "alice"), "WIRE_FAULT", "close-after-commit"), &[]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.starts_with("WIRE_FAULT must be one of ["), "{stderr}");
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let (code, _, stderr) = run(&env, &["--http", &port]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.starts_with(&format!("continuation-replay-rust-fixture: cannot listen on 127.0.0.1:{port}: ")), "{stderr}");
}

#[test]
fn the_tokens_file_is_checked_and_its_messages_never_name_a_token() {
    let dir = TempDir::new();
    let shape = "WIRE_BEARER_TOKENS_FILE must name a file holding a JSON object of principal to token";
    let short = "short-token-of-31-characters-xx";
    let weak = |p: &str| format!("WIRE_BEARER_TOKENS_FILE: the token of principal \"{p}\" must be a bearer token of at least 32 characters");
    let cases = [
        (r#"["alice"]"#.to_owned(), shape.to_owned()),
        (format!(r#"{{"alice":"{ALICE_TOKEN}"}} {{}}"#), shape.to_owned()),
        (r#"{"alice":"#.to_owned(), shape.to_owned()),
        ("{}".to_owned(), "WIRE_BEARER_TOKENS_FILE names no principal".to_owned()),
        (format!(r#"{{"":"{ALICE_TOKEN}"}}"#), "WIRE_BEARER_TOKENS_FILE has an empty principal".to_owned()),
        (format!(r#"{{"alice":"{short}"}}"#), weak("alice")),
        (format!(r#"{{"alice":"{ALICE_TOKEN} x"}}"#), weak("alice")),
        (r#"{"alice":42}"#.to_owned(), weak("alice")),
        (format!(r#"{{"a\"lice":"{short}"}}"#), weak("a\\\"lice")),
        (format!(r#"{{"alice":"{ALICE_TOKEN}","bob":"{ALICE_TOKEN}"}}"#), r#"WIRE_BEARER_TOKENS_FILE: principals "alice" and "bob" share a token"#.to_owned()),
    ];
    let env = environment(&dir);
    for (i, (file, message)) in cases.iter().enumerate() {
        let path = dir.file(&format!("tokens-{i}.json"), file);
        let (code, stdout, stderr) = run(&with(env.clone(), "WIRE_BEARER_TOKENS_FILE", &path), &["--http", "0"]);
        assert_eq!((code, stdout.as_str(), stderr.as_str()), (Some(2), "", format!("{message}\n").as_str()), "{file}");
        assert!(!stderr.contains(ALICE_TOKEN) && !stderr.contains(short), "{file}: the message names a token");
    }
    let absent = dir.0.join("absent.json").display().to_string();
    let (code, _, stderr) = run(&with(env, "WIRE_BEARER_TOKENS_FILE", &absent), &["--http", "0"]);
    assert_eq!((code, stderr), (Some(2), format!("{shape}\n")));
}

#[test]
fn every_refusal_comes_before_the_sdk_in_the_contracts_order() {
    let server = Server::fresh(&[], &[]);
    let (url, host) = (&server.address, server.address.as_str());
    let status = status_call(1, "x");
    let h = headers("/mcp", host, ALICE_TOKEN, STATUS_TOOL);
    // A foreign Host is 403 before anything else, even on another path and without a token.
    expect("foreign Host", &exchange(url, &headers("/nope", "evil.example", "", ""), status.as_bytes()), 403, FORBIDDEN);
    expect("foreign Origin", &exchange(url, &format!("{h}Origin: http://evil.example\r\n"), status.as_bytes()), 403, FORBIDDEN);
    let two_origins = format!("{h}Origin: http://localhost\r\nOrigin: http://evil.example\r\n");
    expect("two Origins", &exchange(url, &two_origins, status.as_bytes()), 403, FORBIDDEN);
    let two_hosts = headers("/mcp", host, ALICE_TOKEN, STATUS_TOOL).replacen("\r\n", &format!("\r\nHost: {host}\r\n"), 1);
    expect("two Hosts", &exchange(url, &two_hosts, status.as_bytes()), 403, FORBIDDEN);
    let absolute = h.replacen("POST /mcp", "POST http://evil.example/mcp", 1);
    expect("a foreign absolute target", &exchange(url, &absolute, status.as_bytes()), 403, FORBIDDEN);
    let ok = exchange(url, &format!("{}Origin: http://127.0.0.1:9\r\n", headers("/mcp", "localhost:1", ALICE_TOKEN, STATUS_TOOL)), status.as_bytes());
    assert!(ok.status == 200 && ok.body.contains(r#"\"principal\":\"alice\""#), "a loopback Host and Origin: {} {}", ok.status, ok.body);
    expect("another path", &exchange(url, &headers("/nope", host, "", ""), status.as_bytes()), 404, "not found\n");
    let no_token = exchange(url, &headers("/mcp", host, "", STATUS_TOOL), status.as_bytes());
    expect("no token", &no_token, 401, "unauthorized\n");
    assert_eq!(no_token.header("WWW-Authenticate"), Some("Bearer"));
    let unknown = exchange(url, &headers("/mcp", host, &format!("{ALICE_TOKEN}x"), STATUS_TOOL), status.as_bytes());
    expect("unknown token", &unknown, 401, "unauthorized\n");
    assert_eq!(unknown.header("WWW-Authenticate"), Some(r#"Bearer error="invalid_token""#));
    let basic = headers("/mcp", host, "", STATUS_TOOL) + &format!("Authorization: Basic {ALICE_TOKEN}\r\n");
    assert_eq!(exchange(url, &basic, status.as_bytes()).header("WWW-Authenticate"), Some(r#"Bearer error="invalid_token""#));
    let two_tokens = format!("{h}Authorization: Bearer {ALICE_TOKEN}\r\n");
    expect("two Authorization headers", &exchange(url, &two_tokens, status.as_bytes()), 401, "unauthorized\n");
    // 401 comes before the size: a large body without a token learns nothing about the limit.
    let large_no_token = format!("{}Content-Length: 5000000\r\n", headers("/mcp", host, "", STATUS_TOOL));
    expect("no token, large body", &exchange(url, &large_no_token, b""), 401, "unauthorized\n");
    // Then the method (rmcp's own 405), Accept and Content-Type, all from the head.
    for method in ["GET", "DELETE", "PUT"] {
        let r = exchange(url, &h.replacen("POST", method, 1), b"");
        assert_eq!((r.status, r.header("Allow"), r.body.as_str()), (405, Some("POST"), "Method Not Allowed"), "{method}");
    }
    let only_json = h.replace("Accept: application/json, text/event-stream", "Accept: application/json");
    expect("Accept without event streams", &exchange(url, &only_json, status.as_bytes()), 406,
        "not acceptable: Accept must name application/json and text/event-stream\n");
    let unsupported = "unsupported media type: Content-Type must be application/json\n";
    for (name, head) in [
        ("no Content-Type", h.replace("Content-Type: application/json\r\n", "")),
        ("application/jsonx", h.replace("Content-Type: application/json", "Content-Type: application/jsonx")),
        ("two Content-Types", format!("{h}Content-Type: application/json\r\n")),
    ] {
        expect(name, &exchange(url, &head, status.as_bytes()), 415, unsupported);
    }
    let charset = h.replace("Content-Type: application/json", "Content-Type: application/json; charset=utf-8");
    assert_eq!(exchange(url, &charset, status.as_bytes()).status, 200, "a charset is allowed");
    let declared = exchange(url, &format!("{h}Content-Length: 4194305\r\n"), b"");
    expect("declared too large", &declared, 413, "request body over 4 MiB\n");
    assert_eq!(declared.header("Connection"), Some("close"));
    let big = " ".repeat((4 << 20) + 1);
    let chunked = format!("{:x}\r\n{big}\r\n0\r\n\r\n", big.len());
    expect("chunked too large", &exchange(url, &format!("{h}Transfer-Encoding: chunked\r\n"), chunked.as_bytes()), 413, "request body over 4 MiB\n");

    let not_utf8 = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"x\":\"\xff\"}}";
    expect("not UTF-8", &exchange(url, &h, not_utf8), 400, PARSE_ERROR);
    expect("two values", &exchange(url, &h, format!("{status}{status}").as_bytes()), 400, PARSE_ERROR);
    expect("empty", &exchange(url, &h, b""), 400, PARSE_ERROR);
    expect("deeper than 10,000", &exchange(url, &h, format!("{}{}", "[".repeat(10_001), "]".repeat(10_001)).as_bytes()), 400, PARSE_ERROR);
    expect("batch", &exchange(url, &h, format!("[{status}]").as_bytes()), 400, INVALID_REQUEST);
    expect("no jsonrpc", &exchange(url, &h, br#"{"id":5,"method":"tools/call"}"#), 400,
        r#"{"jsonrpc":"2.0","id":5,"error":{"code":-32600,"message":"Invalid Request"}}"#);
    expect("last jsonrpc counts", &exchange(url, &h, br#"{"jsonrpc":"2.0","jsonrpc":"1.0","id":"a","method":"x"}"#), 400,
        r#"{"jsonrpc":"2.0","id":"a","error":{"code":-32600,"message":"Invalid Request"}}"#);
    expect("unsafe id", &exchange(url, &h, br#"{"id":9007199254740993}"#), 400, INVALID_REQUEST);
    // The Go fixture's own rule, kept: rmcp would run 9007199254740992 as an id, and refuse 1.5 with 415.
    for id in ["1.5", "1e0", "null", "9007199254740992", "true", "{}", "-0.0"] {
        expect(&format!("id {id}"), &exchange(url, &h, status.replacen(r#""id":1"#, &format!(r#""id":{id}"#), 1).as_bytes()), 400, INVALID_REQUEST);
    }
    let string_id = exchange(url, &h, status.replacen(r#""id":1"#, r#""id":"s-1""#, 1).as_bytes());
    assert!(string_id.status == 200 && string_id.body.starts_with(r#"{"jsonrpc":"2.0","id":"s-1","#), "{}", string_id.body);
    // What rmcp cannot type, which it would answer 415 "fail to deserialize request body": the stdio gate's lines.
    expect("params not an object", &exchange(url, &h, br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":5}"#), 400,
        r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"Invalid Request"}}"#);
    let unreadable = |id: i64| format!(r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32602,"message":"Invalid params: the request cannot be read (a number beyond 64-bit floating point, or nesting deeper than 128)"}}}}"#);
    expect("1e400", &exchange(url, &h, call(8, STATUS_TOOL, r#"{"operation_id":"x","n":1e400}"#, "").as_bytes()), 400, &unreadable(8));
    let deep = format!(r#"{{"operation_id":"x","n":{}{}}}"#, "[".repeat(200), "]".repeat(200));
    expect("nesting 200 deep", &exchange(url, &h, call(9, STATUS_TOOL, &deep, "").as_bytes()), 400, &unreadable(9));
    // rmcp would read these as custom requests and answer 404 -32601 "tools/call".
    let invalid_params = |id: i64| format!(r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32602,"message":"Invalid params"}}}}"#);
    expect("arguments 5", &exchange(url, &h, call(11, STATUS_TOOL, "5", "").as_bytes()), 400, &invalid_params(11));
    let inputs_list = call(12, STATUS_TOOL, r#"{"operation_id":"x"}"#, r#","inputResponses":[]"#);
    expect("inputResponses a list", &exchange(url, &h, inputs_list.as_bytes()), 400, &invalid_params(12));
    // A method 2026-07-28 removed keeps rmcp's 404, whatever its params.
    let set_level = format!(r#"{{"jsonrpc":"2.0","id":13,"method":"logging/setLevel","params":{{"level":5,{ENVELOPE}}}}}"#);
    let removed = exchange(url, &headers("/mcp", host, ALICE_TOKEN, "").replace("tools/call", "logging/setLevel"), set_level.as_bytes());
    assert_eq!((removed.status, removed.json()["error"]["code"].clone()), (404, json!(-32601)), "{}", removed.body);
    // An unknown top-level member passes, as in Java and Go.
    let extra = exchange(url, &h, format!("{},\"extra\":1}}", &status[..status.len() - 1]).as_bytes());
    assert_eq!(extra.status, 200, "{}", extra.body);
    // After the gate, rmcp's own words.
    let no_method = exchange(url, &h.replace("Mcp-Method: tools/call\r\n", ""), status.as_bytes());
    expect("no Mcp-Method", &no_method, 400, r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32020,"message":"missing required Mcp-Method header"}}"#);
    let no_version = exchange(url, &h.replace("MCP-Protocol-Version: 2026-07-28\r\n", ""), status.as_bytes());
    assert_eq!((no_version.status, no_version.json()["error"]["code"].clone()), (400, json!(-32020)), "{}", no_version.body);
    let no_meta = r#"{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"get_operation_status","arguments":{"operation_id":"x"}}}"#;
    let no_meta = exchange(url, &h, no_meta.as_bytes());
    assert_eq!((no_meta.status, no_meta.json()["error"]["code"].clone()), (400, json!(-32602)), "{}", no_meta.body);
    let unknown_method = "{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"foo/bar\",\"params\":{".to_owned() + ENVELOPE + "}}";
    let unknown_method = exchange(url, &headers("/mcp", host, ALICE_TOKEN, "").replace("tools/call", "foo/bar"), unknown_method.as_bytes());
    assert_eq!((unknown_method.status, unknown_method.json()["error"]["code"].clone()), (404, json!(-32601)));
    assert!(server.bridges().len() <= 1, "only alice called a tool that reaches the bridge");
    assert!(!server.stderr().contains(ALICE_TOKEN), "a token reached the log");
}

#[test]
fn the_in_flight_limit_answers_503() {
    // A long read timeout: the held requests must outlive however long a loaded machine takes to start 64 of them.
    let server = Server::fresh(&[("WIRE_HTTP_READ_TIMEOUT_MS", "60000")], &[]);
    let address = server.address.clone();
    // Requests whose bodies never come hold a slot each until they are closed.
    let hold = || {
        let mut c = TcpStream::connect(&address).unwrap();
        c.write_all(format!("{}Content-Length: 10\r\n\r\n{{", headers("/mcp", &address, ALICE_TOKEN, STATUS_TOOL)).as_bytes()).unwrap();
        c
    };
    let mut held: Vec<TcpStream> = (0..64).map(|_| hold()).collect();
    let probe = || exchange(&address, &headers("/mcp", &address, ALICE_TOKEN, STATUS_TOOL), b"{}");
    // A probe that finds a slot is refused by the gate (400) and gives it back. One that came before a held request
    // took that request's slot, and the request now waits for its body as a refused one; another is sent instead.
    let mut probes = 0;
    let busy = loop {
        let r = probe();
        if r.status == 503 {
            break r;
        }
        assert_eq!(r.status, 400, "{}", r.body);
        probes += 1;
        assert!(probes < 300, "never 64 in flight");
        if probes % 10 == 0 {
            held.push(hold());
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!((busy.body.as_str(), busy.header("Retry-After")), ("too many requests in flight\n", Some("1")));
    assert_eq!(probe().status, 503, "a refused request kept no slot");
    drop(held);
    let deadline = Instant::now() + Duration::from_secs(30);
    while probe().status != 400 {
        assert!(Instant::now() < deadline, "the slots were not given back");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_state_is_bound_to_the_principal_of_its_bearer_token_and_each_principal_has_its_bridge() {
    let server = Server::fresh(&[], &[]);
    let state = first_round(&server, ALICE_TOKEN, 1, "op-1");
    assert!(server.bridges().is_empty(), "a first round needs no bridge");
    let stolen = server.post(BOB_TOKEN, GUARDED_TOOL, &continuation(2, "op-1", &state));
    // rmcp's status for a handler's -32602 whose request _meta is well formed is 200 (the Go SDK's is 400).
    assert_eq!((stolen.status, stolen.body.as_str()), (200, format!(r#"{{"jsonrpc":"2.0","id":2,"error":{STATE_REFUSAL}}}"#).as_str()));
    assert!(server.bridges().is_empty(), "a refused state reached a bridge");
    let applied = server.post(ALICE_TOKEN, GUARDED_TOOL, &continuation(2, "op-1", &state));
    assert_eq!(applied.json()["result"]["structuredContent"], json!({"operationId": "op-1", "effectId": 1, "result": "created 1", "replayed": false, "state": "applied"}));
    let as_bob = server.post(BOB_TOKEN, STATUS_TOOL, &status_call(3, "op-1")).json();
    let as_alice = server.post(ALICE_TOKEN, STATUS_TOOL, &status_call(4, "op-1")).json();
    assert_eq!(as_bob["result"]["structuredContent"]["state"], "unknown", "{as_bob}");
    assert_eq!(as_alice["result"]["structuredContent"]["state"], "applied", "{as_alice}");
    assert_eq!(server.bridges().len(), 2, "one bridge each for alice and bob");
    let replayed = server.post(ALICE_TOKEN, GUARDED_TOOL, &continuation(5, "op-1", &state)).json();
    assert_eq!(replayed["result"]["structuredContent"]["replayed"], true);
}

#[test]
fn the_unguarded_control_binds_its_state_to_the_title_and_principal_and_writes_on_every_continuation() {
    let server = Server::fresh(&[], &["--unguarded"]);
    let state = request_state(&server.post(ALICE_TOKEN, CONTROL_TOOL, &call(1, CONTROL_TOOL, r#"{"title":"T"}"#, "")));
    let more = format!(r#"{}, "requestState":{}"#, accepted("b"), json!(state));
    let refused = |r: Reply| assert!(r.body.contains(STATE_REFUSAL), "{} {}", r.status, r.body);
    refused(server.post(BOB_TOKEN, CONTROL_TOOL, &call(2, CONTROL_TOOL, r#"{"title":"T"}"#, &more)));
    refused(server.post(ALICE_TOKEN, CONTROL_TOOL, &call(3, CONTROL_TOOL, r#"{"title":"U"}"#, &more)));
    // The same continuation twice: two issues, the duplicate the guard exists to prevent.
    for id in 1..=2 {
        let r = server.post(ALICE_TOKEN, CONTROL_TOOL, &call(3 + id, CONTROL_TOOL, r#"{"title":"T"}"#, &more));
        assert_eq!(r.json()["result"]["structuredContent"], json!({"issueId": id, "result": format!("created {id}")}), "{}", r.body);
    }
}

/// A body that never arrives whole, a head over the limit, a repeated routing header, a requestState that is not
/// a string: each refused, none reaching a bridge.
#[test]
fn incomplete_bodies_large_heads_repeated_routing_headers_and_non_string_states_are_refused_without_effect() {
    let server = Server::fresh(&[("WIRE_HTTP_READ_TIMEOUT_MS", "2000")], &[]);
    let url = server.address.clone();
    let h = headers("/mcp", &url, ALICE_TOKEN, GUARDED_TOOL);
    let body = call(1, GUARDED_TOOL, r#"{"operation_id":"op-1","title":"T"}"#, "");
    let chunked_head = format!("{h}Transfer-Encoding: chunked\r\n");
    let whole = format!("{:x}\r\n{body}\r\n", body.len());
    let timed_out = "request body not received within the read timeout\n";
    // The three wait for the read timeout, together.
    let waits: Vec<_> = [
        ("no last chunk", chunked_head.clone(), whole.clone()),
        ("cut inside a chunk", chunked_head.clone(), whole[..whole.len() / 2].to_owned()),
        ("declared 7 more", format!("{h}Content-Length: {}\r\n", body.len() + 7), body.clone()),
    ]
    .into_iter()
    .map(|(name, head, sent)| {
        let url = url.clone();
        std::thread::spawn(move || {
            let started = Instant::now();
            let reply = exchange(&url, &head, sent.as_bytes());
            (name, reply, started.elapsed())
        })
    })
    .collect();
    // A head never finished is hyper's: the connection closes at the read timeout, without a response (as net/http).
    let unfinished = {
        let (url, head) = (url.clone(), h.clone());
        std::thread::spawn(move || {
            let mut stream = TcpStream::connect(&url).unwrap();
            stream.write_all(head.as_bytes()).unwrap();
            stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
            let started = Instant::now();
            let mut answer = Vec::new();
            let _ = stream.read_to_end(&mut answer);
            (answer, started.elapsed())
        })
    };
    for wait in waits {
        let (name, reply, waited) = wait.join().unwrap();
        expect(name, &reply, 408, timed_out);
        assert_eq!(reply.header("Connection"), Some("close"), "{name}");
        assert!(waited >= Duration::from_millis(1500), "{name}: answered after {waited:?}, before the read timeout");
    }
    let (answer, waited) = unfinished.join().unwrap();
    assert!(answer.is_empty() && waited >= Duration::from_millis(1500), "{waited:?} {}", String::from_utf8_lossy(&answer));
    let unreadable = "request body could not be read\n";
    expect("size 'zz'", &exchange(&url, &chunked_head, format!("zz\r\n{body}\r\n0\r\n\r\n").as_bytes()), 400, unreadable);
    expect("size beyond 2^64", &exchange(&url, &chunked_head, format!("1ffffffffffffffff\r\n{body}\r\n0\r\n\r\n").as_bytes()), 400, unreadable);
    let smaller = format!("{:x}\r\n{body}\r\n0\r\n\r\n", body.len() - 3);
    expect("size smaller than the chunk", &exchange(&url, &chunked_head, smaller.as_bytes()), 400, unreadable);

    let many: String = (0..2000).map(|i| format!("X-Many-{i}: v\r\n")).collect();
    for (name, head) in [
        ("a 64 KiB header", format!("{h}X-Padding: {}\r\n", "p".repeat(64 << 10))),
        ("a 17 KiB header", format!("{h}X-Padding: {}\r\n", "p".repeat(17 << 10))),
        ("2000 headers", format!("{h}{many}")),
    ] {
        let r = exchange(&url, &head, body.as_bytes());
        assert_eq!((r.status, r.body.as_str()), (431, ""), "{name}");
    }

    for (repeated, name) in [
        ("Mcp-Method: tools/list", "Mcp-Method"),
        ("Mcp-Name: get_operation_status", "Mcp-Name"),
        ("MCP-Protocol-Version: 2026-07-28", "Mcp-Protocol-Version"),
    ] {
        expect(&format!("repeated {name}"), &exchange(&url, &format!("{h}{repeated}\r\n"), body.as_bytes()), 400,
            &format!(r#"{{"jsonrpc":"2.0","id":1,"error":{{"code":-32020,"message":"repeated {name} header"}}}}"#));
    }

    let refusal = format!(r#"{{"jsonrpc":"2.0","id":1,"error":{STATE_REFUSAL}}}"#);
    for state in ["42", r#"{"a":1}"#, r#"["v1"]"#, "true", "null"] {
        let sent = call(1, GUARDED_TOOL, r#"{"operation_id":"op-1","title":"T"}"#, &format!(r#"{},"requestState":{state}"#, accepted("b")));
        expect(&format!("requestState {state}"), &exchange(&url, &h, sent.as_bytes()), 400, &refusal);
    }
    assert!(server.bridges().is_empty(), "a refused request reached a bridge");
    // Still serving, and the same call whole runs.
    assert_eq!(exchange(&url, &h, body.as_bytes()).json()["result"]["resultType"], "input_required");
}

/// A body with a repeated member whose first value has another type is answered as the gate read it (the last
/// value); rmcp alone refuses any repeated member of its typed messages (415).
#[test]
fn a_repeated_member_is_answered_as_the_gate_read_it() {
    let server = Server::fresh(&[], &[]);
    for (id, before) in [(41, r#""jsonrpc":[],"#), (42, r#""jsonrpc":true,"#), (43, r#""id":{},"#), (44, r#""params":7,"#), (45, r#""jsonrpc":"2.0","#)] {
        let body = format!(r#"{{{before}"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{STATUS_TOOL}","arguments":{{"operation_id":"none"}},"name":"{STATUS_TOOL}",{ENVELOPE}}}}}"#);
        let r = server.post(ALICE_TOKEN, STATUS_TOOL, &body);
        assert_eq!(r.status, 200, "{before}: {}", r.body);
        assert!(r.body.starts_with(&format!(r#"{{"jsonrpc":"2.0","id":{id},"result":"#)), "{before}: {}", r.body);
        assert_eq!(r.json()["result"]["structuredContent"]["state"], "unknown", "{before}");
    }
}

/// h1: the continuation commits, the connection closes without a status line, the process keeps serving; the
/// status shows the effect and the identical continuation returns the stored result.
#[test]
fn close_after_commit_cuts_the_connection_and_the_process_keeps_serving() {
    let server = Server::fresh(&[("WIRE_FAULT", "close-after-commit")], &[]);
    let state = first_round(&server, ALICE_TOKEN, 1, "op-h1");
    let lost = try_exchange(&server.address, &headers("/mcp", &server.address, ALICE_TOKEN, GUARDED_TOOL), continuation(2, "op-h1", &state).as_bytes());
    assert!(lost.is_err(), "a reply after close-after-commit: {lost:?}");
    let status = server.post(ALICE_TOKEN, STATUS_TOOL, &status_call(3, "op-h1")).json();
    assert_eq!(status["result"]["structuredContent"]["state"], "applied", "{status}");
    let again = server.post(ALICE_TOKEN, GUARDED_TOOL, &continuation(4, "op-h1", &state)).json();
    assert_eq!(again["result"]["structuredContent"], json!({"operationId": "op-h1", "effectId": 1, "result": "created 1", "replayed": true, "state": "applied"}));
    assert!(server.stderr().contains("close-after-commit: the effect is committed; closing the connection before the reply\n"));
    assert!(server.child.id() > 0 && alive(server.child.id()));
}

#[test]
fn drop_after_commit_exits_70_and_a_new_process_on_the_same_ledger_recovers_the_result() {
    let dir = TempDir::new();
    let env = environment(&dir);
    let mut crashing = Server::start(&with(env.clone(), "WIRE_FAULT", "drop-after-commit"), &[]);
    let state = first_round(&crashing, ALICE_TOKEN, 1, "op-lost");
    let lost = try_exchange(&crashing.address, &headers("/mcp", &crashing.address, ALICE_TOKEN, GUARDED_TOOL), continuation(2, "op-lost", &state).as_bytes());
    assert!(lost.is_err(), "{lost:?}");
    assert_eq!(crashing.wait(Duration::from_secs(10)).code(), Some(70));
    let restarted = Server::start(&env, &[]);
    let status = restarted.post(ALICE_TOKEN, STATUS_TOOL, &status_call(1, "op-lost")).json();
    assert_eq!(status["result"]["structuredContent"]["state"], "applied", "{status}");
    let recovered = restarted.post(ALICE_TOKEN, GUARDED_TOOL, &continuation(2, "op-lost", &state)).json();
    assert_eq!(recovered["result"]["structuredContent"]["replayed"], true, "{recovered}");
    assert_eq!(restarted.stop(Duration::from_secs(10)).code(), Some(0));
}

/// SIGTERM: no new connection, the request in progress answered, every bridge child ended, exit 0.
#[test]
fn sigterm_stops_listening_lets_requests_finish_ends_the_bridges_and_exits_0() {
    let server = Server::fresh(&[("WIRE_HTTP_READ_TIMEOUT_MS", "1500")], &[]);
    server.post(ALICE_TOKEN, STATUS_TOOL, &status_call(1, "x"));
    server.post(BOB_TOKEN, STATUS_TOOL, &status_call(2, "x"));
    let bridges = server.bridges();
    assert_eq!(bridges.len(), 2);
    let mut in_progress = TcpStream::connect(&server.address).unwrap();
    in_progress.write_all(format!("{}Content-Length: 10\r\n\r\n{{", headers("/mcp", &server.address, ALICE_TOKEN, STATUS_TOOL)).as_bytes()).unwrap();
    std::thread::sleep(Duration::from_millis(200));
    let address = server.address.clone();
    let started = Instant::now();
    server.signal("TERM");
    let mut answer = Vec::new();
    in_progress.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let _ = in_progress.read_to_end(&mut answer);
    assert!(String::from_utf8_lossy(&answer).starts_with("HTTP/1.1 408 "), "{}", String::from_utf8_lossy(&answer));
    let mut server = server;
    assert_eq!(server.wait(Duration::from_secs(10)).code(), Some(0));
    assert!(started.elapsed() < Duration::from_secs(8));
    assert!(TcpStream::connect(&address).is_err(), "still listening");
    assert!(bridges.iter().all(|pid| !alive(*pid)), "a bridge outlived the server");
}

#[test]
fn the_ready_line_is_the_only_stderr_line_and_the_profile_is_off_by_default() {
    let server = Server::fresh(&[], &[]);
    assert_eq!(server.stderr(), format!("serving {}\n", server.url));
    let listed = exchange(&server.address, &headers("/mcp", &server.address, ALICE_TOKEN, "").replace("tools/call", "tools/list"),
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{{{ENVELOPE}}}}}"#).as_bytes());
    let names: Vec<Value> = listed.json()["result"]["tools"].as_array().unwrap().iter().map(|t| t["name"].clone()).collect();
    assert_eq!(names, vec![json!(GUARDED_TOOL), json!(STATUS_TOOL)]);
    let table: Value = serde_json::from_str(rust_fixture::tooltable::SHIPPED).unwrap();
    assert_eq!(listed.json()["result"]["tools"], table["guarded"]);
}

/// h3: twenty identical continuations at once, each on its own connection: one applies, nineteen replay the stored
/// result, none is refused for lack of a slot.
#[test]
fn twenty_identical_continuations_at_once_apply_once() {
    let server = Server::fresh(&[], &[]);
    let state = first_round(&server, ALICE_TOKEN, 1, "op-h3");
    let body = continuation(2, "op-h3", &state);
    let head = headers("/mcp", &server.address, ALICE_TOKEN, GUARDED_TOOL);
    let calls: Vec<_> = (0..20)
        .map(|_| {
            let (address, head, body) = (server.address.clone(), head.clone(), body.clone());
            std::thread::spawn(move || exchange(&address, &head, body.as_bytes()))
        })
        .collect();
    let mut replayed: Vec<bool> = calls
        .into_iter()
        .map(|call| {
            let reply = call.join().unwrap();
            assert_eq!(reply.status, 200, "{}", reply.body);
            let result = reply.json()["result"]["structuredContent"].clone();
            assert_eq!((result["effectId"].clone(), result["result"].clone()), (json!(1), json!("created 1")), "{result}");
            result["replayed"].as_bool().unwrap()
        })
        .collect();
    replayed.sort();
    assert_eq!(replayed, [vec![false], vec![true; 19]].concat());
}

/// hyper's graceful shutdown alone would keep a connection that has sent no request until its head's read timeout
/// (here the default 10 s), past the 5 s grace.
#[test]
fn sigterm_closes_a_connection_without_a_request_at_once() {
    let mut server = Server::fresh(&[], &[]);
    let mut idle = TcpStream::connect(&server.address).unwrap();
    std::thread::sleep(Duration::from_millis(100));
    let started = Instant::now();
    server.signal("TERM");
    assert_eq!(server.wait(Duration::from_secs(10)).code(), Some(0));
    assert!(started.elapsed() < Duration::from_secs(2), "stopped after {:?}", started.elapsed());
    idle.set_read_timeout(Some(Duration::from_secs(1))).unwrap();
    assert_eq!(idle.read(&mut [0u8; 16]).unwrap_or(0), 0, "closed without a response");
}
