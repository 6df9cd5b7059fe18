//! Variables, pointers, loads and stores.
//!
//! - Function and Private variables, and stage outputs, are promoted: their contents live in the
//!   environment as IR values ([`Key::Var`]), a store replaces them and a load reads them, so no
//!   memory traffic is left. A dynamic index becomes a chain of `select`s over the elements,
//!   or a load from the function's constant data for a large constant array (`table.rs`).
//! - Stage inputs are read once, in the prologue (see `io.rs`).
//! - Storage and uniform buffers, push constants and workgroup memory are byte-addressed: an
//!   access chain accumulates a constant and a dynamic byte offset following the layout
//!   decorations, and a load or store of a composite becomes one IR load or store per run of
//!   tightly packed scalars (`buffer.rs`).

use super::context::Lowerer;
use super::error::SpirvError;
use super::module::{Id, Inst};
use super::types::Ty;
use super::value::{Agg, Handle, Index, Key, MemLayout, MemPtr, Pointer, Root};
use agxc_egraph::ir::{AddressSpace, Binding, PureOp, Type, Value};
use smallvec::SmallVec;
use spirv::{Decoration, StorageClass};
use std::rc::Rc;

/// A variable's storage class and pointee type.
#[derive(Clone, Copy, Debug)]
pub(crate) struct VarInfo {
    pub class: StorageClass,
    pub pointee: Id,
}

impl<'m> Lowerer<'m> {
    /// The descriptor binding of a variable (defaults 0, 0).
    pub fn binding_of(&self, var: Id) -> Binding {
        Binding::new(
            self.decos
                .literal(var, Decoration::DescriptorSet)
                .unwrap_or(0),
            self.decos.literal(var, Decoration::Binding).unwrap_or(0),
        )
    }

    /// A module-scope `OpVariable`.
    pub fn declare_global_var(&mut self, inst: &Inst) -> Result<(), SpirvError> {
        let id = inst.result()?;
        let (class, pointee) = self.types.pointer(inst.result_ty()?, inst)?;
        let mem = |space: AddressSpace, offset: u32| {
            Pointer::Mem(MemPtr {
                space,
                offset,
                dynamic: None,
                ty: pointee,
                layout: MemLayout::Plain,
            })
        };
        let logical = |root: Root| Pointer::Logical {
            root,
            path: SmallVec::new(),
            ty: pointee,
        };
        let has_init = inst.operands.len() > 1;
        let ptr = match class {
            StorageClass::Input => logical(Root::Input(id)),
            StorageClass::Output | StorageClass::Private => logical(Root::Var(id)),
            // Images and samplers; arrays of them are rejected where they are used.
            StorageClass::UniformConstant => logical(Root::Handle(id)),
            StorageClass::Uniform => {
                let b = self.binding_of(id);
                if self.decos.has(pointee, Decoration::BufferBlock) {
                    mem(AddressSpace::Storage(b), 0)
                } else {
                    mem(AddressSpace::Uniform(b), 0)
                }
            }
            StorageClass::StorageBuffer => mem(AddressSpace::Storage(self.binding_of(id)), 0),
            StorageClass::PushConstant => {
                // The bytes a run must supply (a module with several blocks, for several entry
                // points, asks for the largest).
                let extent = self.types.extent(pointee, &self.decos, inst)?;
                self.func.push_constant_bytes = self.func.push_constant_bytes.max(extent);
                mem(AddressSpace::PushConstant, 0)
            }
            StorageClass::Workgroup => {
                if has_init {
                    return Err(inst.unsupported("an initializer on a Workgroup variable"));
                }
                let size = self.types.natural_size(pointee, &self.decos, inst)?;
                let too_much = || inst.unsupported("more than 4 GiB of workgroup memory");
                let offset = self
                    .func
                    .shared_memory
                    .checked_next_multiple_of(16)
                    .ok_or_else(too_much)?;
                self.func.shared_memory = offset.checked_add(size).ok_or_else(too_much)?;
                mem(AddressSpace::Workgroup, offset)
            }
            other => return Err(inst.unsupported(format!("storage class {other:?}"))),
        };
        self.vars.insert(id, VarInfo { class, pointee });
        self.globals.insert(id, Agg::Pointer(Rc::new(ptr)));
        Ok(())
    }

