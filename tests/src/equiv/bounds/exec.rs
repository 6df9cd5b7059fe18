//! The shadow run's executor: one invocation at a time, structured control flow by recursion
//! over the blocks.
//!
//! Compute programs whose invocations do not communicate (no barriers, shared memory or
//! derivatives) run the same one invocation at a time as in the interpreter's lockstep
//! batches, which is what makes a scalar executor enough here.

use super::propagate;
use super::{read_scalar, Layout, ShadowError, ShadowRun, Sv, Tolerances};
use crate::equiv::model::{ErrorModel, UNKNOWN};
use agxc_egraph::interp::{run_compute, Limits, Resources};
use agxc_egraph::ir::{
    AddressSpace, Binding, Block, Builder, Builtin, Const, EffectOp, Function, Inst, MemAccess, Op,
    Stage, Type, Value,
};
use std::collections::{HashMap, HashSet};

/// Iterations one loop execution may run (the generated programs bound theirs far below).
const LOOP_LIMIT: u32 = 1 << 16;

/// Where texture operations write their results in the one-instruction function that runs them
/// in the interpreter (a binding no program uses).
const SCRATCH: Binding = Binding {
    set: u32::MAX,
    binding: u32::MAX,
};

pub(super) fn run(
    func: &Function,
    res: &Resources,
    groups: [u32; 3],
    layout: &Layout,
    model: &ErrorModel,
) -> Result<ShadowRun, ShadowError> {
    let out = res
        .buffer_data(layout.output)
        .map(<[u8]>::to_vec)
        .unwrap_or_default();
    let tol = Tolerances::new(out.len());
    let mut m = Machine {
        func,
        res,
        model,
        layout,
        out,
        tol,
        branchy: branchy_ifs(func),
        flips: 0,
    };
    let size = func.modes.local_size;
    let lanes = size[0] * size[1] * size[2];
    let mut index = 0usize;
    for gz in 0..groups[2] {
        for gy in 0..groups[1] {
            for gx in 0..groups[0] {
                for lane in 0..lanes {
                    let local = [
                        lane % size[0],
                        (lane / size[0]) % size[1],
                        lane / (size[0] * size[1]),
                    ];
                    let group = [gx, gy, gz];
                    let mut inv = Invocation {
                        ids: Ids {
                            local,
                            group,
                            groups,
                            size,
                            lane,
                        },
                        vals: HashMap::new(),
                        tainted: false,
                        index,
                    };
                    m.block(&mut inv, func.entry)?;
                    index += 1;
                }
            }
        }
    }
    Ok(ShadowRun {
        output: m.out,
        tolerances: m.tol,
        flips: m.flips,
    })
}

/// The `if`s whose arms (at any depth) store or exit: if their condition may flip, the
/// invocation's output is no longer predictable.
fn branchy_ifs(func: &Function) -> HashSet<Inst> {
    fn visit(func: &Function, block: Block, out: &mut HashSet<Inst>) -> bool {
        let mut any = false;
        for &inst in &func.blocks[block].insts {
            let data = &func.insts[inst];
            let here = matches!(
                data.op,
                Op::Effect(EffectOp::Store(_))
                    | Op::Break
                    | Op::Continue
                    | Op::Return
                    | Op::Discard
            );
            let mut inner = false;
            for &b in &data.blocks {
                inner |= visit(func, b, out);
            }
            if data.op == Op::If && inner {
                out.insert(inst);
            }
            any |= here || inner;
        }
        any
    }
    let mut out = HashSet::new();
    visit(func, func.entry, &mut out);
    out
}

struct Ids {
    local: [u32; 3],
    group: [u32; 3],
    groups: [u32; 3],
    size: [u32; 3],
    lane: u32,
}

struct Invocation {
    ids: Ids,
    vals: HashMap<Value, Sv>,
    /// A branch that stores or exits may have gone the other way: the output region is
    /// unknown, now and for every later store.
    tainted: bool,
    /// The linear global index (owner of the output region).
    index: usize,
}

/// How a block ended.
enum Flow {
    Yield(Vec<Sv>),
    Break(Vec<Sv>),
    Continue(Vec<Sv>),
    Return,
}

