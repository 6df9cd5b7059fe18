//! `if-convert`: branches that only compute values become selects.
//!
//! An `if` whose arms hold nothing but pure operations (and invariant reads: built-ins, stage
//! inputs, resource sizes) and end in `yield` is replaced by both arms' instructions, run
//! unconditionally, and one `select` per result (none where both arms yield the same value).
//! Innermost `if`s go first, so a nest of small value-only `if`s becomes a nest of selects.
//! Every operation in the IR is total, so running an arm whose condition is false is harmless;
//! stores, loads, samples, atomics and exits are never speculated: an arm holding one keeps its
//! branch.
//!
//! The cost threshold is the target's ([`PassConfig::if_convert_arm_cost`](super::PassConfig)):
//! each arm may cost at most that much in the target's issue cycles.

use super::edit::{self, make_inst, Subst, Tree};
use crate::ir::{Function, Inst, InstFlags, Op, PureOp};

/// Converts every `if` that qualifies; true if any. `cost` prices one instruction.
pub fn run(f: &mut Function, cost: &dyn Fn(&Function, Inst) -> f64, max_arm: f64) -> bool {
    let mut changed = false;
    // One walk and one substitution for the whole pass (one per `if` was quadratic): converting
    // an `if` moves only its arms' instructions, never an `if` still to come, and drops
    // nothing; results are replaced when the pass ends, and reads in between see through the
    // replacements so far, as if each had been applied at once.
    let tree = Tree::new(f);
    let mut subst = Subst::default();
    for x in edit::structured_post_order(f, Op::If) {
        changed |= convert(f, x, &tree, &mut subst, cost, max_arm);
    }
    subst.apply(f);
    changed
}

/// The arm's instructions before its `yield`, if it is value-only and costs at most `max_arm`.
fn value_only(
    f: &Function,
    arm: crate::ir::Block,
    cost: &dyn Fn(&Function, Inst) -> f64,
    max_arm: f64,
) -> Option<Vec<Inst>> {
    let (&term, body) = f.blocks[arm].insts.split_last()?;
    if f.insts[term].op != Op::Yield {
        return None;
    }
    let mut total = 0.0;
    for &i in body {
        if edit::has_effects(f, i) || f.insts[i].op == Op::If {
            return None;
        }
        total += cost(f, i);
    }
    (total <= max_arm).then(|| body.to_vec())
}

fn convert(
    f: &mut Function,
    x: Inst,
    tree: &Tree,
    subst: &mut Subst,
    cost: &dyn Fn(&Function, Inst) -> f64,
    max_arm: f64,
) -> bool {
    let Some(b) = tree.block_of(x) else {
        return false;
    };
    let [t, e] = [f.insts[x].blocks[0], f.insts[x].blocks[1]];
    let (Some(tb), Some(eb)) = (
        value_only(f, t, cost, max_arm),
        value_only(f, e, cost, max_arm),
    ) else {
        return false;
    };
    let Some(pos) = edit::position(f, b, x) else {
        return false;
    };
    let cond = subst.resolve(f.insts[x].args[0]);
    let (Some(&ty_), Some(&ey)) = (f.blocks[t].insts.last(), f.blocks[e].insts.last()) else {
        return false;
    };
    let mut hoisted = tb;
    hoisted.extend(eb);
    let results = f.insts[x].results.to_vec();
    for (k, &r) in results.iter().enumerate() {
        let (tv, ev) = (
            subst.resolve(f.insts[ty_].args[k]),
            subst.resolve(f.insts[ey].args[k]),
        );
        if tv == ev {
            subst.insert(r, tv);
            continue;
        }
        let ty = f.value_type(r);
        let sel = make_inst(
            f,
            Op::Pure(PureOp::Select),
            &[cond, tv, ev],
            &[ty],
            &[],
            InstFlags::NONE,
        );
        hoisted.push(sel);
        subst.insert(r, f.insts[sel].results[0]);
    }
    let mut insts = f.blocks[b].insts[..pos].to_vec();
    insts.extend(hoisted);
    insts.extend_from_slice(&f.blocks[b].insts[pos + 1..]);
    f.blocks[b].insts = insts;
    true
}
