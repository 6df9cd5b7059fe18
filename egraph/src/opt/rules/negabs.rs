//! Negation and absolute value: cancel them and fold them into the operation they feed.
//!
//! Float negation and absolute value only touch the sign bit, and IEEE defines `a - b` as
//! `a + (-b)`, so these are exact (a NaN's sign is not compared).

use super::RuleSpec;

/// The rules of this topic.
pub fn specs() -> Vec<RuleSpec> {
    crate::rule_specs! {
        /// -(-x) == x.
        "fneg-fneg": "(fneg (fneg ?x))" => "?x";
        /// |-x| == |x|.
        "fabs-fneg": "(fabs (fneg ?x))" => "(fabs ?x)";
        /// ||x|| == |x|.
        "fabs-fabs": "(fabs (fabs ?x))" => "(fabs ?x)";
        /// |x * x| == x * x: a square is never negative (-0 * -0 = +0).
        "fabs-square": "(fabs (fmul ?x ?x))" => "(fmul ?x ?x)";
        /// sat(sat(x)) == sat(x).
        "fsat-fsat": "(fsat (fsat ?x))" => "(fsat ?x)";
        /// a + (-b) == a - b: IEEE defines subtraction so.
        "fadd-fneg-right": "(fadd ?a (fneg ?b))" => "(fsub ?a ?b)";
        /// (-a) + b == b - a: addition commutes exactly, then as above.
        "fadd-fneg-left": "(fadd (fneg ?a) ?b)" => "(fsub ?b ?a)";
        /// a - (-b) == a + b.
        "fsub-fneg": "(fsub ?a (fneg ?b))" => "(fadd ?a ?b)";
        /// (-0) - x == -x: -0 + (-x) keeps the sign of -x, also for x = ±0.
        "fsub-from-neg-zero": "(fsub -0.0 ?x)" => "(fneg ?x)";
        /// (-a) * (-b) == a * b: the signs cancel; the magnitude is rounded alike.
        "fmul-fneg-fneg": "(fmul (fneg ?a) (fneg ?b))" => "(fmul ?a ?b)";
        /// (-a) / (-b) == a / b.
        "fdiv-fneg-fneg": "(fdiv (fneg ?a) (fneg ?b))" => "(fdiv ?a ?b)";
        /// -(x * c) == x * (-c) for a constant c: rounding is symmetric in sign.
        "fneg-fmul-const": "(fneg (fmul ?x ?c))"
            => "(fmul ?x ?n)", guard = super::guards::negate_float;
        /// x * -1 == -x.
        "fmul-minus-one": "(fmul ?x -1)" => "(fneg ?x)";
        /// x / -1 == -x.
        "fdiv-minus-one": "(fdiv ?x -1)" => "(fneg ?x)";
        /// -(-x) == x (wrapping).
        "ineg-ineg": "(ineg (ineg ?x))" => "?x";
        /// |-x| == |x| (also for MIN, where both are MIN).
        "iabs-ineg": "(iabs (ineg ?x))" => "(iabs ?x)";
        /// ||x|| == |x|.
        "iabs-iabs": "(iabs (iabs ?x))" => "(iabs ?x)";
        /// a + (-b) == a - b.
        "iadd-ineg": "(iadd ?a (ineg ?b))" => "(isub ?a ?b)";
        /// a - (-b) == a + b.
        "isub-ineg": "(isub ?a (ineg ?b))" => "(iadd ?a ?b)";
        /// 0 - x == -x.
        "isub-from-zero": "(isub 0 ?x)" => "(ineg ?x)";
    }
}
