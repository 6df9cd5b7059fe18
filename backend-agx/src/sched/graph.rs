//! One straight-line block as the scheduler sees it: its instructions, their register operands
//! by block-local group, the dependence graph with latency-weighted heights, and what the
//! register model needs to know about the groups (size, live on entry, live after the block).
//!
//! The dependence graph is built in one pass over the block with, per 16-bit unit of every
//! group, the instructions that wrote it and the ones that read it since its last write, so
//! its cost is linear in the instructions and their operands (and the number of earlier
//! writers of each unit read). It has every edge of the definition in the module docs that
//! can matter: every read-after-write pair (weighted with the writer's latency); write after
//! read and write after write only from the reads since the unit's last write and from that
//! write; a fence only from the instructions since the previous fence. An order-only edge left
//! out always has a path of at least two edges beside it, which issues its ends in the same
//! order, makes the same instructions ready at the same time, and gives a longer height than
//! the edge would: the schedules do not change.

use std::ops::Range;

use crate::isa::Instr;
use crate::latency;
use crate::mir::{Group, VReg};
use crate::regalloc::liveness::Interval;

use super::LONG_LATENCY;

/// Rows of variable length, stored flat.
#[derive(Clone, Debug, Default)]
pub(super) struct Rows<T> {
    start: Vec<u32>,
    items: Vec<T>,
}

impl<T> Rows<T> {
    fn new() -> Self {
        Rows {
            start: vec![0],
            items: Vec::new(),
        }
    }

    fn push(&mut self, item: T) {
        self.items.push(item);
    }

    /// Ends the current row.
    fn end_row(&mut self) {
        self.start.push(self.items.len() as u32);
    }

    pub(super) fn row(&self, i: usize) -> &[T] {
        &self.items[self.start[i] as usize..self.start[i + 1] as usize]
    }
}

/// A group an instruction reads: the block-local group and how many of its operands read it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Read {
    pub group: u32,
    pub count: u32,
    /// The instruction also writes the group.
    pub written: bool,
}

/// A group referenced in the block.
#[derive(Clone, Copy, Debug)]
pub(super) struct LocalGroup {
    pub units: u32,
    pub live_in: bool,
    pub live_out: bool,
}

/// No list node / no instruction.
const NONE: u32 = u32::MAX;

/// One straight-line block: its instructions, their dependences and heights, and what the
/// register model needs to know about its groups.
pub(super) struct BlockGraph {
    pub ops: Vec<Instr<VReg>>,
    /// Positions of the block in the function.
    pub range: Range<usize>,
    /// `(latency, issue interval)` per instruction.
    pub cost: Vec<(u32, u32)>,
    /// The groups referenced in the block, by local number (order of first reference).
    pub groups: Vec<LocalGroup>,
    /// Per instruction, the distinct groups it writes.
    pub defs: Rows<u32>,
    /// Per instruction, the distinct groups it reads.
    pub uses: Rows<Read>,
    /// Per group, the instructions writing it (ascending).
    pub definers: Rows<u32>,
    /// Per group, the instructions reading it (ascending).
    pub readers: Rows<u32>,
    /// Dependence edges `pred -> (succ, latency)`.
    pub succs: Rows<(u32, u32)>,
    pub npreds: Vec<u32>,
    pub height: Vec<u32>,
    /// The instruction is, or feeds, one with a [`LONG_LATENCY`] result.
    pub long: Vec<bool>,
    /// Units of the groups live through the block without being referenced in it.
    pub through: u32,
    /// Some vector of the block counts by its written ranges ([`Slices`]).
    pub sliced: bool,
}

/// Scratch space shared by the blocks of a function: the local number of each group.
pub(super) struct Numbering {
    local: Vec<u32>,
}

impl Numbering {
    pub(super) fn new(groups: usize) -> Self {
        Numbering {
            local: vec![NONE; groups],
        }
    }
}

/// How an instruction touches memory, for ordering, and in which of the [`DOMAINS`] memories.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mem {
    None,
    Read(usize),
    Write(usize),
    Fence,
}

