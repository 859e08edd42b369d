//! The built binary: exit statuses, stderr lines and records, as the lab sees them (ported from go-client's
//! main_test.go), and one run against the Go fixture when it is built.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};

const BINARY: &str = env!("CARGO_BIN_EXE_rust-client");

/// A fresh folder under the system's temporary one, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> Self {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let path = std::env::temp_dir().join(format!(
            "rust-client-test-{}-{}-{nanos}",
            std::process::id(),
            COUNT.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&path).expect("a temporary folder");
        Self(path)
    }

    fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

struct Driven {
    status: i32,
    stderr: String,
    records: PathBuf,
    _dir: TempDir,
}

impl Driven {
    fn records(&self) -> Vec<Value> {
        let text = std::fs::read_to_string(&self.records).expect("a records file");
        text.lines()
            .map(|line| serde_json::from_str(line).expect("a JSON line"))
            .collect()
    }
}

fn drive(script: &Value, env: &[(&str, &str)]) -> Driven {
    let dir = TempDir::new();
    let script_file = dir.join("script.json");
    std::fs::write(&script_file, serde_json::to_vec(script).expect("serializes")).expect("script written");
    let records = dir.join("records.jsonl");
    let output = Command::new(BINARY)
        .arg(&script_file)
        .arg(&records)
        .envs(env.iter().copied())
        .output()
        .expect("runs");
    assert!(
        output.stdout.is_empty(),
        "stdout is unused, got {:?}",
        String::from_utf8_lossy(&output.stdout)
    );
    Driven {
        status: output.status.code().expect("an exit status"),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        records,
        _dir: dir,
    }
}

fn script(servers: Value, steps: Value) -> Value {
    json!({"format": "client-script/1", "servers": servers, "request_timeout_ms": 3000, "version_mode": "pin",
           "steps": steps})
}

#[test]
fn a_bad_script_exits_2_and_starts_nothing() {
    let marker_dir = TempDir::new();
    let marker = marker_dir.join("started");
    let text = script(
        json!({"srv": {"command": ["touch", marker]}}),
        json!([{"op": "connect", "connection": "a", "server": "srv"}, {"op": "close", "connection": "b"}]),
    );
    let driven = drive(&text, &[]);
    assert_eq!(driven.status, 2, "stderr {}", driven.stderr);
    assert_eq!(
        driven.stderr,
        "script error: step 1 (close): connection \"b\" is used before it is connected\n"
    );
    assert!(!driven.records.exists(), "a records file after a refused script");
    assert!(!marker.exists(), "a server started for a refused script");
}

#[test]
fn usage_and_an_unreadable_script_exit_2() {
    let out: Output = Command::new(BINARY).output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("usage: rust-client SCRIPT RECORDS"));
    let dir = TempDir::new();
    let out = Command::new(BINARY)
        .arg(dir.join("none.json"))
        .arg(dir.join("r"))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("script error: cannot read") && stderr.lines().count() == 1,
        "{stderr}"
    );
    assert!(!dir.join("r").exists());
}

