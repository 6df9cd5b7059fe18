//! Division as the G13 computes it, inside the e-graph: integer division by a variable through
//! an integer reciprocal estimate, and exactly rounded float division through a reciprocal and
//! one residual correction.
//!
//! Instruction selection used to expand `udiv`/`sdiv`/`urem`/`srem` and `fdiv` on its own, so
//! the optimizer saw one opaque operation: two divisions by one divisor computed its reciprocal
//! twice, a divisor that is a constant or a uniform was not folded or priced as such. These
//! rules spell the expansions out in IR and G13 operations, so that the e-graph shares the
//! divisor's part between divisions (equal terms are one e-class), folds it when the divisor is
//! a constant, and prices it at the uniform rate when the divisor is uniform (the future
//! preamble computes it once per dispatch); instruction selection is then one to one.
//!
//! # Integer division (32-bit)
//! [`URCP`] is the divisor's part of the reciprocal method (instruction selection's
//! `isel::divide` has the sequence and its source): `z = f2u(rcp(u2f(d)) * (2^32 - 512))`, an
//! estimate of `2^32 / d` that is never too large, refined once, `z += umulhi(z, -d * z)`. Then
//! `q = umulhi(n, z)` is at most 2 below `n / d`; `r = n - q d`, one `g13.imadd` with `-d`
//! ([`super::imadd`]; the estimate's sequence computes `-d` too, and the two are one after
//! machine CSE); two steps `if r >= d { q += 1;
//! r -= d }` finish, and `d == 0` gives all ones (the IR's definition; the remainder is then
//! `n` without a special case). Signed division divides the magnitudes and fixes the signs.
//! Constant divisors never get here: the multiply-high rules (`opt::rules::divide`) are
//! cheaper.
//!
//! # Float division (f32) by a constant
//! `q = a * r` with `r = rcp(b)` (the IR's exact reciprocal, here a constant), the residual
//! `fma(-b, q, a)` (exact), `q' = fma(residual, r, q)`; where `q'` is NaN (q infinite: overflow,
//! an infinite dividend) `q` is the answer, and a zero `q` is kept as it is (the fused sum of
//! zeros would lose its sign). That is instruction selection's sequence for `fdiv` with the
//! reciprocal and its refinement (four instructions) folded away; exact (bit for bit) wherever
//! the values are normal. Only constant divisors whose reciprocal is normal get it: for a
//! variable `b` the expansion would differ from the IR's exact division where `1/b` leaves the
//! normal range (a subnormal `b` gives an infinite reciprocal), which instruction selection's
//! fallback shares with it but the optimizer must not introduce; machine CSE shares the
//! reciprocal of a variable divisor between divisions instead.

use agxc_egraph::ir::{Class, Const, CustomOpDef, OpRegistry, Signature, Type};
use agxc_egraph::opt::rules::{Bindings, Rule, RuleSpec, Tolerance};
use std::sync::Arc;

/// 2^32 - 512 as f32: the scale that keeps the reciprocal estimate below `2^32 / d`.
pub const RCP_SCALE_BITS: u32 = 0x4f7f_fffe;

/// The estimate `g13.urcp(d)` computes, as the instruction sequence does: `u2f` rounding to
/// nearest, the G13's `rcp` (the simulator's model: the f32 reciprocal), the scale, `f2u`
/// truncating and saturating, then one Newton-Raphson step on the integer.
pub fn urcp32(d: u32) -> u32 {
    let r = 1.0f32 / d as f32;
    let scaled = r * f32::from_bits(RCP_SCALE_BITS);
    let z = if scaled.is_nan() {
        0
    } else {
        f64::from(scaled).trunc().clamp(0.0, f64::from(u32::MAX)) as u32
    };
    let e = 0u32.wrapping_sub(d).wrapping_mul(z);
    let hi = ((u64::from(z) * u64::from(e)) >> 32) as u32;
    z.wrapping_add(hi)
}

/// Evaluation of `g13.urcp` (32-bit; a 16-bit operand is zero-extended and the result
/// truncated, though the rules only form 32-bit ones).
pub fn eval_urcp(args: &[Const], result: Type) -> Const {
    Const::from_bits(result, u64::from(urcp32(args[0].bits() as u32)))
}

/// `urcp`: the divisor's part of an unsigned 32-bit division.
pub static URCP: CustomOpDef = CustomOpDef {
    name: "g13.urcp",
    signature: Signature::Unary(Class::Int),
    eval: eval_urcp,
    doc: "refined integer reciprocal estimate of d, at most 2^32/d (the divisor's part of udiv)",
};

fn n_is_i32(b: &mut Bindings<'_>) -> bool {
    b.ty("n") == Some(Type::I32)
}