struct Machine<'a> {
    func: &'a Function,
    res: &'a Resources,
    model: &'a ErrorModel,
    layout: &'a Layout,
    out: Vec<u8>,
    tol: Tolerances,
    branchy: HashSet<Inst>,
    flips: u32,
}

impl Machine<'_> {
    fn get(&self, inv: &Invocation, inst: Inst, v: Value) -> Result<Sv, ShadowError> {
        inv.vals.get(&v).copied().ok_or(ShadowError::Malformed {
            inst,
            reason: "an operand has no value",
        })
    }

    fn args(&self, inv: &Invocation, inst: Inst) -> Result<Vec<Sv>, ShadowError> {
        self.func.insts[inst]
            .args
            .iter()
            .map(|&a| self.get(inv, inst, a))
            .collect()
    }

    fn set_results(&self, inv: &mut Invocation, inst: Inst, vals: &[Sv]) {
        for (&r, &v) in self.func.insts[inst].results.iter().zip(vals) {
            inv.vals.insert(r, v);
        }
    }

    fn taint(&mut self, inv: &mut Invocation) {
        inv.tainted = true;
        let start = inv.index * self.layout.invocation_bytes;
        self.tol.forget(start..start + self.layout.invocation_bytes);
    }

    fn block(&mut self, inv: &mut Invocation, block: Block) -> Result<Flow, ShadowError> {
        let func = self.func;
        for &inst in &func.blocks[block].insts {
            let data = &func.insts[inst];
            match data.op {
                Op::Pure(op) => {
                    let args = self.args(inv, inst)?;
                    let ty = func.value_type(data.results[0]);
                    let r = propagate::pure(op, data.flags, &args, ty, self.model);
                    self.set_results(inv, inst, &[r]);
                }
                Op::Custom(op) => {
                    let args = self.args(inv, inst)?;
                    let vals: Vec<Const> = args.iter().map(|a| a.v).collect();
                    let ty = func.value_type(data.results[0]);
                    let exact = args.iter().all(|a| a.e == 0.0);
                    let r = Sv {
                        v: op.eval(&vals, ty),
                        e: if exact { 0.0 } else { UNKNOWN },
                    };
                    self.set_results(inv, inst, &[r]);
                }
                Op::Const(c) => self.set_results(inv, inst, &[Sv { v: c, e: 0.0 }]),
                Op::Effect(op) => self.effect(inv, inst, op)?,
                Op::If => {
                    let cond = self.get(inv, inst, data.args[0])?;
                    let uncertain = cond.e != 0.0;
                    if uncertain {
                        self.flips += 1;
                        if self.branchy.contains(&inst) {
                            self.taint(inv);
                        }
                    }
                    let arm = data.blocks[if cond.v.as_bool() { 0 } else { 1 }];
                    match self.block(inv, arm)? {
                        Flow::Yield(mut vals) => {
                            if uncertain {
                                for v in &mut vals {
                                    v.e = UNKNOWN;
                                }
                            }
                            self.set_results(inv, inst, &vals);
                        }
                        exit => return Ok(exit),
                    }
                }
                Op::Loop => {
                    let mut params = self.args(inv, inst)?;
                    let body = data.blocks[0];
                    let mut trips = 0;
                    loop {
                        trips += 1;
                        if trips > LOOP_LIMIT {
                            return Err(ShadowError::LoopLimit {
                                inst,
                                limit: LOOP_LIMIT,
                            });
                        }
                        for (&p, &v) in func.blocks[body].params.iter().zip(&params) {
                            inv.vals.insert(p, v);
                        }
                        match self.block(inv, body)? {
                            Flow::Continue(vals) => params = vals,
                            Flow::Break(vals) => {
                                self.set_results(inv, inst, &vals);
                                break;
                            }
                            Flow::Return => return Ok(Flow::Return),
                            Flow::Yield(_) => {
                                return Err(ShadowError::Malformed {
                                    inst,
                                    reason: "a loop body yields",
                                })
                            }
                        }
                    }
                }
                Op::Yield => return Ok(Flow::Yield(self.args(inv, inst)?)),
                Op::Break => return Ok(Flow::Break(self.args(inv, inst)?)),
                Op::Continue => return Ok(Flow::Continue(self.args(inv, inst)?)),
                Op::Return => return Ok(Flow::Return),
                Op::Discard => {
                    return Err(ShadowError::Unsupported {
                        inst,
                        what: "discard".into(),
                    })
                }
            }
        }
        let data = &func.blocks[block];
        Err(ShadowError::Malformed {
            inst: data
                .insts
                .last()
                .copied()
                .or(data.parent)
                .unwrap_or_else(|| Inst::from_u32(0)),
            reason: "a block has no terminator",
        })
    }

    fn effect(
        &mut self,
        inv: &mut Invocation,
        inst: Inst,
        op: EffectOp,
    ) -> Result<(), ShadowError> {
        let unsupported = |what: &str| ShadowError::Unsupported {
            inst,
            what: what.to_string(),
        };
        let exact = |v: Const| Sv { v, e: 0.0 };
        match op {
            EffectOp::Builtin(b) => {
                let ids = &inv.ids;
                let v = match b {
                    Builtin::GlobalId(c) => {
                        let c = usize::from(c.min(2));
                        ids.group[c]
                            .wrapping_mul(ids.size[c])
                            .wrapping_add(ids.local[c])
                    }
                    Builtin::LocalId(c) => ids.local[usize::from(c.min(2))],
                    Builtin::WorkgroupId(c) => ids.group[usize::from(c.min(2))],
                    Builtin::WorkgroupSize(c) => ids.size[usize::from(c.min(2))],
                    Builtin::NumWorkgroups(c) => ids.groups[usize::from(c.min(2))],
                    Builtin::LocalIndex => ids.lane,
                    _ => return Err(unsupported("a non-compute built-in")),
                };
                self.set_results(inv, inst, &[exact(Const::u32(v))]);
            }
            EffectOp::Load(access) => self.load(inv, inst, access)?,
            EffectOp::Store(access) => self.store(inv, inst, access)?,
            EffectOp::Sample(_) | EffectOp::Fetch(_) => {
                let args = self.args(inv, inst)?;
                let vals: Vec<Const> = args.iter().map(|a| a.v).collect();
                let types: Vec<Type> = self.func.insts[inst]
                    .results
                    .iter()
                    .map(|&r| self.func.value_type(r))
                    .collect();
                let texels = texture_op(self.res, op, &vals, &types)
                    .map_err(|source| ShadowError::Texture { inst, source })?;
                let uncertain = args.iter().any(|a| a.e != 0.0)
                    || (self.model.g13
                        && vals
                            .iter()
                            .any(|v| v.ty().is_float() && !v.as_f64().is_finite()));
                let e = if uncertain {
                    UNKNOWN
                } else {
                    self.model.texture()
                };
                let results: Vec<Sv> = texels.into_iter().map(|v| Sv { v, e }).collect();
                self.set_results(inv, inst, &results);
            }
            EffectOp::BufferSize(b) => {
                let len = self.res.buffer_data(b).map_or(0, <[u8]>::len);
                self.set_results(inv, inst, &[exact(Const::u32(len as u32))]);
            }
            _ => return Err(unsupported(op.name())),
        }
        Ok(())
    }

    /// The byte address of an access, if its offset operand is exact.
    fn address(
        &self,
        inv: &Invocation,
        inst: Inst,
        access: MemAccess,
    ) -> Result<(i64, bool), ShadowError> {
        let offset = self.get(inv, inst, self.func.insts[inst].args[0])?;
        let at = i64::from(offset.v.as_u64() as u32 as i32) + i64::from(access.offset);
        Ok((at, offset.e == 0.0))
    }

    fn binding(inst: Inst, access: MemAccess) -> Result<Binding, ShadowError> {
        match access.space {
            AddressSpace::Storage(b) | AddressSpace::Uniform(b) => Ok(b),
            _ => Err(ShadowError::Unsupported {
                inst,
                what: "push-constant or workgroup memory".into(),
            }),
        }
    }

    fn load(
        &mut self,
        inv: &mut Invocation,
        inst: Inst,
        access: MemAccess,
    ) -> Result<(), ShadowError> {
        let binding = Self::binding(inst, access)?;
        if binding == self.layout.output {
            return Err(ShadowError::Unsupported {
                inst,
                what: "loads from the output buffer".into(),
            });
        }
        let data = self
            .res
            .buffer_data(binding)
            .ok_or(ShadowError::MissingBuffer { inst, binding })?;
        let (mut at, exact) = self.address(inv, inst, access)?;
        let mut vals = Vec::new();
        for &r in &self.func.insts[inst].results {
            let ty = self.func.value_type(r);
            let bytes = scalar_bytes(data, at, ty).ok_or(ShadowError::BadAccess {
                inst,
                binding,
                offset: at,
                size: ty.bytes(),
            })?;
            vals.push(Sv {
                v: read_scalar(bytes, ty),
                e: if exact { 0.0 } else { UNKNOWN },
            });
            at += i64::from(ty.bytes());
        }
        self.set_results(inv, inst, &vals);
        Ok(())
    }

    fn store(
        &mut self,
        inv: &mut Invocation,
        inst: Inst,
        access: MemAccess,
    ) -> Result<(), ShadowError> {
        let binding = Self::binding(inst, access)?;
        if binding != self.layout.output {
            return Err(ShadowError::Unsupported {
                inst,
                what: format!("stores to {binding}, which is not the output buffer"),
            });
        }
        let (mut at, exact) = self.address(inv, inst, access)?;
        let args = self.args(inv, inst)?;
        for value in &args[1..] {
            let ty = value.v.ty();
            let len = self.out.len();
            let bytes = scalar_bytes(&self.out, at, ty).ok_or(ShadowError::BadAccess {
                inst,
                binding,
                offset: at,
                size: ty.bytes(),
            })?;
            let n = bytes.len();
            let start = at as usize;
            self.out[start..start + n].copy_from_slice(&value.v.bits().to_le_bytes()[..n]);
            if !exact {
                self.tol.forget(0..len);
            } else if inv.tainted {
                self.tol.forget(start..start + n);
            } else {
                self.tol.store(start, value.v, value.e);
            }
            at += i64::from(ty.bytes());
        }
        Ok(())
    }
}

