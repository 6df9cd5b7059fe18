//! Scalar value types of the graph IR.
//!
//! The IR is scalarized: every SSA value is one of these scalars. Vectors and aggregates from the
//! source languages are split into their components by the front ends; memory and texture
//! instructions that naturally produce several components have several results instead.

use core::fmt;

/// The type of an SSA value.
///
/// Integers are signless (like SPIR-V's OpIAdd and NIR): operations that care about signedness come
/// in signed and unsigned variants. `I64` exists for addresses and 64-bit arithmetic.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Type {
    /// A boolean, the result of comparisons and the condition of `select` and `if`.
    Bool,
    /// 16-bit integer.
    I16,
    /// 32-bit integer.
    I32,
    /// 64-bit integer (addresses).
    I64,
    /// IEEE binary16.
    F16,
    /// IEEE binary32.
    F32,
}

impl Type {
    /// Every type, in a fixed order (used by generators and tests).
    pub const ALL: [Type; 6] = [
        Type::Bool,
        Type::I16,
        Type::I32,
        Type::I64,
        Type::F16,
        Type::F32,
    ];

    /// Width in bits (1 for `Bool`).
    pub fn bits(self) -> u32 {
        match self {
            Type::Bool => 1,
            Type::I16 | Type::F16 => 16,
            Type::I32 | Type::F32 => 32,
            Type::I64 => 64,
        }
    }

    /// Size in bytes when stored in memory (a `Bool` is stored as a 32-bit integer, as in SPIR-V's
    /// externally visible layouts).
    pub fn bytes(self) -> u32 {
        match self {
            Type::Bool => 4,
            t => t.bits() / 8,
        }
    }

    /// True for `I16`, `I32` and `I64`.
    pub fn is_int(self) -> bool {
        matches!(self, Type::I16 | Type::I32 | Type::I64)
    }

    /// True for `F16` and `F32`.
    pub fn is_float(self) -> bool {
        matches!(self, Type::F16 | Type::F32)
    }

    /// A mask of the low `bits()` bits.
    pub fn mask(self) -> u64 {
        match self.bits() {
            64 => u64::MAX,
            n => (1u64 << n) - 1,
        }
    }

    /// The text-form name (`f32`, `i16`, `bool`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Type::Bool => "bool",
            Type::I16 => "i16",
            Type::I32 => "i32",
            Type::I64 => "i64",
            Type::F16 => "f16",
            Type::F32 => "f32",
        }
    }

    /// Parses a text-form name.
    pub fn from_name(s: &str) -> Option<Type> {
        Type::ALL.into_iter().find(|t| t.name() == s)
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
