//! Property (1): the optimizer preserves what random programs compute, under the reference
//! interpreter, within the tolerances of its error model (see `agxc_tests::equiv`).
//!
//! `AGXC_EQUIV_CASES` sets the programs per test (defaults below), `AGXC_EQUIV_SEED` the first
//! seed.

use agxc_backend_agx::target::G13Target;
use agxc_egraph::opt::GenericTarget;
use agxc_tests::equiv::case::config;
use agxc_tests::equiv::{run, ErrorModel, Property, Settings};

/// Programs per CI run with the generic target.
const GENERIC_CASES: u64 = 4000;

/// Programs per CI run with the G13 target.
const G13_CASES: u64 = 3000;

#[test]
fn optimizer_with_the_generic_target_preserves_semantics() {
    let target = GenericTarget::new();
    let property = Property::Optimizer {
        target: &target,
        model: ErrorModel::GENERIC_OPT,
    };
    let summary = run(property, &config(true), &Settings::from_env(GENERIC_CASES));
    summary.print();
    summary.assert_clean();
}

#[test]
fn optimizer_with_the_g13_target_preserves_semantics() {
    let target = G13Target::new();
    let property = Property::Optimizer {
        target: &target,
        model: ErrorModel::G13_OPT,
    };
    let summary = run(property, &config(true), &Settings::from_env(G13_CASES));
    summary.print();
    summary.assert_clean();
}
