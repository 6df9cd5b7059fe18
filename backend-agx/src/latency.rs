//! The latency model the backend schedules and estimates with: the shared G13 instruction
//! description's table (`agxc_g13_isa::timing::schedule_cost`), which is the simulator's timing
//! model except for a few instructions without results, listed there, where the backend's
//! numbers have always differed.

use agxc_g13_isa::timing::{self, schedule_cost};

use crate::isa::Instr;

/// Cycles from a device load's issue to its data.
pub const DEVICE_LOAD_LATENCY: u32 = timing::DEVICE_LOAD_LATENCY;
/// Cycles from a texture instruction's issue to its data.
pub const TEXTURE_LATENCY: u32 = timing::TEXTURE_LATENCY;
/// Cycles from a threadgroup or stack load's issue to its data.
pub const LOCAL_MEMORY_LATENCY: u32 = timing::THREADGROUP_LATENCY;

/// `(latency, issue interval)` of an instruction, in cycles.
pub fn cost<R>(i: &Instr<R>) -> (u32, u32) {
    let c = schedule_cost(i.opcode());
    (c.latency, c.interval)
}

/// Whether an instruction's results arrive asynchronously (after a `wait`).
pub fn is_async_load<R>(i: &Instr<R>) -> bool {
    matches!(
        i,
        Instr::DeviceLoad(_)
            | Instr::DeviceAtomic(_)
            | Instr::TextureSample(_)
            | Instr::TextureLoad(_)
    )
}
