use std::collections::HashMap;

use rust_fixture::config::{self, Config, DEFAULT_HTTP_READ_TIMEOUT_MS, Fault};
use rust_fixture::ruletable::{self, Language};
use serde_json::{Value, json};

type Env = HashMap<String, String>;

fn lookup(env: &Env) -> impl Fn(&str) -> Option<String> + '_ {
    |name| env.get(name).cloned()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// What the shared table says a variable reads as: the string, the seconds, the key as lowercase hex, the
/// fault's name or null for none.
fn verdict(c: &Config, variable: &str) -> Value {
    match variable {
        config::SERVER_DB => json!(c.database),
        config::BACKEND_ID => json!(c.backend_id),
        config::PRINCIPAL => json!(c.principal),
        config::CLOCK_EPOCH => json!(c.clock_epoch),
        config::AUTHORITY_TTL => json!(c.authority_ttl),
        config::REPLAY_RETENTION_TTL => json!(c.replay_retention_ttl),
        config::REQUEST_STATE_TTL => json!(c.request_state_ttl),
        config::STATE_KEY_HEX => json!(hex(c.state_key.as_bytes())),
        config::FINGERPRINT_KEY_HEX => json!(hex(c.fingerprint_key.as_bytes())),
        config::FAULT => json!(c.fault.map(Fault::name)),
        other => panic!("no verdict for {other}"),
    }
}

fn base(table: &ruletable::Table) -> Env {
    table.root["base"]
        .as_object()
        .expect("base")
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().expect("a string").to_owned()))
        .collect()
}

