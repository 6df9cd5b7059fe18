//! Execution-mask stack scenarios run as machine code: nested if/else, a loop with divergent
//! exits, break through `r0l`, `jmp_exec_none` and `jmp_exec_any`. Per-thread results are worked
//! out from the document's pseudocode (the walk-through is in each test's comment).

use super::asm::{alu2, d32, enc, operand::*};
use super::harness::{get32, run, set32};
use crate::encoding::Opcode;
use crate::error::ExecErrorKind;

/// A program under construction, with jump patching.
#[derive(Default)]
pub(super) struct Prog {
    pub(super) code: Vec<u8>,
}

impl Prog {
    pub(super) fn here(&self) -> i64 {
        self.code.len() as i64
    }
    pub(super) fn push(&mut self, bytes: Vec<u8>) -> i64 {
        let at = self.here();
        self.code.extend(bytes);
        at
    }
    /// A 6-byte jump from here to `target` (a byte offset).
    pub(super) fn jump(&mut self, op: Opcode, target: i64) -> i64 {
        let off = (target - self.here()) as i32 as u32;
        self.push(enc(op, &[("off", u64::from(off))]))
    }
    /// Patches the jump at `at` to land on `target`.
    pub(super) fn patch(&mut self, at: i64, target: i64) {
        let off = ((target - at) as i32).to_le_bytes();
        self.code[at as usize + 2..at as usize + 6].copy_from_slice(&off);
    }
}

pub(super) fn mov_r0l(v: u64) -> Vec<u8> {
    enc(Opcode::MovImm16, &[("D", 0), ("Dt", 0), ("imm16", v)])
}

fn mov32(n: u64, v: u64) -> Vec<u8> {
    enc(Opcode::MovImm32, &[("D", 2 * n), ("Dt", 2), ("imm32", v)])
}

/// An integer exec-stack instruction comparing `a` and `b` with condition `cc` (inverted by
/// `ccn`), pushing `n`.
pub(super) fn icmp(op: Opcode, cc: u64, ccn: u64, a: (u64, u64), b: (u64, u64), n: u64) -> Vec<u8> {
    enc(
        op,
        &[
            ("cc", cc),
            ("ccn", ccn),
            ("n", n),
            ("A", a.0),
            ("At", a.1),
            ("B", b.0),
            ("Bt", b.1),
        ],
    )
}

pub(super) fn pop(n: u64) -> Vec<u8> {
    enc(Opcode::PopExec, &[("n", n)])
}

/// `iadd rd, rd, src`.
pub(super) fn add(d: u64, src: (u64, u64)) -> Vec<u8> {
    enc(Opcode::Iadd, &alu2(d32(d), r32(d), src))
}

/// `else_icmp` with an always-true condition (0 == 0), the idiom of docs/g13.md.
fn else_always(n: u64) -> Vec<u8> {
    icmp(Opcode::ElseIcmp, 0b000, 0, imm(0), imm(0), n)
}

pub(super) const ULT: u64 = 0b001;
const UEQ: u64 = 0b000;

#[test]
fn nested_if_else() {
    // if (lane < 16) { r2 += 1; if (lane < 8) r2 += 10; else r2 += 100; } else r2 += r5 (1000);
    // r2 += r6 (10000). r0l per lane through the program (lanes 0-7 / 8-15 / 16-31):
    // outer if 0/0/1, inner if 0/1/2, inner else 1/0/2, pop 0/0/1, outer else 1/1/0, pop 0/0/0.
    let mut p = Prog::default();
    p.push(mov_r0l(0));
    p.push(icmp(Opcode::IfIcmp, ULT, 0, r32(1), imm(16), 1));
    p.push(add(2, imm(1)));
    p.push(icmp(Opcode::IfIcmp, ULT, 0, r32(1), imm(8), 1));
    p.push(add(2, imm(10)));
    p.push(else_always(1));
    p.push(add(2, imm(100)));
    p.push(pop(1));
    p.push(else_always(1));
    p.push(add(2, r32(5)));
    p.push(pop(1));
    p.push(add(2, r32(6)));
    let g = run(&p.code, |g| {
        set32(g, 1, |l| l as u32);
        set32(g, 5, |_| 1000);
        set32(g, 6, |_| 10000);
    });
    for l in 0..32 {
        let expect = match l {
            0..=7 => 10011,
            8..=15 => 10101,
            _ => 11000,
        };
        assert_eq!(get32(&g, 2, l), expect, "lane {l}");
        assert_eq!(get32(&g, 0, l) & 0xffff, 0, "lane {l}: r0l back to 0");
    }
    assert_eq!(g.exec, u32::MAX);
}

