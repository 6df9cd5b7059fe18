//! `atomic` and `local_atomic`: every operation's arithmetic, the lane order of a SIMD-group's
//! read-modify-writes, result registers (wanted or not, pending on the wait slot), faults and
//! the encodings the decoder rejects. Expected values are worked out by hand in the comments.

use super::asm::enc;
use super::harness::{get32, set16, set32, Env};
use crate::decode::decode_one;
use crate::encoding::Opcode;
use crate::error::{DecodeErrorKind, Error, ExecErrorKind};

/// `atomic op` on u0_u1 at word index r1 (sign-extended), value from r8 (r8, r9 for
/// cmpxchg), result into r4 when `result`, wait slot 0.
fn device(op: u64, result: bool) -> Vec<u8> {
    enc(
        Opcode::Atomic,
        &[
            ("op", op),
            ("R", if result { 8 } else { 0 }),
            ("Rt", u64::from(result)),
            ("At", 1),
            ("Ol", 2),
            ("S", 16),
        ],
    )
}

/// `local_atomic op` at immediate base 0 and word index r2l, value r8 (r8, r9), result r4.
fn local(op: u64, result: bool) -> Vec<u8> {
    enc(
        Opcode::LocalAtomic,
        &[
            ("op", op),
            ("R", if result { 8 } else { 0 }),
            ("Rt", u64::from(result)),
            ("Ra", u64::from(result)),
            ("At", 2),
            ("O", 4),
            ("S", 16),
        ],
    )
}

fn wait() -> Vec<u8> {
    enc(Opcode::Wait, &[("i", 0)])
}

/// An environment with a 64-byte buffer holding `words` at u0_u1.
fn env(words: &[u32]) -> (Env, u64) {
    let mut env = Env::default();
    let addr = env.memory.alloc(64, 16).expect("alloc");
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    env.memory.write(addr, &bytes).expect("write");
    env.uniforms[0] = addr as u32;
    env.uniforms[1] = (addr >> 32) as u32;
    (env, addr)
}

fn word(env: &Env, addr: u64, index: u64) -> u32 {
    let b = env.memory.read(addr + 4 * index, 4).expect("read");
    u32::from_le_bytes([b[0], b[1], b[2], b[3]])
}

#[test]
fn device_add_runs_lanes_in_ascending_order() {
    // Every lane adds lane + 1 to word 3 (100): lane l sees 100 + (1 + .. + l) = 100 +
    // l(l+1)/2, and the word ends at 100 + 32 * 33 / 2 = 628.
    let (mut env, addr) = env(&[0, 0, 0, 100]);
    let code = [device(0, true), wait()].concat();
    let g = env
        .run(&code, u32::MAX, |g| {
            set32(g, 1, |_| 3);
            set32(g, 8, |l| l as u32 + 1);
        })
        .expect("runs");
    for l in 0..32u32 {
        assert_eq!(get32(&g, 4, l as usize), 100 + l * (l + 1) / 2, "lane {l}");
    }
    assert_eq!(word(&env, addr, 3), 628);
}

#[test]
fn each_operation_computes_its_new_word() {
    // One lane, word 0 = 0xffff_fff0 (-16 signed), value 5 (cmpxchg: new 5, comparand r9).
    let old = 0xffff_fff0u32;
    let cases: [(u64, u32, u32); 12] = [
        (0, 0, 0xffff_fff5),  // add
        (1, 0, 0xffff_ffeb),  // sub
        (2, 0, 5),            // xchg
        (3, old, 5),          // cmpxchg, comparand equal: swaps
        (3, 7, old),          // cmpxchg, comparand differs: keeps
        (4, 0, 5),            // umin(0xfffffff0, 5)
        (5, 0, old),          // imin(-16, 5)
        (6, 0, old),          // umax
        (7, 0, 5),            // imax
        (8, 0, 0),            // and: 0xfffffff0 & 5
        (9, 0, 0xffff_fff5),  // or
        (10, 0, 0xffff_fff5), // xor
    ];
    for (op, comparand, expected) in cases {
        let (mut env, addr) = env(&[old]);
        let code = [device(op, true), wait()].concat();
        let g = env
            .run(&code, 1, |g| {
                set32(g, 1, |_| 0);
                set32(g, 8, |_| 5);
                set32(g, 9, |_| comparand);
            })
            .expect("runs");
        assert_eq!(word(&env, addr, 0), expected, "op {op}");
        assert_eq!(get32(&g, 4, 0), old, "op {op} returns the old word");
    }
}

