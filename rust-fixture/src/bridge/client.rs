use std::collections::HashMap;
use std::fmt;
use std::io::{self, Write};
use std::os::unix::process::ExitStatusExt;
use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Mutex as StdMutex, PoisonError};
use std::time::Duration;

use serde_json::Value;
use serde_json::value::RawValue;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{ChildStderr, ChildStdin, ChildStdout, Command};
use tokio::sync::{Mutex, Notify, mpsc, watch};
use tokio::time::{Instant, sleep_until, timeout};

/// How long one call waits for its answer.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(8);

const MAX_STDERR_NOTE: usize = 160;
const MAX_REPLY_BYTES: usize = 1 << 20;

/// Receives the child's stderr as it comes, a line at a time (the last one maybe without its newline).
pub type StderrSink = Arc<dyn Fn(&[u8]) + Send + Sync>;

/// A sink writing to this process's stderr.
pub fn process_stderr() -> StderrSink {
    Arc::new(|bytes| {
        let _ = io::stderr().write_all(bytes);
    })
}

/// How the client starts its child.
#[derive(Clone)]
pub struct Options {
    pub argv: Vec<String>,
    /// The child's whole environment.
    pub env: Vec<(String, String)>,
    /// How long a call waits for its answer; zero means `DEFAULT_TIMEOUT`.
    pub timeout: Duration,
    pub stderr: StderrSink,
}

impl Options {
    /// `argv` with the environment `env`, the default timeout, the child's stderr forwarded to this process's.
    pub fn new(argv: Vec<String>, env: Vec<(String, String)>) -> Options {
        Options {
            argv,
            env,
            timeout: DEFAULT_TIMEOUT,
            stderr: process_stderr(),
        }
    }
}

impl fmt::Debug for Options {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // the environment holds the fingerprint key and maybe a ledger password
        let names: Vec<&str> = self.env.iter().map(|(name, _)| name.as_str()).collect();
        f.debug_struct("Options")
            .field("argv", &self.argv)
            .field("env", &names)
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

/// One bridge reply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// `{"ok":true,"result":{…}}`: the result object exactly as the bridge wrote it.
    Ok { result: String },
    /// `{"ok":false,"error":KIND,"detail":…}`: the bridge's own refusal, an ordinary answer.
    Error { kind: String, detail: String },
}

impl Answer {
    /// The result parsed, for an `Ok` answer.
    pub fn result_value(&self) -> Option<Value> {
        match self {
            Answer::Ok { result } => serde_json::from_str(result).ok(),
            Answer::Error { .. } => None,
        }
    }
}

/// Reads one reply line; `None` if it is not a bridge reply.
pub fn read_answer(line: &[u8]) -> Option<Answer> {
    let members: HashMap<String, Box<RawValue>> = serde_json::from_slice(line).ok()?;
    let raw = |name: &str| members.get(name).map(|v| v.get());
    let text = |name: &str| {
        raw(name)
            .filter(|r| r.starts_with('"'))
            .and_then(|r| serde_json::from_str(r).ok())
    };
    match raw("ok")? {
        "true" => raw("result")
            .filter(|r| r.starts_with('{'))
            .map(|r| Answer::Ok {
                result: r.to_owned(),
            }),
        "false" => Some(Answer::Error {
            kind: text("error")?,
            detail: text("detail")?,
        }),
        _ => None,
    }
}

/// The bridge process failing, not the bridge refusing:
/// `bridge machinery failure: <exit status, signal or what went wrong>; <the child's last stderr line>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MachineryFailure {
    message: String,
}

impl MachineryFailure {
    fn new(what: &str, note: &str) -> MachineryFailure {
        MachineryFailure {
            message: format!("bridge machinery failure: {what}; {note}"),
        }
    }

    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for MachineryFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for MachineryFailure {}

/// `Client::new` with no command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EmptyCommand;

impl fmt::Display for EmptyCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the bridge command is empty")
    }
}

impl std::error::Error for EmptyCommand {}

/// The end of one child: its exit status ("0", "71") or signal ("SIGKILL"), as a failure would name it.
#[derive(Debug)]
pub struct ChildExit(watch::Receiver<Option<String>>);

impl ChildExit {
    pub async fn wait(self) -> String {
        death_of(self.0).await
    }
}

