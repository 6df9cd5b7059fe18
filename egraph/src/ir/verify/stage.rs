//! Stage rules: operations that only make sense in one kind of shader, and the component ranges
//! of built-ins and stage I/O slots.
//!
//! - Fragment only: derivatives, samples with implicit or biased LOD (they need quad
//!   derivatives), `discard`, `demote`, interpolated inputs, `frag_coord`, `front_facing`,
//!   `helper_invocation`, `output frag_depth`.
//! - Compute only: `barrier workgroup`, workgroup-shared memory (which also needs
//!   `shared(N)` with N > 0), the compute ids and sizes.
//! - Vertex and geometry: `output position` and `point_size`.
//! - Vertex only: `vertex_index`, `instance_index`, flat `input`.
//! - Geometry only: `vertex_input` (with a slot other than `frag_depth`), `emit_vertex` and
//!   `end_primitive` (on streams below [`MAX_VERTEX_STREAMS`]), `primitive_id`,
//!   `invocation_id`; and the geometry modes must be within the limits every implementation
//!   supports (`max_vertices` up to [`MAX_GEOMETRY_OUTPUT_VERTICES`], 1 to
//!   [`MAX_GEOMETRY_INVOCATIONS`] invocations).
//! - No inputs or outputs in compute shaders.

use super::structure::{Event, Walk};
use super::{output_component, Errors, VerifyErrorKind as E};
use crate::ir::effects::{
    AddressSpace, BarrierKind, Builtin, EffectOp, Interp, LodMode, OutputSlot,
};
use crate::ir::entities::Inst;
use crate::ir::function::{Function, Op, Stage, ValueDef};
use crate::ir::geometry::{
    MAX_GEOMETRY_INVOCATIONS, MAX_GEOMETRY_OUTPUT_VERTICES, MAX_VERTEX_STREAMS,
};
use crate::ir::text::syntax;
use crate::ir::types::Type;

/// The stages that allow an operation.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Allowed {
    Fragment,
    Compute,
    Vertex,
    Geometry,
    /// Fragment and vertex.
    FragmentVertex,
    /// Vertex and geometry (the stages that write vertices).
    VertexGeometry,
    /// Every stage but compute.
    Graphics,
}

use Allowed::{
    Compute as COMPUTE, Fragment as FRAGMENT, FragmentVertex as FRAGMENT_VERTEX,
    Geometry as GEOMETRY, Graphics as GRAPHICS, Vertex as VERTEX,
    VertexGeometry as VERTEX_GEOMETRY,
};

impl Allowed {
    fn allows(self, stage: Stage) -> bool {
        let geometry = matches!(stage, Stage::Geometry(_));
        match self {
            Allowed::Fragment => stage == Stage::Fragment,
            Allowed::Compute => stage == Stage::Compute,
            Allowed::Vertex => stage == Stage::Vertex,
            Allowed::Geometry => geometry,
            Allowed::FragmentVertex => matches!(stage, Stage::Fragment | Stage::Vertex),
            Allowed::VertexGeometry => stage == Stage::Vertex || geometry,
            Allowed::Graphics => stage != Stage::Compute,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Allowed::Fragment => "fragment",
            Allowed::Compute => "compute",
            Allowed::Vertex => "vertex",
            Allowed::Geometry => "geometry",
            Allowed::FragmentVertex => "fragment and vertex",
            Allowed::VertexGeometry => "vertex and geometry",
            Allowed::Graphics => "fragment, vertex and geometry",
        }
    }
}

pub(super) fn check(func: &Function, walk: &Walk, errors: &mut Errors) {
    if func.stage == Stage::Compute && func.modes.local_size.contains(&0) {
        errors.at_function(E::ZeroLocalSize(func.modes.local_size));
    }
    if let Stage::Geometry(g) = func.stage {
        if g.max_vertices > MAX_GEOMETRY_OUTPUT_VERTICES {
            errors.at_function(E::GeometryLimit {
                what: "max_vertices",
                value: g.max_vertices,
                min: 0,
                max: MAX_GEOMETRY_OUTPUT_VERTICES,
            });
        }
        if !(1..=MAX_GEOMETRY_INVOCATIONS).contains(&g.invocations) {
            errors.at_function(E::GeometryLimit {
                what: "invocations",
                value: g.invocations,
                min: 1,
                max: MAX_GEOMETRY_INVOCATIONS,
            });
        }
    }
    for event in &walk.events {
        if let Event::Inst(inst) = *event {
            check_inst(func, inst, errors);
        }
    }
}

