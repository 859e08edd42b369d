//! go-fixture/cmd/fingerprint-bench/main_test.go, against the built binary: the output's shape and digests, bad usage
//! (exit 2), a bad line (exit 1, nothing on stdout), and the inputs on which serde_json must write the canonical
//! bytes for the floor to exist, the benchmark's own two among them.


use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::common::{TEST_KEY_HEX, VECTOR_00_DIGEST, test_key};
use rust_fixture::fingerprint::{Object, Value, canonical, fingerprint_line};

const BENCH: &str = env!("CARGO_BIN_EXE_fingerprint-bench");
const KEY_VARIABLE: &str = "CONTINUATION_REPLAY_FINGERPRINT_KEY_HEX";

/// The worked example of docs/fingerprint.md.
const VECTOR_00: &str = r#"{"name":"00_control_single_round","request":{"principal":"alice","tool_id":"create_issue","tool_version":"1.0","arguments":{"title":"spec"},"continuation_state":"awaiting-body","input_responses":{"body":{"action":"accept","content":{"body":"alpha"}}}}}"#;

/// No opaque fields, a null principal, nesting, the short escapes, a bare control, HTML characters and non-ASCII:
/// the floor must still be the canonical bytes.
const ESCAPES: &str = r#"{"name":"escapes","request":{"principal":null,"tool_id":"t","tool_version":"2","arguments":{"z":[1,-2,true,null,{"b":"\b\f\n\r\t\u0001\"\\","a":"<b>&amp;</b> café 漢字 😀"}],"a":{}}}}"#;

const MEMBERS: [&str; 10] = [
    "name",
    "digest",
    "canonical_payload_bytes",
    "fingerprint_ns_per_op",
    "fingerprint_ops",
    "bare_ns_per_op",
    "bare_ops",
    "floor_ns_per_op",
    "floor_ops",
    "floor_rounds",
];

