//! Straight runs: maximal sequences of consecutive operations that only compute into
//! registers (the arithmetic [`Kind`]s and `wait`), which the run loop executes back to back
//! and then counts and times as a whole.
//!
//! Inside such a run nothing changes the execution mask, jumps or touches memory (discard
//! hints are applied after the run: see below), and the timing model does not depend on the values computed, so the per-
//! instruction bookkeeping of the run loop (step limit, statistics, timing) gives the same
//! result done once for the run: the step limit is checked for the whole run before it starts
//! (a run that could pass it is left to the one-at-a-time loop, which stops at the exact
//! instruction), the instruction counts are added as the run's length times the active
//! threads, and the timing model issues the run's instructions in one loop
//! (`Timing::issue_run`). An operation that fails ends the run there, and only the operations
//! up to and including it are counted and timed, as the one-at-a-time loop would.
//!
//! Nothing in a run adds a hazard that a later operation of the run could meet
//! (`crate::regfile`): no load makes a register pending, and a discard hint's poison is never
//! read within the run (below); writes and `wait`s only clear hazards. So
//! when every 16-bit half the rest of a run reads or writes is free of hazards as the run
//! starts, no check inside it can fail and no write changes the hazard state, and the run
//! executes without the checks (`CHECK` false in `fast::alu`). The same holds when the only
//! hazards are poisoned lanes (a `.discard` hint, or `Config::check_uninitialized`'s initial
//! poison) on halves the run writes before it reads them: such writes cannot fail (no load is
//! pending) and clear the poison of the executing lanes before any read, so the run executes
//! without checks and its one change to the hazard state, the poison cleared by those writes,
//! is made afterwards ([`Mode::Clears`]; session 9: in `alu_hash_noise` 15 runs per SIMD-group
//! rewrite a register discarded before and took the checked path). Otherwise it executes with
//! the checks, and reports the same error as the one-at-a-time loop. Runs without checks never
//! fail (every error an arithmetic operation reports comes from a check).
//!
//! A run's leading `wait`s are done before its mode is chosen (they come before any other
//! operation, and a second `wait` on a slot changes nothing), so a run using the registers a
//! sample or load just wrote is free of hazards; a `wait` that follows other work starts a new
//! run for the same reason.
//!
//! Discard hints (session 12): an operation with hints is part of a run, and the hints'
//! change to the hazard state is made after the run ([`Runs::apply_discards`]). That is the
//! same as applying them after each operation because (1) a run with hints runs as a run only
//! when every thread that exists is active (otherwise the one-at-a-time loop runs it and
//! reports `DiscardUnderPartialMask` at the operation); (2) runs break before an operation
//! that reads a half an earlier operation of the run discarded without a write since (that
//! read fails for every active thread), so within a run no read meets a hint's poison, and no
//! write fails on it (writes fail only on pending loads); (3) the replay walks the run's
//! operations from the first with hints, in order: each write clears the active threads'
//! poison of a half discarded earlier in the run, each hint poisons its halves and records its
//! pc, which is the state the one-at-a-time loop leaves (the other halves' writes made their
//! change as the run ran, or in [`Runs::clear_poison`]). A run that fails stops the replay
//! before the failing operation, whose hints the one-at-a-time loop never applies.

use std::ops::Range;

use super::alu;
use super::ops::{Cmp32, Dst32, Kind, Op, Src32};
use crate::decode::inst::Reg;
use crate::error::ExecErrorKind;
use crate::exec::SimdGroup;
use crate::program::InstMeta;
use crate::regfile::RegFile;
use crate::timing::Issue;

/// A set of 16-bit register halves.
type Halves = [u64; 4];

/// The straight runs of a program.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Runs {
    /// `len[i]`: how many operations from `i` on are straight (0: operation `i` is not).
    len: Vec<u32>,
    /// The timing model's view of each operation (meaningful where `len` is not 0).
    issues: Vec<Issue>,
    /// `touched[i]`: the halves operations `i..i + len[i]` read or write.
    touched: Vec<Halves>,
    /// `first_written[i]`: the halves whose first access in operations `i..i + len[i]` is a
    /// write by an operation that does not read them.
    first_written: Vec<Halves>,
    /// `written[i]`: the halves operation `i` writes.
    written: Vec<Halves>,
    /// `discarded[i]`: the halves operation `i`'s discard hints poison (those it does not
    /// write: `exec::apply_discards`).
    discarded: Vec<Halves>,
    /// `next_discard[i]`: the first operation with discard hints in the run from `i`, or
    /// [`NONE`].
    next_discard: Vec<u32>,
    /// `discard_words[i]`: bit `w` set when the hints of the run from `i` poison a half of
    /// word `w` of a [`Halves`] set.
    discard_words: Vec<u8>,
    /// For the maximal runs with hints, their net effect on the hazard state when they run to
    /// their end, as [`Runs::apply_discards`] uses it: per half discarded, the pc of the last
    /// hint on it and whether a write follows that hint (a replay of the whole run per run
    /// was 4-5% of `es_mediump_lighting` and `frag_switch_flat`).
    discard_effects: Vec<Option<Box<[HalfEffect]>>>,
}

