//! Constant tables: a large constant array read at a dynamic index.
//!
//! Function and Private variables live in IR values (`memory.rs`), so `a[i]` with a dynamic
//! `i` is a compare and a select per element and leaf. For a constant array (GLSL
//! `const vec2 disk[64] = ...; disk[i]`, which glslang stores into a function variable and
//! reads through an access chain) that is 128 instructions per read, and its values occupy
//! the uniform registers of the constant pool. Such a table goes into the function's
//! read-only data instead (`Function::constant_data`, the `constant` address space; the
//! backend's ABI supplies its address, as Mesa's `nir_opt_large_constants` moves large
//! constant arrays to a constant buffer), and the read becomes an index clamp, a multiply and
//! one load. Identical tables share their bytes.
//!
//! Small tables stay selects: below [`MIN_TABLE_WORDS`] words the chain costs about what the
//! load, its address and its wait do, and it folds away when the index becomes a constant
//! (after unrolling), which a load does not.

use super::context::Lowerer;
use super::value::Agg;
use agxc_egraph::ir::{AddressSpace, Const, Op, PureOp, Type, Value, ValueDef};

/// Fewest 32-bit words (elements times scalars per element) a table needs to be read from
/// memory.
pub(crate) const MIN_TABLE_WORDS: usize = 16;

/// Most bytes of constant data per function: beyond it tables stay selects.
pub(crate) const MAX_CONSTANT_BYTES: usize = 1 << 16;

/// The scalar leaves of `agg`, depth first; `None` if it holds anything but scalars.
fn leaves(agg: &Agg, out: &mut Vec<Value>) -> Option<()> {
    match agg {
        Agg::Scalar(v) => out.push(*v),
        Agg::Composite(items) => {
            for item in items.iter() {
                leaves(item, out)?;
            }
        }
        Agg::Pointer(_) | Agg::Handle(_) => return None,
    }
    Some(())
}

/// `template` with its leaves replaced, in order, by `values`.
fn rebuild(template: &Agg, values: &mut impl Iterator<Item = Value>) -> Agg {
    match template {
        Agg::Composite(items) => Agg::composite(items.iter().map(|i| rebuild(i, values)).collect()),
        other => match values.next() {
            Some(v) => Agg::Scalar(v),
            None => other.clone(),
        },
    }
}

/// A leaf's four bytes in the table: its bits (a boolean as 0 or 1, as buffers hold them).
fn word(c: Const) -> Option<[u8; 4]> {
    match c.ty() {
        Type::F32 | Type::I32 => Some((c.bits() as u32).to_le_bytes()),
        Type::Bool => Some(u32::from(c.bits() != 0).to_le_bytes()),
        _ => None,
    }
}

impl Lowerer<'_> {
    /// `items[index]` read from a table in the constant data, when every item is a constant
    /// of 32-bit scalars (or booleans) of one shape and the table has at least
    /// [`MIN_TABLE_WORDS`] words; `None` leaves the read to the select chain.
    pub fn table_read(&mut self, index: Value, items: &[Agg]) -> Option<Agg> {
        let first = items.first()?;
        let mut shape = Vec::new();
        leaves(first, &mut shape)?;
        let types: Vec<Type> = shape.iter().map(|&v| self.ty(v)).collect();
        let words = items.len().checked_mul(types.len())?;
        if words < MIN_TABLE_WORDS || self.ty(index) != Type::I32 {
            return None;
        }
        let mut bytes = Vec::with_capacity(4 * words);
        let mut item_leaves = Vec::with_capacity(types.len());
        for item in items {
            item_leaves.clear();
            leaves(item, &mut item_leaves)?;
            if item_leaves.len() != types.len() {
                return None;
            }
            for (&v, &ty) in item_leaves.iter().zip(&types) {
                let c = self.fold(v).filter(|c| c.ty() == ty)?;
                bytes.extend_from_slice(&word(c)?);
            }
        }
        let base = match self.tables.get(&bytes) {
            Some(&at) => at,
            None => {
                if self.func.constant_data.len() + bytes.len() > MAX_CONSTANT_BYTES {
                    return None;
                }
                let at = u32::try_from(self.func.constant_data.len()).ok()?;
                self.func.constant_data.extend_from_slice(&bytes);
                self.tables.insert(bytes, at);
                at
            }
        };
        // An index outside the array is undefined behaviour in SPIR-V; clamping it to the last
        // element keeps the load inside the data (unsigned: a negative index is large). An
        // index that is a mask, a remainder or a minimum within the table needs no clamp.
        let n = items.len() as u64;
        let clamped = if self.below(index, n) {
            index
        } else {
            let last = self.iconst(Type::I32, n as i64 - 1);
            self.pure(PureOp::Umin, &[index, last])
        };
        let stride = self.iconst(Type::I32, 4 * types.len() as i64);
        let offset = self.pure(PureOp::Imul, &[clamped, stride]);
        let values = self.load_scalars(AddressSpace::Constant, offset, base, &types);
        Some(rebuild(first, &mut values.into_iter()))
    }

    /// True if `v`, read as unsigned, is certainly below `n`: a constant, `x & c`, `x % c`
    /// (unsigned) or `umin(x, c)` with a constant `c` that keeps it there.
    pub(crate) fn below(&self, v: Value, n: u64) -> bool {
        let below_const = |a: Value, limit: u64| self.fold(a).is_some_and(|c| c.bits() < limit);
        if below_const(v, n) {
            return true;
        }
        let Some(ValueDef::Result(inst, 0)) = self.func.values.get(v).map(|d| d.def) else {
            return false;
        };
        let data = &self.func.insts[inst];
        match (data.op, &data.args[..]) {
            (Op::Pure(PureOp::And | PureOp::Umin), &[a, b]) => {
                below_const(a, n) || below_const(b, n)
            }
            (Op::Pure(PureOp::Urem), &[_, d]) => {
                self.fold(d).is_some_and(|c| c.bits() != 0 && c.bits() <= n)
            }
            _ => false,
        }
    }
}
