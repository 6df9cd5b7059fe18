//! Pre-register-allocation list scheduling.
//!
//! Pipeline position: after instruction selection, before register allocation. Each
//! straight-line block (the machine instructions between two structured pseudo-instructions) is
//! reordered on its dependence graph:
//!
//! - **register dependences** between views of a group whose units overlap: read after write
//!   (weighted with the writer's latency), write after read and write after write (order only);
//! - **memory order**: a store (device, threadgroup, stack, `st_tile`) or an atomic (a load
//!   and a store) stays after every earlier load and store, a load after the last earlier
//!   store or atomic; texture and varying reads are free;
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
//! and the threads in flight fall in steps as the register count grows (ERRATA.md, "Registers
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
//! Live units are tracked per group: a group is live on entry to a block when its interval
//! starts before the block, becomes live at its first definition otherwise, and dies after its
//! last use in the block unless it is live after the block (by the intervals of
//! `regalloc::liveness`).

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use crate::isa::Instr;
use crate::latency;
use crate::mir::{Group, MFunction, MInst, VReg};
use crate::regalloc::liveness::{intervals, Interval};

/// Latency from which an instruction's result is worth registers to wait for in parallel:
/// memory and texture results ([`latency::LOCAL_MEMORY_LATENCY`] and up), not ALU results.
pub const LONG_LATENCY: u32 = latency::LOCAL_MEMORY_LATENCY;

/// How many floors above the lower of the pressure-first and the selected order's peaks a block
/// whose pressure-floor schedule exceeds its budget is tried at.
const FLOOR_STEPS: u32 = 4;

