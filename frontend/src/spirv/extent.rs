//! The extent of an explicitly laid out type: the byte just past its last member, under its
//! `Offset`, `ArrayStride`, `MatrixStride` and `RowMajor` decorations (trailing padding not
//! counted). The push-constant block's extent is how many bytes a run must supply
//! ([`agxc_egraph::ir::Function::push_constant_bytes`]).

use super::decorations::Decorations;
use super::error::SpirvError;
use super::module::{Id, Inst};
use super::types::{Ty, TypeTable};

/// A matrix's layout: (column or row stride, row-major).
type MatrixLayout = (u32, bool);

impl TypeTable {
    /// Bytes from the start of a value of type `id` to the end of its last byte.
    pub fn extent(&self, id: Id, decos: &Decorations, at: &Inst) -> Result<u32, SpirvError> {
        self.extent_in(id, decos, at, None, 0)
    }

    fn extent_in(
        &self,
        id: Id,
        decos: &Decorations,
        at: &Inst,
        matrix: Option<MatrixLayout>,
        depth: u32,
    ) -> Result<u32, SpirvError> {
        if depth > 64 {
            return Err(at.invalid(format!("type %{id} nests too deeply")));
        }
        let too_big = || at.unsupported(format!("type %{id}: more than 4 GiB"));
        // (n - 1) * stride + last, for n >= 1 elements.
        let span = |n: u32, stride: u32, last: u32| -> Result<u32, SpirvError> {
            n.saturating_sub(1)
                .checked_mul(stride)
                .and_then(|s| s.checked_add(last))
                .ok_or_else(too_big)
        };
        Ok(match self.get(id, at)? {
            Ty::Matrix { column, columns } => {
                let (scalar, rows) = self.components(*column, at)?;
                let scalar = scalar.bytes();
                match matrix {
                    // Rows `stride` apart, each `columns` tightly packed scalars.
                    Some((stride, true)) => span(rows as u32, stride, scalar * columns)?,
                    Some((stride, false)) => span(*columns, stride, scalar * rows as u32)?,
                    None => self.natural_size(id, decos, at)?,
                }
            }
            Ty::Array { elem, length } => {
                let stride = self.array_stride(id, decos, at)?;
                let last = self.extent_in(*elem, decos, at, matrix, depth + 1)?;
                span(*length, stride, last)?
            }
            Ty::RuntimeArray { .. } => 0,
            Ty::Struct { members } => {
                let mut end = 0u32;
                for (i, &m) in members.iter().enumerate() {
                    let i = i as u32;
                    let offset = self.member_offset(id, i, decos, at)?;
                    let layout = self.matrix_layout(id, i, m, decos, at)?;
                    let inner = self.extent_in(m, decos, at, Some(layout), depth + 1)?;
                    end = end.max(offset.checked_add(inner).ok_or_else(too_big)?);
                }
                end
            }
            _ => self.natural_size(id, decos, at)?,
        })
    }
}
