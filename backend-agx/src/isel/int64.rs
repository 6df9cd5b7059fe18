//! 64-bit integer operations on register pairs (low word first).
//!
//! `iadd` and `imadd` have 64-bit forms; everything else works on the two 32-bit words:
//! - `imul`: `lo * lo` as a 64-bit product, plus the two cross products into the high word;
//! - logic word by word; `popcount` and `bitrev` combine the words' results;
//! - shifts by `n = amount & 63`: `extr` funnels bits across the words, `bfi`/`bfeil`/`asr`
//!   shift single words (shifts of 32 or more give 0 or the sign), and an `icmpsel` on
//!   `n < 32` picks between the small- and large-shift forms where they differ;
//! - comparisons: the high words decide unless equal, then the low words (unsigned).
//!
//! The longer sequences (high products, bit searches, division, float conversions) are in
//! `int64_ext`; the bitfield operations on 64 bits are not implemented (the IR's bitfield
//! operations take 16- and 32-bit bases in the test corpus) and report an unsupported
//! operation.

use agxc_egraph::ir::{PureOp, Value};

use super::{CondForm, Isel};
use crate::error::BackendError;
use agxc_g13_isa::Opcode;

use crate::isa::{bitop, BitfieldOp, Cmp, Dst, ICond, Instr, IntSrc, RegClass, Src};
use crate::mir::VReg;

