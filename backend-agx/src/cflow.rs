//! Structured control flow to execution-mask stack code (docs/g13.md, "Execution-mask stack").
//!
//! `r0l` counts, per thread, the pops that will reactivate it (0 = active); it is set to 0 at
//! the start. The idioms:
//!
//! ```text
//! if c:          if_icmp r0l, c, n=1          ; lanes failing c get r0l = 1, inactive lanes +1
//!                [jmp_exec_none ELSE]         ; when the then arm is expensive
//!                ...then...
//! else:    ELSE: else_icmp r0l, 0 == 0, n=1   ; swap the arm's lanes (r0l 0 <-> 1)
//!                [jmp_exec_none END]
//!                ...else...
//! end:     END:  pop_exec r0l, 1
//!
//! loop:          if_icmp r0l, 0 == 0, n=2     ; push two levels: break and continue
//!                [jmp_exec_none END]
//!          HEAD: ...body...
//!                [while_icmp r0l, 0 == 0, n=2]; continuing lanes (r0l 1) wake up,
//!                jmp_exec_any HEAD            ; when a `continue` under an `if` left some
//!          END:  pop_exec r0l, 2              ; breaking lanes (r0l 2) wake up
//! ```
//!
//! Inside a loop, under `d` enclosing `if`s of that loop: `break` is `mov_imm r0l, d + 2;
//! pop_exec r0l, 0` (the lane wakes at the loop's final pop), `continue` is `mov_imm r0l,
//! d + 1; pop_exec r0l, 0` (it wakes at the `while`), and a `continue` at the end of the body
//! (d = 0) is nothing. `return` and `discard` under any construct set `r0l` to
//! [`EXITED`], which no pop brings to zero; at the top level they end the program (`stop`).
//! The `pop_exec r0l, 0` after an exit goes when a stack instruction follows at once (the
//! arm's own `pop_exec 1`, say): that one recomputes the mask anyway ([`drop_redundant_pops`]).
//! An `if` whose then arm is empty is inverted, and an empty else arm is dropped.
//!
//! # Exits without mask traffic
//! An `if` holding nothing but an exit needs no push, since its lanes leave anyway:
//!
//! ```text
//! if c { continue }   (d = 0)            while_icmp r0l, !c, n=1
//! if c { break }      (d = 0, no continue before it in the body)
//!                                        while_icmp r0l, !c, n=2
//! if c { break } / { continue }  (otherwise)
//!                                        icmpsel r0l, c, d + 2 (or d + 1), 0
//!                                        pop_exec r0l, 0
//! do { ... } while (c)   (if !c { break } ending the body, no continue in it)
//!                                        the back edge's while_icmp r0l, c, n=2
//! ```
//!
//! A `while_*cmp` with level `n` only touches lanes whose `r0l` is below `n`: directly in the
//! body those are the active lanes and, at `n` = 2, lanes that continued (`r0l` = 1) earlier in
//! the iteration, whose condition registers are stale; hence the condition on `continue`s. The
//! `icmpsel` only runs on active lanes (whose `r0l` is 0), so it is right at any depth. These
//! replace four instructions (`if_icmp`, `mov_imm`, `pop_exec 0`, `pop_exec 1`) by one or two.
//!
//! # What Mesa does differently (the corpus listings in `shared/mesa-reference/listings/`)
//! - Mesa's `break_if_*cmp` pseudo-instruction (`agx_lower_pseudo.c`) is the same trade: a
//!   `while_*cmp` when the break is directly in a loop, else `icmpsel r0l` and a pop; agxc's
//!   `continue` case is the same idea applied to `continue`, which Mesa leaves to NIR.
//! - Mesa's loops push one level (`n=1`) when they have no `continue` (see the do-while in
//!   `control_flow.txt`: `while_icmp r0h, 0, 0, n=1, inv`); agxc always pushes two, which costs
//!   nothing extra in instructions and keeps one encoding of break levels.
//! - Mesa computes the loop condition into a register (`r0h = icmpsel ...`) and tests it
//!   against 0 in the `while`; agxc fuses the comparison itself into the `while_*cmp` when the
//!   condition is one comparison (isel's fused `if` conditions).
//! - Mesa has NIR unroll loops and turn small branches into selects before its backend sees
//!   them (`nir_opt_loop_unroll`, `nir_opt_peephole_select`); agxc does both in the optimizer
//!   (`agxc_egraph::passes`), so this pass mostly sees loops with data-dependent trip counts
//!   and branches with effects.
//! - A uniform condition (the same for the whole SIMD-group) still goes through the mask stack
//!   in both compilers: the G13's only conditional jumps test the execution mask
//!   (`jmp_exec_any`, `jmp_exec_none`; the ISA document has no jump on a register), so skipping
//!   a uniform branch's arm is exactly `if_*cmp` followed by `jmp_exec_none`, which
//!   [`worth_skipping`] decides on as for any branch.
//!
//! `jmp_exec_none` skips an arm or a loop when no lane is active, but costs an instruction
//! every time it runs; see [`worth_skipping`] for when it goes in.

