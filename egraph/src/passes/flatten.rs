//! `flatten`: loops that never repeat become straight code.
//!
//! The front ends lift a SPIR-V `switch` and an inlined function with early `return`s as a loop
//! that runs once, so that a case or a `return` can leave it with `break` from anywhere; the
//! unroller leaves the same shape behind. A loop whose body has no `continue` runs at most once,
//! and here it becomes the code it holds.
//!
//! # Sinking exits
//! The first step moves exits to the ends of `if` arms, as NIR's `nir_opt_if` does with the code
//! after an `if` that ends in a jump: for the first `if` of a block that holds an exit, the rest
//! of the block (the code after the `if`, with the block's own terminator) moves into the arm that
//! falls through, so it runs only on that path:
//!
//! ```text
//! if c { A; break x } else { yield }       if c { A; break x } else { B; break y }
//! B; break y                          =>   (dead)
//! ```
//!
//! When both arms fall through, the rest is copied into both, but only if it is pure (the e-graph
//! shares the copies again) and ends in a terminator; otherwise the loop stays. After sinking,
//! every exit ends a chain of arms from the body down. The code left after such an `if`, whose
//! arms no longer fall through, is dead; a `return` placeholder marks it until the second step.
//!
//! # Exits to values
//! The second step turns the chain into an `if` nest with results: `break x` becomes `yield x`,
//! the `if` whose arms now yield gets results, and the loop is replaced by its body with the
//! parameters bound to the initial values and the results to what the outermost level yields.
//! The same conversion serves the unroller, for which a `continue` yields the next iteration's
//! parameters instead ([`convert`]).

use super::edit::{
    self, block_exits, clone_inst, falls, fresh_results, inst_exits, make_inst, terminator, Subst,
    Tree,
};
use crate::ir::{Block, Function, Inst, InstFlags, Op, Type, Value};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

/// Flattens every loop without a `continue`; true if any changed.
pub fn run(f: &mut Function) -> bool {
    let mut changed = false;
    // Where each loop sits, found once: flattening a loop moves only what it holds (loops
    // earlier in post-order) and drops at most the rest of its own block, which is forgotten
    // here; every loop still to come keeps its block. (A fresh walk per loop was quadratic.)
    let mut tree = Tree::new(f);
    for l in edit::structured_post_order(f, Op::Loop) {
        changed |= flatten_loop(f, l, &mut tree);
    }
    changed
}

/// Placeholder terminators that sinking left after `if`s whose arms no longer fall through.
pub(crate) type Dead = HashSet<Inst>;

/// Flattens loop `l` if it has no `continue` and its exits can be sunk.
pub(crate) fn flatten_loop(f: &mut Function, l: Inst, tree: &mut Tree) -> bool {
    let Some(parent) = tree.block_of(l) else {
        return false;
    };
    let body = f.insts[l].blocks[0];
    if block_exits(f, body).continues {
        return false;
    }
    let backup = edit::clone_block(f, body, None, &mut HashMap::default());
    let Some(dead) = sink_or_restore(f, l, backup, Op::Break) else {
        return false;
    };
    let types: Vec<Type> = f.insts[l]
        .results
        .iter()
        .map(|&r| f.value_type(r))
        .collect();
    let end = convert(f, body, &types, &dead, Op::Break);
    let Some(pos) = edit::position(f, parent, l) else {
        return false;
    };
    let mut subst = Subst::default();
    let params = f.blocks[body].params.clone();
    for (k, &p) in params.iter().enumerate() {
        subst.insert(p, f.insts[l].args[k]);
    }
    let mut items = f.blocks[body].insts.clone();
    let mut insts = f.blocks[parent].insts[..pos].to_vec();
    match end {
        Ending::Falls(vals) => {
            items.pop();
            for (k, &r) in f.insts[l].results.clone().iter().enumerate() {
                subst.insert(r, vals[k]);
            }
            insts.extend(items);
            insts.extend_from_slice(&f.blocks[parent].insts[pos + 1..]);
        }
        Ending::Ends => {
            insts.extend(items);
            // The code after the loop is dead now.
            tree.forget(f, &f.blocks[parent].insts[pos + 1..]);
        }
    }
    f.blocks[parent].insts = insts;
    subst.apply(f);
    true
}

/// Sinks the exits of loop `l`'s body (see the module docs), or, if that fails, gives the loop
/// `backup` (a copy of its body) back as its body; the placeholders left behind on success.
pub(crate) fn sink_or_restore(
    f: &mut Function,
    l: Inst,
    backup: Block,
    value_exit: Op,
) -> Option<Dead> {
    let body = f.insts[l].blocks[0];
    let mut dead = Dead::default();
    if sink(f, body, &mut dead) && chain_ok(f, body, &dead, value_exit) {
        return Some(dead);
    }
    f.insts[l].blocks[0] = backup;
    f.blocks[backup].parent = Some(l);
    None
}

