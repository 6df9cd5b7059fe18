//! Re-runs every SPIR-V corpus case on lavapipe and compares with the recorded outputs, within
//! each output's tolerance. This keeps the recordings honest: a driver update or a change to
//! the input generators that moves any output shows up here, not as a mysterious agxc failure.
//!
//! Without lavapipe the test prints `SKIPPED: lavapipe not found` and passes, unless `CI=true`,
//! where a missing oracle is a failure.

use std::time::Instant;

use agxc_tests::corpus::{announce, compare_outputs, corpus_dir, load_corpus, oracle_required};
use agxc_tests::lavapipe::{Lavapipe, LavapipeError};

#[test]
fn lavapipe_reproduces_recorded_outputs() {
    let start = Instant::now();
    let cases = load_corpus(&corpus_dir("spirv")).expect("the SPIR-V corpus loads");
    assert!(!cases.is_empty(), "the SPIR-V corpus is empty");
    let lavapipe = match Lavapipe::new() {
        Ok(l) => l,
        Err(LavapipeError::OracleUnavailable(why)) => {
            assert!(
                !oracle_required(),
                "CI=true but lavapipe is unavailable: {why}"
            );
            announce(&format!("SKIPPED: lavapipe not found ({why})"));
            return;
        }
        Err(e) => panic!("setting up lavapipe: {e}"),
    };
    let mut failures = Vec::new();
    for case in &cases {
        let expected = match case.read_expected() {
            Ok(e) => e,
            Err(e) => {
                failures.push(format!("case `{}`: {e}", case.name));
                continue;
            }
        };
        match lavapipe.run(case, &case.inputs()) {
            Ok(actual) => failures.extend(
                compare_outputs(&case.name, &case.output_specs(), &expected, &actual)
                    .iter()
                    .map(ToString::to_string),
            ),
            Err(e) => failures.push(format!("case `{}`: {e}", case.name)),
        }
    }
    announce(&format!(
        "lavapipe recheck: {} cases on {} in {:.2} s, {} mismatches",
        cases.len(),
        lavapipe.device_name(),
        start.elapsed().as_secs_f64(),
        failures.len()
    ));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