use crate::isa::{Cmp, ICond, Instr, JumpTarget, Label, PReg, Src, StackOp};
use crate::mir::MInst;

/// `r0l` of a lane that has ended: far above any nesting depth, far below 16-bit overflow.
pub const EXITED: u32 = 0x7fff;

/// The cost of a `jmp_exec_none`, in the units of [`worth_skipping`] (Mesa's `COST_JMP`).
pub const JMP_COST: u32 = 19;

/// One over the probability that no lane enters an arm or a loop (Mesa's choice for `if` and
/// `else`).
pub const SKIP_INVERSE_PROBABILITY: u32 = 2;

/// The cost of a memory access or texture instruction in [`worth_skipping`]'s units (an ALU
/// instruction is 1).
pub const MEMORY_COST: u32 = 10;

/// One element of lowered code.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Lowered {
    /// A machine instruction.
    Instr(Instr<PReg>),
    /// A jump target.
    Label(Label),
}

impl std::fmt::Display for Lowered {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Lowered::Instr(i) => write!(f, "{i}"),
            Lowered::Label(l) => write!(f, "{l}:"),
        }
    }
}

impl Lowered {
    /// Calls `f` for every register read.
    pub fn for_each_use(&self, f: impl FnMut(&PReg)) {
        if let Lowered::Instr(i) = self {
            i.for_each_use(f);
        }
    }

    /// Calls `f` for every register written.
    pub fn for_each_def(&self, f: impl FnMut(&PReg)) {
        if let Lowered::Instr(i) = self {
            i.for_each_def(f);
        }
    }
}

