//! The machine-level optimizer: passes over the machine function between instruction selection
//! and scheduling.
//!
//! Instruction selection maps each IR operation to machine instructions one at a time and
//! hands values between control-flow constructs through copies; the graph-IR optimizer never
//! sees that code. These passes clean it up, in this order (each is an entry of the backend's
//! pass list, [`crate::pipeline::PASSES`], whose output is kept in the dumps when asked for):
//!
//! | pass | module | does |
//! |---|---|---|
//! | `mopt-dce` | [`dce`] | instructions no needed instruction depends on deleted, by strong liveness (values only handed round loops in copies, results nobody reads) |
//! | `mopt-cse` | [`cse`] | recomputations of an available result turned into copies of it |
//! | `mopt-copyprop` | [`copyprop`] | copies of uniforms, immediates and float registers with modifiers replaced in their readers |
//! | `mopt-combine` | [`combine`] | a product read only by an add fused into one `imadd` |
//! | `mopt-coalesce` | [`coalesce`] | copies between groups that never hold different live values removed by merging the groups (phi and parallel copies of `if`/loop results and loop parameters) |
//! | `mopt-sink` | [`sink`] | constants (values of immediates and uniforms alone) moved down to their first reader, out of the way of the code between |
//!
//! Pipeline position: after `collect` and `promote` (so the constant pool is known), before
//! `sched`. The passes work on virtual registers and the structured pseudo-instructions; their
//! analyses follow one thread's control flow ([`flow`]).

pub mod coalesce;
pub mod combine;
pub mod copyprop;
pub mod cse;
pub mod dce;
pub mod flow;
pub mod sink;
pub mod slots;
