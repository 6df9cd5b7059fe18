//! Memory element formats: how a load turns memory bytes into a register value and a store
//! turns a register value into bytes (ISA document, `device_load`; docs/g13.md,
//! "device_load / device_store").
//!
//! - `i8`, `i16`, `i32`: raw integers, zero-extended on load, truncated on store.
//! - `f16`: a 16-bit register holds the raw bits; a 32-bit register holds the value as f32
//!   (converted on load, rounded to nearest even on store).
//! - `unorm8`, `snorm8`, `unorm16`, `snorm16`: `v / (2^n - 1)` (signed: `max(v / (2^(n-1) - 1),
//!   -1)`) as f16 or f32 by register size; stores clamp, map NaN to 0 and round to nearest even.
//! - `srgba8`: as `unorm8` with the sRGB curve on elements 0..3 (red, green, blue) and linear
//!   element 3 (alpha).
//! - `rgb10a2` (10/10/10/2 unorm), `rg11b10f` (unsigned 11/11/10-bit floats), `rgb9e5` (shared
//!   exponent): one 32-bit word holds every component. `rg11b10f` stores follow OpenGL's rule for
//!   the small unsigned floats: negatives become 0, a finite value too large becomes the largest
//!   finite value, and only infinity stays infinite.

use crate::decode::inst::MemFormat;
use crate::float::{f16_source, f32_source, f64_to_f16, linear_to_srgb, srgb_to_linear};

/// A float as a register value of the given width: f32 bits, or f16 bits rounded to nearest
/// even (loads, varyings, tile reads and texture results all write registers this way).
pub(crate) fn float_to_reg(v: f64, reg32: bool) -> u32 {
    if reg32 {
        (v as f32).to_bits()
    } else {
        u32::from(f64_to_f16(v, true))
    }
}

/// A register value of the given width as a float.
fn reg_to_float(v: u32, reg32: bool) -> f32 {
    if reg32 {
        f32_source(v)
    } else {
        f16_source(v as u16)
    }
}

/// Quantises `v` to an `n`-bit unsigned normalised integer.
fn unorm(v: f32, max: f32) -> u32 {
    if v.is_nan() {
        return 0;
    }
    // In f64: an f32 product can round onto an artificial tie (0.3 * 255 -> 76.5).
    (f64::from(v.clamp(0.0, 1.0)) * f64::from(max)).round_ties_even() as u32
}

/// Quantises `v` to an `n`-bit signed normalised integer (two's complement in the low bits).
fn snorm(v: f32, max: f32) -> u32 {
    if v.is_nan() {
        return 0;
    }
    (f64::from(v.clamp(-1.0, 1.0)) * f64::from(max)).round_ties_even() as i32 as u32
}

/// The register value loaded from element `raw` (the element's bytes, little-endian) of a
/// non-packed format; `element` is the element's position in the mask (for `srgba8`).
pub fn load_element(format: MemFormat, raw: u32, element: u32, reg32: bool) -> u32 {
    use MemFormat::*;
    match format {
        I8 => raw & 0xff,
        I16 => raw & 0xffff,
        I32 => raw,
        F16 => {
            if reg32 {
                f16_source(raw as u16).to_bits()
            } else {
                raw & 0xffff
            }
        }
        U8Norm => float_to_reg(f64::from(raw & 0xff) / 255.0, reg32),
        S8Norm => float_to_reg((f64::from(raw as u8 as i8) / 127.0).max(-1.0), reg32),
        U16Norm => float_to_reg(f64::from(raw & 0xffff) / 65535.0, reg32),
        S16Norm => float_to_reg((f64::from(raw as u16 as i16) / 32767.0).max(-1.0), reg32),
        Srgba8 => {
            let c = (raw & 0xff) as f32 / 255.0;
            let v = if element < 3 { srgb_to_linear(c) } else { c };
            float_to_reg(f64::from(v), reg32)
        }
        Rgb10a2 | Rg11b10f | Rgb9e5 => unpack_word(format, raw)
            .get(element as usize)
            .map_or(0, |&v| float_to_reg(f64::from(v), reg32)),
    }
}

/// The element bits a store of register value `v` writes for a non-packed format.
pub fn store_element(format: MemFormat, v: u32, element: u32, reg32: bool) -> u32 {
    use MemFormat::*;
    match format {
        I8 => v & 0xff,
        I16 => v & 0xffff,
        I32 => v,
        F16 => {
            if reg32 {
                u32::from(f64_to_f16(f64::from(f32_source(v)), true))
            } else {
                v & 0xffff
            }
        }
        U8Norm => unorm(reg_to_float(v, reg32), 255.0),
        S8Norm => snorm(reg_to_float(v, reg32), 127.0) & 0xff,
        U16Norm => unorm(reg_to_float(v, reg32), 65535.0),
        S16Norm => snorm(reg_to_float(v, reg32), 32767.0) & 0xffff,
        Srgba8 => {
            let x = reg_to_float(v, reg32);
            let x = if element < 3 {
                linear_to_srgb(x.clamp(0.0, 1.0))
            } else {
                x
            };
            unorm(x, 255.0)
        }
        Rgb10a2 | Rg11b10f | Rgb9e5 => 0,
    }
}

