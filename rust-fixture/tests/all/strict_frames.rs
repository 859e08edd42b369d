//! Every case of `vectors/rules/strict-frames.json` through the whole gate, as stdin would bring it: the
//! TypeScript gate's verdict, Java's where this gate gives Java's, or this gate's own where rmcp needs one.

use rust_fixture::stdio;
use serde_json::{Value, json};
use std::collections::HashMap;
use tokio::io::AsyncReadExt;

fn table() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../vectors/rules/strict-frames.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn line_of(v: &Value, expand: Option<&Value>) -> Vec<u8> {
    match v {
        Value::String(s) => match expand.and_then(|e| e.get(s)) {
            Some(e) => e["repeat"].as_str().unwrap().repeat(e["times"].as_u64().unwrap() as usize).into_bytes(),
            None => s.clone().into_bytes(),
        },
        Value::Array(parts) => parts
            .iter()
            .flat_map(|p| match p {
                Value::String(s) => line_of(&Value::String(s.clone()), expand),
                Value::Object(o) if o.contains_key("hex") => hex::decode(o["hex"].as_str().unwrap()).unwrap(),
                Value::Object(o) => o["repeat"].as_str().unwrap().repeat(o["times"].as_u64().unwrap() as usize).into_bytes(),
                _ => panic!("part {p}"),
            })
            .collect(),
        _ => panic!("line {v}"),
    }
}

/// The line with its newline through the gate: what the SDK got, and what went to stdout.
async fn through_gate(line: Vec<u8>) -> Value {
    let mut input = line.clone();
    input.push(b'\n');
    let (stdout, mut stdout_read) = tokio::io::duplex(1 << 16);
    let gated = stdio::gate(std::io::Cursor::new(input), stdout);
    let mut sdk_reads = gated.sdk_reads;
    drop(gated.sdk_writes);
    let mut sdk = Vec::new();
    sdk_reads.read_to_end(&mut sdk).await.unwrap();
    gated.gate.await.unwrap();
    gated.writer.await.unwrap();
    let mut out = String::new();
    stdout_read.read_to_string(&mut out).await.unwrap();
    if !sdk.is_empty() {
        let mut expected = line;
        expected.push(b'\n');
        return if sdk == expected {
            json!({"verdict": "forward"})
        } else {
            json!({"verdict": "forward", "as": String::from_utf8(sdk).unwrap().trim_end_matches('\n')})
        };
    }
    if !out.is_empty() {
        return json!({"verdict": "reply", "line": out.trim_end_matches('\n')});
    }
    json!({"verdict": "drop"})
}

const UNREADABLE: &str = "Invalid params: the request cannot be read (a number beyond 64-bit floating point, or nesting deeper than 128)";

/// Where this gate answers what rmcp 3.11.0 cannot type (it would drop the line without a reply), or rewrites a
/// repeated member it refuses even with the same value (docs/findings/rust-sdk-stdio-frames.md).
fn own_verdicts() -> HashMap<&'static str, Value> {
    let unreadable = |id: &str| json!({"verdict": "reply", "line": format!(r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32602,"message":"{UNREADABLE}"}}}}"#)});
    HashMap::from([
        ("a number literal of 1,001 digits inside params", unreadable("1")),
        ("valid: escapes, astral text, 1e400 and a long integer in arguments", unreadable("2")),
        ("jsonrpc 2.0 then \"2.0\" (the last one counts)", json!({"verdict": "forward", "as": concat!(
            r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"create_guarded_issue","arguments":{"operation_id":"op","title":"t"},"#,
            r#""inputResponses":{"body":{"action":"accept","content":{"body":"alpha"}}},"requestState":"v1.x","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#)})),
    ])
}

/// Where the table's two languages differ and this gate gives Java's verdict: nesting deeper than the gate reads
/// at all is a parse error, and unknown top-level members reach rmcp, which reads past them.
const JAVA_VERDICTS: [&str; 2] = ["nesting 10,000 deep inside params", "unknown top-level members"];

#[tokio::test]
async fn every_case_gets_the_typescript_gates_verdict_javas_or_this_gates_own() {
    let table = table();
    let own = own_verdicts();
    let mut differ = Vec::new();
    let mut used_own = 0;
    for case in table["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let want = match (own.get(name), case.get("expect")) {
            (Some(own), _) => {
                used_own += 1;
                own
            }
            (None, Some(expect)) => expect,
            (None, None) if JAVA_VERDICTS.contains(&name) => &case["expect_by_language"]["java"],
            (None, None) => &case["expect_by_language"]["typescript"],
        };
        let got = through_gate(line_of(&case["line"], case.get("expand"))).await;
        if &got != want {
            differ.push(format!("{name}\n   want {want}\n   got  {got}"));
        }
    }
    assert!(differ.is_empty(), "{} cases differ:\n{}", differ.len(), differ.join("\n"));
    assert_eq!(used_own, own.len(), "an own verdict names a case the table no longer has");
}
