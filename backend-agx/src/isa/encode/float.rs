//! Floating-point encodings: `fmadd`, `fadd`, `fmul` (fp32 and fp16) and the one-source fp32
//! family (`floor` .. `dfdy`), from the document's section "Floating-Point Arithmetic". Constant
//! bits (the sub-operation of the one-source family included), field positions and lengths are
//! the shared description's entries (`agxc_g13_isa::encoding`, `table_alu`).
//!
//! The fp32 forms give each source a 4-bit type and a 2-bit modifier; the fp16 forms drop the
//! type's size bit (3-bit type) and move the modifier down one bit: the entries' `At`/`Am`
//! widths and positions say so, the encoder sets them by name. `S` saturates.

use agxc_g13_isa::Opcode;

use super::bits::Bits;
use super::operand::{alu_dst, float_src, At, Result, Slot, A, B, C, D};
use super::Encoded;
use crate::isa::{Dst, FSrc, PReg, Precision};

/// Writes a float source: its slot and its modifier field (`Am`, `Bm`, `Cm`).
fn put_fsrc(
    at: At,
    b: &mut Bits,
    operand: &'static str,
    (slot, modifier): (&Slot, &str),
    src: &FSrc<PReg>,
    prec: Precision,
) -> Result<()> {
    let (field, m) = float_src(at, operand, src, prec_bits(prec))?;
    b.put(slot, field);
    b.set(modifier, m);
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
    op: Opcode,
    prec: Precision,
    dst: &Dst<PReg>,
    sat: bool,
    a: &FSrc<PReg>,
    b_src: &FSrc<PReg>,
    c: &FSrc<PReg>,
) -> Result<Encoded> {
    let mut b = Bits::new(op);
    b.set_bit("S", sat);
    b.put(&D, alu_dst(at, "dst", dst, prec_bits(prec))?);
    put_fsrc(at, &mut b, "a", (&A, "Am"), a, prec)?;
    put_fsrc(at, &mut b, "b", (&B, "Bm"), b_src, prec)?;
    put_fsrc(at, &mut b, "c", (&C, "Cm"), c, prec)?;
    Ok(b.finish())
}

/// `fadd` (`1 D Dt S 101010`, fp16 `100110`) and `fmul` (`011010`, fp16 `010110`):
/// `Bm Bt B Am At A`, `?? Dx Ax Bx`; always 6 bytes (bit 15 is 1).
#[allow(clippy::too_many_arguments)] // one per operand of the instruction
pub(super) fn fadd_fmul(
    at: At,
    op: Opcode,
    prec: Precision,
    dst: &Dst<PReg>,
    sat: bool,
    a: &FSrc<PReg>,
    b_src: &FSrc<PReg>,
) -> Result<Encoded> {
    let mut b = Bits::new(op);
    b.set_bit("S", sat);
    b.put(&D, alu_dst(at, "dst", dst, prec_bits(prec))?);
    put_fsrc(at, &mut b, "a", (&A, "Am"), a, prec)?;
    put_fsrc(at, &mut b, "b", (&B, "Bm"), b_src, prec)?;
    Ok(b.finish())
}

/// The one-source family: `L D Dt S 001010`, `op Am At A`, `?? Dx Ax op2`, the operation's
/// `op`/`op2` constants in its entry; 4 bytes short, 6 long (`ceil`, `trunc`, `rint` and
/// operands past r31 need the long form).
pub(super) fn funary(
    at: At,
    op: Opcode,
    dst: &Dst<PReg>,
    sat: bool,
    a: &FSrc<PReg>,
) -> Result<Encoded> {
    let mut b = Bits::new(op);
    b.set_bit("S", sat);
    b.put(&D, alu_dst(at, "dst", dst, 32)?);
    put_fsrc(at, &mut b, "a", (&A, "Am"), a, Precision::F32)?;
    Ok(b.finish())
}
