//! Register accesses of an instruction, for liveness, interference and register allocation:
//! the registers it defines and uses with their sizes in 16-bit units, and mutable access to
//! the register-cache hints a hint pass sets after allocation.

use smallvec::SmallVec;

use super::instr::Instr;
use super::mem::{MemBase, MemOffset, TexOp, TgBase, TgOffset};
use super::operand::{Cmp, Src};
use super::reg::{Hint, RegUnits};
use agxc_g13_isa::operands;

/// A register operand with its size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RegRef<R> {
    /// The register.
    pub reg: R,
    /// Size in 16-bit units.
    pub units: u32,
}

/// A register-cache hint of one operand, for a hint pass to set.
#[derive(Debug)]
pub enum HintSlot<'a, R> {
    /// A register source of an ALU instruction: none, cache or discard.
    Src {
        /// The register read.
        reg: &'a R,
        /// Its hint.
        hint: &'a mut Hint,
    },
    /// A destination: cache or not.
    Dst {
        /// The register written.
        reg: &'a R,
        /// Its cache hint.
        cache: &'a mut bool,
    },
    /// The coordinate registers of a texture instruction: discard (last use) or not.
    SrcDiscard {
        /// The registers read.
        reg: &'a R,
        /// The discard hint.
        discard: &'a mut bool,
    },
}

/// Inline capacity of the operand lists (texture instructions have the most: five).
type Regs<R> = SmallVec<[RegRef<R>; 6]>;

impl<R> Instr<R> {
    /// Calls `f` for every register operand the instruction writes.
    pub fn for_each_def(&self, mut f: impl FnMut(&R)) {
        use Instr::*;
        match self {
            MovImm { dst, .. }
            | GetSr { dst, .. }
            | Iadd { dst, .. }
            | Imadd { dst, .. }
            | Convert { dst, .. }
            | Alu { dst, .. }
            | Bitfield { dst, .. }
            | Asr { dst, .. }
            | Bitop { dst, .. }
            | Fmadd { dst, .. }
            | Fadd { dst, .. }
            | Fmul { dst, .. }
            | FUnary { dst, .. }
            | Select { dst, .. } => f(&dst.reg),
            LdVar { dst, .. } | SimdShuffle { dst, .. } => f(dst),
            DeviceLoad(a) => f(&a.data),
            StackLoad(a) => f(&a.data),
            ThreadgroupLoad(a) => f(&a.data),
            TextureSample(t) | TextureLoad(t) => f(&t.dst),
            DeviceAtomic(a) => {
                if let Some(d) = &a.dst {
                    f(d);
                }
            }
            ThreadgroupAtomic(a) => {
                if let Some(d) = &a.dst {
                    f(d);
                }
            }
            Stop
            | Trap
            | JmpExecAny { .. }
            | JmpExecNone { .. }
            | Call { .. }
            | Ret { .. }
            | PopExec { .. }
            | ExecStack { .. }
            | Wait { .. }
            | ThreadgroupBarrier
            | StTile { .. }
            | UniformStore { .. }
            | SampleMask { .. }
            | DeviceStore(_)
            | StackStore(_)
            | ImageWrite(_)
            | ThreadgroupStore(_) => {}
        }
    }

