//! A deliberately wrong rewrite rule, planted in one optimizer run, is caught by property (1)
//! and shrunk to a counterexample of a few instructions.

use agxc_egraph::ir::arbitrary::{Config, Family};
use agxc_egraph::ir::PureOp;
use agxc_egraph::opt::rules::RuleSpec;
use agxc_egraph::opt::GenericTarget;
use agxc_tests::equiv::extra_rules::WithRules;
use agxc_tests::equiv::{run, ErrorModel, Property, Settings};

/// Programs per wrong rule: with six float operations, a few percent of them use the rule
/// where it changes the result.
const CASES: u64 = 300;

/// Plants `wrong` in the generic target, runs property (1) on the same seeds every time, and
/// checks the first failure shrinks to at most six instructions that still contain `op`, which
/// the optimized program no longer has in that form.
fn caught_and_shrunk(wrong: RuleSpec, op: &str) {
    let base = GenericTarget::new();
    let target = WithRules::new(&base, &[wrong], wrong.name).unwrap();
    let property = Property::Optimizer {
        target: &target,
        model: ErrorModel::GENERIC_OPT,
    };
    // A few float operations only (and loads, constants, control flow), so that the planted
    // rule's operation is common and its operands are often computed values rather than
    // constants (which constant folding would take first).
    const KEPT: [PureOp; 6] = [
        PureOp::Fadd,
        PureOp::Fsub,
        PureOp::Fmul,
        PureOp::Fmin,
        PureOp::Fmax,
        PureOp::Fneg,
    ];
    let config = Config {
        families: vec![Family::FloatArith],
        exclude: PureOp::ALL
            .iter()
            .copied()
            .filter(|op| Family::of(*op) == Family::FloatArith && !KEPT.contains(op))
            .collect(),
        ..Config::default()
    };
    let mut settings = Settings::from_env(CASES);
    settings.cases = CASES;
    settings.seed = 1;
    // Expected failures: keep their reports apart from real ones.
    settings.dir = settings.dir.join("planted-rules");
    let summary = run(property, &config, &settings);
    summary.print();
    let c = summary
        .counterexample
        .unwrap_or_else(|| panic!("`{}` changes no program's output", wrong.name));
    let before = c.failure.reference.to_string();
    let after = c
        .failure
        .optimized
        .as_ref()
        .expect("the optimizer ran")
        .to_string();
    eprintln!(
        "`{}` shrunk to {} instructions:\n{before}\noptimized:\n{after}",
        wrong.name,
        c.case.recipe.body_insts()
    );
    let m = c.failure.mismatch.expect("the failure is a mismatch");
    assert_ne!(m.expected.bits(), m.got.bits());
    assert!(before.contains(op), "{before}");
    assert!(c.case.recipe.body_insts() <= 6, "{before}");
}

/// `fmin(a, b) == a` is false whenever `b < a`; its right side is cheaper, so extraction takes
/// it wherever the rule fires.
#[test]
fn a_wrong_fmin_rule_is_caught_and_shrunk() {
    caught_and_shrunk(
        RuleSpec::new(
            "wrong-fmin-left",
            "fmin(a, b) == a (deliberately wrong: false whenever b < a)",
            "(fmin ?a ?b)",
            "?a",
        ),
        "fmin",
    );
}

/// `x - y == y - x` is false unless `x == y`; both sides cost the same, so it shows only where
/// extraction happens to take the swapped form.
#[test]
fn a_wrong_fsub_rule_is_caught_and_shrunk() {
    caught_and_shrunk(
        RuleSpec::new(
            "wrong-fsub-swap",
            "x - y == y - x (deliberately wrong: false unless x == y)",
            "(fsub ?x ?y)",
            "(fsub ?y ?x)",
        ),
        "fsub",
    );
}
