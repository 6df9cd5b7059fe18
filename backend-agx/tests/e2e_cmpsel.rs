//! Compare-and-select end to end: `select(cmp(a, b), x, y)` for every comparison, with compared
//! and selected types of the same and of different register widths, compiled at -O0 (a
//! comparison and a select) and at -O2 (the G13's fused `fcmpsel`/`icmpsel` where one
//! instruction does it), run in the simulator and compared bit for bit with the interpreter.
//! Inputs include NaN, ±0, ±inf, f32 and f16 denormals, integer extremes, and lanes where
//! `a == b`; the selected values include a NaN with a payload and -0, which must come through
//! unchanged.
//!
//! The G13 flushes f32 denormal operands of a float comparison to zero (docs/g13.md, "Floating
//! point"), so where the compared type is f32 the simulator is compared with the interpreter
//! run on inputs whose compared operands had their denormals flushed (the selected values are
//! moved as bits and stay as they are). Separately, the optimized IR (with the G13 operations,
//! evaluated through their definitions) is run on the interpreter against the input function on
//! the unflushed inputs: the operations follow the IR's reference semantics exactly.

mod common;

use agxc::sim;
use agxc_backend_agx::{compile, CompileOptions};
use agxc_egraph::interp::{self, Limits, Resources};
use agxc_egraph::ir::{
    AddressSpace, Binding, Builder, Builtin, Const, EffectOp, Function, MemAccess, PureOp, Stage,
    Type,
};
use common::*;
use half::f16;

const N: usize = 64;

const FLOAT_COMPARISONS: [PureOp; 12] = {
    use PureOp::*;
    [
        Feq, Fne, Flt, Fle, Fgt, Fge, Fequ, Fneu, Fltu, Fleu, Fgtu, Fgeu,
    ]
};

const INT_COMPARISONS: [PureOp; 10] = {
    use PureOp::*;
    [Ieq, Ine, Ult, Ule, Ugt, Uge, Slt, Sle, Sgt, Sge]
};

fn storage(binding: u32) -> MemAccess {
    MemAccess {
        space: AddressSpace::Storage(Binding::new(0, binding)),
        offset: 0,
    }
}

/// `out[id] = cmp(a[id], b[id]) ? x[id] : y[id]` with a, b, x, y, out in bindings 0, 1, 2, 3, 9.
fn function(cmp: PureOp, compared: Type, selected: Type) -> Function {
    let mut f = Function::new("cmpsel", Stage::Compute);
    f.modes.local_size = [N as u32, 1, 1];
    let mut b = Builder::new(&mut f);
    let id = b.effect(EffectOp::Builtin(Builtin::GlobalId(0)), &[], &[Type::I32])[0];
    let load = |b: &mut Builder<'_>, binding: u32, ty: Type| {
        let size = b.i32(ty.bytes() as i32);
        let off = b.pure(PureOp::Imul, &[id, size]);
        b.effect(EffectOp::Load(storage(binding)), &[off], &[ty])[0]
    };
    let a = load(&mut b, 0, compared);
    let c = load(&mut b, 1, compared);
    let x = load(&mut b, 2, selected);
    let y = load(&mut b, 3, selected);
    let cond = b.pure(cmp, &[a, c]);
    let r = b.pure(PureOp::Select, &[cond, x, y]);
    let size = b.i32(selected.bytes() as i32);
    let off = b.pure(PureOp::Imul, &[id, size]);
    b.effect(EffectOp::Store(storage(9)), &[off, r], &[]);
    b.return_();
    f
}

fn float(ty: Type, x: f32) -> Const {
    match ty {
        Type::F16 => Const::f16(f16::from_f32(x)),
        _ => Const::f32(x),
    }
}

