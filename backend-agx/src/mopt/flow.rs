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

/// Units live into every block (what lives out of one is its successors' live-in, computed when
/// asked: keeping both sets per block doubled the memory, which is blocks times units).
pub struct Liveness {
    /// Live on entry to each block.
    pub live_in: Vec<BitSet>,
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

impl Liveness {
    /// Liveness of `m` over `cfg`.
    pub fn new(m: &MFunction, cfg: &Cfg, units: &UnitMap) -> Self {
        let nb = cfg.blocks.len();
        let mut live = Liveness {
            live_in: vec![BitSet::new(units.total); nb],
        };
        let mut changed = true;
        while changed {
            changed = false;
            for b in (0..nb).rev() {
                let mut now = live.live_out(cfg, b);
                for inst in m.insts[cfg.blocks[b].clone()].iter().rev() {
                    step_back(inst, units, &mut now);
                }
                if now != live.live_in[b] {
                    live.live_in[b] = now;
                    changed = true;
                }
            }
        }
        live
    }

    /// Units live on exit from block `b`: the union of its successors' live-in.
    pub fn live_out(&self, cfg: &Cfg, b: usize) -> BitSet {
        let mut out = BitSet::new(self.live_in.first().map_or(0, BitSet::capacity));
        for &s in &cfg.succs[b] {
            out.union_with(&self.live_in[s]);
        }
        out
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
