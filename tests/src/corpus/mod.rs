//! Shader corpora: case manifests, deterministic inputs, recorded outputs and their comparison.
//!
//! A corpus is a directory of cases (`tests/corpus/<language>/<case>/`), each with a shader source,
//! its built artefact, a `case.toml` manifest and the oracle's recorded outputs in `expected/`.
//! This module is language-neutral: the SPIR-V corpus (checked against lavapipe) and the TGSI
//! corpus (checked against softpipe) both use it, and so do the runs of agxc's own IR interpreter
//! and simulator, so every consumer sees the same inputs and the same comparison rules.
//!
//! The flow for one case:
//! 1. [`Case::load`] parses and validates the manifest ([`Manifest`]);
//! 2. [`Case::inputs`] generates the buffers, push constants and texels ([`Init`]);
//! 3. a runner (an oracle harness or agxc) produces [`Outputs`];
//! 4. [`compare_outputs`] checks them against [`Case::read_expected`] within each output's
//!    [`Tolerance`] and returns a [`Mismatch`] per differing output, naming the case, the output,
//!    the first differing element and both values.
//!
//! The schema is documented for corpus authors in `tests/corpus/README.md`.

mod case;
mod compare;
mod error;
mod generate;
mod manifest;
mod oracle_skip;

pub use case::{corpus_dir, load_corpus, Case, Inputs, SOURCE_NAMES};
pub use compare::{
    compare_output, compare_outputs, ulp_distance, Difference, Mismatch, OutputKey, OutputSpec,
    Outputs, Tolerance,
};
pub use error::{CorpusError, Problem};
pub use generate::{Field, Init, Segment, SplitMix64, SPECIAL_F32};
pub use manifest::{
    Buffer, BufferKind, CompareOp, Filter, LevelLayout, Manifest, MipMode, PushConstants,
    RenderTarget, ScalarType, Stage, TexelFormat, Texture, TextureDim, Varying, Wrap,
};
pub use oracle_skip::{announce, oracle_required};

#[cfg(test)]
mod tests;
