//! The fast engine: the default executor ([`crate::runtime::Engine::Fast`]).
//!
//! # Design: an interpreter, and hot straight runs compiled with Cranelift
//! A program is translated once, at [`crate::program::Program::load`], into one [`ops::Op`] per
//! instruction. The instruction forms that dominate real shaders get a specialised operation
//! with resolved operands (which register row, uniform or constant; the masks that implement
//! `abs`/`neg`; the bitop truth table as lane masks; jump targets as instruction indices), and
//! run as straight 32-lane loops over the structure-of-arrays register file, written
//! branch-free so that the compiler vectorises them with the host's SIMD. Every other form runs
//! through the reference executor's `step` on the same state.
//!
//! Consecutive arithmetic operations form straight runs ([`straight`]): the run loop executes
//! a run back to back and then does the per-instruction bookkeeping (step limit, statistics,
//! timing model) once for the whole run, with the same result; and when none of the registers
//! a run touches has a hazard as it starts (the common case), its operations skip the
//! register checks, which provably cannot fail there (see [`straight`]).
//!
//! Such hazard-free runs are where ALU-bound shaders spend their time, and there the
//! interpreter's cost is the interpretation itself: per operation a dispatch, operand-kind
//! selection, and 32-lane loads and stores of every source and result through memory. Session 8
//! (issue 20) therefore compiles them: [`jit`] turns each straight run into host code with
//! Cranelift (pinned to the 0.135 line, like `cranelift-entity`), which keeps the registers a
//! run touches in host vector registers four lanes at a time, loads each once and stores each
//! once under the execution mask. Measured before choosing (`perf record` of `agxc run` of
//! `benches/sim_speed/alu_hash_noise`): 82% of the process in the fast engine's run loop,
//! whose straight runs are a few dozen integer and f32 operations long, all of kinds the
//! compiler handles. The alternatives weighed:
//! - a further restructured interpreter (closures per operation, lane chunks): it keeps one
//!   dispatch and one memory round trip per operation and source, the cost being removed;
//! - compiling whole programs (control flow, memory, textures) to host code: a third
//!   implementation of the checks and of every instruction, where compiling only the
//!   straight runs keeps the checks and the bookkeeping in one place (the run loop), and
//!   compiled code runs only where the interpreter would run without checks, so no check is
//!   given up ([`jit`] says why the results are the same).
//!
//! The costs, and how they are contained: compilation takes a few milliseconds per program,
//! so [`crate::config::Engine::Fast`] compiles a program only once it has run [`jit::HOT`]
//! straight runs on a worker (the soaks' thousands of small programs stay interpreted);
//! generated code is `unsafe` to call, and touches only the register file, uniforms and
//! mask it is given at offsets fixed when it is built; the Cranelift code generator adds
//! to the build.
//!
//! Session 12 (issue 20) counted which path each operation took on the slow `sim_speed`
//! fragment cases (a temporary counter in the run loop) and found the compiled runs bypassed
//! where they mattered most: a run that starts with the `wait` for a texture sample saw the
//! sampled registers pending and ran interpreted with checks (`sw_mirror`: 47.7M of its 54M
//! run operations), and operations with discard hints, which the compiler puts on most last
//! uses, were not part of runs at all and ran one at a time (`frag_noise_fbm`: 2.4M against
//! 14M in compiled runs). Runs now do their leading `wait`s before their mode is chosen, a
//! `wait` after other work starts a new run, and runs take operations with discard hints,
//! whose poison is applied after the run in order ([`straight`] says why that is the same).
//!
//! Session 7 had profiled the texture-bound fragment cases first (`perf record` of the
//! bench's child mode at 1024x1024): there the texture unit's general path took well over
//! half the time, and the session's time went to the texture unit (`crate::texture`'s
//! performance notes).
//!
//! # Checks
//! Nothing is traded for speed: every interpreted operation reads and writes registers through the same
//! hazard masks as the reference (`crate::regfile`: one AND per half in the common case), so the
//! register-cache hint sanitizer, the load scoreboard and the uninitialized-read check report
//! the same errors at the same pc; the step limit counts every instruction; out-of-range jump
//! targets fail when taken, with the reference's error; compiled runs run only where no check
//! can fail (see [`jit`]). The engines give byte-identical
//! results, statistics and errors: the unit tests run every test program on the reference,
//! the fast engine and the fast engine with every run compiled, and compare the final state, the random-program properties compare both on random binaries, and the
//! corpus and soak tests compare them on compiled shaders (`agxc-tests`).
//!
//! # Statistics
//! `Stats::instructions` and `thread_instructions` are counted as instructions (or whole
//! straight runs) run; the per-class and hint counts are kept per instruction index in
//! [`Counters`] (as differences, so that a run costs two writes) and folded into the
//! statistics when a worker finishes a chunk of work (`Counters::flush`): the same sums.

