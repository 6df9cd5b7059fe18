//! Every SPIR-V corpus case lifted by agxc's SPIR-V front end, verified, run in the reference
//! interpreter and compared with lavapipe's recorded outputs within the case's tolerances.
//!
//! No GPU or driver is needed: the recordings in `tests/corpus/spirv/*/expected/` are the
//! oracle (`lavapipe_recheck` keeps them honest where lavapipe is installed). The test prints a
//! table with one line per case and the summary `interp vs lavapipe: N passed, M failed`, and
//! passes only if every case passes except those in [`KNOWN_DIFFERENCES`]. Run a subset with
//! `AGXC_CASES=case1,case2`.

use std::io::Write;

use agxc_tests::run::{run_corpus, Interpreter, KnownDifference, Language, Table, CASES_ENV};

/// Cases allowed to fail, each with the reason. An entry is either an oracle behaviour no
/// tolerance can express (a rounding difference gets a tolerance in the case, with its
/// reason, instead) or a bug reported to the owner of the front end or interpreter, named
/// here until it is fixed. An entry for a case that passes fails the test, so the list
/// cannot go stale.
const KNOWN_DIFFERENCES: &[KnownDifference] = &[];

/// Writes to the process's stderr directly: libtest captures `eprint!` of passing tests.
fn announce(text: &str) {
    let _ = writeln!(std::io::stderr(), "{text}");
}

#[test]
fn interpreter_matches_lavapipe_recordings() {
    let only = std::env::var(CASES_ENV).ok();
    let run = run_corpus(Language::Spirv, &Interpreter::new(), only.as_deref())
        .expect("the SPIR-V corpus loads");
    assert!(!run.reports.is_empty(), "no SPIR-V corpus case was run");
    announce(&Table(&run.reports).to_string());
    let verdict = run.judge(KNOWN_DIFFERENCES);
    announce(&format!(
        "interp vs lavapipe: {} passed, {} failed",
        verdict.passed, verdict.failed
    ));
    assert!(verdict.ok(), "{verdict}");
}
