//! The fast engine's straight runs where they meet the checkers: discard hints inside a run
//! (applied after it, in order), the leading `wait` of a run after a load (done before the
//! run's mode is chosen), and the step limit inside loops of such runs. The harness runs each
//! program on the reference, the fast engine and the fast engine with every run compiled, and
//! requires the same registers, checker state (poison, its pcs, pending loads), timing,
//! statistics and errors; the tests also pin the expected outcome.

use super::asm::{alu2, d32, enc, operand::*};
use super::exec_mask::{add, icmp, mov_r0l, pop, Prog, ULT};
use super::harness::{get32, run_err, set32, Env};
use crate::decode::inst::Reg;
use crate::encoding::Opcode;
use crate::error::{Error, ExecErrorKind};

const DISCARD32: u64 = 0b1011;
const PLAIN32: u64 = 0b1001;

/// `fadd32 r<d>, r<a>.<a_type>, r<b>`.
fn fadd(d: u64, a: u64, a_type: u64, b: u64) -> Vec<u8> {
    enc(Opcode::Fadd, &alu2(d32(d), (2 * a, a_type), r32(b)))
}

/// `iadd r<d>, r<a>.<a_type>, r<b>`.
fn iadd(d: u64, a: u64, a_type: u64, b: u64) -> Vec<u8> {
    enc(Opcode::Iadd, &alu2(d32(d), (2 * a, a_type), r32(b)))
}

/// `mov r<n>, v` (32 bits).
fn mov32(n: u64, v: u64) -> Vec<u8> {
    enc(Opcode::MovImm32, &[("D", 2 * n), ("Dt", 2), ("imm32", v)])
}

/// `device_load r4` from `u0_u1` (one word, format i32) on `slot`.
fn load_r4(slot: u64) -> Vec<u8> {
    enc(
        Opcode::DeviceLoad,
        &[
            ("F", 2),
            ("R", 8),
            ("Rt", 1),
            ("At", 1),
            ("Ot", 1),
            ("mask", 1),
            ("u2", slot),
        ],
    )
}

fn wait(slot: u64) -> Vec<u8> {
    enc(Opcode::Wait, &[("i", slot)])
}

/// An environment whose `u0_u1` points at a buffer holding 42.
fn env_with_buffer() -> Env {
    let mut env = Env::default();
    let addr = env.memory.alloc(64, 16).expect("alloc");
    env.memory.write(addr, &42u32.to_le_bytes()).expect("write");
    env.uniforms[0] = addr as u32;
    env.uniforms[1] = (addr >> 32) as u32;
    env
}

/// Byte offsets of each piece of `pieces` laid out in order.
fn offsets(pieces: &[Vec<u8>]) -> Vec<u32> {
    let mut at = 0;
    pieces
        .iter()
        .map(|p| {
            let here = at;
            at += p.len() as u32;
            here
        })
        .collect()
}

#[test]
fn discard_hints_inside_a_run_poison_as_one_at_a_time() {
    // One straight run: r2 discarded by the fourth operation and never rewritten; r1
    // discarded by the third and rewritten by the fifth; r3 discarded and rewritten and
    // discarded again. The final poison (and the pc it names) must be the reference's, with
    // and without the uninitialized-read check.
    let pieces = [
        mov32(1, 1),
        mov32(2, 2),
        fadd(3, 1, DISCARD32, 2),
        fadd(4, 2, DISCARD32, 3),
        mov32(1, 7),
        iadd(5, 3, DISCARD32, 1),
        mov32(3, 9),
        iadd(6, 3, DISCARD32, 1),
        mov32(7, 0),
    ];
    let at = offsets(&pieces);
    let code = pieces.concat();
    for uninitialized in [false, true] {
        let mut env = Env::default();
        env.config.check_uninitialized = uninitialized;
        let g = env.run(&code, u32::MAX, |_| {}).expect("runs");
        assert_eq!(get32(&g, 6, 0), 16);
        assert_eq!(g.regs.hazard(4) & g.regs.hazard(5), u32::MAX, "r2 poisoned");
        assert_eq!(g.regs.hazard(2) | g.regs.hazard(3), 0, "r1 rewritten");
        assert_eq!(g.regs.hazard(6), u32::MAX, "r3 discarded again");
        assert_eq!(env.stats.discard_hints, 4);
        // A read of r2 afterwards names the discard's pc.
        let read = [code.clone(), fadd(8, 2, PLAIN32, 1)].concat();
        let e = run_err(&read, u32::MAX, |_| {});
        assert_eq!(
            e.kind,
            ExecErrorKind::ReadAfterDiscard {
                thread: 0,
                register: Reg::R32(2),
                discarded_at: at[3]
            }
        );
    }
}

