//! Budgets that stop a run: runaway loops and oversized launches (lanes, shared memory) end with
//! an error instead of hanging or exhausting memory.

/// Iterations one execution of a loop may run before [`InterpError::LoopLimit`]: generous for
/// real shaders (a loop over a million elements per invocation), small enough that a runaway
/// loop stops in seconds.
///
/// [`InterpError::LoopLimit`]: super::InterpError::LoopLimit
pub const DEFAULT_MAX_LOOP_ITERATIONS: u64 = 1 << 20;

/// Lane-instructions (instructions executed times the lanes executing them) a whole run may
/// take before [`InterpError::StepLimit`]: about a minute of interpretation; bounds runs that
/// no single loop limit catches (huge grids, deep nests).
///
/// [`InterpError::StepLimit`]: super::InterpError::StepLimit
pub const DEFAULT_MAX_STEPS: u64 = 1 << 32;

/// Lanes run in lockstep at once (a workgroup, a fragment grid with its helper lanes, a vertex
/// batch): every SSA value holds one 8-byte slot per lane, so this bounds memory.
pub const DEFAULT_MAX_LANES: usize = 1 << 18;

/// Bytes of shared memory a compute function may declare (allocated zeroed for every
/// workgroup): far above any GPU's (32 KiB on the G13, Vulkan guarantees 16 KiB), so that only
/// a corrupt or hostile `shared(N)` is refused.
pub const DEFAULT_MAX_SHARED_MEMORY: usize = 1 << 24;

/// The budgets of one run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Iterations allowed per execution of one loop instruction.
    pub max_loop_iterations: u64,
    /// Lane-instructions allowed for the whole run.
    pub max_steps: u64,
    /// Lanes allowed in one lockstep batch.
    pub max_lanes: usize,
    /// Bytes of shared memory allowed per workgroup.
    pub max_shared_memory: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_loop_iterations: DEFAULT_MAX_LOOP_ITERATIONS,
            max_steps: DEFAULT_MAX_STEPS,
            max_lanes: DEFAULT_MAX_LANES,
            max_shared_memory: DEFAULT_MAX_SHARED_MEMORY,
        }
    }
}
