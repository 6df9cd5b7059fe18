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
//! 2. **Sharing-aware refinement**: with the current choice, count for every selected class how
//!    many selected users it has. Re-price every selected class's e-nodes with children that
//!    other users already pay for counted as free (marginal cost), and switch to a cheaper one.
//!    A pass is kept only if the choice stays acyclic and its true DAG cost drops; at most
//!    [`REFINE_PASSES`] passes run.
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

/// Sharing-aware refinement passes; each is linear in the selected DAG, and two or three
/// usually reach a fixed point.
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

#[derive(Clone, Copy, PartialEq, PartialOrd)]
struct Cost(f64);
impl Eq for Cost {}
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
                let sum = t.own[p][j]
                    + t.kids[p][j]
                        .iter()
                        .map(|&k| total[k as usize])
                        .sum::<f64>();
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

/// The DAG extractor (both phases; see the module docs).
pub fn dag(egraph: &EGraph, roots: &[Id], cost: impl Fn(&Node, &Facts) -> f64) -> Extraction {
    let t = Table::new(egraph, &cost);
    let roots = dense_roots(egraph, &t, roots);
    let (mut choice, tree_cost) = bottom_up(&t);
    for _ in 0..REFINE_PASSES {
        let Some((order, refs)) = selected(&t, &roots, &choice) else {
            break;
        };
        let before = dag_cost(&t, &order, &choice);
        let mut next = choice.clone();
        for &x in order.iter().rev() {
            let x = x as usize;
            let cur = choice[x] as usize;
            let cur_kids = &t.kids[x][cur];
            let marginal = |i: usize| -> f64 {
                t.own[x][i]
                    + t.kids[x][i]
                        .iter()
                        .map(|&k| {
                            let mine = cur_kids.binary_search(&k).is_ok() as u32;
                            if refs[k as usize] > mine || k as usize == x {
                                0.0
                            } else {
                                tree_cost[k as usize]
                            }
                        })
                        .sum::<f64>()
            };
            let mut pick = (marginal(cur), cur);
            for i in 0..t.own[x].len() {
                if i == cur || t.kids[x][i].binary_search(&(x as u32)).is_ok() {
                    continue;
                }
                let m = marginal(i);
                if m + EPS < pick.0 {
                    pick = (m, i);
                }
            }
            next[x] = pick.1 as u32;
        }
        if next == choice {
            break;
        }
        match selected(&t, &roots, &next) {
            Some((order, _)) if dag_cost(&t, &order, &next) + EPS < before => choice = next,
            _ => break,
        }
    }
    finish(egraph, &t, &roots, &choice)
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
