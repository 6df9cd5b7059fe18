//! Comparing an output buffer with the reference under the shadow run's [`Tolerances`].
//!
//! - A byte never stored to must equal the reference's.
//! - A stored float with bound 0 must be bit-identical (any NaN matches any NaN); with a
//!   finite bound `e`, a NaN must stay NaN, an infinity the same infinity, and a finite value
//!   finite and within `e` (so `+0` and `-0` match). Integers and bools with bound 0 must be
//!   identical; an unknown element or byte is not compared.
//! - Bytes of an element partly overwritten by a later store are compared one by one if the
//!   element was exact and not a NaN, and not at all otherwise.
//! - With `flush_denormals` (the G13), an f32 element with a non-zero bound is compared with
//!   denormals read as zeros of their sign: the G13 flushes f32 denormals in arithmetic but
//!   passes them through moves and selects (an `fcmpsel` compares flushed operands and returns
//!   the raw one), so a value the model knows to be within a denormal of zero may come out as
//!   an unflushed denormal. Exact elements never went through arithmetic and stay bit-exact.

use crate::equiv::bounds::{read_scalar, ByteBound, Element, Tolerances};
use agxc_egraph::ir::{Const, Type};
use core::fmt;

/// The first difference between two output buffers.
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch {
    /// Byte offset in the output buffer.
    pub offset: usize,
    /// What the reference holds there.
    pub expected: Const,
    /// What the implementation under test produced.
    pub got: Const,
    /// The bound it had to be within (0: exact).
    pub bound: f64,
    /// A single byte compared on its own (never stored to, or what is left of an exact
    /// element a later store partly overwrote): `expected` and `got` hold the bytes.
    pub byte: bool,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.byte {
            return write!(
                f,
                "byte {}: expected {:#04x}, got {:#04x}",
                self.offset,
                self.expected.bits(),
                self.got.bits()
            );
        }
        let ty = self.expected.ty();
        write!(
            f,
            "byte {}: expected {} {} (bits {:#x}), got {} (bits {:#x})",
            self.offset,
            ty,
            show(self.expected),
            self.expected.bits(),
            show(self.got),
            self.got.bits()
        )?;
        if self.bound == 0.0 {
            write!(f, ", exactly")
        } else {
            write!(f, ", within {:e}", self.bound)
        }
    }
}

/// A value as a person reads it (floats with enough digits to tell neighbours apart).
pub fn show(c: Const) -> String {
    match c.ty() {
        Type::F32 => format!("{:e}", c.as_f32()),
        Type::F16 => format!("{:e}", c.as_f64()),
        Type::Bool => c.as_bool().to_string(),
        _ => c.as_i64().to_string(),
    }
}

/// The first difference of `got` from `reference` that `tol` does not allow, if any;
/// `flush_denormals` as in the module docs.
pub fn compare(
    reference: &[u8],
    got: &[u8],
    tol: &Tolerances,
    flush_denormals: bool,
) -> Option<Mismatch> {
    let raw = |i: usize| Mismatch {
        offset: i,
        expected: Const::int(Type::I32, i64::from(*reference.get(i).unwrap_or(&0))),
        got: Const::int(Type::I32, got.get(i).map_or(-1, |&b| i64::from(b))),
        bound: 0.0,
        byte: true,
    };
    if reference.len() != got.len() {
        return Some(raw(reference.len().min(got.len())));
    }
    let mut i = 0;
    while i < reference.len() {
        match tol.bytes.get(i).copied().unwrap_or(ByteBound::Initial) {
            ByteBound::Initial => {
                if reference[i] != got[i] {
                    return Some(raw(i));
                }
                i += 1;
            }
            ByteBound::Unknown => i += 1,
            ByteBound::Element(k) => {
                let el = tol.elements[k];
                let intact = el.offset == i
                    && el
                        .range()
                        .all(|b| tol.bytes.get(b) == Some(&ByteBound::Element(k)));
                if intact {
                    if let Some(m) = element(&el, got, flush_denormals) {
                        return Some(m);
                    }
                    i = el.range().end;
                } else {
                    // What is left of an exact element is compared byte by byte, but a NaN's
                    // payload is not part of the contract.
                    if el.bound == 0.0 && !el.value.is_nan() && reference[i] != got[i] {
                        return Some(raw(i));
                    }
                    i += 1;
                }
            }
        }
    }
    None
}

