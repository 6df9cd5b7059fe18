//! Float operations (see the module docs of `eval` for the reference semantics).

use super::round_float;
use crate::ir::constant::Const;
use crate::ir::types::Type;
// Unordered comparisons and `ne` spell out the NaN case (`partial_cmp` is `None`): rewriting
// `x < y || x > y` as `x != y` would make `fne` true on NaN.
use core::cmp::Ordering::{Equal, Greater, Less};

fn un(args: &[Const], f: impl Fn(f64) -> f64) -> Const {
    let ty = args[0].ty();
    round_float(ty, f(args[0].as_f64()))
}

fn bin(args: &[Const], f: impl Fn(f64, f64) -> f64) -> Const {
    let ty = args[0].ty();
    round_float(ty, f(args[0].as_f64(), args[1].as_f64()))
}

fn cmp(args: &[Const], f: impl Fn(f64, f64) -> bool) -> Const {
    Const::bool(f(args[0].as_f64(), args[1].as_f64()))
}

fn sign_bit(ty: Type) -> u64 {
    1u64 << (ty.bits() - 1)
}

pub fn add(a: &[Const], _: Type) -> Const {
    bin(a, |x, y| x + y)
}
pub fn sub(a: &[Const], _: Type) -> Const {
    bin(a, |x, y| x - y)
}
pub fn mul(a: &[Const], _: Type) -> Const {
    bin(a, |x, y| x * y)
}
pub fn div(a: &[Const], _: Type) -> Const {
    bin(a, |x, y| x / y)
}

pub fn fma(a: &[Const], _: Type) -> Const {
    match a[0].ty() {
        Type::F32 => Const::f32(a[0].as_f32().mul_add(a[1].as_f32(), a[2].as_f32())),
        ty => round_float(
            ty,
            fma_f16_in_f64(a[0].as_f64(), a[1].as_f64(), a[2].as_f64()),
        ),
    }
}

/// `x * y + z` for binary16 operands as an f64 that rounds to binary16 exactly as the exact
/// result would. The product of two f16 significands has 22 bits, so `x * y` is exact in f64; the
/// sum may not be, and rounding it to f64 can land exactly on an f16 halfway point that the exact
/// value is not on (anywhere else the f64 sum and the exact value round alike: halfway points are
/// f64 numbers, so none lies strictly between the two). Two-sum gives the exact rounding error;
/// on a halfway point the sum is moved one f64 step toward the exact value.
fn fma_f16_in_f64(x: f64, y: f64, z: f64) -> f64 {
    let p = x * y;
    let s = p + z;
    let b = s - p;
    let err = (p - (s - b)) + (z - b);
    if !s.is_finite() || err == 0.0 || err.is_nan() {
        return s;
    }
    let on_halfway_point =
        round_float(Type::F16, s.next_down()) != round_float(Type::F16, s.next_up());
    match (on_halfway_point, err > 0.0) {
        (false, _) => s,
        (true, true) => s.next_up(),
        (true, false) => s.next_down(),
    }
}

pub fn neg(a: &[Const], _: Type) -> Const {
    let ty = a[0].ty();
    Const::from_bits(ty, a[0].bits() ^ sign_bit(ty))
}

pub fn abs(a: &[Const], _: Type) -> Const {
    let ty = a[0].ty();
    Const::from_bits(ty, a[0].bits() & !sign_bit(ty))
}

pub fn sat(a: &[Const], _: Type) -> Const {
    let ty = a[0].ty();
    let x = a[0].as_f64();
    if x.is_nan() || x <= 0.0 {
        Const::zero(ty)
    } else if x >= 1.0 {
        round_float(ty, 1.0)
    } else {
        a[0]
    }
}

/// Shared by min and max: NaN loses, and -0 orders below +0.
fn pick(a: &[Const], want_smaller: bool) -> Const {
    let (x, y) = (a[0].as_f64(), a[1].as_f64());
    if x.is_nan() {
        return a[1];
    }
    if y.is_nan() {
        return a[0];
    }
    let x_smaller = if x == y { x.is_sign_negative() } else { x < y };
    if x_smaller == want_smaller {
        a[0]
    } else {
        a[1]
    }
}

pub fn min(a: &[Const], _: Type) -> Const {
    pick(a, true)
}
pub fn max(a: &[Const], _: Type) -> Const {
    pick(a, false)
}
pub fn floor(a: &[Const], _: Type) -> Const {
    un(a, f64::floor)
}
pub fn ceil(a: &[Const], _: Type) -> Const {
    un(a, f64::ceil)
}
pub fn trunc(a: &[Const], _: Type) -> Const {
    un(a, f64::trunc)
}
pub fn round_even(a: &[Const], _: Type) -> Const {
    un(a, f64::round_ties_even)
}

/// `x - floor(x)`, each step rounded in the operand's type (as a shader computing it would).
pub fn fract(a: &[Const], t: Type) -> Const {
    let fl = floor(a, t);
    sub(&[a[0], fl], t)
}

pub fn sqrt(a: &[Const], _: Type) -> Const {
    un(a, f64::sqrt)
}
pub fn rsqrt(a: &[Const], _: Type) -> Const {
    un(a, |x| 1.0 / x.sqrt())
}
pub fn rcp(a: &[Const], _: Type) -> Const {
    un(a, |x| 1.0 / x)
}
pub fn exp2(a: &[Const], _: Type) -> Const {
    un(a, f64::exp2)
}
pub fn log2(a: &[Const], _: Type) -> Const {
    un(a, f64::log2)
}
pub fn sin(a: &[Const], _: Type) -> Const {
    un(a, f64::sin)
}
pub fn cos(a: &[Const], _: Type) -> Const {
    un(a, f64::cos)
}
pub fn pow(a: &[Const], _: Type) -> Const {
    bin(a, f64::powf)
}

pub fn eq(a: &[Const], _: Type) -> Const {
    cmp(a, |x, y| x == y)
}
pub fn ne(a: &[Const], _: Type) -> Const {
    cmp(a, |x, y| matches!(x.partial_cmp(&y), Some(Less | Greater)))
}
pub fn lt(a: &[Const], _: Type) -> Const {
    cmp(a, |x, y| x < y)
}
pub fn le(a: &[Const], _: Type) -> Const {
    cmp(a, |x, y| x <= y)
}
pub fn gt(a: &[Const], _: Type) -> Const {
    cmp(a, |x, y| x > y)
}
pub fn ge(a: &[Const], _: Type) -> Const {
    cmp(a, |x, y| x >= y)
}
pub fn equ(a: &[Const], _: Type) -> Const {
    cmp(a, |x, y| !matches!(x.partial_cmp(&y), Some(Less | Greater)))
}
pub fn neu(a: &[Const], _: Type) -> Const {
    cmp(a, |x, y| x != y)
}
pub fn ltu(a: &[Const], _: Type) -> Const {
    cmp(a, |x, y| {
        !matches!(x.partial_cmp(&y), Some(Greater | Equal))
    })
}
pub fn leu(a: &[Const], _: Type) -> Const {
    cmp(a, |x, y| !matches!(x.partial_cmp(&y), Some(Greater)))
}
pub fn gtu(a: &[Const], _: Type) -> Const {
    cmp(a, |x, y| !matches!(x.partial_cmp(&y), Some(Less | Equal)))
}
pub fn geu(a: &[Const], _: Type) -> Const {
    cmp(a, |x, y| !matches!(x.partial_cmp(&y), Some(Less)))
}
