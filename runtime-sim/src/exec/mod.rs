//! The executor: runs decoded instructions on SIMD-groups of 32 threads.
//!
//! Place in the pipeline: the runtime (`crate::runtime`) builds the SIMD-groups of a dispatch
//! and calls [`Machine::run`] on each until it stops or reaches a barrier. Each step executes one
//! instruction for all 32 lanes at once: sources are read into 32-lane arrays (checking the hint
//! sanitizer and the load scoreboard on the way, see `crate::regfile`), the operation runs in a
//! tight loop over the lanes, and results are written under the execution mask.
//!
//! Behaviour this simulator defines where the ISA document says `TODO()` (see the crate docs
//! for the complete list): `call` through a register jumps to the absolute byte offset in the
//! register and `ret` returns to one (both must be uniform across the active threads);
//! `jmp_incomplete` never jumps (the simulator has no incomplete state); `trap` ends the dispatch
//! with an error; running past the last instruction is an error.

mod alu;
mod atomic;
mod control;
mod float;
mod fragment;
mod memory;
mod operand;
mod quad;
mod sr;
pub(crate) mod table;
mod texture;

pub use fragment::RenderTarget;
pub(crate) use fragment::{FragmentState, SharedTarget};
pub use sr::special_register_name;

use std::collections::BTreeMap;

use crate::config::Config;
use crate::decode::inst::{Decoded, Inst};
use crate::error::{ExecError, ExecErrorKind};
use crate::memory::DeviceMemory;
use crate::program::{Program, Stage};
use crate::regfile::RegFile;
use crate::stats::Stats;
use crate::texture::{SamplerDescriptor, TextureDescriptor};
use crate::timing::Timing;

/// Where a SIMD-group stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum GroupState {
    /// Can run.
    Running,
    /// Waiting at `threadgroup_barrier`.
    AtBarrier,
    /// Executed `stop`.
    Stopped,
}

/// The ids special registers report, per lane.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct ThreadIds {
    /// `thread_position_in_threadgroup` (compute).
    pub local: [[u32; 32]; 3],
    /// `thread_position_in_grid` (compute) or the pixel (fragment).
    pub global: [[u32; 32]; 3],
    /// `thread_index_in_threadgroup`.
    pub index_in_group: [u32; 32],
    /// `threadgroup_position_in_grid`.
    pub group: [u32; 3],
    /// `threads_per_threadgroup`.
    pub group_size: [u32; 3],
    /// `simdgroup_index_in_threadgroup`.
    pub simd_in_group: u32,
}

/// One SIMD-group's state.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SimdGroup {
    pub regs: RegFile,
    /// Active threads.
    pub exec: u32,
    /// Threads that exist (the last SIMD-group of a workgroup may be partial).
    pub live: u32,
    /// Index of the next instruction.
    pub index: usize,
    pub state: GroupState,
    pub steps: u64,
    /// Stack pointer: byte offset into each thread's stack.
    pub sp: u32,
    /// Per-thread stacks, `stack_size` bytes each, thread after thread.
    pub stack: Vec<u8>,
    pub timing: Timing,
    /// Index within the dispatch (for errors).
    pub id: u32,
    pub ids: ThreadIds,
    /// Fragment helper lanes (pixels outside the grid): they run, their outputs are dropped.
    pub helper: u32,
    /// Fragment lanes whose coverage `sample_mask` cleared.
    pub discarded: u32,
}

impl SimdGroup {
    pub fn new(id: u32, live: u32, ids: ThreadIds, config: &Config, stack_size: u32) -> Self {
        SimdGroup {
            regs: RegFile::new(config.check_uninitialized),
            exec: live,
            live,
            index: 0,
            state: GroupState::Running,
            steps: 0,
            sp: 0,
            stack: vec![0; 32 * stack_size as usize],
            timing: Timing::default(),
            id,
            ids,
            helper: 0,
            discarded: 0,
        }
    }
}

