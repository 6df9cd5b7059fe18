//! Unit tests of the simulator: golden encodings, docs/g13.md's reference encodings, instruction
//! semantics, execution-mask scenarios, the sanitizer and robustness. Expected values are worked
//! out by hand from the ISA document or computed independently with Rust's f32/f64 and the
//! `half` crate, never taken from the code under test.

mod asm;
mod atomic_ops;
mod engines;
mod exec_mask;
mod fast_runs;
mod float_ops;
mod golden;
mod harness;
mod int_ops;
mod memory_ops;
mod quad_ops;
mod robustness;
mod runtime_api;
mod sanitizer;
mod texture_ops;
