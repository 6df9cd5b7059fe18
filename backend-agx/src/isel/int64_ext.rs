//! The longer 64-bit integer sequences: high products, bit searches, division and
//! conversions between floats and 64-bit integers.
//!
//! - `umulhi`: the four 32x32 partial products summed with 64-bit `imadd`s:
//!   `t = a0*b1 + hi(a0*b0)`, `u = a1*b0 + lo(t)`, `hi = a1*b1 + hi(t) + hi(u)`; `smulhi`
//!   subtracts `b` where `a < 0` and `a` where `b < 0` (mod 2^64).
//! - `find_lsb`, `ufind_msb`: the 32-bit searches on both words, picking by which word is
//!   non-zero; `sfind_msb` searches `x ^ (x >> 63)`. Results are sign-extended (-1 for none).
//! - `udiv`/`urem`/`sdiv`/`srem`: restoring division in a 64-iteration loop (uniform trip
//!   count, so no lane diverges): shift the dividend's top bit into the remainder, subtract
//!   the divisor where it fits, shift the outcome into the quotient. A zero divisor always
//!   "fits", giving the IR's all-ones quotient and the dividend as remainder; signs as in the
//!   32-bit case.
//! - `u2f`: a value below 2^32 converts directly; otherwise it is normalised so its top bit is
//!   bit 63, the top word (with a sticky bit for everything below) converts with one rounding,
//!   and a power-of-two multiply restores the scale. `s2f` converts the magnitude.
//! - `f2u`: `hi = f2u(x * 2^-32)`, `lo = f2u(x - hi * 2^32)` (both exact: `hi` has at most 24
//!   significant bits), saturating at 2^64; `f2s` converts the magnitude and clamps to
//!   [-2^63, 2^63 - 1]. NaN gives 0.

use agxc_egraph::ir::{PureOp, Type, Value};

use super::Isel;
use agxc_g13_isa::Opcode;

use crate::isa::{
    bitop, BitfieldOp, ConvertMode, Dst, FCond, FSrc, ICond, Instr, IntSrc, Precision, RegClass,
    Round, Src,
};
use crate::mir::{MInst, VReg};

fn z(s: Src<VReg>) -> IntSrc<VReg> {
    IntSrc::zext(s)
}

fn r(v: VReg) -> Src<VReg> {
    Src::reg(v)
}

