//! The equality-saturation optimizer.
//!
//! Pipeline position: after a front end has built and verified a function, before the backend's
//! instruction selection. [`optimize`] takes a function and a [`Target`] and returns an equivalent
//! function that is cheaper under the target's cost model, with a [`Report`] and optional dumps.
//!
//! ```text
//!  Function ──lower──► skeleton (effects, control flow)      rules (generic + target)
//!      │                  + e-graph of pure values ──saturate──► e-graph'
//!      │                                                            │ extract (DAG, target costs)
//!      └──verify                Function' ◄──elaborate── skeleton + chosen e-nodes
//! ```
//!
//! - [`language`]: the `egg` language, derived from the IR's operation table (no second list).
//! - [`analysis`]: types, constant folding through the IR's evaluation functions, uniformity.
//! - [`skeleton`], [`to_egraph`]: pure nodes float, effects anchor (as in Cranelift's aegraph).
//! - [`rules`]: rules as data, one topic per file, each with its identity and tolerance.
//! - [`runner`]: limits set before the run, backoff scheduling, the report;
//!   [`incremental`]: after the first iteration, rules search only where the e-graph changed;
//!   [`clock`]: the clock `egg` reads, without `quanta`'s calibration per process.
//! - [`cost`], [`extract`]: the cost model and the DAG extractor (egg's tree extractor is the
//!   baseline).
//! - [`elaborate`]: placement (dominating all uses, loop invariants hoisted, sinking into `if`
//!   arms) and emission.
//! - [`steps`]: the optimizer as one ordered list of named steps, which [`optimize`] runs (and
//!   the facade's pipeline runs with dumps and timing spans);
//! - the control-flow passes ([`crate::passes`]) run before saturation and on its result, and a
//!   second round of saturation follows when they changed that result;
//! - [`target`]: what a backend provides; [`dump`]: DOT/SVG dumps and explanations; [`html`]: the
//!   interactive HTML viewer;
//!   [`probe`]: one term in, best term out (one-line rule tests);
//!   [`soundness`]: the rule checker; [`synth`]: generated functions for benchmarks.
//!
//! # Invariants
//! The IR verifies on entry and on exit. If elaboration cannot place an extracted choice (see
//! [`elaborate`]) or the result does not verify, the input is returned unchanged and
//! [`Report::fallback`] says why; the optimizer never returns a function it has not verified.
//!
//! # Dumps
//! [`OptOptions::dump`] requests them: `dot` (the saturated e-graph with the extracted e-nodes
//! marked; truncated at [`DumpOptions::max_dot_nodes`] with a note), `svg` (the same through
//! Graphviz `dot`, an error value when it is not installed) and `explain` (for each listed input
//! value, egg's explanation of why its original computation equals the extracted one; this turns
//! on explanation tracking, which costs time and memory, so only ask when debugging). The report
//! (`Display`) lists per-rule firing counts.
//!
//! ```
//! use agxc_egraph::ir::{AddressSpace, Binding, Builder, EffectOp, Function, MemAccess, PureOp, Stage, Type};
//! use agxc_egraph::opt::{optimize, GenericTarget, OptOptions};
//!
//! let mut f = Function::new("main", Stage::Compute);
//! let mut b = Builder::new(&mut f);
//! let zero = b.i32(0);
//! let ssbo = MemAccess { space: AddressSpace::Storage(Binding::new(0, 0)), offset: 0 };
//! let v = b.effect(EffectOp::Load(ssbo), &[zero], &[Type::F32, Type::F32, Type::F32]);
//! let m = b.pure(PureOp::Fmul, &[v[0], v[1]]);
//! let s = b.pure(PureOp::Fadd, &[m, v[2]]);
//! b.effect(EffectOp::Store(ssbo), &[zero, s], &[]);
//! b.return_();
//!
//! let out = optimize(&f, &GenericTarget::new(), &OptOptions::default()).unwrap();
//! assert!(out.func.to_string().contains("fma"));
//! assert_eq!(out.report.fired("fma-add-mul-left"), 1);
//! ```

pub mod analysis;
pub mod clock;
pub mod cost;
pub mod dump;
pub mod elaborate;
pub mod extract;
pub mod html;
pub mod incremental;
pub mod language;
pub mod probe;
pub mod rules;
pub mod runner;
pub mod skeleton;
pub mod soundness;
pub mod steps;
pub mod synth;
pub mod target;
pub mod term;
pub mod to_egraph;

#[cfg(test)]
mod tests;

pub use analysis::{EGraph, FactAnalysis, Facts};
pub use cost::OpCost;
pub use language::{Kind, Node};
pub use rules::{Rule, RuleSpec, Tolerance};
pub use runner::{Limits, Report, StopReason};
pub use steps::{OptRun, OptStep, STEPS};
pub use target::{GenericTarget, Target};

use crate::ir::{Function, Op, Value, ValueDef, VerifyErrors};
use egg::{Id, RecExpr};
use std::collections::HashMap;

/// Which extractor to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ExtractorKind {
    /// The DAG extractor (shared values paid once).
    #[default]
    Dag,
    /// Tree costs only (the baseline).
    Tree,
}

/// Which dumps to produce.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DumpOptions {
    /// The e-graph as DOT.
    pub dot: bool,
    /// The e-graph as SVG (runs Graphviz).
    pub svg: bool,
    /// The interactive HTML viewer ([`html`]): every e-class, no truncation (turns on
    /// explanation tracking, for the rules that merged each class).
    pub html: bool,
    /// At most this many e-nodes in the DOT/SVG dump.
    pub max_dot_nodes: usize,
    /// Explain, for each of these input values, why its original computation equals the
    /// extracted one (turns on explanation tracking).
    pub explain: Vec<Value>,
    /// The function's text after each control-flow pass ([`crate::passes`]).
    pub passes: bool,
}

