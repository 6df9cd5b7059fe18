//! Control-flow passes on the structured IR, around equality saturation.
//!
//! The e-graph rewrites pure values; control flow is its fixed skeleton ([`crate::opt`]). What
//! the e-graph cannot do to that skeleton, these passes do on the [`Function`] itself:
//!
//! | pass | what it does |
//! |---|---|
//! | [`simplify-cf`](simplify) | constant folding, `if`s on constants, path-independent values, dead values and loop-carried values nobody needs |
//! | [`flatten`](flatten) | loops that never repeat (switches, inlined functions with early returns, unrolled loops) to straight code: exits sunk into the arms that reach them, `break`s to `yield`s |
//! | [`unroll`](unroll) | loops with a known trip count within a budget to copies of their body |
//! | [`if-convert`](ifconv) | small value-only `if`s to selects |
//! | [`relax-precision`](relax) | `RelaxedPrecision` float arithmetic to f16 (only when asked for: [`OptOptions::relaxed_f16`](crate::opt::OptOptions::relaxed_f16)) |
//!
//! # Where they run, and why there
//! [`opt::optimize`](crate::opt::optimize) runs [`PRE_SATURATION`] before building the e-graph
//! and [`POST_SATURATION`] on the extracted function:
//!
//! ```text
//!  [relax-precision] -> simplify-cf -> flatten -> unroll -> if-convert -> simplify-cf  (pre)
//!     -> saturate -> extract -> elaborate
//!  unroll -> flatten -> if-convert -> simplify-cf                     (post)
//!     -> if any of them changed the function: saturate -> extract -> elaborate again
//! ```
//!
//! Unrolling comes before saturation so that the e-graph sees the copies: each knows its
//! counter, so indexing a private array by it (a chain of compares and selects after lifting)
//! folds to one element, and sums over constant ranges fold to constants. The passes fold
//! constants themselves as far as deciding control flow needs (a copy's exit condition), with
//! the same evaluation functions the e-graph uses; everything else is the e-graph's job.
//! If-conversion also runs before saturation, so that selects from small branches take part in
//! rewriting (a select of compares fuses into one `icmpsel`). After saturation the passes run
//! again, since the e-graph's algebra can make a trip count known (a bound it simplified to a
//! constant) or an arm cheap enough to convert; only when that changes something does the
//! function go through saturation a second time, so shaders without such cases pay one cheap
//! walk.
//!
//! # Invariants
//! Each pass keeps the function's meaning for every input (loads and other effects are never
//! duplicated onto a path that did not run them, never speculated, never reordered) and the
//! function verifies after each one: [`run`] checks and reports a pass that broke it.

pub mod dce;
pub(crate) mod edit;
pub mod estimate;
pub mod flatten;
pub mod ifconv;
pub mod relax;
pub mod simplify;
pub mod unroll;

#[cfg(test)]
mod tests;

pub use estimate::SizeModel;
pub use unroll::UnrollBudget;

use crate::ir::{verify, Function, Inst, Op, VerifyErrors};
use crate::opt::language::{Kind, Node};
use crate::opt::{Facts, Target};
use std::time::Instant;

/// A control-flow pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pass {
    /// [`simplify`].
    SimplifyCf,
    /// [`flatten`].
    Flatten,
    /// [`unroll`].
    Unroll,
    /// [`ifconv`].
    IfConvert,
    /// [`relax`].
    RelaxPrecision,
}

impl Pass {
    /// The pass's name in reports and dumps.
    pub fn name(self) -> &'static str {
        match self {
            Pass::SimplifyCf => "simplify-cf",
            Pass::Flatten => "flatten",
            Pass::Unroll => "unroll",
            Pass::IfConvert => "if-convert",
            Pass::RelaxPrecision => "relax-precision",
        }
    }
}

/// The passes before saturation.
pub const PRE_SATURATION: &[Pass] = &[
    Pass::SimplifyCf,
    Pass::Flatten,
    Pass::Unroll,
    Pass::IfConvert,
    Pass::SimplifyCf,
];

