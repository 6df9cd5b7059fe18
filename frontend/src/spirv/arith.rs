//! Core arithmetic, bit, relational, logical and conversion instructions, scalarized.
//!
//! Every SPIR-V vector operation becomes one IR operation per component. Integers are signless
//! in the IR; the opcode picks the signed or unsigned operation. Where SPIR-V defines an
//! operation the IR lacks, it is expanded:
//! - `OpFMod` is `x - y * floor(x / y)` and `OpFRem` is `x - y * trunc(x / y)` (SPIR-V: the result
//!   takes the sign of y, resp. x);
//! - `OpSMod` is the remainder adjusted to the divisor's sign: `r = srem(a, b)`, plus `b` when
//!   `r != 0` and the signs of `r` and `b` differ;
//! - `OpQuantizeToF16` rounds through f16 and flushes results below the smallest normal f16
//!   (2^-14) to zero, as the specification allows.

use super::context::Lowerer;
use super::error::SpirvError;
use super::module::Inst;
use super::value::Agg;
use agxc_egraph::ir::{PureOp, Type, Value};
use smallvec::SmallVec;
use spirv::Op;

impl<'m> Lowerer<'m> {
    /// A pure operation on operands taken from the module, with their types checked against the
    /// operation's signature.
    pub fn pure_checked(
        &mut self,
        inst: &Inst,
        op: PureOp,
        args: &[Value],
    ) -> Result<Value, SpirvError> {
        let tys: SmallVec<[Type; 4]> = args.iter().map(|&a| self.ty(a)).collect();
        op.signature()
            .infer(&tys)
            .map_err(|e| inst.mismatch(format!("{}: {e}", op.name())))?;
        Ok(self.pure(op, args))
    }

    /// A conversion with its operand and result types checked.
    pub fn convert_checked(
        &mut self,
        inst: &Inst,
        op: PureOp,
        arg: Value,
        to: Type,
    ) -> Result<Value, SpirvError> {
        op.signature()
            .check(&[self.ty(arg)], to)
            .map_err(|e| inst.mismatch(format!("{}: {e}", op.name())))?;
        Ok(self.convert(op, arg, to))
    }

    /// Applies `f` to each component of operand 0.
    pub fn map1(
        &mut self,
        inst: &Inst,
        mut f: impl FnMut(&mut Self, Value) -> Result<Value, SpirvError>,
    ) -> Result<(), SpirvError> {
        let a = self.operand_components(inst, 0)?;
        let mut out = Vec::with_capacity(a.len());
        for x in a {
            out.push(f(self, x)?);
        }
        self.bind_components(inst, &out)
    }

    /// Applies `f` to each pair of components of operands `first` and `first + 1`.
    pub fn map2_at(
        &mut self,
        inst: &Inst,
        first: usize,
        mut f: impl FnMut(&mut Self, Value, Value) -> Result<Value, SpirvError>,
    ) -> Result<(), SpirvError> {
        let a = self.operand_components(inst, first)?;
        let b = self.operand_components(inst, first + 1)?;
        if a.len() != b.len() {
            return Err(inst.mismatch("operands have different component counts"));
        }
        let mut out = Vec::with_capacity(a.len());
        for (x, y) in a.into_iter().zip(b) {
            out.push(f(self, x, y)?);
        }
        self.bind_components(inst, &out)
    }

    fn map2(
        &mut self,
        inst: &Inst,
        f: impl FnMut(&mut Self, Value, Value) -> Result<Value, SpirvError>,
    ) -> Result<(), SpirvError> {
        self.map2_at(inst, 0, f)
    }

    fn unary(&mut self, inst: &Inst, op: PureOp) -> Result<(), SpirvError> {
        self.map1(inst, |s, x| s.pure_checked(inst, op, &[x]))
    }

    fn binary(&mut self, inst: &Inst, op: PureOp) -> Result<(), SpirvError> {
        self.map2(inst, |s, x, y| s.pure_checked(inst, op, &[x, y]))
    }

