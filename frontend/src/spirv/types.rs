//! SPIR-V types, their scalarized shape in the IR, and their memory layout.
//!
//! Vectors, matrices, arrays and structures become trees of IR scalars ([`Ty::leaf_types`]).
//! Buffer memory follows the layout decorations (SPIR-V section 2.18.1: `Offset`, `ArrayStride`,
//! `MatrixStride`, `RowMajor`/`ColMajor`); memory that has no explicit layout (workgroup
//! variables) gets a tightly packed one computed here ([`TypeTable::natural_size`]).

use super::decorations::Decorations;
use super::error::SpirvError;
use super::module::{Id, Inst};
use agxc_egraph::ir::Type;
use spirv::{Decoration, Dim, StorageClass};
use std::collections::HashMap;

/// An image type (`OpTypeImage`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ImageTy {
    pub sampled_type: Id,
    pub dim: Dim,
    pub depth: u32,
    pub arrayed: bool,
    pub multisampled: bool,
    /// 1: used with a sampler; 2: storage image; 0: known at run time.
    pub sampled: u32,
    /// The declared texel format (storage images; `Unknown` otherwise).
    pub format: spirv::ImageFormat,
}

/// A SPIR-V type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Ty {
    Void,
    Bool,
    Int { width: u32, signed: bool },
    Float { width: u32 },
    Vector { elem: Id, count: u32 },
    Matrix { column: Id, columns: u32 },
    Array { elem: Id, length: u32 },
    RuntimeArray { elem: Id },
    Struct { members: Vec<Id> },
    Pointer { class: StorageClass, pointee: Id },
    Function { ret: Id, params: Vec<Id> },
    Image(ImageTy),
    Sampler,
    SampledImage { image: Id },
}

/// Guards against adversarial array lengths: nothing larger is scalarized.
pub(crate) const MAX_SCALARIZED_LEAVES: usize = 1 << 16;

/// Every type of the module by id.
#[derive(Clone, Debug, Default)]
pub(crate) struct TypeTable {
    types: HashMap<Id, Ty>,
}

impl TypeTable {
    pub fn insert(&mut self, id: Id, ty: Ty) {
        self.types.insert(id, ty);
    }

    pub fn lookup(&self, id: Id) -> Option<&Ty> {
        self.types.get(&id)
    }

    pub fn is_type(&self, id: Id) -> bool {
        self.types.contains_key(&id)
    }

    /// The type `id`, or an unknown-id error at `at`.
    pub fn get(&self, id: Id, at: &Inst) -> Result<&Ty, SpirvError> {
        self.types.get(&id).ok_or_else(|| at.unknown_id(id))
    }

    /// The IR type of a scalar SPIR-V type.
    pub fn scalar(&self, id: Id, at: &Inst) -> Result<Type, SpirvError> {
        match self.get(id, at)? {
            Ty::Bool => Ok(Type::Bool),
            Ty::Int { width: 16, .. } => Ok(Type::I16),
            Ty::Int { width: 32, .. } => Ok(Type::I32),
            Ty::Float { width: 16 } => Ok(Type::F16),
            Ty::Float { width: 32 } => Ok(Type::F32),
            Ty::Int { width, .. } => Err(at.unsupported(format!("{width}-bit integers"))),
            Ty::Float { width } => Err(at.unsupported(format!("{width}-bit floats"))),
            other => Err(at.mismatch(format!("%{id} ({other:?}) is not a scalar type"))),
        }
    }

    /// The scalar IR type and component count of a scalar or vector type.
    pub fn components(&self, id: Id, at: &Inst) -> Result<(Type, usize), SpirvError> {
        match self.get(id, at)? {
            Ty::Vector { elem, count } => Ok((self.scalar(*elem, at)?, *count as usize)),
            _ => Ok((self.scalar(id, at)?, 1)),
        }
    }

    /// True if `id` is a vector type.
    pub fn is_vector(&self, id: Id) -> bool {
        matches!(self.types.get(&id), Some(Ty::Vector { .. }))
    }

