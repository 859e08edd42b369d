//! The guarded fixture on the official Rust SDK (rmcp): its trusted environment, argument rules, bridge client,
//! shared rule tables, frame gate, requestState, tools and the request fingerprint; HTTP mode and the conformance
//! profile.

pub mod bridge;
pub mod config;
pub mod conformance;
pub mod fingerprint;
pub mod frames;
pub mod guarded;
pub mod httpserve;
pub mod requeststate;
pub mod ruletable;
pub mod server;
pub mod stdio;
pub mod tooltable;
