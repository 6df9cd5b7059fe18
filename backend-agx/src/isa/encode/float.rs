//! Floating-point encodings: `fmadd`, `fadd`, `fmul` (fp32 and fp16) and the one-source fp32
//! family (`floor` .. `dfdy`), from the document's section "Floating-Point Arithmetic".
//!
//! The fp32 forms give each source a 4-bit type and a 2-bit modifier; the fp16 forms drop the
//! type's size bit (3-bit type) and move the modifier down one bit. `S` (bit 6) saturates.

use super::alu::{A_LONG, B_LONG, C_LONG};
use super::bits::{Bits, Length};
use super::operand::{alu_dst, dst_slot, float_src, At, Result, SrcSlot};
use super::Encoded;
use crate::isa::{Dst, FSrc, FUnaryOp, PReg, Precision};

/// Where a float source's fields lie: the slot and the modifier bits.
struct FSlot {
    slot: SrcSlot,
    modifier: std::ops::Range<u32>,
}

/// Narrows a 4-bit source slot to the fp16 layout: 3-bit type, modifier one bit lower.
fn slot(base: &SrcSlot, prec: Precision) -> FSlot {
    let v = base.value.start;
    match prec {
        Precision::F32 => FSlot {
            slot: base.clone(),
            modifier: v + 10..v + 12,
        },
        Precision::F16 => FSlot {
            slot: SrcSlot {
                value: base.value.clone(),
                ty: v + 6..v + 9,
                ext: base.ext.clone(),
            },
            modifier: v + 9..v + 11,
        },
    }
}

fn put_fsrc(
    at: At,
    b: &mut Bits,
    operand: &'static str,
    s: &FSlot,
    src: &FSrc<PReg>,
    prec: Precision,
) -> Result<()> {
    let (field, modifier) = float_src(at, operand, src, prec_bits(prec))?;
    b.put(&s.slot, field);
    b.set_field(s.modifier.clone(), modifier);
    Ok(())
}

fn prec_bits(prec: Precision) -> u32 {
    match prec {
        Precision::F32 => 32,
        Precision::F16 => 16,
    }
}

/// `fmadd` (`L D Dt S 111010`) / `fmadd16` (`L D Dt S 110110`): `Bm Bt B Am At A`,
/// `?? Dx Ax Bx Cx ?? Cm Ct C`; 6 bytes short, 8 long. A 32-bit `C` needs the long form
/// (its type's size bit is bit 49).
#[allow(clippy::too_many_arguments)] // one per operand of the instruction
pub(super) fn fmadd(
    at: At,
    prec: Precision,
    dst: &Dst<PReg>,
    sat: bool,
    a: &FSrc<PReg>,
    b_src: &FSrc<PReg>,
    c: &FSrc<PReg>,
) -> Result<Encoded> {
    let opcode = match prec {
        Precision::F32 => 0b111010,
        Precision::F16 => 0b110110,
    };
    let mut b = Bits::new(opcode);
    b.set_bit(6, sat);
    b.put(&dst_slot(60..62), alu_dst(at, "dst", dst, prec_bits(prec))?);
    put_fsrc(at, &mut b, "a", &slot(&A_LONG, prec), a, prec)?;
    put_fsrc(at, &mut b, "b", &slot(&B_LONG, prec), b_src, prec)?;
    put_fsrc(at, &mut b, "c", &slot(&C_LONG, prec), c, prec)?;
    Ok(b.finish(Length::LongBit {
        bit: 15,
        short: 6,
        long: 8,
    }))
}

/// `fadd` (`1 D Dt S 101010`, fp16 `100110`) and `fmul` (`011010`, fp16 `010110`):
/// `Bm Bt B Am At A`, `?? Dx Ax Bx`; always 6 bytes (bit 15 is 1).
#[allow(clippy::too_many_arguments)] // one per operand of the instruction
pub(super) fn fadd_fmul(
    at: At,
    mul: bool,
    prec: Precision,
    dst: &Dst<PReg>,
    sat: bool,
    a: &FSrc<PReg>,
    b_src: &FSrc<PReg>,
) -> Result<Encoded> {
    let opcode = match (mul, prec) {
        (false, Precision::F32) => 0b101010,
        (false, Precision::F16) => 0b100110,
        (true, Precision::F32) => 0b011010,
        (true, Precision::F16) => 0b010110,
    };
    let mut b = Bits::new(opcode | 1 << 15);
    b.set_bit(6, sat);
    b.put(&dst_slot(44..46), alu_dst(at, "dst", dst, prec_bits(prec))?);
    let a_slot = SrcSlot {
        value: 16..22,
        ty: 22..26,
        ext: 42..44,
    };
    let b_slot = SrcSlot {
        value: 28..34,
        ty: 34..38,
        ext: 40..42,
    };
    put_fsrc(at, &mut b, "a", &slot(&a_slot, prec), a, prec)?;
    put_fsrc(at, &mut b, "b", &slot(&b_slot, prec), b_src, prec)?;
    Ok(b.finish(Length::Fixed(6)))
}

/// The one-source family: `L D Dt S 001010`, `op Am At A` with `op` in 31:28,
/// `?? Dx Ax op2` with `op2` (the rounding mode of floor/ceil/trunc/rint) in 41:32; 4 bytes
/// short, 6 long (`ceil`, `trunc`, `rint` and operands past r31 need the long form).
pub(super) fn funary(
    at: At,
    op: FUnaryOp,
    dst: &Dst<PReg>,
    sat: bool,
    a: &FSrc<PReg>,
) -> Result<Encoded> {
    let (op1, op2) = match op {
        FUnaryOp::Floor => (0b0000, 0),
        FUnaryOp::Ceil => (0b0000, 1),
        FUnaryOp::Trunc => (0b0000, 2),
        FUnaryOp::Rint => (0b0000, 3),
        FUnaryOp::Rcp => (0b1000, 0),
        FUnaryOp::Rsqrt => (0b1001, 0),
        FUnaryOp::RsqrtSpecial => (0b0001, 0),
        FUnaryOp::SinPt1 => (0b1010, 0),
        FUnaryOp::SinPt2 => (0b1110, 0),
        FUnaryOp::Log2 => (0b1100, 0),
        FUnaryOp::Exp2 => (0b1101, 0),
        FUnaryOp::Dfdx => (0b0100, 0),
        FUnaryOp::Dfdy => (0b0110, 0),
    };
    let mut b = Bits::new(0b001010);
    b.set_bit(6, sat);
    b.put(&dst_slot(44..46), alu_dst(at, "dst", dst, 32)?);
    let a_slot = SrcSlot {
        value: 16..22,
        ty: 22..26,
        ext: 42..44,
    };
    put_fsrc(
        at,
        &mut b,
        "a",
        &slot(&a_slot, Precision::F32),
        a,
        Precision::F32,
    )?;
    b.set_field(28..32, op1);
    b.set_field(32..42, op2);
    Ok(b.finish(Length::LongBit {
        bit: 15,
        short: 4,
        long: 6,
    }))
}