#[test]
fn loop_with_divergent_exits() {
    // sum = 0; for (i = 0; i < lane; i++) sum += i;
    // while_icmp n=1 deactivates (r0l = 1) each thread whose i < lane fails; jmp_exec_any loops
    // while any thread is active; the final pop_exec 1 reactivates everyone.
    let mut p = Prog::default();
    p.push(mov_r0l(0));
    p.push(mov32(2, 0));
    p.push(mov32(3, 0));
    p.push(icmp(Opcode::WhileIcmp, ULT, 0, r32(2), r32(1), 1));
    let head = p.here();
    p.push(add(3, r32(2)));
    p.push(add(2, imm(1)));
    p.push(icmp(Opcode::WhileIcmp, ULT, 0, r32(2), r32(1), 1));
    p.jump(Opcode::JmpExecAny, head);
    p.push(pop(1));
    let mut env = super::harness::Env::default();
    let g = env
        .run(&p.code, u32::MAX, |g| set32(g, 1, |l| l as u32))
        .expect("runs");
    for l in 0..32u32 {
        assert_eq!(
            get32(&g, 3, l as usize),
            l * l.saturating_sub(1) / 2,
            "sum in lane {l}"
        );
        assert_eq!(get32(&g, 2, l as usize), l, "i in lane {l}");
    }
    assert_eq!(g.exec, u32::MAX);
    // The body ran 31 times (the longest thread); each pass is 4 instructions.
    let body_passes = env.stats.count(crate::timing::InstClass::IntArith) / 2;
    assert_eq!(body_passes, 31);
}

#[test]
fn break_through_r0l() {
    // for (i = 0; i < 10; i++) { if (i == limit) break; sum++; } with limit = lane % 12.
    // Break: inside the if, r0l = 2 (the nesting depth) and pop_exec 0 deactivates the thread;
    // the if's pop_exec 1 leaves it at 1 (out of the loop); the loop exit's pop_exec 1 resets it.
    let mut p = Prog::default();
    p.push(mov_r0l(0));
    p.push(mov32(2, 0));
    p.push(mov32(3, 0));
    let head = p.here();
    p.push(icmp(Opcode::IfIcmp, UEQ, 0, r32(2), r32(1), 1));
    p.push(mov_r0l(2));
    p.push(pop(0));
    p.push(pop(1));
    p.push(add(3, imm(1)));
    p.push(add(2, imm(1)));
    p.push(icmp(Opcode::WhileIcmp, ULT, 0, r32(2), imm(10), 1));
    p.jump(Opcode::JmpExecAny, head);
    p.push(pop(1));
    let g = run(&p.code, |g| set32(g, 1, |l| (l % 12) as u32));
    for l in 0..32 {
        let limit = (l % 12) as u32;
        let expect = limit.min(10);
        assert_eq!(get32(&g, 3, l), expect, "sum in lane {l}");
        assert_eq!(get32(&g, 2, l), expect, "i in lane {l}");
        assert_eq!(get32(&g, 0, l) & 0xffff, 0, "r0l in lane {l}");
    }
}

