//! The G13's own pure operations, as IR target operations with evaluation functions
//! (compare-and-select in [`cmpsel`](super::cmpsel); [`OPS`] lists them all).
//!
//! The evaluation functions are the project's model of each instruction (used by the
//! interpreter, constant folding and the rule checks); the target-only ones evaluate the shared
//! description's model (`agxc_g13_isa::semantics`), which the simulator executes too.
//! Results are computed in f64 and rounded to the operand type once; for f16 they go through f32
//! first (one extra rounding, well inside the accuracy these approximations have anyway).

use super::cmpsel;
use agxc_egraph::ir::{Class, Const, CustomOpDef, PureOp, Signature, Type};
use agxc_g13_isa::semantics;

fn round(ty: Type, v: f64) -> Const {
    let c = Const::f32(v as f32);
    match ty {
        Type::F16 => PureOp::Fcvt.eval(&[c], Type::F16),
        _ => c,
    }
}

/// `sin_pt_1(q)`: folds a quarter-turn count `q` in `[0, 4)` into `y` in `[-1, 1]` with
/// `sin(q * pi/2) = sin(y * pi/2)` (docs/g13.md, "sin_pt_1 / sin_pt_2"): `y = q` for `q < 1`,
/// `2 - q` for `1 <= q < 3`, `q - 4` for `q >= 3`; NaN stays NaN.
pub fn eval_sin_pt_1(args: &[Const], _result: Type) -> Const {
    let ty = args[0].ty();
    let q = args[0].as_f64();
    if q.is_nan() {
        return args[0];
    }
    round(ty, semantics::sin_pt_1(q))
}

/// `sin_pt_2(y) = sin(pi * y / 2) / y`, and `pi / 2` at `y = 0` (docs/g13.md model), so that
/// `sin_pt_1(q) * sin_pt_2(sin_pt_1(q)) = sin(q * pi / 2)`.
pub fn eval_sin_pt_2(args: &[Const], _result: Type) -> Const {
    let ty = args[0].ty();
    let y = args[0].as_f64();
    round(ty, semantics::sin_pt_2(y))
}

/// `rsqrt_special(x)`: `1 / sqrt(x)` with the special cases chosen so that
/// `x * rsqrt_special(x) = sqrt(x)` everywhere (the seed ISA document: "can be used to implement
/// fast sqrt as rsqrt_special(x) * x, by handling special-cases differently"; docs/g13.md: "sqrt(x)
/// is computed as x * rsqrt_special(x)"): `+0` for `±0` (so `±0 * +0 = ±0`), `+inf` for `+inf`,
/// NaN for negative numbers and NaN. The hardware's exact outputs for these cases are not
/// documented; this is the model the project uses.
pub fn eval_rsqrt_special(args: &[Const], _result: Type) -> Const {
    let ty = args[0].ty();
    let x = args[0].as_f64();
    // A negative number or NaN gives the canonical NaN here (the simulator's model leaves a
    // NaN operand's payload to `sqrt`).
    let v = if x < 0.0 || x.is_nan() {
        f64::NAN
    } else {
        semantics::rsqrt_special(x)
    };
    round(ty, v)
}

/// `sat(fma(a, b, c))`: the fused multiply-add with the destination saturate modifier.
pub fn eval_fmadd_sat(args: &[Const], result: Type) -> Const {
    let fma = PureOp::Fma.eval(args, result);
    PureOp::Fsat.eval(&[fma], result)
}

/// `sat(a + b)`.
pub fn eval_fadd_sat(args: &[Const], result: Type) -> Const {
    let add = PureOp::Fadd.eval(args, result);
    PureOp::Fsat.eval(&[add], result)
}

/// `sat(a * b)`.
pub fn eval_fmul_sat(args: &[Const], result: Type) -> Const {
    let mul = PureOp::Fmul.eval(args, result);
    PureOp::Fsat.eval(&[mul], result)
}

/// `sin_pt_1`: first half of the sine unit.
pub static SIN_PT_1: CustomOpDef = CustomOpDef {
    name: "g13.sin_pt_1",
    signature: Signature::Unary(Class::Float),
    eval: eval_sin_pt_1,
    doc: "folds a quarter-turn count q in [0, 4) into [-1, 1] (docs/g13.md model)",
};

/// `sin_pt_2`: second half of the sine unit.
pub static SIN_PT_2: CustomOpDef = CustomOpDef {
    name: "g13.sin_pt_2",
    signature: Signature::Unary(Class::Float),
    eval: eval_sin_pt_2,
    doc: "sin(pi y / 2) / y, pi/2 at 0 (docs/g13.md model)",
};

