//! Evaluation functions of the pure operations: the project's reference semantics.
//!
//! These are the only definitions of what each operation computes. The interpreter runs them per
//! lane, the optimizer folds constants with them, and rule soundness tests compare both sides of a
//! rule through them.
//!
//! # Reference floating-point semantics
//! - f32 and f16 are IEEE 754 with round-to-nearest-even and denormals kept (targets that flush, as
//!   the G13 does for f32, are compared with a tolerance that treats denormals as zero).
//! - Add, subtract, multiply, divide, square root and conversions are correctly rounded (computed
//!   exactly or in f64, whose 53-bit significand makes the second rounding innocuous for binary32
//!   and binary16). `fma` rounds once (`f32::mul_add`; for f16 the product is exact in f64 and the
//!   sum's rounding error is carried into the final rounding, see `float::fma`). Rounding to f16
//!   is done by [`round_float`], never by `half`'s host-dependent conversion.
//! - Transcendentals (`sin`, `cos`, `exp2`, `log2`, `pow`, `rsqrt`) are computed in f64 from the
//!   exact operand and rounded once. Vulkan only requires a few ULP for these, so consumers
//!   compare them with a stated tolerance.
//! - NaN results carry whatever payload the host produces; comparisons of results treat every NaN
//!   as equal to every other NaN.
//!
//! # Reference integer semantics where SPIR-V/Vulkan leave behaviour undefined
//! - Shift amounts are taken modulo the bit width (as NIR and most GPUs do).
//! - Division by zero: unsigned quotient all ones, signed quotient -1, remainder the dividend
//!   (RISC-V's definition); signed `MIN / -1` is `MIN` with remainder 0.
//! - Float-to-integer conversion truncates toward zero and saturates to the target range; NaN
//!   converts to 0 (Rust's `as`).
//! - Bitfield offsets and counts are clamped to the width.

pub(crate) mod conv;
pub(crate) mod float;
pub(crate) mod int;

use super::constant::Const;
use super::types::Type;
use half::f16;

/// Rounds an f64 to the float type `ty` (`F16` or `F32`) once, to nearest even.
///
/// Every evaluation that produces an `f16` goes through here rather than `half::f16::from_f64`:
/// that one is not correctly rounded and depends on the host (with F16C it rounds to f32 first, a
/// double rounding; without, it drops the low 32 bits of the f64 significand before rounding, so
/// it misses sticky bits), and the reference semantics must be the same on every machine.
pub(crate) fn round_float(ty: Type, v: f64) -> Const {
    match ty {
        Type::F16 => Const::f16(f16::from_bits(f64_to_f16_bits(v))),
        _ => Const::f32(v as f32),
    }
}

/// Correctly rounded (ties to even) binary64 to binary16 conversion, denormals and overflow
/// included. NaN keeps its sign and the top bits of its payload and is made quiet.
fn f64_to_f16_bits(v: f64) -> u16 {
    let bits = v.to_bits();
    let sign = ((bits >> 48) & 0x8000) as u16;
    if v.is_nan() {
        return sign | 0x7e00 | ((bits >> 42) & 0x01ff) as u16;
    }
    let a = v.abs();
    // 65520 is halfway between the largest finite f16 (65504, odd significand) and 2^16: it and
    // everything above round to infinity.
    if a >= 65520.0 {
        return sign | 0x7c00;
    }
    // The spacing of f16 values around `a`: 2^(e - 10) for a normal binade 2^e, 2^-24 below
    // 2^-14 (denormals). Scaling by a power of two is exact, so rounding the scaled value to an
    // integer is exactly the one rounding IEEE asks for.
    let exp = ((bits >> 52) & 0x7ff) as i32 - 1023;
    let quantum = 2f64.powi(exp.max(-14) - 10);
    let rounded = (a / quantum).round_ties_even() * quantum;
    // `rounded` is exactly representable in f16, so this conversion is exact on every host.
    sign | f16::from_f64(rounded).to_bits()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f16_bits(v: f64) -> u16 {
        f64_to_f16_bits(v)
    }

    #[test]
    fn exact_values_and_limits() {
        assert_eq!(f16_bits(1.0), 0x3c00);
        assert_eq!(f16_bits(-2.0), 0xc000);
        assert_eq!(f16_bits(65504.0), 0x7bff);
        assert_eq!(f16_bits(-0.0), 0x8000);
        assert_eq!(f16_bits(2f64.powi(-24)), 0x0001);
        assert_eq!(f16_bits(2f64.powi(-14)), 0x0400);
        assert_eq!(f16_bits(f64::INFINITY), 0x7c00);
        assert_eq!(f16_bits(f64::NEG_INFINITY), 0xfc00);
        assert_eq!(f16_bits(f64::NAN) & 0x7e00, 0x7e00);
    }

    #[test]
    fn ties_and_sticky_bits() {
        // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties to the even significand (1.0).
        assert_eq!(f16_bits(1.0 + 2f64.powi(-11)), 0x3c00);
        // A bit far below the tie (in the low half of the f64 significand) must round up.
        assert_eq!(f16_bits(1.0 + 2f64.powi(-11) + 2f64.powi(-40)), 0x3c01);
        // Same, where a first rounding to f32 would land exactly on the tie.
        assert_eq!(f16_bits(1.0 + 2f64.powi(-11) + 2f64.powi(-26)), 0x3c01);
        // 65519.99 rounds down to the largest finite value, 65520 up to infinity.
        assert_eq!(f16_bits(65519.99), 0x7bff);
        assert_eq!(f16_bits(65520.0), 0x7c00);
        // Half of the smallest denormal ties to zero; slightly more rounds up to it.
        assert_eq!(f16_bits(2f64.powi(-25)), 0x0000);
        assert_eq!(f16_bits(2f64.powi(-25) * 1.0001), 0x0001);
        // 1.5 * 2^-24 ties to the even denormal 2 * 2^-24.
        assert_eq!(f16_bits(1.5 * 2f64.powi(-24)), 0x0002);
        // The largest denormal plus half a step rounds up into the normal range.
        assert_eq!(f16_bits(1023.5 * 2f64.powi(-24)), 0x0400);
    }
}
