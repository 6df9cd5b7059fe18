//! Float operations through the interpreter: arithmetic (NaN, -0, infinities, denormals, f16
//! rounding), comparisons, min/max, saturate, rounding and transcendentals. Expected values are
//! worked out from IEEE 754 rules by hand or with Rust's own f32/f64 arithmetic.

mod interp_support;

use agxc_egraph::ir::PureOp;
use interp_support::{check, f, h, hv};

const NAN: f32 = f32::NAN;
const INF: f32 = f32::INFINITY;
/// The smallest positive f32 denormal, 2^-149.
fn denorm(k: u32) -> f32 {
    f32::from_bits(k)
}

mod arithmetic {
    use super::*;

    #[test]
    fn add() {
        check(
            PureOp::Fadd,
            &[
                (vec![f(1.0), f(2.0)], f(3.0)),
                (vec![f(INF), f(-INF)], f(NAN)),
                (vec![f(NAN), f(1.0)], f(NAN)),
                // -0 + -0 = -0, but -0 + +0 = +0 under round-to-nearest.
                (vec![f(-0.0), f(-0.0)], f(-0.0)),
                (vec![f(-0.0), f(0.0)], f(0.0)),
                (vec![f(1.5), f(-1.5)], f(0.0)),
                // Denormals are kept, not flushed: 2^-149 + 2^-149 = 2^-148.
                (vec![f(denorm(1)), f(denorm(1))], f(denorm(2))),
                (vec![f(denorm(5)), f(0.0)], f(denorm(5))),
                (vec![f(f32::MAX), f(f32::MAX)], f(INF)),
                // 1 + 2^-24 is halfway between 1 and 1 + 2^-23: ties to the even one, 1.
                (vec![f(1.0), f(2f32.powi(-24))], f(1.0)),
                // (1 + 2^-23) + 2^-24 ties to the even neighbour above, 1 + 2^-22.
                (
                    vec![f(1.0 + 2f32.powi(-23)), f(2f32.powi(-24))],
                    f(1.0 + 2f32.powi(-22)),
                ),
                (vec![f(0.1), f(0.2)], f(0.1f32 + 0.2f32)),
            ],
        );
    }

    #[test]
    fn sub_mul_div() {
        check(
            PureOp::Fsub,
            &[
                (vec![f(0.0), f(0.0)], f(0.0)),
                (vec![f(-0.0), f(0.0)], f(-0.0)),
                (vec![f(INF), f(INF)], f(NAN)),
                (vec![f(denorm(3)), f(denorm(1))], f(denorm(2))),
            ],
        );
        check(
            PureOp::Fmul,
            &[
                (vec![f(-0.0), f(5.0)], f(-0.0)),
                (vec![f(0.0), f(INF)], f(NAN)),
                (vec![f(-2.0), f(INF)], f(-INF)),
                // 2^-149 * 0.5 = 2^-150, halfway between 0 and 2^-149: ties to even (0).
                (vec![f(denorm(1)), f(0.5)], f(0.0)),
                // 3 * 2^-149 * 0.5 = 1.5 * 2^-149: ties to 2 * 2^-149.
                (vec![f(denorm(3)), f(0.5)], f(denorm(2))),
                (vec![f(denorm(3)), f(2.0)], f(denorm(6))),
                (vec![f(1e-20), f(1e-20)], f(1e-20f32 * 1e-20f32)),
                (vec![f(3.0), f(1.0 / 3.0)], f(3.0f32 * (1.0f32 / 3.0))),
            ],
        );
        check(
            PureOp::Fdiv,
            &[
                (vec![f(1.0), f(0.0)], f(INF)),
                (vec![f(-1.0), f(0.0)], f(-INF)),
                (vec![f(1.0), f(-0.0)], f(-INF)),
                (vec![f(0.0), f(0.0)], f(NAN)),
                (vec![f(INF), f(INF)], f(NAN)),
                (vec![f(1.0), f(INF)], f(0.0)),
                (vec![f(-1.0), f(INF)], f(-0.0)),
                (vec![f(1.0), f(3.0)], f(1.0f32 / 3.0)),
                (vec![f(denorm(4)), f(4.0)], f(denorm(1))),
            ],
        );
    }

