//! The encoder: [`Instr<PReg>`](crate::isa::Instr) to G13 machine code bytes.
//!
//! The forms on the description's generic path ([`Instr::Alu`](crate::isa::Instr::Alu)) are
//! encoded by one function from their operand lists (`agxc_g13_isa::operands`); for the others,
//! one function per instruction family turns typed operands into field values and sets them by
//! name in the form's entry of the shared G13 instruction description (`agxc_g13_isa::encoding`,
//! the document's diagrams, `seeds/001_9be1231add6061e8.txt` "Instructions", and docs/g13.md):
//! the entry, which the simulator's decoder and disassembler read too, holds the constant bits
//! (sub-operation codes included), the field positions and the length rule, so no bit position
//! is written here. The encoder's hand-derived tests (`tests/`: instruction, bytes, assembly)
//! are not generated from the entry and check both. Forms with an `L` bit
//! are emitted short when every bit of the omitted bytes is zero and long otherwise: a
//! register operand past r31 (its 2-bit extension), a 32-bit `C` source of `fmadd`, a
//! non-empty device mask, and the like all land in the long part. Operands that cannot be
//! encoded (register out of range, misaligned, of the wrong class or count, immediate too
//! large, undefined combination) are reported as an [`EncodeError`]; nothing here panics on an
//! instruction value.
//!
//! docs/g13.md says "a 32-bit register operand forces the long form on ALU instructions". Read
//! literally that contradicts its own reference encoding `0a0142a2` (`sin_pt_1 r0, r1`, short,
//! with 32-bit operands); the rule that reproduces every reference encoding, and the one used
//! here, is the document's: the short form when the omitted bytes would be zero. A 32-bit `C`
//! source of `fmadd` is such a case (its type's size bit is bit 49).
//!
//! [`Assembler`] lays out a sequence of instructions with symbolic labels and patches the
//! pc-relative jump offsets: the final emission step.

mod alu;
mod atomic;
mod bits;
mod control;
mod error;
mod float;
mod layout;
mod memory;
mod operand;
mod texture;

#[cfg(test)]
mod tests;

pub use error::{AssembleError, EncodeError, EncodeErrorKind};
pub use layout::{Assembled, Assembler};

use crate::isa::{Instr, PReg};
use operand::At;

/// The bytes of one encoded instruction (2 to 12).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Encoded {
    bytes: [u8; 12],
    len: u8,
}

impl Encoded {
    /// The instruction's bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }

    /// Length in bytes.
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// Always false: every instruction has at least two bytes.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// Encodes one instruction. Jump and call targets must be [`JumpTarget::Offset`]s (the
/// [`Assembler`] resolves labels).
///
/// [`JumpTarget::Offset`]: crate::isa::JumpTarget::Offset
pub fn encode(instr: &Instr<PReg>) -> Result<Encoded, EncodeError> {
    let op = instr.opcode();
    let at = At {
        mnemonic: op.name(),
    };
    use crate::isa::Instr::*;
    match instr {
        MovImm { dst, imm } => alu::mov_imm(at, dst, *imm),
        GetSr { dst, sr } => alu::get_sr(at, dst, *sr),
        Iadd {
            dst,
            a,
            b,
            neg_b,
            shift,
            sat,
        } => alu::iadd(at, dst, a, b, *neg_b, *shift, *sat),
        Imadd {
            dst,
            a,
            b,
            c,
            neg_c,
            shift,
            sat,
        } => alu::imadd(at, dst, a, b, c, *neg_c, *shift, *sat),
        Convert {
            dst,
            src,
            mode,
            round,
        } => alu::convert(at, dst, src, *mode, *round),
        Alu { dst, .. } => {
            let operands = agxc_g13_isa::operands::operands(op)
                .expect("invariant: Instr::Alu holds a generic-path form (Instr::alu)");
            alu::generic(at, op, operands, dst, instr.alu_srcs())
        }
        Bitfield {
            dst,
            a,
            b,
            c,
            mask_bits,
            ..
        } => alu::bitfield(at, op, dst, a, b, c, *mask_bits),
        Asr { dst, a, b, .. } => alu::asr(at, op, dst, a, b),
        Bitop { dst, a, b, table } => alu::bitop(at, dst, a, b, *table),
        Fmadd {
            prec,
            dst,
            sat,
            a,
            b,
            c,
        } => float::fmadd(at, op, *prec, dst, *sat, a, b, c),
        Fadd {
            prec,
            dst,
            sat,
            a,
            b,
        } => float::fadd_fmul(at, op, *prec, dst, *sat, a, b),
        Fmul {
            prec,
            dst,
            sat,
            a,
            b,
        } => float::fadd_fmul(at, op, *prec, dst, *sat, a, b),
        FUnary { dst, sat, a, .. } => float::funary(at, op, dst, *sat, a),
        Stop | Trap | ThreadgroupBarrier => Ok(control::bare(op)),
        JmpExecAny { target } | JmpExecNone { target } | Call { target } => {
            control::jump(at, op, *target)
        }
        Ret { reg } => control::ret(at, *reg),
        PopExec { n, cache } => control::pop_exec(at, *n, *cache),
        ExecStack {
            cmp,
            invert,
            n,
            cache,
            ..
        } => control::exec_stack(at, op, cmp, *invert, *n, *cache),
        Select { dst, cmp, x, y } => alu::select(at, op, dst, cmp, x, y),
        Wait { slot } => control::wait(at, *slot),
        StTile {
            src,
            rt,
            mask,
            format,
        } => memory::st_tile(at, *src, *rt, *mask, *format),
        UniformStore {
            src,
            offset,
            mask,
            format,
        } => memory::uniform_store(at, *src, *offset, *mask, *format),
        LdVar {
            dst,
            index,
            mask,
            perspective,
        } => memory::ld_var(at, *dst, *index, *mask, *perspective),
        SampleMask { targets, value } => memory::sample_mask(at, *targets, *value),
        SimdShuffle { dst, src, lane } => alu::simd_shuffle(at, *dst, *src, *lane),
        DeviceLoad(a) => memory::device(at, op, a),
        DeviceStore(a) => memory::device(at, op, a),
        StackLoad(a) => memory::stack(at, op, a),
        StackStore(a) => memory::stack(at, op, a),
        ThreadgroupLoad(a) => memory::threadgroup(at, op, a),
        ThreadgroupStore(a) => memory::threadgroup(at, op, a),
        TextureSample(t) => texture::texture(at, op, t),
        TextureLoad(t) => texture::texture(at, op, t),
        DeviceAtomic(a) => atomic::device(at, a),
        ThreadgroupAtomic(a) => atomic::threadgroup(at, a),
        ImageWrite(w) => texture::image_write(at, w),
    }
}