/// `rsqrt_special`: the reciprocal square root that makes `x * rsqrt_special(x)` a square root.
pub static RSQRT_SPECIAL: CustomOpDef = CustomOpDef {
    name: "g13.rsqrt_special",
    signature: Signature::Unary(Class::Float),
    eval: eval_rsqrt_special,
    doc: "1/sqrt(x) with +0 at ±0 and +inf at +inf, so that x * rsqrt_special(x) = sqrt(x)",
};

/// `fmadd` with saturate.
pub static FMADD_SAT: CustomOpDef = CustomOpDef {
    name: "g13.fmadd_sat",
    signature: Signature::Ternary(Class::Float),
    eval: eval_fmadd_sat,
    doc: "sat(fma(a, b, c)): fmadd with the destination saturate modifier",
};

/// `fadd` with saturate.
pub static FADD_SAT: CustomOpDef = CustomOpDef {
    name: "g13.fadd_sat",
    signature: Signature::Binary(Class::Float),
    eval: eval_fadd_sat,
    doc: "sat(a + b): fadd with the destination saturate modifier",
};

/// `fmul` with saturate.
pub static FMUL_SAT: CustomOpDef = CustomOpDef {
    name: "g13.fmul_sat",
    signature: Signature::Binary(Class::Float),
    eval: eval_fmul_sat,
    doc: "sat(a * b): fmul with the destination saturate modifier",
};

/// Every G13 operation.
pub static OPS: [&CustomOpDef; 18] = [
    &SIN_PT_1,
    &SIN_PT_2,
    &RSQRT_SPECIAL,
    &FMADD_SAT,
    &FADD_SAT,
    &FMUL_SAT,
    &super::divide::URCP,
    &super::imadd::IMADD,
    &cmpsel::FCMPSEL_EQ,
    &cmpsel::FCMPSEL_LT,
    &cmpsel::FCMPSEL_GT,
    &cmpsel::FCMPSEL_LE,
    &cmpsel::FCMPSEL_GE,
    &cmpsel::ICMPSEL_EQ,
    &cmpsel::ICMPSEL_ULT,
    &cmpsel::ICMPSEL_UGT,
    &cmpsel::ICMPSEL_SLT,
    &cmpsel::ICMPSEL_SGT,
];

#[cfg(test)]
mod tests {
    use super::*;

    fn f(v: f32) -> Const {
        Const::f32(v)
    }

    #[test]
    fn sin_pt_1_folds_quarter_turns() {
        let e = |q: f32| eval_sin_pt_1(&[f(q)], Type::F32).as_f32();
        assert_eq!(e(0.5), 0.5);
        assert_eq!(e(1.0), 1.0);
        assert_eq!(e(2.5), -0.5);
        assert_eq!(e(3.0), -1.0);
        assert_eq!(e(3.75), -0.25);
        assert!(e(f32::NAN).is_nan());
    }

    #[test]
    fn sin_pt_2_times_its_argument_is_the_sine() {
        let e = |y: f32| eval_sin_pt_2(&[f(y)], Type::F32).as_f32();
        assert_eq!(e(0.0), core::f32::consts::FRAC_PI_2);
        // y = 1: sin(pi/2) / 1 = 1; y = -0.5: sin(-pi/4) / -0.5 = sqrt(2).
        assert_eq!(e(1.0), 1.0);
        assert_eq!(e(-0.5), core::f32::consts::SQRT_2);
    }

    #[test]
    fn rsqrt_special_makes_x_times_it_a_square_root() {
        let sqrt = |x: f32| x * eval_rsqrt_special(&[f(x)], Type::F32).as_f32();
        assert_eq!(sqrt(4.0), 2.0);
        assert_eq!(sqrt(0.0).to_bits(), 0.0f32.to_bits());
        assert_eq!(sqrt(-0.0).to_bits(), (-0.0f32).to_bits());
        assert_eq!(sqrt(f32::INFINITY), f32::INFINITY);
        assert!(sqrt(-1.0).is_nan());
    }

    #[test]
    fn saturating_forms_clamp() {
        let r = eval_fmadd_sat(&[f(2.0), f(3.0), f(-1.0)], Type::F32);
        assert_eq!(r, f(1.0));
        let r = eval_fadd_sat(&[f(-2.0), f(0.5)], Type::F32);
        assert_eq!(r, f(0.0));
        let r = eval_fmul_sat(&[f(0.25), f(2.0)], Type::F32);
        assert_eq!(r, f(0.5));
    }
}
