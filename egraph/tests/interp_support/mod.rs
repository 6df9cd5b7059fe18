//! Shared helpers of the interpreter's integration tests: run one operation over many inputs
//! (one lane per case) through a real compute shader, and small IR-building shortcuts.

#![allow(dead_code)]

use agxc_egraph::interp::{run_compute, InterpError, Limits, Resources};
use agxc_egraph::ir::{
    AddressSpace, Binding, Builder, Builtin, Const, EffectOp, Function, MemAccess, Op, PureOp,
    Stage, Type, Value,
};
use half::f16;

/// A storage-buffer access at `(0, binding)` with no constant offset.
pub fn storage(binding: u32) -> MemAccess {
    MemAccess {
        space: AddressSpace::Storage(Binding::new(0, binding)),
        offset: 0,
    }
}

/// `builtin global_id.x`.
pub fn global_x(b: &mut Builder) -> Value {
    b.effect(EffectOp::Builtin(Builtin::GlobalId(0)), &[], &[Type::I32])[0]
}

/// `index * size` as an i32 byte offset.
pub fn byte_offset(b: &mut Builder, index: Value, size: u32) -> Value {
    let s = b.i32(size as i32);
    b.pure(PureOp::Imul, &[index, s])
}

/// Little-endian bytes of a scalar as memory holds it.
pub fn const_bytes(c: Const) -> Vec<u8> {
    c.bits().to_le_bytes()[..c.ty().bytes() as usize].to_vec()
}

/// Reads scalars of type `ty` back from bytes.
pub fn consts_from(bytes: &[u8], ty: Type) -> Vec<Const> {
    bytes
        .chunks_exact(ty.bytes() as usize)
        .map(|c| {
            let mut raw = [0u8; 8];
            raw[..c.len()].copy_from_slice(c);
            let bits = u64::from_le_bytes(raw);
            if ty == Type::Bool {
                Const::bool(bits != 0)
            } else {
                Const::from_bits(ty, bits)
            }
        })
        .collect()
}

/// Runs `op` (result type `result`) once per case, each case on its own lane: operand `k` is
/// loaded from storage buffer `(0, k)`, the result stored to `(0, 9)`. Returns the results in
/// case order.
pub fn run_op(op: Op, result: Type, cases: &[Vec<Const>]) -> Vec<Const> {
    try_run_op(op, result, cases).unwrap_or_else(|e| panic!("{} failed: {e}", op.name()))
}

/// [`run_op`], returning the interpreter's error.
pub fn try_run_op(op: Op, result: Type, cases: &[Vec<Const>]) -> Result<Vec<Const>, InterpError> {
    let n = cases.len();
    let arg_tys: Vec<Type> = cases[0].iter().map(|c| c.ty()).collect();
    let mut func = Function::new("op", Stage::Compute);
    func.modes.local_size = [n as u32, 1, 1];
    let mut b = Builder::new(&mut func);
    let i = global_x(&mut b);
    let mut args = Vec::new();
    for (k, &ty) in arg_tys.iter().enumerate() {
        let off = byte_offset(&mut b, i, ty.bytes());
        args.push(b.effect(EffectOp::Load(storage(k as u32)), &[off], &[ty])[0]);
    }
    let (_, r) = b.append(op, &args, &[result], &[]);
    let off = byte_offset(&mut b, i, result.bytes());
    b.effect(EffectOp::Store(storage(9)), &[off, r[0]], &[]);
    b.return_();

    let mut res = Resources::new();
    for (k, _) in arg_tys.iter().enumerate() {
        let bytes: Vec<u8> = cases.iter().flat_map(|c| const_bytes(c[k])).collect();
        res.bind_storage(Binding::new(0, k as u32), bytes);
    }
    res.bind_storage(Binding::new(0, 9), vec![0; n * result.bytes() as usize]);
    run_compute(&func, &mut res, [1, 1, 1], &Limits::default())?;
    let out = res.buffer_data(Binding::new(0, 9)).unwrap_or(&[]);
    Ok(consts_from(out, result))
}

/// Runs a pure table operation whose result type follows from its operands.
pub fn run_pure(op: PureOp, cases: &[Vec<Const>]) -> Vec<Const> {
    let tys: Vec<Type> = cases[0].iter().map(|c| c.ty()).collect();
    let result = op
        .signature()
        .infer(&tys)
        .ok()
        .flatten()
        .expect("not a conversion");
    run_op(Op::Pure(op), result, cases)
}

