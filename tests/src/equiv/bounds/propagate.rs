//! How an uncertainty in the operands of a pure operation carries to its result.
//!
//! Most float operations are monotone in each operand separately (with the others fixed):
//! `fadd`, `fsub`, `fmul`, `fma`, `fdiv` and `rcp` away from a zero divisor, `fmin`, `fmax`,
//! the roundings, `fsat`, `sqrt`, `rsqrt`, `exp2`, `log2`, `pow` on a positive base, `fcvt`,
//! `f2u`, `f2s` and the ordered comparisons. Over a box of operands such a function takes its
//! extremes at the box's corners, and since rounding is monotone too, the implementation's
//! rounded result lies between the reference evaluations (`PureOp::eval`, the one definition of
//! each operation) at the corners, each operand moved outward to the next representable value.
//! The rest are handled by their own facts: `fneg` and `fabs` and `sin`/`cos` are
//! 1-Lipschitz, `fract` is monotone between integers and within `[0, 1]` across them, `feq`
//! and friends flip when the operands' intervals meet, poles (a divisor interval containing
//! zero) and non-positive bases of `pow` are unknown, and integer results are exact or
//! unknown.
//!
//! A corner whose result changes class (NaN, infinity, finite) makes the result unknown: the
//! bound's promise is that a finite bound keeps NaN-ness and infinities exactly.

use super::Sv;
use crate::equiv::model::{ErrorModel, UNKNOWN};
use agxc_egraph::ir::{Const, InstFlags, PureOp, Type};
use half::f16;

/// The result of `op` (with `flags`) on `args` with its bound.
pub fn pure(op: PureOp, flags: InstFlags, args: &[Sv], ty: Type, model: &ErrorModel) -> Sv {
    let vals: Vec<Const> = args.iter().map(|a| a.v).collect();
    let r = op.eval(&vals, ty);
    if op == PureOp::Select {
        return Sv {
            v: r,
            e: select(args, r),
        };
    }
    // Operand uncertainty as the implementation sees it. A NaN or infinite operand with a
    // finite bound is exactly that value on the other side too.
    let errs: Vec<f64> = args
        .iter()
        .map(|a| {
            if a.e.is_infinite() {
                UNKNOWN
            } else if a.v.ty().is_float() && !a.v.as_f64().is_finite() {
                0.0
            } else {
                a.e + model.operand(op, a.v)
            }
        })
        .collect();
    let e = bound(op, flags, &vals, &errs, r, model);
    Sv { v: r, e }
}

fn bound(
    op: PureOp,
    flags: InstFlags,
    vals: &[Const],
    errs: &[f64],
    r: Const,
    model: &ErrorModel,
) -> f64 {
    let exact = errs.iter().all(|&e| e == 0.0);
    let float_args = vals.first().is_some_and(|a| a.ty().is_float());
    let ty = r.ty();
    if !ty.is_float() {
        // Integer and bool results: exact or unknown.
        if exact {
            return if op == PureOp::Bitcast && vals[0].is_nan() {
                // NaN payloads are not part of the contract.
                UNKNOWN
            } else {
                0.0
            };
        }
        if errs.iter().any(|e| e.is_infinite()) || !float_args || op == PureOp::Bitcast {
            return UNKNOWN;
        }
        return match op {
            PureOp::Feq | PureOp::Fne | PureOp::Fequ | PureOp::Fneu => {
                let (a, b) = (vals[0].as_f64(), vals[1].as_f64());
                if a.is_nan() || b.is_nan() || (a - b).abs() > errs[0] + errs[1] {
                    0.0
                } else {
                    UNKNOWN
                }
            }
            // Ordered and unordered comparisons, f2u, f2s: monotone.
            _ => match corners(op, vals, errs, ty) {
                Some(cs) if cs.iter().all(|c| c.bits() == r.bits()) => 0.0,
                _ => UNKNOWN,
            },
        };
    }
    if !float_args {
        // u2f, s2f, bitcast from an integer.
        return if exact {
            model.local(op, flags, vals, r, (r.as_f64().abs(), r.as_f64().abs()))
        } else {
            UNKNOWN
        };
    }
    if errs.iter().any(|e| e.is_infinite()) {
        return UNKNOWN;
    }
    let rv = r.as_f64();
    let (spread, mags) = if exact {
        (0.0, (rv.abs(), rv.abs()))
    } else {
        match spread(op, vals, errs, r) {
            Some(s) => s,
            None => return UNKNOWN,
        }
    };
    let local = model.local(op, flags, vals, r, mags);
    if local.is_infinite() {
        return UNKNOWN;
    }
    if !rv.is_finite() {
        // The result's class is kept (checked at the corners); a local error near an overflow
        // could make it finite, which `local` reports as unknown.
        return 0.0;
    }
    let mut e = spread + local;
    if e == 0.0 && !exact && rv == 0.0 {
        // The value is zero either way, but its sign may differ.
        e = f64::MIN_POSITIVE;
    }
    if rv.abs() + e > max_finite(ty) {
        return UNKNOWN;
    }
    e
}

