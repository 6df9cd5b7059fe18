//! The decoder: bytes to [`Decoded`] instructions.
//!
//! Place in the pipeline: [`decode_program`] runs once when a program is loaded. It matches each
//! instruction against the encoding tables (`crate::encoding`), then reads the operand fields into
//! the typed form of [`inst`], resolving the document's operand decoders (`operands`) and
//! rejecting every `UNDEFINED()` operand encoding and every field value the simulator does not
//! implement. The executor never looks at bits again.

mod alu;
mod atomic;
mod control;
pub mod inst;
mod inst_memory;
mod memory;
mod operands;
mod regs;
mod texture;

pub use inst::Decoded;
pub use regs::{visit_registers, RegAccess};

use crate::encoding::{decode_raw, Opcode, RawInst};
use crate::error::{DecodeError, DecodeErrorKind};
use inst::Inst;

/// Decodes a matched instruction into its typed form.
pub fn decode_inst(raw: &RawInst) -> Result<Inst, DecodeErrorKind> {
    use Opcode::*;
    if let Some(operands) = agxc_g13_isa::operands::operands(raw.encoding.opcode) {
        return alu::generic(raw, operands);
    }
    match raw.encoding.opcode {
        Ret | CallReg | Stop | Trap | CallImm | JmpExecAny | JmpExecNone | JmpIncomplete
        | PopExec | IfIcmp | ElseIcmp | WhileIcmp | IfFcmp | ElseFcmp | WhileFcmp | Wait
        | ThreadgroupBarrier => control::decode(raw),
        LdTile | StTile | LdVar | UniformStore | DeviceLoad | DeviceStore | StackLoad
        | StackStore | StackGetPtr | StackAdjust | ThreadgroupLoad | ThreadgroupStore
        | SampleMask => memory::decode(raw),
        TextureSample | TextureLoad => texture::decode(raw),
        Atomic | LocalAtomic => atomic::decode(raw),
        ImageWrite => texture::decode_image_write(raw),
        _ => alu::decode(raw),
    }
}

/// Decodes the instruction at byte offset `pc` of `code`.
pub fn decode_one(code: &[u8], pc: u32) -> Result<Decoded, DecodeError> {
    let at = usize::try_from(pc).unwrap_or(usize::MAX);
    let rest = code.get(at..).unwrap_or(&[]);
    let raw = decode_raw(rest).map_err(|kind| DecodeError { pc, kind })?;
    let inst = decode_inst(&raw).map_err(|kind| DecodeError { pc, kind })?;
    Ok(Decoded {
        pc,
        len: raw.len,
        opcode: raw.encoding.opcode,
        inst,
    })
}

/// Decodes a whole program, instruction after instruction from offset 0 to the end.
pub fn decode_program(code: &[u8]) -> Result<Vec<Decoded>, DecodeError> {
    let mut out = Vec::new();
    let mut pc = 0usize;
    while pc < code.len() {
        let pc32 = u32::try_from(pc).map_err(|_| DecodeError {
            pc: u32::MAX,
            kind: DecodeErrorKind::Truncated {
                needed: 0,
                available: 0,
            },
        })?;
        let decoded = decode_one(code, pc32)?;
        pc += usize::from(decoded.len);
        out.push(decoded);
    }
    Ok(out)
}
