//! Stage inputs and outputs.
//!
//! - An Input variable is read once, in the prologue: built-ins become `builtin` reads, other
//!   inputs one `input` per scalar at consecutive locations (a vector fills one location from its
//!   `Component`; matrix columns and array elements take one location each; structure members
//!   follow each other unless they carry their own `Location`). Fragment inputs interpolate
//!   `perspective` unless decorated `Flat` or `NoPerspective`; vertex inputs are `flat`.
//!   `HelperInvocation` changes when the invocation demotes, so it is read where it is used.
//! - Output variables are promoted like Function variables and written out (`output`) where the
//!   entry point returns. Only the scalars some store may reach are written; a written built-in
//!   without an IR output slot (`ClipDistance`, `SampleMask`, ...) is rejected.

use super::context::Lowerer;
use super::error::SpirvError;
use super::module::{Id, Inst};
use super::types::Ty;
use super::value::{Agg, Key};
use agxc_egraph::ir::{
    Builtin, EffectOp, InputSlot, Interp, Op as IrOp, OutputSlot, Stage, Type, Value,
};
use rspirv::dr::Operand;
use spirv::{BuiltIn, Decoration, Op, StorageClass};
use std::collections::HashMap;

/// An Output variable's scalars that are written, and where each goes.
#[derive(Clone, Debug)]
pub(crate) struct OutputVar {
    pub var: Id,
    pub slots: Vec<(usize, OutputSlot)>,
}

impl<'m> Lowerer<'m> {
    /// The value of an Input variable.
    pub fn input_agg(&mut self, var: Id, at: &Inst) -> Result<Agg, SpirvError> {
        if let Some(a) = self.input_aggs.get(&var) {
            return Ok(a.clone());
        }
        let info = self
            .vars
            .get(&var)
            .copied()
            .ok_or_else(|| at.unknown_id(var))?;
        if self.stage.geometry().is_some() && self.decos.builtin(var).is_none() {
            let a = self.vertex_input_agg(var, info.pointee, at)?;
            self.input_aggs.insert(var, a.clone());
            return Ok(a);
        }
        if let Some(b) = self.decos.builtin(var) {
            if b == BuiltIn::HelperInvocation {
                self.check_builtin_stage(at, Stage::Fragment, b)?;
                let v = self.effect(
                    EffectOp::Builtin(Builtin::HelperInvocation),
                    &[],
                    &[Type::Bool],
                )[0];
                return Ok(Agg::Scalar(v));
            }
            let a = self.builtin_input(b, info.pointee, at)?;
            self.input_aggs.insert(var, a.clone());
            return Ok(a);
        }
        let mut location = self
            .decos
            .literal(var, Decoration::Location)
            .ok_or_else(|| at.invalid(format!("input %{var} has neither BuiltIn nor Location")))?;
        let component = self.decos.literal(var, Decoration::Component).unwrap_or(0);
        let interp = self.interp_of(
            self.decos.has(var, Decoration::Flat),
            self.decos.has(var, Decoration::NoPerspective),
        );
        let a = self.location_input(at, info.pointee, &mut location, component, interp, None, 0)?;
        self.input_aggs.insert(var, a.clone());
        Ok(a)
    }

    fn interp_of(&self, flat: bool, linear: bool) -> Interp {
        if self.stage != Stage::Fragment || flat {
            Interp::Flat
        } else if linear {
            Interp::Linear
        } else {
            Interp::Perspective
        }
    }

    fn check_builtin_stage(&self, at: &Inst, stage: Stage, b: BuiltIn) -> Result<(), SpirvError> {
        if self.stage != stage {
            return Err(at.invalid(format!("built-in {b:?} in a {} shader", self.stage.name())));
        }
        Ok(())
    }

