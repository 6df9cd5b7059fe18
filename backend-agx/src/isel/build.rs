//! Small instruction builders shared by the selection submodules: moves, immediates, integer
//! adds, selects and the float "move" (`fadd x, -0.0`).

use agxc_egraph::ir::{Const, Type};

use super::Isel;
use crate::isa::{Cmp, Dst, FCond, FSrc, FUnaryOp, ICond, Instr, IntSrc, Precision, RegClass, Src};
use crate::mir::VReg;

/// The 8-bit float immediate for -0.0: `x + (-0.0)` is `x` for every `x`, including both
/// zeros, so it is the float move (with modifiers, saturate or a change of width).
pub const NEG_ZERO: u8 = 0x80;
/// The 8-bit float immediate for 1.0.
pub const ONE: u8 = 0x30;
/// The 8-bit float immediate for 0.5.
pub const HALF: u8 = 0x20;
/// The 8-bit float immediate for 4.0.
pub const FOUR: u8 = 0x50;

impl Isel<'_> {
    /// `dst = imm` (16- or 32-bit destination; a 64-bit one takes two words).
    pub fn mov_imm(&mut self, dst: VReg, imm: u64) {
        match dst.class {
            RegClass::R64 => {
                self.m.op(Instr::MovImm {
                    dst: Dst::new(dst.word(0)),
                    imm: imm as u32,
                });
                self.m.op(Instr::MovImm {
                    dst: Dst::new(dst.word(1)),
                    imm: (imm >> 32) as u32,
                });
            }
            RegClass::H16 => self.m.op(Instr::MovImm {
                dst: Dst::new(dst),
                imm: (imm & 0xffff) as u32,
            }),
            _ => self.m.op(Instr::MovImm {
                dst: Dst::new(dst),
                imm: imm as u32,
            }),
        }
    }

    /// A new register holding `c`.
    pub fn materialize_const(&mut self, c: Const) -> VReg {
        let dst = self.m.new_group(super::class_of(c.ty()));
        self.mov_imm(dst, c.bits());
        dst
    }

    /// A new register of `class` holding `imm`.
    pub fn imm_reg(&mut self, class: RegClass, imm: u64) -> VReg {
        let dst = self.m.new_group(class);
        self.mov_imm(dst, imm);
        dst
    }

    /// A source for the integer `imm`: the 8-bit immediate if it fits, else a register.
    pub fn imm_src(&mut self, class: RegClass, imm: u64) -> Src<VReg> {
        if imm <= 0xff {
            Src::Imm(imm as u8)
        } else {
            Src::reg(self.imm_reg(class, imm))
        }
    }

    /// `dst = src` (register copy of any width up to 64 bits; sources are zero-extended).
    pub fn mov_src(&mut self, dst: VReg, src: Src<VReg>) {
        self.iadd(dst, IntSrc::zext(src), IntSrc::zext(Src::Imm(0)), false);
    }

    /// `dst = src` between registers; runs of registers are copied element by element.
    pub fn mov(&mut self, dst: VReg, src: VReg) {
        match dst.class {
            RegClass::Vec32(n) => {
                for i in 0..u16::from(n) {
                    self.mov_src(dst.word(i), Src::reg(src.word(i)));
                }
            }
            RegClass::Vec16(n) => {
                for i in 0..u16::from(n) {
                    self.mov_src(dst.half(i), Src::reg(src.half(i)));
                }
            }
            _ => self.mov_src(dst, Src::reg(src)),
        }
    }

    /// `dst = a + (neg_b ? -b : b)`.
    pub fn iadd(&mut self, dst: VReg, a: IntSrc<VReg>, b: IntSrc<VReg>, neg_b: bool) {
        self.m.op(Instr::Iadd {
            dst: Dst::new(dst),
            a,
            b,
            neg_b,
            shift: 0,
            sat: false,
        });
    }

    /// `dst = a * b + c`.
    pub fn imadd(&mut self, dst: VReg, a: IntSrc<VReg>, b: IntSrc<VReg>, c: IntSrc<VReg>) {
        self.m.op(Instr::Imadd {
            dst: Dst::new(dst),
            a,
            b,
            c,
            neg_c: false,
            shift: 0,
            sat: false,
        });
    }

    /// `dst = cmp ? x : y`.
    pub fn select_cmp(&mut self, dst: VReg, cmp: Cmp<VReg>, x: Src<VReg>, y: Src<VReg>) {
        self.m.op(Instr::Select {
            dst: Dst::new(dst),
            cmp,
            x,
            y,
        });
    }

    /// `dst = (a cond b) ? x : y` on integers.
    pub fn icmpsel(
        &mut self,
        dst: VReg,
        cond: ICond,
        a: Src<VReg>,
        b: Src<VReg>,
        x: Src<VReg>,
        y: Src<VReg>,
    ) {
        self.select_cmp(dst, Cmp::Int { cond, a, b }, x, y);
    }

    /// `dst = (a cond b) ? x : y` on floats.
    pub fn fcmpsel(
        &mut self,
        dst: VReg,
        cond: FCond,
        a: FSrc<VReg>,
        b: FSrc<VReg>,
        x: Src<VReg>,
        y: Src<VReg>,
    ) {
        self.select_cmp(dst, Cmp::Float { cond, a, b }, x, y);
    }

    /// `dst = op(a)` in the fp32 one-source family.
    pub fn funary(&mut self, op: FUnaryOp, dst: VReg, a: FSrc<VReg>) {
        self.m.op(Instr::FUnary {
            op,
            dst: Dst::new(dst),
            sat: false,
            a,
        });
    }

    /// `dst = a + b`.
    pub fn fadd(&mut self, prec: Precision, dst: VReg, a: FSrc<VReg>, b: FSrc<VReg>) {
        self.m.op(Instr::Fadd {
            prec,
            dst: Dst::new(dst),
            sat: false,
            a,
            b,
        });
    }

    /// `dst = a * b`.
    pub fn fmul(&mut self, prec: Precision, dst: VReg, a: FSrc<VReg>, b: FSrc<VReg>) {
        self.m.op(Instr::Fmul {
            prec,
            dst: Dst::new(dst),
            sat: false,
            a,
            b,
        });
    }

    /// `dst = a * b + c`.
    pub fn fmadd(
        &mut self,
        prec: Precision,
        dst: VReg,
        a: FSrc<VReg>,
        b: FSrc<VReg>,
        c: FSrc<VReg>,
    ) {
        self.m.op(Instr::Fmadd {
            prec,
            dst: Dst::new(dst),
            sat: false,
            a,
            b,
            c,
        });
    }

    /// `dst = a` as a float (with `a`'s modifiers; widths may differ): `fadd32 dst, a, -0.0`.
    pub fn fmov(&mut self, dst: VReg, a: FSrc<VReg>) {
        self.fadd(Precision::F32, dst, a, FSrc::imm(NEG_ZERO));
    }

    /// `dst = a & b`, `|`, `^` ... by truth table.
    pub fn bitop(&mut self, dst: VReg, a: Src<VReg>, b: Src<VReg>, table: u8) {
        self.m.op(Instr::Bitop {
            dst: Dst::new(dst),
            a,
            b,
            table,
        });
    }

    /// The precision of float operations on `ty`.
    pub fn prec(ty: Type) -> Precision {
        if ty == Type::F16 {
            Precision::F16
        } else {
            Precision::F32
        }
    }

    /// A bool register (0 or 1) from a comparison.
    pub fn bool_from_cmp(&mut self, cmp: Cmp<VReg>, invert: bool, bits: u32) -> VReg {
        let narrow = bits == 16;
        let dst = self
            .m
            .new_group(if narrow { RegClass::H16 } else { RegClass::R32 });
        let (x, y) = if invert { (0, 1) } else { (1, 0) };
        self.select_cmp(dst, cmp, Src::Imm(x), Src::Imm(y));
        if narrow {
            let wide = self.m.new_group(RegClass::R32);
            self.mov_src(wide, Src::reg(dst));
            wide
        } else {
            dst
        }
    }
}
