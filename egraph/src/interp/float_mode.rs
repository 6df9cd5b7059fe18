//! Float modes: how the interpreter treats f32 denormals and NaN results.
//!
//! The reference semantics ([`FloatMode::Ieee`]) keep denormals, as IEEE 754 and the operation
//! table's evaluation functions do. [`FloatMode::FlushF32Denormals`] models the G13, whose fp32
//! sources and results flush denormals to zero while fp16 keeps them (`docs/g13.md`,
//! "Floating point"). Vulkan allows exactly this unless a shader declares `DenormPreserve`: by
//! default any denormalized value input into a shader or produced by an instruction may be
//! flushed to zero (Vulkan specification, appendix A "Vulkan Environment for SPIR-V", section
//! "Precision and Operation of SPIR-V Instructions"), so a G13 result is checked against the
//! interpreter in this mode.
//!
//! The mode is a wrapper around the evaluation functions, not a change to them: the optimizer
//! constant-folds with the same functions and must keep IEEE semantics. Per operation, in the
//! flushing mode:
//! - `bitcast` and `select` move bits and flush nothing (the G13 moves them with integer
//!   instructions, or selects them with `icmpsel`/`fcmpsel`, whose selected operands are not
//!   float sources);
//! - `fmin`/`fmax` compare the flushed operands and return the chosen operand's own bits (the
//!   G13 selects with `fcmpsel`); operands that compare equal give the bitwise OR (`fmin`) or AND
//!   (`fmax`) of both, which orders -0 below +0 (backend-agx's lowering);
//! - target operations with the compare-and-select signature (`Signature::CompareSelect`, the
//!   G13's `fcmpsel`/`icmpsel`) compare the flushed operands and return the selected operand's
//!   own bits, like `select`;
//! - every other operation, target operations included, reads each f32 operand flushed
//!   (a denormal becomes the zero of its sign) and flushes an f32 result; f16 operands and
//!   results keep their denormals;
//! - a NaN result of such an operation is the default NaN, `0x7FC00000` (f32) or `0x7E00` (f16),
//!   whatever the operands' payloads and signs: the G13 returns it from every float
//!   instruction (`seeds/ERRATA.md`, and the simulator's `float` module). The bits show only
//!   where a shader reads a float's bits as an integer (`floatBitsToUint`, `packHalf2x16` of a
//!   NaN operand); `bitcast`, `select`, `fmin`/`fmax` and compare-and-select keep an operand's
//!   bits as above.
//!
//! Loads, stores, constants, stage inputs and outputs move bits and flush nothing; derivatives
//! subtract as `fsub` does in the mode. Texture coordinate arithmetic is not affected.

use crate::ir::{Const, CustomOp, PureOp, Signature, Type};
use smallvec::SmallVec;

/// How a run treats f32 denormals and NaN results (see the module docs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum FloatMode {
    /// IEEE 754 with denormals kept: the reference semantics.
    #[default]
    Ieee,
    /// The G13's: f32 denormal operands and f32 results of float operations are flushed to the
    /// zero of their sign (f16 keeps denormals), and a NaN result is the default NaN.
    FlushF32Denormals,
}

/// `c` with an f32 denormal replaced by the zero of its sign; anything else unchanged.
pub fn flush_f32_denormal(c: Const) -> Const {
    if c.ty() == Type::F32 && c.as_f32().is_subnormal() {
        Const::from_bits(Type::F32, c.bits() & 0x8000_0000)
    } else {
        c
    }
}

/// A float operation's result as the G13 returns it: flushed if an f32 denormal, the default NaN
/// of its type if a NaN.
fn g13_result(c: Const) -> Const {
    match c.ty() {
        Type::F32 if c.is_nan() => Const::from_bits(Type::F32, 0x7FC0_0000),
        Type::F16 if c.is_nan() => Const::from_bits(Type::F16, 0x7E00),
        _ => flush_f32_denormal(c),
    }
}

fn flushed(args: &[Const]) -> SmallVec<[Const; 4]> {
    args.iter().map(|&a| flush_f32_denormal(a)).collect()
}

/// `fmin`/`fmax` as the G13 selects: by the flushed operands, returning an operand's bits.
fn select_by_flushed(op: PureOp, args: &[Const], result: Type) -> Const {
    let [a, b] = args else {
        return op.eval(args, result);
    };
    let (fa, fb) = (flush_f32_denormal(*a), flush_f32_denormal(*b));
    if fa.ty() == Type::F32 && fa.as_f32() == fb.as_f32() {
        let bits = if op == PureOp::Fmin {
            a.bits() | b.bits()
        } else {
            a.bits() & b.bits()
        };
        return Const::from_bits(Type::F32, bits);
    }
    let r = op.eval(&[fa, fb], result);
    if r == fa {
        *a
    } else if r == fb {
        *b
    } else {
        r
    }
}

