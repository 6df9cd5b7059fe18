//! Buffer, push-constant and workgroup memory: byte offsets from access chains, and loads and
//! stores of whole values split into runs of tightly packed scalars.
//!
//! Offsets follow the layout decorations (SPIR-V section 2.18.1): structure members at their
//! `Offset`, array elements `ArrayStride` apart, matrix columns (rows, if `RowMajor`)
//! `MatrixStride` apart. A column of a row-major matrix is a vector whose components are
//! `MatrixStride` apart ([`MemLayout::Strided`]). Booleans occupy 32-bit integers.

use super::context::Lowerer;
use super::error::SpirvError;
use super::module::{Id, Inst};
use super::types::Ty;
use super::value::{Agg, MemLayout, MemPtr, Pointer};
use agxc_egraph::ir::{AddressSpace, EffectOp, MemAccess, PureOp, Type, Value};

impl<'m> Lowerer<'m> {
    fn add_offset(
        &mut self,
        inst: &Inst,
        p: &mut MemPtr,
        index: Value,
        scale: u32,
    ) -> Result<(), SpirvError> {
        if let Some(c) = self.fold(index).filter(|c| c.ty().is_int()) {
            let add = (c.as_i64())
                .checked_mul(scale as i64)
                .and_then(|a| u32::try_from(a).ok())
                .and_then(|a| p.offset.checked_add(a));
            if let Some(o) = add {
                p.offset = o;
                return Ok(());
            }
        }
        let ix = self.index_i32(inst, index)?;
        let k = self.iconst(Type::I32, scale as i64);
        let scaled = self.pure(PureOp::Imul, &[ix, k]);
        p.dynamic = Some(match p.dynamic {
            Some(d) => self.pure(PureOp::Iadd, &[d, scaled]),
            None => scaled,
        });
        Ok(())
    }
    pub(crate) fn chain_mem(
        &mut self,
        inst: &Inst,
        mut p: MemPtr,
        indices: &[Value],
    ) -> Result<MemPtr, SpirvError> {
        for &ix in indices {
            let cur = p.ty;
            match self.types.get(cur, inst)?.clone() {
                Ty::Struct { members } => {
                    let m = match self.fold(ix) {
                        Some(c) if c.ty().is_int() && (c.as_u64() as usize) < members.len() => {
                            c.as_u64() as u32
                        }
                        _ => {
                            return Err(
                                inst.invalid("structure member index is not a valid constant")
                            )
                        }
                    };
                    let off = self.types.member_offset(cur, m, &self.decos, inst)?;
                    p.offset = p
                        .offset
                        .checked_add(off)
                        .ok_or_else(|| inst.invalid("offset overflow"))?;
                    let member_ty = members[m as usize];
                    p.layout = if self.is_matrix_like(member_ty, inst)? {
                        let (stride, row_major) =
                            self.types
                                .matrix_layout(cur, m, member_ty, &self.decos, inst)?;
                        MemLayout::Matrix { stride, row_major }
                    } else {
                        MemLayout::Plain
                    };
                    p.ty = member_ty;
                }
                Ty::Array { elem, length } => {
                    let ix = self.private_index(inst, &p, ix, length)?;
                    let stride = self.types.array_stride(cur, &self.decos, inst)?;
                    self.add_offset(inst, &mut p, ix, stride)?;
                    p.ty = elem;
                }
                Ty::RuntimeArray { elem } => {
                    let stride = self.types.array_stride(cur, &self.decos, inst)?;
                    self.add_offset(inst, &mut p, ix, stride)?;
                    p.ty = elem;
                }
                Ty::Matrix { column, columns } => {
                    let ix = self.private_index(inst, &p, ix, columns)?;
                    let (stride, row_major) = self.matrix_stride(p.layout, column, inst)?;
                    let scalar = self.column_scalar_bytes(column, inst)?;
                    if row_major {
                        self.add_offset(inst, &mut p, ix, scalar)?;
                        p.layout = MemLayout::Strided { stride };
                    } else {
                        self.add_offset(inst, &mut p, ix, stride)?;
                        p.layout = MemLayout::Plain;
                    }
                    p.ty = column;
                }
                Ty::Vector { elem, count } => {
                    let ix = self.private_index(inst, &p, ix, count)?;
                    let step = match p.layout {
                        MemLayout::Strided { stride } => stride,
                        _ => self.types.scalar(elem, inst)?.bytes(),
                    };
                    self.add_offset(inst, &mut p, ix, step)?;
                    p.layout = MemLayout::Plain;
                    p.ty = elem;
                }
                other => return Err(inst.mismatch(format!("cannot index into {other:?}"))),
            }
        }
        Ok(p)
    }
    /// An index into an array, matrix or vector of `n` in private memory, clamped to it
    /// (`private.rs`). Other memory keeps its index as it is (buffers are bounds-checked
    /// where they are bound).
    fn private_index(
        &mut self,
        inst: &Inst,
        p: &MemPtr,
        ix: Value,
        n: u32,
    ) -> Result<Value, SpirvError> {
        if p.space != AddressSpace::Private {
            return Ok(ix);
        }
        if let Some(c) = self.fold(ix).filter(|c| c.ty().is_int()) {
            return Ok(match u32::try_from(c.as_i64()) {
                Ok(i) if i < n => ix,
                _ => self.iconst(Type::I32, i64::from(n.max(1)) - 1),
            });
        }
        let ix = self.index_i32(inst, ix)?;
        Ok(self.clamp_private_index(ix, n))
    }

