//! `agxc run`'s simulator settings: limits that bound a run, the engine and host threads.

use agxc::runtime_sim::runtime::{
    Engine, DEFAULT_MAX_GRID_THREADS, DEFAULT_MAX_INSTRUCTIONS, DEFAULT_STEP_LIMIT,
};
use agxc::sim::SimOptions;
use clap::{Args, ValueEnum};

/// The simulator's executor. Every engine gives byte-identical results, statistics and errors
/// and keeps every check; they differ only in speed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum EngineArg {
    /// Specialised operations and vectorised lane loops, with the straight runs of arithmetic
    /// compiled to host code (Cranelift) once a program has run a few hundred of them: small
    /// dispatches never pay the few milliseconds of compilation, large ones get compiled code
    /// (the default).
    Fast,
    /// The fast engine with the straight runs compiled before the first one runs: pays the
    /// compilation on every program, even a one-workgroup dispatch (what the tests use, so
    /// that compiled code runs on every test program).
    FastCompiled,
    /// The fast engine's interpreter only, never compiling: no compilation cost, slower on
    /// large ALU-bound dispatches.
    FastInterpreted,
    /// The reference executor, one decoded instruction at a time, as the ISA document's
    /// pseudocode reads (slowest; the specification the others are checked against).
    Reference,
}

/// Simulator settings of `agxc run`. Every check (register-cache hints, waits, uninitialized
/// reads, step limit) is on in every engine.
#[derive(Args, Debug)]
pub struct SimArgs {
    /// Instructions one SIMD-group may execute before the run fails (ends runaway loops).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_STEP_LIMIT)]
    pub step_limit: u64,
    /// SIMD-group instructions the whole dispatch or draw may execute.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_INSTRUCTIONS)]
    pub max_instructions: u64,
    /// Threads a dispatch may have (compute: workgroups times workgroup size; fragment: pixels).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_GRID_THREADS)]
    pub max_grid: u64,
    /// Host threads running the simulator (0: every core, for dispatches large enough).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub threads: usize,
    /// The simulator's executor (all give identical results and checks; `fast` compiles hot
    /// straight runs to host code, `fast-compiled` compiles before the first run,
    /// `fast-interpreted` never compiles, `reference` is the slow specification).
    #[arg(long, value_enum, default_value = "fast")]
    pub engine: EngineArg,
    /// Run shaders with device atomics on several host threads too: faster, but the order of
    /// atomics between workgroups, and so the values they return, may differ between runs.
    #[arg(long)]
    pub parallel_atomics: bool,
}

impl SimArgs {
    /// The run's options.
    pub fn options(&self) -> SimOptions {
        SimOptions {
            step_limit: self.step_limit,
            max_instructions: self.max_instructions,
            max_grid_threads: self.max_grid,
            engine: match self.engine {
                EngineArg::Fast => Engine::Fast,
                EngineArg::FastCompiled => Engine::FastCompiled,
                EngineArg::FastInterpreted => Engine::FastInterpreted,
                EngineArg::Reference => Engine::Reference,
            },
            threads: self.threads,
            parallel_atomics: self.parallel_atomics,
            ..SimOptions::default()
        }
    }
}
