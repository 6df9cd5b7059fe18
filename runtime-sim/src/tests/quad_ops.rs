//! Ballots and shuffles, against the document's pseudocode (and this simulator's definitions
//! where the document says `TODO()`).

use super::asm::{alu2, d32, enc, operand::*};
use super::harness::{get32, run, set32, Env};
use crate::encoding::Opcode;

fn ballot(op: Opcode, cc: u64, b: (u64, u64)) -> Vec<u8> {
    let mut f = alu2(d32(0), r32(1), b);
    f.push(("cc", cc));
    enc(op, &f)
}

#[test]
fn ballots_collect_active_threads_whose_comparison_holds() {
    // Even lanes: r1 = lane % 2 == 0.
    let g = run(&ballot(Opcode::IcmpBallot, 0b000, imm(0)), |g| {
        set32(g, 1, |l| (l % 2) as u32)
    });
    assert!((0..32).all(|l| get32(&g, 0, l) == 0x5555_5555));
    // Only the 16 existing threads count (and receive the result).
    let g = Env::default()
        .run(&ballot(Opcode::IcmpBallot, 0b001, imm(20)), 0xffff, |g| {
            set32(g, 1, |l| l as u32)
        })
        .expect("runs");
    assert_eq!(get32(&g, 0, 0), 0xffff);
    assert_eq!(
        get32(&g, 0, 16),
        0,
        "threads that do not exist are not written"
    );
    // Quad ballot: each thread gets its quad's 4 bits.
    let g = run(&ballot(Opcode::IcmpQuadBallot, 0b000, imm(0)), |g| {
        set32(g, 1, |l| (l % 2) as u32)
    });
    assert!((0..32).all(|l| get32(&g, 0, l) == 0b0101));
    // fcmp_ballot gt 0.5 on r1 = lane % 3.
    let g = run(&ballot(Opcode::FcmpBallot, 0b010, imm(0x20)), |g| {
        set32(g, 1, |l| ((l % 3) as f32).to_bits())
    });
    let expect = (0..32).filter(|l| l % 3 != 0).fold(0u32, |m, l| m | 1 << l);
    assert_eq!(get32(&g, 0, 7), expect);
    // fcmp_quad_ballot with the inverted condition (ccn): not (r1 > 0.5).
    let mut f = alu2(d32(0), r32(1), imm(0x20));
    f.extend([("cc", 0b010), ("ccn", 1)]);
    let g = run(&enc(Opcode::FcmpQuadBallot, &f), |g| {
        set32(g, 1, |l| ((l % 3) as f32).to_bits())
    });
    for l in 0..32 {
        let quad = l & !3;
        let bits = (0..4)
            .filter(|j| (quad + j) % 3 == 0)
            .fold(0, |m, j| m | 1 << j);
        assert_eq!(get32(&g, 0, l), bits, "lane {l}");
    }
}

#[test]
fn simd_shuffle_broadcasts_and_keeps_the_documented_quad_quirk() {
    let a = |l: usize| 100 + l as u32;
    // Broadcast: every thread reads A[5].
    let code = enc(Opcode::SimdShuffle, &alu2(d32(0), r32(1), imm(5)));
    let g = run(&code, |g| set32(g, 1, a));
    assert!((0..32).all(|l| get32(&g, 0, l) == a(5)));
    // B = lane ^ 1 per thread: each quad ORs B & 3 over its threads (1 | 0 | 3 | 2 = 3), so every
    // thread of quad q reads A[4q + 3] (the document's pseudocode, not a general permute).
    let code = enc(Opcode::SimdShuffle, &alu2(d32(0), r32(1), r16(4)));
    let g = run(&code, |g| {
        set32(g, 1, a);
        set32(g, 2, |l| (l ^ 1) as u32);
        set32(g, 0, |_| 7);
    });
    assert!((0..32).all(|l| get32(&g, 0, l) == a((l & !3) + 3)));
    // Threads whose B is 32 or more are not written.
    let g = run(&code, |g| {
        set32(g, 1, a);
        set32(g, 2, |l| if l == 9 { 40 } else { 0 });
        set32(g, 0, |_| 7);
    });
    assert_eq!(get32(&g, 0, 9), 7);
    assert_eq!(
        get32(&g, 0, 8),
        a(0),
        "b = 0 reads quad 0, whose threads OR to index 0"
    );
}

#[test]
fn simd_shuffle_down_reads_higher_threads() {
    let code = enc(Opcode::SimdShuffleDown, &alu2(d32(0), r32(1), imm(3)));
    let g = run(&code, |g| set32(g, 1, |l| 100 + l as u32));
    for l in 0..32 {
        let src = if l + 3 < 32 { l + 3 } else { l };
        assert_eq!(get32(&g, 0, l), 100 + src as u32, "lane {l}");
    }
}

#[test]
fn iadd_with_a_64_bit_source() {
    // iadd r4_r5, r2_r3, 1 with r2_r3 = 0xffffffff: the carry reaches r5.
    let code = enc(Opcode::Iadd, &alu2((9, 2), (4, 0b1101), imm(1)));
    let g = run(&code, |g| {
        set32(g, 2, |_| u32::MAX);
        set32(g, 3, |_| 0);
    });
    assert_eq!((get32(&g, 4, 0), get32(&g, 5, 0)), (0, 1));
}
