//! Dead-code elimination on the per-thread control-flow graph, by *strong* liveness.
//!
//! Instruction selection's own pass (`isel::dce`) removes instructions whose groups nobody reads.
//! That misses values that are only read to be handed on in a cycle: a loop parameter copied
//! into an `if` result in one arm and back into the parameter at the `continue`, and out as a
//! loop result nobody reads after the loop (inlined functions' `inout` and struct parameters
//! produce many). Ordinary liveness counts those reads, so they stay live forever.
//!
//! Strong liveness (the "faint variables" analysis) counts a read only when the reading
//! instruction is *needed*: it has side effects (stores, outputs, barriers, control flow and
//! the comparisons of structured `if`s), or it writes a unit that is strongly live after it.
//! Computed as the least fixpoint of the backward dataflow from nothing live, per 16-bit unit
//! ([`super::flow`]), so a cycle of copies with no needed reader never becomes live. Every
//! instruction without side effects that writes no strongly live unit is then deleted.

use super::flow::{BitSet, Cfg, Summaries, UnitMap};
use crate::mir::{MFunction, MInst, VReg};

/// Whether `inst` must stay whatever its results' liveness.
fn needed_anyway(inst: &MInst<VReg>) -> bool {
    inst.has_side_effects()
}

/// Whether `inst` writes a unit in `live`.
fn writes_live(inst: &MInst<VReg>, units: &UnitMap, live: &BitSet) -> bool {
    let mut hit = false;
    inst.for_each_def(|r| hit |= units.units(r).any(|u| live.contains(u)));
    hit
}

/// Steps strong liveness back over `inst`; returns whether the instruction is needed.
fn step(inst: &MInst<VReg>, units: &UnitMap, live: &mut BitSet) -> bool {
    let needed = needed_anyway(inst) || writes_live(inst, units, live);
    if needed {
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
    needed
}

/// Walks block `b` backwards by strong liveness from its successors' live-in sets (over the
/// boundary units of `sum`), with `f` told each instruction's position and whether it is
/// needed; returns the block's live-in set. `now` is scratch space for every unit, empty on
/// entry and on return; `log` is scratch space too.
#[allow(clippy::too_many_arguments)]
fn walk_block(
    m: &MFunction,
    cfg: &Cfg,
    units: &UnitMap,
    sum: &Summaries,
    live_in: &[BitSet],
    b: usize,
    now: &mut BitSet,
    log: &mut Vec<u32>,
    mut f: impl FnMut(usize, bool),
) -> BitSet {
    // Every unit ever added to `now`, so that emptying it costs the block's size, not the
    // function's.
    log.clear();
    for &s in &cfg.succs[b] {
        for k in live_in[s].ones() {
            let u = sum.boundary[k as usize];
            now.insert(u);
            log.push(u);
        }
    }
    for i in cfg.blocks[b].clone().rev() {
        let inst = &m.insts[i];
        let needed = step(inst, units, now);
        if needed {
            inst.for_each_use(|r| log.extend(units.units(r)));
        }
        f(i, needed);
    }
    // Live on entry to a block: boundary units alone (the module `flow`'s `Summaries`).
    let mut entry = BitSet::new(sum.boundary.len() as u32);
    for &u in log.iter() {
        if now.contains(u) {
            now.remove(u);
            let k = sum.position[u as usize];
            debug_assert_ne!(
                k,
                u32::MAX,
                "a unit live on entry to a block is a boundary unit"
            );
            if k != u32::MAX {
                entry.insert(k);
            }
        }
    }
    entry
}

/// Deletes the instructions of `m` that no needed instruction depends on; returns how many.
pub fn remove_dead(m: &mut MFunction) -> u32 {
    let cfg = Cfg::new(&m.insts);
    let units = UnitMap::new(m);
    let sum = Summaries::new(m, &cfg, &units);
    let nb = cfg.blocks.len();
    let mut live_in = vec![BitSet::new(sum.boundary.len() as u32); nb];
    let mut now = BitSet::new(units.total);
    let mut log = Vec::new();
    let mut changed = true;
    while changed {
        changed = false;
        for b in (0..nb).rev() {
            let entry = walk_block(
                m,
                &cfg,
                &units,
                &sum,
                &live_in,
                b,
                &mut now,
                &mut log,
                |_, _| {},
            );
            if entry != live_in[b] {
                live_in[b] = entry;
                changed = true;
            }
        }
    }
    let mut keep = vec![true; m.insts.len()];
    for b in 0..nb {
        walk_block(
            m,
            &cfg,
            &units,
            &sum,
            &live_in,
            b,
            &mut now,
            &mut log,
            |i, needed| {
                keep[i] = needed;
            },
        );
    }
    let before = m.insts.len();
    let mut i = 0;
    m.insts.retain(|_| {
        i += 1;
        keep[i - 1]
    });
    (before - m.insts.len()) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::{Cmp, Dst, ICond, Instr, IntSrc, RegClass, Src};

    fn mov(m: &mut MFunction, d: VReg, s: VReg) {
        m.op(Instr::Iadd {
            dst: Dst::new(d),
            a: IntSrc::zext(Src::reg(s)),
            b: IntSrc::zext(Src::Imm(0)),
            neg_b: false,
            shift: 0,
            sat: false,
        });
    }

    /// A loop parameter only handed round in a cycle of copies, and out as a result nobody
    /// reads, is dead; the counter that decides the loop is not.
    #[test]
    fn a_value_only_handed_round_a_loop_is_dead() {
        let mut m = MFunction::default();
        let (i, p, y, r) = (
            m.new_group(RegClass::R32),
            m.new_group(RegClass::R32),
            m.new_group(RegClass::R32),
            m.new_group(RegClass::R32),
        );
        m.op(Instr::MovImm {
            dst: Dst::new(i),
            imm: 0,
        });
        m.op(Instr::MovImm {
            dst: Dst::new(p),
            imm: 0,
        });
        m.push(MInst::Loop);
        m.push(MInst::If {
            cmp: Cmp::Int {
                cond: ICond::Slt,
                a: Src::reg(i),
                b: Src::Imm(9),
            },
            invert: true,
        });
        mov(&mut m, r, p);
        m.push(MInst::Break);
        m.push(MInst::Else);
        m.push(MInst::EndIf);
        mov(&mut m, y, p);
        m.op(Instr::Iadd {
            dst: Dst::new(i),
            a: IntSrc::zext(Src::reg(i)),
            b: IntSrc::zext(Src::Imm(1)),
            neg_b: false,
            shift: 0,
            sat: false,
        });
        mov(&mut m, p, y);
        m.push(MInst::Continue);
        m.push(MInst::EndLoop);
        m.op(Instr::StTile {
            src: i,
            rt: 0,
            mask: 1,
            format: crate::isa::MemFormat::I32,
        });
        let before = m.to_string();
        assert_eq!(remove_dead(&mut m), 4, "{before}\n{m}");
        assert_eq!(
            m.to_string(),
            "    mov_imm %0, 0\n    loop\n        if sge %0, 9\n            break\n        else\n        \
             end_if\n        iadd %0, %0, 1\n        continue\n    end_loop\n    st_tile %0, rt 0, 0b0001, i32\n"
        );
    }
}
