//! The script check, ported from go-client's script_test.go.

use rust_client::records::SDK_VERSION;
use rust_client::script::{Server, StepId, StepKind, TopStep, parse, tamper};
use serde_json::{Map, Value, json};

const TOKEN: &str = "tttttttttttttttttttttttttttttttttttttttt";

fn env(name: &str) -> Option<String> {
    match name {
        "LAB_TOKEN" => Some(TOKEN.to_owned()),
        "SHORT" => Some("s".repeat(31)),
        "SPACED" => Some(format!("a b{TOKEN}")),
        _ => None,
    }
}

fn doc(steps: Value, mutate: impl FnOnce(&mut Map<String, Value>)) -> Vec<u8> {
    let mut document = json!({"format": "client-script/1", "servers": {"srv": {"command": ["true"], "env": {}}},
                              "request_timeout_ms": 3000, "version_mode": "pin", "steps": steps});
    mutate(document.as_object_mut().expect("an object"));
    serde_json::to_vec(&document).expect("serializes")
}

fn connect() -> Value {
    json!({"op": "connect", "connection": "a", "server": "srv"})
}

fn round_one() -> Value {
    json!({"op": "call_once", "connection": "a", "tool": "t", "arguments": {}, "save_state": "s1"})
}

/// `base` with `changes` applied; a null change removes the member.
fn with(base: Value, changes: Value) -> Value {
    let mut out = base.as_object().expect("an object").clone();
    for (name, value) in changes.as_object().expect("an object") {
        if value.is_null() {
            out.remove(name);
        } else {
            out.insert(name.clone(), value.clone());
        }
    }
    Value::Object(out)
}

fn unchanged(_: &mut Map<String, Value>) {}

#[test]
fn a_whole_script_is_read() {
    let steps = json!([connect(), round_one(),
        {"op": "call_once", "connection": "a", "tool": "t", "arguments": {"x": 1},
         "input_responses": {"body": {"action": "accept"}}, "state": "s1", "state_transform": "tamper", "ts_api": "request"},
        {"op": "connect", "connection": "b", "server": "srv"},
        {"op": "parallel", "steps": [{"op": "status", "connection": "a", "operation_id": "o"},
                                     {"op": "list_tools", "connection": "b"}]},
        {"op": "close", "connection": "a"}]);
    let script = parse(&doc(steps, unchanged), env).expect("accepted");
    assert_eq!(script.request_timeout_ms, Some(3000));
    let TopStep::Single(third) = &script.steps[2] else {
        panic!("step 2 is not parallel")
    };
    let StepKind::CallOnce(once) = &third.kind else {
        panic!("step 2 is call_once")
    };
    let state = once.state.as_ref().expect("a state");
    assert!(state.tamper && state.name == "s1");
    assert_eq!(
        once.input_responses.as_ref().map(|r| Value::Object(r.clone())),
        Some(json!({"body": {"action": "accept"}}))
    );
    let TopStep::Parallel(inner) = &script.steps[4] else {
        panic!("step 4 is parallel")
    };
    let ids: Vec<String> = inner.iter().map(|step| step.id.to_string()).collect();
    assert_eq!(ids, ["4.0", "4.1"]);
    assert_eq!(serde_json::to_value(inner[0].id).expect("serializes"), json!("4.0"));
    assert_eq!(serde_json::to_value(StepId::Top(3)).expect("serializes"), json!(3));
}

