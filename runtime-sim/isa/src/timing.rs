//! Latency, issue interval and issue class per instruction: the one table the simulator's timing
//! model, the backend's scheduler and statistics, and the extraction cost model read.
//!
//! Arithmetic rows are docs/g13.md's table ("Latency model", a production compiler's numbers, in
//! cycles: latency / throughput):
//!
//! | instructions | latency | interval |
//! |---|---|---|
//! | fmadd, fadd, fmul (16 and 32), iadd, icmpsel, fcmpsel | 2 | 1 |
//! | imadd, sin_pt_1, floor/ceil/trunc/rint | 3 | 2 |
//! | sin_pt_2, log2, exp2 | 5 | 2 |
//! | rcp | 5 | 3 |
//! | rsqrt, rsqrt_special | 6 | 4 |
//!
//! The table says nothing about the other instructions; the model assumes: moves, bit
//! operations and `get_sr` behave like `iadd` (2/1); `convert`, `dfdx`/`dfdy`, ballots and
//! shuffles like `imadd` (3/2); control flow and execution-mask instructions issue in one cycle
//! and produce `r0l` after 2; memory instructions issue in one cycle and their results arrive
//! [`DEVICE_LOAD_LATENCY`], [`TEXTURE_LATENCY`], [`THREADGROUP_LATENCY`] or [`STACK_LATENCY`]
//! cycles later.
//!
//! [`timing`] is the simulator's model. The backend's scheduler has always used different
//! numbers for a few instructions without results; [`schedule_cost`] keeps them (so generated
//! code does not change) and lists every disagreement in one place.

use crate::Opcode;

/// Cycles from a device load's issue to its data.
pub const DEVICE_LOAD_LATENCY: u32 = 60;
/// Cycles from a texture instruction's issue to its data.
pub const TEXTURE_LATENCY: u32 = 80;
/// Cycles from a threadgroup load's issue to its data.
pub const THREADGROUP_LATENCY: u32 = 10;
/// Cycles from a stack load's issue to its data.
pub const STACK_LATENCY: u32 = 10;

/// What kind of work an instruction is, for statistics and costs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum InstClass {
    /// `fmadd`, `fadd`, `fmul` and their 16-bit forms.
    FloatArith,
    /// `iadd`, `imadd`.
    IntArith,
    /// Shifts, bitfields, `bitop`, `bitrev`, `popcount`, `ffs`.
    Bitwise,
    /// `convert`.
    Convert,
    /// `floor`, `ceil`, `trunc`, `rint`.
    Round,
    /// `rcp`, `rsqrt`, `rsqrt_special`, `sin_pt_1`, `sin_pt_2`, `log2`, `exp2`.
    Transcendental,
    /// `dfdx`, `dfdy`.
    Derivative,
    /// `mov_imm`, `get_sr`.
    Move,
    /// `icmpsel`, `fcmpsel`.
    Select,
    /// Ballots and shuffles.
    SimdGroup,
    /// Jumps, calls, returns, `stop`, `trap`.
    ControlFlow,
    /// `pop_exec`, `if_*`, `else_*`, `while_*`.
    ExecMask,
    /// `device_load`, `atomic`.
    DeviceLoad,
    /// `device_store`.
    DeviceStore,
    /// `threadgroup_load`, `threadgroup_store`, `local_atomic`.
    Threadgroup,
    /// Stack instructions.
    Stack,
    /// `uniform_store`.
    UniformStore,
    /// `texture_sample`, `texture_load`.
    Texture,
    /// `ld_var`.
    Varying,
    /// `ld_tile`, `st_tile`, `sample_mask`.
    Tile,
    /// `wait`.
    Wait,
    /// `threadgroup_barrier`.
    Barrier,
}

impl InstClass {
    /// Every class, in statistics order.
    pub const ALL: [InstClass; 22] = [
        InstClass::FloatArith,
        InstClass::IntArith,
        InstClass::Bitwise,
        InstClass::Convert,
        InstClass::Round,
        InstClass::Transcendental,
        InstClass::Derivative,
        InstClass::Move,
        InstClass::Select,
        InstClass::SimdGroup,
        InstClass::ControlFlow,
        InstClass::ExecMask,
        InstClass::DeviceLoad,
        InstClass::DeviceStore,
        InstClass::Threadgroup,
        InstClass::Stack,
        InstClass::UniformStore,
        InstClass::Texture,
        InstClass::Varying,
        InstClass::Tile,
        InstClass::Wait,
        InstClass::Barrier,
    ];

    /// Index into [`InstClass::ALL`].
    pub fn index(self) -> usize {
        InstClass::ALL.iter().position(|c| *c == self).unwrap_or(0)
    }
}

/// Latency (cycles until results are ready) and issue interval (cycles until the next
/// instruction may issue).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cost {
    /// Cycles from issue to results.
    pub latency: u32,
    /// Cycles from issue to the next issue.
    pub interval: u32,
}

const fn cost(latency: u32, interval: u32) -> Cost {
    Cost { latency, interval }
}

/// The issue class and cost of an instruction in the simulator's timing model.
pub const fn timing(op: Opcode) -> (InstClass, Cost) {
    op.timing()
}

/// The cost the backend schedules and estimates with: [`timing`]'s, except where the backend's
/// own table has always differed. These disagreements are kept (changing them would change
/// schedules and so the generated code) and listed here so they can be settled in one place:
///
/// - control flow (`jmp_exec_*`, `call`, `ret`, `stop`, `trap`): the backend 1/1, the
///   simulator 2/1 (it models `r0l` written after 2);
/// - `st_tile`: the backend 1/1, the simulator 2/1 (the `Tile` class);
/// - `sample_mask`: the backend 3/2 (as a quad operation), the simulator 2/1 (the `Tile` class);
/// - `stack_store`, `threadgroup_store`: the backend 1/1 (a store has no result), the simulator
///   10/1 (the class's load latency).
pub const fn schedule_cost(op: Opcode) -> Cost {
    use Opcode::*;
    match op {
        JmpExecAny | JmpExecNone | JmpIncomplete | CallImm | CallReg | Ret | Stop | Trap => {
            cost(1, 1)
        }
        StTile | StackStore | ThreadgroupStore => cost(1, 1),
        SampleMask => cost(3, 2),
        _ => timing(op).1,
    }
}
