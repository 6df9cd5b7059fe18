//! The latency model the backend schedules and estimates with.
//!
//! Arithmetic latencies and issue intervals are docs/g13.md's table ("Latency model"). For the
//! instructions the table does not list, the backend assumes what the simulator's timing
//! model (`agxc_runtime_sim::timing`) documents, so that estimates and simulated cycles agree:
//! moves, bit operations, `get_sr` and selects like `iadd` (2/1); `convert` and derivatives
//! like `imadd` (3/2), and so do `sample_mask` and `simd_shuffle` (the simulator issues them
//! as quad operations); memory results after 60 (device, atomics included), 80 (texture), 10
//! (threadgroup, stack, local atomics) cycles; everything else issues in one cycle.

use crate::isa::{FUnaryOp, Instr};

/// Cycles from a device load's issue to its data.
pub const DEVICE_LOAD_LATENCY: u32 = 60;
/// Cycles from a texture instruction's issue to its data.
pub const TEXTURE_LATENCY: u32 = 80;
/// Cycles from a threadgroup or stack load's issue to its data.
pub const LOCAL_MEMORY_LATENCY: u32 = 10;

/// `(latency, issue interval)` of an instruction, in cycles.
pub fn cost<R>(i: &Instr<R>) -> (u32, u32) {
    use Instr::*;
    match i {
        Fmadd { .. } | Fadd { .. } | Fmul { .. } | Iadd { .. } | Select { .. } => (2, 1),
        MovImm { .. } | GetSr { .. } | Bitop { .. } | Bitfield { .. } | Asr { .. } => (2, 1),
        BitUnary { .. } => (2, 1),
        Imadd { .. } | Convert { .. } => (3, 2),
        SampleMask { .. } | SimdShuffle { .. } => (3, 2),
        FUnary { op, .. } => match op {
            FUnaryOp::Floor
            | FUnaryOp::Ceil
            | FUnaryOp::Trunc
            | FUnaryOp::Rint
            | FUnaryOp::SinPt1
            | FUnaryOp::Dfdx
            | FUnaryOp::Dfdy => (3, 2),
            FUnaryOp::SinPt2 | FUnaryOp::Log2 | FUnaryOp::Exp2 => (5, 2),
            FUnaryOp::Rcp => (5, 3),
            FUnaryOp::Rsqrt | FUnaryOp::RsqrtSpecial => (6, 4),
        },
        DeviceLoad(_) | DeviceAtomic(_) => (DEVICE_LOAD_LATENCY, 1),
        TextureSample(_) | TextureLoad(_) => (TEXTURE_LATENCY, 1),
        ThreadgroupLoad(_) | StackLoad(_) | ThreadgroupAtomic(_) => (LOCAL_MEMORY_LATENCY, 1),
        LdVar { .. } => (3, 1),
        PopExec { .. } | ExecStack { .. } => (2, 1),
        _ => (1, 1),
    }
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
