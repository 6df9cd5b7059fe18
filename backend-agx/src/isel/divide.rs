//! Integer division and remainder by a software sequence (the G13 has no divider).
//!
//! Unsigned 32-bit `n / d` (the reciprocal method used for GPUs without a divider, as in
//! LLVM's AMDGPU `expandDivRem32`):
//!
//! ```text
//! z  = f2u(rcp(u2f(d)) * 4294966784.0)   ; ~2^32 / d, never too large
//! z += umulhi(z, -d * z)                 ; one Newton-Raphson step on the integer estimate
//! q  = umulhi(n, z);  r = n - q * d      ; q is at most 2 too small
//! twice: if r >= d { q += 1; r -= d }
//! d == 0: q = all ones, r = n            ; the IR's definition (RISC-V's)
//! ```
//!
//! At -O2 the optimizer expands divisions itself (`target::divide`, with the divisor's part as
//! `g13.urcp`, selected by [`Isel::urcp`]); this expansion serves -O0 and anything left whole.
//! Signed division divides the magnitudes and fixes the signs (the quotient negative when the
//! operands' signs differ, the remainder with the dividend's sign); `d == 0` gives -1 and `n`,
//! and `MIN / -1` wraps to `MIN`. 16-bit operands go through f32 instead ([`Isel::divide16`]).

use agxc_egraph::ir::{PureOp, Type, Value};

use super::Isel;
use crate::isa::{
    bitop, ConvertMode, Dst, FSrc, FUnaryOp, ICond, Instr, IntSrc, Precision, RegClass, Round, Src,
};
use crate::mir::VReg;

use crate::target::divide::RCP_SCALE_BITS;

