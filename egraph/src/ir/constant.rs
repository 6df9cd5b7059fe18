//! Constant scalars: a type and a bit pattern.
//!
//! Every evaluation function (the interpreter, the constant folder, rule soundness checks) works on
//! `Const`, so there is exactly one representation of a runtime scalar.

use super::types::Type;
use core::fmt;
use half::f16;

/// A scalar constant. `bits` holds the value's bit pattern in its low `ty.bits()` bits; the rest
/// are zero (so `Const` can be compared and hashed bitwise, which keeps NaN payloads and -0 distinct).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Const {
    ty: Type,
    bits: u64,
}

impl Const {
    /// A constant of type `ty` from a bit pattern; bits above the type's width are dropped.
    pub fn from_bits(ty: Type, bits: u64) -> Const {
        Const {
            ty,
            bits: bits & ty.mask(),
        }
    }

    /// A boolean.
    pub fn bool(b: bool) -> Const {
        Const::from_bits(Type::Bool, b as u64)
    }

    /// A 16-bit integer.
    pub fn i16(v: i16) -> Const {
        Const::from_bits(Type::I16, v as u16 as u64)
    }

    /// A 32-bit integer.
    pub fn i32(v: i32) -> Const {
        Const::from_bits(Type::I32, v as u32 as u64)
    }

    /// A 32-bit integer from its unsigned value.
    pub fn u32(v: u32) -> Const {
        Const::from_bits(Type::I32, v as u64)
    }

    /// A 64-bit integer.
    pub fn i64(v: i64) -> Const {
        Const::from_bits(Type::I64, v as u64)
    }

    /// An integer of type `ty` from a signed value (wrapped to the width).
    pub fn int(ty: Type, v: i64) -> Const {
        Const::from_bits(ty, v as u64)
    }

    /// A binary32 float.
    pub fn f32(v: f32) -> Const {
        Const::from_bits(Type::F32, v.to_bits() as u64)
    }

    /// A binary16 float.
    pub fn f16(v: f16) -> Const {
        Const::from_bits(Type::F16, v.to_bits() as u64)
    }

    /// A float of type `ty` (must be `F16` or `F32`) from an f64, rounded to nearest even.
    pub fn float(ty: Type, v: f64) -> Const {
        // One correctly rounded conversion; `half`'s own f64 -> f16 rounds twice on some hosts.
        crate::ir::eval::round_float(ty, v)
    }

    /// Zero of any type (+0.0 for floats, false for bool).
    pub fn zero(ty: Type) -> Const {
        Const::from_bits(ty, 0)
    }

    /// The type.
    pub fn ty(self) -> Type {
        self.ty
    }

    /// The raw bit pattern, zero-extended.
    pub fn bits(self) -> u64 {
        self.bits
    }

    /// The value as an unsigned integer (zero-extended bits).
    pub fn as_u64(self) -> u64 {
        self.bits
    }

    /// The value as a signed integer (sign-extended from the type's width).
    pub fn as_i64(self) -> i64 {
        let shift = 64 - self.ty.bits();
        ((self.bits << shift) as i64) >> shift
    }

    /// The boolean value (any non-zero bit pattern is true).
    pub fn as_bool(self) -> bool {
        self.bits != 0
    }

    /// The value as f32 (for `F32` its bits; for `F16` the exact widening; integers convert).
    pub fn as_f32(self) -> f32 {
        match self.ty {
            Type::F32 => f32::from_bits(self.bits as u32),
            Type::F16 => f16::from_bits(self.bits as u16).to_f32(),
            _ => self.as_i64() as f32,
        }
    }

    /// The value as f64, exactly, for either float type.
    pub fn as_f64(self) -> f64 {
        match self.ty {
            Type::F32 => f32::from_bits(self.bits as u32) as f64,
            Type::F16 => f16::from_bits(self.bits as u16).to_f64(),
            _ => self.as_i64() as f64,
        }
    }

    /// True if this is a float NaN.
    pub fn is_nan(self) -> bool {
        self.ty.is_float() && self.as_f64().is_nan()
    }
}

