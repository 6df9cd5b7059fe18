//! Compare-and-select: the G13's `fcmpsel`/`icmpsel` as target operations, and the rules that
//! fuse an IR `select` of a comparison into one.
//!
//! `fcmpsel`/`icmpsel` compute `dst = cc(a, b) ? x : y` in one instruction with the cost of an
//! add (docs/g13.md, "Latency model": 2 cycles, throughput 1). The IR spells that as two
//! operations, a comparison producing a `bool` and a `select`, so without a fused form the
//! optimizer would price both. Each condition code is one operation of signature
//! `(T, T, U, U) -> U` (`Signature::CompareSelect`), named like the other G13 operations that
//! carry a modifier: `g13.fcmpsel_lt` is `fcmpsel` with condition `lt`.
//!
//! # Semantics
//! The seed ISA document ("fcmpsel", "icmpsel", `FCondition`, `ICondition`, with docs/g13.md's
//! correction that float code 5 is `ge` and 6 is `le`): `x` if the comparison holds, else `y`;
//! `x` and `y` are raw register contents (`CmpselSrc` does no conversion), so the selected
//! value is passed through bit for bit, NaN payloads included.
//!
//! - Float conditions `eq`, `lt`, `gt`, `le`, `ge` are the ordered comparisons: false when
//!   either operand is NaN, and `-0 == +0`. These are exactly the IR's `feq`, `flt`, `fgt`,
//!   `fle`, `fge`, whose evaluation functions the operations reuse. The unordered IR
//!   comparisons are the negations of ordered ones, so they fuse with `x` and `y` swapped
//!   (`fltu(a, b) = !fge(a, b)`).
//! - The "NaN loses" codes 3 and 7 are not offered: they exist for min/max, and docs/g13.md
//!   reports them wrong for signed zeros. Ordered `fne` and unordered `fequ` need two
//!   comparisons (no code is "less or greater") and stay a comparison and a `select`.
//! - Integer conditions: `eq` (for integers and `bool`s, which live in 32-bit registers as 0
//!   or 1), unsigned `ult`/`ugt`, signed `slt`/`sgt`; `ne`, `le` and `ge` swap `x` and `y`.
//! - Like every G13 instruction with fp32 sources, `fcmpsel` flushes f32 denormal operands to
//!   zero before comparing (docs/g13.md, "Floating point"). The evaluation functions follow the
//!   IR's reference semantics instead, as the other G13 operations do (`eval/mod.rs`: targets
//!   that flush are compared with denormals treated as zero); the end-to-end test compares the
//!   simulator with the interpreter on flushed inputs for that case.
//!
//! # When the rules apply
//! One instruction compares operands of one width and writes a destination of the same width
//! (the compare-and-select sources `x` and `y` take the destination's width), so the rules only
//! fuse when the compared and the selected types occupy registers of the same width (16 or 32
//! bits; a `bool` is a 32-bit register) and the compared type is not 64-bit. Instruction
//! selection still accepts every typing the signature allows, with a longer sequence.

use agxc_egraph::ir::{Class, Const, CustomOp, CustomOpDef, PureOp, Signature, Type};
use agxc_egraph::opt::rules::{Bindings, RuleSpec};

/// `cmp(a, b) ? x : y`, with the comparison's own evaluation function.
fn select(cmp: PureOp, args: &[Const]) -> Const {
    if cmp.eval(&args[..2], Type::Bool).as_bool() {
        args[2]
    } else {
        args[3]
    }
}

macro_rules! cmpsel_ops {
    ($($def:ident, $eval:ident: $name:literal, $cmp:ident, $class:ident, $doc:literal;)*) => {
        $(
            #[doc = concat!("Evaluation of `", $name, "`.")]
            pub fn $eval(args: &[Const], _result: Type) -> Const {
                select(PureOp::$cmp, args)
            }

            #[doc = $doc]
            pub static $def: CustomOpDef = CustomOpDef {
                name: $name,
                signature: Signature::CompareSelect {
                    compare: Class::$class,
                    select: Class::Any,
                },
                eval: $eval,
                doc: $doc,
            };
        )*

        /// Every compare-and-select operation, with the IR comparison it makes.
        pub static CMPSEL: [(&CustomOpDef, PureOp); 10] = [$((&$def, PureOp::$cmp)),*];
    };
}

