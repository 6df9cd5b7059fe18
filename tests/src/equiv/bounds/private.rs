//! Private memory in the shadow run: for each invocation's private bytes, which stored scalar
//! they hold and how far the other side's may be from it.
//!
//! Bounds describe values, not bytes, so a load gets its stored scalar's bound only when it
//! reads that scalar back whole, as the same type at the same offset. Any other read (another
//! type, a part, a mix of stores) is exact only if every byte it reads was stored exactly. A
//! float NaN is never exact as bytes: a bound of 0 lets its payload differ, which a read as an
//! integer would see. A byte never written is undefined in the IR (both sides here start from
//! zero, but code for the G13 does not clear its stack), so what reads it is not compared.

use crate::equiv::model::UNKNOWN;
use agxc_egraph::ir::{Const, Type};
use std::collections::HashMap;

/// What one private byte holds.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Byte {
    /// The scalar it is part of (offset and type), if it was stored at a known offset.
    from: Option<(i64, Type)>,
    /// That scalar's bound.
    e: f64,
    /// The other side holds exactly this byte.
    exact: bool,
}

/// A byte never written: undefined.
const UNWRITTEN: Byte = Byte {
    from: None,
    e: UNKNOWN,
    exact: false,
};

/// A byte a store at an uncertain offset may have changed.
const LOST: Byte = Byte {
    from: None,
    e: UNKNOWN,
    exact: false,
};

/// Every invocation's private memory, by linear global index, created unwritten on first use.
pub(super) struct PrivateBounds {
    bytes: usize,
    memory: HashMap<usize, Vec<Byte>>,
}

impl PrivateBounds {
    /// Tracks `bytes` of private memory per invocation.
    pub(super) fn new(bytes: u32) -> PrivateBounds {
        PrivateBounds {
            bytes: bytes as usize,
            memory: HashMap::new(),
        }
    }

    fn of(&mut self, invocation: usize) -> &mut Vec<Byte> {
        let n = self.bytes;
        self.memory
            .entry(invocation)
            .or_insert_with(|| vec![UNWRITTEN; n])
    }

    /// `value`, with bound `e`, stored at byte `at`.
    pub(super) fn store(&mut self, invocation: usize, at: i64, value: Const, e: f64) {
        let ty = value.ty();
        let byte = Byte {
            from: Some((at, ty)),
            e,
            exact: e == 0.0 && !(ty.is_float() && value.is_nan()),
        };
        let memory = self.of(invocation);
        for k in at..at + i64::from(ty.bytes()) {
            if let Some(b) = usize::try_from(k).ok().and_then(|k| memory.get_mut(k)) {
                *b = byte;
            }
        }
    }

    /// A store at an offset the other side may compute differently: any byte may differ.
    pub(super) fn forget(&mut self, invocation: usize) {
        self.of(invocation).fill(LOST);
    }

    /// The bound of a `ty` loaded from byte `at`.
    pub(super) fn load(&mut self, invocation: usize, at: i64, ty: Type) -> f64 {
        let memory = self.of(invocation);
        let read: Vec<Byte> = (at..at + i64::from(ty.bytes()))
            .map(|k| {
                usize::try_from(k)
                    .ok()
                    .and_then(|k| memory.get(k))
                    .copied()
                    .unwrap_or(LOST)
            })
            .collect();
        if read.iter().all(|b| b.exact) {
            0.0
        } else if read.iter().all(|b| b.from == Some((at, ty))) {
            // One scalar read back whole (a later store of the same shape there replaced
            // every byte, so the bytes agree on the bound).
            read[0].e
        } else {
            UNKNOWN
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_scalars_keep_their_bounds_and_reinterpretations_need_exact_bytes() {
        let mut p = PrivateBounds::new(16);
        assert_eq!(p.load(0, 4, Type::I32), UNKNOWN, "never written");
        p.store(0, 0, Const::f32(1.5), 1e-6);
        assert_eq!(p.load(0, 0, Type::F32), 1e-6);
        assert_eq!(p.load(0, 0, Type::I32), UNKNOWN, "an inexact float's bits");
        assert_eq!(p.load(0, 0, Type::F16), UNKNOWN, "part of it");
        p.store(0, 8, Const::f32(f32::NAN), 0.0);
        assert_eq!(p.load(0, 8, Type::F32), 0.0);
        assert_eq!(p.load(0, 8, Type::I32), UNKNOWN, "a NaN's payload");
        p.store(0, 12, Const::i16(-2), 0.0);
        p.store(0, 14, Const::i16(7), 0.0);
        assert_eq!(p.load(0, 12, Type::I32), 0.0, "two exact halves");
        p.store(0, 4, Const::i16(3), 0.0);
        assert_eq!(
            p.load(0, 4, Type::I32),
            UNKNOWN,
            "an exact half, an unwritten half"
        );
        assert_eq!(p.load(1, 8, Type::F32), UNKNOWN, "another invocation's");
        p.forget(0);
        assert_eq!(p.load(0, 4, Type::I32), UNKNOWN);
    }
}
