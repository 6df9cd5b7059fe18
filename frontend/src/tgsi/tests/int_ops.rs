//! Integer, bitwise, comparison and conversion opcodes against values worked out here.

use super::harness::{as_f, as_i, assert_bits, f, i, run, run_i};

const Z: [i32; 4] = [0; 4];
const MIN: i32 = i32::MIN;

fn bin(op: &str, a: [i32; 4], b: [i32; 4]) -> [i32; 4] {
    run_i(&format!("{op} TEMP[4], TEMP[0], TEMP[1]"), a, b, Z)
}

fn un(op: &str, a: [i32; 4]) -> [i32; 4] {
    run_i(&format!("{op} TEMP[4], TEMP[0]"), a, Z, Z)
}

#[test]
fn arithmetic_wraps() {
    assert_eq!(
        bin("UADD", [i32::MAX, -1, 5, 0], [1, 1, -7, 0]),
        [MIN, 0, -2, 0]
    );
    assert_eq!(
        bin("UMUL", [0x10000, -3, 7, 1 << 30], [0x10000, 5, -6, 4]),
        [0, -15, -42, 0]
    );
    let got = run_i(
        "UMAD TEMP[4], TEMP[0], TEMP[1], TEMP[2]",
        [3, -2, 1 << 31, 0],
        [4, 5, 2, 9],
        [1, 1, 7, -1],
    );
    assert_eq!(got, [13, -9, 7, -1]);
    // High halves of the 64-bit products: -2^31 * 2 = -2^32; 0xffffffff * 2 unsigned.
    assert_eq!(
        bin("IMUL_HI", [MIN, -1, 1 << 20, 3], [2, -1, 1 << 20, -1]),
        [-1, 0, 256, -1]
    );
    assert_eq!(
        bin("UMUL_HI", [-1, -1, 1 << 20, 3], [2, -1, 1 << 20, -1]),
        [1, -2, 256, 2]
    );
}

#[test]
fn division_by_zero_follows_mesa() {
    assert_eq!(
        bin("IDIV", [-7, 7, 5, MIN], [2, -2, 0, 1]),
        [-3, -3, 0, MIN]
    );
    assert_eq!(
        bin("UDIV", [-2, 7, 5, 0], [2, 2, 0, 3]),
        [0x7fff_ffff, 3, -1, 0]
    );
    assert_eq!(bin("MOD", [-7, 7, 5, 9], [2, -2, 0, 4]), [-1, 1, -1, 1]);
    assert_eq!(bin("UMOD", [-1, 7, 5, 9], [16, 2, 0, 4]), [15, 1, -1, 1]);
}

#[test]
fn min_max_abs_negate_sign() {
    assert_eq!(bin("IMIN", [-1, 3, MIN, 0], [1, 2, 0, 0]), [-1, 2, MIN, 0]);
    assert_eq!(bin("IMAX", [-1, 3, MIN, 0], [1, 2, 0, 0]), [1, 3, 0, 0]);
    assert_eq!(bin("UMIN", [-1, 3, MIN, 0], [1, 2, 0, 0]), [1, 2, 0, 0]);
    assert_eq!(bin("UMAX", [-1, 3, MIN, 0], [1, 2, 0, 0]), [-1, 3, MIN, 0]);
    assert_eq!(un("IABS", [-5, 5, MIN, 0]), [5, 5, MIN, 0]);
    assert_eq!(un("INEG", [-5, 5, MIN, 0]), [5, -5, MIN, 0]);
    assert_eq!(un("ISSG", [-5, 5, MIN, 0]), [-1, 1, -1, 0]);
    // The negate modifier on an integer source is an integer negation.
    assert_eq!(
        run_i(
            "UADD TEMP[4], -TEMP[0], TEMP[1]",
            [5, -5, 0, 1],
            [1, 1, 1, 1],
            Z
        ),
        [-4, 6, 1, 0]
    );
}

