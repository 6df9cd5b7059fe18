//! The G13 as the optimizer's target.
//!
//! [`G13Target`] hands the optimizer (`agxc_egraph::opt`) what it needs to know about the G13:
//!
//! - [`ops`]: the G13's own pure operations (`g13.sin_pt_1`, `g13.sin_pt_2`, `g13.rsqrt_special`,
//!   and `fmadd`/`fadd`/`fmul` with the saturate modifier), with evaluation functions;
//! - [`cmpsel`]: compare-and-select (`g13.fcmpsel_lt`, `g13.icmpsel_ult`, ...: one instruction
//!   for `select(cmp(a, b), x, y)`), its operations and fusion rules;
//! - [`rules`]: the generic rules plus lowerings to those operations (sin and cos through the
//!   sine unit, sqrt through `rsqrt_special`, fract through floor), modifier fusions and the
//!   compare-and-select fusions;
//! - [`divide`]: integer division by a variable through the integer reciprocal estimate
//!   `g13.urcp`, and exactly rounded f32 division through `rcp` and one correction, as rules;
//! - [`imadd`]: integer multiply-add (`g13.imadd`);
//! - [`cost`]: latency and issue cost per e-node from docs/g13.md's latency table;
//! - [`passes`]: the budgets of the control-flow passes (unrolling, if-conversion) from the
//!   cost of the G13's execution-mask code.
//!
//! ```
//! use agxc_backend_agx::target::G13Target;
//! use agxc_egraph::opt::probe;
//!
//! let g13 = G13Target::new();
//! let s = probe::best(&g13, "(sqrt ?x)").unwrap();
//! assert_eq!(s, "(fmul ?x (g13.rsqrt_special ?x))");
//! let s = probe::best(&g13, "(select (flt ?a ?b) ?x:i32 ?y:i32)").unwrap();
//! assert_eq!(s, "(g13.fcmpsel_lt ?a ?b ?x ?y)");
//! ```

pub mod cmpsel;
pub mod cost;
pub mod divide;
pub mod imadd;
pub mod ops;
pub mod passes;
pub mod rules;

#[cfg(test)]
mod tests;

use agxc_egraph::ir::CustomOpDef;
use agxc_egraph::opt::rules::{generic_rules_with_room, Rule};
use agxc_egraph::opt::{Facts, Node, OpCost, Target};
use agxc_egraph::passes::PassConfig;

/// The Apple G13 GPU.
pub struct G13Target {
    rules: Vec<Rule>,
}

impl G13Target {
    /// Builds the rule set (generic rules, then the G13's).
    pub fn new() -> G13Target {
        // Room for the G13's own rules (about 40) after the generic ones.
        let mut rules = generic_rules_with_room(64);
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

    fn passes(&self) -> PassConfig {
        passes::config()
    }
}