#[test]
fn jmp_exec_none_skips_a_body_no_thread_runs() {
    // if (lane < 0) { trap } : no thread is active, so jmp_exec_none must jump over the trap
    // (which is not masked by the execution mask).
    let mut p = Prog::default();
    p.push(mov_r0l(0));
    p.push(icmp(Opcode::IfIcmp, ULT, 0, r32(1), imm(0), 1));
    let jump = p.jump(Opcode::JmpExecNone, 0);
    p.push(enc(Opcode::Trap, &[]));
    let end = p.push(pop(1));
    p.patch(jump, end);
    p.push(mov32(2, 7));
    let g = run(&p.code, |g| set32(g, 1, |l| l as u32));
    assert!((0..32).all(|l| get32(&g, 2, l) == 7));

    // With some thread active it falls through into the body.
    let mut p = Prog::default();
    p.push(mov_r0l(0));
    p.push(icmp(Opcode::IfIcmp, ULT, 0, r32(1), imm(3), 1));
    let jump = p.jump(Opcode::JmpExecNone, 0);
    p.push(mov32(2, 9));
    let end = p.push(pop(1));
    p.patch(jump, end);
    let g = run(&p.code, |g| set32(g, 1, |l| l as u32));
    for l in 0..32 {
        assert_eq!(get32(&g, 2, l), if l < 3 { 9 } else { 0 }, "lane {l}");
    }
}

#[test]
fn jmp_exec_any_falls_through_when_no_thread_is_active() {
    // All threads fail the if; jmp_exec_any back to a trap is not taken.
    let mut p = Prog::default();
    p.push(mov_r0l(0));
    let trap_at = p.push(mov32(2, 1));
    p.push(icmp(Opcode::IfIcmp, ULT, 0, r32(1), imm(0), 1));
    let j = p.jump(Opcode::JmpExecAny, trap_at);
    p.push(pop(1));
    let _ = j;
    let g = run(&p.code, |g| set32(g, 1, |l| l as u32));
    assert_eq!(g.exec, u32::MAX);
    // And taken when one is: the loop then never ends, and the step limit stops it.
    let mut p = Prog::default();
    let head = p.push(mov32(2, 1));
    p.jump(Opcode::JmpExecAny, head);
    let mut env = super::harness::Env::default();
    env.config.step_limit = 10_000;
    match env.run(&p.code, u32::MAX, |_| {}) {
        Err(crate::Error::Exec(e)) => {
            assert_eq!(e.kind, ExecErrorKind::StepLimit { limit: 10_000 });
            assert_eq!(
                e.pc, 0,
                "instruction 10001 is the mov at byte 0 (odd steps are the mov)"
            );
        }
        other => panic!("expected the step limit, got {:?}", other.err()),
    }
}

#[test]
fn stack_instructions_leave_nonexistent_threads_inactive() {
    // A partial SIMD-group (12 threads): pop_exec must not wake threads that do not exist.
    let mut p = Prog::default();
    p.push(mov_r0l(0));
    p.push(pop(1));
    p.push(mov32(2, 5));
    let g = super::harness::Env::default()
        .run(&p.code, 0xfff, |_| {})
        .expect("runs");
    assert_eq!(g.exec, 0xfff);
    assert_eq!(get32(&g, 2, 11), 5);
    assert_eq!(get32(&g, 2, 12), 0);
}

#[test]
fn call_and_return() {
    // 0: call +14 ; 6: mov_imm r3, 6 ; 12: stop ; 14: mov_imm r2, 5 ; 20: ret r1.
    let mut p = Prog::default();
    p.push(enc(Opcode::CallImm, &[("off", 14)]));
    p.push(mov32(3, 6));
    p.push(enc(Opcode::Stop, &[]));
    assert_eq!(p.push(mov32(2, 5)), 14);
    p.push(enc(Opcode::Ret, &[("reg32", 1)]));
    let g = run(&p.code, |_| {});
    assert_eq!(
        (get32(&g, 1, 0), get32(&g, 2, 0), get32(&g, 3, 0)),
        (6, 5, 6)
    );

    // Through a register: 0: mov_imm r4, 16 ; 6: call r4 ; 8: mov_imm r3, 6 ; 14: stop ;
    // 16: mov_imm r2, 5 ; 22: ret r1.
    let mut p = Prog::default();
    p.push(mov32(4, 16));
    p.push(enc(Opcode::CallReg, &[("reg32", 4)]));
    p.push(mov32(3, 6));
    p.push(enc(Opcode::Stop, &[]));
    assert_eq!(p.push(mov32(2, 5)), 16);
    p.push(enc(Opcode::Ret, &[("reg32", 1)]));
    let g = run(&p.code, |_| {});
    assert_eq!(
        (get32(&g, 1, 7), get32(&g, 2, 7), get32(&g, 3, 7)),
        (8, 5, 6)
    );
}