/// Lowers structured code to exec-mask stack code with labels.
pub fn lower(insts: &[MInst<PReg>], exec_stack: bool) -> Vec<Lowered> {
    let insts = simplify(insts);
    let matching = match_structure(&insts);
    let skip = SkipCost::new(&insts);
    let mut out = Vec::with_capacity(insts.len() + 8);
    let mut labels = 0u32;
    let mut new_label = || {
        labels += 1;
        Label(labels - 1)
    };
    if exec_stack {
        out.push(Lowered::Instr(Instr::MovImm {
            dst: crate::isa::Dst::new(PReg::R0L),
            imm: 0,
        }));
    }
    let mut frames: Vec<Frame> = Vec::new();
    let mut i = 0;
    while i < insts.len() {
        match insts[i] {
            MInst::Op(op) => out.push(Lowered::Instr(op)),
            MInst::If { cmp, invert } => {
                if let Some(skip) = while_exit(&insts, &matching, i, &mut frames) {
                    i += skip;
                    continue;
                }
                if let Some(n) =
                    lone_exit(&insts, i).and_then(|e| while_level(&insts, i, e, &frames))
                {
                    // `if c { continue }` (or a `break` no `continue` precedes) directly in the
                    // loop body: one `while_*cmp !c` sends the exiting lanes to level `n`.
                    out.push(stack(StackOp::While, cmp, !invert, n));
                    i += 3;
                    continue;
                }
                if let Some(level) = lone_exit(&insts, i).and_then(|e| exit_level(e, &frames)) {
                    // `if c { break }`: the breaking lanes' r0l goes straight to the level the
                    // break needs, without a push and pop around it.
                    let (x, y) = if invert { (0, level) } else { (level, 0) };
                    out.push(Lowered::Instr(Instr::Select {
                        dst: crate::isa::Dst::new(PReg::R0L),
                        cmp,
                        x: Src::Imm(x),
                        y: Src::Imm(y),
                    }));
                    out.push(pop(0));
                    i += 3;
                    continue;
                }
                let (else_label, end_label) = (new_label(), new_label());
                out.push(stack(StackOp::If, cmp, invert, 1));
                let (else_at, end_at) = (matching[i].0, matching[i].1);
                let arm_end = else_at.unwrap_or(end_at);
                if skip.worth_skipping(i + 1, arm_end) {
                    out.push(jump_none(if else_at.is_some() {
                        else_label
                    } else {
                        end_label
                    }));
                }
                frames.push(Frame::If {
                    else_label,
                    end_label,
                });
            }
            MInst::Else => {
                if let Some(Frame::If {
                    else_label,
                    end_label,
                }) = frames.last()
                {
                    out.push(Lowered::Label(*else_label));
                    out.push(stack(StackOp::Else, always(), false, 1));
                    let end_at = matching[i].1;
                    if skip.worth_skipping(i + 1, end_at) {
                        out.push(jump_none(*end_label));
                    }
                }
            }
            MInst::EndIf => {
                if let Some(Frame::If { end_label, .. }) = frames.pop() {
                    out.push(Lowered::Label(end_label));
                    out.push(pop(1));
                }
            }
            MInst::Loop => {
                let (head, end_label) = (new_label(), new_label());
                out.push(stack(StackOp::If, always(), false, 2));
                if skip.worth_skipping(i + 1, matching[i].1) {
                    out.push(jump_none(end_label));
                }
                out.push(Lowered::Label(head));
                frames.push(Frame::Loop {
                    head,
                    end_label,
                    while_cmp: None,
                    start: i,
                });
            }
            MInst::EndLoop => {
                if let Some(Frame::Loop {
                    head,
                    end_label,
                    while_cmp,
                    start,
                }) = frames.pop()
                {
                    match while_cmp {
                        Some((cmp, invert)) => out.push(stack(StackOp::While, cmp, invert, 2)),
                        // Only a masked `continue` leaves lanes at `r0l` = 1 for the back
                        // edge to wake; without one the active lanes are exactly those that
                        // go round again (Mesa's loops have no back-edge `while` either).
                        None if masked_continue(&insts, start, i) => {
                            out.push(stack(StackOp::While, always(), false, 2))
                        }
                        None => {}
                    }
                    out.push(Lowered::Instr(Instr::JmpExecAny {
                        target: JumpTarget::Label(head),
                    }));
                    out.push(Lowered::Label(end_label));
                    out.push(pop(2));
                }
            }
            MInst::Break => {
                let d = ifs_in_loop(&frames);
                out.push(set_r0l(d + 2));
                out.push(pop(0));
            }
            MInst::Continue => {
                let d = ifs_in_loop(&frames);
                if d > 0 {
                    out.push(set_r0l(d + 1));
                    out.push(pop(0));
                }
            }
            MInst::Exit => {
                if frames.is_empty() {
                    out.push(Lowered::Instr(Instr::Stop));
                } else {
                    out.push(set_r0l(EXITED));
                    out.push(pop(0));
                }
            }
        }
        i += 1;
    }
    out.push(Lowered::Instr(Instr::Stop));
    drop_redundant_pops(out)
}

