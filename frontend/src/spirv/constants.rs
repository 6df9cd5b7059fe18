//! The module-scope section: types, constants, specialization constants, global variables.
//!
//! Specialization constants take the values given in [`LiftOptions::specialization`]
//! (by `SpecId`) or their defaults (SPIR-V section 2.12). `OpSpecConstantOp` is lifted like the
//! instruction it names, into the prologue of the entry block, so its result is an IR value
//! visible everywhere (and folded to a constant where a compile-time value is needed, such as an
//! array length).
//!
//! [`LiftOptions::specialization`]: super::LiftOptions::specialization

use super::context::Lowerer;
use super::error::SpirvError;
use super::module::{Id, Inst};
use super::types::{ImageTy, Ty, TypeTable};
use super::value::{Agg, Key};
use agxc_egraph::ir::{Const, Type};
use rspirv::dr::Operand;
use spirv::{Decoration, Op};

/// A compile-time constant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ConstVal {
    Scalar(Const),
    Composite(Vec<ConstVal>),
}

impl ConstVal {
    /// The all-zero value of a type (`OpConstantNull`).
    pub fn null(types: &TypeTable, ty: Id, at: &Inst) -> Result<ConstVal, SpirvError> {
        // Bounds the size (and the nesting) before building anything.
        types.leaf_types(ty, at)?;
        ConstVal::null_unchecked(types, ty, at)
    }

    fn null_unchecked(types: &TypeTable, ty: Id, at: &Inst) -> Result<ConstVal, SpirvError> {
        if types.is_composite(ty) {
            let children = types.children(ty, at)?;
            let mut items = Vec::with_capacity(children.len());
            for c in children {
                items.push(ConstVal::null_unchecked(types, c, at)?);
            }
            Ok(ConstVal::Composite(items))
        } else {
            Ok(ConstVal::Scalar(Const::zero(types.scalar(ty, at)?)))
        }
    }
}

/// Opcodes `OpSpecConstantOp` may name in shaders (SPIR-V `OpSpecConstantOp`).
fn spec_op_allowed(op: Op) -> bool {
    use Op::*;
    matches!(
        op,
        SConvert
            | UConvert
            | FConvert
            | SNegate
            | Not
            | IAdd
            | ISub
            | IMul
            | UDiv
            | SDiv
            | UMod
            | SRem
            | SMod
            | ShiftRightLogical
            | ShiftRightArithmetic
            | ShiftLeftLogical
            | BitwiseOr
            | BitwiseXor
            | BitwiseAnd
            | VectorShuffle
            | CompositeExtract
            | CompositeInsert
            | LogicalOr
            | LogicalAnd
            | LogicalNot
            | LogicalEqual
            | LogicalNotEqual
            | Select
            | IEqual
            | INotEqual
            | ULessThan
            | SLessThan
            | UGreaterThan
            | SGreaterThan
            | ULessThanEqual
            | SLessThanEqual
            | UGreaterThanEqual
            | SGreaterThanEqual
            | QuantizeToF16
    )
}

