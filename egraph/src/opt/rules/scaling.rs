//! Power-of-two scaling folded into a constant factor: `(x * a) * b == x * (a*b)` when one of
//! the constants is a power of two.
//!
//! # Why this is exact (almost always)
//! Let `p = ±2^e` be the power of two and `c` the other constant, and let `s = p*c` be normal
//! (checked by the guard), so `s` is exactly `p` times `c`: scaling by a power of two changes
//! only the exponent. Both sides then approximate the same real number `x*p*c`:
//! - the right side rounds it once;
//! - the left side rounds `x*p` (or `x*c`) first. `x*p` is exact unless it leaves the normal
//!   range, and `round(x*c) * p` rounds nothing more unless the product leaves it (rounding
//!   commutes with scaling by a power of two); so while every intermediate result is normal,
//!   the left side too is one rounding of `x*p*c`, and the two agree bit for bit (NaN,
//!   infinities, signed zeros included: signs multiply alike).
//!
//! In an `fma` the inner factor must be the power of two: `fma(x*p, c, d)` rounds the exact
//! `x*p*c + d` once, as `fma(x, p*c, d)` does, but `fma(round(x*c), p, d)` adds `d` to an
//! already rounded product, which the single rounding of the folded form does not reproduce.
//!
//! Where an intermediate result overflows or becomes subnormal the original computation has
//! lost range or precision, and the right side is the better answer (the one rounding of the
//! exact product): the rules carry [`Tolerance::ExactInRange`], which the soundness check
//! holds them to bit for bit on every input where no value leaves the normal range. That is
//! the latitude a shader compiler has anyway (Vulkan's SPIR-V environment does not require
//! denormal preservation unless the shader asks), and it is less than Mesa's `nir_opt_algebraic`
//! takes when it folds any constant product `a * #b * #c`.
//!
//! Contraction-forbidding operations are left alone: the patterns match plain `fmul`/`fma`
//! only, never `fmul.nocontract` (TGSI `_PRECISE`, SPIR-V `NoContraction`), whose roundings
//! the source asked for one by one.
//!
//! The win: the G13 cosine lowering `fract(x * 1/2pi + 1/4)` of `cos(x * 0.5)` becomes one
//! `fmadd` with the constant `0.5/2pi` instead of an `fmul` and an `fmadd`.

use super::{Bindings, RuleSpec, Tolerance::ExactInRange};
use crate::ir::{Const, PureOp, Type};
use crate::opt::language::Kind;
use crate::opt::term::Term;

/// The rules of this topic.
pub fn specs() -> Vec<RuleSpec> {
    crate::rule_specs! {
        /// (x * a) * b == x * (a*b) for float constants a, b, one of them ±2^e, a*b normal:
        /// one rounding of the same exact product while x*a stays normal.
        "fmul-fold-pow2-scale": "(fmul (fmul ?x ?a) ?b)" => "(fmul ?x ?s)",
            guard = pow2_product, tol = ExactInRange, examples = scale_examples;
        /// fma(x * a, b, c) == fma(x, a*b, c) for float constants a = ±2^e and b, a*b normal:
        /// the fma rounds the same exact x*a*b + c once while x*a stays normal.
        "fma-fold-pow2-scale": "(fma (fmul ?x ?a) ?b ?c)" => "(fma ?x ?s ?c)",
            guard = pow2_factor_product, tol = ExactInRange, examples = scale_examples;
        /// fma(b, x * a, c) == fma(x, a*b, c), the same with the scaled operand second.
        "fma-fold-pow2-scale-right": "(fma ?b (fmul ?x ?a) ?c)" => "(fma ?x ?s ?c)",
            guard = pow2_factor_product, tol = ExactInRange, examples = scale_examples;
    }
}

/// Whether `c` is a power of two, ±2^e (normal or subnormal).
fn is_pow2(c: Const) -> bool {
    let v = c.as_f64();
    v.is_finite() && v != 0.0 && v.abs().log2().fract() == 0.0
}

