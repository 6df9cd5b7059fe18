//! Code statistics: instruction counts and a static cycle estimate.
//!
//! The estimate runs the emitted code once, straight through (every instruction once, loops
//! counted once, both arms of every `if`), under the latency model of [`crate::latency`]: an
//! instruction issues when the previous one's issue interval has passed and its sources are
//! ready; `wait` stalls until the slot's loads have arrived. It compares code; the simulator
//! measures executions.

use crate::cflow::Lowered;
use crate::isa::{Instr, PReg};
use crate::latency;

/// Statistics of one compiled shader.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CodeStats {
    /// Machine instructions.
    pub instructions: u32,
    /// Code bytes.
    pub bytes: u32,
    /// Static cycle estimate (see the module docs).
    pub estimated_cycles: u32,
    /// Values spilled to the stack.
    pub spilled_values: u32,
    /// `stack_load`/`stack_store` instructions.
    pub spill_instructions: u32,
    /// `stack_store` instructions of spill code (Mesa's SHADER-DB "spills"; private memory's
    /// stores are the program's own, like Mesa's scratch accesses).
    pub spills: u32,
    /// `stack_load` instructions of spill code (Mesa's SHADER-DB "fills").
    pub fills: u32,
    /// Loops in the program (structured `loop` constructs).
    pub loops: u32,
    /// `wait` instructions.
    pub waits: u32,
    /// Device loads and texture instructions.
    pub memory_loads: u32,
}

/// The static cycle estimate of lowered code.
pub fn estimate_cycles(code: &[Lowered]) -> u32 {
    let mut ready = [0u32; 256];
    let mut slot_done = [0u32; 2];
    let mut next_issue = 0u32;
    let mut finish = 0u32;
    for item in code {
        let i = match item {
            Lowered::Instr(i) => i,
            Lowered::Label(_) => continue,
        };
        let mut issue = next_issue;
        if let Instr::Wait { slot } = i {
            issue = issue.max(slot_done[usize::from(*slot).min(1)]);
        }
        i.for_each_use(|r: &PReg| {
            for h in r.halves() {
                issue = issue.max(ready[(h as usize).min(255)]);
            }
        });
        let (lat, interval) = latency::cost(i);
        let done = issue + lat;
        if latency::is_async_load(i) {
            if let Some(s) = i.load_slot() {
                let s = usize::from(s).min(1);
                slot_done[s] = slot_done[s].max(done);
            }
        }
        i.for_each_def(|r: &PReg| {
            for h in r.halves() {
                ready[(h as usize).min(255)] = done;
            }
        });
        next_issue = issue + interval;
        finish = finish.max(done).max(next_issue);
    }
    finish
}
