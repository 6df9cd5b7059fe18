//! The list scheduler as it was before it was made near-linear: every pair of instructions
//! tested for a dependence, the ready list scanned at every pick and every candidate's
//! pressure change recomputed from hash sets. Quadratic in the block, kept (for tests only) as
//! the independent statement of the heuristic that the fast scheduler must reproduce
//! instruction for instruction (`sched::tests`).

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use crate::isa::Instr;
use crate::latency;
use crate::mir::{Group, MFunction, MInst, VReg};
use crate::regalloc::liveness::{intervals, Interval};

use super::{register_budget, Policy, FLOOR_STEPS, LONG_LATENCY};

/// The scheduler as it was: the same schedules as [`super::schedule`] by construction.
/// With `sliced`, a vector built piecewise counts by its written ranges, as in
/// `sched::Prepared::sliced`.
pub fn schedule(m: &mut MFunction, policy: Policy, sliced: bool) {
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
            BlockGraph::new(ops, r.clone(), &iv, &m.groups, sliced)
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
    // The reference has no bottom-up order (`bottom_up` is checked on its own): it schedules
    // `PressureBottomUp` as `Pressure`, and the comparison tests use the other two policies.
    let budget = match policy {
        Policy::Occupancy => budget,
        Policy::Pressure | Policy::PressureBottomUp => budget.min(floor),
    };
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
            if policy == Policy::Pressure {
                let first_order = g.schedule(0, 0, false, true);
                if g.peak(&first_order) < g.peak(&order) {
                    order = first_order;
                }
            }
        }
        for (slot, k) in out[g.range.clone()].iter_mut().zip(order) {
            *slot = MInst::Op(g.ops[k]);
        }
    }
    m.insts = out;
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

/// How an instruction touches memory, for ordering: `Read(m)`/`Write(m)` in memory `m`
/// (0 device and images, 1 threadgroup, 2 stack, 3 tile buffer; accesses to different ones
/// never alias).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mem {
    None,
    Read(u8),
    Write(u8),
    Fence,
}

fn mem_kind(i: &Instr<VReg>) -> Mem {
    use Instr::*;
    match i {
        DeviceLoad(_) | TextureLoad(_) => Mem::Read(0),
        ThreadgroupLoad(_) => Mem::Read(1),
        StackLoad(_) => Mem::Read(2),
        // An atomic reads and writes memory: ordering it as a store keeps it after every
        // earlier access and before every later one.
        DeviceStore(_) | DeviceAtomic(_) | ImageWrite(_) => Mem::Write(0),
        ThreadgroupStore(_) | ThreadgroupAtomic(_) => Mem::Write(1),
        StackStore(_) => Mem::Write(2),
        StTile { .. } => Mem::Write(3),
        // A preamble's uniform stores end it (the uniforms are read by the main program).
        ThreadgroupBarrier
        | Stop
        | Trap
        | Wait { .. }
        | SampleMask { .. }
        | UniformStore { .. } => Mem::Fence,
        _ => Mem::None,
    }
}

