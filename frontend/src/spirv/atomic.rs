//! Atomic instructions (SPIR-V section 3.32.18) on storage buffers and workgroup memory.
//!
//! The read-modify-write instructions become one IR `atomic` each; `OpAtomicISub` keeps its
//! own operation (the G13 has one too), `OpAtomicIIncrement`/`IDecrement` add or subtract a
//! constant 1, and the weak compare-exchange is the strong one (a strong one is a valid weak
//! one: it merely never fails spuriously).
//!
//! Scopes and memory semantics are not looked at: the IR's atomics are sequentially consistent
//! across the whole device, which is at least as strong as any scope and ordering a shader can
//! ask for.
//!
//! `OpAtomicLoad` and `OpAtomicStore` become a plain load and store: an aligned 32-bit access
//! is indivisible in every implementation the project targets (the interpreter, the G13), and
//! the IR keeps plain memory accesses in program order with the atomics, so nothing an atomic
//! load or store promises beyond a plain one is lost.

use super::context::Lowerer;
use super::error::SpirvError;
use super::module::Inst;
use super::value::Pointer;
use agxc_egraph::ir::{AddressSpace, AtomicOp, EffectOp, MemAccess, Type, Value};
use spirv::Op;

impl Lowerer<'_> {
    /// Lifts `inst` if it is an atomic instruction; false if it is not one.
    pub fn lower_atomic(&mut self, inst: &Inst) -> Result<bool, SpirvError> {
        // (operation, operand index of the value, of the comparator)
        let (op, value, cmp) = match inst.opcode {
            Op::AtomicIAdd => (AtomicOp::Add, Some(3), None),
            Op::AtomicISub => (AtomicOp::Sub, Some(3), None),
            Op::AtomicSMin => (AtomicOp::SMin, Some(3), None),
            Op::AtomicUMin => (AtomicOp::UMin, Some(3), None),
            Op::AtomicSMax => (AtomicOp::SMax, Some(3), None),
            Op::AtomicUMax => (AtomicOp::UMax, Some(3), None),
            Op::AtomicAnd => (AtomicOp::And, Some(3), None),
            Op::AtomicOr => (AtomicOp::Or, Some(3), None),
            Op::AtomicXor => (AtomicOp::Xor, Some(3), None),
            Op::AtomicExchange => (AtomicOp::Exchange, Some(3), None),
            Op::AtomicCompareExchange | Op::AtomicCompareExchangeWeak => {
                (AtomicOp::CompareExchange, Some(4), Some(5))
            }
            Op::AtomicIIncrement => (AtomicOp::Add, None, None),
            Op::AtomicIDecrement => (AtomicOp::Sub, None, None),
            Op::AtomicLoad => {
                let ptr = self.atomic_pointer(inst)?;
                let value = self.load(inst, &ptr)?;
                self.bind(inst, value)?;
                return Ok(true);
            }
            Op::AtomicStore => {
                let ptr = self.atomic_pointer(inst)?;
                let value = self.operand(inst, 3)?;
                self.store(inst, &ptr, value)?;
                return Ok(true);
            }
            _ => return Ok(false),
        };
        let ptr = self.atomic_pointer(inst)?;
        let unsupported = || inst.unsupported("an atomic on a Function or Private variable");
        let Pointer::Mem(m) = &*ptr else {
            return Err(unsupported());
        };
        // A large local array the front end placed in private memory (`private.rs`).
        if m.space == AddressSpace::Private {
            return Err(unsupported());
        }
        if !matches!(m.space, AddressSpace::Storage(_) | AddressSpace::Workgroup) {
            return Err(inst.invalid("an atomic on read-only memory (Uniform or PushConstant)"));
        }
        let base = match m.dynamic {
            Some(d) => d,
            None => self.zero(Type::I32),
        };
        let mut args = vec![base];
        if let Some(i) = cmp {
            args.push(self.atomic_operand(inst, i)?);
        }
        match value {
            Some(i) => args.push(self.atomic_operand(inst, i)?),
            None => args.push(self.iconst(Type::I32, 1)),
        }
        let access = MemAccess {
            space: m.space,
            offset: m.offset,
        };
        let old = self.effect(EffectOp::Atomic(op, access), &args, &[Type::I32])[0];
        self.bind_components(inst, &[old])?;
        Ok(true)
    }

    /// The pointer operand of an atomic, which must point at a 32-bit integer.
    fn atomic_pointer(&mut self, inst: &Inst) -> Result<std::rc::Rc<Pointer>, SpirvError> {
        let ptr = self.operand_pointer(inst, 0)?;
        let pointee = match &*ptr {
            Pointer::Mem(m) => m.ty,
            Pointer::Logical { ty, .. } => *ty,
        };
        if self.types.scalar(pointee, inst)? != Type::I32 {
            return Err(inst.unsupported("an atomic on anything but a 32-bit integer"));
        }
        Ok(ptr)
    }

    /// A value operand of an atomic: a 32-bit integer scalar.
    fn atomic_operand(&mut self, inst: &Inst, i: usize) -> Result<Value, SpirvError> {
        let v = self.operand_scalar(inst, i)?;
        if self.ty(v) != Type::I32 {
            return Err(inst.mismatch(format!("atomic operand {i} is not a 32-bit integer")));
        }
        Ok(v)
    }
}
