//! The guarded MCP server on the official Rust SDK (rmcp 3.11.0), speaking protocol 2026-07-28 on stdio, whose
//! effects go through one long-lived Java bridge child to the shared ledger (docs/rust-fixture.md). stdout is the
//! wire; every log line goes to stderr. With --http PORT it serves Streamable HTTP instead. Exit 2 for a bad
//! configuration, 70 for drop-after-commit.

use rmcp::ServiceExt;
use rust_fixture::bridge;
use rust_fixture::config::{self, Fault};
use rust_fixture::conformance::{self, Profile, States};
use rust_fixture::httpserve::{self, BearerTokens, Options, PrincipalBridges, Principals};
use rust_fixture::requeststate::Codec;
use rust_fixture::ruletable;
use rust_fixture::server::{Fixture, NAME, OwnFault, Settings};
use rust_fixture::stdio;
use rust_fixture::tooltable::{Served, ToolSet};
use std::process::exit;
use std::sync::Arc;
use std::time::Duration;

const USAGE: &str = "usage: rust-fixture [--http PORT [--conformance]] [--unguarded] (configuration from the WIRE_* environment)";

fn fail(message: impl std::fmt::Display) -> ! {
    eprintln!("{message}");
    exit(config::BAD_CONFIGURATION)
}

/// What the command line asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct Launch {
    /// Streamable HTTP on 127.0.0.1:port instead of stdio.
    http: Option<u16>,
    /// The conformance suite's fixtures (HTTP only).
    conformance: bool,
    /// The control's tool instead of the guarded ones (either transport, never with conformance).
    unguarded: bool,
}

/// None (stdio), or `--http PORT` with an optional `--conformance`, and `--unguarded`, in any order.
fn arguments(args: &[String]) -> Result<Launch, String> {
    let mut launch = Launch::default();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--http" if launch.http.is_none() => {
                let port = args.next().ok_or(USAGE)?;
                let parsed = port.parse::<u16>().ok().filter(|p| p.to_string() == *port);
                launch.http = Some(parsed.ok_or_else(|| format!("--http {port} is not a port (0 to 65535)"))?);
            }
            "--conformance" if !launch.conformance => launch.conformance = true,
            "--unguarded" if !launch.unguarded => launch.unguarded = true,
            _ => return Err(USAGE.into()),
        }
    }
    if launch.conformance && launch.http.is_none() {
        return Err("--conformance needs --http PORT".into());
    }
    if launch.conformance && launch.unguarded {
        return Err("--unguarded serves the control, which has no conformance fixtures".into());
    }
    Ok(launch)
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

fn settings(cfg: &config::Config) -> Settings {
    Settings {
        clock_epoch: cfg.clock_epoch as i64,
        authority_ttl: cfg.authority_ttl as i64,
        replay_retention_ttl: cfg.replay_retention_ttl as i64,
        fault: match cfg.fault {
            Some(Fault::DropAfterCommit) => OwnFault::DropAfterCommit,
            Some(Fault::CloseAfterCommit) => OwnFault::CloseAfterCommit,
            _ => OwnFault::None,
        },
    }
}

fn served(launch: Launch) -> Served {
    if launch.unguarded { Served::Unguarded } else { Served::Guarded }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let launch = arguments(&args).unwrap_or_else(|e| fail(e));
    let runtime = match launch.http {
        // Requests over HTTP are served concurrently; stdio is one line at a time.
        Some(_) => tokio::runtime::Builder::new_multi_thread().enable_all().build(),
        None => tokio::runtime::Builder::new_current_thread().enable_all().build(),
    };
    let runtime = runtime.unwrap_or_else(|e| fail(format!("{NAME}: cannot start the runtime: {e}")));
    match launch.http {
        Some(port) => runtime.block_on(serve_http(launch, port)),
        None => runtime.block_on(serve_stdio(launch)),
    }
}

