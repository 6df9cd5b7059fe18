//! The shadow run's executor: the reference interpreter's own run, observed instruction by
//! instruction (`agxc_egraph::interp::Observer`), with a bound kept beside each value per lane.
//!
//! The interpreter walks the control flow and computes every value (its output is the
//! reference); this module supplies only what the bounds add per instruction: the transfer of
//! bounds through pure operations ([`propagate`]), loads, stores and texture operations, the
//! passing of bounds along `yield`, `break`, `continue` and loop entry (the same values the
//! interpreter passes), and what an uncertain branch condition does (module docs of `bounds`).
//! Reusing the interpreter's walk means the bounds follow exactly the path the reference took.
//!
//! The generated programs' invocations do not communicate (no barriers, shared memory or
//! derivatives), so an invocation is a lane of its workgroup's lockstep batch; its linear
//! global index (x fastest) names the output region it owns.

use super::private::PrivateBounds;
use super::propagate;
use super::{Layout, ShadowError, ShadowRun, Sv, Tolerances};
use crate::equiv::model::{ErrorModel, UNKNOWN};
use agxc_egraph::interp::{run_compute_observed, Limits, Observer, Resources, Run};
use agxc_egraph::ir::{
    AddressSpace, Binding, Block, Builtin, EffectOp, Function, Inst, MemAccess, Op, Value,
};
use std::collections::{HashMap, HashSet};

