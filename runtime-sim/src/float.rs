//! Floating-point rules of the G13 as the simulator implements them (ISA document, "FloatSrc",
//! "FloatDst", "decode_float_immediate"; docs/g13.md, "Floating point"):
//!
//! - fp32 sources and results flush denormals to zero (the sign is kept); fp16 keeps denormals.
//! - Results round to nearest even. A NaN result is the default NaN (`0x7FC00000`, `0x7E00`).
//! - Saturate maps NaN and every value <= 0 (including -0) to +0 and clamps to 1.0.
//! - An fp32 operation with a 16-bit destination rounds twice: to f32 (flushing denormals), then
//!   to f16.
//!
//! The document computes on exact reals and rounds once. Sums and products of two f32 values are
//! computed with the host's IEEE f32 arithmetic, which rounds the exact result once. A fused
//! multiply-add is computed exactly as `hi + lo` in f64 (the product of two f32 or f16 values is
//! exact in f64, and `two_sum` captures the sum's rounding error), then rounded to odd in f64
//! (the document's own suggestion), from which rounding to f32 or f16 is correct because f64
//! carries more than two extra bits. Conversion from f64 to f16 is done here rather than with the
//! `half` crate, whose f64 path drops the low mantissa bits before rounding.

use half::f16;

/// The default NaN of fp32 results.
pub const DEFAULT_NAN_32: u32 = 0x7FC0_0000;
/// The default NaN of fp16 results.
pub const DEFAULT_NAN_16: u16 = 0x7E00;

/// The document's `decode_float_immediate`: 1 sign bit, 3 exponent bits, 4 fraction bits.
pub fn decode_float_immediate(value: u8) -> f32 {
    let exponent = i32::from((value & 0x70) >> 4);
    let fraction = f32::from(value & 0xF);
    let magnitude = if exponent == 0 {
        fraction / 64.0
    } else {
        (16.0 + fraction) * 2f32.powi(exponent - 7)
    };
    if value & 0x80 != 0 {
        -magnitude
    } else {
        magnitude
    }
}

/// Flushes an f32 denormal to zero of the same sign.
#[inline]
pub fn ftz32(x: f32) -> f32 {
    if x.is_subnormal() {
        f32::from_bits(x.to_bits() & 0x8000_0000)
    } else {
        x
    }
}

/// Reads an fp32 source: flushes denormals.
#[inline]
pub fn f32_source(bits: u32) -> f32 {
    ftz32(f32::from_bits(bits))
}

/// Reads an fp16 source exactly.
#[inline]
pub fn f16_source(bits: u16) -> f32 {
    f16::from_bits(bits).to_f32()
}

/// Saturate: NaN and values <= 0 to +0, values above 1 to 1.
#[inline]
pub fn saturate(x: f32) -> f32 {
    if x > 1.0 {
        1.0
    } else if x > 0.0 {
        x
    } else {
        0.0
    }
}

/// Finishes an fp32 result already rounded to f32 for a 32-bit destination: saturate, default
/// NaN, flush denormals.
#[inline]
pub fn finish32(x: f32, sat: bool) -> u32 {
    let x = if sat { saturate(x) } else { x };
    if x.is_nan() {
        DEFAULT_NAN_32
    } else {
        ftz32(x).to_bits()
    }
}

/// Finishes an fp32 result already rounded to f32 for a 16-bit destination: the second rounding
/// of docs/g13.md's double rounding.
#[inline]
pub fn finish32_to_16(x: f32, sat: bool) -> u16 {
    let x = if sat { saturate(x) } else { x };
    if x.is_nan() {
        DEFAULT_NAN_16
    } else {
        f64_to_f16(f64::from(ftz32(x)), true)
    }
}

