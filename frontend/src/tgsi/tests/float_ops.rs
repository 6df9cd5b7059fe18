//! Float opcodes, run in the reference interpreter against values worked out here.

use super::harness::{as_f, as_i, assert_bits, f, run, run_f};

const Z: [f32; 4] = [0.0; 4];

#[test]
fn mov_applies_swizzle_abs_then_negate() {
    let got = run_f("MOV TEMP[4], -|TEMP[0].wzyx|", [1.0, -2.0, 3.0, -4.0], Z, Z);
    assert_bits(got, [-4.0, -3.0, -2.0, -1.0]);
}

#[test]
fn write_mask_leaves_other_channels() {
    let got = run_f(
        "MOV TEMP[4], TEMP[1]\nMOV TEMP[4].xz, TEMP[0]",
        [1.0, 2.0, 3.0, 4.0],
        [5.0, 6.0, 7.0, 8.0],
        Z,
    );
    assert_bits(got, [1.0, 6.0, 3.0, 8.0]);
}

#[test]
fn sources_are_read_before_the_destination_is_written() {
    // TEMP[0].yxwz read in every channel before TEMP[0] changes.
    let got = run_f(
        "ADD TEMP[0], TEMP[0].yxwz, TEMP[0]\nMOV TEMP[4], TEMP[0]",
        [1.0, 2.0, 3.0, 4.0],
        Z,
        Z,
    );
    assert_bits(got, [3.0, 3.0, 7.0, 7.0]);
}

#[test]
fn add_sub_mul_div() {
    let (a, b) = ([1.5, -2.0, 0.1, 7.0], [2.25, 0.5, 0.2, 0.0]);
    let add = run_f("ADD TEMP[4], TEMP[0], TEMP[1]", a, b, Z);
    let sub = run_f("SUB TEMP[4], TEMP[0], TEMP[1]", a, b, Z);
    let mul = run_f("MUL TEMP[4], TEMP[0], TEMP[1]", a, b, Z);
    let div = run_f("DIV TEMP[4], TEMP[0], TEMP[1]", a, b, Z);
    assert_bits(add, [3.75, -1.5, 0.1f32 + 0.2f32, 7.0]);
    assert_bits(sub, [-0.75, -2.5, 0.1f32 - 0.2f32, 7.0]);
    assert_bits(mul, [3.375, -1.0, 0.1f32 * 0.2f32, 0.0]);
    assert_bits(div, [1.5f32 / 2.25, -4.0, 0.1f32 / 0.2f32, f32::INFINITY]);
}

#[test]
fn mad_rounds_twice_and_fma_once() {
    // (1 + 2^-12)^2 - 1: the product's 2^-24 term is lost by MAD's rounding, kept by FMA.
    let a = 1.0 + 2f32.powi(-12);
    let (t0, t2) = ([a; 4], [-1.0; 4]);
    let mad = run_f("MAD TEMP[4], TEMP[0], TEMP[0], TEMP[2]", t0, Z, t2);
    let fma = run_f("FMA TEMP[4], TEMP[0], TEMP[0], TEMP[2]", t0, Z, t2);
    assert_bits(mad, [a * a - 1.0; 4]);
    assert_bits(fma, [a.mul_add(a, -1.0); 4]);
    assert_ne!(mad[0], fma[0]);
    assert_eq!(fma[0], 2f32.powi(-11) + 2f32.powi(-24));
}

#[test]
fn lrp_interpolates_from_src2_to_src1() {
    let got = run_f(
        "LRP TEMP[4], TEMP[0], TEMP[1], TEMP[2]",
        [0.25, 0.0, 1.0, 0.5],
        [8.0, 8.0, 8.0, 8.0],
        [4.0, 4.0, 4.0, -8.0],
    );
    // src0 * (src1 - src2) + src2
    assert_bits(got, [5.0, 4.0, 8.0, 0.0]);
}

#[test]
fn min_max_prefer_numbers_over_nan() {
    let a = [f32::NAN, 1.0, -0.5, 3.0];
    let b = [2.0, f32::NAN, -0.25, 3.0];
    assert_bits(
        run_f("MIN TEMP[4], TEMP[0], TEMP[1]", a, b, Z),
        [2.0, 1.0, -0.5, 3.0],
    );
    assert_bits(
        run_f("MAX TEMP[4], TEMP[0], TEMP[1]", a, b, Z),
        [2.0, 1.0, -0.25, 3.0],
    );
}