pub(super) fn run(
    func: &Function,
    res: &Resources,
    groups: [u32; 3],
    layout: &Layout,
    model: &ErrorModel,
) -> Result<ShadowRun, ShadowError> {
    let mut res = res.clone();
    let len = res.buffer_data(layout.output).map_or(0, <[u8]>::len);
    let mut shadow = Shadow {
        model,
        layout,
        tol: Tolerances::new(len),
        branchy: branchy_ifs(func),
        owner: owners(func),
        groups,
        flips: 0,
        e: Vec::new(),
        tainted: HashSet::new(),
        uncertain: Vec::new(),
        loops: Vec::new(),
        private: PrivateBounds::new(func.private_bytes),
        error: None,
    };
    let result = run_compute_observed(func, &mut res, groups, &Limits::default(), &mut shadow);
    if let Some(e) = shadow.error.take() {
        return Err(e);
    }
    result.map_err(ShadowError::Interp)?;
    Ok(ShadowRun {
        output: res
            .buffer_data(layout.output)
            .map(<[u8]>::to_vec)
            .unwrap_or_default(),
        tolerances: shadow.tol,
        flips: shadow.flips,
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

/// For each `yield`, the `if` whose results it sets.
fn owners(func: &Function) -> HashMap<Inst, Inst> {
    let mut out = HashMap::new();
    for (block, data) in func.blocks.iter() {
        let Some(parent) = data.parent else { continue };
        for &inst in &func.blocks[block].insts {
            if func.insts[inst].op == Op::Yield {
                out.insert(inst, parent);
            }
        }
    }
    out
}

struct Shadow<'a> {
    model: &'a ErrorModel,
    layout: &'a Layout,
    tol: Tolerances,
    branchy: HashSet<Inst>,
    owner: HashMap<Inst, Inst>,
    groups: [u32; 3],
    flips: u32,
    /// The bound of each value (by index) on each lane of the current workgroup.
    e: Vec<Vec<f64>>,
    /// Invocations (linear global index) whose output region is unknown from now on: a branch
    /// that stores or exits may have gone the other way.
    tainted: HashSet<usize>,
    /// For each `if` being run (innermost last), the lanes whose condition may flip.
    uncertain: Vec<Vec<usize>>,
    /// The loops being run, innermost last.
    loops: Vec<Inst>,
    /// What the invocations' private memory holds.
    private: PrivateBounds,
    /// Why the run was stopped, for the caller.
    error: Option<ShadowError>,
}

impl Shadow<'_> {
    fn fail(&mut self, e: ShadowError) -> Result<(), String> {
        let text = e.to_string();
        self.error = Some(e);
        Err(text)
    }

    fn bound(&self, v: Value, lane: usize) -> f64 {
        self.e
            .get(v.as_u32() as usize)
            .and_then(|b| b.get(lane))
            .copied()
            .unwrap_or(0.0)
    }

    fn set(&mut self, v: Value, lanes: usize, lane: usize, e: f64) {
        let k = v.as_u32() as usize;
        if self.e.len() <= k {
            self.e.resize(k + 1, Vec::new());
        }
        let slot = &mut self.e[k];
        if slot.len() != lanes {
            *slot = vec![0.0; lanes];
        }
        slot[lane] = e;
    }

    /// Passes the bounds of `from` to `to` on `lanes` (as the interpreter passes the values).
    fn pass(&mut self, run: &Run<'_>, lanes: &[usize], from: &[Value], to: &[Value]) {
        for &lane in lanes {
            let row: Vec<f64> = from.iter().map(|&v| self.bound(v, lane)).collect();
            for (&v, e) in to.iter().zip(row) {
                self.set(v, run.lanes(), lane, e);
            }
        }
    }

    /// The linear global index of `lane`.
    fn index(&self, run: &Run<'_>, lane: usize) -> usize {
        let g = run.group();
        let n = self.groups.map(|c| c as usize);
        ((g[2] as usize * n[1] + g[1] as usize) * n[0] + g[0] as usize) * run.lanes() + lane
    }

    fn taint(&mut self, run: &Run<'_>, lane: usize) {
        let index = self.index(run, lane);
        self.tainted.insert(index);
        let start = index * self.layout.invocation_bytes;
        self.tol.forget(start..start + self.layout.invocation_bytes);
    }

    fn unsupported(&mut self, inst: Inst, what: impl Into<String>) -> Result<(), String> {
        self.fail(ShadowError::Unsupported {
            inst,
            what: what.into(),
        })
    }

    /// The buffer an access goes to, if the shadow run supports it.
    fn binding(access: MemAccess) -> Option<Binding> {
        match access.space {
            AddressSpace::Storage(b) | AddressSpace::Uniform(b) => Some(b),
            _ => None,
        }
    }

    /// Refuses what the bounds cannot follow, before it runs.
    fn check(&mut self, inst: Inst, op: Op) -> Result<(), String> {
        let Op::Effect(effect) = op else {
            return match op {
                Op::Discard => self.unsupported(inst, "discard"),
                _ => Ok(()),
            };
        };
        match effect {
            EffectOp::Builtin(b) => match b {
                Builtin::GlobalId(_)
                | Builtin::LocalId(_)
                | Builtin::WorkgroupId(_)
                | Builtin::WorkgroupSize(_)
                | Builtin::NumWorkgroups(_)
                | Builtin::LocalIndex => Ok(()),
                _ => self.unsupported(inst, "a non-compute built-in"),
            },
            // The function's own read-only data: exact, like an input buffer.
            EffectOp::Load(access) if access.space == AddressSpace::Constant => Ok(()),
            // Each invocation's own memory, followed byte by byte (`private`).
            EffectOp::Load(access) | EffectOp::Store(access)
                if access.space == AddressSpace::Private =>
            {
                Ok(())
            }
            EffectOp::Load(access) | EffectOp::Store(access) if Self::binding(access).is_none() => {
                self.unsupported(inst, "push-constant or workgroup memory")
            }
            EffectOp::Load(access) => {
                if Self::binding(access) == Some(self.layout.output) {
                    return self.unsupported(inst, "loads from the output buffer");
                }
                Ok(())
            }
            EffectOp::Store(access) => {
                let binding = Self::binding(access).unwrap_or(self.layout.output);
                if binding != self.layout.output {
                    return self.unsupported(
                        inst,
                        format!("stores to {binding}, which is not the output buffer"),
                    );
                }
                Ok(())
            }
            EffectOp::Sample(_) | EffectOp::Fetch(_) | EffectOp::BufferSize(_) => Ok(()),
            _ => self.unsupported(inst, effect.name()),
        }
    }

    /// The bounds of an effect's results, and the tolerances of what it stored.
    fn effect(&mut self, run: &Run<'_>, inst: Inst, effect: EffectOp, lanes: &[usize]) {
        let func = run.func();
        let data = &func.insts[inst];
        let n = run.lanes();
        match effect {
            EffectOp::Load(access) | EffectOp::Store(access)
                if access.space == AddressSpace::Private =>
            {
                self.private_access(run, inst, access, lanes);
            }
            EffectOp::Load(_) => {
                for &lane in lanes {
                    let e = if self.bound(data.args[0], lane) == 0.0 {
                        0.0
                    } else {
                        UNKNOWN
                    };
                    for &r in &data.results {
                        self.set(r, n, lane, e);
                    }
                }
            }
            EffectOp::Store(access) => {
                let len = self.tol.bytes.len();
                for &lane in lanes {
                    let offset = run.value(data.args[0], lane).map_or(0, |c| c.as_u64());
                    let mut at = i64::from(offset as u32 as i32) + i64::from(access.offset);
                    let exact = self.bound(data.args[0], lane) == 0.0;
                    let tainted = self.tainted.contains(&self.index(run, lane));
                    for &v in &data.args[1..] {
                        let Some(value) = run.value(v, lane) else {
                            continue;
                        };
                        let size = value.ty().bytes() as usize;
                        let start = at.max(0) as usize;
                        if !exact {
                            self.tol.forget(0..len);
                        } else if tainted {
                            self.tol.forget(start..start + size);
                        } else {
                            let e = self.bound(v, lane);
                            self.tol.store(start, value, e);
                        }
                        at += size as i64;
                    }
                }
            }
            EffectOp::Sample(_) | EffectOp::Fetch(_) => {
                for &lane in lanes {
                    let uncertain = data.args.iter().any(|&a| {
                        self.bound(a, lane) != 0.0
                            || (self.model.g13
                                && run
                                    .value(a, lane)
                                    .is_some_and(|v| v.ty().is_float() && !v.as_f64().is_finite()))
                    });
                    let e = if uncertain {
                        UNKNOWN
                    } else {
                        self.model.texture()
                    };
                    for &r in &data.results {
                        self.set(r, n, lane, e);
                    }
                }
            }
            // Built-ins and buffer sizes are exact.
            _ => {
                for &lane in lanes {
                    for &r in &data.results {
                        self.set(r, n, lane, 0.0);
                    }
                }
            }
        }
    }
}

impl Shadow<'_> {
    /// A private load's bounds from what the bytes it reads hold, or a private store's
    /// bounds kept in them; with an uncertain offset, the loaded values are unknown and a
    /// store may have changed any byte.
    fn private_access(&mut self, run: &Run<'_>, inst: Inst, access: MemAccess, lanes: &[usize]) {
        let data = &run.func().insts[inst];
        let store = matches!(data.op, Op::Effect(EffectOp::Store(_)));
        let n = run.lanes();
        for &lane in lanes {
            let invocation = self.index(run, lane);
            let offset = run.value(data.args[0], lane).map_or(0, |c| c.as_u64());
            let mut at = i64::from(offset as u32 as i32) + i64::from(access.offset);
            let exact = self.bound(data.args[0], lane) == 0.0;
            let values = if store {
                &data.args[1..]
            } else {
                &data.results[..]
            };
            for &v in values {
                let Some(value) = run.value(v, lane) else {
                    continue;
                };
                match (store, exact) {
                    (true, true) => {
                        let e = self.bound(v, lane);
                        self.private.store(invocation, at, value, e);
                    }
                    (true, false) => self.private.forget(invocation),
                    (false, true) => {
                        let e = self.private.load(invocation, at, value.ty());
                        self.set(v, n, lane, e);
                    }
                    (false, false) => self.set(v, n, lane, UNKNOWN),
                }
                at += i64::from(value.ty().bytes());
            }
        }
    }
}

