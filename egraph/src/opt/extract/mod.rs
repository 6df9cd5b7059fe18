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
//! 2. **Sharing-aware local search** ([`refine`]): keep, for the current choice, the number of
//!    selected users of every class. For every selected class and every alternative e-node,
//!    compute the *exact* change of the DAG cost if the class switched to it: its own cost
//!    difference, plus the classes that become needed (their first user appears; a value
//!    something else already computes is free) minus those that are no longer needed (their last
//!    user goes), found by incremental reference counting. Take the switch if the cost drops and
//!    it closes no cycle. Passes repeat until nothing improves, at most [`REFINE_PASSES`] times;
//!    every step lowers the true DAG cost, so the result is never worse than phase 1.
//!
//! # Cost on large functions
//! Both phases are linear in the e-graph's size up to two bounded quantities: an evaluation
//! that would touch more than [`REFINE_BUDGET`] classes is abandoned (and undone from a log, so
//! the bound holds for the work, not just for the decision), and the cycle check runs against a
//! topological order of the choices that is kept valid as they switch ([`order`], after Pearce
//! and Kelly), so it only visits the classes between the switched class and its new children in
//! that order instead of everything below them.
//!
//! [`tree`] is phase 1 alone; [`EggTreeCost`] plugs the same costs into `egg`'s own tree
//! [`Extractor`](egg::Extractor), the baseline the tests compare against.
//!
//! Classes are renumbered densely for the work (e-class ids are sparse after merging).

mod order;
mod refine;

pub use refine::{dag, REFINE_BUDGET, REFINE_PASSES};

use super::analysis::{EGraph, Facts};
use super::language::Node;
use egg::{CostFunction, Id, Language};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

/// Phase 1's ceiling for the tree costs of available terms (see [`bottom_up`]).
const TREE_COST_CAP: f64 = 1e300;

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

/// The e-graph in dense form: classes numbered `0..n`; per e-node its cost and distinct
/// children; per class the e-nodes (class, node index) that have it as a child. Everything is
/// in flat arrays indexed through offsets (few allocations, good locality on large e-graphs).
struct Table {
    ids: Vec<Id>,
    index: Vec<u32>,
    /// Class `c`'s e-nodes are `node_start[c]..node_start[c + 1]` in the per-node arrays.
    node_start: Vec<u32>,
    own: Vec<f64>,
    /// E-node `m`'s children are `kid_start[m]..kid_start[m + 1]` in `kid_list`.
    kid_start: Vec<u32>,
    kid_list: Vec<u32>,
    /// Class `c`'s users are `parent_start[c]..parent_start[c + 1]` in `parent_list`.
    parent_start: Vec<u32>,
    parent_list: Vec<(u32, u32)>,
}

impl Table {
    fn new(egraph: &EGraph, cost: &impl Fn(&Node, &Facts) -> f64) -> Table {
        // The classes themselves, sorted by id: looking each up by id would hash into `egg`'s
        // class table, a cache miss per class in large functions.
        let mut classes: Vec<&egg::EClass<Node, Facts>> = egraph.classes().collect();
        classes.sort_unstable_by_key(|c| c.id);
        let ids: Vec<Id> = classes.iter().map(|c| c.id).collect();
        let mut index = vec![NONE; egraph.nodes().len().max(1) + 1];
        for (i, &id) in ids.iter().enumerate() {
            let slot = usize::from(id);
            if slot >= index.len() {
                index.resize(slot + 1, NONE);
            }
            index[slot] = i as u32;
        }
        let mut node_start = Vec::with_capacity(ids.len() + 1);
        let mut own = Vec::new();
        let mut kid_start = vec![0u32];
        let mut kid_list = Vec::new();
        let mut users = vec![0u32; ids.len() + 1];
        for class in classes {
            node_start.push(own.len() as u32);
            for n in &class.nodes {
                own.push(cost(n, &class.data));
                let first = kid_list.len();
                kid_list.extend(
                    n.children()
                        .iter()
                        .map(|&c| index[usize::from(egraph.find(c))]),
                );
                let kids = &mut kid_list[first..];
                kids.sort_unstable();
                let distinct = dedup_sorted(kids);
                kid_list.truncate(first + distinct);
                for &k in &kid_list[first..] {
                    if k != NONE {
                        users[k as usize] += 1;
                    }
                }
                kid_start.push(kid_list.len() as u32);
            }
        }
        node_start.push(own.len() as u32);
        // Counting sort of the (child, user) pairs by child.
        let mut parent_start = Vec::with_capacity(ids.len() + 1);
        let mut sum = 0u32;
        for &u in &users {
            parent_start.push(sum);
            sum += u;
        }
        let mut fill = parent_start.clone();
        let mut parent_list = vec![(0u32, 0u32); sum as usize];
        for c in 0..ids.len() {
            let nodes = node_start[c] as usize..node_start[c + 1] as usize;
            for (i, m) in nodes.enumerate() {
                for &k in &kid_list[kid_start[m] as usize..kid_start[m + 1] as usize] {
                    if k != NONE {
                        let slot = &mut fill[k as usize];
                        parent_list[*slot as usize] = (c as u32, i as u32);
                        *slot += 1;
                    }
                }
            }
        }
        Table {
            ids,
            index,
            node_start,
            own,
            kid_start,
            kid_list,
            parent_start,
            parent_list,
        }
    }

