//! The G13's rules: lowerings to its own operations and fusions with its modifiers.
//!
//! # sin and cos
//! The G13 has no sine instruction but a two-part sine unit (`sin_pt_1`, `sin_pt_2`) that takes
//! a quarter-turn count in `[0, 4)`. docs/g13.md ("sin_pt_1 / sin_pt_2") gives the argument
//! reduction: `turns = x * (1/2pi)` (for cos `x * (1/2pi) + 0.25`, one fused multiply-add), `q = 4
//! * fract(turns)`, and `sin(x) = sin_pt_1(q) * sin_pt_2(sin_pt_1(q))`. `tan` is not an IR
//! operation (front ends expand it to `sin / cos`), so it lowers through these two.
//!
//! Accuracy with the project's model of the two instructions, against f64 over 1M evenly spaced
//! points (test `sin_cos_accuracy`): on `[-pi, pi]` the largest absolute error is 4.1e-7 (sin)
//! and 3.0e-7 (cos), far inside Vulkan's 2^-11; on `[-1000, 1000]` it is 8.8e-5 (sin) and 8.5e-5
//! (cos). It grows with `|x|` because the turn count is rounded to f32: `1/2pi` is off by at most
//! 2^-27 and the product by half an ULP of `|x|/2pi` (2^-17 near 159 turns), together 1.5e-5
//! turns or 9.5e-5 radians at `|x| = 1000`; the reduction after that is exact (`fract` and the
//! multiplication by 4) and the sine unit's model adds about 1e-7. Hence the bound
//! [`SIN_COS_ERROR_1000`], and the rules' tolerance, which grows with `|x|`
//! ([`SIN_COS_BASE`], [`SIN_COS_SLOPE`]). f16 arguments are converted to f32, lowered, and converted back.

use super::{cmpsel, ops};
use agxc_egraph::ir::{OpRegistry, Type};
use agxc_egraph::opt::rules::{Bindings, Domain, Rule, RuleSpec, Tolerance};
use std::sync::Arc;

/// The largest absolute error of the sin/cos lowering for arguments in `[-1000, 1000]` (the
/// analytical bound in the module docs; 8.8e-5 measured).
pub const SIN_COS_ERROR_1000: f64 = 1e-4;

/// `2^-20`: the sin/cos lowering's error at `x = 0`: the sine unit's model and the final
/// rounding (4.1e-7 measured on `[-pi, pi]`).
pub const SIN_COS_BASE: f64 = 1.0 / 1_048_576.0;

/// `2^-23`: how much the sin/cos lowering's error grows per radian of `|x|`. The turn count
/// `x * (1/2pi)` is rounded to f32 (half an ULP: `|x|/2pi * 2^-24` turns) and `1/2pi` itself is
/// off by at most `2^-27`: `2pi (|x|/2pi 2^-24 + |x| 2^-27) < 1.07e-7 |x|` radians. With
/// [`SIN_COS_BASE`] this is the rules' declared tolerance, `1.2e-4` at `|x| = 1000`, just above
/// [`SIN_COS_ERROR_1000`]; the equivalence tests read it from the rule.
pub const SIN_COS_SLOPE: f64 = 1.0 / 8_388_608.0;

/// The sin/cos lowering's tolerance: [`SIN_COS_BASE`] plus [`SIN_COS_SLOPE`] per unit of `|x|`.
const SIN_COS_TOLERANCE: Tolerance = Tolerance::AbsPerUnit {
    base: SIN_COS_BASE,
    per_unit: SIN_COS_SLOPE,
};

/// The soundness check draws arguments in `[-1000, 1000]` (plus the special values), where the
/// tolerance is tight enough to bite; the tolerance itself holds for every finite argument (the
/// reduction argument in the module docs does not depend on the range).
const SIN_COS_DOMAIN: Domain = Domain::Range(-1000.0, 1000.0);

fn x_is_f32(b: &mut Bindings<'_>) -> bool {
    b.ty("x") == Some(Type::F32)
}

fn x_is_f16(b: &mut Bindings<'_>) -> bool {
    b.ty("x") == Some(Type::F16)
}