/// Schedules every straight-line block of `m` within the register budget.
pub fn schedule(m: &mut MFunction) {
    let iv = intervals(&m.insts, m.groups.len());
    let blocks = straight_line_blocks(&m.insts);
    let graphs: Vec<BlockGraph> = blocks
        .iter()
        .map(|r| {
            let ops: Vec<Instr<VReg>> = m.insts[r.clone()]
                .iter()
                .filter_map(|x| match x {
                    MInst::Op(op) => Some(*op),
                    _ => None,
                })
                .collect();
            BlockGraph::new(ops, r.clone(), &iv, &m.groups)
        })
        .collect();
    let need = graphs
        .iter()
        .map(|g| g.through + g.peak(&g.original_order()))
        .max()
        .unwrap_or(0);
    let budget = register_budget(need, m.insts.iter().any(|i| i.is_structure()));
    // Registers are allocated for the whole function: below the most units any block needs
    // anyway (with the groups live through it), a block's schedule costs none.
    let firsts: Vec<u32> = graphs
        .iter()
        .map(|g| g.peak(&g.schedule(0, 0, false, true)))
        .collect();
    let floor = graphs
        .iter()
        .zip(&firsts)
        .map(|(g, &first)| g.through + first.min(g.peak(&g.original_order())))
        .max()
        .unwrap_or(0);
    let mut out = m.insts.clone();
    for (g, &first) in graphs.iter().zip(&firsts) {
        let limit = budget.saturating_sub(g.through);
        // A loop's waits recur every iteration, and registers within the budget cost no
        // occupancy: its blocks interleave for latency up to the budget.
        let floor = if in_loop(&m.insts, g.range.start) {
            limit
        } else {
            first.max(floor.saturating_sub(g.through))
        };
        let mut order = g.best_schedule(first, floor, limit);
        if g.peak(&order) > limit {
            order = g.original_order();
        }
        for (slot, k) in out[g.range.clone()].iter_mut().zip(order) {
            *slot = MInst::Op(g.ops[k]);
        }
    }
    m.insts = out;
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

/// Whether position `at` of `insts` is inside a loop.
fn in_loop(insts: &[MInst<VReg>], at: usize) -> bool {
    let mut depth = 0u32;
    for i in &insts[..at] {
        match i {
            MInst::Loop => depth += 1,
            MInst::EndLoop => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    depth > 0
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

/// How an instruction touches memory, for ordering.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mem {
    None,
    Read,
    Write,
    Fence,
}

fn mem_kind(i: &Instr<VReg>) -> Mem {
    use Instr::*;
    match i {
        DeviceLoad(_) | ThreadgroupLoad(_) | StackLoad(_) => Mem::Read,
        DeviceStore(_) | ThreadgroupStore(_) | StackStore(_) | StTile { .. } => Mem::Write,
        // An atomic reads and writes memory: ordering it as a store keeps it after every
        // earlier access and before every later one.
        DeviceAtomic(_) | ThreadgroupAtomic(_) => Mem::Write,
        // Image loads are texture loads: ordered after image stores to any image.
        TextureLoad(_) => Mem::Read,
        ImageWrite(_) => Mem::Write,
        ThreadgroupBarrier | Stop | Trap | Wait { .. } | SampleMask { .. } => Mem::Fence,
        _ => Mem::None,
    }
}

fn overlaps(a: &VReg, b: &VReg) -> bool {
    if a.group != b.group {
        return false;
    }
    let (x, y) = (a.units_range(), b.units_range());
    x.start < y.end && y.start < x.end
}

/// One straight-line block: its instructions, their dependences and heights, and what the
/// register model needs to know about its groups.
struct BlockGraph<'a> {
    ops: Vec<Instr<VReg>>,
    /// Positions of the block in the function.
    range: Range<usize>,
    uses: Vec<Vec<VReg>>,
    defs: Vec<Vec<VReg>>,
    /// Dependence edges `pred -> (succ, latency)`.
    succs: Vec<Vec<(usize, u32)>>,
    npreds: Vec<u32>,
    height: Vec<u32>,
    /// The instruction is, or feeds, one with a [`LONG_LATENCY`] result.
    long: Vec<bool>,
    groups: &'a [Group],
    /// Groups referenced in the block that are live on entry.
    live_in: HashSet<u32>,
    /// Groups referenced in the block that are live after it.
    live_out: HashSet<u32>,
    /// Units of the groups live through the block without being referenced in it.
    through: u32,
}

impl<'a> BlockGraph<'a> {
    fn new(
        ops: Vec<Instr<VReg>>,
        range: Range<usize>,
        iv: &[Option<Interval>],
        groups: &'a [Group],
    ) -> Self {
        let n = ops.len();
        let regs = |f: &dyn Fn(&Instr<VReg>, &mut Vec<VReg>)| -> Vec<Vec<VReg>> {
            ops.iter()
                .map(|i| {
                    let mut v = Vec::new();
                    f(i, &mut v);
                    v
                })
                .collect()
        };
        let uses = regs(&|i, v| i.for_each_use(|r| v.push(*r)));
        let defs = regs(&|i, v| i.for_each_def(|r| v.push(*r)));
        let (first, last) = (range.start, range.end - 1);
        let referenced: HashSet<u32> = uses
            .iter()
            .chain(&defs)
            .flatten()
            .map(|r| r.group)
            .collect();
        let interval = |g: u32| iv.get(g as usize).copied().flatten();
        let live_in = referenced
            .iter()
            .copied()
            .filter(|&g| interval(g).is_some_and(|i| i.start < first))
            .collect();
        let live_out = referenced
            .iter()
            .copied()
            .filter(|&g| interval(g).is_some_and(|i| i.end > last))
            .collect();
        let through = iv
            .iter()
            .flatten()
            .filter(|i| i.start < first && i.end > last && !referenced.contains(&i.group))
            .map(|i| groups[i.group as usize].units)
            .sum();
        let mut graph = BlockGraph {
            ops,
            range,
            uses,
            defs,
            succs: vec![Vec::new(); n],
            npreds: vec![0; n],
            height: vec![0; n],
            long: vec![false; n],
            groups,
            live_in,
            live_out,
            through,
        };
        graph.add_edges();
        for p in (0..n).rev() {
            let own = latency::cost(&graph.ops[p]).0;
            graph.height[p] = graph.succs[p]
                .iter()
                .map(|&(s, w)| w.max(1) + graph.height[s])
                .max()
                .unwrap_or(0)
                .max(own);
            graph.long[p] =
                own >= LONG_LATENCY || graph.succs[p].iter().any(|&(s, w)| w > 0 && graph.long[s]);
        }
        graph
    }

    fn add_edge(&mut self, p: usize, s: usize, w: u32) {
        if !self.succs[p].iter().any(|&(x, _)| x == s) {
            self.succs[p].push((s, w));
            self.npreds[s] += 1;
        }
    }

    fn add_edges(&mut self) {
        let n = self.ops.len();
        let mut last_write: Option<usize> = None;
        let mut reads_since_write: Vec<usize> = Vec::new();
        let mut last_fence: Option<usize> = None;
        for s in 0..n {
            for p in 0..s {
                let raw = self.defs[p]
                    .iter()
                    .any(|d| self.uses[s].iter().any(|u| overlaps(d, u)));
                if raw {
                    self.add_edge(p, s, latency::cost(&self.ops[p]).0);
                    continue;
                }
                let war = self.uses[p]
                    .iter()
                    .any(|u| self.defs[s].iter().any(|d| overlaps(d, u)));
                let waw = self.defs[p]
                    .iter()
                    .any(|d| self.defs[s].iter().any(|e| overlaps(d, e)));
                if war || waw {
                    self.add_edge(p, s, 0);
                }
            }
            if let Some(f) = last_fence {
                self.add_edge(f, s, 0);
            }
            match mem_kind(&self.ops[s]) {
                Mem::Read => {
                    if let Some(w) = last_write {
                        self.add_edge(w, s, 0);
                    }
                    reads_since_write.push(s);
                }
                Mem::Write => {
                    if let Some(w) = last_write {
                        self.add_edge(w, s, 0);
                    }
                    for r in std::mem::take(&mut reads_since_write) {
                        self.add_edge(r, s, 0);
                    }
                    last_write = Some(s);
                }
                Mem::Fence => {
                    for p in 0..s {
                        self.add_edge(p, s, 0);
                    }
                    last_fence = Some(s);
                }
                Mem::None => {}
            }
        }
    }

    fn original_order(&self) -> Vec<usize> {
        (0..self.ops.len()).collect()
    }

    /// The most units live at once (after any instruction, and on entry) when the block runs
    /// in `order`, not counting the groups live through it.
    fn peak(&self, order: &[usize]) -> u32 {
        let mut p = Pressure::new(self);
        let mut peak = p.units;
        for &k in order {
            peak = peak.max(p.apply(self, k));
        }
        peak
    }

    /// The list schedule above the pressure-first order's peak (module docs) when it stays
    /// within `limit` units; else, of the selected order and the list schedules by height or by
    /// selected order at a few floors up to `limit`, the one within `limit` with the fewest
    /// cycles.
    fn best_schedule(&self, first: u32, floor: u32, limit: u32) -> Vec<usize> {
        let order = self.schedule(floor, limit, true, true);
        if self.peak(&order) <= limit {
            return order;
        }
        // Greedy pressure-first picks can need more than the selected order does; any order
        // within the budget keeps its occupancy, so only cycles count among them.
        let original = self.original_order();
        let floor = first.min(self.peak(&original));
        let mut best_cycles = self.cycles(&original);
        let mut best = original;
        for by_height in [true, false] {
            for step in 0..=FLOOR_STEPS {
                let f = floor + limit.saturating_sub(floor) * step / FLOOR_STEPS;
                let order = self.schedule(f, limit, true, by_height);
                let cycles = self.cycles(&order);
                if cycles < best_cycles && self.peak(&order) <= limit {
                    best = order;
                    best_cycles = cycles;
                }
            }
        }
        best
    }

    /// The cycles the block takes in `order` by the in-order issue model of [`crate::latency`].
    fn cycles(&self, order: &[usize]) -> u32 {
        let mut ready_at = vec![0u32; self.ops.len()];
        let (mut cycle, mut end) = (0u32, 0u32);
        for &k in order {
            let (lat, interval) = latency::cost(&self.ops[k]);
            let issue = cycle.max(ready_at[k]);
            cycle = issue + interval;
            end = end.max(issue + lat);
            for &(s, w) in &self.succs[k] {
                ready_at[s] = ready_at[s].max(issue + w);
            }
        }
        end
    }

    /// The list schedule above the `floor` of live units, within `limit` units for
    /// instructions that lead to long-latency results (see the module docs); `fill_waits`
    /// prefers instructions that issue without waiting. `by_height` ranks by height, else by the
    /// selected order. `(0, 0, false, true)` is the pressure-first order.
    fn schedule(&self, floor: u32, limit: u32, fill_waits: bool, by_height: bool) -> Vec<usize> {
        let n = self.ops.len();
        if n <= 1 {
            return self.original_order();
        }
        let mut npreds = self.npreds.clone();
        let mut pressure = Pressure::new(self);
        let mut ready: Vec<usize> = (0..n).filter(|&k| npreds[k] == 0).collect();
        let mut order = Vec::with_capacity(n);
        let mut floor = floor.max(pressure.units);
        // The in-order issue model of `latency`: the cycle the next instruction could issue
        // at, and when each instruction's operands are ready.
        let mut cycle = 0u32;
        let mut ready_at = vec![0u32; n];
        let taller = |k: usize, b: usize| {
            by_height && self.height[k] > self.height[b]
                || ((!by_height || self.height[k] == self.height[b]) && k < b)
        };
        while !ready.is_empty() {
            // Memory and texture instructions (and what feeds them) count as never waiting:
            // nothing that only fills a wait may delay them.
            let stall = |k: usize| {
                if self.long[k] || !fill_waits {
                    0
                } else {
                    ready_at[k].saturating_sub(cycle)
                }
            };
            // The tallest instruction that issues without waiting, else the tallest.
            let better = |k: usize, b: usize| {
                (stall(k) == 0 && stall(b) > 0)
                    || ((stall(k) == 0) == (stall(b) == 0) && taller(k, b))
            };
            let mut pick = 0;
            for j in 1..ready.len() {
                if better(ready[j], ready[pick]) {
                    pick = j;
                }
            }
            let bound = |k: usize| {
                if self.long[k] {
                    limit.max(floor)
                } else {
                    floor
                }
            };
            let fits = |k: usize| {
                i64::from(pressure.units) + pressure.delta(self, k) <= i64::from(bound(k))
            };
            if !fits(ready[pick]) {
                // Any instruction that stays within its bound costs no registers, so the best
                // of those goes: preferring the one that lowers pressure most would let a
                // chain's next, waiting step beat starting an independent chain below the floor.
                // The pressure-first order (`!fill_waits`) takes the least-raising one always.
                let within = if fill_waits {
                    (0..ready.len()).filter(|&j| fits(ready[j])).reduce(|b, j| {
                        if better(ready[j], ready[b]) {
                            j
                        } else {
                            b
                        }
                    })
                } else {
                    None
                };
                match within {
                    Some(j) => pick = j,
                    None => {
                        let mut best_d = pressure.delta(self, ready[pick]);
                        for (j, &k) in ready.iter().enumerate() {
                            let dk = pressure.delta(self, k);
                            if dk < best_d || (dk == best_d && better(k, ready[pick])) {
                                pick = j;
                                best_d = dk;
                            }
                        }
                    }
                }
            }
            let k = ready.swap_remove(pick);
            floor = floor.max(pressure.apply(self, k));
            order.push(k);
            let issue = cycle.max(ready_at[k]);
            cycle = issue + latency::cost(&self.ops[k]).1;
            for &(s, w) in &self.succs[k] {
                ready_at[s] = ready_at[s].max(issue + w);
                npreds[s] -= 1;
                if npreds[s] == 0 {
                    ready.push(s);
                }
            }
        }
        if order.len() != n {
            // The graph is acyclic by construction (edges go forward); keep the original order
            // should that ever fail.
            return self.original_order();
        }
        order
    }
}

/// Live register units while a block is being ordered.
struct Pressure {
    live: HashSet<u32>,
    /// Uses of each group not yet scheduled.
    remaining: HashMap<u32, u32>,
    units: u32,
}

impl Pressure {
    fn new(b: &BlockGraph) -> Self {
        let mut remaining: HashMap<u32, u32> = HashMap::new();
        for r in b.uses.iter().flatten() {
            *remaining.entry(r.group).or_default() += 1;
        }
        let live: HashSet<u32> = b.live_in.clone();
        let units = live.iter().map(|&g| b.groups[g as usize].units).sum();
        Pressure {
            live,
            remaining,
            units,
        }
    }

    /// How scheduling `k` next changes the live units (at `k`, as [`Pressure::apply`] counts).
    fn delta(&self, b: &BlockGraph, k: usize) -> i64 {
        let mut d = 0i64;
        let mut born: Vec<u32> = Vec::new();
        for r in &b.defs[k] {
            if !self.live.contains(&r.group) && !born.contains(&r.group) {
                born.push(r.group);
                d += i64::from(b.groups[r.group as usize].units);
            }
        }
        let mut dying: Vec<u32> = Vec::new();
        for r in &b.uses[k] {
            let here = b.uses[k].iter().filter(|x| x.group == r.group).count() as u32;
            if self.remaining.get(&r.group).copied().unwrap_or(0) == here
                && !b.live_out.contains(&r.group)
                && !b.defs[k].iter().any(|d| d.group == r.group)
                && !dying.contains(&r.group)
            {
                dying.push(r.group);
                d -= i64::from(b.groups[r.group as usize].units);
            }
        }
        d
    }

    /// Schedules `k`: its definitions become live, the groups it reads last die. Returns the
    /// units live at `k` (a definition nothing reads occupies its registers there only).
    fn apply(&mut self, b: &BlockGraph, k: usize) -> u32 {
        for r in &b.defs[k] {
            if self.live.insert(r.group) {
                self.units += b.groups[r.group as usize].units;
            }
        }
        for r in &b.uses[k] {
            if let Some(c) = self.remaining.get_mut(&r.group) {
                *c = c.saturating_sub(1);
            }
        }
        // Sources read for the last time free their registers for the results (instructions
        // read all their sources before writing); a result nothing reads frees them after.
        let written = |g: u32| b.defs[k].iter().any(|d| d.group == g);
        let kill = |p: &mut Pressure, g: u32| {
            let unread = p.remaining.get(&g).copied().unwrap_or(0) == 0;
            if unread && !b.live_out.contains(&g) && p.live.remove(&g) {
                p.units -= b.groups[g as usize].units;
            }
        };
        for r in &b.uses[k] {
            if !written(r.group) {
                kill(self, r.group);
            }
        }
        let at = self.units;
        for r in &b.defs[k] {
            kill(self, r.group);
        }
        at
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::{
        DeviceAccess, Dst, FSrc, Lod, MemBase, MemFormat, MemOffset, Precision, RegClass, TexDim,
        TexIndex, TexOp,
    };

    fn text(m: &MFunction) -> Vec<String> {
        m.insts.iter().map(|i| i.to_string()).collect()
    }

    #[test]
    fn loads_move_above_independent_arithmetic() {
        let mut m = MFunction::default();
        let a = m.new_group(RegClass::R32);
        let b = m.new_group(RegClass::R32);
        let x = m.new_group(RegClass::R32);
        let y = m.new_group(RegClass::R32);
        let add = |dst, src| {
            MInst::Op(Instr::Fadd {
                prec: Precision::F32,
                dst: Dst::new(dst),
                sat: false,
                a: FSrc::reg(src),
                b: FSrc::imm(0x30),
            })
        };
        m.push(MInst::Op(Instr::MovImm {
            dst: Dst::new(a),
            imm: 1,
        }));
        m.push(add(b, a));
        m.push(MInst::Op(Instr::DeviceLoad(DeviceAccess {
            data: x,
            base: MemBase::Uniform(0),
            offset: MemOffset::Imm(0),
            format: MemFormat::I32,
            mask: 1,
            shift: 0,
            slot: 0,
        })));
        m.push(add(y, x));
        m.push(MInst::Op(Instr::DeviceStore(DeviceAccess {
            data: y,
            base: MemBase::Uniform(2),
            offset: MemOffset::Imm(0),
            format: MemFormat::I32,
            mask: 1,
            shift: 0,
            slot: 0,
        })));
        m.push(MInst::Op(Instr::DeviceStore(DeviceAccess {
            data: b,
            base: MemBase::Uniform(2),
            offset: MemOffset::Imm(1),
            format: MemFormat::I32,
            mask: 1,
            shift: 0,
            slot: 0,
        })));
        schedule(&mut m);
        let t = text(&m);
        // The load goes first; the stores keep their order.
        assert!(t[0].starts_with("device_load"), "{t:?}");
        let s1 = t
            .iter()
            .position(|l| l.contains("device_store %3"))
            .unwrap_or(99);
        let s2 = t
            .iter()
            .position(|l| l.contains("device_store %1"))
            .unwrap_or(0);
        assert!(s1 < s2, "{t:?}");
    }

    #[test]
    fn an_atomic_keeps_a_later_load_after_it() {
        // a = 1; atomic add (no result) of a; z = load; y = z + 1.0: the load is ready before
        // the atomic (which waits for `a`) and heads the longer chain, so only the rule that an
        // atomic reads and writes memory keeps it from moving up past the atomic.
        let mut m = MFunction::default();
        let a = m.new_group(RegClass::R32);
        let z = m.new_group(RegClass::R32);
        let y = m.new_group(RegClass::R32);
        m.push(MInst::Op(Instr::MovImm {
            dst: Dst::new(a),
            imm: 1,
        }));
        m.push(MInst::Op(Instr::DeviceAtomic(crate::isa::DeviceAtomic {
            op: crate::isa::AtomicOpc::Add,
            dst: None,
            value: a,
            base: MemBase::Uniform(0),
            offset: MemOffset::Imm(0),
            slot: 0,
        })));
        m.push(MInst::Op(Instr::DeviceLoad(DeviceAccess {
            data: z,
            base: MemBase::Uniform(0),
            offset: MemOffset::Imm(0),
            format: MemFormat::I32,
            mask: 1,
            shift: 0,
            slot: 0,
        })));
        m.push(MInst::Op(Instr::Fadd {
            prec: Precision::F32,
            dst: Dst::new(y),
            sat: false,
            a: FSrc::reg(z),
            b: FSrc::imm(0x30),
        }));
        schedule(&mut m);
        let t = text(&m);
        let at = |p: &str| t.iter().position(|l| l.starts_with(p)).unwrap_or(99);
        assert!(at("atomic") < at("device_load"), "{t:?}");
    }

    /// `n` independent chains `c = imm; t = texture_load(c); y = t + 1.0; store y`: a latency
    /// scheduler moves the texture loads (80 cycles) to the top, where all `n` results would
    /// be live.
    fn texture_chains(n: u16) -> MFunction {
        let mut m = MFunction::default();
        for i in 0..n {
            let c = m.new_group(RegClass::R32);
            let t = m.new_group(RegClass::R32);
            let y = m.new_group(RegClass::R32);
            m.op(Instr::MovImm {
                dst: Dst::new(c),
                imm: u32::from(i),
            });
            m.op(Instr::TextureLoad(TexOp {
                dst: t,
                coords: c,
                coords_discard: false,
                texture: TexIndex::Imm(0),
                sampler: TexIndex::Imm(0),
                dim: TexDim::D1,
                lod: Lod::Auto,
                extra: None,
                mask: 1,
                slot: 0,
                gather: None,
            }));
            m.op(Instr::Fadd {
                prec: Precision::F32,
                dst: Dst::new(y),
                sat: false,
                a: FSrc::reg(t),
                b: FSrc::imm(0x30),
            });
            m.op(Instr::DeviceStore(DeviceAccess {
                data: y,
                base: MemBase::Uniform(0),
                offset: MemOffset::Imm(i as i16),
                format: MemFormat::I32,
                mask: 1,
                shift: 0,
                slot: 0,
            }));
        }
        m
    }

    #[test]
    fn scheduling_keeps_the_occupancy_of_the_selected_order() {
        // In order, one chain at a time needs 2 halves: the occupancy step up to 104 halves
        // (1024 threads). 80 texture results in flight would need 160 halves (640 threads).
        let mut m = texture_chains(80);
        schedule(&mut m);
        let t = text(&m);
        // Within the step, the scheduler still hides latency: many loads go first.
        let loads_first = t.iter().take_while(|l| !l.starts_with("fadd")).count();
        assert!(loads_first > 20, "{t:?}");
        let alloc = crate::regalloc::allocate(m, 256).expect("allocates");
        assert!(alloc.gpr_halves <= 104, "{} halves", alloc.gpr_halves);
        assert_eq!(crate::regalloc::occupancy(alloc.gpr_halves), 1024);
    }

    /// Two chains `x = imm; y = x + 1.0; z = y + 1.0; store z`, inside a loop when `looped`.
    fn two_alu_chains(looped: bool) -> MFunction {
        let mut m = MFunction::default();
        if looped {
            m.push(MInst::Loop);
        }
        for i in 0..2 {
            let x = m.new_group(RegClass::R32);
            let y = m.new_group(RegClass::R32);
            let z = m.new_group(RegClass::R32);
            m.op(Instr::MovImm {
                dst: Dst::new(x),
                imm: 1,
            });
            for (dst, src) in [(y, x), (z, y)] {
                m.op(Instr::Fadd {
                    prec: Precision::F32,
                    dst: Dst::new(dst),
                    sat: false,
                    a: FSrc::reg(src),
                    b: FSrc::imm(0x30),
                });
            }
            m.op(Instr::DeviceStore(DeviceAccess {
                data: z,
                base: MemBase::Uniform(0),
                offset: MemOffset::Imm(i),
                format: MemFormat::I32,
                mask: 1,
                shift: 0,
                slot: 0,
            }));
        }
        if looped {
            m.push(MInst::Break);
            m.push(MInst::EndLoop);
        }
        m
    }

    #[test]
    fn alu_chains_interleave_only_inside_loops() {
        // Straight-line, the chains need one register at a time and run one after the other;
        // in a loop, the second chain's `mov_imm` fills the wait for the first `mov_imm`.
        for (looped, second) in [(false, "fadd"), (true, "mov_imm")] {
            let mut m = two_alu_chains(looped);
            schedule(&mut m);
            let t = text(&m);
            let first = t.iter().position(|l| l.starts_with("mov_imm")).unwrap_or(0);
            let next = t.get(first + 1).map(String::as_str).unwrap_or("");
            assert!(next.starts_with(second), "looped {looped}: {t:?}");
        }
    }

    #[test]
    fn the_budget_is_the_top_of_the_occupancy_step() {
        assert_eq!(register_budget(2, false), 104 - ALIGNMENT_SLACK);
        // r0 is not for values when the execution-mask stack is in use.
        assert_eq!(register_budget(2, true), 104 - ALIGNMENT_SLACK - 2);
        // 130 halves and the slack are within the 136-halves step (768 threads).
        assert_eq!(register_budget(130, false), 136 - ALIGNMENT_SLACK);
        // Never below what the selected order needs.
        assert_eq!(register_budget(254, false), 254);
    }
}