/// How far the result may move with its operands, and the smallest and largest magnitude it
/// takes; `None` if unknown.
fn spread(op: PureOp, vals: &[Const], errs: &[f64], r: Const) -> Option<(f64, (f64, f64))> {
    let ty = r.ty();
    let rv = r.as_f64();
    let x = vals[0].as_f64();
    let lipschitz = |e: f64, cap: f64| {
        // Rounding the other side's result adds at most an ULP at the result's magnitude.
        let e = e.min(cap) + crate::equiv::model::ulp(ty, rv.abs() + e);
        Some((e, ((rv.abs() - e).max(0.0), rv.abs() + e)))
    };
    match op {
        PureOp::Fneg | PureOp::Fabs => {
            let e = errs[0];
            Some((e, ((rv.abs() - e).max(0.0), rv.abs() + e)))
        }
        PureOp::Sin | PureOp::Cos => {
            if x.abs() + errs[0] > max_finite(vals[0].ty()) {
                return None;
            }
            lipschitz(errs[0], 2.0)
        }
        PureOp::Fract => {
            let lo = outward(vals[0].ty(), x - errs[0], false).as_f64();
            let hi = outward(vals[0].ty(), x + errs[0], true).as_f64();
            if lo.floor() == hi.floor() {
                from_corners(op, vals, errs, r)
            } else {
                // fract is within [0, 1] wherever the operand is finite.
                Some((1.0, (0.0, 1.0)))
            }
        }
        PureOp::Fdiv | PureOp::Rcp => {
            let d = if op == PureOp::Fdiv { 1 } else { 0 };
            let (dv, de) = (vals[d].as_f64(), errs[d]);
            if de > 0.0 && dv.abs() <= de {
                return None;
            }
            from_corners(op, vals, errs, r)
        }
        PureOp::Pow => {
            let (y, ye) = (vals[1].as_f64(), errs[1]);
            if (errs[0] > 0.0 && x - errs[0] <= 0.0) || (ye > 0.0 && x < 0.0) || y.is_nan() {
                return None;
            }
            from_corners(op, vals, errs, r)
        }
        _ => from_corners(op, vals, errs, r),
    }
}

/// The spread over the corners of a monotone operation.
fn from_corners(op: PureOp, vals: &[Const], errs: &[f64], r: Const) -> Option<(f64, (f64, f64))> {
    let rv = r.as_f64();
    let cs = corners(op, vals, errs, r.ty())?;
    let mut spread: f64 = 0.0;
    let (mut lo, mut hi) = (rv.abs(), rv.abs());
    for c in cs {
        let cv = c.as_f64();
        let same_class = if rv.is_nan() {
            cv.is_nan()
        } else if rv.is_infinite() {
            cv == rv
        } else {
            cv.is_finite()
        };
        if !same_class {
            return None;
        }
        if rv.is_finite() {
            spread = spread.max((cv - rv).abs());
            lo = lo.min(cv.abs());
            hi = hi.max(cv.abs());
        }
    }
    // Between corners of opposite signs the result passes through zero.
    Some((spread, (lo, hi)))
}

