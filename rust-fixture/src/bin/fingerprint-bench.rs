//! The Rust side of `lab bench` benchmark 4, the counterpart of go-fixture/cmd/fingerprint-bench: how long the
//! fixture's request fingerprint takes on each request of a JSON Lines file ({"name":…,"request":LogicalRequest}),
//! set against two lower bounds measured in the same process.
//!
//! ```text
//! CONTINUATION_REPLAY_FINGERPRINT_KEY_HEX=… fingerprint-bench REQUESTS.jsonl [MILLIS]
//! ```
//!
//! "bare" is the hashing no implementation can avoid: the two HMAC-SHA256 bindings of the opaque fields and the
//! SHA-256 of the canonical payload, over bytes prepared once, so it prices the cryptography alone. It hashes with the
//! fixture's own [`Key::hmac_hex`] and [`sha256_hex`], so bare, floor and fingerprint pay for the same primitives.
//!
//! "floor" adds the cheapest writing of the payload Rust offers: serde_json writing a tree parsed from the canonical
//! payload itself. Its maps keep the payload's member order (the crate's serde_json has `preserve_order`) and its
//! numbers are the payload's own integers, so it needs no member ordering, no number checks and no path bookkeeping
//! of ours; any canonicaliser written in Rust has at least that much to do on top of the bare hashing. The gap between
//! the fingerprint and the floor is what the fixture's own canonicaliser costs beyond that minimum. The floor is only
//! a floor if it writes exactly the canonical bytes, so the program refuses an input where serde_json does not rather
//! than time different bytes.
//!
//! Prints one JSON line: {"rust": rustc version, "results": [{name, digest, canonical_payload_bytes,
//! fingerprint_ns_per_op, fingerprint_ops, bare_ns_per_op, bare_ops, floor_ns_per_op, floor_ops, floor_rounds}]},
//! floor_rounds being the fingerprint/floor ratio of each of 5 interleaved rounds. The key is never printed. Exit 2
//! for bad usage, 1 for an input that cannot be benchmarked.

use std::env;
use std::ffi::OsString;
use std::fs;
use std::hint::black_box;
use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use rust_fixture::fingerprint::{
    self, Key, LogicalRequest, Object, OpaqueField, Value, ValueError, bind_opaque_field,
    canonical, fingerprint, is_blank_line, parse_exact, read_entry, read_logical_request,
    sha256_hex,
};
use serde::{Deserialize, Serialize};

const KEY_VARIABLE: &str = "CONTINUATION_REPLAY_FINGERPRINT_KEY_HEX";
const USAGE: &str = "usage: CONTINUATION_REPLAY_FINGERPRINT_KEY_HEX=<hex, at least 64 digits> fingerprint-bench REQUESTS.jsonl [MILLIS]";
const DEFAULT_MILLIS: f64 = 2000.0;
const BATCH: u64 = 16;
/// How many interleaved rounds give row 4's ratio.
const FLOOR_ROUNDS: usize = 5;
/// Recorded by build.rs: Rust has no runtime whose version could be asked at run time.
const RUSTC_VERSION: &str = env!("RUST_FIXTURE_RUSTC_VERSION");

/// Where the timed work leaves its results: the fingerprint or the two bindings, then the payload's SHA-256.
type Out = [String; 3];

struct Measured {
    ns_per_op: f64,
    ops: u64,
}

/// Times `work` over `millis` after a warm-up of half that, in batches so that reading the clock stays a small part
/// of each batch.
fn measure(mut work: impl FnMut(&mut Out), millis: f64) -> Measured {
    let mut run = |budget_ms: f64, sink: &mut Out| {
        let budget = Duration::from_nanos((budget_ms * 1e6).round() as u64);
        let start = Instant::now();
        let mut ops = 0;
        loop {
            for _ in 0..BATCH {
                work(sink);
                // The optimiser must assume every result is read, so it cannot drop the work.
                black_box(&mut *sink);
            }
            ops += BATCH;
            // At least one batch, so a budget shorter than one call still yields a figure.
            let elapsed = start.elapsed();
            if elapsed >= budget {
                return Measured {
                    ns_per_op: elapsed.as_nanos() as f64 / ops as f64,
                    ops,
                };
            }
        }
    };
    run(millis / 2.0, &mut Out::default());
    let mut sink = Out::default();
    let result = run(millis, &mut sink);
    assert!(!sink[0].is_empty(), "the timed work left no result");
    result
}

