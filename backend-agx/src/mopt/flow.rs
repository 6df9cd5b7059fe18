//! Per-thread control flow of a machine function and liveness in 16-bit units.
//!
//! The structured pseudo-instructions describe, for one thread, an ordinary control-flow graph:
//! a thread runs an `if`'s then arm or its else arm, leaves a loop at a `break`, goes back to
//! its start at a `continue` or at `end_loop`, and stops at `exit`. Execution masking runs the
//! SIMD-group's threads through both arms and every iteration, but an inactive thread's
//! registers are not written, so each thread's registers evolve exactly as on this graph. The
//! machine optimizer's analyses (coalescing, copy propagation) therefore use it rather than the
//! linear order (which `regalloc::liveness` uses, more conservatively). The exceptions are the
//! instructions that read *other* threads' registers (derivatives, `simd_shuffle`, texture
//! samples that compute their level of detail from the quad): see [`cross_lane_reads`].
//!
//! Liveness is computed per 16-bit unit of every group ([`UnitMap`]), so a write to one
//! component of a run kills that component only.

use crate::isa::{FUnaryOp, Instr, Lod};
use crate::mir::{MFunction, MInst, VReg};

/// Unit numbering: group `g`'s unit `u` is `base[g] + u`.
pub struct UnitMap {
    /// First unit of each group.
    pub base: Vec<u32>,
    /// Total units.
    pub total: u32,
}

impl UnitMap {
    /// The numbering of `m`'s groups.
    pub fn new(m: &MFunction) -> Self {
        let mut base = Vec::with_capacity(m.groups.len());
        let mut total = 0;
        for g in &m.groups {
            base.push(total);
            total += g.units;
        }
        UnitMap { base, total }
    }

    /// The units a view covers.
    pub fn units(&self, r: &VReg) -> std::ops::Range<u32> {
        let first = self.base[r.group as usize] + u32::from(r.offset);
        first..first + r.class.units()
    }
}

/// A fixed-size set of units.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct BitSet(Vec<u64>);

impl BitSet {
    /// An empty set for `n` elements.
    pub fn new(n: u32) -> Self {
        BitSet(vec![0; (n as usize).div_ceil(64)])
    }

    /// How many elements the set has room for (a multiple of 64).
    pub fn capacity(&self) -> u32 {
        (self.0.len() * 64) as u32
    }

    /// Adds `i`.
    pub fn insert(&mut self, i: u32) {
        self.0[i as usize / 64] |= 1 << (i % 64);
    }

    /// Removes `i`.
    pub fn remove(&mut self, i: u32) {
        self.0[i as usize / 64] &= !(1 << (i % 64));
    }

    /// Whether `i` is in the set.
    pub fn contains(&self, i: u32) -> bool {
        self.0[i as usize / 64] & (1 << (i % 64)) != 0
    }

    /// Whether the set has no element.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// Removes every element.
    pub fn clear(&mut self) {
        self.0.fill(0);
    }

    /// The elements, ascending.
    pub fn ones(&self) -> impl Iterator<Item = u32> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let bit = w.trailing_zeros();
                    w &= w - 1;
                    i as u32 * 64 + bit
                })
            })
        })
    }

    /// Adds every element of `other`; true if the set grew.
    pub fn union_with(&mut self, other: &BitSet) -> bool {
        let mut changed = false;
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            let n = *a | b;
            changed |= n != *a;
            *a = n;
        }
        changed
    }
}

/// The per-thread control-flow graph: blocks are runs of machine instructions, each
/// structured pseudo-instruction is a block of its own.
pub struct Cfg {
    /// Each block's instruction range.
    pub blocks: Vec<std::ops::Range<usize>>,
    /// Each block's successors.
    pub succs: Vec<Vec<usize>>,
    /// Loop nesting depth of each instruction.
    pub depth: Vec<u32>,
}

