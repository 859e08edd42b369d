//! Records the compiler's version for fingerprint-bench's report: Rust has no runtime to ask at run time.

use std::env;
use std::process::Command;

fn main() {
    let rustc = env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let version = Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .filter(|output| output.status.success())
        .and_then(|output| String::from_utf8(output.stdout).ok())
        .map(|text| text.trim().to_owned())
        .unwrap_or_else(|| "rustc (version unknown)".to_owned());
    println!("cargo::rustc-env=RUST_FIXTURE_RUSTC_VERSION={version}");
    println!("cargo::rerun-if-changed=build.rs");
}
