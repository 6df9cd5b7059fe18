//! Float semantics: rounding, flush-to-zero, default NaN, -0, saturate, double rounding, fp16
//! denormals, immediates, the one-source family and quad derivatives. Expected values come from
//! Rust's f32/f64 arithmetic and the `half` crate.

use half::f16;

use super::asm::{alu1, alu2, alu3, d16, d32, enc, operand::*};
use super::harness::{get16, get32, run, set16, set32};
use crate::encoding::Opcode;

/// Runs `code` with r1 = a[lane], r2 = b[lane] (and r3 = c[lane]) as f32 and returns r0.
fn run3(code: &[u8], a: &[f32], b: &[f32], c: &[f32]) -> Vec<u32> {
    let g = run(code, |g| {
        set32(g, 1, |l| a[l % a.len()].to_bits());
        set32(g, 2, |l| b[l % b.len()].to_bits());
        set32(g, 3, |l| c[l % c.len()].to_bits());
    });
    (0..a.len().max(b.len()).max(c.len()))
        .map(|l| get32(&g, 0, l))
        .collect()
}

fn ftz(x: f32) -> f32 {
    if x.is_subnormal() {
        0.0f32.copysign(x)
    } else {
        x
    }
}

/// The expected fp32 result bits: default NaN, flushed denormals.
fn expect32(x: f32) -> u32 {
    if x.is_nan() {
        0x7FC0_0000
    } else {
        ftz(x).to_bits()
    }
}

#[test]
fn fadd32_rounds_flushes_and_returns_the_default_nan() {
    let code = enc(Opcode::Fadd, &alu2(d32(0), r32(1), r32(2)));
    let tiny = f32::from_bits(0x0080_0001); // just above the smallest normal
    let a = [
        1.5,
        -0.0,
        0.0,
        f32::from_bits(0x7F80_0001),
        f32::INFINITY,
        f32::from_bits(1),
        tiny,
        1.0,
        3.0e38,
        0.1,
    ];
    let b = [
        2.25,
        -0.0,
        -0.0,
        1.0,
        f32::NEG_INFINITY,
        0.0,
        -f32::MIN_POSITIVE,
        1.0e-8,
        3.0e38,
        0.2,
    ];
    let r = run3(&code, &a, &b, &[0.0]);
    for l in 0..a.len() {
        // Denormal inputs are flushed first; the host adds with one rounding to nearest even.
        let expect = expect32(ftz(a[l]) + ftz(b[l]));
        assert_eq!(r[l], expect, "lane {l}: {} + {}", a[l], b[l]);
    }
    assert_eq!(r[1], 0x8000_0000, "-0 + -0 is -0");
    assert_eq!(r[2], 0, "+0 + -0 is +0");
    assert_eq!(
        r[3], 0x7FC0_0000,
        "a signalling NaN becomes the default NaN"
    );
    assert_eq!(r[6], 0, "a denormal result flushes to +0");
    assert_eq!(r[8], 0x7F80_0000, "overflow rounds to infinity");
}

#[test]
fn fmul32_and_fmadd32_are_fused_and_correctly_rounded() {
    let fmul = enc(Opcode::Fmul, &alu2(d32(0), r32(1), r32(2)));
    let fma = enc(Opcode::Fmadd, &alu3(d32(0), r32(1), r32(2), r32(3)));
    let e = f32::EPSILON;
    let a = [
        3.0,
        1.0 + e,
        -2.5,
        1.0e-20,
        7.0,
        0.0,
        f32::INFINITY,
        1.1,
        123.456,
    ];
    let b = [
        7.0,
        1.0 - e,
        4.0,
        1.0e-20,
        1.0 / 3.0,
        -5.0,
        0.0,
        1.3,
        -0.001,
    ];
    let c = [0.5, -1.0, 10.0, 0.0, -2.0, 0.0, 1.0, -1.43, 99.0];
    let products = run3(&fmul, &a, &b, &c);
    let fused = run3(&fma, &a, &b, &c);
    for l in 0..a.len() {
        assert_eq!(products[l], expect32(a[l] * b[l]), "fmul lane {l}");
        // f32::mul_add is the correctly rounded fused multiply-add.
        assert_eq!(
            fused[l],
            expect32(a[l].mul_add(b[l], c[l])),
            "fmadd lane {l}"
        );
    }
    // (1 + e)(1 - e) - 1 = -e^2 exactly: fused keeps it, an unfused product would give 0.
    assert_eq!(f32::from_bits(fused[1]), -(e * e));
    assert_eq!(fused[5], 0, "-0 (the product) + +0 is +0");
}

