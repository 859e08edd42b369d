//! Each shared file of `<repository>/vectors/` is read by a test of this crate, or is said not to concern a server
//! fixture: a table added there fails this test until the Rust fixture reads it or says why it does not.

use std::collections::BTreeSet;
use std::path::Path;

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

/// Each shared file and the test (relative to rust-fixture/) that reads it.
const READERS: [(&str, &str); 8] = [
    ("fingerprint_vectors.json", "tests/all/common.rs"),
    ("rules/guarded-arguments.json", "tests/all/guarded.rs"),
    ("rules/input-responses.json", "tests/all/guarded.rs"),
    ("rules/stdio-jvm-options.json", "tests/all/bridge_client.rs"),
    ("rules/case-jvm-options.json", "tests/all/bridge_client.rs"),
    ("rules/strict-frames.json", "tests/all/strict_frames.rs"),
    ("rules/tools.json", "tests/all/process.rs"),
    ("rules/trusted-environment.json", "tests/all/trusted_environment.rs"),
];

const NOT_APPLICABLE: [(&str, &str); 3] = [
    ("portable-continuation-v1.json", "the ledger's policy vectors, judged by the Java ledger behind the bridge"),
    ("rules/status-observation.json", "the recovery rules of a status read-back, held by the Java client code and the checker"),
    ("rules/client-script.json", "the step-script refusals of the client drivers, read by each driver's own tests"),
];

fn shared_files() -> BTreeSet<String> {
    let mut files = BTreeSet::new();
    for folder in ["", "rules/"] {
        for entry in std::fs::read_dir(Path::new(ROOT).join("vectors").join(folder)).unwrap() {
            let name = entry.unwrap().file_name().into_string().unwrap();
            if name.ends_with(".json") {
                files.insert(format!("{folder}{name}"));
            }
        }
    }
    files
}

#[test]
fn every_shared_file_is_read_or_said_not_to_apply() {
    let listed: BTreeSet<String> = READERS.iter().chain(&NOT_APPLICABLE).map(|(file, _)| file.to_string()).collect();
    assert_eq!(shared_files(), listed);
}

#[test]
fn each_reader_names_its_file() {
    for (file, reader) in READERS {
        let source = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(reader)).unwrap();
        let name = file.rsplit('/').next().unwrap();
        assert!(source.contains(name), "{reader} does not name {name}");
    }
}
