//! Effects other than memory and textures: built-ins, stage inputs and outputs, derivatives,
//! barriers and demotion; and the dispatch of every effect to its module.

use super::error::InterpError;
use super::exec::Machine;
use super::lanes::Mask;
use super::quad::QuadGrid;
use super::stage::StageEnv;
use crate::ir::eval::conv::f64_to_signed;
use crate::ir::eval::round_float;
use crate::ir::{
    Axis, BarrierKind, Builtin, Const, DerivPrecision, EffectOp, InputSlot, Inst, Interp,
    OutputSlot, PureOp, Type, Value,
};

/// A stage input's value (computed exactly in f64) as a scalar of type `ty`: floats are rounded
/// once to nearest even; integers are converted toward zero with saturation, as `f2s` does, from
/// the f64 itself (not from an f32 rounding of it).
fn input_value(v: f64, ty: Type) -> Const {
    if ty.is_float() {
        round_float(ty, v)
    } else {
        f64_to_signed(v, ty)
    }
}

impl Machine<'_> {
    pub(crate) fn exec_effect(
        &mut self,
        inst: Inst,
        effect: EffectOp,
        mask: &Mask,
    ) -> Result<(), InterpError> {
        match effect {
            EffectOp::Load(access) => self.exec_load(inst, access, mask),
            EffectOp::Store(access) => self.exec_store(inst, access, mask),
            EffectOp::Atomic(op, access) => self.exec_atomic(inst, op, access, mask),
            EffectOp::BufferSize(binding) => self.exec_buffer_size(inst, binding, mask),
            EffectOp::Barrier(kind) => self.exec_barrier(inst, kind, mask),
            EffectOp::Builtin(b) => self.exec_builtin(inst, b, mask),
            EffectOp::Input(slot) => self.exec_input(inst, slot, mask),
            EffectOp::Output(slot) => self.exec_output(inst, slot, mask),
            EffectOp::Derivative(axis, precision) => {
                self.exec_derivative(inst, axis, precision, mask)
            }
            EffectOp::Sample(op) => self.exec_sample(inst, op, mask),
            EffectOp::Fetch(op) => self.exec_fetch(inst, op, mask),
            EffectOp::TexSize(op) => self.exec_tex_size(inst, op, mask),
            EffectOp::TexLevels(binding) => self.exec_tex_levels(inst, binding, mask),
            EffectOp::Demote => {
                self.require_fragment(inst, "demote")?;
                self.helper.or_assign(mask);
                Ok(())
            }
            EffectOp::VertexInput(slot) => self.exec_vertex_input(inst, slot, mask),
            EffectOp::EmitVertex(stream) => self.exec_emit_vertex(inst, stream, mask),
            EffectOp::EndPrimitive(stream) => self.exec_end_primitive(inst, stream, mask),
            EffectOp::ImageLoad(op) => self.exec_image_load(inst, op, mask),
            EffectOp::ImageStore(op) => self.exec_image_store(inst, op, mask),
            EffectOp::ImageSize(op) => self.exec_image_size(inst, op, mask),
        }
    }

    /// The quad grid, or an error if the batch is not a fragment grid.
    pub(crate) fn require_fragment(
        &self,
        inst: Inst,
        what: &'static str,
    ) -> Result<QuadGrid, InterpError> {
        self.env.quads().ok_or(InterpError::NotInStage {
            inst,
            what,
            stage: self.env.name(),
        })
    }

    /// The single result of an instruction.
    pub(crate) fn single_result(&self, inst: Inst) -> Result<Value, InterpError> {
        match self.func.insts[inst].results[..] {
            [r] => Ok(r),
            _ => Err(self.malformed(inst, "expected exactly one result")),
        }
    }

    /// The single operand of an instruction.
    fn single_operand(&self, inst: Inst) -> Result<Value, InterpError> {
        match self.func.insts[inst].args[..] {
            [a] => Ok(a),
            _ => Err(self.malformed(inst, "expected exactly one operand")),
        }
    }

    fn exec_barrier(
        &mut self,
        inst: Inst,
        kind: BarrierKind,
        mask: &Mask,
    ) -> Result<(), InterpError> {
        if kind == BarrierKind::Memory {
            // Lockstep execution already orders every access of one instruction before the
            // next instruction's.
            return Ok(());
        }
        if !matches!(self.env, StageEnv::Compute { .. }) {
            return Err(InterpError::NotInStage {
                inst,
                what: "a workgroup barrier",
                stage: self.env.name(),
            });
        }
        let running = Mask::all(self.lanes).and_not(&self.ended).count();
        let active = mask.count();
        if active != running {
            return Err(InterpError::DivergentBarrier {
                inst,
                active,
                running,
            });
        }
        Ok(())
    }

    fn builtin_value(&self, inst: Inst, b: Builtin, lane: usize) -> Result<Const, InterpError> {
        let unavailable = || InterpError::BuiltinUnavailable {
            inst,
            builtin: b,
            stage: self.env.name(),
        };
        let component = |c: u8, limit: u8| -> Result<usize, InterpError> {
            if c < limit {
                Ok(c as usize)
            } else {
                Err(self.malformed(inst, format!("built-in component {c} out of range")))
            }
        };
        match (&self.env, b) {
            (
                StageEnv::Compute {
                    local_size,
                    group,
                    groups,
                },
                _,
            ) => {
                let [sx, sy, _] = *local_size;
                let lane = lane as u32;
                let local = [lane % sx, (lane / sx) % sy, lane / (sx * sy)];
                let v = match b {
                    Builtin::GlobalId(c) => {
                        let c = component(c, 3)?;
                        group[c].wrapping_mul(local_size[c]).wrapping_add(local[c])
                    }
                    Builtin::LocalId(c) => local[component(c, 3)?],
                    Builtin::WorkgroupId(c) => group[component(c, 3)?],
                    Builtin::WorkgroupSize(c) => local_size[component(c, 3)?],
                    Builtin::NumWorkgroups(c) => groups[component(c, 3)?],
                    Builtin::LocalIndex => lane,
                    _ => return Err(unavailable()),
                };
                Ok(Const::u32(v))
            }
            (
                StageEnv::Fragment {
                    grid, quads, modes, ..
                },
                _,
            ) => {
                let (x, y) = quads.xy(lane);
                let centre = if modes.pixel_center_integer { 0.0 } else { 0.5 };
                match b {
                    Builtin::FragCoord(c) => Ok(Const::f32(match component(c, 4)? {
                        0 => x as f32 + centre,
                        1 if modes.origin_upper_left => y as f32 + centre,
                        1 => (grid.height as f32 - 1.0 - y as f32) + centre,
                        2 => grid.depth,
                        _ => 1.0,
                    })),
                    Builtin::FrontFacing => Ok(Const::bool(grid.front_facing)),
                    Builtin::HelperInvocation => Ok(Const::bool(self.helper.get(lane))),
                    _ => Err(unavailable()),
                }
            }
            (StageEnv::Vertex { .. }, Builtin::VertexIndex) => Ok(Const::u32(lane as u32)),
            (StageEnv::Vertex { .. }, Builtin::InstanceIndex) => Ok(Const::i32(0)),
            (StageEnv::Vertex { .. }, _) => Err(unavailable()),
            (StageEnv::Geometry(g), Builtin::PrimitiveId | Builtin::InvocationId) => {
                let (primitive, invocation) = g.lane_ids(lane);
                Ok(Const::u32(if b == Builtin::PrimitiveId {
                    primitive
                } else {
                    invocation
                }))
            }
            (StageEnv::Geometry(_), _) => Err(unavailable()),
        }
    }

    fn exec_builtin(&mut self, inst: Inst, b: Builtin, mask: &Mask) -> Result<(), InterpError> {
        let r = self.single_result(inst)?;
        for lane in mask.lanes() {
            let c = self.builtin_value(inst, b, lane)?;
            self.vals.set(r, lane, c);
        }
        Ok(())
    }

    fn exec_input(&mut self, inst: Inst, slot: InputSlot, mask: &Mask) -> Result<(), InterpError> {
        let r = self.single_result(inst)?;
        let ty = self.func.value_type(r);
        let c = slot.component as usize;
        if c >= 4 {
            return Err(self.malformed(inst, format!("input component {c} out of range")));
        }
        let missing = |what| InterpError::MissingInput {
            inst,
            what,
            location: slot.location,
        };
        match &self.env {
            StageEnv::Fragment { grid, quads, .. } => {
                let varying = grid
                    .varyings
                    .get(&slot.location)
                    .ok_or(missing("varying"))?;
                let quads = *quads;
                for lane in mask.lanes() {
                    let v = if slot.interp == Interp::Flat {
                        varying.flat_value(c, ty)
                    } else {
                        let (x, y) = quads.xy(lane);
                        input_value(varying.at(c, x, y), ty)
                    };
                    self.vals.set(r, lane, v);
                }
            }
            StageEnv::Vertex { attributes } => {
                let attribute = attributes.get(&slot.location).ok_or(missing("attribute"))?;
                for lane in mask.lanes() {
                    let v = attribute.get(lane).map_or(0.0, |a| a[c]);
                    self.vals.set(r, lane, input_value(v as f64, ty));
                }
            }
            StageEnv::Compute { .. } | StageEnv::Geometry(_) => {
                // A geometry shader reads its inputs per vertex, with `vertex_input`.
                return Err(InterpError::NotInStage {
                    inst,
                    what: "a stage `input`",
                    stage: self.env.name(),
                });
            }
        }
        Ok(())
    }

    fn exec_output(
        &mut self,
        inst: Inst,
        slot: OutputSlot,
        mask: &Mask,
    ) -> Result<(), InterpError> {
        let allowed = match (&self.env, slot) {
            (StageEnv::Fragment { .. }, OutputSlot::Location { .. } | OutputSlot::FragDepth) => {
                true
            }
            (StageEnv::Vertex { .. } | StageEnv::Geometry(_), OutputSlot::FragDepth) => false,
            (StageEnv::Vertex { .. } | StageEnv::Geometry(_), _) => true,
            _ => false,
        };
        if !allowed {
            return Err(InterpError::NotInStage {
                inst,
                what: "this output",
                stage: self.env.name(),
            });
        }
        if let OutputSlot::Location { component, .. } | OutputSlot::Position(component) = slot {
            if component >= 4 {
                return Err(self.malformed(inst, format!("output component {component}")));
            }
        }
        let a = self.single_operand(inst)?;
        let lanes = self.lanes;
        for lane in mask.lanes() {
            if self.helper.get(lane) {
                continue;
            }
            let c = self.vals.get(inst, a, lane)?;
            self.outputs
                .entry(slot)
                .or_insert_with(|| vec![None; lanes])[lane] = Some(c);
        }
        Ok(())
    }

    fn exec_derivative(
        &mut self,
        inst: Inst,
        axis: Axis,
        precision: DerivPrecision,
        mask: &Mask,
    ) -> Result<(), InterpError> {
        let quads = self.require_fragment(inst, "a derivative")?;
        let a = self.single_operand(inst)?;
        let r = self.single_result(inst)?;
        let ty = self.func.value_type(r);
        for lane in mask.lanes() {
            let d = match quads.pair(lane, axis, precision, mask) {
                Some((from, to)) => {
                    let (x0, x1) = (self.vals.get(inst, a, from)?, self.vals.get(inst, a, to)?);
                    self.float.eval_pure(PureOp::Fsub, &[x1, x0], ty)
                }
                None => Const::zero(ty),
            };
            self.vals.set(r, lane, d);
        }
        Ok(())
    }
}