impl SimdGroup {
    /// Reuses this SIMD-group's storage for a new one, as [`SimdGroup::new`] would make it, for a
    /// program touching halves `0..halves` (workers keep their SIMD-groups between workgroups
    /// rather than allocate and clear a register file for each).
    #[allow(clippy::too_many_arguments)]
    pub fn reset(
        &mut self,
        id: u32,
        live: u32,
        ids: ThreadIds,
        config: &Config,
        stack_size: u32,
        halves: u32,
    ) {
        self.regs.reset(config.check_uninitialized, halves);
        self.exec = live;
        self.live = live;
        self.index = 0;
        self.state = GroupState::Running;
        self.steps = 0;
        self.sp = 0;
        self.stack.clear();
        self.stack.resize(32 * stack_size as usize, 0);
        self.timing = Timing::default();
        self.id = id;
        self.ids = ids;
        self.helper = 0;
        self.discarded = 0;
    }
}

/// What the step did to control flow.
pub(crate) enum Flow {
    Next,
    /// Continue at this byte offset.
    Jump(i64),
    Stop,
    Barrier,
}

/// The state shared by the SIMD-groups of a dispatch.
pub(crate) struct Machine<'a> {
    pub program: &'a Program,
    pub config: &'a Config,
    pub uniforms: &'a mut [u32; 256],
    pub memory: &'a DeviceMemory,
    pub textures: &'a BTreeMap<u32, TextureDescriptor>,
    pub samplers: &'a BTreeMap<u32, SamplerDescriptor>,
    pub stats: &'a mut Stats,
    pub fragment: Option<&'a FragmentState>,
}

/// Per-worker state an engine keeps between SIMD-groups (the fast engine's per-instruction
/// counters).
pub(crate) struct Scratch {
    fast: crate::fast::Counters,
}

impl Scratch {
    pub fn new(program: &Program) -> Self {
        Scratch {
            fast: crate::fast::Counters::new(program),
        }
    }

    /// Adds what the engine counted per instruction to `stats`, and clears it.
    pub fn flush(&mut self, program: &Program, stats: &mut Stats) {
        self.fast.flush(program, stats);
    }
}

type Step = Result<Flow, ExecErrorKind>;

