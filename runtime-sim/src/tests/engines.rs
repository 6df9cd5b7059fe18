//! The fast engine against the reference executor on random straight-line ALU code over random
//! register contents: every integer, float, conversion, select and execution-mask form the
//! encoding tables have, with operands drawn from registers holding random bits (NaNs,
//! infinities, denormals, signed zeros and integer extremes often), uniforms and immediates.
//! `Env::run` runs each program on both engines and requires identical registers, checker
//! state, statistics and errors.

use std::sync::atomic::{AtomicUsize, Ordering};

use quickcheck::{QuickCheck, TestResult};

use super::harness::{set32, Env};
use super::robustness::plausible;
use crate::encoding::{encodings, Length, Opcode, Seg};

/// The opcodes drawn: ALU, conversions, selects, ballots and the execution-mask stack.
fn drawn(op: Opcode) -> bool {
    use Opcode::*;
    matches!(
        op,
        MovImm16
            | MovImm32
            | GetSr
            | Iadd
            | Imadd
            | Convert
            | Bitrev
            | Popcount
            | Ffs
            | Bfi
            | Bfeil
            | Extr
            | Shlhi
            | Shrhi
            | Asr
            | Asrh
            | Bitop
            | Fmadd
            | Fmadd16
            | Fadd
            | Fadd16
            | Fmul
            | Fmul16
            | Floor
            | Ceil
            | Trunc
            | Rint
            | Rcp
            | Rsqrt
            | RsqrtSpecial
            | SinPt1
            | SinPt2
            | Log2
            | Exp2
            | PopExec
            | IfIcmp
            | IfFcmp
            | WhileIcmp
            | WhileFcmp
            | ElseIcmp
            | ElseFcmp
            | Icmpsel
            | Fcmpsel
            | IcmpBallot
            | FcmpBallot
    )
}

/// A register value from random bits: often a special float or integer.
fn value(bits: u64) -> u32 {
    const SPECIAL: [u32; 16] = [
        0x7fc0_0000, // NaN
        0x7f80_0001, // signalling NaN
        0x7f80_0000, // +inf
        0xff80_0000, // -inf
        0x8000_0000, // -0
        0x0000_0001, // smallest denormal
        0x807f_ffff, // largest negative denormal
        0x4b00_0000, // 2^23
        0x4f00_0000, // 2^31
        0xcf00_0000, // -2^31
        0x4f80_0000, // 2^32
        0x3f00_0000, // 0.5
        0xbfc0_0000, // -1.5
        0xffff_ffff,
        0x7fff_ffff,
        0x0000_8000,
    ];
    match bits % 4 {
        0 => SPECIAL[(bits >> 8) as usize % SPECIAL.len()],
        1 => ((bits >> 8) as f32 / 65536.0 - 2048.0).to_bits(),
        _ => (bits >> 16) as u32,
    }
}

#[test]
fn the_engines_agree_on_random_alu_code() {
    fn property(picks: Vec<(u8, u64)>, regs: Vec<u64>, live: u32) -> TestResult {
        let all: Vec<_> = encodings().filter(|e| drawn(e.opcode)).collect();
        let mut code = Vec::new();
        for (k, (which, seed)) in picks.iter().take(12).enumerate() {
            let e = all[usize::from(*which) % all.len()];
            let mut bits = u128::from(e.value);
            for (i, seg) in e.segs.iter().enumerate() {
                if let Seg::Field { name, hi, lo, .. } = *seg {
                    let r = seed.rotate_left((7 * i + 3 * k) as u32)
                        ^ (i as u64).wrapping_mul(0x9e37_79b9);
                    // Registers among the first 32, so operands meet the random contents.
                    let v = plausible(name, u32::from(hi - lo + 1), r);
                    let v = match name {
                        "A" | "B" | "C" | "D" | "X" | "Y" => v & 0x3e,
                        // Mostly cache hints rather than discards (type low bits 3), so that
                        // fewer programs stop at the sanitizer before they compute much.
                        "At" | "Bt" | "Ct" | "Xt" | "Yt"
                            if v & 3 == 3 && v >> 2 != 1 && !r.is_multiple_of(8) =>
                        {
                            v ^ 1
                        }
                        _ => v,
                    };
                    bits |= u128::from(v & ((1u64 << (hi - lo + 1).min(63)) - 1)) << lo;
                }
            }
            let len = match e.length {
                Length::Fixed(n) => n,
                Length::LongBit { bit, short, long } => {
                    if bits >> bit & 1 == 1 {
                        long
                    } else {
                        short
                    }
                }
            };
            code.extend_from_slice(&bits.to_le_bytes()[..usize::from(len)]);
        }
        let mut env = Env::default();
        for (i, &r) in regs.iter().enumerate().take(256) {
            env.uniforms[i] = value(r.rotate_left(17));
        }
        // Every thread exists or only some; r0l starts at zero (all active).
        let live = if !live.is_multiple_of(4) {
            u32::MAX
        } else {
            live | 1
        };
        let result = env.run(&code, live, |g| {
            for n in 1..32u8 {
                let seed = regs.get(usize::from(n)).copied().unwrap_or(u64::from(n));
                set32(g, n, |l| {
                    value(seed.wrapping_mul(l as u64 + 1).rotate_left(l as u32))
                });
            }
        });
        if result.is_ok() {
            RAN.fetch_add(1, Ordering::Relaxed);
        }
        TestResult::passed()
    }
    QuickCheck::new()
        .tests(1500)
        .quickcheck(property as fn(Vec<(u8, u64)>, Vec<u64>, u32) -> TestResult);
    // Enough programs must decode and run to the end for the property to compare much (the
    // others compare their errors: sanitizer, undefined special registers and so on).
    assert!(
        RAN.load(Ordering::Relaxed) > 200,
        "{}",
        RAN.load(Ordering::Relaxed)
    );
}

static RAN: AtomicUsize = AtomicUsize::new(0);
