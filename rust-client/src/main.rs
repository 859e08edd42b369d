//! `rust-client SCRIPT RECORDS`. Exit 0: every step attempted; 2: a script the driver cannot read (one stderr line,
//! nothing started, no records file); 1: a defect of the driver itself. Stdout is unused: logs go to stderr.

use std::ffi::OsString;
use std::fs::OpenOptions;
use std::panic::{self, AssertUnwindSafe};
use std::process::ExitCode;
use std::time::Instant;

use rust_client::records::RecordFile;
use rust_client::run::Run;
use rust_client::script;

fn main() -> ExitCode {
    let started = Instant::now();
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    // A panic is a driver defect: exit 1 as the contract says, not the runtime's 101 (the hook has printed it).
    panic::catch_unwind(AssertUnwindSafe(|| drive(&args, started))).unwrap_or_else(|_| {
        eprintln!("rust-client: driver defect: panicked");
        ExitCode::from(1)
    })
}

fn drive(args: &[OsString], started: Instant) -> ExitCode {
    let [script_path, records_path] = args else {
        eprintln!("usage: rust-client SCRIPT RECORDS");
        return ExitCode::from(2);
    };
    let text = match std::fs::read(script_path) {
        Ok(text) => text,
        Err(error) => {
            eprintln!("script error: cannot read {} ({error})", script_path.to_string_lossy());
            return ExitCode::from(2);
        }
    };
    // A variable that is not Unicode keeps its bytes as U+FFFD, which the token check refuses as not printable.
    let lookup = |name: &str| std::env::var_os(name).map(|value| value.to_string_lossy().into_owned());
    let script = match script::parse(&text, lookup) {
        Ok(script) => script,
        Err(refused) => {
            eprintln!("{refused}");
            return ExitCode::from(2);
        }
    };
    let records = match OpenOptions::new().append(true).create(true).open(records_path) {
        Ok(file) => RecordFile::new(file),
        Err(error) => {
            eprintln!("rust-client: cannot write the records file: {error}");
            return ExitCode::from(1);
        }
    };
    let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("rust-client: driver defect: no async runtime: {error}");
            return ExitCode::from(1);
        }
    };
    match runtime.block_on(Run::new(script, records, started).play()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("rust-client: driver defect: {error}");
            ExitCode::from(1)
        }
    }
}