/// A folder of its own, removed at the end of the test.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> TempDir {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let name = format!(
            "rust-fixture-fingerprint-bench-{}-{}",
            std::process::id(),
            COUNT.fetch_add(1, Ordering::Relaxed)
        );
        let dir = std::env::temp_dir().join(name);
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir(&dir).unwrap();
        TempDir(dir)
    }

    /// A JSON Lines file of `lines`, each ended by a newline.
    fn jsonl(&self, lines: &[&[u8]]) -> PathBuf {
        let path = self.0.join("requests.jsonl");
        let text: Vec<u8> = lines
            .iter()
            .flat_map(|line| line.iter().chain(b"\n"))
            .copied()
            .collect();
        std::fs::write(&path, text).unwrap();
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs the binary with the key variable set to `key`, or unset when it is `None`.
fn run_bench(key: Option<&str>, args: &[&OsStr]) -> (i32, String, String) {
    let mut command = Command::new(BENCH);
    command.args(args);
    match key {
        Some(key) => command.env(KEY_VARIABLE, key),
        None => command.env_remove(KEY_VARIABLE),
    };
    let Output {
        status,
        stdout,
        stderr,
    } = command.output().expect("the bench starts");
    (
        status.code().expect("an exit code"),
        String::from_utf8(stdout).unwrap(),
        String::from_utf8(stderr).unwrap(),
    )
}

fn run_file(path: &Path, millis: &str) -> (i32, String, String) {
    run_bench(Some(TEST_KEY_HEX), &[path.as_os_str(), millis.as_ref()])
}

/// The fixture's own digest of a named line, as `fingerprint-cli` prints it.
fn fixture_digest(line: &str) -> String {
    let answer =
        fingerprint_line(&test_key(), line.as_bytes()).unwrap_or_else(|e| panic!("{line:?}: {e}"));
    let (name, digest) = answer.split_once('\t').expect("a named line");
    assert!(!name.is_empty());
    digest.to_owned()
}

/// The results of a successful run, after checking the report's shape: one line, `rust` and `results` only, each
/// result with exactly the ten members, positive figures, whole counts and whole batches.
fn results(code: i32, out: &str, err: &str) -> Vec<serde_json::Map<String, serde_json::Value>> {
    assert_eq!((code, err), (0, ""), "stdout {out:?}");
    assert!(
        out.ends_with('\n') && out.matches('\n').count() == 1,
        "not one line: {out:?}"
    );
    assert!(!out.contains(TEST_KEY_HEX), "the key was printed");
    let serde_json::Value::Object(mut report) = serde_json::from_str(out).unwrap() else {
        panic!("not an object: {out}");
    };
    assert_eq!(report.keys().collect::<Vec<_>>(), ["rust", "results"]);
    let version = report["rust"].as_str().expect("a version");
    assert!(version.starts_with("rustc "), "{version}");
    let Some(serde_json::Value::Array(results)) = report.remove("results") else {
        panic!("no results: {out}");
    };
    results
        .into_iter()
        .enumerate()
        .map(|(i, result)| {
            let serde_json::Value::Object(result) = result else {
                panic!("{i}: not an object");
            };
            assert_eq!(result.keys().collect::<Vec<_>>(), MEMBERS, "{i}");
            let rounds = result["floor_rounds"].as_array().expect("floor_rounds");
            assert_eq!(rounds.len(), 5, "{i}: {rounds:?}");
            for ratio in rounds {
                assert!(
                    ratio.as_f64().is_some_and(|r| r > 0.0),
                    "{i}: a round's ratio {ratio}"
                );
            }
            for member in &MEMBERS[2..MEMBERS.len() - 1] {
                let n = &result[*member];
                assert!(n.as_f64().is_some_and(|n| n > 0.0), "{i}: {member} = {n}");
            }
            for member in [
                "canonical_payload_bytes",
                "fingerprint_ops",
                "bare_ops",
                "floor_ops",
            ] {
                assert!(
                    result[member].is_u64(),
                    "{i}: {member} = {} is not a count",
                    result[member]
                );
            }
            let ops = result["fingerprint_ops"].as_u64().unwrap();
            assert_eq!(ops % 16, 0, "{i}: {ops} ops is not whole batches");
            result
        })
        .collect()
}

fn names_and_digests(results: &[serde_json::Map<String, serde_json::Value>]) -> Vec<(&str, &str)> {
    results
        .iter()
        .map(|r| (r["name"].as_str().unwrap(), r["digest"].as_str().unwrap()))
        .collect()
}

#[test]
fn two_requests() {
    let dir = TempDir::new();
    let file = dir.jsonl(&[VECTOR_00.as_bytes(), b" \t\r", ESCAPES.as_bytes()]);
    let (code, out, err) = run_file(&file, "50");
    let results = results(code, &out, &err);
    let vector_00 = fixture_digest(VECTOR_00);
    assert_eq!(vector_00, VECTOR_00_DIGEST);
    let escapes = fixture_digest(ESCAPES);
    assert_eq!(
        names_and_digests(&results),
        [
            ("00_control_single_round", vector_00.as_str()),
            ("escapes", escapes.as_str())
        ]
    );
}

#[test]
fn an_unnamed_request_is_named_null() {
    let dir = TempDir::new();
    let bare = r#"{"principal":"p","tool_id":"t","tool_version":"1","arguments":{}}"#;
    let (code, out, err) = run_file(&dir.jsonl(&[bare.as_bytes()]), "5");
    let results = results(code, &out, &err);
    let digest = fingerprint_line(&test_key(), bare.as_bytes()).unwrap();
    assert_eq!(results[0]["name"], serde_json::Value::Null);
    assert_eq!(results[0]["digest"].as_str(), Some(digest.as_str()));
}

#[test]
fn bad_usage_exits_two() {
    let dir = TempDir::new();
    let file = dir.jsonl(&[VECTOR_00.as_bytes()]);
    let file = file.as_os_str();
    let odd = format!("{TEST_KEY_HEX}a");
    let not_hex = format!("{}zz", &TEST_KEY_HEX[..62]);
    let cases: [(&str, Option<&str>, Vec<&OsStr>); 8] = [
        ("no arguments", Some(TEST_KEY_HEX), vec![]),
        ("no key", None, vec![file]),
        (
            "a key under 32 bytes",
            Some(&TEST_KEY_HEX[..62]),
            vec![file],
        ),
        ("an odd count of hex digits", Some(&odd), vec![file]),
        ("a key that is not hex", Some(&not_hex), vec![file]),
        (
            "MILLIS not a number",
            Some(TEST_KEY_HEX),
            vec![file, "soon".as_ref()],
        ),
        ("MILLIS zero", Some(TEST_KEY_HEX), vec![file, "0".as_ref()]),
        (
            "too many arguments",
            Some(TEST_KEY_HEX),
            vec![file, "50".as_ref(), "more".as_ref()],
        ),
    ];
    for (what, key, args) in cases {
        let (code, out, err) = run_bench(key, &args);
        assert!(
            code == 2
                && out.is_empty()
                && err.starts_with("usage:")
                && err.matches('\n').count() == 1,
            "{what}: exit {code}, stdout {out:?}, stderr {err:?}"
        );
        assert!(
            !err.contains(&TEST_KEY_HEX[..40]),
            "{what}: the key was printed"
        );
    }
    for millis in ["-1", "NaN", "inf", "1e400"] {
        let (code, _, err) = run_bench(Some(TEST_KEY_HEX), &[file, millis.as_ref()]);
        assert!(
            code == 2 && err.ends_with("(MILLIS must be a positive number)\n"),
            "{millis}: exit {code}, stderr {err:?}"
        );
    }
}

/// A bad line anywhere stops the run before anything is timed or printed.
#[test]
fn a_malformed_line_is_one_clear_line() {
    let cases: [(&[u8], &str); 4] = [
        (br#"{"name":"cut","request":{"principal":"#, "fingerprint-bench: line 2: "),
        (
            br#"{"name":"x","request":{"tool_id":"a"}}"#,
            "fingerprint-bench: line 2 (x): $.principal: required\n",
        ),
        (
            br#"{"name":"x","request":{"principal":null,"tool_id":"a","tool_version":"1","arguments":{"n":1.5}}}"#,
            "fingerprint-bench: line 2 (x): $.arguments.n: number must be an integer in the interoperable safe range\n",
        ),
        (b"\xff", "fingerprint-bench: line 2: invalid UTF-8\n"),
    ];
    for (line, want) in cases {
        let dir = TempDir::new();
        let (code, out, err) = run_file(&dir.jsonl(&[VECTOR_00.as_bytes(), line]), "50");
        assert!(
            code == 1 && out.is_empty() && err.starts_with(want) && err.matches('\n').count() == 1,
            "{:?}: exit {code}, stdout {out:?}, stderr {err:?}",
            String::from_utf8_lossy(line)
        );
    }
    let dir = TempDir::new();
    let (code, out, err) = run_file(&dir.0.join("absent.jsonl"), "50");
    assert!(
        code == 1 && out.is_empty() && err.contains("absent.jsonl"),
        "absent file: exit {code}, stdout {out:?}, stderr {err:?}"
    );
    let (code, out, err) = run_file(&dir.jsonl(&[b" "]), "50");
    assert!(
        code == 1 && out.is_empty() && err.contains("no request"),
        "no request: exit {code}, stdout {out:?}, stderr {err:?}"
    );
}

/// Go's encoding/json escapes U+2028 and U+2029 and so has no floor for such a request; serde_json writes them, and
/// DEL, raw, as the canonical form does, so here the floor exists and is timed.
#[test]
fn serde_json_has_a_floor_where_go_has_none() {
    let line = "{\"name\":\"separator\",\"request\":{\"principal\":\"p\",\"tool_id\":\"t\",\"tool_version\":\"1\",\"arguments\":{\"s\":\"a\u{2028}b\u{2029}c\u{7f}\"}}}";
    let dir = TempDir::new();
    let (code, out, err) = run_file(&dir.jsonl(&[line.as_bytes()]), "5");
    let results = results(code, &out, &err);
    let digest = fixture_digest(line);
    assert_eq!(
        names_and_digests(&results),
        [("separator", digest.as_str())]
    );
}

/// Nesting at the canonical limit (1,000 levels, the payload included), beyond serde_json's default of 128.
#[test]
fn the_floor_takes_the_deepest_canonical_payload() {
    let pairs = 499;
    let arguments = format!(
        r#"{}{{"b":1}}{}"#,
        r#"{"a":["#.repeat(pairs),
        "]}".repeat(pairs)
    );
    let line = format!(
        r#"{{"name":"deep","request":{{"principal":null,"tool_id":"t","tool_version":"1","arguments":{arguments}}}}}"#
    );
    let dir = TempDir::new();
    let (code, out, err) = run_file(&dir.jsonl(&[line.as_bytes()]), "5");
    let results = results(code, &out, &err);
    let digest = fixture_digest(&line);
    assert_eq!(names_and_digests(&results), [("deep", digest.as_str())]);
}

// What bench/…/FingerprintRequests.java builds: the case-01 continuation and the 64 KiB arguments request.

const T0: i64 = 1_790_035_200;
const LARGE_ARGUMENT_BYTES: usize = 64 * 1024;

fn size(arguments: &Object) -> usize {
    canonical(&Value::Object(arguments.clone())).unwrap().len()
}

fn object<const N: usize>(members: [(&str, Value); N]) -> Object {
    members
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v))
        .collect()
}