    /// The element types of a composite, in order (vector components, matrix columns, array
    /// elements, structure members).
    pub fn children(&self, id: Id, at: &Inst) -> Result<Vec<Id>, SpirvError> {
        Ok(match self.get(id, at)? {
            Ty::Vector { elem, count } => vec![*elem; *count as usize],
            Ty::Matrix { column, columns } => vec![*column; *columns as usize],
            Ty::Array { elem, length } => {
                if *length as usize > MAX_SCALARIZED_LEAVES {
                    return Err(at.unsupported(format!("array of {length} elements as a value")));
                }
                vec![*elem; *length as usize]
            }
            Ty::Struct { members } => members.clone(),
            _ => Vec::new(),
        })
    }

    /// The type of child `index` of a composite.
    pub fn child(&self, id: Id, index: u32, at: &Inst) -> Result<Id, SpirvError> {
        let out_of_range = || at.invalid(format!("index {index} out of range for %{id}"));
        match self.get(id, at)? {
            Ty::Vector { elem, count } if index < *count => Ok(*elem),
            Ty::Matrix { column, columns } if index < *columns => Ok(*column),
            Ty::Array { elem, length } if index < *length => Ok(*elem),
            Ty::RuntimeArray { elem } => Ok(*elem),
            Ty::Struct { members } => members
                .get(index as usize)
                .copied()
                .ok_or_else(out_of_range),
            Ty::Vector { .. } | Ty::Matrix { .. } | Ty::Array { .. } => Err(out_of_range()),
            other => Err(at.mismatch(format!("%{id} ({other:?}) is not a composite type"))),
        }
    }

    /// True for types that are held as a tree of IR scalars.
    pub fn is_composite(&self, id: Id) -> bool {
        matches!(
            self.types.get(&id),
            Some(Ty::Vector { .. } | Ty::Matrix { .. } | Ty::Array { .. } | Ty::Struct { .. })
        )
    }

    /// The IR scalar types of a value of type `id`, flattened in order.
    pub fn leaf_types(&self, id: Id, at: &Inst) -> Result<Vec<Type>, SpirvError> {
        let mut out = Vec::new();
        self.push_leaves(id, at, &mut out, 0)?;
        Ok(out)
    }

    fn push_leaves(
        &self,
        id: Id,
        at: &Inst,
        out: &mut Vec<Type>,
        depth: u32,
    ) -> Result<(), SpirvError> {
        if depth > 64 {
            return Err(at.invalid(format!("type %{id} nests too deeply")));
        }
        if out.len() > MAX_SCALARIZED_LEAVES {
            return Err(at.unsupported(format!(
                "a value of more than {MAX_SCALARIZED_LEAVES} scalars"
            )));
        }
        if self.is_composite(id) {
            for child in self.children(id, at)? {
                self.push_leaves(child, at, out, depth + 1)?;
            }
            Ok(())
        } else {
            out.push(self.scalar(id, at)?);
            Ok(())
        }
    }

    /// The pointee and storage class of a pointer type.
    pub fn pointer(&self, id: Id, at: &Inst) -> Result<(StorageClass, Id), SpirvError> {
        match self.get(id, at)? {
            Ty::Pointer { class, pointee } => Ok((*class, *pointee)),
            other => Err(at.mismatch(format!("%{id} ({other:?}) is not a pointer type"))),
        }
    }

    /// Size in bytes of a type in memory without explicit layout: scalars at their size, vectors
    /// and matrices tightly packed, arrays at their stride, structures member after member, each
    /// aligned to its scalar size.
    pub fn natural_size(&self, id: Id, decos: &Decorations, at: &Inst) -> Result<u32, SpirvError> {
        self.natural(id, decos, at, 0).map(|(size, _)| size)
    }