impl Isel<'_> {
    pub(super) fn divide(&mut self, p: PureOp, n: Value, d: Value, ty: Type) -> VReg {
        let signed = matches!(p, PureOp::Sdiv | PureOp::Srem);
        let want_rem = matches!(p, PureOp::Urem | PureOp::Srem);
        let (nv, dv) = (self.src(n), self.src(d));
        if ty == Type::I16 {
            return self.divide16(nv, dv, signed, want_rem);
        }
        let result = if signed {
            self.sdivmod32(nv, dv, want_rem)
        } else {
            let (q, r) = self.udivmod32(nv, dv);
            if want_rem {
                r
            } else {
                q
            }
        };
        if ty == Type::I16 {
            result.lo16()
        } else {
            result
        }
    }

    /// 16-bit division through f32, as Mesa lowers small integer divisions: the operands
    /// convert exactly, `r` is the G13's `rcp` of the divisor raised by two ULP (the hardware
    /// may be one ULP off, ERRATA), so `1/d <= r <= (1 + 4 * 2^-23) / d`, and `q = trunc(n * r)`.
    /// Then `n * r` rounded lies in `[n/d, n/d + n * 5 * 2^-24 / d]`, below `n/d + 1/d` because
    /// `|n| <= 2^15`, and the next integer above `n/d` is at least `n/d + 1/d`: the truncation
    /// is the exact quotient (signed operands: the same on magnitudes, the bump raising the
    /// magnitude whatever the sign). `MIN / -1` gives 32768, whose low half is `MIN`, the IR's
    /// wrap; `d == 0` gives all ones by a select (the IR's definition), and the remainder is
    /// `n - q * d`, which is `n` there.
    fn divide16(&mut self, n: Src<VReg>, d: Src<VReg>, signed: bool, want_rem: bool) -> VReg {
        let r32 = |s: &mut Self| s.m.new_group(RegClass::R32);
        let (to_f, to_i) = if signed {
            (ConvertMode::S16ToF, ConvertMode::FToS32)
        } else {
            (ConvertMode::U16ToF, ConvertMode::FToU32)
        };
        let nf = r32(self);
        self.convert(nf, n, to_f, Round::Rte);
        let df = r32(self);
        self.convert(df, d, to_f, Round::Rte);
        let rcp = r32(self);
        self.funary(FUnaryOp::Rcp, rcp, FSrc::reg(df));
        let raised = r32(self);
        self.iadd(
            raised,
            IntSrc::zext(Src::reg(rcp)),
            IntSrc::zext(Src::Imm(2)),
            false,
        );
        let product = r32(self);
        self.fmul(Precision::F32, product, FSrc::reg(nf), FSrc::reg(raised));
        let truncated = r32(self);
        self.convert(truncated, Src::reg(product), to_i, Round::Rtz);
        let all_ones = self.imm_src(RegClass::H16, 0xffff);
        let q = self.m.new_group(RegClass::H16);
        let low = Src::reg(truncated.lo16());
        self.icmpsel(q, ICond::Ueq, d, Src::Imm(0), all_ones, low);
        if !want_rem {
            return q;
        }
        // `n - q * d` on 32 bits; its low half is the 16-bit remainder whatever the
        // extension.
        let neg_d = r32(self);
        let zero = IntSrc::zext(Src::Imm(0));
        self.iadd(neg_d, zero, IntSrc::zext(d), true);
        let rem = r32(self);
        self.imadd(
            rem,
            IntSrc::zext(Src::reg(q)),
            IntSrc::zext(Src::reg(neg_d)),
            IntSrc::zext(n),
        );
        rem.lo16()
    }

    /// The refined reciprocal estimate `z` of a 32-bit divisor (`g13.urcp`, see
    /// `target::divide`) and `-d`.
    pub(super) fn urcp(&mut self, d: Src<VReg>) -> (VReg, VReg) {
        let r32 = |s: &mut Self| s.m.new_group(RegClass::R32);
        let zero = IntSrc::zext(Src::Imm(0));
        let df = r32(self);
        self.convert(df, d, ConvertMode::U32ToF, Round::Rte);
        let rcp = r32(self);
        self.funary(FUnaryOp::Rcp, rcp, FSrc::reg(df));
        let scale = self.imm_reg(RegClass::R32, u64::from(RCP_SCALE_BITS));
        let scaled = r32(self);
        self.fmul(Precision::F32, scaled, FSrc::reg(rcp), FSrc::reg(scale));
        let z = r32(self);
        self.convert(z, Src::reg(scaled), ConvertMode::FToU32, Round::Rtz);
        let neg_d = r32(self);
        self.iadd(neg_d, zero, IntSrc::zext(d), true);
        let e = r32(self);
        self.imadd(
            e,
            IntSrc::zext(Src::reg(neg_d)),
            IntSrc::zext(Src::reg(z)),
            zero,
        );
        let ze = self.m.new_group(RegClass::R64);
        self.imadd(
            ze,
            IntSrc::zext(Src::reg(z)),
            IntSrc::zext(Src::reg(e)),
            zero,
        );
        let z2 = r32(self);
        self.iadd(
            z2,
            IntSrc::zext(Src::reg(z)),
            IntSrc::zext(Src::reg(ze.word(1))),
            false,
        );
        (z2, neg_d)
    }

    /// Unsigned 32-bit quotient and remainder.
    pub(super) fn udivmod32(&mut self, n: Src<VReg>, d: Src<VReg>) -> (VReg, VReg) {
        let r32 = |s: &mut Self| s.m.new_group(RegClass::R32);
        let zero = IntSrc::zext(Src::Imm(0));
        let (z2, neg_d) = self.urcp(d);
        let nq = self.m.new_group(RegClass::R64);
        self.imadd(nq, IntSrc::zext(n), IntSrc::zext(Src::reg(z2)), zero);
        let mut q = nq.word(1);
        let mut r = r32(self);
        self.imadd(
            r,
            IntSrc::zext(Src::reg(q)),
            IntSrc::zext(Src::reg(neg_d)),
            IntSrc::zext(n),
        );
        for _ in 0..2 {
            let q1 = r32(self);
            self.iadd(
                q1,
                IntSrc::zext(Src::reg(q)),
                IntSrc::zext(Src::Imm(1)),
                false,
            );
            let r1 = r32(self);
            self.iadd(r1, IntSrc::zext(Src::reg(r)), IntSrc::zext(d), true);
            let qn = r32(self);
            self.icmpsel(qn, ICond::Ult, Src::reg(r), d, Src::reg(q), Src::reg(q1));
            let rn = r32(self);
            self.icmpsel(rn, ICond::Ult, Src::reg(r), d, Src::reg(r), Src::reg(r1));
            q = qn;
            r = rn;
        }
        let ones = r32(self);
        self.bitop(ones, Src::Imm(0), Src::Imm(0), bitop::ONES);
        let qf = r32(self);
        self.icmpsel(qf, ICond::Ueq, d, Src::Imm(0), Src::reg(ones), Src::reg(q));
        (qf, r)
    }

    /// Signed 32-bit quotient (or remainder, with `want_rem`).
    fn sdivmod32(&mut self, n: Src<VReg>, d: Src<VReg>, want_rem: bool) -> VReg {
        let an = self.abs32(n);
        let ad = self.abs32(d);
        let (q, r) = self.udivmod32(Src::reg(an), Src::reg(ad));
        let zero = IntSrc::zext(Src::Imm(0));
        if want_rem {
            let neg = self.m.new_group(RegClass::R32);
            self.iadd(neg, zero, IntSrc::zext(Src::reg(r)), true);
            let dst = self.m.new_group(RegClass::R32);
            self.icmpsel(dst, ICond::Slt, n, Src::Imm(0), Src::reg(neg), Src::reg(r));
            dst
        } else {
            let signs = self.m.new_group(RegClass::R32);
            self.bitop(signs, n, d, bitop::XOR);
            let neg = self.m.new_group(RegClass::R32);
            self.iadd(neg, zero, IntSrc::zext(Src::reg(q)), true);
            let fixed = self.m.new_group(RegClass::R32);
            self.icmpsel(
                fixed,
                ICond::Slt,
                Src::reg(signs),
                Src::Imm(0),
                Src::reg(neg),
                Src::reg(q),
            );
            let ones = self.m.new_group(RegClass::R32);
            self.bitop(ones, Src::Imm(0), Src::Imm(0), bitop::ONES);
            let dst = self.m.new_group(RegClass::R32);
            self.icmpsel(
                dst,
                ICond::Ueq,
                d,
                Src::Imm(0),
                Src::reg(ones),
                Src::reg(fixed),
            );
            dst
        }
    }

    /// `|x|` of a 32-bit source (`|MIN|` is `MIN`, which is right as an unsigned magnitude).
    fn abs32(&mut self, x: Src<VReg>) -> VReg {
        let neg = self.m.new_group(RegClass::R32);
        self.iadd(neg, IntSrc::zext(Src::Imm(0)), IntSrc::zext(x), true);
        let dst = self.m.new_group(RegClass::R32);
        self.icmpsel(dst, ICond::Slt, x, Src::Imm(0), Src::reg(neg), x);
        dst
    }

    /// `dst = convert(src)`.
    pub(super) fn convert(&mut self, dst: VReg, src: Src<VReg>, mode: ConvertMode, round: Round) {
        self.m.op(Instr::Convert {
            dst: Dst::new(dst),
            src,
            mode,
            round,
        });
    }
}