#[test]
fn bitwise_and_shifts() {
    let (a, b) = ([0b1100, -1, 0x0ff0, 0], [0b1010, 0x1234, 0x00ff, -1]);
    assert_eq!(bin("AND", a, b), [0b1000, 0x1234, 0x00f0, 0]);
    assert_eq!(bin("OR", a, b), [0b1110, -1, 0x0fff, -1]);
    assert_eq!(bin("XOR", a, b), [0b0110, !0x1234, 0x0f0f, -1]);
    assert_eq!(un("NOT", a), [!0b1100, 0, !0x0ff0, -1]);
    // Counts are taken modulo 32; each channel has its own count (Mesa, not the seed's .x).
    assert_eq!(bin("SHL", [1, 1, 3, -1], [33, 31, 2, 4]), [2, MIN, 12, -16]);
    assert_eq!(
        bin("ISHR", [-8, -8, 64, MIN], [1, 35, 2, 31]),
        [-4, -1, 16, -1]
    );
    assert_eq!(bin("SHR", [-8, 8, 64, MIN], [1, 1, 2, 31]), [-4, 4, 16, -1]);
    assert_eq!(
        bin("USHR", [-8, -8, 64, MIN], [28, 35, 2, 31]),
        [0xf, 0x1fff_ffff, 16, 1]
    );
}

#[test]
fn integer_comparisons_give_masks() {
    let (a, b) = ([-1, 2, 3, MIN], [1, 2, 2, 0]);
    assert_eq!(bin("ISLT", a, b), [-1, 0, 0, -1]);
    assert_eq!(bin("ISGE", a, b), [0, -1, -1, 0]);
    assert_eq!(bin("USLT", a, b), [0, 0, 0, 0]);
    assert_eq!(bin("USGE", a, b), [-1, -1, -1, -1]);
    assert_eq!(bin("USEQ", a, b), [0, -1, 0, 0]);
    assert_eq!(bin("USNE", a, b), [-1, 0, -1, -1]);
}

#[test]
fn float_comparisons_give_masks() {
    let a = f([1.0, 2.0, f32::NAN, -0.0]);
    let b = f([2.0, 2.0, 1.0, 0.0]);
    let t = |op: &str| {
        as_i(run(
            "",
            &format!("{op} TEMP[4], TEMP[0], TEMP[1]"),
            [a, b, [0; 4], [0; 4]],
        ))
    };
    assert_eq!(t("FSLT"), [-1, 0, 0, 0]);
    assert_eq!(t("FSGE"), [0, -1, 0, -1]);
    assert_eq!(t("FSEQ"), [0, -1, 0, -1]);
    // Unordered: NaN is not equal to anything.
    assert_eq!(t("FSNE"), [-1, 0, -1, 0]);
}

#[test]
fn conversions() {
    let got = as_f(run(
        "",
        "I2F TEMP[4], TEMP[0]",
        [i([-3, 16_777_217, MIN, 0]), [0; 4], [0; 4], [0; 4]],
    ));
    assert_bits(got, [-3.0, 16_777_217i32 as f32, MIN as f32, 0.0]);
    let got = as_f(run(
        "",
        "U2F TEMP[4], TEMP[0]",
        [i([-1, 3, MIN, 0]), [0; 4], [0; 4], [0; 4]],
    ));
    assert_bits(got, [u32::MAX as f32, 3.0, 2147483648.0, 0.0]);
    let x = f([-1.7, 3.9, 2.5e9, -0.0]);
    assert_eq!(
        as_i(run("", "F2I TEMP[4], TEMP[0]", [x, [0; 4], [0; 4], [0; 4]])),
        [-1, 3, i32::MAX, 0]
    );
    let got = run("", "F2U TEMP[4], TEMP[0]", [x, [0; 4], [0; 4], [0; 4]]);
    assert_eq!(got, [0, 3, 2_500_000_000, 0]);
}

#[test]
fn ucmp_selects_on_nonzero_bits() {
    let got = run(
        "",
        "UCMP TEMP[4], TEMP[0], TEMP[1], TEMP[2]",
        [
            i([0, 1, -1, 0]),
            f([1.0, 2.0, 3.0, 4.0]),
            f([5.0, 6.0, 7.0, 8.0]),
            [0; 4],
        ],
    );
    assert_bits(as_f(got), [5.0, 2.0, 3.0, 8.0]);
    // -0.0 has a nonzero bit pattern: selected as true, as Mesa tests the bits.
    let got = run(
        "",
        "UCMP TEMP[4], TEMP[0], TEMP[1], TEMP[2]",
        [
            f([-0.0, 0.0, 0.0, 0.0]),
            i([1, 1, 1, 1]),
            i([2, 2, 2, 2]),
            [0; 4],
        ],
    );
    assert_eq!(as_i(got), [1, 2, 2, 2]);
}