/// Asserts `op(case) == expected` bit for bit for every case, except that any NaN matches any
/// NaN (payloads are the host's).
/// Cases with different operand types run as separate shaders.
pub fn check(op: PureOp, table: &[(Vec<Const>, Const)]) {
    for group in by_operand_types(table) {
        let cases: Vec<Vec<Const>> = group.iter().map(|(c, _)| c.clone()).collect();
        let got = run_pure(op, &cases);
        compare(op.name(), &group, &got);
    }
}

fn by_operand_types(table: &[(Vec<Const>, Const)]) -> Vec<Vec<(Vec<Const>, Const)>> {
    let mut groups: Vec<Vec<(Vec<Const>, Const)>> = Vec::new();
    for case in table {
        let tys = |c: &(Vec<Const>, Const)| -> Vec<Type> {
            c.0.iter().map(|a| a.ty()).chain([c.1.ty()]).collect()
        };
        match groups.iter_mut().find(|g| tys(&g[0]) == tys(case)) {
            Some(g) => g.push(case.clone()),
            None => groups.push(vec![case.clone()]),
        }
    }
    groups
}

/// Like [`check`] for a conversion to `to`.
/// The result type is the expected value's.
pub fn check_convert(op: PureOp, table: &[(Const, Const)]) {
    let table: Vec<(Vec<Const>, Const)> = table.iter().map(|(c, e)| (vec![*c], *e)).collect();
    for group in by_operand_types(&table) {
        let cases: Vec<Vec<Const>> = group.iter().map(|(c, _)| c.clone()).collect();
        let got = run_op(Op::Pure(op), group[0].1.ty(), &cases);
        compare(op.name(), &group, &got);
    }
}

fn compare(name: &str, table: &[(Vec<Const>, Const)], got: &[Const]) {
    for ((args, want), got) in table.iter().zip(got) {
        let same = want == got || (want.is_nan() && got.is_nan());
        assert!(
            same,
            "{name}({}) = {got} ({:#x}), expected {want} ({:#x})",
            args.iter()
                .map(|a| a.to_string())
                .collect::<Vec<_>>()
                .join(", "),
            got.bits(),
            want.bits()
        );
    }
}

/// Binary32 constant.
pub fn f(v: f32) -> Const {
    Const::f32(v)
}

/// Binary16 constant from its bits.
pub fn h(bits: u16) -> Const {
    Const::f16(f16::from_bits(bits))
}

/// Binary16 constant from a value exactly representable in binary16.
pub fn hv(v: f32) -> Const {
    let x = f16::from_f32(v);
    assert_eq!(x.to_f32(), v, "{v} is not exactly representable in f16");
    Const::f16(x)
}

/// i32 constant.
pub fn i(v: i32) -> Const {
    Const::i32(v)
}

/// Parses IR text (the text form's parser).
pub fn parse(text: &str) -> Function {
    agxc_egraph::ir::parse_function(text, &agxc_egraph::ir::OpRegistry::new())
        .unwrap_or_else(|e| panic!("parse error: {e}\n{text}"))
}

/// Parses and runs a compute shader over `groups` with storage buffers `(0, k)` holding
/// `buffers[k]`; returns the resources afterwards and the statistics.
pub fn run_compute_text(
    text: &str,
    groups: [u32; 3],
    buffers: &[Vec<u8>],
) -> Result<(Resources, agxc_egraph::interp::Stats), InterpError> {
    run_compute_text_with(text, groups, buffers, &Limits::default())
}

/// [`run_compute_text`] with explicit limits.
pub fn run_compute_text_with(
    text: &str,
    groups: [u32; 3],
    buffers: &[Vec<u8>],
    limits: &Limits,
) -> Result<(Resources, agxc_egraph::interp::Stats), InterpError> {
    let func = parse(text);
    let mut res = Resources::new();
    for (k, data) in buffers.iter().enumerate() {
        res.bind_storage(Binding::new(0, k as u32), data.clone());
    }
    let stats = run_compute(&func, &mut res, groups, limits)?;
    Ok((res, stats))
}

