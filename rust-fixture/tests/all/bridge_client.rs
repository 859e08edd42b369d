//! The client against the real bridge (`../bridge/target/bridge.jar` on a temporary SQLite file) and against
//! stand-in children for the failures a healthy bridge never shows.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use rust_fixture::bridge::{self, Answer, Client, MachineryFailure, Options, StderrSink};
use rust_fixture::config;
use serde_json::{Map, Value, json};

const NOW: u64 = 1790035200;

/// A folder of its own, removed at the end of the test.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> TempDir {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        let name = format!(
            "rust-fixture-bridge-{}-{nanos}-{}",
            std::process::id(),
            COUNT.fetch_add(1, Ordering::Relaxed)
        );
        let dir = std::env::temp_dir().join(name);
        std::fs::create_dir(&dir).unwrap();
        TempDir(dir)
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn repository_root() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let jar = bridge::bridge_jar(&root);
    assert!(
        jar.is_file(),
        "{} is missing: build the bridge first",
        jar.display()
    );
    root
}

fn discard() -> StderrSink {
    Arc::new(|_| {})
}

fn capture() -> (StderrSink, Arc<Mutex<Vec<u8>>>) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let writer = Arc::clone(&seen);
    (
        Arc::new(move |bytes: &[u8]| writer.lock().unwrap().extend_from_slice(bytes)),
        seen,
    )
}

fn real_bridge(extra: &[(&str, &str)]) -> (Client, TempDir) {
    let root = repository_root();
    let dir = TempDir::new();
    let mut env: HashMap<String, String> = [
        (
            config::SERVER_DB,
            dir.path()
                .join("store.sqlite3")
                .to_string_lossy()
                .into_owned(),
        ),
        (config::BACKEND_ID, "sqlite:guarded-matrix".to_owned()),
        (config::PRINCIPAL, "alice".to_owned()),
        (config::CLOCK_EPOCH, NOW.to_string()),
        (
            config::FINGERPRINT_KEY_HEX,
            "8c0aed9f1ff0487480b140421d28d2e49f5a61b8f1837dab9304a6d126f7adba".to_owned(),
        ),
        (
            config::STATE_KEY_HEX,
            "must-not-reach-the-bridge".to_owned(),
        ),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v))
    .collect();
    for (k, v) in extra {
        env.insert((*k).to_owned(), (*v).to_owned());
    }
    let lookup = |name: &str| env.get(name).cloned().or_else(|| config::os_env(name));
    let options = Options {
        argv: bridge::default_command(&root, config::os_env),
        env: bridge::environment(lookup),
        timeout: Duration::from_secs(30),
        stderr: discard(),
    };
    (Client::new(options).unwrap(), dir)
}

fn stand_in(script: &str, timeout: Duration, stderr: StderrSink) -> Client {
    let path = config::os_env("PATH").unwrap_or_default();
    Client::new(Options {
        argv: vec!["/bin/sh".into(), "-c".into(), script.into()],
        env: vec![("PATH".into(), path)],
        timeout,
        stderr,
    })
    .unwrap()
}

fn apply(operation_id: &str, body: &str, mode: &str) -> Value {
    json!({
        "op": "apply", "operation_id": operation_id, "title": "title", "mode": mode, "body": body,
        "state": {"v": 1, "operation_id": operation_id, "nonce": "661eed17995cd1b77e6812a2fd567408",
            "issued_at": NOW, "authority_expires_at": NOW + 300, "replay_expires_at": NOW + 360},
        "responses": {"body": {"_meta": null, "action": "accept", "content": {"body": body}}},
    })
}

fn status(operation_id: &str) -> Value {
    json!({"op": "status", "operation_id": operation_id})
}

fn result(answer: Result<Answer, MachineryFailure>) -> Map<String, Value> {
    match answer {
        Ok(Answer::Ok { result }) => serde_json::from_str(&result).expect("a result object"),
        other => panic!("not ok: {other:?}"),
    }
}

fn machinery_failure(answer: Result<Answer, MachineryFailure>) -> String {
    match answer {
        Err(failure) => failure.message().to_owned(),
        Ok(answer) => panic!("want a machinery failure, got {answer:?}"),
    }
}