#[test]
fn bitfield_extract_and_insert() {
    let v = [0x1234_5678u32 as i32, -16, 0x0f0f_0f0f, 0x7fff_ffff];
    let t3 = |op: &str, off: [i32; 4], w: [i32; 4]| {
        run_i(
            &format!("{op} TEMP[4], TEMP[0], TEMP[1], TEMP[2]"),
            v,
            off,
            w,
        )
    };
    // UBFE: bits [8, 16) of 0x12345678; width 32 at offset 0 is the value; past bit 31 stops
    // there; offset 35 is 3.
    assert_eq!(
        t3("UBFE", [8, 0, 28, 35], [8, 32, 8, 4]),
        [0x56, -16, 0x0, 0xf]
    );
    // IBFE sign-extends from the field's top bit: the low nibble 0x8 has bit 3 set.
    assert_eq!(t3("IBFE", [0, 0, 4, 0], [4, 32, 4, 0]), [-8, -16, 0, 0]);
    // Width 32 at a nonzero offset is 0 (32 & 31), as Mesa computes it.
    assert_eq!(t3("UBFE", [4, 4, 4, 4], [32, 32, 32, 32]), [0, 0, 0, 0]);
    let got = as_i(run(
        "",
        "BFI TEMP[4], TEMP[0], TEMP[1], TEMP[2], TEMP[3]",
        [
            i([0, -1, 0x1234_5678, 0]),
            i([0xf, 0, -1, 0x5b]),
            i([4, 8, 0, 31]),
            i([4, 8, 32, 2]),
        ],
    ));
    // 0xf into bits 4..8; zeros into bits 8..16; width 32 is the insert; 0x5b's low bit at bit 31 (the
    // field stops there).
    assert_eq!(got, [0xf0, !0xff00, -1, MIN]);
}

#[test]
fn bit_counting_and_reversal() {
    assert_eq!(
        un("BREV", [1, 0, -1, 0x0000_00f0]),
        [MIN, 0, -1, 0x0f00_0000]
    );
    assert_eq!(un("POPC", [0, -1, 0x0f0f, 7]), [0, 32, 8, 3]);
    assert_eq!(un("LSB", [0, 8, MIN, -1]), [-1, 3, 31, 0]);
    assert_eq!(un("UMSB", [0, 8, MIN, -1]), [-1, 3, 31, 31]);
    // Highest bit that differs from the sign: none for 0 and -1; bit 0 for -2.
    assert_eq!(un("IMSB", [0, -1, -2, 8]), [-1, -1, 0, 3]);
}

#[test]
fn sum_of_absolute_differences_is_unsigned() {
    let got = run_i(
        "SAD TEMP[4], TEMP[0], TEMP[1], TEMP[2]",
        [5, 2, -1, 0],
        [2, 5, 1, -1],
        [10, 10, 0, 0],
    );
    // 0xffffffff - 1 = 0xfffffffe; 0 - 0xffffffff wraps the other way to 0xffffffff.
    assert_eq!(got, [13, 13, -2, -1]);
}

#[test]
fn half_float_packing() {
    let got = run(
        "",
        "PK2H TEMP[4], TEMP[0]",
        [f([1.0, -2.0, 9.0, 9.0]), [0; 4], [0; 4], [0; 4]],
    );
    // binary16: 1.0 = 0x3c00, -2.0 = 0xc000; packed low, high; replicated.
    assert_eq!(got, [0xc000_3c00; 4]);
    let got = as_f(run(
        "",
        "UP2H TEMP[4], TEMP[0]",
        [[0x3800_c400, 0, 0, 0], [0; 4], [0; 4], [0; 4]],
    ));
    // 0xc400 = -4.0, 0x3800 = 0.5
    assert_bits(got, [-4.0, 0.5, -4.0, 0.5]);
}