/// Storage buffer `(0, binding)` as i32 values.
pub fn i32s(res: &Resources, binding: u32) -> Vec<i32> {
    agxc_egraph::interp::bytes_u32(res.buffer_data(Binding::new(0, binding)).unwrap_or(&[]))
        .into_iter()
        .map(|v| v as i32)
        .collect()
}

/// Storage buffer `(0, binding)` as f32 values.
pub fn f32s(res: &Resources, binding: u32) -> Vec<f32> {
    agxc_egraph::interp::bytes_f32(res.buffer_data(Binding::new(0, binding)).unwrap_or(&[]))
}

/// The texture and sampler binding the texture helpers use.
pub const TEX: Binding = Binding { set: 1, binding: 0 };

/// Runs `op` (a sample instruction) on one lane per entry of `lanes`, each entry holding that
/// lane's operands in `SampleOp` order; returns each lane's results (a shadow sample's in `.0`).
pub fn run_sample(
    op: agxc_egraph::ir::SampleOp,
    texture: agxc_egraph::interp::Texture,
    sampler: agxc_egraph::interp::Sampler,
    lanes: &[Vec<f32>],
) -> Result<Vec<[f32; 4]>, InterpError> {
    let arity = op.arity();
    let results = op.result_count();
    let mut func = Function::new("sample", Stage::Compute);
    func.modes.local_size = [lanes.len() as u32, 1, 1];
    let mut b = Builder::new(&mut func);
    let i = global_x(&mut b);
    let off = byte_offset(&mut b, i, 4 * arity as u32);
    let operands = b.effect(EffectOp::Load(storage(0)), &[off], &vec![Type::F32; arity]);
    let texel = b.effect(EffectOp::Sample(op), &operands, &vec![Type::F32; results]);
    let out = byte_offset(&mut b, i, 16);
    let mut stored = vec![out];
    stored.extend(texel.iter().copied());
    b.effect(EffectOp::Store(storage(1)), &stored, &[]);
    b.return_();

    let mut res = Resources::new();
    let input: Vec<f32> = lanes.iter().flatten().copied().collect();
    res.bind_storage(Binding::new(0, 0), agxc_egraph::interp::f32_bytes(&input))
        .bind_storage(Binding::new(0, 1), vec![0; 16 * lanes.len()])
        .bind_combined(TEX, texture, sampler);
    run_compute(&func, &mut res, [1, 1, 1], &Limits::default())?;
    Ok(f32s(&res, 1)
        .chunks_exact(4)
        .map(|c| [c[0], c[1], c[2], c[3]])
        .collect())
}

/// Runs `op` (a fetch) on one lane per entry of `lanes` (integer operands in order).
pub fn run_fetch(
    op: agxc_egraph::ir::FetchOp,
    texture: agxc_egraph::interp::Texture,
    lanes: &[Vec<i32>],
) -> Result<Vec<[f32; 4]>, InterpError> {
    let arity = lanes[0].len();
    let mut func = Function::new("fetch", Stage::Compute);
    func.modes.local_size = [lanes.len() as u32, 1, 1];
    let mut b = Builder::new(&mut func);
    let i = global_x(&mut b);
    let off = byte_offset(&mut b, i, 4 * arity as u32);
    let operands = b.effect(EffectOp::Load(storage(0)), &[off], &vec![Type::I32; arity]);
    let texel = b.effect(EffectOp::Fetch(op), &operands, &[Type::F32; 4]);
    let out = byte_offset(&mut b, i, 16);
    let mut stored = vec![out];
    stored.extend(texel.iter().copied());
    b.effect(EffectOp::Store(storage(1)), &stored, &[]);
    b.return_();

    let mut res = Resources::new();
    let input: Vec<u32> = lanes.iter().flatten().map(|&v| v as u32).collect();
    res.bind_storage(Binding::new(0, 0), agxc_egraph::interp::u32_bytes(&input))
        .bind_storage(Binding::new(0, 1), vec![0; 16 * lanes.len()])
        .bind_texture(TEX, texture);
    run_compute(&func, &mut res, [1, 1, 1], &Limits::default())?;
    Ok(f32s(&res, 1)
        .chunks_exact(4)
        .map(|c| [c[0], c[1], c[2], c[3]])
        .collect())
}
