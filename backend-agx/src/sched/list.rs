//! The list scheduler of one block (the heuristic of the module docs), in time `n log n` in
//! the block's instructions.
//!
//! The picks compare ready instructions by a strict order: issuing without waiting first, then
//! by rank (height, then original position; or original position alone). The rank never
//! changes, so every instruction gets its rank's position once, and the ready instructions sit
//! in three minimum trees over those positions (issuing now and leading to a long-latency
//! result; issuing now otherwise; waiting for an operand), each leaf holding the instruction's
//! pressure change ([`Pressure::delta`]). Then every question a pick asks is one descent of a
//! tree: the best ready instruction (the leftmost present), the best one within a register
//! bound (the leftmost whose change is at most the room left), the one that raises pressure
//! least (the tree's minimum, then the leftmost holding it). Waiting instructions move to the
//! "now" tree when the issue cycle reaches their operands (a heap by ready cycle), and a
//! pressure change is recomputed only for the instructions [`Pressure::apply`] names.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::graph::BlockGraph;
use super::pressure::Pressure;

/// A leaf holding no instruction.
const ABSENT: i32 = i32::MAX;

/// Minimum tree over rank positions.
struct MinTree {
    size: usize,
    t: Vec<i32>,
}

impl MinTree {
    fn new(n: usize) -> Self {
        let size = n.next_power_of_two().max(1);
        MinTree {
            size,
            t: vec![ABSENT; 2 * size],
        }
    }

    fn set(&mut self, pos: usize, v: i32) {
        let mut i = pos + self.size;
        self.t[i] = v;
        while i > 1 {
            i /= 2;
            let m = self.t[2 * i].min(self.t[2 * i + 1]);
            if self.t[i] == m {
                // Nothing above changes either.
                break;
            }
            self.t[i] = m;
        }
    }

    fn min(&self) -> i32 {
        self.t[1]
    }

    /// The leftmost position holding at most `bound`.
    fn leftmost(&self, bound: i32) -> Option<usize> {
        if self.t[1] > bound {
            return None;
        }
        let mut i = 1;
        while i < self.size {
            i = if self.t[2 * i] <= bound {
                2 * i
            } else {
                2 * i + 1
            };
        }
        Some(i - self.size)
    }
}

/// Where an instruction is in the schedule.
#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Waiting,
    /// Ready; issues now; leads to a long-latency result.
    NowLong,
    /// Ready; issues now.
    NowShort,
    /// Ready; its operands arrive later.
    Later,
    Done,
}

/// The ready instructions (see the module docs).
struct Ready {
    now_long: MinTree,
    now_short: MinTree,
    later: MinTree,
    state: Vec<State>,
    delta: Vec<i32>,
    /// Waiting for operands: `(ready cycle, instruction)`.
    pending: BinaryHeap<Reverse<(u32, u32)>>,
}

impl Ready {
    fn tree(&mut self, s: State) -> Option<&mut MinTree> {
        match s {
            State::NowLong => Some(&mut self.now_long),
            State::NowShort => Some(&mut self.now_short),
            State::Later => Some(&mut self.later),
            State::Waiting | State::Done => None,
        }
    }

    fn put(&mut self, k: usize, pos: usize, s: State) {
        let old = self.state[k];
        if let Some(t) = self.tree(old) {
            t.set(pos, ABSENT);
        }
        self.state[k] = s;
        let d = self.delta[k];
        if let Some(t) = self.tree(s) {
            t.set(pos, d);
        }
    }

    fn update(&mut self, k: usize, pos: usize, d: i32) {
        self.delta[k] = d;
        let s = self.state[k];
        if let Some(t) = self.tree(s) {
            t.set(pos, d);
        }
    }

    /// The best position issuing now holding at most `long` (long-latency) or `short`, else
    /// the best waiting one holding at most `short`.
    fn best(&self, long: i32, short: i32) -> Option<usize> {
        let a = self.now_long.leftmost(long);
        let b = self.now_short.leftmost(short);
        match (a, b) {
            (Some(x), Some(y)) => Some(x.min(y)),
            (x, y) => x.or(y).or_else(|| self.later.leftmost(short)),
        }
    }
}

/// A pressure change as a tree value (changes are a few hundred units at most).
fn clamp(d: i64) -> i32 {
    d.clamp(i64::from(i32::MIN), i64::from(ABSENT - 1)) as i32
}

