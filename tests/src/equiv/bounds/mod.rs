//! Shadow runs: the reference function executed with, beside each value, a bound on how far
//! another correct implementation's corresponding value may be from it.
//!
//! The reference interpreter (`agxc_egraph::interp`) defines what a program computes, and the
//! shadow run is the interpreter's own run, observed instruction by instruction ([`exec`]): the
//! interpreter walks the control flow and computes every value and the output, and this module
//! adds a bound to each value per lane. Beside each value it carries a [`Sv::e`]:
//!
//! - for floats: `0` means the other side's value is bit-identical (any NaN matching any NaN);
//!   a finite `e > 0` that the other side's value is within `e` of it, with the same class (a
//!   NaN stays NaN, an infinity stays that infinity, a finite value stays finite; `+0` and
//!   `-0` may swap); infinite means unknown;
//! - for integers and bools: `0` exact, infinite unknown (nothing in between).
//!
//! Errors enter where the [`ErrorModel`] says an implementation may differ and propagate
//! through each operation ([`propagate`]). Control flow cannot carry a bound: where a branch
//! condition may flip (an uncertain bool), the other side may run the other arm. An `if` whose
//! condition may flip makes its results unknown; if its arms store or exit (`break`,
//! `continue`, `return`), the invocation's whole output region (see [`Layout`]) becomes
//! unknown from there on, because the other side may have stored elsewhere or stopped. A store
//! to an uncertain address makes the whole output buffer unknown, a load from one gives unknown
//! values. Private memory keeps, per invocation and byte, the bound of the scalar stored there
//! ([`private`]), which a load reading it back whole gets again.
//!
//! The result is the reference output and, per output byte, what the comparison may expect
//! ([`Tolerances`]).

mod exec;
mod private;
pub mod propagate;

use crate::equiv::model::ErrorModel;
use agxc_egraph::interp::{InterpError, Resources};
use agxc_egraph::ir::{Binding, Const, Function, Inst, Type};

/// A shadow value: the reference value and the bound (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sv {
    /// The reference value.
    pub v: Const,
    /// How far the other side may be from it (`0` exact, infinite unknown).
    pub e: f64,
}

/// Where the shadow run finds the output it tracks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The output buffer (the only one stores may go to).
    pub output: Binding,
    /// Bytes of the output buffer each invocation owns: invocation `i` (the linear global
    /// index, x fastest) owns `i * invocation_bytes ..`.
    pub invocation_bytes: usize,
}

/// What the comparison knows about one output byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ByteBound {
    /// Never stored to: must keep its initial contents exactly.
    Initial,
    /// Part of a stored element (index into [`Tolerances::elements`]).
    Element(usize),
    /// Anything goes.
    Unknown,
}

/// A stored scalar.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Element {
    /// Byte offset in the output buffer.
    pub offset: usize,
    /// The reference value (its type says how to read the bytes).
    pub value: Const,
    /// Its bound.
    pub bound: f64,
}

impl Element {
    /// The element's bytes.
    pub fn range(&self) -> core::ops::Range<usize> {
        self.offset..self.offset + self.value.ty().bytes() as usize
    }
}

/// Per-byte expectations for the output buffer.
#[derive(Clone, Debug, PartialEq)]
pub struct Tolerances {
    /// One entry per output byte.
    pub bytes: Vec<ByteBound>,
    /// The stored elements the bytes refer to.
    pub elements: Vec<Element>,
}

impl Tolerances {
    pub(crate) fn new(len: usize) -> Tolerances {
        Tolerances {
            bytes: vec![ByteBound::Initial; len],
            elements: Vec::new(),
        }
    }

    pub(crate) fn store(&mut self, offset: usize, value: Const, bound: f64) {
        let index = self.elements.len();
        let element = Element {
            offset,
            value,
            bound,
        };
        for b in element.range() {
            if let Some(slot) = self.bytes.get_mut(b) {
                *slot = ByteBound::Element(index);
            }
        }
        self.elements.push(element);
    }

    pub(crate) fn forget(&mut self, range: core::ops::Range<usize>) {
        let end = range.end.min(self.bytes.len());
        for slot in &mut self.bytes[range.start.min(end)..end] {
            *slot = ByteBound::Unknown;
        }
    }

    /// How the stored values that survive to the end (not overwritten) are compared, and how
    /// many output bytes are unknown.
    pub fn coverage(&self) -> Coverage {
        let mut c = Coverage::default();
        for (k, el) in self.elements.iter().enumerate() {
            let intact = el
                .range()
                .all(|b| self.bytes.get(b) == Some(&ByteBound::Element(k)));
            if !intact {
                continue;
            }
            if el.bound == 0.0 {
                c.exact += 1;
            } else if el.bound.is_finite() {
                c.bounded += 1;
            } else {
                c.unknown += 1;
            }
        }
        c.unknown_bytes = self
            .bytes
            .iter()
            .filter(|&&b| b == ByteBound::Unknown)
            .count() as u64;
        c
    }
}

/// What the comparison of one or more runs checked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Coverage {
    /// Stored values compared exactly.
    pub exact: u64,
    /// Stored values compared within a finite bound.
    pub bounded: u64,
    /// Stored values not compared (unknown bound).
    pub unknown: u64,
    /// Output bytes not compared because control flow may have gone another way.
    pub unknown_bytes: u64,
}

impl core::ops::AddAssign for Coverage {
    fn add_assign(&mut self, o: Coverage) {
        self.exact += o.exact;
        self.bounded += o.bounded;
        self.unknown += o.unknown;
        self.unknown_bytes += o.unknown_bytes;
    }
}

/// The result of a shadow run.
#[derive(Clone, Debug)]
pub struct ShadowRun {
    /// The output buffer's final contents (must equal the interpreter's).
    pub output: Vec<u8>,
    /// What the other side's output may be.
    pub tolerances: Tolerances,
    /// Branch conditions that may flip, over all invocations.
    pub flips: u32,
}

/// Why a shadow run failed (a program outside what it supports, or one the interpreter
/// rejects).
#[derive(Debug, thiserror::Error)]
pub enum ShadowError {
    /// An operation the shadow run cannot follow.
    #[error("{inst}: the shadow run does not support {what}")]
    Unsupported {
        /// The instruction.
        inst: Inst,
        /// What it is.
        what: String,
    },
    /// A structure the verifier guarantees is missing.
    #[error("{inst}: malformed: {reason}")]
    Malformed {
        /// The instruction.
        inst: Inst,
        /// What is wrong.
        reason: &'static str,
    },
    /// The interpreter stopped (bad access, missing buffer, loop limit, texture error, ...).
    #[error("{0}")]
    Interp(InterpError),
}

/// Runs the compute function `func` over `groups` workgroups with `resources` (not modified)
/// under `model`, tracking the output buffer `layout.output`.
pub fn shadow_run(
    func: &Function,
    resources: &Resources,
    groups: [u32; 3],
    layout: &Layout,
    model: &ErrorModel,
) -> Result<ShadowRun, ShadowError> {
    exec::run(func, resources, groups, layout, model)
}

/// Reads a scalar of type `ty` from little-endian bytes (a bool is 4 bytes, non-zero true).
pub fn read_scalar(bytes: &[u8], ty: Type) -> Const {
    let mut raw = [0u8; 8];
    let n = (ty.bytes() as usize).min(bytes.len());
    raw[..n].copy_from_slice(&bytes[..n]);
    let bits = u64::from_le_bytes(raw);
    match ty {
        Type::Bool => Const::bool(bits != 0),
        _ => Const::from_bits(ty, bits),
    }
}