/// What a stage rule names in its error: kept as the operation's parts and written out only
/// for an error, since every instruction of every verified function is checked (formatting the
/// text each time was a tenth of the verifier's time).
#[derive(Clone, Copy)]
enum What {
    /// An operation by name, quoted.
    Op(&'static str),
    /// A description, as is.
    Text(&'static str),
    SampleLod(LodMode),
    Builtin(Builtin),
    Interpolated(Interp),
    Output(OutputSlot),
}

impl What {
    fn text(self) -> String {
        match self {
            What::Op(name) => format!("`{name}`"),
            What::Text(text) => text.into(),
            What::SampleLod(lod) => format!("`sample` with {} LOD", syntax::lod(lod)),
            What::Builtin(b) => format!("`builtin {}`", syntax::builtin(b)),
            What::Interpolated(i) => format!("`input` with {} interpolation", syntax::interp(i)),
            What::Output(slot) => format!("`output {}`", syntax::output(slot)),
        }
    }
}

/// The stages allowed for one instruction, as `(what, allowed)`; `None` if all are.
fn requirement(op: Op) -> Option<(What, Allowed)> {
    let effect = match op {
        Op::Discard => return Some((What::Op("discard"), FRAGMENT)),
        Op::Effect(e) => e,
        _ => return None,
    };
    match effect {
        EffectOp::VertexInput(_) | EffectOp::EmitVertex(_) | EffectOp::EndPrimitive(_) => {
            Some((What::Op(effect.name()), GEOMETRY))
        }
        EffectOp::Derivative(..) => Some((What::Op(effect.name()), FRAGMENT)),
        EffectOp::Demote => Some((What::Op("demote"), FRAGMENT)),
        EffectOp::Sample(s) if matches!(s.lod, LodMode::Implicit | LodMode::Bias) => {
            Some((What::SampleLod(s.lod), FRAGMENT))
        }
        EffectOp::Barrier(BarrierKind::Workgroup) => Some((What::Op("barrier workgroup"), COMPUTE)),
        EffectOp::Load(a) | EffectOp::Store(a) | EffectOp::Atomic(_, a)
            if a.space == AddressSpace::Workgroup =>
        {
            Some((What::Text("workgroup-shared memory"), COMPUTE))
        }
        EffectOp::Builtin(b) => {
            let allowed = match b {
                Builtin::GlobalId(_)
                | Builtin::LocalId(_)
                | Builtin::WorkgroupId(_)
                | Builtin::WorkgroupSize(_)
                | Builtin::NumWorkgroups(_)
                | Builtin::LocalIndex => COMPUTE,
                Builtin::FragCoord(_) | Builtin::FrontFacing | Builtin::HelperInvocation => {
                    FRAGMENT
                }
                Builtin::VertexIndex | Builtin::InstanceIndex => VERTEX,
                Builtin::PrimitiveId | Builtin::InvocationId => GEOMETRY,
            };
            Some((What::Builtin(b), allowed))
        }
        EffectOp::Input(slot) if slot.interp != Interp::Flat => {
            Some((What::Interpolated(slot.interp), FRAGMENT))
        }
        // A geometry shader's inputs are per vertex: `vertex_input`.
        EffectOp::Input(_) => Some((What::Op("input"), FRAGMENT_VERTEX)),
        EffectOp::Output(slot) => {
            let allowed = match slot {
                OutputSlot::Location { .. } => GRAPHICS,
                OutputSlot::Position(_) | OutputSlot::PointSize => VERTEX_GEOMETRY,
                OutputSlot::FragDepth => FRAGMENT,
            };
            Some((What::Output(slot), allowed))
        }
        _ => None,
    }
}

/// A constant vertex index must name a vertex of the input primitive (a computed one is
/// checked when it runs).
fn check_vertex_index(func: &Function, inst: Inst, errors: &mut Errors) {
    let Some(g) = func.stage.geometry() else {
        return; // reported as a stage error
    };
    let Some(&index) = func.insts[inst].args.first() else {
        return; // reported as a type error
    };
    let Some(ValueDef::Result(def, _)) = func.values.get(index).map(|v| v.def) else {
        return;
    };
    let Some(Op::Const(c)) = func.insts.get(def).map(|d| d.op) else {
        return;
    };
    if c.ty() != Type::I32 {
        return;
    }
    let count = g.input.vertex_count();
    // An i32 constant's sign-extended value fits in i32.
    let value = i32::try_from(c.as_i64()).unwrap_or(i32::MIN);
    if u32::try_from(value).map_or(true, |v| v >= count) {
        errors.at_inst(
            inst,
            E::VertexIndex {
                index: value,
                count,
            },
        );
    }
}

fn check_inst(func: &Function, inst: Inst, errors: &mut Errors) {
    let op = func.insts[inst].op;
    if let Some((what, allowed)) = requirement(op) {
        if !allowed.allows(func.stage) {
            errors.at_inst(
                inst,
                E::WrongStage {
                    what: what.text(),
                    allowed: allowed.name(),
                    stage: func.stage,
                },
            );
        }
    }
    let Op::Effect(effect) = op else { return };
    match effect {
        EffectOp::Load(a) | EffectOp::Store(a) | EffectOp::Atomic(_, a)
            if a.space == AddressSpace::Workgroup && func.shared_memory == 0 =>
        {
            errors.at_inst(inst, E::NoSharedMemory);
        }
        EffectOp::Load(a) | EffectOp::Store(a)
            if a.space == AddressSpace::Private && func.private_bytes == 0 =>
        {
            errors.at_inst(inst, E::NoPrivateMemory);
        }
        EffectOp::Atomic(_, a) if a.space == AddressSpace::Private => {
            errors.at_inst(inst, E::PrivateAtomic);
        }
        EffectOp::Builtin(b) => {
            let (what, component, max) = match b {
                Builtin::GlobalId(c) => ("global_id", c, 2),
                Builtin::LocalId(c) => ("local_id", c, 2),
                Builtin::WorkgroupId(c) => ("workgroup_id", c, 2),
                Builtin::WorkgroupSize(c) => ("workgroup_size", c, 2),
                Builtin::NumWorkgroups(c) => ("num_workgroups", c, 2),
                Builtin::FragCoord(c) => ("frag_coord", c, 3),
                _ => return,
            };
            if component > max {
                errors.at_inst(
                    inst,
                    E::Component {
                        what,
                        component,
                        max,
                    },
                );
            }
        }
        EffectOp::Input(slot) if slot.component > 3 => errors.at_inst(
            inst,
            E::Component {
                what: "an input location",
                component: slot.component,
                max: 3,
            },
        ),
        EffectOp::VertexInput(OutputSlot::FragDepth) => {
            errors.at_inst(inst, E::NotAVertexSlot);
        }
        EffectOp::VertexInput(slot) => {
            check_vertex_index(func, inst, errors);
            check_slot_component(slot, inst, errors);
        }
        EffectOp::EmitVertex(stream) | EffectOp::EndPrimitive(stream)
            if stream >= MAX_VERTEX_STREAMS =>
        {
            errors.at_inst(
                inst,
                E::Component {
                    what: "a vertex stream",
                    component: stream,
                    max: MAX_VERTEX_STREAMS - 1,
                },
            );
        }
        EffectOp::Output(slot) => check_slot_component(slot, inst, errors),
        _ => {}
    }
}

fn check_slot_component(slot: OutputSlot, inst: Inst, errors: &mut Errors) {
    if let Some((what, component)) = output_component(slot) {
        if component > 3 {
            errors.at_inst(
                inst,
                E::Component {
                    what,
                    component,
                    max: 3,
                },
            );
        }
    }
}