#[test]
fn a_read_of_a_register_discarded_earlier_in_the_run_fails_there() {
    // The run breaks before the read: the operations before it, the discard included, ran.
    let pieces = [
        mov32(1, 1),
        mov32(2, 2),
        fadd(3, 1, DISCARD32, 2),
        mov32(4, 4),
        iadd(5, 4, PLAIN32, 2),
        iadd(6, 1, PLAIN32, 2),
        mov32(7, 7),
    ];
    let at = offsets(&pieces);
    let e = run_err(&pieces.concat(), u32::MAX, |_| {});
    assert_eq!(e.pc, at[5]);
    assert_eq!(
        e.kind,
        ExecErrorKind::ReadAfterDiscard {
            thread: 0,
            register: Reg::R32(1),
            discarded_at: at[2]
        }
    );
}

#[test]
fn a_discard_hint_in_a_run_under_a_partial_mask_fails_at_its_instruction() {
    // if (lane < 4) { run with a discard in its middle }: the operations before it run.
    let mut p = Prog::default();
    p.push(mov_r0l(0));
    p.push(icmp(Opcode::IfIcmp, ULT, 0, r32(1), imm(4), 1));
    p.push(mov32(2, 2));
    p.push(mov32(3, 3));
    let discard_at = p.push(fadd(4, 2, DISCARD32, 3));
    p.push(mov32(5, 5));
    p.push(pop(1));
    let e = run_err(&p.code, u32::MAX, |g| set32(g, 1, |l| l as u32));
    assert_eq!(e.pc as i64, discard_at);
    assert_eq!(
        e.kind,
        ExecErrorKind::DiscardUnderPartialMask {
            register: Reg::R32(2),
            exec: 0xf,
            live: u32::MAX
        }
    );
    // With every thread that exists active (a partial SIMD-group) the hint is fine.
    let code = [
        mov32(2, 2),
        mov32(3, 3),
        fadd(4, 2, DISCARD32, 3),
        mov32(5, 5),
    ]
    .concat();
    let g = Env::default().run(&code, 0xfff, |_| {}).expect("runs");
    assert_eq!(g.regs.hazard(4), 0xfff);
}

#[test]
fn a_run_starting_with_the_wait_for_its_load_reads_the_loaded_value() {
    // load r4; wait; a run reading r4 (and discarding it at its end).
    let code = [
        load_r4(1),
        wait(1),
        iadd(5, 4, PLAIN32, 4),
        iadd(6, 5, PLAIN32, 4),
        iadd(7, 4, DISCARD32, 6),
    ]
    .concat();
    let g = env_with_buffer()
        .run(&code, u32::MAX, |_| {})
        .expect("runs");
    assert_eq!(get32(&g, 7, 31), 168);
    assert_eq!(g.regs.hazard(8), u32::MAX);
    // Waiting on the other slot leaves r4 pending: the run's first read fails.
    let wrong = [
        load_r4(1),
        wait(0),
        iadd(5, 4, PLAIN32, 4),
        iadd(6, 5, PLAIN32, 4),
    ]
    .concat();
    match env_with_buffer().run(&wrong, u32::MAX, |_| {}) {
        Err(Error::Exec(e)) => {
            assert_eq!(e.pc as usize, load_r4(1).len() + wait(0).len());
            assert_eq!(
                e.kind,
                ExecErrorKind::UnwaitedLoad {
                    access: "read",
                    register: Reg::R32(4),
                    slot: 1,
                    load_pc: 0
                }
            );
        }
        other => panic!("expected an unwaited load, got {:?}", other.err()),
    }
}

