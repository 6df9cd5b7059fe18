//! A test-only assembler: sets named bit fields of an encoding-table entry. It shares the table
//! with the decoder, so it is used to build programs for semantic tests, never to produce the
//! expected bytes of golden vectors (those are worked out by hand).

use crate::encoding::{encoding_of, Length, Opcode, Seg};

/// Encodes `op` with `fields` set (every other field 0). The long form is chosen when a set
/// field lies beyond the short form, or when `("L", 1)` is given.
pub fn enc(op: Opcode, fields: &[(&str, u64)]) -> Vec<u8> {
    let e = encoding_of(op);
    let mut bits: u128 = u128::from(e.value);
    // Constant bits beyond the short form (ceil's sub-operation) force the long form too.
    let mut highest = 63u32.saturating_sub(e.value.leading_zeros());
    for &(name, value) in fields {
        let (hi, lo) = e
            .segs
            .iter()
            .find_map(|s| match *s {
                Seg::Field {
                    name: n, hi, lo, ..
                } if n == name => Some((hi, lo)),
                _ => None,
            })
            .unwrap_or_else(|| panic!("{op:?} has no field {name}"));
        let width = u32::from(hi - lo + 1);
        assert!(
            u128::from(value) < 1u128 << width,
            "{op:?}.{name} = {value} is too wide"
        );
        bits &= !(((1u128 << width) - 1) << lo);
        bits |= u128::from(value) << lo;
        if value != 0 {
            highest = highest.max(u32::from(hi));
        }
    }
    let len = match e.length {
        Length::Fixed(n) => n,
        Length::LongBit { bit, short, long } => {
            let long_form = highest >= u32::from(short) * 8 || bits >> bit & 1 == 1;
            if long_form {
                bits |= 1 << bit;
                long
            } else {
                short
            }
        }
    };
    bits.to_le_bytes()[..usize::from(len)].to_vec()
}

/// `ALUDst`/`ALUSrc` value and type fields for common operand kinds, as `(value, type)` with the
/// value in 16-bit units (`Dx:D`, `Ax:A`).
pub mod operand {
    /// A 32-bit register source without hint: value `2n`, type `0b1001`.
    pub fn r32(n: u64) -> (u64, u64) {
        (2 * n, 0b1001)
    }
    /// A 16-bit register source without hint: type `0b0001`.
    pub fn r16(half: u64) -> (u64, u64) {
        (half, 0b0001)
    }
    /// An 8-bit immediate: type 0.
    pub fn imm(v: u64) -> (u64, u64) {
        (v, 0)
    }
}

/// Splits an 8-bit operand value into its 6-bit field and 2-bit extension.
pub fn split(value: u64) -> (u64, u64) {
    (value & 0x3f, value >> 6)
}

/// Fields for a two-source ALU op: `D`, `Dt`, `Dx`, `A`, `At`, `Ax`, `B`, `Bt`, `Bx`.
pub fn alu2(d: (u64, u64), a: (u64, u64), b: (u64, u64)) -> Vec<(&'static str, u64)> {
    let mut f = alu1(d, a);
    let (b_lo, b_x) = split(b.0);
    f.extend([("B", b_lo), ("Bt", b.1), ("Bx", b_x)]);
    f
}

/// Fields for a one-source ALU op.
pub fn alu1(d: (u64, u64), a: (u64, u64)) -> Vec<(&'static str, u64)> {
    let (d_lo, d_x) = split(d.0);
    let (a_lo, a_x) = split(a.0);
    vec![
        ("D", d_lo),
        ("Dt", d.1),
        ("Dx", d_x),
        ("A", a_lo),
        ("At", a.1),
        ("Ax", a_x),
    ]
}

/// Fields for a three-source ALU op.
pub fn alu3(
    d: (u64, u64),
    a: (u64, u64),
    b: (u64, u64),
    c: (u64, u64),
) -> Vec<(&'static str, u64)> {
    let mut f = alu2(d, a, b);
    let (c_lo, c_x) = split(c.0);
    f.extend([("C", c_lo), ("Ct", c.1), ("Cx", c_x)]);
    f
}

/// A 32-bit destination `rn` (type `0b10`).
pub fn d32(n: u64) -> (u64, u64) {
    (2 * n, 0b10)
}

/// A 16-bit destination half `h` (type 0).
pub fn d16(h: u64) -> (u64, u64) {
    (h, 0)
}
