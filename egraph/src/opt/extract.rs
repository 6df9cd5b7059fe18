//! Extraction: choosing one e-node per needed e-class.
//!
//! # The DAG extractor
//! The program computes each chosen value once, however many users it has, so the cost to
//! minimize is the sum of the chosen e-nodes' costs over the *DAG* reachable from the skeleton's
//! roots, not over the tree (where a shared value is paid once per use). Exact DAG extraction is
//! NP-hard (it is usually done with ILP); this one is a two-phase heuristic that is linear-ish in
//! the e-graph's size and never worse than its own first phase:
//!
//! 1. **Bottom-up tree costs** (Knuth's generalization of Dijkstra's algorithm): an e-class's cost
//!    is the cheapest of its e-nodes' cost plus the costs of their *distinct* children. Every class
//!    is finalized once, from a priority queue, after all children of its chosen node; costs
//!    strictly increase up a chain, so the choice is acyclic.
//! 2. **Sharing-aware local search**: keep, for the current choice, the number of selected users
//!    of every class. For every selected class and every alternative e-node, compute the *exact*
//!    change of the DAG cost if the class switched to it: its own cost difference, plus the
//!    classes that become needed (their first user appears; a value something else already
//!    computes is free) minus those that are no longer needed (their last user goes), found by
//!    incremental reference counting. Take the switch if the cost drops and it closes no cycle.
//!    Passes repeat until nothing improves, at most [`REFINE_PASSES`] times; every step lowers the
//!    true DAG cost, so the result is never worse than phase 1.
//!
//! [`tree`] is phase 1 alone; [`EggTreeCost`] plugs the same costs into `egg`'s own tree
//! [`Extractor`](egg::Extractor), the baseline the tests compare against.
//!
//! Classes are renumbered densely for the work (e-class ids are sparse after merging).

use super::analysis::{EGraph, Facts};
use super::language::Node;
use egg::{CostFunction, Id, Language};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

/// Local-search passes; two or three usually reach a fixed point.
pub const REFINE_PASSES: usize = 4;

/// Costs compare with this slack so float noise does not flip choices.
const EPS: f64 = 1e-9;

const NONE: u32 = u32::MAX;

/// One chosen e-node per reachable e-class.
#[derive(Clone, Debug, Default)]
pub struct Extraction {
    /// The chosen e-node of each canonical e-class reachable from the roots.
    pub choice: HashMap<Id, Node>,
    /// Sum of the chosen e-nodes' costs, each class once.
    pub dag_cost: f64,
    /// Classes reachable from the roots whose chosen e-node is unavailable (infinite cost).
    pub unavailable: Vec<Id>,
}

/// A cost ordered totally (for the priority queue).
#[derive(Clone, Copy, PartialEq)]
struct Cost(f64);
impl Eq for Cost {}
impl PartialOrd for Cost {
    fn partial_cmp(&self, other: &Self) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Cost {
    fn cmp(&self, other: &Self) -> core::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}

/// The e-graph in dense form: classes numbered `0..n`, per node its cost and distinct children.
struct Table {
    ids: Vec<Id>,
    index: Vec<u32>,
    own: Vec<Vec<f64>>,
    kids: Vec<Vec<Vec<u32>>>,
}

impl Table {
    fn new(egraph: &EGraph, cost: &impl Fn(&Node, &Facts) -> f64) -> Table {
        let mut ids: Vec<Id> = egraph.classes().map(|c| c.id).collect();
        ids.sort_unstable();
        let mut index = vec![NONE; egraph.nodes().len().max(1) + 1];
        for (i, &id) in ids.iter().enumerate() {
            let slot = usize::from(id);
            if slot >= index.len() {
                index.resize(slot + 1, NONE);
            }
            index[slot] = i as u32;
        }
        let mut own = Vec::with_capacity(ids.len());
        let mut kids = Vec::with_capacity(ids.len());
        for &id in &ids {
            let class = &egraph[id];
            own.push(class.nodes.iter().map(|n| cost(n, &class.data)).collect());
            kids.push(
                class
                    .nodes
                    .iter()
                    .map(|n| {
                        let mut v: Vec<u32> = n
                            .children()
                            .iter()
                            .map(|&c| index[usize::from(egraph.find(c))])
                            .collect();
                        v.sort_unstable();
                        v.dedup();
                        v
                    })
                    .collect(),
            );
        }
        Table {
            ids,
            index,
            own,
            kids,
        }
    }