    pub(crate) fn is_matrix_like(&self, mut ty: Id, at: &Inst) -> Result<bool, SpirvError> {
        loop {
            match self.types.get(ty, at)? {
                Ty::Matrix { .. } => return Ok(true),
                Ty::Array { elem, .. } | Ty::RuntimeArray { elem } => ty = *elem,
                _ => return Ok(false),
            }
        }
    }
    pub(crate) fn column_scalar_bytes(&self, column: Id, at: &Inst) -> Result<u32, SpirvError> {
        Ok(self.types.components(column, at)?.0.bytes())
    }
    /// Column (or row) stride and majorness of a matrix under a layout.
    pub(crate) fn matrix_stride(
        &self,
        layout: MemLayout,
        column: Id,
        at: &Inst,
    ) -> Result<(u32, bool), SpirvError> {
        Ok(match layout {
            MemLayout::Matrix { stride, row_major } => (stride, row_major),
            _ => (self.types.natural_size(column, &self.decos, at)?, false),
        })
    }
    /// `OpArrayLength`: (buffer size - member offset) / stride.
    pub fn lower_array_length(&mut self, inst: &Inst) -> Result<(), SpirvError> {
        let ptr = self.operand_pointer(inst, 0)?;
        let member = inst.literal(1)?;
        let Pointer::Mem(m) = &*ptr else {
            return Err(inst.invalid("OpArrayLength of a pointer that is not into a buffer"));
        };
        let AddressSpace::Storage(binding) = m.space else {
            return Err(inst.invalid("OpArrayLength outside a storage buffer"));
        };
        let Ty::Struct { members } = self.types.get(m.ty, inst)?.clone() else {
            return Err(inst.mismatch("OpArrayLength of a non-structure"));
        };
        let array = *members
            .get(member as usize)
            .ok_or_else(|| inst.invalid("member out of range"))?;
        if !matches!(self.types.get(array, inst)?, Ty::RuntimeArray { .. }) {
            return Err(inst.mismatch("OpArrayLength of a member that is not a runtime array"));
        }
        let offset = self.types.member_offset(m.ty, member, &self.decos, inst)?;
        let start = m
            .offset
            .checked_add(offset)
            .ok_or_else(|| inst.invalid("offset overflow"))?;
        let stride = self.types.array_stride(array, &self.decos, inst)?.max(1);
        let size = self.invariant_read(EffectOp::BufferSize(binding), Type::I32);
        let mut bytes = if start > 0 {
            let s = self.iconst(Type::I32, start as i64);
            // A buffer smaller than the array's start holds no elements.
            let clamped = self.pure(PureOp::Umax, &[size, s]);
            self.pure(PureOp::Isub, &[clamped, s])
        } else {
            size
        };
        if let Some(d) = m.dynamic {
            let clamped = self.pure(PureOp::Umax, &[bytes, d]);
            bytes = self.pure(PureOp::Isub, &[clamped, d]);
        }
        let k = self.iconst(Type::I32, stride as i64);
        let len = self.pure(PureOp::Udiv, &[bytes, k]);
        self.bind_components(inst, &[len])
    }
    /// Loads a value of type `ty` at `base + offset`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn load_mem(
        &mut self,
        inst: &Inst,
        space: AddressSpace,
        base: Value,
        offset: u32,
        ty: Id,
        layout: MemLayout,
        depth: u32,
    ) -> Result<Agg, SpirvError> {
        if depth > 32 {
            return Err(inst.invalid("type nests too deeply"));
        }
        // `o + i * step`, rejecting offsets past 4 GiB.
        let at = |o: u32, i: u32, step: u32| {
            i.checked_mul(step)
                .and_then(|k| o.checked_add(k))
                .ok_or_else(|| inst.invalid("offset overflow"))
        };
        match self.types.get(ty, inst)?.clone() {
            Ty::Bool | Ty::Int { .. } | Ty::Float { .. } => {
                let t = self.types.scalar(ty, inst)?;
                Ok(Agg::Scalar(self.load_scalars(space, base, offset, &[t])[0]))
            }
            Ty::Vector { elem, count } => {
                let t = self.types.scalar(elem, inst)?;
                match layout {
                    MemLayout::Strided { stride } => {
                        let mut comps = Vec::new();
                        for i in 0..count {
                            comps.push(
                                self.load_scalars(space, base, at(offset, i, stride)?, &[t])[0],
                            );
                        }
                        Ok(Agg::vector(comps))
                    }
                    _ => {
                        let tys = vec![t; count as usize];
                        let comps = self.load_scalars(space, base, offset, &tys);
                        Ok(Agg::vector(comps))
                    }
                }
            }
            Ty::Matrix { column, columns } => {
                let (stride, row_major) = self.matrix_stride(layout, column, inst)?;
                let scalar = self.column_scalar_bytes(column, inst)?;
                let mut cols = Vec::new();
                for c in 0..columns {
                    let (o, l) = if row_major {
                        (at(offset, c, scalar)?, MemLayout::Strided { stride })
                    } else {
                        (at(offset, c, stride)?, MemLayout::Plain)
                    };
                    cols.push(self.load_mem(inst, space, base, o, column, l, depth + 1)?);
                }
                Ok(Agg::composite(cols))
            }
            Ty::Array { elem, length } => {
                let stride = self.types.array_stride(ty, &self.decos, inst)?;
                let mut items = Vec::new();
                for i in 0..length {
                    let o = at(offset, i, stride)?;
                    items.push(self.load_mem(inst, space, base, o, elem, layout, depth + 1)?);
                }
                Ok(Agg::composite(items))
            }
            Ty::Struct { members } => {
                let mut items = Vec::new();
                for (i, &m) in members.iter().enumerate() {
                    let off = self.types.member_offset(ty, i as u32, &self.decos, inst)?;
                    let l = self.member_layout(ty, i as u32, m, inst)?;
                    items.push(self.load_mem(
                        inst,
                        space,
                        base,
                        at(offset, 1, off)?,
                        m,
                        l,
                        depth + 1,
                    )?);
                }
                Ok(Agg::composite(items))
            }
            other => {
                Err(inst.unsupported(format!("loading a value of type {other:?} from memory")))
            }
        }
    }
    pub(crate) fn member_layout(
        &self,
        st: Id,
        member: u32,
        member_ty: Id,
        inst: &Inst,
    ) -> Result<MemLayout, SpirvError> {
        if self.is_matrix_like(member_ty, inst)? {
            let (stride, row_major) =
                self.types
                    .matrix_layout(st, member, member_ty, &self.decos, inst)?;
            Ok(MemLayout::Matrix { stride, row_major })
        } else {
            Ok(MemLayout::Plain)
        }
    }
    /// One IR load of consecutive scalars; booleans are stored as 32-bit integers.
    pub(crate) fn load_scalars(
        &mut self,
        space: AddressSpace,
        base: Value,
        offset: u32,
        tys: &[Type],
    ) -> Vec<Value> {
        let mem: Vec<Type> = tys
            .iter()
            .map(|&t| if t == Type::Bool { Type::I32 } else { t })
            .collect();
        let loaded = self.effect(EffectOp::Load(MemAccess { space, offset }), &[base], &mem);
        loaded
            .iter()
            .zip(tys)
            .map(|(&v, &t)| {
                if t == Type::Bool {
                    let z = self.zero(Type::I32);
                    self.pure(PureOp::Ine, &[v, z])
                } else {
                    v
                }
            })
            .collect()
    }
    /// Stores a value of type `ty` at `base + offset`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn store_mem(
        &mut self,
        inst: &Inst,
        space: AddressSpace,
        base: Value,
        offset: u32,
        ty: Id,
        layout: MemLayout,
        value: &Agg,
        depth: u32,
    ) -> Result<(), SpirvError> {
        if depth > 32 {
            return Err(inst.invalid("type nests too deeply"));
        }
        // `o + i * step`, rejecting offsets past 4 GiB.
        let at = |o: u32, i: u32, step: u32| {
            i.checked_mul(step)
                .and_then(|k| o.checked_add(k))
                .ok_or_else(|| inst.invalid("offset overflow"))
        };
        let shape = || inst.mismatch("stored value does not match the pointee type");
        match self.types.get(ty, inst)?.clone() {
            Ty::Bool | Ty::Int { .. } | Ty::Float { .. } => {
                let v = value.scalar().ok_or_else(shape)?;
                self.check_store_type(inst, ty, &[v])?;
                self.store_scalars(space, base, offset, &[v]);
                Ok(())
            }
            Ty::Vector { count, .. } => {
                let comps = value
                    .components()
                    .filter(|c| c.len() == count as usize)
                    .ok_or_else(shape)?;
                self.check_store_type(inst, ty, &comps)?;
                match layout {
                    MemLayout::Strided { stride } => {
                        for (i, &c) in comps.iter().enumerate() {
                            self.store_scalars(space, base, at(offset, i as u32, stride)?, &[c]);
                        }
                    }
                    _ => self.store_scalars(space, base, offset, &comps),
                }
                Ok(())
            }
            Ty::Matrix { column, columns } => {
                let cols = value
                    .children()
                    .filter(|c| c.len() == columns as usize)
                    .ok_or_else(shape)?
                    .to_vec();
                let (stride, row_major) = self.matrix_stride(layout, column, inst)?;
                let scalar = self.column_scalar_bytes(column, inst)?;
                for (c, col) in cols.iter().enumerate() {
                    let c = c as u32;
                    let (o, l) = if row_major {
                        (at(offset, c, scalar)?, MemLayout::Strided { stride })
                    } else {
                        (at(offset, c, stride)?, MemLayout::Plain)
                    };
                    self.store_mem(inst, space, base, o, column, l, col, depth + 1)?;
                }
                Ok(())
            }
            Ty::Array { elem, length } => {
                let items = value
                    .children()
                    .filter(|c| c.len() == length as usize)
                    .ok_or_else(shape)?
                    .to_vec();
                let stride = self.types.array_stride(ty, &self.decos, inst)?;
                for (i, item) in items.iter().enumerate() {
                    let o = at(offset, i as u32, stride)?;
                    self.store_mem(inst, space, base, o, elem, layout, item, depth + 1)?;
                }
                Ok(())
            }
            Ty::Struct { members } => {
                let items = value
                    .children()
                    .filter(|c| c.len() == members.len())
                    .ok_or_else(shape)?
                    .to_vec();
                for (i, (&m, item)) in members.iter().zip(items.iter()).enumerate() {
                    let off = self.types.member_offset(ty, i as u32, &self.decos, inst)?;
                    let l = self.member_layout(ty, i as u32, m, inst)?;
                    self.store_mem(
                        inst,
                        space,
                        base,
                        at(offset, 1, off)?,
                        m,
                        l,
                        item,
                        depth + 1,
                    )?;
                }
                Ok(())
            }
            other => Err(inst.unsupported(format!("storing a value of type {other:?} to memory"))),
        }
    }
    fn check_store_type(&self, inst: &Inst, ty: Id, comps: &[Value]) -> Result<(), SpirvError> {
        let (want, _) = self.types.components(ty, inst)?;
        match comps.iter().find(|&&c| self.ty(c) != want) {
            Some(&c) => Err(inst.mismatch(format!(
                "storing a {} where the memory holds {want}",
                self.ty(c)
            ))),
            None => Ok(()),
        }
    }
    fn store_scalars(&mut self, space: AddressSpace, base: Value, offset: u32, values: &[Value]) {
        let mut args = vec![base];
        for &v in values {
            if self.ty(v) == Type::Bool {
                let one = self.iconst(Type::I32, 1);
                let zero = self.zero(Type::I32);
                args.push(self.pure(PureOp::Select, &[v, one, zero]));
            } else {
                args.push(v);
            }
        }
        self.effect(EffectOp::Store(MemAccess { space, offset }), &args, &[]);
    }
}
