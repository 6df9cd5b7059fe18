//! Constants: gather them on the right and combine them across targeted re-associations.
//!
//! Folding an operation whose operands are all constants is not a rule: the analysis does it
//! with the operation table's evaluation functions (`analysis.rs`). The rules here handle
//! constants mixed with unknown values.

use super::super::language::Kind;
use super::super::term::Term;
use super::{guards, Rule, RuleSpec};
use crate::ir::{Const, Flags, OpRegistry, PureOp, Signature, Type};
use std::sync::Arc;

/// The rules of this topic.
pub fn specs() -> Vec<RuleSpec> {
    crate::rule_specs! {
        /// (x + a) + b == x + (a + b): wrapping addition is associative.
        "iadd-iadd-const": "(iadd (iadd ?x ?a) ?b)" => "(iadd ?x ?s)", guard = guards::fold_iadd;
        /// (x * a) * b == x * (a * b): wrapping multiplication is associative.
        "imul-imul-const": "(imul (imul ?x ?a) ?b)" => "(imul ?x ?s)", guard = guards::fold_imul;
        /// (x & a) & b == x & (a & b).
        "and-and-const": "(and (and ?x ?a) ?b)" => "(and ?x ?s)", guard = guards::fold_and;
        /// (x | a) | b == x | (a | b).
        "or-or-const": "(or (or ?x ?a) ?b)" => "(or ?x ?s)", guard = guards::fold_or;
        /// (x ^ a) ^ b == x ^ (a ^ b).
        "xor-xor-const": "(xor (xor ?x ?a) ?b)" => "(xor ?x ?s)", guard = guards::fold_xor;
        /// x - c == x + (-c) (wrapping): one canonical form for adding constants.
        "isub-const": "(isub ?x ?c)" => "(iadd ?x ?n)", guard = guards::negate_int;
        /// (x << a) << b == x << (a + b) when a + b stays below the width.
        "ishl-ishl-const": "(ishl (ishl ?x ?a) ?b)"
            => "(ishl ?x ?s)", guard = guards::shift_sum_in_range;
        /// (x << a) << b == 0 when a + b reaches the width (a, b below it).
        "ishl-ishl-out": "(ishl (ishl ?x ?a) ?b)"
            => "0", guard = guards::shift_sum_out_of_range, examples = ishl_out_examples;
        /// (x >> a) >> b == x >> (a + b) (logical) when a + b stays below the width.
        "ushr-ushr-const": "(ushr (ushr ?x ?a) ?b)"
            => "(ushr ?x ?s)", guard = guards::shift_sum_in_range;
        /// (x >> a) >> b == 0 (logical) when a + b reaches the width (a, b below it).
        "ushr-ushr-out": "(ushr (ushr ?x ?a) ?b)"
            => "0", guard = guards::shift_sum_out_of_range, examples = ushr_out_examples;
    }
}

/// Double shifts whose amounts add up to at least the width, for the soundness check.
fn shift_out_examples(op: PureOp) -> Vec<Term> {
    let mut out = Vec::new();
    for ty in [Type::I16, Type::I32, Type::I64] {
        let w = ty.bits() as i64;
        for (a, b) in [(w / 2, w / 2), (w - 1, 1), (1, w - 1), (w - 1, w - 1)] {
            let k = |v: i64| Term::Node(Kind::Const(Const::int(ty, v)), vec![]);
            let inner = Term::Node(Kind::pure(op), vec![Term::Var("x".into(), Some(ty)), k(a)]);
            out.push(Term::Node(Kind::pure(op), vec![inner, k(b)]));
        }
    }
    out
}

fn ishl_out_examples() -> Vec<Term> {
    shift_out_examples(PureOp::Ishl)
}

fn ushr_out_examples() -> Vec<Term> {
    shift_out_examples(PureOp::Ushr)
}

/// `c op x == x op c` for a constant `c` and non-constant `x`, one rule per operation the table
/// marks [`Flags::COMMUTATIVE`] (so no list of commutative operations is kept here): the only
/// commutation the optimizer does, and it cannot loop because it needs a constant on the left.
pub fn commute_constants_right(registry: &Arc<OpRegistry>) -> Vec<Rule> {
    PureOp::ALL
        .iter()
        .filter(|op| op.flags().contains(Flags::COMMUTATIVE))
        .filter(|op| matches!(op.signature(), Signature::Binary(_) | Signature::Compare(_)))
        .map(|op| {
            let settings = RuleSpec::new("", "", "", "").guard(guards::const_left);
            Rule::deferred(
                format!("{}-const-right", op.name().replace('_', "-")).into(),
                "c op x == x op c for a constant c: the operation is commutative (ops.rs flags)."
                    .into(),
                format!("({} ?c ?x)", op.name()).into(),
                format!("({} ?x ?c)", op.name()).into(),
                &settings,
                registry,
            )
            .unwrap_or_else(|e| panic!("generated commutation rules are well-formed: {e}"))
        })
        .collect()
}
