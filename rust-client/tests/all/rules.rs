//! The shared client-script table: every driver runs its cases through its own parser, so a refusal worded or
//! ordered differently in one of them fails its own suite.

use std::collections::{BTreeMap, BTreeSet};

use rust_client::script::{Script, parse};
use serde_json::Value;

const RULES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../vectors/rules/client-script.json");

fn script_text(base: &Value, case: &Value) -> Vec<u8> {
    if let Some(text) = case.get("text").and_then(Value::as_str) {
        return text.as_bytes().to_vec();
    }
    let mut document = base.as_object().expect("base is an object").clone();
    if let Some(set) = case.get("set").and_then(Value::as_object) {
        for (name, value) in set {
            document.insert(name.clone(), value.clone());
        }
    }
    if let Some(remove) = case.get("remove").and_then(Value::as_array) {
        for name in remove {
            document.remove(name.as_str().expect("remove names members"));
        }
    }
    if let Some(steps) = case.get("steps") {
        document.insert(String::from("steps"), steps.clone());
    }
    serde_json::to_vec(&document).expect("a case serializes")
}

/// `"<step> <op>"` for every step that gets a record: a parallel step's inner steps, not itself.
fn recorded_steps(script: &Script) -> Vec<Value> {
    script
        .steps
        .iter()
        .flat_map(|top| top.steps())
        .map(|step| Value::String(format!("{} {}", step.id, step.op().name())))
        .collect()
}

#[test]
fn every_case_of_the_client_script_table() {
    let text = std::fs::read(RULES).unwrap_or_else(|error| panic!("{RULES}: {error}"));
    let table: Value = serde_json::from_slice(&text).expect("the table is JSON");
    let cases = table["cases"].as_array().expect("cases");
    assert_eq!(table["format"], "client-script-rules/1");
    assert!(cases.len() >= 100, "{} cases", cases.len());
    let environment: BTreeMap<String, String> =
        serde_json::from_value(table["environment"].clone()).expect("environment of strings");
    let lookup = |name: &str| environment.get(name).cloned();

    let mut seen = BTreeSet::new();
    let mut failures = Vec::new();
    for case in cases {
        let id = case["id"].as_str().unwrap_or_default();
        assert!(
            !id.is_empty() && seen.insert(id.to_owned()),
            "every case needs an id of its own, not {id:?}"
        );
        let expect = case["expect"].as_object().expect("expect");
        assert_eq!(expect.len(), 1, "{id}: expect must hold exactly one verdict");
        let parsed = parse(&script_text(&table["base"], case), lookup);
        let failure = match (expect.iter().next().expect("one verdict"), parsed) {
            ((verdict, Value::Array(accepted)), Ok(script)) if verdict == "accepted" => {
                let got = recorded_steps(&script);
                (got != *accepted).then(|| format!("steps {got:?}, want {accepted:?}"))
            }
            ((verdict, _), Ok(_)) => Some(format!("accepted, want {verdict}")),
            ((verdict, Value::String(want)), Err(refused)) if verdict == "error" => {
                (refused.line() != want).then(|| format!("got  {}\n    want {want}", refused.line()))
            }
            ((verdict, Value::String(start)), Err(refused)) if verdict == "error_starts" => {
                (!refused.line().starts_with(start.as_str()) || refused.line().contains('\n'))
                    .then(|| format!("got {:?}, want a line starting {start:?}", refused.line()))
            }
            ((verdict, _), Err(refused)) => Some(format!("refused with {:?}, want {verdict}", refused.line())),
        };
        if let Some(failure) = failure {
            failures.push(format!("{id}: {failure}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n  {}",
        failures.len(),
        cases.len(),
        failures.join("\n  ")
    );
    eprintln!("{} cases of {RULES} passed", cases.len());
}