impl Isel<'_> {
    pub(super) fn int64_op(
        &mut self,
        p: PureOp,
        args: &[Value],
        r: Value,
    ) -> Result<(), BackendError> {
        use PureOp::*;
        let pair = |s: &Self, v: Value| s.reg(v);
        match p {
            Iadd | Isub => {
                let dst = self.m.new_group(RegClass::R64);
                let (a, b) = (pair(self, args[0]), pair(self, args[1]));
                self.iadd(
                    dst,
                    IntSrc::zext(Src::reg(a)),
                    IntSrc::zext(Src::reg(b)),
                    p == Isub,
                );
                self.set(r, dst);
            }
            Ineg => {
                let dst = self.m.new_group(RegClass::R64);
                let a = pair(self, args[0]);
                self.iadd(
                    dst,
                    IntSrc::zext(Src::Imm(0)),
                    IntSrc::zext(Src::reg(a)),
                    true,
                );
                self.set(r, dst);
            }
            Imul => {
                let (a, b) = (pair(self, args[0]), pair(self, args[1]));
                let dst = self.m.new_group(RegClass::R64);
                let z = IntSrc::zext(Src::Imm(0));
                self.imadd(
                    dst,
                    IntSrc::zext(Src::reg(a.word(0))),
                    IntSrc::zext(Src::reg(b.word(0))),
                    z,
                );
                for (x, y) in [(a.word(0), b.word(1)), (a.word(1), b.word(0))] {
                    self.imadd(
                        dst.word(1),
                        IntSrc::zext(Src::reg(x)),
                        IntSrc::zext(Src::reg(y)),
                        IntSrc::zext(Src::reg(dst.word(1))),
                    );
                }
                self.set(r, dst);
            }
            And | Or | Xor | Not => {
                let table = match p {
                    And => bitop::AND,
                    Or => bitop::OR,
                    Xor => bitop::XOR,
                    _ => bitop::NOT_A,
                };
                let dst = self.m.new_group(RegClass::R64);
                let a = pair(self, args[0]);
                for w in 0..2 {
                    let b = match p {
                        Not => Src::Imm(0),
                        _ => Src::reg(pair(self, args[1]).word(w)),
                    };
                    self.bitop(dst.word(w), Src::reg(a.word(w)), b, table);
                }
                self.set(r, dst);
            }
            Ishl | Ushr | Sshr => {
                let dst = self.shift64(p, args[0], args[1]);
                self.set(r, dst);
            }
            Popcount => {
                let a = pair(self, args[0]);
                let dst = self.m.new_group(RegClass::R64);
                let t = self.m.new_group(RegClass::R32);
                self.bit_unary(Opcode::Popcount, t, Src::reg(a.word(0)));
                let u = self.m.new_group(RegClass::R32);
                self.bit_unary(Opcode::Popcount, u, Src::reg(a.word(1)));
                self.iadd(
                    dst.word(0),
                    IntSrc::zext(Src::reg(t)),
                    IntSrc::zext(Src::reg(u)),
                    false,
                );
                self.mov_imm(dst.word(1), 0);
                self.set(r, dst);
            }
            Bitrev => {
                let a = pair(self, args[0]);
                let dst = self.m.new_group(RegClass::R64);
                self.bit_unary(Opcode::Bitrev, dst.word(0), Src::reg(a.word(1)));
                self.bit_unary(Opcode::Bitrev, dst.word(1), Src::reg(a.word(0)));
                self.set(r, dst);
            }
            Umin | Umax | Smin | Smax | Iabs => {
                let a = pair(self, args[0]);
                let (b, cond) = match p {
                    Iabs => {
                        let neg = self.m.new_group(RegClass::R64);
                        self.iadd(
                            neg,
                            IntSrc::zext(Src::Imm(0)),
                            IntSrc::zext(Src::reg(a)),
                            true,
                        );
                        // |a| = a < 0 ? -a : a, i.e. pick -a where 0 > a.
                        let zero = self.imm_reg(RegClass::R64, 0);
                        let lt = self.compare64(ICond::Sgt, zero, a);
                        let dst = self.m.new_group(RegClass::R64);
                        self.select_words(dst, lt, neg, a);
                        self.set(r, dst);
                        return Ok(());
                    }
                    Umin => (pair(self, args[1]), ICond::Ult),
                    Umax => (pair(self, args[1]), ICond::Ugt),
                    Smin => (pair(self, args[1]), ICond::Slt),
                    _ => (pair(self, args[1]), ICond::Sgt),
                };
                let c = self.compare64(cond, a, b);
                let dst = self.m.new_group(RegClass::R64);
                self.select_words(dst, c, a, b);
                self.set(r, dst);
            }
            Ieq | Ine | Ult | Ule | Ugt | Uge | Slt | Sle | Sgt | Sge => {
                let (a, b) = (pair(self, args[0]), pair(self, args[1]));
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
                let c = self.compare64(cond, a, b);
                let reg = if invert {
                    let n = self.m.new_group(RegClass::R32);
                    self.bitop(n, Src::reg(c), Src::Imm(1), bitop::XOR);
                    n
                } else {
                    c
                };
                self.set(r, reg);
                self.set_cond(
                    r,
                    CondForm {
                        cmp: Cmp::Int {
                            cond: ICond::Ueq,
                            a: Src::reg(reg),
                            b: Src::Imm(0),
                        },
                        invert: true,
                        bits: 32,
                    },
                );
            }
            Umulhi | Smulhi => {
                let (a, b) = (pair(self, args[0]), pair(self, args[1]));
                let dst = self.mulhi64(a, b, p == Smulhi);
                self.set(r, dst);
            }
            FindLsb | UfindMsb | SfindMsb => {
                let a = pair(self, args[0]);
                let dst = self.bit_search64(p, a);
                self.set(r, dst);
            }
            Udiv | Sdiv | Urem | Srem => {
                let (a, b) = (pair(self, args[0]), pair(self, args[1]));
                let dst = self.divide64(p, a, b);
                self.set(r, dst);
            }
            _ => return Err(self.unsupported(format!("{} on i64", p.name()))),
        }
        Ok(())
    }

    /// A bool register: `a cond b` on 64-bit pairs (`Ueq` is equality; the others are
    /// signed or unsigned by the condition).
    fn compare64(&mut self, cond: ICond, a: VReg, b: VReg) -> VReg {
        let (a_lo, a_hi) = (Src::reg(a.word(0)), Src::reg(a.word(1)));
        let (b_lo, b_hi) = (Src::reg(b.word(0)), Src::reg(b.word(1)));
        let low = self.m.new_group(RegClass::R32);
        let dst = self.m.new_group(RegClass::R32);
        match cond {
            ICond::Ueq | ICond::Seq => {
                self.icmpsel(low, ICond::Ueq, a_lo, b_lo, Src::Imm(1), Src::Imm(0));
                self.icmpsel(dst, ICond::Ueq, a_hi, b_hi, Src::reg(low), Src::Imm(0));
            }
            _ => {
                let low_cond = match cond {
                    ICond::Slt => ICond::Ult,
                    ICond::Sgt => ICond::Ugt,
                    c => c,
                };
                self.icmpsel(low, low_cond, a_lo, b_lo, Src::Imm(1), Src::Imm(0));
                let eq = self.m.new_group(RegClass::R32);
                self.icmpsel(eq, ICond::Ueq, a_hi, b_hi, Src::reg(low), Src::Imm(0));
                self.icmpsel(dst, cond, a_hi, b_hi, Src::Imm(1), Src::reg(eq));
            }
        }
        dst
    }

    /// `dst = c ? x : y` on pairs, `c` a bool register.
    fn select_words(&mut self, dst: VReg, c: VReg, x: VReg, y: VReg) {
        for w in 0..2 {
            self.icmpsel(
                dst.word(w),
                ICond::Ueq,
                Src::reg(c),
                Src::Imm(0),
                Src::reg(y.word(w)),
                Src::reg(x.word(w)),
            );
        }
    }

    fn shift64(&mut self, p: PureOp, x: Value, amount: Value) -> VReg {
        let a = self.reg(x);
        let (lo, hi) = (Src::reg(a.word(0)), Src::reg(a.word(1)));
        let dst = self.m.new_group(RegClass::R64);
        // n = amount & 63, and the derived amounts 32 - n and n - 32 (mod 128 in the
        // bitfield unit; where they wrap, the selected form does not use them).
        let (n, n_small) = match self.konst(amount) {
            Some(c) => {
                let n = (c.bits() & 63) as u8;
                (Src::Imm(n), Some(n < 32))
            }
            None => {
                let m = self.m.new_group(RegClass::R32);
                let amt = self.reg(amount).word(0);
                self.bitop(m, Src::reg(amt), Src::Imm(63), bitop::AND);
                (Src::reg(m), None)
            }
        };
        let derived = |s: &mut Self, from: u8, n: Src<VReg>, neg: bool| -> Src<VReg> {
            let t = s.m.new_group(RegClass::R32);
            if neg {
                s.iadd(t, IntSrc::zext(Src::Imm(from)), IntSrc::zext(n), true);
            } else {
                s.iadd(t, IntSrc::zext(n), IntSrc::zext(Src::Imm(from)), true);
            }
            Src::reg(t)
        };
        let bf =
            |s: &mut Self, op: BitfieldOp, d: VReg, a: Src<VReg>, b: Src<VReg>, c: Src<VReg>| {
                s.bitfield_op(op, d, a, b, c, 0)
            };
        let asr = |s: &mut Self, d: VReg, a: Src<VReg>, b: Src<VReg>| {
            s.m.op(Instr::Asr {
                high: false,
                dst: Dst::new(d),
                a,
                b,
            })
        };
        match p {
            PureOp::Ushr => {
                bf(self, BitfieldOp::Extr, dst.word(0), lo, hi, n);
                bf(self, BitfieldOp::Bfeil, dst.word(1), Src::Imm(0), hi, n);
            }
            PureOp::Ishl => {
                bf(self, BitfieldOp::Bfi, dst.word(0), Src::Imm(0), lo, n);
                let small = self.m.new_group(RegClass::R32);
                let up = derived(self, 32, n, true);
                bf(self, BitfieldOp::Extr, small, lo, hi, up);
                let big = self.m.new_group(RegClass::R32);
                let down = derived(self, 32, n, false);
                bf(self, BitfieldOp::Bfi, big, Src::Imm(0), lo, down);
                self.pick_by_size(dst.word(1), n, n_small, small, big);
            }
            _ => {
                asr(self, dst.word(1), hi, n);
                let small = self.m.new_group(RegClass::R32);
                bf(self, BitfieldOp::Extr, small, lo, hi, n);
                let big = self.m.new_group(RegClass::R32);
                let down = derived(self, 32, n, false);
                asr(self, big, hi, down);
                self.pick_by_size(dst.word(0), n, n_small, small, big);
            }
        }
        dst
    }

    /// `dst = n < 32 ? small : big`, decided at compile time when `n` is known.
    fn pick_by_size(
        &mut self,
        dst: VReg,
        n: Src<VReg>,
        known: Option<bool>,
        small: VReg,
        big: VReg,
    ) {
        match known {
            Some(true) => self.mov(dst, small),
            Some(false) => self.mov(dst, big),
            None => self.icmpsel(
                dst,
                ICond::Ult,
                n,
                Src::Imm(32),
                Src::reg(small),
                Src::reg(big),
            ),
        }
    }
}