    fn builtin_input(&mut self, b: BuiltIn, ty: Id, at: &Inst) -> Result<Agg, SpirvError> {
        let xyz = |f: fn(u8) -> Builtin| (0..3).map(f).collect::<Vec<_>>();
        let (stage, comps) = match b {
            BuiltIn::GlobalInvocationId => (Stage::Compute, xyz(Builtin::GlobalId)),
            BuiltIn::LocalInvocationId => (Stage::Compute, xyz(Builtin::LocalId)),
            BuiltIn::WorkgroupId => (Stage::Compute, xyz(Builtin::WorkgroupId)),
            BuiltIn::NumWorkgroups => (Stage::Compute, xyz(Builtin::NumWorkgroups)),
            BuiltIn::WorkgroupSize => (Stage::Compute, xyz(Builtin::WorkgroupSize)),
            BuiltIn::LocalInvocationIndex => (Stage::Compute, vec![Builtin::LocalIndex]),
            BuiltIn::FragCoord => (Stage::Fragment, (0..4).map(Builtin::FragCoord).collect()),
            BuiltIn::FrontFacing => (Stage::Fragment, vec![Builtin::FrontFacing]),
            BuiltIn::VertexIndex => (Stage::Vertex, vec![Builtin::VertexIndex]),
            BuiltIn::InstanceIndex => (Stage::Vertex, vec![Builtin::InstanceIndex]),
            BuiltIn::PrimitiveId if self.stage.geometry().is_some() => {
                (self.stage, vec![Builtin::PrimitiveId])
            }
            BuiltIn::InvocationId if self.stage.geometry().is_some() => {
                (self.stage, vec![Builtin::InvocationId])
            }
            other => return Err(at.unsupported(format!("built-in input {other:?}"))),
        };
        self.check_builtin_stage(at, stage, b)?;
        let (scalar, count) = self.types.components(ty, at)?;
        if count != comps.len() {
            return Err(at.mismatch(format!("built-in {b:?} declared with {count} components")));
        }
        let mut values = Vec::new();
        for c in comps {
            let v = self.invariant_read(EffectOp::Builtin(c), c.ty());
            if c.ty() != scalar {
                return Err(at.mismatch(format!(
                    "built-in {b:?} declared as {scalar}, it is {}",
                    c.ty()
                )));
            }
            values.push(v);
        }
        Ok(if self.types.is_vector(ty) {
            Agg::vector(values)
        } else {
            Agg::Scalar(values[0])
        })
    }

