//! Per-lane state: active-lane masks and the value store (one slot per SSA value per lane).
//!
//! Values are stored as bit patterns (`u64`) and typed through the function's value table, so a
//! slot costs 8 bytes per lane. A value's slots are allocated when it is first defined and
//! released when the block that defines it finishes (structured SSA makes a block's values
//! invisible outside it), which keeps memory proportional to the values live on the current
//! nesting path.

use super::error::InterpError;
use crate::ir::{Const, Function, Inst, Value};
use cranelift_entity::SecondaryMap;

/// A set of lanes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Mask(Vec<bool>);

impl Mask {
    /// No lane of `n`.
    pub fn none(n: usize) -> Mask {
        Mask(vec![false; n])
    }

    /// Every lane of `n`.
    pub fn all(n: usize) -> Mask {
        Mask(vec![true; n])
    }

    /// From a per-lane predicate.
    pub fn from_fn(n: usize, f: impl FnMut(usize) -> bool) -> Mask {
        Mask((0..n).map(f).collect())
    }

    /// Is `lane` in the set?
    pub fn get(&self, lane: usize) -> bool {
        self.0.get(lane).copied().unwrap_or(false)
    }

    /// Adds or removes `lane`.
    pub fn set(&mut self, lane: usize, on: bool) {
        if let Some(slot) = self.0.get_mut(lane) {
            *slot = on;
        }
    }

    /// True if any lane is in the set.
    pub fn any(&self) -> bool {
        self.0.iter().any(|&b| b)
    }

    /// Number of lanes in the set.
    pub fn count(&self) -> usize {
        self.0.iter().filter(|&&b| b).count()
    }

    /// The lanes in the set, ascending.
    pub fn lanes(&self) -> impl Iterator<Item = usize> + '_ {
        self.0
            .iter()
            .enumerate()
            .filter(|(_, &b)| b)
            .map(|(i, _)| i)
    }

    /// `self & !other`.
    pub fn and_not(&self, other: &Mask) -> Mask {
        Mask(
            self.0
                .iter()
                .zip(&other.0)
                .map(|(&a, &b)| a && !b)
                .collect(),
        )
    }

    /// `self |= other`.
    pub fn or_assign(&mut self, other: &Mask) {
        for (a, &b) in self.0.iter_mut().zip(&other.0) {
            *a |= b;
        }
    }
}

/// The value store of a lockstep batch.
pub(crate) struct LaneValues<'f> {
    func: &'f Function,
    lanes: usize,
    slots: SecondaryMap<Value, Vec<u64>>,
}

impl<'f> LaneValues<'f> {
    /// An empty store for `lanes` lanes.
    pub fn new(func: &'f Function, lanes: usize) -> LaneValues<'f> {
        LaneValues {
            func,
            lanes,
            slots: SecondaryMap::new(),
        }
    }

    /// The value's slots, or an error naming the reader if it has none.
    pub fn slots(&self, inst: Inst, v: Value) -> Result<&[u64], InterpError> {
        let s = self.slots.get(v).map(Vec::as_slice).unwrap_or(&[]);
        if s.len() == self.lanes {
            Ok(s)
        } else {
            Err(InterpError::UndefinedValue { inst, value: v })
        }
    }

    /// The value on one lane.
    pub fn get(&self, inst: Inst, v: Value, lane: usize) -> Result<Const, InterpError> {
        let ty = self.func.value_type(v);
        let bits = self.slots(inst, v)?[lane];
        Ok(Const::from_bits(ty, bits))
    }

    /// Sets the value on one lane (allocating its slots on first definition).
    pub fn set(&mut self, v: Value, lane: usize, c: Const) {
        let lanes = self.lanes;
        let slot = &mut self.slots[v];
        if slot.len() != lanes {
            *slot = vec![0; lanes];
        }
        slot[lane] = c.bits();
    }

    /// Takes the value's slots out of the store (allocated, possibly holding earlier values),
    /// to be filled while other values are read, and put back with [`LaneValues::put`].
    pub fn take(&mut self, v: Value) -> Vec<u64> {
        let mut slot = core::mem::take(&mut self.slots[v]);
        if slot.len() != self.lanes {
            slot = vec![0; self.lanes];
        }
        slot
    }

    /// Puts back slots taken with [`LaneValues::take`].
    pub fn put(&mut self, v: Value, slot: Vec<u64>) {
        self.slots[v] = slot;
    }

    /// Forgets a value (its defining block has finished).
    pub fn release(&mut self, v: Value) {
        if let Some(slot) = self.slots.get_mut(v) {
            *slot = Vec::new();
        }
    }
}
