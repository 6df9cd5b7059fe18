//! Every pure IR operation, end to end: for each operation of `PureOp::ALL` and each operand
//! type it takes, a one-operation compute shader loads random operands (with NaN, ±0, ±inf,
//! denormals, integer extremes), applies the operation and stores the result; it runs at -O0
//! and -O2 in the simulator and in the interpreter. A second variant makes the last operand a
//! constant, which exercises immediates, `mov_imm` and the constant-folded paths.
//!
//! Tolerances (f32 unless stated; f16 results get 1 f16 ULP more for the double rounding of
//! fp32 instructions with 16-bit destinations, docs/g13.md):
//! - exact: add, sub, mul, fma, neg, abs, sat, rounding, fract, comparisons, conversions,
//!   integer operations;
//! - `rcp`, `rsqrt`, `exp2`, `log2`: 1 ULP; `sqrt` (x * rsqrt_special(x)): 2 ULP;
//!   `fdiv`: 2 ULP for divisors of magnitude in [2^-126, 2^126] (Vulkan's range);
//! - `sin`/`cos`: absolute 2^-11 on [-10, 10] (Vulkan's bound on [-pi, pi]);
//! - `pow`: 1e-5 relative, with x in (0, 64], y in [-4, 4].
//!
//! G13 flushes f32 denormals: outputs below the smallest normal compare as zero, and a
//! result is also accepted if it equals the interpreter's on inputs with f32 denormals
//! flushed to zero.

mod common;

use agxc::sim;
use agxc_backend_agx::{compile, BackendError, CompileOptions};
use agxc_egraph::interp::{self, Limits, Resources};
use agxc_egraph::ir::{
    AddressSpace, Binding, Builder, Builtin, Class, Const, EffectOp, Function, MemAccess, PureOp,
    Signature, Stage, Type, Width,
};
use common::*;
use half::f16;

const N: usize = 64;

/// Operand and result types to test for an operation.
fn cases(op: PureOp) -> Vec<(Vec<Type>, Type)> {
    use Type::*;
    let floats = [F32, F16];
    let ints = [I32, I16, I64];
    let sig = op.signature();
    let same = |tys: &[Type], n: usize, res: Option<Type>| -> Vec<(Vec<Type>, Type)> {
        tys.iter()
            .map(|&t| (vec![t; n], res.unwrap_or(t)))
            .collect()
    };
    match sig {
        Signature::Unary(Class::Float) => same(&floats, 1, None),
        Signature::Binary(Class::Float) => same(&floats, 2, None),
        Signature::Ternary(Class::Float) => same(&floats, 3, None),
        Signature::Compare(Class::Float) => same(&floats, 2, Some(Bool)),
        Signature::Unary(Class::Int) => same(&ints, 1, None),
        Signature::Binary(Class::Int) => same(&ints, 2, None),
        Signature::Compare(Class::Int) => same(&ints, 2, Some(Bool)),
        Signature::Unary(Class::IntOrBool) => same(&[I32, I16, I64, Bool], 1, None),
        Signature::Binary(Class::IntOrBool) => same(&[I32, I16, I64, Bool], 2, None),
        Signature::Compare(Class::IntOrBool) => same(&[I32, I16, I64, Bool], 2, Some(Bool)),
        Signature::Select => [F32, I32, F16, I16, I64, Bool]
            .iter()
            .map(|&t| (vec![Bool, t, t], t))
            .collect(),
        Signature::BitfieldInsert => [I32, I16]
            .iter()
            .map(|&t| (vec![t, t, I32, I32], t))
            .collect(),
        Signature::BitfieldExtract => [I32, I16].iter().map(|&t| (vec![t, I32, I32], t)).collect(),
        Signature::Convert { from, to, width } => {
            let all = [Bool, I16, I32, I64, F16, F32];
            let mut out = Vec::new();
            for &a in &all {
                for &r in &all {
                    let ok = from.contains(a)
                        && to.contains(r)
                        && match width {
                            Width::Wider => r.bits() > a.bits(),
                            Width::Narrower => r.bits() < a.bits(),
                            Width::Same => r.bits() == a.bits(),
                            Width::Any => true,
                        };
                    if ok {
                        out.push((vec![a], r));
                    }
                }
            }
            out
        }
        _ => Vec::new(),
    }
}

