//! Flow control, execution-mask stack and synchronisation encodings (document sections
//! "Flow Control Instructions", "Execution Mask Stack Instructions", "wait",
//! "threadgroup_barrier"; docs/g13.md for `stop`/`trap` and `wait`).

use super::bits::{Bits, Length};
use super::error::EncodeErrorKind;
use super::operand::{alu_src, float_src, reg32, At, Result, SrcSlot};
use super::Encoded;
use crate::isa::{Cmp, JumpTarget, PReg, StackOp};

/// `stop` is 0x0088 and `trap` 0x0008 (docs/g13.md, "Corrections").
pub(super) fn stop() -> Encoded {
    Bits::new(0x0088).finish(Length::Fixed(2))
}

/// `trap`: 0x0008.
pub(super) fn trap() -> Encoded {
    Bits::new(0x0008).finish(Length::Fixed(2))
}

/// `threadgroup_barrier`: `???????? 01101000`.
pub(super) fn barrier() -> Encoded {
    Bits::new(0b01101000).finish(Length::Fixed(2))
}

/// `wait`: `??????? i 00111000` (docs/g13.md: `0x38 | slot << 8`, slots 0 and 1).
pub(super) fn wait(at: At, slot: u8) -> Result<Encoded> {
    let mut b = Bits::new(0b00111000);
    b.set_field(8..9, at.range("slot", i64::from(slot), 0, 1)?);
    Ok(b.finish(Length::Fixed(2)))
}

/// `jmp_exec_any` (0xc000), `jmp_exec_none` (0xc020) and `call` (0xc010): the first halfword,
/// then the signed 32-bit byte offset relative to the instruction's own address in 47:16.
pub(super) fn jump(at: At, first: u64, target: JumpTarget) -> Result<Encoded> {
    let offset = match target {
        JumpTarget::Offset(o) => o,
        JumpTarget::Label(l) => return Err(at.err("target", EncodeErrorKind::UnresolvedLabel(l))),
    };
    let mut b = Bits::new(first);
    b.set_field(16..48, offset as u32);
    Ok(b.finish(Length::Fixed(6)))
}

/// `ret`: `reg32 ?? 0010100`, the 32-bit register number in 15:9.
pub(super) fn ret(at: At, reg: PReg) -> Result<Encoded> {
    let half = reg32(at, "reg", reg)?;
    let mut b = Bits::new(0b0010100);
    b.set_field(9..16, half / 2);
    Ok(b.finish(Length::Fixed(2)))
}

/// `pop_exec`: `000 n 11 ? Dt 1010010`, 32 zero bits; `Dt` (bit 7) is the cache hint on r0l.
pub(super) fn pop_exec(at: At, n: u8, cache: bool) -> Result<Encoded> {
    let mut b = Bits::new(0b1010010);
    b.set_bit(7, cache);
    b.set_field(9..11, 0b11);
    b.set_field(11..13, at.range("n", i64::from(n), 0, 3)?);
    Ok(b.finish(Length::Fixed(6)))
}

/// `if_*cmp`, `else_*cmp`, `while_*cmp`: `cc n op ccn Dt opcode` with opcode `1010010`
/// (integer) or `1000010` (float) and op (10:9) 00 if, 01 else, 10 while; sources
/// `Bm Bt B Am At A` (integer: modifiers 0), `?? 00 Ax Bx`; always 6 bytes.
pub(super) fn exec_stack(
    at: At,
    op: StackOp,
    cmp: &Cmp<PReg>,
    invert: bool,
    n: u8,
    cache: bool,
) -> Result<Encoded> {
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
    let mut b = match cmp {
        Cmp::Int { cond, a, b: b_src } => {
            let mut b = Bits::new(0b1010010);
            b.put(&a_slot, alu_src(at, "a", a, 32)?);
            b.put(&b_slot, alu_src(at, "b", b_src, 32)?);
            b.set_field(13..16, cond.code());
            b
        }
        Cmp::Float { cond, a, b: b_src } => {
            let mut b = Bits::new(0b1000010);
            let (fa, ma) = float_src(at, "a", a, 32)?;
            let (fb, mb) = float_src(at, "b", b_src, 32)?;
            b.put(&a_slot, fa);
            b.set_field(26..28, ma);
            b.put(&b_slot, fb);
            b.set_field(38..40, mb);
            b.set_field(13..16, cond.code());
            b
        }
    };
    b.set_bit(7, cache);
    b.set_bit(8, invert);
    let code = match op {
        StackOp::If => 0b00,
        StackOp::Else => 0b01,
        StackOp::While => 0b10,
    };
    b.set_field(9..11, code);
    b.set_field(11..13, at.range("n", i64::from(n), 0, 3)?);
    Ok(b.finish(Length::Fixed(6)))
}
