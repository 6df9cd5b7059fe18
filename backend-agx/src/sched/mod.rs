//! Pre-register-allocation list scheduling.
//!
//! Pipeline position: after instruction selection, before register allocation. Each
//! straight-line block (the machine instructions between two structured pseudo-instructions) is
//! reordered on its dependence graph:
//!
//! - **register dependences** between views of a group whose units overlap: read after write
//!   (weighted with the writer's latency), write after read and write after write (order only);
//! - **memory order**, within each memory (device memory with images, threadgroup memory,
//!   the stack, the tile buffer; accesses to different ones never alias): a store or an atomic
//!   (a load and a store) stays after every earlier load and store of its memory, a load after
//!   the last earlier store or atomic of its memory; texture and varying reads are free;
//!   `threadgroup_barrier` and `sample_mask` (a discard) are fences for everything.
//!
//! # Heuristic
//! Critical-path list scheduling within a register budget:
//! 1. each instruction's *height* is its latency plus the longest latency-weighted path to the
//!    end of the block ([`crate::latency`]: device loads 60 cycles, textures 80, ALU 2..6), so
//!    loads and texture samples rise to the top of the block and their latency overlaps the
//!    independent work after them;
//! 2. among the ready instructions the tallest that issues without waiting for an operand (by
//!    the in-order issue model of [`crate::latency`]) goes first, else the tallest (ties:
//!    original order); memory and texture instructions and what feeds them count as never
//!    waiting, so filling a wait never delays them;
//! 3. but when scheduling it would raise the live register units (16-bit) above the block's
//!    *floor*, the best (as in 2) of the ready instructions that stay within it goes instead,
//!    else the one that raises them least (ties: as in 2); an instruction that leads to a
//!    memory or texture result ([`LONG_LATENCY`]) may use registers up to the block's budget.
//!
//! The floor is what the function needs anyway: the most units any block needs (the peak of
//! a pressure-first order of it, every pick the least-raising one, ties the tallest, or of the
//! order instruction selection produced if lower; with the groups live through it), or the
//! highest peak the schedule has reached so far. Registers are allocated for the whole
//! function, so a block below that costs none. Inside a loop the floor is the budget: its waits
//! recur every iteration. Below the
//! floor, registers cost nothing and the schedule interleaves for latency freely; above it,
//! only memory and texture latency is worth registers. A SIMD-group's own independent work is
//! what hides a load's 10 to 80 cycles, while the 2 to 6 cycles of an ALU result are hidden by
//! the other SIMD-groups in flight (occupancy), so spending registers to interleave independent
//! ALU chains buys little (Mesa's AGX backend schedules for register pressure alone,
//! `agx_pressure_schedule.c`).
//!
//! The budget keeps occupancy: the G13 hides latency mostly by switching between SIMD-groups,
//! and the threads in flight fall in steps as the register count grows (docs/g13.md, "Registers
//! and occupancy"). The order instruction selection produced needs some number of registers
//! (the most units live at once in any block, with the groups live through the block); the
//! schedule may use registers up to the top of that number's occupancy step
//! ([`register_budget`]), never more, and a block whose schedule would still exceed its budget
//! is scheduled again at a few floors between what it needs and its budget, by height and by
//! the selected order, and keeps the one within the budget with the fewest cycles (its original
//! order if none is faster). Within the step, extra registers cost no occupancy, and the
//! schedule spends them on hiding memory and texture latency (as the occupancy-targeting
//! schedulers of other GPU compilers do), and on interleaving ALU chains only in loops (above).
//!
//! # Three policies
//! That is [`Policy::Occupancy`]. [`Policy::Pressure`] caps the budget at the floor, and a
//! block whose schedules all exceed it takes the lower-peak of its selected and pressure-first
//! orders: instruction selection can emit every texture sample or load of a shader before
//! their uses (`sw_emboss`, `ubo_row_major`), and within the occupancy step the latency policy
//! keeps that, using two to three times Mesa's registers. [`Policy::PressureBottomUp`] adds the
//! bottom-up pressure order (`bottom_up`, Mesa's way) as a candidate pressure-first order:
//! a top-down greedy order still issues every varying read or load first (all raise the
//! pressure alike), one placed from the end sinks each to its first use. The compiler
//! schedules all three ways, allocates each and keeps the one with the fewest registers, the
//! first of them on a tie (`schedule_and_allocate` in `crate::pipeline`, the `sched` pass):
//! registers are what the shader-db comparison with Mesa counts, and what occupancy follows
//! once a shader leaves the first step. The price is latency where the pressure schedules win
//! (a load waited for right after it issues: more `wait`s and estimated cycles, as in Mesa's
//! code).
//!
//! A fourth and fifth candidate count registers differently: a vector that a block builds
//! piecewise (a fragment output's `st_tile` source, four components computed apart) counts
//! each written range from its own write ([`Prepared::sliced`]) rather than whole from its first
//! one, so the pressure orders can compute one component and free its inputs before starting
//! the next. The register allocator realises that (a vector's unit holds other values before
//! its first write), but not always, so these orders are candidates beside the three, chosen by
//! their allocations like them: `frag_derivatives` -O2 24 -> 18 halves, 36 corpus shaders and
//! levels narrower and none wider or longer when they were added.
//!
//! Live units are tracked per group: a group is live on entry to a block when its interval
//! starts before the block, becomes live at its first definition otherwise, and dies after its
//! last use in the block unless it is live after the block (by the intervals of
//! `regalloc::liveness`).
//!
//! # Cost
//! Each list schedule of a block of `n` instructions takes time `n log n` (and each block is
//! scheduled a bounded number of times): `graph` builds the dependence graph in one pass
//! with per-unit lists of writers and readers, `list` keeps the ready instructions in minimum
//! trees over their rank so that every pick is a few tree descents, and `pressure` keeps the
//! live units in arrays and names the few instructions whose pressure change a pick alters. The
//! units live through each block come from one sweep over the intervals. The scheduler as it
//! was first written (quadratic: every pair tested for a dependence, the ready list rescanned
//! and every candidate's pressure change recomputed at every pick) is kept as a test-only
//! reference, and the tests check that both produce the same schedules.
//!
//! The three policies share one [`Prepared`]: the graphs, the pressure-first orders and every
//! list schedule made are built once per function (a list schedule depends on its block and
//! arguments alone, and the policies ask for many of the same ones).

