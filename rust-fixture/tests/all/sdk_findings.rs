//! What rmcp 3.11.0's own stdio transport does with lines the fixture's gate keeps from it: the guarded fixture's
//! handler served with no gate in front, lines written to it, replies read back
//! (docs/findings/rust-sdk-stdio-frames.md). Each test states the SDK's behaviour; one that starts failing means the
//! SDK changed, and the gate's rule for it may no longer be needed.

use rmcp::ServiceExt;
use rust_fixture::bridge;
use rust_fixture::requeststate::Codec;
use rust_fixture::server::{Fixture, OwnFault, Settings};
use rust_fixture::tooltable::{Served, ToolSet};
use serde_json::Value;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines};

const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

struct Bare {
    input: DuplexStream,
    output: Lines<BufReader<DuplexStream>>,
    served: tokio::task::JoinHandle<()>,
}

/// The fixture's handler on rmcp's transport, no gate; its bridge is never called by these lines.
async fn bare() -> Bare {
    let (input, server_reads) = tokio::io::duplex(1 << 16);
    let (server_writes, output) = tokio::io::duplex(1 << 16);
    let never = bridge::Client::new(bridge::Options::new(vec!["false".into()], vec![])).unwrap();
    let fixture = Fixture::new(
        ToolSet::shipped(Served::Guarded).unwrap(),
        Codec::new(&[7u8; 32], 600, 1_790_035_200).unwrap(),
        Settings { clock_epoch: 1_790_035_200, authority_ttl: 300, replay_retention_ttl: 360, fault: OwnFault::None },
        Arc::new(move |_: &str| never.clone()),
        Some("alice".into()),
    );
    let served = tokio::spawn(async move {
        if let Ok(running) = fixture.serve((server_reads, server_writes)).await {
            let _ = running.waiting().await;
        }
    });
    Bare { input, output: BufReader::new(output).lines(), served }
}

impl Bare {
    /// Writes a line; once the session has ended its input is closed, and the line goes nowhere.
    async fn send(&mut self, line: &str) {
        let _ = self.input.write_all(format!("{line}\n").as_bytes()).await;
    }

    /// The next reply within a second, or `None`.
    async fn reply(&mut self) -> Option<Value> {
        match tokio::time::timeout(Duration::from_secs(1), self.output.next_line()).await {
            Ok(Ok(Some(line))) => Some(serde_json::from_str(&line).unwrap()),
            _ => None,
        }
    }

    async fn list_tools(&mut self, id: i64) -> Option<Value> {
        self.send(&format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/list","params":{{{META}}}}}"#)).await;
        self.reply().await
    }
}

#[tokio::test]
async fn a_number_beyond_f64_or_nesting_past_128_gets_no_reply_at_all() {
    let mut server = bare().await;
    server.send(&format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"create_guarded_issue","arguments":{{"operation_id":"o","title":"t","n":1e400}},{META}}}}}"#)).await;
    assert_eq!(server.reply().await, None, "a valid request with 1e400 in its arguments");
    server.send(&format!(r#"{{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{{"a":{}{},{META}}}}}"#, "[".repeat(200), "]".repeat(200))).await;
    assert_eq!(server.reply().await, None, "a valid request nesting 200 deep");
    assert_eq!(server.list_tools(3).await.unwrap()["id"], 3, "the session goes on");
}

#[tokio::test]
async fn a_repeated_member_even_with_the_same_value_is_an_invalid_request_without_id() {
    let mut server = bare().await;
    server.send(&format!(r#"{{"jsonrpc":"2.0","jsonrpc":"2.0","id":1,"method":"tools/list","params":{{{META}}}}}"#)).await;
    let reply = server.reply().await.unwrap();
    assert_eq!(reply.get("id"), None, "{reply}");
    assert_eq!(reply["error"]["code"], -32600, "{reply}");
    assert_eq!(server.list_tools(2).await.unwrap()["id"], 2);
}

#[tokio::test]
async fn a_request_state_that_is_not_a_string_is_method_not_found_named_by_the_method() {
    let mut server = bare().await;
    server.send(&format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"create_guarded_issue","arguments":{{}},"requestState":5,{META}}}}}"#)).await;
    let reply = server.reply().await.unwrap();
    assert_eq!(reply["error"]["code"], -32601, "{reply}");
    assert_eq!(reply["error"]["message"], "tools/call", "{reply}");
}

#[tokio::test]
async fn an_initialize_it_refuses_ends_the_session() {
    let mut server = bare().await;
    server.send(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}"#).await;
    let reply = server.reply().await.unwrap();
    assert_eq!(reply["error"]["code"], -32022, "{reply}");
    assert_eq!(server.list_tools(2).await, None, "nothing is answered after it");
    tokio::time::timeout(Duration::from_secs(5), &mut server.served).await.expect("the service ended").unwrap();
}
