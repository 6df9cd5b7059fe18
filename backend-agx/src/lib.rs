//! The Apple G13 backend: graph IR in, G13 machine code and its metadata out.
//!
//! ```text
//!  graph IR (verified, optimized or not)
//!     │ vectorize adjacent loads/stores of one buffer merged
//!     │ isel      instruction selection: every IR operation to G13 instructions over
//!     │           virtual register groups; structured control flow kept as pseudo-ops
//!     ▼
//!  MFunction ── collect ──► promote ──►  copies into register runs coalesced; constants
//!            ── mopt-* ──► preamble ──►  to uniforms (the ABI's constant pool); machine-level
//!            ── sched ──►                cleanups; uniform work to the preamble program; list
//!                                        scheduling per straight-line block, for latency
//!                                        and for pressure (the one allocating fewer
//!                                        registers is kept)
//!     │ regalloc  linear scan in 16-bit units, aligned groups, spilling to the stack
//!     ▼
//!  [MInst<PReg>] ── hints ──►            register-cache discard/cache hints
//!     │ cflow     if/else/loop/break/continue/return to execution-mask stack code
//!     ▼
//!  [Lowered] ── waits ──►                wait slots and `wait`s for loads
//!     │ emit      layout, jump offsets, encoding (isa::encode)
//!     ▼
//!  Binary { code, preamble, metadata (ABI, registers, occupancy), stats, dumps }
//! ```
//!
//! The preamble (work on uniforms only, run once per dispatch; [`preamble`]) is allocated,
//! lowered and encoded by the same `regalloc`, `cflow`, `waits` and `emit` as the main program.
//!
//! Modules: [`isa`] (the machine instruction type, encoder, assembly syntax), [`target`] (the
//! G13 as the optimizer sees it: operations, rules, costs), [`abi`] (where resources live),
//! the passes [`vectorize`], [`mir`], [`isel`], [`collect`], [`promote`], [`mopt`], [`preamble`],
//! [`sched`], [`regalloc`], [`hints`],
//! [`cflow`], [`waits`], [`emit`] (run in order by [`pipeline::PASSES`]), and the models
//! [`latency`] and [`stats`]. Running a [`Binary`] in the simulator is the facade's
//! (`agxc::sim`): the backend does not depend on the simulator, only on the G13 instruction
//! description it shares with it (`agxc-g13-isa`: encoding tables, sub-operations, latencies,
//! target-only operation models).
//!
//! ```
//! use agxc_backend_agx::{compile, CompileOptions};
//! use agxc_egraph::ir::{parse_function, OpRegistry};
//!
//! let func = parse_function(
//!     "function @double compute local_size(32, 1, 1) {
//!      block0:
//!          v0:i32 = builtin global_id.x
//!          v1:i32 = const 4
//!          v2:i32 = imul v0, v1
//!          v3:f32 = load storage(0, 0) [v2]
//!          v4:f32 = fadd v3, v3
//!          store storage(0, 0) [v2], v4
//!          return
//!      }",
//!     &OpRegistry::new(),
//! )?;
//! let binary = compile(&func, &CompileOptions::default())?;
//! assert!(binary.disassembly.contains("device_load"));
//! assert!(binary.stats.instructions > 0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod abi;
pub mod cflow;
pub mod collect;
pub mod emit;
pub mod error;
pub mod hints;
pub mod isa;
pub mod isel;
pub mod latency;
pub mod mir;
pub mod mopt;
pub mod pipeline;
pub mod preamble;
pub mod promote;
pub mod regalloc;
pub mod sched;
pub mod stats;
pub mod target;
pub mod vectorize;
pub mod waits;

use std::fmt;

use agxc_egraph::ir::{Function, Stage};

pub use abi::Abi;
pub use error::BackendError;
pub use pipeline::{Machine, MachinePass, PASSES};
pub use stats::CodeStats;

