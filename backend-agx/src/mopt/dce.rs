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

use super::flow::{BitSet, Cfg, UnitMap};
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

/// Deletes the instructions of `m` that no needed instruction depends on; returns how many.
pub fn remove_dead(m: &mut MFunction) -> u32 {
    let cfg = Cfg::new(&m.insts);
    let units = UnitMap::new(m);
    let nb = cfg.blocks.len();
    let mut live_in = vec![BitSet::new(units.total); nb];
    let mut changed = true;
    while changed {
        changed = false;
        for b in (0..nb).rev() {
            let mut live = BitSet::new(units.total);
            for &s in &cfg.succs[b] {
                live.union_with(&live_in[s]);
            }
            for inst in m.insts[cfg.blocks[b].clone()].iter().rev() {
                step(inst, &units, &mut live);
            }
            if live != live_in[b] {
                live_in[b] = live;
                changed = true;
            }
        }
    }
    let mut keep = vec![true; m.insts.len()];
    for (b, range) in cfg.blocks.iter().enumerate() {
        let mut live = BitSet::new(units.total);
        for &s in &cfg.succs[b] {
            live.union_with(&live_in[s]);
        }
        for i in range.clone().rev() {
            keep[i] = step(&m.insts[i], &units, &mut live);
        }
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