async fn serve_stdio(launch: Launch) {
    let cfg = config::read(config::os_env).unwrap_or_else(|e| fail(e));
    let tools = ToolSet::shipped(served(launch)).unwrap_or_else(|e| fail(e));
    let codec = Codec::new(cfg.state_key.as_bytes(), cfg.request_state_ttl as i64, cfg.clock_epoch as i64).unwrap_or_else(|e| fail(e));
    let client = bridge::Client::new(bridge::Options::new(bridge_argv(), bridge::os_environment())).unwrap_or_else(|e| fail(e));
    client.start().await;
    let for_calls = client.clone();
    let fixture = Fixture::new(tools, codec, settings(&cfg), Arc::new(move |_: &str| for_calls.clone()), cfg.principal.clone());

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

/// `--http PORT`: the tools over Streamable HTTP on 127.0.0.1 (src/httpserve); stdout unused.
async fn serve_http(launch: Launch, port: u16) {
    let (cfg, http) = config::read_http(config::os_env, launch.conformance).unwrap_or_else(|e| fail(e));
    let tokens = http.tokens_file.as_deref().map(|path| BearerTokens::read(path).unwrap_or_else(|e| fail(e)));
    let tools = ToolSet::shipped(served(launch)).unwrap_or_else(|e| fail(e));
    let codec = Codec::new(cfg.state_key.as_bytes(), cfg.request_state_ttl as i64, cfg.clock_epoch as i64).unwrap_or_else(|e| fail(e));
    let bridges = Arc::new(PrincipalBridges::new(bridge_argv(), config::os_env).unwrap_or_else(|e| fail(e)));
    let for_calls = Arc::clone(&bridges);
    let guarded_tools = tools.listed();
    let fixture = Fixture::new(tools, codec, settings(&cfg), Arc::new(move |principal: &str| for_calls.for_principal(principal)), None);
    let principals = match tokens {
        Some(tokens) => Principals::Tokens(tokens),
        None => {
            eprintln!(
                "{NAME}: conformance profile without {}: every request is principal \"{}\", loopback only",
                config::BEARER_TOKENS_FILE,
                conformance::PRINCIPAL
            );
            Principals::Fixed(conformance::PRINCIPAL.to_owned())
        }
    };
    let options = Options { read_timeout: Duration::from_millis(http.read_timeout_ms), principals, event_streams: launch.conformance };
    let listening = if launch.conformance {
        let ttl = conformance::state_ttl(config::os_env).unwrap_or_else(|e| fail(e));
        // The fixtures' states live on the real clock; the guarded tools keep the injected one.
        let states = States::new(cfg.state_key.as_bytes(), ttl as i64, conformance::system_clock()).unwrap_or_else(|e| fail(e));
        httpserve::serve(port, options, Profile::new(fixture, guarded_tools, states)).await
    } else {
        httpserve::serve(port, options, fixture).await
    };
    let running = match listening {
        Ok(running) => running,
        Err(e) => {
            bridges.close(Duration::from_secs(3)).await;
            fail(format!("{NAME}: cannot listen on 127.0.0.1:{port}: {e}"));
        }
    };
    // Watched before the ready line, so a signal sent as soon as it appears is not the default action's.
    let stop = stop_signals();
    eprintln!("serving {}", running.url);
    stop.await;
    running.stop(httpserve::STOP_GRACE).await;
    bridges.close(Duration::from_secs(3)).await;
}

/// The first SIGTERM or SIGINT, watched from the call on.
fn stop_signals() -> impl std::future::Future<Output = ()> {
    use tokio::signal::unix::{SignalKind, signal};
    let (Ok(mut term), Ok(mut int)) = (signal(SignalKind::terminate()), signal(SignalKind::interrupt())) else {
        fail(format!("{NAME}: cannot watch SIGTERM and SIGINT"));
    };
    async move {
        tokio::select! {
            _ = term.recv() => {}
            _ = int.recv() => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|a| a.to_string()).collect()
    }

    #[test]
    fn the_arguments_are_stdio_or_http_with_an_optional_profile() {
        let accepted = [
            (vec![], Launch::default()),
            (vec!["--http", "0"], Launch { http: Some(0), ..Launch::default() }),
            (vec!["--http", "8080", "--conformance"], Launch { http: Some(8080), conformance: true, ..Launch::default() }),
            (vec!["--conformance", "--http", "65535"], Launch { http: Some(65535), conformance: true, ..Launch::default() }),
            (vec!["--unguarded"], Launch { unguarded: true, ..Launch::default() }),
            (vec!["--unguarded", "--http", "0"], Launch { http: Some(0), unguarded: true, ..Launch::default() }),
        ];
        for (list, want) in accepted {
            assert_eq!(arguments(&args(&list)), Ok(want), "{list:?}");
        }
        let refused = [
            (vec!["--stdio"], USAGE),
            (vec!["--http"], USAGE),
            (vec!["--http", "1", "--http", "2"], USAGE),
            (vec!["--conformance", "--conformance", "--http", "1"], USAGE),
            (vec!["--http", "70000"], "--http 70000 is not a port (0 to 65535)"),
            (vec!["--http", "08"], "--http 08 is not a port (0 to 65535)"),
            (vec!["--http", "-1"], "--http -1 is not a port (0 to 65535)"),
            (vec!["--http", "+1"], "--http +1 is not a port (0 to 65535)"),
            (vec!["--conformance"], "--conformance needs --http PORT"),
            (vec!["--unguarded", "--unguarded"], USAGE),
            (vec!["--http", "0", "--conformance", "--unguarded"], "--unguarded serves the control, which has no conformance fixtures"),
        ];
        for (list, message) in refused {
            assert_eq!(arguments(&args(&list)), Err(message.to_owned()), "{list:?}");
        }
    }
}