/// The text form: integers in signed decimal, booleans as `true`/`false`, finite floats in the
/// shortest decimal that reads back to the same bits, other floats (NaN, infinities) as `0x` bit
/// patterns so that every payload round-trips.
impl fmt::Display for Const {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.ty {
            Type::Bool => write!(f, "{}", self.as_bool()),
            Type::I16 | Type::I32 | Type::I64 => write!(f, "{}", self.as_i64()),
            Type::F32 => {
                let v = f32::from_bits(self.bits as u32);
                if v.is_finite() {
                    write!(f, "{v:?}")
                } else {
                    write!(f, "0x{:08x}", self.bits)
                }
            }
            Type::F16 => {
                let v = f16::from_bits(self.bits as u16);
                if v.is_finite() {
                    // f16's Debug is not guaranteed shortest-round-trip; the f32 widening is exact
                    // and its shortest form reads back (through f32, then RNE to f16) to the same bits.
                    write!(f, "{:?}", v.to_f32())
                } else {
                    write!(f, "0x{:04x}", self.bits)
                }
            }
        }
    }
}

/// Why a constant literal did not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{text}` is not a valid {ty} constant")]
pub struct ConstParseError {
    /// The literal.
    pub text: String,
    /// The type it was read as.
    pub ty: Type,
}

impl Const {
    /// Parses the text form of a constant of type `ty` (the inverse of `Display`; integers also
    /// accept `0x` hexadecimal and unsigned decimal within the width).
    pub fn parse(ty: Type, text: &str) -> Result<Const, ConstParseError> {
        let err = || ConstParseError {
            text: text.to_string(),
            ty,
        };
        let hex = |s: &str| -> Option<u64> {
            s.strip_prefix("0x")
                .or_else(|| s.strip_prefix("0X"))
                .and_then(|h| u64::from_str_radix(h, 16).ok())
        };
        match ty {
            Type::Bool => match text {
                "true" => Ok(Const::bool(true)),
                "false" => Ok(Const::bool(false)),
                _ => Err(err()),
            },
            Type::I16 | Type::I32 | Type::I64 => {
                let v = if let Some(h) = hex(text) {
                    h as i128
                } else {
                    text.parse::<i128>().map_err(|_| err())?
                };
                let min = -(1i128 << (ty.bits() - 1));
                let max = (1i128 << ty.bits()) - 1;
                if v < min || v > max {
                    return Err(err());
                }
                Ok(Const::from_bits(ty, v as u64))
            }
            Type::F32 | Type::F16 => {
                if let Some(h) = hex(text) {
                    if h > ty.mask() {
                        return Err(err());
                    }
                    return Ok(Const::from_bits(ty, h));
                }
                if ty == Type::F16 {
                    // Through f64, not f32, so the literal is rounded to f16 once.
                    let v: f64 = text.parse().map_err(|_| err())?;
                    Ok(Const::float(Type::F16, v))
                } else {
                    let v: f32 = text.parse().map_err(|_| err())?;
                    Ok(Const::f32(v))
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sign_extension_and_masking() {
        assert_eq!(Const::i16(-1).bits(), 0xffff);
        assert_eq!(Const::i16(-1).as_i64(), -1);
        assert_eq!(
            Const::from_bits(Type::I32, 0x1_8000_0000).as_i64(),
            i32::MIN as i64
        );
    }

    #[test]
    fn text_round_trip() {
        for c in [
            Const::f32(1.5),
            Const::f32(-0.0),
            Const::f32(f32::from_bits(1)),
            Const::f32(f32::NAN),
            Const::from_bits(Type::F32, 0x7fc0_0001),
            Const::f32(f32::NEG_INFINITY),
            Const::f16(f16::from_f32(0.1)),
            Const::from_bits(Type::F16, 1),
            Const::from_bits(Type::F16, 0x7e01),
            Const::i32(i32::MIN),
            Const::i64(i64::MIN),
            Const::i16(-7),
            Const::bool(true),
        ] {
            let text = c.to_string();
            assert_eq!(Const::parse(c.ty(), &text), Ok(c), "{text}");
        }
    }

    #[test]
    fn rejects_out_of_range() {
        assert!(Const::parse(Type::I16, "65536").is_err());
        assert!(Const::parse(Type::I16, "-32769").is_err());
        assert_eq!(Const::parse(Type::I16, "65535"), Ok(Const::i16(-1)));
        assert!(Const::parse(Type::F16, "0x10000").is_err());
        assert!(Const::parse(Type::Bool, "1").is_err());
    }
}
