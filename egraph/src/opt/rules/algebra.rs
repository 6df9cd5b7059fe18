//! Algebraic identities: neutral and absorbing elements, idempotence, cancellation.
//!
//! Float identities appear only where IEEE arithmetic makes them exact for every input, NaN,
//! signed zeros, infinities and denormals included: `x * 1`, `x / 1`, `x - (+0)` and `x + (-0)`
//! are `x`; `x + 0` is not (`-0 + 0 = +0`) and `x * 0` is not (`inf * 0 = NaN`).

use super::RuleSpec;

/// The rules of this topic.
pub fn specs() -> Vec<RuleSpec> {
    crate::rule_specs! {
        // ---- floats
        /// x * 1 == x: multiplication by one is exact for every x (NaN, -0 and inf included).
        "fmul-one": "(fmul ?x 1)" => "?x";
        /// x / 1 == x: exact for every x.
        "fdiv-one": "(fdiv ?x 1)" => "?x";
        /// x - (+0) == x: exact, also for x = -0 (-0 - +0 = -0).
        "fsub-zero": "(fsub ?x 0.0)" => "?x";
        /// x + (-0) == x: -0 is the additive identity (+0 + -0 = +0, -0 + -0 = -0).
        "fadd-neg-zero": "(fadd ?x -0.0)" => "?x";
        /// min(x, x) == x: the table's fmin returns an operand.
        "fmin-self": "(fmin ?x ?x)" => "?x";
        /// max(x, x) == x.
        "fmax-self": "(fmax ?x ?x)" => "?x";
        /// floor(floor(x)) == floor(x): an integral value (or inf/NaN) rounds to itself.
        "floor-idempotent": "(floor (floor ?x))" => "(floor ?x)";
        /// ceil(ceil(x)) == ceil(x).
        "ceil-idempotent": "(ceil (ceil ?x))" => "(ceil ?x)";
        /// trunc(trunc(x)) == trunc(x).
        "ftrunc-idempotent": "(ftrunc (ftrunc ?x))" => "(ftrunc ?x)";
        /// round_even(round_even(x)) == round_even(x).
        "fround-even-idempotent": "(fround_even (fround_even ?x))" => "(fround_even ?x)";
        /// floor(trunc(x)) == trunc(x): trunc already gives an integral value.
        "floor-of-trunc": "(floor (ftrunc ?x))" => "(ftrunc ?x)";
        /// f16 -> f32 -> f16 is the identity: widening is exact (NaN stays NaN).
        "fcvt-widen-narrow": "(fcvt:f16 (fcvt:f32 ?x))" => "?x", guard = super::guards::x_is_f16;

        // ---- integers and bools (wrapping arithmetic makes all of these exact)
        /// x + 0 == x.
        "iadd-zero": "(iadd ?x 0)" => "?x";
        /// x - 0 == x.
        "isub-zero": "(isub ?x 0)" => "?x";
        /// x - x == 0.
        "isub-self": "(isub ?x ?x)" => "0";
        /// x * 1 == x.
        "imul-one": "(imul ?x 1)" => "?x";
        /// x * 0 == 0.
        "imul-zero": "(imul ?x 0)" => "0";
        /// (x - y) + y == x.
        "iadd-isub-cancel": "(iadd (isub ?x ?y) ?y)" => "?x";
        /// (x + y) - y == x.
        "isub-iadd-cancel-right": "(isub (iadd ?x ?y) ?y)" => "?x";
        /// (x + y) - x == y.
        "isub-iadd-cancel-left": "(isub (iadd ?x ?y) ?x)" => "?y";
        /// x / 1 == x (unsigned).
        "udiv-one": "(udiv ?x 1)" => "?x";
        /// x / 1 == x (signed).
        "sdiv-one": "(sdiv ?x 1)" => "?x";
        /// x % 1 == 0 (unsigned).
        "urem-one": "(urem ?x 1)" => "0";
        /// x % 1 == 0 (signed).
        "srem-one": "(srem ?x 1)" => "0";
        /// x << 0 == x.
        "ishl-zero": "(ishl ?x 0)" => "?x";
        /// x >> 0 == x (logical).
        "ushr-zero": "(ushr ?x 0)" => "?x";
        /// x >> 0 == x (arithmetic).
        "sshr-zero": "(sshr ?x 0)" => "?x";
        /// x & 0 == 0 (also bool: x && false).
        "and-zero": "(and ?x 0)" => "0";
        /// x & ~0 == x (also bool: x && true).
        "and-ones": "(and ?x -1)" => "?x";
        /// x & x == x.
        "and-self": "(and ?x ?x)" => "?x";
        /// x | 0 == x.
        "or-zero": "(or ?x 0)" => "?x";
        /// x | ~0 == ~0.
        "or-ones": "(or ?x -1)" => "-1";
        /// x | x == x.
        "or-self": "(or ?x ?x)" => "?x";
        /// x ^ 0 == x.
        "xor-zero": "(xor ?x 0)" => "?x";
        /// x ^ x == 0.
        "xor-self": "(xor ?x ?x)" => "0";
        /// x ^ ~0 == ~x.
        "xor-ones": "(xor ?x -1)" => "(not ?x)";
        /// ~~x == x.
        "not-not": "(not (not ?x))" => "?x";
        /// x & ~x == 0.
        "and-not-self": "(and ?x (not ?x))" => "0";
        /// x | ~x == ~0.
        "or-not-self": "(or ?x (not ?x))" => "-1";
        /// x & (x | y) == x (absorption).
        "and-absorb-or": "(and ?x (or ?x ?y))" => "?x";
        /// x | (x & y) == x (absorption).
        "or-absorb-and": "(or ?x (and ?x ?y))" => "?x";
        /// smin(x, x) == x.
        "smin-self": "(smin ?x ?x)" => "?x";
        /// smax(x, x) == x.
        "smax-self": "(smax ?x ?x)" => "?x";
        /// umin(x, x) == x.
        "umin-self": "(umin ?x ?x)" => "?x";
        /// umax(x, x) == x.
        "umax-self": "(umax ?x ?x)" => "?x";
        /// smin(x, MAX) == x.
        "smin-max": "(smin ?x @smax)" => "?x";
        /// smax(x, MIN) == x.
        "smax-min": "(smax ?x @smin)" => "?x";
        /// umin(x, 0) == 0.
        "umin-zero": "(umin ?x 0)" => "0";
        /// umax(x, 0) == x.
        "umax-zero": "(umax ?x 0)" => "?x";
        /// umin(x, ~0) == x.
        "umin-ones": "(umin ?x @umax)" => "?x";
        /// umax(x, ~0) == ~0.
        "umax-ones": "(umax ?x @umax)" => "@umax";
    }
}