struct Prepared {
    /// `None` for a plain (unnamed) request, printed as null as the other languages' benches do.
    name: Option<String>,
    request: LogicalRequest,
    digest: String,
    /// field || 0x00 || canonical(value): the two opaque-field HMAC messages.
    messages: [Vec<u8>; 2],
    payload: Vec<u8>,
    tree: serde_json::Value,
}

#[derive(Serialize)]
struct BenchResult {
    name: Option<String>,
    digest: String,
    canonical_payload_bytes: usize,
    fingerprint_ns_per_op: f64,
    fingerprint_ops: u64,
    bare_ns_per_op: f64,
    bare_ops: u64,
    floor_ns_per_op: f64,
    floor_ops: u64,
    floor_rounds: Vec<f64>,
}

#[derive(Serialize)]
struct Report {
    rust: &'static str,
    results: Vec<BenchResult>,
}

struct Refusal {
    name: Option<String>,
    reason: String,
}

/// Reads the whole file before any timing, so a bad line late in it fails at once and nothing is printed.
fn read_requests(key: &Key, path: &Path) -> Result<Vec<Prepared>, String> {
    let text = fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut requests = Vec::new();
    for (index, line) in text.split(|&b| b == b'\n').enumerate() {
        if is_blank_line(line) {
            continue;
        }
        let number = index + 1;
        let prepared = prepare(key, line).map_err(|refusal| match refusal.name {
            Some(name) if !name.is_empty() => format!("line {number} ({name}): {}", refusal.reason),
            _ => format!("line {number}: {}", refusal.reason),
        })?;
        requests.push(prepared);
    }
    if requests.is_empty() {
        return Err(format!("{} holds no request", path.display()));
    }
    Ok(requests)
}

/// Reads one line with the fixture's own reader (the order of checks of `fingerprint_line`) and builds the bytes
/// the bare and floor timings hash.
fn prepare(key: &Key, line: &[u8]) -> Result<Prepared, Refusal> {
    let unnamed = |reason: String| Refusal { name: None, reason };
    if std::str::from_utf8(line).is_err() {
        return Err(unnamed(fingerprint::Error::InvalidUtf8.to_string()));
    }
    let entry = parse_exact(line)
        .and_then(read_entry)
        .map_err(|e| unnamed(e.to_string()))?;
    let name = entry.name;
    let refuse = |reason: String| Refusal {
        name: name.clone(),
        reason,
    };
    let request = read_logical_request(entry.request).map_err(|e| refuse(e.to_string()))?;
    let digest = fingerprint(key, &request).map_err(|e| refuse(e.to_string()))?;
    let null = Value::Null;
    let state = request.continuation_state.as_ref().unwrap_or(&null);
    let responses = request.input_responses.as_ref().unwrap_or(&null);
    let message = |field: OpaqueField, value: &Value| {
        opaque_message(field, value).map_err(|e| refuse(e.to_string()))
    };
    let messages = [
        message(OpaqueField::ContinuationState, state)?,
        message(OpaqueField::InputResponses, responses)?,
    ];
    let payload = payload(key, &request, state, responses)
        .map_err(|e| refuse(e.to_string()))?
        .into_bytes();
    if sha256_hex(&payload) != digest {
        return Err(refuse(
            "the SHA-256 of the canonical payload built here is not the fixture's fingerprint, so bare would hash other bytes"
                .to_owned(),
        ));
    }
    let tree = floor_tree(&payload).map_err(refuse)?;
    Ok(Prepared {
        name,
        request,
        digest,
        messages,
        payload,
        tree,
    })
}

