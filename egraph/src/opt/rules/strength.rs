//! Strength reduction: replace an operation by a cheaper one computing the same bits.

use super::guards;
use super::RuleSpec;

/// The rules of this topic.
pub fn specs() -> Vec<RuleSpec> {
    crate::rule_specs! {
        /// x * 2^k == x << k: wrapping multiplication by a power of two is a shift.
        "imul-pow2": "(imul ?x ?c)" => "(ishl ?x ?k)", guard = guards::pow2_shift;
        /// x * -1 == -x (wrapping).
        "imul-minus-one": "(imul ?x -1)" => "(ineg ?x)";
        /// x / 2^k == x >> k for unsigned division.
        "udiv-pow2": "(udiv ?x ?c)" => "(ushr ?x ?k)", guard = guards::pow2_shift;
        /// x % 2^k == x & (2^k - 1) for unsigned remainder.
        "urem-pow2": "(urem ?x ?c)" => "(and ?x ?m)", guard = guards::pow2_mask;
        /// x / c == x * (1/c) when c = ±2^e and 1/c is representable: both round the same exact
        /// value x * 2^-e, so they agree bit for bit (denormal results included).
        "fdiv-exact-reciprocal": "(fdiv ?x ?c)" => "(fmul ?x ?r)", guard = guards::exact_reciprocal;
    }
}
