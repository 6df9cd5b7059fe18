//! Comparisons and selects: negated comparisons, a canonical direction, trivial selects, and
//! integer min/max recognition.
//!
//! The table has ordered and unordered float comparisons, so the negation of every comparison is
//! another comparison, exactly (NaN included). Float `select`-to-min/max is *not* done: `fmin`
//! treats NaN and signed zeros differently from a select.

use super::RuleSpec;

/// The rules of this topic.
pub fn specs() -> Vec<RuleSpec> {
    crate::rule_specs! {
        // ---- negated comparisons
        /// !(a == b) == (a != b, unordered).
        "not-feq": "(not (feq ?a ?b))" => "(fneu ?a ?b)";
        /// !(a != b, ordered) == (a == b, unordered).
        "not-fne": "(not (fne ?a ?b))" => "(fequ ?a ?b)";
        /// !(a < b) == (a >= b, unordered).
        "not-flt": "(not (flt ?a ?b))" => "(fgeu ?a ?b)";
        /// !(a <= b) == (a > b, unordered).
        "not-fle": "(not (fle ?a ?b))" => "(fgtu ?a ?b)";
        /// !(a > b) == (a <= b, unordered).
        "not-fgt": "(not (fgt ?a ?b))" => "(fleu ?a ?b)";
        /// !(a >= b) == (a < b, unordered).
        "not-fge": "(not (fge ?a ?b))" => "(fltu ?a ?b)";
        /// !(a == b, unordered) == (a != b, ordered).
        "not-fequ": "(not (fequ ?a ?b))" => "(fne ?a ?b)";
        /// !(a != b, unordered) == (a == b, ordered).
        "not-fneu": "(not (fneu ?a ?b))" => "(feq ?a ?b)";
        /// !(a < b, unordered) == (a >= b, ordered).
        "not-fltu": "(not (fltu ?a ?b))" => "(fge ?a ?b)";
        /// !(a <= b, unordered) == (a > b, ordered).
        "not-fleu": "(not (fleu ?a ?b))" => "(fgt ?a ?b)";
        /// !(a > b, unordered) == (a <= b, ordered).
        "not-fgtu": "(not (fgtu ?a ?b))" => "(fle ?a ?b)";
        /// !(a >= b, unordered) == (a < b, ordered).
        "not-fgeu": "(not (fgeu ?a ?b))" => "(flt ?a ?b)";
        /// !(a == b) == (a != b).
        "not-ieq": "(not (ieq ?a ?b))" => "(ine ?a ?b)";
        /// !(a != b) == (a == b).
        "not-ine": "(not (ine ?a ?b))" => "(ieq ?a ?b)";
        /// !(a < b) == (a >= b), unsigned.
        "not-ult": "(not (ult ?a ?b))" => "(uge ?a ?b)";
        /// !(a <= b) == (a > b), unsigned.
        "not-ule": "(not (ule ?a ?b))" => "(ugt ?a ?b)";
        /// !(a > b) == (a <= b), unsigned.
        "not-ugt": "(not (ugt ?a ?b))" => "(ule ?a ?b)";
        /// !(a >= b) == (a < b), unsigned.
        "not-uge": "(not (uge ?a ?b))" => "(ult ?a ?b)";
        /// !(a < b) == (a >= b), signed.
        "not-slt": "(not (slt ?a ?b))" => "(sge ?a ?b)";
        /// !(a <= b) == (a > b), signed.
        "not-sle": "(not (sle ?a ?b))" => "(sgt ?a ?b)";
        /// !(a > b) == (a <= b), signed.
        "not-sgt": "(not (sgt ?a ?b))" => "(sle ?a ?b)";
        /// !(a >= b) == (a < b), signed.
        "not-sge": "(not (sge ?a ?b))" => "(slt ?a ?b)";

        // ---- one direction: greater-than becomes less-than with swapped operands
        /// a > b == b < a.
        "fgt-to-flt": "(fgt ?a ?b)" => "(flt ?b ?a)";
        /// a >= b == b <= a.
        "fge-to-fle": "(fge ?a ?b)" => "(fle ?b ?a)";
        /// a > b == b < a (unordered).
        "fgtu-to-fltu": "(fgtu ?a ?b)" => "(fltu ?b ?a)";
        /// a >= b == b <= a (unordered).
        "fgeu-to-fleu": "(fgeu ?a ?b)" => "(fleu ?b ?a)";
        /// a > b == b < a (unsigned).
        "ugt-to-ult": "(ugt ?a ?b)" => "(ult ?b ?a)";
        /// a >= b == b <= a (unsigned).
        "uge-to-ule": "(uge ?a ?b)" => "(ule ?b ?a)";
        /// a > b == b < a (signed).
        "sgt-to-slt": "(sgt ?a ?b)" => "(slt ?b ?a)";
        /// a >= b == b <= a (signed).
        "sge-to-sle": "(sge ?a ?b)" => "(sle ?b ?a)";

        // ---- comparisons of a value with itself
        /// x < x is false, NaN included.
        "flt-self": "(flt ?x ?x)" => "false";
        /// x != x (ordered) is false, NaN included.
        "fne-self": "(fne ?x ?x)" => "false";
        /// x == x (unordered) is true, NaN included.
        "fequ-self": "(fequ ?x ?x)" => "true";
        /// x <= x (unordered) is true, NaN included.
        "fleu-self": "(fleu ?x ?x)" => "true";
        /// x == x.
        "ieq-self": "(ieq ?x ?x)" => "true";
        /// x != x is false.
        "ine-self": "(ine ?x ?x)" => "false";
        /// x < x is false (unsigned).
        "ult-self": "(ult ?x ?x)" => "false";
        /// x <= x (unsigned).
        "ule-self": "(ule ?x ?x)" => "true";
        /// x < x is false (signed).
        "slt-self": "(slt ?x ?x)" => "false";
        /// x <= x (signed).
        "sle-self": "(sle ?x ?x)" => "true";
        /// (b == true) == b.
        "ieq-true": "(ieq ?b true)" => "?b";
        /// (b != false) == b.
        "ine-false": "(ine ?b false)" => "?b";
        /// (b == false) == !b.
        "ieq-false": "(ieq ?b false)" => "(not ?b)";
        /// (b != true) == !b.
        "ine-true": "(ine ?b true)" => "(not ?b)";

        // ---- selects
        /// c ? a : a == a.
        "select-same": "(select ?c ?a ?a)" => "?a";
        /// true ? a : b == a.
        "select-true": "(select true ?a ?b)" => "?a";
        /// false ? a : b == b.
        "select-false": "(select false ?a ?b)" => "?b";
        /// !c ? a : b == c ? b : a.
        "select-not": "(select (not ?c) ?a ?b)" => "(select ?c ?b ?a)";
        /// c ? true : false == c.
        "select-to-cond": "(select ?c true false)" => "?c";
        /// c ? false : true == !c.
        "select-to-not-cond": "(select ?c false true)" => "(not ?c)";
        /// c ? a : false == c && a.
        "select-to-and": "(select ?c ?a false)" => "(and ?c ?a)";
        /// c ? true : b == c || b.
        "select-to-or": "(select ?c true ?b)" => "(or ?c ?b)";
        /// (a < b ? a : b) == smin(a, b).
        "select-slt-to-smin": "(select (slt ?a ?b) ?a ?b)" => "(smin ?a ?b)";
        /// (a < b ? b : a) == smax(a, b).
        "select-slt-to-smax": "(select (slt ?a ?b) ?b ?a)" => "(smax ?a ?b)";
        /// (a <= b ? a : b) == smin(a, b).
        "select-sle-to-smin": "(select (sle ?a ?b) ?a ?b)" => "(smin ?a ?b)";
        /// (a <= b ? b : a) == smax(a, b).
        "select-sle-to-smax": "(select (sle ?a ?b) ?b ?a)" => "(smax ?a ?b)";
        /// (a < b ? a : b) == umin(a, b), unsigned.
        "select-ult-to-umin": "(select (ult ?a ?b) ?a ?b)" => "(umin ?a ?b)";
        /// (a < b ? b : a) == umax(a, b), unsigned.
        "select-ult-to-umax": "(select (ult ?a ?b) ?b ?a)" => "(umax ?a ?b)";
        /// (a <= b ? a : b) == umin(a, b), unsigned.
        "select-ule-to-umin": "(select (ule ?a ?b) ?a ?b)" => "(umin ?a ?b)";
        /// (a <= b ? b : a) == umax(a, b), unsigned.
        "select-ule-to-umax": "(select (ule ?a ?b) ?b ?a)" => "(umax ?a ?b)";

        // ---- ranges of equalities: the tests of switch cases that share a body
        /// x == lo || x == lo + 1 == (x - lo) <u 2: exactly the two values whose wrapping
        /// difference from lo is 0 or 1.
        "or-ieq-adjacent": "(or (ieq ?x ?a) (ieq ?x ?b))" => "(ult (isub ?x ?lo) 2)",
            guard = adjacent_literals, examples = range_examples;
        /// (x - lo) <u n || x == lo + n == (x - lo) <u n + 1 (n + 1 not wrapping to 0).
        "or-range-above": "(or (ult (isub ?x ?lo) ?n) (ieq ?x ?c))" => "(ult (isub ?x ?lo) ?m)",
            guard = literal_above_range, examples = range_examples;
        /// x == lo + n || (x - lo) <u n, the same with the operands the other way round.
        "or-range-above-left": "(or (ieq ?x ?c) (ult (isub ?x ?lo) ?n))" => "(ult (isub ?x ?lo) ?m)",
            guard = literal_above_range, examples = range_examples;
        /// (x - lo) <u n || x == lo - 1 == (x - (lo - 1)) <u n + 1.
        "or-range-below": "(or (ult (isub ?x ?lo) ?n) (ieq ?x ?c))" => "(ult (isub ?x ?c) ?m)",
            guard = literal_below_range, examples = range_examples;
        /// x == lo - 1 || (x - lo) <u n, the same with the operands the other way round.
        "or-range-below-left": "(or (ieq ?x ?c) (ult (isub ?x ?lo) ?n))" => "(ult (isub ?x ?c) ?m)",
            guard = literal_below_range, examples = range_examples;
    }
}