/// Special and random values of a type, as constants.
fn inputs(op: PureOp, ty: Type, operand: usize, rng: &mut Rng) -> Vec<Const> {
    let f32_specials = [
        0.0f32,
        -0.0,
        1.0,
        -1.0,
        0.5,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        1e-40,
        -3e-39,
        f32::MAX,
        f32::MIN_POSITIVE,
        2.5,
        -2.5,
        3.5,
        1e10,
    ];
    let range = |rng: &mut Rng| -> f32 {
        match op {
            PureOp::Sin | PureOp::Cos => rng.range_f32(-10.0, 10.0),
            PureOp::Pow if operand == 0 => rng.range_f32(1e-3, 64.0),
            PureOp::Pow => rng.range_f32(-4.0, 4.0),
            PureOp::Exp2 => rng.range_f32(-100.0, 100.0),
            _ => {
                let m = rng.range_f32(-1.0, 1.0);
                let e = (rng.next_u32() % 40) as i32 - 20;
                m * 2f32.powi(e)
            }
        }
    };
    (0..N)
        .map(|i| match ty {
            Type::F32 | Type::F16 => {
                // Specials rotated per operand, so lanes pair different specials (+0 with -0,
                // a value with NaN, ...).
                let special = !matches!(op, PureOp::Sin | PureOp::Cos | PureOp::Pow)
                    && i < f32_specials.len();
                let mut x = if special {
                    f32_specials[(i + operand) % f32_specials.len()]
                } else {
                    range(rng)
                };
                if op == PureOp::Fdiv && operand == 1 && x.is_finite() && x != 0.0 {
                    // Vulkan's division accuracy holds for divisors in [2^-126, 2^126].
                    x = x.clamp(-1e30, 1e30);
                    if x.abs() < 1e-30 {
                        x = 1e-30f32.copysign(x);
                    }
                }
                if ty == Type::F16 {
                    Const::f16(f16::from_f32(x))
                } else {
                    Const::f32(x)
                }
            }
            Type::Bool => Const::bool(rng.next_u32() & 1 == 1),
            _ => {
                let specials: [i64; 8] = [0, 1, -1, 2, i64::MIN, i64::MAX, 31, 32];
                let v = if i < specials.len() {
                    specials[(i + operand) % specials.len()]
                } else {
                    let r = (u64::from(rng.next_u32()) << 32 | u64::from(rng.next_u32())) as i64;
                    // Small amounts for shifts and bitfield offsets sometimes.
                    if rng.next_u32().is_multiple_of(3) {
                        r % 40
                    } else {
                        r
                    }
                };
                let v = if ty == Type::I16 && i == 4 {
                    i64::from(i16::MIN)
                } else if ty == Type::I16 && i == 5 {
                    i64::from(i16::MAX)
                } else if ty == Type::I32 && i == 4 {
                    i64::from(i32::MIN)
                } else if ty == Type::I32 && i == 5 {
                    i64::from(i32::MAX)
                } else {
                    v
                };
                Const::int(ty, v)
            }
        })
        .collect()
}

fn bytes_of(values: &[Const]) -> Vec<u8> {
    let mut out = Vec::new();
    for c in values {
        let n = c.ty().bytes() as usize;
        out.extend_from_slice(&c.bits().to_le_bytes()[..n]);
    }
    out
}

fn storage(binding: u32) -> MemAccess {
    MemAccess {
        space: AddressSpace::Storage(Binding::new(0, binding)),
        offset: 0,
    }
}

