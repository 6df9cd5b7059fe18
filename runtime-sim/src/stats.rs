//! Statistics of a dispatch: instructions by class, thread-instructions, register-cache hints,
//! cycles per SIMD-group from the timing model, and occupancy.

use crate::program::{InstMeta, Occupancy};
use crate::timing::InstClass;

/// What a dispatch did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stats {
    /// SIMD-groups run.
    pub simd_groups: u64,
    /// SIMD-group instructions executed (each counts once for all 32 lanes).
    pub instructions: u64,
    /// Sum over executed instructions of the number of active threads.
    pub thread_instructions: u64,
    /// Executed instructions per class, indexed like [`InstClass::ALL`].
    pub by_class: [u64; InstClass::ALL.len()],
    /// Cache hints executed (sources and destinations).
    pub cache_hints: u64,
    /// Discard hints executed.
    pub discard_hints: u64,
    /// Cycles of each SIMD-group from the timing model, in dispatch order.
    pub cycles: Vec<u64>,
    /// Occupancy implied by the program's register use (`None` before a dispatch).
    pub occupancy: Option<Occupancy>,
    /// The uniform preamble's own statistics when the binary has one: it runs once per
    /// dispatch, on one SIMD-group, before the main program (the runner that binds the ABI
    /// fills this in; a bare [`crate::Simulator`] dispatch leaves it `None`). Kept apart
    /// because Mesa's figures, and the shader-db report, count the two programs separately.
    pub preamble: Option<Box<Stats>>,
}

impl Stats {
    #[inline]
    pub(crate) fn record(&mut self, meta: &InstMeta, exec: u32) {
        self.instructions += 1;
        self.thread_instructions += u64::from(exec.count_ones());
        self.by_class[meta.class_index] += 1;
        if meta.cache_hints != 0 || !meta.discards.is_empty() {
            self.cache_hints += u64::from(meta.cache_hints);
            self.discard_hints += meta.discards.len() as u64;
        }
    }

    /// Executed instructions of `class`.
    pub fn count(&self, class: InstClass) -> u64 {
        self.by_class[class.index()]
    }

    /// `(class, count)` for every class with a nonzero count, in [`InstClass::ALL`] order.
    pub fn classes(&self) -> Vec<(InstClass, u64)> {
        InstClass::ALL
            .iter()
            .zip(self.by_class.iter())
            .filter(|(_, &n)| n != 0)
            .map(|(&c, &n)| (c, n))
            .collect()
    }

    /// Total cycles over SIMD-groups.
    pub fn total_cycles(&self) -> u64 {
        self.cycles.iter().sum()
    }

    /// The slowest SIMD-group's cycles.
    pub fn max_cycles(&self) -> u64 {
        self.cycles.iter().copied().max().unwrap_or(0)
    }

    /// Adds another dispatch's statistics.
    pub fn merge(&mut self, other: &Stats) {
        self.simd_groups += other.simd_groups;
        self.instructions += other.instructions;
        self.thread_instructions += other.thread_instructions;
        for (a, b) in self.by_class.iter_mut().zip(other.by_class.iter()) {
            *a += b;
        }
        self.cache_hints += other.cache_hints;
        self.discard_hints += other.discard_hints;
        self.cycles.extend_from_slice(&other.cycles);
        self.occupancy = other.occupancy.or(self.occupancy);
        match (&mut self.preamble, &other.preamble) {
            (Some(mine), Some(theirs)) => mine.merge(theirs),
            (None, Some(theirs)) => self.preamble = Some(theirs.clone()),
            _ => {}
        }
    }
}
