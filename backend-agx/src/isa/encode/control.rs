//! Flow control, execution-mask stack and synchronisation encodings (document sections
//! "Flow Control Instructions", "Execution Mask Stack Instructions", "wait",
//! "threadgroup_barrier"; docs/g13.md for `stop`/`trap` and `wait`). Constant bits, field
//! positions and lengths are the shared description's entries (`agxc_g13_isa::encoding`,
//! `table_control`).

use agxc_g13_isa::Opcode;

use super::bits::Bits;
use super::error::EncodeErrorKind;
use super::operand::{alu_src, float_src, reg32, At, Result, A, B};
use super::Encoded;
use crate::isa::{Cmp, JumpTarget, PReg};

/// A form without operands: `stop` (0x0088), `trap` (0x0008; docs/g13.md, "Corrections"),
/// `threadgroup_barrier`.
pub(super) fn bare(op: Opcode) -> Encoded {
    Bits::new(op).finish()
}

/// `wait`: `??????? i 00111000` (docs/g13.md: `0x38 | slot << 8`, slots 0 and 1).
pub(super) fn wait(at: At, slot: u8) -> Result<Encoded> {
    let mut b = Bits::new(Opcode::Wait);
    b.set("i", at.range("slot", i64::from(slot), 0, 1)?);
    Ok(b.finish())
}

/// `jmp_exec_any` (0xc000), `jmp_exec_none` (0xc020) and `call` (0xc010): the first halfword,
/// then the signed 32-bit byte offset `off` relative to the instruction's own address.
pub(super) fn jump(at: At, op: Opcode, target: JumpTarget) -> Result<Encoded> {
    let offset = match target {
        JumpTarget::Offset(o) => o,
        JumpTarget::Label(l) => return Err(at.err("target", EncodeErrorKind::UnresolvedLabel(l))),
    };
    let mut b = Bits::new(op);
    b.set("off", offset as u32);
    Ok(b.finish())
}

/// `ret`: `reg32 ?? 0010100`, the 32-bit register number.
pub(super) fn ret(at: At, reg: PReg) -> Result<Encoded> {
    let half = reg32(at, "reg", reg)?;
    let mut b = Bits::new(Opcode::Ret);
    b.set("reg32", half / 2);
    Ok(b.finish())
}

/// `pop_exec`: `000 n 11 ? Dt 1010010`, 32 zero bits; `Dt` is the cache hint on r0l.
pub(super) fn pop_exec(at: At, n: u8, cache: bool) -> Result<Encoded> {
    let mut b = Bits::new(Opcode::PopExec);
    b.set_bit("Dt", cache);
    b.set("n", at.range("n", i64::from(n), 0, 3)?);
    Ok(b.finish())
}

/// `if_*cmp`, `else_*cmp`, `while_*cmp`: `cc n op ccn Dt opcode` (the operation is the form:
/// [`Instr::opcode`](crate::isa::Instr::opcode)); sources `Bm Bt B Am At A` (integer: no
/// modifiers), `?? 00 Ax Bx`; always 6 bytes.
pub(super) fn exec_stack(
    at: At,
    op: Opcode,
    cmp: &Cmp<PReg>,
    invert: bool,
    n: u8,
    cache: bool,
) -> Result<Encoded> {
    let mut b = Bits::new(op);
    match cmp {
        Cmp::Int { cond, a, b: b_src } => {
            b.put(&A, alu_src(at, "a", a, 32)?);
            b.put(&B, alu_src(at, "b", b_src, 32)?);
            b.set("cc", cond.code());
        }
        Cmp::Float { cond, a, b: b_src } => {
            let (fa, ma) = float_src(at, "a", a, 32)?;
            let (fb, mb) = float_src(at, "b", b_src, 32)?;
            b.put(&A, fa);
            b.set("Am", ma);
            b.put(&B, fb);
            b.set("Bm", mb);
            b.set("cc", cond.code());
        }
    }
    b.set_bit("Dt", cache);
    b.set_bit("ccn", invert);
    b.set("n", at.range("n", i64::from(n), 0, 3)?);
    Ok(b.finish())
}
