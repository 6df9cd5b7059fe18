//! The fast engine's arithmetic: 32-lane loops over resolved operands, written without
//! branches in the lane bodies so that they vectorise. Each computes what the reference's
//! `exec::alu` / `exec::float` compute for the same instruction; where the reference works on
//! wider integers (u64, i128) these work on the 32 bits the destination keeps, which is the same
//! value for the wrapping forms translated here (`fast::ops` leaves the others to the
//! reference).

use super::lanes::{check, expand, ftz, get, get_f, write, write_r, Lanes, Result};
use super::ops::{Cmp32, IntTarget, Kind, RoundOp};
use crate::decode::inst::{BitfieldOp, FRel, FUnaryOp, IRel, Reg, StackOp};
use crate::exec::SimdGroup;
use crate::float::{f64_to_f32_rtz, rsqrt_special, sin_pt_1, sin_pt_2, DEFAULT_NAN_32};

/// Finishes an f32 result for a 32-bit destination (saturate, default NaN, flush), as
/// `crate::float::finish32`.
#[inline(always)]
fn finish(x: f32, sat: bool) -> u32 {
    let x = if sat {
        // NaN and values <= 0 to +0, values above 1 to 1.
        if x > 1.0 {
            1.0
        } else if x > 0.0 {
            x
        } else {
            0.0
        }
    } else {
        x
    };
    // Integer tests, so that the lane loops vectorise.
    let bits = x.to_bits();
    if bits & 0x7fff_ffff > 0x7f80_0000 {
        DEFAULT_NAN_32
    } else {
        ftz(bits)
    }
}

#[inline(always)]
fn finish_all(v: &[f32; 32], sat: bool) -> Lanes {
    let mut out = [0; 32];
    if sat {
        for l in 0..32 {
            out[l] = finish(v[l], true);
        }
    } else {
        for l in 0..32 {
            out[l] = finish(v[l], false);
        }
    }
    out
}

/// `a * b + c` rounded once to f32. With `HW_FMA` (the host has a fused multiply-add, see
/// `fast::run`) that is the host's instruction; otherwise the product is computed exactly in
/// f64, the sum's rounding error is recovered with two-sum and the f64 sum rounded to odd, from
/// which the conversion to f32 rounds correctly (as `crate::float::fma_round_to_odd`,
/// branch-free). Both round the exact value once, so they agree on every input.
#[inline(always)]
pub(super) fn fma32<const HW_FMA: bool>(a: f32, b: f32, c: f32) -> f32 {
    if HW_FMA {
        return a.mul_add(b, c);
    }
    let p = f64::from(a) * f64::from(b);
    let cd = f64::from(c);
    let s = p + cd;
    let bb = s - p;
    let err = (p - (s - bb)) + (cd - bb);
    let bits = s.to_bits();
    let inexact = err != 0.0 && s.is_finite() && !err.is_nan();
    let step = if (err > 0.0) == (s > 0.0) {
        1
    } else {
        u64::MAX
    };
    let adjust = if inexact && bits & 1 == 0 { step } else { 0 };
    f64::from_bits(bits.wrapping_add(adjust)) as f32
}

/// Rounds to an integral value (`floor`, `ceil`, `trunc`, `rint` of `f32`) without library
/// calls or integer conversions (which the host cannot do on a vector of lanes without
/// saturation fix-ups): values of magnitude 2^23 and above (and NaN, infinities) are integral
/// already; for the others, adding 2^23 to the magnitude leaves no fraction bits, so the sum
/// is rounded to nearest even, and floor and ceiling of the magnitude are one step from it.
/// The result takes the sign of `x`, as IEEE rounding does.
#[inline(always)]
pub(super) fn round(op: RoundOp, x: f32) -> f32 {
    const TWO_23: f32 = 8_388_608.0;
    let ax = x.abs();
    let near = (ax + TWO_23) - TWO_23;
    let down = if near > ax { near - 1.0 } else { near };
    let up = if near < ax { near + 1.0 } else { near };
    let negative = x.is_sign_negative();
    let magnitude = match op {
        RoundOp::Trunc => down,
        // floor(-a) = -ceil(a), ceil(-a) = -floor(a).
        RoundOp::Floor => {
            if negative {
                up
            } else {
                down
            }
        }
        RoundOp::Ceil => {
            if negative {
                down
            } else {
                up
            }
        }
        RoundOp::Rint => near,
    };
    if ax < TWO_23 {
        magnitude.copysign(x)
    } else {
        x
    }
}

