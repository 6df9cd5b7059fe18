//! Integer bitfield patterns: shift-and-mask sequences to bitfield extract and insert.
//!
//! The table's bitfield operations clamp offset and count to the width (`ir/eval/int.rs`), which
//! makes the identities below exact for every operand value once the guards hold.

use super::super::language::Kind;
use super::super::term::Term;
use super::{Bindings, RuleSpec};
use crate::ir::{Const, PureOp, Type};

/// `?c` is a shift amount below the width and `?m` a mask 2^n - 1; binds `?o` = c and `?n` = n
/// as i32 (the bitfield operations' offset and count type).
fn shift_then_mask(b: &mut Bindings<'_>) -> bool {
    let (Some(c), Some(m)) = (b.konst("c"), b.konst("m")) else {
        return false;
    };
    let w = c.ty().bits() as u64;
    if !c.ty().is_int() || c.bits() >= w {
        return false;
    }
    let n = m.bits().count_ones() as u64;
    let contiguous_low = m.bits() == low_bits(n);
    if !contiguous_low {
        return false;
    }
    b.bind("o", Const::i32(c.bits() as i32));
    b.bind("n", Const::i32(n as i32));
    true
}

/// Left shift by `?a` then right shift by `?b`, constants with a <= b < width; binds `?o` =
/// b - a and `?n` = width - b as i32.
fn shift_pair(b: &mut Bindings<'_>) -> bool {
    let (Some(x), Some(y)) = (b.konst("a"), b.konst("b")) else {
        return false;
    };
    let w = x.ty().bits() as u64;
    if !x.ty().is_int() || x.bits() > y.bits() || y.bits() >= w {
        return false;
    }
    b.bind("o", Const::i32((y.bits() - x.bits()) as i32));
    b.bind("n", Const::i32((w - y.bits()) as i32));
    true
}

/// `?o` is an offset below the width, `?m` = (2^n - 1) << o with n >= 1 and `?nm` = !m; binds
/// `?oo` = o and `?nn` = n as i32.
fn insert_masks(b: &mut Bindings<'_>) -> bool {
    let (Some(o), Some(m), Some(nm)) = (b.konst("o"), b.konst("m"), b.konst("nm")) else {
        return false;
    };
    let ty = o.ty();
    let w = ty.bits() as u64;
    if !ty.is_int() || o.bits() >= w || nm.bits() != (!m.bits() & ty.mask()) {
        return false;
    }
    let n = m.bits().count_ones() as u64;
    if n == 0 || m.bits() != (low_bits(n) << o.bits()) & ty.mask() || o.bits() + n > w {
        return false;
    }
    b.bind("oo", Const::i32(o.bits() as i32));
    b.bind("nn", Const::i32(n as i32));
    true
}

/// `?n` is a count of at least the width of `?x`.
fn count_covers_width(b: &mut Bindings<'_>) -> bool {
    match (b.konst("n"), b.ty("x")) {
        (Some(n), Some(t)) if t.is_int() && n.ty() == Type::I32 => n.bits() >= t.bits() as u64,
        _ => false,
    }
}

fn low_bits(n: u64) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// Left sides with consistent masks for the soundness check (random constants never are).
fn bfi_examples() -> Vec<Term> {
    let mut out = Vec::new();
    for (ty, offset, count) in [
        (Type::I32, 8u64, 8u64),
        (Type::I32, 0, 1),
        (Type::I32, 31, 1),
        (Type::I32, 4, 28),
        (Type::I16, 3, 5),
        (Type::I64, 40, 20),
    ] {
        let m = low_bits(count) << offset;
        let k = |v: u64| Term::Node(Kind::Const(Const::from_bits(ty, v)), vec![]);
        let var = |n: &str| Term::Var(n.to_string(), Some(ty));
        let and = |a, b| Term::Node(Kind::pure(PureOp::And), vec![a, b]);
        let shifted = Term::Node(Kind::pure(PureOp::Ishl), vec![var("ins"), k(offset)]);
        out.push(Term::Node(
            Kind::pure(PureOp::Or),
            vec![and(var("base"), k(!m & ty.mask())), and(shifted, k(m))],
        ));
    }
    out
}

/// The rules of this topic.
pub fn specs() -> Vec<RuleSpec> {
    crate::rule_specs! {
        /// (x >> c) & (2^n - 1) == ubfe(x, c, n) for c below the width (the count clamps to
        /// width - c exactly as the shift drops those bits).
        "ushr-and-to-ubfe": "(and (ushr ?x ?c) ?m)" => "(ubfe ?x ?o ?n)", guard = shift_then_mask;
        /// (x << a) >> b == ubfe(x, b - a, width - b) for a <= b < width (logical shift).
        "ishl-ushr-to-ubfe": "(ushr (ishl ?x ?a) ?b)" => "(ubfe ?x ?o ?n)", guard = shift_pair;
        /// (x << a) >> b == sbfe(x, b - a, width - b) for a <= b < width (arithmetic shift).
        "ishl-sshr-to-sbfe": "(sshr (ishl ?x ?a) ?b)" => "(sbfe ?x ?o ?n)", guard = shift_pair;
        /// (base & ~m) | ((ins << o) & m) == bfi(base, ins, o, n) for m = (2^n - 1) << o.
        "and-or-to-bfi": "(or (and ?base ?nm) (and (ishl ?ins ?o) ?m))"
            => "(bfi ?base ?ins ?oo ?nn)", guard = insert_masks, examples = bfi_examples;
        /// ubfe(x, 0, n) == x when n covers the width.
        "ubfe-whole": "(ubfe ?x 0 ?n)" => "?x", guard = count_covers_width;
        /// sbfe(x, 0, n) == x when n covers the width.
        "sbfe-whole": "(sbfe ?x 0 ?n)" => "?x", guard = count_covers_width;
        /// ubfe(x, o, 0) == 0.
        "ubfe-empty": "(ubfe ?x ?o 0)" => "0";
        /// sbfe(x, o, 0) == 0.
        "sbfe-empty": "(sbfe ?x ?o 0)" => "0";
        /// bfi(base, ins, o, 0) == base.
        "bfi-empty": "(bfi ?base ?ins ?o 0)" => "?base";
    }
}