    fn logical(&mut self, inst: &Inst, op: PureOp) -> Result<(), SpirvError> {
        self.map2(inst, |s, x, y| {
            if s.ty(x) != Type::Bool || s.ty(y) != Type::Bool {
                return Err(inst.mismatch("logical operation on non-boolean operands"));
            }
            s.pure_checked(inst, op, &[x, y])
        })
    }

    /// The scalar type of the result (scalar or vector result types).
    pub fn result_scalar(&self, inst: &Inst) -> Result<Type, SpirvError> {
        Ok(self.types.components(inst.result_ty()?, inst)?.0)
    }

    /// Lifts a core arithmetic instruction; `false` if `inst` is not one.
    pub fn lower_arith(&mut self, inst: &Inst) -> Result<bool, SpirvError> {
        use PureOp as P;
        match inst.opcode {
            Op::FAdd => self.binary(inst, P::Fadd)?,
            Op::FSub => self.binary(inst, P::Fsub)?,
            Op::FMul => self.binary(inst, P::Fmul)?,
            Op::FDiv => self.binary(inst, P::Fdiv)?,
            Op::FNegate => self.unary(inst, P::Fneg)?,
            Op::FRem => self.map2(inst, |s, x, y| s.float_remainder(inst, x, y, P::Ftrunc))?,
            Op::FMod => self.map2(inst, |s, x, y| s.float_remainder(inst, x, y, P::Floor))?,
            Op::IAdd => self.binary(inst, P::Iadd)?,
            Op::ISub => self.binary(inst, P::Isub)?,
            Op::IMul => self.binary(inst, P::Imul)?,
            Op::UDiv => self.binary(inst, P::Udiv)?,
            Op::SDiv => self.binary(inst, P::Sdiv)?,
            Op::UMod => self.binary(inst, P::Urem)?,
            Op::SRem => self.binary(inst, P::Srem)?,
            Op::SMod => self.map2(inst, |s, x, y| s.smod(inst, x, y))?,
            Op::SNegate => self.unary(inst, P::Ineg)?,
            Op::ShiftLeftLogical => self.shift(inst, P::Ishl)?,
            Op::ShiftRightLogical => self.shift(inst, P::Ushr)?,
            Op::ShiftRightArithmetic => self.shift(inst, P::Sshr)?,
            Op::BitwiseAnd => self.int_binary(inst, P::And)?,
            Op::BitwiseOr => self.int_binary(inst, P::Or)?,
            Op::BitwiseXor => self.int_binary(inst, P::Xor)?,
            Op::Not => self.map1(inst, |s, x| {
                if !s.ty(x).is_int() {
                    return Err(inst.mismatch("OpNot on a non-integer"));
                }
                s.pure_checked(inst, P::Not, &[x])
            })?,
            Op::BitReverse => self.unary(inst, P::Bitrev)?,
            Op::BitCount => {
                let to = self.result_scalar(inst)?;
                self.map1(inst, |s, x| {
                    let n = s.pure_checked(inst, P::Popcount, &[x])?;
                    s.int_resize(inst, n, to, false)
                })?
            }
            Op::BitFieldInsert => self.bitfield(inst, true, P::Bfi)?,
            Op::BitFieldSExtract => self.bitfield(inst, false, P::Sbfe)?,
            Op::BitFieldUExtract => self.bitfield(inst, false, P::Ubfe)?,

            Op::IEqual => self.binary(inst, P::Ieq)?,
            Op::INotEqual => self.binary(inst, P::Ine)?,
            Op::UGreaterThan => self.binary(inst, P::Ugt)?,
            Op::SGreaterThan => self.binary(inst, P::Sgt)?,
            Op::UGreaterThanEqual => self.binary(inst, P::Uge)?,
            Op::SGreaterThanEqual => self.binary(inst, P::Sge)?,
            Op::ULessThan => self.binary(inst, P::Ult)?,
            Op::SLessThan => self.binary(inst, P::Slt)?,
            Op::ULessThanEqual => self.binary(inst, P::Ule)?,
            Op::SLessThanEqual => self.binary(inst, P::Sle)?,
            Op::FOrdEqual => self.binary(inst, P::Feq)?,
            Op::FUnordEqual => self.binary(inst, P::Fequ)?,
            Op::FOrdNotEqual => self.binary(inst, P::Fne)?,
            Op::FUnordNotEqual => self.binary(inst, P::Fneu)?,
            Op::FOrdLessThan => self.binary(inst, P::Flt)?,
            Op::FUnordLessThan => self.binary(inst, P::Fltu)?,
            Op::FOrdGreaterThan => self.binary(inst, P::Fgt)?,
            Op::FUnordGreaterThan => self.binary(inst, P::Fgtu)?,
            Op::FOrdLessThanEqual => self.binary(inst, P::Fle)?,
            Op::FUnordLessThanEqual => self.binary(inst, P::Fleu)?,
            Op::FOrdGreaterThanEqual => self.binary(inst, P::Fge)?,
            Op::FUnordGreaterThanEqual => self.binary(inst, P::Fgeu)?,
            Op::LogicalEqual => self.logical(inst, P::Ieq)?,
            Op::LogicalNotEqual => self.logical(inst, P::Ine)?,
            Op::LogicalOr => self.logical(inst, P::Or)?,
            Op::LogicalAnd => self.logical(inst, P::And)?,
            Op::LogicalNot => self.map1(inst, |s, x| {
                if s.ty(x) != Type::Bool {
                    return Err(inst.mismatch("OpLogicalNot on a non-boolean"));
                }
                s.pure_checked(inst, P::Not, &[x])
            })?,
            Op::Any | Op::All => {
                let v = self.operand_components(inst, 0)?;
                let op = if inst.opcode == Op::Any {
                    P::Or
                } else {
                    P::And
                };
                let Some((&first, rest)) = v.split_first() else {
                    return Err(inst.mismatch("OpAny/OpAll of an empty value"));
                };
                let mut acc = first;
                for &x in rest {
                    acc = self.pure_checked(inst, op, &[acc, x])?;
                }
                if self.ty(acc) != Type::Bool {
                    return Err(inst.mismatch("OpAny/OpAll of a non-boolean vector"));
                }
                self.bind_components(inst, &[acc])?
            }
            Op::IsNan => self.map1(inst, |s, x| s.pure_checked(inst, P::Fneu, &[x, x]))?,
            Op::IsInf => self.map1(inst, |s, x| {
                let a = s.pure_checked(inst, P::Fabs, &[x])?;
                let inf = s.fconst(s.ty(x), f64::INFINITY);
                Ok(s.pure(P::Feq, &[a, inf]))
            })?,
            Op::Select => self.select(inst)?,

            Op::ConvertFToU => self.conversion(inst, P::F2u)?,
            Op::ConvertFToS => self.conversion(inst, P::F2s)?,
            Op::ConvertSToF => self.conversion(inst, P::S2f)?,
            Op::ConvertUToF => self.conversion(inst, P::U2f)?,
            Op::FConvert => {
                let to = self.result_scalar(inst)?;
                self.map1(inst, |s, x| {
                    if s.ty(x) == to {
                        Ok(x)
                    } else {
                        s.convert_checked(inst, P::Fcvt, x, to)
                    }
                })?
            }
            Op::UConvert | Op::SConvert => {
                let to = self.result_scalar(inst)?;
                let signed = inst.opcode == Op::SConvert;
                self.map1(inst, |s, x| s.int_resize(inst, x, to, signed))?
            }
            Op::Bitcast => self.bitcast(inst)?,
            Op::QuantizeToF16 => self.map1(inst, |s, x| {
                if s.ty(x) != Type::F32 {
                    return Err(inst.mismatch("OpQuantizeToF16 of a non-f32"));
                }
                let h = s.convert(P::Fcvt, x, Type::F16);
                let back = s.convert(P::Fcvt, h, Type::F32);
                let mag = s.pure(P::Fabs, &[back]);
                let min_normal = s.fconst(Type::F32, 2f64.powi(-14));
                let tiny = s.pure(P::Flt, &[mag, min_normal]);
                let zero = s.zero(Type::F32);
                Ok(s.pure(P::Select, &[tiny, zero, back]))
            })?,

            Op::IAddCarry | Op::ISubBorrow | Op::UMulExtended | Op::SMulExtended => {
                self.extended(inst)?
            }
            _ => return self.lower_composite(inst),
        }
        Ok(true)
    }

