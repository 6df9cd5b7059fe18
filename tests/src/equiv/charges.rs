//! The optimizer's inexact rewrites, operation by operation, read from a target's rule list.
//!
//! Every rule declares its [`Tolerance`] where it is written (`agxc_egraph::opt::rules`,
//! `agxc_backend_agx::target`), and the soundness check holds it to that tolerance. That
//! declaration is the rule's whole account of its inexactness: this module turns a target's
//! rules into the local error ([`RuleCharges::local`]) the shadow run adds at each instruction of
//! the unoptimized program, so a new inexact rule is covered without touching the tests, and
//! there is no second list of inexact rules here.
//!
//! # Attribution
//! A rewrite changes the value of the e-class it fires on: the value of the unoptimized
//! program's instruction at the left side's root, which the soundness check compares within the
//! tolerance.
//! - `Ulps`, `Abs` and `AbsPerUnit` are charged to the left side's root operation.
//! - `Fused` and `ExactInRange` mean the rewrite drops the rounding of an intermediate product
//!   (contraction; power-of-two scales folded into a constant): charged to the left side's inner
//!   `fmul`, half an ULP of its result (the denormal spacing below the normal range), unknown
//!   where it overflowed; the sum's rounding then follows from propagation. A left side without an
//!   `fmul` (the G13's refined reciprocal, `fdiv-to-refined-rcp`) is charged at its root.
//! - Chains: an exact rule whose right side has another operation at its root puts the left
//!   root's instruction in a class with that operation, whose rules then fire there too
//!   (`fdiv 1 x` becomes `rcp x`, and `rcp (sqrt x)` becomes `rsqrt x`): the left root inherits
//!   the right root's charges, except a dropped rounding (see `from_rules`).
//! - A rule whose right side's root converts to a type only applies to values of that type
//!   (`sin-f16-via-f32` rewrites f16 sines only).
//! - A rule whose right side contains its root's operation again, at the type a conversion below
//!   it gives, adds that operation's charges at that type (an f16 sine goes through the f32 sine
//!   lowering and one more rounding).
//! - No rule matches a contractable operation the source marked `nocontract` (it is another
//!   e-node kind, `opt::language`), so such instructions are charged nothing.
//! - Texture rules (custom rules on sample e-nodes) are not charged: the generated programs
//!   sample with an explicit LOD only, which none of them rewrites inexactly.
//!
//! An operation some mandatory rule rewrites never reaches the target's instructions
//! ([`RuleCharges::lowered`]): the backend's precision for it is the rule's, not the operation
//! table's precision column.

use super::model::{ulp, UNKNOWN};
use agxc_egraph::ir::{Const, Flags, InstFlags, PureOp, Type};
use agxc_egraph::opt::rules::{Origin, Rule, Tolerance};
use agxc_egraph::opt::term::Term;
use agxc_egraph::opt::Kind;
use std::collections::{BTreeMap, BTreeSet};

/// One inexactness a rule brings to an operation (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Charge {
    /// The operation's own rounding may be missing: half an ULP of its result, unknown where
    /// it overflowed.
    DroppedRounding,
    /// Within this many ULP of the result type.
    Ulps(f64),
    /// Within this absolute error.
    Abs(f64),
    /// Within `base + per_unit * m`, `m` the largest finite float operand magnitude.
    AbsPerUnit {
        /// At `m = 0`.
        base: f64,
        /// Per unit of `m`.
        per_unit: f64,
    },
}

/// A charge with the rule it comes from and where it applies.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The rule (for reports and the tests below).
    pub rule: String,
    /// The error.
    pub charge: Charge,
    /// Only for results of this type (the right side's root converts to it).
    pub only: Option<Type>,
    /// The right side runs the operation again at this type: add its charges there.
    pub inner: Option<Type>,
}

/// A target's rules as charges per operation.
#[derive(Clone, Debug, Default)]
pub struct RuleCharges {
    per_op: BTreeMap<PureOp, Vec<Entry>>,
    lowered: BTreeSet<PureOp>,
}

/// The pure operation at a term's root, if any.
fn root(t: &Term) -> Option<PureOp> {
    match t {
        Term::Node(Kind::Pure { op, .. } | Kind::Convert { op, .. }, _) => Some(*op),
        _ => None,
    }
}

/// True if `t` contains an `fmul` below its root.
fn inner_fmul(t: &Term) -> bool {
    fn any(t: &Term) -> bool {
        match t {
            Term::Node(k, kids) => {
                matches!(
                    k,
                    Kind::Pure {
                        op: PureOp::Fmul,
                        ..
                    }
                ) || kids.iter().any(any)
            }
            _ => false,
        }
    }
    match t {
        Term::Node(_, kids) => kids.iter().any(any),
        _ => false,
    }
}

/// Where `t` uses `op` again: the type its first operand is converted to (`None` if it does
/// not use `op`, or not through a conversion).
fn reuse_type(t: &Term, op: PureOp) -> Option<Type> {
    let Term::Node(k, kids) = t else {
        return None;
    };
    if matches!(k, Kind::Pure { op: o, .. } if *o == op) {
        if let Some(Term::Node(Kind::Convert { to, .. }, _)) = kids.first() {
            return Some(*to);
        }
    }
    kids.iter().find_map(|kid| reuse_type(kid, op))
}

