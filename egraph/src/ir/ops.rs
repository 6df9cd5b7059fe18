//! The operation table: the one definition of every pure IR operation.
//!
//! Each entry gives the operation's name (its text form), signature, evaluation function,
//! algebraic flags and, where it is not exact, the precision an implementation must deliver
//! (the [`Precision`] column; omitted means [`Precision::CorrectlyRounded`]). The printer,
//! parser, verifier, interpreter, the optimizer's `egg` language and its constant folder all
//! derive from this table, and the equivalence tests read the precision column from it; there is
//! no second list of operations anywhere.
//!
//! # Adding an operation
//!
//! Add one line to the table below and write its evaluation function (in `eval/`):
//!
//! ```text
//! /// Float copysign: the magnitude of `a` with the sign of `b`.
//! Fcopysign = "fcopysign", Signature::Binary(Class::Float), float::copysign, Flags::NONE;
//! ```
//!
//! The new `PureOp::Fcopysign` then prints and parses as `fcopysign`, is type-checked by the
//! verifier, runs in the interpreter, constant-folds in the optimizer and becomes an e-node kind.
//! An operation an implementation may compute less precisely than its evaluation function adds a
//! fifth column, its [`Precision`] (e.g. `, precision::EXP2`), which the equivalence tests read.
//! Target-specific operations (a backend's own instructions) do not go here: see
//! [`CustomOpDef`](super::custom::CustomOpDef).

use super::constant::Const;
use super::eval::{conv, float, int};
use super::precision::{self, Precision};
use super::signature::{Class, Signature, Width};
use super::types::Type;

/// Algebraic facts about an operation that rules and generators may rely on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Flags(u8);

impl Flags {
    /// No special properties.
    pub const NONE: Flags = Flags(0);
    /// `op(a, b) == op(b, a)` bit for bit.
    pub const COMMUTATIVE: Flags = Flags(1);
    /// Float operation that may be fused or contracted (the no-contraction flag applies).
    pub const CONTRACTABLE: Flags = Flags(2);

    /// True if all of `other`'s flags are set.
    pub fn contains(self, other: Flags) -> bool {
        self.0 & other.0 == other.0
    }
}

impl core::ops::BitOr for Flags {
    type Output = Flags;
    fn bitor(self, rhs: Flags) -> Flags {
        Flags(self.0 | rhs.0)
    }
}

/// The precision column's default: an omitted entry is exact.
macro_rules! precision_or_exact {
    () => {
        Precision::CorrectlyRounded
    };
    ($p:expr) => {
        $p
    };
}