    fn dense(&self, egraph: &EGraph, id: Id) -> u32 {
        self.index
            .get(usize::from(egraph.find(id)))
            .copied()
            .unwrap_or(NONE)
    }
}

/// Phase 1: bottom-up costs. Returns the chosen node index (or `NONE`) and total per class.
fn bottom_up(t: &Table) -> (Vec<u32>, Vec<f64>) {
    let n = t.ids.len();
    let mut parents: Vec<Vec<(u32, u32)>> = vec![Vec::new(); n];
    let mut missing: Vec<Vec<u32>> = Vec::with_capacity(n);
    let mut heap: BinaryHeap<Reverse<(Cost, u32, u32)>> = BinaryHeap::new();
    for c in 0..n {
        let mut m = Vec::with_capacity(t.kids[c].len());
        for (i, kids) in t.kids[c].iter().enumerate() {
            if kids.is_empty() {
                heap.push(Reverse((Cost(t.own[c][i]), c as u32, i as u32)));
            }
            for &k in kids {
                if k != NONE {
                    parents[k as usize].push((c as u32, i as u32));
                }
            }
            m.push(kids.len() as u32);
        }
        missing.push(m);
    }
    let mut choice = vec![NONE; n];
    let mut total = vec![f64::INFINITY; n];
    while let Some(Reverse((Cost(cost), c, i))) = heap.pop() {
        let c = c as usize;
        if choice[c] != NONE {
            continue;
        }
        choice[c] = i;
        total[c] = cost;
        for &(p, j) in &parents[c] {
            let (p, j) = (p as usize, j as usize);
            if choice[p] != NONE {
                continue;
            }
            missing[p][j] -= 1;
            if missing[p][j] == 0 {
                let sum =
                    t.own[p][j] + t.kids[p][j].iter().map(|&k| total[k as usize]).sum::<f64>();
                heap.push(Reverse((Cost(sum), p as u32, j as u32)));
            }
        }
    }
    (choice, total)
}

/// The classes reachable from `roots` through `choice`, children before parents, with the
/// number of selected users of each (roots count as users); `None` on a cycle or a class
/// without a choice.
fn selected(t: &Table, roots: &[u32], choice: &[u32]) -> Option<(Vec<u32>, Vec<u32>)> {
    let n = t.ids.len();
    let mut order = Vec::new();
    let mut refs = vec![0u32; n];
    // 0 = unseen, 1 = on the stack, 2 = finished
    let mut state = vec![0u8; n];
    let mut stack: Vec<(u32, usize)> = Vec::new();
    for &r in roots {
        refs[r as usize] += 1;
        if state[r as usize] != 0 {
            continue;
        }
        state[r as usize] = 1;
        stack.push((r, 0));
        while let Some(top) = stack.last_mut() {
            let (c, next) = (top.0 as usize, top.1);
            let pick = choice[c];
            if pick == NONE {
                return None;
            }
            let kids = &t.kids[c][pick as usize];
            if next == 0 {
                for &k in kids {
                    refs[k as usize] += 1;
                }
            }
            if let Some(&k) = kids.get(next) {
                top.1 += 1;
                match state[k as usize] {
                    1 => return None,
                    2 => {}
                    _ => {
                        state[k as usize] = 1;
                        stack.push((k, 0));
                    }
                }
            } else {
                state[c] = 2;
                order.push(c as u32);
                stack.pop();
            }
        }
    }
    Some((order, refs))
}

fn dag_cost(t: &Table, order: &[u32], choice: &[u32]) -> f64 {
    order
        .iter()
        .map(|&c| t.own[c as usize][choice[c as usize] as usize])
        .sum()
}

fn finish(egraph: &EGraph, t: &Table, roots: &[u32], choice: &[u32]) -> Extraction {
    let Some((order, _)) = selected(t, roots, choice) else {
        return Extraction::default();
    };
    let mut ex = Extraction {
        dag_cost: dag_cost(t, &order, choice),
        ..Extraction::default()
    };
    for &c in &order {
        let (c, i) = (c as usize, choice[c as usize] as usize);
        let id = t.ids[c];
        if t.own[c][i].is_infinite() {
            ex.unavailable.push(id);
        }
        ex.choice.insert(id, egraph[id].nodes[i].clone());
    }
    ex
}

fn dense_roots(egraph: &EGraph, t: &Table, roots: &[Id]) -> Vec<u32> {
    roots
        .iter()
        .map(|&r| t.dense(egraph, r))
        .filter(|&r| r != NONE)
        .collect()
}

/// Phase 1 only: the cheapest tree (with sharing among the operands of one e-node).
pub fn tree(egraph: &EGraph, roots: &[Id], cost: impl Fn(&Node, &Facts) -> f64) -> Extraction {
    let t = Table::new(egraph, &cost);
    let (choice, _) = bottom_up(&t);
    finish(egraph, &t, &dense_roots(egraph, &t, roots), &choice)
}

/// Selected-DAG bookkeeping for the refinement: how many selected users each class has, and
/// exact cost changes as choices switch.
struct Selection<'t> {
    t: &'t Table,
    choice: Vec<u32>,
    refs: Vec<u32>,
    /// Classes touched by the current evaluation (bounded by [`REFINE_BUDGET`]).
    touched: usize,
}

