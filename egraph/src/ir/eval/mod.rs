//! Evaluation functions of the pure operations: the project's reference semantics.
//!
//! These are the only definitions of what each operation computes. The interpreter runs them per
//! lane, the optimizer folds constants with them, and rule soundness tests compare both sides of a
//! rule through them.
//!
//! # Reference floating-point semantics
//! - f32 and f16 are IEEE 754 with round-to-nearest-even and denormals kept (targets that flush, as
//!   the G13 does for f32, are compared with a tolerance that treats denormals as zero).
//! - Add, subtract, multiply, divide, square root and conversions are correctly rounded (computed
//!   exactly or in f64, whose 53-bit significand makes the second rounding innocuous for binary32
//!   and binary16). `fma` rounds once (`f32::mul_add`; f16 goes through an f64 fused multiply-add,
//!   a double rounding that can differ from a true f16 fma in rare ties; documented).
//! - Transcendentals (`sin`, `cos`, `exp2`, `log2`, `pow`, `rsqrt`) are computed in f64 from the
//!   exact operand and rounded once. Vulkan only requires a few ULP for these, so consumers
//!   compare them with a stated tolerance.
//! - NaN results carry whatever payload the host produces; comparisons of results treat every NaN
//!   as equal to every other NaN.
//!
//! # Reference integer semantics where SPIR-V/Vulkan leave behaviour undefined
//! - Shift amounts are taken modulo the bit width (as NIR and most GPUs do).
//! - Division by zero: unsigned quotient all ones, signed quotient -1, remainder the dividend
//!   (RISC-V's definition); signed `MIN / -1` is `MIN` with remainder 0.
//! - Float-to-integer conversion truncates toward zero and saturates to the target range; NaN
//!   converts to 0 (Rust's `as`).
//! - Bitfield offsets and counts are clamped to the width.

pub(crate) mod conv;
pub(crate) mod float;
pub(crate) mod int;
