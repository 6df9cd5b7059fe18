//! The register-cache hint sanitizer and the load scoreboard.

use super::asm::{alu2, d32, enc, operand::*};
use super::harness::{get32, run, run_err, set32, Env};
use crate::decode::inst::Reg;
use crate::encoding::Opcode;
use crate::error::{Error, ExecErrorKind};

/// `fadd32 r<d>, r<a>.<hint>, r<b>` with the source hint of A given as its type.
fn fadd(d: u64, a: u64, a_type: u64, b: u64) -> Vec<u8> {
    enc(Opcode::Fadd, &alu2(d32(d), (2 * a, a_type), r32(b)))
}

const DISCARD32: u64 = 0b1011;
const CACHE32: u64 = 0b1010;

#[test]
fn read_after_discard_is_reported_with_pc_thread_and_register() {
    // pc 0: fadd32 r0, r1.discard, r2 ; pc 6: fadd32 r3, r1, r2 -> r1 was discarded.
    let code = [fadd(0, 1, DISCARD32, 2), fadd(3, 1, 0b1001, 2)].concat();
    let e = run_err(&code, u32::MAX, |_| {});
    assert_eq!(e.pc, 6);
    assert_eq!(
        e.kind,
        ExecErrorKind::ReadAfterDiscard {
            thread: 0,
            register: Reg::R32(1),
            discarded_at: 0
        }
    );
    assert_eq!(
        e.to_string(),
        "pc 0x6 (SIMD-group 0): thread 0 reads r1, discarded by the instruction at pc 0x0 and \
         not written since"
    );
}

#[test]
fn a_write_clears_the_discard() {
    // Discard r1, write it again, read it: fine.
    let code = [
        fadd(0, 1, DISCARD32, 2),
        enc(Opcode::MovImm32, &[("D", 2), ("Dt", 2), ("imm32", 5)]),
        fadd(3, 1, 0b1001, 2),
    ]
    .concat();
    let g = run(&code, |_| {});
    assert_eq!(get32(&g, 1, 0), 5);
}

#[test]
fn discard_on_a_source_the_instruction_also_writes_is_fine() {
    // fadd32 r1.cache, r1.discard, r2: "discard on a source register can be used with cache on
    // the same destination register".
    let mut f = alu2((2, 0b11), (2, DISCARD32), r32(2));
    f.retain(|_| true);
    let code = [enc(Opcode::Fadd, &f), fadd(3, 1, CACHE32, 2)].concat();
    let mut env = Env::default();
    let g = env
        .run(&code, u32::MAX, |g| {
            set32(g, 1, |_| 1.0f32.to_bits());
            set32(g, 2, |_| 2.0f32.to_bits());
        })
        .expect("runs");
    assert_eq!(f32::from_bits(get32(&g, 3, 0)), 5.0);
    assert_eq!(env.stats.discard_hints, 1);
    assert_eq!(
        env.stats.cache_hints, 2,
        "the destination hint and r1.cache"
    );
}

#[test]
fn discard_under_a_partial_execution_mask_is_an_error() {
    // Deactivate lanes >= 4 with if_icmp, then discard.
    let code = [
        enc(Opcode::MovImm16, &[("D", 0), ("imm16", 0)]),
        enc(
            Opcode::IfIcmp,
            &[
                ("cc", 0b001),
                ("n", 1),
                ("A", 8),
                ("At", 9),
                ("B", 4),
                ("Bt", 0),
            ],
        ),
        fadd(0, 1, DISCARD32, 2),
    ]
    .concat();
    let e = run_err(&code, u32::MAX, |g| set32(g, 4, |l| l as u32));
    assert_eq!(e.pc, 10);
    assert_eq!(
        e.kind,
        ExecErrorKind::DiscardUnderPartialMask {
            register: Reg::R32(1),
            exec: 0xf,
            live: u32::MAX
        }
    );
}

