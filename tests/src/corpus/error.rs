//! Errors from loading a corpus case, generating its inputs or reading its recorded outputs.

use std::path::PathBuf;

/// Everything that can go wrong while reading a corpus case. Each variant names the file or the
/// case and the field at fault, so a broken manifest is found without a debugger.
#[derive(Debug, thiserror::Error)]
pub enum CorpusError {
    /// A file or directory could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// `case.toml` is not valid TOML or does not follow the schema.
    #[error("{path}: {source}")]
    Toml {
        /// The manifest file.
        path: PathBuf,
        /// The parser's message (with line and column).
        source: Box<toml::de::Error>,
    },
    /// The manifest parsed but breaks a rule of the schema (see `tests/corpus/README.md`).
    #[error("case `{case}`: {field}: {problem}")]
    Invalid {
        /// The case directory's name.
        case: String,
        /// The manifest field at fault, e.g. `buffer[2].size`.
        field: String,
        /// What is wrong with it.
        problem: Problem,
    },
    /// The case directory holds none of the known source file names.
    #[error("case `{case}`: no shader source (expected one of {expected})")]
    MissingSource {
        /// The case directory's name.
        case: String,
        /// The accepted file names, comma-separated.
        expected: &'static str,
    },
    /// A SPIR-V module whose size is not a whole number of 32-bit words.
    #[error("{path}: {bytes} bytes is not a whole number of SPIR-V words")]
    SpvSize {
        /// The module file.
        path: PathBuf,
        /// Its size in bytes.
        bytes: usize,
    },
    /// A recorded output file has a size that disagrees with the manifest.
    #[error(
        "case `{case}`: expected output {file} holds {actual} bytes, the manifest implies {wanted}"
    )]
    ExpectedSize {
        /// The case directory's name.
        case: String,
        /// The expected-output file.
        file: PathBuf,
        /// Bytes in the file.
        actual: usize,
        /// Bytes the manifest implies.
        wanted: usize,
    },
}

/// A broken schema rule, as data so that tests can match on it.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Problem {
    /// A field the stage needs is absent.
    #[error("required for {stage} cases")]
    RequiredForStage {
        /// `compute` or `fragment`.
        stage: &'static str,
    },
    /// A field that makes no sense for the stage is present.
    #[error("not allowed for {stage} cases")]
    NotForStage {
        /// `compute` or `fragment`.
        stage: &'static str,
    },
    /// Two resources share a `(set, binding)` or two targets/varyings share a location.
    #[error("duplicate {what} {at}")]
    Duplicate {
        /// `binding` or `location`.
        what: &'static str,
        /// The duplicated slot, printed.
        at: String,
    },
    /// A number is outside its allowed range.
    #[error("{value} is out of range ({allowed})")]
    OutOfRange {
        /// The offending value, printed.
        value: String,
        /// The allowed range, in words.
        allowed: &'static str,
    },
    /// A list has the wrong number of entries.
    #[error("has {actual} entries, needs {wanted}")]
    Length {
        /// Entries given.
        actual: usize,
        /// Entries needed.
        wanted: usize,
    },
    /// An explicit list or segment does not fit in the bytes it initialises.
    #[error("needs {needed} bytes but only {available} are available")]
    TooLong {
        /// Bytes the generator produces.
        needed: usize,
        /// Bytes available.
        available: usize,
    },
    /// Integer varyings must be flat: there is no interpolation of integers.
    #[error("integer varyings must be flat")]
    IntegerNotFlat,
    /// A generator that needs a non-empty range got an empty one.
    #[error("empty range: min {min} is above max {max}")]
    EmptyRange {
        /// Lower bound, printed.
        min: String,
        /// Upper bound, printed.
        max: String,
    },
}