/// A half's net change by a run's discard hints: the half, the pc of the last hint on it, and
/// whether a write follows that hint.
type HalfEffect = (u8, u32, bool);

/// No operation (in [`Runs::next_discard`]).
const NONE: u32 = u32::MAX;

/// The halves `meta`'s discard hints poison: the halves of the hinted registers the
/// instruction does not write.
fn discarded(meta: &InstMeta) -> Halves {
    let mut set = [0; 4];
    for reg in &meta.discards {
        let (first, count) = reg.halves();
        for h in first..(first + count).min(256) {
            if !meta.writes_half(h) {
                set[h as usize / 64] |= 1 << (h % 64);
            }
        }
    }
    set
}

/// Adds the halves of `s` to `set`.
fn add(set: &mut Halves, s: Src32) {
    let mut half = |h: u8| set[usize::from(h >> 6)] |= 1 << (h & 63);
    match s {
        Src32::R(r) => {
            half(2 * (r & 127));
            half(2 * (r & 127) + 1);
        }
        Src32::H(h) | Src32::Hs(h) => half(h),
        Src32::K(_) | Src32::U(_) | Src32::Uh(_) | Src32::Uhs(_) => {}
    }
}

/// The halves `kind` reads and the halves it writes.
fn touch(kind: &Kind) -> (Halves, Halves) {
    let mut reads = [0; 4];
    let mut writes = [0; 4];
    let mut src = |s: Src32| add(&mut reads, s);
    let dst = |d: Dst32| match d {
        Dst32::R(r) => Src32::R(r),
        Dst32::H(h) => Src32::H(h),
    };
    let d = match *kind {
        Kind::Mov { d, .. } => Some(dst(d)),
        Kind::Iadd { d, a, b, .. } | Kind::Bitop { d, a, b, .. } | Kind::Asr { d, a, b, .. } => {
            src(a);
            src(b);
            Some(dst(d))
        }
        Kind::Imadd { d, a, b, c, .. } | Kind::Bitfield { d, a, b, c, .. } => {
            src(a);
            src(b);
            src(c);
            Some(dst(d))
        }
        Kind::Imadd64 { d, a, b, c, .. } => {
            src(a);
            src(b);
            src(c);
            add(&mut writes, Src32::R(d + 1));
            Some(Src32::R(d))
        }
        Kind::Table { d, s, .. } => {
            s.into_iter().for_each(&mut src);
            Some(dst(d))
        }
        Kind::IntToF32 { d, a, .. } => {
            src(a);
            Some(Src32::R(d))
        }
        Kind::F32ToInt { d, a, .. } => {
            src(a.s);
            Some(dst(d))
        }
        Kind::Fadd { d, a, b, .. } | Kind::Fmul { d, a, b, .. } => {
            src(a.s);
            src(b.s);
            Some(Src32::R(d))
        }
        Kind::Fma { d, a, b, c, .. } => {
            src(a.s);
            src(b.s);
            src(c.s);
            Some(Src32::R(d))
        }
        Kind::FRound { d, a, .. } | Kind::FUnary { d, a, .. } => {
            src(a.s);
            Some(Src32::R(d))
        }
        Kind::Select { d, ref cmp, x, y } => {
            src(x);
            src(y);
            match *cmp {
                Cmp32::Int { a, b, .. } => {
                    src(a);
                    src(b);
                }
                Cmp32::Float { a, b, .. } => {
                    src(a.s);
                    src(b.s);
                }
            }
            Some(dst(d))
        }
        // Not part of runs (`straight`), or touching no register (`wait`).
        _ => None,
    };
    if let Some(d) = d {
        add(&mut writes, d);
    }
    (reads, writes)
}

