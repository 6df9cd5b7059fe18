//! The TGSI front end's error type.
//!
//! Every error that comes from the input carries a [`Pos`]: the 1-based line and column of the
//! token at fault, so a message can be matched against the text directly. The one exception is
//! [`TgsiError::Verify`], which means the lifter produced invalid IR (a bug in this module, not
//! in the input) and names the IR instruction instead.

use agxc_egraph::ir::VerifyErrors;
use core::fmt;

/// A position in the TGSI text: 1-based line and column (columns count characters).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Pos {
    /// Line, starting at 1.
    pub line: u32,
    /// Column, starting at 1.
    pub col: u32,
}

impl Pos {
    /// A position.
    pub fn new(line: u32, col: u32) -> Pos {
        Pos { line, col }
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.col)
    }
}

/// Why a TGSI shader could not be parsed or lifted.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum TgsiError {
    /// A character that starts no TGSI token.
    #[error("{pos}: unexpected character {ch:?}")]
    UnexpectedChar {
        /// Where.
        pos: Pos,
        /// The character.
        ch: char,
    },
    /// The text does not follow the grammar here.
    #[error("{pos}: expected {expected}, found {found}")]
    Expected {
        /// Where.
        pos: Pos,
        /// What the grammar allows here.
        expected: String,
        /// What the text has (a token, or "end of line").
        found: String,
    },
    /// The first line is not a known shader header.
    #[error("{pos}: unknown shader header `{name}` (expected FRAG, VERT, GEOM, COMP, TESS_CTRL or TESS_EVAL)")]
    UnknownHeader {
        /// Where.
        pos: Pos,
        /// The word found.
        name: String,
    },
    /// A mnemonic that names no TGSI opcode.
    #[error("{pos}: unknown opcode `{name}`")]
    UnknownOpcode {
        /// Where.
        pos: Pos,
        /// The mnemonic as written.
        name: String,
    },
    /// A register file name that TGSI does not have.
    #[error("{pos}: unknown register file `{name}`")]
    UnknownFile {
        /// Where.
        pos: Pos,
        /// The name as written.
        name: String,
    },
    /// A word in a declaration, property, texture target or immediate type that is not known.
    #[error("{pos}: unknown {what} `{name}`")]
    UnknownName {
        /// Where.
        pos: Pos,
        /// The kind of name (`semantic`, `texture target`, `property`, ...).
        what: &'static str,
        /// The word as written.
        name: String,
    },
    /// A number that does not parse or does not fit.
    #[error("{pos}: invalid {what} `{text}`")]
    InvalidNumber {
        /// Where.
        pos: Pos,
        /// What the number was read as (`FLT32 immediate`, `register index`, ...).
        what: &'static str,
        /// The text.
        text: String,
    },
    /// A shader stage the graph IR cannot express (tessellation shaders).
    #[error("{pos}: {stage} shaders are not supported: the graph IR has compute, fragment, vertex and geometry stages")]
    UnsupportedStage {
        /// The header.
        pos: Pos,
        /// The stage's TGSI name (`TESS_CTRL`, `TESS_EVAL`).
        stage: &'static str,
    },
    /// A declaration that parses but that the lifter cannot map onto the IR.
    #[error("{pos}: unsupported declaration: {what}")]
    UnsupportedDeclaration {
        /// The declaration.
        pos: Pos,
        /// What is unsupported, naming it (`fragment input semantic PRIM_ID`).
        what: String,
    },
    /// An instruction that parses but that the lifter cannot express in the IR.
    #[error("{pos}: {opcode}: {what} is not supported")]
    Unsupported {
        /// The instruction.
        pos: Pos,
        /// Its mnemonic.
        opcode: &'static str,
        /// What is unsupported.
        what: String,
    },
    /// The text parses but breaks a rule of the language (undeclared register, unbalanced
    /// control flow, a misplaced operand).
    #[error("{pos}: {what}")]
    Invalid {
        /// Where.
        pos: Pos,
        /// The rule that is broken.
        what: String,
    },
    /// The shader exceeds a size limit of the lifter (register counts, nesting depth, the
    /// number of IR instructions after lowering); each limit is a named constant in `limits`.
    #[error("{pos}: limit exceeded: {what}")]
    Limit {
        /// Where the limit was hit.
        pos: Pos,
        /// Which limit.
        what: String,
    },
    /// The lifted function does not verify. This is a bug in the lifter, not in the input.
    #[error("internal error: the lifted IR does not verify: {0}")]
    Verify(VerifyErrors),
}

impl TgsiError {
    /// The position in the text, for every error that comes from the input.
    pub fn pos(&self) -> Option<Pos> {
        match self {
            TgsiError::UnexpectedChar { pos, .. }
            | TgsiError::Expected { pos, .. }
            | TgsiError::UnknownHeader { pos, .. }
            | TgsiError::UnknownOpcode { pos, .. }
            | TgsiError::UnknownFile { pos, .. }
            | TgsiError::UnknownName { pos, .. }
            | TgsiError::InvalidNumber { pos, .. }
            | TgsiError::UnsupportedStage { pos, .. }
            | TgsiError::UnsupportedDeclaration { pos, .. }
            | TgsiError::Unsupported { pos, .. }
            | TgsiError::Invalid { pos, .. }
            | TgsiError::Limit { pos, .. } => Some(*pos),
            TgsiError::Verify(_) => None,
        }
    }

    pub(crate) fn invalid(pos: Pos, what: impl Into<String>) -> TgsiError {
        TgsiError::Invalid {
            pos,
            what: what.into(),
        }
    }

    pub(crate) fn unsupported(
        pos: Pos,
        opcode: &'static str,
        what: impl Into<String>,
    ) -> TgsiError {
        TgsiError::Unsupported {
            pos,
            opcode,
            what: what.into(),
        }
    }

    pub(crate) fn limit(pos: Pos, what: impl Into<String>) -> TgsiError {
        TgsiError::Limit {
            pos,
            what: what.into(),
        }
    }
}

/// Result alias of the TGSI front end.
pub type Result<T, E = TgsiError> = core::result::Result<T, E>;