use super::Bindings;
use crate::ir::{Const, OpRegistry, PureOp};
use crate::opt::term::Term;

/// Left sides whose literals line up (random constants rarely do), in every integer width,
/// with wrapping at the ends of the range.
fn range_examples() -> Vec<Term> {
    let mut out = Vec::new();
    for ty in ["i16", "i32", "i64"] {
        for text in [
            "(or (ieq ?x:T 3:T) (ieq ?x:T 4:T))",
            "(or (ieq ?x:T 1:T) (ieq ?x:T 0:T))",
            "(or (ieq ?x:T -1:T) (ieq ?x:T 0:T))",
            "(or (ult (isub ?x:T 2:T) 3:T) (ieq ?x:T 5:T))",
            "(or (ieq ?x:T 5:T) (ult (isub ?x:T 2:T) 3:T))",
            "(or (ult (isub ?x:T 2:T) 3:T) (ieq ?x:T 1:T))",
            "(or (ieq ?x:T 1:T) (ult (isub ?x:T 2:T) 3:T))",
            "(or (ult (isub ?x:T 0:T) -2:T) (ieq ?x:T -2:T))",
        ] {
            let text = text.replace('T', ty);
            let term =
                Term::parse(&text, &OpRegistry::new()).unwrap_or_else(|e| panic!("{text}: {e}"));
            out.push(term);
        }
    }
    out
}

