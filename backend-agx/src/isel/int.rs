//! 16- and 32-bit integer and `bool` operations.
//!
//! - `iadd`/`isub`/`ineg`: `iadd` (negated second source); `imul`: `imadd a, b, 0`;
//!   `umulhi`/`smulhi`: a double-width `imadd` and its high half.
//! - Shifts take the amount modulo the width (an `and` unless it is constant): `ishl` is
//!   `bfi 0, x, n`, `ushr` is `bfeil 0, x, n`, `sshr` is `asr x, n`.
//! - Bitwise logic: `bitop` truth tables; `not` of a bool is `xor 1`.
//! - `iabs`, min/max: `icmpsel`. Bitfield operations with constant offset and count use the
//!   hardware's immediate field width; dynamic ones build the mask (see [`Isel::bitfield`]).
//! - `find_lsb(x) = ffs(x & -x)` (`ffs` finds the most significant set bit, -1 for none);
//!   `sfind_msb(x) = ffs(x ^ (x >> (w-1)))`; a 16-bit `bitrev` is the high half of the 32-bit
//!   one.
//! - Comparisons: a bool from `icmpsel`, and a fusable [`CondForm`].

use agxc_egraph::ir::{PureOp, Type, Value};

use super::{class_of, CondForm, Isel};
use crate::error::BackendError;
use agxc_g13_isa::Opcode;

use crate::isa::{bitop, BitfieldOp, Cmp, Dst, ICond, Instr, IntSrc, RegClass, Src};
use crate::mir::VReg;