/// How a straight run may execute, from the hazards on the halves it touches as it starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// No half the run touches has a hazard: no check can fail, no write changes the hazard
    /// state; the run executes without checks.
    Free,
    /// The only hazards are poisoned lanes (no pending load) on halves the run writes before
    /// reading them: no check can fail either (each such write passes, and clears the poison of
    /// the executing lanes before any read of the half), so the run executes without checks and
    /// then [`Runs::clear_poison`] makes the writes' one change to the hazard state.
    Clears,
    /// Some check might fail: the run executes with the checks.
    Checked,
}

/// The mode of a run touching `set`, writing the halves of `first_written` before reading them.
#[inline(always)]
fn mode(regs: &RegFile, set: &Halves, first_written: &Halves) -> Mode {
    let hazardous = regs.hazardous();
    if (0..4).all(|w| set[w] & hazardous[w] == 0) {
        return Mode::Free;
    }
    let mut mode = Mode::Free;
    for (w, &word) in set.iter().enumerate() {
        let mut bits = word & hazardous[w];
        while bits != 0 {
            let bit = bits.trailing_zeros();
            let h = (w as u32 * 64 + bit) as u8;
            if regs.hazard(h) != 0 {
                if first_written[w] & (1 << bit) == 0 || regs.pending(h) {
                    return Mode::Checked;
                }
                mode = Mode::Clears;
            }
            bits &= bits - 1;
        }
    }
    mode
}

/// Whether `op` may be part of a straight run.
fn straight(op: &Op) -> bool {
    let arithmetic = matches!(
        op.kind,
        Kind::Mov { .. }
            | Kind::Iadd { .. }
            | Kind::Imadd { .. }
            | Kind::Imadd64 { .. }
            | Kind::Bitop { .. }
            | Kind::Table { .. }
            | Kind::Bitfield { .. }
            | Kind::Asr { .. }
            | Kind::IntToF32 { .. }
            | Kind::F32ToInt { .. }
            | Kind::Fadd { .. }
            | Kind::Fmul { .. }
            | Kind::Fma { .. }
            | Kind::FRound { .. }
            | Kind::FUnary { .. }
            | Kind::Select { .. }
            | Kind::Wait(_)
    );
    arithmetic && op.slot.is_none() && op.packed.is_some()
}

impl Runs {
    /// The runs of `ops`, whose instructions' metadata is `metas` (for the discard hints).
    pub fn build(ops: &[Op], metas: &[InstMeta]) -> Runs {
        let n = ops.len();
        let effects: Vec<(Halves, Halves, Halves)> = ops
            .iter()
            .zip(metas)
            .map(|(op, meta)| {
                let (mut reads, writes) = touch(&op.kind);
                let discarded = discarded(meta);
                // Discard hints name sources, so this adds nothing but makes sure of it.
                for w in 0..4 {
                    reads[w] |= discarded[w];
                }
                (reads, writes, discarded)
            })
            .collect();
        // Where a run must break although both operations are straight: an operation reading
        // a half an earlier operation of the run discarded (and nothing rewrote since). Its
        // read fails for every executing lane, so it is left to start a new run, where the
        // discard has been applied and the mode check sees the poison (see the module docs).
        //
        // And before a `wait` that follows another operation: a run starting with its waits
        // does them before its mode is chosen (the run loop), so the loads they wait for do
        // not make it run with checks; with `load; ...; wait; use` inside one run they would
        // (session 12: `frag_lights_push_ubo`'s loop).
        let mut breaks = vec![false; n];
        let mut poisoned: Halves = [0; 4];
        for k in 0..n {
            if !straight(&ops[k]) {
                continue;
            }
            let (reads, writes, discarded) = &effects[k];
            let continues = k > 0 && straight(&ops[k - 1]);
            let is_wait = |op: &Op| matches!(op.kind, Kind::Wait(_));
            let waits_after_work = continues && is_wait(&ops[k]) && !is_wait(&ops[k - 1]);
            if !continues || waits_after_work || (0..4).any(|w| reads[w] & poisoned[w] != 0) {
                breaks[k] = continues;
                poisoned = [0; 4];
            }
            for w in 0..4 {
                poisoned[w] = (poisoned[w] & !writes[w]) | discarded[w];
            }
        }
        let mut len = vec![0u32; n];
        for i in (0..n).rev() {
            if straight(&ops[i]) {
                let next = if i + 1 < n && !breaks[i + 1] {
                    len[i + 1]
                } else {
                    0
                };
                len[i] = 1 + next;
            }
        }
        let issues = ops
            .iter()
            .map(|op| {
                let (reads, writes) = op.packed.unwrap_or_default();
                Issue {
                    cost: op.cost,
                    reads,
                    writes,
                    wait: match op.kind {
                        Kind::Wait(slot) => slot,
                        _ => Issue::NO_WAIT,
                    },
                }
            })
            .collect();
        let mut touched = vec![[0u64; 4]; n];
        let mut first_written = vec![[0u64; 4]; n];
        let mut next_discard = vec![NONE; n];
        let mut discard_words = vec![0u8; n];
        for i in (0..n).rev() {
            if len[i] == 0 {
                continue;
            }
            for w in 0..4 {
                if effects[i].2[w] != 0 {
                    discard_words[i] |= 1 << w;
                }
            }
            let (mut set, mut first) = if len[i] > 1 {
                next_discard[i] = next_discard[i + 1];
                discard_words[i] |= discard_words[i + 1];
                (touched[i + 1], first_written[i + 1])
            } else {
                ([0; 4], [0; 4])
            };
            if ops[i].discards {
                next_discard[i] = i as u32;
            }
            let (reads, writes, _) = &effects[i];
            for w in 0..4 {
                // Operation `i` comes first: the halves it touches are first accessed by it.
                first[w] = (first[w] & !(reads[w] | writes[w])) | (writes[w] & !reads[w]);
                set[w] |= reads[w] | writes[w];
            }
            touched[i] = set;
            first_written[i] = first;
        }
        let mut runs = Runs {
            len,
            issues,
            touched,
            first_written,
            written: effects.iter().map(|e| e.1).collect(),
            discarded: effects.iter().map(|e| e.2).collect(),
            next_discard,
            discard_words,
            discard_effects: vec![None; n],
        };
        for i in 0..n {
            if runs.starts_run(i) && runs.has_discards(i) {
                runs.discard_effects[i] = Some(runs.discard_effect(i, ops));
            }
        }
        runs
    }