    /// `x - y * round(x / y)` with `round` = floor (OpFMod) or trunc (OpFRem).
    fn float_remainder(
        &mut self,
        inst: &Inst,
        x: Value,
        y: Value,
        round: PureOp,
    ) -> Result<Value, SpirvError> {
        let q = self.pure_checked(inst, PureOp::Fdiv, &[x, y])?;
        let r = self.pure(round, &[q]);
        let m = self.pure(PureOp::Fmul, &[y, r]);
        Ok(self.pure(PureOp::Fsub, &[x, m]))
    }

    fn smod(&mut self, inst: &Inst, x: Value, y: Value) -> Result<Value, SpirvError> {
        let r = self.pure_checked(inst, PureOp::Srem, &[x, y])?;
        let ty = self.ty(r);
        let zero = self.zero(ty);
        let nonzero = self.pure(PureOp::Ine, &[r, zero]);
        let signs = self.pure(PureOp::Xor, &[r, y]);
        let differ = self.pure(PureOp::Slt, &[signs, zero]);
        let fix = self.pure(PureOp::And, &[nonzero, differ]);
        let adjusted = self.pure(PureOp::Iadd, &[r, y]);
        Ok(self.pure(PureOp::Select, &[fix, adjusted, r]))
    }

    fn int_binary(&mut self, inst: &Inst, op: PureOp) -> Result<(), SpirvError> {
        self.map2(inst, |s, x, y| {
            if !s.ty(x).is_int() {
                return Err(inst.mismatch("bitwise operation on non-integers"));
            }
            s.pure_checked(inst, op, &[x, y])
        })
    }

