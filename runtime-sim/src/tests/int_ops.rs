//! Integer semantics, with expected values worked out by hand from the document's pseudocode.

use super::asm::{alu1, alu2, alu3, d16, d32, enc, operand::*, split};
use super::harness::{get16, get32, run, set16, set32};
use crate::encoding::Opcode;

/// Runs `code` with r1 = a, r2 = b, r3 = c in lane `l` (tables repeat) and returns r0.
fn run_int(code: &[u8], a: &[u32], b: &[u32], c: &[u32]) -> Vec<u32> {
    let g = run(code, |g| {
        set32(g, 1, |l| a[l % a.len()]);
        set32(g, 2, |l| b[l % b.len()]);
        set32(g, 3, |l| c[l % c.len()]);
    });
    (0..a.len().max(b.len()).max(c.len()))
        .map(|l| get32(&g, 0, l))
        .collect()
}

fn with(
    mut fields: Vec<(&'static str, u64)>,
    extra: &[(&'static str, u64)],
) -> Vec<(&'static str, u64)> {
    fields.extend_from_slice(extra);
    fields
}

#[test]
fn iadd_wraps_negates_shifts_and_saturates() {
    let base = alu2(d32(0), r32(1), r32(2));
    let plain = enc(Opcode::Iadd, &base);
    assert_eq!(run_int(&plain, &[0xffff_ffff, 3], &[1, 4], &[0]), [0, 7]);
    let neg = enc(Opcode::Iadd, &with(base.clone(), &[("N", 1)]));
    assert_eq!(run_int(&neg, &[5], &[7], &[0]), [0xffff_fffe]);
    // shift = s2:s1: 1 -> b << 1; 5 (s2 = 2, s1 = 1) -> b is 0.
    let shl1 = enc(Opcode::Iadd, &with(base.clone(), &[("s1", 1)]));
    assert_eq!(run_int(&shl1, &[10], &[3], &[0]), [16]);
    let shl5 = enc(Opcode::Iadd, &with(base.clone(), &[("s1", 1), ("s2", 2)]));
    assert_eq!(run_int(&shl5, &[10], &[3], &[0]), [10]);
    // Unsigned saturation.
    let sat = enc(Opcode::Iadd, &with(base.clone(), &[("S", 1)]));
    assert_eq!(
        run_int(&sat, &[0xffff_ffff, 3], &[1, 4], &[0]),
        [0xffff_ffff, 7]
    );
    // Signed saturation (either source sign-extended makes it signed).
    let ssat = enc(
        Opcode::Iadd,
        &with(base.clone(), &[("S", 1), ("As", 1), ("Bs", 1)]),
    );
    assert_eq!(
        run_int(
            &ssat,
            &[0x7fff_ffff, 0x8000_0000, (-5i32) as u32],
            &[1, 0xffff_ffff, 3],
            &[0]
        ),
        [0x7fff_ffff, 0x8000_0000, (-2i32) as u32]
    );
}

#[test]
fn iadd_with_64_bit_destination_and_16_bit_operands() {
    // D = value 9 with Dt = 2: the 64-bit pair r4_r5.
    let mut f = alu2((9, 2), r32(1), r32(2));
    let zext = enc(Opcode::Iadd, &f);
    let g = run(&zext, |g| {
        set32(g, 1, |_| 0xffff_ffff);
        set32(g, 2, |_| 0x10);
    });
    assert_eq!(
        (get32(&g, 4, 0), get32(&g, 5, 0)),
        (0xf, 1),
        "0xffffffff + 0x10 = 0x1_0000_000f"
    );
    f.push(("As", 1));
    let sext = enc(Opcode::Iadd, &f);
    let g = run(&sext, |g| {
        set32(g, 1, |_| 0xffff_ffff);
        set32(g, 2, |_| 0x10);
    });
    assert_eq!((get32(&g, 4, 0), get32(&g, 5, 0)), (15, 0), "-1 + 16 = 15");

    // A 16-bit destination keeps the low half; with S it saturates to 16 bits.
    let trunc = enc(Opcode::Iadd, &alu2(d16(0), r32(1), imm(1)));
    let g = run(&trunc, |g| set32(g, 1, |_| 0x12345));
    assert_eq!(get16(&g, 0, 0), 0x2346);
    let sat16 = enc(
        Opcode::Iadd,
        &with(alu2(d16(0), r32(1), imm(1)), &[("S", 1)]),
    );
    let g = run(&sat16, |g| set32(g, 1, |_| 0xffff));
    assert_eq!(get16(&g, 0, 0), 0xffff);
    // A sign-extended 16-bit source.
    let sx = enc(
        Opcode::Iadd,
        &with(alu2(d32(0), r16(4), imm(0)), &[("As", 1)]),
    );
    let g = run(&sx, |g| set16(g, 4, |_| 0x8000));
    assert_eq!(get32(&g, 0, 0), 0xffff_8000);
}

#[test]
fn imadd_multiplies_adds_and_saturates() {
    let base = alu3(d32(0), r32(1), r32(2), r32(3));
    let plain = enc(Opcode::Imadd, &base);
    assert_eq!(run_int(&plain, &[3], &[4], &[5]), [17]);
    let neg = enc(Opcode::Imadd, &with(base.clone(), &[("N", 1)]));
    assert_eq!(run_int(&neg, &[3], &[4], &[5]), [7]);
    let shifted = enc(Opcode::Imadd, &with(base.clone(), &[("s2", 1)]));
    assert_eq!(run_int(&shifted, &[2], &[3], &[5]), [2 * 3 + (5 << 2)]);
    let ssat = enc(
        Opcode::Imadd,
        &with(base.clone(), &[("S", 1), ("As", 1), ("Bs", 1)]),
    );
    assert_eq!(run_int(&ssat, &[0x4000_0000], &[4], &[0]), [0x7fff_ffff]);
    // 64-bit destination: signed -3 * 4 + 5 = -7; unsigned 0xfffffffd * 4 + 5 = 0x3_ffff_fff9.
    let d64 = alu3((9, 2), r32(1), r32(2), r32(3));
    for (signed, expect) in [(true, 0xffff_ffff_ffff_fff9u64), (false, 0x3_ffff_fff9)] {
        let code = enc(
            Opcode::Imadd,
            &with(d64.clone(), &[("As", u64::from(signed))]),
        );
        let g = run(&code, |g| {
            set32(g, 1, |_| (-3i32) as u32);
            set32(g, 2, |_| 4);
            set32(g, 3, |_| 5);
        });
        let got = u64::from(get32(&g, 4, 0)) | u64::from(get32(&g, 5, 0)) << 32;
        assert_eq!(got, expect, "signed {signed}");
    }
}

#[test]
fn imadd_with_64_bit_destination_in_a_straight_run() {
    // The fast engine's `Imadd64` (the mulhi of a division by a constant), in a run of three
    // with every extension, negation and shift the encoding has: the harness compares the
    // reference, the fast engine and the fast engine with the run compiled, bit for bit.
    let d64 = |d: u64| (2 * d + 1, 2);
    for (sx, neg, s2) in [(0, 0, 0), (1, 0, 0), (0, 1, 1), (1, 1, 2), (0, 0, 3)] {
        let ext = [("As", sx), ("Bs", sx), ("Cs", sx), ("N", neg), ("s2", s2)];
        let mut code = enc(
            Opcode::Imadd,
            &with(alu3(d64(4), r32(1), r32(2), r32(3)), &ext),
        );
        code.extend(enc(
            Opcode::Imadd,
            &with(alu3(d64(6), r16(2), imm(0x7b), r32(5)), &ext),
        ));
        code.extend(enc(Opcode::Iadd, &alu2(d32(8), r32(5), r32(7))));
        let g = run(&code, |g| {
            set32(g, 1, |l| 0x9e37_79b9u32.wrapping_mul(l as u32 + 1));
            set32(g, 2, |l| 0x8000_0000 | (l as u32 * 0x0101_0101));
            set32(g, 3, |l| (l as u32).wrapping_sub(16));
        });
        let a = 0x9e37_79b9u32;
        let ext64 = |v: u32| {
            if sx == 1 {
                v as i32 as i64 as u64
            } else {
                u64::from(v)
            }
        };
        let c = ext64(16u32.wrapping_neg());
        let c = if neg == 1 { c.wrapping_neg() } else { c };
        // `s2` is the shift's high bits: shifts 0, 2, 4, 6 (the last shifts everything out).
        let c = if 2 * s2 < 5 { c << (2 * s2) } else { 0 };
        let want = ext64(a).wrapping_mul(ext64(0x8000_0000)).wrapping_add(c);
        let got = u64::from(get32(&g, 4, 0)) | u64::from(get32(&g, 5, 0)) << 32;
        assert_eq!(got, want, "sx {sx} neg {neg} s2 {s2}");
    }
}

fn convert(mode: u64, round: u64, dst: (u64, u64), src: (u64, u64)) -> Vec<u8> {
    let (d, dx) = split(dst.0);
    let (s, sx) = split(src.0);
    enc(
        Opcode::Convert,
        &[
            ("D", d),
            ("Dx", dx),
            ("Dt", dst.1),
            ("mode", mode),
            ("round", round),
            ("src", s),
            ("srcx", sx),
            ("srct", src.1),
        ],
    )
}

#[test]
fn convert_float_to_integer_rounds_clamps_and_zeroes_nan() {
    let f = |x: f32| x.to_bits();
    let inputs = [
        f(-1.7),
        f(2.5),
        f(f32::NAN),
        f(1e10),
        f(-1e10),
        f(3.5),
        f(-2.5),
    ];
    let rtz = run_int(&convert(9, 0, d32(0), r32(1)), &inputs, &[0], &[0]);
    assert_eq!(
        rtz,
        [
            (-1i32) as u32,
            2,
            0,
            0x7fff_ffff,
            0x8000_0000,
            3,
            (-2i32) as u32
        ]
    );
    let rte = run_int(&convert(9, 1, d32(0), r32(1)), &inputs, &[0], &[0]);
    assert_eq!(
        rte,
        [
            (-2i32) as u32,
            2,
            0,
            0x7fff_ffff,
            0x8000_0000,
            4,
            (-2i32) as u32
        ]
    );
    let u32s = run_int(
        &convert(8, 0, d32(0), r32(1)),
        &[f(-5.0), f(4294967296.0), f(3.9)],
        &[0],
        &[0],
    );
    assert_eq!(u32s, [0, 0xffff_ffff, 3]);
    let u16s = run_int(
        &convert(4, 0, d32(0), r32(1)),
        &[f(70000.0), f(-1.0)],
        &[0],
        &[0],
    );
    assert_eq!(u16s, [65535, 0]);
    let s16s = run_int(
        &convert(5, 0, d32(0), r32(1)),
        &[f(-40000.0), f(100.9)],
        &[0],
        &[0],
    );
    assert_eq!(s16s, [(-32768i32) as u32, 100]);
}

#[test]
fn convert_integer_to_float_honours_the_rounding_bit() {
    // 2^24 + 3 lies between f32 values 2^24 + 2 and 2^24 + 4: nearest-even is 2^24 + 4.
    let x = (1 << 24) + 3;
    let rte = run_int(
        &convert(10, 1, d32(0), r32(1)),
        &[x, (-1i32) as u32],
        &[0],
        &[0],
    );
    assert_eq!(f32::from_bits(rte[0]), 16_777_220.0);
    let rtz = run_int(&convert(10, 0, d32(0), r32(1)), &[x], &[0], &[0]);
    assert_eq!(f32::from_bits(rtz[0]), 16_777_218.0);
    let signed = run_int(
        &convert(11, 1, d32(0), r32(1)),
        &[(-1i32) as u32],
        &[0],
        &[0],
    );
    assert_eq!(f32::from_bits(signed[0]), -1.0);
    let u8f = run_int(&convert(0, 1, d32(0), r32(1)), &[0x1ff], &[0], &[0]);
    assert_eq!(f32::from_bits(u8f[0]), 255.0, "u8 takes the low 8 bits");
    let s8f = run_int(&convert(1, 1, d32(0), r32(1)), &[0x80], &[0], &[0]);
    assert_eq!(f32::from_bits(s8f[0]), -128.0);
    // To a 16-bit destination: 4099 rounds to 4100 (nearest) or 4096 (toward zero) in f16.
    for (round, expect) in [
        (1, half::f16::from_f32(4099.0)),
        (0, half::f16::from_f32(4096.0)),
    ] {
        let code = convert(6, round, d16(0), r32(1));
        let g = run(&code, |g| set32(g, 1, |_| 4099));
        assert_eq!(get16(&g, 0, 0), expect.to_bits(), "round {round}");
    }
    let s16 = convert(7, 1, d32(0), r32(1));
    let g = run(&s16, |g| set32(g, 1, |_| 0xfffe));
    assert_eq!(f32::from_bits(get32(&g, 0, 0)), -2.0);
}

#[test]
fn bitfield_family() {
    let code = |op, m: u64| {
        let f = alu3(d32(0), r32(1), r32(2), r32(3));
        enc(
            op,
            &with(f, &[("m1", m & 3), ("m2", (m >> 2) & 3), ("m3", m >> 4)]),
        )
    };
    // bfi: (a & ~(mask << s)) | ((b & mask) << s).
    assert_eq!(
        run_int(&code(Opcode::Bfi, 3), &[0xffff_ffff], &[5], &[4]),
        [0xffff_ffdf]
    );
    assert_eq!(
        run_int(&code(Opcode::Bfi, 0), &[0x1234_5678], &[0xabcd], &[8]),
        [0x00ab_cd78]
    );
    // bfeil: (a & ~mask) | ((b >> s) & mask).
    assert_eq!(
        run_int(
            &code(Opcode::Bfeil, 8),
            &[0xffff_ffff],
            &[0x1234_5678],
            &[8]
        ),
        [0xffff_ff56]
    );
    // extr: ((b:a) >> s) & mask.
    assert_eq!(
        run_int(
            &code(Opcode::Extr, 0),
            &[0x89ab_cdef, 0x89ab_cdef],
            &[0x0123_4567, 0x0123_4567],
            &[4, 40]
        ),
        [0x789a_bcde, 0x0001_2345]
    );
    // shlhi: ((b << s) >> 32) under mask << max(s - 32, 0), inserted into a.
    assert_eq!(
        run_int(
            &code(Opcode::Shlhi, 0),
            &[0, 0],
            &[0x8000_0001, 0x8000_0001],
            &[1, 4]
        ),
        [1, 8]
    );
    assert_eq!(
        run_int(
            &code(Opcode::Shlhi, 8),
            &[0xffff_ffff],
            &[0x8000_0001],
            &[36]
        ),
        [0xffff_f01f]
    );
    // shrhi: ((b << 32) >> s) under (mask << 32) >> min(s, 32), inserted into a.
    assert_eq!(
        run_int(&code(Opcode::Shrhi, 0), &[0], &[0x8000_0001], &[1]),
        [0x8000_0000]
    );
    assert_eq!(
        run_int(
            &code(Opcode::Shrhi, 8),
            &[0xffff_ffff],
            &[0x8000_0001],
            &[4]
        ),
        [0x1fff_ffff]
    );
}

#[test]
fn arithmetic_shifts() {
    let asr = enc(Opcode::Asr, &alu2(d32(0), r32(1), r32(2)));
    assert_eq!(
        run_int(&asr, &[0x8000_0000, (-8i32) as u32, 5], &[4, 1, 127], &[0]),
        [0xf800_0000, (-4i32) as u32, 0]
    );
    let g = run(&enc(Opcode::Asr, &alu2(d32(0), r16(8), imm(4))), |g| {
        set16(g, 8, |_| 0x8000)
    });
    assert_eq!(
        get32(&g, 0, 0),
        0xffff_f800,
        "a 16-bit source is sign-extended from 16 bits"
    );
    // asrh: (sign_extend(a) << 32) >> s, low 32 bits.
    let asrh = enc(Opcode::Asrh, &alu2(d32(0), r32(1), r32(2)));
    assert_eq!(
        run_int(&asrh, &[0x8000_0001, 0x8000_0001], &[4, 40], &[0]),
        [0x1000_0000, 0xff80_0000]
    );
}

#[test]
fn bitop_truth_tables() {
    let code = |t: u64| {
        let f = alu2(d32(0), r32(1), r32(2));
        enc(
            Opcode::Bitop,
            &with(
                f,
                &[
                    ("tt0", t & 1),
                    ("tt1", t >> 1 & 1),
                    ("tt2", t >> 2 & 1),
                    ("tt3", t >> 3),
                ],
            ),
        )
    };
    let (a, b) = (0b1100u32, 0b1010u32);
    let cases = [
        (0b1000, a & b),
        (0b1110, a | b),
        (0b0110, a ^ b),
        (0b0001, !(a | b)),
        (0b0010, a & !b),
        (0b0101, !a),
        (0b0000, 0),
        (0b1111, u32::MAX),
        // Tables that depend only on b are UNDEFINED; the hardware returns a.
        (0b1100, a),
        (0b0011, a),
    ];
    for (t, expect) in cases {
        assert_eq!(
            run_int(&code(t), &[a], &[b], &[0]),
            [expect],
            "table {t:#06b}"
        );
    }
}

#[test]
fn bit_counting() {
    let bitrev = enc(Opcode::Bitrev, &alu1(d32(0), r32(1)));
    assert_eq!(
        run_int(&bitrev, &[1, 0x1234_5678], &[0], &[0]),
        [0x8000_0000, 0x1e6a_2c48]
    );
    let popcount = enc(Opcode::Popcount, &alu1(d32(0), r32(1)));
    assert_eq!(
        run_int(&popcount, &[0xffff_ffff, 0x1234_5678, 0], &[0], &[0]),
        [32, 13, 0]
    );
    // ffs scans from bit 31 down (the document's pseudocode): the highest set bit, -1 if none.
    let ffs = enc(Opcode::Ffs, &alu1(d32(0), r32(1)));
    assert_eq!(
        run_int(&ffs, &[0, 1, 0x8000_0000, 0xf0], &[0], &[0]),
        [u32::MAX, 0, 31, 7]
    );
}

#[test]
fn mov_imm_writes_only_its_destination() {
    let code = [
        enc(
            Opcode::MovImm32,
            &[("D", 0), ("Dt", 2), ("imm32", 0x1234_5678)],
        ),
        enc(Opcode::MovImm16, &[("D", 1), ("Dt", 0), ("imm16", 0xbeef)]),
    ]
    .concat();
    let g = run(&code, |_| {});
    assert_eq!(get32(&g, 0, 5), 0xbeef_5678, "r0h replaced, r0l kept");
}

fn sel(op: Opcode, cc: u64) -> Vec<u8> {
    let mut f = alu2(d32(0), r32(1), r32(2));
    f.extend([("X", 6), ("Xt", 1), ("Y", 8), ("Yt", 1), ("cc", cc)]);
    enc(op, &f)
}

/// Lane result of a select: 1 when X (r3 = 1) was chosen, 2 for Y (r4 = 2).
fn select(code: &[u8], a: &[u32], b: &[u32]) -> Vec<u32> {
    let g = run(code, |g| {
        set32(g, 1, |l| a[l % a.len()]);
        set32(g, 2, |l| b[l % b.len()]);
        set32(g, 3, |_| 1);
        set32(g, 4, |_| 2);
    });
    (0..a.len()).map(|l| get32(&g, 0, l)).collect()
}

#[test]
fn icmpsel_compares_signed_and_unsigned() {
    let a = [u32::MAX, 1, 7];
    let b = [1, u32::MAX, 7];
    assert_eq!(
        select(&sel(Opcode::Icmpsel, 0b101), &a, &b),
        [1, 2, 2],
        "slt"
    );
    assert_eq!(
        select(&sel(Opcode::Icmpsel, 0b001), &a, &b),
        [2, 1, 2],
        "ult"
    );
    assert_eq!(
        select(&sel(Opcode::Icmpsel, 0b110), &a, &b),
        [2, 1, 2],
        "sgt"
    );
    assert_eq!(
        select(&sel(Opcode::Icmpsel, 0b000), &a, &b),
        [2, 2, 1],
        "eq"
    );
}

#[test]
fn fcmpsel_uses_the_corrected_condition_codes() {
    let f = |x: f32| x.to_bits();
    let a = [f(2.0), f(1.0), f(f32::NAN), f(1.0)];
    let b = [f(1.0), f(2.0), f(1.0), f(1.0)];
    // docs/g13.md: 5 is >=, 6 is <=.
    assert_eq!(select(&sel(Opcode::Fcmpsel, 5), &a, &b), [1, 2, 2, 1], ">=");
    assert_eq!(select(&sel(Opcode::Fcmpsel, 6), &a, &b), [2, 1, 2, 1], "<=");
    assert_eq!(select(&sel(Opcode::Fcmpsel, 1), &a, &b), [2, 1, 2, 2], "<");
    assert_eq!(select(&sel(Opcode::Fcmpsel, 2), &a, &b), [1, 2, 2, 2], ">");
    assert_eq!(select(&sel(Opcode::Fcmpsel, 0), &a, &b), [2, 2, 2, 1], "==");
}

#[test]
fn nan_loses_comparisons_implement_min_and_max() {
    // fcmpsel ltn, a, b, a, b is min(a, b) with a NaN operand losing.
    let code = |cc| {
        let mut f = alu2(d32(0), r32(1), r32(2));
        f.extend([("X", 2), ("Xt", 1), ("Y", 4), ("Yt", 1), ("cc", cc)]);
        enc(Opcode::Fcmpsel, &f)
    };
    let f = |x: f32| x.to_bits();
    let a = [f(f32::NAN), f(2.0), f(1.0), f(5.0)];
    let b = [f(3.0), f(f32::NAN), f(2.0), f(-5.0)];
    assert_eq!(
        run_int(&code(3), &a, &b, &[0]),
        [f(3.0), f(2.0), f(1.0), f(-5.0)],
        "min"
    );
    assert_eq!(
        run_int(&code(7), &a, &b, &[0]),
        [f(3.0), f(2.0), f(2.0), f(5.0)],
        "max"
    );
}
