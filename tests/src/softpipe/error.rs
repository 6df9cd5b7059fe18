//! Errors of the softpipe harness wrapper.

use std::path::PathBuf;

use crate::corpus::CorpusError;

/// Everything that can go wrong around a softpipe run. A missing oracle is its own variant so
/// that tests can skip (outside CI) rather than fail.
#[derive(Debug, thiserror::Error)]
pub enum SoftpipeError {
    /// Python, moderngl, EGL or softpipe is not usable here; the text says which.
    #[error("softpipe not found: {0}")]
    Unavailable(String),
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The Python harness could not be started or ended abnormally.
    #[error("the softpipe harness ({program}) failed: {message}")]
    Harness {
        /// The command that was run.
        program: String,
        /// Exit status and the tail of its error output.
        message: String,
    },
    /// The harness's JSON could not be written or read.
    #[error("{path}: {message}")]
    Json {
        /// The JSON file.
        path: PathBuf,
        /// The serde_json message.
        message: String,
    },
    /// A case uses something GL (and so the harness) cannot express.
    #[error("case `{case}`: {problem}")]
    Unsupported {
        /// The case directory's name.
        case: String,
        /// What cannot be run.
        problem: String,
    },
    /// A `tgsi.toml` could not be read or written.
    #[error("{path}: {message}")]
    Bindings {
        /// The file.
        path: PathBuf,
        /// The toml message.
        message: String,
    },
    /// A corpus case could not be loaded.
    #[error(transparent)]
    Corpus(#[from] CorpusError),
}