    /// Calls `f` for every register operand the instruction reads, in operand order.
    pub fn for_each_use(&self, mut f: impl FnMut(&R)) {
        let f = &mut f;
        use Instr::*;
        match self {
            MovImm { .. } | GetSr { .. } => {}
            Iadd { a, b, .. } => srcs([&a.src, &b.src], f),
            Imadd { a, b, c, .. } => srcs([&a.src, &b.src, &c.src], f),
            Convert { src, .. } => srcs([src], f),
            Alu { .. } => srcs(self.alu_srcs(), f),
            Bitfield { a, b, c, .. } => srcs([a, b, c], f),
            Asr { a, b, .. } | Bitop { a, b, .. } => srcs([a, b], f),
            Fmadd { a, b, c, .. } => srcs([&a.src, &b.src, &c.src], f),
            Fadd { a, b, .. } | Fmul { a, b, .. } => srcs([&a.src, &b.src], f),
            FUnary { a, .. } => srcs([&a.src], f),
            Ret { reg } => f(reg),
            ExecStack { cmp, .. } => srcs(cmp.srcs(), f),
            Select { cmp, x, y, .. } => {
                srcs(cmp.srcs(), f);
                srcs([x, y], f);
            }
            StTile { src, .. } | UniformStore { src, .. } => f(src),
            SimdShuffle { src, lane, .. } => {
                f(src);
                f(lane);
            }
            DeviceLoad(a) | DeviceStore(a) => {
                if let MemBase::Reg(r) = &a.base {
                    f(r);
                }
                mem_offset(&a.offset, f);
                if matches!(self, DeviceStore(_)) {
                    f(&a.data);
                }
            }
            StackLoad(a) | StackStore(a) => {
                mem_offset(&a.offset, f);
                if matches!(self, StackStore(_)) {
                    f(&a.data);
                }
            }
            ThreadgroupLoad(a) | ThreadgroupStore(a) => {
                if let TgBase::Reg(r) = &a.base {
                    f(r);
                }
                if let TgOffset::Reg(r) = &a.offset {
                    f(r);
                }
                if matches!(self, ThreadgroupStore(_)) {
                    f(&a.data);
                }
            }
            TextureSample(t) | TextureLoad(t) => tex_uses(t, f),
            DeviceAtomic(a) => {
                if let MemBase::Reg(r) = &a.base {
                    f(r);
                }
                mem_offset(&a.offset, f);
                f(&a.value);
            }
            ThreadgroupAtomic(a) => {
                if let TgBase::Reg(r) = &a.base {
                    f(r);
                }
                if let TgOffset::Reg(r) = &a.offset {
                    f(r);
                }
                f(&a.value);
            }
            ImageWrite(w) => {
                f(&w.data);
                f(&w.coords);
                if let super::mem::TexIndex::Reg(r) = &w.texture {
                    f(r);
                }
            }
            Stop
            | Trap
            | JmpExecAny { .. }
            | JmpExecNone { .. }
            | Call { .. }
            | PopExec { .. }
            | Wait { .. }
            | ThreadgroupBarrier
            | SampleMask { .. }
            | LdVar { .. } => {}
        }
    }

