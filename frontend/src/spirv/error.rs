//! The SPIR-V front end's error type.
//!
//! Every error that concerns an instruction carries a [`Location`]: the opcode name, the word
//! offset of the instruction's first word from the start of the module (the header is words 0..5,
//! so the first instruction is at word 5, as `spirv-dis --offsets` numbers them) and the function
//! holding it.

use core::fmt;

/// Where in the module an error was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// The opcode's name as the SPIR-V specification spells it (`OpAtomicIAdd`).
    pub opcode: String,
    /// Word offset of the instruction from the start of the module.
    pub offset: u32,
    /// The function holding the instruction (its `OpName`, or `%id`), `None` at module scope.
    pub function: Option<String>,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at word {}", self.opcode, self.offset)?;
        match &self.function {
            Some(name) => write!(f, " in function `{name}`"),
            None => write!(f, " at module scope"),
        }
    }
}

/// Why a SPIR-V module could not be lifted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpirvError {
    /// The input is not a SPIR-V binary (size, magic number, header).
    #[error("not a SPIR-V module: {0}")]
    NotSpirv(String),
    /// A header word is wrong (word 3, the id bound: 0, above the universal limit, or not
    /// above every id the module uses).
    #[error("header word {word}: {detail}")]
    Header {
        /// The header word (0-based).
        word: u32,
        /// What is wrong.
        detail: String,
    },
    /// The instruction stream does not decode (`rspirv` rejected it, or an instruction is
    /// malformed at the word level).
    #[error("{}malformed SPIR-V: {detail}", at_prefix(.at))]
    Decode {
        /// The instruction, when it could be identified.
        at: Option<Location>,
        /// What is wrong.
        detail: String,
    },
    /// The module declares a capability outside the supported list (see the module docs).
    #[error("{at}: unsupported capability {capability}")]
    UnsupportedCapability {
        /// The capability's name.
        capability: String,
        /// The `OpCapability` instruction.
        at: Location,
    },
    /// The module relies on an extension this front end does not implement.
    #[error("{at}: unsupported extension `{name}`")]
    UnsupportedExtension {
        /// The extension's name.
        name: String,
        /// The `OpExtension` or `OpExtInstImport` instruction.
        at: Location,
    },
    /// An instruction this front end does not lift.
    #[error("{at}: unsupported instruction")]
    UnsupportedInstruction {
        /// The instruction.
        at: Location,
    },
    /// A decoration this front end does not honour.
    #[error("{at}: unsupported decoration {decoration}")]
    UnsupportedDecoration {
        /// The decoration's name.
        decoration: String,
        /// The decorating instruction.
        at: Location,
    },
    /// A supported instruction used in a way this front end does not lift (an image operand, a
    /// built-in, a storage class, ...).
    #[error("{at}: unsupported {what}")]
    Unsupported {
        /// What is not supported.
        what: String,
        /// The instruction.
        at: Location,
    },
    /// An operand names an id that is not defined (or not visible where it is used).
    #[error("{at}: unknown id %{id}")]
    UnknownId {
        /// The id.
        id: u32,
        /// The instruction using it.
        at: Location,
    },
    /// Operand or result types do not fit the instruction.
    #[error("{at}: type mismatch: {detail}")]
    TypeMismatch {
        /// What does not fit.
        detail: String,
        /// The instruction.
        at: Location,
    },
    /// Control flow that does not follow the structured rules (SPIR-V section 2.11).
    #[error("{at}: unstructured control flow: {detail}")]
    Unstructured {
        /// What rule is broken.
        detail: String,
        /// The branch or merge instruction.
        at: Location,
    },
    /// Any other violation of the SPIR-V rules.
    #[error("{at}: invalid module: {detail}")]
    Invalid {
        /// What is wrong.
        detail: String,
        /// The instruction.
        at: Location,
    },
    /// The requested entry point does not exist or is ambiguous.
    #[error("entry point: {0}")]
    EntryPoint(String),
    /// Lifting would exceed a size limit (nesting depth or instruction count); see the module
    /// docs for the limits.
    #[error("{at}: shader too large to lift: {detail}")]
    TooLarge {
        /// Which limit.
        detail: String,
        /// The instruction being lifted when the limit was hit.
        at: Location,
    },
    /// The lifted IR failed verification: a bug in this front end, never a property of the input.
    #[error("internal error: the IR lifted for `{function}` fails verification: {detail}")]
    Internal {
        /// The entry point.
        function: String,
        /// The verifier's report.
        detail: String,
    },
}

fn at_prefix(at: &Option<Location>) -> String {
    match at {
        Some(at) => format!("{at}: "),
        None => String::new(),
    }
}

impl SpirvError {
    /// The location the error refers to, if it has one.
    pub fn location(&self) -> Option<&Location> {
        match self {
            SpirvError::Decode { at, .. } => at.as_ref(),
            SpirvError::UnsupportedCapability { at, .. }
            | SpirvError::UnsupportedExtension { at, .. }
            | SpirvError::UnsupportedInstruction { at }
            | SpirvError::UnsupportedDecoration { at, .. }
            | SpirvError::Unsupported { at, .. }
            | SpirvError::UnknownId { at, .. }
            | SpirvError::TypeMismatch { at, .. }
            | SpirvError::Unstructured { at, .. }
            | SpirvError::Invalid { at, .. }
            | SpirvError::TooLarge { at, .. } => Some(at),
            SpirvError::NotSpirv(_)
            | SpirvError::Header { .. }
            | SpirvError::EntryPoint(_)
            | SpirvError::Internal { .. } => None,
        }
    }
}