    /// The net effect of the hints of the whole run from `i` (see [`Self::discard_effects`]):
    /// per half discarded in it, the pc of its last discard and whether a write follows that.
    fn discard_effect(&self, i: usize, ops: &[Op]) -> Box<[HalfEffect]> {
        let mut last: Vec<Option<(u32, bool)>> = vec![None; 256];
        let end = i + self.len(i);
        let run = self.written[i..end]
            .iter()
            .zip(&self.discarded[i..end])
            .zip(&ops[i..end]);
        for ((written, discarded), op) in run {
            for (h, last) in last.iter_mut().enumerate() {
                let bit = 1u64 << (h % 64);
                if written[h / 64] & bit != 0 {
                    if let Some((_, cleared)) = last {
                        *cleared = true;
                    }
                }
                if discarded[h / 64] & bit != 0 {
                    *last = Some((op.pc, false));
                }
            }
        }
        last.iter()
            .enumerate()
            .filter_map(|(h, e)| e.map(|(pc, cleared)| (h as u8, pc, cleared)))
            .collect()
    }

    /// Whether the run from `i` on has an operation with discard hints (which requires every
    /// thread that exists to be active: `ExecErrorKind::DiscardUnderPartialMask`).
    #[inline(always)]
    pub fn has_discards(&self, i: usize) -> bool {
        self.next_discard.get(i).is_some_and(|&k| k != NONE)
    }