    /// Shifts: the shift amount may have another width than the base.
    fn shift(&mut self, inst: &Inst, op: PureOp) -> Result<(), SpirvError> {
        self.map2(inst, |s, x, n| {
            let ty = s.ty(x);
            if !ty.is_int() || !s.ty(n).is_int() {
                return Err(inst.mismatch("shift of non-integers"));
            }
            let n = s.int_resize(inst, n, ty, false)?;
            s.pure_checked(inst, op, &[x, n])
        })
    }

    /// An integer zero- or sign-extended, or truncated, to `to`.
    pub fn int_resize(
        &mut self,
        inst: &Inst,
        x: Value,
        to: Type,
        signed: bool,
    ) -> Result<Value, SpirvError> {
        let from = self.ty(x);
        if !from.is_int() || !to.is_int() {
            return Err(inst.mismatch(format!("integer conversion from {from} to {to}")));
        }
        Ok(match from.bits().cmp(&to.bits()) {
            core::cmp::Ordering::Equal => x,
            core::cmp::Ordering::Less => {
                self.convert(if signed { PureOp::Sext } else { PureOp::Uext }, x, to)
            }
            core::cmp::Ordering::Greater => self.convert(PureOp::Itrunc, x, to),
        })
    }

    /// Bit-field instructions: a scalar offset and count (any integer width) for every
    /// component.
    fn bitfield(&mut self, inst: &Inst, insert: bool, op: PureOp) -> Result<(), SpirvError> {
        let base = self.operand_components(inst, 0)?;
        let (ins, first) = if insert {
            (Some(self.operand_components(inst, 1)?), 2)
        } else {
            (None, 1)
        };
        let offset = self.operand_scalar(inst, first)?;
        let count = self.operand_scalar(inst, first + 1)?;
        let offset = self.int_resize(inst, offset, Type::I32, false)?;
        let count = self.int_resize(inst, count, Type::I32, false)?;
        let mut out = Vec::new();
        for (i, &b) in base.iter().enumerate() {
            let v = match &ins {
                Some(ins) => {
                    let x = *ins
                        .get(i)
                        .ok_or_else(|| inst.mismatch("insert has fewer components than base"))?;
                    self.pure_checked(inst, op, &[b, x, offset, count])?
                }
                None => self.pure_checked(inst, op, &[b, offset, count])?,
            };
            out.push(v);
        }
        self.bind_components(inst, &out)
    }

