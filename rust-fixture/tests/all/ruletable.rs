use std::path::Path;

use rust_fixture::ruletable::{self, Expected, Language};
use serde_json::json;

fn write(dir: &Path, name: &str, text: &str) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn the_shared_tables_load_and_expand() {
    let table = ruletable::load("guarded-arguments.json").unwrap();
    let case = table
        .cases
        .iter()
        .find(|c| c.name == "an operation id of 256 characters and a title of 65536")
        .unwrap();
    assert_eq!(
        case.row["arguments"]["operation_id"],
        json!("x".repeat(256))
    );
    assert_eq!(
        case.row["arguments"]["title"].as_str().unwrap().len(),
        65536
    );
    assert!(
        case.row["expand"].is_object(),
        "expand itself is kept as written"
    );
    let null_mode = table.cases.iter().find(|c| c.name == "mode null").unwrap();
    assert!(
        matches!(null_mode.expected, Expected::ByLanguage { .. }) && null_mode.shared().is_none()
    );
    assert_eq!(
        null_mode.matches(&json!({"error": "mode must be 'atomic' or 'partial'"})),
        Some(Language::TypeScript)
    );
    assert!(
        ruletable::load("stdio-jvm-options.json")
            .unwrap()
            .cases
            .is_empty()
    );
}

#[test]
fn numbers_match_by_value() {
    let table = ruletable::load("trusted-environment.json").unwrap();
    let clock = table.cases.iter().find(|c| c.name == "the clock").unwrap();
    assert_eq!(
        clock.matches(&json!({"accepted": 1790035200u64})),
        Some(Language::Shared)
    );
    assert_eq!(
        clock.matches(&json!({"accepted": 1790035200.0})),
        Some(Language::Shared)
    );
    assert_eq!(clock.matches(&json!({"accepted": 1790035201u64})), None);
    assert_eq!(
        clock.matches(&json!({"accepted": 1790035200u64, "more": 1})),
        None
    );
}

#[test]
fn the_format_rules_are_checked() {
    let dir = std::env::temp_dir().join(format!("rust-fixture-ruletable-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let refused = [
        (r#"{"cases": []}"#, "\"cases\" must be a non-empty array"),
        (r#"{"cases": 1}"#, "\"cases\" must be a non-empty array"),
        (
            r#"{"cases": [{"expect": {}}]}"#,
            "every case needs a name of its own, not \"\"",
        ),
        (
            r#"{"cases": [{"name": "a", "expect": {}}, {"name": "a", "expect": {}}]}"#,
            "every case needs a name of its own, not \"a\"",
        ),
        (
            r#"{"cases": [{"name": "a"}]}"#,
            "case \"a\" needs exactly one of expect, expect_by_language",
        ),
        (
            r#"{"cases": [{"name": "a", "expect": {}, "expect_by_language": {}}]}"#,
            "case \"a\" needs exactly one of expect, expect_by_language",
        ),
        (
            r#"{"cases": [{"name": "a", "expect": {}, "difference": "x"}]}"#,
            "case \"a\" has a difference but one verdict",
        ),
        (
            r#"{"cases": [{"name": "a", "expect_by_language": {"java": {"x": 1}, "typescript": {"x": 1}}, "difference": "d"}]}"#,
            "case \"a\" needs two different verdicts and a difference",
        ),
        (
            r#"{"cases": [{"name": "a", "expect_by_language": {"java": {"x": 1}, "typescript": {"x": 2}}, "difference": " "}]}"#,
            "case \"a\" needs two different verdicts and a difference",
        ),
        (
            r#"{"cases": [{"name": "a", "expect_by_language": {"java": {"x": 1}, "typescript": {"x": 2}, "go": {}}, "difference": "d"}]}"#,
            "case \"a\" needs two different verdicts and a difference",
        ),
        ("[]", "not an object"),
    ];
    for (i, (text, message)) in refused.iter().enumerate() {
        let path = write(&dir, &format!("t{i}.json"), text);
        let err = ruletable::load_path(&path).unwrap_err().to_string();
        assert_eq!(err, format!("{}: {message}", path.display()), "{text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_repository_is_found_above_a_folder() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let root = ruletable::root_above(&crate_dir.join("src")).unwrap();
    assert!(
        root.join("vectors")
            .join("rules")
            .join("tools.json")
            .is_file()
    );
    let err = ruletable::root_above(Path::new("/")).unwrap_err();
    assert_eq!(err.to_string(), "no vectors/rules above /");
}
