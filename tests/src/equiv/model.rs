//! Error models: where an implementation under test may legitimately differ from the reference
//! interpreter, operation by operation.
//!
//! The shadow run (`bounds`) tracks, beside every value of the reference function, how far the
//! implementation's corresponding value may be from it. Errors enter at individual operations
//! (this module) and propagate through the ones after (`bounds::propagate`). An [`ErrorModel`]
//! is a set of sources, each documented with the fact it rests on:
//!
//! - **Rewrites** (the optimizer; property (1), and property (2) at -O2): only the rules whose
//!   tolerance is not `Exact` change values, and each is attributed to one operation of the
//!   unoptimized program. [`INEXACT_RULES`] lists every such rule of the generic and the G13
//!   rule sets with the operation that accounts for it; a test fails when a rule set gains an
//!   inexact rule this list does not know.
//! - **G13** (property (2)): the hardware and the backend's lowerings: f32 denormals flushed on
//!   every float operation's operands and results (docs/g13.md "Floating point"), the sine-unit
//!   lowering of sin and cos, `sqrt` as `x * rsqrt_special(x)`, the Newton-Raphson division, and
//!   for the other transcendentals the Vulkan precision requirements (Vulkan specification,
//!   "Precision and Operation of SPIR-V Instructions"), which DESIGN.md makes the contract.
//!
//! Every bound is in absolute terms on the result (ULPs converted at the result's magnitude).

use agxc_egraph::ir::{Const, InstFlags, PureOp, Type};

/// Unknown: anything may come out.
pub const UNKNOWN: f64 = f64::INFINITY;

/// `2^-23`: the sin/cos lowering's error grows by at most this much per radian of `|x|`. The
/// turn count `x * (1/2pi)` is rounded to f32 (half an ULP: `|x|/2pi * 2^-24` turns) and `1/2pi`
/// itself is off by at most `2^-27`: `2pi (|x|/2pi 2^-24 + |x| 2^-27) < 1.07e-7 |x|` radians
/// (backend-agx `target::rules` module docs, which measure 8.8e-5 at `|x| = 1000`).
pub const SIN_COS_SLOPE: f64 = 1.0 / 8_388_608.0;

/// `2^-20`: the sin/cos lowering's error at `x = 0`: the sine unit's model and the final
/// rounding (measured 4.1e-7 on `[-pi, pi]`, backend-agx `target::rules`).
pub const SIN_COS_BASE: f64 = 1.0 / 1_048_576.0;

/// The rewrite rules whose tolerance is not `Exact`, and the operation whose local error in
/// [`ErrorModel::local`] accounts for each.
pub const INEXACT_RULES: &[(&str, &str)] = &[
    // Fusion: the product is not rounded; attributed to `fmul` (half an ULP of the product,
    // unknown where it overflowed), the sum's own rounding then follows from propagation.
    ("fma-add-mul-left", "fmul"),
    ("fma-add-mul-right", "fmul"),
    ("fma-sub-mul-left", "fmul"),
    ("fma-sub-mul-right", "fmul"),
    ("fma-neg-add-mul-left", "fmul"),
    ("fma-neg-add-mul-right", "fmul"),
    ("fma-neg-sub-mul-left", "fmul"),
    ("fma-neg-sub-mul-right", "fmul"),
    // pow(2, y) -> exp2(y): 1 ULP.
    ("pow-base-two", "pow"),
    // 1/sqrt(x) -> rsqrt(x) and 1/rsqrt(x) -> sqrt(x): 2 ULP on the reciprocal (`rcp`, and
    // `fdiv` since `fdiv-one-to-rcp` turns 1/x into rcp(x) exactly).
    ("rcp-sqrt-to-rsqrt", "rcp, fdiv"),
    ("rcp-rsqrt-to-sqrt", "rcp, fdiv"),
    // Gradient samples to explicit LOD: generated programs sample with an explicit LOD only,
    // which no inexact texture rule rewrites.
    ("txd-to-txl", "none: gradient samples are not generated"),
    (
        "txd-cube-to-txl",
        "none: gradient samples are not generated",
    ),
    // The G13's sine-unit lowering (f32) and its f16 form through f32.
    ("sin-to-sin-pt", "sin"),
    ("cos-to-sin-pt", "cos"),
    ("sin-f16-via-f32", "sin"),
    ("cos-f16-via-f32", "cos"),
    // sqrt(x) -> x * rsqrt_special(x): 2 ULP.
    ("sqrt-to-rsqrt-special", "sqrt"),
    // Power-of-two scaling folded into a constant (`rules/scaling.rs`): bit-exact while the
    // inner product `x * a` stays normal; where it overflowed or went subnormal the original
    // lost range or precision in that `fmul`, which its local error (half an ULP at the
    // product's magnitude, denormal spacing below the normal range, unknown on overflow)
    // covers.
    ("fmul-fold-pow2-scale", "fmul"),
    ("fma-fold-pow2-scale", "fmul"),
    ("fma-fold-pow2-scale-right", "fmul"),
    // a / c for a constant c as a * rcp(c) with Markstein's correction (backend-agx
    // `target::divide`): correctly rounded while the reciprocal and the residual stay normal;
    // outside that range within the division's own local error (2 ULP, as for `fdiv`).
    ("fdiv-to-refined-rcp", "fdiv"),
];