/// Whether `c` is a normal float: finite, nonzero, at least the least normal magnitude.
fn is_normal(c: Const) -> bool {
    let v = c.as_f64().abs();
    let least_normal = match c.ty() {
        Type::F16 => 2f64.powi(-14),
        _ => f64::from(f32::MIN_POSITIVE),
    };
    v.is_finite() && v >= least_normal
}

/// `?a` and `?b` are float constants of one type, one a power of two, whose product is normal
/// (so exact); binds `?s` = a*b, computed by the operation table's `fmul`.
fn pow2_product(b: &mut Bindings<'_>) -> bool {
    fold_product(b, |a, c| is_pow2(a) || is_pow2(c))
}

/// Like [`pow2_product`], with `?a`, the factor inside the multiplication, the power of two.
fn pow2_factor_product(b: &mut Bindings<'_>) -> bool {
    fold_product(b, |a, _| is_pow2(a))
}

/// `?a` and `?b` are float constants of one type accepted by `which` (and `?x` is not
/// constant: constant folding has that), whose product is normal; binds `?s` = a*b.
fn fold_product(b: &mut Bindings<'_>, which: fn(Const, Const) -> bool) -> bool {
    let (Some(x), Some(y)) = (b.konst("a"), b.konst("b")) else {
        return false;
    };
    if x.ty() != y.ty() || !x.ty().is_float() || b.konst("x").is_some() {
        return false;
    }
    if !which(x, y) {
        return false;
    }
    let s = PureOp::Fmul.eval(&[x, y], x.ty());
    if !is_normal(s) {
        return false;
    }
    b.bind("s", s);
    true
}

/// Left sides for the soundness check beyond the random ones: the cosine-lowering shape and
/// scales at the edges of the exponent range, in f32 and f16.
fn scale_examples() -> Vec<Term> {
    let x = |ty| Term::Var("x".into(), Some(ty));
    let k = |ty, v: f64| Term::Node(Kind::Const(float(ty, v)), vec![]);
    let node = |op, kids| Term::Node(Kind::pure(op), kids);
    let mut out = Vec::new();
    for ty in [Type::F32, Type::F16] {
        let pairs = [
            (0.5, 0.15915494309189535),
            (0.15915494309189535, 0.5),
            (50.71875, -8.0),
            (8.0, -0.1),
            (-0.25, 3.0),
            (2f64.powi(-10), 1000.0),
            (1.0, 0.3),
        ];
        for (a, c) in pairs {
            let scaled = || node(PureOp::Fmul, vec![x(ty), k(ty, a)]);
            out.push(node(PureOp::Fmul, vec![scaled(), k(ty, c)]));
            out.push(node(PureOp::Fma, vec![scaled(), k(ty, c), k(ty, 0.25)]));
            out.push(node(PureOp::Fma, vec![k(ty, c), scaled(), k(ty, 0.25)]));
        }
    }
    out
}

/// `v` as a constant of float type `ty` (rounded by the table's conversion for f16).
fn float(ty: Type, v: f64) -> Const {
    let c = Const::f32(v as f32);
    match ty {
        Type::F16 => PureOp::Fcvt.eval(&[c], Type::F16),
        _ => c,
    }
}

#[cfg(test)]
mod tests {
    use crate::ir::{Const, PureOp, Type};
    use crate::opt::probe::best;
    use crate::opt::GenericTarget;

