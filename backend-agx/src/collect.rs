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

/// A reference to some units of a group: (position, first unit, end unit).
type Ref = (usize, u32, u32);

/// Coalesces copies into register runs in `m`.
///
/// The copies are considered in order, each on the code as the coalescings before it left it.
/// Rather than rewriting the code after every coalescing, the renamings are recorded (group
/// `s` is element `offset` of group `t` from position `from` on) and applied to a reference
/// when it is looked at, and once to the whole code at the end; each group keeps its
/// references by position (those of a renamed group move to the run from `from` on), so the
/// checks of a copy look at the run's references alone.
pub fn coalesce_runs(m: &mut MFunction) {
    let n = m.insts.len();
    let groups = m.groups.len();
    let mut defs: Vec<Vec<usize>> = vec![Vec::new(); groups];
    let mut refs: Vec<Vec<Ref>> = vec![Vec::new(); groups];
    for (i, inst) in m.insts.iter().enumerate() {
        inst.for_each_def(|r| defs[r.group as usize].push(i));
        let mut note = |r: &VReg| {
            let u = r.units_range();
            refs[r.group as usize].push((i, u.start, u.end));
        };
        inst.for_each_use(&mut note);
        inst.for_each_def(&mut note);
    }
    let mut rename: Vec<Option<(u32, u16, usize)>> = vec![None; groups];
    let resolve = |rename: &[Option<(u32, u16, usize)>], mut r: VReg, at: usize| {
        while let Some((g, offset, from)) = rename[r.group as usize] {
            if at < from {
                break;
            }
            r = VReg {
                group: g,
                offset: offset + r.offset,
                class: r.class,
            };
        }
        r
    };
    let mut renamed = false;
    for pos in 0..n {
        let Some((dst, src)) = copy(&m.insts[pos]) else {
            continue;
        };
        let (dst, src) = (resolve(&rename, dst, pos), resolve(&rename, src, pos));
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
                m.insts[w]
                    .for_each_def(|r| other_writes |= overlaps(&resolve(&rename, *r, w), &dst));
            }
        }
        if other_writes {
            continue;
        }
        // Nothing between the definition and the copy touches the element.
        let units = dst.units_range();
        let run = &refs[dg];
        let touched = run[run.partition_point(|r| r.0 <= d)..]
            .iter()
            .take_while(|r| r.0 < pos)
            .any(|r| r.1 < units.end && units.start < r.2);
        if touched {
            continue;
        }
        // From `d` on, the source group is the element.
        rename[sg] = Some((dst.group, dst.offset, d));
        renamed = true;
        let keep = refs[sg].partition_point(|r| r.0 < d);
        let shift = u32::from(dst.offset);
        let moved: Vec<Ref> = refs[sg]
            .drain(keep..)
            .map(|(p, a, b)| (p, a + shift, b + shift))
            .collect();
        let old = std::mem::take(&mut refs[dg]);
        refs[dg] = merge(old, moved);
        // The source group is gone; its definition now writes the run.
        let moved = std::mem::take(&mut defs[sg]);
        defs[dg].extend(moved);
    }
    if renamed {
        for (at, inst) in m.insts.iter_mut().enumerate() {
            *inst = inst.map_regs(|r| resolve(&rename, r, at));
        }
    }
}

