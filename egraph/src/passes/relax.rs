//! `relax-precision`: float arithmetic the source marked `RelaxedPrecision` computed in f16.
//!
//! SPIR-V's `RelaxedPrecision` (GLSL `mediump`) lets an implementation evaluate an operation
//! with at least 16-bit float precision: a relative error of 2^-10 per operation and a range of
//! at least 2^-14 .. 2^14 (Vulkan specification, "Precision and Operation of SPIR-V
//! Instructions", the `RelaxedPrecision` rows). The IR carries the permission as
//! [`InstFlags::RELAXED`]; this pass uses it, for targets that compute f16 natively and keep
//! 16-bit values in half registers (the G13: Mesa's AGX compiler lowers `mediump` the same way
//! in its GL path), so that relaxed values take half the registers.
//!
//! Each relaxed float operation on f32 (the table's `Unary`, `Binary`, `Ternary` and `Compare`
//! float operations) becomes the same operation on f16: an operand another relaxed operation
//! produced is taken in its f16 form, any other operand goes through `fcvt` to f16 first; the
//! f32 result the rest of the function reads is `fcvt` of the f16 one (so the function's
//! interface, its stores, selects, loop-carried values and calls, keeps its types). When every
//! reader of a result is itself relaxed, that widening has no use left and dies.
//!
//! What stays exact: the new function is ordinary IR whose meaning is fully defined (each f16
//! operation and each conversion rounds once, as the interpreter evaluates it), so the
//! optimizer's and the backend's equivalence checks hold against it unchanged; only the step
//! from the source's f32 reading to this one is the permitted loss of precision, and the pass
//! runs only when the caller asks for it ([`crate::opt::OptOptions::relaxed_f16`]): the default
//! keeps every operation at the precision of its type, which is what comparing against f32
//! implementations (lavapipe, softpipe, the interpreter on the unoptimized IR) needs.
//!
//! Operations keep their other flags (`NoContraction`); the new f16 operations no longer carry
//! `RELAXED`, which has been used up.

use crate::ir::{
    Block, Class, Function, Inst, InstFlags, Op, PureOp, Signature, Type, Value, ValueDef,
};
use rustc_hash::FxHashMap as HashMap;

use super::edit::{make_inst, set_results};

/// Runs the pass over the whole function; true if it changed anything.
pub fn run(f: &mut Function) -> bool {
    let mut half: HashMap<Value, Value> = HashMap::default();
    let mut changed = false;
    let mut stack = vec![f.entry];
    while let Some(b) = stack.pop() {
        changed |= relax_block(f, b, &mut half);
        for k in 0..f.blocks[b].insts.len() {
            let i = f.blocks[b].insts[k];
            stack.extend(f.insts[i].blocks.iter().rev().copied());
        }
    }
    changed
}

/// Whether `i` is a relaxed f32 float operation this pass computes in f16.
fn relaxable(f: &Function, i: Inst) -> Option<PureOp> {
    let data = &f.insts[i];
    if !data.flags.contains(InstFlags::RELAXED) {
        return None;
    }
    let Op::Pure(p) = data.op else {
        return None;
    };
    let float_class = matches!(
        p.signature(),
        Signature::Unary(c) | Signature::Binary(c) | Signature::Ternary(c) | Signature::Compare(c)
            if c == Class::Float
    );
    let all_f32 = !data.args.is_empty() && data.args.iter().all(|&a| f.value_type(a) == Type::F32);
    (float_class && all_f32 && data.results.len() == 1).then_some(p)
}

/// Rewrites one block's relaxed operations (not its nested blocks). `half` maps an f32 value a
/// relaxed operation defines to its f16 form; it spans the function, since a value defined in
/// an enclosing block dominates the nested ones, and the relaxed operation that defines it was
/// rewritten before (blocks are visited outside in, each in order).
fn relax_block(f: &mut Function, b: Block, half: &mut HashMap<Value, Value>) -> bool {
    let old = std::mem::take(&mut f.blocks[b].insts);
    let mut out = Vec::with_capacity(old.len());
    // Narrowings of outside values made in this block, shared by its later operations.
    let mut narrowed: HashMap<Value, Value> = HashMap::default();
    let mut changed = false;
    for i in old {
        let Some(p) = relaxable(f, i) else {
            out.push(i);
            continue;
        };
        changed = true;
        let args: Vec<Value> = f.insts[i].args.to_vec();
        let mut args16 = Vec::with_capacity(args.len());
        for a in args {
            let h = if let Some(&h) = half.get(&a) {
                h
            } else if let Some(&h) = narrowed.get(&a) {
                h
            } else {
                let c = make_inst(
                    f,
                    Op::Pure(PureOp::Fcvt),
                    &[a],
                    &[Type::F16],
                    &[],
                    InstFlags::NONE,
                );
                out.push(c);
                let h = f.insts[c].results[0];
                narrowed.insert(a, h);
                h
            };
            args16.push(h);
        }
        let mut flags = f.insts[i].flags;
        flags.set(InstFlags::RELAXED, false);
        let r = f.insts[i].results[0];
        if f.value_type(r) == Type::Bool {
            // A comparison: the same result, from the f16 operands.
            f.insts[i].args = args16.into_iter().collect();
            f.insts[i].flags = flags;
            out.push(i);
            continue;
        }
        let op16 = make_inst(f, Op::Pure(p), &args16, &[Type::F16], &[], flags);
        out.push(op16);
        let h = f.insts[op16].results[0];
        // The original instruction keeps its result value and becomes the widening.
        f.insts[i].op = Op::Pure(PureOp::Fcvt);
        f.insts[i].args = [h].into_iter().collect();
        f.insts[i].flags = InstFlags::NONE;
        set_results(f, i, &[r]);
        debug_assert!(matches!(f.values[r].def, ValueDef::Result(d, 0) if d == i));
        out.push(i);
        half.insert(r, h);
    }
    f.blocks[b].insts = out;
    changed
}