/// [`round`] over the lanes, with the operation chosen outside the lane loop so that each
/// loop vectorises.
#[inline(always)]
fn round_all(op: RoundOp, v: &[f32; 32]) -> [f32; 32] {
    #[inline(always)]
    fn each(v: &[f32; 32], op: RoundOp) -> [f32; 32] {
        let mut out = [0.0; 32];
        for l in 0..32 {
            out[l] = round(op, v[l]);
        }
        out
    }
    match op {
        RoundOp::Floor => each(v, RoundOp::Floor),
        RoundOp::Ceil => each(v, RoundOp::Ceil),
        RoundOp::Trunc => each(v, RoundOp::Trunc),
        RoundOp::Rint => each(v, RoundOp::Rint),
    }
}

/// `f` over the lanes.
#[inline(always)]
fn map_f(v: &[f32; 32], f: impl Fn(f32) -> u32) -> Lanes {
    let mut out = [0; 32];
    for l in 0..32 {
        out[l] = f(v[l]);
    }
    out
}

/// One-source operations other than the roundings, as `exec::float`'s `unary`.
fn unary(op: FUnaryOp, x: f32) -> f32 {
    let xd = f64::from(x);
    match op {
        FUnaryOp::Rcp => 1.0 / x,
        FUnaryOp::Rsqrt => (1.0 / xd.sqrt()) as f32,
        FUnaryOp::RsqrtSpecial => rsqrt_special(xd) as f32,
        FUnaryOp::SinPt1 => sin_pt_1(xd) as f32,
        FUnaryOp::SinPt2 => sin_pt_2(xd) as f32,
        FUnaryOp::Log2 => xd.log2() as f32,
        FUnaryOp::Exp2 => xd.exp2() as f32,
        FUnaryOp::Floor => x.floor(),
        FUnaryOp::Ceil => x.ceil(),
        FUnaryOp::Trunc => x.trunc(),
        FUnaryOp::Rint => x.round_ties_even(),
        // Not translated (`fast::ops`): derivatives read the quad.
        FUnaryOp::Dfdx | FUnaryOp::Dfdy => f32::NAN,
    }
}

/// The lanes of `lanes` where the comparison holds.
#[inline(always)]
fn compare<const CHECK: bool>(
    g: &SimdGroup,
    uniforms: &[u32; 256],
    c: &Cmp32,
    lanes: u32,
) -> Result<u32> {
    let mut bits = 0u32;
    match *c {
        Cmp32::Int {
            rel,
            signed,
            invert,
            a,
            b,
        } => {
            check::<CHECK>(&g.regs, a, lanes)?;
            check::<CHECK>(&g.regs, b, lanes)?;
            let av = get(&g.regs, uniforms, a);
            let bv = get(&g.regs, uniforms, b);
            for l in 0..32 {
                let (x, y) = (av[l], bv[l]);
                let r = match (rel, signed) {
                    (IRel::Eq, _) => x == y,
                    (IRel::Lt, false) => x < y,
                    (IRel::Gt, false) => x > y,
                    (IRel::Lt, true) => (x as i32) < (y as i32),
                    (IRel::Gt, true) => (x as i32) > (y as i32),
                };
                bits |= u32::from(r != invert) << l;
            }
        }
        Cmp32::Float { rel, invert, a, b } => {
            check::<CHECK>(&g.regs, a.s, lanes)?;
            check::<CHECK>(&g.regs, b.s, lanes)?;
            let av = get_f(&g.regs, uniforms, a);
            let bv = get_f(&g.regs, uniforms, b);
            for l in 0..32 {
                let (x, y) = (av[l], bv[l]);
                let r = match rel {
                    FRel::Eq => x == y,
                    FRel::Lt => x < y,
                    FRel::Gt => x > y,
                    FRel::Ge => x >= y,
                    FRel::Le => x <= y,
                    FRel::LtNanLoses => !x.is_nan() && (y.is_nan() || x < y),
                    FRel::GtNanLoses => !x.is_nan() && (y.is_nan() || x > y),
                };
                bits |= u32::from(r != invert) << l;
            }
        }
    }
    Ok(bits)
}