impl Isel<'_> {
    fn r32(&mut self) -> VReg {
        self.m.new_group(RegClass::R32)
    }

    fn r64(&mut self) -> VReg {
        self.m.new_group(RegClass::R64)
    }

    /// `umulhi`/`smulhi` on 64-bit pairs.
    pub(super) fn mulhi64(&mut self, a: VReg, b: VReg, signed: bool) -> VReg {
        let (a0, a1, b0, b1) = (a.word(0), a.word(1), b.word(0), b.word(1));
        let p00 = self.r64();
        self.imadd(p00, z(r(a0)), z(r(b0)), z(Src::Imm(0)));
        let t = self.r64();
        self.imadd(t, z(r(a0)), z(r(b1)), z(r(p00.word(1))));
        let u = self.r64();
        self.imadd(u, z(r(a1)), z(r(b0)), z(r(t.word(0))));
        let h = self.r64();
        self.imadd(h, z(r(a1)), z(r(b1)), z(r(t.word(1))));
        let hi = self.r64();
        self.iadd(hi, z(r(h)), z(r(u.word(1))), false);
        if !signed {
            return hi;
        }
        // smulhi = umulhi - (a < 0 ? b : 0) - (b < 0 ? a : 0).
        let mut acc = hi;
        for (x, y) in [(a, b), (b, a)] {
            let sub = self.r64();
            for w in 0..2 {
                self.icmpsel(
                    sub.word(w),
                    ICond::Slt,
                    r(x.word(1)),
                    Src::Imm(0),
                    r(y.word(w)),
                    Src::Imm(0),
                );
            }
            let next = self.r64();
            self.iadd(next, z(r(acc)), z(r(sub)), true);
            acc = next;
        }
        acc
    }

    /// A 32-bit result sign-extended to a pair.
    fn sext_pair(&mut self, v: VReg) -> VReg {
        let dst = self.r64();
        self.iadd(dst, IntSrc::sext(r(v)), z(Src::Imm(0)), false);
        dst
    }

    /// `find_lsb` of one word (-1 for 0).
    fn lsb32(&mut self, x: VReg) -> VReg {
        let neg = self.r32();
        self.iadd(neg, z(Src::Imm(0)), z(r(x)), true);
        let low = self.r32();
        self.bitop(low, r(x), r(neg), bitop::AND);
        let dst = self.r32();
        self.bit_unary(Opcode::Ffs, dst, r(low));
        dst
    }

    /// `ffs` (the most significant set bit, -1 for 0) of one word.
    fn msb32(&mut self, x: VReg) -> VReg {
        let dst = self.r32();
        self.bit_unary(Opcode::Ffs, dst, r(x));
        dst
    }

    /// `find_lsb`, `ufind_msb`, `sfind_msb` on a pair.
    pub(super) fn bit_search64(&mut self, p: PureOp, x: VReg) -> VReg {
        let x = if p == PureOp::SfindMsb {
            let sign = self.r32();
            self.m.op(Instr::Asr {
                high: false,
                dst: Dst::new(sign),
                a: r(x.word(1)),
                b: Src::Imm(31),
            });
            let y = self.r64();
            for w in 0..2 {
                self.bitop(y.word(w), r(x.word(w)), r(sign), bitop::XOR);
            }
            y
        } else {
            x
        };
        let (lo, hi) = (x.word(0), x.word(1));
        let res = self.r32();
        if p == PureOp::FindLsb {
            let fl = self.lsb32(lo);
            let fh = self.lsb32(hi);
            let fh32 = self.r32();
            self.iadd(fh32, z(r(fh)), z(Src::Imm(32)), false);
            let t = self.r32();
            self.icmpsel(t, ICond::Ueq, r(hi), Src::Imm(0), r(fh), r(fh32));
            self.icmpsel(res, ICond::Ueq, r(lo), Src::Imm(0), r(t), r(fl));
        } else {
            let fl = self.msb32(lo);
            let fh = self.msb32(hi);
            let fh32 = self.r32();
            self.iadd(fh32, z(r(fh)), z(Src::Imm(32)), false);
            self.icmpsel(res, ICond::Ueq, r(hi), Src::Imm(0), r(fl), r(fh32));
        }
        self.sext_pair(res)
    }

    /// `x << 1` of a pair.
    fn shl1(&mut self, x: VReg) -> VReg {
        let dst = self.r64();
        self.bitfield_op(
            BitfieldOp::Extr,
            dst.word(1),
            r(x.word(0)),
            r(x.word(1)),
            Src::Imm(31),
            0,
        );
        self.iadd(dst.word(0), z(r(x.word(0))), z(r(x.word(0))), false);
        dst
    }

    /// Unsigned 64-bit quotient and remainder by restoring division.
    fn udivmod64(&mut self, n: VReg, d: VReg) -> (VReg, VReg) {
        let (num, quot, rem, count) = (self.r64(), self.r64(), self.r64(), self.r32());
        self.mov(num, n);
        self.mov_imm(quot, 0);
        self.mov_imm(rem, 0);
        self.mov_imm(count, 64);
        self.m.push(MInst::Loop);
        // rem = rem << 1 | num >> 63; num <<= 1.
        let top = self.r32();
        self.bitfield_op(
            BitfieldOp::Bfeil,
            top,
            Src::Imm(0),
            r(num.word(1)),
            Src::Imm(31),
            0,
        );
        let shifted = self.shl1(rem);
        self.bitop(rem.word(0), r(shifted.word(0)), r(top), bitop::OR);
        self.mov(rem.word(1), shifted.word(1));
        let n2 = self.shl1(num);
        self.mov(num, n2);
        // fits = rem >= d (unsigned, on the pair).
        let low = self.r32();
        self.icmpsel(
            low,
            ICond::Ult,
            r(rem.word(0)),
            r(d.word(0)),
            Src::Imm(0),
            Src::Imm(1),
        );
        let eq = self.r32();
        self.icmpsel(
            eq,
            ICond::Ueq,
            r(rem.word(1)),
            r(d.word(1)),
            r(low),
            Src::Imm(0),
        );
        let fits = self.r32();
        self.icmpsel(
            fits,
            ICond::Ugt,
            r(rem.word(1)),
            r(d.word(1)),
            Src::Imm(1),
            r(eq),
        );
        let diff = self.r64();
        self.iadd(diff, z(r(rem)), z(r(d)), true);
        for w in 0..2 {
            self.icmpsel(
                rem.word(w),
                ICond::Ueq,
                r(fits),
                Src::Imm(0),
                r(rem.word(w)),
                r(diff.word(w)),
            );
        }
        let q2 = self.shl1(quot);
        self.bitop(quot.word(0), r(q2.word(0)), r(fits), bitop::OR);
        self.mov(quot.word(1), q2.word(1));
        self.iadd(count, z(r(count)), z(Src::Imm(1)), true);
        self.m.push(MInst::If {
            cmp: crate::isa::Cmp::Int {
                cond: ICond::Ueq,
                a: r(count),
                b: Src::Imm(0),
            },
            invert: false,
        });
        self.m.push(MInst::Break);
        self.m.push(MInst::Else);
        self.m.push(MInst::EndIf);
        self.m.push(MInst::Continue);
        self.m.push(MInst::EndLoop);
        (quot, rem)
    }

    /// `|x|` of a pair (`|MIN|` is 2^63 as an unsigned magnitude).
    fn abs64(&mut self, x: VReg) -> VReg {
        let neg = self.r64();
        self.iadd(neg, z(Src::Imm(0)), z(r(x)), true);
        let dst = self.r64();
        self.select_on_sign(dst, x.word(1), neg, x);
        dst
    }

    /// `dst = (s as i32) < 0 ? neg : pos`, word by word.
    fn select_on_sign(&mut self, dst: VReg, s: VReg, neg: VReg, pos: VReg) {
        for w in 0..2 {
            self.icmpsel(
                dst.word(w),
                ICond::Slt,
                r(s),
                Src::Imm(0),
                r(neg.word(w)),
                r(pos.word(w)),
            );
        }
    }

    /// 64-bit division and remainder.
    pub(super) fn divide64(&mut self, p: PureOp, n: VReg, d: VReg) -> VReg {
        let signed = matches!(p, PureOp::Sdiv | PureOp::Srem);
        let want_rem = matches!(p, PureOp::Urem | PureOp::Srem);
        if !signed {
            let (q, rem) = self.udivmod64(n, d);
            return if want_rem { rem } else { q };
        }
        let (an, ad) = (self.abs64(n), self.abs64(d));
        let (q, rem) = self.udivmod64(an, ad);
        let (value, sign) = if want_rem {
            (rem, n.word(1))
        } else {
            let s = self.r32();
            self.bitop(s, r(n.word(1)), r(d.word(1)), bitop::XOR);
            (q, s)
        };
        let neg = self.r64();
        self.iadd(neg, z(Src::Imm(0)), z(r(value)), true);
        let dst = self.r64();
        self.select_on_sign(dst, sign, neg, value);
        if want_rem {
            return dst;
        }
        // x / 0 = -1.
        let dz = self.r32();
        self.bitop(dz, r(d.word(0)), r(d.word(1)), bitop::OR);
        let ones = self.r32();
        self.bitop(ones, Src::Imm(0), Src::Imm(0), bitop::ONES);
        let out = self.r64();
        for w in 0..2 {
            self.icmpsel(
                out.word(w),
                ICond::Ueq,
                r(dz),
                Src::Imm(0),
                r(ones),
                r(dst.word(w)),
            );
        }
        out
    }

    /// An f32 register with bits `bits`.
    fn f32_const(&mut self, bits: u32) -> VReg {
        self.imm_reg(RegClass::R32, u64::from(bits))
    }

    /// `u2f` of an unsigned pair to f32.
    fn u64_to_f32(&mut self, x: VReg) -> VReg {
        let (lo, hi) = (x.word(0), x.word(1));
        let direct = self.r32();
        self.convert(direct, r(lo), ConvertMode::U32ToF, Round::Rte);
        // lz = 31 - msb(hi); top = (x << lz) >> 32; rest = lo << lz.
        let msb = self.msb32(hi);
        let lz = self.r32();
        self.iadd(lz, z(Src::Imm(31)), z(r(msb)), true);
        let up = self.r32();
        self.iadd(up, z(Src::Imm(32)), z(r(lz)), true);
        let top = self.r32();
        self.bitfield_op(BitfieldOp::Extr, top, r(lo), r(hi), r(up), 0);
        let rest = self.r32();
        self.bitfield_op(BitfieldOp::Bfi, rest, Src::Imm(0), r(lo), r(lz), 0);
        let sticky = self.r32();
        self.icmpsel(
            sticky,
            ICond::Ueq,
            r(rest),
            Src::Imm(0),
            Src::Imm(0),
            Src::Imm(1),
        );
        let word = self.r32();
        self.bitop(word, r(top), r(sticky), bitop::OR);
        let f = self.r32();
        self.convert(f, r(word), ConvertMode::U32ToF, Round::Rte);
        // scale = 2^(32 - lz) as f32 bits: (127 + up) << 23.
        let e = self.r32();
        self.iadd(e, z(r(up)), z(Src::Imm(127)), false);
        let scale = self.r32();
        self.bitfield_op(BitfieldOp::Bfi, scale, Src::Imm(0), r(e), Src::Imm(23), 0);
        let big = self.r32();
        self.fmul(Precision::F32, big, FSrc::reg(f), FSrc::reg(scale));
        let dst = self.r32();
        self.icmpsel(dst, ICond::Ueq, r(hi), Src::Imm(0), r(direct), r(big));
        dst
    }

    /// `u2f`/`s2f` from i64.
    pub(super) fn int64_to_float(&mut self, x: VReg, signed: bool, to: Type) -> VReg {
        let f = if signed {
            let mag = self.abs64(x);
            let u = self.u64_to_f32(mag);
            let neg = self.r32();
            self.fmov(neg, FSrc::reg(u).negated());
            let s = self.r32();
            self.icmpsel(s, ICond::Slt, r(x.word(1)), Src::Imm(0), r(neg), r(u));
            s
        } else {
            self.u64_to_f32(x)
        };
        if to == Type::F16 {
            let h = self.m.new_group(RegClass::H16);
            self.fmov(h, FSrc::reg(f));
            h
        } else {
            f
        }
    }

    /// `f2u` of a non-negative f32 (negative and NaN give 0) to a pair, saturating at 2^64.
    fn f32_to_u64(&mut self, x: FSrc<VReg>) -> VReg {
        let down = self.f32_const(0x2f80_0000); // 2^-32
        let up = self.f32_const(0x4f80_0000); // 2^32
        let two64 = self.f32_const(0x5f80_0000); // 2^64
        let scaled = self.r32();
        self.fmul(Precision::F32, scaled, x, FSrc::reg(down));
        let hi = self.r32();
        self.convert(hi, r(scaled), ConvertMode::FToU32, Round::Rtz);
        let hf = self.r32();
        self.convert(hf, r(hi), ConvertMode::U32ToF, Round::Rte);
        let rest = self.r32();
        self.fmadd(
            Precision::F32,
            rest,
            FSrc::reg(hf),
            FSrc::reg(up).negated(),
            x,
        );
        let lo = self.r32();
        self.convert(lo, r(rest), ConvertMode::FToU32, Round::Rtz);
        let ones = self.r32();
        self.bitop(ones, Src::Imm(0), Src::Imm(0), bitop::ONES);
        let dst = self.r64();
        for (w, v) in [(0u16, lo), (1, hi)] {
            self.fcmpsel(dst.word(w), FCond::Ge, x, FSrc::reg(two64), r(ones), r(v));
        }
        dst
    }

    /// `f2u`/`f2s` to i64.
    pub(super) fn float_to_int64(&mut self, x: Value, signed: bool) -> VReg {
        let from = self.func.value_type(x);
        let xs = if from == Type::F16 {
            let w = self.r32();
            let s = self.fsrc(x);
            self.fmov(w, s);
            FSrc::reg(w)
        } else {
            self.fsrc(x)
        };
        if !signed {
            return self.f32_to_u64(xs);
        }
        let mut mag_src = xs;
        mag_src.abs = true;
        mag_src.neg = false;
        let u = self.f32_to_u64(mag_src);
        let neg = self.r64();
        self.iadd(neg, z(Src::Imm(0)), z(r(u)), true);
        let signed_v = self.r64();
        for w in 0..2 {
            self.fcmpsel(
                signed_v.word(w),
                FCond::Lt,
                xs,
                FSrc::imm(0),
                r(neg.word(w)),
                r(u.word(w)),
            );
        }
        // Clamp: x >= 2^63 gives MAX, x < -2^63 gives MIN.
        let two63 = self.f32_const(0x5f00_0000);
        let max_hi = self.imm_reg(RegClass::R32, 0x7fff_ffff);
        let min_hi = self.imm_reg(RegClass::R32, 0x8000_0000);
        let ones = self.r32();
        self.bitop(ones, Src::Imm(0), Src::Imm(0), bitop::ONES);
        let top = self.r64();
        self.fcmpsel(
            top.word(0),
            FCond::Ge,
            xs,
            FSrc::reg(two63),
            r(ones),
            r(signed_v.word(0)),
        );
        self.fcmpsel(
            top.word(1),
            FCond::Ge,
            xs,
            FSrc::reg(two63),
            r(max_hi),
            r(signed_v.word(1)),
        );
        let dst = self.r64();
        let below = FSrc::reg(two63).negated();
        self.fcmpsel(
            dst.word(0),
            FCond::Lt,
            xs,
            below,
            Src::Imm(0),
            r(top.word(0)),
        );
        self.fcmpsel(dst.word(1), FCond::Lt, xs, below, r(min_hi), r(top.word(1)));
        dst
    }
}