mod alu;
mod jit;
mod lanes;
mod memory;
pub(crate) mod ops;
mod straight;

use crate::config::Engine;
use crate::decode::inst::Decoded;
use crate::error::{ExecError, ExecErrorKind};
use crate::exec::{apply_discards, Flow, GroupState, Machine, SimdGroup};
use crate::program::{InstMeta, Program};
use crate::stats::Stats;
use crate::timing::Timing;

use ops::{Kind, Op, Target};

/// A program translated for the fast engine.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Code {
    ops: Vec<Op>,
    /// See [`straight::Runs`].
    runs: straight::Runs,
    /// The runs compiled to host code, once compiled (see [`jit`]).
    jit: jit::Jit,
}

impl Code {
    /// Translates `insts`; `index_of(pc)` is the instruction starting at byte `pc`.
    pub fn build(
        insts: &[Decoded],
        metas: &[InstMeta],
        code_size: u32,
        index_of: &dyn Fn(u32) -> Option<usize>,
    ) -> Code {
        let ops = insts
            .iter()
            .zip(metas)
            .map(|(d, meta)| {
                let target = |t: i64| -> Target {
                    if t < 0 || t >= i64::from(code_size) {
                        return Target::Bad(ExecErrorKind::TargetOutOfRange {
                            opcode: d.opcode,
                            target: t,
                            code_size,
                        });
                    }
                    match index_of(t as u32) {
                        Some(i) => Target::Index(i),
                        None => Target::Bad(ExecErrorKind::TargetNotInstruction {
                            opcode: d.opcode,
                            target: t as u32,
                        }),
                    }
                };
                Op {
                    kind: ops::translate(d, &target),
                    pc: d.pc,
                    discards: !meta.discards.is_empty(),
                    slot: crate::exec::load_slot(&d.inst),
                    cost: meta.cost,
                    packed: packed(&meta.reads, &meta.writes),
                }
            })
            .collect::<Vec<Op>>();
        let runs = straight::Runs::build(&ops, metas);
        Code {
            ops,
            runs,
            jit: jit::Jit::default(),
        }
    }
}

impl Code {
    /// Whether compiling this program's runs was tried and failed (see [`jit::Jit::failed`]).
    #[cfg(test)]
    pub fn compile_failed(&self) -> bool {
        self.jit.failed()
    }
}

/// The timing model's register lists in fixed arrays, when they fit (see
/// `Timing::issue_packed`).
fn packed(reads: &[u8], writes: &[u8]) -> Option<([u8; 4], [u8; 2])> {
    if reads.len() > 4 || writes.len() > 2 {
        return None;
    }
    let mut r = [Timing::NO_READ; 4];
    r[..reads.len()].copy_from_slice(reads);
    let mut w = [Timing::NO_WRITE; 2];
    w[..writes.len()].copy_from_slice(writes);
    Some((r, w))
}

/// Per-instruction execution counts of one worker, folded into [`Stats`] by [`Self::flush`].
pub(crate) struct Counters {
    /// The counts as differences (wrapping): running instructions `i..j` adds one at `i` and
    /// takes one at `j`, so that a straight run is counted with two writes; the count of
    /// instruction `i` is the sum of `counts[..=i]`.
    counts: Vec<u64>,
    /// The host runs the loop compiled for x86-64-v3's extensions.
    x86_64_v3: bool,
    /// Straight runs this worker executed on the interpreter while the program was not
    /// compiled (see [`jit::HOT`]).
    interpreted_runs: u32,
}

impl Counters {
    pub fn new(program: &Program) -> Self {
        Counters {
            counts: vec![0; program.insts.len() + 1],
            x86_64_v3: has_x86_64_v3(),
            interpreted_runs: 0,
        }
    }

