//! A topological order of the choice graph, kept valid as choices switch.
//!
//! The choice graph has an edge from every class to each child of its chosen e-node (chosen or
//! not, every class with a choice: a class that becomes needed brings its chosen subtree along).
//! The order gives each class a distinct position with every child before its parent. The
//! refinement asks, for each improving switch of class `x` to an e-node with children `K`,
//! whether `x` is reachable from `K` (the switch would close a cycle). With a valid order only
//! the classes positioned between `x` and the highest child can lie on such a path, so the
//! search stays inside that window; a switch that is taken with a child above `x` then moves the
//! window's descendants of `K` below its ancestors of `x`, reusing the same positions. This is
//! Pearce and Kelly's dynamic topological sort ("A dynamic topological sort algorithm for
//! directed acyclic graphs", ACM JEA 11, 2006): the work per switch is proportional to the
//! window, not to the e-graph, and a switch whose reordering exceeds [`MAX_REORDER`] classes is
//! refused.

use super::{Table, NONE};

/// Most classes a switch may move: one whose reordering would touch more is refused, as if it
/// closed a cycle (the extraction stays valid, only that improvement is forgone). The window of
/// a switch is small in shader-sized e-graphs, but in 100,000-instruction functions some
/// switches reach across tens of thousands of classes, and their searches and sorts made the
/// refinement superlinear.
const MAX_REORDER: usize = 4096;

/// Positions of the classes in a topological order of the current choices.
pub(super) struct TopoOrder {
    pos: Vec<u32>,
    /// Visit marks: a class is marked in the current search when its mark equals `epoch`.
    mark: Vec<u32>,
    epoch: u32,
    /// Scratch: the window's descendants of the new children and ancestors of `x`.
    below: Vec<u32>,
    above: Vec<u32>,
    stack: Vec<u32>,
}

impl TopoOrder {
    /// The order in which phase 1 finalized the classes (each after its chosen node's children);
    /// classes it never finalized have no choice and no edges and go last.
    pub(super) fn new(n: usize, finalized: &[u32]) -> TopoOrder {
        let mut pos = vec![NONE; n];
        let mut next = 0u32;
        for &c in finalized {
            pos[c as usize] = next;
            next += 1;
        }
        for p in pos.iter_mut().filter(|p| **p == NONE) {
            *p = next;
            next += 1;
        }
        TopoOrder {
            pos,
            mark: vec![0; n],
            epoch: 0,
            below: Vec::new(),
            above: Vec::new(),
            stack: Vec::new(),
        }
    }

