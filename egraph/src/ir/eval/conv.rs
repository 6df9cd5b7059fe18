//! Conversions (see the module docs of `eval` for rounding and saturation).

use super::round_float;
use crate::ir::constant::Const;
use crate::ir::types::Type;

pub fn fcvt(a: &[Const], to: Type) -> Const {
    round_float(to, a[0].as_f64())
}
pub fn uext(a: &[Const], to: Type) -> Const {
    Const::from_bits(to, a[0].bits())
}
pub fn sext(a: &[Const], to: Type) -> Const {
    Const::from_bits(to, a[0].as_i64() as u64)
}
pub fn itrunc(a: &[Const], to: Type) -> Const {
    Const::from_bits(to, a[0].bits())
}

pub fn f2u(a: &[Const], to: Type) -> Const {
    let x = a[0].as_f64();
    if x.is_nan() {
        return Const::zero(to);
    }
    let max = to.mask() as f64;
    // `max` rounds up to 2^w for w = 64; `as u64` saturates there anyway.
    let t = x.trunc().clamp(0.0, max);
    Const::from_bits(to, t as u64)
}

pub fn f2s(a: &[Const], to: Type) -> Const {
    f64_to_signed(a[0].as_f64(), to)
}

/// `x` truncated toward zero and saturated to the signed integer type `to`; NaN is 0 (the
/// rule of `f2s`, for any f64, so that callers holding an exact f64 round only once).
pub(crate) fn f64_to_signed(x: f64, to: Type) -> Const {
    if x.is_nan() {
        return Const::zero(to);
    }
    let w = to.bits();
    let min = -(2f64.powi(w as i32 - 1));
    let max = 2f64.powi(w as i32 - 1) - 1.0;
    let t = x.trunc().clamp(min, max);
    Const::from_bits(to, t as i64 as u64)
}

pub fn u2f(a: &[Const], to: Type) -> Const {
    let v = a[0].bits();
    match to {
        // Direct conversion rounds once; going through f64 could round twice for large u64.
        Type::F32 => Const::f32(v as f32),
        // f16's range is tiny: anything >= 65520 rounds to infinity either way, and smaller
        // integers are exact in f64, so one rounding happens.
        _ => round_float(to, v as f64),
    }
}

pub fn s2f(a: &[Const], to: Type) -> Const {
    let v = a[0].as_i64();
    match to {
        Type::F32 => Const::f32(v as f32),
        _ => round_float(to, v as f64),
    }
}

pub fn bitcast(a: &[Const], to: Type) -> Const {
    Const::from_bits(to, a[0].bits())
}