    /// Calls `f` with every register-cache hint of the instruction's operands (ALU register
    /// sources, ALU destinations, texture coordinates).
    pub fn hint_slots_mut(&mut self, mut f: impl FnMut(HintSlot<'_, R>)) {
        let f = &mut f;
        use Instr::*;
        match self {
            MovImm { dst, .. } | GetSr { dst, .. } => dst_slot(&dst.reg, &mut dst.cache, f),
            Iadd { dst, a, b, .. } => {
                dst_slot(&dst.reg, &mut dst.cache, f);
                src_slots([&mut a.src, &mut b.src], f);
            }
            Imadd { dst, a, b, c, .. } => {
                dst_slot(&dst.reg, &mut dst.cache, f);
                src_slots([&mut a.src, &mut b.src, &mut c.src], f);
            }
            Convert { dst, src: a, .. } => {
                dst_slot(&dst.reg, &mut dst.cache, f);
                src_slots([a], f);
            }
            Alu { op, dst, srcs } => {
                dst_slot(&dst.reg, &mut dst.cache, f);
                src_slots(&mut srcs[..operands::src_count(*op)], f);
            }
            Bitfield { dst, a, b, c, .. } => {
                dst_slot(&dst.reg, &mut dst.cache, f);
                src_slots([a, b, c], f);
            }
            Asr { dst, a, b, .. } | Bitop { dst, a, b, .. } => {
                dst_slot(&dst.reg, &mut dst.cache, f);
                src_slots([a, b], f);
            }
            Fmadd { dst, a, b, c, .. } => {
                dst_slot(&dst.reg, &mut dst.cache, f);
                src_slots([&mut a.src, &mut b.src, &mut c.src], f);
            }
            Fadd { dst, a, b, .. } | Fmul { dst, a, b, .. } => {
                dst_slot(&dst.reg, &mut dst.cache, f);
                src_slots([&mut a.src, &mut b.src], f);
            }
            FUnary { dst, a, .. } => {
                dst_slot(&dst.reg, &mut dst.cache, f);
                src_slots([&mut a.src], f);
            }
            ExecStack { cmp, .. } => src_slots(cmp.srcs_mut(), f),
            Select { dst, cmp, x, y } => {
                dst_slot(&dst.reg, &mut dst.cache, f);
                src_slots(cmp.srcs_mut(), f);
                src_slots([x, y], f);
            }
            TextureSample(t) | TextureLoad(t) => f(HintSlot::SrcDiscard {
                reg: &t.coords,
                discard: &mut t.coords_discard,
            }),
            ImageWrite(w) => f(HintSlot::SrcDiscard {
                reg: &w.coords,
                discard: &mut w.coords_discard,
            }),
            Stop
            | Trap
            | JmpExecAny { .. }
            | JmpExecNone { .. }
            | Call { .. }
            | Ret { .. }
            | PopExec { .. }
            | Wait { .. }
            | ThreadgroupBarrier
            | StTile { .. }
            | UniformStore { .. }
            | LdVar { .. }
            | SampleMask { .. }
            | SimdShuffle { .. }
            | DeviceLoad(_)
            | DeviceStore(_)
            | StackLoad(_)
            | StackStore(_)
            | ThreadgroupLoad(_)
            | ThreadgroupStore(_)
            | DeviceAtomic(_)
            | ThreadgroupAtomic(_) => {}
        }
    }

    /// Calls `f` with every ALU source operand ([`Src`]): the operands whose encoding
    /// (`ALUSrc`, `CmpselSrc`) also takes an 8-bit immediate or a uniform register in place of
    /// a register. Memory, texture and tile operands are registers only and are not visited.
    pub fn alu_srcs_mut(&mut self, mut f: impl FnMut(&mut Src<R>)) {
        use Instr::*;
        match self {
            Iadd { a, b, .. } => [&mut a.src, &mut b.src].into_iter().for_each(f),
            Imadd { a, b, c, .. } => [&mut a.src, &mut b.src, &mut c.src].into_iter().for_each(f),
            Convert { src: a, .. } => f(a),
            Alu { .. } => self.alu_srcs_of_mut().iter_mut().for_each(f),
            Bitfield { a, b, c, .. } => [a, b, c].into_iter().for_each(f),
            Asr { a, b, .. } | Bitop { a, b, .. } => [a, b].into_iter().for_each(f),
            Fmadd { a, b, c, .. } => [&mut a.src, &mut b.src, &mut c.src].into_iter().for_each(f),
            Fadd { a, b, .. } | Fmul { a, b, .. } => {
                [&mut a.src, &mut b.src].into_iter().for_each(f)
            }
            FUnary { a, .. } => f(&mut a.src),
            ExecStack { cmp, .. } => cmp.srcs_mut().into_iter().for_each(f),
            Select { cmp, x, y, .. } => {
                cmp.srcs_mut().into_iter().for_each(&mut f);
                [x, y].into_iter().for_each(f);
            }
            MovImm { .. }
            | GetSr { .. }
            | TextureSample(_)
            | TextureLoad(_)
            | ImageWrite(_)
            | Stop
            | Trap
            | JmpExecAny { .. }
            | JmpExecNone { .. }
            | Call { .. }
            | Ret { .. }
            | PopExec { .. }
            | Wait { .. }
            | ThreadgroupBarrier
            | StTile { .. }
            | UniformStore { .. }
            | LdVar { .. }
            | SampleMask { .. }
            | SimdShuffle { .. }
            | DeviceLoad(_)
            | DeviceStore(_)
            | StackLoad(_)
            | StackStore(_)
            | ThreadgroupLoad(_)
            | ThreadgroupStore(_)
            | DeviceAtomic(_)
            | ThreadgroupAtomic(_) => {}
        }
    }

    /// The comparison of a select or execution-mask stack instruction.
    pub fn cmp(&self) -> Option<&Cmp<R>> {
        match self {
            Instr::ExecStack { cmp, .. } | Instr::Select { cmp, .. } => Some(cmp),
            _ => None,
        }
    }
}

impl<R: Copy + RegUnits> Instr<R> {
    /// The registers the instruction writes, with their sizes.
    pub fn defs(&self) -> impl Iterator<Item = RegRef<R>> {
        let mut out = Regs::new();
        self.for_each_def(|r| {
            out.push(RegRef {
                reg: *r,
                units: r.units(),
            })
        });
        out.into_iter()
    }