/// How to compile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompileOptions {
    /// 16-bit registers the allocator may use (at most 256); fewer forces spilling.
    pub max_gpr_halves: u32,
    /// Run the list scheduler.
    pub schedule: bool,
    /// Set register-cache hints.
    pub hints: bool,
    /// Keep the machine code after each pass in [`Binary::dumps`].
    pub dump_passes: bool,
    /// Write [`Binary::disassembly`] (and the preamble's): formatting the listing is a few
    /// percent of compiling a small shader, which a caller that wants the bytes alone (`agxc
    /// compile` to a binary file) need not pay. When off, the listings are empty.
    pub disassemble: bool,
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions {
            max_gpr_halves: 256,
            schedule: true,
            hints: true,
            dump_passes: false,
            disassemble: true,
        }
    }
}

/// What the runtime needs to know to run a compiled shader.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Metadata {
    /// The shader's stage (a vertex shader runs as a compute program; see [`abi`]).
    pub stage: Stage,
    /// 16-bit registers used: halves `0 .. gpr_halves`.
    pub gpr_halves: u32,
    /// Threads per core at this register count (docs/g13.md's table).
    pub threads_per_core: u32,
    /// Stack bytes per thread (spilling).
    pub stack_bytes: u32,
    /// Threadgroup memory bytes per workgroup.
    pub threadgroup_memory: u32,
    /// Compute workgroup size.
    pub workgroup_size: [u32; 3],
    /// Where the shader's resources live.
    pub abi: Abi,
}

/// The machine code of one pass's output, for debugging.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PassDump {
    /// The pass.
    pub pass: &'static str,
    /// Its output.
    pub text: String,
}

/// A compiled shader.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Binary {
    /// G13 machine code.
    pub code: Vec<u8>,
    /// Registers, occupancy, memory and the ABI.
    pub metadata: Metadata,
    /// Statistics.
    pub stats: CodeStats,
    /// The disassembly (`pc: bytes  instruction`).
    pub disassembly: String,
    /// The machine code after each pass, when asked for.
    pub dumps: Vec<PassDump>,
    /// The uniform preamble, when the shader has uniform work: the runtime runs it once (one
    /// thread, the same uniforms) before the main program (`abi`, "Preamble").
    pub preamble: Option<PreambleCode>,
}

/// The preamble program of a [`Binary`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PreambleCode {
    /// G13 machine code.
    pub code: Vec<u8>,
    /// 16-bit registers it uses.
    pub gpr_halves: u32,
    /// Its instructions (`stop` included).
    pub instructions: u32,
    /// The disassembly.
    pub disassembly: String,
}

impl fmt::Display for CodeStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "instructions: {}\nbytes: {}\nestimated cycles: {}\nspilled values: {}\nspill instructions: {}\nwaits: {}",
            self.instructions,
            self.bytes,
            self.estimated_cycles,
            self.spilled_values,
            self.spill_instructions,
            self.waits
        )
    }
}

impl Binary {
    /// The report `agxc compile --emit report` prints.
    pub fn report(&self) -> String {
        let preamble = match &self.preamble {
            Some(p) => format!(
                "{} instructions, {} register halves",
                p.instructions, p.gpr_halves
            ),
            None => "none".into(),
        };
        format!(
            "{}\nregisters: {} halves ({} 32-bit)\noccupancy: {} threads per core\nstack: {} bytes\npreamble: {preamble}",
            self.stats,
            self.metadata.gpr_halves,
            self.metadata.gpr_halves.div_ceil(2),
            self.metadata.threads_per_core,
            self.metadata.stack_bytes
        )
    }
}

/// Compiles a verified function for the G13.
pub fn compile(func: &Function, opts: &CompileOptions) -> Result<Binary, BackendError> {
    let mut machine = Machine::new(func, opts)?;
    let mut dumps = Vec::new();
    for pass in PASSES {
        (pass.run)(&mut machine)?;
        if opts.dump_passes {
            dumps.push(PassDump {
                pass: pass.name,
                text: machine.listing(),
            });
        }
    }
    machine.finish(dumps)
}
