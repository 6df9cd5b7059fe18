//! Property (2): random programs compiled for the G13 at -O0 and -O2 and run in the simulator
//! compute what the reference interpreter computes, within the G13 error model's tolerances
//! (see `agxc_tests::equiv`).

use agxc_egraph::ir::arbitrary::Config;
use agxc_tests::equiv::{run, OptLevel, Property, Settings, Summary};
use std::io::Write;

/// Programs per CI run at each level.
const CASES: u64 = 2000;

fn config() -> Config {
    Config {
        textures: true,
        ..Config::default()
    }
}

fn finish(summary: &Summary) {
    let _ = writeln!(std::io::stderr(), "{summary}");
    if let Some(e) = &summary.first_harness_error {
        panic!("the harness could not check a case: {e}");
    }
    if let Some(c) = &summary.counterexample {
        panic!("{}", c.report);
    }
    assert_eq!(summary.mismatches, 0);
    assert_eq!(summary.harness_errors, 0);
}

#[test]
fn backend_at_o0_matches_the_interpreter() {
    finish(&run(
        Property::Backend(OptLevel::O0),
        &config(),
        &Settings::from_env(CASES),
    ));
}

#[test]
fn backend_at_o2_matches_the_interpreter() {
    finish(&run(
        Property::Backend(OptLevel::O2),
        &config(),
        &Settings::from_env(CASES),
    ));
}