#[test]
fn rounding_opcodes() {
    let x = [2.5, -2.5, 3.5, -1.25];
    assert_bits(
        run_f("FLR TEMP[4], TEMP[0]", x, Z, Z),
        [2.0, -3.0, 3.0, -2.0],
    );
    assert_bits(
        run_f("CEIL TEMP[4], TEMP[0]", x, Z, Z),
        [3.0, -2.0, 4.0, -1.0],
    );
    assert_bits(
        run_f("TRUNC TEMP[4], TEMP[0]", x, Z, Z),
        [2.0, -2.0, 3.0, -1.0],
    );
    // Half to even, like Mesa's micro_rnd.
    assert_bits(
        run_f("ROUND TEMP[4], TEMP[0]", x, Z, Z),
        [2.0, -2.0, 4.0, -1.0],
    );
    assert_bits(
        run_f("FRC TEMP[4], TEMP[0]", x, Z, Z),
        [0.5, 0.5, 0.5, 0.75],
    );
    assert_bits(
        run_f("FRAC TEMP[4], TEMP[0]", x, Z, Z),
        [0.5, 0.5, 0.5, 0.75],
    );
    assert_bits(
        run_f("ABS TEMP[4], TEMP[0]", x, Z, Z),
        [2.5, 2.5, 3.5, 1.25],
    );
}

#[test]
fn ssg_cmp_cnd_clamp() {
    assert_bits(
        run_f("SSG TEMP[4], TEMP[0]", [-3.0, 0.0, 2.0, -0.0], Z, Z),
        [-1.0, 0.0, 1.0, 0.0],
    );
    let got = run_f(
        "CMP TEMP[4], TEMP[0], TEMP[1], TEMP[2]",
        [-1.0, 0.0, 1.0, -0.0],
        [10.0, 11.0, 12.0, 13.0],
        [20.0, 21.0, 22.0, 23.0],
    );
    assert_bits(got, [10.0, 21.0, 22.0, 23.0]);
    let got = run_f(
        "CND TEMP[4], TEMP[0], TEMP[1], TEMP[2]",
        [1.0, 2.0, 3.0, 4.0],
        [5.0, 6.0, 7.0, 8.0],
        [0.5, 0.75, 0.0, 1.0],
    );
    assert_bits(got, [5.0, 2.0, 7.0, 4.0]);
    let got = run_f(
        "CLAMP TEMP[4], TEMP[0], TEMP[1], TEMP[2]",
        [-1.0, 0.5, 9.0, 2.0],
        [0.0; 4],
        [1.0, 1.0, 1.0, 4.0],
    );
    assert_bits(got, [0.0, 0.5, 1.0, 2.0]);
}

#[test]
fn set_on_comparisons_give_one_or_zero() {
    let a = [1.0, 2.0, f32::NAN, 3.0];
    let b = [2.0, 2.0, f32::NAN, 1.0];
    let t = |op: &str| run_f(&format!("{op} TEMP[4], TEMP[0], TEMP[1]"), a, b, Z);
    assert_bits(t("SLT"), [1.0, 0.0, 0.0, 0.0]);
    assert_bits(t("SGE"), [0.0, 1.0, 0.0, 1.0]);
    assert_bits(t("SEQ"), [0.0, 1.0, 0.0, 0.0]);
    assert_bits(t("SNE"), [1.0, 0.0, 1.0, 1.0]);
    assert_bits(t("SGT"), [0.0, 0.0, 0.0, 1.0]);
    assert_bits(t("SLE"), [1.0, 1.0, 0.0, 0.0]);
    assert_bits(t("SFL"), [0.0; 4]);
    assert_bits(t("STR"), [1.0; 4]);
}

#[test]
fn ldexp_scales_by_powers_of_two() {
    let got = as_f(run(
        "",
        "LDEXP TEMP[4], TEMP[0], TEMP[1]",
        [
            f([1.5, 3.0, -2.0, 1.0]),
            super::harness::i([2, -3, 10, 130]),
            [0; 4],
            [0; 4],
        ],
    ));
    assert_bits(got, [6.0, 0.375, -2048.0, f32::INFINITY]);
    let tiny = as_f(run(
        "",
        "LDEXP TEMP[4], TEMP[0], TEMP[1]",
        [
            f([1.0, 3.0, 1.0, 0.0]),
            super::harness::i([-140, -149, 300, 5]),
            [0; 4],
            [0; 4],
        ],
    ));
    // 2^-140 is the subnormal with bit 9 set; 3 * 2^-149 is the subnormal 3.
    assert_bits(
        tiny,
        [
            f32::from_bits(1 << 9),
            f32::from_bits(3),
            f32::INFINITY,
            0.0,
        ],
    );
}

