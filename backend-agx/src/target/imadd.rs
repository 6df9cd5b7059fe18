//! Integer multiply-add: the G13's `imadd` computes `a * b + c` in one instruction (the seed ISA
//! document, "imadd"), as `fmadd` does for floats. The IR has no such operation; the division
//! expansions ([`super::divide`]) use this one for their remainder step `n - q * d =
//! q * (-d) + n`, whose `-d` the divisor's reciprocal computes anyway.
//!
//! Elsewhere a multiply and an add are fused after instruction selection, where it is known that
//! the product has no other reader (`mopt::combine`): in the e-graph a fused form looks cheaper
//! even where the product is shared (three addresses `3i`, `3i + 1`, `3i + 2`), and it would hide
//! multiplications by powers of two that are shifts the memory instructions take for free.

use agxc_egraph::ir::{Class, Const, CustomOpDef, PureOp, Signature, Type};

/// `a * b + c` (wrapping).
pub fn eval_imadd(args: &[Const], result: Type) -> Const {
    let p = PureOp::Imul.eval(&args[..2], result);
    PureOp::Iadd.eval(&[p, args[2]], result)
}

/// `imadd`: `a * b + c`.
pub static IMADD: CustomOpDef = CustomOpDef {
    name: "g13.imadd",
    signature: Signature::Ternary(Class::Int),
    eval: eval_imadd,
    doc: "a * b + c (wrapping): imadd",
};
