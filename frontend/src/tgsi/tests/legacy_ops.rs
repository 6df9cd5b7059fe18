//! Dot products and the vertex-program opcodes of the seed reference.

use super::harness::{assert_bits, run_f};

const Z: [f32; 4] = [0.0; 4];

#[test]
fn dot_products_replicate() {
    let (a, b, c) = (
        [1.0, 2.0, 3.0, 4.0],
        [5.0, 6.0, 7.0, 8.0],
        [0.5, 9.0, 9.0, 9.0],
    );
    assert_bits(run_f("DP2 TEMP[4], TEMP[0], TEMP[1]", a, b, Z), [17.0; 4]);
    assert_bits(run_f("DP3 TEMP[4], TEMP[0], TEMP[1]", a, b, Z), [38.0; 4]);
    assert_bits(run_f("DP4 TEMP[4], TEMP[0], TEMP[1]", a, b, Z), [70.0; 4]);
    // DPH: 1*5 + 2*6 + 3*7 + src1.w
    assert_bits(run_f("DPH TEMP[4], TEMP[0], TEMP[1]", a, b, Z), [46.0; 4]);
    // DP2A: 1*5 + 2*6 + src2.x
    assert_bits(
        run_f("DP2A TEMP[4], TEMP[0], TEMP[1], TEMP[2]", a, b, c),
        [17.5; 4],
    );
    // Left to right with a rounding after each step: (0.1*0.1 + 0.2*0.2) + 0.3*0.3.
    let x = [0.1f32, 0.2, 0.3, 0.0];
    let want = (0.1f32 * 0.1 + 0.2f32 * 0.2) + 0.3f32 * 0.3;
    assert_bits(run_f("DP3 TEMP[4], TEMP[0], TEMP[0]", x, Z, Z), [want; 4]);
}

#[test]
fn lit_follows_the_reference() {
    // x = 1, y = max(x, 0), z = x > 0 ? max(y, 0) ^ clamp(w, -128, 128) : 0, w = 1
    assert_bits(
        run_f("LIT TEMP[4], TEMP[0]", [0.5, 4.0, 0.0, 0.5], Z, Z),
        [1.0, 0.5, 2.0, 1.0],
    );
    assert_bits(
        run_f("LIT TEMP[4], TEMP[0]", [-0.5, 4.0, 0.0, 0.5], Z, Z),
        [1.0, 0.0, 0.0, 1.0],
    );
    // The exponent clamps to 128: 0.5^200 would underflow to 0, 0.5^128 is a subnormal.
    assert_bits(
        run_f("LIT TEMP[4], TEMP[0]", [1.0, 0.5, 0.0, 200.0], Z, Z),
        [1.0, 1.0, 0.5f32.powi(128), 1.0],
    );
    // A negative base clamps to 0: 0^2 = 0.
    assert_bits(
        run_f("LIT TEMP[4], TEMP[0]", [1.0, -3.0, 0.0, 2.0], Z, Z),
        [1.0, 1.0, 0.0, 1.0],
    );
}

#[test]
fn exp_and_log_split_the_exponent() {
    // EXP: 2^floor(x), x - floor(x), 2^x, 1
    assert_bits(
        run_f("EXP TEMP[4], TEMP[0]", [2.5, 0.0, 0.0, 0.0], Z, Z),
        [4.0, 0.5, 2.5f64.exp2() as f32, 1.0],
    );
    assert_bits(
        run_f("EXP TEMP[4], TEMP[0]", [-1.0, 0.0, 0.0, 0.0], Z, Z),
        [0.5, 0.0, 0.5, 1.0],
    );
    // LOG: floor(log2|x|), |x| / 2^floor(log2|x|), log2|x|, 1
    assert_bits(
        run_f("LOG TEMP[4], TEMP[0]", [-12.0, 0.0, 0.0, 0.0], Z, Z),
        [3.0, 1.5, 12f64.log2() as f32, 1.0],
    );
    assert_bits(
        run_f("LOG TEMP[4], TEMP[0]", [0.25, 0.0, 0.0, 0.0], Z, Z),
        [-2.0, 1.0, -2.0, 1.0],
    );
}

#[test]
fn dst_xpd_scs() {
    let (a, b) = ([9.0, 2.0, 3.0, 9.0], [9.0, 5.0, 9.0, 7.0]);
    assert_bits(
        run_f("DST TEMP[4], TEMP[0], TEMP[1]", a, b, Z),
        [1.0, 10.0, 3.0, 7.0],
    );
    let (a, b) = ([1.0, 2.0, 3.0, 0.0], [4.0, 5.0, 6.0, 0.0]);
    // (2*6 - 5*3, 3*4 - 6*1, 1*5 - 4*2, 1)
    assert_bits(
        run_f("XPD TEMP[4], TEMP[0], TEMP[1]", a, b, Z),
        [-3.0, 6.0, -3.0, 1.0],
    );
    // The seed's second `dst.y = 1` is `dst.w = 1`.
    assert_bits(
        run_f("SCS TEMP[4], TEMP[0]", [0.0, 5.0, 5.0, 5.0], Z, Z),
        [1.0, 0.0, 0.0, 1.0],
    );
}

#[test]
fn nrm_normalises() {
    // |(3, 0, 4)| = 5: each component times rsqrt(25) (rounded to f32 once).
    let r = (1.0 / 25f64.sqrt()) as f32;
    assert_bits(
        run_f("NRM TEMP[4], TEMP[0]", [3.0, 0.0, 4.0, 9.0], Z, Z),
        [3.0 * r, 0.0, 4.0 * r, 1.0],
    );
    assert_bits(
        run_f("NRM4 TEMP[4], TEMP[0]", [2.0, 2.0, 2.0, 2.0], Z, Z),
        [0.5; 4],
    );
}

#[test]
fn rfl_x2d_rcc() {
    // RFL: 2 * dot(a, b) / dot(a, a) * a - b with a = (0, 0, 1), b = (1, 2, 3): t = 6.
    assert_bits(
        run_f(
            "RFL TEMP[4], TEMP[0], TEMP[1]",
            [0.0, 0.0, 1.0, 9.0],
            [1.0, 2.0, 3.0, 9.0],
            Z,
        ),
        [-1.0, -2.0, 3.0, 1.0],
    );
    // X2D: x = a.x + b.x*c.x + b.y*c.y = 1 + 2*4 + 3*5; y = a.y + b.x*c.z + b.y*c.w = 10 + 2*6 + 3*7
    assert_bits(
        run_f(
            "X2D TEMP[4], TEMP[0], TEMP[1], TEMP[2]",
            [1.0, 10.0, 0.0, 0.0],
            [2.0, 3.0, 0.0, 0.0],
            [4.0, 5.0, 6.0, 7.0],
        ),
        [24.0, 43.0, 24.0, 43.0],
    );
    // RCC clamps 1/x away from zero and infinity, keeping the sign.
    let rcc = |x: f32| run_f("RCC TEMP[4], TEMP[0]", [x, 0.0, 0.0, 0.0], Z, Z)[0];
    assert_eq!(rcc(4.0), 0.25);
    assert_eq!(rcc(-4.0), -0.25);
    assert_eq!(rcc(0.0), 1.884467e+019f32);
    assert_eq!(
        rcc(-0.0),
        -1.884467e+019f32,
        "1/-0 = -inf clamps to the negative bound"
    );
    assert_eq!(rcc(1e30), 5.42101e-020f32);
}