/// The passes after extraction.
pub const POST_SATURATION: &[Pass] = &[
    Pass::Unroll,
    Pass::Flatten,
    Pass::IfConvert,
    Pass::SimplifyCf,
];

/// The budgets of the passes, which a target sets from its cost model
/// ([`Target::passes`](crate::opt::Target::passes)).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PassConfig {
    /// Unrolling limits.
    pub unroll: UnrollBudget,
    /// Most issue cycles (the target's [`OpCost::issue`](crate::opt::OpCost)) each arm of an
    /// `if` may cost for if-conversion to run it unconditionally.
    pub if_convert_arm_cost: f64,
    /// The static size model the unroller weighs a loop against its copies with.
    pub size: SizeModel,
}

impl Default for PassConfig {
    /// The generic configuration: NIR-like unrolling limits; arms of up to 16 simple operations.
    fn default() -> Self {
        PassConfig {
            unroll: UnrollBudget::default(),
            if_convert_arm_cost: 16.0,
            size: SizeModel::default(),
        }
    }
}

/// What one pass did.
#[derive(Clone, Debug, PartialEq)]
pub struct PassRun {
    /// Which pass.
    pub pass: Pass,
    /// It changed the function.
    pub changed: bool,
    /// Instructions afterwards.
    pub insts: usize,
    /// Seconds it took.
    pub time: f64,
}

/// A pass left the function ill-formed (a bug; the optimizer then keeps its input).
#[derive(Debug, thiserror::Error)]
#[error("pass `{pass}` produced a function that does not verify: {errors}")]
pub struct PassError {
    /// The pass's name.
    pub pass: &'static str,
    /// What the verifier found.
    pub errors: VerifyErrors,
}

/// Runs `passes` over `f` in order, verifying after each that changed it; appends to `log`
/// and, when `dumps` is given, the function's text after each pass. True if any pass changed
/// the function.
pub fn run(
    f: &mut Function,
    passes: &[Pass],
    target: &dyn Target,
    log: &mut Vec<PassRun>,
    mut dumps: Option<&mut Vec<(String, String)>>,
) -> Result<bool, PassError> {
    let config = target.passes();
    let cost = |func: &Function, i: Inst| inst_cost(target, func, i);
    let mut any = false;
    for &pass in passes {
        let start = Instant::now();
        let changed = match pass {
            Pass::SimplifyCf => simplify::run(f),
            Pass::Flatten => flatten::run(f),
            Pass::Unroll => unroll::run(f, target, &config),
            Pass::IfConvert => ifconv::run(f, &cost, config.if_convert_arm_cost),
            Pass::RelaxPrecision => relax::run(f),
        };
        // A pass that changed nothing left the function that verified before it.
        if changed {
            verify(f).map_err(|errors| PassError {
                pass: pass.name(),
                errors,
            })?;
        }
        any |= changed;
        log.push(PassRun {
            pass,
            changed,
            insts: f.inst_count(),
            time: start.elapsed().as_secs_f64(),
        });
        if let Some(d) = dumps.as_deref_mut() {
            d.push((pass.name().to_string(), f.to_string()));
        }
    }
    Ok(any)
}

/// The target's issue cost of one instruction (what if-conversion speculates): pure and
/// custom operations and invariant reads as the e-graph prices them; constants are free.
pub fn inst_cost(target: &dyn Target, f: &Function, i: Inst) -> f64 {
    let data = &f.insts[i];
    let Some(&r) = data.results.first() else {
        return 0.0;
    };
    let ty = f.value_type(r);
    let kind = match data.op {
        Op::Const(_) => return 0.0,
        Op::Effect(op) => Kind::Invariant { op, index: 0, ty },
        op => match Kind::from_op(op, ty, data.flags) {
            Some(k) => k,
            None => return 0.0,
        },
    };
    let children = vec![egg::Id::from(0usize); data.args.len()];
    let node = Node::new(kind, &children);
    let facts = Facts {
        ty: Some(ty),
        konst: None,
        uniform: false,
    };
    let c = target.cost(&node, &facts).issue;
    if c.is_finite() {
        c
    } else {
        // An operation the target lacks costs what its lowering will: count it as expensive.
        8.0
    }
}
