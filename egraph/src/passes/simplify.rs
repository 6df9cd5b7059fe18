//! `simplify-cf`: the cheap clean-ups every other control-flow pass relies on.
//!
//! - **Constant folding** of pure instructions whose operands are all constants, with the
//!   operation table's own evaluation functions (the e-graph folds the same way; folding here
//!   lets the structural passes see constant conditions: an unrolled copy of a loop body knows
//!   its counter). A `select` on a constant picks its operand.
//! - **Constant conditions**: an `if` on a constant becomes the arm it takes, inlined; when that
//!   arm leaves (`break`, `continue`, `return`, `discard`), what followed the `if` is dead and
//!   goes.
//! - **Values that do not depend on the path**: an `if` result both arms yield alike (the same
//!   value, or equal constants), a loop result every `break` passes alike, and a loop parameter
//!   every `continue` passes unchanged (or passes its initial value) are replaced by that value,
//!   when it is defined outside the construct.
//! - **Code after an `if` whose arms both leave** is dead. The front ends end such blocks
//!   with an unreachable `return`; here one arm moves out of the `if` to take the dead code's
//!   place (the one ending in `continue` if any, so that a loop's back edge ends its body:
//!   `if c { continue } else { break }` becomes `if !c { break }; continue`, a do-while the
//!   backend closes with one `while_*cmp`).
//! - **Dead values** ([`dce`](super::dce)): results, parameters and pure instructions nobody
//!   needs.
//!
//! One-trip loops are the [`flatten`](super::flatten) pass's job.

use super::dce;
use super::edit::{self, const_of, falls, terminator, Subst, Tree};
use crate::ir::{Block, Const, Function, Inst, Op, PureOp, Value, ValueDef};
use cranelift_entity::packed_option::PackedOption;
use cranelift_entity::{EntitySet, SecondaryMap};
use smallvec::SmallVec;

/// Rounds of the clean-ups before giving up on a fixed point (each round is linear; real shaders
/// settle in two or three).
const MAX_ROUNDS: usize = 16;

/// Runs the clean-ups to a fixed point; true if anything changed.
pub fn run(f: &mut Function) -> bool {
    let mut changed = false;
    for _ in 0..MAX_ROUNDS {
        let mut round = fold_constants(f);
        round |= inline_constant_ifs(f);
        round |= lift_exiting_arms(f);
        round |= forward_invariants(f);
        round |= dce::run(f);
        if !round {
            break;
        }
        changed = true;
    }
    changed
}

/// Folds pure instructions on constants; true if any changed.
pub fn fold_constants(f: &mut Function) -> bool {
    let mut insts = Vec::new();
    f.for_each_inst(|_, i| insts.push(i));
    let mut subst = Subst::default();
    let mut changed = false;
    for i in insts {
        let data = &f.insts[i];
        let (op, ty) = match (data.op, data.results.first()) {
            (Op::Pure(_) | Op::Custom(_), Some(&r)) => (data.op, f.value_type(r)),
            _ => continue,
        };
        let args: SmallVec<[Value; 4]> = data.args.iter().map(|&a| subst.resolve(a)).collect();
        if op == Op::Pure(PureOp::Select) {
            if let Some(c) = const_of(f, args[0]) {
                let pick = if c.as_bool() { args[1] } else { args[2] };
                subst.insert(data.results[0], pick);
                changed = true;
                continue;
            }
        }
        let consts: Option<SmallVec<[Const; 4]>> = args.iter().map(|&a| const_of(f, a)).collect();
        let Some(consts) = consts else { continue };
        let c = match op {
            Op::Pure(p) => p.eval(&consts, ty),
            Op::Custom(c) => c.eval(&consts, ty),
            _ => continue,
        };
        let data = &mut f.insts[i];
        data.op = Op::Const(c);
        data.args.clear();
        changed = true;
    }
    subst.apply(f);
    changed
}

/// Inlines the taken arm of every `if` on a constant; true if any.
///
/// Outermost first, in one walk over the `if`s in pre-order: inlining an arm substitutes the
/// `if`'s results, which only instructions after it read, so an `if` passed over stays
/// non-constant, and the substitution can wait until the end (conditions are read through it).
/// The `if`s of a dropped arm, or of code after an arm that leaves, are skipped.
pub fn inline_constant_ifs(f: &mut Function) -> bool {
    let mut ifs: Vec<Inst> = Vec::new();
    let mut block_of: SecondaryMap<Inst, PackedOption<Block>> =
        SecondaryMap::with_capacity(f.insts.len());
    f.for_each_inst(|b, i| {
        if f.insts[i].op == Op::If {
            ifs.push(i);
            block_of[i] = b.into();
        }
    });
    let mut dropped: EntitySet<Inst> = EntitySet::with_capacity(f.insts.len());
    let mut subst = Subst::default();
    let mut folds = Folds::default();
    let mut changed = false;
    for i in ifs {
        if dropped.contains(i) {
            continue;
        }
        let Some(c) = folds.value(f, &subst, f.insts[i].args[0], FOLD_DEPTH) else {
            continue;
        };
        let Some(b) = block_of[i].expand() else {
            continue;
        };
        let [t, e] = [f.insts[i].blocks[0], f.insts[i].blocks[1]];
        let (arm, other) = if c.as_bool() { (t, e) } else { (e, t) };
        drop_subtree(f, &f.blocks[other].insts, &mut dropped);
        // The arm's instructions now sit in `b`.
        for &j in &f.blocks[arm].insts {
            if f.insts[j].op == Op::If {
                block_of[j] = b.into();
            }
        }
        if let Some(tail) = inline_arm_deferred(f, b, i, arm, &mut subst) {
            drop_subtree(f, &tail, &mut dropped);
        }
        changed = true;
    }
    subst.apply(f);
    changed
}

