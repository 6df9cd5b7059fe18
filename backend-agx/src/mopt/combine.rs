//! Instruction combining: a product with one reader, an add, becomes one `imadd`.
//!
//! The G13's `imadd` is `a * b + (c << shift)`, with `c` optionally negated (the seed ISA
//! document, "imadd"). Instruction selection emits an IR multiply as `imadd t, a, b, 0` and an
//! add as `iadd`, so `6 * i + k` takes two instructions. Fusing them needs to know that nothing
//! else reads the product, which the e-graph cannot see per use (see `target::imadd`), so it
//! happens here: `imadd t, a, b, 0` followed in the same straight-line block by the only reader
//! of `t`, `iadd r, t, c` (or `r = t - c`, `r = c + t`, with `c`'s shift), where `a` and `b` are
//! not written in between and all widths are equal, becomes `imadd r, a, b, c` at the add.

use crate::isa::{Instr, IntSrc, Src};
use crate::mir::{MFunction, MInst, VReg};

/// A product `t = a * b` (an `imadd` with a zero addend).
fn product(inst: &MInst<VReg>) -> Option<(VReg, IntSrc<VReg>, IntSrc<VReg>)> {
    match *inst {
        MInst::Op(Instr::Imadd {
            dst,
            a,
            b,
            c: IntSrc {
                src: Src::Imm(0), ..
            },
            sat: false,
            ..
        }) => Some((dst.reg, a, b)),
        _ => None,
    }
}

/// The instruction `iadd` becomes when its operand `t` is `a * b`, if it can.
fn fuse(inst: &Instr<VReg>, t: VReg, a: IntSrc<VReg>, b: IntSrc<VReg>) -> Option<Instr<VReg>> {
    let Instr::Iadd {
        dst,
        a: x,
        b: y,
        neg_b,
        shift,
        sat: false,
    } = *inst
    else {
        return None;
    };
    if dst.reg.class != t.class {
        return None;
    }
    let is_t = |s: &IntSrc<VReg>| s.src.as_reg() == Some(&t);
    let (c, neg_c, shift) = if is_t(&x) && !is_t(&y) {
        (y, neg_b, shift)
    } else if is_t(&y) && !is_t(&x) && !neg_b && shift == 0 {
        (x, false, 0)
    } else {
        return None;
    };
    Some(Instr::Imadd {
        dst,
        a,
        b,
        c,
        neg_c,
        shift,
        sat: false,
    })
}

/// Fuses multiplies into the adds that alone read them; returns how many.
pub fn combine(m: &mut MFunction) -> u32 {
    let mut reads = vec![0u32; m.groups.len()];
    let mut defs = vec![0u32; m.groups.len()];
    for inst in &m.insts {
        inst.for_each_use(|r| reads[r.group as usize] += 1);
        inst.for_each_def(|r| defs[r.group as usize] += 1);
    }
    let whole = |r: &VReg| r.offset == 0 && m.groups[r.group as usize].units == r.class.units();
    let mut dead = vec![false; m.insts.len()];
    let mut fused = 0;
    for (i, is_dead) in dead.iter_mut().enumerate() {
        let Some((t, a, b)) = product(&m.insts[i]) else {
            continue;
        };
        let g = t.group as usize;
        if !whole(&t) || reads[g] != 1 || defs[g] != 1 {
            continue;
        }
        let sources: Vec<u32> = [a, b]
            .iter()
            .filter_map(|s| s.src.as_reg().map(|r| r.group))
            .collect();
        for j in i + 1..m.insts.len() {
            let MInst::Op(inst) = m.insts[j] else {
                break;
            };
            let mut reads_t = false;
            inst.for_each_use(|r| reads_t |= r.group == t.group);
            if reads_t {
                if let Some(new) = fuse(&inst, t, a, b) {
                    m.insts[j] = MInst::Op(new);
                    *is_dead = true;
                    fused += 1;
                }
                break;
            }
            let mut clobbers = false;
            inst.for_each_def(|r| clobbers |= sources.contains(&r.group));
            if clobbers {
                break;
            }
        }
    }
    let mut k = 0;
    m.insts.retain(|_| {
        k += 1;
        !dead[k - 1]
    });
    fused
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::{Dst, RegClass, SpecialReg};

    #[test]
    fn a_product_read_once_by_an_add_fuses() {
        let mut m = MFunction::default();
        let (i, t, r, u, s) = (
            m.new_group(RegClass::R32),
            m.new_group(RegClass::R32),
            m.new_group(RegClass::R32),
            m.new_group(RegClass::R32),
            m.new_group(RegClass::R32),
        );
        let prod = |d: VReg| {
            MInst::Op(Instr::Imadd {
                dst: Dst::new(d),
                a: IntSrc::zext(Src::reg(i)),
                b: IntSrc::zext(Src::Imm(6)),
                c: IntSrc::zext(Src::Imm(0)),
                neg_c: false,
                shift: 0,
                sat: false,
            })
        };
        let add = |d: VReg, x: VReg, neg_b| {
            MInst::Op(Instr::Iadd {
                dst: Dst::new(d),
                a: IntSrc::zext(Src::reg(x)),
                b: IntSrc::zext(Src::Imm(5)),
                neg_b,
                shift: 1,
                sat: false,
            })
        };
        m.op(Instr::GetSr {
            dst: Dst::new(i),
            sr: SpecialReg::ThreadPositionInGridX,
        });
        m.push(prod(t));
        m.push(add(r, t, true));
        // A product read twice stays.
        m.push(prod(u));
        m.push(add(s, u, false));
        m.op(Instr::StTile {
            src: u,
            rt: 0,
            mask: 1,
            format: crate::isa::MemFormat::I32,
        });
        m.op(Instr::StTile {
            src: r,
            rt: 1,
            mask: 1,
            format: crate::isa::MemFormat::I32,
        });
        m.op(Instr::StTile {
            src: s,
            rt: 2,
            mask: 1,
            format: crate::isa::MemFormat::I32,
        });
        let before = m.to_string();
        assert_eq!(combine(&mut m), 1, "{before}");
        let text: Vec<String> = m.insts.iter().map(|i| i.to_string()).collect();
        assert_eq!(text[1], "imadd %2, %0, 6, 5.neg, lsl 1", "{m}");
        assert_eq!(text[2], "imadd %3, %0, 6, 0");
    }
}
