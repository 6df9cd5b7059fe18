//! Running corpus cases on agxc's own executors and comparing with the oracles' recordings.
//!
//! The corpus module (`crate::corpus`) holds cases, generates their inputs and compares
//! outputs; the oracle harnesses (`crate::lavapipe`, `crate::softpipe`) recorded what lavapipe
//! and softpipe computed. This module closes the loop for agxc:
//!
//! ```text
//! Case ─ prepare: lift + verify (agxc_frontend::{spirv, tgsi}) ─► Function ─┐
//!      ─ Case::inputs ─► Launch (IR binding model) ────────────────────────┴─► Executor
//!   Executor ─► Outputs ─ compare_outputs with expected/ ─► CaseReport
//! ```
//!
//! - [`Launch`]: the case's buffers, push constants, textures with their samplers, varyings
//!   (the affine model; flat ones as the provoking vertex's raw words), render targets, clear
//!   colour, grid size or workgroup count, and the outputs to read back, all keyed by IR
//!   [`Binding`](agxc_egraph::ir::Binding)s and locations. Language conventions
//!   ([`Conventions`]) cover what the oracles' pipelines do differently (fragment depth).
//! - [`Executor`]: runs a function on a launch. [`Interpreter`] is the reference interpreter;
//!   the G13 backend plus simulator will implement the same trait, so it gets the same
//!   launches and the same comparisons for free.
//! - TGSI cases are lifted with options built from their `tgsi.toml` ([`TgsiInterface`]) so
//!   that TGSI registers land on the manifest's GLSL bindings; the module docs of `tgsi.rs`
//!   say how `CONST`, `BUFFER`, `SAMP`, `IN` and `OUT` map.
//! - [`run_case`] does one case end to end and returns a [`CaseReport`]; [`run_corpus`] runs
//!   a corpus (filtered, dumped or redirected through [`CorpusOptions::from_env`]); [`judge`]
//!   checks a run against an allow-list of [`KnownDifference`]s; [`Table`] prints the reports.
//! - [`G13`]: the library's pipeline (`agxc::compile_function`) plus the simulator as an
//!   executor, at -O0 or -O2 (the library's [`OptLevel`]); [`run_g13_corpus`]
//!   compares its runs with both the recordings and the interpreter, checking the G13's float
//!   behaviours (denormals, contraction) against interpreter models ([`numerics`]).
//! - [`run_relaxed_corpus`]: the cases with `RelaxedPrecision` arithmetic compiled with it in
//!   f16 (`agxc::Options::relaxed_f16`), checked against the G13 model of the IR it ran and,
//!   within each output's `relaxed_tolerance`, against the f32 interpreter and the recording.

mod corpus_run;
mod error;
mod executor;
mod g13;
mod launch;
pub mod numerics;
mod prepare;
mod relaxed;
mod report;
mod texture;
mod tgsi;
mod verdict;

pub use agxc::OptLevel;
pub use corpus_run::{run_corpus, CorpusOptions, CorpusRun, CASES_ENV, CORPUS_ENV, DUMP_ENV};
pub use error::RunError;
pub use executor::{Executor, Interpreter};
pub use g13::{run_g13_corpus, G13Error, G13LevelRun, G13};
pub use launch::{BoundBuffer, BoundTexture, Conventions, Launch, LaunchStage};
pub use prepare::{prepare, Language, Prepared};
pub use relaxed::{has_relaxed, run_relaxed_corpus, Figures, RelaxedRun};
pub use report::{run_case, CaseReport, Outcome, Table};
pub use texture::{interp_sampler, interp_texture};
pub use tgsi::TgsiInterface;
pub use verdict::{judge, Allowance, KnownDifference, Verdict};
