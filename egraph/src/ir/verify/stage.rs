//! Stage rules: operations that only make sense in one kind of shader, and the component ranges
//! of built-ins and stage I/O slots.
//!
//! - Fragment only: derivatives, samples with implicit or biased LOD (they need quad
//!   derivatives), `discard`, `demote`, interpolated inputs, `frag_coord`, `front_facing`,
//!   `helper_invocation`, `output frag_depth`.
//! - Compute only: `barrier workgroup`, workgroup-shared memory (which also needs
//!   `shared(N)` with N > 0), the compute ids and sizes.
//! - Vertex only: `vertex_index`, `instance_index`, `output position` and `point_size`.
//! - No inputs or outputs in compute shaders.

use super::structure::{Event, Walk};
use super::{output_component, Errors, VerifyErrorKind as E};
use crate::ir::effects::{
    AddressSpace, BarrierKind, Builtin, EffectOp, Interp, LodMode, OutputSlot,
};
use crate::ir::entities::Inst;
use crate::ir::function::{Function, Op, Stage};
use crate::ir::text::syntax;

/// The stages that allow an operation.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Allowed {
    Fragment,
    Compute,
    Vertex,
    /// Fragment and vertex.
    Graphics,
}

use Allowed::{Compute as COMPUTE, Fragment as FRAGMENT, Graphics as GRAPHICS, Vertex as VERTEX};

impl Allowed {
    fn allows(self, stage: Stage) -> bool {
        match self {
            Allowed::Fragment => stage == Stage::Fragment,
            Allowed::Compute => stage == Stage::Compute,
            Allowed::Vertex => stage == Stage::Vertex,
            Allowed::Graphics => stage != Stage::Compute,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Allowed::Fragment => "fragment",
            Allowed::Compute => "compute",
            Allowed::Vertex => "vertex",
            Allowed::Graphics => "fragment and vertex",
        }
    }
}

pub(super) fn check(func: &Function, walk: &Walk, errors: &mut Errors) {
    if func.stage == Stage::Compute && func.modes.local_size.contains(&0) {
        errors.at_function(E::ZeroLocalSize(func.modes.local_size));
    }
    for event in &walk.events {
        if let Event::Inst(inst) = *event {
            check_inst(func, inst, errors);
        }
    }
}

/// The stages allowed for one instruction, as `(what, allowed)`; `None` if all are.
fn requirement(op: Op) -> Option<(String, Allowed)> {
    let effect = match op {
        Op::Discard => return Some(("`discard`".into(), FRAGMENT)),
        Op::Effect(e) => e,
        _ => return None,
    };
    let named = |what: &str, allowed| Some((format!("`{what}`"), allowed));
    match effect {
        EffectOp::Derivative(..) => named(effect.name(), FRAGMENT),
        EffectOp::Demote => named("demote", FRAGMENT),
        EffectOp::Sample(s) if matches!(s.lod, LodMode::Implicit | LodMode::Bias) => Some((
            format!("`sample` with {} LOD", syntax::lod(s.lod)),
            FRAGMENT,
        )),
        EffectOp::Barrier(BarrierKind::Workgroup) => named("barrier workgroup", COMPUTE),
        EffectOp::Load(a) | EffectOp::Store(a) if a.space == AddressSpace::Workgroup => {
            Some(("workgroup-shared memory".into(), COMPUTE))
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
            };
            named(&format!("builtin {}", syntax::builtin(b)), allowed)
        }
        EffectOp::Input(slot) if slot.interp != Interp::Flat => Some((
            format!("`input` with {} interpolation", syntax::interp(slot.interp)),
            FRAGMENT,
        )),
        EffectOp::Input(_) => named("input", GRAPHICS),
        EffectOp::Output(slot) => {
            let allowed = match slot {
                OutputSlot::Location { .. } => GRAPHICS,
                OutputSlot::Position(_) | OutputSlot::PointSize => VERTEX,
                OutputSlot::FragDepth => FRAGMENT,
            };
            named(&format!("output {}", syntax::output(slot)), allowed)
        }
        _ => None,
    }
}

fn check_inst(func: &Function, inst: Inst, errors: &mut Errors) {
    let op = func.insts[inst].op;
    if let Some((what, allowed)) = requirement(op) {
        if !allowed.allows(func.stage) {
            errors.at_inst(
                inst,
                E::WrongStage {
                    what,
                    allowed: allowed.name(),
                    stage: func.stage,
                },
            );
        }
    }
    let Op::Effect(effect) = op else { return };
    match effect {
        EffectOp::Load(a) | EffectOp::Store(a)
            if a.space == AddressSpace::Workgroup && func.shared_memory == 0 =>
        {
            errors.at_inst(inst, E::NoSharedMemory);
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
        EffectOp::Output(slot) => {
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
        _ => {}
    }
}