impl Observer for Shadow<'_> {
    fn before(&mut self, run: &Run<'_>, inst: Inst, lanes: &[usize]) -> Result<(), String> {
        let func = run.func();
        let data = &func.insts[inst];
        self.check(inst, data.op)?;
        match data.op {
            Op::If => {
                let mut uncertain = Vec::new();
                for &lane in lanes {
                    if self.bound(data.args[0], lane) != 0.0 {
                        self.flips += 1;
                        if self.branchy.contains(&inst) {
                            self.taint(run, lane);
                        }
                        uncertain.push(lane);
                    }
                }
                self.uncertain.push(uncertain);
            }
            Op::Loop => {
                let Some(&body) = data.blocks.first() else {
                    return self.fail(ShadowError::Malformed {
                        inst,
                        reason: "a loop owns one body block",
                    });
                };
                self.loops.push(inst);
                self.pass(run, lanes, &data.args, &func.blocks[body].params);
            }
            _ => {}
        }
        Ok(())
    }

    fn after(&mut self, run: &Run<'_>, inst: Inst, lanes: &[usize]) -> Result<(), String> {
        let func = run.func();
        let data = &func.insts[inst];
        let n = run.lanes();
        match data.op {
            Op::Pure(op) => {
                let ty = func.value_type(data.results[0]);
                for &lane in lanes {
                    let mut args = Vec::with_capacity(data.args.len());
                    for &a in &data.args {
                        let Some(v) = run.value(a, lane) else {
                            return self.fail(ShadowError::Malformed {
                                inst,
                                reason: "an operand has no value",
                            });
                        };
                        args.push(Sv {
                            v,
                            e: self.bound(a, lane),
                        });
                    }
                    let r = propagate::pure(op, data.flags, &args, ty, self.model);
                    self.set(data.results[0], n, lane, r.e);
                }
            }
            Op::Custom(_) => {
                for &lane in lanes {
                    let exact = data.args.iter().all(|&a| self.bound(a, lane) == 0.0);
                    self.set(data.results[0], n, lane, if exact { 0.0 } else { UNKNOWN });
                }
            }
            Op::Const(_) => {
                for &lane in lanes {
                    self.set(data.results[0], n, lane, 0.0);
                }
            }
            Op::Effect(effect) => self.effect(run, inst, effect, lanes),
            Op::If => {
                let uncertain = self.uncertain.pop().unwrap_or_default();
                for lane in uncertain {
                    for &r in &data.results {
                        self.set(r, n, lane, UNKNOWN);
                    }
                }
            }
            Op::Loop => {
                self.loops.pop();
            }
            Op::Yield => {
                if let Some(&owner) = self.owner.get(&inst) {
                    self.pass(run, lanes, &data.args, &func.insts[owner].results);
                }
            }
            Op::Break => {
                if let Some(&l) = self.loops.last() {
                    self.pass(run, lanes, &data.args, &func.insts[l].results);
                }
            }
            Op::Continue => {
                if let Some(body) = self
                    .loops
                    .last()
                    .and_then(|&l| func.insts[l].blocks.first())
                {
                    self.pass(run, lanes, &data.args, &func.blocks[*body].params);
                }
            }
            Op::Return | Op::Discard => {}
        }
        Ok(())
    }
}