/// Finishes an fp16 operation's exact (or round-to-odd) result: saturate, default NaN, one
/// rounding to f16, denormals kept.
#[inline]
pub fn finish16(x: f64, sat: bool) -> u16 {
    let x = if sat {
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
    if x.is_nan() {
        DEFAULT_NAN_16
    } else {
        f64_to_f16(x, true)
    }
}

/// Rounds an f64 to f16 bits, to nearest even (`rte`) or toward zero. NaN becomes the default
/// NaN.
pub fn f64_to_f16(x: f64, rte: bool) -> u16 {
    if x.is_nan() {
        return DEFAULT_NAN_16;
    }
    let sign: u16 = if x.is_sign_negative() { 0x8000 } else { 0 };
    let a = x.abs();
    if a.is_infinite() {
        return sign | 0x7c00;
    }
    const MIN_NORMAL: f64 = 6.103_515_625e-5; // 2^-14
    let subnormal = a < MIN_NORMAL;
    // The value in units of the f16 quantum at its binade (2^-24 for subnormals), an exact
    // power-of-two scaling.
    let exponent = ((a.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    let quantum_exp = if subnormal { -24 } else { exponent - 10 };
    let q = a * 2f64.powi(-quantum_exp);
    let n = if rte { q.round_ties_even() } else { q.trunc() } as u64;
    let bits = if subnormal {
        // n <= 1024; 1024 is the smallest normal, 0x0400, which the sum below also yields.
        n
    } else {
        // n in 1024..=2048; 2048 carries into the exponent.
        (((exponent + 15) as u64) << 10) + (n - 1024)
    };
    if bits >= 0x7c00 {
        return sign | if rte { 0x7c00 } else { 0x7bff };
    }
    sign | bits as u16
}

/// Rounds an f64 to f32 toward zero.
pub fn f64_to_f32_rtz(x: f64) -> f32 {
    let r = x as f32;
    if !x.is_finite() || f64::from(r).abs() <= x.abs() {
        r
    } else {
        // `r` rounded away from zero (it is not zero): step one ulp back toward zero.
        f32::from_bits(r.to_bits() - 1)
    }
}

/// `a + b` as an exact pair `(hi, lo)` with `hi = fl(a + b)` (Knuth's two-sum).
#[inline]
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    let err = (a - (s - bb)) + (b - bb);
    (s, err)
}

/// Rounds the exact value `hi + lo` (with `hi = fl(hi + lo)`) to f64 with round-to-odd.
#[inline]
fn round_to_odd(hi: f64, lo: f64) -> f64 {
    if lo == 0.0 || !hi.is_finite() || lo.is_nan() {
        return hi;
    }
    let bits = hi.to_bits();
    if bits & 1 == 1 {
        return hi;
    }
    // The exact value lies strictly between `hi` and its neighbour toward `lo`; the odd one of
    // the two is that neighbour.
    if (lo > 0.0) == (hi > 0.0) {
        f64::from_bits(bits + 1)
    } else {
        f64::from_bits(bits - 1)
    }
}

/// `a * b + c` rounded to odd in f64. Exact for operands whose product is exact in f64 (any two
/// f32 or f16 values), so rounding the result once more to f32 or f16 rounds the exact result
/// correctly.
#[inline]
pub fn fma_round_to_odd(a: f64, b: f64, c: f64) -> f64 {
    let p = a * b;
    let (hi, lo) = two_sum(p, c);
    round_to_odd(hi, lo)
}

/// The target-only operations' model, from the shared instruction description.
pub use agxc_g13_isa::semantics::{rsqrt_special, sin_pt_1, sin_pt_2};

/// The sRGB transfer function's inverse (decode), for `srgba8` loads.
pub fn srgb_to_linear(c: f32) -> f32 {
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// The sRGB transfer function (encode), for `srgba8` stores.
pub fn linear_to_srgb(l: f32) -> f32 {
    if l <= 0.003_130_8 {
        l * 12.92
    } else {
        1.055 * l.powf(1.0 / 2.4) - 0.055
    }
}
