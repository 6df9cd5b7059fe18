//! `unroll`: loops with a known trip count become that many copies of their body.
//!
//! # Trip count
//! The loop's body is evaluated abstractly, iteration by iteration, from the parameters whose
//! initial values are constants ([`trip_count`]): pure operations on known values fold with the
//! operation table's evaluation functions, an `if` on a known condition takes one arm, one on an
//! unknown condition both. An iteration in which no `continue` can be reached is the last; the
//! parameters of the next iteration are what every reachable `continue` passes (known if they all
//! agree). Exits on unknown conditions (`if (acc > 500) break`) do not stop the count: they stay
//! in the copies as the conditional exits they are, the way NIR's `nir_opt_loop_unroll` handles
//! a loop with a constant trip count and further "complex" terminators.
//!
//! # Copies
//! The body's exits are sunk to the ends of arm chains ([`flatten::sink`]), a `continue` then
//! yields the next iteration's parameters ([`flatten::convert`]), and the copies follow one
//! another inside a loop that runs once, where each copy's `break`s now leave that loop. After
//! the last copy a remainder loop carries on from the last copy's parameters: it is dead when the
//! count is right (constant folding in the copies proves the last one always leaves) and keeps
//! the program correct otherwise. [`simplify`](super::simplify) folds the copies and drops the
//! dead remainder, and [`flatten`](super::flatten) turns the one-trip loop into nested `if`s,
//! so the exits on unknown conditions become `if`s guarded by those conditions.
//!
//! # Budget
//! A loop is unrolled when it pays off (see [`run`]), its trip count is at most [`UnrollBudget::max_trips`] and the copies
//! hold at most [`UnrollBudget::max_insts`] instructions (trip count times the body's size,
//! nested instructions included, constants not). The defaults follow NIR's loop unroller (at
//! most 32 iterations, and `LOOP_UNROLL_LIMIT` = 26 instructions per allowed iteration), and the
//! whole function may grow to at most [`UnrollBudget::max_function`] instructions.

use super::edit::{self, clone_inst, const_of, subtree_size, Tree};
use super::estimate::{estimate, estimate_inst};
use super::flatten::{self, convert, Ending};
use super::{ifconv, inst_cost, simplify, PassConfig};
use crate::ir::{Block, Const, Function, Inst, InstFlags, Op, Type, Value};
use crate::opt::Target;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

/// Limits on unrolling.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UnrollBudget {
    /// Most iterations of a loop to unroll.
    pub max_trips: u32,
    /// Most instructions the copies of one loop may hold.
    pub max_insts: usize,
    /// Most instructions the function may reach by unrolling.
    pub max_function: usize,
    /// The fraction of the loop's own estimated size unrolling must save, or of the whole
    /// function's when the copies load more than [`UnrollBudget::max_loaded`] values (see
    /// [`run`]).
    pub min_saving: f64,
    /// Most values the copies of a loop may load for the smaller margin to apply.
    pub max_loaded: usize,
}

impl Default for UnrollBudget {
    fn default() -> Self {
        UnrollBudget {
            max_trips: 32,
            max_insts: 32 * 26,
            max_function: 6000,
            min_saving: 0.1,
            max_loaded: 4,
        }
    }
}

/// Rounds of unrolling the loops an unrolled loop's copies hold (each round can make the
/// next level countable).
const MAX_ROUNDS: usize = 4;