    /// Adds the per-class and hint counts to `stats` and clears the counters.
    pub fn flush(&mut self, program: &Program, stats: &mut Stats) {
        let mut count = 0u64;
        for (diff, meta) in self.counts.iter_mut().zip(&program.meta) {
            count = count.wrapping_add(*diff);
            *diff = 0;
            if count == 0 {
                continue;
            }
            stats.by_class[meta.class_index] += count;
            stats.cache_hints += count * u64::from(meta.cache_hints);
            stats.discard_hints += count * meta.discards.len() as u64;
        }
        if let Some(last) = self.counts.last_mut() {
            *last = 0;
        }
    }

    /// Counts one run of instructions `first..end`.
    #[inline(always)]
    fn count(&mut self, first: usize, end: usize) {
        if let Some(c) = self.counts.get_mut(first) {
            *c = c.wrapping_add(1);
        }
        if let Some(c) = self.counts.get_mut(end) {
            *c = c.wrapping_sub(1);
        }
    }
}

/// Runs `g` until it stops, reaches a barrier or fails: the reference's `Machine::run` with
/// the specialised operations.
///
/// On x86-64 hosts with AVX2 and FMA (checked at run time, once per worker) the loop is compiled
/// a second time for them, so the lane loops run eight lanes per instruction and the fused
/// multiply-add is the host's; elsewhere it is compiled for the baseline target. Both compute
/// the same values (see `alu::fma32`).
pub(crate) fn run(
    m: &mut Machine<'_>,
    g: &mut SimdGroup,
    tg: &mut [u8],
    counters: &mut Counters,
) -> Result<(), ExecError> {
    #[cfg(target_arch = "x86_64")]
    if counters.x86_64_v3 {
        // SAFETY: `run_x86_64_v3` only requires the CPU features it is compiled for, and
        // `Counters::new` found every one of them present.
        return unsafe { run_x86_64_v3(m, g, tg, counters) };
    }
    run_impl::<false>(m, g, tg, counters)
}

/// [`run`] compiled for AVX2, FMA and the bit-manipulation extensions of the same CPUs.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma,bmi1,bmi2,popcnt,lzcnt")]
unsafe fn run_x86_64_v3(
    m: &mut Machine<'_>,
    g: &mut SimdGroup,
    tg: &mut [u8],
    counters: &mut Counters,
) -> Result<(), ExecError> {
    run_impl::<true>(m, g, tg, counters)
}

