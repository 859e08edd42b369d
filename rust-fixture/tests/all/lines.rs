//! lines.go and request.go: one JSON Lines line to its output, the request's shape and the order of its checks.


use crate::common::{VECTOR_00_DIGEST, test_key};
use rust_fixture::fingerprint::{Error, LineError, fingerprint_line, is_blank_line};

const VECTOR_00: &str = r#"{"name":"00_control_single_round","request":{"principal":"alice","tool_id":"create_issue","tool_version":"1.0","arguments":{"title":"spec"},"continuation_state":"awaiting-body","input_responses":{"body":{"action":"accept","content":{"body":"alpha"}}}}}"#;
const BARE: &str = r#"{"principal":"alice","tool_id":"create_issue","tool_version":"1.0","arguments":{"title":"spec"}}"#;
const BARE_DIGEST: &str = "26edd2eb4186d09aee69868bb7ca0834fd86acc795812efdff7009769b50675b";

fn message(line: &str) -> String {
    match fingerprint_line(&test_key(), line.as_bytes()) {
        Ok(answer) => panic!("{line}: accepted as {answer}"),
        Err(failure) => failure.to_string(),
    }
}

#[test]
fn the_docs_example_lines() {
    let key = test_key();
    assert_eq!(
        fingerprint_line(&key, VECTOR_00.as_bytes()).unwrap(),
        format!("00_control_single_round\t{VECTOR_00_DIGEST}")
    );
    assert_eq!(
        fingerprint_line(&key, BARE.as_bytes()).unwrap(),
        BARE_DIGEST
    );
    let spaced = format!(" \t{}\r", BARE.replace(',', " ,\n "));
    assert_eq!(
        fingerprint_line(&key, spaced.as_bytes()).unwrap(),
        BARE_DIGEST
    );
    assert_eq!(
        message(r#"{"principal":null,"tool_id":"a","tool_version":"1","arguments":{"n":1.5}}"#),
        "$.arguments.n: number must be an integer in the interoperable safe range"
    );
}

#[test]
fn blank_lines_are_spaces_tabs_and_carriage_returns() {
    assert!(is_blank_line(b""));
    assert!(is_blank_line(b" \t\r"));
    assert!(!is_blank_line(b" \n"));
    assert!(!is_blank_line(b"\x0c"));
}

#[test]
fn a_failure_in_place_keeps_a_known_name() {
    let key = test_key();
    let failure = fingerprint_line(&key, br#"{"name":"x","request":{"tool_id":"a"}}"#).unwrap_err();
    assert_eq!(failure.in_place(), "x\t!$.principal: required");
    let failure = fingerprint_line(&key, b"\xff").unwrap_err();
    assert_eq!(
        failure,
        LineError {
            name: None,
            error: Error::InvalidUtf8
        }
    );
    assert_eq!(failure.in_place(), "!invalid UTF-8");
    let failure = fingerprint_line(&key, br#"{"name":"x\u0001","request":{}}"#).unwrap_err();
    assert_eq!(
        failure.in_place(),
        "!$.name: must be a string without control characters"
    );
}

#[test]
fn shape_messages() {
    let request = |members: &str| {
        format!(r#"{{"tool_id":"t","tool_version":"1","arguments":{{}}{members}}}"#)
    };
    for (line, want) in [
        ("[]".to_owned(), "a line must hold a JSON object"),
        ("1".to_owned(), "a line must hold a JSON object"),
        (
            r#"{"name":"x","request":{},"extra":1}"#.to_owned(),
            r#"a named entry must have exactly the members "name" and "request""#,
        ),
        (
            r#"{"nam":"x","request":{}}"#.to_owned(),
            r#"a named entry must have exactly the members "name" and "request""#,
        ),
        (
            r#"{"request":{}}"#.to_owned(),
            r#"a named entry must have exactly the members "name" and "request""#,
        ),
        (
            r#"{"name":1,"request":{}}"#.to_owned(),
            "$.name: must be a string without control characters",
        ),
        (
            r#"{"name":"a\u007f","request":{}}"#.to_owned(),
            "$.name: must be a string without control characters",
        ),
        (
            r#"{"name":"a\ud800","request":{}}"#.to_owned(),
            "$.name: unpaired UTF-16 surrogate is not valid Unicode",
        ),
        (
            r#"{"name":"a\ud800\n","request":{}}"#.to_owned(),
            "$.name: must be a string without control characters",
        ),
        (
            r#"{"name":"x","request":[]}"#.to_owned(),
            "a LogicalRequest must be a JSON object",
        ),
        (
            request(r#","zeta":1,"b\u0001":2"#),
            r#"$.b\u0001: unknown LogicalRequest member"#,
        ),
        (
            request(r#","name":"x""#),
            "$.name: unknown LogicalRequest member",
        ),
        (request(""), "$.principal: required"),
        (
            request(r#","principal":1"#),
            "$.principal: must be a string or null",
        ),
        (
            r#"{"principal":null,"tool_version":"1","arguments":{}}"#.to_owned(),
            "$.tool_id: required",
        ),
        (
            r#"{"principal":null,"tool_id":null,"tool_version":"1","arguments":{}}"#.to_owned(),
            "$.tool_id: must be a string",
        ),
        (
            r#"{"principal":null,"tool_id":"t","arguments":{}}"#.to_owned(),
            "$.tool_version: required",
        ),
        (
            r#"{"principal":null,"tool_id":"t","tool_version":2,"arguments":{}}"#.to_owned(),
            "$.tool_version: must be a string",
        ),
        (
            r#"{"principal":null,"tool_id":"t","tool_version":"1"}"#.to_owned(),
            "$.arguments: required",
        ),
        (
            r#"{"principal":null,"tool_id":"t","tool_version":"1","arguments":[]}"#.to_owned(),
            "$.arguments: must be a JSON object",
        ),
        (
            r#"{"principal":null,"tool_id":"t","tool_version":"1","arguments":{"a":{"\udc00":1}}}"#
                .to_owned(),
            { "$.arguments.a: object key with an unpaired UTF-16 surrogate is not valid Unicode" },
        ),
    ] {
        assert_eq!(message(&line), want, "{line}");
    }
}

/// The fingerprint refuses the bound fields, then the arguments, then principal, tool_id and tool_version; a text
/// member with an unpaired surrogate is refused in that order too.
#[test]
fn refusals_come_in_the_fingerprints_order() {
    let line = |principal: &str, tool_id: &str, arguments: &str, state: &str, responses: &str| {
        format!(
            r#"{{"principal":{principal},"tool_id":{tool_id},"tool_version":"1","arguments":{arguments},"continuation_state":{state},"input_responses":{responses}}}"#
        )
    };
    let bad = r#""x\ud800""#;
    for (input, want) in [
        (
            line(bad, bad, r#"{"n":1.5}"#, "[1e400]", "2.5"),
            "$.continuation_state[0]: integer is outside the interoperable safe range",
        ),
        (
            line(bad, bad, r#"{"n":1.5}"#, "null", "2.5"),
            "$.input_responses: number must be an integer in the interoperable safe range",
        ),
        (
            line(bad, bad, r#"{"n":1.5}"#, "null", "{}"),
            "$.arguments.n: number must be an integer in the interoperable safe range",
        ),
        (
            line(bad, bad, "{}", "null", "{}"),
            "$.principal: unpaired UTF-16 surrogate is not valid Unicode",
        ),
        (
            line("null", bad, "{}", "null", "{}"),
            "$.tool_id: unpaired UTF-16 surrogate is not valid Unicode",
        ),
        (
            r#"{"principal":"p","tool_id":"t","tool_version":"\udfff","arguments":{}}"#.to_owned(),
            "$.tool_version: unpaired UTF-16 surrogate is not valid Unicode",
        ),
        (
            line(bad, "1", "{}", "null", "{}"),
            "$.tool_id: must be a string",
        ),
        (
            line("null", r#""t""#, r#"{"s":"\ud800","a":1.5}"#, "null", "{}"),
            "$.arguments.a: number must be an integer in the interoperable safe range",
        ),
    ] {
        assert_eq!(message(&input), want, "{input}");
    }
}

#[test]
fn the_arguments_sit_one_level_below_the_payload() {
    let nested = |levels: usize| format!("{}0{}", "[".repeat(levels), "]".repeat(levels));
    let request = |arguments: String| {
        format!(
            r#"{{"principal":null,"tool_id":"t","tool_version":"1","arguments":{{"a":{arguments}}}}}"#
        )
    };
    assert!(fingerprint_line(&test_key(), request(nested(998)).as_bytes()).is_ok());
    let want = format!(
        "$.arguments.a{}: nesting deeper than 1000 levels",
        "[0]".repeat(998)
    );
    assert_eq!(message(&request(nested(999))), want);
    let state = |levels: usize| {
        format!(
            r#"{{"principal":null,"tool_id":"t","tool_version":"1","arguments":{{}},"continuation_state":{}}}"#,
            nested(levels)
        )
    };
    assert!(fingerprint_line(&test_key(), state(1000).as_bytes()).is_ok());
    assert_eq!(
        message(&state(1001)),
        format!(
            "$.continuation_state{}: nesting deeper than 1000 levels",
            "[0]".repeat(1000)
        )
    );
}