/// Which sources of difference an implementation under test has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ErrorModel {
    /// Optimizer rewrites (the generic rules, and the G13's if `g13_rules`).
    pub rewrites: bool,
    /// The G13 target's lowerings: sin and cos through the sine unit, sqrt through
    /// `rsqrt_special`.
    pub g13_rules: bool,
    /// The G13 hardware and backend: flushing, transcendental precision.
    pub g13: bool,
}

impl ErrorModel {
    /// The optimizer with the generic target.
    pub const GENERIC_OPT: ErrorModel = ErrorModel {
        rewrites: true,
        g13_rules: false,
        g13: false,
    };
    /// The optimizer with the G13 target.
    pub const G13_OPT: ErrorModel = ErrorModel {
        rewrites: true,
        g13_rules: true,
        g13: false,
    };
    /// The backend and simulator, at -O0 and -O2 alike: the optimizer's rewrites (at -O2) and
    /// the backend's own lowerings (sin, cos and sqrt the same way at both levels; instruction
    /// selection may contract `a * b + c` as SPIR-V and TGSI allow) plus the hardware.
    pub const G13: ErrorModel = ErrorModel {
        rewrites: true,
        g13_rules: true,
        g13: true,
    };

    /// Extra error in operand `x` of `op` as the implementation reads it: the G13 flushes f32
    /// denormal operands of float arithmetic to zero.
    pub fn operand(&self, op: PureOp, x: Const) -> f64 {
        if self.g13 && x.ty() == Type::F32 && flushes(op) {
            let v = x.as_f64();
            if v != 0.0 && v.abs() < f64::from(f32::MIN_POSITIVE) {
                return v.abs();
            }
        }
        0.0
    }

    /// The error the implementation may add computing `op` (with `flags`) on `args` where the
    /// reference gets `r`. `mags` is the smallest and largest magnitude the result takes over
    /// the operands' uncertainty (both `|r|` when the operands are exact).
    pub fn local(
        &self,
        op: PureOp,
        flags: InstFlags,
        args: &[Const],
        r: Const,
        mags: (f64, f64),
    ) -> f64 {
        let ty = r.ty();
        if !ty.is_float() {
            return 0.0;
        }
        let (lo, hi) = mags;
        let ulps = |n: f64| n * ulp(ty, hi);
        // An infinite result from finite, non-zero operands overflowed: an implementation that
        // rounds differently near the largest finite value may stay finite.
        let overflowed = r.as_f64().is_infinite()
            && args
                .iter()
                .all(|a| a.as_f64().is_finite() && a.as_f64() != 0.0);
        let mut e = 0.0;
        if self.rewrites {
            e += match op {
                PureOp::Fmul if !flags.contains(InstFlags::NO_CONTRACT) => {
                    if overflowed {
                        UNKNOWN
                    } else {
                        ulps(0.5)
                    }
                }
                PureOp::Fdiv | PureOp::Rcp => ulps(2.0),
                PureOp::Pow => ulps(1.0),
                PureOp::Sqrt if self.g13_rules => ulps(2.0),
                _ => 0.0,
            };
        }
        if self.g13_rules && matches!(op, PureOp::Sin | PureOp::Cos) {
            let x = args[0].as_f64().abs();
            let f32_error = (SIN_COS_BASE + x * SIN_COS_SLOPE).min(2.0);
            // f16 goes through f32 and rounds once more.
            e += f32_error + if ty == Type::F16 { ulps(1.0) } else { 0.0 };
        }
        if self.g13 {
            e += self.hardware(op, args, r, hi);
            if ty == Type::F32 && flushes(op) && lo < f64::from(f32::MIN_POSITIVE) && hi > 0.0 {
                // A denormal result (possibly only for some operands within the uncertainty)
                // is flushed: off by at most the smallest normal.
                e += f64::from(f32::MIN_POSITIVE);
            }
        }
        if e > 0.0 && overflowed {
            return UNKNOWN;
        }
        e
    }

