use rust_fixture::guarded::{self, Mode};
use rust_fixture::ruletable::{self, Language, Table};
use serde_json::{Value, json};

fn load(file: &str) -> Table {
    let table = ruletable::load(file).unwrap();
    assert!(
        table.cases.len() >= 30,
        "{file}: only {} cases",
        table.cases.len()
    );
    table
}

#[test]
fn every_case_of_guarded_arguments() {
    let mut failures = Vec::new();
    let mut typescript = 0;
    for case in &load("guarded-arguments.json").cases {
        let args = case.row["arguments"]
            .as_object()
            .expect("an arguments object");
        let got = match guarded::read_arguments(args) {
            Ok(a) => {
                json!({"accepted": {"operation_id": a.operation_id, "title": a.title, "mode": a.mode.as_str()}})
            }
            Err(e) => json!({"error": e.to_string()}),
        };
        match case.matches(&got) {
            Some(Language::Shared) => {}
            // Where Java and TypeScript differ (a JSON null mode), this fixture gives TypeScript's verdict.
            Some(Language::TypeScript) => typescript += 1,
            Some(Language::Java) => {
                failures.push(format!("{}: Java's verdict, not TypeScript's", case.name))
            }
            None => failures.push(format!(
                "{}: got {got}, want {:?}",
                case.name, case.expected
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(typescript, 1, "the null mode is the one difference");
}

#[test]
fn every_case_of_input_responses() {
    let mut failures = Vec::new();
    for case in &load("input-responses.json").cases {
        let got = match guarded::accepted_body(&case.row["responses"]) {
            Ok(body) => json!({"body": body}),
            Err(e) => json!({"error": e.to_string()}),
        };
        if case.matches(&got) != Some(Language::Shared) {
            let shown: String = got.to_string().chars().take(200).collect();
            failures.push(format!("{}: got {shown}", case.name));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_normalised_responses_are_accepted_as_the_same_body() {
    let normalised = guarded::normalised_responses("beta");
    assert_eq!(
        normalised,
        json!({"body": {"_meta": null, "action": "accept", "content": {"body": "beta"}}})
    );
    assert_eq!(guarded::accepted_body(&normalised).unwrap(), "beta");
}

#[test]
fn utf16_lengths_count_code_units() {
    assert_eq!(guarded::utf16_length("caf\u{e9} \u{1f600}"), 7);
    let args: Value = json!({"operation_id": "op", "title": "t", "mode": "partial"});
    let read = guarded::read_arguments(args.as_object().unwrap()).unwrap();
    assert_eq!(read.mode, Mode::Partial);
}