    /// Gives every Private and Output variable its initial contents.
    pub fn init_global_vars(&mut self) -> Result<(), SpirvError> {
        let m = self.m;
        for inst in m.globals.iter().filter(|i| i.opcode == spirv::Op::Variable) {
            let id = inst.result()?;
            let Some(info) = self.vars.get(&id).copied() else {
                continue;
            };
            if matches!(info.class, StorageClass::Private | StorageClass::Output) {
                let init = self.var_initializer(inst, info.pointee)?;
                self.env.set(Key::Var(id), init);
            }
        }
        Ok(())
    }

    fn var_initializer(&mut self, inst: &Inst, pointee: Id) -> Result<Agg, SpirvError> {
        if inst.operands.len() > 1 {
            let init = self.operand(inst, 1)?;
            Ok(init)
        } else {
            self.zero_agg(pointee, inst)
        }
    }

    /// A function-scope `OpVariable`: promoted, initialized to its initializer or zero; or a
    /// large array in private memory (`private.rs`).
    pub fn lower_local_var(&mut self, inst: &Inst) -> Result<(), SpirvError> {
        let id = inst.result()?;
        let (class, pointee) = self.types.pointer(inst.result_ty()?, inst)?;
        if class != StorageClass::Function {
            return Err(inst.invalid(format!("{class:?} variable inside a function")));
        }
        if self.is_private_var(id) {
            let ptr = self.declare_private_var(inst, pointee)?;
            self.vars.insert(id, VarInfo { class, pointee });
            self.env.set(Key::Id(id), Agg::Pointer(Rc::new(ptr)));
            return Ok(());
        }
        let init = self.var_initializer(inst, pointee)?;
        self.vars.insert(id, VarInfo { class, pointee });
        self.env.set(Key::Var(id), init);
        let ptr = Pointer::Logical {
            root: Root::Var(id),
            path: SmallVec::new(),
            ty: pointee,
        };
        self.env.set(Key::Id(id), Agg::Pointer(Rc::new(ptr)));
        Ok(())
    }

    /// The image, sampler or combined image-sampler held by a UniformConstant variable.
    pub fn handle_of(&self, var: Id, pointee: Id, at: &Inst) -> Result<Handle, SpirvError> {
        let binding = self.binding_of(var);
        match self.types.get(pointee, at)? {
            Ty::Image(ty) => Ok(Handle::Image { binding, ty: *ty }),
            Ty::Sampler => Ok(Handle::Sampler { binding }),
            Ty::SampledImage { image } => match self.types.get(*image, at)? {
                Ty::Image(ty) => Ok(Handle::SampledImage {
                    texture: binding,
                    sampler: binding,
                    ty: *ty,
                }),
                _ => Err(at.invalid("sampled image of a non-image type")),
            },
            Ty::Array { .. } | Ty::RuntimeArray { .. } => {
                Err(at.unsupported("arrays of images or samplers"))
            }
            other => Err(at.unsupported(format!("UniformConstant variable of type {other:?}"))),
        }
    }

    /// Operand `i` as a pointer.
    pub fn operand_pointer(&mut self, inst: &Inst, i: usize) -> Result<Rc<Pointer>, SpirvError> {
        match self.operand(inst, i)? {
            Agg::Pointer(p) => Ok(p),
            _ => Err(inst.mismatch(format!("operand {i} is not a pointer"))),
        }
    }

