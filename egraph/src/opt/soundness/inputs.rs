//! Random inputs for the soundness check: special values first-class, and the rule's domain.

use super::super::rules::Domain;
use super::super::synth::Rng;
use crate::ir::{Const, PureOp, Type};

fn f32_specials() -> Vec<f32> {
    vec![
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        2.0,
        3.0,
        -3.5,
        0.1,
        1e-3,
        1e10,
        -7.25e5,
        core::f32::consts::PI,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        f32::MIN_POSITIVE,
        -f32::MIN_POSITIVE,
        f32::MAX,
        f32::MIN,
        f32::from_bits(1),
        f32::from_bits(0x8000_0001),
        f32::from_bits(0x007f_ffff),
        0.25,
        4.0,
        -8.0,
        1.0 / 1024.0,
    ]
}

fn to_type(v: f32, ty: Type) -> Const {
    let c = Const::f32(v);
    match ty {
        Type::F16 => PureOp::Fcvt.eval(&[c], Type::F16),
        _ => c,
    }
}

fn random_float(rng: &mut Rng, ty: Type) -> Const {
    match rng.below(10) {
        0..=3 => {
            let s = f32_specials();
            to_type(s[rng.below(s.len())], ty)
        }
        4..=6 => Const::from_bits(ty, rng.next_u64()),
        _ => to_type(rng.range(-100.0, 100.0) as f32, ty),
    }
}

fn random_int(rng: &mut Rng, ty: Type) -> Const {
    let bits = ty.bits() as u64;
    let sign = 1u64 << (bits - 1);
    match rng.below(12) {
        0 => Const::from_bits(ty, 0),
        1 => Const::from_bits(ty, 1),
        2 => Const::from_bits(ty, u64::MAX),
        3 => Const::from_bits(ty, sign),
        4 => Const::from_bits(ty, sign - 1),
        5 => Const::from_bits(ty, 1u64 << rng.below(bits as usize)),
        6 => {
            let n = rng.below(bits as usize + 1) as u64;
            let m = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
            Const::from_bits(ty, m)
        }
        7 | 8 => Const::from_bits(ty, rng.below(bits as usize + 2) as u64),
        _ => Const::from_bits(ty, rng.next_u64()),
    }
}

/// A random value of `ty` from `domain` (integers and bools ignore the domain).
pub fn value(rng: &mut Rng, ty: Type, domain: Domain) -> Const {
    match ty {
        Type::Bool => Const::bool(rng.chance(0.5)),
        t if t.is_int() => random_int(rng, t),
        t => match domain {
            Domain::Any => random_float(rng, t),
            Domain::Range(lo, hi) => {
                if rng.chance(0.15) {
                    let s = [
                        f32::NAN,
                        f32::INFINITY,
                        f32::NEG_INFINITY,
                        0.0,
                        -0.0,
                        f32::from_bits(1),
                        f32::from_bits(0x8000_0001),
                    ];
                    to_type(s[rng.below(s.len())], t)
                } else {
                    to_type(rng.range(lo, hi) as f32, t)
                }
            }
            Domain::Magnitude(lo, hi) => {
                let m = (rng.range(lo.ln(), hi.ln())).exp();
                let v = if rng.chance(0.5) { -m } else { m };
                to_type(v as f32, t)
            }
        },
    }
}

/// A constant to instantiate a pattern variable with: like [`value`], plus more of the values
/// guards look for (powers of two, masks, small shift amounts, widths).
pub fn constant(rng: &mut Rng, ty: Type, domain: Domain) -> Const {
    if ty.is_float() && rng.chance(0.3) {
        let e = rng.below(20) as i32 - 10;
        let v = 2f32.powi(e) * if rng.chance(0.5) { 1.0 } else { -1.0 };
        return to_type(v, ty);
    }
    if ty.is_int() && rng.chance(0.4) {
        // Shift amounts and widths relative to the type, where guards draw their lines.
        let w = ty.bits() as u64;
        let choices = [0, 1, 2, 3, 4, 8, w / 2, w / 2 + 1, w - 1, w, 16, 32, 64];
        return Const::from_bits(ty, choices[rng.below(choices.len())]);
    }
    value(rng, ty, domain)
}
