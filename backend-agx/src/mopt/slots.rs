//! The source operands of ALU instructions by how they read their value, for the passes that
//! put other operands in their place.
//!
//! An `ALUSrc`/`CmpselSrc` field takes a register, a uniform register or an 8-bit immediate
//! (`Instr::alu_srcs_mut`). What the immediate means depends on the field: an integer
//! (zero-extended) in integer operations and in the values a select picks, the 8-bit float
//! immediate in float operations. A float field also has `abs`/`neg` modifiers, and reads a
//! 16-bit register by converting it exactly (in fp32 operations).

use crate::isa::{FSrc, Instr, Precision, Src};
use crate::mir::{MInst, VReg};

/// One source operand and how it is read.
pub enum Slot<'a> {
    /// An integer operand: an immediate is a zero-extended integer.
    Int(&'a mut Src<VReg>),
    /// Bits copied or compared as they are (select values): an immediate is an integer.
    Bits(&'a mut Src<VReg>),
    /// A float operand of an operation of `prec` (comparisons count as fp32).
    Float(&'a mut FSrc<VReg>, Precision),
    /// Another operand that takes a register or a uniform but no immediate the passes produce
    /// (the source of a conversion).
    Other(&'a mut Src<VReg>),
}

/// Calls `f` for every ALU source operand of `inst` (including a structured `if`'s comparison).
pub fn for_each_slot(inst: &mut MInst<VReg>, mut f: impl FnMut(Slot<'_>)) {
    use Instr::*;
    let i = match inst {
        MInst::Op(i) => i,
        MInst::If { cmp, .. } => return cmp_slots(cmp, &mut f),
        _ => return,
    };
    match i {
        Iadd { a, b, .. } => {
            f(Slot::Int(&mut a.src));
            f(Slot::Int(&mut b.src));
        }
        Imadd { a, b, c, .. } => {
            f(Slot::Int(&mut a.src));
            f(Slot::Int(&mut b.src));
            f(Slot::Int(&mut c.src));
        }
        Convert { src, .. } => f(Slot::Other(src)),
        Alu { .. } => i.alu_srcs_of_mut().iter_mut().for_each(|a| f(Slot::Int(a))),
        Bitfield { a, b, c, .. } => {
            f(Slot::Int(a));
            f(Slot::Int(b));
            f(Slot::Int(c));
        }
        Asr { a, b, .. } | Bitop { a, b, .. } => {
            f(Slot::Int(a));
            f(Slot::Int(b));
        }
        Fmadd { prec, a, b, c, .. } => {
            f(Slot::Float(a, *prec));
            f(Slot::Float(b, *prec));
            f(Slot::Float(c, *prec));
        }
        Fadd { prec, a, b, .. } | Fmul { prec, a, b, .. } => {
            f(Slot::Float(a, *prec));
            f(Slot::Float(b, *prec));
        }
        FUnary { a, .. } => f(Slot::Float(a, Precision::F32)),
        ExecStack { cmp, .. } => cmp_slots(cmp, &mut f),
        Select { cmp, x, y, .. } => {
            cmp_slots(cmp, &mut f);
            f(Slot::Bits(x));
            f(Slot::Bits(y));
        }
        _ => {}
    }
}

fn cmp_slots(cmp: &mut crate::isa::Cmp<VReg>, f: &mut impl FnMut(Slot<'_>)) {
    match cmp {
        crate::isa::Cmp::Int { a, b, .. } => {
            f(Slot::Int(a));
            f(Slot::Int(b));
        }
        crate::isa::Cmp::Float { a, b, .. } => {
            f(Slot::Float(a, Precision::F32));
            f(Slot::Float(b, Precision::F32));
        }
    }
}

/// The register a slot reads, if it reads one.
pub fn slot_reg(slot: &Slot<'_>) -> Option<VReg> {
    match slot {
        Slot::Int(s) | Slot::Bits(s) | Slot::Other(s) => s.as_reg().copied(),
        Slot::Float(s, _) => s.src.as_reg().copied(),
    }
}