/// `out[id] = op(in0[id], in1[id], ...)`, with operand `const_last` replaced by a constant.
fn unit_function(op: PureOp, args: &[Type], result: Type, const_last: Option<Const>) -> Function {
    let mut f = Function::new("unit", Stage::Compute);
    f.modes.local_size = [N as u32, 1, 1];
    let mut b = Builder::new(&mut f);
    let id = b.effect(EffectOp::Builtin(Builtin::GlobalId(0)), &[], &[Type::I32])[0];
    let mut values = Vec::new();
    for (k, &ty) in args.iter().enumerate() {
        if k + 1 == args.len() {
            if let Some(c) = const_last {
                values.push(b.konst(c));
                continue;
            }
        }
        let size = b.i32(ty.bytes() as i32);
        let off = b.pure(PureOp::Imul, &[id, size]);
        values.push(b.effect(EffectOp::Load(storage(k as u32)), &[off], &[ty])[0]);
    }
    let r = if matches!(op.signature(), Signature::Convert { .. }) {
        b.convert(op, values[0], result)
    } else {
        b.pure(op, &values)
    };
    let size = b.i32(result.bytes() as i32);
    let off = b.pure(PureOp::Imul, &[id, size]);
    b.effect(EffectOp::Store(storage(9)), &[off, r], &[]);
    b.return_();
    f
}

fn float_tol(op: PureOp) -> Tol {
    use PureOp::*;
    match op {
        Rcp | Rsqrt | Exp2 | Log2 => Tol::ulps(1),
        Sqrt | Fdiv => Tol::ulps(2),
        Sin | Cos => Tol::abs(1.0 / 2048.0),
        Pow => Tol {
            ulps: 200,
            abs: 1e-30,
            signed_zero: true,
        },
        _ => Tol::EXACT,
    }
}

/// Compares one output element of type `ty`.
fn element_matches(op: PureOp, ty: Type, got: &[u8], want: &[u8]) -> bool {
    match ty {
        Type::F32 => {
            let g = f32::from_le_bytes([got[0], got[1], got[2], got[3]]);
            let w = f32::from_le_bytes([want[0], want[1], want[2], want[3]]);
            float_matches(g, w, float_tol(op))
        }
        Type::F16 => {
            let g = f16::from_bits(u16::from_le_bytes([got[0], got[1]]));
            let w = f16::from_bits(u16::from_le_bytes([want[0], want[1]]));
            if g.is_nan() || w.is_nan() {
                return g.is_nan() && w.is_nan();
            }
            if g.to_bits() == w.to_bits() {
                return true;
            }
            let tol = float_tol(op);
            if matches!(op, PureOp::Sin | PureOp::Cos) {
                return (g.to_f32() - w.to_f32()).abs() <= 2.0 * tol.abs;
            }
            if matches!(op, PureOp::Pow) {
                let (g, w) = (g.to_f32(), w.to_f32());
                return (g - w).abs() <= 2e-3 * w.abs().max(1e-4);
            }
            let ulps = tol.ulps + u32::from(tol.ulps > 0 || is_inexact_f16(op));
            let key = |x: f16| {
                let i = x.to_bits() as i16;
                if i < 0 {
                    -i32::from(i & 0x7fff)
                } else {
                    i32::from(i)
                }
            };
            if g.to_bits() == w.to_bits() {
                return true;
            }
            if g.to_f32() == 0.0 && w.to_f32() == 0.0 && tol.signed_zero {
                return true;
            }
            (key(g) - key(w)).unsigned_abs() <= ulps
        }
        _ => got == want,
    }
}

/// f16 operations the backend computes through fp32 instructions with a second rounding.
fn is_inexact_f16(op: PureOp) -> bool {
    use PureOp::*;
    matches!(op, Rcp | Rsqrt | Sqrt | Fdiv | Exp2 | Log2)
}

fn flush_inputs(values: &[Const]) -> Vec<Const> {
    values
        .iter()
        .map(|&c| {
            if c.ty() == Type::F32 {
                let x = c.as_f32();
                if x != 0.0 && x.abs() < f32::MIN_POSITIVE {
                    return Const::f32(0.0f32.copysign(x));
                }
            }
            c
        })
        .collect()
}

fn resources(args: &[Type], inputs: &[Vec<Const>], result: Type) -> Resources {
    let mut res = Resources::new();
    for (k, values) in inputs.iter().enumerate().take(args.len()) {
        res.bind_storage(Binding::new(0, k as u32), bytes_of(values));
    }
    res.bind_storage(Binding::new(0, 9), vec![0; N * result.bytes() as usize]);
    res
}

