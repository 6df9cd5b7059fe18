//! The timing model: instruction classes, a latency and issue interval per class, an in-order
//! issue model that counts cycles per SIMD-group, and occupancy from registers used.
//!
//! Latencies, issue intervals and classes per instruction are the shared instruction
//! description's table (`agxc_g13_isa::timing`, which cites docs/g13.md's "Latency model" and
//! states the assumptions for the instructions it does not list); [`classify`] reads it.
//!
//! Issue model, per SIMD-group: an instruction issues when the previous one's issue interval has
//! passed and every register it reads is ready; its results are ready `latency` cycles after
//! issue. `wait slot` stalls until the loads issued on that slot have completed; a barrier
//! stalls until every SIMD-group of the workgroup arrives. The SIMD-group's cycle count is the
//! time its last result is ready. This is a model for comparing code, not a hardware prediction.

use crate::decode::inst::Reg;

/// The issue classes, costs and memory latencies: the shared instruction description's table.
pub use agxc_g13_isa::timing::{
    timing as classify, Cost, InstClass, DEVICE_LOAD_LATENCY, STACK_LATENCY, TEXTURE_LATENCY,
    THREADGROUP_LATENCY,
};

/// One instruction of a run for [`Timing::issue_run`]: no load slot, at most four registers
/// read and two written (padded as for [`Timing::issue_packed`]), and for a `wait` its slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Issue {
    /// Latency and issue interval.
    pub cost: Cost,
    /// Registers read, padded with [`Timing::NO_READ`].
    pub reads: [u8; 4],
    /// Registers written, padded with [`Timing::NO_WRITE`].
    pub writes: [u8; 2],
    /// The slot a `wait` waits for, or [`Issue::NO_WAIT`].
    pub wait: u8,
}

impl Issue {
    /// [`Issue::wait`] of an instruction that is not a `wait`.
    pub const NO_WAIT: u8 = u8::MAX;
}

/// A straight run's timing compiled to host code: `(ready times, [issue, end, slot 0, slot 1])`
/// (see [`Timing::issue_compiled`]).
pub(crate) type CompiledRun = unsafe extern "C" fn(*mut u64, *mut u64);

/// The issue state of one SIMD-group.
#[derive(Debug, Clone)]
pub struct Timing {
    next_issue: u64,
    end: u64,
    /// Ready times of `r0..r127`, then two padding entries for [`Self::issue_packed`]: index
    /// [`Self::NO_READ`] is never written (reading it is reading 0), index [`Self::NO_WRITE`]
    /// takes writes that go nowhere.
    ready: [u64; 130],
    slot_done: [u64; 2],
}

impl PartialEq for Timing {
    /// Equal issue states (the write sink does not count).
    fn eq(&self, other: &Self) -> bool {
        self.next_issue == other.next_issue
            && self.end == other.end
            && self.ready[..129] == other.ready[..129]
            && self.slot_done == other.slot_done
    }
}

impl Default for Timing {
    fn default() -> Self {
        Timing {
            next_issue: 0,
            end: 0,
            ready: [0; 130],
            slot_done: [0; 2],
        }
    }
}

impl Timing {
    /// A read-list entry that reads nothing.
    pub const NO_READ: u8 = 128;
    /// A write-list entry that writes nothing.
    pub const NO_WRITE: u8 = 129;

    /// [`Self::issue`] for at most four registers read and two written, the lists padded with
    /// [`Self::NO_READ`] and [`Self::NO_WRITE`]: the same state change, without loops.
    #[inline(always)]
    pub fn issue_packed(&mut self, cost: Cost, reads: [u8; 4], writes: [u8; 2], slot: Option<u8>) {
        let r = |i: u8| self.ready[usize::from(i).min(129)];
        let t = self
            .next_issue
            .max(r(reads[0]))
            .max(r(reads[1]))
            .max(r(reads[2]))
            .max(r(reads[3]));
        let done = t + u64::from(cost.latency);
        self.ready[usize::from(writes[0]).min(129)] = done;
        self.ready[usize::from(writes[1]).min(129)] = done;
        if let Some(s) = slot {
            let s = usize::from(s & 1);
            self.slot_done[s] = self.slot_done[s].max(done);
        }
        self.next_issue = t + u64::from(cost.interval);
        self.end = self.end.max(done).max(self.next_issue);
    }