    fn conversion(&mut self, inst: &Inst, op: PureOp) -> Result<(), SpirvError> {
        let to = self.result_scalar(inst)?;
        self.map1(inst, |s, x| s.convert_checked(inst, op, x, to))
    }

    /// `OpSelect`: per component with a vector condition, or whole objects with a scalar one.
    fn select(&mut self, inst: &Inst) -> Result<(), SpirvError> {
        let cond = self.operand(inst, 0)?;
        let a = self.operand(inst, 1)?;
        let b = self.operand(inst, 2)?;
        let conds = cond
            .components()
            .ok_or_else(|| inst.mismatch("the select condition is not a bool or bool vector"))?;
        if conds.iter().any(|&c| self.ty(c) != Type::Bool) {
            return Err(inst.mismatch("the select condition is not boolean"));
        }
        let value = match (&a, &b, conds.len()) {
            (_, _, 1) => self.select_agg(inst, conds[0], &a, &b)?,
            (Agg::Composite(xs), Agg::Composite(ys), n) if xs.len() == n && ys.len() == n => {
                let mut out = Vec::new();
                for ((x, y), &c) in xs.iter().zip(ys.iter()).zip(&conds) {
                    out.push(self.select_agg(inst, c, x, y)?);
                }
                Agg::composite(out)
            }
            _ => return Err(inst.mismatch("select operands do not match the condition")),
        };
        let mut leaves = Vec::new();
        value.leaves(&mut leaves);
        let expected = self.types.leaf_types(inst.result_ty()?, inst)?;
        if leaves
            .iter()
            .map(|&v| self.ty(v))
            .ne(expected.iter().copied())
        {
            return Err(inst.mismatch("select result does not match its result type"));
        }
        self.bind(inst, value)
    }

    /// Bit casts, including between vectors of 16-bit and 32-bit components.
    fn bitcast(&mut self, inst: &Inst) -> Result<(), SpirvError> {
        let src = self.operand(inst, 0)?;
        let src = src
            .components()
            .ok_or_else(|| inst.unsupported("bit casts of pointers or composites"))?;
        let (to, count) = self.types.components(inst.result_ty()?, inst)?;
        let src_bits: u32 = src.iter().map(|&v| self.ty(v).bits()).sum();
        if src_bits != to.bits() * count as u32 || to == Type::Bool {
            return Err(inst.mismatch("bit cast between types of different sizes"));
        }
        if src.len() == count {
            let mut out = Vec::new();
            for &x in &src {
                out.push(self.reinterpret(inst, x, to)?);
            }
            return self.bind_components(inst, &out);
        }
        // Regroup through 16-bit chunks.
        let mut chunks = Vec::new();
        for &x in &src {
            match self.ty(x).bits() {
                16 => chunks.push(self.reinterpret(inst, x, Type::I16)?),
                32 => {
                    let i = self.reinterpret(inst, x, Type::I32)?;
                    let sixteen = self.iconst(Type::I32, 16);
                    let hi = self.pure(PureOp::Ushr, &[i, sixteen]);
                    chunks.push(self.convert(PureOp::Itrunc, i, Type::I16));
                    chunks.push(self.convert(PureOp::Itrunc, hi, Type::I16));
                }
                _ => return Err(inst.unsupported("bit casts of this width")),
            }
        }
        let mut out = Vec::new();
        match to.bits() {
            16 => {
                for c in chunks {
                    out.push(self.reinterpret(inst, c, to)?);
                }
            }
            32 => {
                for pair in chunks.chunks(2) {
                    let lo = self.convert(PureOp::Uext, pair[0], Type::I32);
                    let hi = self.convert(PureOp::Uext, pair[1], Type::I32);
                    let sixteen = self.iconst(Type::I32, 16);
                    let hi = self.pure(PureOp::Ishl, &[hi, sixteen]);
                    let word = self.pure(PureOp::Or, &[lo, hi]);
                    out.push(self.reinterpret(inst, word, to)?);
                }
            }
            _ => return Err(inst.unsupported("bit casts of this width")),
        }
        self.bind_components(inst, &out)
    }