/// Drops each `pop_exec r0l, 0` that the next instruction (past any labels) makes redundant.
///
/// An exit sets `r0l` and then pops nothing, only so that the execution mask follows `r0l`
/// from there on. When the next instruction is itself a stack instruction (the enclosing
/// arm's `pop_exec`, an `else_*cmp`, a `while_*cmp`), that one recomputes the mask from `r0l`
/// for every lane anyway and reads nothing the exiting lanes could still change, so
/// `mov_imm r0l, 3; pop_exec r0l, 0; pop_exec r0l, 1` is `mov_imm r0l, 3; pop_exec r0l, 1`.
/// A jump to a label in between arrives with its own mask and also meets that instruction.
fn drop_redundant_pops(code: Vec<Lowered>) -> Vec<Lowered> {
    let restacks = |l: &Lowered| {
        matches!(
            l,
            Lowered::Instr(Instr::PopExec { .. } | Instr::ExecStack { .. })
        )
    };
    let mut keep = vec![true; code.len()];
    for (k, l) in code.iter().enumerate() {
        if matches!(l, Lowered::Instr(Instr::PopExec { n: 0, .. })) {
            let next = code[k + 1..]
                .iter()
                .find(|n| !matches!(n, Lowered::Label(_)));
            keep[k] = !next.is_some_and(restacks);
        }
    }
    code.into_iter()
        .zip(keep)
        .filter_map(|(l, k)| k.then_some(l))
        .collect()
}

/// An open construct while lowering.
enum Frame {
    If {
        else_label: Label,
        end_label: Label,
    },
    Loop {
        head: Label,
        end_label: Label,
        /// The condition the back edge's `while_*cmp` tests (see [`while_exit`]).
        while_cmp: Option<(Cmp<PReg>, bool)>,
        /// The index of its `Loop`.
        start: usize,
    },
}

fn always() -> Cmp<PReg> {
    Cmp::Int {
        cond: ICond::Ueq,
        a: Src::Imm(0),
        b: Src::Imm(0),
    }
}

fn stack(op: StackOp, cmp: Cmp<PReg>, invert: bool, n: u8) -> Lowered {
    Lowered::Instr(Instr::ExecStack {
        op,
        cmp,
        invert,
        n,
        cache: false,
    })
}

fn pop(n: u8) -> Lowered {
    Lowered::Instr(Instr::PopExec { n, cache: false })
}

fn set_r0l(v: u32) -> Lowered {
    Lowered::Instr(Instr::MovImm {
        dst: crate::isa::Dst::new(PReg::R0L),
        imm: v,
    })
}

/// The `if`s of the innermost loop that enclose the current point.
fn ifs_in_loop(frames: &[Frame]) -> u32 {
    let mut d = 0;
    for f in frames.iter().rev() {
        match f {
            Frame::If { .. } => d += 1,
            Frame::Loop { .. } => break,
        }
    }
    d
}

/// The exit of an `if` at `i` whose only content is that exit (`if c { break }`, `continue`,
/// `return`): nothing to mask, so no push is needed.
fn lone_exit(insts: &[MInst<PReg>], i: usize) -> Option<MInst<PReg>> {
    match (insts.get(i + 1), insts.get(i + 2)) {
        (Some(&e @ (MInst::Break | MInst::Continue | MInst::Exit)), Some(MInst::EndIf)) => Some(e),
        _ => None,
    }
}

/// The `r0l` value of a lane taking `exit` under the current frames, if an 8-bit immediate
/// holds it: the pops it waits for (a `break` the loop's final `pop_exec 2` after the
/// enclosing `if`s' pops, a `continue` the `while`). A `return` ([`EXITED`]) keeps its push.
fn exit_level(exit: MInst<PReg>, frames: &[Frame]) -> Option<u8> {
    let d = ifs_in_loop(frames);
    let level = match exit {
        MInst::Break => d + 2,
        MInst::Continue => d + 1,
        _ => return None,
    };
    u8::try_from(level).ok()
}

