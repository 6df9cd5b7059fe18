//! Fused multiply-add formation.
//!
//! `a*b + c` computed as one rounding (`fma`) instead of two. SPIR-V and TGSI allow it unless the
//! source forbids contraction; such operations are `fadd.nocontract`/`fmul.nocontract` e-nodes
//! (see `language.rs`), which these patterns do not match, so a multiply or an add/sub carrying
//! `NoContraction` (TGSI `_PRECISE`) is never fused. Negated forms use the `fma`'s operand
//! negation, which targets provide for free. All differ from the unfused form by the missing
//! intermediate rounding only: [`Tolerance::Fused`](super::Tolerance::Fused).

use super::{RuleSpec, Tolerance::Fused};

/// The rules of this topic.
pub fn specs() -> Vec<RuleSpec> {
    crate::rule_specs! {
        /// a*b + c == fma(a, b, c), unless the source forbids contraction.
        "fma-add-mul-left": "(fadd (fmul ?a ?b) ?c)" => "(fma ?a ?b ?c)", tol = Fused;
        /// c + a*b == fma(a, b, c), unless the source forbids contraction.
        "fma-add-mul-right": "(fadd ?c (fmul ?a ?b))" => "(fma ?a ?b ?c)", tol = Fused;
        /// a*b - c == fma(a, b, -c), unless the source forbids contraction.
        "fma-sub-mul-left": "(fsub (fmul ?a ?b) ?c)" => "(fma ?a ?b (fneg ?c))", tol = Fused;
        /// c - a*b == fma(-a, b, c), unless the source forbids contraction.
        "fma-sub-mul-right": "(fsub ?c (fmul ?a ?b))" => "(fma (fneg ?a) ?b ?c)", tol = Fused;
        /// -(a*b + c) == fma(-a, b, -c), unless the source forbids contraction.
        "fma-neg-add-mul-left": "(fneg (fadd (fmul ?a ?b) ?c))"
            => "(fma (fneg ?a) ?b (fneg ?c))", tol = Fused;
        /// -(c + a*b) == fma(-a, b, -c), unless the source forbids contraction.
        "fma-neg-add-mul-right": "(fneg (fadd ?c (fmul ?a ?b)))"
            => "(fma (fneg ?a) ?b (fneg ?c))", tol = Fused;
        /// -(a*b - c) == fma(-a, b, c), unless the source forbids contraction.
        "fma-neg-sub-mul-left": "(fneg (fsub (fmul ?a ?b) ?c))"
            => "(fma (fneg ?a) ?b ?c)", tol = Fused;
        /// -(c - a*b) == fma(a, b, -c), unless the source forbids contraction.
        "fma-neg-sub-mul-right": "(fneg (fsub ?c (fmul ?a ?b)))"
            => "(fma ?a ?b (fneg ?c))", tol = Fused;
    }
}
