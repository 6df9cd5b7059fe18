//! Encoding errors: the instruction, the operand and why it cannot be encoded.

use thiserror::Error;

use crate::isa::{Label, PReg, RegClass};

/// An instruction that cannot be encoded, naming the instruction and operand.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("cannot encode {mnemonic}, operand {operand}: {kind}")]
pub struct EncodeError {
    /// The instruction's mnemonic.
    pub mnemonic: &'static str,
    /// The operand (`dst`, `a`, `mask`, ...).
    pub operand: &'static str,
    /// What is wrong.
    pub kind: EncodeErrorKind,
}

/// Why an operand cannot be encoded.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum EncodeErrorKind {
    /// The register lies (partly) beyond r127h.
    #[error("register {0} (half {h}) is outside r0l..r127h", h = .0.half)]
    RegisterOutOfRange(PReg),
    /// A 32-bit or wider register starting at an odd half.
    #[error("register at half {} of class {:?} must start at an even half", .0.half, .0.class)]
    Misaligned(PReg),
    /// The operand's register class does not fit the operand.
    #[error("expected {expected}, found a {}", found.name())]
    WrongClass {
        /// What the operand takes.
        expected: &'static str,
        /// What was given.
        found: RegClass,
    },
    /// A run of registers of the wrong length.
    #[error("expected {expected} registers, found {found}")]
    RegisterCount {
        /// Registers the instruction moves.
        expected: u32,
        /// Registers given.
        found: u32,
    },
    /// A uniform beyond what the field can address.
    #[error("uniform {value} is beyond the addressable {max}")]
    UniformOutOfRange {
        /// The index given.
        value: u32,
        /// The largest encodable index.
        max: u32,
    },
    /// A value (immediate, count, slot, ...) outside its field.
    #[error("value {value} is outside {min}..={max}")]
    OutOfRange {
        /// The value given.
        value: i64,
        /// Smallest encodable.
        min: i64,
        /// Largest encodable.
        max: i64,
    },
    /// A combination the encoding cannot express or the document leaves undefined.
    #[error("{0}")]
    NotEncodable(&'static str),
    /// A jump whose target is still a label: lay the code out with the assembler.
    #[error("jump target {0} is not resolved; encode through the Assembler")]
    UnresolvedLabel(Label),
}

/// An error laying out a sequence of instructions.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum AssembleError {
    /// Instruction `index` (0-based, in push order) cannot be encoded.
    #[error("instruction {index}: {error}")]
    Instr {
        /// Position in push order.
        index: usize,
        /// The encoding error.
        #[source]
        error: EncodeError,
    },
    /// A jump names a label that was never bound.
    #[error("instruction {index}: label {label} is never bound")]
    UnboundLabel {
        /// Position of the jump in push order.
        index: usize,
        /// The label.
        label: Label,
    },
    /// A label bound twice.
    #[error("label {0} is bound twice")]
    DuplicateLabel(Label),
    /// The code is too large for 32-bit offsets.
    #[error("code size exceeds the 32-bit jump range")]
    TooLarge,
}