    /// `OpAccessChain` and `OpInBoundsAccessChain`.
    pub fn lower_access_chain(&mut self, inst: &Inst) -> Result<(), SpirvError> {
        let base = self.operand_pointer(inst, 0)?;
        let mut indices = Vec::new();
        for i in 1..inst.operands.len() {
            indices.push(self.operand_scalar(inst, i)?);
        }
        let ptr = match &*base {
            Pointer::Logical { root, path, ty } => {
                if let Root::Handle(_) = root {
                    if !indices.is_empty() {
                        return Err(inst.unsupported("arrays of images or samplers"));
                    }
                }
                let mut path = path.clone();
                let mut ty = *ty;
                for &ix in &indices {
                    let step = match self.fold(ix) {
                        Some(c) if c.ty().is_int() => self.const_index(inst, ty, c)?,
                        _ => {
                            if matches!(self.types.get(ty, inst)?, Ty::Struct { .. }) {
                                return Err(
                                    inst.invalid("structure member index is not a constant")
                                );
                            }
                            Index::Dyn(self.index_i32(inst, ix)?)
                        }
                    };
                    let child = match step {
                        Index::Const(c) => c,
                        Index::Dyn(_) | Index::OutOfRange(_) => 0,
                    };
                    ty = self.types.child(ty, child, inst)?;
                    path.push(step);
                }
                Pointer::Logical {
                    root: *root,
                    path,
                    ty,
                }
            }
            Pointer::Mem(m) => Pointer::Mem(self.chain_mem(inst, m.clone(), &indices)?),
        };
        let (_, pointee) = self.types.pointer(inst.result_ty()?, inst)?;
        if pointee != ptr.pointee() && !self.same_type(pointee, ptr.pointee()) {
            return Err(inst.mismatch(format!(
                "the chain reaches %{}, the result type points to %{pointee}",
                ptr.pointee()
            )));
        }
        self.bind(inst, Agg::Pointer(Rc::new(ptr)))
    }

    /// A constant access-chain index into `ty`: [`Index::OutOfRange`] past the end of a
    /// vector, matrix or array (read as a signed integer, as SPIR-V reads indices); structure
    /// members must exist.
    fn const_index(
        &self,
        inst: &Inst,
        ty: Id,
        c: agxc_egraph::ir::Const,
    ) -> Result<Index, SpirvError> {
        let len = match self.types.get(ty, inst)? {
            Ty::Vector { count, .. } => *count,
            Ty::Matrix { columns, .. } => *columns,
            Ty::Array { length, .. } => *length,
            _ => {
                return u32::try_from(c.as_u64())
                    .map(Index::Const)
                    .map_err(|_| inst.invalid("constant index out of range"))
            }
        };
        let signed = c.as_i64();
        Ok(match u32::try_from(signed) {
            Ok(i) if i < len => Index::Const(i),
            _ => Index::OutOfRange(c.as_u64() as u32),
        })
    }

    /// Structural type equality (modules may declare the same type twice).
    fn same_type(&self, a: Id, b: Id) -> bool {
        a == b
            || matches!((self.types.lookup(a), self.types.lookup(b)), (Some(x), Some(y)) if x == y)
    }

    /// An index as an i32 (indices are signed; narrower ones are sign-extended).
    pub fn index_i32(&mut self, inst: &Inst, v: Value) -> Result<Value, SpirvError> {
        match self.ty(v) {
            Type::I32 => Ok(v),
            Type::I16 => Ok(self.convert(PureOp::Sext, v, Type::I32)),
            other => Err(inst.mismatch(format!("index of type {other}"))),
        }
    }

    /// `OpLoad`.
    pub fn lower_load(&mut self, inst: &Inst) -> Result<(), SpirvError> {
        let ptr = self.operand_pointer(inst, 0)?;
        let value = self.load(inst, &ptr)?;
        self.bind(inst, value)
    }