impl<'m> Lowerer<'m> {
    /// Processes the types, constants and global variables, in module order.
    pub fn declare_globals(&mut self) -> Result<(), SpirvError> {
        let m = self.m;
        for inst in &m.globals {
            match inst.opcode {
                op if op.is_type() => self.declare_type(inst)?,
                Op::ConstantTrue
                | Op::ConstantFalse
                | Op::SpecConstantTrue
                | Op::SpecConstantFalse => {
                    let mut v = matches!(inst.opcode, Op::ConstantTrue | Op::SpecConstantTrue);
                    if inst.opcode != Op::ConstantTrue && inst.opcode != Op::ConstantFalse {
                        if let Some(bits) = self.specialized(inst)? {
                            v = bits != 0;
                        }
                    }
                    self.expect_scalar(inst, Type::Bool)?;
                    self.consts
                        .insert(inst.result()?, ConstVal::Scalar(Const::bool(v)));
                }
                Op::Constant | Op::SpecConstant => {
                    let ty = self.types.scalar(inst.result_ty()?, inst)?;
                    if ty == Type::Bool {
                        return Err(inst.mismatch("numeric constant of boolean type"));
                    }
                    let mut bits = match inst.operands.first() {
                        Some(Operand::LiteralBit32(b)) => *b as u64,
                        Some(Operand::LiteralBit64(b)) => *b,
                        _ => return Err(inst.invalid("missing literal")),
                    };
                    if inst.opcode == Op::SpecConstant {
                        if let Some(b) = self.specialized(inst)? {
                            bits = b;
                        }
                    }
                    self.consts
                        .insert(inst.result()?, ConstVal::Scalar(Const::from_bits(ty, bits)));
                }
                Op::ConstantNull => {
                    let c = ConstVal::null(&self.types, inst.result_ty()?, inst)?;
                    self.consts.insert(inst.result()?, c);
                }
                Op::ConstantComposite | Op::SpecConstantComposite => {
                    self.declare_composite(inst)?
                }
                Op::SpecConstantOp => self.declare_spec_op(inst)?,
                Op::Variable => self.declare_global_var(inst)?,
                Op::Undef => {
                    let z = self.zero_agg(inst.result_ty()?, inst)?;
                    self.globals.insert(inst.result()?, z);
                }
                _ => return Err(inst.unsupported_instruction()),
            }
        }
        Ok(())
    }

    fn expect_scalar(&self, inst: &Inst, want: Type) -> Result<(), SpirvError> {
        let ty = self.types.scalar(inst.result_ty()?, inst)?;
        if ty != want {
            return Err(inst.mismatch(format!("result type is {ty}, expected {want}")));
        }
        Ok(())
    }

    /// The externally provided value of a specialization constant, if any.
    fn specialized(&self, inst: &Inst) -> Result<Option<u64>, SpirvError> {
        let Some(spec_id) = self.decos.literal(inst.result()?, Decoration::SpecId) else {
            return Ok(None);
        };
        Ok(self
            .options
            .specialization
            .iter()
            .find(|(id, _)| *id == spec_id)
            .map(|&(_, v)| v))
    }

    fn declare_composite(&mut self, inst: &Inst) -> Result<(), SpirvError> {
        let id = inst.result()?;
        let ty = inst.result_ty()?;
        let parts = inst.ids_from(0)?;
        let children = self.types.children(ty, inst)?;
        if children.len() != parts.len() {
            return Err(inst.mismatch(format!(
                "{} constituents for a composite of {}",
                parts.len(),
                children.len()
            )));
        }
        if parts.iter().all(|p| self.consts.contains_key(p)) {
            let items = parts.iter().map(|p| self.consts[p].clone()).collect();
            self.consts.insert(id, ConstVal::Composite(items));
        } else {
            // A specialization composite over `OpSpecConstantOp` results: build it from their
            // prologue values.
            let mut items = Vec::with_capacity(parts.len());
            for p in parts {
                items.push(self.value(p, inst)?);
            }
            self.globals.insert(id, Agg::composite(items));
        }
        Ok(())
    }

    fn declare_spec_op(&mut self, inst: &Inst) -> Result<(), SpirvError> {
        let op = match inst.operands.first() {
            Some(Operand::LiteralSpecConstantOpInteger(op)) => *op,
            _ => return Err(inst.invalid("missing the operation of OpSpecConstantOp")),
        };
        if !spec_op_allowed(op) {
            return Err(inst.unsupported(format!("Op{op:?} in OpSpecConstantOp")));
        }
        let mut inner = inst.clone();
        inner.opcode = op;
        inner.operands.remove(0);
        let id = inst.result()?;
        self.lower_inst(&inner)?;
        self.seal_prologue();
        let value = self
            .env
            .map
            .remove(&Key::Id(id))
            .ok_or_else(|| inst.invalid("OpSpecConstantOp produced no value"))?;
        self.globals.insert(id, value);
        Ok(())
    }