fn opaque_message(field: OpaqueField, value: &Value) -> Result<Vec<u8>, ValueError> {
    let mut message = format!("{}\0", field.name());
    message.push_str(&canonical(value)?);
    Ok(message.into_bytes())
}

/// The canonical payload, built as a generic object and canonicalised, apart from the fixture's own writer.
fn payload(
    key: &Key,
    request: &LogicalRequest,
    state: &Value,
    responses: &Value,
) -> Result<String, ValueError> {
    let bound = |field: OpaqueField, value: &Value| {
        bind_opaque_field(key, field, value)
            .map(|hex| (field.name().to_owned(), Value::String(hex)))
    };
    let principal = request.principal.clone().map_or(Value::Null, Value::String);
    let members: Object = [
        ("principal".to_owned(), principal),
        ("tool_id".to_owned(), Value::String(request.tool_id.clone())),
        (
            "tool_version".to_owned(),
            Value::String(request.tool_version.clone()),
        ),
        (
            "arguments".to_owned(),
            Value::Object(request.arguments.clone()),
        ),
        bound(OpaqueField::ContinuationState, state)?,
        bound(OpaqueField::InputResponses, responses)?,
    ]
    .into_iter()
    .collect();
    canonical(&Value::Object(members))
}

/// The payload as serde_json parses it, once serde_json is seen to write it back as exactly the same bytes.
fn floor_tree(payload: &[u8]) -> Result<serde_json::Value, String> {
    let mut reader = serde_json::Deserializer::from_slice(payload);
    // The canonical form nests up to 1,000 levels, beyond serde_json's default limit of 128.
    reader.disable_recursion_limit();
    let tree = serde_json::Value::deserialize(&mut reader)
        .and_then(|tree| reader.end().map(|()| tree))
        .map_err(|e| format!("serde_json cannot parse the canonical payload: {e}"))?;
    let written = serde_json::to_vec(&tree)
        .map_err(|e| format!("serde_json cannot write the canonical payload: {e}"))?;
    if written != payload {
        let at = written
            .iter()
            .zip(payload)
            .take_while(|(a, b)| a == b)
            .count();
        return Err(format!(
            "Rust's serde_json does not produce the canonical bytes of the payload (first difference at byte {at} of {}), so it cannot serve as the floor",
            payload.len()
        ));
    }
    Ok(tree)
}

/// The two HMACs bare and floor share, made as the fingerprint makes them.
fn bind(key: &Key, messages: &[Vec<u8>; 2], out: &mut Out) {
    for (slot, message) in out.iter_mut().zip(messages) {
        *slot = key.hmac_hex(message);
    }
}

fn bench(key: &Key, p: &Prepared, millis: f64) -> BenchResult {
    // Its error was checked once in prepare; an empty result fails the sink check.
    let mut full_work = |out: &mut Out| out[0] = fingerprint(key, &p.request).unwrap_or_default();
    let full = measure(&mut full_work, millis);
    let bare = measure(
        |out: &mut Out| {
            bind(key, &p.messages, out);
            out[2] = sha256_hex(&p.payload);
        },
        millis,
    );
    // One buffer for the whole run: allocating it is not work a canonicaliser must do, and the floor should be as
    // low as Rust allows.
    let mut written = Vec::with_capacity(p.payload.len());
    let mut floor_work = |out: &mut Out| {
        bind(key, &p.messages, out);
        written.clear();
        serde_json::to_writer(&mut written, &p.tree).expect("the same tree was written in prepare");
        out[2] = sha256_hex(&written);
    };
    let floor = measure(&mut floor_work, millis);
    // Row 4's ratio, as the other rows' are: fingerprint and floor timed in turn, round by round (the order flips),
    // so a drift of the machine lands on both; the bench takes the median round's.
    let round_millis = millis / FLOOR_ROUNDS as f64;
    let floor_rounds = (0..FLOOR_ROUNDS)
        .map(|round| {
            let (full_ns, floor_ns) = if round % 2 == 0 {
                let full_ns = measure(&mut full_work, round_millis).ns_per_op;
                (full_ns, measure(&mut floor_work, round_millis).ns_per_op)
            } else {
                let floor_ns = measure(&mut floor_work, round_millis).ns_per_op;
                (measure(&mut full_work, round_millis).ns_per_op, floor_ns)
            };
            full_ns / floor_ns
        })
        .collect();
    BenchResult {
        name: p.name.clone(),
        digest: p.digest.clone(),
        canonical_payload_bytes: p.payload.len(),
        fingerprint_ns_per_op: full.ns_per_op,
        fingerprint_ops: full.ops,
        bare_ns_per_op: bare.ns_per_op,
        bare_ops: bare.ops,
        floor_ns_per_op: floor.ns_per_op,
        floor_ops: floor.ops,
        floor_rounds,
    }
}