    /// Reads through a pointer.
    pub fn load(&mut self, inst: &Inst, ptr: &Pointer) -> Result<Agg, SpirvError> {
        match ptr {
            Pointer::Logical { path, ty, .. } if out_of_range(path) => self.zero_agg(*ty, inst),
            Pointer::Logical { root, path, .. } => {
                let whole = match *root {
                    Root::Var(var) => self.env.get(Key::Var(var)).cloned().ok_or_else(|| {
                        inst.invalid(format!("variable %{var} read before it is declared"))
                    })?,
                    Root::Input(var) => {
                        let whole = self.input_agg(var, inst)?;
                        self.check_vertex_input_read(inst, ptr)?;
                        whole
                    }
                    Root::Handle(var) => {
                        let info = self
                            .vars
                            .get(&var)
                            .copied()
                            .ok_or_else(|| inst.unknown_id(var))?;
                        return Ok(Agg::Handle(self.handle_of(var, info.pointee, inst)?));
                    }
                };
                self.extract_path(inst, &whole, path)
            }
            Pointer::Mem(m) => {
                // Bounds the number of scalars (a whole large array is not loaded).
                self.types.leaf_types(m.ty, inst)?;
                let base = match m.dynamic {
                    Some(d) => d,
                    None => self.zero(Type::I32),
                };
                self.load_mem(inst, m.space, base, m.offset, m.ty, m.layout, 0)
            }
        }
    }

    /// `OpStore`.
    pub fn lower_store(&mut self, inst: &Inst) -> Result<(), SpirvError> {
        let ptr = self.operand_pointer(inst, 0)?;
        let value = self.operand(inst, 1)?;
        self.store(inst, &ptr, value)
    }

    /// Writes through a pointer.
    pub fn store(&mut self, inst: &Inst, ptr: &Pointer, value: Agg) -> Result<(), SpirvError> {
        match ptr {
            Pointer::Logical { root, path, .. } if out_of_range(path) => match root {
                Root::Var(_) => Ok(()),
                _ => Err(inst.invalid("store to an Input or UniformConstant variable")),
            },
            Pointer::Logical { root, path, .. } => match *root {
                Root::Var(var) => {
                    // A variable whose contents merging forgot (no later read needs them) is
                    // written again: the contents it had do not matter.
                    let whole = match self.env.get(Key::Var(var)).cloned() {
                        Some(whole) => whole,
                        None => {
                            let info = self
                                .vars
                                .get(&var)
                                .copied()
                                .ok_or_else(|| inst.unknown_id(var))?;
                            self.zero_agg(info.pointee, inst)?
                        }
                    };
                    let new = self.replace_path(inst, &whole, path, value)?;
                    self.env.set(Key::Var(var), new);
                    Ok(())
                }
                Root::Input(_) => Err(inst.invalid("store to an Input variable")),
                Root::Handle(_) => Err(inst.invalid("store to a UniformConstant variable")),
            },
            Pointer::Mem(m) => {
                if !m.space.is_writable() {
                    return Err(inst.invalid("store to read-only memory (Uniform or PushConstant)"));
                }
                self.types.leaf_types(m.ty, inst)?;
                let base = match m.dynamic {
                    Some(d) => d,
                    None => self.zero(Type::I32),
                };
                self.store_mem(inst, m.space, base, m.offset, m.ty, m.layout, &value, 0)
            }
        }
    }

    /// `OpCopyMemory`: a load and a store.
    pub fn lower_copy_memory(&mut self, inst: &Inst) -> Result<(), SpirvError> {
        let dst = self.operand_pointer(inst, 0)?;
        let src = self.operand_pointer(inst, 1)?;
        let v = self.load(inst, &src)?;
        self.store(inst, &dst, v)
    }