impl Default for DumpOptions {
    fn default() -> Self {
        DumpOptions {
            dot: false,
            svg: false,
            html: false,
            max_dot_nodes: dump::DOT_NODE_LIMIT,
            explain: Vec::new(),
            passes: false,
        }
    }
}

/// Options of one optimization.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OptOptions {
    /// Saturation limits.
    pub limits: Limits,
    /// The extractor.
    pub extractor: ExtractorKind,
    /// Requested dumps.
    pub dump: DumpOptions,
    /// Compute float arithmetic the source marked `RelaxedPrecision` in f16 (the
    /// [`relax-precision`](crate::passes::relax) pass, first of the pre-saturation passes).
    /// Off by default: results then match f32 implementations exactly.
    pub relaxed_f16: bool,
}

/// The dumps an optimization produced.
#[derive(Debug, Default)]
pub struct Dumps {
    /// DOT, if requested.
    pub dot: Option<String>,
    /// SVG, if requested (or why it could not be made).
    pub svg: Option<Result<String, dump::DumpError>>,
    /// The HTML viewer's page, if requested.
    pub html: Option<String>,
    /// What the page shows, kept from the last round until the report is complete.
    view: Option<html::View>,
    /// Explanations, per requested value: the flat proof, or why there is none.
    pub explanations: Vec<(Value, String)>,
    /// The function's text after each control-flow pass: (pass name, text), in order.
    pub passes: Vec<(String, String)>,
}

/// The result of [`optimize`].
#[derive(Debug)]
pub struct Optimized {
    /// The optimized function (verified).
    pub func: Function,
    /// What the run did.
    pub report: Report,
    /// Requested dumps.
    pub dumps: Dumps,
}

/// Why optimization failed.
#[derive(Debug, thiserror::Error)]
pub enum OptError {
    /// The input does not verify.
    #[error("optimizer input does not verify: {0}")]
    InvalidInput(VerifyErrors),
    /// The input could not be put into the e-graph.
    #[error("optimizer input: {0}")]
    Lower(#[from] to_egraph::LowerError),
    /// A step ran before the one it needs (a bug in a caller's use of [`STEPS`]).
    #[error("optimizer step `{0}` ran out of order (see agxc_egraph::opt::STEPS)")]
    OutOfOrder(&'static str),
}

/// Optimizes `func` for `target`: the control-flow passes before saturation, saturation,
/// extraction and elaboration, the passes after it and, if they changed anything, a second
/// round (see [`crate::passes`] for why the work is split so).
pub fn optimize(
    func: &Function,
    target: &dyn Target,
    opts: &OptOptions,
) -> Result<Optimized, OptError> {
    let mut run = OptRun::new(func, target, opts)?;
    for step in STEPS {
        (step.run)(&mut run)?;
    }
    run.finish()
}

/// The input's computation of `v` as a term over leaves (how `to_egraph` put it in).
fn original_term(func: &Function, v: Value, expr: &mut RecExpr<Node>) -> Option<Id> {
    let ty = func.value_type(v);
    let leaf = Node::leaf(Kind::Leaf { value: v, ty });
    let node = match func.values[v].def {
        ValueDef::Result(inst, i) => {
            let data = &func.insts[inst];
            match data.op {
                Op::Pure(_) | Op::Custom(_) | Op::Const(_) => {
                    let kids: Option<Vec<Id>> = data
                        .args
                        .iter()
                        .map(|&a| original_term(func, a, expr))
                        .collect();
                    Node::new(Kind::from_op(data.op, ty, data.flags)?, &kids?)
                }
                Op::Effect(op) if skeleton::floats(&op) => {
                    let kids: Option<Vec<Id>> = data
                        .args
                        .iter()
                        .map(|&a| original_term(func, a, expr))
                        .collect();
                    Node::new(
                        Kind::Invariant {
                            op,
                            index: i as u8,
                            ty,
                        },
                        &kids?,
                    )
                }
                _ => leaf,
            }
        }
        _ => leaf,
    };
    Some(expr.add(node))
}

/// The extracted term of class `c`.
fn extracted_term(
    egraph: &EGraph,
    choice: &HashMap<Id, Node>,
    c: Id,
    expr: &mut RecExpr<Node>,
) -> Option<Id> {
    let node = choice.get(&egraph.find(c))?;
    let kids: Option<Vec<Id>> = node
        .children
        .iter()
        .map(|&k| extracted_term(egraph, choice, k, expr))
        .collect();
    Some(expr.add(Node::new(node.kind, &kids?)))
}

pub(super) fn explain(
    func: &Function,
    egraph: &mut EGraph,
    classes: &HashMap<Value, Id>,
    choice: &HashMap<Id, Node>,
    v: Value,
) -> String {
    let Some(&class) = classes.get(&v) else {
        return format!("{v} is not a value of the input function");
    };
    let mut left = RecExpr::default();
    let mut right = RecExpr::default();
    if original_term(func, v, &mut left).is_none() {
        return format!("{v}: no term for its computation");
    }
    if extracted_term(egraph, choice, class, &mut right).is_none() {
        return format!("{v} is not used by the optimized function");
    }
    match (egraph.lookup_expr(&left), egraph.lookup_expr(&right)) {
        (Some(a), Some(b)) if egraph.find(a) == egraph.find(b) => {
            egraph.explain_equivalence(&left, &right).get_flat_string()
        }
        _ => format!("{v}: its terms are not both in the e-graph"),
    }
}