impl Machine<'_> {
    /// The stage being run.
    pub fn stage(&self) -> Stage {
        self.program.metadata().stage
    }

    /// Runs `g` with the configured engine until it stops, reaches a barrier or fails.
    pub fn run_with(
        &mut self,
        g: &mut SimdGroup,
        tg: &mut [u8],
        scratch: &mut Scratch,
    ) -> Result<(), ExecError> {
        match self.config.engine {
            crate::config::Engine::Reference => self.run(g, tg),
            crate::config::Engine::Fast
            | crate::config::Engine::FastCompiled
            | crate::config::Engine::FastInterpreted => {
                crate::fast::run(self, g, tg, &mut scratch.fast)
            }
        }
    }

    /// Runs `g` until it stops, reaches a barrier or fails. `tg` is its workgroup's threadgroup
    /// memory.
    pub fn run(&mut self, g: &mut SimdGroup, tg: &mut [u8]) -> Result<(), ExecError> {
        let program = self.program;
        loop {
            let i = g.index;
            let Some(d) = program.insts.get(i) else {
                return Err(ExecError {
                    pc: program.code().len() as u32,
                    simd_group: g.id,
                    kind: ExecErrorKind::RanOffEnd,
                });
            };
            let id = g.id;
            let err = |kind| ExecError {
                pc: d.pc,
                simd_group: id,
                kind,
            };
            g.steps += 1;
            if g.steps > self.config.step_limit {
                return Err(err(ExecErrorKind::StepLimit {
                    limit: self.config.step_limit,
                }));
            }
            let meta = &program.meta[i];
            self.stats.record(meta, g.exec);
            g.timing
                .issue(meta.cost, &meta.reads, &meta.writes, load_slot(&d.inst));
            let exec_before = g.exec;
            if !meta.discards.is_empty() && g.exec != g.live {
                return Err(err(ExecErrorKind::DiscardUnderPartialMask {
                    register: meta.discards[0],
                    exec: g.exec,
                    live: g.live,
                }));
            }
            let flow = self.step(g, d, tg).map_err(err)?;
            if !meta.discards.is_empty() {
                apply_discards(g, meta, d, exec_before);
            }
            match flow {
                Flow::Next => g.index = i + 1,
                Flow::Jump(target) => g.index = self.resolve(d, target).map_err(err)?,
                Flow::Stop => {
                    g.state = GroupState::Stopped;
                    return Ok(());
                }
                Flow::Barrier => {
                    g.index = i + 1;
                    g.state = GroupState::AtBarrier;
                    return Ok(());
                }
            }
        }
    }

    /// The instruction index of a control-flow target.
    pub(crate) fn resolve(&self, d: &Decoded, target: i64) -> Result<usize, ExecErrorKind> {
        let code_size = self.program.code().len() as u32;
        if target < 0 || target >= i64::from(code_size) {
            return Err(ExecErrorKind::TargetOutOfRange {
                opcode: d.opcode,
                target,
                code_size,
            });
        }
        self.program
            .index_of(target as u32)
            .ok_or(ExecErrorKind::TargetNotInstruction {
                opcode: d.opcode,
                target: target as u32,
            })
    }

    /// Executes one instruction. The integer, float and control families are inlined here; the
    /// rarer ones (memory, fragment I/O, textures, ballots and shuffles) are `#[inline(never)]`
    /// so that this function, entered once per instruction, stays small: with them inlined the
    /// benchmark's ALU loop ran 5-8% slower.
    pub(crate) fn step(&mut self, g: &mut SimdGroup, d: &Decoded, tg: &mut [u8]) -> Step {
        match &d.inst {
            Inst::Mov { .. }
            | Inst::GetSr { .. }
            | Inst::Iadd { .. }
            | Inst::Imadd { .. }
            | Inst::Convert { .. }
            | Inst::Alu { .. }
            | Inst::Bitfield { .. }
            | Inst::Asr { .. }
            | Inst::Bitop { .. }
            | Inst::Select { .. } => self.int_op(g, d).map(|()| Flow::Next),
            Inst::Fma { .. } | Inst::Fadd { .. } | Inst::Fmul { .. } | Inst::FUnary { .. } => {
                self.float_op(g, d).map(|()| Flow::Next)
            }
            Inst::Ballot { .. } | Inst::Shuffle { .. } => self.quad_op(g, d).map(|()| Flow::Next),
            Inst::Ret { .. }
            | Inst::Stop
            | Inst::Trap
            | Inst::CallReg { .. }
            | Inst::CallImm { .. }
            | Inst::JmpIncomplete { .. }
            | Inst::JmpExecAny { .. }
            | Inst::JmpExecNone { .. }
            | Inst::PopExec { .. }
            | Inst::ExecStack { .. }
            | Inst::Barrier => self.control_op(g, d),
            Inst::Wait { slot } => {
                g.regs.wait(*slot);
                g.timing.wait(*slot);
                Ok(Flow::Next)
            }
            Inst::Device { .. }
            | Inst::Stack { .. }
            | Inst::StackGetPtr { .. }
            | Inst::StackAdjust { .. }
            | Inst::Threadgroup { .. }
            | Inst::UniformStore { .. } => self.memory_op(g, d, tg).map(|()| Flow::Next),
            Inst::Tile { .. } | Inst::LdVar { .. } | Inst::SampleMask { .. } => {
                self.fragment_op(g, d).map(|()| Flow::Next)
            }
            Inst::Texture(t) => self.texture_op(g, d, t).map(|()| Flow::Next),
            Inst::DeviceAtomic { .. } | Inst::LocalAtomic { .. } => {
                self.atomic_op(g, d, tg).map(|()| Flow::Next)
            }
            Inst::ImageWrite(w) => self.image_write(g, d, w).map(|()| Flow::Next),
        }
    }
}

/// The wait slot on which an instruction's results arrive (loads, atomics, textures), for the
/// timing model.
pub(crate) fn load_slot(inst: &Inst) -> Option<u8> {
    match *inst {
        Inst::Device {
            store: false, slot, ..
        } => Some(slot),
        Inst::DeviceAtomic { slot, .. } => Some(slot),
        Inst::Texture(t) => Some(t.slot),
        _ => None,
    }
}

/// Poisons the halves the instruction's discard hints name, for the threads that executed it,
/// except halves the instruction itself wrote ("discard on a source register can be used with
/// cache on the same destination register").
pub(crate) fn apply_discards(
    g: &mut SimdGroup,
    meta: &crate::program::InstMeta,
    d: &Decoded,
    lanes: u32,
) {
    for &reg in &meta.discards {
        let (first, count) = reg.halves();
        for h in first..first + count {
            if meta.writes_half(h) {
                continue;
            }
            g.regs
                .discard(crate::decode::inst::Reg::Half(h as u8), lanes, d.pc);
        }
    }
}
