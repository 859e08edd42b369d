//! The built server as a process, on the real bridge and a temporary SQLite ledger: what a client on stdio sees.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

const SERVER: &str = env!("CARGO_BIN_EXE_rust-fixture");
const NOW: &str = "1790035200";

struct TempDir(PathBuf);

impl TempDir {
    fn new() -> TempDir {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!("rust-fixture-process-{}-{}", std::process::id(), COUNT.fetch_add(1, Ordering::Relaxed)));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn environment(database: &Path) -> Vec<(String, String)> {
    let hex = |text: &str| {
        use sha2::{Digest, Sha256};
        hex::encode(Sha256::digest(text.as_bytes()))
    };
    vec![
        ("WIRE_SERVER_DB".into(), database.display().to_string()),
        ("WIRE_BACKEND_ID".into(), "sqlite:guarded-matrix".into()),
        ("WIRE_PRINCIPAL".into(), "alice".into()),
        ("WIRE_CLOCK_EPOCH".into(), NOW.into()),
        ("WIRE_AUTHORITY_TTL".into(), "300".into()),
        ("WIRE_REPLAY_RETENTION_TTL".into(), "360".into()),
        ("WIRE_REQUEST_STATE_TTL".into(), "600".into()),
        ("WIRE_STATE_KEY_HEX".into(), hex("synthetic guarded matrix state key")),
        ("WIRE_FINGERPRINT_KEY_HEX".into(), hex("synthetic guarded matrix fingerprint key")),
    ]
}

struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
}

impl Server {
    fn start(env: &[(String, String)], args: &[&str]) -> Server {
        let mut child = Command::new(SERVER)
            .args(args)
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .envs(std::env::var("JAVA_HOME").ok().map(|j| ("JAVA_HOME".to_string(), j)))
            .envs(env.iter().cloned())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Server { child, stdin, stdout }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    /// The next stdout line, or `None` at end of output.
    fn read(&mut self) -> Option<Value> {
        let mut line = String::new();
        (self.stdout.read_line(&mut line).unwrap() > 0).then(|| serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}")))
    }

    fn request(&mut self, id: i64, method: &str, params: Value) -> Value {
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": with_meta(params)}).to_string());
        let reply = self.read().expect("a reply");
        assert_eq!(reply["id"], json!(id), "{reply}");
        reply
    }

    /// End of input, then the exit status.
    fn finish(mut self) -> i32 {
        drop(self.stdin.take());
        assert!(self.read().is_none(), "nothing after end of input");
        self.child.wait().unwrap().code().unwrap_or(-1)
    }
}

fn with_meta(mut params: Value) -> Value {
    params["_meta"] = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}},
        "io.modelcontextprotocol/clientInfo": {"name": "process-test", "version": "1"}});
    params
}

fn arguments(operation_id: &str) -> Value {
    json!({"operation_id": operation_id, "title": "First", "mode": "atomic"})
}

fn accepted(body: &str) -> Value {
    json!({"body": {"action": "accept", "content": {"body": body}}})
}

fn round_one(server: &mut Server, id: i64, operation_id: &str) -> String {
    let reply = server.request(id, "tools/call", json!({"name": "create_guarded_issue", "arguments": arguments(operation_id)}));
    assert_eq!(reply["result"]["resultType"], "input_required", "{reply}");
    assert_eq!(reply["result"]["inputRequests"]["body"]["method"], "elicitation/create", "{reply}");
    reply["result"]["requestState"].as_str().unwrap().to_owned()
}

fn continuation(operation_id: &str, state: &str) -> Value {
    json!({"name": "create_guarded_issue", "arguments": arguments(operation_id), "inputResponses": accepted("alpha"), "requestState": state})
}

/// `tools/list` is exactly the guarded tools of `vectors/rules/tools.json`, the table compiled into the binary.
#[test]
fn tools_list_is_the_shared_table() {
    let dir = TempDir::new();
    let mut server = Server::start(&environment(&dir.0.join("ledger.sqlite3")), &[]);
    let reply = server.request(1, "tools/list", json!({}));
    let table: Value = serde_json::from_str(rust_fixture::tooltable::SHIPPED).unwrap();
    assert_eq!(reply["result"]["tools"], table["guarded"]);
    assert_eq!(server.finish(), 0);
}

#[test]
fn a_continuation_applies_once_and_its_exact_replay_returns_the_stored_result() {
    let dir = TempDir::new();
    let mut server = Server::start(&environment(&dir.0.join("ledger.sqlite3")), &[]);
    let state = round_one(&mut server, 1, "op-1");
    let applied = server.request(2, "tools/call", continuation("op-1", &state));
    assert_eq!(applied["result"]["structuredContent"], json!({"operationId": "op-1", "effectId": 1, "result": "created 1", "replayed": false, "state": "applied"}));
    assert_eq!(applied["result"]["content"][0]["text"], applied["result"]["structuredContent"].to_string());
    let replayed = server.request(3, "tools/call", continuation("op-1", &state));
    assert_eq!(replayed["result"]["structuredContent"]["replayed"], true);
    let status = server.request(4, "tools/call", json!({"name": "get_operation_status", "arguments": {"operation_id": "op-1"}}));
    assert_eq!(status["result"]["structuredContent"]["state"], "applied");
    assert_eq!(status["result"]["structuredContent"]["storedResult"], "created 1");
    let mut other = continuation("op-1", &state);
    other["arguments"]["title"] = json!("Other");
    let refused = server.request(5, "tools/call", other);
    assert_eq!(refused["error"], json!({"code": -32602, "message": "Invalid or expired requestState", "data": {"reason": "invalid_request_state"}}));
    assert_eq!(server.finish(), 0);
}