    /// The hardware's and backend's precision for transcendentals and division (Vulkan's
    /// requirements where the G13 is not documented to do better).
    fn hardware(&self, op: PureOp, args: &[Const], r: Const, hi: f64) -> f64 {
        let ty = r.ty();
        let x = args.first().map_or(0.0, |a| a.as_f64());
        let u = |n: f64| n * ulp(ty, hi);
        // f16 transcendentals run in f32 and round again to f16.
        let narrow = if ty == Type::F16 { u(1.0) } else { 0.0 };
        let f32_ulps = |n: f64| n * ulp(Type::F32, hi) + narrow;
        match op {
            // Vulkan: 3 + 2|x| ULP.
            PureOp::Exp2 => f32_ulps(3.0 + 2.0 * x.abs()),
            // Vulkan: 3 ULP outside [0.5, 2], 2^-21 absolute inside.
            PureOp::Log2 => {
                if (0.5..=2.0).contains(&x) {
                    2f64.powi(-21) + narrow
                } else {
                    f32_ulps(3.0)
                }
            }
            // Vulkan: 2 ULP; rcp 1 ULP (docs/g13.md), with the Newton-Raphson step better still.
            PureOp::Rsqrt => f32_ulps(2.0),
            PureOp::Rcp => f32_ulps(1.0),
            // Vulkan: 2.5 ULP for divisors in [2^-126, 2^126]; outside, the reciprocal of the
            // divisor is denormal or huge and the result is not specified.
            PureOp::Fdiv => {
                let d = args.get(1).map_or(1.0, |a| a.as_f64().abs());
                if d.is_finite() && !(2f64.powi(-126)..=2f64.powi(126)).contains(&d) {
                    UNKNOWN
                } else {
                    f32_ulps(3.0)
                }
            }
            // sqrt is x * rsqrt_special(x), as the G13 target's rule has it: counted with the
            // rewrites (`g13_rules`).
            // exp2(y * log2(x)) (Vulkan: inherited): log2's relative error and the product's
            // rounding scale by |y log2 x| through exp2, which adds its own. GLSL leaves pow
            // undefined for x < 0 and for x = 0, y <= 0 (GLSL 4.60, 8.2 "Exponential
            // Functions"), and exp2(y log2 x) does not give IEEE pow's special cases for
            // infinite or NaN operands (pow(1, NaN) = 1, but 0 * log2(1) * NaN is NaN): all
            // unknown.
            PureOp::Pow => {
                let y = args.get(1).map_or(0.0, |a| a.as_f64());
                if !(x > 0.0 && x.is_finite() && y.is_finite()) {
                    return UNKNOWN;
                }
                let t = (y * x.log2()).abs();
                if t.is_finite() {
                    f32_ulps(3.0 + 2.0 * t) + hi * core::f64::consts::LN_2 * t * 2f64.powi(-21)
                } else {
                    0.0
                }
            }
            _ => 0.0,
        }
    }

    /// The error of each result of an explicit-LOD sample or a fetch with exact operands. The
    /// interpreter and the simulator's texture unit implement the same rules independently
    /// (texture-semantics brief: compare within 1e-5 absolute).
    pub fn texture(&self) -> f64 {
        if self.g13 {
            1e-5
        } else {
            0.0
        }
    }
}