/// A loop of `n` iterations (r1 counts, the exit taken by `jmp_exec_none`) whose body loads r4, waits, and runs arithmetic with
/// discard hints (r4 discarded, r8 discarded and rewritten).
fn load_loop(n: u64) -> Vec<u8> {
    let mut p = Prog::default();
    p.push(mov_r0l(0));
    p.push(mov32(1, 0));
    p.push(mov32(2, 0));
    p.push(mov32(8, 1));
    let head = p.push(icmp(Opcode::WhileIcmp, ULT, 0, r32(1), imm(n), 1));
    // Leave when no thread is active (a discard hint needs every thread).
    let exit = p.jump(Opcode::JmpExecNone, 0);
    p.push(load_r4(0));
    p.push(wait(0));
    p.push(iadd(5, 4, PLAIN32, 8));
    p.push(iadd(2, 2, PLAIN32, 5));
    p.push(iadd(6, 4, DISCARD32, 8));
    p.push(iadd(7, 8, DISCARD32, 6));
    p.push(mov32(8, 1));
    p.push(add(1, imm(1)));
    p.jump(Opcode::JmpExecAny, head);
    let end = p.push(pop(1));
    p.patch(exit, end);
    p.code
}

#[test]
fn loops_of_runs_with_waits_and_discards_agree_and_stop_at_the_step_limit() {
    let code = load_loop(5);
    let g = env_with_buffer()
        .run(&code, u32::MAX, |_| {})
        .expect("runs");
    assert_eq!(get32(&g, 2, 0), 5 * 43);
    assert_eq!(g.regs.hazard(8), u32::MAX, "r4 discarded");
    // Every limit inside the loop: the engines stop at the same instruction, with the same
    // state (the harness compares everything).
    let mut stopped = 0;
    for limit in 1..=80 {
        let mut env = env_with_buffer();
        env.config.step_limit = limit;
        match env.run(&code, u32::MAX, |_| {}) {
            Err(Error::Exec(e)) => {
                assert_eq!(e.kind, ExecErrorKind::StepLimit { limit });
                stopped += 1;
            }
            Ok(_) => {}
            Err(other) => panic!("limit {limit}: {other}"),
        }
    }
    assert!(stopped > 50, "{stopped} limits stopped the loop");
}

#[test]
fn a_wait_after_other_work_starts_a_new_run() {
    // load r4; arithmetic; wait; arithmetic reading r4: the second stretch starts with its
    // wait (so it runs without checks), the first still checks what it touches.
    let code = [
        load_r4(1),
        mov32(5, 5),
        iadd(6, 5, PLAIN32, 5),
        wait(1),
        iadd(7, 4, PLAIN32, 6),
        iadd(8, 7, PLAIN32, 4),
    ]
    .concat();
    let g = env_with_buffer()
        .run(&code, u32::MAX, |_| {})
        .expect("runs");
    assert_eq!(get32(&g, 8, 0), 94);
    // Reading r4 before the wait, in the same stretch of arithmetic, fails there.
    let early = [
        load_r4(1),
        mov32(5, 5),
        iadd(6, 4, PLAIN32, 5),
        wait(1),
        iadd(7, 4, PLAIN32, 6),
    ]
    .concat();
    match env_with_buffer().run(&early, u32::MAX, |_| {}) {
        Err(Error::Exec(e)) => {
            assert_eq!(e.pc as usize, load_r4(1).len() + mov32(5, 5).len());
            assert!(matches!(
                e.kind,
                ExecErrorKind::UnwaitedLoad { slot: 1, .. }
            ));
        }
        other => panic!("expected an unwaited load, got {:?}", other.err()),
    }
}