    /// After operations `i..end` of the run from `i` executed with execution mask `exec` (all
    /// threads that exist): makes their discard hints' change to the hazard state, as the
    /// one-at-a-time loop applies them after each operation. In order from the first operation
    /// with hints: a write clears the poison of `exec`'s lanes on a half discarded earlier in
    /// the run (the other halves' writes made their change already: [`Self::clear_poison`],
    /// or the checked writes), then the operation's hints poison their halves.
    pub fn apply_discards(&self, i: usize, end: usize, regs: &mut RegFile, exec: u32, ops: &[Op]) {
        if let Some(Some(effect)) = self.discard_effects.get(i) {
            if end == i + self.len(i) {
                // The same final state in one step per half: each clear or hint changes only
                // the active threads' poison, so the last of them decides it, and the pc is the
                // last hint's.
                for &(h, pc, cleared) in effect.iter() {
                    regs.discard(Reg::Half(h), exec, pc);
                    if cleared {
                        regs.clear_poison(h, exec);
                    }
                }
                return;
            }
        }
        let (Some(&first), Some(&words)) = (self.next_discard.get(i), self.discard_words.get(i))
        else {
            return;
        };
        let range = first as usize..end.min(ops.len());
        let (Some(written), Some(discarded)) =
            (self.written.get(range.clone()), self.discarded.get(range))
        else {
            return;
        };
        // Word by word (the halves of different words do not interact), and only the words
        // with hints: usually one.
        for w in (0..4).filter(|w| words >> w & 1 == 1) {
            let mut poisoned = 0u64;
            for (k, (written, discarded)) in written.iter().zip(discarded).enumerate() {
                let mut bits = written[w] & poisoned;
                while bits != 0 {
                    regs.clear_poison((w as u32 * 64 + bits.trailing_zeros()) as u8, exec);
                    bits &= bits - 1;
                }
                poisoned &= !written[w];
                let mut bits = discarded[w];
                while bits != 0 {
                    let h = (w as u32 * 64 + bits.trailing_zeros()) as u8;
                    regs.discard(Reg::Half(h), exec, ops[first as usize + k].pc);
                    bits &= bits - 1;
                }
                poisoned |= discarded[w];
            }
        }
    }

    /// Whether a maximal run starts at `i` (the run from `i - 1`, if any, does not go on to
    /// `i`).
    pub fn starts_run(&self, i: usize) -> bool {
        self.len(i) >= 2 && (i == 0 || self.len(i - 1) != self.len(i) + 1)
    }

    /// How the run from `i` on may execute, given the hazards in `regs` (see [`Mode`]).
    #[inline(always)]
    pub fn mode(&self, i: usize, regs: &RegFile) -> Mode {
        match (self.touched.get(i), self.first_written.get(i)) {
            (Some(set), Some(first)) => mode(regs, set, first),
            _ => Mode::Checked,
        }
    }

    /// After the run from `i` on executed in [`Mode::Clears`] with execution mask `exec`: clears
    /// the poison its writes cleared (the writes of `exec`'s lanes to the halves it writes
    /// before reading), as the checked writes do.
    pub fn clear_poison(&self, i: usize, regs: &mut RegFile, exec: u32) {
        let Some(first) = self.first_written.get(i) else {
            return;
        };
        for (w, &word) in first.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let h = (w as u32 * 64 + bits.trailing_zeros()) as u8;
                if regs.hazard(h) != 0 {
                    regs.clear_poison(h, exec);
                }
                bits &= bits - 1;
            }
        }
    }

    /// The straight run starting at `i`, if it is at least two operations long and at most
    /// `steps_left` (a longer one could pass the step limit inside).
    #[inline(always)]
    pub fn at(&self, i: usize, steps_left: u64) -> Option<Range<usize>> {
        let n = *self.len.get(i)? as usize;
        (n >= 2 && n as u64 <= steps_left).then_some(i..i + n)
    }

    /// How many operations from `i` on are straight (0: operation `i` is not).
    pub fn len(&self, i: usize) -> usize {
        self.len.get(i).map_or(0, |&n| n as usize)
    }

    /// The timing model's view of operations `r` (within a run).
    #[inline(always)]
    pub fn issues(&self, r: Range<usize>) -> &[Issue] {
        self.issues.get(r).unwrap_or(&[])
    }
}

/// Executes `ops` (a straight run) in order, with the register checks when `CHECK`; on a
/// failure, the index in `ops` of the operation that failed and its error.
#[inline(always)]
pub(super) fn run<const WIDE: bool, const CHECK: bool>(
    uniforms: &[u32; 256],
    g: &mut SimdGroup,
    ops: &[Op],
) -> Result<(), (usize, ExecErrorKind)> {
    if g.exec == 0 {
        // No thread active: every check passes and every write is empty (`regfile`'s checks
        // and writes of no lanes), so only the `wait`s change anything.
        for op in ops {
            if let Kind::Wait(slot) = op.kind {
                g.regs.wait(slot);
            }
        }
        return Ok(());
    }
    for (k, op) in ops.iter().enumerate() {
        let result = match op.kind {
            Kind::Wait(slot) => {
                g.regs.wait(slot);
                Ok(())
            }
            ref kind => alu::run::<WIDE, CHECK>(uniforms, g, kind),
        };
        if let Err(e) = result {
            return Err((k, e));
        }
    }
    Ok(())
}