impl Selection<'_> {
    /// Adds one use of `c` (selecting its subtree if it was unselected); returns the cost added.
    fn inc(&mut self, c: u32) -> f64 {
        let mut added = 0.0;
        let mut stack = vec![c];
        while let Some(c) = stack.pop() {
            let c = c as usize;
            self.refs[c] += 1;
            if self.refs[c] == 1 {
                self.touched += 1;
                let pick = self.choice[c] as usize;
                added += self.t.own[c][pick];
                stack.extend(self.t.kids[c][pick].iter().copied());
            }
        }
        added
    }

    /// Removes one use of `c` (deselecting its subtree if that was the last); returns the cost
    /// removed.
    fn dec(&mut self, c: u32) -> f64 {
        let mut removed = 0.0;
        let mut stack = vec![c];
        while let Some(c) = stack.pop() {
            let c = c as usize;
            self.refs[c] -= 1;
            if self.refs[c] == 0 {
                self.touched += 1;
                let pick = self.choice[c] as usize;
                removed += self.t.own[c][pick];
                stack.extend(self.t.kids[c][pick].iter().copied());
            }
        }
        removed
    }

    /// Switches selected class `x` to e-node `to`; returns the exact change of the DAG cost.
    fn switch(&mut self, x: usize, to: usize) -> f64 {
        let from = self.choice[x] as usize;
        let mut delta = self.t.own[x][to] - self.t.own[x][from];
        for &k in &self.t.kids[x][to] {
            delta += self.inc(k);
        }
        for &k in &self.t.kids[x][from] {
            delta -= self.dec(k);
        }
        self.choice[x] = to as u32;
        delta
    }

    /// True if `target` is reachable from `start` through the current choices (a switch of
    /// `target` to an e-node with these children would close a cycle).
    fn reaches(&self, start: &[u32], target: u32) -> bool {
        let mut seen = vec![false; self.t.ids.len()];
        let mut stack: Vec<u32> = start.to_vec();
        while let Some(c) = stack.pop() {
            if c == target {
                return true;
            }
            if std::mem::replace(&mut seen[c as usize], true) {
                continue;
            }
            let pick = self.choice[c as usize];
            if pick != NONE {
                stack.extend(self.t.kids[c as usize][pick as usize].iter().copied());
            }
        }
        false
    }
}

