//! Running corpus cases on agxc's own executors and comparing with the oracles' recordings.
//!
//! The corpus module (`crate::corpus`) holds cases, generates their inputs and compares
//! outputs; the oracle harnesses (`crate::lavapipe`, `crate::softpipe`) recorded what lavapipe
//! and softpipe computed. This module closes the loop for agxc:
//!
//! ```text
//! Case ─ prepare (lift + verify: agxc_frontend::{spirv, tgsi}) ─► Function ─┐
//!      ─ Case::inputs ─► Launch (resources in the IR's binding model) ──────┴─► Executor ─► Outputs
//!                                                            compare_outputs(expected/) ─► CaseReport
//! ```
//!
//! - [`Launch`]: the case's buffers, push constants, textures with their samplers, varyings
//!   (the affine model), render targets, clear colour, grid size or workgroup count, and the
//!   outputs to read back, all keyed by IR [`Binding`](agxc_egraph::ir::Binding)s and
//!   locations. Language conventions ([`Conventions`]) cover what the oracles' pipelines do
//!   differently (integer varyings, fragment depth).
//! - [`Executor`]: runs a function on a launch. [`Interpreter`] is the reference interpreter;
//!   the G13 backend plus simulator will implement the same trait, so it gets the same
//!   launches and the same comparisons for free.
//! - TGSI cases are lifted with options built from their `tgsi.toml` ([`TgsiInterface`]) so
//!   that TGSI registers land on the manifest's GLSL bindings; the module docs of `tgsi.rs`
//!   say how `CONST`, `BUFFER`, `SAMP`, `IN` and `OUT` map.
//! - [`run_case`] does one case end to end and returns a [`CaseReport`]; [`judge`] checks a
//!   corpus run against an allow-list of [`KnownDifference`]s; [`Table`] prints the reports.

mod error;
mod executor;
mod launch;
mod prepare;
mod report;
mod texture;
mod tgsi;

pub use error::RunError;
pub use executor::{Executor, Interpreter};
pub use launch::{BoundBuffer, BoundTexture, Conventions, IntegerVaryings, Launch, LaunchStage};
pub use prepare::{prepare, Language, Prepared};
pub use report::{
    judge, run_case, run_corpus, CaseReport, CorpusRun, KnownDifference, Outcome, Table, Verdict,
    CASES_ENV,
};
pub use texture::{interp_sampler, interp_texture};
pub use tgsi::TgsiInterface;
