//! Dead values in structured IR: pure instructions, `if` and loop results, loop parameters.
//!
//! Liveness flows backwards through the structure: an effect's operands are live; a pure
//! result is live if a live value uses it; an `if` result is live if used, and then the
//! condition and the operand each arm's `yield` passes for it are live; a loop result makes
//! what every `break` passes for it live; a loop parameter makes its initial value and what
//! every `continue` passes for it live. A parameter that only feeds its own next value (a
//! counter nobody reads, a value carried round and never used) is therefore dead, cycles
//! included. An `if` with nothing live inside it and no live result goes entirely; loops
//! always stay (removing one could turn a non-terminating program into a terminating one).

use super::edit::{set_params, set_results};
use crate::ir::{Block, Function, Inst, Op, Value, ValueDef};
use cranelift_entity::EntitySet;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

/// Removes dead values; true if anything changed.
pub fn run(f: &mut Function) -> bool {
    let info = Info::new(f);
    let live = liveness(f, &info);
    rewrite(f, &info, &live)
}

/// What the walk learns: terminators' targets, and which `if`s must stay for what they hold.
struct Info {
    /// The `if` a `yield` ends an arm of, or the loop a `break`/`continue` leaves.
    target: HashMap<Inst, Inst>,
    /// `yield`s of each `if`, `break`s and `continue`s of each loop.
    exits: HashMap<Inst, Vec<Inst>>,
    /// `if`s holding an effect or an exit other than `yield`.
    needed_ifs: HashSet<Inst>,
}

impl Info {
    fn new(f: &Function) -> Info {
        let mut info = Info {
            target: HashMap::default(),
            exits: HashMap::default(),
            needed_ifs: HashSet::default(),
        };
        info.block(f, f.entry, &mut Vec::new(), None);
        info
    }

    fn block(&mut self, f: &Function, b: Block, ifs: &mut Vec<Inst>, lp: Option<Inst>) {
        let arm_of = f.blocks[b].parent.filter(|&p| f.insts[p].op == Op::If);
        for &i in &f.blocks[b].insts {
            let data = &f.insts[i];
            let target = match data.op {
                Op::Yield => arm_of,
                Op::Break | Op::Continue => lp,
                _ => None,
            };
            if let Some(t) = target {
                self.target.insert(i, t);
                self.exits.entry(t).or_default().push(i);
            }
            let effectful = match data.op {
                Op::Effect(_) | Op::Loop | Op::Break | Op::Continue | Op::Return | Op::Discard => {
                    !matches!(data.op, Op::Effect(e) if crate::opt::skeleton::floats(&e))
                }
                _ => false,
            };
            if effectful {
                self.needed_ifs.extend(ifs.iter().copied());
            }
            match data.op {
                Op::If => {
                    ifs.push(i);
                    for &c in &data.blocks {
                        self.block(f, c, ifs, lp);
                    }
                    ifs.pop();
                }
                Op::Loop => {
                    let mut inner = Vec::new();
                    for &c in &data.blocks {
                        self.block(f, c, &mut inner, Some(i));
                    }
                }
                _ => {}
            }
        }
    }
}

/// Live values: a bit per value of the function's arena (a dense set is cheaper than hashing
/// every operand, and the arena is at most a few times the reachable code).
type Live = EntitySet<Value>;