/// An evaluation that touches more classes than this is abandoned: it bounds the refinement's
/// cost per candidate on very large functions (the candidate is then simply not taken).
pub const REFINE_BUDGET: usize = 4096;

/// The DAG extractor (both phases; see the module docs).
pub fn dag(egraph: &EGraph, roots: &[Id], cost: impl Fn(&Node, &Facts) -> f64) -> Extraction {
    let t = Table::new(egraph, &cost);
    let roots = dense_roots(egraph, &t, roots);
    let (choice, _) = bottom_up(&t);
    let Some((_, refs)) = selected(&t, &roots, &choice) else {
        return finish(egraph, &t, &roots, &choice);
    };
    let mut sel = Selection {
        t: &t,
        choice,
        refs,
        touched: 0,
    };
    for _ in 0..REFINE_PASSES {
        let Some((order, _)) = selected(&t, &roots, &sel.choice) else {
            break;
        };
        let mut improved = false;
        for &x in order.iter().rev() {
            let x = x as usize;
            if t.own[x].len() < 2 || sel.refs[x] == 0 {
                continue;
            }
            for to in 0..t.own[x].len() {
                let from = sel.choice[x] as usize;
                if to == from || !t.own[x][to].is_finite() {
                    continue;
                }
                sel.touched = 0;
                let delta = sel.switch(x, to);
                let undo = |sel: &mut Selection<'_>| {
                    sel.switch(x, from);
                };
                if sel.touched > REFINE_BUDGET || delta.is_nan() || delta >= -EPS {
                    undo(&mut sel);
                    continue;
                }
                if sel.reaches(&t.kids[x][to], x as u32) {
                    undo(&mut sel);
                    continue;
                }
                improved = true;
            }
        }
        if !improved {
            break;
        }
    }
    finish(egraph, &t, &roots, &sel.choice)
}

/// `egg`'s tree-cost [`Extractor`](egg::Extractor) with the same e-node costs: the baseline.
pub struct EggTreeCost<'a, F> {
    /// The e-graph (for the classes' facts).
    pub egraph: &'a EGraph,
    /// The e-node cost.
    pub cost: F,
}

impl<F: Fn(&Node, &Facts) -> f64> CostFunction<Node> for EggTreeCost<'_, F> {
    type Cost = f64;

    fn cost<C>(&mut self, enode: &Node, mut costs: C) -> f64
    where
        C: FnMut(Id) -> f64,
    {
        let facts = self
            .egraph
            .lookup(enode.clone())
            .map(|id| self.egraph[id].data)
            .unwrap_or(Facts {
                ty: None,
                konst: None,
                uniform: false,
            });
        (self.cost)(enode, &facts) + enode.children().iter().map(|&c| costs(c)).sum::<f64>()
    }
}

/// The DAG cost of `egg`'s tree extraction for the given roots (for comparisons in tests and
/// benchmarks).
pub fn egg_tree_dag_cost(
    egraph: &EGraph,
    roots: &[Id],
    cost: impl Fn(&Node, &Facts) -> f64 + Copy,
) -> f64 {
    let ex = egg::Extractor::new(egraph, EggTreeCost { egraph, cost });
    let t = Table::new(egraph, &cost);
    let choice: Vec<u32> = t
        .ids
        .iter()
        .map(|&id| {
            let n = ex.find_best_node(id);
            egraph[id]
                .nodes
                .iter()
                .position(|m| m == n)
                .map_or(NONE, |i| i as u32)
        })
        .collect();
    match selected(&t, &dense_roots(egraph, &t, roots), &choice) {
        Some((order, _)) => dag_cost(&t, &order, &choice),
        None => f64::INFINITY,
    }
}
