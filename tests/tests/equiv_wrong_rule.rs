//! A deliberately wrong rewrite rule, planted in one optimizer run, is caught by property (1)
//! and shrunk to a counterexample of a few instructions.

use agxc_egraph::ir::arbitrary::Config;
use agxc_egraph::opt::rules::RuleSpec;
use agxc_egraph::opt::GenericTarget;
use agxc_tests::equiv::driver::SHRINK_BUDGET;
use agxc_tests::equiv::extra_rules::WithRules;
use agxc_tests::equiv::{run, ErrorModel, Property, Settings};

/// `fmin(a, b) == a` is false whenever `b < a`; the right side is cheaper, so extraction takes
/// it wherever the rule fires.
const WRONG: RuleSpec = RuleSpec::new(
    "wrong-fmin-left",
    "fmin(a, b) == a (deliberately wrong: false whenever b < a)",
    "(fmin ?a ?b)",
    "?a",
);

#[test]
fn a_wrong_rule_is_caught_and_shrunk_to_a_few_instructions() {
    let base = GenericTarget::new();
    let target = WithRules::new(&base, &[WRONG], "generic+wrong-fmin-left").unwrap();
    let property = Property::Optimizer {
        target: &target,
        model: ErrorModel::GENERIC_OPT,
    };
    // Float arithmetic and loads only, so that fmin is common; the same seeds every run.
    let config = Config {
        families: vec![agxc_egraph::ir::arbitrary::Family::FloatArith],
        ..Config::default()
    };
    let mut settings = Settings::from_env(200);
    settings.cases = 200;
    settings.seed = 1;
    let summary = run(property, &config, &settings);
    eprintln!("{summary}");
    let c = summary
        .counterexample
        .expect("the wrong rule changes some program's output");
    assert!(summary.mismatches > 0);
    let m = c.failure.mismatch.expect("the failure is a mismatch");
    eprintln!(
        "shrunk within {SHRINK_BUDGET} checks to {} statements:\n{}",
        c.case.recipe.size(),
        c.failure.reference
    );
    // The optimized program has lost the fmin: it is the shrunk program's only difference.
    let before = c.failure.reference.to_string();
    let after = c.failure.optimized.expect("the optimizer ran").to_string();
    assert!(before.contains("fmin"), "{before}");
    assert!(!after.contains("fmin"), "{after}");
    // The counterexample is small: a couple of loads or constants and the fmin.
    assert!(c.case.recipe.body_insts() <= 6, "{before}");
    assert!(m.expected != m.got);
}