impl Isel<'_> {
    pub(super) fn int_op(
        &mut self,
        p: PureOp,
        args: &[Value],
        r: Value,
        ty: Type,
    ) -> Result<(), BackendError> {
        use PureOp::*;
        let class = class_of(ty);
        let w = if ty == Type::I16 { 16 } else { 32 };
        match p {
            Iadd | Isub => {
                let dst = self.m.new_group(class);
                let (a, b) = (self.int_src(args[0]), self.int_src(args[1]));
                self.iadd(dst, a, b, p == Isub);
                self.set(r, dst);
            }
            Ineg => {
                let dst = self.m.new_group(class);
                let a = self.int_src(args[0]);
                self.iadd(dst, IntSrc::zext(Src::Imm(0)), a, true);
                self.set(r, dst);
            }
            Imul => {
                let dst = self.m.new_group(class);
                let (a, b) = (self.int_src(args[0]), self.int_src(args[1]));
                self.imadd(dst, a, b, IntSrc::zext(Src::Imm(0)));
                self.set(r, dst);
            }
            Umulhi | Smulhi => {
                let wide = self.m.new_group(if w == 16 {
                    RegClass::R32
                } else {
                    RegClass::R64
                });
                let signed = p == Smulhi;
                let a = IntSrc {
                    src: self.src(args[0]),
                    sext: signed,
                };
                let b = IntSrc {
                    src: self.src(args[1]),
                    sext: signed,
                };
                self.imadd(wide, a, b, IntSrc::zext(Src::Imm(0)));
                let hi = if w == 16 { wide.hi16() } else { wide.word(1) };
                self.set(r, hi);
            }
            Udiv | Sdiv | Urem | Srem => {
                let dst = self.divide(p, args[0], args[1], ty);
                self.set(r, dst);
            }
            Ishl | Ushr | Sshr => {
                let dst = self.m.new_group(class);
                let x = self.src(args[0]);
                let n = self.shift_amount(args[1], w);
                match p {
                    Ishl => self.bitfield_op(BitfieldOp::Bfi, dst, Src::Imm(0), x, n, 0),
                    Ushr => self.bitfield_op(BitfieldOp::Bfeil, dst, Src::Imm(0), x, n, 0),
                    _ => self.m.op(Instr::Asr {
                        high: false,
                        dst: Dst::new(dst),
                        a: x,
                        b: n,
                    }),
                }
                self.set(r, dst);
            }
            And | Or | Xor => {
                let table = match p {
                    And => bitop::AND,
                    Or => bitop::OR,
                    _ => bitop::XOR,
                };
                let dst = self.m.new_group(class);
                let (a, b) = (self.src(args[0]), self.src(args[1]));
                self.bitop(dst, a, b, table);
                self.set(r, dst);
            }
            Not => {
                let dst = self.m.new_group(class);
                let a = self.src(args[0]);
                if ty == Type::Bool {
                    self.bitop(dst, a, Src::Imm(1), bitop::XOR);
                } else {
                    self.bitop(dst, a, Src::Imm(0), bitop::NOT_A);
                }
                self.set(r, dst);
            }
            Iabs => {
                let x = self.src(args[0]);
                let neg = self.m.new_group(class);
                self.iadd(neg, IntSrc::zext(Src::Imm(0)), IntSrc::zext(x), true);
                let dst = self.m.new_group(class);
                self.icmpsel(dst, ICond::Slt, x, Src::Imm(0), Src::reg(neg), x);
                self.set(r, dst);
            }
            Umin | Umax | Smin | Smax => {
                let cond = match p {
                    Umin => ICond::Ult,
                    Umax => ICond::Ugt,
                    Smin => ICond::Slt,
                    _ => ICond::Sgt,
                };
                let dst = self.m.new_group(class);
                let (a, b) = (self.src(args[0]), self.src(args[1]));
                self.icmpsel(dst, cond, a, b, a, b);
                self.set(r, dst);
            }
            Bfi | Ubfe | Sbfe => {
                let dst = self.bitfield(p, args, w)?;
                self.set(r, dst);
            }
            Popcount | UfindMsb => {
                let op = if p == Popcount {
                    Opcode::Popcount
                } else {
                    Opcode::Ffs
                };
                let dst = self.m.new_group(class);
                let a = self.src(args[0]);
                self.bit_unary(op, dst, a);
                self.set(r, dst);
            }
            FindLsb => {
                let x = self.src(args[0]);
                let neg = self.m.new_group(class);
                self.iadd(neg, IntSrc::zext(Src::Imm(0)), IntSrc::zext(x), true);
                let low = self.m.new_group(class);
                self.bitop(low, x, Src::reg(neg), bitop::AND);
                let dst = self.m.new_group(class);
                self.bit_unary(Opcode::Ffs, dst, Src::reg(low));
                self.set(r, dst);
            }
            SfindMsb => {
                let x = self.src(args[0]);
                let sign = self.m.new_group(class);
                self.m.op(Instr::Asr {
                    high: false,
                    dst: Dst::new(sign),
                    a: x,
                    b: Src::Imm((w - 1) as u8),
                });
                let flipped = self.m.new_group(class);
                self.bitop(flipped, x, Src::reg(sign), bitop::XOR);
                let dst = self.m.new_group(class);
                self.bit_unary(Opcode::Ffs, dst, Src::reg(flipped));
                self.set(r, dst);
            }
            Bitrev => {
                let a = self.src(args[0]);
                let full = self.m.new_group(RegClass::R32);
                self.bit_unary(Opcode::Bitrev, full, a);
                self.set(r, if w == 16 { full.hi16() } else { full });
            }
            Ieq | Ine | Ult | Ule | Ugt | Uge | Slt | Sle | Sgt | Sge => {
                let (cond, invert) = match p {
                    Ieq => (ICond::Ueq, false),
                    Ine => (ICond::Ueq, true),
                    Ult => (ICond::Ult, false),
                    Uge => (ICond::Ult, true),
                    Ugt => (ICond::Ugt, false),
                    Ule => (ICond::Ugt, true),
                    Slt => (ICond::Slt, false),
                    Sge => (ICond::Slt, true),
                    Sgt => (ICond::Sgt, false),
                    _ => (ICond::Sgt, true),
                };
                let cmp = Cmp::Int {
                    cond,
                    a: self.src(args[0]),
                    b: self.src(args[1]),
                };
                let bits = if w == 16 { 16 } else { 32 };
                let reg = self.bool_from_cmp(cmp, invert, bits);
                self.set(r, reg);
                self.set_cond(r, CondForm { cmp, invert, bits });
            }
            _ => return Err(self.unsupported(format!("{} on {ty}", p.name()))),
        }
        Ok(())
    }

    /// A one-source instruction of the description's generic path (`bitrev`, `popcount`,
    /// `ffs`).
    pub(super) fn bit_unary(&mut self, op: Opcode, dst: VReg, a: Src<VReg>) {
        self.m.op(Instr::alu(op, Dst::new(dst), &[a]));
    }

    pub(super) fn bitfield_op(
        &mut self,
        op: BitfieldOp,
        dst: VReg,
        a: Src<VReg>,
        b: Src<VReg>,
        c: Src<VReg>,
        mask_bits: u8,
    ) {
        self.m.op(Instr::Bitfield {
            op,
            dst: Dst::new(dst),
            a,
            b,
            c,
            mask_bits,
        });
    }

    /// A shift amount modulo `w`.
    fn shift_amount(&mut self, n: Value, w: u32) -> Src<VReg> {
        if let Some(c) = self.konst(n) {
            return Src::Imm((c.bits() % u64::from(w)) as u8);
        }
        let class = class_of(self.func.value_type(n));
        let masked = self.m.new_group(class);
        let src = self.src(n);
        self.bitop(masked, src, Src::Imm((w - 1) as u8), bitop::AND);
        Src::reg(masked)
    }

    /// `bfi`, `ubfe`, `sbfe` on a `w`-bit base, with the IR's clamping: the offset to `w`,
    /// the count to `w - offset`.
    fn bitfield(&mut self, p: PureOp, args: &[Value], w: u32) -> Result<VReg, BackendError> {
        let base_ty = self.func.value_type(args[0]);
        let class = class_of(base_ty);
        let (off_v, cnt_v) = if p == PureOp::Bfi {
            (args[2], args[3])
        } else {
            (args[1], args[2])
        };
        let x = self.src(args[0]);
        if let (Some(o), Some(c)) = (self.konst(off_v), self.konst(cnt_v)) {
            let off = (o.bits() as u32).min(w);
            let cnt = (c.bits() as u32).min(w - off);
            return Ok(self.bitfield_const(p, args, x, off, cnt, class));
        }
        // off = umin(offset, w); cnt = umin(count, w - off); low = (1 << cnt) - 1, where the
        // shift by 32 gives 0 (the bitfield unit shifts a 32-bit value), so low is all ones.
        let offset = self.src(off_v);
        let count = self.src(cnt_v);
        let wi = Src::Imm(w as u8);
        let off = self.m.new_group(RegClass::R32);
        self.icmpsel(off, ICond::Ugt, offset, wi, wi, offset);
        let rem = self.m.new_group(RegClass::R32);
        self.iadd(rem, IntSrc::zext(wi), IntSrc::zext(Src::reg(off)), true);
        let cnt = self.m.new_group(RegClass::R32);
        self.icmpsel(cnt, ICond::Ugt, count, Src::reg(rem), Src::reg(rem), count);
        let bit = self.m.new_group(RegClass::R32);
        self.bitfield_op(
            BitfieldOp::Bfi,
            bit,
            Src::Imm(0),
            Src::Imm(1),
            Src::reg(cnt),
            0,
        );
        let low = self.m.new_group(RegClass::R32);
        self.iadd(
            low,
            IntSrc::zext(Src::reg(bit)),
            IntSrc::zext(Src::Imm(1)),
            true,
        );
        Ok(match p {
            PureOp::Ubfe | PureOp::Sbfe => {
                let shifted = self.m.new_group(RegClass::R32);
                self.bitfield_op(BitfieldOp::Bfeil, shifted, Src::Imm(0), x, Src::reg(off), 0);
                let field = self.m.new_group(RegClass::R32);
                self.bitop(field, Src::reg(shifted), Src::reg(low), bitop::AND);
                if p == PureOp::Ubfe {
                    narrow(field, w)
                } else {
                    // Sign-extend from cnt bits: shift the field to the top and back.
                    let up = self.m.new_group(RegClass::R32);
                    self.iadd(
                        up,
                        IntSrc::zext(Src::Imm(32)),
                        IntSrc::zext(Src::reg(cnt)),
                        true,
                    );
                    let top = self.m.new_group(RegClass::R32);
                    self.bitfield_op(
                        BitfieldOp::Bfi,
                        top,
                        Src::Imm(0),
                        Src::reg(field),
                        Src::reg(up),
                        0,
                    );
                    let dst = self.m.new_group(RegClass::R32);
                    self.m.op(Instr::Asr {
                        high: false,
                        dst: Dst::new(dst),
                        a: Src::reg(top),
                        b: Src::reg(up),
                    });
                    narrow(dst, w)
                }
            }
            _ => {
                let insert = self.src(args[1]);
                let mask = self.m.new_group(RegClass::R32);
                self.bitfield_op(
                    BitfieldOp::Bfi,
                    mask,
                    Src::Imm(0),
                    Src::reg(low),
                    Src::reg(off),
                    0,
                );
                let ins = self.m.new_group(RegClass::R32);
                self.bitfield_op(BitfieldOp::Bfi, ins, Src::Imm(0), insert, Src::reg(off), 0);
                let kept = self.m.new_group(RegClass::R32);
                self.bitop(kept, x, Src::reg(mask), bitop::ANDN);
                let put = self.m.new_group(RegClass::R32);
                self.bitop(put, Src::reg(ins), Src::reg(mask), bitop::AND);
                let dst = self.m.new_group(class);
                self.bitop(dst, Src::reg(kept), Src::reg(put), bitop::OR);
                dst
            }
        })
    }

    /// Bitfield operations whose offset and count are known (already clamped).
    fn bitfield_const(
        &mut self,
        p: PureOp,
        args: &[Value],
        x: Src<VReg>,
        off: u32,
        cnt: u32,
        class: RegClass,
    ) -> VReg {
        let dst = self.m.new_group(class);
        let m = (cnt % 32) as u8;
        match p {
            PureOp::Bfi if cnt == 0 => self.mov_src(dst, x),
            PureOp::Bfi => {
                let insert = self.src(args[1]);
                self.bitfield_op(BitfieldOp::Bfi, dst, x, insert, Src::Imm(off as u8), m);
            }
            _ if cnt == 0 => self.mov_imm(dst, 0),
            PureOp::Ubfe => self.bitfield_op(
                BitfieldOp::Bfeil,
                dst,
                Src::Imm(0),
                x,
                Src::Imm(off as u8),
                m,
            ),
            _ => {
                // x zero-extended to 32 bits; move the field's top bit to bit 31, then
                // shift arithmetically back.
                let up = 32 - off - cnt;
                let top = self.m.new_group(RegClass::R32);
                self.bitfield_op(BitfieldOp::Bfi, top, Src::Imm(0), x, Src::Imm(up as u8), 0);
                self.m.op(Instr::Asr {
                    high: false,
                    dst: Dst::new(dst),
                    a: Src::reg(top),
                    b: Src::Imm((32 - cnt) as u8),
                });
            }
        }
        dst
    }
}

/// The low 16 bits of a 32-bit result for 16-bit types.
fn narrow(r: VReg, w: u32) -> VReg {
    if w == 16 {
        r.lo16()
    } else {
        r
    }
}