#[test]
fn a_refused_http_entry_sends_no_request() {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a listening socket");
    listener.set_nonblocking(true).expect("non-blocking");
    let url = format!("http://{}/mcp", listener.local_addr().expect("an address"));
    let text = script(
        json!({"web": {"url": url, "bearer_token_env": "LAB_SHORT_TOKEN"}}),
        json!([{"op": "connect", "connection": "a", "server": "web"}]),
    );
    let driven = drive(&text, &[("LAB_SHORT_TOKEN", "xxxxxxxx")]);
    assert_eq!(driven.status, 2);
    assert!(
        driven.stderr.contains("holds a token shorter than 32 characters"),
        "{}",
        driven.stderr
    );
    assert!(
        !driven.stderr.contains("xxxxxxxx"),
        "the token is on stderr: {}",
        driven.stderr
    );
    let deadline = Instant::now() + Duration::from_millis(300);
    while Instant::now() < deadline {
        assert!(
            listener.accept().is_err(),
            "the driver connected although its script was refused"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_failed_connect_is_recorded_and_later_steps_are_not_runnable() {
    let dir = TempDir::new();
    let text = script(
        json!({"srv": {"command": [dir.join("no-such-server")]}}),
        json!([{"op": "connect", "connection": "a", "server": "srv"},
               {"op": "call", "connection": "a", "tool": "t", "arguments": {}, "answer": {"body": "alpha"}},
               {"op": "close", "connection": "a"}]),
    );
    let driven = drive(&text, &[]);
    assert_eq!(driven.status, 0, "{}", driven.stderr);
    let got = driven.records();
    assert_eq!(got.len(), 3, "{got:?}");
    assert_eq!(
        (&got[0]["outcome"], &got[0]["transport"], &got[0]["client"]),
        (&json!("threw"), &json!("stdio"), &json!("rust"))
    );
    assert_eq!(got[0]["threw"]["type"], "std::io::Error", "{}", got[0]);
    assert_eq!(got[0]["sdk_version"], "3.11.0");
    for later in &got[1..] {
        assert_eq!(
            (&later["outcome"], &later["threw"]["type"]),
            (&json!("threw"), &json!("StepNotRunnable")),
            "{later}"
        );
        assert!(
            later.get("transport").is_none(),
            "only a connect record names its transport"
        );
    }
    assert_eq!(got[1]["sent"]["answer"], json!({"body": "alpha"}));
}

/// A connect that timed out drops rmcp's transport, and rmcp kills a dropped transport's child outright; the driver
/// ends the child as rmcp's close does instead (its stdin closed first), and waits for it before its next step. A
/// fixture told so ends its bridge, which holds the ledger, before it exits.
#[test]
fn a_timed_out_connect_ends_its_server_by_closing_its_input_and_waits_for_it() {
    let dir = TempDir::new();
    let ended = dir.join("ended");
    let seen = dir.join("seen");
    // Never answers; on the end of its input it finishes its own work, as a fixture ends its bridge.
    let silent = format!("cat > /dev/null; sleep 0.3; echo finished > '{}'", ended.display());
    let look = format!(
        "if [ -e '{}' ]; then echo finished; else echo unfinished; fi > '{}'",
        ended.display(),
        seen.display()
    );
    let mut text = script(
        json!({"silent": {"command": ["sh", "-c", silent]}, "look": {"command": ["sh", "-c", look]}}),
        json!([{"op": "connect", "connection": "a", "server": "silent"},
               {"op": "connect", "connection": "b", "server": "look"}]),
    );
    text["request_timeout_ms"] = json!(300);
    let driven = drive(&text, &[]);
    assert_eq!(driven.status, 0, "{}", driven.stderr);
    let got = driven.records();
    assert_eq!(got[0]["outcome"], "threw", "{}", got[0]);
    assert_eq!(
        std::fs::read_to_string(&seen).expect("the second server ran").trim(),
        "finished",
        "the first server was killed, or still running, when the next step began"
    );
}

/// The Go fixture as the lab builds it, with its bridge jar: the Maven build makes both before this module (its
/// build-order dependencies), so a missing one fails the test rather than skipping it.
fn go_fixture() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let binary = root.join("go-fixture/target/bin/go-fixture");
    assert!(
        binary.exists() && root.join("bridge/target/bridge.jar").exists(),
        "build go-fixture and the bridge first (mvn install)"
    );
    binary
}

fn fixture_env(dir: &TempDir, fault: &str) -> Value {
    json!({"WIRE_SERVER_DB": dir.join("store.sqlite3"), "WIRE_BACKEND_ID": "sqlite:guarded-matrix",
           "WIRE_PRINCIPAL": "alice", "WIRE_CLOCK_EPOCH": "1790035200", "WIRE_AUTHORITY_TTL": "300",
           "WIRE_REPLAY_RETENTION_TTL": "360", "WIRE_REQUEST_STATE_TTL": "600",
           "WIRE_STATE_KEY_HEX": "8cac6b8c4ec375b861c294c1e49f902e5beb661a50b9cb3323c4ae30eb0d7dfc",
           "WIRE_FINGERPRINT_KEY_HEX": "8c0aed9f1ff0487480b140421d28d2e49f5a61b8f1837dab9304a6d126f7adba",
           "WIRE_FAULT": fault})
}

#[test]
fn the_go_fixture_is_played_over_stdio() {
    let fixture = go_fixture();
    let dir = TempDir::new();
    let arguments =
        |n: u32| json!({"operation_id": format!("rc-{n}"), "title": format!("guarded-{n}"), "mode": "atomic"});
    let accept = json!({"body": {"action": "accept", "content": {"body": "beta"}}});
    let continuation = |n: u32, connection: &str, state: &str| {
        json!({"op": "call_once", "connection": connection,
        "tool": "create_guarded_issue", "arguments": arguments(n), "input_responses": accept, "state": state})
    };
    let mut text = script(
        json!({"srv": {"command": [fixture], "env": fixture_env(&dir, "")},
               "crash": {"command": [fixture], "env": fixture_env(&dir, "drop-after-commit")}}),
        json!([
            {"op": "connect", "connection": "a", "server": "srv"},
            {"op": "list_tools", "connection": "a"},
            {"op": "call", "connection": "a", "tool": "create_guarded_issue", "arguments": arguments(1), "answer": {"body": "alpha"}},
            {"op": "call_once", "connection": "a", "tool": "create_guarded_issue", "arguments": arguments(2), "save_state": "s2"},
            with_tamper(continuation(2, "a", "s2")),
            continuation(2, "a", "s2"),
            continuation(2, "a", "s2"),
            {"op": "connect", "connection": "c", "server": "crash"},
            {"op": "call_once", "connection": "c", "tool": "create_guarded_issue", "arguments": arguments(3), "save_state": "s3"},
            continuation(3, "c", "s3"),
            {"op": "parallel", "steps": [{"op": "status", "connection": "a", "operation_id": "rc-3"},
                                         {"op": "status", "connection": "c", "operation_id": "rc-3"}]},
            continuation(3, "a", "s3"),
            {"op": "close", "connection": "c"},
            {"op": "close", "connection": "a"},
        ]),
    );
    // The bridge's JVM starts on the first call of each server.
    text["request_timeout_ms"] = json!(60000);
    let driven = drive(&text, &[]);
    assert_eq!(driven.status, 0, "{}", driven.stderr);
    let got = driven.records();
    // Inner steps of a parallel step are written as they end, in either order.
    let by = |step: Value| {
        got.iter()
            .find(|r| r["step"] == step)
            .unwrap_or_else(|| panic!("no record of step {step}"))
    };
    let mut outcomes: Vec<String> = got
        .iter()
        .map(|r| format!("{} {}", r["step"], r["outcome"].as_str().unwrap_or("?")))
        .collect();
    outcomes.sort_by_key(|line| {
        line.trim_matches('"')
            .split([' ', '.', '"'])
            .next()
            .and_then(|n| n.parse::<u32>().ok())
    });
    outcomes[10..12].sort();
    assert_eq!(
        outcomes,
        [
            "0 connected",
            "1 listed",
            "2 result",
            "3 input_required",
            "4 threw",
            "5 result",
            "6 result",
            "7 connected",
            "8 input_required",
            "9 threw",
            "\"10.0\" result",
            "\"10.1\" threw",
            "11 result",
            "12 closed",
            "13 closed"
        ],
        "{}",
        driven.stderr
    );
    let structured = |step: u32| by(json!(step))["result"]["structuredContent"].clone();
    assert_eq!(structured(2)["state"], "applied");
    assert_eq!(by(json!(3))["saved_state"], "s2");
    assert!(
        by(json!(3))["result"]["request_state_length"]
            .as_u64()
            .is_some_and(|n| n > 0)
    );
    let tampered = by(json!(4));
    assert_eq!(
        (&tampered["sent"]["request_state"], &tampered["threw"]["code"]),
        (&json!("tampered"), &json!(-32602))
    );
    assert_eq!(tampered["threw"]["data"], json!({"reason": "invalid_request_state"}));
    assert_eq!(
        (structured(5)["replayed"].clone(), structured(6)["replayed"].clone()),
        (json!(false), json!(true))
    );
    // The lost reply: the fixture committed and exited before answering; rmcp has only "Transport closed", and so
    // has every later call on that connection.
    let lost = by(json!(9));
    assert_eq!(
        (&lost["threw"]["type"], &lost["threw"]["code"]),
        (&json!("ServiceError"), &json!("TransportClosed"))
    );
    assert_eq!(by(json!("10.1"))["threw"]["code"], "TransportClosed");
    let status = by(json!("10.0"))["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(
        status.contains("\"authoritative\":true") && status.contains("\"state\":\"applied\""),
        "{status}"
    );
    assert_eq!(structured(11)["replayed"], true);
    assert!(!got.iter().any(holds_request_state), "a record holds a requestState");
}

fn holds_request_state(value: &Value) -> bool {
    match value {
        Value::Object(members) => members
            .iter()
            .any(|(name, member)| name == "requestState" || holds_request_state(member)),
        Value::Array(items) => items.iter().any(holds_request_state),
        _ => false,
    }
}

fn with_tamper(mut step: Value) -> Value {
    step["state_transform"] = json!("tamper");
    step
}

/// A server process this test started, stopped by its own handle however the test ends.
struct Started(std::process::Child);

impl Drop for Started {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn the_go_fixture_is_played_over_http_with_a_bearer_token() {
    use std::io::{BufRead, BufReader};

    let fixture = go_fixture();
    let dir = TempDir::new();
    let token = "alice-token-0123456789abcdef0123456789abcdef";
    std::fs::write(dir.join("tokens.json"), json!({"alice": token}).to_string()).expect("tokens file");
    let mut command = Command::new(fixture);
    command.args(["--http", "0"]).stderr(std::process::Stdio::piped());
    for (name, value) in fixture_env(&dir, "").as_object().expect("an object") {
        command.env(name, value.as_str().expect("a string"));
    }
    let mut server = Started(
        command
            .env("WIRE_BEARER_TOKENS_FILE", dir.join("tokens.json"))
            .spawn()
            .expect("starts"),
    );
    let mut lines = BufReader::new(server.0.stderr.take().expect("stderr")).lines();
    let url = lines
        .by_ref()
        .map_while(Result::ok)
        .find_map(|line| line.strip_prefix("serving ").map(str::to_owned))
        .expect("the fixture names its URL");
    std::thread::spawn(move || lines.for_each(drop));

    let arguments = json!({"operation_id": "rh-1", "title": "guarded-h", "mode": "atomic"});
    let mut text = script(
        json!({"web": {"url": url, "bearer_token_env": "LAB_ALICE_TOKEN"},
               "stranger": {"url": url, "bearer_token_env": "LAB_OTHER_TOKEN"}}),
        json!([
            {"op": "connect", "connection": "a", "server": "web"},
            {"op": "call", "connection": "a", "tool": "create_guarded_issue", "arguments": arguments, "answer": {"body": "alpha"}},
            {"op": "status", "connection": "a", "operation_id": "rh-1"},
            {"op": "connect", "connection": "b", "server": "stranger"},
            {"op": "close", "connection": "a"},
        ]),
    );
    text["request_timeout_ms"] = json!(60000);
    let other = "other-token-0123456789abcdef0123456789abcdef";
    let driven = drive(&text, &[("LAB_ALICE_TOKEN", token), ("LAB_OTHER_TOKEN", other)]);
    assert_eq!(driven.status, 0, "{}", driven.stderr);
    let got = driven.records();
    let outcomes: Vec<&str> = got.iter().map(|r| r["outcome"].as_str().unwrap_or("?")).collect();
    assert_eq!(
        outcomes,
        ["connected", "result", "result", "threw", "closed"],
        "{got:?}"
    );
    assert_eq!(got[0]["transport"], "http");
    assert_eq!(
        got[0]["sent"],
        json!({"server": "web", "version_mode": "pin", "url": url, "bearer_token_env": "LAB_ALICE_TOKEN"})
    );
    assert_eq!(got[1]["result"]["structuredContent"]["state"], "applied");
    // An unknown token: rmcp reports the 401's challenge, not its status.
    assert_eq!(
        (&got[3]["threw"]["type"], &got[3]["threw"]["code"]),
        (&json!("ClientInitializeError"), &json!("TransportError"))
    );
    assert!(
        got[3]["threw"]["data"]["wwwAuthenticate"]
            .as_str()
            .is_some_and(|c| c.starts_with("Bearer")),
        "{}",
        got[3]
    );
    let written = std::fs::read_to_string(&driven.records).expect("records");
    assert!(
        !written.contains(token) && !written.contains(other) && !driven.stderr.contains(token),
        "a token was written"
    );
}
