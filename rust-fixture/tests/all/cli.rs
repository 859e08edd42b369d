//! main_test.go, against the built binary: key problems, named and bare lines, the first bad line, --keep-going.


use std::io::Write;
use std::process::{Command, Output, Stdio};

use crate::common::{TEST_KEY_HEX, VECTOR_00_DIGEST, load_vectors, object, string};
use rust_fixture::fingerprint::{Object, Value, canonical};

const KEY_VARIABLE: &str = "CONTINUATION_REPLAY_FINGERPRINT_KEY_HEX";
const VECTOR_00: &str = r#"{"name":"00_control_single_round","request":{"principal":"alice","tool_id":"create_issue","tool_version":"1.0","arguments":{"title":"spec"},"continuation_state":"awaiting-body","input_responses":{"body":{"action":"accept","content":{"body":"alpha"}}}}}"#;

fn run(key: Option<&str>, input: &[u8], args: &[&str]) -> (i32, String, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_fingerprint-cli"));
    command
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    match key {
        Some(key) => command.env(KEY_VARIABLE, key),
        None => command.env_remove(KEY_VARIABLE),
    };
    let mut child = command.spawn().expect("the CLI starts");
    let mut stdin = child.stdin.take().unwrap();
    // A refused key closes stdin unread; that is not this test's failure.
    let _ = stdin.write_all(input);
    drop(stdin);
    let Output {
        status,
        stdout,
        stderr,
    } = child.wait_with_output().unwrap();
    (
        status.code().expect("an exit code"),
        String::from_utf8(stdout).unwrap(),
        String::from_utf8(stderr).unwrap(),
    )
}

#[test]
fn key_problems_name_the_variable() {
    let cases = [
        (None, format!("{KEY_VARIABLE} is not set")),
        (Some(""), format!("{KEY_VARIABLE} is not set")),
        (
            Some("abc"),
            format!("{KEY_VARIABLE} must be an even-length hexadecimal string"),
        ),
        (
            Some("zz"),
            format!("{KEY_VARIABLE} must be an even-length hexadecimal string"),
        ),
        (
            Some("00112233"),
            format!("{KEY_VARIABLE} must contain at least 32 bytes"),
        ),
        (
            Some(&TEST_KEY_HEX[2..]),
            format!("{KEY_VARIABLE} must contain at least 32 bytes"),
        ),
    ];
    for (key, want) in cases {
        let (code, out, err) = run(key, VECTOR_00.as_bytes(), &[]);
        assert_eq!(
            (code, out.as_str(), err),
            (2, "", format!("{want}\n")),
            "{key:?}"
        );
    }
    let upper = TEST_KEY_HEX.to_uppercase();
    let (code, out, _) = run(Some(&upper), VECTOR_00.as_bytes(), &[]);
    assert_eq!(
        (code, out),
        (0, format!("00_control_single_round\t{VECTOR_00_DIGEST}\n"))
    );
}

#[test]
fn named_vector_lines_give_their_digests() {
    let file = load_vectors();
    let digests = object(&file.expected["digests"]);
    let mut input = String::new();
    let mut want = String::new();
    for vector in &file.vectors {
        input.push_str(&canonical(&vector.entry).unwrap());
        input.push('\n');
        want.push_str(&format!(
            "{}\t{}\n",
            vector.name,
            string(&digests[&vector.name])
        ));
    }
    for vector in &file.vectors {
        let Value::Object(entry) = &vector.entry else {
            panic!()
        };
        input.push_str(&canonical(&entry["request"]).unwrap());
        input.push_str("\r\n");
        want.push_str(&format!("{}\n", string(&digests[&vector.name])));
    }
    let (code, out, err) = run(Some(TEST_KEY_HEX), input.as_bytes(), &[]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(out, want);
}

#[test]
fn lines_and_the_first_bad_line() {
    let input = format!(
        "{VECTOR_00}\n \t\r\n{}\n{VECTOR_00}\n",
        r#"{"principal":null,"tool_id":"a","tool_version":"1","arguments":{"n":1.5}}"#
    );
    let (code, out, err) = run(Some(TEST_KEY_HEX), input.as_bytes(), &[]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "line 3: $.arguments.n: number must be an integer in the interoperable safe range\n"
    );
    assert_eq!(
        out,
        format!("00_control_single_round\t{VECTOR_00_DIGEST}\n")
    );
}

#[test]
fn the_docs_example() {
    let bare = r#"{"principal":"alice","tool_id":"create_issue","tool_version":"1.0","arguments":{"title":"spec"}}"#;
    let third = r#"{"principal":"alice","tool_id":"create_issue","tool_version":"1.0","arguments":{"n":1.5}}"#;
    let input = format!("{VECTOR_00}\n{bare}\n{third}\n");
    let (code, out, err) = run(Some(TEST_KEY_HEX), input.as_bytes(), &[]);
    assert_eq!(code, 2);
    assert_eq!(
        out,
        format!(
            "00_control_single_round\t{VECTOR_00_DIGEST}\n26edd2eb4186d09aee69868bb7ca0834fd86acc795812efdff7009769b50675b\n"
        )
    );
    assert_eq!(
        err,
        "line 3: $.arguments.n: number must be an integer in the interoperable safe range\n"
    );
}

#[test]
fn keep_going() {
    let mut input = b"\xff\n".to_vec();
    input.extend_from_slice(
        format!(
            "{}\n{VECTOR_00}",
            r#"{"name":"x","request":{"tool_id":"a"}}"#
        )
        .as_bytes(),
    );
    let (code, out, err) = run(Some(TEST_KEY_HEX), &input, &["--keep-going"]);
    assert_eq!(code, 2);
    assert_eq!(
        out,
        format!(
            "!invalid UTF-8\nx\t!$.principal: required\n00_control_single_round\t{VECTOR_00_DIGEST}\n"
        )
    );
    assert_eq!(
        err,
        "line 1: invalid UTF-8\nline 2: $.principal: required\n"
    );

    let (code, out, err) = run(
        Some(TEST_KEY_HEX),
        format!("{VECTOR_00}\n\n{VECTOR_00}\n").as_bytes(),
        &["--keep-going"],
    );
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(out.lines().count(), 2);
}

#[test]
fn unknown_arguments_and_empty_input() {
    let (code, out, err) = run(Some(TEST_KEY_HEX), b"", &["--other"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(
        err,
        "usage: fingerprint-cli [--keep-going] (unknown argument --other)\n"
    );
    let (code, out, err) = run(Some(TEST_KEY_HEX), b"", &[]);
    assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""));
}

#[test]
fn a_line_without_its_newline_and_a_large_line() {
    let big: Object = (0..5000)
        .map(|i| (format!("k{i:05}"), Value::from("x".repeat(10))))
        .collect();
    let request = Object::from([
        ("principal".to_owned(), Value::Null),
        ("tool_id".to_owned(), Value::from("t")),
        ("tool_version".to_owned(), Value::from("1")),
        ("arguments".to_owned(), Value::Object(big)),
    ]);
    let line = canonical(&Value::Object(request)).unwrap();
    let (code, out, err) = run(
        Some(TEST_KEY_HEX),
        format!("{line}\n{line}").as_bytes(),
        &[],
    );
    assert_eq!((code, err.as_str()), (0, ""));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0], lines[1]);
}
