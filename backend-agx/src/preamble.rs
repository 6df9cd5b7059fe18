//! The uniform preamble: work that depends only on uniforms and constants moves out of the
//! per-thread program into a second program the runtime runs once per dispatch or draw.
//!
//! Pipeline position: after the machine-function optimizations (`mopt-*`), before scheduling,
//! on virtual registers. Mesa's AGX backend does the same with its preamble
//! (`agx_nir_opt_preamble.c` chooses the work on NIR; the preamble program writes uniform
//! registers with `uniform_store`): the reciprocal and magic numbers of a division by a push
//! constant or a texture size, a UBO-derived product, a constant folded with a uniform, all
//! run once instead of once per thread, and Mesa's shader-db figures count the main program
//! only. The ABI part (which uniforms the results take, and when the runtime runs the
//! preamble) is in `crate::abi`, "Preamble".
//!
//! # What moves
//! An instruction is *uniform* when it is pure arithmetic ([`movable`]: no memory, no
//! texture, no special register, no side effect), writes one whole group that nothing else
//! writes, and reads only immediates, uniform registers and groups written by uniform
//! instructions. Position does not matter: an instruction inside a loop or under an `if` is
//! computed once for all iterations and threads, which is right for pure arithmetic
//! (computing an arm's value for threads that skip the arm has no effect).
//!
//! A uniform group the main program still reads is *exported*: the preamble stores it with
//! `uniform_store` into a uniform ([`Abi::add_preamble_result`]), and the main program reads
//! it there. An ALU source operand reads a uniform register directly (`ALUSrc`/`CmpselSrc`
//! encode one); any other read (a store's data, texture coordinates, part of a run) needs the
//! value in a register, so the defining instruction is replaced by a copy from the uniform.
//! Only 16- and 32-bit groups can be exported (a uniform operand is at most 32 bits).
//!
//! # When it pays
//! Each uniform instruction removed from the main program saves one instruction per thread;
//! each copy costs one. A uniform instruction whose result needs a copy and that reads no
//! other moved result would be replaced by a copy one for one, so it stays (and so, in turn,
//! may what reads it). If the main program would not get shorter, nothing moves. The uniform
//! registers are shared with the rest of the ABI; when they run out, nothing moves.

use crate::abi::Abi;
use crate::isa::{Dst, FUnaryOp, Instr, IntSrc, MemFormat, RegClass, Src, UReg};
use crate::mir::{MFunction, MInst, VReg};
use crate::promote::{alu_srcs_mut, whole_group};

/// What [`extract`] moved.
#[derive(Clone, Debug, Default)]
pub struct Extracted {
    /// The preamble: the moved instructions in their original order, then one
    /// `uniform_store` per exported group. Empty when nothing moved.
    pub preamble: MFunction,
    /// Instructions removed from the main program (copies not subtracted).
    pub moved: u32,
    /// Copies from uniforms added to the main program.
    pub copies: u32,
}

/// Whether `i` is pure arithmetic the preamble may compute (see the module docs): an ALU
/// instruction other than a special-register read or a derivative, which see the thread.
fn movable(i: &Instr<VReg>) -> bool {
    match i {
        Instr::GetSr { .. } => false,
        Instr::FUnary { op, .. } => !matches!(op, FUnaryOp::Dfdx | FUnaryOp::Dfdy),
        _ => i.is_alu(),
    }
}

/// How the main program reads a group.
#[derive(Clone, Copy, Default)]
struct Reads {
    /// Reads by instructions that stay, in all.
    all: u32,
    /// Of those, ALU source operands of the whole group (or the comparison of an `if`).
    alu: u32,
}

/// Moves the uniform work of `m` into a preamble (module docs); `m` keeps the rest, reading
/// the exported results from uniforms `abi` allocates.
pub fn extract(m: &mut MFunction, abi: &mut Abi) -> Extracted {
    let n = m.groups.len();
    let mut defs = vec![0u32; n];
    for inst in &m.insts {
        inst.for_each_def(|r| defs[r.group as usize] += 1);
    }
    // Groups that may not be uniform: found not to pay or not to be exportable.
    let mut blocked = vec![false; n];
    loop {
        let (moved, uniform) = uniform_instructions(m, &defs, &blocked);
        let reads = main_reads(m, &moved);
        let mut changed = false;
        let mut copies = 0u32;
        let mut exported = 0u32;
        for (at, inst) in m.insts.iter().enumerate() {
            if !moved[at] {
                continue;
            }
            let Some(g) = def_group(inst) else { continue };
            let r = reads[g];
            if r.all == 0 {
                continue;
            }
            exported += 1;
            let units = m.groups[g].units;
            let needs_copy = r.alu < r.all;
            let reads_moved = {
                let mut any = false;
                inst.for_each_use(|x| any |= uniform[x.group as usize]);
                any
            };
            // Not exportable, or replaced by a copy for nothing.
            if units > 2 || (needs_copy && !reads_moved) {
                blocked[g] = true;
                changed = true;
            }
            copies += u32::from(needs_copy);
        }
        if changed {
            continue;
        }
        let count = moved.iter().filter(|&&x| x).count() as u32;
        if count <= copies || exported == 0 {
            return Extracted::default();
        }
        return build(m, abi, &moved, &reads).unwrap_or_default();
    }
}