/// The bytes of a `ty` scalar at `at`, if in bounds and aligned to its size.
fn scalar_bytes(data: &[u8], at: i64, ty: Type) -> Option<&[u8]> {
    let n = ty.bytes() as i64;
    if at < 0 || at % n != 0 {
        return None;
    }
    data.get(at as usize..(at + n) as usize)
}

/// Runs one texture operation in the reference interpreter: a one-invocation function with the
/// operands as constants, the operation, and a store of its results.
fn texture_op(
    res: &Resources,
    op: EffectOp,
    args: &[Const],
    types: &[Type],
) -> Result<Vec<Const>, agxc_egraph::interp::InterpError> {
    let mut func = Function::new("texture_op", Stage::Compute);
    let mut b = Builder::new(&mut func);
    let vals: Vec<Value> = args.iter().map(|&c| b.konst(c)).collect();
    let results = b.effect(op, &vals, types);
    let zero = b.i32(0);
    let mut store_args = vec![zero];
    store_args.extend(results.iter().copied());
    let scratch = MemAccess {
        space: AddressSpace::Storage(SCRATCH),
        offset: 0,
    };
    b.effect(EffectOp::Store(scratch), &store_args, &[]);
    b.return_();

    let (texture, sampler) = match op {
        EffectOp::Sample(s) => (s.texture, Some(s.sampler)),
        EffectOp::Fetch(f) => (f.texture, None),
        _ => (SCRATCH, None),
    };
    let mut run_res = Resources::new();
    if let Some(t) = res.texture(texture) {
        run_res.bind_texture(texture, t.clone());
    }
    if let Some(s) = sampler.and_then(|s| res.sampler(s).map(|v| (s, *v))) {
        run_res.bind_sampler(s.0, s.1);
    }
    let bytes: usize = types.iter().map(|t| t.bytes() as usize).sum();
    run_res.bind_storage(SCRATCH, vec![0; bytes]);
    run_compute(&func, &mut run_res, [1, 1, 1], &Limits::default())?;
    let data = run_res.buffer_data(SCRATCH).unwrap_or(&[]);
    let mut at = 0;
    Ok(types
        .iter()
        .map(|&ty| {
            let c = read_scalar(&data[at..], ty);
            at += ty.bytes() as usize;
            c
        })
        .collect())
}