/// The `n` of a `while_*cmp` that takes a lone exit at `i` by itself, if one can: a
/// `continue` directly in the loop body (`n` = 1: lanes where the condition holds wait for the
/// back edge, the others stay; no other lane has `r0l` below 1 there), or a `break` directly in
/// the body when no `continue` comes before it in the body (`n` = 2: no lane waits for the back
/// edge with `r0l` = 1, which the `while` would wake).
fn while_level(insts: &[MInst<PReg>], i: usize, exit: MInst<PReg>, frames: &[Frame]) -> Option<u8> {
    let Some(Frame::Loop { start, .. }) = frames.last() else {
        return None;
    };
    match exit {
        MInst::Continue => Some(1),
        MInst::Break if !continue_between(insts, *start, i) => Some(2),
        _ => None,
    }
}

/// True if a `continue` of the loop opened at `start` lies before `i` (nested loops' own
/// `continue`s excluded).
fn continue_between(insts: &[MInst<PReg>], start: usize, i: usize) -> bool {
    let mut depth = 0;
    for inst in &insts[start + 1..i] {
        match inst {
            MInst::Loop => depth += 1,
            MInst::EndLoop => depth -= 1,
            MInst::Continue if depth == 0 => return true,
            _ => {}
        }
    }
    false
}

/// True if the loop opened at `start` and closed at `end` has a `continue` under an `if` of
/// its own (nested loops' `continue`s excluded): the lanes taking it wait at `r0l` = 1 for the
/// back edge's `while`. A `continue` directly in the body (the one closing it) masks nothing.
fn masked_continue(insts: &[MInst<PReg>], start: usize, end: usize) -> bool {
    let (mut loops, mut ifs) = (0u32, 0u32);
    for inst in &insts[start + 1..end] {
        match inst {
            MInst::Loop => loops += 1,
            MInst::EndLoop => loops -= 1,
            MInst::If { .. } if loops == 0 => ifs += 1,
            MInst::EndIf if loops == 0 => ifs -= 1,
            MInst::Continue if loops == 0 && ifs > 0 => return true,
            _ => {}
        }
    }
    false
}

/// A do-while exit: `if c { break }` as the last thing in a loop body (before its closing
/// `continue`), directly in the loop, in a loop without any other `continue`. Then no lane
/// waits for the back edge with `r0l` = 1, and the back edge itself can test `!c`:
/// `while_*cmp !c, n=2` keeps the lanes where it holds and sends the others to the loop's
/// final pop. Records the condition in the loop's frame and returns how many instructions it
/// replaced.
fn while_exit(
    insts: &[MInst<PReg>],
    matching: &[(Option<usize>, usize)],
    i: usize,
    frames: &mut [Frame],
) -> Option<usize> {
    let MInst::If { cmp, invert } = insts[i] else {
        return None;
    };
    if !matches!(frames.last(), Some(Frame::Loop { .. })) {
        return None;
    }
    if lone_exit(insts, i) != Some(MInst::Break) {
        return None;
    }
    let after = match insts.get(i + 3) {
        Some(MInst::Continue) => i + 4,
        _ => i + 3,
    };
    if insts.get(after) != Some(&MInst::EndLoop) {
        return None;
    }
    // The loop's start: the `Loop` whose `EndLoop` is `after`.
    let start = (0..i)
        .rev()
        .find(|&k| insts[k] == MInst::Loop && matching[k].1 == after)?;
    let mut depth = 0;
    for inst in &insts[start + 1..i] {
        match inst {
            MInst::Loop => depth += 1,
            MInst::EndLoop => depth -= 1,
            MInst::Continue if depth == 0 => return None,
            _ => {}
        }
    }
    if let Some(Frame::Loop { while_cmp, .. }) = frames.last_mut() {
        *while_cmp = Some((cmp, !invert));
    }
    Some(after - i)
}

fn jump_none(label: Label) -> Lowered {
    Lowered::Instr(Instr::JmpExecNone {
        target: JumpTarget::Label(label),
    })
}