fn device_load_r4(slot: u64) -> Vec<u8> {
    // device_load r4 (Rt=1, R=8), base u0_u1 (At=1), offset 0 (Ot=1), i32, mask 1, slot.
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

fn env_with_buffer() -> Env {
    let mut env = Env::default();
    let addr = env.memory.alloc(64, 16).expect("alloc");
    env.memory.write(addr, &42u32.to_le_bytes()).expect("write");
    env.uniforms[0] = addr as u32;
    env.uniforms[1] = (addr >> 32) as u32;
    env
}

#[test]
fn reading_a_load_before_its_wait_is_an_error() {
    let code = [device_load_r4(1), fadd(0, 4, 0b1001, 4)].concat();
    match env_with_buffer().run(&code, u32::MAX, |_| {}) {
        Err(Error::Exec(e)) => {
            assert_eq!(e.pc, 8);
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
        other => panic!("expected an unwaited-load error, got {:?}", other.err()),
    }
    // Waiting on the wrong slot does not help; waiting on the right one does.
    let wrong = [
        device_load_r4(1),
        enc(Opcode::Wait, &[("i", 0)]),
        fadd(0, 4, 0b1001, 4),
    ]
    .concat();
    assert!(env_with_buffer().run(&wrong, u32::MAX, |_| {}).is_err());
    let right = [
        device_load_r4(1),
        enc(Opcode::Wait, &[("i", 1)]),
        fadd(0, 4, 0b1001, 4),
    ]
    .concat();
    let g = env_with_buffer()
        .run(&right, u32::MAX, |_| {})
        .expect("runs");
    assert_eq!(get32(&g, 4, 31), 42);
}

#[test]
fn writing_a_pending_register_is_an_error() {
    let code = [
        device_load_r4(0),
        enc(Opcode::MovImm32, &[("D", 8), ("Dt", 2), ("imm32", 1)]),
    ]
    .concat();
    match env_with_buffer().run(&code, u32::MAX, |_| {}) {
        Err(Error::Exec(e)) => assert!(
            matches!(
                e.kind,
                ExecErrorKind::UnwaitedLoad {
                    access: "write",
                    slot: 0,
                    load_pc: 0,
                    ..
                }
            ),
            "{e}"
        ),
        other => panic!("expected an unwaited-load error, got {:?}", other.err()),
    }
}

#[test]
fn uninitialized_reads_are_reported_when_enabled() {
    let code = fadd(0, 1, 0b1001, 2);
    let mut env = Env::default();
    env.config.check_uninitialized = true;
    match env.run(&code, u32::MAX, |_| {}) {
        Err(Error::Exec(e)) => {
            assert_eq!(
                e.kind,
                ExecErrorKind::UninitializedRead {
                    thread: 0,
                    register: Reg::R32(1)
                }
            )
        }
        other => panic!("expected an uninitialized read, got {:?}", other.err()),
    }
    // Off by default.
    assert!(Env::default().run(&code, u32::MAX, |_| {}).is_ok());
}

// Straight runs that start with poisoned halves (`fast::straight::Mode`): the fast engines run
// those writing every poisoned half before reading it without checks and clear the poison
// afterwards; the harness compares each engine's final register file, checker state included,
// and its error with the reference's.

/// `mov r<n>, v` (32 bits).
fn mov32(n: u64, v: u64) -> Vec<u8> {
    enc(Opcode::MovImm32, &[("D", 2 * n), ("Dt", 2), ("imm32", v)])
}

#[test]
fn a_run_rewriting_a_discarded_register_before_reading_it_is_fine() {
    // pc 0: fadd r0, r1.discard, r2; then a straight run: mov r1, 5; fadd r3, r1, r2;
    // fadd r4, r1, r3; mov r5, 1 (r1's halves are poisoned as the run starts).
    let code = [
        fadd(0, 1, DISCARD32, 2),
        mov32(1, 5),
        fadd(3, 1, 0b1001, 2),
        fadd(4, 1, 0b1001, 3),
        mov32(5, 1),
        fadd(6, 1, 0b1001, 4),
    ]
    .concat();
    let g = run(&code, |g| set32(g, 2, |_| 0));
    assert_eq!(get32(&g, 1, 7), 5);
    assert_eq!(
        g.regs.hazard(2) | g.regs.hazard(3),
        0,
        "r1's poison cleared"
    );
}

#[test]
fn a_run_rewriting_half_of_a_discarded_register_reports_the_other_half() {
    // Discard r1, write r1l only, read r1 as 32 bits in the same straight run: r1h is still
    // poisoned (the run may not skip its checks).
    let code = [
        fadd(0, 1, DISCARD32, 2),
        enc(Opcode::MovImm16, &[("D", 2), ("Dt", 0), ("imm16", 7)]),
        mov32(5, 1),
        fadd(3, 1, 0b1001, 2),
    ]
    .concat();
    let read_at = (code.len() - 6) as u32;
    let e = run_err(&code, u32::MAX, |_| {});
    assert_eq!(e.pc, read_at);
    assert!(
        matches!(
            e.kind,
            ExecErrorKind::ReadAfterDiscard {
                thread: 0,
                discarded_at: 0,
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn a_run_reading_a_discarded_register_before_rewriting_it_is_an_error() {
    // Discard r1; straight run: mov r5, 1; fadd r3, r1, r2 (read before the write); mov r1, 5.
    let code = [
        fadd(0, 1, DISCARD32, 2),
        mov32(5, 1),
        fadd(3, 1, 0b1001, 2),
        mov32(1, 5),
    ]
    .concat();
    let read_at = (fadd(0, 1, DISCARD32, 2).len() + mov32(5, 1).len()) as u32;
    let e = run_err(&code, u32::MAX, |_| {});
    assert_eq!(e.pc, read_at);
    assert_eq!(
        e.kind,
        ExecErrorKind::ReadAfterDiscard {
            thread: 0,
            register: Reg::R32(1),
            discarded_at: 0
        }
    );
}

#[test]
fn a_run_under_a_partial_mask_clears_the_poison_of_its_threads_only() {
    // Discard r1 with every thread; if r4 < 4 (threads 0-3): straight run mov r1, 9;
    // fadd r3, r1, r2; pop; then fadd r6, r1, r2 with every thread: thread 4 never rewrote r1.
    let code = [
        fadd(0, 1, DISCARD32, 2),
        enc(Opcode::MovImm16, &[("D", 0), ("Dt", 0), ("imm16", 0)]),
        enc(
            Opcode::IfIcmp,
            &[
                ("cc", 0b001),
                ("n", 1),
                ("A", 8),
                ("At", 9),
                ("B", 4),
                ("Bt", 0),
            ],
        ),
        mov32(1, 9),
        fadd(3, 1, 0b1001, 2),
        enc(Opcode::PopExec, &[("n", 1)]),
        fadd(6, 1, 0b1001, 2),
    ]
    .concat();
    let read_at = (code.len() - 6) as u32;
    let e = run_err(&code, u32::MAX, |g| set32(g, 4, |l| l as u32));
    assert_eq!(e.pc, read_at);
    assert_eq!(
        e.kind,
        ExecErrorKind::ReadAfterDiscard {
            thread: 4,
            register: Reg::R32(1),
            discarded_at: 0
        }
    );
}

#[test]
fn uninitialized_registers_written_first_in_a_run_are_fine_and_others_reported() {
    // With the uninitialized-read check every half starts poisoned: a run writing r1 and r3
    // before reading them runs; a read of never-written r2 is reported.
    let mut env = Env::default();
    env.config.check_uninitialized = true;
    let fine = [mov32(1, 3), mov32(3, 4), fadd(5, 1, 0b1001, 3)].concat();
    let g = env.run(&fine, u32::MAX, |_| {}).expect("runs");
    assert_eq!(get32(&g, 1, 0), 3);
    let bad = [mov32(1, 3), mov32(3, 4), fadd(5, 1, 0b1001, 2)].concat();
    match env.run(&bad, u32::MAX, |_| {}) {
        Err(Error::Exec(e)) => {
            assert_eq!(e.pc, 2 * mov32(1, 3).len() as u32);
            assert_eq!(
                e.kind,
                ExecErrorKind::UninitializedRead {
                    thread: 0,
                    register: Reg::R32(2)
                }
            );
        }
        other => panic!("expected an uninitialized read, got {other:?}"),
    }
}
