//! Integer ALU semantics, following the document's pseudocode: `mov_imm`, `get_sr`, `iadd`,
//! `imadd`, `convert`, the shift and bitfield family, `bitop` and the compare-selects, plus the
//! reading and writing for the generic-path forms (their per-lane semantics, `bitrev`,
//! `popcount`, `ffs`, are in `table`). Arithmetic is done on integers wide enough to be exact, then truncated
//! to the destination's width.

use super::operand::{write32, write64, Lanes};
use super::{Machine, SimdGroup};
use crate::decode::inst::{
    BitfieldOp, Compare, ConvertMode, Decoded, FRel, IRel, Inst, Round, Src,
};
use crate::error::ExecErrorKind;
use crate::float::{f64_to_f16, f64_to_f32_rtz, finish32};
use crate::lanes;

type Result<T> = std::result::Result<T, ExecErrorKind>;

/// `saturate_integer(value, bits, signed)`.
fn saturate_integer(value: i128, bits: u32, signed: bool) -> i128 {
    let (lo, hi) = if signed {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    };
    value.clamp(lo, hi)
}

/// `value` as an integer: sign-extended from `bits` when `signed`.
fn as_int(value: u64, bits: u32, signed: bool) -> i128 {
    if signed && bits < 64 {
        let shift = 64 - bits;
        i128::from(((value << shift) as i64) >> shift)
    } else if signed {
        i128::from(value as i64)
    } else {
        i128::from(value)
    }
}

/// Low 32 bits of `x << s` for any `s`.
fn shl32(x: u128, s: u32) -> u32 {
    if s >= 128 {
        0
    } else {
        (x << s) as u32
    }
}

/// `x >> s` for any `s`.
fn shr(x: u128, s: u32) -> u128 {
    if s >= 128 {
        0
    } else {
        x >> s
    }
}

/// Evaluates an integer or float comparison in every lane.
pub(super) fn compare(m: &Machine<'_>, g: &SimdGroup, c: &Compare, lanes: u32) -> Result<u32> {
    let mut bits = 0u32;
    match c {
        Compare::Int { cond, a, b } => {
            let av = m.read64(g, a, cond.signed, lanes)?;
            let bv = m.read64(g, b, cond.signed, lanes)?;
            // `read64` sign-extended signed operands to 64 bits, so comparing the words as i64
            // (signed) or u64 is exact.
            fn relation<T: Ord>(rel: IRel, x: T, y: T) -> bool {
                match rel {
                    IRel::Eq => x == y,
                    IRel::Lt => x < y,
                    IRel::Gt => x > y,
                }
            }
            for l in 0..32 {
                let r = if cond.signed {
                    relation(cond.rel, av[l] as i64, bv[l] as i64)
                } else {
                    relation(cond.rel, av[l], bv[l])
                };
                bits |= u32::from(r != cond.invert) << l;
            }
        }
        Compare::Float { cond, a, b } => {
            let av = m.read_float(g, a, lanes)?;
            let bv = m.read_float(g, b, lanes)?;
            for l in 0..32 {
                let (x, y) = (av[l], bv[l]);
                let r = match cond.rel {
                    FRel::Eq => x == y,
                    FRel::Lt => x < y,
                    FRel::Gt => x > y,
                    FRel::Ge => x >= y,
                    FRel::Le => x <= y,
                    // "NaN loses": true exactly when a min (max) should pick `x`.
                    FRel::LtNanLoses => !x.is_nan() && (y.is_nan() || x < y),
                    FRel::GtNanLoses => !x.is_nan() && (y.is_nan() || x > y),
                };
                bits |= u32::from(r != cond.invert) << l;
            }
        }
    }
    Ok(bits)
}