/// The reference evaluations at the corners of the operand box (each uncertain operand moved
/// outward to the next representable value of its type, clamped to the finite range).
fn corners(op: PureOp, vals: &[Const], errs: &[f64], ty: Type) -> Option<Vec<Const>> {
    let mut choices: Vec<Vec<Const>> = Vec::with_capacity(vals.len());
    for (&v, &e) in vals.iter().zip(errs) {
        if e == 0.0 || !v.ty().is_float() {
            if e != 0.0 {
                return None;
            }
            choices.push(vec![v]);
        } else {
            let x = v.as_f64();
            choices.push(vec![
                outward(v.ty(), x - e, false),
                outward(v.ty(), x + e, true),
            ]);
        }
    }
    let mut out = Vec::new();
    let n: usize = choices.iter().map(Vec::len).product();
    for k in 0..n {
        let mut rest = k;
        let args: Vec<Const> = choices
            .iter()
            .map(|c| {
                let pick = c[rest % c.len()];
                rest /= c.len();
                pick
            })
            .collect();
        out.push(op.eval(&args, ty));
    }
    Some(out)
}

/// The value of float type `ty` nearest to `x` on the outside (`up`: the smallest one at or
/// above it; else the largest at or below), clamped to the finite range.
fn outward(ty: Type, x: f64, up: bool) -> Const {
    let max = max_finite(ty);
    let x = x.clamp(-max, max);
    match ty {
        Type::F16 => {
            let mut h = f16::from_f64(x);
            // `half`'s conversion is within one step; fix the direction by stepping.
            while up && h.to_f64() < x {
                h = step_f16(h, true);
            }
            while !up && h.to_f64() > x {
                h = step_f16(h, false);
            }
            Const::f16(h)
        }
        _ => {
            let f = x as f32;
            let f = if up && f64::from(f) < x {
                f.next_up()
            } else if !up && f64::from(f) > x {
                f.next_down()
            } else {
                f
            };
            Const::f32(f)
        }
    }
}

/// The next f16 value up or down (finite inputs).
fn step_f16(h: f16, up: bool) -> f16 {
    let bits = h.to_bits();
    let negative = bits & 0x8000 != 0;
    let magnitude = bits & 0x7fff;
    let next = match (up, negative) {
        // Away from zero on the positive side, toward it on the negative side.
        (true, false) => bits + 1,
        (false, true) => bits + 1,
        (true, true) if magnitude == 0 => 0x0001,
        (true, true) => bits - 1,
        (false, false) if magnitude == 0 => 0x8001,
        (false, false) => bits - 1,
    };
    f16::from_bits(next)
}

/// The largest finite value of a float type.
pub fn max_finite(ty: Type) -> f64 {
    match ty {
        Type::F16 => 65504.0,
        _ => f64::from(f32::MAX),
    }
}

