//! Reading source operands into 32-lane arrays and writing results, with the sanitizer and
//! scoreboard checks of `crate::regfile` on every register access.

use super::{Machine, SimdGroup};
use crate::decode::inst::{Dst, FDst, FSrc, Reg, Src};
use crate::error::ExecErrorKind;
use crate::float::{f16_source, f32_source, finish16, finish32, finish32_to_16};
use crate::lanes;

pub(super) type Lanes<T> = [T; 32];

impl Machine<'_> {
    /// 16-bit uniform `i` (half index).
    #[inline(always)]
    pub(super) fn uni16(&self, i: u16) -> u32 {
        (self.uniforms[usize::from(i >> 1) & 255] >> (16 * u32::from(i & 1))) & 0xffff
    }

    /// 64-bit uniform pair from `u(i)`.
    #[inline(always)]
    pub(super) fn uni64(&self, i: u8) -> u64 {
        let lo = self.uniforms[usize::from(i)];
        let hi = self.uniforms[(usize::from(i) + 1) & 255];
        u64::from(lo) | u64::from(hi) << 32
    }

    /// `s` zero-extended to 32 bits in every lane (64-bit sources truncated); register hazards
    /// checked for `lanes`.
    #[inline(always)]
    pub(super) fn read32(
        &self,
        g: &SimdGroup,
        s: &Src,
        lanes: u32,
    ) -> Result<Lanes<u32>, ExecErrorKind> {
        Ok(match *s {
            Src::Imm(v) => [u32::from(v); 32],
            Src::FImm(x) => [x.to_bits(); 32],
            Src::Uni16(i) => [self.uni16(i); 32],
            Src::Uni32(i) => [self.uniforms[usize::from(i)]; 32],
            Src::Uni64(i) => [self.uni64(i) as u32; 32],
            Src::Reg(reg, _) => {
                g.regs.check_read(reg, lanes)?;
                g.regs.read32(reg)
            }
        })
    }

    /// `s` zero-extended to 64 bits, or sign-extended from its width when `sx`.
    #[inline(always)]
    pub(super) fn read64(
        &self,
        g: &SimdGroup,
        s: &Src,
        sx: bool,
        lanes: u32,
    ) -> Result<Lanes<u64>, ExecErrorKind> {
        let raw: Lanes<u64> = match *s {
            Src::Uni64(i) => [self.uni64(i); 32],
            Src::Reg(reg @ Reg::R64(_), _) => {
                g.regs.check_read(reg, lanes)?;
                g.regs.read64(reg)
            }
            _ => lanes::map(&self.read32(g, s, lanes)?, u64::from),
        };
        let bits = s.bits();
        if sx && bits < 64 {
            let shift = 64 - bits;
            Ok(lanes::map(&raw, |v| {
                (((v << shift) as i64) >> shift) as u64
            }))
        } else {
            Ok(raw)
        }
    }

    /// A float source as f32 values: fp32 sources flush denormals, fp16 sources convert exactly,
    /// then `abs` and `neg` apply.
    #[inline(always)]
    pub(super) fn read_float(
        &self,
        g: &SimdGroup,
        s: &FSrc,
        lanes: u32,
    ) -> Result<Lanes<f32>, ExecErrorKind> {
        let mut v: Lanes<f32> = match s.src {
            Src::FImm(x) => [x; 32],
            Src::Imm(v) => [f16_source(v); 32],
            src if src.bits() == 16 => {
                lanes::map(&self.read32(g, &src, lanes)?, |b| f16_source(b as u16))
            }
            src => lanes::map(&self.read32(g, &src, lanes)?, f32_source),
        };
        if s.abs {
            v = lanes::map(&v, f32::abs);
        }
        if s.neg {
            v = lanes::map(&v, |x| -x);
        }
        Ok(v)
    }
}

/// Writes 32-bit results (truncated to the destination's width) for `lanes`.
#[inline(always)]
pub(super) fn write32(
    g: &mut SimdGroup,
    d: &Dst,
    v: &Lanes<u32>,
    lanes: u32,
) -> Result<(), ExecErrorKind> {
    g.regs.prepare_write(d.reg, lanes)?;
    g.regs.store32(d.reg, v, lanes);
    Ok(())
}

/// Writes 64-bit results (truncated to the destination's width) for `lanes`.
pub(super) fn write64(
    g: &mut SimdGroup,
    d: &Dst,
    v: &Lanes<u64>,
    lanes: u32,
) -> Result<(), ExecErrorKind> {
    g.regs.prepare_write(d.reg, lanes)?;
    g.regs.store64(d.reg, v, lanes);
    Ok(())
}

/// Writes the results of an fp32 operation, already rounded to f32: a 32-bit destination
/// takes them with flush-to-zero, a 16-bit one rounds them again to f16.
#[inline(always)]
pub(super) fn write_f32_results(
    g: &mut SimdGroup,
    d: &FDst,
    v: &Lanes<f32>,
    lanes: u32,
) -> Result<(), ExecErrorKind> {
    let bits: Lanes<u32> = if d.dst.reg.bits() == 16 {
        lanes::map(v, |x| u32::from(finish32_to_16(x, d.sat)))
    } else {
        lanes::map(v, |x| finish32(x, d.sat))
    };
    write32(g, &d.dst, &bits, lanes)
}

/// Writes the exact (or round-to-odd) results of an fp16 operation, rounded once to f16.
pub(super) fn write_f16_results(
    g: &mut SimdGroup,
    d: &FDst,
    v: &Lanes<f64>,
    lanes: u32,
) -> Result<(), ExecErrorKind> {
    let bits: Lanes<u32> = lanes::map(v, |x| u32::from(finish16(x, d.sat)));
    write32(g, &d.dst, &bits, lanes)
}