    fn next_epoch(&mut self) -> u32 {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            // Wrapped: clear stale marks once every 2^32 searches.
            self.mark.fill(0);
            self.epoch = 1;
        }
        self.epoch
    }

    /// Whether `x` may switch to an e-node with the (distinct) children `kids` without closing a
    /// cycle under `choice` (where `x`'s own entry does not matter); if so, the order is
    /// updated so that it stays valid once the switch is made.
    pub(super) fn admit(&mut self, t: &Table, choice: &[u32], x: u32, kids: &[u32]) -> bool {
        if kids.contains(&x) {
            return false;
        }
        let lb = self.pos[x as usize];
        let ub = kids
            .iter()
            .map(|&k| self.pos[k as usize])
            .filter(|&p| p > lb)
            .max();
        let Some(ub) = ub else {
            // Every child is already below `x`: nothing below can reach it.
            return true;
        };
        // Descendants of the children above `x`. A class below `x` cannot reach `x`: every path
        // from it descends in the order.
        let epoch = self.next_epoch();
        self.below.clear();
        self.stack.clear();
        for &k in kids {
            if self.pos[k as usize] > lb && self.mark[k as usize] != epoch {
                self.mark[k as usize] = epoch;
                self.stack.push(k);
            }
        }
        while let Some(c) = self.stack.pop() {
            self.below.push(c);
            if self.below.len() > MAX_REORDER {
                return false;
            }
            let pick = choice[c as usize];
            if pick == NONE {
                continue;
            }
            for &k in t.kids(c as usize, pick as usize) {
                if k == x {
                    return false;
                }
                if self.pos[k as usize] > lb && self.mark[k as usize] != epoch {
                    self.mark[k as usize] = epoch;
                    self.stack.push(k);
                }
            }
        }
        // Ancestors of `x` below the highest child: they must end up above all of `below`.
        let epoch = self.next_epoch();
        self.above.clear();
        self.stack.clear();
        self.mark[x as usize] = epoch;
        self.stack.push(x);
        while let Some(c) = self.stack.pop() {
            self.above.push(c);
            if self.below.len() + self.above.len() > MAX_REORDER {
                return false;
            }
            for &(p, j) in t.parents(c as usize) {
                let uses = choice[p as usize] == j && p != x;
                if uses && self.pos[p as usize] < ub && self.mark[p as usize] != epoch {
                    self.mark[p as usize] = epoch;
                    self.stack.push(p);
                }
            }
        }
        // Reuse the window's positions: the lowest for `below`, the rest for `above`, each group
        // in its previous relative order.
        let pos = &mut self.pos;
        self.below.sort_unstable_by_key(|&c| pos[c as usize]);
        self.above.sort_unstable_by_key(|&c| pos[c as usize]);
        let mut slots: Vec<u32> = self
            .below
            .iter()
            .chain(&self.above)
            .map(|&c| pos[c as usize])
            .collect();
        slots.sort_unstable();
        for (&c, &p) in self.below.iter().chain(&self.above).zip(&slots) {
            pos[c as usize] = p;
        }
        true
    }

    /// Whether the order is a topological order of `choice` (checked in debug builds).
    pub(super) fn is_valid(&self, t: &Table, choice: &[u32]) -> bool {
        (0..choice.len()).all(|c| {
            let pick = choice[c];
            pick == NONE
                || t.kids(c, pick as usize)
                    .iter()
                    .all(|&k| self.pos[k as usize] < self.pos[c])
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::{bottom_up, Table};
    use super::*;
    use crate::opt::analysis::EGraph;
    use crate::opt::runner::{saturate, Limits};
    use crate::opt::synth::{self, Rng};
    use crate::opt::{to_egraph, GenericTarget, Target};

    /// Whether `x` is reachable from `kids` through `choice` (without passing through `x`).
    fn reaches(t: &Table, choice: &[u32], kids: &[u32], x: u32) -> bool {
        let mut seen = vec![false; choice.len()];
        let mut stack = kids.to_vec();
        while let Some(c) = stack.pop() {
            if c == x {
                return true;
            }
            if std::mem::replace(&mut seen[c as usize], true) || choice[c as usize] == NONE {
                continue;
            }
            stack.extend_from_slice(t.kids(c as usize, choice[c as usize] as usize));
        }
        false
    }

    #[test]
    fn admitted_switches_close_no_cycle_and_keep_the_order_topological() {
        let target = GenericTarget::new();
        let f = synth::shader_like(400, 11);
        let mut eg = EGraph::default();
        to_egraph::lower(&f, &mut eg).expect("lowers");
        eg.rebuild();
        let (eg, _) = saturate(eg, target.rules(), &Limits::default());
        let t = Table::new(&eg, &|_, _| 1.0);
        let phase1 = bottom_up(&t);
        let mut choice = phase1.choice;
        let mut order = TopoOrder::new(t.ids.len(), &phase1.finalized);
        assert!(order.is_valid(&t, &choice));
        let many: Vec<usize> = (0..t.ids.len()).filter(|&c| t.node_count(c) > 1).collect();
        assert!(many.len() > 20, "too few classes with alternatives");
        let mut rng = Rng::new(5);
        let (mut admitted, mut refused) = (0, 0);
        for _ in 0..4000 {
            let x = many[rng.below(many.len())];
            let to = rng.below(t.node_count(x));
            let kids = t.kids(x, to);
            if kids
                .iter()
                .any(|&k| k == NONE || choice[k as usize] == NONE)
            {
                continue;
            }
            let cycle = reaches(&t, &choice, kids, x as u32);
            assert_eq!(order.admit(&t, &choice, x as u32, kids), !cycle);
            if cycle {
                refused += 1;
            } else {
                choice[x] = to as u32;
                admitted += 1;
                assert!(order.is_valid(&t, &choice));
            }
        }
        assert!(
            admitted > 100 && refused > 0,
            "{admitted} admitted, {refused} refused"
        );
    }
}