/// True for operations the G13 runs on its float units, which flush f32 denormals: float
/// arithmetic, float comparisons and conversions from float (not the bitwise `select` and
/// `bitcast`).
fn flushes(op: PureOp) -> bool {
    use agxc_egraph::ir::{Class, Signature};
    matches!(
        op.signature(),
        Signature::Unary(Class::Float)
            | Signature::Binary(Class::Float)
            | Signature::Ternary(Class::Float)
            | Signature::Compare(Class::Float)
            | Signature::Convert {
                from: Class::Float,
                ..
            }
    )
}

/// One unit in the last place of `ty` at magnitude `m` (the spacing of the binade `m` is in;
/// the denormal spacing below the smallest normal; unknown for non-finite `m`).
pub fn ulp(ty: Type, m: f64) -> f64 {
    let (min_normal, mantissa_bits, denormal) = match ty {
        Type::F16 => (2f64.powi(-14), 10, 2f64.powi(-24)),
        _ => (2f64.powi(-126), 23, 2f64.powi(-149)),
    };
    let m = m.abs();
    if !m.is_finite() {
        UNKNOWN
    } else if m < min_normal {
        denormal
    } else {
        2f64.powi(m.log2().floor() as i32 - mantissa_bits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use agxc_egraph::opt::rules::Tolerance;
    use agxc_egraph::opt::{GenericTarget, Target};

    #[test]
    fn ulps_are_binade_spacings() {
        assert_eq!(ulp(Type::F32, 1.0), f64::from(f32::EPSILON));
        assert_eq!(ulp(Type::F32, 1.5), f64::from(f32::EPSILON));
        assert_eq!(ulp(Type::F32, 2.0), 2.0 * f64::from(f32::EPSILON));
        assert_eq!(ulp(Type::F32, 1e-40), f64::from(f32::from_bits(1)));
        assert_eq!(ulp(Type::F16, 1.0), 2f64.powi(-10));
        assert_eq!(ulp(Type::F16, 65504.0), 32.0);
        assert_eq!(ulp(Type::F16, 1e-6), 2f64.powi(-24));
    }

    /// Every rule whose tolerance is not exact must be one this model accounts for.
    fn check_rules(target: &dyn Target) {
        for rule in target.rules() {
            if rule.tolerance != Tolerance::Exact {
                assert!(
                    INEXACT_RULES.iter().any(|&(name, _)| name == rule.name),
                    "rule `{}` ({:?}) of target {} is not in INEXACT_RULES: add it with the \
                     operation whose local error covers it",
                    rule.name,
                    rule.tolerance,
                    target.name()
                );
            }
        }
    }

    #[test]
    fn every_inexact_rule_is_accounted_for() {
        check_rules(&GenericTarget::new());
        check_rules(&agxc_backend_agx::target::G13Target::new());
    }

    #[test]
    fn g13_flushes_denormal_f32_operands_only() {
        let m = ErrorModel::G13;
        let denormal = Const::f32(f32::from_bits(5));
        assert_eq!(
            m.operand(PureOp::Fadd, denormal),
            f64::from(f32::from_bits(5))
        );
        assert_eq!(m.operand(PureOp::Fadd, Const::f32(1.0)), 0.0);
        assert_eq!(m.operand(PureOp::Bitcast, denormal), 0.0);
        assert_eq!(m.operand(PureOp::Select, denormal), 0.0);
        assert_eq!(ErrorModel::GENERIC_OPT.operand(PureOp::Fadd, denormal), 0.0);
    }

    #[test]
    fn fusion_is_half_an_ulp_of_the_product_and_unknown_on_overflow() {
        let m = ErrorModel::GENERIC_OPT;
        let args = [Const::f32(3.0), Const::f32(0.5)];
        let e = m.local(
            PureOp::Fmul,
            InstFlags::NONE,
            &args,
            Const::f32(1.5),
            (1.5, 1.5),
        );
        assert_eq!(e, 0.5 * f64::from(f32::EPSILON));
        let e = m.local(
            PureOp::Fmul,
            InstFlags::NO_CONTRACT,
            &args,
            Const::f32(1.5),
            (1.5, 1.5),
        );
        assert_eq!(e, 0.0);
        let big = [Const::f32(f32::MAX), Const::f32(2.0)];
        let inf = Const::f32(f32::INFINITY);
        let e = m.local(
            PureOp::Fmul,
            InstFlags::NONE,
            &big,
            inf,
            (f64::INFINITY, f64::INFINITY),
        );
        assert_eq!(e, UNKNOWN);
    }
}