/// Runs one case; returns Err(what) if the backend reports it unsupported.
fn run_case(
    op: PureOp,
    args: &[Type],
    result: Type,
    const_last: bool,
    seed: u64,
) -> Result<(), String> {
    let mut rng = Rng::new(seed);
    let ins: Vec<Vec<Const>> = args
        .iter()
        .enumerate()
        .map(|(k, &t)| inputs(op, t, k, &mut rng))
        .collect();
    let constant = if const_last {
        // A value from the middle of the last operand's inputs (varies per case).
        let last = ins.last().map(|v| v[N / 2 + (seed as usize % 8)]);
        if last.map(|c| c.ty()) == Some(Type::Bool) {
            None
        } else {
            last
        }
    } else {
        None
    };
    if const_last && constant.is_none() {
        return Ok(());
    }
    let f = unit_function(op, args, result, constant);
    let res = resources(args, &ins, result);
    let flushed: Vec<Vec<Const>> = ins.iter().map(|v| flush_inputs(v)).collect();
    let res_flushed = resources(args, &flushed, result);
    let expect = |r: &Resources| -> Vec<u8> {
        let mut r = r.clone();
        if let Err(e) = interp::run_compute(&f, &mut r, [1, 1, 1], &Limits::default()) {
            panic!("interpreter failed on {}: {e}\n{f}", op.name());
        }
        r.buffer_data(Binding::new(0, 9)).unwrap_or(&[]).to_vec()
    };
    let (want, want_flushed) = (expect(&res), expect(&res_flushed));
    for level in LEVELS {
        let g = at_level(&f, level);
        let binary = match compile(&g, &CompileOptions::default()) {
            Ok(b) => b,
            Err(BackendError::UnsupportedInst { what, .. }) => return Err(what),
            Err(e) => panic!("{level:?}: {} failed to compile: {e}\n{g}", op.name()),
        };
        let mut got_res = res.clone();
        if let Err(e) = sim::run_compute(&binary, &mut got_res, [1, 1, 1]) {
            panic!(
                "{level:?}: {} ({args:?} -> {result}) failed in the simulator: {e}\n{g}\n{}",
                op.name(),
                binary.disassembly
            );
        }
        let got = got_res.buffer_data(Binding::new(0, 9)).unwrap_or(&[]);
        let size = result.bytes() as usize;
        for i in 0..N {
            let s = i * size..(i + 1) * size;
            let ok = element_matches(op, result, &got[s.clone()], &want[s.clone()])
                || element_matches(op, result, &got[s.clone()], &want_flushed[s.clone()]);
            if !ok {
                let operands: Vec<String> = ins.iter().map(|v| format!("{}", v[i])).collect();
                panic!(
                    "{level:?}: {} ({args:?} -> {result}), lane {i}, operands [{}]{}: want {:02x?} got {:02x?}\nIR:\n{g}\ncode:\n{}",
                    op.name(),
                    operands.join(", "),
                    constant.map(|c| format!(" (last constant {c})")).unwrap_or_default(),
                    &want[s.clone()],
                    &got[s],
                    binary.disassembly
                );
            }
        }
    }
    Ok(())
}

/// The operation/type combinations the backend reports as unsupported (none at present).
/// Anything else must compile and match.
const KNOWN_UNSUPPORTED: &[&str] = &[];

#[test]
fn every_pure_op_matches_the_interpreter() {
    let mut unsupported = Vec::new();
    let mut cases_run = 0;
    for (n, &op) in PureOp::ALL.iter().enumerate() {
        let list = cases(op);
        assert!(!list.is_empty(), "no test case for {}", op.name());
        for (k, (args, result)) in list.iter().enumerate() {
            for const_last in [false, true] {
                let seed = 0x9e37_79b9 + (n * 64 + k * 2 + const_last as usize) as u64;
                match run_case(op, args, *result, const_last, seed) {
                    Ok(()) => cases_run += 1,
                    Err(what) => {
                        if !unsupported.contains(&what) {
                            unsupported.push(what);
                        }
                    }
                }
            }
        }
    }
    for what in &unsupported {
        assert!(
            KNOWN_UNSUPPORTED.contains(&what.as_str()),
            "unexpectedly unsupported: {what}"
        );
    }
    println!("{cases_run} cases matched; unsupported: {unsupported:?}");
}
