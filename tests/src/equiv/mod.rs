//! Equivalence properties on random programs: the optimizer and the G13 backend checked
//! against the reference interpreter.
//!
//! Where it sits: the programs come from `agxc_egraph::ir::arbitrary` (random well-formed
//! compute functions, their input buffers and a sampled texture); the reference is
//! `agxc_egraph::interp`; the implementations under test are `agxc_egraph::opt::optimize`
//! (with the generic target and with the G13 target) and `agxc_backend_agx::compile` run in
//! the G13 simulator (`agxc::sim`).
//!
//! ```text
//!  seed ─► Case (Recipe + InputBuffer) ─► lower ─► Function ──► interpreter ──► expected
//!                                                     │    └──► shadow run ──► tolerances
//!                                                     ├──► optimize ─► interpreter ─┐
//!                                                     └──► [optimize] ─► compile ─► simulator
//!                                                                                  │
//!                              compare (tolerances) ◄─────────────────────────────┘
//!                                   │ mismatch
//!                                   ▼
//!                      shrink ─► report (printed; IR before/after, e-graph DOT, disassembly)
//! ```
//!
//! # Properties
//! 1. Optimized IR equals unoptimized IR under the reference interpreter.
//! 2. Compiled at -O0 and at -O2 and run in the simulator equals the reference interpreter.
//!
//! # Tolerances
//! Floats are compared per output element with a bound derived for that element from the
//! operations on its path, not one tolerance per program: the shadow run ([`bounds`])
//! re-executes the unoptimized program and carries beside each value how far a correct
//! implementation's value may be from it. Each operation may add a local error where the
//! implementation under test legitimately differs ([`model`]), read from where each difference
//! is declared: the optimizer's rules by their declared tolerances ([`charges`]: fusion of
//! `a*b+c` counted as the product's missing rounding, half an ULP of the product, the sum then
//! rounding once more; the G13's sin/cos lowering within `2^-20 + |x| 2^-23`; 2 ULP for the
//! reciprocal-square-root rewrites), and on the G13 f32 denormals flushed and the other
//! operations within the precision column of the IR's operation table (`PureOp::precision`,
//! Vulkan's requirements), and propagates its operands' errors
//! (evaluating the operation at the corners of its operand box). Integer results are exact or
//! unknown; a branch condition that may flip makes what depends on it unknown. Outputs that
//! no inexact operation reaches are compared bit for bit (any NaN matching any NaN). The
//! summary line says how many output bytes were compared exactly, within a bound, or not at
//! all.
//!
//! # Running
//! `tests/tests/equiv_*.rs` run the properties; counts come from `AGXC_EQUIV_CASES`, seeds from
//! `AGXC_EQUIV_SEED` ([`driver`]), and every run prints a line like
//! `equiv opt-generic: 4000 programs, 0 mismatches, ...`.

pub mod bounds;
pub mod case;
pub mod charges;
pub mod check;
pub mod compare;
pub mod driver;
pub mod extra_rules;
pub mod model;
pub mod report;

pub use case::Case;
pub use check::{check, check_function, OptLevel, Outcome, Property};
pub use driver::{run, Settings, Summary};
pub use model::{ErrorModel, Rules};