/// The integer constants `?a` and `?b` of one type are adjacent (wrapping); binds `?lo`, the
/// lower one.
fn adjacent_literals(b: &mut Bindings<'_>) -> bool {
    let (Some(x), Some(y)) = (b.konst("a"), b.konst("b")) else {
        return false;
    };
    if !x.ty().is_int() || x.ty() != y.ty() {
        return false;
    }
    let one = Const::int(x.ty(), 1);
    let lo = if PureOp::Iadd.eval(&[x, one], x.ty()) == y {
        x
    } else if PureOp::Iadd.eval(&[y, one], y.ty()) == x {
        y
    } else {
        return false;
    };
    b.bind("lo", lo);
    true
}

/// `?lo`, `?n`, `?c` integer constants of one type with `?n` + 1 not zero; binds `?m` = n + 1.
fn range_and_literal(b: &mut Bindings<'_>) -> Option<(Const, Const, Const)> {
    let (lo, n, c) = (b.konst("lo")?, b.konst("n")?, b.konst("c")?);
    let ty = lo.ty();
    if !ty.is_int() || n.ty() != ty || c.ty() != ty {
        return None;
    }
    let m = PureOp::Iadd.eval(&[n, Const::int(ty, 1)], ty);
    if m.bits() == 0 {
        return None;
    }
    b.bind("m", m);
    Some((lo, n, c))
}

/// `?c` == lo + n: the literal just above the range `[lo, lo + n)`.
fn literal_above_range(b: &mut Bindings<'_>) -> bool {
    range_and_literal(b).is_some_and(|(lo, n, c)| PureOp::Iadd.eval(&[lo, n], lo.ty()) == c)
}

/// `?c` == lo - 1: the literal just below the range `[lo, lo + n)`.
fn literal_below_range(b: &mut Bindings<'_>) -> bool {
    range_and_literal(b)
        .is_some_and(|(lo, _, c)| PureOp::Iadd.eval(&[c, Const::int(c.ty(), 1)], c.ty()) == lo)
}

#[cfg(test)]
mod tests {
    use crate::opt::{probe, GenericTarget};

    #[test]
    fn cases_sharing_a_body_test_one_range() {
        let t = GenericTarget::new();
        let best = |text: &str| probe::best(&t, text).unwrap();
        assert_eq!(
            best("(or (ieq ?x:i32 3:i32) (ieq ?x:i32 4:i32))"),
            "(ult (iadd ?x -3:i32) 2:i32)"
        );
        // Four literals 0..=3 falling through into one another: one unsigned compare.
        assert_eq!(
            best("(or (ieq ?x:i32 3:i32) (or (ieq ?x:i32 2:i32) (or (ieq ?x:i32 1:i32) (ieq ?x:i32 0:i32))))"),
            "(ult ?x 4:i32)"
        );
    }
}