/// `bfi`, `bfeil`, `extr`, `shlhi`, `shrhi` on one lane, as `exec::alu` (shift `s` in 0..128).
#[inline(always)]
fn bitfield(op: BitfieldOp, a: u32, b: u32, s: u32, mask: u32) -> u32 {
    // The low 32 bits of `x << s` and `x >> s` for a 32-bit `x`.
    let shl = |x: u32, s: u32| if s < 32 { x << s } else { 0 };
    let shr = |x: u32, s: u32| if s < 32 { x >> s } else { 0 };
    match op {
        BitfieldOp::Bfi => (a & !shl(mask, s)) | shl(b & mask, s),
        BitfieldOp::Bfeil => (a & !mask) | (shr(b, s) & mask),
        BitfieldOp::Extr => {
            let v = u64::from(b) << 32 | u64::from(a);
            (if s < 64 { v >> s } else { 0 }) as u32 & mask
        }
        BitfieldOp::Shlhi => {
            let shifted_mask = if s > 32 { shl(mask, s - 32) } else { mask };
            // Bits 32..64 of `b << s`.
            let high = if s <= 32 {
                (u64::from(b) << s >> 32) as u32
            } else {
                shl(b, s - 32)
            };
            (high & shifted_mask) | (a & !shifted_mask)
        }
        BitfieldOp::Shrhi => {
            let shifted_mask = ((u64::from(mask) << 32) >> s.min(32)) as u32;
            // Low 32 bits of `(b << 32) >> s`.
            let high = if s < 64 {
                ((u64::from(b) << 32) >> s) as u32
            } else {
                0
            };
            (high & shifted_mask) | (a & !shifted_mask)
        }
    }
}