impl BlockGraph {
    /// The list schedule above the `floor` of live units, within `limit` units for
    /// instructions that lead to long-latency results (see the module docs); `fill_waits`
    /// prefers instructions that issue without waiting. `by_height` ranks by height, else by the
    /// selected order. `(0, 0, false, true)` is the pressure-first order.
    pub(super) fn schedule(
        &self,
        floor: u32,
        limit: u32,
        fill_waits: bool,
        by_height: bool,
    ) -> Vec<usize> {
        let n = self.len();
        if n <= 1 {
            return self.original_order();
        }
        // Rank positions: taller first (ties: original order), or original order.
        let mut by_rank: Vec<usize> = (0..n).collect();
        if by_height {
            by_rank.sort_by_key(|&k| (Reverse(self.height[k]), k));
        }
        let mut pos = vec![0usize; n];
        for (p, &k) in by_rank.iter().enumerate() {
            pos[k] = p;
        }
        let mut npreds = self.npreds.clone();
        let mut pressure = Pressure::new(self);
        let mut ready = Ready {
            now_long: MinTree::new(n),
            now_short: MinTree::new(n),
            later: MinTree::new(n),
            state: vec![State::Waiting; n],
            delta: vec![0; n],
            pending: BinaryHeap::new(),
        };
        let mut order = Vec::with_capacity(n);
        let mut floor = floor.max(pressure.units);
        // The in-order issue model of `latency`: the cycle the next instruction could issue
        // at, and when each instruction's operands are ready.
        let mut cycle = 0u32;
        let mut ready_at = vec![0u32; n];
        // Memory and texture instructions (and what feeds them) count as never waiting:
        // nothing that only fills a wait may delay them.
        let arrive = |k: usize, ready: &mut Ready, pressure: &Pressure, cycle: u32, at: u32| {
            ready.delta[k] = clamp(pressure.delta(k));
            let s = if self.long[k] {
                State::NowLong
            } else if !fill_waits || at <= cycle {
                State::NowShort
            } else {
                ready.pending.push(Reverse((at, k as u32)));
                State::Later
            };
            ready.put(k, pos[k], s);
        };
        for (k, _) in npreds.iter().enumerate().filter(|(_, &p)| p == 0) {
            arrive(k, &mut ready, &pressure, cycle, 0);
        }
        let mut touched: Vec<u32> = Vec::new();
        while order.len() < n {
            while let Some(&Reverse((at, k))) = ready.pending.peek() {
                if at > cycle {
                    break;
                }
                ready.pending.pop();
                // Picked while waiting, it is no longer ready.
                if ready.state[k as usize] == State::Later {
                    ready.put(k as usize, pos[k as usize], State::NowShort);
                }
            }
            // The tallest instruction that issues without waiting, else the tallest.
            let Some(best) = ready.best(ABSENT - 1, ABSENT - 1) else {
                // The graph is acyclic by construction (edges go forward); keep the original
                // order should that ever fail.
                return self.original_order();
            };
            let mut k = by_rank[best];
            let long_bound = i64::from(limit.max(floor));
            let room = |bound: i64| clamp(bound - i64::from(pressure.units));
            let fits = |k: usize| {
                let bound = if self.long[k] {
                    long_bound
                } else {
                    i64::from(floor)
                };
                i64::from(pressure.units) + i64::from(ready.delta[k]) <= bound
            };
            if !fits(k) {
                // Any instruction that stays within its bound costs no registers, so the best
                // of those goes: preferring the one that lowers pressure most would let a
                // chain's next, waiting step beat starting an independent chain below the floor.
                // The pressure-first order (`!fill_waits`) takes the least-raising one always.
                let within = if fill_waits {
                    ready.best(room(long_bound), room(i64::from(floor)))
                } else {
                    None
                };
                let at = within.or_else(|| {
                    let least = ready
                        .now_long
                        .min()
                        .min(ready.now_short.min())
                        .min(ready.later.min());
                    ready.best(least, least)
                });
                if let Some(p) = at {
                    k = by_rank[p];
                }
            }
            ready.put(k, pos[k], State::Done);
            touched.clear();
            floor = floor.max(pressure.apply(k, Some(&mut touched)));
            order.push(k);
            let issue = cycle.max(ready_at[k]);
            cycle = issue + self.cost[k].1;
            for &(s, w) in self.succs.row(k) {
                let s = s as usize;
                ready_at[s] = ready_at[s].max(issue + w);
                npreds[s] -= 1;
                if npreds[s] == 0 {
                    arrive(s, &mut ready, &pressure, cycle, ready_at[s]);
                }
            }
            for &t in &touched {
                let t = t as usize;
                if !matches!(ready.state[t], State::Waiting | State::Done) {
                    let d = clamp(pressure.delta(t));
                    ready.update(t, pos[t], d);
                }
            }
        }
        order
    }

    /// The most units live at once (after any instruction, and on entry) when the block runs
    /// in `order`, not counting the groups live through it.
    pub(super) fn peak(&self, order: &[usize]) -> u32 {
        let mut p = Pressure::new(self);
        let mut peak = p.units;
        for &k in order {
            peak = peak.max(p.apply(k, None));
        }
        peak
    }
}