#[test]
fn saturate_maps_nan_and_negatives_to_plus_zero_and_clamps_to_one() {
    let mut fields = alu2(d32(0), r32(1), r32(2));
    fields.push(("S", 1));
    let code = enc(Opcode::Fadd, &fields);
    let a = [0.5, -3.0, f32::NAN, -0.0, 0.25, f32::INFINITY, -1.0e-30];
    let b = [0.75, 1.0, 1.0, -0.0, 0.25, 0.0, 0.0];
    let r = run3(&code, &a, &b, &[0.0]);
    let expected = [1.0f32, 0.0, 0.0, 0.0, 0.5, 1.0, 0.0];
    for l in 0..a.len() {
        assert_eq!(r[l], expected[l].to_bits(), "lane {l}");
    }
}

#[test]
fn fp32_op_with_16_bit_destination_rounds_twice() {
    // a * b + c = 1 + 2^-11 + 2^-40 exactly. Rounded once to f16 it is above the halfway point
    // 1 + 2^-11 and rounds up to 1 + 2^-10; rounded first to f32 it becomes exactly the halfway
    // point, which rounds to even (1.0). docs/g13.md: fp32 ops with 16-bit results round twice.
    let a = 1.0 + 2f32.powi(-20);
    let c = 255.0 * 2f32.powi(-19);
    let code = enc(Opcode::Fmadd, &alu3(d16(0), r32(1), r32(1), r32(3)));
    let g = run(&code, |g| {
        set32(g, 1, |_| a.to_bits());
        set32(g, 3, |_| c.to_bits());
    });
    let expect = f16::from_f32(a.mul_add(a, c)).to_bits();
    assert_eq!(expect, 0x3c00);
    assert_eq!(get16(&g, 0, 0), expect);
}

#[test]
fn fp16_ops_round_once_and_keep_denormals() {
    // fmadd16: a * a + c = 1 + 2^-11 + 2^-20, one rounding -> 1 + 2^-10.
    let a = f16::from_f32(1.0 + 2f32.powi(-10));
    let c = f16::from_f32(-3.0 * 2f32.powi(-11));
    let code = enc(Opcode::Fmadd16, &alu3(d16(0), r16(2), r16(2), r16(3)));
    let g = run(&code, |g| {
        set16(g, 2, |_| a.to_bits());
        set16(g, 3, |_| c.to_bits());
    });
    let exact = a.to_f32() * a.to_f32() + c.to_f32(); // exact in f32 here
    assert_eq!(get16(&g, 0, 0), f16::from_f32(exact).to_bits());
    assert_eq!(get16(&g, 0, 0), 0x3c01);

    // fadd16 of two smallest denormals is the next denormal: fp16 keeps denormals.
    let code = enc(Opcode::Fadd16, &alu2(d16(0), r16(2), r16(3)));
    let g = run(&code, |g| {
        set16(g, 2, |l| [0x0001, 0x8001, 0x7c00, 0x3c00][l % 4]);
        set16(g, 3, |l| [0x0001, 0x0001, 0xfc00, 0x7bff][l % 4]);
    });
    assert_eq!(get16(&g, 0, 0), 0x0002);
    assert_eq!(get16(&g, 0, 1), 0x0000, "-d + d = +0");
    assert_eq!(get16(&g, 0, 2), 0x7e00, "inf - inf is the default fp16 NaN");
    let sum = f16::from_f32(1.0 + f16::from_bits(0x7bff).to_f32()).to_bits();
    assert_eq!(get16(&g, 0, 3), sum);
}

#[test]
fn fp32_ops_read_f16_sources_exactly_and_flush_f32_denormal_sources() {
    let code = enc(Opcode::Fadd, &alu2(d32(0), r16(2), r16(3)));
    let g = run(&code, |g| {
        set16(g, 2, |_| f16::from_f32(1.5).to_bits());
        set16(g, 3, |_| 0x0001); // f16 denormal 2^-24: not flushed
    });
    assert_eq!(f32::from_bits(get32(&g, 0, 0)), 1.5 + 2f32.powi(-24));

    let code = enc(Opcode::Fmul, &alu2(d32(0), r32(1), imm(0x40)));
    let g = run(&code, |g| set32(g, 1, |_| 0x0040_0000)); // f32 denormal
    assert_eq!(get32(&g, 0, 0), 0, "a denormal f32 source reads as 0");
}

