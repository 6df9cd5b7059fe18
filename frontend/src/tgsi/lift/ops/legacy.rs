//! Opcodes whose channels differ: dot products and the vertex-program heritage of the seed
//! reference (`LIT`, `EXP`, `LOG`, `DST`, `XPD`, `SCS`, `NRM`, `RFL`, `X2D`, `RCC`).
//!
//! Sums are evaluated left to right with a rounding after every operation, as the reference's
//! formulas read and as softpipe computes them.

use super::super::{Lifter, Want};
use crate::tgsi::error::Result;
use crate::tgsi::opcode::Opcode;
use agxc_egraph::ir::{PureOp, Value};

const F: Want = Want::F32;

impl Lifter<'_, '_> {
    /// Component `c` of source `s` as a float.
    fn comp(&mut self, s: usize, c: usize) -> Result<Value> {
        self.fetch(s, c, F)
    }

    /// `a.x*b.x + a.y*b.y + ...` over the first `n` components.
    fn dot(&mut self, a: usize, b: usize, n: usize) -> Result<Value> {
        let mut sum = None;
        for c in 0..n {
            let (x, y) = (self.comp(a, c)?, self.comp(b, c)?);
            let m = self.p(PureOp::Fmul, &[x, y]);
            sum = Some(match sum {
                None => m,
                Some(s) => self.p(PureOp::Fadd, &[s, m]),
            });
        }
        Ok(sum.expect("dot products have at least two components"))
    }