fn element(el: &Element, got: &[u8], flush_denormals: bool) -> Option<Mismatch> {
    let ty = el.value.ty();
    let other = read_scalar(&got[el.range()], ty);
    let flush = |c: Const| {
        if flush_denormals && ty == Type::F32 && el.bound != 0.0 && c.as_f32().is_subnormal() {
            Const::f32(0f32.copysign(c.as_f32()))
        } else {
            c
        }
    };
    let ok = if !el.bound.is_finite() {
        true
    } else if ty.is_float() {
        float_within(flush(el.value), flush(other), el.bound)
    } else {
        el.bound != 0.0 || other.bits() == el.value.bits()
    };
    (!ok).then_some(Mismatch {
        offset: el.offset,
        expected: el.value,
        got: other,
        bound: el.bound,
        byte: false,
    })
}

/// True if `got` is within `bound` of `expected` in the sense of the module docs.
pub fn float_within(expected: Const, got: Const, bound: f64) -> bool {
    let (x, y) = (expected.as_f64(), got.as_f64());
    if x.is_nan() || y.is_nan() {
        return x.is_nan() && y.is_nan();
    }
    if bound == 0.0 {
        return expected.bits() == got.bits();
    }
    if x.is_infinite() || y.is_infinite() {
        return x == y;
    }
    (x - y).abs() <= bound
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_compare_by_the_documented_rules() {
        let f = Const::f32;
        assert!(float_within(f(f32::NAN), f(-f32::NAN), 0.0));
        assert!(!float_within(f(0.0), f(-0.0), 0.0));
        assert!(float_within(f(0.0), f(-0.0), 1e-30));
        assert!(float_within(f(1.0), f(1.5), 0.5));
        assert!(!float_within(f(1.0), f(1.5), 0.25));
        assert!(!float_within(f(f32::MAX), f(f32::INFINITY), 1e38));
        assert!(!float_within(f(1.0), f(f32::NAN), 1e38));
    }

    /// One f32 stored at byte 4 with `bound`, a never-stored word before it, an unknown word
    /// after it.
    fn tolerances(value: f32, bound: f64) -> Tolerances {
        let mut t = Tolerances::new(12);
        t.store(4, Const::f32(value), bound);
        t.forget(8..12);
        t
    }

    fn bytes(words: [u32; 3]) -> Vec<u8> {
        words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    #[test]
    fn buffers_compare_by_element() {
        let reference = bytes([0, 1.0f32.to_bits(), 7]);
        let t = tolerances(1.0, 0.0);
        assert_eq!(compare(&reference, &reference, &t, false), None);
        // The unknown word may differ; the never-stored one may not.
        assert_eq!(
            compare(&reference, &bytes([0, 1.0f32.to_bits(), 9]), &t, false),
            None
        );
        let m = compare(&reference, &bytes([5, 1.0f32.to_bits(), 7]), &t, false).unwrap();
        assert_eq!(m.offset, 0);
        let m = compare(&reference, &bytes([0, 1.5f32.to_bits(), 7]), &t, false).unwrap();
        assert_eq!((m.offset, m.got), (4, Const::f32(1.5)));
        let t = tolerances(1.0, 0.5);
        assert_eq!(
            compare(&reference, &bytes([0, 1.5f32.to_bits(), 7]), &t, false),
            None
        );
    }

    #[test]
    fn what_is_left_of_a_partly_overwritten_nan_is_not_compared() {
        let mut t = Tolerances::new(4);
        t.store(0, Const::f32(f32::from_bits(0xffff_ffff)), 0.0);
        t.store(0, Const::i16(0), 0.0);
        let reference = 0xffff_0000u32.to_le_bytes();
        // The default NaN's upper half, 0x7fc0, under the same i16 zero.
        assert_eq!(
            compare(&reference, &0x7fc0_0000u32.to_le_bytes(), &t, false),
            None
        );
        // The i16 itself is still compared.
        assert!(compare(&reference, &0xffff_0001u32.to_le_bytes(), &t, false).is_some());
        // Not so for a number: 2.0's upper half must stay.
        let mut t = Tolerances::new(4);
        t.store(0, Const::f32(2.0), 0.0);
        t.store(0, Const::i16(0), 0.0);
        let reference = 0x4000_0000u32.to_le_bytes();
        assert!(compare(&reference, &0x7fc0_0000u32.to_le_bytes(), &t, false).is_some());
    }

    #[test]
    fn flushed_comparison_reads_denormals_as_zeros_of_uncertain_values_only() {
        let reference = bytes([0, 0, 0]);
        let denormal = bytes([0, 0x8000_8001, 0]);
        // Exact: the denormal's bits differ from +0.
        assert!(compare(&reference, &denormal, &tolerances(0.0, 0.0), true).is_some());
        // Uncertain by the tiniest amount: -denormal reads as -0, which may replace +0.
        let t = tolerances(0.0, f64::MIN_POSITIVE);
        assert_eq!(compare(&reference, &denormal, &t, true), None);
        assert!(compare(&reference, &denormal, &t, false).is_some());
    }
}