/// Memories no access of another can reach, each ordered on its own: device memory with the
/// images (a storage image may share memory with a buffer), threadgroup memory, the
/// invocation's stack, and the tile buffer. Accesses to different ones never alias, so a
/// threadgroup load may move past a device store (Mesa's AGX scheduler likewise orders memory
/// only within one kind).
const DOMAINS: usize = 4;
const DEVICE: usize = 0;
const THREADGROUP: usize = 1;
const STACK: usize = 2;
const TILE: usize = 3;

fn mem_kind(i: &Instr<VReg>) -> Mem {
    use Instr::*;
    match i {
        DeviceLoad(_) => Mem::Read(DEVICE),
        ThreadgroupLoad(_) => Mem::Read(THREADGROUP),
        StackLoad(_) => Mem::Read(STACK),
        DeviceStore(_) => Mem::Write(DEVICE),
        ThreadgroupStore(_) => Mem::Write(THREADGROUP),
        StackStore(_) => Mem::Write(STACK),
        StTile { .. } => Mem::Write(TILE),
        // An atomic reads and writes memory: ordering it as a store keeps it after every
        // earlier access and before every later one.
        DeviceAtomic(_) => Mem::Write(DEVICE),
        ThreadgroupAtomic(_) => Mem::Write(THREADGROUP),
        // Image loads are texture loads: ordered after image stores to any image.
        TextureLoad(_) => Mem::Read(DEVICE),
        ImageWrite(_) => Mem::Write(DEVICE),
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

/// Singly linked lists of instructions, one per 16-bit unit, in one pool.
struct UnitLists {
    head: Vec<u32>,
    /// `(instruction, next node)`.
    nodes: Vec<(u32, u32)>,
}

impl UnitLists {
    fn new(units: usize) -> Self {
        UnitLists {
            head: vec![NONE; units],
            nodes: Vec::new(),
        }
    }

    /// Prepends `op` to unit `u`'s list unless it is already at its head.
    fn push(&mut self, u: usize, op: u32) {
        let h = self.head[u];
        if h != NONE && self.nodes[h as usize].0 == op {
            return;
        }
        self.nodes.push((op, h));
        self.head[u] = (self.nodes.len() - 1) as u32;
    }

    /// The instruction at the head of unit `u`'s list (the latest pushed).
    fn first(&self, u: usize) -> Option<u32> {
        let h = self.head[u];
        (h != NONE).then(|| self.nodes[h as usize].0)
    }

    fn clear(&mut self, u: usize) {
        self.head[u] = NONE;
    }

    fn for_each(&self, u: usize, mut f: impl FnMut(u32)) {
        let mut at = self.head[u];
        while at != NONE {
            let (op, next) = self.nodes[at as usize];
            f(op);
            at = next;
        }
    }
}

/// The predecessors of one instruction while its edges are collected: each once, marked
/// read-after-write if any of its results is read.
struct Preds {
    /// Per instruction: index into `list` plus one when collected for the current successor.
    slot: Vec<u32>,
    list: Vec<(u32, bool)>,
}

impl Preds {
    fn add(&mut self, p: u32, raw: bool) {
        match self.slot[p as usize] {
            0 => {
                self.list.push((p, raw));
                self.slot[p as usize] = self.list.len() as u32;
            }
            i => self.list[i as usize - 1].1 |= raw,
        }
    }

    fn drain(&mut self) -> std::vec::Drain<'_, (u32, bool)> {
        for &(p, _) in &self.list {
            self.slot[p as usize] = 0;
        }
        self.list.drain(..)
    }
}

impl BlockGraph {
    /// The graph of `ops`, the instructions at `range` of a function whose live intervals are
    /// `iv`; `through` is the units of all the groups live through the block (referenced in it
    /// or not). With `sliced`, vectors built piecewise count by their written ranges
    /// ([`Slices`]); else every group counts whole.
    pub(super) fn new(
        ops: Vec<Instr<VReg>>,
        range: Range<usize>,
        iv: &[Option<Interval>],
        groups: &[Group],
        through: u32,
        numbering: &mut Numbering,
        sliced: bool,
    ) -> Self {
        let n = ops.len();
        // Block-local group numbers, each group's first unit in the unit arrays and its span
        // (a view reaching past its group's size widens the span rather than overlapping the
        // next group).
        let mut global: Vec<u32> = Vec::new();
        let mut span: Vec<u32> = Vec::new();
        let mut number = |r: &VReg, numbering: &mut Numbering| -> u32 {
            let g = r.group as usize;
            let mut l = numbering.local[g];
            if l == NONE {
                l = global.len() as u32;
                numbering.local[g] = l;
                global.push(r.group);
                span.push(groups.get(g).map_or(0, |x| x.units));
            }
            let s = &mut span[l as usize];
            *s = (*s).max(r.units_range().end);
            l
        };
        for op in &ops {
            op.for_each_use(|r| {
                number(r, numbering);
            });
            op.for_each_def(|r| {
                number(r, numbering);
            });
        }
        let mut base = Vec::with_capacity(span.len());
        let mut total = 0usize;
        for &s in &span {
            base.push(total);
            total += s as usize;
        }
        let local = |r: &VReg| numbering.local[r.group as usize];
        let (first, last) = (range.start, range.end - 1);
        let interval = |g: u32| iv.get(g as usize).copied().flatten();
        let slices = Slices::new(
            &ops,
            &global,
            |r| local(r),
            |g| !sliced || interval(g).is_some_and(|i| i.start < first),
        );

        // Operands by pressure group (a slice of a vector built piecewise, or a whole group).
        let mut defs = Rows::new();
        let mut uses = Rows::new();
        let mut def_list: Vec<u32> = Vec::new();
        let mut use_list: Vec<Read> = Vec::new();
        for op in &ops {
            def_list.clear();
            op.for_each_def(|r| {
                slices.of(local(r), r, |l| {
                    if !def_list.contains(&l) {
                        def_list.push(l);
                    }
                });
            });
            use_list.clear();
            op.for_each_use(|r| {
                slices.of(local(r), r, |l| {
                    match use_list.iter_mut().find(|u| u.group == l) {
                        Some(u) => u.count += 1,
                        None => use_list.push(Read {
                            group: l,
                            count: 1,
                            written: def_list.contains(&l),
                        }),
                    }
                });
            });
            for &d in &def_list {
                defs.push(d);
            }
            defs.end_row();
            for &u in &use_list {
                uses.push(u);
            }
            uses.end_row();
        }
        let pressure_groups = slices.count();
        let definers = by_group(n, pressure_groups, |k| defs.row(k).iter().copied());
        let readers = by_group(n, pressure_groups, |k| uses.row(k).iter().map(|u| u.group));

        let mut through = through;
        let mut local_groups: Vec<LocalGroup> = Vec::with_capacity(pressure_groups);
        for (l, &g) in global.iter().enumerate() {
            let i = interval(g);
            let live_in = i.is_some_and(|i| i.start < first);
            let live_out = i.is_some_and(|i| i.end > last);
            let units = groups.get(g as usize).map_or(0, |x| x.units);
            if live_in && live_out {
                through -= units;
            }
            match slices.ranges(l as u32) {
                [] => local_groups.push(LocalGroup {
                    units,
                    live_in,
                    live_out,
                }),
                parts => local_groups.extend(parts.iter().map(|p| LocalGroup {
                    units: p.end - p.start,
                    live_in,
                    live_out,
                })),
            }
        }

        let cost: Vec<(u32, u32)> = ops.iter().map(latency::cost).collect();
        let mut graph = BlockGraph {
            ops,
            range,
            cost,
            groups: local_groups,
            defs,
            uses,
            definers,
            readers,
            succs: Rows::new(),
            npreds: vec![0; n],
            height: vec![0; n],
            long: vec![false; n],
            through,
            sliced: slices.any(),
        };
        graph.add_edges(&base, total, numbering);
        for &g in &global {
            numbering.local[g as usize] = NONE;
        }
        for p in (0..n).rev() {
            let own = graph.cost[p].0;
            let succs = graph.succs.row(p);
            graph.height[p] = succs
                .iter()
                .map(|&(s, w)| w.max(1) + graph.height[s as usize])
                .max()
                .unwrap_or(0)
                .max(own);
            graph.long[p] =
                own >= LONG_LATENCY || succs.iter().any(|&(s, w)| w > 0 && graph.long[s as usize]);
        }
        graph
    }

    /// The dependence edges (see the module docs).
    fn add_edges(&mut self, base: &[usize], units: usize, numbering: &Numbering) {
        let n = self.ops.len();
        let mut writers = UnitLists::new(units);
        let mut readers = UnitLists::new(units);
        let mut preds = Preds {
            slot: vec![0; n],
            list: Vec::new(),
        };
        let mut edges: Vec<(u32, u32, u32)> = Vec::new();
        let mut last_write: [Option<u32>; DOMAINS] = [None; DOMAINS];
        let mut reads_since_write: [Vec<u32>; DOMAINS] = Default::default();
        let mut last_fence: Option<u32> = None;
        let units_of = |r: &VReg| {
            let b = base[numbering.local[r.group as usize] as usize];
            let range = r.units_range();
            b + range.start as usize..b + range.end as usize
        };
        for s in 0..n {
            let op = self.ops[s];
            // Read after write: every earlier writer of a unit read.
            op.for_each_use(|r| {
                for u in units_of(r) {
                    writers.for_each(u, |w| preds.add(w, true));
                }
            });
            // Write after read and write after write: the reads since the unit's last write,
            // and that write.
            op.for_each_def(|r| {
                for u in units_of(r) {
                    readers.for_each(u, |p| preds.add(p, false));
                    if let Some(w) = writers.first(u) {
                        preds.add(w, false);
                    }
                }
            });
            let s32 = s as u32;
            if let Some(f) = last_fence {
                preds.add(f, false);
            }
            match mem_kind(&op) {
                Mem::Read(d) => {
                    if let Some(w) = last_write[d] {
                        preds.add(w, false);
                    }
                    reads_since_write[d].push(s32);
                }
                Mem::Write(d) => {
                    if let Some(w) = last_write[d] {
                        preds.add(w, false);
                    }
                    for r in std::mem::take(&mut reads_since_write[d]) {
                        preds.add(r, false);
                    }
                    last_write[d] = Some(s32);
                }
                Mem::Fence => {
                    let from = last_fence.map_or(0, |f| f + 1);
                    for p in from..s32 {
                        preds.add(p, false);
                    }
                    last_fence = Some(s32);
                }
                Mem::None => {}
            }
            for (p, raw) in preds.drain() {
                let w = if raw { self.cost[p as usize].0 } else { 0 };
                edges.push((p, s32, w));
                self.npreds[s] += 1;
            }
            op.for_each_use(|r| {
                for u in units_of(r) {
                    readers.push(u, s32);
                }
            });
            op.for_each_def(|r| {
                for u in units_of(r) {
                    readers.clear(u);
                    writers.push(u, s32);
                }
            });
        }
        // Successor rows by predecessor (a counting sort; edges of one predecessor keep
        // their order).
        let mut count = vec![0u32; n + 1];
        for &(p, _, _) in &edges {
            count[p as usize + 1] += 1;
        }
        for i in 0..n {
            count[i + 1] += count[i];
        }
        let mut items = vec![(0u32, 0u32); edges.len()];
        let mut fill = count.clone();
        for &(p, s, w) in &edges {
            items[fill[p as usize] as usize] = (s, w);
            fill[p as usize] += 1;
        }
        self.succs = Rows {
            start: count,
            items,
        };
    }

    pub(super) fn len(&self) -> usize {
        self.ops.len()
    }

    pub(super) fn original_order(&self) -> Vec<usize> {
        (0..self.ops.len()).collect()
    }

    /// The cycles the block takes in `order` by the in-order issue model of [`crate::latency`].
    pub(super) fn cycles(&self, order: &[usize]) -> u32 {
        let mut ready_at = vec![0u32; self.ops.len()];
        let (mut cycle, mut end) = (0u32, 0u32);
        for &k in order {
            let (lat, interval) = self.cost[k];
            let issue = cycle.max(ready_at[k]);
            cycle = issue + interval;
            end = end.max(issue + lat);
            for &(s, w) in self.succs.row(k) {
                ready_at[s as usize] = ready_at[s as usize].max(issue + w);
            }
        }
        end
    }
}

/// The register model's groups: a vector the block builds piecewise (not live on entry,
/// written by instructions whose unit ranges do not overlap: a fragment output's `st_tile`
/// source filled by the four computations of its components) counts each written range as a
/// group of its own, live from its own write; every other group counts whole. Counting the
/// vector whole from its first write made every order of its components look equally costly,
/// so the scheduler could not see that computing one component's inputs early frees them; the
/// register allocator gives a vector's unit the other values it can hold before its first
/// write (`regalloc::scan`, holes), so the count by ranges is what allocation can reach.
struct Slices {
    /// Per local group: its first pressure group.
    base: Vec<u32>,
    /// Per local group: its ranges, sorted (empty: counted whole).
    parts: Vec<Vec<Range<u32>>>,
    count: u32,
}

impl Slices {
    fn new(
        ops: &[Instr<VReg>],
        global: &[u32],
        local: impl Fn(&VReg) -> u32,
        live_in: impl Fn(u32) -> bool,
    ) -> Self {
        let mut parts: Vec<Vec<Range<u32>>> = vec![Vec::new(); global.len()];
        for op in ops {
            op.for_each_def(|r| {
                let list = &mut parts[local(r) as usize];
                let units = r.units_range();
                if !list.contains(&units) {
                    list.push(units);
                }
            });
        }
        for (l, list) in parts.iter_mut().enumerate() {
            list.sort_by_key(|p| p.start);
            let disjoint = list.windows(2).all(|w| w[0].end <= w[1].start);
            if list.len() < 2 || !disjoint || live_in(global[l]) {
                list.clear();
            }
        }
        let mut base = Vec::with_capacity(parts.len());
        let mut count = 0u32;
        for list in &parts {
            base.push(count);
            count += (list.len() as u32).max(1);
        }
        Slices { base, parts, count }
    }

    fn count(&self) -> usize {
        self.count as usize
    }

    fn any(&self) -> bool {
        self.parts.iter().any(|p| !p.is_empty())
    }

    fn ranges(&self, l: u32) -> &[Range<u32>] {
        &self.parts[l as usize]
    }

    /// Calls `f` with each pressure group of local group `l` that view `r` touches.
    fn of(&self, l: u32, r: &VReg, mut f: impl FnMut(u32)) {
        let parts = &self.parts[l as usize];
        let base = self.base[l as usize];
        if parts.is_empty() {
            return f(base);
        }
        let units = r.units_range();
        for (i, p) in parts.iter().enumerate() {
            if p.start < units.end && units.start < p.end {
                f(base + i as u32);
            }
        }
    }
}

/// Per group, the instructions (ascending) whose row of `of` names it.
fn by_group<I: Iterator<Item = u32>>(
    n: usize,
    groups: usize,
    of: impl Fn(usize) -> I,
) -> Rows<u32> {
    let mut count = vec![0u32; groups + 1];
    for k in 0..n {
        for g in of(k) {
            count[g as usize + 1] += 1;
        }
    }
    for i in 0..groups {
        count[i + 1] += count[i];
    }
    let mut items = vec![0u32; count[groups] as usize];
    let mut fill = count.clone();
    for k in 0..n {
        for g in of(k) {
            items[fill[g as usize] as usize] = k as u32;
            fill[g as usize] += 1;
        }
    }
    Rows {
        start: count,
        items,
    }
}