/// Unrolls every loop that fits the budget and pays off, outermost first; true if any.
///
/// # Profitability
/// The program's size is what agxc is measured by, so a loop is only unrolled when the result
/// is no larger by the target's static estimate ([`estimate`](super::estimate)): the copies
/// must fold (a counter that indexes a private array, sums over constant ranges) or share
/// enough to pay for themselves against the loop's own code (its execution-mask instructions
/// and the copies of its carried values). Each candidate is tried on a copy of the function:
/// the loop, then the loops its copies hold that became countable (an inner loop bounded by
/// the outer counter), then the clean-ups and if-conversion; the copy replaces the function
/// if its estimate is below the function's (after the same if-conversion) by a margin of
/// [`UnrollBudget::min_saving`] times the loop's own estimate. The margin covers what the
/// estimate cannot see: copies of loop-carried values the register allocator coalesces away.
/// When the copies would load more than [`UnrollBudget::max_loaded`] values, the margin is
/// that fraction of the whole function instead: the scheduler starts the loads of all copies
/// early, and their results take registers all at once (a 3x3 image blur, 9 four-component
/// loads, unrolled costs 20 more register halves and, with the coordinate copies the loads
/// need, 12 more instructions than its loop; a 3-step cascade search over a uniform buffer,
/// 3 scalar loads, is 4 instructions shorter unrolled).
pub fn run(f: &mut Function, target: &dyn Target, config: &PassConfig) -> bool {
    let budget = &config.unroll;
    let mut changed = false;
    let mut baseline: Option<(f64, Function)> = None;
    // What the function is now (its reachable loops, its size) changes only when a trial
    // replaces it: recomputing them per loop made this pass quadratic in loop-heavy functions.
    let mut now: Option<(HashSet<Inst>, usize)> = None;
    let mut loaded_now: Option<usize> = None;
    for l in pre_order_loops(f) {
        let (loops, count) = now.get_or_insert_with(|| (reachable_loops(f), f.inst_count()));
        if !loops.contains(&l) {
            continue;
        }
        if !fits(f, l, budget, *count) {
            continue;
        }
        let (base, converted) = baseline.get_or_insert_with(|| {
            let mut g = f.clone();
            ifconv::run(
                &mut g,
                &|h, i| inst_cost(target, h, i),
                config.if_convert_arm_cost,
            );
            (estimate(&g, target, &config.size), g)
        });
        let base = *base;
        // The loop as it stands after the same if-conversion (its `Inst` survives the clone).
        let own = estimate_inst(converted, target, &config.size, l);
        let mut trial = f.clone();
        if !unroll_nest(&mut trial, l, budget) {
            continue;
        }
        ifconv::run(
            &mut trial,
            &|h, i| inst_cost(target, h, i),
            config.if_convert_arm_cost,
        );
        simplify::run(&mut trial);
        // A loop whose copies would put many loaded values in flight at once needs the
        // larger margin (see above); others only need to save a part of their own size.
        let loaded_f = *loaded_now.get_or_insert_with(|| loaded_values(f));
        let loaded = loaded_values(&trial).saturating_sub(loaded_f);
        let margin = if loaded > budget.max_loaded {
            base * budget.min_saving
        } else {
            own.max(1.0) * budget.min_saving
        };
        if estimate(&trial, target, &config.size) <= base - margin {
            *f = trial;
            baseline = None;
            now = None;
            loaded_now = None;
            changed = true;
        }
    }
    changed
}

/// The values that memory, texture and image reads in `f` produce (each component counts).
fn loaded_values(f: &Function) -> usize {
    let mut n = 0;
    f.for_each_inst(|_, i| {
        let data = &f.insts[i];
        if let Op::Effect(e) = data.op {
            if !crate::opt::skeleton::floats(&e) {
                n += data.results.len();
            }
        }
    });
    n
}

/// True if `l` has a trip count and its copies fit the budget in `f` of `count` instructions.
fn fits(f: &Function, l: Inst, budget: &UnrollBudget, count: usize) -> bool {
    // The function alone may exceed the budget: then no loop fits, and counting its trips
    // (up to `max_trips` abstract iterations) would be wasted.
    if count > budget.max_function {
        return false;
    }
    let Some(n) = trip_count(f, l, budget.max_trips) else {
        return false;
    };
    let size = subtree_size(f, f.insts[l].blocks[0]) * n as usize;
    size <= budget.max_insts && count + size <= budget.max_function
}

