//! Typed decoding of flow control, execution-mask stack and synchronisation instructions.

use super::alu::compare;
use super::inst::{Inst, StackOp};
use crate::encoding::{Opcode, RawInst};
use crate::error::DecodeErrorKind;

/// Decodes the control instruction `raw`.
pub(super) fn decode(raw: &RawInst) -> Result<Inst, DecodeErrorKind> {
    use Opcode::*;
    let op = raw.encoding.opcode;
    Ok(match op {
        Ret => Inst::Ret {
            reg: raw.get("reg32") as u8,
        },
        CallReg => Inst::CallReg {
            reg: raw.get("reg32") as u8,
        },
        Stop => Inst::Stop,
        Trap => Inst::Trap,
        CallImm => Inst::CallImm {
            offset: raw.get("off") as i32,
        },
        JmpExecAny => Inst::JmpExecAny {
            offset: raw.get("off") as i32,
        },
        JmpExecNone => Inst::JmpExecNone {
            offset: raw.get("off") as i32,
        },
        // The document gives `off` 8 bits and no semantics; this simulator reads it as a signed
        // byte offset relative to the instruction (see the `exec` module docs).
        JmpIncomplete => Inst::JmpIncomplete {
            offset: i32::from(raw.get("off") as u8 as i8),
        },
        PopExec => Inst::PopExec {
            n: raw.get("n") as u8,
            cache: raw.get("Dt") != 0,
        },
        IfIcmp | ElseIcmp | WhileIcmp | IfFcmp | ElseFcmp | WhileFcmp => Inst::ExecStack {
            op: match op {
                IfIcmp | IfFcmp => StackOp::If,
                ElseIcmp | ElseFcmp => StackOp::Else,
                _ => StackOp::While,
            },
            cmp: compare(raw, matches!(op, IfFcmp | ElseFcmp | WhileFcmp), true)?,
            n: raw.get("n") as u8,
            cache: raw.get("Dt") != 0,
        },
        Wait => Inst::Wait {
            slot: raw.get("i") as u8,
        },
        ThreadgroupBarrier => Inst::Barrier,
        _ => unreachable!("invariant: decode::control handles only control opcodes"),
    })
}