    /// The same bits as another type of the same width.
    pub fn reinterpret(&mut self, inst: &Inst, x: Value, to: Type) -> Result<Value, SpirvError> {
        let from = self.ty(x);
        if from == to {
            return Ok(x);
        }
        if from.is_int() && to.is_int() && from.bits() == to.bits() {
            return Ok(x);
        }
        self.convert_checked(inst, PureOp::Bitcast, x, to)
    }

    /// `OpIAddCarry`, `OpISubBorrow`, `OpUMulExtended`, `OpSMulExtended`: a two-member structure.
    fn extended(&mut self, inst: &Inst) -> Result<(), SpirvError> {
        let a = self.operand_components(inst, 0)?;
        let b = self.operand_components(inst, 1)?;
        if a.len() != b.len() {
            return Err(inst.mismatch("operands have different component counts"));
        }
        let (mut lo, mut hi) = (Vec::new(), Vec::new());
        for (&x, &y) in a.iter().zip(&b) {
            let ty = self.ty(x);
            if !ty.is_int() {
                return Err(inst.mismatch("extended arithmetic on non-integers"));
            }
            let one = self.iconst(ty, 1);
            let zero = self.zero(ty);
            let (l, h) = match inst.opcode {
                Op::IAddCarry => {
                    let s = self.pure_checked(inst, PureOp::Iadd, &[x, y])?;
                    let c = self.pure(PureOp::Ult, &[s, x]);
                    (s, self.pure(PureOp::Select, &[c, one, zero]))
                }
                Op::ISubBorrow => {
                    let d = self.pure_checked(inst, PureOp::Isub, &[x, y])?;
                    let c = self.pure(PureOp::Ult, &[x, y]);
                    (d, self.pure(PureOp::Select, &[c, one, zero]))
                }
                Op::UMulExtended => (
                    self.pure_checked(inst, PureOp::Imul, &[x, y])?,
                    self.pure(PureOp::Umulhi, &[x, y]),
                ),
                _ => (
                    self.pure_checked(inst, PureOp::Imul, &[x, y])?,
                    self.pure(PureOp::Smulhi, &[x, y]),
                ),
            };
            lo.push(l);
            hi.push(h);
        }
        let vector = a.len() > 1;
        let wrap = |v: Vec<Value>| {
            if vector {
                Agg::vector(v)
            } else {
                Agg::Scalar(v[0])
            }
        };
        let value = Agg::composite(vec![wrap(lo), wrap(hi)]);
        let mut leaves = Vec::new();
        value.leaves(&mut leaves);
        let expected = self.types.leaf_types(inst.result_ty()?, inst)?;
        if leaves
            .iter()
            .map(|&v| self.ty(v))
            .ne(expected.iter().copied())
        {
            return Err(inst.mismatch("result does not match its structure type"));
        }
        self.bind(inst, value)
    }
}