    /// Walks a constant or dynamic index path into a value.
    pub fn extract_path(
        &mut self,
        inst: &Inst,
        agg: &Agg,
        path: &[Index],
    ) -> Result<Agg, SpirvError> {
        let Some((first, rest)) = path.split_first() else {
            return Ok(agg.clone());
        };
        let children = agg
            .children()
            .ok_or_else(|| inst.mismatch("index into a non-composite value"))?;
        match *first {
            Index::Const(c) => {
                let child = children
                    .get(c as usize)
                    .ok_or_else(|| inst.invalid(format!("index {c} out of range")))?
                    .clone();
                self.extract_path(inst, &child, rest)
            }
            Index::OutOfRange(c) => Err(inst.invalid(format!("index {c} out of range"))),
            Index::Dyn(ix) => {
                let children: Vec<Agg> = children.to_vec();
                let mut picked = Vec::with_capacity(children.len());
                for c in &children {
                    picked.push(self.extract_path(inst, c, rest)?);
                }
                self.select_dynamic(inst, ix, &picked)
            }
        }
    }

    /// `items[index]` as a chain of selects (out-of-range indices read element 0), or, for a
    /// large constant table, one load from the constant data (`table.rs`).
    pub fn select_dynamic(
        &mut self,
        inst: &Inst,
        index: Value,
        items: &[Agg],
    ) -> Result<Agg, SpirvError> {
        let Some(mut acc) = items.first().cloned() else {
            return Err(inst.invalid("dynamic index into an empty composite"));
        };
        if let Some(read) = self.table_read(index, items) {
            return Ok(read);
        }
        let ty = self.ty(index);
        for (j, item) in items.iter().enumerate().skip(1) {
            let k = self.iconst(ty, j as i64);
            let hit = self.pure(PureOp::Ieq, &[index, k]);
            acc = self.select_agg(inst, hit, item, &acc)?;
        }
        Ok(acc)
    }

    /// `cond ? a : b` leaf by leaf.
    pub fn select_agg(
        &mut self,
        inst: &Inst,
        cond: Value,
        a: &Agg,
        b: &Agg,
    ) -> Result<Agg, SpirvError> {
        if a == b {
            return Ok(a.clone());
        }
        match (a, b) {
            (Agg::Scalar(x), Agg::Scalar(y)) => {
                Ok(Agg::Scalar(self.pure(PureOp::Select, &[cond, *x, *y])))
            }
            (Agg::Composite(xs), Agg::Composite(ys)) if xs.len() == ys.len() => {
                let mut out = Vec::with_capacity(xs.len());
                for (x, y) in xs.iter().zip(ys.iter()) {
                    out.push(self.select_agg(inst, cond, x, y)?);
                }
                Ok(Agg::composite(out))
            }
            _ => {
                Err(inst
                    .unsupported("selecting between pointers, images or differently shaped values"))
            }
        }
    }

    /// Replaces the part of `agg` at `path` by `value`.
    pub fn replace_path(
        &mut self,
        inst: &Inst,
        agg: &Agg,
        path: &[Index],
        value: Agg,
    ) -> Result<Agg, SpirvError> {
        let Some((first, rest)) = path.split_first() else {
            return Ok(value);
        };
        let children: Vec<Agg> = agg
            .children()
            .ok_or_else(|| inst.mismatch("index into a non-composite value"))?
            .to_vec();
        let mut out = children.clone();
        match *first {
            Index::Const(c) => {
                let slot = out
                    .get_mut(c as usize)
                    .ok_or_else(|| inst.invalid(format!("index {c} out of range")))?;
                let old = slot.clone();
                *slot = self.replace_path(inst, &old, rest, value)?;
            }
            Index::OutOfRange(c) => return Err(inst.invalid(format!("index {c} out of range"))),
            Index::Dyn(ix) => {
                let ty = self.ty(ix);
                for (j, child) in children.iter().enumerate() {
                    let replaced = self.replace_path(inst, child, rest, value.clone())?;
                    let k = self.iconst(ty, j as i64);
                    let hit = self.pure(PureOp::Ieq, &[ix, k]);
                    out[j] = self.select_agg(inst, hit, &replaced, child)?;
                }
            }
        }
        Ok(Agg::composite(out))
    }
}

/// True if a logical pointer's path has a constant index past the end of its composite.
fn out_of_range(path: &[Index]) -> bool {
    path.iter().any(|i| matches!(i, Index::OutOfRange(_)))
}
