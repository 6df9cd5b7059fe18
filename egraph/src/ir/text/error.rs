//! Errors of the text-form parser: every one carries the line and column it was found at.

use crate::ir::constant::ConstParseError;
use crate::ir::entities::{Block, Value};

/// A parse error at a position in the input (1-based line and column, columns counted in
/// characters).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{column}: {kind}")]
pub struct ParseError {
    /// Line, from 1.
    pub line: u32,
    /// Column, from 1.
    pub column: u32,
    /// What went wrong.
    pub kind: ParseErrorKind,
}

/// What went wrong while parsing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseErrorKind {
    /// A character that starts no token.
    #[error("unexpected character `{0}`")]
    UnexpectedChar(char),
    /// A string literal without its closing quote.
    #[error("unterminated string")]
    UnterminatedString,
    /// An escape sequence the string syntax does not have.
    #[error("invalid escape `\\{0}` in string")]
    BadEscape(char),
    /// Something other than what the grammar allows here.
    #[error("expected {expected}, found {found}")]
    Expected {
        /// What would have been accepted.
        expected: &'static str,
        /// What was there (quoted token text, `end of line` or `end of input`).
        found: String,
    },
    /// A mnemonic that is neither a built-in operation nor in the registry.
    #[error("unknown operation `{0}`")]
    UnknownOp(String),
    /// A `.suffix` the mnemonic does not take.
    #[error("unknown suffix `.{suffix}` on `{op}`")]
    UnknownSuffix {
        /// The operation.
        op: String,
        /// The suffix.
        suffix: String,
    },
    /// A word that is not a type.
    #[error("unknown type `{0}`")]
    UnknownType(String),
    /// A word that is not a stage.
    #[error("unknown stage `{0}`")]
    UnknownStage(String),
    /// A word that is not an execution mode.
    #[error("unknown execution mode `{0}`")]
    UnknownMode(String),
    /// An effect attribute that is not one of the words this effect takes.
    #[error("unknown {what} `{word}`")]
    UnknownAttribute {
        /// Which attribute (`built-in`, `texture target`, ...).
        what: &'static str,
        /// The word.
        word: String,
    },
    /// A constant literal that does not parse as the result's type.
    #[error("malformed literal: {0}")]
    BadLiteral(#[from] ConstParseError),
    /// A number out of its field's range or not a number.
    #[error("`{text}` is not a valid {what}")]
    BadNumber {
        /// The text.
        text: String,
        /// What it should have been (`unsigned 32-bit integer`, `texel offset`).
        what: &'static str,
    },
    /// `const` needs exactly one result: its type is the literal's type.
    #[error("`const` takes exactly one result (its type is the literal's type), found {0}")]
    ConstResults(usize),
    /// A value is defined twice.
    #[error("{value} is already defined at line {line}")]
    DuplicateValue {
        /// The value.
        value: Value,
        /// Line of the first definition.
        line: u32,
    },
    /// A block label appears twice.
    #[error("{block} is already defined at line {line}")]
    DuplicateBlock {
        /// The block.
        block: Block,
        /// Line of the first label.
        line: u32,
    },
    /// A value is used but defined nowhere in the function.
    #[error("{0} is used but never defined")]
    UndefinedValue(Value),
    /// An entity number above the parser's limit.
    #[error("entity number {0} is too large (the limit is {limit})", limit = super::parse::MAX_ENTITY)]
    EntityTooLarge(u64),
    /// `if`/`loop` nesting deeper than the limit.
    #[error("structured control flow nested deeper than {0} levels")]
    TooDeep(usize),
}