    pub(super) fn legacy_op(&mut self, op: Opcode) -> Result<()> {
        use Opcode::*;
        use PureOp as P;
        match op {
            DP2 => self.replicated_with(|l| l.dot(0, 1, 2)),
            DP3 => self.replicated_with(|l| l.dot(0, 1, 3)),
            DP4 => self.replicated_with(|l| l.dot(0, 1, 4)),
            DPH => self.replicated_with(|l| {
                let d = l.dot(0, 1, 3)?;
                let w = l.comp(1, 3)?;
                Ok(l.p(P::Fadd, &[d, w]))
            }),
            DP2A => self.replicated_with(|l| {
                let d = l.dot(0, 1, 2)?;
                let c = l.comp(2, 0)?;
                Ok(l.p(P::Fadd, &[d, c]))
            }),
            LIT => self.per_channel(|l, chan| match chan {
                1 => {
                    let (x, zero) = (l.comp(0, 0)?, l.fc(0.0));
                    Ok(l.p(P::Fmax, &[x, zero]))
                }
                2 => {
                    // (x > 0) ? max(y, 0) ^ clamp(w, -128, 128) : 0, as Mesa's exec_lit.
                    let (x, y, w) = (l.comp(0, 0)?, l.comp(0, 1)?, l.comp(0, 3)?);
                    let (zero, hi, lo) = (l.fc(0.0), l.fc(128.0), l.fc(-128.0));
                    let base = l.p(P::Fmax, &[y, zero]);
                    let e = l.p(P::Fmin, &[w, hi]);
                    let e = l.p(P::Fmax, &[e, lo]);
                    let pow = l.p(P::Pow, &[base, e]);
                    let lit = l.p(P::Flt, &[zero, x]);
                    Ok(l.sel(lit, pow, zero))
                }
                _ => Ok(l.fc(1.0)),
            }),
            EXP => self.per_channel(|l, chan| {
                let x = l.comp(0, 0)?;
                match chan {
                    0 => {
                        let f = l.p(P::Floor, &[x]);
                        Ok(l.p(P::Exp2, &[f]))
                    }
                    1 => {
                        let f = l.p(P::Floor, &[x]);
                        Ok(l.p(P::Fsub, &[x, f]))
                    }
                    2 => Ok(l.p(P::Exp2, &[x])),
                    _ => Ok(l.fc(1.0)),
                }
            }),
            LOG => self.per_channel(|l, chan| {
                let x = l.comp(0, 0)?;
                let a = l.p(P::Fabs, &[x]);
                let lg = l.p(P::Log2, &[a]);
                match chan {
                    0 => Ok(l.p(P::Floor, &[lg])),
                    1 => {
                        let f = l.p(P::Floor, &[lg]);
                        let e = l.p(P::Exp2, &[f]);
                        Ok(l.p(P::Fdiv, &[a, e]))
                    }
                    2 => Ok(lg),
                    _ => Ok(l.fc(1.0)),
                }
            }),
            DST => self.per_channel(|l, chan| match chan {
                0 => Ok(l.fc(1.0)),
                1 => {
                    let (a, b) = (l.comp(0, 1)?, l.comp(1, 1)?);
                    Ok(l.p(P::Fmul, &[a, b]))
                }
                2 => l.comp(0, 2),
                _ => l.comp(1, 3),
            }),
            XPD => self.per_channel(|l, chan| {
                if chan == 3 {
                    return Ok(l.fc(1.0));
                }
                // dst.x = src0.y * src1.z - src1.y * src0.z, rotating for y and z.
                let (i, j) = ((chan + 1) % 3, (chan + 2) % 3);
                let (a_i, b_j) = (l.comp(0, i)?, l.comp(1, j)?);
                let (b_i, a_j) = (l.comp(1, i)?, l.comp(0, j)?);
                let m1 = l.p(P::Fmul, &[a_i, b_j]);
                let m2 = l.p(P::Fmul, &[b_i, a_j]);
                Ok(l.p(P::Fsub, &[m1, m2]))
            }),
            // The seed writes `dst.y = 1` twice; the second is Mesa's `dst.w = 1`.
            SCS => self.per_channel(|l, chan| {
                let x = l.comp(0, 0)?;
                match chan {
                    0 => Ok(l.p(P::Cos, &[x])),
                    1 => Ok(l.p(P::Sin, &[x])),
                    2 => Ok(l.fc(0.0)),
                    _ => Ok(l.fc(1.0)),
                }
            }),
            // The seed divides by the squared length, an evident typo for a normalisation:
            // Mesa's exec_nrm multiplies by the reciprocal square root of the dot product.
            NRM | NRM4 => {
                let n = if op == NRM { 3 } else { 4 };
                self.per_channel(|l, chan| {
                    if chan >= n {
                        return Ok(l.fc(1.0));
                    }
                    let d = l.dot(0, 0, n)?;
                    let r = l.p(P::Rsqrt, &[d]);
                    let x = l.comp(0, chan)?;
                    Ok(l.p(P::Fmul, &[x, r]))
                })
            }
            RFL => self.per_channel(|l, chan| {
                if chan == 3 {
                    return Ok(l.fc(1.0));
                }
                let d01 = l.dot(0, 1, 3)?;
                let d00 = l.dot(0, 0, 3)?;
                let two = l.fc(2.0);
                let t = l.p(P::Fmul, &[two, d01]);
                let t = l.p(P::Fdiv, &[t, d00]);
                let (a, b) = (l.comp(0, chan)?, l.comp(1, chan)?);
                let m = l.p(P::Fmul, &[t, a]);
                Ok(l.p(P::Fsub, &[m, b]))
            }),
            X2D => self.per_channel(|l, chan| {
                // x (and z): src0.x + src1.x*src2.x + src1.y*src2.y
                // y (and w): src0.y + src1.x*src2.z + src1.y*src2.w
                let row = chan % 2;
                let a = l.comp(0, row)?;
                let (b0, b1) = (l.comp(1, 0)?, l.comp(1, 1)?);
                let (c0, c1) = (l.comp(2, 2 * row)?, l.comp(2, 2 * row + 1)?);
                let m0 = l.p(P::Fmul, &[b0, c0]);
                let m1 = l.p(P::Fmul, &[b1, c1]);
                let s = l.p(P::Fadd, &[a, m0]);
                Ok(l.p(P::Fadd, &[s, m1]))
            }),
            RCC => self.replicated_with(|l| {
                let x = l.comp(0, 0)?;
                let r = l.p(P::Rcp, &[x]);
                let (pos_lo, pos_hi) = (l.fc(5.42101e-020), l.fc(1.884467e+019));
                let (neg_lo, neg_hi) = (l.fc(-1.884467e+019), l.fc(-5.42101e-020));
                let pos = l.clamp(r, pos_lo, pos_hi);
                let neg = l.clamp(r, neg_lo, neg_hi);
                let zero = l.fc(0.0);
                let positive = l.p(P::Fgt, &[r, zero]);
                Ok(l.sel(positive, pos, neg))
            }),
            _ => unreachable!("legacy_op is only dispatched the opcodes above"),
        }
    }

    /// One value computed from any sources, replicated to every written channel.
    fn replicated_with(&mut self, f: impl FnOnce(&mut Self) -> Result<Value>) -> Result<()> {
        if self.dst_mask() == 0 {
            return Ok(());
        }
        let v = f(self)?;
        self.store(0, [Some(v); 4])
    }
}