    fn probe(text: &str) -> String {
        best(&GenericTarget::new(), text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    /// `(op ?x K:f32 ...)`'s constant `K`, parsed back from the probe's text.
    fn constant_after_x(term: &str) -> f32 {
        let rest = term.split("?x ").nth(1).unwrap_or("");
        let lit = rest.split(':').next().unwrap_or("");
        lit.parse()
            .unwrap_or_else(|_| panic!("no constant after ?x in {term}"))
    }

    #[test]
    fn a_power_of_two_scale_folds_into_the_constant() {
        let inv_two_pi = 0.159_154_94_f32;
        // 0.5 / 2pi: halving an f32 is exact.
        let t = probe("(fmul (fmul ?x 0.5:f32) 0.15915494:f32)");
        assert!(t.starts_with("(fmul ?x "), "{t}");
        assert_eq!(constant_after_x(&t), inv_two_pi / 2.0, "{t}");
        // The cosine lowering's shape: fma(x * 0.5, 1/2pi, 1/4).
        let t = probe("(fma (fmul ?x 0.5:f32) 0.15915494:f32 0.25:f32)");
        assert!(
            t.starts_with("(fma ?x ") && t.ends_with(" 0.25:f32)"),
            "{t}"
        );
        assert_eq!(constant_after_x(&t), inv_two_pi / 2.0, "{t}");
        let t = probe("(fma 0.3:f32 (fmul ?x 4.0:f32) ?c)");
        assert!(t.starts_with("(fma ?x ") && t.ends_with(" ?c)"), "{t}");
        assert_eq!(constant_after_x(&t), 0.3_f32 * 4.0, "{t}");
    }

    #[test]
    fn inexact_or_forbidden_foldings_are_left_alone() {
        // Neither factor a power of two: the product would round twice.
        let t = "(fmul (fmul ?x 0.3:f32) 0.7:f32)";
        assert_eq!(probe(t), t);
        // Power of two outside an fma's product: fma(round(x*0.3), 4, c) != fma(x, 1.2, c).
        let t = "(fma (fmul ?x 0.3:f32) 4.0:f32 ?c)";
        assert_eq!(probe(t), t);
        // No contraction asked for: each rounding stays.
        for t in [
            "(fmul (fmul.nocontract ?x 0.5:f32) 0.3:f32)",
            "(fmul.nocontract (fmul ?x 0.5:f32) 0.3:f32)",
        ] {
            assert_eq!(probe(t), t);
        }
        // 2^-64 * 2^-64 = 2^-128 is no normal f32 (it would lose bits as a subnormal).
        let two_m64 = "5.42101086242752217003726400434970855712890625e-20:f32";
        let t = probe(&format!("(fmul (fmul ?x {two_m64}) {two_m64})"));
        assert!(t.contains("(fmul ?x "), "{t}");
        assert_ne!(t.matches("fmul").count(), 1, "{t}");
    }

    /// [`Tolerance::ExactInRange`] still catches a re-association that rounds differently in
    /// range: `(x * 0.3) * 0.7` rounds twice, `x * 0.21` once.
    #[test]
    fn exact_in_range_rejects_a_double_rounding_fold() {
        use crate::opt::rules::{Rule, RuleSpec};
        use crate::opt::soundness::{check_rule, CheckConfig};
        let spec = RuleSpec::new(
            "bad-fmul-fold",
            "(x * 0.3) * 0.7 == x * 0.21 (false: two roundings against one)",
            "(fmul (fmul ?x 0.3) 0.7)",
            "(fmul ?x 0.21)",
        )
        .tol(super::ExactInRange);
        let rule = Rule::from_spec(&spec, &crate::ir::OpRegistry::new()).expect("well-formed");
        assert!(check_rule(&rule, &CheckConfig::default()).is_err());
    }

    /// The identity on the edge the tolerance leaves unchecked: where `x * 2^e` overflows the
    /// left side is infinite, the right side is the f32 rounding of the exact product (worked
    /// out in f64, where these products are exact).
    #[test]
    fn the_folded_product_is_the_one_rounding_of_the_exact_value() {
        let fmul = |a: f32, b: f32| {
            PureOp::Fmul
                .eval(&[Const::f32(a), Const::f32(b)], Type::F32)
                .as_f32()
        };
        let inv_two_pi = 0.159_154_94_f32;
        for x in [1.0e38_f32, 3.0e38, -2.5e38, 1.7e-38, 3.3, -7.1e-3] {
            let exact = (f64::from(x) * 4.0 * f64::from(inv_two_pi)) as f32;
            let folded = fmul(x, fmul(4.0, inv_two_pi));
            assert_eq!(folded.to_bits(), exact.to_bits(), "x = {x}");
            let unfolded = fmul(fmul(x, 4.0), inv_two_pi);
            if (f64::from(x) * 4.0).abs() < f64::from(f32::MAX) {
                assert_eq!(unfolded.to_bits(), exact.to_bits(), "x = {x}");
            } else {
                assert!(unfolded.is_infinite(), "x = {x}: {unfolded}");
            }
        }
    }
}