#[test]
fn scalar_opcodes_replicate_their_x_result() {
    // Every opcode reads the first swizzle channel (here .y) and writes all four channels.
    let t = |op: &str, x: f32| {
        run_f(
            &format!("{op} TEMP[4], TEMP[0].yxzw"),
            [9.0, x, 9.0, 9.0],
            Z,
            Z,
        )
    };
    assert_bits(t("RCP", 4.0), [0.25; 4]);
    assert_bits(t("RSQ", 16.0), [0.25; 4]);
    // The seed takes the absolute value.
    assert_bits(t("RSQ", -4.0), [0.5; 4]);
    assert_bits(t("SQRT", 2.25), [1.5; 4]);
    assert_bits(t("EX2", 3.0), [8.0; 4]);
    assert_bits(t("EX2", -2.0), [0.25; 4]);
    assert_bits(t("LG2", 0.125), [-3.0; 4]);
    assert_bits(t("COS", 0.0), [1.0; 4]);
    assert_bits(t("SIN", 0.0), [0.0; 4]);
    let half_pi = std::f32::consts::FRAC_PI_2;
    let s = t("SIN", half_pi)[0];
    assert!((s - 1.0).abs() <= f32::EPSILON, "sin(pi/2) = {s}");
    let got = run_f(
        "POW TEMP[4], TEMP[0].wxyz, TEMP[1].zxyw",
        [0.0, 0.0, 0.0, 2.0],
        [0.0, 0.0, 10.0, 0.0],
        Z,
    );
    assert_bits(got, [1024.0; 4]);
}

#[test]
fn saturate_clamps_to_unit_interval() {
    let got = run_f(
        "ADD_SAT TEMP[4], TEMP[0], TEMP[1]",
        [0.5, -2.0, 0.75, f32::NAN],
        [0.25, 1.0, 0.5, 0.0],
        Z,
    );
    assert_bits(got, [0.75, 0.0, 1.0, 0.0]);
    let got = run_f("MOV_SAT TEMP[4], -TEMP[0]", [-0.5, 0.5, -2.0, 0.0], Z, Z);
    assert_bits(got, [0.5, 0.0, 1.0, 0.0]);
}

#[test]
fn address_loads_floor_round_and_copy() {
    let x = [-1.5, 2.7, 2.5, -0.5];
    assert_eq!(
        as_i(run(
            "",
            "ARL TEMP[4], TEMP[0]",
            [f(x), [0; 4], [0; 4], [0; 4]]
        )),
        [-2, 2, 2, -1]
    );
    // ARR rounds half up (Mesa's floorf(x + 0.5)).
    assert_eq!(
        as_i(run(
            "",
            "ARR TEMP[4], TEMP[0]",
            [f(x), [0; 4], [0; 4], [0; 4]]
        )),
        [-1, 3, 3, 0]
    );
    let words = [7, u32::MAX, 0, 12];
    assert_eq!(
        run("", "UARL TEMP[4], TEMP[0]", [words, [0; 4], [0; 4], [0; 4]]),
        words
    );
}

#[test]
fn precise_marks_no_contraction() {
    use agxc_egraph::ir::{InstFlags, Op, PureOp};
    let func = super::harness::lift_ok(&super::harness::compute_text(
        1,
        "",
        "MAD_PRECISE TEMP[4], TEMP[0], TEMP[1], TEMP[2]\nMAD TEMP[5], TEMP[0], TEMP[1], TEMP[2]",
    ));
    let mut flagged = [0; 2];
    let mut plain = [0; 2];
    func.for_each_inst(|_, inst| {
        let data = func.inst(inst);
        let k = match data.op {
            Op::Pure(PureOp::Fmul) => 0,
            Op::Pure(PureOp::Fadd) => 1,
            _ => return,
        };
        if data.flags.contains(InstFlags::NO_CONTRACT) {
            flagged[k] += 1;
        } else {
            plain[k] += 1;
        }
    });
    assert_eq!(
        flagged,
        [4, 4],
        "MAD_PRECISE: four multiplies and adds without contraction"
    );
    assert_eq!(plain, [4, 4], "MAD: four contractable multiplies and adds");
}
