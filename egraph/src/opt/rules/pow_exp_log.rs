//! Powers, exponentials, logarithms and reciprocals.
//!
//! The reference semantics compute `pow`, `exp2`, `log2`, `rsqrt` in f64 from the exact operand
//! and round once; where two sides round differently the rule states a ULP tolerance (Vulkan
//! allows several ULP for all of these).

use super::{RuleSpec, Tolerance::Ulps};

/// The rules of this topic.
pub fn specs() -> Vec<RuleSpec> {
    crate::rule_specs! {
        /// pow(x, 1) == x (IEEE pow, also for NaN).
        "pow-one": "(pow ?x 1)" => "?x";
        /// pow(x, 0) == 1 for every x, NaN included (IEEE 754 pow).
        "pow-zero": "(pow ?x 0)" => "1";
        /// pow(1, y) == 1 for every y, NaN included (IEEE 754 pow).
        "pow-base-one": "(pow 1 ?y)" => "1";
        /// pow(x, 2) == x * x: the square of an f32 or f16 is exact in f64, so both round once
        /// from the same value.
        "pow-two": "(pow ?x 2)" => "(fmul ?x ?x)";
        /// pow(x, -1) == 1/x: both are 1/x rounded once (through f64).
        "pow-minus-one": "(pow ?x -1)" => "(rcp ?x)";
        /// pow(2, y) == exp2(y), within 1 ULP (two f64 routines, each within an f64 ULP).
        "pow-base-two": "(pow 2 ?y)" => "(exp2 ?y)", tol = Ulps(1);
        /// 1 / x == rcp(x): the same division rounded once.
        "fdiv-one-to-rcp": "(fdiv 1 ?x)" => "(rcp ?x)";
        /// 1 / sqrt(x) == rsqrt(x), within 2 ULP (the left rounds twice).
        "rcp-sqrt-to-rsqrt": "(rcp (sqrt ?x))" => "(rsqrt ?x)", tol = Ulps(2);
        /// 1 / rsqrt(x) == sqrt(x), within 2 ULP (0, -0, inf and NaN map alike).
        "rcp-rsqrt-to-sqrt": "(rcp (rsqrt ?x))" => "(sqrt ?x)", tol = Ulps(2);
    }
}