/// Two lists of references sorted by position, merged.
fn merge(a: Vec<Ref>, b: Vec<Ref>) -> Vec<Ref> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut a, mut b) = (a.into_iter().peekable(), b.into_iter().peekable());
    loop {
        let next = match (a.peek(), b.peek()) {
            (Some(x), Some(y)) => {
                if x.0 <= y.0 {
                    a.next()
                } else {
                    b.next()
                }
            }
            (Some(_), None) => a.next(),
            (None, _) => b.next(),
        };
        match next {
            Some(r) => out.push(r),
            None => return out,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::{Dst, FSrc, Precision, RegClass, StackAccess};

    /// The pass as first written: the code rewritten after every coalescing and the copy's
    /// window scanned.
    fn coalesce_by_rewriting(m: &mut MFunction) {
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
            if dg == sg || m.groups[dg].units == dst.class.units() {
                continue;
            }
            let whole = src.offset == 0 && m.groups[sg].units == src.class.units();
            if !whole || defs[sg].len() != 1 || defs[sg][0] >= pos {
                continue;
            }
            let d = defs[sg][0];
            let mut other_writes = false;
            for &w in &defs[dg] {
                if w != pos {
                    m.insts[w].for_each_def(|r| other_writes |= overlaps(r, &dst));
                }
            }
            let mut touched = false;
            for inst in &m.insts[d + 1..pos] {
                inst.for_each_use(|r| touched |= overlaps(r, &dst));
                inst.for_each_def(|r| touched |= overlaps(r, &dst));
            }
            if other_writes || touched {
                continue;
            }
            for inst in &mut m.insts[d..] {
                *inst = inst.map_regs(|r| {
                    if r.group == src.group {
                        VReg {
                            group: dst.group,
                            offset: dst.offset + r.offset,
                            class: r.class,
                        }
                    } else {
                        r
                    }
                });
            }
            let moved = std::mem::take(&mut defs[sg]);
            defs[dg].extend(moved);
        }
    }

    #[test]
    fn coalescing_equals_rewriting_after_every_copy() {
        use agxc_egraph::opt::synth::Rng;
        let mut rng = Rng::new(3);
        let mut coalesced = 0;
        for _ in 0..300 {
            let mut m = MFunction::default();
            let scalars: Vec<VReg> = (0..12).map(|_| m.new_group(RegClass::R32)).collect();
            let runs: Vec<VReg> = (0..3)
                .map(|i| m.new_group(RegClass::Vec32(2 + i as u8)))
                .collect();
            let pick = |rng: &mut Rng, v: &[VReg]| v[rng.below(v.len())];
            for _ in 0..rng.below(40) {
                let mov = |dst: VReg, src: VReg| {
                    MInst::Op(Instr::Iadd {
                        dst: crate::isa::Dst::new(dst),
                        a: IntSrc::zext(Src::reg(src)),
                        b: IntSrc::zext(Src::Imm(0)),
                        neg_b: false,
                        shift: 0,
                        sat: false,
                    })
                };
                match rng.below(6) {
                    0 => m.op(Instr::MovImm {
                        dst: crate::isa::Dst::new(pick(&mut rng, &scalars)),
                        imm: 1,
                    }),
                    1 => {
                        let (d, a) = (pick(&mut rng, &scalars), pick(&mut rng, &scalars));
                        m.push(MInst::Op(Instr::Fadd {
                            prec: Precision::F32,
                            dst: crate::isa::Dst::new(d),
                            sat: false,
                            a: FSrc::reg(a),
                            b: FSrc::imm(0x30),
                        }));
                    }
                    2 => {
                        let run = pick(&mut rng, &runs);
                        m.op(Instr::StackStore(StackAccess {
                            data: run,
                            offset: crate::isa::MemOffset::Imm(0),
                            format: crate::isa::MemFormat::I32,
                            mask: 1,
                        }));
                    }
                    3 => m.push(MInst::Loop),
                    _ => {
                        let run = pick(&mut rng, &runs);
                        let k = rng.below(usize::from(run.class.run().1 as u8)) as u16;
                        let s = pick(&mut rng, &scalars);
                        m.push(mov(run.word(k), s));
                    }
                }
            }
            let mut fast = m.clone();
            coalesce_runs(&mut fast);
            coalesced += usize::from(fast.insts != m.insts);
            coalesce_by_rewriting(&mut m);
            assert_eq!(fast.insts, m.insts);
        }
        assert!(coalesced > 50, "{coalesced} functions changed");
    }

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