/// The rules (G13 only; [`super::G13Target`] adds the generic ones). The literal
/// 0.15915494309189535 is 1/2pi, rounded to the operand type.
pub fn specs() -> Vec<RuleSpec> {
    agxc_egraph::rule_specs! {
        /// sin(x) == sin_pt_1(q) * sin_pt_2(sin_pt_1(q)) with q = 4 fract(x / 2pi) (f32).
        "sin-to-sin-pt": "(sin ?x)"
            => "(fmul (g13.sin_pt_1 (fmul 4 (fract (fmul ?x 0.15915494309189535)))) \
                (g13.sin_pt_2 (g13.sin_pt_1 \
                    (fmul 4 (fract (fmul ?x 0.15915494309189535))))))",
            guard = x_is_f32,
            tol = SIN_COS_TOLERANCE,
            domain = SIN_COS_DOMAIN,
            mandatory = true;
        /// cos(x) == sin(x + pi/2): q = 4 fract(x / 2pi + 1/4), the +1/4 in the same fma (f32).
        "cos-to-sin-pt": "(cos ?x)"
            => "(fmul (g13.sin_pt_1 (fmul 4 (fract (fma ?x 0.15915494309189535 0.25)))) \
                (g13.sin_pt_2 (g13.sin_pt_1 \
                    (fmul 4 (fract (fma ?x 0.15915494309189535 0.25))))))",
            guard = x_is_f32,
            tol = SIN_COS_TOLERANCE,
            domain = SIN_COS_DOMAIN,
            mandatory = true;
        /// sin(x) == f16(sin(f32(x))) for f16 x: widening is exact, one more rounding at the end.
        "sin-f16-via-f32": "(sin ?x)" => "(fcvt:f16 (sin (fcvt:f32 ?x)))",
            guard = x_is_f16, tol = Tolerance::Ulps(1), mandatory = true;
        /// cos(x) == f16(cos(f32(x))) for f16 x.
        "cos-f16-via-f32": "(cos ?x)" => "(fcvt:f16 (cos (fcvt:f32 ?x)))",
            guard = x_is_f16, tol = Tolerance::Ulps(1), mandatory = true;
        /// fract(x) == x - floor(x): the IR's definition (ir/eval/float.rs), exactly.
        "fract-to-floor": "(fract ?x)" => "(fsub ?x (floor ?x))", mandatory = true;
        /// sqrt(x) == x * rsqrt_special(x) (docs/g13.md); within 2 ULP (two roundings).
        "sqrt-to-rsqrt-special": "(sqrt ?x)" => "(fmul ?x (g13.rsqrt_special ?x))",
            tol = Tolerance::Ulps(2), mandatory = true;
        /// sat(fma(a, b, c)) == fmadd.sat(a, b, c): saturate is a free destination modifier.
        "fsat-fma-to-fmadd-sat": "(fsat (fma ?a ?b ?c))" => "(g13.fmadd_sat ?a ?b ?c)";
        /// sat(a + b) == fadd.sat(a, b).
        "fsat-fadd-to-fadd-sat": "(fsat (fadd ?a ?b))" => "(g13.fadd_sat ?a ?b)";
        /// sat(a * b) == fmul.sat(a, b).
        "fsat-fmul-to-fmul-sat": "(fsat (fmul ?a ?b))" => "(g13.fmul_sat ?a ?b)";
    }
}

/// The G13 rules, built: the lowerings and modifier fusions above, then compare-and-select
/// ([`cmpsel::specs`]) and division ([`super::divide::rules`]).
pub fn rules() -> Vec<Rule> {
    let registry = Arc::new(OpRegistry::with(&ops::OPS));
    let mut all = specs();
    all.extend(cmpsel::specs());
    // Parsed at first use (see agxc_egraph::opt::rules::Rule::deferred).
    let mut rules = Rule::deferred_specs(&all, &registry)
        .unwrap_or_else(|e| panic!("the G13 rule list is well-formed: {e}"));
    rules.extend(super::divide::rules(&registry));
    rules
}