/// Unrolls `l`, then the loops in its copies that became countable; true if `l` was unrolled.
fn unroll_nest(f: &mut Function, l: Inst, budget: &UnrollBudget) -> bool {
    let Some(n) = trip_count(f, l, budget.max_trips) else {
        return false;
    };
    let before = reachable_loops(f);
    if !unroll(f, l, n) {
        return false;
    }
    simplify::run(f);
    flatten::run(f);
    for _ in 0..MAX_ROUNDS {
        let mut progress = false;
        let mut now: Option<(HashSet<Inst>, usize)> = None;
        for inner in pre_order_loops(f) {
            if before.contains(&inner) {
                continue;
            }
            let (loops, count) = now.get_or_insert_with(|| (reachable_loops(f), f.inst_count()));
            if !loops.contains(&inner) || !fits(f, inner, budget, *count) {
                continue;
            }
            let Some(n) = trip_count(f, inner, budget.max_trips) else {
                continue;
            };
            if unroll(f, inner, n) {
                simplify::run(f);
                flatten::run(f);
                progress = true;
                now = None;
            }
        }
        if !progress {
            break;
        }
    }
    true
}

/// Loops reachable from the entry block, outermost first.
fn pre_order_loops(f: &Function) -> Vec<Inst> {
    let mut out = Vec::new();
    f.for_each_inst(|_, i| {
        if f.insts[i].op == Op::Loop {
            out.push(i);
        }
    });
    out
}

fn reachable_loops(f: &Function) -> HashSet<Inst> {
    pre_order_loops(f).into_iter().collect()
}

/// The number of times loop `l`'s body runs, if the abstract evaluation finds it to be at most
/// `max` (see the module docs).
pub fn trip_count(f: &Function, l: Inst, max: u32) -> Option<u32> {
    let body = f.insts[l].blocks[0];
    let mut params: Vec<Option<Const>> = f.insts[l].args.iter().map(|&a| const_of(f, a)).collect();
    for n in 0..max {
        let mut it = Iteration {
            f,
            known: HashMap::default(),
            next: None,
        };
        for (k, &p) in f.blocks[body].params.iter().enumerate() {
            if let Some(c) = params[k] {
                it.known.insert(p, c);
            }
        }
        it.block(body, true);
        match it.next {
            None => return Some(n + 1),
            Some(next) => {
                if next == params && next.iter().all(Option::is_none) {
                    return None;
                }
                params = next;
            }
        }
    }
    None
}

/// One abstract iteration: the values known in it, and the joined `continue` operands.
struct Iteration<'f> {
    f: &'f Function,
    known: HashMap<Value, Const>,
    next: Option<Vec<Option<Const>>>,
}

impl Iteration<'_> {
    fn value(&self, v: Value) -> Option<Const> {
        self.known.get(&v).copied().or_else(|| const_of(self.f, v))
    }

    /// Walks block `b`, reached if `reach`; true if its end (`yield`) is reached.
    fn block(&mut self, b: Block, reach: bool) -> bool {
        let f = self.f;
        let mut reach = reach;
        for &i in &f.blocks[b].insts {
            let data = &f.insts[i];
            match data.op {
                Op::Pure(_) | Op::Custom(_) => {
                    let args: Option<Vec<Const>> =
                        data.args.iter().map(|&a| self.value(a)).collect();
                    if let (Some(args), Some(&r)) = (args, data.results.first()) {
                        let ty = f.value_type(r);
                        let c = match data.op {
                            Op::Pure(p) => p.eval(&args, ty),
                            Op::Custom(c) => c.eval(&args, ty),
                            _ => continue,
                        };
                        self.known.insert(r, c);
                    }
                }
                Op::If => {
                    let cond = self.value(data.args[0]).map(Const::as_bool);
                    let [t, e] = [data.blocks[0], data.blocks[1]];
                    let t_end = self.block(t, reach && cond != Some(false));
                    let e_end = self.block(e, reach && cond != Some(true));
                    let sources: Vec<Block> = match cond {
                        Some(true) => vec![t],
                        Some(false) => vec![e],
                        None => vec![t, e],
                    };
                    let yields: Vec<Inst> = sources
                        .into_iter()
                        .filter(|&a| edit::falls(f, a))
                        .filter_map(|a| f.blocks[a].insts.last().copied())
                        .collect();
                    for (k, &r) in data.results.iter().enumerate() {
                        let vals: Option<Vec<Const>> = yields
                            .iter()
                            .map(|&y| self.value(f.insts[y].args[k]))
                            .collect();
                        if let Some(vals) = vals {
                            if let Some(&c) = vals.first() {
                                if vals.iter().all(|&v| v == c) {
                                    self.known.insert(r, c);
                                }
                            }
                        }
                    }
                    reach = t_end || e_end;
                }
                Op::Continue if reach => {
                    let vals: Vec<Option<Const>> =
                        data.args.iter().map(|&a| self.value(a)).collect();
                    self.next = Some(match self.next.take() {
                        None => vals,
                        Some(prev) => prev
                            .into_iter()
                            .zip(vals)
                            .map(|(a, b)| if a == b { a } else { None })
                            .collect(),
                    });
                }
                _ => {}
            }
        }
        reach && edit::falls(f, b)
    }
}