    /// (size, alignment) of the natural layout.
    fn natural(
        &self,
        id: Id,
        decos: &Decorations,
        at: &Inst,
        depth: u32,
    ) -> Result<(u32, u32), SpirvError> {
        if depth > 64 {
            return Err(at.invalid(format!("type %{id} nests too deeply")));
        }
        let too_big = || at.unsupported(format!("type %{id}: more than 4 GiB"));
        Ok(match self.get(id, at)? {
            Ty::Bool | Ty::Int { .. } | Ty::Float { .. } => {
                let b = self.scalar(id, at)?.bytes();
                (b, b)
            }
            Ty::Vector { elem, count } => {
                let (s, a) = self.natural(*elem, decos, at, depth + 1)?;
                (s.checked_mul(*count).ok_or_else(too_big)?, a)
            }
            Ty::Matrix { column, columns } => {
                let (s, a) = self.natural(*column, decos, at, depth + 1)?;
                (s.checked_mul(*columns).ok_or_else(too_big)?, a)
            }
            Ty::Array { elem, length } => {
                let stride = self.array_stride(id, decos, at)?;
                let (_, a) = self.natural(*elem, decos, at, depth + 1)?;
                (stride.checked_mul(*length).ok_or_else(too_big)?, a)
            }
            Ty::RuntimeArray { elem } => {
                let (_, a) = self.natural(*elem, decos, at, depth + 1)?;
                (0, a)
            }
            Ty::Struct { members } => {
                let mut size = 0u32;
                let mut align = 1u32;
                for (i, &m) in members.iter().enumerate() {
                    let (s, a) = self.natural(m, decos, at, depth + 1)?;
                    let offset = match decos.member_literal(id, i as u32, Decoration::Offset) {
                        Some(o) => o,
                        None => size.checked_next_multiple_of(a).ok_or_else(too_big)?,
                    };
                    size = size.max(offset.checked_add(s).ok_or_else(too_big)?);
                    align = align.max(a);
                }
                (
                    size.checked_next_multiple_of(align).ok_or_else(too_big)?,
                    align,
                )
            }
            other => return Err(at.mismatch(format!("%{id} ({other:?}) has no memory layout"))),
        })
    }

    /// The byte stride of an array type: its `ArrayStride`, or the natural element size.
    pub fn array_stride(&self, id: Id, decos: &Decorations, at: &Inst) -> Result<u32, SpirvError> {
        if let Some(s) = decos.literal(id, Decoration::ArrayStride) {
            return Ok(s);
        }
        let elem = match self.get(id, at)? {
            Ty::Array { elem, .. } | Ty::RuntimeArray { elem } => *elem,
            other => return Err(at.mismatch(format!("%{id} ({other:?}) is not an array"))),
        };
        let (s, a) = self.natural(elem, decos, at, 1)?;
        s.checked_next_multiple_of(a)
            .ok_or_else(|| at.unsupported("array stride over 4 GiB"))
    }

    /// The byte offset of a structure member: its `Offset`, or the natural one.
    pub fn member_offset(
        &self,
        id: Id,
        member: u32,
        decos: &Decorations,
        at: &Inst,
    ) -> Result<u32, SpirvError> {
        if let Some(o) = decos.member_literal(id, member, Decoration::Offset) {
            return Ok(o);
        }
        let Ty::Struct { members } = self.get(id, at)? else {
            return Err(at.mismatch(format!("%{id} is not a structure")));
        };
        let mut offset = 0u32;
        for (i, &m) in members.iter().enumerate() {
            let (s, a) = self.natural(m, decos, at, 1)?;
            let here = match decos.member_literal(id, i as u32, Decoration::Offset) {
                Some(o) => o,
                None => offset
                    .checked_next_multiple_of(a)
                    .ok_or_else(|| at.unsupported("structure over 4 GiB"))?,
            };
            if i as u32 == member {
                return Ok(here);
            }
            offset = here.saturating_add(s);
        }
        Err(at.invalid(format!("member {member} out of range for %{id}")))
    }

    /// The layout of a matrix-typed member (or array-of-matrix member): column or row stride and
    /// whether it is row-major.
    pub fn matrix_layout(
        &self,
        id: Id,
        member: u32,
        member_ty: Id,
        decos: &Decorations,
        at: &Inst,
    ) -> Result<(u32, bool), SpirvError> {
        let row_major = decos.member(id, member, Decoration::RowMajor).is_some();
        if let Some(s) = decos.member_literal(id, member, Decoration::MatrixStride) {
            return Ok((s, row_major));
        }
        // Without a MatrixStride the matrix is tightly packed column-major.
        let mut ty = member_ty;
        while let Ty::Array { elem, .. } | Ty::RuntimeArray { elem } = self.get(ty, at)? {
            ty = *elem;
        }
        match self.get(ty, at)? {
            Ty::Matrix { column, .. } => Ok((self.natural(*column, decos, at, 1)?.0, false)),
            _ => Ok((0, false)),
        }
    }
}
