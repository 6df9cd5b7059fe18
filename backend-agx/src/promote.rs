//! Constant promotion: constants that fit no immediate field move from `mov_imm` instructions
//! into uniform registers the runtime preloads (the ABI's constant pool).
//!
//! Pipeline position: after `collect`, before scheduling, on virtual registers, so the
//! scheduler and the allocator see the registers it frees. Mesa's AGX backend has the same pass
//! (`agx_opt_promote_constants.c`, run on its own IR before register allocation).
//!
//! # Heuristic
//! A `mov_imm` is promoted when promotion removes it, that is when
//! - it is the only instruction writing its group, and writes all of it (16 or 32 bits);
//! - every read of the group is an ALU source operand of the whole group ([`Src`]: any
//!   `ALUSrc`/`CmpselSrc` field encodes a uniform register as well as a register, see
//!   `Instr::alu_srcs_mut`) or a comparison of a structured `if`. A value also read by a store,
//!   a texture instruction or as part of a wider run keeps its register, and then a uniform
//!   would save nothing.
//!
//! Each distinct value takes one 32-bit uniform (a 16-bit value its low half), appended after
//! the shader's other uniforms while any of the 256 remain; values removing the most `mov_imm`s
//! go first (ties: the first one met), so a shader short of uniforms keeps the constants that
//! matter most. Every promoted `mov_imm` saves an instruction and a register for as long as the
//! constant lives; the cost is one word of uniform preloading per dispatch, paid by the runtime
//! once rather than by every thread.

use rustc_hash::FxHashMap as HashMap;

use crate::abi::Abi;
use crate::isa::{Instr, RegClass, Src, UReg};
use crate::mir::{MFunction, MInst, VReg};

/// What [`promote_constants`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Promoted {
    /// `mov_imm` instructions removed.
    pub movs: u32,
    /// Distinct constants now in uniforms.
    pub constants: u32,
}

/// A `mov_imm` that promotion would remove.
struct Candidate {
    /// Its position in the function.
    at: usize,
    /// The group it writes.
    reg: VReg,
    /// The value.
    imm: u32,
}

/// Promotes the constants of `m` to uniforms of `abi`'s constant pool (see the module docs).
pub fn promote_constants(m: &mut MFunction, abi: &mut Abi) -> Promoted {
    let candidates = candidates(m);
    if candidates.is_empty() {
        return Promoted::default();
    }
    // Distinct values in order of first appearance, with the mov_imms each would remove.
    let mut order: Vec<u32> = Vec::new();
    let mut by_value: HashMap<u32, Vec<&Candidate>> = HashMap::default();
    for c in &candidates {
        let list = by_value.entry(c.imm).or_default();
        if list.is_empty() {
            order.push(c.imm);
        }
        list.push(c);
    }
    // A stable sort keeps first-appearance order among equals.
    order.sort_by_key(|v| std::cmp::Reverse(by_value[v].len()));

    let mut uniform_of: HashMap<u32, UReg> = HashMap::default();
    let mut removed = vec![false; m.insts.len()];
    let mut done = Promoted::default();
    for value in order {
        let Some(word) = abi.add_constant(value) else {
            break;
        };
        done.constants += 1;
        for c in &by_value[&value] {
            let u = match c.reg.class {
                RegClass::H16 => UReg::U16(2 * word),
                _ => UReg::U32(word),
            };
            uniform_of.insert(c.reg.group, u);
            removed[c.at] = true;
            done.movs += 1;
        }
    }
    if uniform_of.is_empty() {
        return done;
    }
    for inst in &mut m.insts {
        alu_srcs_mut(inst, |s| {
            if let Src::Reg { reg, .. } = *s {
                if let Some(&u) = uniform_of.get(&reg.group) {
                    *s = Src::Uniform(u);
                }
            }
        });
    }
    let mut i = 0;
    m.insts.retain(|_| {
        let keep = !removed[i];
        i += 1;
        keep
    });
    done
}

/// The `mov_imm`s whose group promotion would free entirely.
fn candidates(m: &MFunction) -> Vec<Candidate> {
    let n = m.groups.len();
    let mut defs = vec![0u32; n];
    let mut reads = vec![0u32; n];
    let mut promotable_reads = vec![0u32; n];
    for inst in &m.insts {
        inst.for_each_def(|r| defs[r.group as usize] += 1);
        inst.for_each_use(|r| reads[r.group as usize] += 1);
        // A copy: the visitor hands out mutable operands, and this only counts them.
        let mut inst = *inst;
        alu_srcs_mut(&mut inst, |s| {
            if let Src::Reg { reg, .. } = s {
                if whole_group(m, reg) {
                    promotable_reads[reg.group as usize] += 1;
                }
            }
        });
    }
    m.insts
        .iter()
        .enumerate()
        .filter_map(|(at, inst)| match *inst {
            MInst::Op(Instr::MovImm { dst, imm }) => {
                let g = dst.reg.group as usize;
                let ok = whole_group(m, &dst.reg)
                    && matches!(dst.reg.class, RegClass::R32 | RegClass::H16)
                    && defs[g] == 1
                    && reads[g] > 0
                    && promotable_reads[g] == reads[g];
                ok.then_some(Candidate {
                    at,
                    reg: dst.reg,
                    imm,
                })
            }
            _ => None,
        })
        .collect()
}