fn details(arguments: &mut Object) -> &mut Object {
    match arguments.get_mut("details") {
        Some(Value::Object(details)) => details,
        _ => unreachable!("details is an object"),
    }
}

/// `FingerprintRequests.largeArguments()`: a `details` object filled until the canonical arguments are exactly
/// 64 KiB. Java trims by UTF-16 unit; the text has no character outside the BMP, so by `char` is the same.
fn large_arguments() -> Object {
    let unit = "line \"quoted\" \\ café ünïcödé 漢字 tab\t end. ";
    let mut arguments = object([
        ("operation_id", "bench-64k".into()),
        ("title", "large".into()),
        ("mode", "atomic".into()),
        ("details", Value::Object(Object::new())),
    ]);
    let mut index: i64 = 0;
    while size(&arguments) < LARGE_ARGUMENT_BYTES {
        let entry = object([
            ("text", unit.repeat(3).into()),
            ("n", ((index + 1) * 7919).into()),
            ("tags", vec!["a".into(), true.into(), Value::Null].into()),
        ]);
        details(&mut arguments).insert(format!("item-{index:04}"), Value::Object(entry));
        index += 1;
    }
    let last_key = format!("item-{:04}", index - 1);
    let set_text = |arguments: &mut Object, text: String| {
        let Some(Value::Object(last)) = details(arguments).get_mut(&last_key) else {
            unreachable!("the last item is an object");
        };
        last.insert("text".into(), text.into());
    };
    let excess = size(&arguments) - LARGE_ARGUMENT_BYTES;
    let mut trimmed: Vec<char> = unit.repeat(3).chars().collect();
    trimmed.truncate(trimmed.len().saturating_sub(excess));
    set_text(&mut arguments, trimmed.iter().collect());
    while size(&arguments) > LARGE_ARGUMENT_BYTES && !trimmed.is_empty() {
        trimmed.pop();
        set_text(&mut arguments, trimmed.iter().collect());
    }
    let pad = "x".repeat(LARGE_ARGUMENT_BYTES - size(&arguments));
    set_text(&mut arguments, trimmed.iter().collect::<String>() + &pad);
    arguments
}

