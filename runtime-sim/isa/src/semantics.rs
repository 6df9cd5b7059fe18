//! Target-only operation semantics: the project's model of the G13 operations that have no
//! counterpart in the IR's operation table, defined once. The simulator's executors run them,
//! and the backend's target operations (`agxc_backend_agx::target::ops`: the interpreter,
//! constant folding and the rule checker) evaluate them, so the optimizer and the machine agree.
//! All work in f64; callers round once to the operand type.

use core::f64::consts::FRAC_PI_2;

/// `sin_pt_1` (docs/g13.md, "sin_pt_1 / sin_pt_2"): folds a quarter-turn count `q` in `[0, 4)`
/// into `y` in `[-1, 1]` with `sin(q * pi/2) = sin(y * pi/2)`: `y = q` for `q < 1`, `2 - q` for
/// `1 <= q < 3`, `q - 4` for `q >= 3` (a NaN takes the last branch and stays NaN).
pub fn sin_pt_1(q: f64) -> f64 {
    if q < 1.0 {
        q
    } else if q < 3.0 {
        2.0 - q
    } else {
        q - 4.0
    }
}

/// `sin_pt_2` (docs/g13.md model): `sin(pi*y/2) / y`, and `pi/2` at `y = 0`, so that
/// `sin_pt_1(q) * sin_pt_2(sin_pt_1(q)) = sin(q * pi/2)`.
pub fn sin_pt_2(y: f64) -> f64 {
    if y == 0.0 {
        FRAC_PI_2
    } else {
        (FRAC_PI_2 * y).sin() / y
    }
}

/// `rsqrt_special`: `1/sqrt(x)` for positive finite `x`, but 0 for ±0 and +inf for +inf, so that
/// `x * rsqrt_special(x)` is `sqrt(x)` at the special values too (the seed ISA document: "can be
/// used to implement fast sqrt as rsqrt_special(x) * x, by handling special-cases differently";
/// docs/g13.md: "sqrt(x) is computed as x * rsqrt_special(x)"). Negative inputs and NaN give NaN.
/// The hardware's exact outputs for these cases are not documented; this is the project's model.
pub fn rsqrt_special(x: f64) -> f64 {
    if x == 0.0 {
        0.0
    } else if x == f64::INFINITY {
        f64::INFINITY
    } else {
        1.0 / x.sqrt()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sin_pt_pair_computes_sine() {
        // Independent check against the library sine at quarter-turn counts across [0, 4).
        for i in 0..400 {
            let q = f64::from(i) / 100.0;
            let y = sin_pt_1(q);
            assert!((-1.0..=1.0).contains(&y), "q {q}: y {y}");
            let s = y * sin_pt_2(y);
            assert!((s - (q * FRAC_PI_2).sin()).abs() < 1e-12, "q {q}");
        }
        assert!(sin_pt_1(f64::NAN).is_nan());
    }

    #[test]
    fn rsqrt_special_times_x_is_sqrt() {
        // The special values exactly (the reason for the operation), others to 2 ulp.
        for x in [0.0, -0.0, f64::INFINITY] {
            let r = x * rsqrt_special(x);
            assert_eq!(r.to_bits(), x.sqrt().to_bits(), "x {x}");
        }
        for x in [0.25, 2.0, 3.0, 1e30, 1e-30] {
            let r = x * rsqrt_special(x);
            assert!(
                (r - x.sqrt()).abs() <= 4.0 * f64::EPSILON * x.sqrt(),
                "x {x}"
            );
        }
        assert!(rsqrt_special(-1.0).is_nan());
    }
}