impl RuleCharges {
    /// The charges of `rules` (a target's whole list).
    pub fn from_rules(rules: &[Rule]) -> RuleCharges {
        let mut c = RuleCharges::default();
        // Exact rules linking one operation's class to another's: left root -> right root.
        let mut links: Vec<(PureOp, PureOp)> = Vec::new();
        for rule in rules {
            let Origin::Pattern(sides) = &rule.origin else {
                continue;
            };
            let Ok((lhs, rhs)) = sides.terms() else {
                continue;
            };
            let Some(op) = root(lhs) else {
                continue;
            };
            if rule.mandatory {
                c.lowered.insert(op);
            }
            let only = match rhs {
                Term::Node(Kind::Convert { to, .. }, _) => Some(*to),
                _ => None,
            };
            let charge = match rule.tolerance {
                Tolerance::Exact => {
                    if let Some(to) = root(rhs).filter(|&r| r != op) {
                        links.push((op, to));
                    }
                    continue;
                }
                Tolerance::Fused | Tolerance::ExactInRange => Charge::DroppedRounding,
                Tolerance::Ulps(n) => Charge::Ulps(f64::from(n)),
                Tolerance::Abs(e) => Charge::Abs(e),
                Tolerance::AbsPerUnit { base, per_unit } => Charge::AbsPerUnit { base, per_unit },
            };
            let at = if charge == Charge::DroppedRounding && inner_fmul(lhs) {
                PureOp::Fmul
            } else {
                op
            };
            c.per_op.entry(at).or_default().push(Entry {
                rule: rule.name.to_string(),
                charge,
                only,
                inner: reuse_type(rhs, op),
            });
        }
        // Inherit along the links until nothing changes.
        loop {
            let mut changed = false;
            for &(from, to) in &links {
                // A dropped rounding is not inherited: the exact rules that turn an operation
                // into a product (`x + x` to `x * 2`, `-x` to `x * -1`, a division by a power of
                // two) make one whose rounding is exact, so fusing it drops nothing.
                let inherited: Vec<Entry> = c
                    .per_op
                    .get(&to)
                    .into_iter()
                    .flatten()
                    .filter(|e| e.charge != Charge::DroppedRounding)
                    .cloned()
                    .collect();
                let mine = c.per_op.entry(from).or_default();
                for e in inherited {
                    if !mine.contains(&e) {
                        mine.push(e);
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        c.per_op.retain(|_, v| !v.is_empty());
        c
    }

    /// The charges of one operation.
    pub fn entries(&self, op: PureOp) -> &[Entry] {
        self.per_op.get(&op).map_or(&[], Vec::as_slice)
    }

    /// True if a mandatory rule rewrites `op` (the target never executes it).
    pub fn lowered(&self, op: PureOp) -> bool {
        self.lowered.contains(&op)
    }

    /// The error the rewrites may add to `op` (with `flags`) on `args` where the reference gets
    /// `r`; `hi` is the largest magnitude the result takes over the operands' uncertainty,
    /// `overflowed` whether the result overflowed from finite, non-zero operands.
    pub fn local(
        &self,
        op: PureOp,
        flags: InstFlags,
        args: &[Const],
        r: Const,
        hi: f64,
        overflowed: bool,
    ) -> f64 {
        let ty = r.ty();
        if !ty.is_float()
            || (op.flags().contains(Flags::CONTRACTABLE) && flags.contains(InstFlags::NO_CONTRACT))
        {
            return 0.0;
        }
        let m = args
            .iter()
            .filter(|a| a.ty().is_float() && a.as_f64().is_finite())
            .fold(0.0f64, |m, a| m.max(a.as_f64().abs()));
        let value = |c: Charge, ty: Type| match c {
            Charge::DroppedRounding if overflowed => UNKNOWN,
            Charge::DroppedRounding => 0.5 * ulp(ty, hi),
            Charge::Ulps(n) => n * ulp(ty, hi),
            Charge::Abs(e) => e,
            Charge::AbsPerUnit { base, per_unit } => base + per_unit * m,
        };
        let at = |ty: Type| {
            self.entries(op)
                .iter()
                .filter(|e| e.inner.is_none() && e.only.is_none_or(|t| t == ty))
                .map(|e| value(e.charge, ty))
                .fold(0.0, f64::max)
        };
        let mut e = 0.0f64;
        for entry in self.entries(op) {
            if entry.only.is_some_and(|t| t != ty) {
                continue;
            }
            let inner = entry.inner.map_or(0.0, at);
            e = e.max(value(entry.charge, ty) + inner);
        }
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use agxc_egraph::opt::{GenericTarget, Target};

    /// Every inexact rule lands somewhere, except the texture rules (module docs).
    fn check(target: &dyn Target) {
        let charges = RuleCharges::from_rules(target.rules());
        for rule in target.rules() {
            if rule.tolerance == Tolerance::Exact {
                continue;
            }
            let charged = PureOp::ALL
                .iter()
                .any(|&op| charges.entries(op).iter().any(|e| e.rule == rule.name));
            let texture = matches!(rule.origin, Origin::Custom(_));
            assert!(
                charged || texture,
                "inexact rule `{}` of {} is charged to no operation",
                rule.name,
                target.name()
            );
        }
    }

    #[test]
    fn every_inexact_rule_is_charged() {
        check(&GenericTarget::new());
        check(&agxc_backend_agx::target::G13Target::new());
    }
}
