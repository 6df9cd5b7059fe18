//! The target interface: how a backend hands its operations, rules and costs to the optimizer.
//!
//! The optimizer knows nothing about any particular GPU. A target supplies
//!
//! - its own pure operations ([`CustomOpDef`]s with evaluation functions, so constant folding,
//!   the interpreter and the rule checks handle them like table operations),
//! - its rules (usually the generic ones plus lowerings to its operations), and
//! - a cost for every e-node (latency and issue cost, free modifiers, cheaper 16-bit forms).
//!
//! [`GenericTarget`] is the target-less configuration: generic rules and the generic cost model.

use super::analysis::Facts;
use super::cost::{generic_cost, OpCost};
use super::language::Node;
use super::rules::{generic_rules, Rule};
use crate::ir::{CustomOpDef, OpRegistry};

/// A compilation target as the optimizer sees it.
pub trait Target: Sync {
    /// A short name for reports.
    fn name(&self) -> &'static str;

    /// The target's own operations.
    fn ops(&self) -> &[&'static CustomOpDef];

    /// The rules to saturate with (built once; targets keep them).
    fn rules(&self) -> &[Rule];

    /// The cost of an e-node whose e-class has `facts`.
    fn cost(&self, node: &Node, facts: &Facts) -> OpCost;

    /// The budgets of the control-flow passes (unrolling, if-conversion) on this target.
    fn passes(&self) -> crate::passes::PassConfig {
        crate::passes::PassConfig::default()
    }

    /// A registry of the target's operations (for parsing rules and IR text).
    fn registry(&self) -> OpRegistry {
        OpRegistry::with(self.ops())
    }
}

/// No particular target: the generic rules and cost model.
pub struct GenericTarget {
    rules: Vec<Rule>,
}

impl GenericTarget {
    /// Builds the generic rule set.
    pub fn new() -> GenericTarget {
        GenericTarget {
            rules: generic_rules(),
        }
    }
}

impl Default for GenericTarget {
    fn default() -> Self {
        GenericTarget::new()
    }
}

impl Target for GenericTarget {
    fn name(&self) -> &'static str {
        "generic"
    }

    fn ops(&self) -> &[&'static CustomOpDef] {
        &[]
    }

    fn rules(&self) -> &[Rule] {
        &self.rules
    }

    fn cost(&self, node: &Node, facts: &Facts) -> OpCost {
        generic_cost(node, facts)
    }
}