/// `FingerprintRequests.request(arguments, operationId)` as the bench's named line.
fn bench_line(name: &str, arguments: Object, operation_id: &str) -> String {
    let state = object([
        ("authority_expires_at", (T0 + 300).into()),
        ("issued_at", T0.into()),
        ("nonce", "661eed17995cd1b77e6812a2fd567408".into()),
        ("operation_id", operation_id.into()),
        ("replay_expires_at", (T0 + 360).into()),
        ("v", 1.into()),
    ]);
    let responses = object([(
        "body",
        Value::Object(object([
            ("_meta", Value::Null),
            ("action", "accept".into()),
            ("content", Value::Object(object([("body", "alpha".into())]))),
        ])),
    )]);
    let request = object([
        ("principal", "alice".into()),
        ("tool_id", "create_guarded_issue".into()),
        ("tool_version", "1".into()),
        ("arguments", Value::Object(arguments)),
        (
            "continuation_state",
            canonical(&Value::Object(state)).unwrap().into(),
        ),
        ("input_responses", Value::Object(responses)),
    ]);
    canonical(&Value::Object(object([
        ("name", name.into()),
        ("request", Value::Object(request)),
    ])))
    .unwrap()
}

/// The benchmark's own inputs have a floor: serde_json writes their payloads as the canonical bytes.
#[test]
fn the_benchmark_requests_have_a_floor() {
    let case_01 = object([
        ("mode", "atomic".into()),
        ("operation_id", "case-01".into()),
        ("title", "guarded-01".into()),
    ]);
    let large = large_arguments();
    assert_eq!(size(&large), LARGE_ARGUMENT_BYTES);
    let lines = [
        bench_line("case-01", case_01, "case-01"),
        bench_line("args-64KiB", large, "bench-64k"),
    ];
    let dir = TempDir::new();
    let file = dir.jsonl(&[lines[0].as_bytes(), lines[1].as_bytes()]);
    let (code, out, err) = run_file(&file, "20");
    let results = results(code, &out, &err);
    // The test key's digests of the requests.jsonl that `lab bench` writes, so these are that file's requests.
    assert_eq!(
        names_and_digests(&results),
        [
            (
                "case-01",
                "abe0892485845e78b4c0332ed059fb6ea791dc6f420723c01866bb75ba4ce61f"
            ),
            (
                "args-64KiB",
                "cf674b8c624bf49bd65bd4702aa5b9b57c5e9e52ac4b3696923006d38f5d974e"
            ),
        ]
    );
    let payload_bytes: Vec<u64> = results
        .iter()
        .map(|r| r["canonical_payload_bytes"].as_u64().unwrap())
        .collect();
    assert_eq!(payload_bytes, [322, 65795]);
}
