//! Error models: where an implementation under test may legitimately differ from the reference
//! interpreter, operation by operation.
//!
//! The shadow run (`bounds`) tracks, beside every value of the reference function, how far the
//! implementation's corresponding value may be from it. Errors enter at individual operations
//! (this module) and propagate through the ones after (`bounds::propagate`). An [`ErrorModel`]
//! is a set of sources; none of them keeps a per-operation or per-rule list of its own:
//!
//! - **Rewrites** (the optimizer; property (1), and property (2) at -O2): the target's rules,
//!   each inexact by exactly its declared tolerance, charged to the operations of the
//!   unoptimized program as [`super::charges`] explains.
//! - **G13** (property (2)): the hardware and the backend's lowerings: f32 denormals flushed on
//!   every float operation's operands and results (docs/g13.md "Floating point"), the mandatory
//!   lowerings (sin, cos, sqrt: their rules' tolerances, as above), and for the operations the
//!   G13 executes the precision column of the IR's operation table (`PureOp::precision`, the
//!   Vulkan requirements DESIGN.md makes the contract), with f16 transcendentals run in f32 and
//!   rounded once more.
//!
//! Every bound is in absolute terms on the result (ULPs converted at the result's magnitude).

use super::charges::RuleCharges;
use agxc_egraph::ir::{Const, InstFlags, Precision, PureOp, Type};
use agxc_egraph::opt::{GenericTarget, Target};
use std::sync::OnceLock;

/// Unknown: anything may come out.
pub const UNKNOWN: f64 = f64::INFINITY;

/// Which rule list the optimizer under test runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rules {
    /// No optimizer.
    None,
    /// The generic target's rules.
    Generic,
    /// The G13 target's (its own and the generic ones).
    G13,
}

impl Rules {
    /// The charges of the rule list, built once per list.
    pub fn charges(self) -> &'static RuleCharges {
        static NONE: OnceLock<RuleCharges> = OnceLock::new();
        static GENERIC: OnceLock<RuleCharges> = OnceLock::new();
        static G13: OnceLock<RuleCharges> = OnceLock::new();
        match self {
            Rules::None => NONE.get_or_init(RuleCharges::default),
            Rules::Generic => {
                GENERIC.get_or_init(|| RuleCharges::from_rules(GenericTarget::new().rules()))
            }
            Rules::G13 => G13.get_or_init(|| {
                RuleCharges::from_rules(agxc_backend_agx::target::G13Target::new().rules())
            }),
        }
    }
}

/// Which sources of difference an implementation under test has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ErrorModel {
    /// The optimizer's rewrites (and, for the G13, its mandatory lowerings).
    pub rules: Rules,
    /// The G13 hardware and backend: flushing, the operations' precision.
    pub g13: bool,
}

impl ErrorModel {
    /// The optimizer with the generic target.
    pub const GENERIC_OPT: ErrorModel = ErrorModel {
        rules: Rules::Generic,
        g13: false,
    };
    /// The optimizer with the G13 target.
    pub const G13_OPT: ErrorModel = ErrorModel {
        rules: Rules::G13,
        g13: false,
    };
    /// The backend and simulator, at -O0 and -O2 alike: the optimizer's rewrites (at -O2) and
    /// the backend's own lowerings (sin, cos and sqrt the same way at both levels; instruction
    /// selection may contract `a * b + c` as SPIR-V and TGSI allow) plus the hardware.
    pub const G13: ErrorModel = ErrorModel {
        rules: Rules::G13,
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
        // An infinite result from finite, non-zero operands overflowed: an implementation that
        // rounds differently near the largest finite value may stay finite.
        let overflowed = r.as_f64().is_infinite()
            && args
                .iter()
                .all(|a| a.as_f64().is_finite() && a.as_f64() != 0.0);
        let rules = self.rules.charges();
        let mut e = rules.local(op, flags, args, r, hi, overflowed);
        if self.g13 {
            if !rules.lowered(op) {
                e += hardware(op.precision(), args, r, hi);
            }
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

/// The G13's error for an operation it executes with precision `p` (the operation table's
/// column): ULPs are f32's, since f16 transcendentals run in f32 and round once more to f16.
fn hardware(p: Precision, args: &[Const], r: Const, hi: f64) -> f64 {
    let ty = r.ty();
    let x = args.first().map_or(0.0, |a| a.as_f64());
    let narrow = if ty == Type::F16 { ulp(ty, hi) } else { 0.0 };
    let f32_ulps = |n: f64| n * ulp(Type::F32, hi) + narrow;
    match p {
        Precision::CorrectlyRounded => 0.0,
        Precision::Ulps(n) => f32_ulps(n),
        Precision::UlpsPerUnit { base, per_unit } => f32_ulps(base + per_unit * x.abs()),
        Precision::AbsInRange {
            lo,
            hi: top,
            abs,
            outside_ulps,
        } => {
            if (lo..=top).contains(&x) {
                abs + narrow
            } else {
                f32_ulps(outside_ulps)
            }
        }
        Precision::DivisorInRange { ulps, lo, hi: top } => {
            let d = args.get(1).map_or(1.0, |a| a.as_f64().abs());
            if d.is_finite() && !(lo..=top).contains(&d) {
                UNKNOWN
            } else {
                f32_ulps(ulps)
            }
        }
        // exp2(y * log2(x)): log2's relative error and the product's rounding scale by
        // |y log2 x| through exp2, which adds its own. GLSL leaves pow undefined for x < 0 and
        // for x = 0, y <= 0 (GLSL 4.60, 8.2 "Exponential Functions"), and exp2(y log2 x) does
        // not give IEEE pow's special cases for infinite or NaN operands (pow(1, NaN) = 1, but
        // 0 * log2(1) * NaN is NaN): all unknown.
        Precision::ExpOfLog => {
            let y = args.get(1).map_or(0.0, |a| a.as_f64());
            if !(x > 0.0 && x.is_finite() && y.is_finite()) {
                return UNKNOWN;
            }
            let (
                Precision::UlpsPerUnit { base, per_unit },
                Precision::AbsInRange { abs: log2_abs, .. },
            ) = (PureOp::Exp2.precision(), PureOp::Log2.precision())
            else {
                return UNKNOWN;
            };
            let t = (y * x.log2()).abs();
            if t.is_finite() {
                f32_ulps(base + per_unit * t) + hi * core::f64::consts::LN_2 * t * log2_abs
            } else {
                0.0
            }
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
