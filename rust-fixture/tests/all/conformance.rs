//! The conformance profile (`--http 0 --conformance`) as a process: the port of the Go fixture's
//! conformance_test.go (the seal's bindings are unit tests in src/conformance/state.rs), plus the principal binding
//! with tokens, notifications on the event stream, a listen stream hearing the list-change triggers, and the
//! prompt, resource and completion fixtures.


use serde_json::{Value, json};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};
use crate::support::*;

const REQUEST_STATE: &str = "test_input_required_result_request_state";
const MISSING_CAPABILITY: &str = "test_missing_capability";
const CAPS: &str = r#"{"elicitation":{"form":{}},"sampling":{}}"#;

fn profile(tokens: bool) -> Server {
    Server::in_fresh_dir(|env| if tokens { env } else { without(env, "WIRE_BEARER_TOKENS_FILE") }, &["--conformance"])
}

/// A request of `method` (with Mcp-Name `name` when not empty) carrying `params` and the envelope with these
/// client capabilities (and `meta_extra` members in `_meta`).
fn request(server: &Server, token: &str, method: &str, name: &str, params: &str, capabilities: &str, meta_extra: &str) -> Reply {
    let head = headers("/mcp", &server.address, token, name).replace("Mcp-Method: tools/call", &format!("Mcp-Method: {method}"));
    let separator = if params.is_empty() { "" } else { "," };
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"{method}","params":{{{params}{separator}"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{capabilities}{meta_extra}}}}}}}"#
    );
    exchange(&server.address, &head, body.as_bytes())
}

fn call_tool(server: &Server, token: &str, tool: &str, capabilities: &str, extra: &str) -> Value {
    let reply = request(server, token, "tools/call", tool, &format!(r#""name":"{tool}","arguments":{{}}{extra}"#), capabilities, "");
    reply.json()
}

#[test]
fn the_request_state_fixture_completes_only_with_its_own_state_and_an_undeclared_capability_is_refused() {
    let server = profile(false);
    assert!(server.stderr().contains(
        "continuation-replay-rust-fixture: conformance profile without WIRE_BEARER_TOKENS_FILE: every request is principal \"conformance\", loopback only\n"
    ));
    let first = call_tool(&server, "", REQUEST_STATE, CAPS, "");
    assert_eq!(first["result"]["resultType"], "input_required", "{first}");
    let state = first["result"]["requestState"].as_str().expect("a sealed state").to_owned();
    assert!(state.starts_with("v1."), "{state}");
    let answers = r#","inputResponses":{"confirm":{"action":"accept","content":{"ok":true}}}"#;
    let second = call_tool(&server, "", REQUEST_STATE, CAPS, &format!(r#"{answers},"requestState":{}"#, json!(state)));
    assert_eq!(second["result"]["content"][0]["text"], "state-ok: the requestState verified; ok=true", "{second}");
    let tampered = format!("{}x", &state[..state.len() - 1]);
    for (name, extra) in [
        ("no state", answers.to_owned()),
        ("a tampered state", format!(r#"{answers},"requestState":{}"#, json!(tampered))),
        ("a state that is not a string", format!(r#"{answers},"requestState":42"#)),
    ] {
        let refused = call_tool(&server, "", REQUEST_STATE, CAPS, &extra);
        assert_eq!(refused["error"]["message"], "Invalid or expired requestState", "{name}: {refused}");
        assert_eq!(refused["error"]["data"], json!({"reason": "invalid_request_state"}), "{name}");
    }
    let missing = call_tool(&server, "", MISSING_CAPABILITY, r#"{"elicitation":{}}"#, "");
    assert_eq!(missing["error"]["code"], -32021, "{missing}");
    assert_eq!(missing["error"]["data"], json!({"requiredCapabilities": {"sampling": {}}}));
    let declared = call_tool(&server, "", MISSING_CAPABILITY, CAPS, "");
    assert_eq!(declared["result"]["resultType"], "input_required", "{declared}");
    assert_eq!(declared["result"]["inputRequests"]["sample"]["method"], "sampling/createMessage");
    // The stateless fixture issues no state, completes from its answer alone, and refuses any state sent to it.
    let elicitation = "test_input_required_result_elicitation";
    let asked = call_tool(&server, "", elicitation, CAPS, "");
    assert!(asked["result"].get("requestState").is_none(), "{asked}");
    let greeted = call_tool(&server, "", elicitation, CAPS, r#","inputResponses":{"user_name":{"action":"accept","content":{"name":"Ada","extra":1}}}"#);
    assert_eq!(greeted["result"]["content"][0]["text"], "Hello, Ada!", "{greeted}");
    let refused = call_tool(&server, "", elicitation, CAPS, r#","requestState":"v1.x""#);
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
}

#[test]
fn a_fixture_state_is_bound_to_the_bearer_principal_and_tokens_stay_required_with_a_tokens_file() {
    let server = profile(true);
    assert!(!server.stderr().contains("every request is principal"));
    let no_token = request(&server, "", "tools/call", REQUEST_STATE, &format!(r#""name":"{REQUEST_STATE}","arguments":{{}}"#), CAPS, "");
    assert_eq!(no_token.status, 401);
    let first = call_tool(&server, ALICE_TOKEN, REQUEST_STATE, CAPS, "");
    let state = first["result"]["requestState"].as_str().unwrap().to_owned();
    let continuation = format!(r#","inputResponses":{{"confirm":{{"action":"accept","content":{{"ok":false}}}}}},"requestState":{}"#, json!(state));
    let as_bob = call_tool(&server, BOB_TOKEN, REQUEST_STATE, CAPS, &continuation);
    assert_eq!(as_bob["error"]["message"], "Invalid or expired requestState", "{as_bob}");
    let as_alice = call_tool(&server, ALICE_TOKEN, REQUEST_STATE, CAPS, &continuation);
    assert_eq!(as_alice["result"]["content"][0]["text"], "state-ok: the requestState verified; ok=false", "{as_alice}");
    // The guarded tools are listed first and keep their own state.
    let listed = request(&server, ALICE_TOKEN, "tools/list", "", "", CAPS, "").json();
    let names: Vec<&str> = listed["result"]["tools"].as_array().unwrap().iter().filter_map(|t| t["name"].as_str()).collect();
    assert_eq!(&names[..2], [GUARDED_TOOL, STATUS_TOOL]);
    assert!(names.contains(&"test_simple_text") && names.len() == 22, "{names:?}");
    let guarded = call_tool(&server, ALICE_TOKEN, GUARDED_TOOL, CAPS, &continuation);
    assert_eq!(guarded["error"]["message"], "Invalid or expired requestState", "a fixture state opens no guarded call: {guarded}");
}

#[test]
fn progress_and_log_messages_ride_the_event_stream() {
    let server = profile(false);
    let progress = request(&server, "", "tools/call", "test_tool_with_progress", r#""name":"test_tool_with_progress","arguments":{}"#, "{}", r#","progressToken":"p-1""#);
    assert_eq!(progress.header("Content-Type"), Some("text/event-stream"));
    let events: Vec<Value> = progress.body.lines().filter_map(|l| l.strip_prefix("data: ")).filter_map(|d| serde_json::from_str(d).ok()).collect();
    let steps: Vec<Value> = events.iter().filter(|e| e["method"] == "notifications/progress").map(|e| e["params"]["progress"].clone()).collect();
    assert_eq!(steps, vec![json!(0.0), json!(50.0), json!(100.0)], "{}", progress.body);
    assert_eq!(progress.json()["result"]["content"][0]["text"], "Progress tool finished.");
    let logging = |level: &str| {
        let meta = if level.is_empty() { String::new() } else { format!(r#","io.modelcontextprotocol/logLevel":"{level}""#) };
        request(&server, "", "tools/call", "test_logging_tool", r#""name":"test_logging_tool","arguments":{}"#, "{}", &meta).body
    };
    assert!(logging("debug").contains(r#""method":"notifications/message""#));
    assert!(!logging("warning").contains("notifications/message"));
    assert!(!logging("").contains("notifications/message"));
}

#[test]
fn a_listen_stream_hears_the_list_change_triggers() {
    let server = profile(false);
    let mut stream = TcpStream::connect(&server.address).unwrap();
    let body = r#"{"jsonrpc":"2.0","id":"listen-1","method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true,"promptsListChanged":true},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
    let head = headers("/mcp", &server.address, "", "").replace("Mcp-Method: tools/call", "Mcp-Method: subscriptions/listen");
    stream.write_all(format!("{head}Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes()).unwrap();
    stream.set_read_timeout(Some(Duration::from_millis(200))).unwrap();
    let mut heard = String::new();
    let mut read_until = |needle: &str| {
        let deadline = Instant::now() + Duration::from_secs(10);
        let mut buffer = [0u8; 4096];
        while !heard.contains(needle) {
            assert!(Instant::now() < deadline, "never heard {needle}: {heard}");
            if let Ok(n) = stream.read(&mut buffer) {
                assert!(n > 0, "the stream ended: {heard}");
                heard.push_str(&String::from_utf8_lossy(&buffer[..n]));
            }
        }
    };
    read_until("notifications/subscriptions/acknowledged");
    let trigger = |tool: &str| {
        let r = request(&server, "", "tools/call", tool, &format!(r#""name":"{tool}","arguments":{{}}"#), "{}", "");
        assert!(r.json()["result"]["content"][0]["text"].as_str().unwrap().ends_with("list change announced."));
    };
    trigger("test_trigger_tool_change");
    read_until("notifications/tools/list_changed");
    trigger("test_trigger_prompt_change");
    read_until("notifications/prompts/list_changed");
    assert!(heard.contains(r#""io.modelcontextprotocol/subscriptionId":"listen-1""#), "{heard}");
}

#[test]
fn prompts_resources_and_completion() {
    let server = profile(false);
    let prompt = |name: &str, params: &str| {
        request(&server, "", "prompts/get", name, &format!(r#""name":"{name}"{params}"#), r#"{"elicitation":{}}"#, "").json()
    };
    let with_arguments = prompt("test_prompt_with_arguments", r#","arguments":{"arg1":"a","arg2":"b"}"#);
    assert_eq!(with_arguments["result"]["messages"][0]["content"]["text"], "Prompt with arguments: arg1='a', arg2='b'", "{with_arguments}");
    let asked = prompt("test_input_required_result_prompt", "");
    let state = asked["result"]["requestState"].as_str().expect("a sealed state").to_owned();
    let answered = prompt(
        "test_input_required_result_prompt",
        &format!(r#","inputResponses":{{"user_context":{{"action":"accept","content":{{"context":"tests"}}}}}},"requestState":{}"#, json!(state)),
    );
    assert_eq!(answered["result"]["messages"][0]["content"]["text"], "Use this context: tests", "{answered}");
    // A prompt's state does not open a tool fixture.
    let crossed = call_tool(&server, "", REQUEST_STATE, CAPS, &format!(r#","inputResponses":{{}},"requestState":{}"#, json!(state)));
    assert_eq!(crossed["error"]["message"], "Invalid or expired requestState");

    let read = |uri: &str| {
        let head = headers("/mcp", &server.address, "", uri).replace("Mcp-Method: tools/call", "Mcp-Method: resources/read");
        let body = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{{"uri":"{uri}","_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{{}}}}}}}}"#);
        exchange(&server.address, &head, body.as_bytes()).json()
    };
    let template = read("test://template/42/data");
    assert_eq!(template["result"]["contents"][0]["text"], r#"{"data":"Data for ID: 42","id":"42","templateTest":true}"#, "{template}");
    assert_eq!(read("test://static-text")["result"]["contents"][0]["text"], "This is the content of the static text resource.");
    assert_eq!(read("test://nothing")["error"]["code"], -32602);

    let completion = request(&server, "", "completion/complete", "", r#""ref":{"type":"ref/prompt","name":"test_prompt_with_arguments"},"argument":{"name":"arg1","value":"pa"}"#, "{}", "").json();
    assert_eq!(completion["result"]["completion"], json!({"values": ["paris", "park", "party"], "total": 3}), "{completion}");
}
