//! Unit tests of the TGSI front end: each opcode's semantics run in the reference interpreter
//! against values worked out in the test, control flow with diverging lanes, the binding
//! model, parser errors with positions, and a property test that mutated text never panics.

mod control_flow;
mod float_ops;
mod geometry;
mod harness;
mod image_ops;
mod int_ops;
mod legacy_ops;
mod memory_ops;
mod parsing;
mod stages;
mod texture_ops;
