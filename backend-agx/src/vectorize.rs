//! Load/store vectorization: adjacent scalar accesses to one buffer merged into one access of
//! several values, before instruction selection.
//!
//! `o[6*i + 0] = a; ... o[6*i + 5] = f;` arrives as six stores whose offsets are
//! `(6*i + k) << 2`; the G13's `device_store` moves up to four consecutive elements, so the six
//! become one store of six values that isel splits into a four- and a two-element run, both
//! indexed from `6*i` (see `isel::memory`). Mesa does the same with
//! `nir_opt_load_store_vectorize` before its backend.
//!
//! Offsets are compared as `root * scale + constant` ([`split`]): two accesses are adjacent
//! when root and scale agree and the second's constant starts where the first's bytes end.
//! Accesses merge only within one block (one execution mask) and only across instructions that
//! cannot observe or change the memory moved: pure operations, reads of inputs and builtins,
//! and accesses to *other* buffers or address spaces (bindings are distinct allocations in
//! this ABI, as in the interpreter). A barrier, an atomic, a demote, a nested `if`/`loop`, or
//! an access to the same buffer that is not part of the run ends it: a store is never moved
//! past a load of its buffer, nor a load past a store to it.
//!
//! Values move as they are: only 32-bit (`i32`, `f32`) or only 16-bit (`i16`, `f16`) runs
//! merge, so the element size of the run is one; booleans and 64-bit values keep their own
//! accesses.

use agxc_egraph::ir::{
    AddressSpace, Block, EffectOp, Function, Inst, MemAccess, Op, PureOp, Type, Value, ValueDef,
};

/// Most values one merged access carries (isel splits them into runs of four elements).
const MAX_VALUES: usize = 16;

/// `v` as `root * scale + constant` (wrapping 32-bit arithmetic, like the IR's offsets), with
/// `root` absent for a constant.
pub(crate) fn split(func: &Function, v: Value) -> (Option<Value>, u32, u32) {
    let konst = |v: Value| match func.values[v].def {
        ValueDef::Result(inst, 0) => match func.insts[inst].op {
            Op::Const(c) if c.ty() == Type::I32 => Some(c.bits() as u32),
            _ => None,
        },
        _ => None,
    };
    if let Some(c) = konst(v) {
        return (None, 1, c);
    }
    let ValueDef::Result(inst, 0) = func.values[v].def else {
        return (Some(v), 1, 0);
    };
    let data = &func.insts[inst];
    let Op::Pure(op) = data.op else {
        return (Some(v), 1, 0);
    };
    match (op, data.args.as_slice()) {
        (PureOp::Iadd, &[a, b]) => {
            if let Some(k) = konst(b) {
                let (r, m, c) = split(func, a);
                return (r, m, c.wrapping_add(k));
            }
            if let Some(k) = konst(a) {
                let (r, m, c) = split(func, b);
                return (r, m, c.wrapping_add(k));
            }
        }
        (PureOp::Ishl, &[a, b]) => {
            if let Some(s) = konst(b) {
                let s = s & 31;
                let (r, m, c) = split(func, a);
                return (r, m.wrapping_shl(s), c.wrapping_shl(s));
            }
        }
        (PureOp::Imul, &[a, b]) => {
            let (x, k) = match (konst(a), konst(b)) {
                (_, Some(k)) => (a, k),
                (Some(k), _) => (b, k),
                _ => return (Some(v), 1, 0),
            };
            let (r, m, c) = split(func, x);
            return (r, m.wrapping_mul(k), c.wrapping_mul(k));
        }
        _ => {}
    }
    (Some(v), 1, 0)
}

/// A load or store candidate: where it is, its access and its offset decomposed.
#[derive(Clone, Copy)]
struct Access {
    inst: Inst,
    store: bool,
    space: AddressSpace,
    root: Option<Value>,
    scale: u32,
    /// Byte offset of the first value relative to `root * scale` (wrapping).
    start: u32,
    /// Bytes moved.
    bytes: u32,
    /// Element size (2 or 4).
    size: u32,
    values: usize,
}