/// Whether skipping a range of the code when no lane is active is worth a `jmp_exec_none`.
///
/// Without the jump the code runs (masked) at cost C; with it, the jump costs J every time and
/// the code still runs unless no lane is active, so the jump pays off when
/// `J + P(some lane active) C < C`, i.e. `C >= J / P(no lane active)`. This is Mesa's AGX
/// heuristic (`agx_opt_jmp_none.c`: `COST_JMP` 19 tuned on Dolphin's ubershaders, an
/// instruction costing 1 and a device load, texture load or sample 10, inverse probability 2
/// for `if` and `else` arms), which agxc takes as it is since it measures the same trade on
/// the same GPU. Mesa inserts no jump at a loop's entry; agxc treats a loop like an arm (its
/// entry is skipped when an enclosing arm left no lane active and had no jump of its own).
/// The exits that [`lone_exit`] turns into a select have no arm to skip. Prefix sums of the
/// costs answer each range in constant time (an arm holding nested arms is not scanned again
/// for each of them).
struct SkipCost {
    /// The cost of the instructions before each position.
    prefix: Vec<u64>,
}

impl SkipCost {
    fn new(code: &[MInst<PReg>]) -> Self {
        let mut prefix = Vec::with_capacity(code.len() + 1);
        let mut sum = 0u64;
        prefix.push(0);
        for inst in code {
            sum += u64::from(match inst {
                MInst::Op(op) => {
                    if matches!(
                        op,
                        Instr::DeviceLoad(_)
                            | Instr::DeviceStore(_)
                            | Instr::DeviceAtomic(_)
                            | Instr::TextureSample(_)
                            | Instr::TextureLoad(_)
                            | Instr::ImageWrite(_)
                    ) {
                        MEMORY_COST
                    } else {
                        1
                    }
                }
                _ => 1,
            });
            prefix.push(sum);
        }
        SkipCost { prefix }
    }

    /// Whether skipping `code[start..end]` is worth a `jmp_exec_none`.
    fn worth_skipping(&self, start: usize, end: usize) -> bool {
        start < end
            && self.prefix[end] - self.prefix[start]
                >= u64::from(JMP_COST * SKIP_INVERSE_PROBABILITY)
    }
}