/// `select(c, a, b)`: if the condition may flip, the other side may pick the other operand.
fn select(args: &[Sv], r: Const) -> f64 {
    let (c, a, b) = (args[0], args[1], args[2]);
    let chosen = if c.v.as_bool() { a } else { b };
    if c.e == 0.0 {
        return chosen.e;
    }
    let other = if c.v.as_bool() { b } else { a };
    if !r.ty().is_float() {
        let same = a.e == 0.0 && b.e == 0.0 && a.v.bits() == b.v.bits();
        return if same { 0.0 } else { UNKNOWN };
    }
    let (x, y) = (chosen.v.as_f64(), other.v.as_f64());
    if x.is_finite() && y.is_finite() {
        let e = chosen.e.max((x - y).abs() + other.e);
        if e == 0.0 && x.to_bits() != y.to_bits() {
            // +0 and -0.
            f64::MIN_POSITIVE
        } else {
            e
        }
    } else if (x.is_nan() && y.is_nan()) || (x == y && chosen.e == 0.0 && other.e == 0.0) {
        0.0
    } else {
        UNKNOWN
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exact(v: Const) -> Sv {
        Sv { v, e: 0.0 }
    }

    fn fuzzy(v: Const, e: f64) -> Sv {
        Sv { v, e }
    }

    const NONE: ErrorModel = ErrorModel {
        rules: crate::equiv::model::Rules::None,
        g13: false,
    };

    fn run(op: PureOp, args: &[Sv], ty: Type) -> Sv {
        pure(op, InstFlags::NONE, args, ty, &NONE)
    }

    #[test]
    fn exact_operands_give_exact_results() {
        let r = run(
            PureOp::Fadd,
            &[exact(Const::f32(1.0)), exact(Const::f32(2.0))],
            Type::F32,
        );
        assert_eq!((r.v, r.e), (Const::f32(3.0), 0.0));
    }

    #[test]
    fn sums_add_their_uncertainties() {
        // 1 ± 2^-10 plus 2 ± 2^-10 lies in [3 - 2^-9, 3 + 2^-9]; all of these are f32 values.
        let d = 2f64.powi(-10);
        let r = run(
            PureOp::Fadd,
            &[fuzzy(Const::f32(1.0), d), fuzzy(Const::f32(2.0), d)],
            Type::F32,
        );
        assert_eq!(r.e, 2.0 * d);
    }

    #[test]
    fn products_scale_uncertainties_by_the_other_operand() {
        // (4 ± 1/4) * 8 is within [30, 34]: 2 off.
        let r = run(
            PureOp::Fmul,
            &[fuzzy(Const::f32(4.0), 0.25), exact(Const::f32(8.0))],
            Type::F32,
        );
        assert_eq!(r.e, 2.0);
    }

    #[test]
    fn division_by_an_interval_around_zero_is_unknown() {
        let r = run(
            PureOp::Fdiv,
            &[exact(Const::f32(1.0)), fuzzy(Const::f32(0.5), 1.0)],
            Type::F32,
        );
        assert!(r.e.is_infinite());
    }

    #[test]
    fn comparisons_flip_only_when_intervals_meet() {
        let lt = |a: f32, ea: f64, b: f32| {
            run(
                PureOp::Flt,
                &[fuzzy(Const::f32(a), ea), exact(Const::f32(b))],
                Type::Bool,
            )
            .e
        };
        assert_eq!(lt(1.0, 0.25, 2.0), 0.0);
        assert!(lt(1.0, 1.5, 2.0).is_infinite());
        let eq = run(
            PureOp::Feq,
            &[fuzzy(Const::f32(1.0), 0.5), exact(Const::f32(1.25))],
            Type::Bool,
        );
        assert!(eq.e.is_infinite());
    }

    #[test]
    fn a_nan_with_a_finite_bound_stays_nan() {
        let r = run(
            PureOp::Fadd,
            &[
                fuzzy(Const::f32(f32::NAN), 1.0),
                fuzzy(Const::f32(1.0), 0.5),
            ],
            Type::F32,
        );
        assert!(r.v.is_nan());
        assert_eq!(r.e, 0.0);
    }

    #[test]
    fn infinity_times_an_interval_through_zero_is_unknown() {
        let r = run(
            PureOp::Fmul,
            &[
                exact(Const::f32(f32::INFINITY)),
                fuzzy(Const::f32(0.5), 1.0),
            ],
            Type::F32,
        );
        assert!(r.e.is_infinite());
    }

    #[test]
    fn floor_of_an_interval_inside_one_integer_is_exact() {
        let r = run(PureOp::Floor, &[fuzzy(Const::f32(2.5), 0.25)], Type::F32);
        assert_eq!((r.v, r.e), (Const::f32(2.0), 0.0));
        let r = run(PureOp::Floor, &[fuzzy(Const::f32(2.5), 0.75)], Type::F32);
        assert_eq!(r.e, 1.0);
    }

    #[test]
    fn a_select_on_an_uncertain_condition_spans_both_operands() {
        let r = run(
            PureOp::Select,
            &[
                fuzzy(Const::bool(true), UNKNOWN),
                exact(Const::f32(1.0)),
                fuzzy(Const::f32(4.0), 0.5),
            ],
            Type::F32,
        );
        assert_eq!((r.v, r.e), (Const::f32(1.0), 3.5));
    }

    #[test]
    fn f16_outward_rounding_brackets_the_value() {
        let x = 1.0 + 2f64.powi(-12);
        assert_eq!(outward(Type::F16, x, true).as_f64(), 1.0 + 2f64.powi(-10));
        assert_eq!(outward(Type::F16, x, false).as_f64(), 1.0);
        assert_eq!(
            outward(Type::F16, -x, false).as_f64(),
            -1.0 - 2f64.powi(-10)
        );
        assert_eq!(outward(Type::F16, 1e9, true).as_f64(), 65504.0);
    }
}