/// Compared operands: specials rotated per operand (so lanes pair different specials), random
/// values, and every fourth lane of `b` equal to `a`.
fn compared_inputs(ty: Type, rng: &mut Rng) -> [Vec<Const>; 2] {
    let float_specials = [
        0.0f32,
        -0.0,
        1.0,
        -1.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        1e-40,
        -3e-39,
        5.960_464_5e-8, // the smallest f16 denormal
        f32::MAX,
        f32::MIN_POSITIVE,
        2.5,
        -2.5,
    ];
    let int_specials: [i64; 7] = [0, 1, -1, i64::MIN, i64::MAX, 2, -2];
    let operand = |k: usize, rng: &mut Rng| -> Vec<Const> {
        (0..N)
            .map(|i| match ty {
                Type::F32 | Type::F16 if i < float_specials.len() => {
                    float(ty, float_specials[(i + 3 * k) % float_specials.len()])
                }
                Type::F32 | Type::F16 => float(ty, rng.range_f32(-4.0, 4.0)),
                Type::Bool => Const::bool(rng.next_u32() & 1 == 1),
                _ if i < int_specials.len() => {
                    let v = int_specials[(i + 2 * k) % int_specials.len()];
                    // Clamped to the type by truncation: MIN and MAX become the type's own.
                    let v = match (ty, v) {
                        (Type::I16, i64::MIN) => i64::from(i16::MIN),
                        (Type::I16, i64::MAX) => i64::from(i16::MAX),
                        (Type::I32, i64::MIN) => i64::from(i32::MIN),
                        (Type::I32, i64::MAX) => i64::from(i32::MAX),
                        _ => v,
                    };
                    Const::int(ty, v)
                }
                // Small values often, so that orderings and equalities come up.
                _ if rng.next_u32().is_multiple_of(2) => {
                    Const::int(ty, i64::from(rng.next_u32() % 7) - 3)
                }
                _ => Const::int(ty, i64::from(rng.next_u32() as i32)),
            })
            .collect()
    };
    let a = operand(0, rng);
    let mut b = operand(1, rng);
    for i in (0..N).step_by(4) {
        b[i] = a[i];
    }
    [a, b]
}