/// The components of a bit-packed word (unused components are 0).
pub fn unpack_word(format: MemFormat, w: u32) -> [f32; 4] {
    match format {
        MemFormat::Rgb10a2 => [
            (w & 0x3ff) as f32 / 1023.0,
            ((w >> 10) & 0x3ff) as f32 / 1023.0,
            ((w >> 20) & 0x3ff) as f32 / 1023.0,
            (w >> 30) as f32 / 3.0,
        ],
        MemFormat::Rg11b10f => [
            small_float(w & 0x7ff, 6),
            small_float((w >> 11) & 0x7ff, 6),
            small_float(w >> 22, 5),
            0.0,
        ],
        MemFormat::Rgb9e5 => {
            let scale = 2f32.powi((w >> 27) as i32 - 15 - 9);
            [
                (w & 0x1ff) as f32 * scale,
                ((w >> 9) & 0x1ff) as f32 * scale,
                ((w >> 18) & 0x1ff) as f32 * scale,
                0.0,
            ]
        }
        _ => [0.0; 4],
    }
}

/// Packs register components into a bit-packed word.
pub fn pack_word(format: MemFormat, c: [f32; 4]) -> u32 {
    match format {
        MemFormat::Rgb10a2 => {
            unorm(c[0], 1023.0)
                | unorm(c[1], 1023.0) << 10
                | unorm(c[2], 1023.0) << 20
                | unorm(c[3], 3.0) << 30
        }
        MemFormat::Rg11b10f => {
            to_small_float(c[0], 6) | to_small_float(c[1], 6) << 11 | to_small_float(c[2], 5) << 22
        }
        MemFormat::Rgb9e5 => pack_rgb9e5(c),
        _ => 0,
    }
}

/// Register values of a bit-packed load.
pub fn load_packed(format: MemFormat, w: u32, reg32: bool) -> [u32; 4] {
    unpack_word(format, w).map(|v| float_to_reg(f64::from(v), reg32))
}

/// Register values to floats for a bit-packed store.
pub fn packed_components(values: &[u32], reg32: bool) -> [f32; 4] {
    std::array::from_fn(|i| values.get(i).map_or(0.0, |&v| reg_to_float(v, reg32)))
}

/// An unsigned float with 5 exponent bits and `m` mantissa bits (the 11- and 10-bit floats).
fn small_float(bits: u32, m: u32) -> f32 {
    let e = (bits >> m) & 0x1f;
    let f = bits & ((1 << m) - 1);
    let frac = f as f32 / (1u32 << m) as f32;
    match e {
        0 => frac * 2f32.powi(-14),
        31 => {
            if f == 0 {
                f32::INFINITY
            } else {
                f32::NAN
            }
        }
        _ => (1.0 + frac) * 2f32.powi(e as i32 - 15),
    }
}

/// Rounds `v` to the unsigned float with 5 exponent bits and `m` mantissa bits: nearest even;
/// negatives, -0 and -inf to 0; NaN to a NaN; +inf to +inf; a finite value too large for the
/// format to the largest finite value (OpenGL's rule for the 11- and 10-bit unsigned floats:
/// finite values never become infinity).
fn to_small_float(v: f32, m: u32) -> u32 {
    let infinity = 0x1f << m;
    if v.is_nan() {
        return infinity | 1;
    }
    if v <= 0.0 {
        return 0;
    }
    if v.is_infinite() {
        // Before the scaling below, which would saturate to u64::MAX and overflow the sum.
        return infinity;
    }
    let v = f64::from(v);
    let exponent = f64_exponent(v);
    let (quantum_exp, biased) = if exponent < -14 {
        (-14 - m as i32, 0)
    } else {
        (exponent - m as i32, exponent + 15)
    };
    let n = (v * 2f64.powi(-quantum_exp)).round_ties_even() as u64;
    let bits = if biased == 0 {
        n
    } else {
        ((biased as u64) << m) + (n - (1 << m))
    };
    if bits >= u64::from(infinity) {
        infinity - 1
    } else {
        bits as u32
    }
}

/// The shared-exponent packing of `GL_EXT_texture_shared_exponent`.
fn pack_rgb9e5(c: [f32; 4]) -> u32 {
    const MAX: f32 = 65408.0; // (2^9 - 1) / 2^9 * 2^16
    let clamp = |x: f32| {
        if x.is_nan() || x <= 0.0 {
            0.0
        } else {
            x.min(MAX)
        }
    };
    let (r, g, b) = (clamp(c[0]), clamp(c[1]), clamp(c[2]));
    let max = r.max(g).max(b);
    let mut exp_shared = if max > 0.0 {
        f64_exponent(f64::from(max)).max(-16) + 1 + 15
    } else {
        0
    };
    let mut scale = 2f32.powi(exp_shared - 15 - 9);
    if (max / scale).round_ties_even() as u32 == 512 {
        exp_shared += 1;
        scale *= 2.0;
    }
    let q = |x: f32| ((x / scale).round_ties_even() as u32).min(511);
    q(r) | q(g) << 9 | q(b) << 18 | (exp_shared.clamp(0, 31) as u32) << 27
}

/// `floor(log2(v))` of a positive normal f64, from its exponent bits.
fn f64_exponent(v: f64) -> i32 {
    ((v.to_bits() >> 52) & 0x7ff) as i32 - 1023
}
