//! Property (1): the optimizer preserves what random programs compute, under the reference
//! interpreter, within the tolerances of its error model (see `agxc_tests::equiv`).
//!
//! `AGXC_EQUIV_CASES` sets the programs per test (defaults below), `AGXC_EQUIV_SEED` the first
//! seed.

use agxc_backend_agx::target::G13Target;
use agxc_egraph::ir::arbitrary::Config;
use agxc_egraph::opt::GenericTarget;
use agxc_tests::equiv::{run, ErrorModel, Property, Settings, Summary};
use std::io::Write;

/// Programs per CI run with the generic target.
const GENERIC_CASES: u64 = 3000;

/// Programs per CI run with the G13 target.
const G13_CASES: u64 = 3000;

/// Everything the generator has: textures, i64, all operation families, nesting, exits.
fn config() -> Config {
    Config {
        textures: true,
        i64: true,
        ..Config::default()
    }
}

/// Prints the summary past the test harness's output capture, and fails on any mismatch or
/// harness error.
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
fn optimizer_with_the_generic_target_preserves_semantics() {
    let target = GenericTarget::new();
    let property = Property::Optimizer {
        target: &target,
        model: ErrorModel::GENERIC_OPT,
    };
    finish(&run(property, &config(), &Settings::from_env(GENERIC_CASES)));
}

#[test]
fn optimizer_with_the_g13_target_preserves_semantics() {
    let target = G13Target::new();
    let property = Property::Optimizer {
        target: &target,
        model: ErrorModel::G13_OPT,
    };
    finish(&run(property, &config(), &Settings::from_env(G13_CASES)));
}
