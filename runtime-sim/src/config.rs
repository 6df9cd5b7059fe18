//! What a dispatch is configured and fed with: the simulator's settings ([`Config`], the
//! [`Engine`]) and the fragment varyings ([`Varying`], [`Plane`]).
//!
//! Both the runtime (`crate::runtime`, which sets dispatches up) and the executors
//! (`crate::exec`, `crate::fast`, which run them) read these; they live here, below both, so
//! that the executors do not import the runtime that drives them (the runtime re-exports them
//! under its own path, `runtime::Config` and so on).

/// Which executor runs the instructions. Both implement the same semantics and the same
/// checks (register-cache hint sanitizer, wait scoreboard, uninitialized reads, step limits), and
/// give byte-identical results, statistics and errors; the tests run every program on both.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Engine {
    /// The fast engine (`crate::fast`): the program translated once into specialised
    /// operations with resolved operands, run by a threaded interpreter, with its straight
    /// runs of arithmetic compiled to host code once they have run a few hundred times on one
    /// host thread (so that small dispatches never pay for the compilation).
    #[default]
    Fast,
    /// The fast engine with the straight runs compiled before the first one runs: what
    /// [`Engine::Fast`] does on large dispatches, on every dispatch (the tests use it).
    FastCompiled,
    /// The fast engine without compiled code: only its interpreter.
    FastInterpreted,
    /// The reference executor (`crate::exec`): each decoded instruction interpreted as the ISA
    /// document's pseudocode reads. The specification the fast engine is checked against.
    Reference,
}

/// Simulator settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config {
    /// Instructions one SIMD-group may execute before the dispatch fails with a step-limit error
    /// (runaway loops end here).
    pub step_limit: u64,
    /// SIMD-group instructions a whole dispatch or draw may execute: checked after each
    /// workgroup (compute) or SIMD-group (fragment), in dispatch order, the dispatch fails with
    /// [`RuntimeError::InstructionBudget`](crate::error::RuntimeError::InstructionBudget) once the total passes it.
    pub max_instructions: u64,
    /// Threads (compute: workgroups times workgroup size; fragment: pixels) a dispatch may
    /// have; a larger one fails with [`RuntimeError::GridTooLarge`](crate::error::RuntimeError::GridTooLarge) before anything runs.
    pub max_grid_threads: u64,
    /// Treat reads of never-written registers as errors (off by default: shaders may
    /// legitimately read undefined values, e.g. SPIR-V `OpUndef`).
    pub check_uninitialized: bool,
    /// The executor.
    pub engine: Engine,
    /// Host threads a dispatch runs on: 0 (the default) uses every core for dispatches of at
    /// least 64 work items and one thread for smaller ones; `n` uses `n` threads whenever
    /// there are two items or more. See `runtime::dispatch` for why results do not depend on it.
    pub threads: usize,
    /// Run programs with device `atomic`s on several threads too. Off by default: the order in
    /// which atomics from different workgroups happen then depends on thread timing, so their
    /// results (the values returned, and anything computed from them) may differ from run to
    /// run, although every run is a valid execution. With it off such programs run on one
    /// thread, in the documented deterministic order (`exec::atomic`).
    pub parallel_atomics: bool,
}

/// The default [`Config::step_limit`]: 2^24 instructions per SIMD-group.
pub const DEFAULT_STEP_LIMIT: u64 = 1 << 24;

/// The default [`Config::max_instructions`]: 2^32 SIMD-group instructions per dispatch, about a
/// minute of simulation on two cores for ALU-heavy code.
pub const DEFAULT_MAX_INSTRUCTIONS: u64 = 1 << 32;

/// The default [`Config::max_grid_threads`]: 2^28 threads (pixels), 256 times a 1024x1024 grid.
pub const DEFAULT_MAX_GRID_THREADS: u64 = 1 << 28;

impl Default for Config {
    fn default() -> Self {
        Config {
            step_limit: DEFAULT_STEP_LIMIT,
            max_instructions: DEFAULT_MAX_INSTRUCTIONS,
            max_grid_threads: DEFAULT_MAX_GRID_THREADS,
            check_uninitialized: false,
            engine: Engine::Fast,
            threads: 0,
            parallel_atomics: false,
        }
    }
}

/// One component of a varying: `value(x, y) = base + ddx * (x + 0.5) + ddy * (y + 0.5)` at
/// pixel centres.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Plane {
    /// Value at (-0.5, -0.5), the plane's constant term.
    pub base: f32,
    /// Change per pixel to the right.
    pub ddx: f32,
    /// Change per pixel down.
    pub ddy: f32,
}

impl Plane {
    /// A constant plane.
    pub fn constant(value: f32) -> Self {
        Plane {
            base: value,
            ddx: 0.0,
            ddy: 0.0,
        }
    }
}

/// A varying slot: what `ld_var` with `index = n` reads for slot `n` of
/// [`FragmentSetup::varyings`](crate::runtime::FragmentSetup::varyings). Component `j` (x, y, z, w) is plane `j`.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Varying {
    /// The four component planes.
    pub planes: [Plane; 4],
    /// Flat: every pixel reads `base`.
    pub flat: bool,
}
