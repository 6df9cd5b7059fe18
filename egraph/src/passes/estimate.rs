//! A static size estimate of a function in the target's machine instructions, for the
//! unroller's profitability test.
//!
//! Pure operations cost their issue cycles ([`inst_cost`](super::inst_cost)), counted once per
//! distinct computation (the e-graph shares identical ones, so the copies of a loop-invariant
//! value in an unrolled loop cost once); constants are free. Control flow costs what the
//! target's [`SizeModel`] says its execution-mask code and copies cost.

use super::edit::const_of;
use crate::ir::{Block, EffectOp, Function, Inst, InstFlags, Op, Value, ValueDef};
use crate::opt::Target;
use rustc_hash::FxHashMap as HashMap;

/// What the target's control-flow code costs, in machine instructions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SizeModel {
    /// An `if` (push, else, pop).
    pub if_cost: f64,
    /// A loop (push, back edge, pop and the skip over it).
    pub loop_cost: f64,
    /// A `break` or `continue` from inside an `if`, or a `return`/`discard`.
    pub exit_cost: f64,
    /// A value moved into place: a loop parameter's initial and next values, an `if` or loop
    /// result at each `yield` or `break`.
    pub copy_cost: f64,
    /// A memory access, sample or other effect.
    pub effect_cost: f64,
    /// Each operand of a texture-unit operation (sample, fetch, storage-image access), which
    /// the target reads from a run of consecutive registers that copies must build.
    pub texture_operand_cost: f64,
}

impl Default for SizeModel {
    fn default() -> Self {
        SizeModel {
            if_cost: 3.0,
            loop_cost: 5.0,
            exit_cost: 2.0,
            copy_cost: 1.0,
            effect_cost: 1.0,
            texture_operand_cost: 1.0,
        }
    }
}

/// The estimate for `f` (see the module docs).
pub fn estimate(f: &Function, target: &dyn Target, model: &SizeModel) -> f64 {
    estimate_part(f, target, model, None)
}

/// The estimate for instruction `i` alone (a loop and everything in it), as if the rest of the
/// function did not exist (nothing outside it is shared).
pub fn estimate_inst(f: &Function, target: &dyn Target, model: &SizeModel, i: Inst) -> f64 {
    estimate_part(f, target, model, Some(i))
}

fn estimate_part(f: &Function, target: &dyn Target, model: &SizeModel, i: Option<Inst>) -> f64 {
    let mut e = Estimator {
        f,
        target,
        model,
        canon: HashMap::default(),
        seen: HashMap::default(),
        total: 0.0,
    };
    match i {
        Some(i) => e.inst(i, 0),
        None => e.block(f.entry, 0),
    }
    e.total
}

type Key = (Op, InstFlags, Vec<Value>);

struct Estimator<'a> {
    f: &'a Function,
    target: &'a dyn Target,
    model: &'a SizeModel,
    /// Each value's representative among identical computations.
    canon: HashMap<Value, Value>,
    seen: HashMap<Key, Value>,
    total: f64,
}

impl Estimator<'_> {
    fn canon(&self, v: Value) -> Value {
        if let Some(c) = const_of(self.f, v) {
            // Equal constants are one value.
            return self.const_rep(c).unwrap_or(v);
        }
        self.canon.get(&v).copied().unwrap_or(v)
    }

    fn const_rep(&self, c: crate::ir::Const) -> Option<Value> {
        self.seen
            .get(&(Op::Const(c), InstFlags::NONE, Vec::new()))
            .copied()
    }

    /// `ifs`: how many `if`s of the innermost loop enclose the block (a `continue` at the end of
    /// a loop body needs no code; every other exit does).
    fn block(&mut self, b: Block, ifs: usize) {
        for &i in &self.f.blocks[b].insts {
            self.inst(i, ifs);
        }
    }

    fn inst(&mut self, i: Inst, ifs: usize) {
        let f = self.f;
        let m = self.model;
        {
            let data = &f.insts[i];
            match data.op {
                Op::Const(c) => {
                    let key = (Op::Const(c), InstFlags::NONE, Vec::new());
                    let r = data.results[0];
                    self.seen.entry(key).or_insert(r);
                }
                Op::Pure(_) | Op::Custom(_) => self.pure(i),
                Op::Effect(op) if crate::opt::skeleton::floats(&op) => self.pure(i),
                Op::Effect(op) => {
                    self.total += m.effect_cost;
                    if matches!(
                        op,
                        EffectOp::Sample(_)
                            | EffectOp::Fetch(_)
                            | EffectOp::ImageLoad(_)
                            | EffectOp::ImageStore(_)
                    ) {
                        self.total += m.texture_operand_cost * data.args.len() as f64;
                    }
                }
                Op::If => {
                    self.total += m.if_cost;
                    for &arm in &data.blocks {
                        self.block(arm, ifs + 1);
                    }
                }
                Op::Loop => {
                    self.total += m.loop_cost + m.copy_cost * 2.0 * data.args.len() as f64;
                    self.block(data.blocks[0], 0);
                }
                Op::Yield | Op::Break | Op::Continue => {
                    self.total += m.copy_cost * data.args.len() as f64;
                    if data.op == Op::Break || (data.op == Op::Continue && ifs > 0) {
                        self.total += m.exit_cost;
                    }
                }
                Op::Return | Op::Discard => self.total += m.exit_cost,
            }
        }
    }

    fn pure(&mut self, i: Inst) {
        let data = &self.f.insts[i];
        let args: Vec<Value> = data.args.iter().map(|&a| self.canon(a)).collect();
        let key = (data.op, data.flags, args);
        let r = data.results[0];
        match self.seen.get(&key) {
            Some(&rep) => {
                for (k, &res) in data.results.iter().enumerate() {
                    let rep_k = match self.f.values[rep].def {
                        ValueDef::Result(ri, _) => self.f.insts[ri].results[k],
                        _ => rep,
                    };
                    self.canon.insert(res, rep_k);
                }
            }
            None => {
                self.seen.insert(key, r);
                self.total += super::inst_cost(self.target, self.f, i);
            }
        }
    }
}