    fn declare_type(&mut self, inst: &Inst) -> Result<(), SpirvError> {
        let id = inst.result()?;
        let lit = |i: usize| inst.literal(i);
        let ty = match inst.opcode {
            Op::TypeVoid => Ty::Void,
            Op::TypeBool => Ty::Bool,
            Op::TypeInt => Ty::Int {
                width: lit(0)?,
                signed: lit(1)? != 0,
            },
            Op::TypeFloat => Ty::Float { width: lit(0)? },
            Op::TypeVector => Ty::Vector {
                elem: inst.id(0)?,
                count: lit(1)?,
            },
            Op::TypeMatrix => Ty::Matrix {
                column: inst.id(0)?,
                columns: lit(1)?,
            },
            Op::TypeArray => {
                let elem = inst.id(0)?;
                let length = self.array_length(inst, inst.id(1)?)?;
                Ty::Array { elem, length }
            }
            Op::TypeRuntimeArray => Ty::RuntimeArray { elem: inst.id(0)? },
            Op::TypeStruct => Ty::Struct {
                members: inst.ids_from(0)?,
            },
            Op::TypePointer => match inst.operands.first() {
                Some(Operand::StorageClass(class)) => Ty::Pointer {
                    class: *class,
                    pointee: inst.id(1)?,
                },
                _ => return Err(inst.invalid("missing storage class")),
            },
            Op::TypeFunction => Ty::Function {
                ret: inst.id(0)?,
                params: inst.ids_from(1)?,
            },
            Op::TypeImage => {
                let dim = match inst.operands.get(1) {
                    Some(Operand::Dim(d)) => *d,
                    _ => return Err(inst.invalid("missing image dimensionality")),
                };
                Ty::Image(ImageTy {
                    sampled_type: inst.id(0)?,
                    dim,
                    depth: lit(2)?,
                    arrayed: lit(3)? != 0,
                    multisampled: lit(4)? != 0,
                    sampled: lit(5)?,
                    format: match inst.operands.get(6) {
                        Some(Operand::ImageFormat(f)) => *f,
                        _ => return Err(inst.invalid("missing image format")),
                    },
                })
            }
            Op::TypeSampler => Ty::Sampler,
            Op::TypeSampledImage => Ty::SampledImage { image: inst.id(0)? },
            _ => return Err(inst.unsupported_instruction()),
        };
        let shape_ok = match &ty {
            Ty::Vector { elem, count } => {
                (2..=4).contains(count)
                    && matches!(
                        self.types.get(*elem, inst)?,
                        Ty::Bool | Ty::Int { .. } | Ty::Float { .. }
                    )
            }
            Ty::Matrix { column, columns } => {
                (2..=4).contains(columns) && self.types.is_vector(*column)
            }
            Ty::Struct { members } => members.iter().all(|m| self.types.is_type(*m)),
            Ty::Array { elem, .. } | Ty::RuntimeArray { elem } => self.types.is_type(*elem),
            _ => true,
        };
        if !shape_ok {
            return Err(inst.invalid("malformed type"));
        }
        self.types.insert(id, ty);
        Ok(())
    }

    /// An array length: an integer constant, possibly specialized or computed.
    fn array_length(&mut self, inst: &Inst, length: Id) -> Result<u32, SpirvError> {
        let c = match self.consts.get(&length) {
            Some(ConstVal::Scalar(c)) => Some(*c),
            Some(ConstVal::Composite(_)) => None,
            None => match self.globals.get(&length) {
                Some(Agg::Scalar(v)) => self.fold(*v),
                _ => None,
            },
        };
        match c {
            Some(c) if c.ty().is_int() && c.as_u64() > 0 && c.as_u64() <= u32::MAX as u64 => {
                Ok(c.as_u64() as u32)
            }
            _ => Err(inst.invalid(format!(
                "array length %{length} is not a positive integer constant"
            ))),
        }
    }
}
