//! stdio: the gate reads stdin and the SDK reads only what it lets through; one writer task puts the SDK's replies
//! and the gate's error lines on stdout, each as a whole line, so they never interleave.

use crate::frames::{self, Verdict};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader, DuplexStream};
use tokio::sync::mpsc;

const PIPE_BYTES: usize = 64 * 1024;

/// The two ends the SDK's transport uses, and the tasks that feed them.
pub struct GatedStdio {
    pub sdk_reads: DuplexStream,
    pub sdk_writes: DuplexStream,
    pub writer: tokio::task::JoinHandle<()>,
    pub gate: tokio::task::JoinHandle<()>,
}

pub fn gate<R, W>(input: R, output: W) -> GatedStdio
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let (sdk_reads, to_sdk) = tokio::io::duplex(PIPE_BYTES);
    let (sdk_writes, from_sdk) = tokio::io::duplex(PIPE_BYTES);
    let (replies, replies_in) = mpsc::unbounded_channel::<String>();
    let writer = tokio::spawn(write_lines(from_sdk, replies_in, output));
    let gate = tokio::spawn(async move {
        if let Err(e) = judge_lines(input, to_sdk, replies).await {
            eprintln!("rust-fixture: reading stdin: {e}");
        }
    });
    GatedStdio { sdk_reads, sdk_writes, writer, gate }
}

async fn write_lines<W: AsyncWrite + Unpin>(from_sdk: DuplexStream, mut replies: mpsc::UnboundedReceiver<String>, mut out: W) {
    let mut sdk = BufReader::new(from_sdk);
    let mut line = Vec::new();
    let (mut sdk_open, mut gate_open) = (true, true);
    while sdk_open || gate_open {
        tokio::select! {
            read = sdk.read_until(b'\n', &mut line), if sdk_open => {
                match read {
                    Ok(0) | Err(_) => sdk_open = false,
                    Ok(_) => {
                        if !line.ends_with(b"\n") {
                            line.push(b'\n');
                        }
                        if out.write_all(&line).await.is_err() || out.flush().await.is_err() {
                            return;
                        }
                        line.clear();
                    }
                }
            }
            reply = replies.recv(), if gate_open => {
                match reply {
                    None => gate_open = false,
                    Some(reply) => {
                        if out.write_all(format!("{reply}\n").as_bytes()).await.is_err() || out.flush().await.is_err() {
                            return;
                        }
                    }
                }
            }
        }
    }
}

/// Reads lines of at most [`frames::MAX_LINE_BYTES`] (a longer one is answered once and skipped without being
/// kept), judges each and forwards, answers or drops it. Returns at end of input, which the SDK then sees too.
async fn judge_lines<R: AsyncRead + Unpin>(input: R, mut to_sdk: DuplexStream, replies: mpsc::UnboundedSender<String>) -> std::io::Result<()> {
    let mut input = BufReader::with_capacity(PIPE_BYTES, input);
    let mut line: Vec<u8> = Vec::new();
    let mut discarding = false;
    loop {
        let chunk = input.fill_buf().await?;
        if chunk.is_empty() {
            if !line.is_empty() && !discarding {
                one(&line, &mut to_sdk, &replies).await?;
            }
            return to_sdk.shutdown().await;
        }
        let (taken, complete) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        let body = if complete { &chunk[..taken - 1] } else { &chunk[..taken] };
        if !discarding {
            if line.len() + body.len() > frames::MAX_LINE_BYTES {
                discarding = true;
                line.clear();
                let _ = replies.send(frames::too_large());
            } else {
                line.extend_from_slice(body);
            }
        }
        input.consume(taken);
        if complete {
            if !discarding {
                one(&line, &mut to_sdk, &replies).await?;
            }
            discarding = false;
            line.clear();
        }
    }
}

async fn one(line: &[u8], to_sdk: &mut DuplexStream, replies: &mpsc::UnboundedSender<String>) -> std::io::Result<()> {
    match frames::judge(line) {
        Verdict::Forward(None) => {
            to_sdk.write_all(line).await?;
            to_sdk.write_all(b"\n").await
        }
        Verdict::Forward(Some(judged)) => to_sdk.write_all(format!("{judged}\n").as_bytes()).await,
        Verdict::Reply(reply) => {
            let _ = replies.send(reply);
            Ok(())
        }
        Verdict::Drop => Ok(()),
    }
}
