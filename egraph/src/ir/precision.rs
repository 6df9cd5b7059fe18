//! How far an implementation's result of a pure operation may be from the operation table's
//! evaluation function: the precision column of the operation table ([`super::PureOp::precision`]).
//!
//! The evaluation functions (`ir/eval`) are the reference: IEEE round-to-nearest-even, and the
//! transcendentals computed in f64 and rounded once. DESIGN.md makes the Vulkan precision
//! requirements the contract for what a target may deliver instead (Vulkan specification,
//! "Precision and Operation of SPIR-V Instructions"); this column states that contract per
//! operation, next to the operation's definition, so the checks that compare an implementation
//! against the reference (the equivalence tests in `tests/src/equiv`) read it from here rather
//! than keeping a second per-operation list. Units are ULPs of f32 at the result's magnitude: the
//! contract is written for 32-bit floats, and a target that runs an f16 operation in f32 adds its
//! own final rounding (the tests' G13 model says so).
//!
//! An operation the target never executes (lowered by a mandatory rule, like the G13's `sin`)
//! gets its error from that rule's declared tolerance instead.

/// The precision an implementation must deliver for one operation (see the module docs).
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Precision {
    /// Exactly the reference result: integer and bit operations, comparisons, conversions,
    /// and the float arithmetic IEEE rounds correctly (`fadd`, `fmul`, `fma`, `floor`, ...).
    CorrectlyRounded,
    /// Within this many ULP.
    Ulps(f64),
    /// Within `base + per_unit * |x|` ULP, `x` the first operand (Vulkan's `exp2`: `3 + 2|x|`).
    UlpsPerUnit {
        /// The ULPs at `x = 0`.
        base: f64,
        /// The ULPs added per unit of `|x|`.
        per_unit: f64,
    },
    /// Within `abs` absolute for a first operand in `[lo, hi]`, `outside_ulps` ULP elsewhere
    /// (infinite: undefined outside; Vulkan's `log2` and `sin`/`cos`).
    AbsInRange {
        /// The range's low end.
        lo: f64,
        /// The range's high end.
        hi: f64,
        /// The absolute error inside it.
        abs: f64,
        /// The ULPs outside it (infinite: no promise).
        outside_ulps: f64,
    },
    /// Within `ulps` ULP for a second operand (the divisor) of magnitude in `[lo, hi]`; undefined
    /// outside (Vulkan's division: the reciprocal of such a divisor is denormal or huge).
    DivisorInRange {
        /// The ULPs inside the range.
        ulps: f64,
        /// The smallest divisor magnitude covered.
        lo: f64,
        /// The largest divisor magnitude covered.
        hi: f64,
    },
    /// Inherited from `exp2(y * log2(x))` (Vulkan's `pow`): `exp2`'s precision at `y log2 x`
    /// plus `log2`'s relative error carried through `exp2`; undefined where GLSL leaves `pow`
    /// undefined (`x < 0`, `x = 0` with `y <= 0`) and for non-finite operands, where
    /// `exp2(y * log2 x)` does not give IEEE `pow`'s special cases.
    ExpOfLog,
}

/// `2^-21`: Vulkan's absolute error of `log2` for `x` in `[0.5, 2]`.
const LOG2_ABS: f64 = 1.0 / 2_097_152.0;

/// `2^-11`: Vulkan's absolute error of `sin` and `cos` on `[-pi, pi]`.
const SIN_COS_ABS: f64 = 1.0 / 2048.0;

/// `exp2`: Vulkan's `3 + 2|x|` ULP.
pub(super) const EXP2: Precision = Precision::UlpsPerUnit {
    base: 3.0,
    per_unit: 2.0,
};

/// `log2`: Vulkan's 3 ULP outside `[0.5, 2]`, `2^-21` absolute inside.
pub(super) const LOG2: Precision = Precision::AbsInRange {
    lo: 0.5,
    hi: 2.0,
    abs: LOG2_ABS,
    outside_ulps: 3.0,
};

/// `sin`, `cos`: Vulkan's `2^-11` absolute on `[-pi, pi]`, nothing promised outside.
pub(super) const SIN_COS: Precision = Precision::AbsInRange {
    lo: -core::f64::consts::PI,
    hi: core::f64::consts::PI,
    abs: SIN_COS_ABS,
    outside_ulps: f64::INFINITY,
};

/// `fdiv`: Vulkan's 2.5 ULP for divisors in `[2^-126, 2^126]`, rounded up to whole ULPs.
pub(super) const FDIV: Precision = Precision::DivisorInRange {
    ulps: 3.0,
    lo: 1.1754943508222875e-38,
    hi: 8.507059173023462e37,
};

/// `rsqrt`: Vulkan's 2 ULP.
pub(super) const RSQRT: Precision = Precision::Ulps(2.0);

/// `rcp` (no SPIR-V instruction of its own; it comes from `1 / x`): 1 ULP, the G13's
/// reciprocal (docs/g13.md), inside the 2.5 ULP Vulkan allows the division it replaces.
pub(super) const RCP: Precision = Precision::Ulps(1.0);

/// `sqrt`: Vulkan's "inherited from 1.0 / inversesqrt()": `rsqrt`'s 2 ULP and the division's
/// 2.5 ULP, to first order 4.5 ULP.
pub(super) const SQRT: Precision = Precision::Ulps(4.5);

impl Precision {
    /// True if an implementation must give the reference result bit for bit.
    pub fn is_exact(self) -> bool {
        self == Precision::CorrectlyRounded
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_division_range_is_two_to_the_plus_minus_126() {
        let Precision::DivisorInRange { lo, hi, .. } = FDIV else {
            panic!("fdiv's row is a divisor range");
        };
        assert_eq!((lo, hi), (2f64.powi(-126), 2f64.powi(126)));
        assert_eq!(LOG2_ABS, 2f64.powi(-21));
        assert_eq!(SIN_COS_ABS, 2f64.powi(-11));
    }
}