#[test]
fn a_bad_script_is_refused_with_one_line() {
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (b"{".to_vec(), "script error: not JSON"),
        (b"[]".to_vec(), "script error: the script must be a JSON object"),
        (
            doc(json!([]), |d| {
                d.insert("format".into(), json!("client-script/2"));
            }),
            r#"script error: format must be "client-script/1" (got "client-script/2")"#,
        ),
        (
            doc(json!([]), |d| {
                d.insert("extra".into(), json!(1));
            }),
            r#"script error: unknown member "extra""#,
        ),
        (
            doc(json!([]), |d| {
                d.insert("request_timeout_ms".into(), json!(0));
            }),
            "script error: request_timeout_ms must be null or a positive whole number",
        ),
        (
            doc(json!([]), |d| {
                d.insert("request_timeout_ms".into(), json!(1.5));
            }),
            "script error: request_timeout_ms must be null or a positive whole number",
        ),
        (
            doc(json!([]), |d| {
                d.remove("request_timeout_ms");
            }),
            "script error: request_timeout_ms is required",
        ),
        (
            doc(json!([]), |d| {
                d.insert("version_mode".into(), json!("latest"));
            }),
            r#"script error: version_mode must be one of "pin", "auto", "default""#,
        ),
        (
            doc(json!([]), |d| {
                d.insert("servers".into(), json!({"srv": {"command": []}}));
            }),
            "script error: servers.srv: command must be a non-empty array",
        ),
        (
            doc(json!([]), |d| {
                d.insert("servers".into(), json!({"srv": {"command": ["x"], "env": {"A": 1}}}));
            }),
            "script error: servers.srv: env.A must be a string",
        ),
        (
            doc(json!([{"op": "jump", "connection": "a"}]), unchanged),
            r#"script error: step 0: unknown op "jump""#,
        ),
        (
            doc(json!([{"connection": "a"}]), unchanged),
            "script error: step 0: op is required",
        ),
        (
            doc(json!([with(connect(), json!({"server": "nope"}))]), unchanged),
            r#"script error: step 0 (connect): unknown server "nope""#,
        ),
        (
            doc(json!([{"op": "list_tools", "connection": "a"}]), unchanged),
            r#"script error: step 0 (list_tools): connection "a" is used before it is connected"#,
        ),
        (
            doc(json!([connect(), connect()]), unchanged),
            r#"script error: step 1 (connect): connection "a" is already connected"#,
        ),
        (
            doc(
                json!([connect(), {"op": "close", "connection": "a"}, {"op": "list_tools", "connection": "a"}]),
                unchanged,
            ),
            r#"script error: step 2 (list_tools): connection "a" is used before it is connected"#,
        ),
        (
            doc(
                json!([connect(), with(round_one(), json!({"save_state": ""}))]),
                unchanged,
            ),
            "script error: step 1 (call_once): save_state must be a non-empty string",
        ),
        (
            doc(
                json!([connect(), with(round_one(), json!({"save_state": null, "state": "s9"}))]),
                unchanged,
            ),
            r#"script error: step 1 (call_once): state "s9" is used before it is saved"#,
        ),
        (
            doc(
                json!([
                    connect(),
                    with(round_one(), json!({"save_state": null, "state_transform": "none"}))
                ]),
                unchanged,
            ),
            "script error: step 1 (call_once): state_transform needs a state",
        ),
        (
            doc(
                json!([connect(), with(round_one(), json!({"ts_api": "fetch"}))]),
                unchanged,
            ),
            r#"script error: step 1 (call_once): ts_api must be one of "callTool", "request""#,
        ),
        (
            doc(
                json!([connect(), {"op": "call", "connection": "a", "tool": "t", "arguments": []}]),
                unchanged,
            ),
            "script error: step 1 (call): arguments must be an object",
        ),
        (
            doc(
                json!([connect(), {"op": "status", "connection": "a", "operation_id": "o", "tool": "x"}]),
                unchanged,
            ),
            r#"script error: step 1 (status): unknown member "tool""#,
        ),
        (
            doc(json!([connect(), {"op": "parallel", "steps": []}]), unchanged),
            "script error: step 1 (parallel): steps must be a non-empty array",
        ),
        (
            doc(
                json!([connect(), {"op": "parallel", "steps": [{"op": "parallel", "steps": []}]}]),
                unchanged,
            ),
            "script error: step 1.0 (parallel): a parallel step cannot contain another one",
        ),
        (
            doc(
                json!([connect(), {"op": "parallel", "steps": [{"op": "list_tools", "connection": "a"},
                {"op": "status", "connection": "a", "operation_id": "o"}]}]),
                unchanged,
            ),
            r#"script error: step 1.1 (status): connection "a" is already used by step 1.0 of this parallel step"#,
        ),
        // A state saved inside a parallel step is not there for its sibling.
        (
            doc(
                json!([connect(), with(connect(), json!({"connection": "b"})), {"op": "parallel", "steps": [round_one(),
                {"op": "call_once", "connection": "b", "tool": "t", "arguments": {}, "state": "s1"}]}]),
                unchanged,
            ),
            r#"script error: step 2.1 (call_once): state "s1" is used before it is saved"#,
        ),
    ];
    let mut failures = Vec::new();
    for (text, line) in &cases {
        match parse(text, env) {
            Err(refused) if refused.line().starts_with(line) && !refused.line().contains('\n') => {}
            other => failures.push(format!(
                "{}\n  refused with {other:?}, want {line:?}",
                String::from_utf8_lossy(text)
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_bad_http_entry_is_refused_without_the_token() {
    let cases = [
        (
            json!({"url": "http://example.com/mcp", "bearer_token_env": "LAB_TOKEN"}),
            "url must name a loopback host (127.0.0.1, localhost or [::1]), not example.com",
        ),
        (
            json!({"url": "http://127.1:8080/mcp", "bearer_token_env": "LAB_TOKEN"}),
            "url must name a loopback host",
        ),
        (
            json!({"url": "https://127.0.0.1:8080/mcp", "bearer_token_env": "LAB_TOKEN"}),
            "url must be an http:// URL",
        ),
        (
            json!({"url": "http://user:pw@127.0.0.1:8080/mcp", "bearer_token_env": "LAB_TOKEN"}),
            "url must not carry user information",
        ),
        (
            json!({"url": "http://127.0.0.1:0/mcp", "bearer_token_env": "LAB_TOKEN"}),
            "url has port 0, outside 1..65535",
        ),
        (
            json!({"url": "http://127.0.0.1:80 80/mcp", "bearer_token_env": "LAB_TOKEN"}),
            "url is not a URL",
        ),
        (
            json!({"url": "http://127.0.0.1:8080/mcp", "bearer_token_env": "MISSING"}),
            "bearer_token_env MISSING is not set in the driver's environment",
        ),
        (
            json!({"url": "http://127.0.0.1:8080/mcp", "bearer_token_env": "SHORT"}),
            "bearer_token_env SHORT holds a token shorter than 32 characters",
        ),
        (
            json!({"url": "http://127.0.0.1:8080/mcp", "bearer_token_env": "SPACED"}),
            "bearer_token_env SPACED holds a character other than printable ASCII (no spaces)",
        ),
        (
            json!({"url": "http://127.0.0.1:8080/mcp"}),
            "bearer_token_env is required",
        ),
        (
            json!({"url": "http://127.0.0.1:8080/mcp", "bearer_token_env": "LAB_TOKEN", "command": ["x"]}),
            r#"unknown member "command""#,
        ),
    ];
    for (entry, line) in cases {
        let text = doc(json!([]), |d| {
            d.insert("servers".into(), json!({"web": entry.clone()}));
        });
        let refused = parse(&text, env).expect_err("refused");
        assert!(
            refused
                .line()
                .starts_with(&format!("script error: servers.web: {line}")),
            "{entry} refused with {refused}"
        );
        assert!(
            !refused.line().contains(TOKEN) && !refused.line().contains("pw"),
            "a refusal repeats a secret: {refused}"
        );
    }
}

#[test]
fn an_http_entry_does_not_print_its_token() {
    let text = doc(json!([]), |d| {
        d.insert(
            "servers".into(),
            json!({"web": {"url": "http://[::1]:8080/mcp", "bearer_token_env": "LAB_TOKEN"}}),
        );
    });
    let script = parse(&text, env).expect("accepted");
    let Some(Server::Http(http)) = script.servers.get("web") else {
        panic!("an HTTP server")
    };
    assert_eq!(http.token.expose(), TOKEN);
    for shown in [
        format!("{http:?}"),
        format!("{http:#?}"),
        format!("{script:?}"),
        format!("{:?}", http.token),
    ] {
        assert!(!shown.contains(TOKEN), "Debug prints the token: {shown}");
    }
}

#[test]
fn tamper_changes_the_middle_character() {
    assert_eq!(tamper("xxAxx"), "xxBxx");
    assert_eq!(tamper("xxxxx"), "xxAxx");
    assert_eq!(tamper(""), "");
}

#[test]
fn the_records_name_the_rmcp_in_cargo_lock() {
    let lock = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.lock")).expect("Cargo.lock");
    let locked = lock
        .split("[[package]]")
        .find(|entry| entry.contains("\nname = \"rmcp\"\n"))
        .and_then(|entry| entry.lines().find_map(|line| line.strip_prefix("version = ")))
        .map(|version| version.trim_matches('"'));
    assert_eq!(locked, Some(SDK_VERSION));
}