impl Cfg {
    /// The graph of `insts`.
    pub fn new(insts: &[MInst<VReg>]) -> Self {
        let n = insts.len();
        // Matching structure: for If the Else (if any) and EndIf, for Else its EndIf, for
        // Break/Continue/EndLoop their Loop, for Loop its EndLoop.
        let mut else_of = vec![usize::MAX; n];
        let mut end_of = vec![usize::MAX; n];
        let mut loop_of = vec![usize::MAX; n];
        let mut depth = vec![0u32; n];
        let mut ifs: Vec<usize> = Vec::new();
        let mut loops: Vec<usize> = Vec::new();
        for (i, inst) in insts.iter().enumerate() {
            depth[i] = loops.len() as u32;
            match inst {
                MInst::If { .. } => ifs.push(i),
                MInst::Else => {
                    if let Some(&s) = ifs.last() {
                        else_of[s] = i;
                    }
                }
                MInst::EndIf => {
                    if let Some(s) = ifs.pop() {
                        end_of[s] = i;
                        if else_of[s] != usize::MAX {
                            end_of[else_of[s]] = i;
                        }
                    }
                }
                MInst::Loop => loops.push(i),
                MInst::EndLoop => {
                    if let Some(s) = loops.pop() {
                        end_of[s] = i;
                        loop_of[i] = s;
                    }
                }
                MInst::Break | MInst::Continue => {
                    if let Some(&s) = loops.last() {
                        loop_of[i] = s;
                    }
                }
                _ => {}
            }
        }
        let mut blocks = Vec::new();
        let mut block_at = vec![usize::MAX; n + 1];
        let mut i = 0;
        while i < n {
            let start = i;
            if insts[i].is_structure() {
                i += 1;
            } else {
                while i < n && !insts[i].is_structure() {
                    i += 1;
                }
            }
            block_at[start] = blocks.len();
            blocks.push(start..i);
        }
        // The block starting at `i` (None past the end, or for a missing match).
        let at = |i: usize| -> Option<usize> { (i < n).then(|| block_at[i]) };
        let after = |i: usize| -> Option<usize> { i.checked_add(1).and_then(at) };
        let loop_end = |l: usize| -> usize { end_of.get(l).copied().unwrap_or(usize::MAX) };
        let succs = blocks
            .iter()
            .map(|r| {
                let last = r.end - 1;
                let next = || at(r.end);
                let targets: Vec<Option<usize>> = match insts[last] {
                    MInst::Op(_) | MInst::Loop | MInst::EndIf => vec![next()],
                    MInst::If { .. } => {
                        let other = if else_of[last] != usize::MAX {
                            after(else_of[last])
                        } else {
                            at(end_of[last])
                        };
                        vec![next(), other]
                    }
                    MInst::Else => vec![at(end_of[last])],
                    MInst::EndLoop | MInst::Continue => vec![after(loop_of[last])],
                    MInst::Break => vec![after(loop_end(loop_of[last]))],
                    MInst::Exit => vec![],
                };
                let mut out: Vec<usize> = targets.into_iter().flatten().collect();
                out.dedup();
                out
            })
            .collect();
        Cfg {
            blocks,
            succs,
            depth,
        }
    }
}

/// Units live into every block.
///
/// Only units some block reads before writing them (*upward exposed*) can be live on entry to
/// a block; every other unit is written before each read in its block, so it is live only
/// inside blocks. The sets per block are kept over those boundary units alone, and the
/// dataflow runs on each block's summary (the boundary units it reads first, the ones it
/// writes), so its cost is the blocks times the boundary units (in 64-bit words), not the
/// blocks times every unit: a function of many short blocks has far fewer values crossing
/// blocks than values.
pub struct Liveness {
    /// The boundary units (ascending); set positions below index this list.
    boundary: Vec<u32>,
    /// Live on entry to each block, over the boundary units.
    live_in: Vec<BitSet>,
}

/// Applies one instruction backwards to `live`: its defined units die, its used units live.
pub fn step_back(inst: &MInst<VReg>, units: &UnitMap, live: &mut BitSet) {
    inst.for_each_def(|r| {
        for u in units.units(r) {
            live.remove(u);
        }
    });
    inst.for_each_use(|r| {
        for u in units.units(r) {
            live.insert(u);
        }
    });
}

/// No block (a stamp), no position.
const NONE: u32 = u32::MAX;

/// Each block's summary for backward dataflow, and the *boundary* units (those some block
/// reads before writing them: the only ones that can be live on entry to a block).
pub struct Summaries {
    /// Per block, the units it reads before writing them (an instruction reads its sources
    /// before writing: [`step_back`]).
    pub first_reads: Vec<Vec<u32>>,
    /// Per block, the units it writes.
    pub writes: Vec<Vec<u32>>,
    /// The boundary units, ascending.
    pub boundary: Vec<u32>,
    /// Each unit's position in `boundary`, or `u32::MAX`.
    pub position: Vec<u32>,
}

