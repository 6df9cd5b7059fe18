//! The softpipe oracle: runs the TGSI corpus's GLSL on Mesa's softpipe driver.
//!
//! softpipe interprets TGSI, and Mesa's GL driver turns GLSL into TGSI on the way, so one run
//! gives both the TGSI of a shader (softpipe's `SOFTPIPE_DEBUG=fs,cs` dump) and an independent
//! implementation's results for it. The work happens in a Python program
//! (`tests/softpipe/run_cases.py`, moderngl on an EGL surfaceless context); this module is its
//! Rust side:
//!
//! 1. [`Softpipe::locate`] finds the harness's Python (`$SOFTPIPE_PYTHON`, else the venv in
//!    `$SOFTPIPE_VENV` or `target/softpipe-venv`, which [`venv`] makes and fills from
//!    `requirements.txt` on first use) and probes that softpipe works;
//! 2. [`Softpipe::run`] generates every case's inputs with [`crate::corpus`] into files, runs all
//!    cases in one Python process and collects a [`CaseRun`] per case: outputs, TGSI and the
//!    GLSL-to-TGSI register map ([`TgsiBindings`], kept as `tgsi.toml` in the case);
//! 3. the recorder (`src/bin/record-softpipe.rs`) writes those into the corpus, and the recheck
//!    test (`tests/softpipe_recheck.rs`) compares a fresh run with what was recorded.

mod bindings;
mod error;
mod harness;
mod jobs;
pub mod venv;

pub use crate::corpus::oracle_required;
pub use bindings::{
    Generator, IoBinding, StateConstant, StorageBinding, TextureBinding, TgsiBindings,
    UniformBinding, BINDINGS_FILE,
};
pub use error::SoftpipeError;
pub use harness::{python_path, venv_path, CaseRun, Softpipe, GENERATOR_HOW};
pub use jobs::Environment;

/// The directory of the generated (GLSL-through-softpipe) TGSI cases.
pub fn generated_corpus_dir() -> std::path::PathBuf {
    crate::corpus::corpus_dir("tgsi").join("gen")
}

/// The directory of Mesa's graw TGSI shaders.
pub fn graw_corpus_dir() -> std::path::PathBuf {
    crate::corpus::corpus_dir("tgsi").join("graw")
}