/// The group `inst` writes, when it writes exactly one.
fn def_group(inst: &MInst<VReg>) -> Option<usize> {
    let mut g = None;
    let mut count = 0;
    inst.for_each_def(|r| {
        g = Some(r.group as usize);
        count += 1;
    });
    (count == 1).then_some(g).flatten()
}

/// Per instruction, whether it is uniform; per group, whether a uniform instruction writes it.
fn uniform_instructions(m: &MFunction, defs: &[u32], blocked: &[bool]) -> (Vec<bool>, Vec<bool>) {
    let mut uniform = vec![false; m.groups.len()];
    let moved: Vec<bool> = m
        .insts
        .iter()
        .map(|inst| {
            let MInst::Op(i) = inst else { return false };
            if !movable(i) {
                return false;
            }
            let Some(g) = def_group(inst) else {
                return false;
            };
            let mut whole = false;
            inst.for_each_def(|r| whole = whole_group(m, r));
            let mut sources = true;
            inst.for_each_use(|r| sources &= uniform[r.group as usize]);
            let ok = whole && sources && defs[g] == 1 && !blocked[g];
            if ok {
                uniform[g] = true;
            }
            ok
        })
        .collect();
    (moved, uniform)
}

/// How the instructions that stay read each group.
fn main_reads(m: &MFunction, moved: &[bool]) -> Vec<Reads> {
    let mut reads = vec![Reads::default(); m.groups.len()];
    for (at, inst) in m.insts.iter().enumerate() {
        if moved[at] {
            continue;
        }
        inst.for_each_use(|r| reads[r.group as usize].all += 1);
        let mut copy = *inst;
        alu_srcs_mut(&mut copy, |s| {
            if let Src::Reg { reg, .. } = s {
                if whole_group(m, reg) {
                    reads[reg.group as usize].alu += 1;
                }
            }
        });
    }
    reads
}