async fn call(b: &Client, request: &Value) -> Map<String, Value> {
    result(b.call(request).await)
}

#[tokio::test]
async fn one_child_serves_apply_replay_conflict_and_status() {
    let (b, _dir) = real_bridge(&[]);
    b.start().await;
    let pid = b.pid().await;
    assert!(pid.is_some());
    let first = call(&b, &apply("bc-1", "alpha", "atomic")).await;
    assert_eq!(
        (
            &first["operationId"],
            &first["replayed"],
            &first["state"],
            &first["effectId"]
        ),
        (&json!("bc-1"), &json!(false), &json!("applied"), &json!(1)),
        "{first:?}"
    );
    assert_eq!(
        call(&b, &apply("bc-1", "alpha", "atomic")).await["replayed"],
        json!(true)
    );
    match b.call(&apply("bc-1", "beta", "atomic")).await {
        Ok(Answer::Error { kind, .. }) if kind == "operation_conflict" => {}
        other => panic!("{other:?}"),
    }
    match b
        .call(&json!({"op": "status", "operation_id": "bc-1", "principal": "bob"}))
        .await
    {
        Ok(Answer::Error { kind, .. }) if kind == "invalid_application_request" => {}
        other => panic!("{other:?}"),
    }
    assert_eq!(call(&b, &status("bc-1")).await["state"], json!("applied"));
    assert_eq!(b.pid().await, pid);
    assert_eq!(b.spawned().await, 1);
    b.close(Duration::from_secs(3)).await;
}

