//! Coalescing of copies into register runs.
//!
//! Memory and texture instructions take their operands in runs of consecutive registers
//! (store data, texture coordinates, gradients, extras), so instruction selection copies each
//! value into its element of a fresh run. Where the value was computed by one instruction
//! that writes exactly its register group, that instruction can write the run's element
//! directly and the copy disappears. Pipeline position: after instruction selection and dead
//! code elimination, before scheduling.
//!
//! A copy `run[k] <- s` is coalesced when:
//! - `s` is a whole group written by exactly one instruction `d`, before the copy;
//! - `run[k]` and `s` have the same shape, and no instruction between `d` and the copy reads
//!   or writes `run[k]`'s units (the run is assembled only by its copies);
//! - `run[k]` is written nowhere else at all (it holds `s` for as long as `s` lives).
//!
//! Then every reference to `s` becomes a reference to the element, and the copy, now from a
//! register to itself, is dropped by register allocation.

use crate::isa::{Instr, IntSrc, Src};
use crate::mir::{MFunction, MInst, VReg};

/// The source and destination of a plain register copy (`iadd d, s, 0`).
fn copy(inst: &MInst<VReg>) -> Option<(VReg, VReg)> {
    match *inst {
        MInst::Op(Instr::Iadd {
            dst,
            a:
                IntSrc {
                    src: Src::Reg { reg, .. },
                    sext: false,
                },
            b: IntSrc {
                src: Src::Imm(0), ..
            },
            neg_b: false,
            shift: 0,
            sat: false,
        }) if dst.reg.class == reg.class => Some((dst.reg, reg)),
        _ => None,
    }
}

fn overlaps(a: &VReg, b: &VReg) -> bool {
    a.group == b.group && {
        let (x, y) = (a.units_range(), b.units_range());
        x.start < y.end && y.start < x.end
    }
}

/// Coalesces copies into register runs in `m`.
pub fn coalesce_runs(m: &mut MFunction) {
    let n = m.insts.len();
    let mut defs: Vec<Vec<usize>> = vec![Vec::new(); m.groups.len()];
    for (i, inst) in m.insts.iter().enumerate() {
        inst.for_each_def(|r| defs[r.group as usize].push(i));
    }
    for pos in 0..n {
        let Some((dst, src)) = copy(&m.insts[pos]) else {
            continue;
        };
        let (dg, sg) = (dst.group as usize, src.group as usize);
        // Only copies into part of a larger run.
        if dg == sg || m.groups[dg].units == dst.class.units() {
            continue;
        }
        let whole = src.offset == 0 && m.groups[sg].units == src.class.units();
        if !whole || defs[sg].len() != 1 || defs[sg][0] >= pos {
            continue;
        }
        let d = defs[sg][0];
        // The element is written by this copy only.
        let mut other_writes = false;
        for &w in &defs[dg] {
            if w != pos {
                let mut hit = false;
                m.insts[w].for_each_def(|r| hit |= overlaps(r, &dst));
                other_writes |= hit;
            }
        }
        if other_writes {
            continue;
        }
        // Nothing between the definition and the copy touches the element.
        let mut touched = false;
        for inst in &m.insts[d + 1..pos] {
            inst.for_each_use(|r| touched |= overlaps(r, &dst));
            inst.for_each_def(|r| touched |= overlaps(r, &dst));
        }
        if touched {
            continue;
        }
        let retarget = |r: VReg| {
            if r.group == src.group {
                VReg {
                    group: dst.group,
                    offset: dst.offset + r.offset,
                    class: r.class,
                }
            } else {
                r
            }
        };
        for inst in &mut m.insts[d..] {
            *inst = inst.map_regs(retarget);
        }
        // The source group is gone; its definition now writes the run.
        let moved = std::mem::take(&mut defs[sg]);
        defs[dg].extend(moved);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::{Dst, FSrc, Precision, RegClass, StackAccess};

    #[test]
    fn a_computed_value_is_written_into_its_run_element() {
        let mut m = MFunction::default();
        let a = m.new_group(RegClass::R32);
        let b = m.new_group(RegClass::R32);
        let run = m.new_group(RegClass::Vec32(2));
        let fadd = |dst, src| {
            MInst::Op(Instr::Fadd {
                prec: Precision::F32,
                dst: Dst::new(dst),
                sat: false,
                a: FSrc::reg(src),
                b: FSrc::imm(0x30),
            })
        };
        let mov = |dst, src| {
            MInst::Op(Instr::Iadd {
                dst: Dst::new(dst),
                a: IntSrc::zext(Src::reg(src)),
                b: IntSrc::zext(Src::Imm(0)),
                neg_b: false,
                shift: 0,
                sat: false,
            })
        };
        m.op(Instr::MovImm {
            dst: Dst::new(a),
            imm: 1,
        });
        m.push(fadd(b, a));
        m.push(mov(run.word(0), a));
        m.push(mov(run.word(1), b));
        m.op(Instr::StackStore(StackAccess {
            data: run,
            offset: crate::isa::MemOffset::Imm(0),
            format: crate::isa::MemFormat::I32,
            mask: 0b11,
        }));
        coalesce_runs(&mut m);
        let text: Vec<String> = m.insts.iter().map(|i| i.to_string()).collect();
        assert_eq!(
            text,
            [
                "mov_imm %2, 1",
                "fadd32 %2+2, %2, 1.0",
                "iadd %2, %2, 0",
                "iadd %2+2, %2+2, 0",
                "stack_store %2:32x2, 0, i32, 0b0011",
            ]
        );
    }
}