/// `?b` is an f32 constant whose reciprocal is a normal number (so is the constant) and not a
/// power of two (`fdiv-exact-reciprocal` multiplies by those).
fn b_is_plain_f32_constant(b: &mut Bindings<'_>) -> bool {
    let Some(c) = b.konst("b").filter(|c| c.ty() == Type::F32) else {
        return false;
    };
    let v = c.as_f64().abs();
    let normal = (2f64.powi(-125)..=2f64.powi(125)).contains(&v);
    normal && v.log2().fract() != 0.0
}

/// The unsigned quotient and remainder terms of `n / d` for the rules' right sides.
fn unsigned_terms(n: &str, d: &str) -> (String, String) {
    let q0 = format!("(umulhi {n} (g13.urcp {d}))");
    let r0 = format!("(g13.imadd {q0} (ineg {d}) {n})");
    let q1 = format!("(select (uge {r0} {d}) (iadd {q0} 1) {q0})");
    let r1 = format!("(select (uge {r0} {d}) (isub {r0} {d}) {r0})");
    let q2 = format!("(select (uge {r1} {d}) (iadd {q1} 1) {q1})");
    let r2 = format!("(select (uge {r1} {d}) (isub {r1} {d}) {r1})");
    (format!("(select (ieq {d} 0) -1 {q2})"), r2)
}

/// The float division's right side.
fn fdiv_term() -> String {
    let q = "(fmul ?a (rcp ?b))";
    let c = format!("(fma (fma (fneg ?b) {q} ?a) (rcp ?b) {q})");
    format!("(g13.fcmpsel_eq {q} 0 {q} (g13.fcmpsel_eq {c} {c} {c} {q}))")
}

/// The division rules (their right sides are generated, so they are built here rather than
/// declared with `rule_specs!`).
pub fn rules(registry: &Arc<OpRegistry>) -> Vec<Rule> {
    let (udiv, urem) = unsigned_terms("?n", "?d");
    let (udiv_abs, urem_abs) = unsigned_terms("(iabs ?n)", "(iabs ?d)");
    let sdiv =
        format!("(select (ieq ?d 0) -1 (select (slt (xor ?n ?d) 0) (ineg {udiv_abs}) {udiv_abs}))");
    let srem = format!("(select (slt ?n 0) (ineg {urem_abs}) {urem_abs})");
    let int = |name, lhs, rhs: &String, doc| {
        let spec = RuleSpec::new(name, doc, lhs, "?n").guard(n_is_i32);
        (spec, rhs.clone())
    };
    let mut list = vec![
        int(
            "udiv-to-urcp",
            "(udiv ?n ?d)",
            &udiv,
            "n / d == the reciprocal method's quotient (module docs): exact, all ones for d = 0",
        ),
        int(
            "urem-to-urcp",
            "(urem ?n ?d)",
            &urem,
            "n % d == the reciprocal method's remainder (module docs): exact, n for d = 0",
        ),
        int(
            "sdiv-to-udiv-magnitudes",
            "(sdiv ?n ?d)",
            &sdiv,
            "n / d == +-(|n| / |d|) by the operands' signs, -1 for d = 0 (|MIN| is 2^31 unsigned)",
        ),
        int(
            "srem-to-urem-magnitudes",
            "(srem ?n ?d)",
            &srem,
            "n % d == +-(|n| % |d|) with the dividend's sign",
        ),
    ];
    list.push((
        RuleSpec::new(
            "fdiv-to-refined-rcp",
            "a / c == q + fma(-c, q, a) * rcp(c), q = a * rcp(c), keeping q where that is NaN or \
             q is zero (Markstein's correction of a correctly rounded reciprocal; c a constant)",
            "(fdiv ?a ?b)",
            "?a",
        )
        .guard(b_is_plain_f32_constant)
        .tol(Tolerance::ExactInRange),
        fdiv_term(),
    ));
    list.into_iter()
        .map(|(spec, rhs)| {
            Rule::deferred(
                spec.name.into(),
                spec.doc.into(),
                spec.lhs.into(),
                rhs.into(),
                &spec,
                registry,
            )
            .unwrap_or_else(|e| panic!("the division rules are well-formed: {e}"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The estimate is never above 2^32 / d and at most 2 below the quotient it leads to, for
    /// divisors across the range (the property the two correction steps rely on).
    #[test]
    fn the_estimate_leaves_at_most_two_corrections() {
        let mut rng = agxc_egraph::opt::synth::Rng::new(0x9e37_79b9_7f4a_7c15u64);
        let mut next = move || rng.next_u64();
        for i in 0..20_000u64 {
            let d = match i {
                0..=999 => i as u32 + 1,
                _ => (next() >> (32 + next() % 32)) as u32 | 1,
            };
            let z = urcp32(d);
            assert!(u64::from(z) * u64::from(d) <= 1 << 32, "d = {d}, z = {z}");
            for n in [u32::MAX, u32::MAX - 1, d, d.wrapping_mul(3), next() as u32] {
                let q = ((u64::from(n) * u64::from(z)) >> 32) as u32;
                let exact = n / d;
                assert!(q <= exact && exact - q <= 2, "{n} / {d}: estimate {q}");
            }
        }
    }
}
