//! The G13's expansions of `sin`, `cos`, `sqrt` (-O0) and f32 division (every level), as IR,
//! for the interpreter's model.
//!
//! At -O2 the mandatory rules (`agxc_backend_agx::target::rules`) put these expansions into the
//! IR the binary is compiled from, so the model evaluates what the G13 runs. At -O0 the lifted
//! IR keeps `sin`, `cos` and `sqrt`, which the interpreter evaluates exactly, while instruction
//! selection expands them (`isel/float.rs`): the sine unit after an argument reduction in f32
//! that is promised accurate only on `[-1000, 1000]` (`SIN_COS_ERROR_1000`), and `sqrt` as
//! `x * rsqrt_special(x)`. Fuzzed buffers go far outside that range (a `sin` of 4e34 is 0 on the
//! G13 and 0.476 exactly; both are valid Vulkan, which bounds the error only on `[-pi, pi]`), so
//! the -O0 model runs on the lifted IR with the same expansions, operation for operation.

use agxc_backend_agx::target::cmpsel::FCMPSEL_EQ;
use agxc_backend_agx::target::ops::{RSQRT_SPECIAL, SIN_PT_1, SIN_PT_2};
use agxc_egraph::ir::{Const, CustomOp, Function, Inst, InstData, InstFlags, Op, PureOp, Type};
use agxc_egraph::ir::{Value, ValueDef};

/// `1/2pi` rounded to f32, as instruction selection loads it.
const INV_TWO_PI: f32 = 0.159_154_94;

/// Appends `op(args)` of type `ty` to `insts` and returns its result.
fn emit(f: &mut Function, insts: &mut Vec<Inst>, op: Op, args: &[Value], ty: Type) -> Value {
    let inst = f.make_inst(InstData {
        op,
        args: args.into(),
        results: Default::default(),
        blocks: Default::default(),
        flags: InstFlags::default(),
    });
    let v = f.make_value(ty, ValueDef::Result(inst, 0));
    f.insts[inst].results = [v].as_slice().into();
    insts.push(inst);
    v
}

/// The f32 `a / b` instruction selection emits (`isel/float.rs`, `divide_float`): the
/// reciprocal refined by one Newton-Raphson step, the quotient, one residual correction, and
/// the selects that keep the estimate where the correction is NaN or the estimate a zero. It
/// is correctly rounded except where the G13 flushes a denormal residual (a dividend below
/// about 2^-100: `3.85e-34 / -3.67` is one ulp off), which Vulkan's 2.5-ulp bound allows and
/// a bit-exact case output would otherwise report. Returns the last instruction's operation
/// and operands; the others are appended to `insts`.
fn divide(f: &mut Function, insts: &mut Vec<Inst>, a: Value, b: Value) -> (Op, Vec<Value>) {
    let pure = |op| Op::Pure(op);
    let sel = Op::Custom(CustomOp::new(&FCMPSEL_EQ));
    let t = Type::F32;
    let one = emit(f, insts, Op::Const(Const::f32(1.0)), &[], t);
    let neg_zero = emit(f, insts, Op::Const(Const::f32(-0.0)), &[], t);
    let u = emit(f, insts, pure(PureOp::Rcp), &[b], t);
    let nb = emit(f, insts, pure(PureOp::Fneg), &[b], t);
    let e = emit(f, insts, pure(PureOp::Fma), &[nb, u, one], t);
    let refined = emit(f, insts, pure(PureOp::Fma), &[e, u, u], t);
    let r = emit(f, insts, sel, &[refined, refined, refined, u], t);
    let q = emit(f, insts, pure(PureOp::Fmul), &[a, r], t);
    let rem = emit(f, insts, pure(PureOp::Fma), &[nb, q, a], t);
    let corrected = emit(f, insts, pure(PureOp::Fma), &[rem, r, q], t);
    let checked = emit(f, insts, sel, &[corrected, corrected, corrected, q], t);
    (sel, vec![q, neg_zero, q, checked])
}