    /// The registers the instruction reads, with their sizes, in operand order (a register
    /// read twice appears twice).
    pub fn uses(&self) -> impl Iterator<Item = RegRef<R>> {
        let mut out = Regs::new();
        self.for_each_use(|r| {
            out.push(RegRef {
                reg: *r,
                units: r.units(),
            })
        });
        out.into_iter()
    }
}

fn srcs<'a, R: 'a>(list: impl IntoIterator<Item = &'a Src<R>>, f: &mut impl FnMut(&R)) {
    for s in list {
        if let Src::Reg { reg, .. } = s {
            f(reg);
        }
    }
}

fn mem_offset<R>(o: &MemOffset<R>, f: &mut impl FnMut(&R)) {
    if let MemOffset::Reg { reg, .. } = o {
        f(reg);
    }
}

fn tex_uses<R>(t: &TexOp<R>, f: &mut impl FnMut(&R)) {
    f(&t.coords);
    if let Some(r) = t.lod.reg() {
        f(r);
    }
    if let Some(e) = &t.extra {
        f(&e.regs);
    }
    for index in [&t.texture, &t.sampler] {
        if let super::mem::TexIndex::Reg(r) = index {
            f(r);
        }
    }
}

fn dst_slot<'a, R>(reg: &'a R, cache: &'a mut bool, f: &mut impl FnMut(HintSlot<'_, R>)) {
    f(HintSlot::Dst { reg, cache });
}