/// Whether `r` views all of its group.
pub(crate) fn whole_group(m: &MFunction, r: &VReg) -> bool {
    r.offset == 0
        && m.groups
            .get(r.group as usize)
            .is_some_and(|g| g.units == r.class.units())
}

/// The ALU source operands of a machine-function instruction, including the comparison of a
/// structured `if` (lowered to `if_*cmp`, whose operands are ALU sources too).
pub(crate) fn alu_srcs_mut(inst: &mut MInst<VReg>, mut f: impl FnMut(&mut Src<VReg>)) {
    match inst {
        MInst::Op(i) => i.alu_srcs_mut(f),
        MInst::If { cmp, .. } => cmp.srcs_mut().into_iter().for_each(&mut f),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abi::UniformContent;
    use crate::isa::{DeviceAccess, Dst, FSrc, MemBase, MemFormat, MemOffset, Precision};

    fn mov_imm(m: &mut MFunction, dst: VReg, imm: u32) {
        m.op(Instr::MovImm {
            dst: Dst::new(dst),
            imm,
        });
    }

    /// `dst = a * b` in f32.
    fn fmul(m: &mut MFunction, dst: VReg, a: FSrc<VReg>, b: FSrc<VReg>) {
        m.op(Instr::Fmul {
            prec: Precision::F32,
            dst: Dst::new(dst),
            sat: false,
            a,
            b,
        });
    }

    fn store(m: &mut MFunction, data: VReg) {
        m.op(Instr::DeviceStore(DeviceAccess {
            data,
            base: MemBase::Uniform(0),
            offset: MemOffset::Imm(0),
            format: MemFormat::I32,
            mask: 1,
            shift: 0,
            slot: 0,
        }));
    }

    fn movs(m: &MFunction) -> usize {
        m.insts
            .iter()
            .filter(|i| matches!(i, MInst::Op(Instr::MovImm { .. })))
            .count()
    }

    #[test]
    fn a_constant_read_by_alu_sources_moves_to_the_pool() {
        let mut m = MFunction::default();
        let (c, y) = (m.new_group(RegClass::R32), m.new_group(RegClass::R32));
        mov_imm(&mut m, c, 0x3e99_999a);
        fmul(&mut m, y, FSrc::reg(c), FSrc::reg(c).negated());
        store(&mut m, y);
        let mut abi = Abi::default();
        let done = promote_constants(&mut m, &mut abi);
        assert_eq!(
            done,
            Promoted {
                movs: 1,
                constants: 1
            }
        );
        assert_eq!(movs(&m), 0);
        assert_eq!(abi.uniform(UniformContent::Constant(0x3e99_999a)), Some(0));
        let MInst::Op(Instr::Fmul { a, b, .. }) = m.insts[0] else {
            panic!("{m}");
        };
        assert_eq!(a.src, Src::Uniform(UReg::U32(0)));
        // The modifier stays with the operand.
        assert_eq!((b.src, b.neg), (Src::Uniform(UReg::U32(0)), true));
    }

    #[test]
    fn constants_whose_mov_imm_would_stay_are_not_promoted() {
        let mut m = MFunction::default();
        // Read by a store (registers only).
        let stored = m.new_group(RegClass::R32);
        mov_imm(&mut m, stored, 0x1234_5678);
        store(&mut m, stored);
        // Written twice (a loop parameter, say).
        let (twice, y) = (m.new_group(RegClass::R32), m.new_group(RegClass::R32));
        mov_imm(&mut m, twice, 0x4000_0001);
        mov_imm(&mut m, twice, 0x4000_0002);
        fmul(&mut m, y, FSrc::reg(twice), FSrc::reg(twice));
        // Read through its low half only.
        let (part, z) = (m.new_group(RegClass::R32), m.new_group(RegClass::R32));
        mov_imm(&mut m, part, 0x0001_2345);
        fmul(&mut m, z, FSrc::reg(part.lo16()), FSrc::imm(0x30));
        let mut abi = Abi::default();
        assert_eq!(promote_constants(&mut m, &mut abi), Promoted::default());
        assert_eq!(movs(&m), 4);
        assert!(abi.uniforms.is_empty());
    }
}