use std::cell::RefCell;
use std::ops::Range;

use rustc_hash::FxHashMap;

use crate::isa::Instr;
use crate::latency;
use crate::mir::{MFunction, MInst, VReg};
use crate::regalloc::liveness::{intervals, Interval};

mod bottom_up;
mod graph;
mod list;
mod pressure;
#[cfg(test)]
mod reference;
#[cfg(test)]
mod tests;

use graph::{BlockGraph, Numbering};

/// Latency from which an instruction's result is worth registers to wait for in parallel:
/// memory and texture results ([`latency::LOCAL_MEMORY_LATENCY`] and up), not ALU results.
pub const LONG_LATENCY: u32 = latency::LOCAL_MEMORY_LATENCY;

/// How many floors above the lower of the pressure-first and the selected order's peaks a block
/// whose pressure-floor schedule exceeds its budget is tried at.
const FLOOR_STEPS: u32 = 4;

/// How much register pressure a schedule may spend on latency.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// Up to the top of the selected order's occupancy step ([`register_budget`]).
    Occupancy,
    /// Up to the *floor* alone: the most units any block needs in the lower-peak of its
    /// selected and pressure-first orders (with the groups live through it). Latency is hidden
    /// only below that; a block whose schedules all exceed it takes the lower-peak of those two
    /// orders. This is how Mesa's AGX backend schedules (`agx_pressure_schedule.c`: for
    /// register pressure only, occupancy hides the rest).
    Pressure,
    /// [`Policy::Pressure`] with the bottom-up pressure order (`bottom_up`) as a further
    /// candidate for each block's pressure-first order, where it peaks lower. Not folded into
    /// `Pressure`: the unit count does not see alignment holes, and on some shaders the
    /// top-down order allocates in fewer registers although its peak is higher.
    PressureBottomUp,
}

