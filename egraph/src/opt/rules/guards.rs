//! Guards shared by the topic files: conditions on matched constants and types, and the
//! constants they bind for the right side. New constants are computed with the operation table's
//! own evaluation functions, so a guard never has its own idea of what an operation does.

use super::Bindings;
use crate::ir::{Const, PureOp, Type};

/// `?c` is an integer constant 2^k (as an unsigned number); binds `?k` = k in `?c`'s type.
pub fn pow2_shift(b: &mut Bindings<'_>) -> bool {
    let Some(c) = b.konst("c").filter(|c| c.ty().is_int()) else {
        return false;
    };
    if !c.bits().is_power_of_two() {
        return false;
    }
    b.bind("k", Const::int(c.ty(), c.bits().trailing_zeros() as i64));
    true
}

/// `?c` is an integer constant 2^k; binds `?m` = 2^k - 1.
pub fn pow2_mask(b: &mut Bindings<'_>) -> bool {
    let Some(c) = b.konst("c").filter(|c| c.ty().is_int()) else {
        return false;
    };
    if !c.bits().is_power_of_two() {
        return false;
    }
    b.bind("m", Const::from_bits(c.ty(), c.bits() - 1));
    true
}

/// `?c` is a float constant ±2^e whose reciprocal ±2^-e is representable (so `x / c` and
/// `x * (1/c)` round the same exact value); binds `?r` = 1/c computed by the table's `rcp`.
pub fn exact_reciprocal(b: &mut Bindings<'_>) -> bool {
    let Some(c) = b.konst("c").filter(|c| c.ty().is_float()) else {
        return false;
    };
    let v = c.as_f64();
    if !v.is_finite() || v == 0.0 {
        return false;
    }
    let r = PureOp::Rcp.eval(&[c], c.ty());
    // Both are powers of two exactly when their product is exactly one.
    let ok = r.as_f64().is_finite() && r.as_f64() * v == 1.0 && v.abs().log2().fract() == 0.0;
    if ok {
        b.bind("r", r);
    }
    ok
}

/// `?c` is a constant and `?x` is not: moving constants to the right is a targeted
/// commutation that cannot loop.
pub fn const_left(b: &mut Bindings<'_>) -> bool {
    b.konst("c").is_some() && b.konst("x").is_none()
}

/// `?a` and `?b` are constants; binds `?s` = op(a, b) for the table operation named by the
/// guard. Used for re-associating constants of associative integer operations.
fn fold_pair(b: &mut Bindings<'_>, op: PureOp) -> bool {
    let (Some(x), Some(y)) = (b.konst("a"), b.konst("b")) else {
        return false;
    };
    if x.ty() != y.ty() {
        return false;
    }
    b.bind("s", op.eval(&[x, y], x.ty()));
    true
}

/// `?a + ?b` for two constants, bound to `?s`.
pub fn fold_iadd(b: &mut Bindings<'_>) -> bool {
    fold_pair(b, PureOp::Iadd)
}
/// `?a * ?b` for two constants, bound to `?s`.
pub fn fold_imul(b: &mut Bindings<'_>) -> bool {
    fold_pair(b, PureOp::Imul)
}
/// `?a & ?b` for two constants, bound to `?s`.
pub fn fold_and(b: &mut Bindings<'_>) -> bool {
    fold_pair(b, PureOp::And)
}
/// `?a | ?b` for two constants, bound to `?s`.
pub fn fold_or(b: &mut Bindings<'_>) -> bool {
    fold_pair(b, PureOp::Or)
}
/// `?a ^ ?b` for two constants, bound to `?s`.
pub fn fold_xor(b: &mut Bindings<'_>) -> bool {
    fold_pair(b, PureOp::Xor)
}

/// `?c` is an integer constant; binds `?n` = -c.
pub fn negate_int(b: &mut Bindings<'_>) -> bool {
    let Some(c) = b.konst("c").filter(|c| c.ty().is_int()) else {
        return false;
    };
    b.bind("n", PureOp::Ineg.eval(&[c], c.ty()));
    true
}

/// `?c` is a float constant; binds `?n` = -c.
pub fn negate_float(b: &mut Bindings<'_>) -> bool {
    let Some(c) = b.konst("c").filter(|c| c.ty().is_float()) else {
        return false;
    };
    b.bind("n", PureOp::Fneg.eval(&[c], c.ty()));
    true
}

/// Shift amounts `?a` and `?b` are constants below the width whose sum is below it too; binds
/// `?s` = a + b.
pub fn shift_sum_in_range(b: &mut Bindings<'_>) -> bool {
    match shift_amounts(b) {
        Some((x, y, w, ty)) if x + y < w => {
            b.bind("s", Const::int(ty, (x + y) as i64));
            true
        }
        _ => false,
    }
}

/// Shift amounts `?a` and `?b` are constants below the width whose sum reaches it (every bit is
/// shifted out).
pub fn shift_sum_out_of_range(b: &mut Bindings<'_>) -> bool {
    matches!(shift_amounts(b), Some((x, y, w, _)) if x + y >= w)
}

fn shift_amounts(b: &Bindings<'_>) -> Option<(u64, u64, u64, Type)> {
    let (x, y) = (b.konst("a")?, b.konst("b")?);
    let w = x.ty().bits() as u64;
    (x.ty().is_int() && x.bits() < w && y.bits() < w).then_some((x.bits(), y.bits(), w, x.ty()))
}

/// `?x` has type f16 (for conversion round trips).
pub fn x_is_f16(b: &mut Bindings<'_>) -> bool {
    b.ty("x") == Some(Type::F16)
}
