//! The built server in HTTP mode as a child process on a free loopback port, with the real bridge and a temporary
//! SQLite ledger, and a client that writes each request as raw HTTP/1.1 bytes on its own connection, so every header
//! (Host included) is as written, and reads the response as bytes.

#![allow(dead_code)]

use serde_json::Value;
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

pub const SERVER: &str = env!("CARGO_BIN_EXE_rust-fixture");
pub const ALICE_TOKEN: &str = "alice-token-0123456789abcdef0123456789abcdef";
pub const BOB_TOKEN: &str = "bob-token-0123456789abcdef0123456789abcdef00";
pub const ENVELOPE: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}}"#;
pub const GUARDED_TOOL: &str = "create_guarded_issue";
pub const STATUS_TOOL: &str = "get_operation_status";
pub const CONTROL_TOOL: &str = "create_issue";

pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new() -> TempDir {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!("rust-fixture-http-{}-{}", std::process::id(), COUNT.fetch_add(1, Ordering::Relaxed)));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir(&dir).unwrap();
        TempDir(dir)
    }

    pub fn file(&self, name: &str, text: &str) -> String {
        let path = self.0.join(name);
        std::fs::write(&path, text).unwrap();
        path.display().to_string()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The stdio variables but `WIRE_PRINCIPAL`, with a tokens file of alice and bob.
pub fn environment(dir: &TempDir) -> Vec<(String, String)> {
    let tokens = dir.file("tokens.json", &format!(r#"{{"alice":"{ALICE_TOKEN}","bob":"{BOB_TOKEN}"}}"#));
    vec![
        ("WIRE_SERVER_DB".into(), dir.0.join("store.sqlite3").display().to_string()),
        ("WIRE_BACKEND_ID".into(), "sqlite:guarded-matrix".into()),
        ("WIRE_CLOCK_EPOCH".into(), "1790035200".into()),
        ("WIRE_AUTHORITY_TTL".into(), "300".into()),
        ("WIRE_REPLAY_RETENTION_TTL".into(), "360".into()),
        ("WIRE_REQUEST_STATE_TTL".into(), "600".into()),
        ("WIRE_STATE_KEY_HEX".into(), "8c".repeat(32)),
        ("WIRE_FINGERPRINT_KEY_HEX".into(), "5a".repeat(32)),
        ("WIRE_BEARER_TOKENS_FILE".into(), tokens),
    ]
}

pub fn with(mut env: Vec<(String, String)>, name: &str, value: &str) -> Vec<(String, String)> {
    env.retain(|(n, _)| n != name);
    env.push((name.into(), value.into()));
    env
}

pub fn without(mut env: Vec<(String, String)>, name: &str) -> Vec<(String, String)> {
    env.retain(|(n, _)| n != name);
    env
}

fn command(env: &[(String, String)], args: &[&str]) -> Command {
    let mut command = Command::new(SERVER);
    command
        .args(args)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .envs(std::env::var("JAVA_HOME").ok().map(|j| ("JAVA_HOME".to_string(), j)))
        .envs(env.iter().cloned());
    command
}

/// A run that ends by itself (a refused configuration): its exit code, stdout and stderr.
pub fn run(env: &[(String, String)], args: &[&str]) -> (Option<i32>, String, String) {
    let out = command(env, args).stdin(Stdio::null()).output().unwrap();
    (out.status.code(), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

pub struct Server {
    pub child: Child,
    /// host:port
    pub address: String,
    pub url: String,
    stderr: Arc<Mutex<String>>,
    _dir: Option<TempDir>,
}

impl Server {
    /// Starts `rust-fixture --http 0 ARGS` and waits for its ready line.
    pub fn start(env: &[(String, String)], args: &[&str]) -> Server {
        let mut all = vec!["--http", "0"];
        all.extend_from_slice(args);
        let mut child = command(env, &all).stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap();
        let stderr = Arc::new(Mutex::new(String::new()));
        let (ready, url) = mpsc::channel();
        let lines = BufReader::new(child.stderr.take().unwrap());
        let log = Arc::clone(&stderr);
        std::thread::spawn(move || {
            for line in lines.lines() {
                let Ok(line) = line else { break };
                {
                    let mut log = log.lock().unwrap();
                    log.push_str(&line);
                    log.push('\n');
                }
                if let Some(url) = line.strip_prefix("serving ") {
                    let _ = ready.send(url.to_owned());
                }
            }
        });
        let url = url.recv_timeout(Duration::from_secs(20)).unwrap_or_else(|_| panic!("no ready line: {}", stderr.lock().unwrap()));
        let address = url.strip_prefix("http://").and_then(|u| u.strip_suffix("/mcp")).expect("http://127.0.0.1:PORT/mcp").to_owned();
        assert!(address.starts_with("127.0.0.1:"), "{url}");
        Server { child, address, url, stderr, _dir: None }
    }

    /// `start` in a fresh folder with the usual environment plus `extra`.
    pub fn fresh(extra: &[(&str, &str)], args: &[&str]) -> Server {
        Server::in_fresh_dir(|env| extra.iter().fold(env, |env, (name, value)| with(env, name, value)), args)
    }

    /// `start` in a fresh folder with the usual environment as `prepare` makes it.
    pub fn in_fresh_dir(prepare: impl FnOnce(Vec<(String, String)>) -> Vec<(String, String)>, args: &[&str]) -> Server {
        let dir = TempDir::new();
        let mut server = Server::start(&prepare(environment(&dir)), args);
        server._dir = Some(dir);
        server
    }

    pub fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    pub fn signal(&self, name: &str) {
        let status = Command::new("kill").arg(format!("-{name}")).arg(self.child.id().to_string()).status().unwrap();
        assert!(status.success());
    }

    /// SIGTERM, then the exit status (within `limit`).
    pub fn stop(mut self, limit: Duration) -> ExitStatus {
        self.signal("TERM");
        self.wait(limit)
    }

    pub fn wait(&mut self, limit: Duration) -> ExitStatus {
        let deadline = Instant::now() + limit;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(Instant::now() < deadline, "the server did not exit within {limit:?}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The pids of this server's bridge children (Linux: /proc).
    pub fn bridges(&self) -> Vec<u32> {
        bridge_children(self.child.id())
    }

    /// A POST to /mcp with the usual headers, as `token`, for `tool` (`tools/call`), or for `method` without
    /// Mcp-Name when `tool` is empty.
    pub fn post(&self, token: &str, tool: &str, body: &str) -> Reply {
        exchange(&self.address, &headers("/mcp", &self.address, token, tool), body.as_bytes())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn bridge_children(pid: u32) -> Vec<u32> {
    let mut children = Vec::new();
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return children;
    };
    for task in tasks.flatten() {
        let list = std::fs::read_to_string(task.path().join("children")).unwrap_or_default();
        for child in list.split_whitespace().filter_map(|c| c.parse::<u32>().ok()) {
            let cmdline = std::fs::read(format!("/proc/{child}/cmdline")).unwrap_or_default();
            if String::from_utf8_lossy(&cmdline).contains("bridge") {
                children.push(child);
            }
        }
    }
    children.sort();
    children.dedup();
    children
}

pub fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| !stat.contains(") Z "))
}

/// One response, or how the exchange ended without one.
#[derive(Debug, Clone)]
pub struct Reply {
    pub status: u16,
    pub headers: HashMap<String, Vec<String>>,
    pub body: String,
    /// The bytes as received, head included.
    pub raw: Vec<u8>,
}

impl Reply {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(&name.to_ascii_lowercase()).and_then(|v| v.first()).map(String::as_str)
    }

    pub fn json(&self) -> Value {
        serde_json::from_str(self.message()).unwrap_or_else(|e| panic!("{e}: {} {}", self.status, self.body))
    }

    /// The JSON-RPC message: the body, or the data of an event stream's message event.
    pub fn message(&self) -> &str {
        match self.body.lines().filter_map(|l| l.strip_prefix("data: ")).rfind(|d| d.contains("\"id\"")) {
            Some(data) => data,
            None => self.body.trim(),
        }
    }
}

/// The request line and the usual headers, ending with a CRLF; empty `token` or `tool` leave that header out.
pub fn headers(path: &str, host: &str, token: &str, tool: &str) -> String {
    let mut h = format!(
        "POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n\
         MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\n"
    );
    if !tool.is_empty() {
        h.push_str(&format!("Mcp-Name: {tool}\r\n"));
    }
    if !token.is_empty() {
        h.push_str(&format!("Authorization: Bearer {token}\r\n"));
    }
    h
}

/// `{"jsonrpc":"2.0","id":ID,"method":"tools/call","params":{"name":TOOL,"arguments":ARGS EXTRA,ENVELOPE}}`
pub fn call(id: i64, tool: &str, arguments: &str, extra: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{tool}","arguments":{arguments}{extra},{ENVELOPE}}}}}"#)
}

/// One raw request on its own connection (`Connection: close`, and a Content-Length unless the head has one or is
/// chunked); the response read to the end. Panics if there is none.
pub fn exchange(address: &str, head: &str, body: &[u8]) -> Reply {
    try_exchange(address, head, body).unwrap_or_else(|e| panic!("{head}: {e}"))
}

pub fn try_exchange(address: &str, head: &str, body: &[u8]) -> Result<Reply, String> {
    let mut stream = TcpStream::connect(address).map_err(|e| e.to_string())?;
    stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let mut head = head.to_owned();
    if !head.contains("Content-Length") && !head.contains("Transfer-Encoding") {
        head.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    head.push_str("Connection: close\r\n\r\n");
    let mut bytes = head.into_bytes();
    bytes.extend_from_slice(body);
    // The server may answer and close before it has read everything (a refusal judged from the head).
    let _ = stream.write_all(&bytes);
    let mut raw = Vec::new();
    let read = stream.read_to_end(&mut raw);
    if raw.is_empty() {
        return Err(format!("no response ({read:?})"));
    }
    parse(raw)
}

/// Parses a whole HTTP/1.1 response (Content-Length, chunked, or to the end).
pub fn parse(raw: Vec<u8>) -> Result<Reply, String> {
    let end = raw.windows(4).position(|w| w == b"\r\n\r\n").ok_or_else(|| format!("no head in {:?}", String::from_utf8_lossy(&raw)))?;
    let head = String::from_utf8_lossy(&raw[..end]).into_owned();
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap_or_default();
    let status = status_line.split(' ').nth(1).and_then(|s| s.parse().ok()).ok_or_else(|| format!("status line {status_line:?}"))?;
    let mut headers: HashMap<String, Vec<String>> = HashMap::new();
    for line in lines {
        if let Some((name, value)) = line.split_once(':') {
            headers.entry(name.trim().to_ascii_lowercase()).or_default().push(value.trim().to_owned());
        }
    }
    let rest = &raw[end + 4..];
    let chunked = headers.get("transfer-encoding").is_some_and(|v| v.iter().any(|t| t.eq_ignore_ascii_case("chunked")));
    let body = if chunked { dechunk(rest) } else { rest.to_vec() };
    Ok(Reply { status, headers, body: String::from_utf8_lossy(&body).into_owned(), raw })
}

fn dechunk(mut rest: &[u8]) -> Vec<u8> {
    let mut body = Vec::new();
    while let Some(line_end) = rest.windows(2).position(|w| w == b"\r\n") {
        let size = usize::from_str_radix(String::from_utf8_lossy(&rest[..line_end]).split(';').next().unwrap_or("").trim(), 16).unwrap_or(0);
        rest = &rest[line_end + 2..];
        if size == 0 || rest.len() < size {
            body.extend_from_slice(&rest[..size.min(rest.len())]);
            break;
        }
        body.extend_from_slice(&rest[..size]);
        rest = &rest[(size + 2).min(rest.len())..];
    }
    body
}

/// The requestState of a first round's reply.
pub fn request_state(reply: &Reply) -> String {
    let message = reply.json();
    assert_eq!(message["result"]["resultType"], "input_required", "{} {}", reply.status, reply.body);
    message["result"]["requestState"].as_str().expect("a requestState").to_owned()
}
