//! `agxc-runtime-sim`: a simulator of the Apple G13 GPU (M1) that decodes and runs real machine
//! code, with a small runtime API around it.
//!
//! # Where it sits
//! The agxc compiler's backend emits G13 binaries; this crate is how every compile is checked
//! without the hardware. It never sees the backend's data structures: it reads bytes. The one
//! agxc crate it depends on is the shared G13 instruction description (`agxc-g13-isa`, nested in
//! this directory at `isa/`), whose encoding tables, sub-operation enums, latency table and
//! target-only operation models the backend uses too; what keeps the simulator an independent
//! check of the backend is what that description does not hold: the golden vectors
//! (`tests/golden.rs`) and the encoder's `(instruction, bytes, assembly)` triples, worked out by
//! hand from the document's bit diagrams. It implements the ISA document
//! `seeds/001_9be1231add6061e8.txt` with the corrections of `docs/g13.md`, and reports generated code that is wrong in ways
//! a quick test would miss: a read of a register after a `discard` cache hint, a `discard` hint
//! under a partial execution mask, a read or write of a register whose load was not waited for.
//!
//! ```text
//!  bytes ─► encoding (tables) ─► decode (typed operands) ─► Program ──► exec (SIMD-groups of 32)
//!                   │                                                     │         │
//!                   └──────────► disasm                 texture unit ◄────┘   memory, timing, stats
//! ```
//!
//! # Main types
//! - [`program::Program`]: code decoded once and checked against its
//!   [`program::ProgramMetadata`] (stage, registers used, threadgroup memory, stack size).
//! - [`runtime::Simulator`]: device memory, uniform registers, texture and sampler bindings,
//!   [`runtime::Simulator::dispatch_compute`] and [`runtime::Simulator::shade_fragments`], with
//!   the settings of [`runtime::Config`]: limits, engine, host threads.
//! - [`stats::Stats`]: instructions by [`timing::InstClass`], thread-instructions, cycles per
//!   SIMD-group from the timing model, register-cache hint counts, occupancy.
//! - [`disasm::disassemble`]: the community's syntax (`fadd32 r0, r1.discard, r2.cache`).
//! - [`Error`]: every failure, with the pc (byte offset) and, for execution errors, the
//!   SIMD-group and thread; nothing in this crate panics on bad input or hangs.
//!
//! # Example
//! A kernel writing `out[i] = 3 * i`, hand-encoded from the document's bit diagrams:
//!
//! ```
//! use agxc_runtime_sim::program::{Program, ProgramMetadata};
//! use agxc_runtime_sim::runtime::Simulator;
//!
//! let code = [
//!     0x72, 0x05, 0x10, 0x04,                         // get_sr r1, thread_position_in_grid.x
//!     0x1e, 0x09, 0x42, 0x32, 0x00, 0x00, 0x00, 0x00, // imadd r2, r1, 3, 0
//!     0x45, 0x11, 0x20, 0x08, 0x00, 0x80, 0x12, 0x00, // device_store r2, u0_u1, r1.sx, i32, 0b0001, slot 0
//!     0x88, 0x00,                                     // stop
//! ];
//! // The program touches r0..r2: 6 16-bit registers.
//! let program = Program::load(&code, ProgramMetadata::compute(6))?;
//! assert!(program.disassemble().contains("imadd r2, r1, 3, 0"));
//!
//! let mut sim = Simulator::new();
//! let out = sim.alloc(4 * 100, 16)?;
//! sim.set_uniform64(0, out)?; // u0_u1 holds the buffer's address
//! let stats = sim.dispatch_compute(&program, [2, 1, 1], [50, 1, 1])?;
//!
//! let values = sim.read_u32s(out, 100)?;
//! assert!(values.iter().enumerate().all(|(i, &v)| v == 3 * i as u32));
//! assert_eq!(stats.simd_groups, 4); // two SIMD-groups of 32 + 18 threads per workgroup
//! assert_eq!(stats.thread_instructions, 100 * 4);
//! # Ok::<(), agxc_runtime_sim::Error>(())
//! ```
//!
//! # Execution model
//! - A SIMD-group has 32 threads, registers `r0..r127` (each also addressable as 16-bit halves
//!   `rNl`/`rNh`, and as 64-bit pairs), an execution mask, a pc and a stack pointer. Registers
//!   start at zero. The program may touch only the 16-bit registers below
//!   `ProgramMetadata::gpr_halves` (checked at load).
//! - The execution-mask stack (`if_*cmp`, `else_*cmp`, `while_*cmp`, `pop_exec`) follows the
//!   document's pseudocode exactly, through `r0l`, for every thread that exists.
//! - Floats (see [`float`]): fp32 flushes denormals, fp16 keeps them, round to nearest even,
//!   default NaNs, saturate, and two roundings for fp32 operations with 16-bit destinations.
//!   docs/g13.md's float condition codes: 5 is `>=`, 6 is `<=`.
//! - Loads (`device_load`, `texture_*`) write their registers at issue and mark them pending on
//!   their wait slot until `wait slot`; touching a pending register is an error.
//! - The register-cache model: cache and discard hints are counted; a discard hint poisons the
//!   register's halves for the SIMD-group's threads until written (halves the same instruction
//!   writes are not poisoned); reading a poisoned half is an error naming pc, thread and
//!   register; a discard hint while some existing thread is inactive is an error.
//! - [`runtime::Config::step_limit`] bounds the instructions of one SIMD-group (default 2^24),
//!   [`runtime::Config::max_instructions`] those of a whole dispatch or draw (default 2^32,
//!   checked after each workgroup or fragment SIMD-group in dispatch order) and
//!   [`runtime::Config::max_grid_threads`] its size (default 2^28 threads or pixels, checked
//!   before anything runs); each error names its limit.
//!
//! Compute dispatches and the fragment grid are laid out as described in [`runtime`]: workgroups
//! linearised x fastest into SIMD-groups of 32; fragments in 2x2 quads, lanes `4k..4k+3` of a
//! SIMD-group being quad `k` with pixels (x, y), (x+1, y), (x, y+1), (x+1, y+1), quads numbered
//! row-major, pixels outside the grid running as helper threads whose outputs are dropped.
//! The settings and varyings ([`config`]) sit below both the runtime and the executors, so the
//! executors never import the runtime that drives them.
//!
//! # Runtime contract
//! - Device memory is sparse: [`runtime::Simulator::alloc`] places buffers above 4 GiB with
//!   unmapped gaps between them; any access outside an allocation is an error.
//! - Uniform registers `u0..u255` are set with `set_uniform16/32/64`; memory instructions read
//!   64-bit base addresses from uniform pairs (`u0_u1` is `set_uniform64(0, ..)`).
//! - Textures and samplers are bound to slots, which the texture instructions' `T` and `S`
//!   operands index; the descriptor model, texel layout and sampling rules are in [`texture`].
//! - Sizes are bounded so that a bad request is an error, never an exhausted host: threadgroup
//!   memory and stack per thread ([`program::MAX_THREADGROUP_MEMORY`],
//!   [`program::MAX_STACK_SIZE`]), one allocation ([`memory::MAX_ALLOCATION`]), workgroups
//!   ([`runtime::MAX_WORKGROUP_THREADS`]) and fragment grids ([`runtime::MAX_FRAGMENT_PIXELS`]).
//! - Varyings: `ld_var` slot `n` reads [`runtime::FragmentSetup::varyings`]`[n]`; component `j`
//!   of its mask is plane `j`, `value(x, y) = (base + ddx * (x + 0.5)) + ddy * (y + 0.5)` in f32
//!   at the pixel centre (flat slots: `base`).
//! - Fragment outputs: `st_tile` render target `n` is the `n`th RGBA f32 image of
//!   [`runtime::FragmentOutput::targets`], rows top to bottom, pixel (x, y) at `y * width + x`,
//!   initialised to [`runtime::FragmentSetup::clear`]`[n]`. A pixel whose thread executed a
//!   discard (`sample_mask` clearing its coverage) keeps the clear colour.
//!
//! # Behaviour this simulator defines
//! The document leaves these `TODO()` or undefined; docs/g13.md settles some, the rest are defined
//! here (and in the module docs named):
//! - `convert`: docs/g13.md's modes and rounding bit; float-to-integer clamps and maps NaN to 0;
//!   an immediate source of a float-to-integer mode is the 8-bit float immediate (`exec`).
//! - `dfdx`/`dfdy`: fine derivatives across the quad (`exec::float`).
//! - `icmp_quad_ballot`/`fcmp_quad_ballot`: the quad's 4-bit mask; `simd_shuffle_down`:
//!   `A[t + B[t]]`, or `A[t]` past lane 31; `simd_shuffle` follows the pseudocode's quad quirk
//!   (`exec::quad`).
//! - `call r<n>` / `ret r<n>`: absolute byte targets, uniform across active threads; `call`
//!   writes the return address to `r1`; `jmp_incomplete` never jumps; `trap` is an error;
//!   `stop` ends the whole SIMD-group whatever the execution mask (an early return of some
//!   threads must be done with the execution mask).
//! - `device_load`/`device_store`: formats, masks, shifts, alignment as docs/g13.md; a zero mask
//!   (the short forms) is rejected; `f16` into 32-bit registers converts (`formats`).
//! - `uniform_store`, `stack_*`, `threadgroup_*`, `ld_var`, `ld_tile`/`st_tile`: operand
//!   meanings in `decode::memory`, behaviour in `exec::memory` and `exec::fragment`.
//! - Texture instruction operands (`decode::texture`): the compare reference and packed offsets
//!   in the registers from `O`; bit 63 is the wait slot.
//! - `sample_mask` (not in the document; Mesa's encoding): the discard instruction.
//! - `atomic` / `local_atomic` (not in the document; Mesa's encodings): operands in
//!   `decode::atomic`; lanes in ascending order, SIMD-groups and workgroups in the order the
//!   runtime runs them, so results are deterministic (`exec::atomic`).
//! - `get_sr` uses Mesa's special register numbers (the document has none):
//!
//! | SR | name | value |
//! |---|---|---|
//! | 0, 1, 2 | threadgroup_position_in_grid.x/y/z | the workgroup id (fragment: 0) |
//! | 4..6, 8..10 | (dispatch_)threads_per_threadgroup.x/y/z | the workgroup size (fragment: 32, 1, 1) |
//! | 20, 21, 62 | core_index, vm_slot, backfacing | 0 |
//! | 48, 49, 50 | thread_position_in_threadgroup.x/y/z | local id (fragment: 0) |
//! | 51 | thread_index_in_threadgroup | linear local id (fragment: lane) |
//! | 52 | thread_index_in_simdgroup | lane |
//! | 53 | simdgroup_index_in_threadgroup | SIMD-group within the workgroup |
//! | 56 | active_thread_index_in_quad | active threads below in the quad |
//! | 58 | active_thread_index_in_simdgroup | active threads below in the SIMD-group |
//! | 60 | coverage_mask | fragment only: 1, or 0 once discarded |
//! | 63 | is_active_thread | 1 for active threads |
//! | 80, 81, 82 | thread_position_in_grid.x/y/z | global id (fragment: the pixel, z = 0) |
//! | 124 | input_sample_mask | fragment only: 1 |
//!
//! Other numbers are an execution error.
//!
//! # Timing and occupancy
//! [`timing`] has the model: docs/g13.md's latencies and issue intervals, in-order issue with
//! register dependencies, loads completing at `wait`, barriers; cycles are counted per
//! SIMD-group. Occupancy comes from docs/g13.md's table of threads per core by 16-bit registers
//! used.
//!
//! # Engines and threads
//! Two executors implement the semantics: the reference executor (`exec`), which interprets
//! each decoded instruction as the ISA document's pseudocode reads, and the fast engine
//! (`fast`, the default), which runs a translation of the program made once at load, with the
//! common instruction forms specialised and vectorised and the rest handed to the reference,
//! and compiles the straight runs of arithmetic of programs that run long to host code with
//! Cranelift (`fast`'s module docs say why a JIT of straight runs rather than a further
//! restructured interpreter or a whole-program compiler). Both keep every check (the hint
//! sanitizer, the wait scoreboard, uninitialized reads, the step limit) and give
//! byte-identical results, statistics and errors: compiled code runs only where the
//! interpreter would skip the checks because none can fail. [`runtime::Engine`] also has the
//! fast engine with every run compiled from the start (`FastCompiled`, what the tests compare
//! along with the default) and without compiled code (`FastInterpreted`); the unit tests run
//! every test program on the reference and both, and the corpus and soak tests compare them
//! on compiled shaders.
//!
//! A dispatch's workgroups (compute) or SIMD-groups (fragment) are spread over host threads
//! ([`runtime::Config::threads`], every core by default for large dispatches); results,
//! statistics and errors are those of a one-thread run for every program whose workgroups do
//! not race on the same memory (`runtime::dispatch` says how). Programs with device atomics run
//! on one thread, in the order `exec::atomic` defines, unless
//! [`runtime::Config::parallel_atomics`] is set; programs with `uniform_store` always do.
//!
//! # Speed
//! Measured with `cargo run --release -p agxc-runtime-sim --bin agxc-sim-bench` (16384 threads,
//! 64 workgroups of 256; results checked before any figure is reported; CPU time of the
//! process, best of five) on this project's shared 2-core machine (AMD EPYC, AVX2) at a load
//! average of about 10 from other builds, so wall times were several times the CPU times:
//!
//! | kernel | reference, 1 thread | fast, 1 thread |
//! |---|---|---|
//! | ALU loop (`fmadd`, `fadd`, `fmul`, `iadd`, loop control) | 167-220 M thread-instructions/s | 709-771 M/s |
//! | memory (`device_load`, `wait`, `iadd`, loop control) | 149-186 M/s | 248-744 M/s |
//!
//! The fast engine's lane loops are compiled twice: for the baseline target and, chosen at
//! run time, for x86-64 hosts with AVX2 and FMA (eight lanes per instruction, the host's fused
//! multiply-add); the README's benchmark section compares whole dispatches with lavapipe.

#![warn(missing_docs)]

pub mod config;
pub mod decode;
pub mod disasm;
pub mod encoding;
pub mod error;
mod exec;
mod fast;
pub mod float;
pub mod formats;
mod lanes;
pub mod memory;
pub mod program;
mod regfile;
pub mod runtime;
pub mod stats;
pub mod texture;
pub mod timing;

pub use error::Error;
pub use exec::special_register_name;

#[cfg(test)]
mod tests;