/// Splits `m` into the preamble and the main program; `None` when the uniforms run out.
fn build(m: &mut MFunction, abi: &mut Abi, moved: &[bool], reads: &[Reads]) -> Option<Extracted> {
    let mut trial = abi.clone();
    let mut preamble = MFunction {
        insts: Vec::new(),
        groups: m.groups.clone(),
        private_bytes: 0,
    };
    let mut uniform_of: Vec<Option<UReg>> = vec![None; m.groups.len()];
    let mut stores = Vec::new();
    let mut done = Extracted::default();
    let mut main = Vec::with_capacity(m.insts.len());
    for (at, inst) in m.insts.iter().enumerate() {
        if !moved[at] {
            main.push(*inst);
            continue;
        }
        preamble.insts.push(*inst);
        done.moved += 1;
        let Some(g) = def_group(inst) else { continue };
        let r = reads[g];
        if r.all == 0 {
            continue;
        }
        let mut reg = None;
        inst.for_each_def(|x| reg = Some(*x));
        let reg = reg?;
        let word = trial.add_preamble_result(stores.len() as u16)?;
        let (u, format) = if reg.class == RegClass::H16 {
            (UReg::U16(2 * word), MemFormat::I16)
        } else {
            (UReg::U32(word), MemFormat::I32)
        };
        stores.push(Instr::UniformStore {
            src: reg,
            offset: 2 * word,
            mask: 1,
            format,
        });
        if r.alu < r.all {
            main.push(MInst::Op(Instr::Iadd {
                dst: Dst::new(reg),
                a: IntSrc::zext(Src::Uniform(u)),
                b: IntSrc::zext(Src::Imm(0)),
                neg_b: false,
                shift: 0,
                sat: false,
            }));
            done.copies += 1;
        } else {
            uniform_of[g] = Some(u);
        }
    }
    for inst in &mut main {
        alu_srcs_mut(inst, |s| {
            if let Src::Reg { reg, .. } = *s {
                if let Some(u) = uniform_of[reg.group as usize] {
                    *s = Src::Uniform(u);
                }
            }
        });
    }
    preamble
        .insts
        .extend(stores.into_iter().map(MInst::Op::<VReg>));
    m.insts = main;
    *abi = trial;
    done.preamble = preamble;
    Some(done)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abi::UniformContent;
    use crate::isa::{DeviceAccess, FSrc, MemBase, MemOffset, Precision, SpecialReg};

    fn fmul(m: &mut MFunction, dst: VReg, a: FSrc<VReg>, b: FSrc<VReg>) {
        m.op(Instr::Fmul {
            prec: Precision::F32,
            dst: Dst::new(dst),
            sat: false,
            a,
            b,
        });
    }

    fn fadd(m: &mut MFunction, dst: VReg, a: FSrc<VReg>, b: FSrc<VReg>) {
        m.op(Instr::Fadd {
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

    fn thread_x(m: &mut MFunction) -> VReg {
        let t = m.new_group(RegClass::R32);
        m.op(Instr::GetSr {
            dst: Dst::new(t),
            sr: SpecialReg::ThreadPositionInGridX,
        });
        t
    }

    fn u(n: u16) -> FSrc<VReg> {
        FSrc::new(Src::Uniform(UReg::U32(n)))
    }

    /// `x = u2 * u3; y = x + 1.0` is uniform; `z = t * y` reads `y` as an ALU source.
    #[test]
    fn a_uniform_chain_moves_and_its_alu_reads_take_the_uniform() {
        let mut m = MFunction::default();
        let t = thread_x(&mut m);
        let (x, y, z) = (
            m.new_group(RegClass::R32),
            m.new_group(RegClass::R32),
            m.new_group(RegClass::R32),
        );
        fmul(&mut m, x, u(2), u(3));
        fadd(&mut m, y, FSrc::reg(x), FSrc::imm(0x30));
        fmul(&mut m, z, FSrc::reg(t), FSrc::reg(y).negated());
        store(&mut m, z);
        let mut abi = Abi::default();
        let done = extract(&mut m, &mut abi);
        assert_eq!((done.moved, done.copies), (2, 0));
        let word = abi
            .uniform(UniformContent::Preamble(0))
            .expect("a result uniform");
        // The preamble: the two instructions, then the store of `y` to its uniform.
        assert_eq!(done.preamble.insts.len(), 3, "{}", done.preamble);
        assert_eq!(
            done.preamble.insts[2],
            MInst::Op(Instr::UniformStore {
                src: y,
                offset: 2 * word,
                mask: 1,
                format: MemFormat::I32,
            })
        );
        // The main program: get_sr, the multiply reading the uniform (modifier kept), store.
        assert_eq!(m.insts.len(), 3, "{m}");
        let MInst::Op(Instr::Fmul { b, .. }) = m.insts[1] else {
            panic!("{m}");
        };
        assert_eq!((b.src, b.neg), (Src::Uniform(UReg::U32(word)), true));
    }

    #[test]
    fn a_result_read_by_a_store_is_copied_from_its_uniform() {
        let mut m = MFunction::default();
        let (x, y) = (m.new_group(RegClass::R32), m.new_group(RegClass::R32));
        fmul(&mut m, x, u(2), u(3));
        fadd(&mut m, y, FSrc::reg(x), FSrc::imm(0x30));
        store(&mut m, y);
        let mut abi = Abi::default();
        let done = extract(&mut m, &mut abi);
        assert_eq!((done.moved, done.copies), (2, 1));
        let word = abi
            .uniform(UniformContent::Preamble(0))
            .expect("a result uniform");
        let MInst::Op(Instr::Iadd { dst, a, .. }) = m.insts[0] else {
            panic!("{m}");
        };
        assert_eq!((dst.reg, a.src), (y, Src::Uniform(UReg::U32(word))));
        assert_eq!(m.insts.len(), 2, "{m}");
    }

    /// Replacing `y = u2 + 1.0` (read by a store) by a copy would save nothing; per-thread
    /// values and derivatives never move.
    #[test]
    fn work_that_would_not_shorten_the_main_program_stays() {
        let mut m = MFunction::default();
        let t = thread_x(&mut m);
        let (y, z, d) = (
            m.new_group(RegClass::R32),
            m.new_group(RegClass::R32),
            m.new_group(RegClass::R32),
        );
        fadd(&mut m, y, u(2), FSrc::imm(0x30));
        store(&mut m, y);
        fmul(&mut m, z, FSrc::reg(t), u(3));
        store(&mut m, z);
        m.op(Instr::FUnary {
            op: FUnaryOp::Dfdx,
            dst: Dst::new(d),
            sat: false,
            a: u(4),
        });
        store(&mut m, d);
        let before = m.clone();
        let mut abi = Abi::default();
        let done = extract(&mut m, &mut abi);
        assert_eq!(done.moved, 0);
        assert_eq!(m.insts, before.insts);
        assert!(abi.uniforms.is_empty());
    }

    /// A 64-bit uniform result read by the main program cannot be exported: it stays, and
    /// so does what reads it.
    #[test]
    fn wide_results_the_main_program_reads_stay() {
        let mut m = MFunction::default();
        let wide = m.new_group(RegClass::R64);
        m.op(Instr::Imadd {
            dst: Dst::new(wide),
            a: IntSrc::zext(Src::Uniform(UReg::U32(2))),
            b: IntSrc::zext(Src::Uniform(UReg::U32(3))),
            c: IntSrc::zext(Src::Imm(0)),
            neg_c: false,
            shift: 0,
            sat: false,
        });
        m.op(Instr::DeviceStore(DeviceAccess {
            data: wide,
            base: MemBase::Uniform(0),
            offset: MemOffset::Imm(0),
            format: MemFormat::I32,
            mask: 0b11,
            shift: 0,
            slot: 0,
        }));
        let mut abi = Abi::default();
        assert_eq!(extract(&mut m, &mut abi).moved, 0);
        assert_eq!(m.insts.len(), 2);
    }
}