/// Replaces loop `l` by `n` copies of its body and a remainder loop, inside a loop that runs
/// once (see the module docs); false if its exits cannot be sunk.
pub fn unroll(f: &mut Function, l: Inst, n: u32) -> bool {
    let tree = Tree::new(f);
    let Some(parent) = tree.block_of(l) else {
        return false;
    };
    let body = f.insts[l].blocks[0];
    // A pristine copy: the remainder loop's body, or the loop's body again if sinking fails.
    let remainder_body = edit::clone_block(f, body, None, &mut HashMap::default());
    let Some(dead) = flatten::sink_or_restore(f, l, remainder_body, Op::Continue) else {
        return false;
    };
    let params = f.blocks[body].params.to_vec();
    let param_types: Vec<Type> = params.iter().map(|&p| f.value_type(p)).collect();
    let result_types: Vec<Type> = f.insts[l]
        .results
        .iter()
        .map(|&r| f.value_type(r))
        .collect();
    let end = convert(f, body, &param_types, &dead, Op::Continue);
    let mut items = f.blocks[body].insts.clone();
    let next = match &end {
        Ending::Falls(vals) => {
            items.pop();
            Some(vals.clone())
        }
        Ending::Ends => None,
    };

    let wbody = f.make_block(None);
    let w = edit::make_inst(f, Op::Loop, &[], &result_types, &[wbody], InstFlags::NONE);
    let mut cur: Vec<Value> = f.insts[l].args.to_vec();
    for _ in 0..n {
        let mut map: HashMap<Value, Value> = params.iter().copied().zip(cur.clone()).collect();
        for &i in &items {
            let c = clone_inst(f, i, &mut map);
            f.blocks[wbody].insts.push(c);
        }
        match &next {
            Some(vals) => {
                cur = vals
                    .iter()
                    .map(|v| map.get(v).copied().unwrap_or(*v))
                    .collect()
            }
            None => break,
        }
    }
    if next.is_some() {
        let r = edit::make_inst(
            f,
            Op::Loop,
            &cur,
            &result_types,
            &[remainder_body],
            InstFlags::NONE,
        );
        let results = f.insts[r].results.to_vec();
        let brk = edit::make_inst(f, Op::Break, &results, &[], &[], InstFlags::NONE);
        f.blocks[wbody].insts.extend([r, brk]);
    }
    let Some(pos) = edit::position(f, parent, l) else {
        return false;
    };
    f.blocks[parent].insts[pos] = w;
    let mut subst = edit::Subst::default();
    let old = f.insts[l].results.to_vec();
    let new = f.insts[w].results.to_vec();
    for (o, n) in old.into_iter().zip(new) {
        subst.insert(o, n);
    }
    subst.apply(f);
    true
}
