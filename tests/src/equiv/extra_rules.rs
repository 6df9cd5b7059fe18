//! A target with extra rules, for tests that plant a rule in one optimizer run (a deliberately
//! wrong one, to show the properties catch it).
//!
//! The optimizer takes its rules from the [`Target`] (`Target::rules`), so wrapping a target
//! is enough; no option of the optimizer is involved.

use agxc_egraph::ir::{CustomOpDef, OpRegistry};
use agxc_egraph::opt::rules::{Rule, RuleError, RuleSpec};
use agxc_egraph::opt::{Facts, Node, OpCost, Target};

/// `base` with `extra` rules after its own.
pub struct WithRules<'t> {
    base: &'t dyn Target,
    rules: Vec<Rule>,
    name: &'static str,
}

impl<'t> WithRules<'t> {
    /// `base` plus the rules `extra` describes (parsed with the base's operations);
    /// `name` names the combination in reports.
    pub fn new(
        base: &'t dyn Target,
        extra: &[RuleSpec],
        name: &'static str,
    ) -> Result<WithRules<'t>, RuleError> {
        let mut rules = base.rules().to_vec();
        rules.extend(Rule::from_specs(extra, &base.registry())?);
        Ok(WithRules { base, rules, name })
    }
}

impl Target for WithRules<'_> {
    fn name(&self) -> &'static str {
        self.name
    }

    fn ops(&self) -> &[&'static CustomOpDef] {
        self.base.ops()
    }

    fn rules(&self) -> &[Rule] {
        &self.rules
    }

    fn cost(&self, node: &Node, facts: &Facts) -> OpCost {
        self.base.cost(node, facts)
    }

    fn registry(&self) -> OpRegistry {
        self.base.registry()
    }
}