    #[test]
    fn fma_rounds_once() {
        // (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24. Rounded separately the product loses 2^-24 and the
        // result is 0; fused it survives.
        let a = 1.0 + 2f32.powi(-12);
        check(
            PureOp::Fma,
            &[
                (
                    vec![f(a), f(a), f(-(1.0 + 2f32.powi(-11)))],
                    f(2f32.powi(-24)),
                ),
                (vec![f(2.0), f(3.0), f(1.0)], f(7.0)),
                (vec![f(INF), f(0.0), f(1.0)], f(NAN)),
                (vec![f(-0.0), f(1.0), f(0.0)], f(0.0)),
                (vec![f(-0.0), f(1.0), f(-0.0)], f(-0.0)),
            ],
        );
    }

    #[test]
    fn f16_is_rounded_once_and_correctly() {
        // 1 + (2^-11 + 2^-21): just above the halfway point between 1 and 1 + 2^-10, so it
        // rounds up (a conversion that drops low f64 bits before rounding would see a tie).
        check(PureOp::Fadd, &[(vec![hv(1.0), h(0x1001)], h(0x3c01))]);
        // fma(1045 * 2^-10, 2007 * 2^-22, 1): the product is 2^-11 + 163 * 2^-32, so the exact
        // result is 1 + 2^-11 + 163 * 2^-32, above the tie: 1 + 2^-10. Rounding to f32 first
        // would land on the tie and go to even (1.0).
        let a = hv(1045.0 / 1024.0);
        let b = hv(2007.0 * 2f32.powi(-22));
        check(PureOp::Fma, &[(vec![a, b, hv(1.0)], h(0x3c01))]);
        check(
            PureOp::Fadd,
            &[
                // 65504 + 16 = 65520, halfway to 65536: ties to even, which is infinity.
                (vec![hv(65504.0), hv(16.0)], h(0x7c00)),
                (vec![hv(65504.0), hv(8.0)], hv(65504.0)),
                (vec![hv(-0.0), hv(-0.0)], h(0x8000)),
                // Denormals: 2^-24 + 2^-24 = 2^-23.
                (vec![h(0x0001), h(0x0001)], h(0x0002)),
            ],
        );
        check(
            PureOp::Fmul,
            &[
                // 2^-14 * 0.5 = 2^-15, a denormal (0x0200), kept.
                (vec![h(0x0400), hv(0.5)], h(0x0200)),
                // 2^-24 * 0.5 ties to 0.
                (vec![h(0x0001), hv(0.5)], h(0x0000)),
            ],
        );
        check(PureOp::Fdiv, &[(vec![hv(1.0), hv(3.0)], h(0x3555))]);
    }
}

mod compare {
    use super::*;

    const PAIRS: [(f32, f32); 8] = [
        (1.0, 2.0),
        (2.0, 1.0),
        (1.0, 1.0),
        (NAN, 1.0),
        (1.0, NAN),
        (NAN, NAN),
        (-0.0, 0.0),
        (INF, INF),
    ];

    fn table(
        pred: impl Fn(f32, f32) -> bool,
    ) -> Vec<(Vec<agxc_egraph::ir::Const>, agxc_egraph::ir::Const)> {
        PAIRS
            .iter()
            .map(|&(a, b)| (vec![f(a), f(b)], agxc_egraph::ir::Const::bool(pred(a, b))))
            .collect()
    }

    #[test]
    fn ordered_comparisons_are_false_on_nan() {
        check(PureOp::Feq, &table(|a, b| a == b));
        check(
            PureOp::Fne,
            &table(|a, b| !a.is_nan() && !b.is_nan() && a != b),
        );
        check(PureOp::Flt, &table(|a, b| a < b));
        check(PureOp::Fle, &table(|a, b| a <= b));
        check(PureOp::Fgt, &table(|a, b| a > b));
        check(PureOp::Fge, &table(|a, b| a >= b));
    }

    #[test]
    fn unordered_comparisons_are_true_on_nan() {
        let nan = |a: f32, b: f32| a.is_nan() || b.is_nan();
        check(PureOp::Fequ, &table(|a, b| nan(a, b) || a == b));
        check(PureOp::Fneu, &table(|a, b| a != b));
        check(PureOp::Fltu, &table(|a, b| nan(a, b) || a < b));
        check(PureOp::Fleu, &table(|a, b| nan(a, b) || a <= b));
        check(PureOp::Fgtu, &table(|a, b| nan(a, b) || a > b));
        check(PureOp::Fgeu, &table(|a, b| nan(a, b) || a >= b));
    }