#[test]
fn drop_after_commit_exits_70_before_the_reply_and_the_ledger_keeps_the_effect() {
    let dir = TempDir::new();
    let database = dir.0.join("ledger.sqlite3");
    let mut env = environment(&database);
    env.push(("WIRE_FAULT".into(), "drop-after-commit".into()));
    let mut crashing = Server::start(&env, &[]);
    let state = round_one(&mut crashing, 1, "op-lost");
    crashing.send(&json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": with_meta(continuation("op-lost", &state))}).to_string());
    assert!(crashing.read().is_none(), "the reply is lost");
    assert_eq!(crashing.child.wait().unwrap().code(), Some(70));

    let mut restarted = Server::start(&environment(&database), &[]);
    let status = restarted.request(1, "tools/call", json!({"name": "get_operation_status", "arguments": {"operation_id": "op-lost"}}));
    assert_eq!(status["result"]["structuredContent"]["state"], "applied", "{status}");
    let recovered = restarted.request(2, "tools/call", continuation("op-lost", &state));
    assert_eq!(recovered["result"]["structuredContent"]["replayed"], true, "{recovered}");
    assert_eq!(recovered["result"]["structuredContent"]["effectId"], 1);
    assert_eq!(restarted.finish(), 0);
}

#[test]
fn the_control_writes_a_new_issue_on_every_continuation() {
    let dir = TempDir::new();
    let mut server = Server::start(&environment(&dir.0.join("ledger.sqlite3")), &["--unguarded"]);
    let listed = server.request(1, "tools/list", json!({}));
    assert_eq!(listed["result"]["tools"][0]["name"], "create_issue");
    let reply = server.request(2, "tools/call", json!({"name": "create_issue", "arguments": {"title": "T"}}));
    let state = reply["result"]["requestState"].as_str().unwrap().to_owned();
    let call = json!({"name": "create_issue", "arguments": {"title": "T"}, "inputResponses": accepted("b"), "requestState": state});
    let first = server.request(3, "tools/call", call.clone());
    let second = server.request(4, "tools/call", call);
    assert_ne!(first["result"]["structuredContent"], second["result"]["structuredContent"], "{first} {second}");
    assert_eq!(server.finish(), 0);
}

#[test]
fn a_bad_configuration_or_command_line_is_one_stderr_line_and_exit_2() {
    let dir = TempDir::new();
    let run = |env: Vec<(String, String)>, args: &[&str]| {
        let out = Command::new(SERVER).args(args).env_clear().env("PATH", std::env::var("PATH").unwrap_or_default()).envs(env).stdin(Stdio::null()).output().unwrap();
        (out.status.code(), String::from_utf8(out.stderr).unwrap(), out.stdout)
    };
    let mut env = environment(&dir.0.join("ledger.sqlite3"));
    env.retain(|(name, _)| name != "WIRE_PRINCIPAL");
    let (code, stderr, stdout) = run(env, &[]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("WIRE_PRINCIPAL") && stderr.lines().count() == 1, "{stderr}");
    assert!(stdout.is_empty());
    let (code, stderr, _) = run(environment(&dir.0.join("ledger.sqlite3")), &["--verbose"]);
    assert_eq!((code, stderr.trim_end()), (Some(2), "usage: rust-fixture [--http PORT [--conformance]] [--unguarded] (configuration from the WIRE_* environment)"));
    let mut short = environment(&dir.0.join("ledger.sqlite3"));
    short.retain(|(name, _)| name != "WIRE_STATE_KEY_HEX");
    short.push(("WIRE_STATE_KEY_HEX".into(), "00".repeat(16)));
    let (code, stderr, _) = run(short, &[]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("WIRE_STATE_KEY_HEX") && !stderr.contains(&"00".repeat(16)), "{stderr}");
}

/// Every request the gate forwards gets exactly one reply with its id, and the process keeps serving: rmcp would
/// drop some valid lines without any reply (docs/findings/rust-sdk-stdio-frames.md).
#[test]
fn every_line_that_needs_a_reply_gets_one_and_the_server_keeps_serving() {
    let dir = TempDir::new();
    let mut server = Server::start(&environment(&dir.0.join("ledger.sqlite3")), &[]);
    let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;
    let lines = [
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"create_guarded_issue","arguments":{{"operation_id":"op","title":"t","n":1e400}},{meta}}}}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{{"a":{}{},{meta}}}}}"#, "[".repeat(200), "]".repeat(200)),
        format!(r#"{{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{{"name":"create_guarded_issue","arguments":{{}},"requestState":5,{meta}}}}}"#),
        format!(r#"{{"jsonrpc":2.0,"jsonrpc":"2.0","id":4,"method":"tools/list","params":{{{meta}}}}}"#),
        format!(r#"{{"jsonrpc":"2.0","x-unknown":[1],"id":5,"method":"tools/list","params":{{{meta}}}}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":6,"method":"tools/list","params":{{"_meta":{{"io.modelcontextprotocol/protocolVersion":"2025-06-18"}}}}}}"#),
        r#"{"jsonrpc":"2.0","id":7,"method":"tools/list"}"#.to_string(),
        r#"{"jsonrpc":"2.0","id":8,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}"#.to_string(),
    ];
    for line in &lines {
        server.send(line);
    }
    let mut ids: Vec<i64> = (0..lines.len()).map(|_| server.read().expect("one reply per line")["id"].as_i64().unwrap()).collect();
    ids.sort();
    assert_eq!(ids, (1..=8).collect::<Vec<_>>());
    let listed = server.request(9, "tools/list", json!({}));
    assert_eq!(listed["result"]["tools"].as_array().unwrap().len(), 2);
    assert_eq!(server.finish(), 0);
}