cmpsel_ops! {
    FCMPSEL_EQ, eval_fcmpsel_eq: "g13.fcmpsel_eq", Feq, Float,
        "`fcmpsel` with condition `eq`: `a == b ? x : y` (ordered).";
    FCMPSEL_LT, eval_fcmpsel_lt: "g13.fcmpsel_lt", Flt, Float,
        "`fcmpsel` with condition `lt`: `a < b ? x : y` (ordered).";
    FCMPSEL_GT, eval_fcmpsel_gt: "g13.fcmpsel_gt", Fgt, Float,
        "`fcmpsel` with condition `gt`: `a > b ? x : y` (ordered).";
    FCMPSEL_LE, eval_fcmpsel_le: "g13.fcmpsel_le", Fle, Float,
        "`fcmpsel` with condition `le`: `a <= b ? x : y` (ordered).";
    FCMPSEL_GE, eval_fcmpsel_ge: "g13.fcmpsel_ge", Fge, Float,
        "`fcmpsel` with condition `ge`: `a >= b ? x : y` (ordered).";
    ICMPSEL_EQ, eval_icmpsel_eq: "g13.icmpsel_eq", Ieq, IntOrBool,
        "`icmpsel` with condition `eq`: `a == b ? x : y` (integers or bools).";
    ICMPSEL_ULT, eval_icmpsel_ult: "g13.icmpsel_ult", Ult, Int,
        "`icmpsel` with condition `ult`: `a < b ? x : y`, unsigned.";
    ICMPSEL_UGT, eval_icmpsel_ugt: "g13.icmpsel_ugt", Ugt, Int,
        "`icmpsel` with condition `ugt`: `a > b ? x : y`, unsigned.";
    ICMPSEL_SLT, eval_icmpsel_slt: "g13.icmpsel_slt", Slt, Int,
        "`icmpsel` with condition `slt`: `a < b ? x : y`, signed.";
    ICMPSEL_SGT, eval_icmpsel_sgt: "g13.icmpsel_sgt", Sgt, Int,
        "`icmpsel` with condition `sgt`: `a > b ? x : y`, signed.";
}

/// The IR comparison a compare-and-select operation makes, or `None` for other operations.
pub fn comparison(op: CustomOp) -> Option<PureOp> {
    comparison_by_name(op.name())
}

/// [`comparison`] by operation name.
pub fn comparison_by_name(name: &str) -> Option<PureOp> {
    CMPSEL
        .iter()
        .find(|(def, _)| def.name == name)
        .map(|&(_, cmp)| cmp)
}

/// The width of the register a value of `ty` occupies.
fn register_bits(ty: Type) -> u32 {
    match ty {
        Type::Bool => 32,
        t => t.bits(),
    }
}

/// One instruction does it: compared and selected values in registers of one width, 16 or 32
/// bits.
fn one_instruction(b: &mut Bindings<'_>) -> bool {
    match (b.ty("a"), b.ty("x")) {
        (Some(t), Some(u)) => {
            let bits = register_bits(t);
            bits <= 32 && bits == register_bits(u)
        }
        _ => false,
    }
}

