//! Why a corpus case could not be run: every error names the case and the step that failed.

use std::path::PathBuf;

use agxc_egraph::interp::{InterpError, TextureError};
use agxc_egraph::ir::{Binding, VerifyErrors};
use agxc_frontend::spirv::SpirvError;
use agxc_frontend::tgsi::TgsiError;

use crate::corpus::CorpusError;
use crate::softpipe::SoftpipeError;

/// A failure before the outputs could be compared (a mismatch is not an error: see
/// [`super::Outcome`]).
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The case's files could not be read (`shader.spv`, `expected/`).
    #[error(transparent)]
    Corpus(#[from] CorpusError),
    /// A TGSI case's `tgsi.toml` could not be read.
    #[error(transparent)]
    Bindings(#[from] SoftpipeError),
    /// A source file could not be read.
    #[error("reading {}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The SPIR-V front end rejected the shader.
    #[error("case `{case}`: SPIR-V lift: {source}")]
    SpirvLift {
        /// The case.
        case: String,
        /// The front end's error.
        source: SpirvError,
    },
    /// The TGSI front end rejected the shader.
    #[error("case `{case}`: TGSI lift: {source}")]
    TgsiLift {
        /// The case.
        case: String,
        /// The front end's error.
        source: Box<TgsiError>,
    },
    /// The lifted function does not verify.
    #[error("case `{case}`: the lifted function does not verify: {source}")]
    Verify {
        /// The case.
        case: String,
        /// The verifier's errors.
        source: VerifyErrors,
    },
    /// A corpus texture does not fit the interpreter's texture model.
    #[error("case `{case}`: texture at {binding}: {source}")]
    Texture {
        /// The case.
        case: String,
        /// Where it is bound.
        binding: Binding,
        /// Why the model rejects it.
        source: TextureError,
    },
    /// A TGSI register map entry names a resource the manifest does not declare, or two
    /// resources claim one binding.
    #[error("case `{case}`: tgsi.toml: {what}")]
    Interface {
        /// The case.
        case: String,
        /// What does not fit.
        what: String,
    },
    /// The reference interpreter stopped with an error.
    #[error("case `{case}`: interpreter: {source}")]
    Interp {
        /// The case.
        case: String,
        /// The interpreter's error.
        source: InterpError,
    },
    /// Another executor (a compiler plus simulator, outside this crate) failed.
    #[error("case `{case}`: {executor}: {source}")]
    Executor {
        /// The case.
        case: String,
        /// The executor's name.
        executor: &'static str,
        /// Its error.
        source: Box<dyn std::error::Error + Send + Sync>,
    },
}

impl RunError {
    /// The step that failed, for one-word reports: `files`, `lift`, `verify`, `inputs` or
    /// `run`.
    pub fn step(&self) -> &'static str {
        match self {
            RunError::Corpus(_) | RunError::Bindings(_) | RunError::Io { .. } => "files",
            RunError::SpirvLift { .. } | RunError::TgsiLift { .. } => "lift",
            RunError::Verify { .. } => "verify",
            RunError::Texture { .. } | RunError::Interface { .. } => "inputs",
            RunError::Interp { .. } | RunError::Executor { .. } => "run",
        }
    }
}