/// Moves exits of the innermost loop to the ends of arm chains (see the module docs); false if
/// that would copy effects. `b` must not fall through (its terminator is not `yield`).
pub(crate) fn sink(f: &mut Function, b: Block, dead: &mut Dead) -> bool {
    let insts = f.blocks[b].insts.clone();
    let n = insts.len();
    let Some(pos) = (0..n.saturating_sub(1))
        .find(|&k| f.insts[insts[k]].op == Op::If && inst_exits(f, insts[k]).any())
    else {
        return true;
    };
    let x = insts[pos];
    let rest: Vec<Inst> = insts[pos + 1..].to_vec();
    let [t, e] = [f.insts[x].blocks[0], f.insts[x].blocks[1]];
    match (falls(f, t), falls(f, e)) {
        (false, false) => {}
        (true, false) => move_rest(f, x, t, &rest),
        (false, true) => move_rest(f, x, e, &rest),
        (true, true) => {
            if !duplicable(f, &rest) {
                return false;
            }
            copy_rest(f, x, e, &rest);
            move_rest(f, x, t, &rest);
        }
    }
    f.blocks[b].insts.truncate(pos + 1);
    let placeholder = make_inst(f, Op::Return, &[], &[], &[], InstFlags::NONE);
    f.blocks[b].insts.push(placeholder);
    dead.insert(placeholder);
    sink(f, t, dead) && sink(f, e, dead)
}

/// Pure instructions and one terminator: copying them costs nothing after the e-graph.
fn duplicable(f: &Function, rest: &[Inst]) -> bool {
    let Some((&term, body)) = rest.split_last() else {
        return false;
    };
    f.insts[term].op.is_terminator()
        && f.insts[term].op != Op::Yield
        && body.iter().all(|&i| !edit::has_effects(f, i))
        && body.iter().all(|&i| f.insts[i].op != Op::If)
}

/// Appends `rest` to arm `arm` of `x` in place of its `yield`, reading `x`'s results as what the
/// arm yielded; `x` loses its results.
fn move_rest(f: &mut Function, x: Inst, arm: Block, rest: &[Inst]) {
    let Some(y) = f.blocks[arm].insts.pop() else {
        return;
    };
    let mut subst = Subst::default();
    for (k, &r) in f.insts[x].results.clone().iter().enumerate() {
        subst.insert(r, f.insts[y].args[k]);
    }
    f.blocks[arm].insts.extend_from_slice(rest);
    subst.apply_in(f, arm);
    edit::set_results(f, x, &[]);
}

/// Appends a copy of `rest` to arm `arm` of `x` in place of its `yield`.
fn copy_rest(f: &mut Function, x: Inst, arm: Block, rest: &[Inst]) {
    let Some(y) = f.blocks[arm].insts.pop() else {
        return;
    };
    let mut map: HashMap<Value, Value> = HashMap::default();
    for (k, &r) in f.insts[x].results.clone().iter().enumerate() {
        map.insert(r, f.insts[y].args[k]);
    }
    for &i in rest {
        let c = clone_inst(f, i, &mut map);
        f.blocks[arm].insts.push(c);
    }
}

/// True if every block of the chain below `b` ends in an exit or a placeholder after an `if`.
pub(crate) fn chain_ok(f: &Function, b: Block, dead: &Dead, value_exit: Op) -> bool {
    let Some((term, op)) = terminator(f, b) else {
        return false;
    };
    if dead.contains(&term) {
        let insts = &f.blocks[b].insts;
        let Some(&x) = insts.len().checked_sub(2).and_then(|k| insts.get(k)) else {
            return false;
        };
        return f.insts[x].op == Op::If
            && f.insts[x]
                .blocks
                .iter()
                .all(|&a| chain_ok(f, a, dead, value_exit));
    }
    op == value_exit || matches!(op, Op::Break | Op::Continue | Op::Return | Op::Discard)
}

/// How a converted chain block ends.
#[derive(Debug)]
pub(crate) enum Ending {
    /// Control reaches its end with these values (its terminator, still in place, is to go).
    Falls(Vec<Value>),
    /// It never reaches its end; its terminator stays.
    Ends,
}

/// Converts the chain below `b` (see the module docs): `value_exit` terminators (`break` for
/// a one-trip loop, `continue` for an unrolled copy) become values of `types`; arms yield them.
pub(crate) fn convert(
    f: &mut Function,
    b: Block,
    types: &[Type],
    dead: &Dead,
    value_exit: Op,
) -> Ending {
    let Some((term, op)) = terminator(f, b) else {
        return Ending::Ends;
    };
    if dead.contains(&term) {
        let n = f.blocks[b].insts.len();
        let x = f.blocks[b].insts[n - 2];
        let arms = [f.insts[x].blocks[0], f.insts[x].blocks[1]];
        let mut falls_any = false;
        let results = fresh_results(f, x, types);
        for arm in arms {
            match convert(f, arm, types, dead, value_exit) {
                Ending::Falls(vals) => {
                    set_yield(f, arm, &vals);
                    falls_any = true;
                }
                Ending::Ends => {}
            }
        }
        if falls_any {
            return Ending::Falls(results);
        }
        edit::set_results(f, x, &[]);
        return Ending::Ends;
    }
    if op == value_exit {
        return Ending::Falls(f.insts[term].args.to_vec());
    }
    Ending::Ends
}

/// Replaces block `b`'s terminator by `yield vals`.
fn set_yield(f: &mut Function, b: Block, vals: &[Value]) {
    let y = make_inst(f, Op::Yield, vals, &[], &[], InstFlags::NONE);
    if let Some(last) = f.blocks[b].insts.last_mut() {
        *last = y;
    }
}