fn liveness(f: &Function, info: &Info) -> Live {
    let mut live = Live::with_capacity(f.values.len());
    let mut work: Vec<Value> = Vec::new();
    let mark = |v: Value, live: &mut Live, work: &mut Vec<Value>| {
        if live.insert(v) {
            work.push(v);
        }
    };
    // Roots: operands of effects, conditions of needed `if`s, loop-carried values of
    // `continue`s are handled per parameter below.
    f.for_each_inst(|_, i| {
        let data = &f.insts[i];
        let root = match data.op {
            Op::Effect(e) => !crate::opt::skeleton::floats(&e),
            Op::If => info.needed_ifs.contains(&i),
            _ => false,
        };
        if root {
            for &a in &data.args {
                mark(a, &mut live, &mut work);
            }
        }
    });
    while let Some(v) = work.pop() {
        match f.values[v].def {
            ValueDef::Result(i, k) => {
                let data = &f.insts[i];
                match data.op {
                    Op::If => {
                        mark(data.args[0], &mut live, &mut work);
                        for &y in info.exits.get(&i).map(Vec::as_slice).unwrap_or(&[]) {
                            if let Some(&a) = f.insts[y].args.get(k as usize) {
                                mark(a, &mut live, &mut work);
                            }
                        }
                    }
                    Op::Loop => {
                        for &x in info.exits.get(&i).map(Vec::as_slice).unwrap_or(&[]) {
                            if f.insts[x].op == Op::Break {
                                if let Some(&a) = f.insts[x].args.get(k as usize) {
                                    mark(a, &mut live, &mut work);
                                }
                            }
                        }
                    }
                    _ => {
                        for &a in &data.args {
                            mark(a, &mut live, &mut work);
                        }
                    }
                }
            }
            ValueDef::Param(b, k) => {
                let Some(lp) = f.blocks[b].parent else {
                    continue;
                };
                if let Some(&a) = f.insts[lp].args.get(k as usize) {
                    mark(a, &mut live, &mut work);
                }
                for &x in info.exits.get(&lp).map(Vec::as_slice).unwrap_or(&[]) {
                    if f.insts[x].op == Op::Continue {
                        if let Some(&a) = f.insts[x].args.get(k as usize) {
                            mark(a, &mut live, &mut work);
                        }
                    }
                }
            }
            ValueDef::Undefined => {}
        }
    }
    live
}

fn rewrite(f: &mut Function, info: &Info, live: &Live) -> bool {
    let mut changed = false;
    let mut blocks = Vec::new();
    let mut seen: EntitySet<Block> = EntitySet::with_capacity(f.blocks.len());
    let mut structured = Vec::new();
    f.for_each_inst(|b, i| {
        if seen.insert(b) {
            blocks.push(b);
        }
        if matches!(f.insts[i].op, Op::If | Op::Loop) {
            structured.push(i);
        }
    });
    blocks.push(f.entry);
    blocks.sort();
    blocks.dedup();
    // Results and parameters first (they index the terminators' operands).
    for i in structured {
        let keep: Vec<bool> = f.insts[i]
            .results
            .iter()
            .map(|&r| live.contains(r))
            .collect();
        let exits = info.exits.get(&i).cloned().unwrap_or_default();
        if keep.iter().any(|k| !k) {
            changed = true;
            let results: Vec<Value> = filter(&f.insts[i].results, &keep);
            set_results(f, i, &results);
            let result_exit = if f.insts[i].op == Op::If {
                Op::Yield
            } else {
                Op::Break
            };
            for &x in &exits {
                if f.insts[x].op == result_exit {
                    f.insts[x].args = filter(&f.insts[x].args, &keep).into_iter().collect();
                }
            }
        }
        if f.insts[i].op == Op::Loop {
            let body = f.insts[i].blocks[0];
            let keep: Vec<bool> = f.blocks[body]
                .params
                .iter()
                .map(|&p| live.contains(p))
                .collect();
            if keep.iter().any(|k| !k) {
                changed = true;
                let params = filter(&f.blocks[body].params, &keep);
                set_params(f, body, &params);
                f.insts[i].args = filter(&f.insts[i].args, &keep).into_iter().collect();
                for &x in &exits {
                    if f.insts[x].op == Op::Continue {
                        f.insts[x].args = filter(&f.insts[x].args, &keep).into_iter().collect();
                    }
                }
            }
        }
    }
    // Then dead instructions.
    for b in blocks {
        let before = f.blocks[b].insts.len();
        let insts: Vec<Inst> = f.blocks[b]
            .insts
            .iter()
            .copied()
            .filter(|&i| keeps(f, info, live, i))
            .collect();
        if insts.len() != before {
            changed = true;
            f.blocks[b].insts = insts;
        }
    }
    changed
}

fn keeps(f: &Function, info: &Info, live: &Live, i: Inst) -> bool {
    let data = &f.insts[i];
    match data.op {
        Op::Pure(_) | Op::Custom(_) | Op::Const(_) => {
            data.results.iter().any(|&r| live.contains(r))
        }
        Op::Effect(e) if crate::opt::skeleton::floats(&e) => {
            data.results.iter().any(|&r| live.contains(r))
        }
        Op::If => info.needed_ifs.contains(&i) || !data.results.is_empty(),
        _ => true,
    }
}

fn filter<T: Copy>(items: &[T], keep: &[bool]) -> Vec<T> {
    items
        .iter()
        .zip(keep)
        .filter(|(_, &k)| k)
        .map(|(&x, _)| x)
        .collect()
}