impl Summaries {
    /// The summaries of `cfg`'s blocks, in one forward walk over `m`.
    pub fn new(m: &MFunction, cfg: &Cfg, units: &UnitMap) -> Self {
        let nb = cfg.blocks.len();
        // `written[u]` / `read[u]`: the last block that wrote / read first unit `u`.
        let total = units.total as usize;
        let mut written = vec![NONE; total];
        let mut read = vec![NONE; total];
        let mut first_reads: Vec<Vec<u32>> = Vec::with_capacity(nb);
        let mut writes: Vec<Vec<u32>> = Vec::with_capacity(nb);
        for (b, range) in cfg.blocks.iter().enumerate() {
            let b = b as u32;
            let (mut gen, mut kill) = (Vec::new(), Vec::new());
            for inst in &m.insts[range.clone()] {
                inst.for_each_use(|r| {
                    for u in units.units(r) {
                        let i = u as usize;
                        if written[i] != b && read[i] != b {
                            read[i] = b;
                            gen.push(u);
                        }
                    }
                });
                inst.for_each_def(|r| {
                    for u in units.units(r) {
                        let i = u as usize;
                        if written[i] != b {
                            written[i] = b;
                            kill.push(u);
                        }
                    }
                });
            }
            first_reads.push(gen);
            writes.push(kill);
        }
        let mut boundary: Vec<u32> = first_reads.iter().flatten().copied().collect();
        boundary.sort_unstable();
        boundary.dedup();
        let mut position = read;
        position.fill(NONE);
        for (k, &u) in boundary.iter().enumerate() {
            position[u as usize] = k as u32;
        }
        Summaries {
            first_reads,
            writes,
            boundary,
            position,
        }
    }

    /// `list`'s boundary units as a set over the boundary positions.
    pub fn over_boundary(&self, list: &[u32]) -> BitSet {
        let mut set = BitSet::new(self.boundary.len() as u32);
        for &u in list {
            let k = self.position[u as usize];
            if k != NONE {
                set.insert(k);
            }
        }
        set
    }
}

impl Liveness {
    /// Liveness of `m` over `cfg`.
    pub fn new(m: &MFunction, cfg: &Cfg, units: &UnitMap) -> Self {
        let nb = cfg.blocks.len();
        let sum = Summaries::new(m, cfg, units);
        let n = sum.boundary.len() as u32;
        let gen: Vec<BitSet> = sum
            .first_reads
            .iter()
            .map(|l| sum.over_boundary(l))
            .collect();
        let kill: Vec<BitSet> = sum.writes.iter().map(|l| sum.over_boundary(l)).collect();
        let mut live = Liveness {
            boundary: sum.boundary,
            live_in: vec![BitSet::new(n); nb],
        };
        let mut out = BitSet::new(n);
        let mut changed = true;
        while changed {
            changed = false;
            for b in (0..nb).rev() {
                out.clear();
                for &s in &cfg.succs[b] {
                    out.union_with(&live.live_in[s]);
                }
                // live_in = gen | (out & !kill), grown in place (it only grows).
                let li = &mut live.live_in[b];
                for ((w, (&o, &k)), &g) in
                    li.0.iter_mut()
                        .zip(out.0.iter().zip(&kill[b].0))
                        .zip(&gen[b].0)
                {
                    let v = g | (o & !k);
                    if v != *w {
                        *w = v;
                        changed = true;
                    }
                }
            }
        }
        live
    }

    /// Walks block `b` of `cfg` from its last instruction to its first, calling `f` with each
    /// instruction and the units (of [`UnitMap`]) live right after it. `now` is scratch space
    /// for every unit, empty on entry and on return (so one set serves every block).
    pub fn walk_back(
        &self,
        m: &MFunction,
        cfg: &Cfg,
        units: &UnitMap,
        b: usize,
        now: &mut BitSet,
        mut f: impl FnMut(&MInst<VReg>, &BitSet),
    ) {
        for &s in &cfg.succs[b] {
            for k in self.live_in[s].ones() {
                now.insert(self.boundary[k as usize]);
            }
        }
        for inst in m.insts[cfg.blocks[b].clone()].iter().rev() {
            f(inst, now);
            step_back(inst, units, now);
        }
        // What is live on entry to the block is its live-in set, boundary units alone.
        for k in self.live_in[b].ones() {
            now.remove(self.boundary[k as usize]);
        }
        debug_assert!(
            now.is_empty(),
            "a unit live on entry to a block is a boundary unit"
        );
    }
}

/// Groups some instruction reads in other threads too (quad derivatives, shuffles, implicit
/// texture levels of detail): their registers' contents in inactive threads matter, so the
/// optimizer leaves their registers alone.
pub fn cross_lane_reads(m: &MFunction) -> Vec<bool> {
    let mut out = vec![false; m.groups.len()];
    for inst in &m.insts {
        let MInst::Op(i) = inst else { continue };
        match i {
            Instr::FUnary {
                op: FUnaryOp::Dfdx | FUnaryOp::Dfdy,
                ..
            }
            | Instr::SimdShuffle { .. } => i.for_each_use(|r| out[r.group as usize] = true),
            Instr::TextureSample(t)
                if !matches!(
                    t.lod,
                    Lod::LodReg(_) | Lod::LodUniform(_) | Lod::Gradient(_)
                ) =>
            {
                out[t.coords.group as usize] = true;
            }
            _ => {}
        }
    }
    out
}