/// Whether this host runs [`run_x86_64_v3`].
fn has_x86_64_v3() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("fma")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("lzcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The run loop's state, kept in registers while it runs and written back when it stops.
struct Local {
    /// Index of the next instruction.
    i: usize,
    steps: u64,
    instructions: u64,
    thread_instructions: u64,
}

/// The run loop; `WIDE` says it is compiled for [`run_x86_64_v3`] (and may use the host's
/// fused multiply-add).
#[inline(always)]
fn run_impl<const WIDE: bool>(
    m: &mut Machine<'_>,
    g: &mut SimdGroup,
    tg: &mut [u8],
    counters: &mut Counters,
) -> Result<(), ExecError> {
    let mut local = Local {
        i: g.index,
        steps: g.steps,
        instructions: 0,
        thread_instructions: 0,
    };
    let result = run_loop::<WIDE>(m, g, tg, counters, &mut local);
    g.index = local.i;
    g.steps = local.steps;
    m.stats.instructions += local.instructions;
    m.stats.thread_instructions += local.thread_instructions;
    result
}

#[inline(always)]
fn run_loop<const WIDE: bool>(
    m: &mut Machine<'_>,
    g: &mut SimdGroup,
    tg: &mut [u8],
    counters: &mut Counters,
    local: &mut Local,
) -> Result<(), ExecError> {
    let program = m.program;
    let ops = &program.fast.ops;
    let runs = &program.fast.runs;
    let limit = m.config.step_limit;
    let id = g.id;
    let engine = m.config.engine;
    let mut compiled = match engine {
        Engine::FastCompiled => program.fast.jit.get_or_compile(ops, runs),
        Engine::Fast => program.fast.jit.get(),
        _ => None,
    };
    loop {
        let i = local.i;
        let run = runs
            .at(i, limit - local.steps.min(limit))
            // Discard hints under a partial mask fail: the one-at-a-time loop reports it.
            .filter(|_| g.exec == g.live || !runs.has_discards(i));
        if let Some(run) = run {
            // A straight run of arithmetic: executed, then counted and timed as a whole.
            //
            // Its leading `wait`s first: they come before any other operation of the run, so
            // doing them now changes nothing (the run's own do nothing more, and the timing
            // model issues them with the run), and the mode then sees the registers a sample
            // or load just before wrote as ready rather than pending. Session 12: after each
            // `texture_sample; wait` the run that used the texels was interpreted with checks.
            for op in &ops[run.clone()] {
                match op.kind {
                    Kind::Wait(slot) => g.regs.wait(slot),
                    _ => break,
                }
            }
            let mode = runs.mode(i, &g.regs);
            let result = if mode != straight::Mode::Checked {
                match compiled.and_then(|c| c.entry(i)) {
                    Some(pieces) if g.exec != 0 => {
                        run_compiled::<WIDE>(m.uniforms, g, ops, pieces, i)
                    }
                    _ => {
                        if compiled.is_none() && engine == Engine::Fast {
                            counters.interpreted_runs += 1;
                            if counters.interpreted_runs == jit::HOT {
                                compiled = program.fast.jit.get_or_compile(ops, runs);
                            }
                        }
                        straight::run::<WIDE, false>(m.uniforms, g, &ops[run.clone()])
                    }
                }
            } else {
                straight::run::<WIDE, true>(m.uniforms, g, &ops[run.clone()])
            };
            let done = match result {
                Ok(()) => {
                    if mode == straight::Mode::Clears {
                        runs.clear_poison(i, &mut g.regs, g.exec);
                    }
                    runs.apply_discards(i, run.end, &mut g.regs, g.exec, ops);
                    run.end
                }
                Err((k, _)) => {
                    // The operations before the failing one completed, with their hints.
                    runs.apply_discards(i, i + k, &mut g.regs, g.exec, ops);
                    run.start + k + 1
                }
            };
            let n = (done - i) as u64;
            local.steps += n;
            local.instructions += n;
            local.thread_instructions += n * u64::from(g.exec.count_ones());
            counters.count(i, done);
            match compiled.and_then(|c| c.timing(i)) {
                // SAFETY: a timing function of this program's compiled code (`jit::timing`),
                // made for the whole run from `i`, which ran to its end.
                Some(f) if done == run.end => unsafe { g.timing.issue_compiled(f) },
                _ => g.timing.issue_run(runs.issues(i..done)),
            }
            local.i = done;
            if let Err((k, kind)) = result {
                // Stopped at the failing instruction, as the one-at-a-time loop stops.
                local.i = i + k;
                return Err(ExecError {
                    pc: ops[i + k].pc,
                    simd_group: id,
                    kind,
                });
            }
            continue;
        }
        let Some(op) = ops.get(i) else {
            return Err(ExecError {
                pc: program.code().len() as u32,
                simd_group: id,
                kind: ExecErrorKind::RanOffEnd,
            });
        };
        let err = |kind| ExecError {
            pc: op.pc,
            simd_group: id,
            kind,
        };
        local.steps += 1;
        if local.steps > limit {
            return Err(err(ExecErrorKind::StepLimit { limit }));
        }
        counters.count(i, i + 1);
        local.instructions += 1;
        local.thread_instructions += u64::from(g.exec.count_ones());
        match op.packed {
            Some((reads, writes)) => g.timing.issue_packed(op.cost, reads, writes, op.slot),
            None => {
                let meta = &program.meta[i];
                g.timing.issue(op.cost, &meta.reads, &meta.writes, op.slot);
            }
        }
        let exec_before = g.exec;
        if op.discards && g.exec != g.live {
            return Err(err(ExecErrorKind::DiscardUnderPartialMask {
                register: program.meta[i].discards[0],
                exec: g.exec,
                live: g.live,
            }));
        }
        let flow = match step::<WIDE>(m, g, op, i, tg) {
            Ok(flow) => flow,
            Err(kind) => return Err(err(kind)),
        };
        if op.discards {
            apply_discards(g, &program.meta[i], &program.insts[i], exec_before);
        }
        match flow {
            Next::Index(n) => local.i = n,
            Next::Flow(Flow::Next) => local.i = i + 1,
            Next::Flow(Flow::Jump(target)) => match m.resolve(&program.insts[i], target) {
                Ok(n) => local.i = n,
                Err(kind) => return Err(err(kind)),
            },
            Next::Flow(Flow::Stop) => {
                g.state = GroupState::Stopped;
                return Ok(());
            }
            Next::Flow(Flow::Barrier) => {
                local.i = i + 1;
                g.state = GroupState::AtBarrier;
                return Ok(());
            }
        }
    }
}

/// Runs the compiled pieces of the run starting at operation `start` (known to be free of
/// hazards, so without checks); on a failure, as [`straight::run`], the index in the run of
/// the operation that failed and its error.
#[inline(always)]
fn run_compiled<const WIDE: bool>(
    uniforms: &[u32; 256],
    g: &mut SimdGroup,
    ops: &[Op],
    pieces: &[jit::Piece],
    start: usize,
) -> Result<(), (usize, ExecErrorKind)> {
    let mask = lanes::expand(g.exec);
    for piece in pieces {
        match piece {
            jit::Piece::Host { f, waits } => {
                let rows = g.regs.r.as_mut_ptr().cast::<u32>();
                // SAFETY: the piece reads and writes only the 128 rows of 32 lanes behind
                // `rows`, the 256 words behind `uniforms` and the 32 words behind `mask`
                // (`jit`'s safety notes), all of which live and are not otherwise borrowed
                // for the call.
                unsafe { f(rows, uniforms.as_ptr(), mask.as_ptr()) };
                for &slot in waits.iter() {
                    g.regs.wait(slot);
                }
            }
            jit::Piece::Interpreted(r) => {
                let ops = ops.get(r.clone()).unwrap_or(&[]);
                straight::run::<WIDE, false>(uniforms, g, ops)
                    .map_err(|(k, e)| (r.start - start + k, e))?;
            }
        }
    }
    Ok(())
}

/// Where execution continues.
enum Next {
    /// At this instruction index (a resolved jump).
    Index(usize),
    /// As the reference's step says.
    Flow(Flow),
}

type Step = Result<Next, ExecErrorKind>;

fn jump(i: usize, taken: bool, target: &Target) -> Step {
    if !taken {
        return Ok(Next::Index(i + 1));
    }
    match target {
        Target::Index(n) => Ok(Next::Index(*n)),
        Target::Bad(kind) => Err(kind.clone()),
    }
}

/// Executes one operation.
#[inline(always)]
fn step<const WIDE: bool>(
    m: &mut Machine<'_>,
    g: &mut SimdGroup,
    op: &Op,
    i: usize,
    tg: &mut [u8],
) -> Step {
    let next = Ok(Next::Index(i + 1));
    match &op.kind {
        Kind::Generic => {
            let program = m.program;
            m.step(g, &program.insts[i], tg).map(Next::Flow)
        }
        Kind::JmpExecAny(t) => jump(i, g.exec != 0, t),
        Kind::JmpExecNone(t) => jump(i, g.exec == 0, t),
        Kind::Stop => Ok(Next::Flow(Flow::Stop)),
        Kind::Wait(slot) => {
            g.regs.wait(*slot);
            g.timing.wait(*slot);
            next
        }
        Kind::Device {
            store,
            first,
            count,
            base,
            index,
            scale,
            slot,
        } => {
            let done = memory::device(
                m, g, *store, *first, *count, *base, *index, *scale, *slot, op.pc,
            )?;
            if done {
                next
            } else {
                // Some lane is outside the first lane's allocation: the reference works out
                // which fault to report.
                let program = m.program;
                m.step(g, &program.insts[i], tg).map(Next::Flow)
            }
        }
        Kind::LdVar { first, index, mask } => {
            if !memory::ld_var(m, g, *first, *index, *mask)? {
                // No fragment state or no such varying: the reference reports it.
                let program = m.program;
                return m.step(g, &program.insts[i], tg).map(Next::Flow);
            }
            next
        }
        Kind::GetSr { d, sr } => {
            let v = m.special_register(g, *sr)?;
            lanes::write::<true>(&mut g.regs, *d, &v, g.exec)?;
            next
        }
        kind => {
            alu::run::<WIDE, true>(m.uniforms, g, kind)?;
            next
        }
    }
}