/// Whole bytes only: an odd count of digits would leave a half byte of the key undefined.
fn is_key_hex(text: &str) -> bool {
    text.len() >= 64 && text.len().is_multiple_of(2) && text.bytes().all(|b| b.is_ascii_hexdigit())
}

fn settings(args: &[OsString], key_hex: Option<OsString>) -> Result<(Key, &Path, f64), String> {
    let key_hex = key_hex
        .and_then(|k| k.into_string().ok())
        .unwrap_or_default();
    let ([file] | [file, _]) = args else {
        return Err(USAGE.to_owned());
    };
    if !is_key_hex(&key_hex) {
        return Err(USAGE.to_owned());
    }
    let millis = match args.get(1) {
        None => DEFAULT_MILLIS,
        Some(text) => match text.to_str().and_then(|t| t.parse::<f64>().ok()) {
            Some(m) if m > 0.0 && m.is_finite() => m,
            _ => return Err(format!("{USAGE} (MILLIS must be a positive number)")),
        },
    };
    let key = Key::from_hex(&key_hex).map_err(|_| USAGE.to_owned())?;
    Ok((key, Path::new(file), millis))
}

fn main() -> ExitCode {
    let args: Vec<OsString> = env::args_os().skip(1).collect();
    let (key, path, millis) = match settings(&args, env::var_os(KEY_VARIABLE)) {
        Ok(settings) => settings,
        Err(usage) => {
            eprintln!("{usage}");
            return ExitCode::from(2);
        }
    };
    let requests = match read_requests(&key, path) {
        Ok(requests) => requests,
        Err(e) => {
            eprintln!("fingerprint-bench: {e}");
            return ExitCode::from(1);
        }
    };
    let report = Report {
        rust: RUSTC_VERSION,
        results: requests.iter().map(|p| bench(&key, p, millis)).collect(),
    };
    let written = serde_json::to_vec(&report)
        .map_err(io::Error::from)
        .and_then(|mut line| {
            line.push(b'\n');
            let mut out = io::stdout().lock();
            out.write_all(&line)?;
            out.flush()
        });
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("fingerprint-bench: {e}");
            ExitCode::from(1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::floor_tree;

    // No canonical payload reaches this refusal (serde_json writes every one back as it is), so it is tested here.
    #[test]
    fn a_payload_serde_json_writes_otherwise_has_no_floor() {
        let refused = floor_tree(br#"{"a":"\u0041"}"#).unwrap_err();
        assert_eq!(
            refused,
            "Rust's serde_json does not produce the canonical bytes of the payload (first difference at byte 6 of 14), so it cannot serve as the floor"
        );
        let canonical = "{\"a\":\"\\u001f\\n\u{7f}\u{2028}<&>\",\"b\":[1,-2,true,null,{}]}";
        assert!(floor_tree(canonical.as_bytes()).is_ok());
    }
}