#[test]
fn every_case_of_the_shared_rule_table() {
    let table = ruletable::load("trusted-environment.json").unwrap();
    assert!(table.cases.len() >= 100, "only {} cases", table.cases.len());
    let mut failures = Vec::new();
    for case in &table.cases {
        let mut env = base(&table);
        let variable = case.row["variable"].as_str().unwrap();
        if case.row.get("unset").and_then(Value::as_bool) == Some(true) {
            env.remove(variable);
        } else {
            env.insert(
                variable.to_owned(),
                case.row["value"].as_str().unwrap().to_owned(),
            );
        }
        let got = match config::read(lookup(&env)) {
            Ok(read) => json!({"accepted": verdict(&read, variable)}),
            Err(e) => json!({"error": e.to_string()}),
        };
        if case.matches(&got) != Some(Language::Shared) {
            failures.push(format!(
                "{}: got {got}, want {:?}",
                case.name, case.expected
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The bridge opens a PostgreSQL ledger itself; with WIRE_LEDGER_URL the fixture needs no WIRE_SERVER_DB.
#[test]
fn a_ledger_url_takes_the_place_of_the_server_db() {
    let table = ruletable::load("trusted-environment.json").unwrap();
    let mut env = base(&table);
    env.remove(config::SERVER_DB);
    let err = config::read(lookup(&env)).unwrap_err();
    assert_eq!(err.to_string(), "WIRE_SERVER_DB is required");
    env.insert(
        config::LEDGER_URL.into(),
        "jdbc:postgresql://127.0.0.1:5432/ledgers".into(),
    );
    let read = config::read(lookup(&env)).unwrap();
    assert_eq!(read.database, None);
    env.insert(config::SERVER_DB.into(), "/tmp/kept.sqlite3".into());
    assert_eq!(
        config::read(lookup(&env)).unwrap().database.as_deref(),
        Some("/tmp/kept.sqlite3")
    );
    // an empty URL names no ledger
    env.insert(config::LEDGER_URL.into(), String::new());
    env.remove(config::SERVER_DB);
    assert_eq!(
        config::read(lookup(&env)).unwrap_err().to_string(),
        "WIRE_SERVER_DB is required"
    );
}

fn http_environment(extra: &[(&str, &str)]) -> Env {
    let mut env: Env = [
        (config::SERVER_DB, "/tmp/x.sqlite3".to_owned()),
        (config::BACKEND_ID, "b".to_owned()),
        (config::CLOCK_EPOCH, "1790035200".to_owned()),
        (config::AUTHORITY_TTL, "300".to_owned()),
        (config::REPLAY_RETENTION_TTL, "360".to_owned()),
        (config::REQUEST_STATE_TTL, "600".to_owned()),
        (config::STATE_KEY_HEX, "ab".repeat(32)),
        (config::FINGERPRINT_KEY_HEX, "cd".repeat(32)),
        (config::BEARER_TOKENS_FILE, "/tmp/tokens.json".to_owned()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v))
    .collect();
    for (k, v) in extra {
        env.insert((*k).to_owned(), (*v).to_owned());
    }
    env
}

#[test]
fn http_mode_reads_its_own_variables_and_needs_no_principal() {
    let env = http_environment(&[]);
    let (c, h) = config::read_http(lookup(&env), false).unwrap();
    assert_eq!(c.principal, None);
    assert_eq!(h.tokens_file.as_deref(), Some("/tmp/tokens.json"));
    assert_eq!(h.read_timeout_ms, DEFAULT_HTTP_READ_TIMEOUT_MS);

    let env = http_environment(&[(config::FAULT, "close-after-commit")]);
    assert_eq!(
        config::read_http(lookup(&env), false).unwrap().0.fault,
        Some(Fault::CloseAfterCommit)
    );

    let env = http_environment(&[
        (config::BEARER_TOKENS_FILE, ""),
        (config::HTTP_READ_TIMEOUT_MS, "2.5e3"),
    ]);
    let (_, h) = config::read_http(lookup(&env), true).unwrap();
    assert_eq!(h.tokens_file, None);
    assert_eq!(h.read_timeout_ms, 2500);

    for ((name, value), message) in [
        (
            (config::BEARER_TOKENS_FILE, ""),
            "WIRE_BEARER_TOKENS_FILE is required",
        ),
        (
            (config::FAULT, "crash"),
            "WIRE_FAULT must be one of [drop-after-commit, exit-after-ledger-insert, exit-after-issue-insert, \
             exit-after-partial-first-commit, close-after-commit]",
        ),
        (
            (config::HTTP_READ_TIMEOUT_MS, "0"),
            "WIRE_HTTP_READ_TIMEOUT_MS must be positive",
        ),
        (
            (config::HTTP_READ_TIMEOUT_MS, "-5"),
            "WIRE_HTTP_READ_TIMEOUT_MS must be positive",
        ),
        (
            (config::HTTP_READ_TIMEOUT_MS, "1.5"),
            "WIRE_HTTP_READ_TIMEOUT_MS must be a whole number of milliseconds",
        ),
        (
            (config::HTTP_READ_TIMEOUT_MS, "ten"),
            "WIRE_HTTP_READ_TIMEOUT_MS must be numeric",
        ),
        (
            (config::HTTP_READ_TIMEOUT_MS, "2147483648"),
            "WIRE_HTTP_READ_TIMEOUT_MS is too large",
        ),
        ((config::SERVER_DB, ""), "WIRE_SERVER_DB is required"),
    ] {
        let env = http_environment(&[(name, value)]);
        let got = config::read_http(lookup(&env), false)
            .map(|_| ())
            .map_err(|e| e.to_string());
        assert_eq!(got, Err(message.to_owned()), "{name}={value:?}");
    }
    // stdio still refuses the HTTP fault.
    let env = http_environment(&[(config::FAULT, "close-after-commit")]);
    assert!(config::fault_name(lookup(&env)).is_err());
}

#[test]
fn neither_a_refusal_nor_debug_shows_a_key() {
    let table = ruletable::load("trusted-environment.json").unwrap();
    let mut env = base(&table);
    let key = env[config::STATE_KEY_HEX].clone();
    let read = config::read(lookup(&env)).unwrap();
    let shown = format!("{read:?}");
    assert!(
        !shown.contains(&key) && !shown.contains(&key[..16]),
        "{shown}"
    );
    assert!(
        !shown.contains(&env[config::FINGERPRINT_KEY_HEX].to_lowercase()[..16]),
        "{shown}"
    );
    let bad = format!("{key}zz");
    env.insert(config::STATE_KEY_HEX.into(), bad.clone());
    let err = config::read(lookup(&env)).unwrap_err();
    assert_eq!(err.to_string(), "WIRE_STATE_KEY_HEX must be hexadecimal");
    assert!(!format!("{err:?}").contains(&key[..16]));
}
