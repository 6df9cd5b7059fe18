//! The checking logic of agxc's cargo-fuzz targets (`fuzz/fuzz_targets/`), as library
//! functions: each target is one call into this module, and `tests/tests/fuzz_smoke.rs` runs
//! the same functions on committed seeds and on every crash input the fuzzers found, under
//! `cargo test`, so that the targets cannot rot between fuzzing campaigns (the fuzz crate
//! itself needs libFuzzer and is outside the workspace). See the README's "Fuzzing" section.
//!
//! Each function panics when an input breaks a promise (a panic inside agxc, a compiled
//! shader that does not decode, the G13 disagreeing with the interpreter) and returns quietly
//! otherwise, refusals included: libFuzzer reports the panic.

mod compile;
mod corpus_buffers;
mod g13_run;
mod lowering;

pub use compile::{check_compiled, compile_and_check, ir_compile, level_for, options};
pub use compile::{spirv_compile, tgsi_compile};
pub use corpus_buffers::CorpusBuffers;
pub use g13_run::g13_run;
pub use lowering::expand_like_isel;
