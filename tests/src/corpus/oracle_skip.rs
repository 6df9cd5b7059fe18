//! How the oracle tests skip: without their oracle (lavapipe, softpipe, the SPIR-V tools) they
//! pass with a visible `SKIPPED:` line, except in CI, where a missing oracle is a failure.

use std::io::Write;

/// Whether oracle tests must fail rather than skip when their oracle is missing: true when the
/// environment variable `CI` is `true` or `1` (as CI services and `.ci/run` set it).
pub fn oracle_required() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
}

/// Writes `line` to the process's stderr directly: libtest captures `print!`/`eprint!` of
/// passing tests, and a skip or a run summary must be seen.
pub fn announce(line: &str) {
    let _ = writeln!(std::io::stderr(), "{line}");
}