/// `func` with every `sin`, `cos` (f32 and f16) and `sqrt` replaced by the sequence
/// instruction selection emits for it, and every f32 division by [`divide`]'s; everything
/// else is unchanged.
pub fn expand_like_isel(func: &Function) -> Function {
    let mut f = func.clone();
    let blocks: Vec<_> = f.blocks.keys().collect();
    for block in blocks {
        let old = std::mem::take(&mut f.blocks[block].insts);
        let mut insts = Vec::with_capacity(old.len());
        for inst in old {
            let data = &f.insts[inst];
            if let (Op::Pure(PureOp::Fdiv), &[a, b], &[r]) =
                (data.op, &data.args[..], &data.results[..])
            {
                if f.value_type(r) == Type::F32 {
                    let (op, args) = divide(&mut f, &mut insts, a, b);
                    let data = &mut f.insts[inst];
                    data.op = op;
                    data.args = args.as_slice().into();
                }
                insts.push(inst);
                continue;
            }
            let (Op::Pure(p @ (PureOp::Sin | PureOp::Cos | PureOp::Sqrt)), &[x], &[r]) =
                (data.op, &data.args[..], &data.results[..])
            else {
                insts.push(inst);
                continue;
            };
            let ty = f.value_type(r);
            let pure = |op| Op::Pure(op);
            let (op, args) = if p == PureOp::Sqrt {
                let rs = emit(
                    &mut f,
                    &mut insts,
                    Op::Custom(CustomOp::new(&RSQRT_SPECIAL)),
                    &[x],
                    ty,
                );
                (pure(PureOp::Fmul), vec![x, rs])
            } else {
                // The reduction is in f32 whatever the type (16-bit sources widen exactly).
                let x32 = if ty == Type::F32 {
                    x
                } else {
                    emit(&mut f, &mut insts, pure(PureOp::Fcvt), &[x], Type::F32)
                };
                let konst = |v: f32| Op::Const(Const::f32(v));
                let scale = emit(&mut f, &mut insts, konst(INV_TWO_PI), &[], Type::F32);
                let four = emit(&mut f, &mut insts, konst(4.0), &[], Type::F32);
                let turns = if p == PureOp::Cos {
                    let quarter = emit(&mut f, &mut insts, konst(0.25), &[], Type::F32);
                    emit(
                        &mut f,
                        &mut insts,
                        pure(PureOp::Fma),
                        &[x32, scale, quarter],
                        Type::F32,
                    )
                } else {
                    emit(
                        &mut f,
                        &mut insts,
                        pure(PureOp::Fmul),
                        &[x32, scale],
                        Type::F32,
                    )
                };
                let fl = emit(&mut f, &mut insts, pure(PureOp::Floor), &[turns], Type::F32);
                let fr = emit(
                    &mut f,
                    &mut insts,
                    pure(PureOp::Fsub),
                    &[turns, fl],
                    Type::F32,
                );
                let q = emit(
                    &mut f,
                    &mut insts,
                    pure(PureOp::Fmul),
                    &[fr, four],
                    Type::F32,
                );
                let y = emit(
                    &mut f,
                    &mut insts,
                    Op::Custom(CustomOp::new(&SIN_PT_1)),
                    &[q],
                    Type::F32,
                );
                let s = emit(
                    &mut f,
                    &mut insts,
                    Op::Custom(CustomOp::new(&SIN_PT_2)),
                    &[y],
                    Type::F32,
                );
                if ty == Type::F32 {
                    (pure(PureOp::Fmul), vec![y, s])
                } else {
                    let r32 = emit(&mut f, &mut insts, pure(PureOp::Fmul), &[y, s], Type::F32);
                    (pure(PureOp::Fcvt), vec![r32])
                }
            };
            let data = &mut f.insts[inst];
            data.op = op;
            data.args = args.as_slice().into();
            insts.push(inst);
        }
        f.blocks[block].insts = insts;
    }
    f
}
