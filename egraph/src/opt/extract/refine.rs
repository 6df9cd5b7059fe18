//! Phase 2 of the DAG extractor: sharing-aware local search over the phase-1 choice.
//!
//! [`Selection`] keeps the number of selected users of every class and evaluates a switch of
//! one class to another of its e-nodes exactly, by incremental reference counting; every change
//! it makes is logged, so an evaluation that is abandoned or not taken is undone in time
//! proportional to what it touched. [`TopoOrder`] answers the cycle question for the switches
//! worth taking.

use super::order::TopoOrder;
use super::{bottom_up, dense_roots, finish, selected, Extraction, Table, EPS, NONE};
use crate::opt::analysis::{EGraph, Facts};
use crate::opt::language::Node;
use egg::Id;

/// Local-search passes; two or three usually reach a fixed point.
pub const REFINE_PASSES: usize = 4;

/// An evaluation that would select or deselect more classes than this is abandoned (and the
/// switch not taken): it bounds the refinement's work per candidate on very large functions.
pub const REFINE_BUDGET: usize = 4096;

/// Selected-DAG bookkeeping for the refinement: how many selected users each class has, and
/// exact cost changes as choices switch.
struct Selection<'t> {
    t: &'t Table,
    choice: Vec<u32>,
    refs: Vec<u32>,
    /// Reference count changes of the evaluation in progress: (class, incremented).
    log: Vec<(u32, bool)>,
    /// Classes whose selection changed in the evaluation in progress.
    touched: usize,
    /// The class being switched and its previous choice.
    pending: Option<(usize, u32)>,
    stack: Vec<u32>,
}

/// The evaluation went over [`REFINE_BUDGET`].
struct OverBudget;

impl Selection<'_> {
    /// Adds one use of `c` (selecting its subtree if it was unselected); returns the cost added.
    fn inc(&mut self, c: u32) -> Result<f64, OverBudget> {
        let mut added = 0.0;
        self.stack.clear();
        self.stack.push(c);
        while let Some(c) = self.stack.pop() {
            let c = c as usize;
            self.refs[c] += 1;
            self.log.push((c as u32, true));
            if self.refs[c] == 1 {
                self.touched += 1;
                if self.touched > REFINE_BUDGET {
                    return Err(OverBudget);
                }
                let pick = self.choice[c] as usize;
                added += self.t.own(c, pick);
                self.stack.extend_from_slice(self.t.kids(c, pick));
            }
        }
        Ok(added)
    }

    /// Removes one use of `c` (deselecting its subtree if that was the last); returns the cost
    /// removed.
    fn dec(&mut self, c: u32) -> Result<f64, OverBudget> {
        let mut removed = 0.0;
        self.stack.clear();
        self.stack.push(c);
        while let Some(c) = self.stack.pop() {
            let c = c as usize;
            self.refs[c] -= 1;
            self.log.push((c as u32, false));
            if self.refs[c] == 0 {
                self.touched += 1;
                if self.touched > REFINE_BUDGET {
                    return Err(OverBudget);
                }
                let pick = self.choice[c] as usize;
                removed += self.t.own(c, pick);
                self.stack.extend_from_slice(self.t.kids(c, pick));
            }
        }
        Ok(removed)
    }

    /// Switches selected class `x` to e-node `to` tentatively; returns the exact change of the
    /// DAG cost, or `None` (with the switch undone) if it went over budget. Follow with
    /// [`Selection::commit`] or [`Selection::undo`].
    fn try_switch(&mut self, x: usize, to: usize) -> Option<f64> {
        let from = self.choice[x] as usize;
        self.log.clear();
        self.touched = 0;
        self.pending = Some((x, from as u32));
        let t = self.t;
        let mut delta = t.own(x, to) - t.own(x, from);
        // New uses first, so a child both nodes share is never deselected.
        let evaluated = (|| {
            for &k in t.kids(x, to) {
                delta += self.inc(k)?;
            }
            for &k in t.kids(x, from) {
                delta -= self.dec(k)?;
            }
            Ok::<(), OverBudget>(())
        })();
        self.choice[x] = to as u32;
        match evaluated {
            Ok(()) => Some(delta),
            Err(OverBudget) => {
                self.undo();
                None
            }
        }
    }

    /// Keeps the tentative switch.
    fn commit(&mut self) {
        self.pending = None;
    }

    /// Reverts the tentative switch from the log.
    fn undo(&mut self) {
        for &(c, incremented) in self.log.iter().rev() {
            let r = &mut self.refs[c as usize];
            if incremented {
                *r -= 1;
            } else {
                *r += 1;
            }
        }
        self.log.clear();
        if let Some((x, from)) = self.pending.take() {
            self.choice[x] = from;
        }
    }
}

/// The DAG extractor (both phases; see the module docs of `extract`).
pub fn dag(egraph: &EGraph, roots: &[Id], cost: impl Fn(&Node, &Facts) -> f64) -> Extraction {
    let t = Table::new(egraph, &cost);
    let roots = dense_roots(egraph, &t, roots);
    let phase1 = bottom_up(&t);
    let Some((_, refs)) = selected(&t, &roots, &phase1.choice) else {
        return finish(egraph, &t, &roots, &phase1.choice);
    };
    let mut topo = TopoOrder::new(t.ids.len(), &phase1.finalized);
    let mut sel = Selection {
        t: &t,
        choice: phase1.choice,
        refs,
        log: Vec::new(),
        touched: 0,
        pending: None,
        stack: Vec::new(),
    };
    for _ in 0..REFINE_PASSES {
        let Some((order, _)) = selected(&t, &roots, &sel.choice) else {
            break;
        };
        let mut improved = false;
        for &x in order.iter().rev() {
            let x = x as usize;
            if t.node_count(x) < 2 || sel.refs[x] == 0 {
                continue;
            }
            for to in 0..t.node_count(x) {
                let from = sel.choice[x] as usize;
                let kids = t.kids(x, to);
                // A child without a choice has no acyclic term: the e-node cannot be used.
                if to == from
                    || !t.own(x, to).is_finite()
                    || kids.iter().any(|&k| sel.choice[k as usize] == NONE)
                {
                    continue;
                }
                let Some(delta) = sel.try_switch(x, to) else {
                    continue;
                };
                if delta.is_nan() || delta >= -EPS || !topo.admit(&t, &sel.choice, x as u32, kids) {
                    sel.undo();
                    continue;
                }
                sel.commit();
                improved = true;
            }
        }
        debug_assert!(
            topo.is_valid(&t, &sel.choice),
            "the order stays topological"
        );
        if !improved {
            break;
        }
    }
    finish(egraph, &t, &roots, &sel.choice)
}