fn src_slots<'a, R: 'a>(
    list: impl IntoIterator<Item = &'a mut Src<R>>,
    f: &mut impl FnMut(HintSlot<'_, R>),
) {
    for s in list {
        if let Src::Reg { reg, hint } = s {
            f(HintSlot::Src { reg, hint });
        }
    }
}

#[cfg(test)]
mod tests {
    use std::fmt;

    use super::{HintSlot, RegRef};
    use crate::isa::{
        AsmReg, Cmp, DeviceAccess, Dst, FSrc, Hint, ICond, Instr, JumpTarget, Label, Lod, MemBase,
        MemFormat, MemOffset, PReg, Precision, RegUnits, Src, StackOp, TexDim, TexExtra, TexIndex,
        TexOp, UReg,
    };

    /// A stand-in for the backend's virtual registers: an id and a size.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    struct V(u32, u32);

    impl RegUnits for V {
        fn units(&self) -> u32 {
            self.1
        }
    }

    impl fmt::Display for V {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "%{}", self.0)
        }
    }

    impl AsmReg for V {}

    fn fma() -> Instr<V> {
        Instr::Fmadd {
            prec: Precision::F32,
            dst: Dst::new(V(0, 2)),
            sat: false,
            a: FSrc::reg(V(1, 2)),
            b: FSrc::new(Src::Uniform(UReg::U32(3))),
            c: FSrc::reg(V(2, 1)).negated(),
        }
    }

    #[test]
    fn defs_and_uses_with_sizes() {
        let i = fma();
        assert_eq!(
            i.defs().collect::<Vec<_>>(),
            vec![RegRef {
                reg: V(0, 2),
                units: 2
            }]
        );
        // The uniform is not a register.
        assert_eq!(
            i.uses().collect::<Vec<_>>(),
            vec![
                RegRef {
                    reg: V(1, 2),
                    units: 2
                },
                RegRef {
                    reg: V(2, 1),
                    units: 1
                }
            ]
        );
        let store = Instr::DeviceStore(DeviceAccess {
            data: V(5, 8),
            base: MemBase::Reg(V(6, 4)),
            offset: MemOffset::Reg {
                reg: V(7, 2),
                signed: true,
            },
            format: MemFormat::I32,
            mask: 0b1111,
            shift: 0,
            slot: 0,
        });
        assert_eq!(store.defs().count(), 0);
        let used: Vec<u32> = store.uses().map(|r| r.reg.0).collect();
        assert_eq!(used, vec![6, 7, 5]);
        let tex = Instr::TextureSample(TexOp {
            dst: V(10, 8),
            coords: V(11, 4),
            coords_discard: false,
            texture: TexIndex::Reg(V(12, 1)),
            sampler: TexIndex::Imm(0),
            dim: TexDim::D2,
            lod: Lod::Gradient(V(13, 8)),
            extra: Some(TexExtra {
                regs: V(14, 2),
                compare: true,
                offset: false,
            }),
            mask: 0b1111,
            slot: 0,
            gather: None,
        });
        assert_eq!(tex.defs().map(|r| r.reg.0).collect::<Vec<_>>(), vec![10]);
        assert_eq!(
            tex.uses().map(|r| r.reg.0).collect::<Vec<_>>(),
            vec![11, 13, 14, 12]
        );
    }

    #[test]
    fn map_regs_reaches_every_operand() {
        let phys = |v: V| {
            if v.1 == 1 {
                PReg::half(v.0 as u16)
            } else {
                PReg::r32(v.0 as u16)
            }
        };
        let mapped = fma().map_regs(phys);
        assert_eq!(mapped.to_string(), "fmadd32 r0, r1, u3, r1l.neg");
        let select = Instr::Select {
            dst: Dst::new(V(4, 2)),
            cmp: Cmp::Int {
                cond: ICond::Slt,
                a: Src::reg(V(5, 2)),
                b: Src::Imm(3),
            },
            x: Src::reg(V(6, 2)),
            y: Src::reg(V(7, 2)),
        };
        let mut seen = Vec::new();
        let _ = select.map_regs(|v| {
            seen.push(v.0);
            v
        });
        assert_eq!(seen, vec![4, 5, 6, 7]);
    }

    #[test]
    fn hint_slots_set_hints() {
        let mut i = fma().map_regs(|v| PReg::r32(v.0 as u16));
        i.hint_slots_mut(|slot| match slot {
            HintSlot::Src { reg, hint } if reg.half == 2 => *hint = Hint::Discard,
            HintSlot::Src { hint, .. } => *hint = Hint::Cache,
            HintSlot::Dst { cache, .. } => *cache = true,
            HintSlot::SrcDiscard { .. } => unreachable!("fmadd has no texture coordinates"),
        });
        assert_eq!(
            i.to_string(),
            "fmadd32 r0.cache, r1.discard, u3, r2.cache.neg"
        );
    }

    #[test]
    fn implicit_registers_and_generic_text() {
        let pop: Instr<V> = Instr::PopExec { n: 1, cache: false };
        assert_eq!(pop.implicit_regs(), (&[PReg::R0L][..], &[PReg::R0L][..]));
        let call: Instr<V> = Instr::Call {
            target: JumpTarget::Label(Label(3)),
        };
        assert_eq!(call.implicit_regs(), (&[][..], &[PReg::LINK][..]));
        assert_eq!(call.to_string(), "call L3");
        let when: Instr<V> = Instr::ExecStack {
            op: StackOp::If,
            cmp: Cmp::Int {
                cond: ICond::Ueq,
                a: Src::reg(V(9, 1)),
                b: Src::Imm(0),
            },
            invert: true,
            n: 1,
            cache: false,
        };
        assert_eq!(when.to_string(), "if_icmp r0l, une, %9, 0, 1");
        assert!(when.uses_exec_stack());
    }
}