/// ONE long-lived bridge child, one exchange at a time (a line written, a line read), a new child after any
/// machinery failure. Cloning gives another handle on the same child. Needs a tokio runtime with IO and time
/// enabled; the child is started on `start` or the first call.
#[derive(Clone)]
pub struct Client {
    inner: Arc<Inner>,
}

struct Inner {
    options: Options,
    state: Mutex<State>,
}

struct State {
    child: Option<Child>,
    closed: bool,
    spawned: usize,
}

impl Client {
    pub fn new(mut options: Options) -> Result<Client, EmptyCommand> {
        if options.argv.is_empty() {
            return Err(EmptyCommand);
        }
        if options.timeout.is_zero() {
            options.timeout = DEFAULT_TIMEOUT;
        }
        let state = Mutex::new(State {
            child: None,
            closed: false,
            spawned: 0,
        });
        Ok(Client {
            inner: Arc::new(Inner { options, state }),
        })
    }

    /// Starts the child now rather than on the first call, so the JVM warms up while the MCP client connects.
    pub async fn start(&self) {
        let mut state = self.inner.state.lock().await;
        if !state.closed {
            self.inner.current(&mut state);
        }
    }

    /// How many children were started so far.
    pub async fn spawned(&self) -> usize {
        self.inner.state.lock().await.spawned
    }

    /// The current child's pid.
    pub async fn pid(&self) -> Option<u32> {
        self.inner
            .state
            .lock()
            .await
            .child
            .as_ref()
            .and_then(|c| c.pid)
    }

    /// The current child's end, to wait for; `None` while there is no child.
    pub async fn child_exit(&self) -> Option<ChildExit> {
        self.inner
            .state
            .lock()
            .await
            .child
            .as_ref()
            .map(|c| ChildExit(c.death.clone()))
    }

    /// Sends one request line and returns the bridge's answer, or the machinery failure. Calls are answered one
    /// at a time, in the order they take the lock.
    pub async fn call(&self, request: &Value) -> Result<Answer, MachineryFailure> {
        let mut line = request.to_string().into_bytes();
        line.push(b'\n');
        let inner = Arc::clone(&self.inner);
        // The exchange runs to its end even if this caller stops waiting: a child left halfway through one would
        // hand its late reply to the next call.
        match tokio::spawn(async move { inner.call(&line).await }).await {
            Ok(outcome) => outcome,
            Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
            Err(_) => Err(MachineryFailure::new("call abandoned", "")),
        }
    }

    /// Ends the child's input (the bridge exits at end of input), kills it if it has not exited after `grace`,
    /// and waits for its end. Every later call fails.
    pub async fn close(&self, grace: Duration) {
        let child = {
            let mut state = self.inner.state.lock().await;
            state.closed = true;
            state.child.take()
        };
        if let Some(child) = child {
            child.end(grace).await;
        }
    }
}

impl Inner {
    fn current<'a>(&self, state: &'a mut State) -> &'a mut Child {
        if state.child.as_ref().is_some_and(Child::exited) {
            state.child = None;
        }
        let spawned = &mut state.spawned;
        state.child.get_or_insert_with(|| {
            *spawned += 1;
            Child::start(&self.options)
        })
    }

    async fn call(&self, line: &[u8]) -> Result<Answer, MachineryFailure> {
        let mut state = self.state.lock().await;
        if state.closed {
            return Err(MachineryFailure::new("bridge closed", ""));
        }
        let child = self.current(&mut state);
        let outcome = match child.exchange(line, self.options.timeout).await {
            Ok(reply) => read_answer(&reply).ok_or_else(|| child.failure("invalid reply")),
            Err(failure) => Err(failure),
        };
        if outcome.is_err() {
            child.kill();
            state.child = None;
        }
        outcome
    }
}

/// What the reader tasks and the client share about one child.
#[derive(Default)]
struct Shared {
    io: StdMutex<Io>,
    kill: Notify,
}

#[derive(Default)]
struct Io {
    /// A call is waiting for a reply line.
    pending: bool,
    last_stderr: String,
}