/// How many pure instructions deep [`Folds::value`] looks through for one condition.
const FOLD_DEPTH: u32 = 256;

/// The constants values would fold to, as [`fold_constants`] would fold them, read through the
/// substitution of the `if`s inlined so far in the walk.
///
/// The walk needs them for the copies of an unrolled loop: copy `k`'s exit condition is
/// computed from the values copy `k - 1`'s exit `if` yields, which are constants only once that
/// `if` is inlined and the arithmetic after it folded. Reading the conditions only as constant
/// instructions inlined one copy per round of [`run`], each round walking the whole function
/// (quadratic in the copies: nine rounds for an eight-copy loop); evaluating them here inlines
/// every copy in one walk, with the same choices, and the next round's [`fold_constants`]
/// folds the arithmetic as before.
#[derive(Default)]
struct Folds {
    /// Per value: its constant, or `None` with the substitution's size when it was found not
    /// to fold (a later substitution may make it fold).
    memo: rustc_hash::FxHashMap<Value, (Option<Const>, usize)>,
}

impl Folds {
    fn value(&mut self, f: &Function, subst: &Subst, v: Value, depth: u32) -> Option<Const> {
        let v = subst.resolve(v);
        if let Some(c) = const_of(f, v) {
            return Some(c);
        }
        if let Some(&(known, at)) = self.memo.get(&v) {
            if known.is_some() || at == subst.len() {
                return known;
            }
        }
        if depth == 0 {
            return None;
        }
        let ValueDef::Result(i, _) = f.values[v].def else {
            return None;
        };
        let data = &f.insts[i];
        let folded = match (data.op, data.results.as_slice()) {
            (Op::Pure(PureOp::Select), _) => {
                let c = self.value(f, subst, data.args[0], depth - 1)?;
                let pick = if c.as_bool() {
                    data.args[1]
                } else {
                    data.args[2]
                };
                self.value(f, subst, pick, depth - 1)
            }
            (Op::Pure(_) | Op::Custom(_), &[r]) => {
                let ty = f.value_type(r);
                let args = data.args.clone();
                let mut consts: SmallVec<[Const; 4]> = SmallVec::new();
                for a in args {
                    consts.push(self.value(f, subst, a, depth - 1)?);
                }
                match data.op {
                    Op::Pure(p) => Some(p.eval(&consts, ty)),
                    Op::Custom(c) => Some(c.eval(&consts, ty)),
                    _ => None,
                }
            }
            _ => None,
        };
        self.memo.insert(v, (folded, subst.len()));
        folded
    }
}

/// Marks the `if`s in `insts` and below them as dropped.
fn drop_subtree(f: &Function, insts: &[Inst], dropped: &mut EntitySet<Inst>) {
    let mut stack: Vec<Inst> = insts.to_vec();
    while let Some(i) = stack.pop() {
        if f.insts[i].op == Op::If {
            dropped.insert(i);
        }
        for &c in &f.insts[i].blocks {
            stack.extend_from_slice(&f.blocks[c].insts);
        }
    }
}
/// Moves an arm of each `if` whose arms both leave out in place of the dead code after it;
/// true if any.
pub fn lift_exiting_arms(f: &mut Function) -> bool {
    let mut found = Vec::new();
    f.for_each_inst(|b, i| {
        let data = &f.insts[i];
        if data.op == Op::If
            && f.blocks[b].insts.last() != Some(&i)
            && data.blocks.iter().all(|&a| !falls(f, a))
        {
            found.push((b, i));
        }
    });
    let mut changed = false;
    for (b, x) in found {
        let Some(pos) = edit::position(f, b, x) else {
            continue;
        };
        let [t, e] = [f.insts[x].blocks[0], f.insts[x].blocks[1]];
        let ends_in = |a: Block, op: Op| terminator(f, a).is_some_and(|(_, o)| o == op);
        let lift = if ends_in(t, Op::Continue) && !ends_in(e, Op::Continue) {
            t
        } else {
            e
        };
        let moved = std::mem::take(&mut f.blocks[lift].insts);
        let y = edit::make_inst(f, Op::Yield, &[], &[], &[], crate::ir::InstFlags::NONE);
        f.blocks[lift].insts.push(y);
        edit::set_results(f, x, &[]);
        f.blocks[b].insts.truncate(pos + 1);
        f.blocks[b].insts.extend(moved);
        changed = true;
    }
    changed
}