    /// Issues an instruction reading the 32-bit registers `reads` and writing `writes`; `slot`
    /// is the wait slot of a load (its completion is what `wait` waits for).
    #[inline]
    pub fn issue(&mut self, cost: Cost, reads: &[u8], writes: &[u8], slot: Option<u8>) {
        // Register numbers are below 128 (`regs32` clamps them); the mask spares the bounds
        // checks.
        let mut t = self.next_issue;
        for &r in reads {
            t = t.max(self.ready[usize::from(r & 127)]);
        }
        let done = t + u64::from(cost.latency);
        for &r in writes {
            self.ready[usize::from(r & 127)] = done;
        }
        if let Some(s) = slot {
            let s = usize::from(s & 1);
            self.slot_done[s] = self.slot_done[s].max(done);
        }
        self.next_issue = t + u64::from(cost.interval);
        self.end = self.end.max(done).max(self.next_issue);
    }

    /// Issues a straight run of instructions: for each, [`Self::issue_packed`] and then, for a
    /// `wait`, [`Self::wait`]. The same state change as those calls one by one, with the issue
    /// time and the end kept in registers across the run (the fast engine times a run of
    /// arithmetic after executing it: the model does not depend on the values).
    #[inline(always)]
    pub fn issue_run(&mut self, run: &[Issue]) {
        let mut next = self.next_issue;
        let mut end = self.end;
        for x in run {
            let r = |i: u8| self.ready[usize::from(i).min(129)];
            let t = next
                .max(r(x.reads[0]))
                .max(r(x.reads[1]))
                .max(r(x.reads[2]))
                .max(r(x.reads[3]));
            let done = t + u64::from(x.cost.latency);
            self.ready[usize::from(x.writes[0]).min(129)] = done;
            self.ready[usize::from(x.writes[1]).min(129)] = done;
            next = t + u64::from(x.cost.interval);
            end = end.max(done).max(next);
            if x.wait != Issue::NO_WAIT {
                next = next.max(self.slot_done[usize::from(x.wait & 1)]);
                end = end.max(next);
            }
        }
        self.next_issue = next;
        self.end = end;
    }

    /// [`Self::issue_run`] of a run by the run's compiled timing function (`fast::jit::timing`).
    ///
    /// # Safety
    /// `f` must be such a function: it reads and writes only the 130 ready times behind its
    /// first argument and the four words (issue time, end, the two slots' completion times)
    /// behind its second.
    #[inline(always)]
    pub(crate) unsafe fn issue_compiled(&mut self, f: CompiledRun) {
        let mut io = [
            self.next_issue,
            self.end,
            self.slot_done[0],
            self.slot_done[1],
        ];
        // SAFETY: the caller's promise; both arrays live and unborrowed for the call.
        unsafe { f(self.ready.as_mut_ptr(), io.as_mut_ptr()) };
        self.next_issue = io[0];
        self.end = io[1];
    }

    /// `wait slot`: the next instruction issues no earlier than the slot's loads complete.
    pub fn wait(&mut self, slot: u8) {
        let done = self.slot_done[usize::from(slot & 1)];
        self.next_issue = self.next_issue.max(done);
        self.end = self.end.max(self.next_issue);
    }

    /// The cycle at which this SIMD-group may issue again (for barriers).
    pub fn now(&self) -> u64 {
        self.next_issue
    }

    /// Advances to `t` (a barrier released at `t`).
    pub fn advance_to(&mut self, t: u64) {
        self.next_issue = self.next_issue.max(t);
        self.end = self.end.max(self.next_issue);
    }

    /// Cycles so far: when the last result is ready.
    pub fn cycles(&self) -> u64 {
        self.end
    }
}

/// The 32-bit registers (deduplicated) covered by a register view.
pub fn regs32(reg: Reg, out: &mut Vec<u8>) {
    let (first, count) = reg.halves();
    for h in first..first + count {
        let r = (h / 2).min(127) as u8;
        if !out.contains(&r) {
            out.push(r);
        }
    }
}

/// Threads in flight per core for a program using `halves` 16-bit registers (docs/g13.md,
/// "Registers and occupancy"); `None` above 256.
pub fn threads_per_core(halves: u32) -> Option<u32> {
    const TABLE: [(u32, u32); 10] = [
        (104, 1024),
        (112, 896),
        (128, 832),
        (136, 768),
        (144, 704),
        (160, 640),
        (184, 576),
        (208, 512),
        (232, 448),
        (256, 384),
    ];
    TABLE
        .iter()
        .find(|(limit, _)| halves <= *limit)
        .map(|&(_, threads)| threads)
}
