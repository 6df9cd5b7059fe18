//! The G13 as the optimizer's target.
//!
//! [`G13Target`] hands the optimizer (`agxc_egraph::opt`) what it needs to know about the G13:
//!
//! - [`ops`]: the G13's own pure operations (`g13.sin_pt_1`, `g13.sin_pt_2`, `g13.rsqrt_special`,
//!   and `fmadd`/`fadd`/`fmul` with the saturate modifier), with evaluation functions;
//! - [`rules`]: the generic rules plus lowerings to those operations (sin and cos through the
//!   sine unit, sqrt through `rsqrt_special`, fract through floor) and modifier fusions;
//! - [`cost`]: latency and issue cost per e-node from ERRATA.md's latency table.
//!
//! Compare-and-select (`fcmpsel`/`icmpsel`: compare two values, select one of two others) needs a
//! four-operand signature `(T, T, U, U) -> U` the IR's `Signature` does not have yet; until it
//! does, `select(cmp(a, b), x, y)` stays two IR operations and the cost model prices the
//! comparison as fused into its consumer.
//!
//! ```
//! use agxc_backend_agx::target::G13Target;
//! use agxc_egraph::opt::probe;
//!
//! let g13 = G13Target::new();
//! let s = probe::best(&g13, "(sqrt ?x)").unwrap();
//! assert_eq!(s, "(fmul ?x (g13.rsqrt_special ?x))");
//! ```

pub mod cost;
pub mod ops;
pub mod rules;

#[cfg(test)]
mod tests;

use agxc_egraph::ir::CustomOpDef;
use agxc_egraph::opt::rules::{generic_rules, Rule};
use agxc_egraph::opt::{Facts, Node, OpCost, Target};

/// The Apple G13 GPU.
pub struct G13Target {
    rules: Vec<Rule>,
}

impl G13Target {
    /// Builds the rule set (generic rules, then the G13's).
    pub fn new() -> G13Target {
        let mut rules = generic_rules();
        rules.extend(rules::rules());
        G13Target { rules }
    }
}

impl Default for G13Target {
    fn default() -> Self {
        G13Target::new()
    }
}

impl Target for G13Target {
    fn name(&self) -> &'static str {
        "g13"
    }

    fn ops(&self) -> &[&'static CustomOpDef] {
        &ops::OPS
    }

    fn rules(&self) -> &[Rule] {
        &self.rules
    }

    fn cost(&self, node: &Node, facts: &Facts) -> OpCost {
        cost::cost(node, facts)
    }
}