impl Shared {
    fn io(&self) -> std::sync::MutexGuard<'_, Io> {
        self.io.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Hands a reply (`None`: one too long) to the waiting call. Output nobody asked for means the line protocol
    /// is out of step, so the child cannot be trusted any more. False once the reader should stop.
    async fn deliver(
        &self,
        line: Option<Vec<u8>>,
        replies: &mpsc::Sender<Option<Vec<u8>>>,
    ) -> bool {
        let waiting = std::mem::replace(&mut self.io().pending, false);
        if !waiting {
            self.kill.notify_one();
            return false;
        }
        let more = line.is_some();
        replies.send(line).await.is_ok() && more
    }
}

/// One bridge process: its input, its replies and its end.
struct Child {
    pid: Option<u32>,
    stdin: Option<ChildStdin>,
    shared: Arc<Shared>,
    replies: mpsc::Receiver<Option<Vec<u8>>>,
    /// `Some` with how it ended, once it has ended and both its output pipes are drained (so the last stderr line
    /// is known).
    death: watch::Receiver<Option<String>>,
}

impl Child {
    fn start(options: &Options) -> Child {
        let shared = Arc::new(Shared::default());
        let (reply_tx, replies) = mpsc::channel(1);
        let (death_tx, death) = watch::channel(None);
        let mut child = Child {
            pid: None,
            stdin: None,
            shared: Arc::clone(&shared),
            replies,
            death,
        };
        let spawned = Command::new(&options.argv[0])
            .args(&options.argv[1..])
            .env_clear()
            .envs(options.env.iter().map(|(name, value)| (name, value)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn();
        let mut process = match spawned {
            Ok(process) => process,
            Err(e) => {
                death_tx.send_replace(Some(format!("{}: {e}", options.argv[0])));
                return child;
            }
        };
        child.pid = process.id();
        child.stdin = process.stdin.take();
        let readers = (process.stdout.take(), process.stderr.take());
        let sink = Arc::clone(&options.stderr);
        tokio::spawn(async move {
            let (Some(stdout), Some(stderr)) = readers else {
                let _ = process.start_kill();
                let status = process.wait().await;
                death_tx.send_replace(Some(exit_description(status)));
                return;
            };
            let stdout_reader = tokio::spawn(read_stdout(stdout, Arc::clone(&shared), reply_tx));
            let stderr_reader = tokio::spawn(read_stderr(stderr, Arc::clone(&shared), sink));
            let status = tokio::select! {
                status = process.wait() => status,
                () = shared.kill.notified() => {
                    let _ = process.start_kill();
                    process.wait().await
                }
            };
            let _ = stdout_reader.await;
            let _ = stderr_reader.await;
            death_tx.send_replace(Some(exit_description(status)));
        });
        child
    }

    fn exited(&self) -> bool {
        self.death.borrow().is_some()
    }

    fn kill(&self) {
        if !self.exited() {
            self.shared.kill.notify_one();
        }
    }

    fn failure(&self, what: &str) -> MachineryFailure {
        let note: String = self
            .shared
            .io()
            .last_stderr
            .chars()
            .take(MAX_STDERR_NOTE)
            .collect();
        MachineryFailure::new(what, &note)
    }

    fn no_reply(&self, timeout: Duration) -> MachineryFailure {
        self.failure(&format!("no reply within {} ms", timeout.as_millis()))
    }

    async fn exchange(
        &mut self,
        line: &[u8],
        timeout: Duration,
    ) -> Result<Vec<u8>, MachineryFailure> {
        if self.exited() {
            let how = death_of(self.death.clone()).await;
            return Err(self.failure(&how));
        }
        self.shared.io().pending = true;
        let written = match self.stdin.as_mut() {
            Some(stdin) => tokio::time::timeout(timeout, write_line(stdin, line)).await,
            None => Ok(Err(io::ErrorKind::BrokenPipe.into())),
        };
        match written {
            Ok(Ok(())) => {}
            // The child is dying: its exit, once seen, names the failure.
            Ok(Err(_)) => {
                return Err(
                    match tokio::time::timeout(timeout, death_of(self.death.clone())).await {
                        Ok(how) => self.failure(&how),
                        Err(_) => self.no_reply(timeout),
                    },
                );
            }
            // A child that does not even read its input is as silent as one that does not answer.
            Err(_) => {
                self.kill();
                return Err(self.no_reply(timeout));
            }
        }
        let deadline = Instant::now() + timeout;
        let mut replies_open = true;
        loop {
            tokio::select! {
                biased;
                reply = self.replies.recv(), if replies_open => match reply {
                    Some(Some(reply)) => return Ok(reply),
                    Some(None) => return Err(self.failure("reply too long")),
                    None => replies_open = false,
                },
                how = death_of(self.death.clone()) => {
                    // A reply written just before the exit still counts.
                    if let Ok(Some(reply)) = self.replies.try_recv() {
                        return Ok(reply);
                    }
                    return Err(self.failure(&how));
                }
                () = sleep_until(deadline) => {
                    self.kill();
                    return Err(self.no_reply(timeout));
                }
            }
        }
    }

    async fn end(mut self, grace: Duration) {
        if self.exited() {
            return;
        }
        drop(self.stdin.take());
        if timeout(grace, death_of(self.death.clone())).await.is_err() {
            self.shared.kill.notify_one();
            death_of(self.death.clone()).await;
        }
    }
}

async fn write_line(stdin: &mut ChildStdin, line: &[u8]) -> io::Result<()> {
    stdin.write_all(line).await?;
    stdin.flush().await
}

async fn death_of(mut death: watch::Receiver<Option<String>>) -> String {
    match death.wait_for(Option::is_some).await {
        Ok(how) => how.clone().unwrap_or_default(),
        // the task watching the child was dropped with its runtime
        Err(_) => "unknown".to_owned(),
    }
}

/// "71" for an exit status, "SIGKILL" for a signal, as the TypeScript and Go clients name them.
fn exit_description(status: io::Result<ExitStatus>) -> String {
    match status {
        Ok(status) => match (status.signal(), status.code()) {
            (Some(signal), _) => signal_name(signal),
            (None, Some(code)) => code.to_string(),
            (None, None) => "unknown".to_owned(),
        },
        Err(e) => e.to_string(),
    }
}

/// The conventional name of the signals a bridge dies of, as node reports them (Linux numbering, where SIGBUS is
/// 7; elsewhere 10).
fn signal_name(signal: i32) -> String {
    const SIGBUS: i32 = if cfg!(target_os = "linux") { 7 } else { 10 };
    let name = match signal {
        9 => "SIGKILL",
        15 => "SIGTERM",
        2 => "SIGINT",
        11 => "SIGSEGV",
        6 => "SIGABRT",
        SIGBUS => "SIGBUS",
        13 => "SIGPIPE",
        1 => "SIGHUP",
        3 => "SIGQUIT",
        _ => return format!("signal {signal}"),
    };
    name.to_owned()
}

enum LineRead {
    Line(Vec<u8>),
    TooLong,
    End,
}

async fn read_stdout(
    stdout: ChildStdout,
    shared: Arc<Shared>,
    replies: mpsc::Sender<Option<Vec<u8>>>,
) {
    let mut reader = BufReader::with_capacity(64 * 1024, stdout);
    loop {
        let line = match read_bounded_line(&mut reader, MAX_REPLY_BYTES).await {
            LineRead::Line(line) => Some(line),
            LineRead::TooLong => None,
            LineRead::End => return,
        };
        if !shared.deliver(line, &replies).await {
            return;
        }
    }
}

/// A line without its newline, refused once it is longer than `max` bytes without buffering the rest; a last
/// line without a newline is no reply.
async fn read_bounded_line(reader: &mut (impl AsyncBufRead + Unpin), max: usize) -> LineRead {
    let mut line = Vec::new();
    loop {
        let chunk = match reader.fill_buf().await {
            Ok(chunk) if !chunk.is_empty() => chunk,
            _ => return LineRead::End,
        };
        let (taken, complete) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        line.extend_from_slice(&chunk[..taken]);
        reader.consume(taken);
        if line.len() > max + 1 {
            return LineRead::TooLong;
        }
        if complete {
            line.pop();
            return LineRead::Line(line);
        }
    }
}

async fn read_stderr(stderr: ChildStderr, shared: Arc<Shared>, forward: StderrSink) {
    let mut reader = BufReader::new(stderr);
    let mut line = Vec::new();
    loop {
        line.clear();
        match reader.read_until(b'\n', &mut line).await {
            Ok(n) if n > 0 => {}
            _ => return,
        }
        forward(&line);
        let text = String::from_utf8_lossy(&line);
        let trimmed = text.trim_end_matches(['\r', '\n']);
        if !trimmed.trim().is_empty() {
            shared.io().last_stderr = trimmed.to_owned();
        }
    }
}