impl Machine<'_> {
    pub(super) fn int_op(&mut self, g: &mut SimdGroup, d: &Decoded) -> Result<()> {
        let lanes = g.exec;
        match d.inst {
            Inst::Mov { d: dst, imm } => write32(g, &dst, &[imm; 32], lanes),
            Inst::GetSr { d: dst, sr } => {
                let v = self.special_register(g, sr)?;
                write32(g, &dst, &v, lanes)
            }
            Inst::Iadd {
                d: dst,
                a,
                b,
                a_sx,
                b_sx,
                neg,
                shift,
                sat,
            } => {
                let av = self.read64(g, &a, a_sx, lanes)?;
                let bv = self.read64(g, &b, b_sx, lanes)?;
                let dbits = dst.reg.bits();
                let saturating =
                    sat && shift == 0 && a.bits() <= 32 && b.bits() <= 32 && dbits <= 32;
                let signed = a_sx || b_sx;
                // Two loops rather than a test per lane: the wrapping one is the common case.
                let r: Lanes<u64> = if saturating {
                    lanes::each(|l| {
                        let x = as_int(av[l], 64, a_sx);
                        let y = as_int(bv[l], 64, b_sx);
                        let sum = x + if neg { -y } else { y };
                        saturate_integer(sum, dbits, signed) as u64
                    })
                } else {
                    lanes::each(|l| {
                        let y = if neg { bv[l].wrapping_neg() } else { bv[l] };
                        let y = if shift < 5 { y << shift } else { 0 };
                        av[l].wrapping_add(y)
                    })
                };
                write64(g, &dst, &r, lanes)
            }
            Inst::Imadd {
                d: dst,
                a,
                b,
                c,
                a_sx,
                b_sx,
                c_sx,
                neg,
                shift,
                sat,
            } => {
                let av = self.read64(g, &a, a_sx, lanes)?;
                let bv = self.read64(g, &b, b_sx, lanes)?;
                let cv = self.read64(g, &c, c_sx, lanes)?;
                let dbits = dst.reg.bits();
                let saturating = sat && shift == 0 && c.bits() <= 32 && dbits <= 32;
                let signed = a_sx || b_sx || c_sx;
                let r: Lanes<u64> = if saturating {
                    lanes::each(|l| {
                        let p = as_int(av[l], 64, a_sx) * as_int(bv[l], 64, b_sx);
                        let z = as_int(cv[l], 64, c_sx);
                        saturate_integer(p + if neg { -z } else { z }, dbits, signed) as u64
                    })
                } else {
                    lanes::each(|l| {
                        let z = if neg { cv[l].wrapping_neg() } else { cv[l] };
                        let z = if shift < 5 { z << shift } else { 0 };
                        av[l].wrapping_mul(bv[l]).wrapping_add(z)
                    })
                };
                write64(g, &dst, &r, lanes)
            }
            Inst::Convert {
                d: dst,
                src,
                mode,
                round,
            } => {
                let r = self.convert(g, &src, mode, round, dst.reg.bits(), lanes)?;
                write32(g, &dst, &r, lanes)
            }
            Inst::Alu { op, d: dst, .. } => {
                let f = super::table::eval(op)
                    .expect("invariant: every generic form has semantics (table test)");
                let mut vals = [[0u32; 32]; 3];
                for (v, s) in vals.iter_mut().zip(d.inst.alu_srcs()) {
                    *v = self.read32(g, s, lanes)?;
                }
                let mut r = [0u32; 32];
                for (l, out) in r.iter_mut().enumerate() {
                    *out = f(&[vals[0][l], vals[1][l], vals[2][l]]);
                }
                write32(g, &dst, &r, lanes)
            }
            Inst::Bitfield {
                op,
                d: dst,
                a,
                b,
                c,
                m,
            } => {
                let av = self.read32(g, &a, lanes)?;
                let bv = self.read32(g, &b, lanes)?;
                let cv = self.read32(g, &c, lanes)?;
                let mask: u128 = if m == 0 {
                    0xFFFF_FFFF
                } else {
                    (1u128 << m) - 1
                };
                let r: Lanes<u32> = lanes::each(|l| {
                    let (a, b, s) = (u128::from(av[l]), u128::from(bv[l]), cv[l] & 0x7F);
                    match op {
                        BitfieldOp::Bfi => (a as u32 & !shl32(mask, s)) | shl32(b & mask, s),
                        BitfieldOp::Bfeil => ((a & !mask) | (shr(b, s) & mask)) as u32,
                        BitfieldOp::Extr => (shr(b << 32 | a, s) & mask) as u32,
                        BitfieldOp::Shlhi => {
                            let shifted_mask = if s > 32 {
                                shl32(mask, s - 32)
                            } else {
                                mask as u32
                            };
                            let high = if s >= 96 { 0 } else { ((b << s) >> 32) as u32 };
                            (high & shifted_mask) | (a as u32 & !shifted_mask)
                        }
                        BitfieldOp::Shrhi => {
                            let shifted_mask = ((mask << 32) >> s.min(32)) as u32;
                            let high = shr(b << 32, s) as u32;
                            (high & shifted_mask) | (a as u32 & !shifted_mask)
                        }
                    }
                });
                write32(g, &dst, &r, lanes)
            }
            Inst::Asr { high, d: dst, a, b } => {
                let av = self.read64(g, &a, true, lanes)?;
                let bv = self.read32(g, &b, lanes)?;
                let r: Lanes<u32> = lanes::each(|l| {
                    let v = i128::from(av[l] as i64);
                    let v = if high { v << 32 } else { v };
                    (v >> (bv[l] & 0x7F).min(127)) as u32
                });
                write32(g, &dst, &r, lanes)
            }
            Inst::Bitop {
                d: dst,
                a,
                b,
                table,
            } => {
                let av = self.read32(g, &a, lanes)?;
                let bv = self.read32(g, &b, lanes)?;
                let tt = |i: u8| table >> i & 1 == 1;
                // The document: tables depending only on `b` (tt0 == tt1, tt2 == tt3, tt0 != tt2)
                // are UNDEFINED and the hardware returns `a`.
                let undefined = tt(0) == tt(1) && tt(2) == tt(3) && tt(0) != tt(2);
                let r: Lanes<u32> = lanes::each(|l| {
                    let (x, y) = (av[l], bv[l]);
                    if undefined {
                        return x;
                    }
                    let mut r = 0;
                    if tt(0) {
                        r |= !x & !y;
                    }
                    if tt(1) {
                        r |= x & !y;
                    }
                    if tt(2) {
                        r |= !x & y;
                    }
                    if tt(3) {
                        r |= x & y;
                    }
                    r
                });
                write32(g, &dst, &r, lanes)
            }
            Inst::Select { d: dst, cmp, x, y } => {
                let bits = compare(self, g, &cmp, lanes)?;
                let xv = self.read32(g, &x, lanes)?;
                let yv = self.read32(g, &y, lanes)?;
                let r: Lanes<u32> = lanes::each(|l| if bits >> l & 1 == 1 { xv[l] } else { yv[l] });
                write32(g, &dst, &r, lanes)
            }
            _ => unreachable!("invariant: int_op receives integer instructions"),
        }
    }

    /// `convert` (docs/g13.md's modes). Integer sources take the low 8, 16 or 32 bits of the
    /// register; float sources are f16 or f32 by the source's width (an immediate is the 8-bit
    /// float immediate). Float-to-integer conversions round by `round`, clamp to the target
    /// range and map NaN to 0; integer-to-float conversions round by `round` to f16 or f32 by the
    /// destination's width.
    fn convert(
        &self,
        g: &SimdGroup,
        src: &Src,
        mode: ConvertMode,
        round: Round,
        dst_bits: u32,
        lanes: u32,
    ) -> Result<Lanes<u32>> {
        use ConvertMode::*;
        let rte = round == Round::Rte;
        let to_float = |v: i64| -> u32 {
            if dst_bits == 16 {
                u32::from(f64_to_f16(v as f64, rte))
            } else if rte {
                finish32(v as f32, false)
            } else {
                finish32(f64_to_f32_rtz(v as f64), false)
            }
        };
        match mode {
            U8ToF | S8ToF | U16ToF | S16ToF | U32ToF | S32ToF => {
                let v = self.read32(g, src, lanes)?;
                Ok(lanes::map(&v, |x| {
                    let i = match mode {
                        U8ToF => i64::from(x as u8),
                        S8ToF => i64::from(x as u8 as i8),
                        U16ToF => i64::from(x as u16),
                        S16ToF => i64::from(x as u16 as i16),
                        U32ToF => i64::from(x),
                        _ => i64::from(x as i32),
                    };
                    to_float(i)
                }))
            }
            FToU16 | FToS16 | FToU32 | FToS32 => {
                let fsrc = crate::decode::inst::FSrc {
                    src: match *src {
                        Src::Imm(v) => Src::FImm(crate::float::decode_float_immediate(v as u8)),
                        other => other,
                    },
                    abs: false,
                    neg: false,
                };
                let v = self.read_float(g, &fsrc, lanes)?;
                let (lo, hi): (f64, f64) = match mode {
                    FToU16 => (0.0, 65535.0),
                    FToS16 => (-32768.0, 32767.0),
                    FToU32 => (0.0, 4_294_967_295.0),
                    _ => (-2_147_483_648.0, 2_147_483_647.0),
                };
                Ok(lanes::map(&v, |x| {
                    if x.is_nan() {
                        return 0;
                    }
                    let x = f64::from(x);
                    let r = if rte { x.round_ties_even() } else { x.trunc() };
                    r.clamp(lo, hi) as i64 as u32
                }))
            }
        }
    }
}
