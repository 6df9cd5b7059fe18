//! Structured control flow to execution-mask stack code (ERRATA.md, "Execution-mask stack").
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
//!                while_icmp r0l, 0 == 0, n=2  ; continuing lanes (r0l 1) wake up
//!                jmp_exec_any HEAD
//!          END:  pop_exec r0l, 2              ; breaking lanes (r0l 2) wake up
//! ```
//!
//! Inside a loop, under `d` enclosing `if`s of that loop: `break` is `mov_imm r0l, d + 2;
//! pop_exec r0l, 0` (the lane wakes at the loop's final pop), `continue` is `mov_imm r0l,
//! d + 1; pop_exec r0l, 0` (it wakes at the `while`), and a `continue` at the end of the body
//! (d = 0) is nothing. `return` and `discard` under any construct set `r0l` to
//! [`EXITED`], which no pop brings to zero; at the top level they end the program (`stop`).
//! An `if` whose then arm is empty is inverted, and an empty else arm is dropped.
//!
//! `jmp_exec_none` skips an arm or a loop when no lane is active, but costs an instruction;
//! it goes in where the skipped code's estimated issue cycles are at least
//! [`JMP_EXEC_NONE_THRESHOLD`] or the code holds a memory or texture access.

use crate::isa::{Cmp, ICond, Instr, JumpTarget, Label, PReg, Src, StackOp};
use crate::latency;
use crate::mir::MInst;

/// `r0l` of a lane that has ended: far above any nesting depth, far below 16-bit overflow.
pub const EXITED: u32 = 0x7fff;

/// Skipped code must cost at least this many issue cycles for a `jmp_exec_none` over it.
pub const JMP_EXEC_NONE_THRESHOLD: u32 = 12;

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
    enum Frame {
        If { else_label: Label, end_label: Label },
        Loop { head: Label, end_label: Label },
    }
    let mut frames: Vec<Frame> = Vec::new();
    let always = || Cmp::Int {
        cond: ICond::Ueq,
        a: Src::Imm(0),
        b: Src::Imm(0),
    };
    let stack = |op, cmp, invert, n| {
        Lowered::Instr(Instr::ExecStack {
            op,
            cmp,
            invert,
            n,
            cache: false,
        })
    };
    let pop = |n| Lowered::Instr(Instr::PopExec { n, cache: false });
    let set_r0l = |v: u32| {
        Lowered::Instr(Instr::MovImm {
            dst: crate::isa::Dst::new(PReg::R0L),
            imm: v,
        })
    };
    let ifs_in_loop = |frames: &[Frame]| -> u32 {
        let mut d = 0;
        for f in frames.iter().rev() {
            match f {
                Frame::If { .. } => d += 1,
                Frame::Loop { .. } => break,
            }
        }
        d
    };
    for (i, inst) in insts.iter().enumerate() {
        match *inst {
            MInst::Op(op) => out.push(Lowered::Instr(op)),
            MInst::If { cmp, invert } => {
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
                frames.push(Frame::Loop { head, end_label });
            }
            MInst::EndLoop => {
                if let Some(Frame::Loop { head, end_label }) = frames.pop() {
                    out.push(stack(StackOp::While, always(), false, 2));
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
    }
    out.push(Lowered::Instr(Instr::Stop));
    out
}

fn jump_none(label: Label) -> Lowered {
    Lowered::Instr(Instr::JmpExecNone {
        target: JumpTarget::Label(label),
    })
}

/// Whether skipping a range of the code when no lane is active is worth a `jmp_exec_none`:
/// the range holds a memory or texture access or a loop, or its issue cycles reach
/// [`JMP_EXEC_NONE_THRESHOLD`]. Prefix sums answer each range in constant time (an arm holding
/// nested arms is not scanned again for each of them).
struct SkipCost {
    /// Issue cycles of the instructions before each position.
    cycles: Vec<u64>,
    /// The first position at or after each position holding an access or a loop.
    next_heavy: Vec<usize>,
}

impl SkipCost {
    fn new(code: &[MInst<PReg>]) -> Self {
        let mut cycles = Vec::with_capacity(code.len() + 1);
        let mut sum = 0u64;
        cycles.push(0);
        for inst in code {
            sum += u64::from(match inst {
                MInst::Op(op) => latency::cost(op).1,
                _ => 1,
            });
            cycles.push(sum);
        }
        let mut next_heavy = vec![code.len(); code.len() + 1];
        for (i, inst) in code.iter().enumerate().rev() {
            let heavy = match inst {
                MInst::Op(op) => matches!(
                    op,
                    Instr::DeviceLoad(_)
                        | Instr::DeviceStore(_)
                        | Instr::DeviceAtomic(_)
                        | Instr::TextureSample(_)
                        | Instr::TextureLoad(_)
                        | Instr::ImageWrite(_)
                ),
                MInst::Loop => true,
                _ => false,
            };
            next_heavy[i] = if heavy { i } else { next_heavy[i + 1] };
        }
        SkipCost { cycles, next_heavy }
    }

    /// Whether skipping `code[start..end]` is worth a `jmp_exec_none`.
    fn worth_skipping(&self, start: usize, end: usize) -> bool {
        start < end
            && (self.next_heavy[start] < end
                || self.cycles[end] - self.cycles[start] >= u64::from(JMP_EXEC_NONE_THRESHOLD))
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

    #[test]
    fn loop_with_break_under_an_if() {
        let cond = Cmp::Int {
            cond: ICond::Ueq,
            a: Src::reg(PReg::r32(1)),
            b: Src::Imm(0),
        };
        let code = [
            MInst::Loop,
            op(),
            MInst::If {
                cmp: cond,
                invert: false,
            },
            MInst::Break,
            MInst::Else,
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
                "fadd32 r2, r2, r3",
                "if_icmp r0l, ueq, r1, 0, 1",
                "mov_imm r0l, 3",
                "pop_exec r0l, 0",
                "L3:",
                "pop_exec r0l, 1",
                "while_icmp r0l, ueq, 0, 0, 2",
                "jmp_exec_any L0",
                "L1:",
                "pop_exec r0l, 2",
                "stop",
            ]
        );
    }
}
