//! Integer and bitwise opcodes, comparisons producing masks, conversions, `UCMP`, and the
//! half-float packing pair.
//!
//! Edge cases follow Mesa's `tgsi_exec.c` where the IR's operations differ: integer division
//! by zero gives 0 (`IDIV`) or ~0 (`UDIV`, `UMOD`, `MOD`), shift counts are taken modulo 32,
//! and the bitfield opcodes mask their offset (and width) to 5 bits.

use super::super::{Lifter, Want};
use crate::tgsi::error::Result;
use crate::tgsi::opcode::Opcode;
use agxc_egraph::ir::{PureOp, Type, Value};

const I: Want = Want::I32;
const F: Want = Want::F32;

impl Lifter<'_, '_> {
    /// Integer opcodes (see the module docs).
    pub(super) fn int_op(&mut self, op: Opcode) -> Result<()> {
        use Opcode::*;
        use PureOp as P;
        let bin = |p: PureOp| move |l: &mut Self, a: &[Value]| Ok(l.p(p, a));
        match op {
            UADD => self.componentwise(&[I, I], bin(P::Iadd)),
            UMUL => self.componentwise(&[I, I], bin(P::Imul)),
            UMAD => self.componentwise(&[I, I, I], |l, a| {
                let m = l.p(P::Imul, &a[..2]);
                Ok(l.p(P::Iadd, &[m, a[2]]))
            }),
            IMUL_HI => self.componentwise(&[I, I], bin(P::Smulhi)),
            UMUL_HI => self.componentwise(&[I, I], bin(P::Umulhi)),
            IDIV => self.componentwise(&[I, I], |l, a| l.div_by_nonzero(P::Sdiv, a, 0)),
            UDIV => self.componentwise(&[I, I], |l, a| l.div_by_nonzero(P::Udiv, a, -1)),
            MOD => self.componentwise(&[I, I], |l, a| l.div_by_nonzero(P::Srem, a, -1)),
            UMOD => self.componentwise(&[I, I], |l, a| l.div_by_nonzero(P::Urem, a, -1)),
            IMIN => self.componentwise(&[I, I], bin(P::Smin)),
            IMAX => self.componentwise(&[I, I], bin(P::Smax)),
            UMIN => self.componentwise(&[I, I], bin(P::Umin)),
            UMAX => self.componentwise(&[I, I], bin(P::Umax)),
            IABS => self.componentwise(&[I], bin(P::Iabs)),
            INEG => self.componentwise(&[I], bin(P::Ineg)),
            ISSG => self.componentwise(&[I], |l, a| {
                let (zero, one, minus_one) = (l.ic(0), l.ic(1), l.ic(-1));
                let pos = l.p(P::Sgt, &[a[0], zero]);
                let inner = l.sel(pos, one, zero);
                let neg = l.p(P::Slt, &[a[0], zero]);
                Ok(l.sel(neg, minus_one, inner))
            }),
            AND => self.componentwise(&[I, I], bin(P::And)),
            OR => self.componentwise(&[I, I], bin(P::Or)),
            XOR => self.componentwise(&[I, I], bin(P::Xor)),
            NOT => self.componentwise(&[I], bin(P::Not)),
            // The seed shifts every channel by `src1.x` (NV_gpu_program4's scalar count); Mesa
            // shifts each channel by its own `src1` channel, and the TGSI Mesa emits depends on
            // that (`SHL TEMP[1].xy, SV[1].xxzx, IMM[0].yxyy`), so this follows Mesa. The IR
            // shifts take the count modulo 32, like Mesa's `& 0x1f`.
            SHL => self.componentwise(&[I, I], bin(P::Ishl)),
            // The seed's SHR is Mesa's ISHR (arithmetic).
            SHR | ISHR => self.componentwise(&[I, I], bin(P::Sshr)),
            USHR => self.componentwise(&[I, I], bin(P::Ushr)),
            ISLT => self.mask_on(I, P::Slt),
            ISGE => self.mask_on(I, P::Sge),
            USLT => self.mask_on(I, P::Ult),
            USGE => self.mask_on(I, P::Uge),
            USEQ => self.mask_on(I, P::Ieq),
            USNE => self.mask_on(I, P::Ine),
            FSLT => self.mask_on(F, P::Flt),
            FSGE => self.mask_on(F, P::Fge),
            FSEQ => self.mask_on(F, P::Feq),
            // Unordered, as the reference says: NaN != x.
            FSNE => self.mask_on(F, P::Fneu),
            I2F => self.componentwise(&[I], |l, a| Ok(l.b.convert(P::S2f, a[0], Type::F32))),
            U2F => self.componentwise(&[I], |l, a| Ok(l.b.convert(P::U2f, a[0], Type::F32))),
            // Out-of-range conversions are undefined in TGSI; the IR's saturate.
            F2I => self.componentwise(&[F], |l, a| Ok(l.b.convert(P::F2s, a[0], Type::I32))),
            F2U => self.componentwise(&[F], |l, a| Ok(l.b.convert(P::F2u, a[0], Type::I32))),
            // `src0 ? src1 : src2` on the bits of src0; Mesa reads all three sources with
            // float modifiers and moves the selected bits unchanged.
            UCMP => self.componentwise(&[Want::Raw, Want::Raw, Want::Raw], |l, a| {
                let c = l.cast(a[0], Type::I32);
                let zero = l.ic(0);
                let set = l.p(P::Ine, &[c, zero]);
                let ty = l.b.ty(a[1]);
                let other = l.cast(a[2], ty);
                Ok(l.sel(set, a[1], other))
            }),
            IBFE => self.componentwise(&[I, I, I], |l, a| l.bitfield_extract(P::Sbfe, a)),
            UBFE => self.componentwise(&[I, I, I], |l, a| l.bitfield_extract(P::Ubfe, a)),
            BFI => self.componentwise(&[I, I, I, I], |l, a| l.bitfield_insert(a)),
            BREV => self.componentwise(&[I], bin(P::Bitrev)),
            POPC => self.componentwise(&[I], bin(P::Popcount)),
            LSB => self.componentwise(&[I], bin(P::FindLsb)),
            IMSB => self.componentwise(&[I], bin(P::SfindMsb)),
            UMSB => self.componentwise(&[I], bin(P::UfindMsb)),
            // NV_gpu_program4's SAD, an unsigned integer operation: |a - b| + c.
            SAD => self.componentwise(&[I, I, I], |l, a| {
                let gt = l.p(P::Ugt, &a[..2]);
                let ab = l.p(P::Isub, &[a[0], a[1]]);
                let ba = l.p(P::Isub, &[a[1], a[0]]);
                let d = l.sel(gt, ab, ba);
                Ok(l.p(P::Iadd, &[d, a[2]]))
            }),
            PK2H => self.pack_half(),
            UP2H => self.unpack_half(),
            _ => unreachable!("int_op is only dispatched the opcodes above"),
        }
    }

