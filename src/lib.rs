//! agxc: a retargetable shader compiler for the Apple G13 GPU (the M1's GPU), built on equality
//! saturation.
//!
//! This crate is the public facade: one function, [`compile`], takes a shader (a SPIR-V binary,
//! TGSI text or agxc graph-IR text, told apart by content) and returns a G13 binary with its
//! metadata, statistics and whatever debugging dumps were asked for; [`compile_function`] does
//! the same from graph IR already in memory; [`lift`] and [`optimize`] stop earlier (before the
//! optimizer, before the backend). All of them run [`pipeline::PIPELINE`], the one ordered list
//! of named passes (`agxc compile --dump PASS,...` or `AGXC_DUMP` prints the code after any). The pieces it drives are
//! re-exported for users who need more control. [`sim`] runs a compiled binary in the G13
//! simulator with the interpreter's resource types; [`amber`] runs AmberScript test scripts
//! through the compiler and the simulator.
//!
//! ```text
//!  source ─► frontend (lift) ─► egraph::ir (verify) ─► egraph::opt (saturate, extract)
//!         ─► backend_agx (isel, schedule, regalloc, hints, waits, encode) ─► Binary
//!                                   runtime_sim runs it ◄──┘
//! ```
//!
//! ```
//! use agxc::{compile, OptLevel, Options};
//!
//! let shader = "function @double compute local_size(64, 1, 1) {
//! block0:
//!     v0:i32 = builtin global_id.x
//!     v1:i32 = const 2
//!     v2:i32 = ishl v0, v1
//!     v3:f32 = load storage(0, 0) [v2]
//!     v4:f32 = fadd v3, v3
//!     store storage(0, 1) [v2], v4
//!     return
//! }";
//! let compiled = compile(shader.as_bytes(), &Options { opt_level: OptLevel::O2, ..Options::default() })?;
//! assert!(!compiled.binary.code.is_empty());
//! assert!(compiled.binary.disassembly.contains("device_load"));
//! println!("{}", compiled.binary.report());
//! # Ok::<(), agxc::Error>(())
//! ```

#![warn(missing_docs)]

pub mod amber;
mod compile;
mod error;
pub mod pipeline;
pub mod sim;
mod source;

pub use agxc_backend_agx::PassDump;
pub use compile::{
    compile, compile_function, lift, optimize, Compiled, DumpRequest, OptLevel, Optimized, Options,
};
pub use error::Error;
pub use pipeline::{pass_names, DumpPasses, PIPELINE};
pub use source::{SourceKind, SPIRV_MAGIC};

pub use agxc_backend_agx as backend_agx;
pub use agxc_egraph as egraph;
pub use agxc_frontend as frontend;
pub use agxc_runtime_sim as runtime_sim;
