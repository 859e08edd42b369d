//! Every integration test of the crate in one test binary: one release link instead of one per file, which
//! took most of the test build.

mod bridge_client;
mod canonical;
mod canonical_reference;
mod catalogue;
mod cli;
mod common;
mod conformance;
mod fingerprint_bench;
mod guarded;
mod http;
mod lines;
mod process;
mod rmcp_http_findings;
mod ruletable;
mod sdk_findings;
mod strict_frames;
mod support;
mod trusted_environment;
mod vectors;