#[tokio::test]
async fn the_result_is_the_exact_text_the_bridge_wrote() {
    let (b, _dir) = real_bridge(&[]);
    let answer = b.call(&status("bc-text")).await.unwrap();
    let Answer::Ok { result } = &answer else {
        panic!("{answer:?}")
    };
    // the bridge's member order, not a sorted re-encoding
    assert!(
        result.starts_with(r#"{"operationId":"bc-text","principal":"alice","#),
        "{result}"
    );
    assert_eq!(answer.result_value().unwrap()["state"], json!("unknown"));
    b.close(Duration::from_secs(3)).await;
}

#[tokio::test]
async fn the_unguarded_control_creates_a_new_issue_on_every_call() {
    let (b, _dir) = real_bridge(&[]);
    let create = json!({"op": "create", "title": "t", "body": "b",
        "responses": rust_fixture::guarded::normalised_responses("b")});
    assert_eq!(call(&b, &create).await["issueId"], json!(1));
    assert_eq!(call(&b, &create).await["issueId"], json!(2));
    match b.call(&json!({"op": "create", "title": "t"})).await {
        Ok(Answer::Error { kind, detail }) if kind == "invalid_application_request" => {
            assert!(detail.contains("missing [body, responses]"), "{detail}")
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(b.spawned().await, 1);
    b.close(Duration::from_secs(3)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_calls_each_get_their_own_answer() {
    let (b, _dir) = real_bridge(&[]);
    let calls: Vec<_> = (0..20u8)
        .map(|i| {
            let b = b.clone();
            let id = format!("bc-many-{}", char::from(b'a' + i));
            tokio::spawn(async move {
                let answer = b.call(&apply(&id, &format!("body {id}"), "atomic")).await;
                (id, answer)
            })
        })
        .collect();
    for handle in calls {
        let (id, answer) = handle.await.unwrap();
        assert_eq!(result(answer)["operationId"], json!(id));
    }
    assert_eq!(b.spawned().await, 1);
    b.close(Duration::from_secs(3)).await;
}

#[tokio::test]
async fn a_child_that_dies_mid_call_fails_that_call_and_is_replaced() {
    let (b, _dir) = real_bridge(&[(config::FAULT, "exit-after-ledger-insert")]);
    let message = machinery_failure(b.call(&apply("bc-fault", "alpha", "atomic")).await);
    assert!(
        message.starts_with("bridge machinery failure: 71; "),
        "{message}"
    );
    assert_eq!(
        call(&b, &status("bc-fault")).await["state"],
        json!("unknown")
    );
    assert_eq!(b.spawned().await, 2);
    b.close(Duration::from_secs(3)).await;
}

#[tokio::test]
async fn the_partial_cut_fails_with_73() {
    let (b, _dir) = real_bridge(&[(config::FAULT, "exit-after-partial-first-commit")]);
    let message = machinery_failure(b.call(&apply("bc-partial", "alpha", "partial")).await);
    assert!(
        message.starts_with("bridge machinery failure: 73; "),
        "{message}"
    );
    let status = call(&b, &status("bc-partial")).await;
    assert_eq!(status["state"], json!("unknown"), "{status:?}");
    assert!(
        status["detail"].as_str().unwrap().contains("in_progress"),
        "{status:?}"
    );
    b.close(Duration::from_secs(3)).await;
}

#[tokio::test]
async fn a_child_killed_while_idle_is_replaced() {
    let (b, _dir) = real_bridge(&[]);
    call(&b, &status("x")).await;
    let pid = b.pid().await.unwrap();
    let exited = b.child_exit().await.unwrap();
    let killed = std::process::Command::new("kill")
        .args(["-KILL", &pid.to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    assert_eq!(exited.wait().await, "SIGKILL");
    call(&b, &status("x")).await;
    assert_ne!(b.pid().await, Some(pid));
    assert_eq!(b.spawned().await, 2);
    b.close(Duration::from_secs(3)).await;
}

#[tokio::test]
async fn the_last_stderr_line_is_part_of_the_failure() {
    let (sink, forwarded) = capture();
    let b = stand_in(
        r"read l; printf 'first\n%0300d\nlast words\n' 0 >&2; exit 3",
        Duration::from_secs(30),
        sink,
    );
    let message = machinery_failure(b.call(&status("x")).await);
    assert_eq!(message, "bridge machinery failure: 3; last words");
    assert!(
        String::from_utf8_lossy(&forwarded.lock().unwrap()).contains("first\n"),
        "stderr not forwarded"
    );
    b.close(Duration::from_secs(1)).await;

    let long = stand_in(
        "read l; printf '%0300d' 0 >&2; exit 4",
        Duration::from_secs(30),
        discard(),
    );
    let message = machinery_failure(long.call(&json!({})).await);
    assert_eq!(
        message,
        format!("bridge machinery failure: 4; {}", "0".repeat(160))
    );
    long.close(Duration::from_secs(1)).await;
}

#[tokio::test]
async fn an_answer_that_is_not_a_bridge_reply_replaces_the_child() {
    let b = stand_in(
        r#"while read l; do case "$l" in *bad*) echo 'not json';; *) echo '{"ok":true,"result":{"n":1}}';; esac; done"#,
        Duration::from_secs(30),
        discard(),
    );
    let message = machinery_failure(b.call(&json!({"bad": true})).await);
    assert_eq!(message, "bridge machinery failure: invalid reply; ");
    assert_eq!(call(&b, &json!({})).await["n"], json!(1));
    assert_eq!(b.spawned().await, 2);
    b.close(Duration::from_secs(1)).await;
    for reply in [
        r#"{"ok":"yes"}"#,
        r#"{"ok":true,"result":[]}"#,
        r#"{"ok":false,"error":1,"detail":"d"}"#,
        "[]",
    ] {
        let odd = stand_in(
            &format!("read l; echo '{reply}'"),
            Duration::from_secs(30),
            discard(),
        );
        let message = machinery_failure(odd.call(&json!({})).await);
        assert_eq!(
            message, "bridge machinery failure: invalid reply; ",
            "{reply}"
        );
        odd.close(Duration::from_secs(1)).await;
    }
}

#[tokio::test]
async fn silence_past_the_timeout_kills_the_child() {
    let b = stand_in(
        r#"while read l; do case "$l" in *silent*) ;; *) echo '{"ok":true,"result":{}}';; esac; done"#,
        Duration::from_secs(2),
        discard(),
    );
    let started = Instant::now();
    let message = machinery_failure(b.call(&json!({"silent": true})).await);
    assert_eq!(
        message,
        "bridge machinery failure: no reply within 2000 ms; "
    );
    assert!(started.elapsed() < Duration::from_secs(6), "too slow");
    call(&b, &json!({})).await;
    assert_eq!(b.spawned().await, 2);
    b.close(Duration::from_secs(1)).await;
}

#[tokio::test]
async fn a_caller_that_stops_waiting_leaves_the_exchange_to_finish() {
    let b = stand_in(
        r#"while read l; do sleep 1; echo "{\"ok\":true,\"result\":$l}"; done"#,
        Duration::from_secs(30),
        discard(),
    );
    let abandoned = tokio::time::timeout(Duration::from_millis(200), b.call(&json!({"n": 1}))).await;
    assert!(abandoned.is_err(), "answered too soon");
    // The next call gets its own answer, not the late one, from the same child.
    assert_eq!(call(&b, &json!({"n": 2})).await["n"], json!(2));
    assert_eq!(b.spawned().await, 1);
    b.close(Duration::from_secs(1)).await;
}

#[tokio::test]
async fn unasked_output_kills_the_child() {
    // The first child speaks before it is asked; the second only answers.
    let dir = TempDir::new();
    let once = dir.path().join("once");
    let once = once.display();
    let script = format!(
        r#"if [ ! -e '{once}' ]; then : > '{once}'; echo '{{"ok":true,"result":{{}}}}'; fi; while read l; do echo '{{"ok":true,"result":{{"late":1}}}}'; done"#
    );
    let b = stand_in(&script, Duration::from_secs(5), discard());
    b.start().await;
    b.child_exit().await.unwrap().wait().await;
    let r = call(&b, &json!({})).await;
    assert_eq!(r["late"], json!(1), "{r:?}");
    assert_eq!(b.spawned().await, 2);
    b.close(Duration::from_secs(1)).await;
}

#[tokio::test]
async fn a_command_that_cannot_start_fails_the_call() {
    let mut options = Options::new(vec!["/nonexistent/java".into()], Vec::new());
    options.stderr = discard();
    let b = Client::new(options).unwrap();
    let message = machinery_failure(b.call(&json!({})).await);
    assert!(
        message.starts_with("bridge machinery failure: ")
            && message.contains("/nonexistent/java")
            && message.ends_with("; "),
        "{message}"
    );
    b.close(Duration::from_secs(1)).await;
}

#[test]
fn an_empty_command_is_refused() {
    let refused = Client::new(Options::new(Vec::new(), Vec::new()))
        .err()
        .unwrap();
    assert_eq!(refused.to_string(), "the bridge command is empty");
}

fn sorted_environment(set: &[(&str, &str)]) -> String {
    let set: HashMap<&str, &str> = set.iter().copied().collect();
    let mut env: Vec<String> = bridge::environment(|name| set.get(name).map(|v| v.to_string()))
        .into_iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    env.sort();
    env.join(",")
}

#[test]
fn the_child_sees_only_the_allowlisted_environment() {
    let env = sorted_environment(&[
        ("PATH", "/bin"),
        ("WIRE_FINGERPRINT_KEY_HEX", "k"),
        ("WIRE_STATE_KEY_HEX", "s"),
        ("WIRE_REQUEST_STATE_TTL", "1"),
        ("SECRET", "x"),
        ("HOME", "/h"),
    ]);
    assert_eq!(env, "HOME=/h,PATH=/bin,WIRE_FINGERPRINT_KEY_HEX=k");
}

#[test]
fn the_child_gets_the_postgres_ledger_variables() {
    let env = sorted_environment(&[
        ("WIRE_LEDGER_URL", "jdbc:postgresql://127.0.0.1/l"),
        ("WIRE_LEDGER_USER", "lab"),
        ("WIRE_LEDGER_PASSWORD_FILE", "/tmp/p"),
        ("WIRE_LEDGER_PASSWORD", "pw"),
        ("WIRE_STATE_KEY_HEX", "s"),
    ]);
    assert_eq!(
        env,
        "WIRE_LEDGER_PASSWORD=pw,WIRE_LEDGER_PASSWORD_FILE=/tmp/p,WIRE_LEDGER_URL=jdbc:postgresql://127.0.0.1/l,\
         WIRE_LEDGER_USER=lab"
    );
}

#[test]
fn debug_of_the_options_shows_no_value_of_the_environment() {
    let options = Options::new(
        vec!["java".into()],
        vec![("WIRE_LEDGER_PASSWORD".into(), "hunter2".into())],
    );
    let shown = format!("{options:?}");
    assert!(
        shown.contains("WIRE_LEDGER_PASSWORD") && !shown.contains("hunter2"),
        "{shown}"
    );
}

#[tokio::test]
async fn close_ends_the_child_and_later_calls_fail() {
    let (b, _dir) = real_bridge(&[]);
    call(&b, &status("x")).await;
    let exited = b.child_exit().await.unwrap();
    b.close(Duration::from_secs(30)).await;
    assert_eq!(exited.wait().await, "0");
    let message = machinery_failure(b.call(&status("x")).await);
    assert_eq!(message, "bridge machinery failure: bridge closed; ");
}

fn getenv<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
    move |name| {
        pairs
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.to_string())
    }
}

#[test]
fn bridge_command() {
    let root = Path::new("/repo");
    let argv = bridge::command(root, getenv(&[("JAVA_HOME", "/jdk")])).unwrap();
    let want = [
        "/jdk/bin/java",
        "-Xlog:disable",
        "-Xlog:all=warning:stderr",
        "-XX:+DisplayVMOutputToStderr",
        "-XX:TieredStopAtLevel=1",
        "-XX:+UseSerialGC",
        "-Xmx64m",
        "-XX:-UsePerfData",
        "-jar",
        "/repo/bridge/target/bridge.jar",
    ];
    assert_eq!(argv, want);
    assert_eq!(bridge::command(root, getenv(&[])).unwrap()[0], "java");
    assert_eq!(
        bridge::command(root, getenv(&[("JAVA_HOME", "")])).unwrap()[0],
        "java"
    );
    let configured =
        bridge::command(root, getenv(&[(bridge::COMMAND_VARIABLE, r#"["a","b"]"#)])).unwrap();
    assert_eq!(configured, ["a", "b"]);
    assert_eq!(
        bridge::command(root, getenv(&[(bridge::COMMAND_VARIABLE, "")])).unwrap()[0],
        "java"
    );
    for bad in [
        "[]",
        r#""java""#,
        "[1]",
        r#"[""]"#,
        "not json",
        r#"{"a":1}"#,
        "null",
    ] {
        let err = bridge::command(root, getenv(&[(bridge::COMMAND_VARIABLE, bad)])).unwrap_err();
        assert_eq!(
            err.to_string(),
            "LAB_BRIDGE_COMMAND must be a JSON array of strings",
            "{bad}"
        );
    }
}

#[test]
fn jvm_options_are_the_shared_tables() {
    for (name, constant) in [
        ("stdio-jvm-options.json", &bridge::STDIO_JVM_OPTIONS[..]),
        ("case-jvm-options.json", &bridge::CASE_JVM_OPTIONS[..]),
    ] {
        let table = rust_fixture::ruletable::load(name).unwrap();
        let options: Vec<&str> = table.root["options"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o.as_str().unwrap())
            .collect();
        assert_eq!(options, constant, "{name}");
    }
}

#[test]
fn read_answer_takes_only_bridge_replies() {
    assert_eq!(
        bridge::read_answer(br#"{"ok":true,"result":{"b":1, "a":2}}"#),
        Some(Answer::Ok {
            result: r#"{"b":1, "a":2}"#.into()
        })
    );
    assert_eq!(
        bridge::read_answer(br#"{"ok":false,"error":"operation_conflict","detail":"d\u00e9"}"#),
        Some(Answer::Error {
            kind: "operation_conflict".into(),
            detail: "d\u{e9}".into()
        })
    );
    for line in [
        &br#"{"ok":true}"#[..],
        br#"{"ok":false,"error":"k"}"#,
        br#"{"ok":false,"error":"k","detail":null}"#,
        br#"{"ok":1,"result":{}}"#,
        b"null",
        b"",
    ] {
        assert_eq!(
            bridge::read_answer(line),
            None,
            "{}",
            String::from_utf8_lossy(line)
        );
    }
}
