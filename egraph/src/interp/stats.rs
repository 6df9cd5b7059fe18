//! What a run did, for reports and for comparing with the simulator's counts.

use core::fmt;

/// Counts from one run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Instructions executed with at least one active lane (each counted once per execution,
    /// however many lanes ran it).
    pub instructions: u64,
    /// Instructions executed times the lanes executing them.
    pub lane_instructions: u64,
    /// Invocations run, helper lanes included.
    pub lanes: u64,
    /// Of those, helper lanes added to complete 2x2 quads.
    pub helper_lanes: u64,
    /// Loop iterations (one per pass of a loop body, however many lanes took it).
    pub loop_iterations: u64,
    /// Compute workgroups run.
    pub workgroups: u64,
}

impl Stats {
    pub(crate) fn add(&mut self, other: &Stats) {
        self.instructions += other.instructions;
        self.lane_instructions += other.lane_instructions;
        self.lanes += other.lanes;
        self.helper_lanes += other.helper_lanes;
        self.loop_iterations += other.loop_iterations;
        self.workgroups += other.workgroups;
    }
}

impl fmt::Display for Stats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} instructions ({} lane-instructions), {} lanes ({} helpers), {} loop iterations",
            self.instructions,
            self.lane_instructions,
            self.lanes,
            self.helper_lanes,
            self.loop_iterations
        )?;
        if self.workgroups > 0 {
            write!(f, ", {} workgroups", self.workgroups)?;
        }
        Ok(())
    }
}