    #[test]
    fn signed_zeros_are_equal() {
        use agxc_egraph::ir::Const;
        check(PureOp::Feq, &[(vec![f(-0.0), f(0.0)], Const::bool(true))]);
        check(PureOp::Flt, &[(vec![f(-0.0), f(0.0)], Const::bool(false))]);
        check(PureOp::Feq, &[(vec![hv(-0.0), hv(0.0)], Const::bool(true))]);
        check(
            PureOp::Fltu,
            &[(vec![h(0x7e00), hv(0.0)], Const::bool(true))],
        );
    }
}

mod min_max {
    use super::*;

    #[test]
    fn nan_yields_the_other_operand() {
        check(
            PureOp::Fmin,
            &[
                (vec![f(NAN), f(1.0)], f(1.0)),
                (vec![f(1.0), f(NAN)], f(1.0)),
                (vec![f(NAN), f(NAN)], f(NAN)),
                (vec![f(-INF), f(1.0)], f(-INF)),
                (vec![f(denorm(1)), f(0.0)], f(0.0)),
                (vec![f(2.0), f(-3.0)], f(-3.0)),
            ],
        );
        check(
            PureOp::Fmax,
            &[
                (vec![f(NAN), f(1.0)], f(1.0)),
                (vec![f(1.0), f(NAN)], f(1.0)),
                (vec![f(INF), f(1.0)], f(INF)),
                (vec![f(denorm(1)), f(0.0)], f(denorm(1))),
            ],
        );
    }

    #[test]
    fn minus_zero_orders_below_plus_zero() {
        check(
            PureOp::Fmin,
            &[
                (vec![f(-0.0), f(0.0)], f(-0.0)),
                (vec![f(0.0), f(-0.0)], f(-0.0)),
                (vec![hv(0.0), hv(-0.0)], h(0x8000)),
            ],
        );
        check(
            PureOp::Fmax,
            &[
                (vec![f(-0.0), f(0.0)], f(0.0)),
                (vec![f(0.0), f(-0.0)], f(0.0)),
            ],
        );
    }
}

mod saturate {
    use super::*;

    #[test]
    fn clamps_to_unit_interval() {
        check(
            PureOp::Fsat,
            &[
                (vec![f(NAN)], f(0.0)),
                (vec![f(-0.0)], f(0.0)),
                (vec![f(-1.0)], f(0.0)),
                (vec![f(-INF)], f(0.0)),
                (vec![f(2.0)], f(1.0)),
                (vec![f(INF)], f(1.0)),
                (vec![f(0.5)], f(0.5)),
                (vec![f(1.0)], f(1.0)),
                (vec![f(denorm(7))], f(denorm(7))),
                (vec![h(0xfe00)], h(0x0000)),
                (vec![hv(1.5)], hv(1.0)),
            ],
        );
    }
}

mod rounding {
    use super::*;

    #[test]
    fn floor_ceil_trunc_round_even() {
        check(
            PureOp::Floor,
            &[
                (vec![f(-0.5)], f(-1.0)),
                (vec![f(-0.0)], f(-0.0)),
                (vec![f(1.5)], f(1.0)),
                (vec![f(-INF)], f(-INF)),
                (vec![f(denorm(1))], f(0.0)),
            ],
        );
        check(
            PureOp::Ceil,
            &[
                // IEEE roundToIntegralTowardPositive keeps the sign: ceil(-0.5) = -0.
                (vec![f(-0.5)], f(-0.0)),
                (vec![f(0.5)], f(1.0)),
                (vec![f(denorm(1))], f(1.0)),
            ],
        );
        check(
            PureOp::Ftrunc,
            &[
                (vec![f(-1.7)], f(-1.0)),
                (vec![f(-0.3)], f(-0.0)),
                (vec![f(NAN)], f(NAN)),
            ],
        );
        check(
            PureOp::FroundEven,
            &[
                (vec![f(2.5)], f(2.0)),
                (vec![f(3.5)], f(4.0)),
                (vec![f(-2.5)], f(-2.0)),
                (vec![f(0.5)], f(0.0)),
                (vec![f(-0.5)], f(-0.0)),
                (vec![f(8388609.0)], f(8388609.0)),
            ],
        );
    }