/// Runs an arithmetic operation (every [`Kind`] but the control, memory and generic ones).
#[inline(always)]
pub(super) fn run<const HW_FMA: bool, const CHECK: bool>(
    uniforms: &[u32; 256],
    g: &mut SimdGroup,
    kind: &Kind,
) -> Result<()> {
    let lanes = g.exec;
    let u = uniforms;
    match *kind {
        Kind::Mov { d, v } => write::<CHECK>(&mut g.regs, d, &[v; 32], lanes),
        Kind::Iadd {
            d,
            a,
            b,
            neg,
            shift,
        } => {
            check::<CHECK>(&g.regs, a, lanes)?;
            check::<CHECK>(&g.regs, b, lanes)?;
            let av = get(&g.regs, u, a);
            let bv = get(&g.regs, u, b);
            let mut r = [0; 32];
            for l in 0..32 {
                let y = if neg { bv[l].wrapping_neg() } else { bv[l] };
                let y = if shift < 32 { y << shift } else { 0 };
                r[l] = av[l].wrapping_add(y);
            }
            write::<CHECK>(&mut g.regs, d, &r, lanes)
        }
        Kind::Imadd {
            d,
            a,
            b,
            c,
            neg,
            shift,
        } => {
            check::<CHECK>(&g.regs, a, lanes)?;
            check::<CHECK>(&g.regs, b, lanes)?;
            check::<CHECK>(&g.regs, c, lanes)?;
            let av = get(&g.regs, u, a);
            let bv = get(&g.regs, u, b);
            let cv = get(&g.regs, u, c);
            let mut r = [0; 32];
            for l in 0..32 {
                let z = if neg { cv[l].wrapping_neg() } else { cv[l] };
                let z = if shift < 32 { z << shift } else { 0 };
                r[l] = av[l].wrapping_mul(bv[l]).wrapping_add(z);
            }
            write::<CHECK>(&mut g.regs, d, &r, lanes)
        }
        Kind::Imadd64 {
            d,
            a,
            b,
            c,
            sx,
            neg,
            shift,
        } => {
            check::<CHECK>(&g.regs, a, lanes)?;
            check::<CHECK>(&g.regs, b, lanes)?;
            check::<CHECK>(&g.regs, c, lanes)?;
            let av = get(&g.regs, u, a);
            let bv = get(&g.regs, u, b);
            let cv = get(&g.regs, u, c);
            let ext = |v: u32, s: bool| {
                if s {
                    v as i32 as i64 as u64
                } else {
                    u64::from(v)
                }
            };
            let (mut lo, mut hi) = ([0; 32], [0; 32]);
            for l in 0..32 {
                let z = ext(cv[l], sx[2]);
                let z = if neg { z.wrapping_neg() } else { z };
                let z = if shift < 5 { z << shift } else { 0 };
                let r = ext(av[l], sx[0])
                    .wrapping_mul(ext(bv[l], sx[1]))
                    .wrapping_add(z);
                lo[l] = r as u32;
                hi[l] = (r >> 32) as u32;
            }
            // The reference's checks of the pair's four halves, in order, before either row
            // changes; then the rows without further checks.
            if CHECK {
                g.regs.prepare_write(Reg::R64(d), lanes)?;
            }
            write_r::<false>(&mut g.regs, d, &lo, lanes)?;
            write_r::<false>(&mut g.regs, d + 1, &hi, lanes)
        }
        Kind::Bitop { d, a, b, t } => {
            check::<CHECK>(&g.regs, a, lanes)?;
            check::<CHECK>(&g.regs, b, lanes)?;
            let av = get(&g.regs, u, a);
            let bv = get(&g.regs, u, b);
            let mut r = [0; 32];
            for l in 0..32 {
                let (x, y) = (av[l], bv[l]);
                r[l] = (!x & !y & t[0]) | (x & !y & t[1]) | (!x & y & t[2]) | (x & y & t[3]);
            }
            write::<CHECK>(&mut g.regs, d, &r, lanes)
        }
        Kind::Table { op, d, s } => {
            let f = crate::exec::table::eval(op)
                .expect("invariant: every generic form has semantics (exec::table test)");
            for x in s {
                check::<CHECK>(&g.regs, x, lanes)?;
            }
            let v = s.map(|x| get(&g.regs, u, x));
            let mut r = [0; 32];
            for l in 0..32 {
                r[l] = f(&[v[0][l], v[1][l], v[2][l]]);
            }
            write::<CHECK>(&mut g.regs, d, &r, lanes)
        }
        Kind::Bitfield {
            op,
            d,
            a,
            b,
            c,
            mask,
        } => {
            check::<CHECK>(&g.regs, a, lanes)?;
            check::<CHECK>(&g.regs, b, lanes)?;
            check::<CHECK>(&g.regs, c, lanes)?;
            let av = get(&g.regs, u, a);
            let bv = get(&g.regs, u, b);
            let cv = get(&g.regs, u, c);
            let mut r = [0; 32];
            // One loop per operation, so that each is a straight loop over the lanes.
            macro_rules! lanes {
                ($op:expr) => {
                    for l in 0..32 {
                        r[l] = bitfield($op, av[l], bv[l], cv[l] & 0x7f, mask);
                    }
                };
            }
            match op {
                BitfieldOp::Bfi => lanes!(BitfieldOp::Bfi),
                BitfieldOp::Bfeil => lanes!(BitfieldOp::Bfeil),
                BitfieldOp::Extr => lanes!(BitfieldOp::Extr),
                BitfieldOp::Shlhi => lanes!(BitfieldOp::Shlhi),
                BitfieldOp::Shrhi => lanes!(BitfieldOp::Shrhi),
            }
            write::<CHECK>(&mut g.regs, d, &r, lanes)
        }
        Kind::Asr { high, d, a, b } => {
            check::<CHECK>(&g.regs, a, lanes)?;
            check::<CHECK>(&g.regs, b, lanes)?;
            let av = get(&g.regs, u, a);
            let bv = get(&g.regs, u, b);
            let mut r = [0; 32];
            if high {
                for l in 0..32 {
                    let v = i64::from(av[l] as i32) << 32;
                    r[l] = (v >> (bv[l] & 0x7f).min(63)) as u32;
                }
            } else {
                // A 32-bit arithmetic shift by 31 or more is the sign fill, as the reference's
                // 128-bit one is.
                for l in 0..32 {
                    r[l] = ((av[l] as i32) >> (bv[l] & 0x7f).min(31)) as u32;
                }
            }
            write::<CHECK>(&mut g.regs, d, &r, lanes)
        }
        Kind::IntToF32 { d, a, signed, rte } => {
            check::<CHECK>(&g.regs, a, lanes)?;
            let av = get(&g.regs, u, a);
            let mut r = [0; 32];
            if rte {
                // 32-bit integers convert to f32 with one rounding to nearest even, as the
                // reference's conversion through i64 does; these forms vectorise.
                if signed {
                    for l in 0..32 {
                        r[l] = finish(av[l] as i32 as f32, false);
                    }
                } else {
                    for l in 0..32 {
                        r[l] = finish(av[l] as f32, false);
                    }
                }
            } else {
                for l in 0..32 {
                    let v = if signed {
                        i64::from(av[l] as i32)
                    } else {
                        i64::from(av[l])
                    };
                    r[l] = finish(f64_to_f32_rtz(v as f64), false);
                }
            }
            write_r::<CHECK>(&mut g.regs, d, &r, lanes)
        }
        Kind::F32ToInt { d, a, to, rte } => {
            check::<CHECK>(&g.regs, a.s, lanes)?;
            let av = get_f(&g.regs, u, a);
            // Round (integers of f32 are exact, so rounding in f32 is rounding in f64), then
            // Rust's saturating conversion: NaN to 0, out-of-range values to the bounds, which
            // is the reference's clamp. The choices are made outside the lane loops.
            let x = if rte {
                round_all(RoundOp::Rint, &av)
            } else {
                av
            };
            let r = match to {
                IntTarget::S32 => map_f(&x, |x| x as i32 as u32),
                IntTarget::U32 => map_f(&x, |x| x as u32),
                IntTarget::S16 => map_f(&x, |x| (x as i32).clamp(-32768, 32767) as u32),
                IntTarget::U16 => map_f(&x, |x| (x as i32).clamp(0, 65535) as u32),
            };
            write::<CHECK>(&mut g.regs, d, &r, lanes)
        }
        Kind::Fadd { d, a, b, sat } => {
            check::<CHECK>(&g.regs, a.s, lanes)?;
            check::<CHECK>(&g.regs, b.s, lanes)?;
            let av = get_f(&g.regs, u, a);
            let bv = get_f(&g.regs, u, b);
            let mut r = [0.0; 32];
            for l in 0..32 {
                r[l] = av[l] + bv[l];
            }
            write_r::<CHECK>(&mut g.regs, d, &finish_all(&r, sat), lanes)
        }
        Kind::Fmul { d, a, b, sat } => {
            check::<CHECK>(&g.regs, a.s, lanes)?;
            check::<CHECK>(&g.regs, b.s, lanes)?;
            let av = get_f(&g.regs, u, a);
            let bv = get_f(&g.regs, u, b);
            let mut r = [0.0; 32];
            for l in 0..32 {
                r[l] = av[l] * bv[l];
            }
            write_r::<CHECK>(&mut g.regs, d, &finish_all(&r, sat), lanes)
        }
        Kind::Fma { d, a, b, c, sat } => {
            check::<CHECK>(&g.regs, a.s, lanes)?;
            check::<CHECK>(&g.regs, b.s, lanes)?;
            check::<CHECK>(&g.regs, c.s, lanes)?;
            let av = get_f(&g.regs, u, a);
            let bv = get_f(&g.regs, u, b);
            let cv = get_f(&g.regs, u, c);
            let mut r = [0.0; 32];
            for l in 0..32 {
                r[l] = fma32::<HW_FMA>(av[l], bv[l], cv[l]);
            }
            write_r::<CHECK>(&mut g.regs, d, &finish_all(&r, sat), lanes)
        }
        Kind::FRound { op, d, a, sat } => {
            check::<CHECK>(&g.regs, a.s, lanes)?;
            let av = get_f(&g.regs, u, a);
            let r = round_all(op, &av);
            write_r::<CHECK>(&mut g.regs, d, &finish_all(&r, sat), lanes)
        }
        Kind::FUnary { op, d, a, sat } => {
            check::<CHECK>(&g.regs, a.s, lanes)?;
            let av = get_f(&g.regs, u, a);
            let mut r = [0.0; 32];
            for l in 0..32 {
                r[l] = unary(op, av[l]);
            }
            write_r::<CHECK>(&mut g.regs, d, &finish_all(&r, sat), lanes)
        }
        Kind::Select { d, ref cmp, x, y } => {
            let bits = compare::<CHECK>(g, u, cmp, lanes)?;
            check::<CHECK>(&g.regs, x, lanes)?;
            check::<CHECK>(&g.regs, y, lanes)?;
            let xv = get(&g.regs, u, x);
            let yv = get(&g.regs, u, y);
            let m = expand(bits);
            let mut r = [0; 32];
            for l in 0..32 {
                r[l] = (xv[l] & m[l]) | (yv[l] & !m[l]);
            }
            write::<CHECK>(&mut g.regs, d, &r, lanes)
        }
        Kind::PopExec { n } => {
            check_r0l(g)?;
            let v = get(&g.regs, u, R0L);
            let mut r = [0; 32];
            for l in 0..32 {
                r[l] = v[l].saturating_sub(n);
            }
            set_r0l(g, &r)
        }
        Kind::ExecStack { op, ref cmp, n } => {
            check_r0l(g)?;
            let v = get(&g.regs, u, R0L);
            // Only threads with r0l == 0 (if/else: == 0 or == 1) evaluate the comparison.
            let mut evaluating = 0u32;
            for (l, &x) in v.iter().enumerate() {
                let e = match op {
                    StackOp::If => x == 0,
                    StackOp::Else => x == 1,
                    StackOp::While => x < n,
                };
                evaluating |= u32::from(e) << l;
            }
            evaluating &= g.live;
            let cond = if evaluating != 0 {
                compare::<CHECK>(g, u, cmp, evaluating)?
            } else {
                0
            };
            let c = expand(cond);
            let mut r = [0; 32];
            for l in 0..32 {
                let (x, c) = (v[l], c[l] != 0);
                r[l] = match op {
                    StackOp::If => {
                        if x != 0 {
                            (x + n) & 0xffff
                        } else {
                            u32::from(!c)
                        }
                    }
                    StackOp::Else => {
                        if x == 0 {
                            n
                        } else if x == 1 {
                            u32::from(!c)
                        } else {
                            x
                        }
                    }
                    StackOp::While => {
                        if x < n {
                            if c {
                                0
                            } else {
                                n
                            }
                        } else {
                            x
                        }
                    }
                };
            }
            set_r0l(g, &r)
        }
        // Control, memory and generic operations are run by the caller.
        Kind::Generic
        | Kind::GetSr { .. }
        | Kind::LdVar { .. }
        | Kind::Device { .. }
        | Kind::JmpExecAny(_)
        | Kind::JmpExecNone(_)
        | Kind::Stop
        | Kind::Wait(_) => Ok(()),
    }
}

