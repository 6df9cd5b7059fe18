//! `agxc run`'s simulator settings: limits that bound a run, the engine and host threads.

use agxc::runtime_sim::runtime::{
    Engine, DEFAULT_MAX_GRID_THREADS, DEFAULT_MAX_INSTRUCTIONS, DEFAULT_STEP_LIMIT,
};
use agxc::sim::SimOptions;
use clap::{Args, ValueEnum};

/// The simulator's executor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum EngineArg {
    /// Specialised operations and vectorised lane loops (the default).
    Fast,
    /// The reference executor, one decoded instruction at a time (slower; identical results).
    Reference,
}

/// Simulator settings of `agxc run`. Every check (register-cache hints, waits, uninitialized
/// reads) is on in both engines.
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
    /// The simulator's executor.
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
                EngineArg::Reference => Engine::Reference,
            },
            threads: self.threads,
            parallel_atomics: self.parallel_atomics,
            ..SimOptions::default()
        }
    }
}
