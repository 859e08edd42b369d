//! JSON Lines of LogicalRequests on stdin, one digest per line on stdout: the contract of `./lab fingerprint` and
//! the other fixtures' fingerprint CLIs (docs/fingerprint.md, "The CLIs"). Key from
//! CONTINUATION_REPLAY_FINGERPRINT_KEY_HEX. Exit 0, or 2 for a bad key or a bad line; `--keep-going` reports every
//! bad line in place instead of stopping at the first.

use std::env;
use std::io::{self, BufRead, BufWriter, Write};
use std::process::ExitCode;

use rust_fixture::fingerprint::{Key, KeyError, MIN_KEY_BYTES, fingerprint_line, is_blank_line};

const KEY_VARIABLE: &str = "CONTINUATION_REPLAY_FINGERPRINT_KEY_HEX";

/// The key, or a line naming the variable (never its value).
fn key_from_environment() -> Result<Key, String> {
    let value = env::var_os(KEY_VARIABLE).unwrap_or_default();
    if value.is_empty() {
        return Err(format!("{KEY_VARIABLE} is not set"));
    }
    let problem = match value.to_str().map(Key::from_hex) {
        Some(Ok(key)) => return Ok(key),
        Some(Err(KeyError::TooShort)) => format!("must contain at least {MIN_KEY_BYTES} bytes"),
        Some(Err(KeyError::NotEvenLengthHex)) | None => {
            "must be an even-length hexadecimal string".to_owned()
        }
    };
    Err(format!("{KEY_VARIABLE} {problem}"))
}

enum Outcome {
    AllAnswered,
    SomeLineFailed,
}

fn run(
    key: &Key,
    keep_going: bool,
    input: impl BufRead,
    output: impl Write,
    mut errors: impl Write,
) -> io::Result<Outcome> {
    let mut input = input;
    let mut output = BufWriter::new(output);
    let mut line = Vec::new();
    let mut outcome = Outcome::AllAnswered;
    for number in 1u64.. {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            break;
        }
        if line.last() == Some(&b'\n') {
            line.pop();
        }
        if is_blank_line(&line) {
            continue;
        }
        match fingerprint_line(key, &line) {
            Ok(answer) => writeln!(output, "{answer}")?,
            Err(failure) => {
                outcome = Outcome::SomeLineFailed;
                if keep_going {
                    writeln!(output, "{}", failure.in_place())?;
                }
                // The lines before it have been answered before the reason appears.
                output.flush()?;
                writeln!(errors, "line {number}: {failure}")?;
                if !keep_going {
                    break;
                }
            }
        }
    }
    output.flush()?;
    Ok(outcome)
}

fn main() -> ExitCode {
    let mut keep_going = false;
    for arg in env::args_os().skip(1) {
        if arg != "--keep-going" {
            eprintln!(
                "usage: fingerprint-cli [--keep-going] (unknown argument {})",
                arg.to_string_lossy()
            );
            return ExitCode::from(2);
        }
        keep_going = true;
    }
    let key = match key_from_environment() {
        Ok(key) => key,
        Err(problem) => {
            eprintln!("{problem}");
            return ExitCode::from(2);
        }
    };
    match run(
        &key,
        keep_going,
        io::stdin().lock(),
        io::stdout().lock(),
        io::stderr().lock(),
    ) {
        Ok(Outcome::AllAnswered) => ExitCode::SUCCESS,
        Ok(Outcome::SomeLineFailed) => ExitCode::from(2),
        Err(e) => {
            eprintln!("fingerprint-cli: {e}");
            ExitCode::from(1)
        }
    }
}
