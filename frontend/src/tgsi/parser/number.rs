//! Immediate literals: 32- and 64-bit floats (decimal, hexadecimal float, raw `0x` bit
//! pattern, `inf`/`nan`) and integers.
//!
//! A `0x` literal without a `.` or a `p` exponent in a float immediate is the value's bit
//! pattern (`0x3f800000` is 1.0): that is how Mesa dumps floats with `TGSI_DUMP_FLOAT_AS_HEX`
//! and how virglrenderer ships them. A hexadecimal float (`0x1.8p+1`) is a value, as C's
//! `strtof` reads it. Decimal literals are rounded once, to nearest even.

use super::cursor::parse_u64;

/// Parses a float literal (without its sign) as f32 bits.
pub(super) fn f32_bits(text: &str) -> Option<u32> {
    if let Some(bits) = raw_hex(text) {
        return u32::try_from(bits).ok();
    }
    if let Some(v) = special(text) {
        return Some((v as f32).to_bits());
    }
    if is_hex(text) {
        let (m, e, sticky) = hex_float(text)?;
        return Some(round_binary(m, e, sticky, Format::F32) as u32);
    }
    decimal(text)?.parse::<f32>().ok().map(f32::to_bits)
}

/// Parses a float literal (without its sign) as f64 bits.
pub(super) fn f64_bits(text: &str) -> Option<u64> {
    if let Some(bits) = raw_hex(text) {
        return Some(bits);
    }
    if let Some(v) = special(text) {
        return Some(v.to_bits());
    }
    if is_hex(text) {
        let (m, e, sticky) = hex_float(text)?;
        return Some(round_binary(m, e, sticky, Format::F64));
    }
    decimal(text)?.parse::<f64>().ok().map(f64::to_bits)
}

/// Parses an integer literal (decimal or `0x`), without sign.
pub(super) fn integer(text: &str) -> Option<u64> {
    parse_u64(text)
}

fn is_hex(text: &str) -> bool {
    text.starts_with("0x") || text.starts_with("0X")
}

/// `0x` digits with neither a fraction nor an exponent: a bit pattern.
fn raw_hex(text: &str) -> Option<u64> {
    let digits = text
        .strip_prefix("0x")
        .or_else(|| text.strip_prefix("0X"))?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u64::from_str_radix(digits, 16).ok()
}

fn special(text: &str) -> Option<f64> {
    match text.to_ascii_lowercase().as_str() {
        "inf" | "infinity" => Some(f64::INFINITY),
        "nan" => Some(f64::NAN),
        _ => None,
    }
}

/// Checks the shape Rust's float parser accepts for decimal literals.
fn decimal(text: &str) -> Option<&str> {
    let ok = !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'))
        && text.bytes().any(|b| b.is_ascii_digit());
    ok.then_some(text)
}

/// Reads `0xH.HpE` as `mantissa * 2^exponent`, keeping the first 60 significant bits of the
/// mantissa and whether any nonzero bit was dropped (`sticky`).
fn hex_float(text: &str) -> Option<(u64, i64, bool)> {
    let body = &text[2..];
    let (digits, exp) = match body.find(['p', 'P']) {
        // Far beyond any format's range either way; clamping keeps the arithmetic in range.
        Some(i) => (
            &body[..i],
            body[i + 1..].parse::<i64>().ok()?.clamp(-100_000, 100_000),
        ),
        None => (body, 0),
    };
    let (int, frac) = match digits.find('.') {
        Some(i) => (&digits[..i], &digits[i + 1..]),
        None => (digits, ""),
    };
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    let mut mantissa: u64 = 0;
    let mut exponent = exp;
    let mut sticky = false;
    for (i, c) in int.chars().chain(frac.chars()).enumerate() {
        let d = c.to_digit(16)? as u64;
        let in_fraction = i >= int.len();
        if mantissa >> 56 == 0 {
            mantissa = mantissa << 4 | d;
            if in_fraction {
                exponent -= 4;
            }
        } else {
            sticky |= d != 0;
            if !in_fraction {
                exponent += 4;
            }
        }
    }
    Some((mantissa, exponent, sticky))
}

#[derive(Clone, Copy)]
enum Format {
    F32,
    F64,
}

impl Format {
    /// (significand bits including the implicit one, minimum normal exponent, maximum
    /// exponent, exponent bias)
    fn params(self) -> (i64, i64, i64, i64) {
        match self {
            Format::F32 => (24, -126, 127, 127),
            Format::F64 => (53, -1022, 1023, 1023),
        }
    }
}

/// Rounds `m * 2^e` (plus a sticky bit below it) to nearest even in `format`; returns the bit
/// pattern of the positive result.
fn round_binary(m: u64, e: i64, sticky: bool, format: Format) -> u64 {
    let (prec, emin, emax, bias) = format.params();
    let frac_bits = prec - 1;
    if m == 0 {
        return 0;
    }
    let nbits = 64 - m.leading_zeros() as i64;
    let top = e + nbits - 1;
    // The exponent of the result's least significant bit.
    let lsb = (top - frac_bits).max(emin - frac_bits);
    let shift = lsb - e;
    let m = m as u128;
    let mut q: u128 = if shift <= 0 {
        // Exact: the value has no more significant bits than the format keeps.
        m << (-shift).min(64)
    } else if shift >= 120 {
        // Far below half of the smallest subnormal (m < 2^64).
        0
    } else {
        let q = m >> shift;
        let rem = m & ((1u128 << shift) - 1);
        let half = 1u128 << (shift - 1);
        let up = rem > half || (rem == half && (sticky || q & 1 == 1));
        q + up as u128
    };
    let mut lsb = lsb;
    if q >> prec != 0 {
        q >>= 1;
        lsb += 1;
    }
    let biased = if q >> frac_bits == 0 {
        0
    } else {
        lsb + frac_bits + bias
    };
    if biased > emax + bias {
        return ((emax + bias + 1) as u64) << frac_bits;
    }
    ((biased as u64) << frac_bits) | ((q as u64) & ((1u64 << frac_bits) - 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimal_hex_float_and_raw_bits() {
        assert_eq!(f32_bits("1.5"), Some(1.5f32.to_bits()));
        assert_eq!(f32_bits("10.0000"), Some(10.0f32.to_bits()));
        assert_eq!(f32_bits("0x3f800000"), Some(0x3f80_0000));
        assert_eq!(f32_bits("0x1.8p+1"), Some(3.0f32.to_bits()));
        assert_eq!(f32_bits("0x1p-149"), Some(1));
        assert_eq!(f32_bits("0x1p-150"), Some(0), "ties to even at the bottom");
        assert_eq!(f32_bits("0x1.000001p0"), Some(1.0f32.to_bits()));
        assert_eq!(f32_bits("0x1.0000018p0"), Some(1.0f32.to_bits() + 1));
        assert_eq!(f32_bits("0x1p128"), Some(f32::INFINITY.to_bits()));
        assert_eq!(f32_bits("inf"), Some(f32::INFINITY.to_bits()));
        assert_eq!(
            f32_bits("0x100000000"),
            None,
            "a bit pattern wider than 32 bits"
        );
        assert_eq!(f64_bits("0x1.8p+1"), Some(3.0f64.to_bits()));
        assert_eq!(f64_bits("0.1"), Some(0.1f64.to_bits()));
        assert_eq!(f32_bits("abc"), None);
    }
}
