//! Comparing an output buffer with the reference under the shadow run's [`Tolerances`].
//!
//! - A byte never stored to must equal the reference's.
//! - A stored float with bound 0 must be bit-identical (any NaN matches any NaN); with a
//!   finite bound `e`, a NaN must stay NaN, an infinity the same infinity, and a finite value
//!   finite and within `e` (so `+0` and `-0` match). Integers and bools with bound 0 must be
//!   identical; an unknown element or byte is not compared.
//! - Bytes of an element partly overwritten by a later store are compared one by one if the
//!   element was exact, and not at all otherwise.

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
    /// The bound it had to be within (0: exact; for raw bytes never stored to, 0).
    pub bound: f64,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
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

/// The first difference of `got` from `reference` that `tol` does not allow, if any.
pub fn compare(reference: &[u8], got: &[u8], tol: &Tolerances) -> Option<Mismatch> {
    let raw = |i: usize| Mismatch {
        offset: i,
        expected: Const::int(Type::I32, i64::from(*reference.get(i).unwrap_or(&0))),
        got: Const::int(Type::I32, got.get(i).map_or(-1, |&b| i64::from(b))),
        bound: 0.0,
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
                    && el.range().all(|b| tol.bytes.get(b) == Some(&ByteBound::Element(k)));
                if intact {
                    if let Some(m) = element(&el, got) {
                        return Some(m);
                    }
                    i = el.range().end;
                } else {
                    if el.bound == 0.0 && reference[i] != got[i] {
                        return Some(raw(i));
                    }
                    i += 1;
                }
            }
        }
    }
    None
}

fn element(el: &Element, got: &[u8]) -> Option<Mismatch> {
    let ty = el.value.ty();
    let other = read_scalar(&got[el.range()], ty);
    let ok = if !el.bound.is_finite() {
        true
    } else if ty.is_float() {
        float_within(el.value, other, el.bound)
    } else {
        el.bound != 0.0 || other.bits() == el.value.bits()
    };
    (!ok).then_some(Mismatch {
        offset: el.offset,
        expected: el.value,
        got: other,
        bound: el.bound,
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
}