/// The fusion rules.
pub fn specs() -> Vec<RuleSpec> {
    agxc_egraph::rule_specs! {
        /// (a == b ? x : y) == fcmpsel.eq(a, b, x, y): the ordered condition is `feq`.
        "select-feq-to-fcmpsel": "(select (feq ?a ?b) ?x ?y)"
            => "(g13.fcmpsel_eq ?a ?b ?x ?y)", guard = one_instruction;
        /// (a < b ? x : y) == fcmpsel.lt(a, b, x, y).
        "select-flt-to-fcmpsel": "(select (flt ?a ?b) ?x ?y)"
            => "(g13.fcmpsel_lt ?a ?b ?x ?y)", guard = one_instruction;
        /// (a > b ? x : y) == fcmpsel.gt(a, b, x, y).
        "select-fgt-to-fcmpsel": "(select (fgt ?a ?b) ?x ?y)"
            => "(g13.fcmpsel_gt ?a ?b ?x ?y)", guard = one_instruction;
        /// (a <= b ? x : y) == fcmpsel.le(a, b, x, y).
        "select-fle-to-fcmpsel": "(select (fle ?a ?b) ?x ?y)"
            => "(g13.fcmpsel_le ?a ?b ?x ?y)", guard = one_instruction;
        /// (a >= b ? x : y) == fcmpsel.ge(a, b, x, y).
        "select-fge-to-fcmpsel": "(select (fge ?a ?b) ?x ?y)"
            => "(g13.fcmpsel_ge ?a ?b ?x ?y)", guard = one_instruction;
        /// (a != b or unordered ? x : y) == fcmpsel.eq(a, b, y, x): `fneu` is `!feq`.
        "select-fneu-to-fcmpsel": "(select (fneu ?a ?b) ?x ?y)"
            => "(g13.fcmpsel_eq ?a ?b ?y ?x)", guard = one_instruction;
        /// (a < b or unordered ? x : y) == fcmpsel.ge(a, b, y, x): `fltu` is `!fge`.
        "select-fltu-to-fcmpsel": "(select (fltu ?a ?b) ?x ?y)"
            => "(g13.fcmpsel_ge ?a ?b ?y ?x)", guard = one_instruction;
        /// (a > b or unordered ? x : y) == fcmpsel.le(a, b, y, x): `fgtu` is `!fle`.
        "select-fgtu-to-fcmpsel": "(select (fgtu ?a ?b) ?x ?y)"
            => "(g13.fcmpsel_le ?a ?b ?y ?x)", guard = one_instruction;
        /// (a <= b or unordered ? x : y) == fcmpsel.gt(a, b, y, x): `fleu` is `!fgt`.
        "select-fleu-to-fcmpsel": "(select (fleu ?a ?b) ?x ?y)"
            => "(g13.fcmpsel_gt ?a ?b ?y ?x)", guard = one_instruction;
        /// (a >= b or unordered ? x : y) == fcmpsel.lt(a, b, y, x): `fgeu` is `!flt`.
        "select-fgeu-to-fcmpsel": "(select (fgeu ?a ?b) ?x ?y)"
            => "(g13.fcmpsel_lt ?a ?b ?y ?x)", guard = one_instruction;
        /// (a == b ? x : y) == icmpsel.eq(a, b, x, y).
        "select-ieq-to-icmpsel": "(select (ieq ?a ?b) ?x ?y)"
            => "(g13.icmpsel_eq ?a ?b ?x ?y)", guard = one_instruction;
        /// (a != b ? x : y) == icmpsel.eq(a, b, y, x).
        "select-ine-to-icmpsel": "(select (ine ?a ?b) ?x ?y)"
            => "(g13.icmpsel_eq ?a ?b ?y ?x)", guard = one_instruction;
        /// (a < b ? x : y) == icmpsel.ult(a, b, x, y), unsigned.
        "select-ult-to-icmpsel": "(select (ult ?a ?b) ?x ?y)"
            => "(g13.icmpsel_ult ?a ?b ?x ?y)", guard = one_instruction;
        /// (a > b ? x : y) == icmpsel.ugt(a, b, x, y), unsigned.
        "select-ugt-to-icmpsel": "(select (ugt ?a ?b) ?x ?y)"
            => "(g13.icmpsel_ugt ?a ?b ?x ?y)", guard = one_instruction;
        /// (a <= b ? x : y) == icmpsel.ugt(a, b, y, x), unsigned: `ule` is `!ugt`.
        "select-ule-to-icmpsel": "(select (ule ?a ?b) ?x ?y)"
            => "(g13.icmpsel_ugt ?a ?b ?y ?x)", guard = one_instruction;
        /// (a >= b ? x : y) == icmpsel.ult(a, b, y, x), unsigned: `uge` is `!ult`.
        "select-uge-to-icmpsel": "(select (uge ?a ?b) ?x ?y)"
            => "(g13.icmpsel_ult ?a ?b ?y ?x)", guard = one_instruction;
        /// (a < b ? x : y) == icmpsel.slt(a, b, x, y), signed.
        "select-slt-to-icmpsel": "(select (slt ?a ?b) ?x ?y)"
            => "(g13.icmpsel_slt ?a ?b ?x ?y)", guard = one_instruction;
        /// (a > b ? x : y) == icmpsel.sgt(a, b, x, y), signed.
        "select-sgt-to-icmpsel": "(select (sgt ?a ?b) ?x ?y)"
            => "(g13.icmpsel_sgt ?a ?b ?x ?y)", guard = one_instruction;
        /// (a <= b ? x : y) == icmpsel.sgt(a, b, y, x), signed: `sle` is `!sgt`.
        "select-sle-to-icmpsel": "(select (sle ?a ?b) ?x ?y)"
            => "(g13.icmpsel_sgt ?a ?b ?y ?x)", guard = one_instruction;
        /// (a >= b ? x : y) == icmpsel.slt(a, b, y, x), signed: `sge` is `!slt`.
        "select-sge-to-icmpsel": "(select (sge ?a ?b) ?x ?y)"
            => "(g13.icmpsel_slt ?a ?b ?y ?x)", guard = one_instruction;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(v: f32) -> Const {
        Const::f32(v)
    }

    fn i(v: i32) -> Const {
        Const::i32(v)
    }

    #[test]
    fn ordered_float_conditions_are_false_on_nan_and_pass_bits_through() {
        let (x, y) = (i(7), i(-9));
        let nan = f(f32::NAN);
        for eval in [
            eval_fcmpsel_eq,
            eval_fcmpsel_lt,
            eval_fcmpsel_gt,
            eval_fcmpsel_le,
            eval_fcmpsel_ge,
        ] {
            assert_eq!(eval(&[nan, f(1.0), x, y], Type::I32), y);
            assert_eq!(eval(&[f(1.0), nan, x, y], Type::I32), y);
        }
        // -0 == +0; a selected NaN keeps its payload.
        let payload = Const::f32(f32::from_bits(0x7fc0_1234));
        let r = eval_fcmpsel_eq(&[f(-0.0), f(0.0), payload, f(1.0)], Type::F32);
        assert_eq!(r.bits(), 0x7fc0_1234);
        assert_eq!(eval_fcmpsel_lt(&[f(1.0), f(2.0), x, y], Type::I32), x);
        assert_eq!(eval_fcmpsel_gt(&[f(1.0), f(2.0), x, y], Type::I32), y);
        assert_eq!(eval_fcmpsel_le(&[f(2.0), f(2.0), x, y], Type::I32), x);
        assert_eq!(eval_fcmpsel_ge(&[f(1.0), f(2.0), x, y], Type::I32), y);
    }

    #[test]
    fn integer_conditions_distinguish_signedness() {
        let (x, y) = (f(1.5), f(-2.5));
        // -1 is below 0 signed and above it unsigned (0xffffffff).
        assert_eq!(eval_icmpsel_slt(&[i(-1), i(0), x, y], Type::F32), x);
        assert_eq!(eval_icmpsel_ult(&[i(-1), i(0), x, y], Type::F32), y);
        assert_eq!(eval_icmpsel_ugt(&[i(-1), i(0), x, y], Type::F32), x);
        assert_eq!(eval_icmpsel_sgt(&[i(-1), i(0), x, y], Type::F32), y);
        let (t, fl) = (Const::bool(true), Const::bool(false));
        assert_eq!(eval_icmpsel_eq(&[t, t, x, y], Type::F32), x);
        assert_eq!(eval_icmpsel_eq(&[t, fl, x, y], Type::F32), y);
    }

    #[test]
    fn every_operation_is_found_by_name() {
        for (def, cmp) in &CMPSEL {
            assert_eq!(comparison_by_name(def.name), Some(*cmp));
            assert_eq!(comparison(CustomOp::new(def)), Some(*cmp));
        }
        assert_eq!(comparison_by_name("g13.fmadd_sat"), None);
    }
}