/// Selected operands: random bits, with a NaN carrying a payload and -0 among the floats.
fn selected_inputs(ty: Type, rng: &mut Rng) -> Vec<Const> {
    (0..N)
        .map(|i| match (ty, i % 16) {
            (Type::F32, 0) => Const::f32(f32::from_bits(0x7fc0_1234)),
            (Type::F32, 1) => Const::f32(-0.0),
            (Type::F16, 0) => Const::f16(f16::from_bits(0x7e12)),
            (Type::F16, 1) => Const::f16(f16::from_bits(0x8000)),
            (Type::Bool, _) => Const::bool(rng.next_u32() & 1 == 1),
            _ => {
                let bits = u64::from(rng.next_u32()) << 32 | u64::from(rng.next_u32());
                Const::from_bits(ty, bits)
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

/// f32 denormals as zeros of their sign (what the G13's float sources read).
fn flushed(values: &[Const]) -> Vec<Const> {
    values
        .iter()
        .map(|&c| match c.ty() {
            Type::F32 if c.as_f32() != 0.0 && c.as_f32().abs() < f32::MIN_POSITIVE => {
                Const::f32(0.0f32.copysign(c.as_f32()))
            }
            _ => c,
        })
        .collect()
}

fn resources(inputs: &[Vec<Const>], selected: Type) -> Resources {
    let mut res = Resources::new();
    for (k, values) in inputs.iter().enumerate() {
        res.bind_storage(Binding::new(0, k as u32), bytes_of(values));
    }
    res.bind_storage(Binding::new(0, 9), vec![0; N * selected.bytes() as usize]);
    res
}

fn interpret(f: &Function, res: &Resources) -> Vec<u8> {
    let mut r = res.clone();
    if let Err(e) = interp::run_compute(f, &mut r, [1, 1, 1], &Limits::default()) {
        panic!("interpreter failed: {e}\n{f}");
    }
    r.buffer_data(Binding::new(0, 9)).unwrap_or(&[]).to_vec()
}

fn register_bits(ty: Type) -> u32 {
    if ty == Type::Bool {
        32
    } else {
        ty.bits()
    }
}

/// Runs one case at both levels; returns whether -O2 fused it.
fn run_case(cmp: PureOp, compared: Type, selected: Type, seed: u64) -> bool {
    let mut rng = Rng::new(seed);
    let [a, b] = compared_inputs(compared, &mut rng);
    let (x, y) = (
        selected_inputs(selected, &mut rng),
        selected_inputs(selected, &mut rng),
    );
    let f = function(cmp, compared, selected);
    let res = resources(&[a.clone(), b.clone(), x.clone(), y.clone()], selected);
    let res_flushed = resources(&[flushed(&a), flushed(&b), x, y], selected);
    let want = interpret(&f, &res);
    let want_g13 = interpret(&f, &res_flushed);
    let what = format!("{} on {compared} selecting {selected}", cmp.name());
    let mut fused = false;
    for level in LEVELS {
        let g = at_level(&f, level);
        if level == Level::O2 {
            fused = g.to_string().contains("cmpsel_");
            // The G13 operations evaluate like the IR they replace, denormals included.
            assert_eq!(interpret(&g, &res), want, "{what}: -O2 IR\n{g}");
        }
        let binary = match compile(&g, &CompileOptions::default()) {
            Ok(bin) => bin,
            Err(e) => panic!("{level:?}: {what} failed to compile: {e}\n{g}"),
        };
        let mut got = res.clone();
        if let Err(e) = sim::run_compute(&binary, &mut got, [1, 1, 1]) {
            panic!("{level:?}: {what}: simulator failed: {e}\n{g}");
        }
        let got = got.buffer_data(Binding::new(0, 9)).unwrap_or(&[]);
        let size = selected.bytes() as usize;
        for i in 0..N {
            let s = i * size..(i + 1) * size;
            assert_eq!(
                &got[s.clone()],
                &want_g13[s.clone()],
                "{level:?}: {what}, lane {i}: a = {}, b = {}\nIR:\n{g}\ncode:\n{}",
                a[i],
                b[i],
                binary.disassembly
            );
        }
    }
    fused
}

#[test]
fn every_comparison_selects_like_the_interpreter() {
    let selected_types = [Type::I32, Type::F32, Type::F16, Type::I16, Type::Bool];
    let mut cases = Vec::new();
    for &cmp in &FLOAT_COMPARISONS {
        for compared in [Type::F32, Type::F16] {
            cases.extend(selected_types.iter().map(|&s| (cmp, compared, s)));
        }
    }
    for &cmp in &INT_COMPARISONS {
        for compared in [Type::I32, Type::I16] {
            cases.extend(selected_types.iter().map(|&s| (cmp, compared, s)));
        }
    }
    for cmp in [PureOp::Ieq, PureOp::Ine] {
        cases.extend([Type::F32, Type::I16].map(|s| (cmp, Type::Bool, s)));
    }
    let mut fused = 0;
    for (n, &(cmp, compared, selected)) in cases.iter().enumerate() {
        let did = run_case(cmp, compared, selected, 0x5e1e_c700 + n as u64);
        // One instruction does it exactly when the widths agree; ordered `fne` and unordered
        // `fequ` have no condition code.
        let expected = register_bits(compared) == register_bits(selected)
            && !matches!(cmp, PureOp::Fne | PureOp::Fequ);
        assert_eq!(
            did,
            expected,
            "{} on {compared} selecting {selected}: fused {did}",
            cmp.name()
        );
        fused += usize::from(did);
    }
    assert!(fused > 50, "only {fused} cases fused");
}

#[test]
fn compare_and_select_written_by_hand_runs_at_every_width() {
    // The optimizer only forms same-width cases; hand-written IR may hold the others, which
    // take a longer sequence (per word for 64-bit values, through a bool for mixed widths).
    for (op, compared, selected) in [
        ("g13.fcmpsel_lt", Type::F32, Type::I64),
        ("g13.fcmpsel_ge", Type::F32, Type::F16),
        ("g13.fcmpsel_eq", Type::F16, Type::I32),
        ("g13.icmpsel_slt", Type::I16, Type::I64),
        ("g13.icmpsel_ugt", Type::I32, Type::I16),
        ("g13.icmpsel_eq", Type::Bool, Type::F16),
        ("g13.icmpsel_sgt", Type::I32, Type::F32),
    ] {
        let text = format!(
            "function @hand compute local_size({N}, 1, 1) {{
             block0:
                 v0:i32 = builtin global_id.x
                 v1:i32 = const {cb}
                 v2:i32 = imul v0, v1
                 v3:i32 = const {sb}
                 v4:i32 = imul v0, v3
                 v5:{compared} = load storage(0, 0) [v2]
                 v6:{compared} = load storage(0, 1) [v2]
                 v7:{selected} = load storage(0, 2) [v4]
                 v8:{selected} = load storage(0, 3) [v4]
                 v9:{selected} = {op} v5, v6, v7, v8
                 store storage(0, 9) [v4], v9
                 return
             }}",
            cb = compared.bytes(),
            sb = selected.bytes(),
        );
        let f = parse(&text);
        let mut rng = Rng::new(0xc0ffee ^ selected.bits() as u64);
        let [a, b] = compared_inputs(compared, &mut rng);
        let (x, y) = (
            selected_inputs(selected, &mut rng),
            selected_inputs(selected, &mut rng),
        );
        let res_flushed = resources(&[flushed(&a), flushed(&b), x.clone(), y.clone()], selected);
        let want = interpret(&f, &res_flushed);
        for level in LEVELS {
            let g = at_level(&f, level);
            let binary = build(&g, &CompileOptions::default());
            let mut got = resources(&[a.clone(), b.clone(), x.clone(), y.clone()], selected);
            if let Err(e) = sim::run_compute(&binary, &mut got, [1, 1, 1]) {
                panic!("{level:?}: {op}: simulator failed: {e}\n{g}");
            }
            assert_eq!(
                got.buffer_data(Binding::new(0, 9)).unwrap_or(&[]),
                &want[..],
                "{level:?}: {op} on {compared} selecting {selected}\n{g}\n{}",
                binary.disassembly
            );
        }
    }
}

#[test]
fn the_fused_form_is_one_instruction() {
    let f = function(PureOp::Fltu, Type::F32, Type::I32);
    let g = at_level(&f, Level::O2);
    assert!(g.to_string().contains("g13.fcmpsel_ge"), "{g}");
    let asm = build(&g, &CompileOptions::default()).disassembly;
    let count = |name: &str| {
        asm.lines()
            .filter(|l| l.split_whitespace().any(|w| w == name))
            .count()
    };
    // One fcmpsel with the selected values swapped, and no bool materialized for an icmpsel.
    assert_eq!(count("fcmpsel"), 1, "{asm}");
    assert_eq!(count("icmpsel"), 0, "{asm}");
}

#[test]
fn a_64_bit_comparison_is_refused_with_an_error() {
    let text = "function @wide compute local_size(1, 1, 1) {
     block0:
         v0:i32 = const 0
         v1:i64 = load storage(0, 0) [v0]
         v2:i32 = load storage(0, 1) [v0]
         v3:i32 = g13.icmpsel_ult v1, v1, v2, v2
         store storage(0, 9) [v0], v3
         return
     }";
    let f = parse(text);
    let err = compile(&f, &CompileOptions::default()).expect_err("no 64-bit icmpsel");
    assert!(err.to_string().contains("64-bit"), "{err}");
}