    /// An input at consecutive locations; with `vertex`, a geometry shader's per-vertex input
    /// of that vertex (`vertex_input`).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn location_input(
        &mut self,
        at: &Inst,
        ty: Id,
        location: &mut u32,
        component: u32,
        interp: Interp,
        vertex: Option<Value>,
        depth: u32,
    ) -> Result<Agg, SpirvError> {
        if depth > 16 {
            return Err(at.invalid("input type nests too deeply"));
        }
        match self.types.get(ty, at)?.clone() {
            Ty::Bool => Err(at.invalid("boolean stage input")),
            Ty::Int { .. } | Ty::Float { .. } | Ty::Vector { .. } => {
                let (scalar, count) = self.types.components(ty, at)?;
                if scalar == Type::Bool || component as usize + count > 4 {
                    return Err(at.invalid("input does not fit its location"));
                }
                let mut values = Vec::new();
                for c in 0..count {
                    let (location, component) = (*location, (component as usize + c) as u8);
                    values.push(match vertex {
                        Some(v) => {
                            let slot = OutputSlot::Location {
                                location,
                                component,
                            };
                            let op = IrOp::Effect(EffectOp::VertexInput(slot));
                            self.prologue_append(op, &[v], &[scalar])[0]
                        }
                        None => {
                            let slot = InputSlot {
                                location,
                                component,
                                interp,
                            };
                            self.invariant_read(EffectOp::Input(slot), scalar)
                        }
                    });
                }
                *location = location
                    .checked_add(1)
                    .ok_or_else(|| at.invalid("location out of range"))?;
                Ok(if self.types.is_vector(ty) {
                    Agg::vector(values)
                } else {
                    Agg::Scalar(values[0])
                })
            }
            Ty::Matrix { .. } | Ty::Array { .. } => {
                let mut items = Vec::new();
                for child in self.types.children(ty, at)? {
                    items.push(self.location_input(
                        at,
                        child,
                        location,
                        component,
                        interp,
                        vertex,
                        depth + 1,
                    )?);
                }
                Ok(Agg::composite(items))
            }
            Ty::Struct { members } => {
                let mut items = Vec::new();
                for (i, &m) in members.iter().enumerate() {
                    if let Some(l) = self
                        .decos
                        .member_literal(ty, i as u32, Decoration::Location)
                    {
                        *location = l;
                    }
                    let flat = self.decos.member(ty, i as u32, Decoration::Flat).is_some();
                    let linear = self
                        .decos
                        .member(ty, i as u32, Decoration::NoPerspective)
                        .is_some();
                    let member_interp = if flat || linear {
                        self.interp_of(flat, linear)
                    } else {
                        interp
                    };
                    let c = self
                        .decos
                        .member_literal(ty, i as u32, Decoration::Component)
                        .unwrap_or(0);
                    items.push(self.location_input(
                        at,
                        m,
                        location,
                        c,
                        member_interp,
                        vertex,
                        depth + 1,
                    )?);
                }
                Ok(Agg::composite(items))
            }
            other => Err(at.unsupported(format!("stage input of type {other:?}"))),
        }
    }

    /// Decides which Output scalars are written and where they go.
    pub fn collect_outputs(&mut self, interface: &[Id]) -> Result<(), SpirvError> {
        let m = self.m;
        let written = self.written_output_leaves();
        let mut outputs = Vec::new();
        for inst in m.globals.iter().filter(|i| i.opcode == Op::Variable) {
            let var = inst.result()?;
            let Some(info) = self.vars.get(&var).copied() else {
                continue;
            };
            if info.class != StorageClass::Output || !interface.contains(&var) {
                continue;
            }
            let Some(mask) = written.get(&var) else {
                continue;
            };
            let slots = self.output_slots(inst, var, info.pointee)?;
            let mut used = Vec::new();
            for (leaf, slot) in slots.into_iter().enumerate() {
                if !mask.get(leaf).copied().unwrap_or(false) {
                    continue;
                }
                match slot {
                    Ok(s) => used.push((leaf, s)),
                    Err(what) => return Err(inst.unsupported(what)),
                }
            }
            outputs.push(OutputVar { var, slots: used });
        }
        self.outputs = outputs;
        Ok(())
    }

    /// Where each scalar of an Output variable goes (`Err` names an unsupported built-in).
    fn output_slots(
        &self,
        at: &Inst,
        var: Id,
        ty: Id,
    ) -> Result<Vec<Result<OutputSlot, String>>, SpirvError> {
        let leaves = self.types.leaf_types(ty, at)?.len();
        if let Some(b) = self.decos.builtin(var) {
            return self.builtin_output(at, b, leaves);
        }
        let mut out = Vec::new();
        if let Ty::Struct { members } = self.types.get(ty, at)?.clone() {
            if members
                .iter()
                .enumerate()
                .any(|(i, _)| self.decos.member_builtin(ty, i as u32).is_some())
            {
                for (i, &mty) in members.iter().enumerate() {
                    let n = self.types.leaf_types(mty, at)?.len();
                    match self.decos.member_builtin(ty, i as u32) {
                        Some(b) => out.extend(self.builtin_output(at, b, n)?),
                        None => {
                            out.extend((0..n).map(|_| {
                                Err("an output block member without a built-in".to_string())
                            }))
                        }
                    }
                }
                return Ok(out);
            }
        }
        let mut location = self
            .decos
            .literal(var, Decoration::Location)
            .ok_or_else(|| at.invalid(format!("output %{var} has neither BuiltIn nor Location")))?;
        let component = self.decos.literal(var, Decoration::Component).unwrap_or(0);
        self.location_slots(at, ty, &mut location, component, &mut out, 0)?;
        Ok(out)
    }

    fn builtin_output(
        &self,
        at: &Inst,
        b: BuiltIn,
        leaves: usize,
    ) -> Result<Vec<Result<OutputSlot, String>>, SpirvError> {
        let check = |stage: Stage| self.check_builtin_stage(at, stage, b);
        // Vertex and geometry shaders write vertices.
        let check_vertex = || match self.stage.geometry() {
            Some(_) => Ok(()),
            None => check(Stage::Vertex),
        };
        Ok(match b {
            BuiltIn::Position if leaves == 4 => {
                check_vertex()?;
                (0..4).map(|c| Ok(OutputSlot::Position(c))).collect()
            }
            BuiltIn::PointSize if leaves == 1 => {
                check_vertex()?;
                vec![Ok(OutputSlot::PointSize)]
            }
            BuiltIn::FragDepth if leaves == 1 => {
                check(Stage::Fragment)?;
                vec![Ok(OutputSlot::FragDepth)]
            }
            BuiltIn::Position | BuiltIn::PointSize | BuiltIn::FragDepth => {
                return Err(at.mismatch(format!("built-in {b:?} of the wrong size")))
            }
            other => (0..leaves)
                .map(|_| Err(format!("writing built-in {other:?}")))
                .collect(),
        })
    }

    fn location_slots(
        &self,
        at: &Inst,
        ty: Id,
        location: &mut u32,
        component: u32,
        out: &mut Vec<Result<OutputSlot, String>>,
        depth: u32,
    ) -> Result<(), SpirvError> {
        if depth > 16 {
            return Err(at.invalid("output type nests too deeply"));
        }
        match self.types.get(ty, at)?.clone() {
            Ty::Int { .. } | Ty::Float { .. } | Ty::Vector { .. } => {
                let (_, count) = self.types.components(ty, at)?;
                if component as usize + count > 4 {
                    return Err(at.invalid("output does not fit its location"));
                }
                for c in 0..count {
                    out.push(Ok(OutputSlot::Location {
                        location: *location,
                        component: (component as usize + c) as u8,
                    }));
                }
                *location = location
                    .checked_add(1)
                    .ok_or_else(|| at.invalid("location out of range"))?;
            }
            Ty::Matrix { .. } | Ty::Array { .. } => {
                for child in self.types.children(ty, at)? {
                    self.location_slots(at, child, location, component, out, depth + 1)?;
                }
            }
            Ty::Struct { members } => {
                for (i, &m) in members.iter().enumerate() {
                    if let Some(l) = self
                        .decos
                        .member_literal(ty, i as u32, Decoration::Location)
                    {
                        *location = l;
                    }
                    let c = self
                        .decos
                        .member_literal(ty, i as u32, Decoration::Component)
                        .unwrap_or(0);
                    self.location_slots(at, m, location, c, out, depth + 1)?;
                }
            }
            other => return Err(at.invalid(format!("stage output of type {other:?}"))),
        }
        Ok(())
    }

    /// For each Output variable, which of its scalars some store (or call, or extended
    /// instruction writing through a pointer) may reach, from the constant indices of the
    /// access chains leading to it.
    fn written_output_leaves(&self) -> HashMap<Id, Vec<bool>> {
        let mut paths: HashMap<Id, (Id, Vec<Option<u32>>)> = HashMap::new();
        for (&v, info) in &self.vars {
            if info.class == StorageClass::Output {
                paths.insert(v, (v, Vec::new()));
            }
        }
        let mut written: HashMap<Id, Vec<bool>> = HashMap::new();
        let constant = |id: Id| match self.consts.get(&id) {
            Some(super::constants::ConstVal::Scalar(c)) if c.ty().is_int() => {
                u32::try_from(c.as_u64()).ok()
            }
            _ => None,
        };
        for f in &self.m.functions {
            for b in &f.blocks {
                for inst in &b.insts {
                    match inst.opcode {
                        Op::AccessChain | Op::InBoundsAccessChain | Op::CopyObject => {
                            let (Ok(base), Some(r)) = (inst.id(0), inst.result_id) else {
                                continue;
                            };
                            let Some((root, path)) = paths.get(&base).cloned() else {
                                continue;
                            };
                            let mut path = path;
                            for op in inst.operands.iter().skip(1) {
                                if let Operand::IdRef(ix) = op {
                                    path.push(constant(*ix));
                                }
                            }
                            paths.insert(r, (root, path));
                        }
                        Op::Store | Op::CopyMemory => {
                            if let Ok(p) = inst.id(0) {
                                self.mark_written(&paths, p, &mut written);
                            }
                        }
                        Op::FunctionCall | Op::ExtInst => {
                            for op in &inst.operands {
                                if let Operand::IdRef(p) = op {
                                    self.mark_written(&paths, *p, &mut written);
                                }
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
        written
    }

    fn mark_written(
        &self,
        paths: &HashMap<Id, (Id, Vec<Option<u32>>)>,
        ptr: Id,
        written: &mut HashMap<Id, Vec<bool>>,
    ) {
        let Some((root, path)) = paths.get(&ptr) else {
            return;
        };
        let Some(info) = self.vars.get(root) else {
            return;
        };
        let Some(at) = self.m.globals.first() else {
            return;
        };
        let Ok(total) = self.types.leaf_types(info.pointee, at).map(|l| l.len()) else {
            return;
        };
        let range = self.leaf_range(info.pointee, path, at).unwrap_or(0..total);
        let mask = written.entry(*root).or_insert_with(|| vec![false; total]);
        for i in range {
            if let Some(m) = mask.get_mut(i) {
                *m = true;
            }
        }
    }

    /// The leaves (flattened scalars) a constant path selects; `None` for dynamic steps turns
    /// into the whole subtree at that point.
    fn leaf_range(
        &self,
        ty: Id,
        path: &[Option<u32>],
        at: &Inst,
    ) -> Option<core::ops::Range<usize>> {
        let count = |t: Id| self.types.leaf_types(t, at).ok().map(|l| l.len());
        let mut start = 0;
        let mut ty = ty;
        for step in path {
            let Some(i) = step else {
                return Some(start..start + count(ty)?);
            };
            let children = self.types.children(ty, at).ok()?;
            for &c in children.iter().take(*i as usize) {
                start += count(c)?;
            }
            ty = *children.get(*i as usize)?;
        }
        Some(start..start + count(ty)?)
    }

    /// Writes every written Output scalar at the entry point's returns (a geometry shader's
    /// outputs leave through its emitted vertices instead).
    pub fn emit_outputs(&mut self, at: &Inst) -> Result<(), SpirvError> {
        if self.stage.geometry().is_some() {
            return Ok(());
        }
        self.write_outputs(at, None)
    }

    /// Writes every written Output scalar from its current value; with `stream`, only those
    /// of that vertex stream (SPIR-V `Stream` decoration, 0 when absent).
    pub fn write_outputs(&mut self, at: &Inst, stream: Option<u32>) -> Result<(), SpirvError> {
        let outputs = self.outputs.clone();
        for o in &outputs {
            let own = self.decos.literal(o.var, Decoration::Stream).unwrap_or(0);
            if stream.is_some_and(|s| s != own) {
                continue;
            }
            let value = self
                .env
                .get(Key::Var(o.var))
                .cloned()
                .ok_or_else(|| at.invalid(format!("output %{} lost its value", o.var)))?;
            let mut leaves: Vec<Value> = Vec::new();
            value.leaves(&mut leaves);
            for &(leaf, slot) in &o.slots {
                let v = *leaves
                    .get(leaf)
                    .ok_or_else(|| at.invalid("output shape changed"))?;
                if self.ty(v) == Type::Bool {
                    return Err(at.invalid("boolean stage output"));
                }
                self.effect(EffectOp::Output(slot), &[v], &[]);
            }
        }
        Ok(())
    }
}