    /// The number of e-nodes of class `c`.
    fn node_count(&self, c: usize) -> usize {
        (self.node_start[c + 1] - self.node_start[c]) as usize
    }

    /// The cost of e-node `i` of class `c`.
    fn own(&self, c: usize, i: usize) -> f64 {
        self.own[self.node_start[c] as usize + i]
    }

    /// The distinct children of e-node `i` of class `c`.
    fn kids(&self, c: usize, i: usize) -> &[u32] {
        let m = self.node_start[c] as usize + i;
        &self.kid_list[self.kid_start[m] as usize..self.kid_start[m + 1] as usize]
    }

    /// The e-nodes (class, node index) that have class `c` as a child.
    fn parents(&self, c: usize) -> &[(u32, u32)] {
        &self.parent_list[self.parent_start[c] as usize..self.parent_start[c + 1] as usize]
    }

    fn dense(&self, egraph: &EGraph, id: Id) -> u32 {
        self.index
            .get(usize::from(egraph.find(id)))
            .copied()
            .unwrap_or(NONE)
    }
}

/// The result of phase 1.
struct BottomUp {
    /// The chosen node index per class (`NONE` for a class no acyclic term reaches).
    choice: Vec<u32>,
    /// The classes in the order they were finalized: each after its chosen node's children, so
    /// a topological order of the choices.
    finalized: Vec<u32>,
}

/// Phase 1: bottom-up costs.
fn bottom_up(t: &Table) -> BottomUp {
    let n = t.ids.len();
    let mut missing: Vec<Vec<u32>> = Vec::with_capacity(n);
    let mut heap: BinaryHeap<Reverse<(Cost, u32, u32)>> = BinaryHeap::new();
    for c in 0..n {
        let mut m = Vec::with_capacity(t.node_count(c));
        for i in 0..t.node_count(c) {
            let kids = t.kids(c, i);
            if kids.is_empty() {
                heap.push(Reverse((Cost(t.own(c, i)), c as u32, i as u32)));
            }
            m.push(kids.len() as u32);
        }
        missing.push(m);
    }
    let mut choice = vec![NONE; n];
    let mut total = vec![f64::INFINITY; n];
    // The chosen term holds an e-node the target cannot execute.
    let mut unavailable = vec![false; n];
    let mut finalized = Vec::with_capacity(n);
    while let Some(Reverse((Cost(cost), c, i))) = heap.pop() {
        let c = c as usize;
        if choice[c] != NONE {
            continue;
        }
        choice[c] = i;
        total[c] = cost;
        unavailable[c] = t.own(c, i as usize).is_infinite()
            || t.kids(c, i as usize)
                .iter()
                .any(|&k| unavailable[k as usize]);
        finalized.push(c as u32);
        for &(p, j) in t.parents(c) {
            let (p, j) = (p as usize, j as usize);
            if choice[p] != NONE {
                continue;
            }
            missing[p][j] -= 1;
            if missing[p][j] == 0 {
                let sum =
                    t.own(p, j) + t.kids(p, j).iter().map(|&k| total[k as usize]).sum::<f64>();
                // The cost of an available term stays finite: on a deep DAG the tree costs (a
                // shared value paid once per path to it) grow exponentially with depth and
                // would overflow to infinity, the cost of terms holding unavailable e-nodes,
                // and tie with them.
                let unavailable = t.own(p, j).is_infinite()
                    || t.kids(p, j).iter().any(|&k| unavailable[k as usize]);
                let sum = if unavailable {
                    sum
                } else {
                    sum.min(TREE_COST_CAP)
                };
                heap.push(Reverse((Cost(sum), p as u32, j as u32)));
            }
        }
    }
    BottomUp { choice, finalized }
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
            let kids = t.kids(c, pick as usize);
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
        .map(|&c| t.own(c as usize, choice[c as usize] as usize))
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
    // The classes by dense number, from one pass over them (see `Table::new`).
    let mut classes: Vec<Option<&egg::EClass<Node, Facts>>> = vec![None; t.ids.len()];
    for class in egraph.classes() {
        if let Some(slot) = t.index.get(usize::from(class.id)) {
            if let Some(entry) = classes.get_mut(*slot as usize) {
                *entry = Some(class);
            }
        }
    }
    ex.choice.reserve(order.len());
    for &c in &order {
        let (c, i) = (c as usize, choice[c as usize] as usize);
        let id = t.ids[c];
        if t.own(c, i).is_infinite() {
            ex.unavailable.push(id);
        }
        let class = classes[c].unwrap_or_else(|| &egraph[id]);
        ex.choice.insert(id, class.nodes[i].clone());
    }
    ex
}

/// Removes adjacent duplicates in place; returns the length of the distinct prefix.
fn dedup_sorted(v: &mut [u32]) -> usize {
    let mut len = 0;
    for i in 0..v.len() {
        if len == 0 || v[len - 1] != v[i] {
            v[len] = v[i];
            len += 1;
        }
    }
    len
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
    let phase1 = bottom_up(&t);
    finish(egraph, &t, &dense_roots(egraph, &t, roots), &phase1.choice)
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