/// Must `later` stay after `earlier` for memory's sake (same memory, not both reads)?
fn memory_ordered(earlier: Mem, later: Mem) -> bool {
    match (earlier, later) {
        (Mem::Write(a), Mem::Read(b) | Mem::Write(b)) | (Mem::Read(a), Mem::Write(b)) => a == b,
        _ => false,
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
    /// The vectors the block builds piecewise, with the unit ranges their writes cover: the
    /// register model counts each range as a group of its own (`graph::Slices`).
    slices: HashMap<u32, Vec<Range<u32>>>,
}

/// A group of the register model: a register group and, for a vector built piecewise, the
/// index of one of its written ranges (`WHOLE` otherwise).
type Key = (u32, usize);
const WHOLE: usize = usize::MAX;

impl<'a> BlockGraph<'a> {
    fn new(
        ops: Vec<Instr<VReg>>,
        range: Range<usize>,
        iv: &[Option<Interval>],
        groups: &'a [Group],
        sliced: bool,
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
        let mut slices: HashMap<u32, Vec<Range<u32>>> = HashMap::new();
        for r in defs.iter().flatten() {
            let list = slices.entry(r.group).or_default();
            if !list.contains(&r.units_range()) {
                list.push(r.units_range());
            }
        }
        slices.retain(|g, list| {
            list.sort_by_key(|p| p.start);
            let disjoint = (1..list.len()).all(|i| list[i - 1].end <= list[i].start);
            sliced && list.len() >= 2 && disjoint && interval(*g).is_none_or(|i| i.start >= first)
        });
        let mut graph = BlockGraph {
            slices,
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
            for p in 0..s {
                if memory_ordered(mem_kind(&self.ops[p]), mem_kind(&self.ops[s])) {
                    self.add_edge(p, s, 0);
                }
            }
            if mem_kind(&self.ops[s]) == Mem::Fence {
                for p in 0..s {
                    self.add_edge(p, s, 0);
                }
                last_fence = Some(s);
            }
        }
    }

    fn original_order(&self) -> Vec<usize> {
        (0..self.ops.len()).collect()
    }

    /// The register model's groups that `r` touches.
    fn keys(&self, r: &VReg) -> Vec<Key> {
        match self.slices.get(&r.group) {
            None => vec![(r.group, WHOLE)],
            Some(list) => {
                let u = r.units_range();
                (0..list.len())
                    .filter(|&i| list[i].start < u.end && u.start < list[i].end)
                    .map(|i| (r.group, i))
                    .collect()
            }
        }
    }

    fn key_units(&self, key: Key) -> u32 {
        match key.1 {
            WHOLE => self.groups[key.0 as usize].units,
            i => {
                let p = &self.slices[&key.0][i];
                p.end - p.start
            }
        }
    }

    fn def_keys(&self, k: usize) -> Vec<Key> {
        self.defs[k].iter().flat_map(|r| self.keys(r)).collect()
    }

    fn use_keys(&self, k: usize) -> Vec<Key> {
        self.uses[k].iter().flat_map(|r| self.keys(r)).collect()
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
    live: HashSet<Key>,
    /// Uses of each group not yet scheduled.
    remaining: HashMap<Key, u32>,
    units: u32,
}

impl Pressure {
    fn new(b: &BlockGraph) -> Self {
        let mut remaining: HashMap<Key, u32> = HashMap::new();
        for k in 0..b.ops.len() {
            for key in b.use_keys(k) {
                *remaining.entry(key).or_default() += 1;
            }
        }
        // A vector built piecewise is never live on entry.
        let live: HashSet<Key> = b.live_in.iter().map(|&g| (g, WHOLE)).collect();
        let units = live.iter().map(|&key| b.key_units(key)).sum();
        Pressure {
            live,
            remaining,
            units,
        }
    }

    /// How scheduling `k` next changes the live units (at `k`, as [`Pressure::apply`] counts).
    fn delta(&self, b: &BlockGraph, k: usize) -> i64 {
        let mut d = 0i64;
        let defs = b.def_keys(k);
        let uses = b.use_keys(k);
        let mut born: Vec<Key> = Vec::new();
        for &key in &defs {
            if !self.live.contains(&key) && !born.contains(&key) {
                born.push(key);
                d += i64::from(b.key_units(key));
            }
        }
        let mut dying: Vec<Key> = Vec::new();
        for &key in &uses {
            let here = uses.iter().filter(|&&x| x == key).count() as u32;
            if self.remaining.get(&key).copied().unwrap_or(0) == here
                && !b.live_out.contains(&key.0)
                && !defs.contains(&key)
                && !dying.contains(&key)
            {
                dying.push(key);
                d -= i64::from(b.key_units(key));
            }
        }
        d
    }

    /// Schedules `k`: its definitions become live, the groups it reads last die. Returns the
    /// units live at `k` (a definition nothing reads occupies its registers there only).
    fn apply(&mut self, b: &BlockGraph, k: usize) -> u32 {
        let defs = b.def_keys(k);
        let uses = b.use_keys(k);
        for &key in &defs {
            if self.live.insert(key) {
                self.units += b.key_units(key);
            }
        }
        for key in &uses {
            if let Some(c) = self.remaining.get_mut(key) {
                *c = c.saturating_sub(1);
            }
        }
        // Sources read for the last time free their registers for the results (instructions
        // read all their sources before writing); a result nothing reads frees them after.
        let kill = |p: &mut Pressure, key: Key| {
            let unread = p.remaining.get(&key).copied().unwrap_or(0) == 0;
            if unread && !b.live_out.contains(&key.0) && p.live.remove(&key) {
                p.units -= b.key_units(key);
            }
        };
        for &key in &uses {
            if !defs.contains(&key) {
                kill(self, key);
            }
        }
        let at = self.units;
        for &key in &defs {
            kill(self, key);
        }
        at
    }
}
