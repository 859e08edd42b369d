//! The guarded MCP server on the official Rust SDK (rmcp 3.11.0), speaking protocol 2026-07-28 on stdio, whose
//! effects go through one long-lived Java bridge child to the shared ledger (docs/rust-fixture.md). stdout is the
//! wire; every log line goes to stderr. Exit 2 for a bad configuration, 70 for drop-after-commit.

use rmcp::ServiceExt;
use rust_fixture::bridge;
use rust_fixture::config::{self, Fault};
use rust_fixture::requeststate::Codec;
use rust_fixture::ruletable;
use rust_fixture::server::{Fixture, OwnFault, Settings};
use rust_fixture::stdio;
use rust_fixture::tooltable::{Served, ToolSet};
use std::process::exit;
use std::sync::Arc;
use std::time::Duration;

const USAGE: &str = "usage: rust-fixture [--unguarded] (configuration from the WIRE_* environment)";

fn fail(message: impl std::fmt::Display) -> ! {
    eprintln!("{message}");
    exit(config::BAD_CONFIGURATION)
}

/// The command line: nothing (the guarded tools on stdio) or `--unguarded` (the control's tool).
fn served(args: &[String]) -> Result<Served, String> {
    match args {
        [] => Ok(Served::Guarded),
        [flag] if flag == "--unguarded" => Ok(Served::Unguarded),
        _ => Err(USAGE.into()),
    }
}

/// The repository this binary was built in (it lives in rust-fixture/target/...), for the default bridge command.
fn bridge_argv() -> Vec<String> {
    let root = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.canonicalize().ok())
        .and_then(|exe| exe.parent().map(ruletable::root_above))
        .and_then(Result::ok);
    let lookup = config::os_env;
    match (root, lookup(bridge::COMMAND_VARIABLE).filter(|c| !c.is_empty())) {
        (_, Some(_)) => bridge::command(std::path::Path::new("."), lookup).unwrap_or_else(|e| fail(e)),
        (Some(root), None) => bridge::command(&root, lookup).unwrap_or_else(|e| fail(e)),
        (None, None) => fail(format!("cannot find the repository above this binary; set {}", bridge::COMMAND_VARIABLE)),
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let served = served(&args).unwrap_or_else(|e| fail(e));
    let cfg = config::read(config::os_env).unwrap_or_else(|e| fail(e));
    let tools = ToolSet::shipped(served).unwrap_or_else(|e| fail(e));
    let codec = Codec::new(cfg.state_key.as_bytes(), cfg.request_state_ttl as i64, cfg.clock_epoch as i64).unwrap_or_else(|e| fail(e));
    let client = bridge::Client::new(bridge::Options::new(bridge_argv(), bridge::os_environment())).unwrap_or_else(|e| fail(e));
    client.start().await;
    let settings = Settings {
        clock_epoch: cfg.clock_epoch as i64,
        authority_ttl: cfg.authority_ttl as i64,
        replay_retention_ttl: cfg.replay_retention_ttl as i64,
        fault: if cfg.fault == Some(Fault::DropAfterCommit) { OwnFault::DropAfterCommit } else { OwnFault::None },
    };
    let for_calls = client.clone();
    let fixture = Fixture::new(tools, codec, settings, Arc::new(move |_: &str| for_calls.clone()), cfg.principal.clone());

    let gated = stdio::gate(tokio::io::stdin(), tokio::io::stdout());
    match fixture.serve((gated.sdk_reads, gated.sdk_writes)).await {
        Ok(running) => {
            let _ = running.waiting().await;
        }
        Err(e) => eprintln!("rust-fixture: {e}"),
    }
    let _ = gated.writer.await;
    client.close(Duration::from_secs(3)).await;
}