fn access(func: &Function, inst: Inst) -> Option<Access> {
    let data = &func.insts[inst];
    let (access, store, types): (MemAccess, bool, Vec<Type>) = match data.op {
        Op::Effect(EffectOp::Load(a)) => (
            a,
            false,
            data.results.iter().map(|&r| func.value_type(r)).collect(),
        ),
        Op::Effect(EffectOp::Store(a)) => (
            a,
            true,
            data.args[1..].iter().map(|&v| func.value_type(v)).collect(),
        ),
        _ => return None,
    };
    let size = match types.first()? {
        Type::I32 | Type::F32 => 4,
        Type::I16 | Type::F16 => 2,
        _ => return None,
    };
    if types
        .iter()
        .any(|t| !matches!(t, Type::I32 | Type::F32 | Type::I16 | Type::F16))
        || types.iter().any(|t| t.bytes() != size)
    {
        return None;
    }
    let (root, scale, c) = split(func, *data.args.first()?);
    Some(Access {
        inst,
        store,
        space: access.space,
        root,
        scale,
        start: c.wrapping_add(access.offset),
        bytes: size * types.len() as u32,
        size,
        values: types.len(),
    })
}

/// May `inst` sit between two merged accesses to `space` (of the kind `store`)?
fn transparent(func: &Function, inst: Inst, space: AddressSpace) -> bool {
    let data = &func.insts[inst];
    match data.op {
        Op::Pure(_) | Op::Custom(_) | Op::Const(_) => true,
        Op::Effect(e) => match e {
            // Another buffer or address space: a distinct allocation.
            EffectOp::Load(a) | EffectOp::Store(a) => a.space != space,
            EffectOp::Builtin(_) | EffectOp::Input(_) | EffectOp::BufferSize(_) => true,
            EffectOp::TexSize(_) | EffectOp::TexLevels(_) => true,
            _ => false,
        },
        _ => false,
    }
}

/// Merges adjacent accesses in every block of `func`; returns how many accesses were merged
/// away.
pub fn merge_accesses(func: &mut Function) -> usize {
    let blocks: Vec<Block> = func.blocks.keys().collect();
    blocks.into_iter().map(|b| merge_block(func, b)).sum()
}

fn merge_block(func: &mut Function, block: Block) -> usize {
    let mut merged = 0;
    let mut i = 0;
    while i < func.blocks[block].insts.len() {
        let insts = &func.blocks[block].insts;
        let Some(first) = access(func, insts[i]) else {
            i += 1;
            continue;
        };
        // Grow the run forward.
        let mut run = vec![(i, first)];
        let mut end = first.start.wrapping_add(first.bytes);
        let mut values = first.values;
        for (j, &inst) in insts.iter().enumerate().skip(i + 1) {
            if let Some(a) = access(func, inst) {
                if a.space == first.space {
                    let adjacent = a.store == first.store
                        && a.root == first.root
                        && a.scale == first.scale
                        && a.size == first.size
                        && a.start == end
                        && values + a.values <= MAX_VALUES;
                    if !adjacent {
                        break;
                    }
                    run.push((j, a));
                    end = end.wrapping_add(a.bytes);
                    values += a.values;
                    continue;
                }
            }
            if !transparent(func, inst, first.space) {
                break;
            }
        }
        if run.len() < 2 {
            i += 1;
            continue;
        }
        merged += run.len() - 1;
        if first.store {
            merge_stores(func, block, &run);
        } else {
            merge_loads(func, block, &run);
        }
        i += 1;
    }
    merged
}

/// The stores of `run` become the last one, storing every value from the first one's offset
/// (the last position, where every stored value is defined).
fn merge_stores(func: &mut Function, block: Block, run: &[(usize, Access)]) {
    let first = run[0].1.inst;
    let last = run[run.len() - 1].1.inst;
    let Op::Effect(EffectOp::Store(access)) = func.insts[first].op else {
        return;
    };
    let mut args = smallvec::SmallVec::new();
    args.push(func.insts[first].args[0]);
    for (_, a) in run {
        args.extend(func.insts[a.inst].args[1..].iter().copied());
    }
    func.insts[last].op = Op::Effect(EffectOp::Store(access));
    func.insts[last].args = args;
    let gone: Vec<Inst> = run[..run.len() - 1].iter().map(|(_, a)| a.inst).collect();
    func.blocks[block].insts.retain(|i| !gone.contains(i));
}

/// The loads of `run` become the first one, loading every value (the first position, where
/// its offset is defined; the later loads' results are only used after their own positions).
fn merge_loads(func: &mut Function, block: Block, run: &[(usize, Access)]) {
    let first = run[0].1.inst;
    let mut results = smallvec::SmallVec::new();
    for (_, a) in run {
        results.extend(func.insts[a.inst].results.iter().copied());
    }
    for (n, &r) in results.iter().enumerate() {
        func.values[r].def = ValueDef::Result(first, n as u32);
    }
    func.insts[first].results = results;
    let gone: Vec<Inst> = run[1..].iter().map(|(_, a)| a.inst).collect();
    for &g in &gone {
        func.insts[g].results.clear();
    }
    func.blocks[block].insts.retain(|i| !gone.contains(i));
}
