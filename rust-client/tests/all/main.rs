//! Every integration test of the driver in one test binary: one release link instead of one per file.

mod driver;
mod rules;
mod script;
mod sdk_findings;
