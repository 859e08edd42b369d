use std::fmt;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::config;

/// Overrides how the fixture starts its bridge: a JSON array of argv strings.
pub const COMMAND_VARIABLE: &str = "LAB_BRIDGE_COMMAND";

/// What the child inherits to find Java.
pub const INHERITED: [&str; 6] = ["PATH", "LANG", "LC_ALL", "TMPDIR", "HOME", "JAVA_HOME"];

/// The `WIRE_*` names the bridge reads. Never the requestState key or the TTLs: the bridge does not mint.
pub const PASSED_TO_BRIDGE: [&str; 10] = [
    config::SERVER_DB,
    config::BACKEND_ID,
    config::PRINCIPAL,
    config::CLOCK_EPOCH,
    config::FINGERPRINT_KEY_HEX,
    config::FAULT,
    config::LEDGER_URL,
    config::LEDGER_USER,
    config::LEDGER_PASSWORD_FILE,
    config::LEDGER_PASSWORD,
];

/// Keep the JVM's own logging off the bridge's stdout, which is its wire (`vectors/rules/stdio-jvm-options.json`).
pub const STDIO_JVM_OPTIONS: [&str; 3] = [
    "-Xlog:disable",
    "-Xlog:all=warning:stderr",
    "-XX:+DisplayVMOutputToStderr",
];

/// A bridge lives as long as its fixture, mostly one case: C1, the serial collector and a small heap
/// (`vectors/rules/case-jvm-options.json`).
pub const CASE_JVM_OPTIONS: [&str; 4] = [
    "-XX:TieredStopAtLevel=1",
    "-XX:+UseSerialGC",
    "-Xmx64m",
    "-XX:-UsePerfData",
];

/// A `LAB_BRIDGE_COMMAND` that is not a non-empty JSON array of non-empty strings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CommandError;

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{COMMAND_VARIABLE} must be a JSON array of strings")
    }
}

impl std::error::Error for CommandError {}

/// Where the Maven build puts the bridge jar under the repository root.
pub fn bridge_jar(repo_root: &Path) -> PathBuf {
    repo_root.join("bridge").join("target").join("bridge.jar")
}

/// `java <stdio options> <case options> -jar <repository>/bridge/target/bridge.jar`, `java` from `JAVA_HOME`
/// when that is set and not empty.
pub fn default_command(repo_root: &Path, getenv: impl Fn(&str) -> Option<String>) -> Vec<String> {
    let java = match getenv("JAVA_HOME").filter(|home| !home.is_empty()) {
        Some(home) => Path::new(&home)
            .join("bin")
            .join("java")
            .to_string_lossy()
            .into_owned(),
        None => "java".to_owned(),
    };
    let mut argv = vec![java];
    argv.extend(
        STDIO_JVM_OPTIONS
            .iter()
            .chain(&CASE_JVM_OPTIONS)
            .map(|o| o.to_string()),
    );
    argv.push("-jar".to_owned());
    argv.push(bridge_jar(repo_root).to_string_lossy().into_owned());
    argv
}

/// `LAB_BRIDGE_COMMAND` when set and not empty, else `default_command`.
pub fn command(
    repo_root: &Path,
    getenv: impl Fn(&str) -> Option<String>,
) -> Result<Vec<String>, CommandError> {
    let Some(configured) = getenv(COMMAND_VARIABLE).filter(|c| !c.is_empty()) else {
        return Ok(default_command(repo_root, getenv));
    };
    let argv: Vec<Value> = serde_json::from_str(&configured).map_err(|_| CommandError)?;
    if argv.is_empty() {
        return Err(CommandError);
    }
    argv.into_iter()
        .map(|a| match a {
            Value::String(s) if !s.is_empty() => Ok(s),
            _ => Err(CommandError),
        })
        .collect()
}

/// The child's whole environment: the allowlisted names that `lookup` finds, in allowlist order.
pub fn environment(lookup: impl Fn(&str) -> Option<String>) -> Vec<(String, String)> {
    INHERITED
        .iter()
        .chain(&PASSED_TO_BRIDGE)
        .filter_map(|name| lookup(name).map(|v| (name.to_string(), v)))
        .collect()
}

/// `environment` of this process.
pub fn os_environment() -> Vec<(String, String)> {
    environment(config::os_env)
}
