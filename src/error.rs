//! The facade's error type: one variant per pipeline stage, each carrying that stage's own
//! error (which names the place: a SPIR-V word offset, a TGSI line and column, an IR
//! instruction).

use crate::source::SourceKind;

/// Why a compile (or a run through the command line) failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The input has no bytes at all.
    #[error("input is empty (0 bytes)")]
    Empty,
    /// The input is neither SPIR-V, TGSI nor graph-IR text.
    #[error("input is not a SPIR-V binary, TGSI text or agxc IR text (looked at the first bytes)")]
    UnknownSource,
    /// The SPIR-V front end rejected the module.
    #[error("SPIR-V: {0}")]
    Spirv(#[from] agxc_frontend::spirv::SpirvError),
    /// The TGSI front end rejected the shader.
    #[error("TGSI: {0}")]
    Tgsi(#[from] agxc_frontend::tgsi::TgsiError),
    /// Graph-IR text did not parse.
    #[error("IR: {0}")]
    IrParse(#[from] agxc_egraph::ir::ParseError),
    /// Graph-IR text parsed but does not verify.
    #[error("IR: {0}")]
    IrVerify(#[from] agxc_egraph::ir::VerifyErrors),
    /// IR text is not UTF-8.
    #[error("{0} input is not valid UTF-8")]
    NotUtf8(SourceKind),
    /// The optimizer failed.
    #[error("optimizer: {0}")]
    Optimize(#[from] agxc_egraph::opt::OptError),
    /// The backend failed.
    #[error("backend: {0}")]
    Backend(#[from] agxc_backend_agx::BackendError),
    /// `--dump` or `AGXC_DUMP` named a pass that does not exist.
    #[error("no pass named `{name}` to dump (the passes: all, {known})")]
    UnknownPass {
        /// The name given.
        name: String,
        /// The pass names, in pipeline order.
        known: String,
    },
    /// The pipeline ended before producing what was asked for (an agxc bug: the stage list in
    /// `agxc::pipeline::PIPELINE` lost a stage).
    #[error("internal error: the pipeline ended before producing its result")]
    Incomplete,
}