#[test]
fn device_result_is_pending_until_wait() {
    let (mut env, _) = env(&[0]);
    let read_r4 = enc(
        Opcode::Iadd,
        &[
            ("D", 12),
            ("Dt", 2),
            ("A", 8),
            ("At", 9),
            ("B", 0),
            ("Bt", 0),
        ],
    );
    let code = [device(0, true), read_r4].concat();
    match env.run(&code, 1, |g| {
        set32(g, 1, |_| 0);
        set32(g, 8, |_| 1);
    }) {
        Err(Error::Exec(e)) => assert!(
            matches!(e.kind, ExecErrorKind::UnwaitedLoad { slot: 0, .. }),
            "{:?}",
            e.kind
        ),
        other => panic!("expected an unwaited-load error: {:?}", other.err()),
    }
}

#[test]
fn local_xor_and_unwanted_results() {
    // Lane l xors 1 << l into threadgroup word 2: it sees the bits of the lanes below it,
    // (1 << l) - 1, and the word ends all ones.
    let mut env = Env::default();
    let g = env
        .run(&local(10, true), u32::MAX, |g| {
            set16(g, 4, |_| 2);
            set32(g, 8, |l| 1 << l);
        })
        .expect("runs");
    for l in 0..32usize {
        assert_eq!(get32(&g, 4, l), ((1u64 << l) - 1) as u32, "lane {l}");
    }
    assert_eq!(&env.tg[8..12], &[0xff; 4]);
    // Without a result, r4 keeps its value; cmpxchg swaps 0xffffffff for 9 in lane 0 only.
    let g = env
        .run(&local(3, false), u32::MAX, |g| {
            set16(g, 4, |_| 2);
            set32(g, 4, |_| 77);
            set32(g, 8, |l| 9 + l as u32);
            set32(g, 9, |_| u32::MAX);
        })
        .expect("runs");
    assert_eq!(&env.tg[8..12], &9u32.to_le_bytes());
    assert!((0..32).all(|l| get32(&g, 4, l) == 77));
}

#[test]
fn out_of_range_words_fault() {
    // Word 64 is byte 256, past the 256-byte threadgroup memory.
    match Env::default().run(&local(0, true), 1, |g| {
        set16(g, 4, |_| 64);
        set32(g, 8, |_| 1);
    }) {
        Err(Error::Exec(e)) => assert_eq!(
            e.kind,
            ExecErrorKind::ThreadgroupFault {
                thread: 0,
                access: "atomic",
                offset: 256,
                len: 4,
                size: 256
            }
        ),
        other => panic!("expected a fault: {:?}", other.err()),
    }
    // Word 16 is byte 64, past the 64-byte buffer.
    let (mut buffer, addr) = env(&[0]);
    match buffer.run(&device(0, true), 1, |g| {
        set32(g, 1, |_| 16);
        set32(g, 8, |_| 1);
    }) {
        Err(Error::Exec(e)) => assert_eq!(
            e.kind,
            ExecErrorKind::DeviceFault {
                thread: 0,
                access: "atomic",
                address: addr + 64,
                len: 4
            }
        ),
        other => panic!("expected a fault: {:?}", other.err()),
    }
}

#[test]
fn undefined_encodings_are_rejected() {
    let rejected = |code: Vec<u8>| match decode_one(&code, 0) {
        Err(e) => e.kind,
        Ok(d) => panic!("{d} decoded"),
    };
    // op 11 is not an operation.
    let code = enc(Opcode::Atomic, &[("op", 11), ("S", 2)]);
    assert!(matches!(
        rejected(code),
        DecodeErrorKind::Unsupported {
            field: "op",
            value: 11,
            ..
        }
    ));
    // Mesa's G13X coherency bit.
    let code = enc(Opcode::Atomic, &[("u5", 1), ("S", 2)]);
    assert!(matches!(
        rejected(code),
        DecodeErrorKind::Unsupported { field: "u5", .. }
    ));
    // A value register past r127, an odd one, and a result register without its wanted bit.
    let code = enc(Opcode::LocalAtomic, &[("S", 0x100)]);
    assert!(matches!(
        rejected(code),
        DecodeErrorKind::UndefinedOperand { operand: "S", .. }
    ));
    let code = enc(Opcode::LocalAtomic, &[("S", 3)]);
    assert!(matches!(
        rejected(code),
        DecodeErrorKind::UndefinedOperand { operand: "S", .. }
    ));
    let code = enc(Opcode::Atomic, &[("R", 8), ("S", 2)]);
    assert!(matches!(
        rejected(code),
        DecodeErrorKind::UndefinedOperand { operand: "R", .. }
    ));
}