/// For each `If`: its `Else` (if any) and `EndIf`; for each `Else`: (`None`, its `EndIf`); for
/// each `Loop`: (`None`, its `EndLoop`).
fn match_structure(insts: &[MInst<PReg>]) -> Vec<(Option<usize>, usize)> {
    let mut out = vec![(None, 0); insts.len()];
    let mut open: Vec<(usize, Option<usize>)> = Vec::new();
    for (i, inst) in insts.iter().enumerate() {
        match inst {
            MInst::If { .. } | MInst::Loop => open.push((i, None)),
            MInst::Else => {
                if let Some(top) = open.last_mut() {
                    top.1 = Some(i);
                }
            }
            MInst::EndIf | MInst::EndLoop => {
                if let Some((start, else_at)) = open.pop() {
                    out[start] = (else_at, i);
                    if let Some(e) = else_at {
                        out[e] = (None, i);
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// Drops empty else arms and inverts ifs with an empty then arm.
fn simplify(insts: &[MInst<PReg>]) -> Vec<MInst<PReg>> {
    let mut out: Vec<MInst<PReg>> = Vec::with_capacity(insts.len());
    for (i, inst) in insts.iter().enumerate() {
        match inst {
            MInst::Else if matches!(insts.get(i + 1), Some(MInst::EndIf)) => {}
            MInst::Else => {
                if let Some(MInst::If { invert, .. }) = out.last_mut() {
                    // `if c {} else {...}` is `if !c {...}`.
                    *invert = !*invert;
                } else {
                    out.push(*inst);
                }
            }
            _ => out.push(*inst),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::{Dst, FSrc, Precision};

    fn text(code: &[Lowered]) -> Vec<String> {
        code.iter().map(|l| l.to_string()).collect()
    }

    fn op() -> MInst<PReg> {
        MInst::Op(Instr::Fadd {
            prec: Precision::F32,
            dst: Dst::new(PReg::r32(2)),
            sat: false,
            a: FSrc::reg(PReg::r32(2)),
            b: FSrc::reg(PReg::r32(3)),
        })
    }

    fn r1_is_zero() -> Cmp<PReg> {
        Cmp::Int {
            cond: ICond::Ueq,
            a: Src::reg(PReg::r32(1)),
            b: Src::Imm(0),
        }
    }

    #[test]
    fn do_while_exit_becomes_the_back_edge_test() {
        let code = [
            MInst::Loop,
            op(),
            MInst::If {
                cmp: r1_is_zero(),
                invert: false,
            },
            MInst::Break,
            MInst::Else,
            MInst::EndIf,
            MInst::Continue,
            MInst::EndLoop,
        ];
        let lowered = text(&lower(&code, true));
        // Lanes where r1 == 0 break: the back edge keeps the others (r1 != 0).
        assert_eq!(
            lowered,
            [
                "mov_imm r0l, 0",
                "if_icmp r0l, ueq, 0, 0, 2",
                "L0:",
                "fadd32 r2, r2, r3",
                "while_icmp r0l, une, r1, 0, 2",
                "jmp_exec_any L0",
                "L1:",
                "pop_exec r0l, 2",
                "stop",
            ]
        );
    }

    #[test]
    fn lone_exits_set_r0l_without_a_push() {
        // `if r1 == 0 { break }` in the middle of the body, and a `continue` under an `if`
        // before it (so the back edge cannot test the break's condition).
        let code = [
            MInst::Loop,
            MInst::If {
                cmp: r1_is_zero(),
                invert: true,
            },
            MInst::Continue,
            MInst::EndIf,
            MInst::If {
                cmp: r1_is_zero(),
                invert: false,
            },
            MInst::Break,
            MInst::EndIf,
            op(),
            MInst::Continue,
            MInst::EndLoop,
        ];
        let lowered = text(&lower(&code, true));
        assert_eq!(
            lowered,
            [
                "mov_imm r0l, 0",
                "if_icmp r0l, ueq, 0, 0, 2",
                "L0:",
                // continue where r1 != 0: the others stay.
                "while_icmp r0l, ueq, r1, 0, 1",
                // a continue came first: the break cannot be a `while` (it would wake them).
                "icmpsel r0l, ueq, r1, 0, 2, 0",
                "pop_exec r0l, 0",
                "fadd32 r2, r2, r3",
                "while_icmp r0l, ueq, 0, 0, 2",
                "jmp_exec_any L0",
                "L1:",
                "pop_exec r0l, 2",
                "stop",
            ]
        );
    }

    #[test]
    fn a_break_no_continue_precedes_is_one_while() {
        let code = [
            MInst::Loop,
            MInst::If {
                cmp: r1_is_zero(),
                invert: false,
            },
            MInst::Break,
            MInst::EndIf,
            op(),
            MInst::Continue,
            MInst::EndLoop,
        ];
        let lowered = text(&lower(&code, true));
        assert_eq!(
            lowered,
            [
                "mov_imm r0l, 0",
                "if_icmp r0l, ueq, 0, 0, 2",
                "L0:",
                "while_icmp r0l, une, r1, 0, 2",
                "fadd32 r2, r2, r3",
                // No lane waits at r0l = 1 (no masked continue): no back-edge `while`.
                "jmp_exec_any L0",
                "L1:",
                "pop_exec r0l, 2",
                "stop",
            ]
        );
    }

    #[test]
    fn an_exit_with_other_work_in_its_arm_keeps_the_push() {
        let code = [
            MInst::Loop,
            MInst::If {
                cmp: r1_is_zero(),
                invert: false,
            },
            op(),
            MInst::Break,
            MInst::EndIf,
            MInst::Continue,
            MInst::EndLoop,
        ];
        let lowered = text(&lower(&code, true));
        assert_eq!(
            lowered,
            [
                "mov_imm r0l, 0",
                "if_icmp r0l, ueq, 0, 0, 2",
                "L0:",
                "if_icmp r0l, ueq, r1, 0, 1",
                "fadd32 r2, r2, r3",
                "mov_imm r0l, 3",
                "L3:",
                "pop_exec r0l, 1",
                "jmp_exec_any L0",
                "L1:",
                "pop_exec r0l, 2",
                "stop",
            ]
        );
    }
}