impl FloatMode {
    /// Evaluates a built-in pure operation in this mode.
    pub fn eval_pure(self, op: PureOp, args: &[Const], result: Type) -> Const {
        match self {
            FloatMode::Ieee => op.eval(args, result),
            FloatMode::FlushF32Denormals => match op {
                PureOp::Bitcast | PureOp::Select => op.eval(args, result),
                PureOp::Fmin | PureOp::Fmax => select_by_flushed(op, args, result),
                _ => g13_result(op.eval(&flushed(args), result)),
            },
        }
    }

    /// Evaluates a target operation in this mode (target operations are float arithmetic,
    /// except compare-and-select, which moves the selected operand's bits).
    pub fn eval_custom(self, op: CustomOp, args: &[Const], result: Type) -> Const {
        match self {
            FloatMode::Ieee => op.eval(args, result),
            FloatMode::FlushF32Denormals => match op.signature() {
                Signature::CompareSelect { .. } => {
                    let mut compared: SmallVec<[Const; 4]> = args.into();
                    for c in compared.iter_mut().take(2) {
                        *c = flush_f32_denormal(*c);
                    }
                    op.eval(&compared, result)
                }
                _ => g13_result(op.eval(&flushed(args), result)),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use half::f16;

    const FTZ: FloatMode = FloatMode::FlushF32Denormals;

    fn f(x: f32) -> Const {
        Const::f32(x)
    }

    fn bits(b: u32) -> Const {
        Const::from_bits(Type::F32, u64::from(b))
    }

    /// The smallest positive f32 denormal, 2^-149.
    const TINY: u32 = 1;
    /// The largest f32 denormal, just under 2^-126.
    const BIG_DENORMAL: u32 = 0x007f_ffff;

    #[test]
    fn flush_keeps_the_sign_and_leaves_normals_alone() {
        assert_eq!(flush_f32_denormal(bits(TINY)), f(0.0));
        assert_eq!(
            flush_f32_denormal(bits(0x8000_0000 | BIG_DENORMAL)),
            f(-0.0)
        );
        assert_eq!(
            flush_f32_denormal(f(f32::MIN_POSITIVE)),
            f(f32::MIN_POSITIVE)
        );
        assert_eq!(flush_f32_denormal(f(-1.5)), f(-1.5));
        let half_denormal = Const::f16(f16::from_bits(1));
        assert_eq!(flush_f32_denormal(half_denormal), half_denormal);
    }

    #[test]
    fn arithmetic_flushes_operands_and_results() {
        // 2^-149 + 1.0 is 1.0 either way, but 2^-149 * 2^100 is 2^-49 in IEEE and 0 flushed.
        let two_100 = f(2f32.powi(100));
        assert_eq!(
            FloatMode::Ieee.eval_pure(PureOp::Fmul, &[bits(TINY), two_100], Type::F32),
            f(2f32.powi(-49))
        );
        assert_eq!(
            FTZ.eval_pure(PureOp::Fmul, &[bits(TINY), two_100], Type::F32),
            f(0.0)
        );
        // MIN_POSITIVE / 4 is a denormal result: 0 of the result's sign when flushed.
        let quarter = f(-0.25);
        let min = f(f32::MIN_POSITIVE);
        assert_eq!(
            FloatMode::Ieee.eval_pure(PureOp::Fmul, &[min, quarter], Type::F32),
            bits(0x8020_0000)
        );
        assert_eq!(
            FTZ.eval_pure(PureOp::Fmul, &[min, quarter], Type::F32),
            f(-0.0)
        );
        // Negation is arithmetic on the G13 (an fadd with modifiers).
        assert_eq!(
            FTZ.eval_pure(PureOp::Fneg, &[bits(TINY)], Type::F32),
            f(-0.0)
        );
    }

    #[test]
    fn comparisons_see_flushed_operands() {
        let tiny = bits(TINY);
        assert_eq!(
            FloatMode::Ieee.eval_pure(PureOp::Feq, &[tiny, f(0.0)], Type::Bool),
            Const::bool(false)
        );
        assert_eq!(
            FTZ.eval_pure(PureOp::Feq, &[tiny, f(0.0)], Type::Bool),
            Const::bool(true)
        );
        assert_eq!(
            FTZ.eval_pure(PureOp::Flt, &[f(0.0), tiny], Type::Bool),
            Const::bool(false)
        );
    }

    #[test]
    fn bit_moves_keep_denormals() {
        let tiny = bits(TINY);
        assert_eq!(
            FTZ.eval_pure(
                PureOp::Select,
                &[Const::bool(true), tiny, f(1.0)],
                Type::F32
            ),
            tiny
        );
        assert_eq!(
            FTZ.eval_pure(PureOp::Bitcast, &[tiny], Type::I32),
            Const::from_bits(Type::I32, 1)
        );
    }

    #[test]
    fn min_max_return_an_operands_bits() {
        let tiny = bits(TINY);
        let neg_tiny = bits(0x8000_0000 | TINY);
        // Flushed, tiny is +0 < 1: min picks tiny itself, unflushed.
        assert_eq!(
            FTZ.eval_pure(PureOp::Fmin, &[tiny, f(1.0)], Type::F32),
            tiny
        );
        assert_eq!(
            FTZ.eval_pure(PureOp::Fmax, &[f(1.0), tiny], Type::F32),
            f(1.0)
        );
        // -tiny and +0 compare equal flushed: OR gives -tiny for min, AND gives +0 for max.
        assert_eq!(
            FTZ.eval_pure(PureOp::Fmin, &[f(0.0), neg_tiny], Type::F32),
            neg_tiny
        );
        assert_eq!(
            FTZ.eval_pure(PureOp::Fmax, &[neg_tiny, f(0.0)], Type::F32),
            f(0.0)
        );
        // A NaN operand loses: the other operand's bits.
        assert_eq!(
            FTZ.eval_pure(PureOp::Fmin, &[f(f32::NAN), tiny], Type::F32),
            tiny
        );
    }

    #[test]
    fn nan_results_are_the_default_nan() {
        // A quiet NaN with a payload and the sign set: arithmetic and conversions return the
        // G13's default NaN, IEEE mode keeps what the host computes, bit moves keep the bits.
        let nan = bits(0xffc0_1234);
        assert_eq!(
            FTZ.eval_pure(PureOp::Fmul, &[nan, f(0.5)], Type::F32)
                .bits(),
            0x7fc0_0000
        );
        assert_eq!(
            FTZ.eval_pure(PureOp::Fneg, &[nan], Type::F32).bits(),
            0x7fc0_0000
        );
        assert_eq!(
            FTZ.eval_pure(PureOp::Fcvt, &[nan], Type::F16).bits(),
            0x7e00
        );
        assert_ne!(
            FloatMode::Ieee
                .eval_pure(PureOp::Fneg, &[nan], Type::F32)
                .bits(),
            0x7fc0_0000
        );
        assert_eq!(
            FTZ.eval_pure(PureOp::Bitcast, &[nan], Type::I32).bits(),
            0xffc0_1234
        );
        assert_eq!(
            FTZ.eval_pure(PureOp::Select, &[Const::bool(true), nan, f(1.0)], Type::F32)
                .bits(),
            0xffc0_1234
        );
    }

    #[test]
    fn f16_keeps_denormals() {
        // 2^-24 (the smallest f16 denormal) + 2^-24 = 2^-23, still an f16 denormal.
        let d = Const::f16(f16::from_bits(1));
        assert_eq!(
            FTZ.eval_pure(PureOp::Fadd, &[d, d], Type::F16),
            Const::f16(f16::from_bits(2))
        );
    }

    #[test]
    fn runs_flush_end_to_end_and_ieee_runs_do_not() {
        use crate::interp::Resources;
        use crate::interp::{bytes_f32, f32_bytes, run_compute, run_compute_with, Limits};
        use crate::ir::{parse_function, Binding, OpRegistry};
        // out[i] = in[i] * 4 and out[i + 2] = in[i] with in = [2^-130, -1.5]: 2^-128 is still
        // a denormal, so the flushing run gives 0 for it, while the stored copy keeps its bits.
        let func = parse_function(
            "function @f compute local_size(2, 1, 1) {
             block0:
                 v0:i32 = builtin global_id.x
                 v1:i32 = const 4
                 v2:i32 = imul v0, v1
                 v3:f32 = load storage(0, 0) [v2]
                 v4:f32 = const 4.0
                 v5:f32 = fmul v3, v4
                 store storage(0, 1) [v2], v5
                 v6:i32 = const 8
                 v7:i32 = iadd v2, v6
                 store storage(0, 1) [v7], v3
                 return
             }",
            &OpRegistry::new(),
        )
        .expect("test IR parses");
        let tiny = 2f32.powi(-130);
        let run = |mode: Option<FloatMode>| {
            let mut res = Resources::new();
            res.bind_storage(Binding::new(0, 0), f32_bytes(&[tiny, -1.5]));
            res.bind_storage(Binding::new(0, 1), vec![0; 16]);
            let limits = Limits::default();
            match mode {
                Some(m) => run_compute_with(&func, &mut res, [1, 1, 1], &limits, m),
                None => run_compute(&func, &mut res, [1, 1, 1], &limits),
            }
            .expect("runs");
            bytes_f32(res.buffer_data(Binding::new(0, 1)).unwrap_or(&[]))
        };
        assert_eq!(run(None), [2f32.powi(-128), -6.0, tiny, -1.5]);
        assert_eq!(run(Some(FloatMode::Ieee)), run(None));
        assert_eq!(run(Some(FTZ)), [0.0, -6.0, tiny, -1.5]);
    }
}