/// `r0l` of every thread that exists (the execution-mask stack reads it whatever the mask).
#[inline(always)]
fn check_r0l(g: &SimdGroup) -> Result<()> {
    check::<true>(&g.regs, R0L, g.live)
}

const R0L: super::ops::Src32 = super::ops::Src32::H(0);

/// Writes `r0l` for every thread that exists and recomputes the execution mask from it, as
/// the reference's `set_r0l`.
#[inline(always)]
fn set_r0l(g: &mut SimdGroup, v: &Lanes) -> Result<()> {
    g.regs.prepare_write(Reg::Half(0), g.live)?;
    g.regs.set_half(0, v, g.live);
    let mut exec = 0u32;
    for (l, &x) in v.iter().enumerate() {
        exec |= u32::from(x & 0xffff == 0) << l;
    }
    g.exec = exec & g.live;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{round, RoundOp};

    /// `round` against the standard library's roundings, bit for bit (signed zeros included),
    /// on the edges: halves, values next to 2^23 and 2^24, zeros, denormals, infinities, NaN,
    /// and a sweep of bit patterns.
    #[test]
    fn round_matches_the_standard_library() {
        let mut values = vec![
            0.0f32,
            -0.0,
            0.5,
            -0.5,
            1.5,
            -1.5,
            2.5,
            -2.5,
            8_388_607.5,
            -8_388_607.5,
            8_388_608.0,
            -8_388_608.0,
            16_777_215.0,
            16_777_216.0,
            1e-45,
            -1e-45,
            f32::MIN_POSITIVE,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::MAX,
            f32::MIN,
        ];
        // The largest float below one half, and its negation.
        values.extend([f32::from_bits(0x3eff_ffff), f32::from_bits(0xbeff_ffff)]);
        values.extend((0..=u32::MAX).step_by(65_537).map(f32::from_bits));
        for x in values {
            for (op, want) in [
                (RoundOp::Floor, x.floor()),
                (RoundOp::Ceil, x.ceil()),
                (RoundOp::Trunc, x.trunc()),
                (RoundOp::Rint, x.round_ties_even()),
            ] {
                let got = round(op, x);
                assert!(
                    got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                    "{op:?}({x:e} = {:#x}) = {got:e}, want {want:e}",
                    x.to_bits()
                );
            }
        }
    }
}
