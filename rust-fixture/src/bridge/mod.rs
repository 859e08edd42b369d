//! The fixture's side of the JSON line bridge (`bridge/target/bridge.jar`, docs/typescript-fixture.md "The
//! bridge"): ONE long-lived child, one request line and one answer line at a time, in order, a new child after any
//! machinery failure. A machinery failure (the child died, answered something that is not a bridge reply, or did
//! not answer in time) names the exit status or signal and the child's last stderr line; the bridge's own
//! application errors are ordinary answers. The same protocol and messages as the TypeScript and Go clients.
//!
//! ```text
//! {"op":"apply","operation_id":S,"title":S,"mode":"atomic"|"partial","body":S,"state":{…},"responses":{…}}
//! {"op":"status","operation_id":S}
//! {"op":"create","title":S,"body":S,"responses":{…}}
//! → {"ok":true,"result":{…}}  |  {"ok":false,"error":KIND,"detail":MESSAGE}
//! ```

mod client;
mod command;

pub use client::{
    Answer, ChildExit, Client, DEFAULT_TIMEOUT, EmptyCommand, MachineryFailure, Options,
    StderrSink, process_stderr, read_answer,
};
pub use command::{
    CASE_JVM_OPTIONS, COMMAND_VARIABLE, CommandError, INHERITED, PASSED_TO_BRIDGE,
    STDIO_JVM_OPTIONS, bridge_jar, command, default_command, environment, os_environment,
};