    fn mask_on(&mut self, want: Want, cmp: PureOp) -> Result<()> {
        self.componentwise(&[want, want], |l, a| {
            let c = l.p(cmp, a);
            Ok(l.mask(c))
        })
    }

    /// `b != 0 ? op(a, b) : if_zero`
    fn div_by_nonzero(&mut self, op: PureOp, a: &[Value], if_zero: i32) -> Result<Value> {
        let zero = self.ic(0);
        let is_zero = self.p(PureOp::Ieq, &[a[1], zero]);
        let q = self.p(op, a);
        let z = self.ic(if_zero);
        Ok(self.sel(is_zero, z, q))
    }

    /// `IBFE`/`UBFE (value, offset, width)` as Mesa computes them: the offset is taken modulo
    /// 32; a width of 32 at offset 0 is the whole value, otherwise the width is taken modulo
    /// 32 and a field running past bit 31 stops there (the IR's extracts clamp the same way).
    fn bitfield_extract(&mut self, op: PureOp, a: &[Value]) -> Result<Value> {
        let (m31, c32, zero) = (self.ic(31), self.ic(32), self.ic(0));
        let offset = self.p(PureOp::And, &[a[1], m31]);
        let width = self.p(PureOp::And, &[a[2], m31]);
        let full = self.p(PureOp::Ieq, &[a[2], c32]);
        let at_zero = self.p(PureOp::Ieq, &[offset, zero]);
        let whole = self.p(PureOp::And, &[full, at_zero]);
        let width = self.sel(whole, c32, width);
        Ok(self.p(op, &[a[0], offset, width]))
    }

    /// `BFI (base, insert, offset, width)` as Mesa computes it: a width of 32 is `insert`;
    /// otherwise the mask `((1 << width) - 1) << (offset % 32)` cut to 32 bits, which is the
    /// IR's clamped field.
    fn bitfield_insert(&mut self, a: &[Value]) -> Result<Value> {
        let (m31, c32) = (self.ic(31), self.ic(32));
        let offset = self.p(PureOp::And, &[a[2], m31]);
        let inserted = self.p(PureOp::Bfi, &[a[0], a[1], offset, a[3]]);
        let full = self.p(PureOp::Ieq, &[a[3], c32]);
        Ok(self.sel(full, a[1], inserted))
    }

    /// `PK2H`: `src.x` and `src.y` as binary16, packed low and high, replicated (Mesa's
    /// exec_pk2h; the seed leaves it TBD).
    fn pack_half(&mut self) -> Result<()> {
        let mask = self.dst_mask();
        if mask == 0 {
            return Ok(());
        }
        let x = self.fetch(0, 0, F)?;
        let y = self.fetch(0, 1, F)?;
        let lo = self.half_bits(x);
        let hi = self.half_bits(y);
        let sixteen = self.ic(16);
        let hi = self.p(PureOp::Ishl, &[hi, sixteen]);
        let v = self.p(PureOp::Or, &[lo, hi]);
        self.store(0, [Some(v); 4])
    }

    fn half_bits(&mut self, f: Value) -> Value {
        let h = self.b.convert(PureOp::Fcvt, f, Type::F16);
        let bits = self.b.convert(PureOp::Bitcast, h, Type::I16);
        self.b.convert(PureOp::Uext, bits, Type::I32)
    }

    /// `UP2H`: the two binary16 halves of `src.x` as floats: (low, high, low, high) (Mesa's
    /// exec_up2h).
    fn unpack_half(&mut self) -> Result<()> {
        let mask = self.dst_mask();
        if mask == 0 {
            return Ok(());
        }
        let x = self.fetch(0, 0, I)?;
        let sixteen = self.ic(16);
        let high = self.p(PureOp::Ushr, &[x, sixteen]);
        let lo = self.half_value(x);
        let hi = self.half_value(high);
        self.store(0, [Some(lo), Some(hi), Some(lo), Some(hi)])
    }

    fn half_value(&mut self, bits: Value) -> Value {
        let b16 = self.b.convert(PureOp::Itrunc, bits, Type::I16);
        let h = self.b.convert(PureOp::Bitcast, b16, Type::F16);
        self.b.convert(PureOp::Fcvt, h, Type::F32)
    }
}