/// Replaces the `if` `x` in block `b` by its arm `arm`: the arm's instructions take its place; a
/// `yield` becomes the `if`'s results (added to `subst`, for the caller to apply), any other
/// terminator ends `b` and the instructions after the `if`, returned, are dead.
fn inline_arm_deferred(
    f: &mut Function,
    b: Block,
    x: Inst,
    arm: Block,
    subst: &mut Subst,
) -> Option<Vec<Inst>> {
    let pos = edit::position(f, b, x)?;
    let mut body = f.blocks[arm].insts.clone();
    let term = body.pop()?;
    if f.insts[term].op == Op::Yield {
        for (k, &r) in f.insts[x].results.clone().iter().enumerate() {
            subst.insert(r, f.insts[term].args[k]);
        }
        f.blocks[b].insts.splice(pos..=pos, body);
        None
    } else {
        let dropped = f.blocks[b].insts.split_off(pos + 1);
        f.blocks[b].insts.truncate(pos);
        f.blocks[b].insts.extend(body);
        f.blocks[b].insts.push(term);
        Some(dropped)
    }
}

/// Replaces path-independent results and parameters by the values they always hold.
pub fn forward_invariants(f: &mut Function) -> bool {
    let tree = Tree::new(f);
    let mut subst = Subst::default();
    let mut new_consts: Vec<(Block, Inst, Inst)> = Vec::new();
    let mut structured = Vec::new();
    f.for_each_inst(|b, i| {
        if matches!(f.insts[i].op, Op::If | Op::Loop) {
            structured.push((b, i));
        }
    });
    for (b, i) in structured {
        match f.insts[i].op {
            Op::If => {
                let [t, e] = [f.insts[i].blocks[0], f.insts[i].blocks[1]];
                let arms: Vec<Inst> = [t, e]
                    .into_iter()
                    .filter(|&a| falls(f, a))
                    .filter_map(|a| terminator(f, a).map(|(term, _)| term))
                    .collect();
                for k in 0..f.insts[i].results.len() {
                    let vals: Vec<Value> = arms.iter().map(|&y| f.insts[y].args[k]).collect();
                    let Some(&first) = vals.first() else { continue };
                    let r = f.insts[i].results[k];
                    if vals.iter().all(|&v| v == first) && outside(f, &tree, first, i) {
                        subst.insert(r, first);
                        continue;
                    }
                    let consts: Option<Vec<Const>> = vals.iter().map(|&v| const_of(f, v)).collect();
                    if let Some(cs) = consts {
                        if cs.iter().all(|&c| c == cs[0]) {
                            let (ci, cv) = edit::make_const(f, cs[0]);
                            new_consts.push((b, i, ci));
                            subst.insert(r, cv);
                        }
                    }
                }
            }
            Op::Loop => {
                let body = f.insts[i].blocks[0];
                let exits = edit::loop_exits(f, body);
                let params = f.blocks[body].params.clone();
                for (k, &p) in params.iter().enumerate() {
                    let init = f.insts[i].args[k];
                    let same = exits
                        .iter()
                        .filter(|&&x| f.insts[x].op == Op::Continue)
                        .all(|&x| {
                            let a = f.insts[x].args[k];
                            a == p || a == init
                        });
                    if same {
                        subst.insert(p, init);
                    }
                }
                let breaks: Vec<Inst> = exits
                    .iter()
                    .copied()
                    .filter(|&x| f.insts[x].op == Op::Break)
                    .collect();
                for k in 0..f.insts[i].results.len() {
                    let Some(&first) = breaks.first() else { break };
                    let v = subst.resolve(f.insts[first].args[k]);
                    let all = breaks
                        .iter()
                        .all(|&x| subst.resolve(f.insts[x].args[k]) == v);
                    if all && outside(f, &tree, v, i) {
                        subst.insert(f.insts[i].results[k], v);
                    }
                }
            }
            _ => {}
        }
    }
    for (b, x, c) in new_consts {
        if let Some(pos) = edit::position(f, b, x) {
            f.blocks[b].insts.insert(pos, c);
        }
    }
    let changed = !subst.is_empty();
    subst.apply(f);
    changed
}

/// True if `v` is defined outside the blocks of the structured instruction `inst`.
fn outside(f: &Function, tree: &Tree, v: Value, inst: Inst) -> bool {
    if let ValueDef::Result(d, _) = f.values[v].def {
        if d == inst {
            return false;
        }
    }
    let Some(db) = tree.def_block(f, v) else {
        return false;
    };
    !f.insts[inst]
        .blocks
        .iter()
        .any(|&own| tree.within(f, db, own))
}
