//! The bottom-up pressure order of a block: a third candidate (besides the order instruction
//! selection produced and the top-down pressure-first list schedule) for the schedule with the
//! fewest live registers.
//!
//! Why bottom-up: a top-down greedy pick cannot tell when to *start* a chain. Every load,
//! varying read or texture sample at the top of a block raises the pressure by the same amount,
//! so a top-down pressure-first order issues them in a row, and they stay live until their uses
//! far below (`sw_texture3d` read all four varyings, twelve registers, before the first
//! arithmetic). Scheduled from the end, an instruction becomes ready when all its users are
//! placed, and placing it frees its result: a load sinks to just above its first use, which is
//! what a pressure-minimal order wants. Mesa's AGX backend schedules the same way
//! (`agx_pressure_schedule.c`, a bottom-up list scheduler choosing the smallest pressure
//! change); the exact peak of each candidate is still measured top-down by
//! [`BlockGraph::peak`], and the lowest wins.
//!
//! Cost: every pick takes the smallest key of an ordered set; an instruction's key changes
//! only when a group it reads becomes live or the last unplaced definer of a group it writes
//! is placed, so the order costs `O((n + operands) log n)`.

use std::cmp::Reverse;
use std::collections::BTreeSet;

use super::graph::BlockGraph;

impl BlockGraph {
    /// The block's instructions placed from the last to the first, each pick the ready
    /// instruction (all its dependants placed) that adds the fewest live units above it (ties:
    /// the latest in the selected order), returned in execution order.
    pub(super) fn bottom_up_order(&self) -> Vec<usize> {
        let n = self.len();
        if n <= 1 {
            return self.original_order();
        }
        let mut succs_left = vec![0u32; n];
        let mut preds: Vec<Vec<u32>> = vec![Vec::new(); n];
        for k in 0..n {
            for &(s, _) in self.succs.row(k) {
                succs_left[k] += 1;
                preds[s as usize].push(k as u32);
            }
        }
        let mut live: Vec<bool> = self.groups.iter().map(|x| x.live_out).collect();
        let mut defs_left: Vec<u32> = (0..self.groups.len())
            .map(|x| self.definers.row(x).len() as u32)
            .collect();
        let mut placed = vec![false; n];
        let delta = |k: usize, live: &[bool], defs_left: &[u32]| -> i64 {
            let mut d = 0i64;
            for r in self.uses.row(k) {
                let x = r.group as usize;
                if !live[x] && !r.written {
                    d += i64::from(self.groups[x].units);
                }
            }
            for &x in self.defs.row(k) {
                let x = x as usize;
                let read = self.uses.row(k).iter().any(|r| r.group as usize == x);
                if live[x] && defs_left[x] == 1 && !self.groups[x].live_in && !read {
                    d -= i64::from(self.groups[x].units);
                }
            }
            d
        };
        let mut key = vec![0i64; n];
        let mut ready: BTreeSet<(i64, Reverse<usize>)> = BTreeSet::new();
        for k in 0..n {
            if succs_left[k] == 0 {
                key[k] = delta(k, &live, &defs_left);
                ready.insert((key[k], Reverse(k)));
            }
        }
        let mut order = Vec::with_capacity(n);
        let mut touched: Vec<u32> = Vec::new();
        while let Some((_, Reverse(k))) = ready.pop_first() {
            placed[k] = true;
            order.push(k);
            touched.clear();
            for &x in self.defs.row(k) {
                let x = x as usize;
                defs_left[x] = defs_left[x].saturating_sub(1);
                if defs_left[x] == 0 && !self.groups[x].live_in {
                    live[x] = false;
                } else if defs_left[x] == 1 {
                    touched.extend_from_slice(self.definers.row(x));
                }
            }
            for r in self.uses.row(k) {
                let x = r.group as usize;
                if !live[x] {
                    live[x] = true;
                    touched.extend_from_slice(self.readers.row(x));
                    touched.extend_from_slice(self.definers.row(x));
                }
            }
            for &t in &touched {
                let t = t as usize;
                if !placed[t] && succs_left[t] == 0 {
                    ready.remove(&(key[t], Reverse(t)));
                    key[t] = delta(t, &live, &defs_left);
                    ready.insert((key[t], Reverse(t)));
                }
            }
            for &p in &preds[k] {
                let p = p as usize;
                succs_left[p] -= 1;
                if succs_left[p] == 0 {
                    key[p] = delta(p, &live, &defs_left);
                    ready.insert((key[p], Reverse(p)));
                }
            }
        }
        debug_assert_eq!(order.len(), n, "the dependence graph is acyclic");
        order.reverse();
        order
    }
}