#[test]
fn float_immediates_decode_as_the_document_says() {
    // decode_float_immediate: exponent 0 -> fraction / 64; else (16 + fraction) * 2^(exp - 7).
    let cases = [
        (0x00u64, 0.0f32),
        (0x01, 1.0 / 64.0),
        (0x0f, 15.0 / 64.0),
        (0x10, 0.25),
        (0x30, 1.0),
        (0x48, 3.0),
        (0x7f, 31.0),
        (0x8f, -15.0 / 64.0),
        (0xb0, -1.0),
    ];
    for (byte, value) in cases {
        let code = enc(Opcode::Fadd, &alu2(d32(0), imm(byte), imm(0)));
        let g = run(&code, |_| {});
        assert_eq!(
            f32::from_bits(get32(&g, 0, 0)),
            value,
            "immediate {byte:#x}"
        );
    }
}

#[test]
fn source_modifiers_apply_abs_then_neg() {
    let mut f = alu2(d32(0), r32(1), r32(2));
    f.extend([("Am", 3), ("Bm", 1)]);
    let code = enc(Opcode::Fadd, &f);
    let r = run3(&code, &[2.0, -2.0], &[-1.0, -1.0], &[0.0]);
    assert_eq!(f32::from_bits(r[0]), -2.0 + 1.0);
    assert_eq!(f32::from_bits(r[1]), -2.0 + 1.0);
}

fn unary(op: Opcode, inputs: &[f32]) -> Vec<u32> {
    let code = enc(op, &alu1(d32(0), r32(1)));
    run3(&code, inputs, &[0.0], &[0.0])
}

#[test]
fn rounding_operations() {
    let x = [-1.5, 2.5, 3.5, -0.4, 1.7, -1.7, -0.0];
    let check = |op, f: fn(f32) -> f32| {
        let r = unary(op, &x);
        for l in 0..x.len() {
            assert_eq!(r[l], expect32(f(x[l])), "{op:?}({})", x[l]);
        }
    };
    check(Opcode::Floor, f32::floor);
    check(Opcode::Ceil, f32::ceil);
    check(Opcode::Trunc, f32::trunc);
    check(Opcode::Rint, f32::round_ties_even);
    assert_eq!(f32::from_bits(unary(Opcode::Rint, &[2.5])[0]), 2.0);
    assert_eq!(
        unary(Opcode::Ceil, &[-0.4])[0],
        0x8000_0000,
        "ceil(-0.4) is -0"
    );
}

#[test]
fn reciprocal_and_square_root_family() {
    let r = unary(Opcode::Rcp, &[4.0, 0.0, -0.0, f32::INFINITY, 3.0]);
    assert_eq!(f32::from_bits(r[0]), 0.25);
    assert_eq!(f32::from_bits(r[1]), f32::INFINITY);
    assert_eq!(f32::from_bits(r[2]), f32::NEG_INFINITY);
    assert_eq!(r[3], 0);
    assert_eq!(f32::from_bits(r[4]), 1.0 / 3.0);

    let r = unary(Opcode::Rsqrt, &[4.0, -1.0, 0.0, 2.0]);
    assert_eq!(f32::from_bits(r[0]), 0.5);
    assert_eq!(r[1], 0x7FC0_0000);
    assert_eq!(f32::from_bits(r[2]), f32::INFINITY);
    assert_eq!(f32::from_bits(r[3]), (1.0 / 2f64.sqrt()) as f32);

    // x * rsqrt_special(x) is sqrt(x) at the special values (docs/g13.md).
    let x = [0.0, -0.0, f32::INFINITY, 16.0, 2.0];
    let rs = unary(Opcode::RsqrtSpecial, &x);
    for l in 0..x.len() {
        let sqrt = x[l] * f32::from_bits(rs[l]);
        assert_eq!(sqrt.to_bits(), x[l].sqrt().to_bits(), "sqrt({})", x[l]);
    }
}

#[test]
fn log2_and_exp2() {
    let r = unary(Opcode::Log2, &[8.0, 1.0, 0.0, -1.0, 10.0]);
    assert_eq!(f32::from_bits(r[0]), 3.0);
    assert_eq!(f32::from_bits(r[1]), 0.0);
    assert_eq!(f32::from_bits(r[2]), f32::NEG_INFINITY);
    assert_eq!(r[3], 0x7FC0_0000);
    assert_eq!(f32::from_bits(r[4]), 10f64.log2() as f32);
    let r = unary(Opcode::Exp2, &[-2.0, 10.0, -130.0, 0.5]);
    assert_eq!(f32::from_bits(r[0]), 0.25);
    assert_eq!(f32::from_bits(r[1]), 1024.0);
    assert_eq!(r[2], 0, "2^-130 is denormal and flushes");
    assert_eq!(f32::from_bits(r[3]), 2f64.sqrt() as f32);
}