/// Schedules every straight-line block of `m` within the occupancy budget
/// ([`Policy::Occupancy`]).
pub fn schedule(m: &mut MFunction) {
    schedule_with(m, Policy::Occupancy);
}

/// Schedules every straight-line block of `m` under `policy`.
pub fn schedule_with(m: &mut MFunction, policy: Policy) {
    Prepared::new(m).apply(m, policy);
}

/// List schedules of one block already made, by `(floor, limit, fill_waits, by_height)`.
type Made = RefCell<FxHashMap<(u32, u32, bool, bool), Vec<usize>>>;

/// A function's blocks prepared for scheduling under any [`Policy`]: the dependence graphs, the
/// peaks of the selected orders, the top-down pressure-first orders, and every list schedule
/// made so far. The compiler schedules each function all three ways (`schedule_and_allocate`
/// in `crate::pipeline`), and the policies ask for many of the same list schedules (a list
/// schedule depends on its block and arguments alone): made once, each is reused.
pub struct Prepared {
    graphs: Vec<BlockGraph>,
    /// Per block: the peak of the selected order.
    original_peaks: Vec<u32>,
    /// Per block: the top-down pressure-first order and its peak.
    top_down: Vec<(Vec<usize>, u32)>,
    made: Vec<Made>,
    exec_stack: bool,
    looped: Vec<u32>,
}

impl Prepared {
    /// The blocks of `m` prepared.
    pub fn new(m: &MFunction) -> Self {
        Self::with_graphs(m, block_graphs(m, false))
    }

    /// The blocks of `m` prepared with the register model that counts a vector built
    /// piecewise by its written ranges (`graph::Slices`), if `m` has such a vector; the
    /// compiler tries its pressure schedules besides the others (`schedule_and_allocate` in
    /// `crate::pipeline`).
    pub fn sliced(m: &MFunction) -> Option<Self> {
        let graphs = block_graphs(m, true);
        graphs
            .iter()
            .any(|g| g.sliced)
            .then(|| Self::with_graphs(m, graphs))
    }

    fn with_graphs(m: &MFunction, graphs: Vec<BlockGraph>) -> Self {
        let original_peaks = graphs.iter().map(|g| g.peak(&g.original_order())).collect();
        let top_down = graphs
            .iter()
            .map(|g| {
                let order = g.schedule(0, 0, false, true);
                let peak = g.peak(&order);
                (order, peak)
            })
            .collect();
        let made = graphs.iter().map(|_| Made::default()).collect();
        Prepared {
            graphs,
            original_peaks,
            top_down,
            made,
            exec_stack: m.insts.iter().any(|i| i.is_structure()),
            looped: loop_depths(&m.insts),
        }
    }