    #[test]
    fn fract_is_x_minus_floor_x_rounded() {
        check(
            PureOp::Fract,
            &[
                (vec![f(1.75)], f(0.75)),
                (vec![f(-0.25)], f(0.75)),
                // -1e-10 - (-1) rounds to 1.0 in f32: the reference result is 1.0, not < 1.
                (vec![f(-1e-10)], f(1.0)),
                (vec![f(INF)], f(NAN)),
                (vec![f(-0.0)], f(0.0)),
            ],
        );
    }
}

mod transcendental {
    use super::*;

    /// The reference: computed in f64 from the exact operand, rounded once to f32.
    fn f64_ref(x: f32, op: fn(f64) -> f64) -> f32 {
        op(x as f64) as f32
    }

    #[test]
    fn special_values() {
        check(
            PureOp::Sin,
            &[
                (vec![f(0.0)], f(0.0)),
                (vec![f(-0.0)], f(-0.0)),
                (vec![f(INF)], f(NAN)),
            ],
        );
        check(
            PureOp::Cos,
            &[(vec![f(0.0)], f(1.0)), (vec![f(NAN)], f(NAN))],
        );
        check(
            PureOp::Exp2,
            &[
                (vec![f(3.0)], f(8.0)),
                (vec![f(-INF)], f(0.0)),
                (vec![f(-149.0)], f(denorm(1))),
                (vec![f(128.0)], f(INF)),
            ],
        );
        check(
            PureOp::Log2,
            &[
                (vec![f(8.0)], f(3.0)),
                (vec![f(0.0)], f(-INF)),
                (vec![f(-0.0)], f(-INF)),
                (vec![f(-1.0)], f(NAN)),
                (vec![f(denorm(1))], f(-149.0)),
            ],
        );
        check(
            PureOp::Sqrt,
            &[
                (vec![f(-0.0)], f(-0.0)),
                (vec![f(-1.0)], f(NAN)),
                (vec![f(2.0)], f(2f32.sqrt())),
                // sqrt(2^-148) = 2^-74 exactly: a denormal operand keeps its value.
                (vec![f(denorm(2))], f(2f32.powi(-74))),
            ],
        );
        check(
            PureOp::Rsqrt,
            &[
                (vec![f(4.0)], f(0.5)),
                (vec![f(0.0)], f(INF)),
                (vec![f(-0.0)], f(-INF)),
                (vec![f(INF)], f(0.0)),
            ],
        );
        check(
            PureOp::Rcp,
            &[
                (vec![f(-0.0)], f(-INF)),
                (vec![f(INF)], f(0.0)),
                (vec![f(4.0)], f(0.25)),
            ],
        );
        check(
            PureOp::Pow,
            &[
                (vec![f(2.0), f(10.0)], f(1024.0)),
                (vec![f(0.0), f(0.0)], f(1.0)),
                (vec![f(-8.0), f(1.0 / 3.0)], f(NAN)),
            ],
        );
    }

    #[test]
    fn computed_in_f64_and_rounded_once() {
        let xs = [0.5f32, 1.0, 3.0, -2.75, 100.0, 1e-3];
        for (op, r) in [
            (PureOp::Sin, f64::sin as fn(f64) -> f64),
            (PureOp::Cos, f64::cos),
            (PureOp::Exp2, f64::exp2),
            (PureOp::Sqrt, f64::sqrt),
        ] {
            let table: Vec<_> = xs.iter().map(|&x| (vec![f(x)], f(f64_ref(x, r)))).collect();
            check(op, &table);
        }
        let table: Vec<_> = [0.5f32, 3.0, 100.0, 1e-3]
            .iter()
            .map(|&x| (vec![f(x)], f((x as f64).log2() as f32)))
            .collect();
        check(PureOp::Log2, &table);
        // sin(1) = 0.8414709848078965 rounds to f32 0.84147096 (within half an ulp).
        check(PureOp::Sin, &[(vec![f(1.0)], f(0.841_470_96))]);
        // f16: sin(1) is 1723.33 steps of 2^-11, so it rounds to 1723 * 2^-11 (0x3abb).
        check(PureOp::Sin, &[(vec![hv(1.0)], h(0x3abb))]);
    }
}
