//! agxc's graph IR and its optimizer.
//!
//! Pipeline position: the front ends (`agxc-frontend`) lift SPIR-V and TGSI into the graph IR
//! defined here ([`ir`]); the reference interpreter runs it and is the project's definition of
//! what a shader computes; the optimizer rewrites it by equality saturation; the backend
//! (`agxc-backend-agx`) compiles the result for the G13.
//!
//! - [`ir`]: types, constants, entities, the operation table, effects, functions with structured
//!   control flow, the builder, the verifier and the text form.
//! - [`interp`]: the reference interpreter (compute grids with shared memory and barriers,
//!   fragment grids in 2x2 quads, vertices, geometry primitives and the vertices they emit; a
//!   software texture model).
//! - [`opt`]: equality saturation with `egg`: the language derived from the operation table,
//!   constant folding through the same evaluation functions, rules, extraction, elaboration, dumps.
//! - [`passes`]: control-flow passes on the structured IR around saturation: unrolling,
//!   flattening loops that run once, if-conversion, dead and path-independent values.
//!
//! # One definition per operation
//!
//! Every pure operation is one entry of the table in `ir/ops.rs` (name, signature, algebraic
//! flags, evaluation function). Adding one means adding a table line and its evaluation:
//!
//! ```text
//! // ir/ops.rs, in the `pure_ops!` table:
//! /// Float copysign: the magnitude of `a` with the sign of `b`.
//! Fcopysign = "fcopysign", Signature::Binary(F), float::copysign, N;
//!
//! // ir/eval/float.rs:
//! pub fn copysign(a: &[Const], _: Type) -> Const {
//!     let ty = a[0].ty();
//!     let sign = 1u64 << (ty.bits() - 1);
//!     Const::from_bits(ty, (a[0].bits() & !sign) | (a[1].bits() & sign))
//! }
//! ```
//!
//! From that entry alone, `fcopysign` prints and parses in the text form, the verifier checks
//! its operand types, the interpreter runs it, the optimizer's e-graph language has it as a node
//! kind and its constant folder evaluates it, and the rule soundness test can use it. No other
//! list needs editing. A target adds its own operations the same way, outside this crate, with a
//! [`CustomOpDef`](ir::CustomOpDef):
//!
//! ```
//! use agxc_egraph::ir::{Class, Const, CustomOpDef, OpRegistry, Signature, Type, parse_function};
//! use agxc_egraph::interp::{run_compute, Limits, Resources};
//!
//! fn half_of(args: &[Const], _: Type) -> Const {
//!     Const::f32(args[0].as_f32() * 0.5)
//! }
//! static HALF: CustomOpDef = CustomOpDef {
//!     name: "example.half",
//!     signature: Signature::Unary(Class::Float),
//!     eval: half_of,
//!     doc: "x * 0.5",
//! };
//!
//! let text = "function @main compute local_size(1, 1, 1) {
//! block0:
//!     v0:f32 = const 3.0
//!     v1:f32 = example.half v0
//!     v2:i32 = const 0
//!     store storage(0, 0) [v2], v1
//!     return
//! }";
//! let func = parse_function(text, &OpRegistry::with(&[&HALF]))?;
//! let mut res = Resources::new();
//! res.bind_storage(agxc_egraph::ir::Binding::new(0, 0), vec![0; 4]);
//! run_compute(&func, &mut res, [1, 1, 1], &Limits::default())?;
//! let out = res.buffer_data(agxc_egraph::ir::Binding::new(0, 0)).unwrap();
//! assert_eq!(f32::from_le_bytes([out[0], out[1], out[2], out[3]]), 1.5);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

pub mod interp;
pub mod ir;
pub mod opt;
pub mod passes;