    /// Schedules every straight-line block of `m` under `policy`; `m` is the function these
    /// blocks were prepared from.
    pub fn apply(&self, m: &mut MFunction, policy: Policy) {
        let graphs = &self.graphs;
        let need = graphs
            .iter()
            .zip(&self.original_peaks)
            .map(|(g, &p)| g.through + p)
            .max()
            .unwrap_or(0);
        let budget = register_budget(need, self.exec_stack);
        // Registers are allocated for the whole function: below the most units any block needs
        // anyway (with the groups live through it), a block's schedule costs none.
        // The pressure-first order of each block: the top-down greedy one, and under
        // [`Policy::PressureBottomUp`] the bottom-up one too (`bottom_up`), whichever peaks
        // lower.
        let pressure_orders: Vec<(Vec<usize>, u32)> = graphs
            .iter()
            .zip(&self.top_down)
            .map(|(g, (top_down, top_peak))| {
                if policy == Policy::PressureBottomUp {
                    let bottom_up = g.bottom_up_order();
                    let peak = g.peak(&bottom_up);
                    if peak < *top_peak {
                        return (bottom_up, peak);
                    }
                }
                (top_down.clone(), *top_peak)
            })
            .collect();
        let floor = graphs
            .iter()
            .zip(&pressure_orders)
            .zip(&self.original_peaks)
            .map(|((g, &(_, first)), &original)| g.through + first.min(original))
            .max()
            .unwrap_or(0);
        let budget = match policy {
            Policy::Occupancy => budget,
            Policy::Pressure | Policy::PressureBottomUp => budget.min(floor),
        };
        let mut out = m.insts.clone();
        for (((g, (first_order, first)), made), &original) in graphs
            .iter()
            .zip(pressure_orders)
            .zip(&self.made)
            .zip(&self.original_peaks)
        {
            let limit = budget.saturating_sub(g.through);
            // A loop's waits recur every iteration, and registers within the budget cost no
            // occupancy: its blocks interleave for latency up to the budget.
            let floor = if self.looped[g.range.start] > 0 {
                limit
            } else {
                first.max(floor.saturating_sub(g.through))
            };
            let mut order = g.best_schedule(first, floor, limit, original, made);
            if g.peak(&order) > limit {
                order = g.original_order();
                if policy != Policy::Occupancy && first < original {
                    order = first_order;
                }
            }
            for (slot, k) in out[g.range.clone()].iter_mut().zip(order) {
                *slot = MInst::Op(g.ops[k]);
            }
        }
        m.insts = out;
    }
}

/// The dependence graph of every straight-line block of `m`, in order.
fn block_graphs(m: &MFunction, sliced: bool) -> Vec<BlockGraph> {
    let iv = intervals(&m.insts, m.groups.len());
    let blocks = straight_line_blocks(&m.insts);
    let through = live_through(&iv, &m.groups, &blocks);
    let mut numbering = Numbering::new(m.groups.len());
    blocks
        .iter()
        .zip(through)
        .map(|(r, through)| {
            let ops: Vec<Instr<VReg>> = m.insts[r.clone()]
                .iter()
                .filter_map(|x| match x {
                    MInst::Op(op) => Some(*op),
                    _ => None,
                })
                .collect();
            BlockGraph::new(
                ops,
                r.clone(),
                &iv,
                &m.groups,
                through,
                &mut numbering,
                sliced,
            )
        })
        .collect()
}

/// Halves the unit model does not see: holes that the alignment of 32-bit and wider groups
/// leaves in the allocation.
pub const ALIGNMENT_SLACK: u32 = 4;

/// The live units a schedule may reach when the order instruction selection produced needs
/// `need`: as many as keep that order's occupancy (less [`ALIGNMENT_SLACK`], and `r0`, whose
/// low half the execution-mask stack takes when `exec_stack`), and never fewer than `need`.
pub fn register_budget(need: u32, exec_stack: bool) -> u32 {
    let reserved = if exec_stack { 2 } else { 0 };
    let limit = crate::regalloc::occupancy_limit(need + reserved + ALIGNMENT_SLACK);
    need.max(limit.saturating_sub(reserved + ALIGNMENT_SLACK))
}

/// For each position of `insts`, the loops open before it (a position is inside a loop when
/// its count is not zero).
fn loop_depths(insts: &[MInst<VReg>]) -> Vec<u32> {
    let mut depth = 0u32;
    insts
        .iter()
        .map(|i| {
            let here = depth;
            match i {
                MInst::Loop => depth += 1,
                MInst::EndLoop => depth = depth.saturating_sub(1),
                _ => {}
            }
            here
        })
        .collect()
}