macro_rules! pure_ops {
    ($( $(#[doc = $doc:literal])* $variant:ident = $name:literal, $sig:expr, $eval:path, $flags:expr $(, $prec:expr)?; )*) => {
        /// A pure (side-effect-free, total) operation of the graph IR.
        #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
        pub enum PureOp {
            $( $(#[doc = $doc])* $variant, )*
        }

        impl PureOp {
            /// Every pure operation, in table order.
            pub const ALL: &'static [PureOp] = &[ $( PureOp::$variant, )* ];

            /// The text-form name.
            pub fn name(self) -> &'static str {
                match self { $( PureOp::$variant => $name, )* }
            }

            /// Operand and result types.
            pub fn signature(self) -> Signature {
                match self { $( PureOp::$variant => $sig, )* }
            }

            /// Algebraic properties.
            pub fn flags(self) -> Flags {
                match self { $( PureOp::$variant => $flags, )* }
            }

            /// How far an implementation's result may be from [`PureOp::eval`]'s (the
            /// contract of `ir::precision`).
            pub fn precision(self) -> Precision {
                match self { $( PureOp::$variant => precision_or_exact!($($prec)?), )* }
            }

            /// Evaluates the operation on constant operands. `result` is the result type (needed
            /// by conversions; for other operations it follows from the operands). The caller
            /// guarantees the operands fit the signature; evaluation is total.
            pub fn eval(self, args: &[Const], result: Type) -> Const {
                match self { $( PureOp::$variant => $eval(args, result), )* }
            }

            /// The operation with the given text-form name.
            pub fn from_name(name: &str) -> Option<PureOp> {
                match name { $( $name => Some(PureOp::$variant), )* _ => None }
            }
        }
    };
}

use Class::{Float as F, Int as I, IntOrBool as IB};
const C: Flags = Flags::COMMUTATIVE;
const FC: Flags = Flags(Flags::COMMUTATIVE.0 | Flags::CONTRACTABLE.0);
const FX: Flags = Flags::CONTRACTABLE;
const N: Flags = Flags::NONE;

pure_ops! {
    // ---- float arithmetic (reference semantics: IEEE, round to nearest even; see eval/float.rs)
    /// Float addition.
    Fadd = "fadd", Signature::Binary(F), float::add, FC;
    /// Float subtraction.
    Fsub = "fsub", Signature::Binary(F), float::sub, FX;
    /// Float multiplication.
    Fmul = "fmul", Signature::Binary(F), float::mul, FC;
    /// Float division (IEEE: x/0 is a signed infinity, 0/0 is NaN).
    Fdiv = "fdiv", Signature::Binary(F), float::div, N, precision::FDIV;
    /// Fused multiply-add `a * b + c` with one rounding.
    Fma = "fma", Signature::Ternary(F), float::fma, N;
    /// Negation (flips the sign bit, also of NaN and zero).
    Fneg = "fneg", Signature::Unary(F), float::neg, N;
    /// Absolute value (clears the sign bit).
    Fabs = "fabs", Signature::Unary(F), float::abs, N;
    /// Clamp to [0, 1]; NaN and -0 give +0.
    Fsat = "fsat", Signature::Unary(F), float::sat, N;
    /// Minimum; a NaN operand yields the other operand; -0 < +0.
    Fmin = "fmin", Signature::Binary(F), float::min, C;
    /// Maximum; a NaN operand yields the other operand; -0 < +0.
    Fmax = "fmax", Signature::Binary(F), float::max, C;
    /// Round toward negative infinity.
    Floor = "floor", Signature::Unary(F), float::floor, N;
    /// Round toward positive infinity.
    Ceil = "ceil", Signature::Unary(F), float::ceil, N;
    /// Round toward zero.
    Ftrunc = "ftrunc", Signature::Unary(F), float::trunc, N;
    /// Round to nearest, ties to even.
    FroundEven = "fround_even", Signature::Unary(F), float::round_even, N;
    /// `x - floor(x)`.
    Fract = "fract", Signature::Unary(F), float::fract, N;
    /// Square root.
    Sqrt = "sqrt", Signature::Unary(F), float::sqrt, N, precision::SQRT;
    /// Reciprocal square root.
    Rsqrt = "rsqrt", Signature::Unary(F), float::rsqrt, N, precision::RSQRT;
    /// Reciprocal `1 / x`.
    Rcp = "rcp", Signature::Unary(F), float::rcp, N, precision::RCP;
    /// Base-2 exponential.
    Exp2 = "exp2", Signature::Unary(F), float::exp2, N, precision::EXP2;
    /// Base-2 logarithm.
    Log2 = "log2", Signature::Unary(F), float::log2, N, precision::LOG2;
    /// Sine (radians).
    Sin = "sin", Signature::Unary(F), float::sin, N, precision::SIN_COS;
    /// Cosine (radians).
    Cos = "cos", Signature::Unary(F), float::cos, N, precision::SIN_COS;
    /// `a` raised to `b`.
    Pow = "pow", Signature::Binary(F), float::pow, N, Precision::ExpOfLog;

    // ---- float comparisons: ordered ones are false on NaN, unordered ones true
    /// Ordered equal.
    Feq = "feq", Signature::Compare(F), float::eq, C;
    /// Ordered not equal.
    Fne = "fne", Signature::Compare(F), float::ne, C;
    /// Ordered less than.
    Flt = "flt", Signature::Compare(F), float::lt, N;
    /// Ordered less or equal.
    Fle = "fle", Signature::Compare(F), float::le, N;
    /// Ordered greater than.
    Fgt = "fgt", Signature::Compare(F), float::gt, N;
    /// Ordered greater or equal.
    Fge = "fge", Signature::Compare(F), float::ge, N;
    /// Unordered equal.
    Fequ = "fequ", Signature::Compare(F), float::equ, C;
    /// Unordered not equal.
    Fneu = "fneu", Signature::Compare(F), float::neu, C;
    /// Unordered less than.
    Fltu = "fltu", Signature::Compare(F), float::ltu, N;
    /// Unordered less or equal.
    Fleu = "fleu", Signature::Compare(F), float::leu, N;
    /// Unordered greater than.
    Fgtu = "fgtu", Signature::Compare(F), float::gtu, N;
    /// Unordered greater or equal.
    Fgeu = "fgeu", Signature::Compare(F), float::geu, N;

    // ---- integer arithmetic (two's complement, wrapping; see eval/int.rs for edge cases)
    /// Wrapping addition.
    Iadd = "iadd", Signature::Binary(I), int::add, C;
    /// Wrapping subtraction.
    Isub = "isub", Signature::Binary(I), int::sub, N;
    /// Wrapping multiplication (low half).
    Imul = "imul", Signature::Binary(I), int::mul, C;
    /// High half of the unsigned double-width product.
    Umulhi = "umulhi", Signature::Binary(I), int::umulhi, C;
    /// High half of the signed double-width product.
    Smulhi = "smulhi", Signature::Binary(I), int::smulhi, C;
    /// Unsigned division; x / 0 is all ones.
    Udiv = "udiv", Signature::Binary(I), int::udiv, N;
    /// Signed division toward zero; x / 0 is -1, MIN / -1 is MIN.
    Sdiv = "sdiv", Signature::Binary(I), int::sdiv, N;
    /// Unsigned remainder; x % 0 is x.
    Urem = "urem", Signature::Binary(I), int::urem, N;
    /// Signed remainder with the dividend's sign; x % 0 is x.
    Srem = "srem", Signature::Binary(I), int::srem, N;
    /// Shift left; the amount is taken modulo the width.
    Ishl = "ishl", Signature::Binary(I), int::shl, N;
    /// Logical shift right; the amount is taken modulo the width.
    Ushr = "ushr", Signature::Binary(I), int::ushr, N;
    /// Arithmetic shift right; the amount is taken modulo the width.
    Sshr = "sshr", Signature::Binary(I), int::sshr, N;
    /// Bitwise and (also logical and on bool).
    And = "and", Signature::Binary(IB), int::and, C;
    /// Bitwise or (also logical or on bool).
    Or = "or", Signature::Binary(IB), int::or, C;
    /// Bitwise exclusive or (also on bool).
    Xor = "xor", Signature::Binary(IB), int::xor, C;
    /// Bitwise not (also logical not on bool).
    Not = "not", Signature::Unary(IB), int::not, N;
    /// Wrapping negation.
    Ineg = "ineg", Signature::Unary(I), int::neg, N;
    /// Absolute value; abs(MIN) is MIN.
    Iabs = "iabs", Signature::Unary(I), int::abs, N;
    /// Unsigned minimum.
    Umin = "umin", Signature::Binary(I), int::umin, C;
    /// Unsigned maximum.
    Umax = "umax", Signature::Binary(I), int::umax, C;
    /// Signed minimum.
    Smin = "smin", Signature::Binary(I), int::smin, C;
    /// Signed maximum.
    Smax = "smax", Signature::Binary(I), int::smax, C;
    /// Bitfield insert `(base, insert, offset, count)`; offset and count are clamped to the width.
    Bfi = "bfi", Signature::BitfieldInsert, int::bfi, N;
    /// Unsigned bitfield extract `(base, offset, count)`; count 0 gives 0.
    Ubfe = "ubfe", Signature::BitfieldExtract, int::ubfe, N;
    /// Signed bitfield extract `(base, offset, count)`; count 0 gives 0.
    Sbfe = "sbfe", Signature::BitfieldExtract, int::sbfe, N;
    /// Number of set bits.
    Popcount = "popcount", Signature::Unary(I), int::popcount, N;
    /// Index of the least significant set bit, -1 if none.
    FindLsb = "find_lsb", Signature::Unary(I), int::find_lsb, N;
    /// Index of the most significant set bit, -1 if none.
    UfindMsb = "ufind_msb", Signature::Unary(I), int::ufind_msb, N;
    /// Index of the most significant bit that differs from the sign bit, -1 if none.
    SfindMsb = "sfind_msb", Signature::Unary(I), int::sfind_msb, N;
    /// Reverse the bit order.
    Bitrev = "bitrev", Signature::Unary(I), int::bitrev, N;

    // ---- integer comparisons
    /// Equal (integers or bools).
    Ieq = "ieq", Signature::Compare(IB), int::eq, C;
    /// Not equal (integers or bools).
    Ine = "ine", Signature::Compare(IB), int::ne, C;
    /// Unsigned less than.
    Ult = "ult", Signature::Compare(I), int::ult, N;
    /// Unsigned less or equal.
    Ule = "ule", Signature::Compare(I), int::ule, N;
    /// Unsigned greater than.
    Ugt = "ugt", Signature::Compare(I), int::ugt, N;
    /// Unsigned greater or equal.
    Uge = "uge", Signature::Compare(I), int::uge, N;
    /// Signed less than.
    Slt = "slt", Signature::Compare(I), int::slt, N;
    /// Signed less or equal.
    Sle = "sle", Signature::Compare(I), int::sle, N;
    /// Signed greater than.
    Sgt = "sgt", Signature::Compare(I), int::sgt, N;
    /// Signed greater or equal.
    Sge = "sge", Signature::Compare(I), int::sge, N;

    // ---- conversions (result type written on the result)
    /// Float to float, rounding to nearest even.
    Fcvt = "fcvt", Signature::Convert { from: F, to: F, width: Width::Any }, conv::fcvt, N;
    /// Zero-extend to a wider integer.
    Uext = "uext", Signature::Convert { from: I, to: I, width: Width::Wider }, conv::uext, N;
    /// Sign-extend to a wider integer.
    Sext = "sext", Signature::Convert { from: I, to: I, width: Width::Wider }, conv::sext, N;
    /// Truncate to a narrower integer.
    Itrunc = "itrunc", Signature::Convert { from: I, to: I, width: Width::Narrower }, conv::itrunc, N;
    /// Float to unsigned integer, toward zero, saturating; NaN gives 0.
    F2u = "f2u", Signature::Convert { from: F, to: I, width: Width::Any }, conv::f2u, N;
    /// Float to signed integer, toward zero, saturating; NaN gives 0.
    F2s = "f2s", Signature::Convert { from: F, to: I, width: Width::Any }, conv::f2s, N;
    /// Unsigned integer to float, rounding to nearest even.
    U2f = "u2f", Signature::Convert { from: I, to: F, width: Width::Any }, conv::u2f, N;
    /// Signed integer to float, rounding to nearest even.
    S2f = "s2f", Signature::Convert { from: I, to: F, width: Width::Any }, conv::s2f, N;
    /// Reinterpret the bits as another type of the same width.
    Bitcast = "bitcast", Signature::Convert { from: Class::Numeric, to: Class::Numeric, width: Width::Same }, conv::bitcast, N;

    // ---- selection
    /// `cond ? a : b`.
    Select = "select", Signature::Select, int::select, N;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_round_trip() {
        let mut seen = std::collections::HashSet::new();
        for &op in PureOp::ALL {
            assert!(seen.insert(op.name()), "duplicate name {}", op.name());
            assert_eq!(PureOp::from_name(op.name()), Some(op));
        }
    }
}
