//! Which entry of the shared G13 instruction description (`agxc_g13_isa`) an instruction is: the
//! key for its name, its encoding fields and its timing.

use agxc_g13_isa::Opcode;

use super::Instr;
use crate::isa::{Precision, StackOp};

impl<R> Instr<R> {
    /// The instruction's entry in the shared description. `mov_imm` has a 16- and a 32-bit form
    /// with one name and one timing; this is the 32-bit one whatever the destination (the
    /// encoder picks the form from the destination's class).
    pub fn opcode(&self) -> Opcode {
        use Instr::*;
        let prec = |p: &Precision, f32: Opcode, f16: Opcode| match p {
            Precision::F32 => f32,
            Precision::F16 => f16,
        };
        match self {
            MovImm { .. } => Opcode::MovImm32,
            GetSr { .. } => Opcode::GetSr,
            Iadd { .. } => Opcode::Iadd,
            Imadd { .. } => Opcode::Imadd,
            Convert { .. } => Opcode::Convert,
            Alu { op, .. } => *op,
            Bitfield { op, .. } => op.opcode(),
            Asr { high: false, .. } => Opcode::Asr,
            Asr { high: true, .. } => Opcode::Asrh,
            Bitop { .. } => Opcode::Bitop,
            Fmadd { prec: p, .. } => prec(p, Opcode::Fmadd, Opcode::Fmadd16),
            Fadd { prec: p, .. } => prec(p, Opcode::Fadd, Opcode::Fadd16),
            Fmul { prec: p, .. } => prec(p, Opcode::Fmul, Opcode::Fmul16),
            FUnary { op, .. } => op.opcode(),
            Stop => Opcode::Stop,
            Trap => Opcode::Trap,
            JmpExecAny { .. } => Opcode::JmpExecAny,
            JmpExecNone { .. } => Opcode::JmpExecNone,
            Call { .. } => Opcode::CallImm,
            Ret { .. } => Opcode::Ret,
            PopExec { .. } => Opcode::PopExec,
            ExecStack { op, cmp, .. } => match (op, cmp.is_float()) {
                (StackOp::If, false) => Opcode::IfIcmp,
                (StackOp::If, true) => Opcode::IfFcmp,
                (StackOp::Else, false) => Opcode::ElseIcmp,
                (StackOp::Else, true) => Opcode::ElseFcmp,
                (StackOp::While, false) => Opcode::WhileIcmp,
                (StackOp::While, true) => Opcode::WhileFcmp,
            },
            Select { cmp, .. } if cmp.is_float() => Opcode::Fcmpsel,
            Select { .. } => Opcode::Icmpsel,
            Wait { .. } => Opcode::Wait,
            ThreadgroupBarrier => Opcode::ThreadgroupBarrier,
            StTile { .. } => Opcode::StTile,
            UniformStore { .. } => Opcode::UniformStore,
            LdVar { .. } => Opcode::LdVar,
            SampleMask { .. } => Opcode::SampleMask,
            SimdShuffle { .. } => Opcode::SimdShuffle,
            DeviceLoad(_) => Opcode::DeviceLoad,
            DeviceStore(_) => Opcode::DeviceStore,
            StackLoad(_) => Opcode::StackLoad,
            StackStore(_) => Opcode::StackStore,
            ThreadgroupLoad(_) => Opcode::ThreadgroupLoad,
            ThreadgroupStore(_) => Opcode::ThreadgroupStore,
            TextureSample(_) => Opcode::TextureSample,
            TextureLoad(_) => Opcode::TextureLoad,
            DeviceAtomic(_) => Opcode::Atomic,
            ThreadgroupAtomic(_) => Opcode::LocalAtomic,
            ImageWrite(_) => Opcode::ImageWrite,
        }
    }
}
