//! Floating-point semantics: `fmadd`, `fadd`, `fmul` (fp32 and fp16), and the one-source family
//! (`floor` .. `dfdy`). Rounding, flushing, default NaN and saturate follow `crate::float`.
//!
//! The one-source operations are fp32 operations: the result is computed in f64 (exactly for
//! the rounding operations; `rcp` as a correctly rounded f32 division; `rsqrt`, `log2`, `exp2`,
//! `sin_pt_2` through the host's f64 functions) and rounded to f32, then finished like every
//! fp32 result. `dfdx`/`dfdy` are fine derivatives across the 2x2 quad of lanes
//! `4k..4k+3` (pixel order (x, y), (x+1, y), (x, y+1), (x+1, y+1)): `dfdx` is the right pixel
//! minus the left pixel of the lane's row, `dfdy` the bottom minus the top of its column, an f32
//! subtraction. They read the neighbours' registers whether or not those lanes are active.

use super::operand::{write_f16_results, write_f32_results, Lanes};
use super::{Machine, SimdGroup};
use crate::decode::inst::{Decoded, FUnaryOp, Inst, Precision};
use crate::error::ExecErrorKind;
use crate::float::{fma_round_to_odd, rsqrt_special, sin_pt_1, sin_pt_2};
use crate::lanes;

impl Machine<'_> {
    pub(super) fn float_op(&mut self, g: &mut SimdGroup, d: &Decoded) -> Result<(), ExecErrorKind> {
        let lanes = g.exec;
        match d.inst {
            Inst::Fma { p, d: dst, a, b, c } => {
                let av = self.read_float(g, &a, lanes)?;
                let bv = self.read_float(g, &b, lanes)?;
                let cv = self.read_float(g, &c, lanes)?;
                let r: Lanes<f64> = lanes::zip3(&av, &bv, &cv, |a, b, c| {
                    fma_round_to_odd(f64::from(a), f64::from(b), f64::from(c))
                });
                match p {
                    Precision::F32 => {
                        write_f32_results(g, &dst, &lanes::map(&r, |x| x as f32), lanes)
                    }
                    Precision::F16 => write_f16_results(g, &dst, &r, lanes),
                }
            }
            Inst::Fadd { p, d: dst, a, b } => {
                let av = self.read_float(g, &a, lanes)?;
                let bv = self.read_float(g, &b, lanes)?;
                match p {
                    Precision::F32 => {
                        let r: Lanes<f32> = lanes::zip(&av, &bv, |a, b| a + b);
                        write_f32_results(g, &dst, &r, lanes)
                    }
                    Precision::F16 => {
                        // Exact in f64: two f16 values span fewer than 53 bits.
                        let r: Lanes<f64> =
                            lanes::zip(&av, &bv, |a, b| f64::from(a) + f64::from(b));
                        write_f16_results(g, &dst, &r, lanes)
                    }
                }
            }
            Inst::Fmul { p, d: dst, a, b } => {
                let av = self.read_float(g, &a, lanes)?;
                let bv = self.read_float(g, &b, lanes)?;
                match p {
                    Precision::F32 => {
                        let r: Lanes<f32> = lanes::zip(&av, &bv, |a, b| a * b);
                        write_f32_results(g, &dst, &r, lanes)
                    }
                    Precision::F16 => {
                        let r: Lanes<f64> =
                            lanes::zip(&av, &bv, |a, b| f64::from(a) * f64::from(b));
                        write_f16_results(g, &dst, &r, lanes)
                    }
                }
            }
            Inst::FUnary { op, d: dst, a } => {
                let r = match op {
                    FUnaryOp::Dfdx | FUnaryOp::Dfdy => {
                        // Every lane of every quad with an active lane is read.
                        let quads = quad_lanes(lanes) & g.live;
                        let av = self.read_float(g, &a, quads)?;
                        derivative(&av, op == FUnaryOp::Dfdx)
                    }
                    _ => {
                        let av = self.read_float(g, &a, lanes)?;
                        lanes::map(&av, |x| unary(op, x))
                    }
                };
                write_f32_results(g, &dst, &r, lanes)
            }
            _ => unreachable!("invariant: float_op receives float instructions"),
        }
    }
}

/// All lanes of every quad that has a lane in `lanes`.
pub(super) fn quad_lanes(lanes: u32) -> u32 {
    let mut out = 0;
    for q in 0..8 {
        if lanes >> (4 * q) & 0xF != 0 {
            out |= 0xF << (4 * q);
        }
    }
    out
}

/// Fine quad derivatives of `v`.
fn derivative(v: &Lanes<f32>, x: bool) -> Lanes<f32> {
    std::array::from_fn(|l| {
        let base = l & !3;
        let j = l & 3;
        if x {
            let row = base + (j & 2);
            v[row + 1] - v[row]
        } else {
            let col = base + (j & 1);
            v[col + 2] - v[col]
        }
    })
}

/// A one-source operation on an f32 value, rounded to f32 (before the destination's
/// finishing).
fn unary(op: FUnaryOp, x: f32) -> f32 {
    let xd = f64::from(x);
    match op {
        FUnaryOp::Floor => x.floor(),
        FUnaryOp::Ceil => x.ceil(),
        FUnaryOp::Trunc => x.trunc(),
        FUnaryOp::Rint => x.round_ties_even(),
        FUnaryOp::Rcp => 1.0 / x,
        FUnaryOp::Rsqrt => (1.0 / xd.sqrt()) as f32,
        FUnaryOp::RsqrtSpecial => rsqrt_special(xd) as f32,
        FUnaryOp::SinPt1 => sin_pt_1(xd) as f32,
        FUnaryOp::SinPt2 => sin_pt_2(xd) as f32,
        FUnaryOp::Log2 => xd.log2() as f32,
        FUnaryOp::Exp2 => xd.exp2() as f32,
        FUnaryOp::Dfdx | FUnaryOp::Dfdy => unreachable!("invariant: derivatives need the quad"),
    }
}
