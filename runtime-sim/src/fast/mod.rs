//! The fast engine (placeholder while it is written: runs the reference executor).

use crate::error::ExecError;
use crate::exec::{Machine, SimdGroup};
use crate::program::Program;
use crate::stats::Stats;

/// Per-instruction counters.
pub(crate) struct Counters;

impl Counters {
    pub fn new(_program: &Program) -> Self {
        Counters
    }

    pub fn flush(&mut self, _program: &Program, _stats: &mut Stats) {}
}

pub(crate) fn run(
    m: &mut Machine<'_>,
    g: &mut SimdGroup,
    tg: &mut [u8],
    _counters: &mut Counters,
) -> Result<(), ExecError> {
    m.run(g, tg)
}