#[test]
fn sin_pt_1_and_sin_pt_2_compute_sine() {
    // sin(x) = sin_pt_1(q) * sin_pt_2(sin_pt_1(q)) with q = 4 * fract(x / 2pi) (docs/g13.md).
    let code = [
        enc(Opcode::SinPt1, &alu1(d32(2), r32(1))),
        enc(Opcode::SinPt2, &alu1(d32(3), r32(2))),
        enc(Opcode::Fmul, &alu2(d32(0), r32(2), r32(3))),
    ]
    .concat();
    let xs: Vec<f64> = (0..32).map(|i| -3.1 + 0.2 * f64::from(i)).collect();
    let qs: Vec<f32> = xs
        .iter()
        .map(|x| {
            let t = x / std::f64::consts::TAU;
            (4.0 * (t - t.floor())) as f32
        })
        .collect();
    let r = run3(&code, &qs, &[0.0], &[0.0]);
    for (l, x) in xs.iter().enumerate() {
        let got = f64::from(f32::from_bits(r[l]));
        assert!((got - x.sin()).abs() < 2e-6, "sin({x}) = {got}");
    }
}

#[test]
fn dfdx_and_dfdy_are_fine_quad_derivatives() {
    // Lane 4k + j holds f(x, y) = x * x + 10 * y for pixel (j & 1, j >> 1) of quad k, offset by k.
    let value = |l: usize| {
        let (x, y) = ((l & 1) as f32, ((l >> 1) & 1) as f32);
        let k = (l / 4) as f32;
        (x + k) * (x + k) + 10.0 * y * (k + 1.0)
    };
    for (op, is_x) in [(Opcode::Dfdx, true), (Opcode::Dfdy, false)] {
        let code = enc(op, &alu1(d32(0), r32(1)));
        let g = run(&code, |g| set32(g, 1, |l| value(l).to_bits()));
        for l in 0..32 {
            let base = l & !3;
            let expect = if is_x {
                let row = base + (l & 2);
                value(row + 1) - value(row)
            } else {
                let col = base + (l & 1);
                value(col + 2) - value(col)
            };
            assert_eq!(f32::from_bits(get32(&g, 0, l)), expect, "{op:?} lane {l}");
        }
    }
}

/// The rounding helpers against independent implementations on random inputs: the fused
/// multiply-add rounded to odd then to f32 equals the host's correctly rounded `f32::mul_add`,
/// and the f64-to-f16 conversion equals the `half` crate's (correct) f32-to-f16 conversion.
#[test]
fn rounding_helpers_match_independent_implementations() {
    use crate::float::{f64_to_f16, fma_round_to_odd};
    use quickcheck::QuickCheck;
    fn fma(a: u32, b: u32, c: u32) -> bool {
        let (a, b, c) = (f32::from_bits(a), f32::from_bits(b), f32::from_bits(c));
        let ours = fma_round_to_odd(f64::from(a), f64::from(b), f64::from(c)) as f32;
        let host = a.mul_add(b, c);
        ours.to_bits() == host.to_bits() || (ours.is_nan() && host.is_nan())
    }
    fn to_f16(x: u32, exponent: u8) -> bool {
        // Bias the exponent into and around the f16 range so most cases are interesting.
        let x = f32::from_bits((x & 0x807f_ffff) | (u32::from(exponent % 64) + 96) << 23);
        f64_to_f16(f64::from(x), true) == f16::from_f32(x).to_bits()
    }
    QuickCheck::new()
        .tests(20_000)
        .quickcheck(fma as fn(u32, u32, u32) -> bool);
    QuickCheck::new()
        .tests(20_000)
        .quickcheck(to_f16 as fn(u32, u8) -> bool);
    // Products and sums of values near each other exercise the close-cancellation paths.
    fn near(a: u32, d: i8, c: u32) -> bool {
        let b = f32::from_bits(a.wrapping_add(d as u32));
        fma(a, b.to_bits(), c ^ 0x8000_0000)
    }
    QuickCheck::new()
        .tests(20_000)
        .quickcheck(near as fn(u32, i8, u32) -> bool);
}
