//! The Rust SDK (`rmcp`) client driver of the Continuation Replay Lab (docs/client-drivers.md): it reads a step
//! script and writes one client record per step.

pub mod records;
pub mod run;
pub mod script;