/// The maximal runs of machine instructions ([`MInst::Op`]) in `insts`.
fn straight_line_blocks(insts: &[MInst<VReg>]) -> Vec<Range<usize>> {
    let mut blocks = Vec::new();
    let mut i = 0;
    while i < insts.len() {
        if !matches!(insts[i], MInst::Op(_)) {
            i += 1;
            continue;
        }
        let start = i;
        while i < insts.len() && matches!(insts[i], MInst::Op(_)) {
            i += 1;
        }
        blocks.push(start..i);
    }
    blocks
}

/// For each block (in order, not overlapping), the units of the groups whose intervals start
/// before it and end after it: a sweep over the intervals by start, with their units summed
/// by end position in a Fenwick tree.
fn live_through(
    iv: &[Option<Interval>],
    groups: &[crate::mir::Group],
    blocks: &[Range<usize>],
) -> Vec<u32> {
    let mut by_start: Vec<Interval> = iv.iter().flatten().copied().collect();
    by_start.sort_by_key(|i| i.start);
    let len = by_start.iter().map(|i| i.end + 1).max().unwrap_or(0);
    let mut tree = vec![0u64; len + 1];
    let mut added = 0u64;
    let mut next = 0;
    blocks
        .iter()
        .map(|b| {
            let (first, last) = (b.start, b.end - 1);
            while next < by_start.len() && by_start[next].start < first {
                let i = by_start[next];
                let units = u64::from(groups.get(i.group as usize).map_or(0, |g| g.units));
                let mut at = i.end + 1;
                while at <= len {
                    tree[at] += units;
                    at += at & at.wrapping_neg();
                }
                added += units;
                next += 1;
            }
            // Units of the added intervals ending at or before `last`.
            let mut ended = 0u64;
            let mut at = (last + 1).min(len);
            while at > 0 {
                ended += tree[at];
                at &= at - 1;
            }
            (added - ended) as u32
        })
        .collect()
}

impl BlockGraph {
    /// The list schedule of [`BlockGraph::schedule`], taken from `made` when it was made
    /// before (and kept there).
    fn schedule_made(
        &self,
        made: &Made,
        floor: u32,
        limit: u32,
        fill_waits: bool,
        by_height: bool,
    ) -> Vec<usize> {
        let key = (floor, limit, fill_waits, by_height);
        if let Some(order) = made.borrow().get(&key) {
            return order.clone();
        }
        let order = self.schedule(floor, limit, fill_waits, by_height);
        made.borrow_mut().insert(key, order.clone());
        order
    }

    /// The list schedule above the pressure-first order's peak (module docs) when it stays
    /// within `limit` units; else, of the selected order (whose peak is `original`) and the
    /// list schedules by height or by selected order at a few floors up to `limit`, the one
    /// within `limit` with the fewest cycles. List schedules come from and go to `made`.
    fn best_schedule(
        &self,
        first: u32,
        floor: u32,
        limit: u32,
        original: u32,
        made: &Made,
    ) -> Vec<usize> {
        let order = self.schedule_made(made, floor, limit, true, true);
        if self.peak(&order) <= limit {
            return order;
        }
        // The list schedules tried: one asked for again is the same schedule, which cannot win
        // (it exceeded the limit, or its cycles are no fewer than the best's).
        let mut tried = vec![(floor, true)];
        // Greedy pressure-first picks can need more than the selected order does; any order
        // within the budget keeps its occupancy, so only cycles count among them.
        let floor = first.min(original);
        let original = self.original_order();
        let mut best_cycles = self.cycles(&original);
        let mut best = original;
        for by_height in [true, false] {
            for step in 0..=FLOOR_STEPS {
                let f = floor + limit.saturating_sub(floor) * step / FLOOR_STEPS;
                if tried.contains(&(f, by_height)) {
                    continue;
                }
                tried.push((f, by_height));
                let order = self.schedule_made(made, f, limit, true, by_height);
                let cycles = self.cycles(&order);
                if cycles < best_cycles && self.peak(&order) <= limit {
                    best = order;
                    best_cycles = cycles;
                }
            }
        }
        best
    }
}
