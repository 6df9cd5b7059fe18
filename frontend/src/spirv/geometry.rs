//! Geometry shaders (execution model `Geometry`).
//!
//! - **Modes.** The input primitive (`InputPoints`, `InputLines`, `InputLinesAdjacency`,
//!   `Triangles`, `InputTrianglesAdjacency`), the output primitive (`OutputPoints`,
//!   `OutputLineStrip`, `OutputTriangleStrip`) and `OutputVertices` are required (SPIR-V
//!   section 3.6, "Execution Mode"); `Invocations` defaults to 1. They make the IR's
//!   [`GeometryModes`], read before lifting starts because the stage carries them.
//! - **Inputs.** Every Input variable that is not itself a built-in is arrayed by vertex
//!   (GLSL `in vec4 color[]`, and the `gl_in[]` block of `gl_PerVertex`): element `v` reads
//!   the slot the previous stage wrote for vertex `v` of the primitive with `vertex_input`.
//!   User inputs take locations as in other stages; the block's `Position` and `PointSize`
//!   members read those slots. Its `ClipDistance` and `CullDistance` members have no IR slot:
//!   they hold zeros so the block keeps its shape, and a load that may read them is rejected
//!   where it happens. `PrimitiveId` and `InvocationId` are the `primitive_id` and
//!   `invocation_id` built-ins.
//! - **Outputs** leave only through `OpEmitVertex`/`OpEmitStreamVertex`: each writes every
//!   written Output scalar of its stream (the variable's `Stream` decoration, 0 without one)
//!   from its current value, then emits the vertex (the values stay, one choice of the
//!   "undefined" SPIR-V leaves them). Nothing is written at the return.
//!   `OpEndPrimitive`/`OpEndStreamPrimitive` end the strip; streams must be constants below
//!   [`MAX_VERTEX_STREAMS`].

use super::context::Lowerer;
use super::error::SpirvError;
use super::module::{Id, Inst, Module};
use super::value::{Agg, Index, Pointer, Root};
use agxc_egraph::ir::{
    EffectOp, GeometryModes, InputPrimitive, OutputPrimitive, OutputSlot, Type, MAX_VERTEX_STREAMS,
};
use rspirv::dr::Operand;
use spirv::{BuiltIn, Decoration, ExecutionMode, Op};

/// A block member: its type and built-in decoration.
type BlockMember = (Id, Option<BuiltIn>);

/// The geometry modes of the entry point `function`, from its `OpExecutionMode`s.
pub(super) fn geometry_modes(
    m: &Module,
    function: Id,
    at: &Inst,
) -> Result<GeometryModes, SpirvError> {
    let (mut input, mut output, mut max_vertices, mut invocations) = (None, None, None, 1);
    for inst in &m.execution_modes {
        if inst.id(0)? != function {
            continue;
        }
        let Some(Operand::ExecutionMode(mode)) = inst.operands.get(1) else {
            return Err(inst.invalid("missing execution mode"));
        };
        match mode {
            ExecutionMode::InputPoints => input = Some(InputPrimitive::Points),
            ExecutionMode::InputLines => input = Some(InputPrimitive::Lines),
            ExecutionMode::InputLinesAdjacency => input = Some(InputPrimitive::LinesAdjacency),
            ExecutionMode::Triangles => input = Some(InputPrimitive::Triangles),
            ExecutionMode::InputTrianglesAdjacency => {
                input = Some(InputPrimitive::TrianglesAdjacency)
            }
            ExecutionMode::OutputPoints => output = Some(OutputPrimitive::Points),
            ExecutionMode::OutputLineStrip => output = Some(OutputPrimitive::LineStrip),
            ExecutionMode::OutputTriangleStrip => output = Some(OutputPrimitive::TriangleStrip),
            ExecutionMode::OutputVertices => max_vertices = Some(inst.literal(2)?),
            ExecutionMode::Invocations => {
                invocations = inst.literal(2)?;
                if invocations == 0 {
                    return Err(inst.invalid("Invocations must not be 0"));
                }
            }
            _ => {}
        }
    }
    let missing = |what: &str| at.invalid(format!("a geometry entry point without {what}"));
    let mut modes = GeometryModes::new(
        input.ok_or_else(|| missing("an input primitive mode"))?,
        output.ok_or_else(|| missing("an output primitive mode"))?,
        max_vertices.ok_or_else(|| missing("OutputVertices"))?,
    );
    modes.invocations = invocations;
    Ok(modes)
}

/// True for the execution modes [`geometry_modes`] reads.
pub(super) fn is_geometry_mode(mode: ExecutionMode) -> bool {
    matches!(
        mode,
        ExecutionMode::InputPoints
            | ExecutionMode::InputLines
            | ExecutionMode::InputLinesAdjacency
            | ExecutionMode::Triangles
            | ExecutionMode::InputTrianglesAdjacency
            | ExecutionMode::OutputPoints
            | ExecutionMode::OutputLineStrip
            | ExecutionMode::OutputTriangleStrip
            | ExecutionMode::OutputVertices
            | ExecutionMode::Invocations
    )
}

impl<'m> Lowerer<'m> {
    /// The value of a per-vertex Input variable of a geometry shader (`ty` its pointee: an
    /// array with one element per vertex of the input primitive).
    pub(super) fn vertex_input_agg(
        &mut self,
        var: Id,
        ty: Id,
        at: &Inst,
    ) -> Result<Agg, SpirvError> {
        let count = self
            .stage
            .geometry()
            .map_or(0, |g| g.input.vertex_count() as usize);
        let elems = self.types.children(ty, at)?;
        if elems.len() != count {
            return Err(at.invalid(format!(
                "geometry input %{var} has {} elements, the input primitive {count} vertices",
                elems.len()
            )));
        }
        let base = self.decos.literal(var, Decoration::Location);
        let component = self.decos.literal(var, Decoration::Component).unwrap_or(0);
        let mut vertices = Vec::with_capacity(count);
        for (v, &elem) in elems.iter().enumerate() {
            let vertex = self.iconst(Type::I32, v as i64);
            if let Some(members) = self.builtin_block_members(elem, at)? {
                vertices.push(self.per_vertex_block(var, &members, vertex, at)?);
                continue;
            }
            let mut location = base.ok_or_else(|| {
                at.invalid(format!("input %{var} has neither BuiltIn nor Location"))
            })?;
            let interp = agxc_egraph::ir::Interp::Flat;
            vertices.push(self.location_input(
                at,
                elem,
                &mut location,
                component,
                interp,
                Some(vertex),
                0,
            )?);
        }
        Ok(Agg::composite(vertices))
    }

    /// The members of a block type whose members are built-ins (`gl_PerVertex`), or `None`.
    fn builtin_block_members(
        &self,
        ty: Id,
        at: &Inst,
    ) -> Result<Option<Vec<BlockMember>>, SpirvError> {
        let super::types::Ty::Struct { members } = self.types.get(ty, at)?.clone() else {
            return Ok(None);
        };
        let builtins: Vec<Option<BuiltIn>> = (0..members.len())
            .map(|i| self.decos.member_builtin(ty, i as u32))
            .collect();
        if builtins.iter().all(Option::is_none) {
            return Ok(None);
        }
        Ok(Some(members.into_iter().zip(builtins).collect()))
    }

    /// One vertex's `gl_PerVertex`: position and point size read, the others zeros (and
    /// remembered as unreadable).
    fn per_vertex_block(
        &mut self,
        var: Id,
        members: &[BlockMember],
        vertex: agxc_egraph::ir::Value,
        at: &Inst,
    ) -> Result<Agg, SpirvError> {
        let mut items = Vec::with_capacity(members.len());
        for (i, &(mty, builtin)) in members.iter().enumerate() {
            let (scalar, count) = match builtin {
                Some(BuiltIn::Position) | Some(BuiltIn::PointSize) => {
                    self.types.components(mty, at)?
                }
                _ => {
                    self.unreadable_inputs.insert((var, i as u32));
                    items.push(self.zero_agg(mty, at)?);
                    continue;
                }
            };
            let slots: Vec<OutputSlot> = match (builtin, count) {
                (Some(BuiltIn::Position), 4) => (0..4).map(OutputSlot::Position).collect(),
                (Some(BuiltIn::PointSize), 1) => vec![OutputSlot::PointSize],
                _ => return Err(at.mismatch(format!("built-in {builtin:?} of the wrong size"))),
            };
            if scalar != Type::F32 {
                return Err(at.mismatch(format!("built-in {builtin:?} is not 32-bit float")));
            }
            let values: Vec<_> = slots
                .into_iter()
                .map(|s| {
                    self.prologue_append(
                        agxc_egraph::ir::Op::Effect(EffectOp::VertexInput(s)),
                        &[vertex],
                        &[Type::F32],
                    )[0]
                })
                .collect();
            items.push(if count == 1 {
                Agg::Scalar(values[0])
            } else {
                Agg::vector(values)
            });
        }
        Ok(Agg::composite(items))
    }

    /// Rejects a load through `ptr` that may read a per-vertex block member without an IR
    /// slot (`gl_in[i].gl_ClipDistance`).
    pub(super) fn check_vertex_input_read(
        &self,
        inst: &Inst,
        ptr: &Pointer,
    ) -> Result<(), SpirvError> {
        let Pointer::Logical {
            root: Root::Input(var),
            path,
            ..
        } = ptr
        else {
            return Ok(());
        };
        let unreadable = |member: u32| self.unreadable_inputs.contains(&(*var, member));
        let hit = match path.get(1) {
            Some(Index::Const(member)) => unreadable(*member),
            // Loads through it read zero.
            Some(Index::OutOfRange(_)) => false,
            // The whole block or the whole array: any unreadable member is read.
            Some(Index::Dyn(_)) | None => self.unreadable_inputs.iter().any(|&(v, _)| v == *var),
        };
        if hit {
            return Err(inst.unsupported(
                "reading a gl_PerVertex input member other than Position and PointSize",
            ));
        }
        Ok(())
    }

    /// `OpEmitVertex`, `OpEndPrimitive` and their stream forms; `false` for other opcodes.
    pub(super) fn lower_geometry_inst(&mut self, inst: &Inst) -> Result<bool, SpirvError> {
        let (emit, streamed) = match inst.opcode {
            Op::EmitVertex => (true, false),
            Op::EndPrimitive => (false, false),
            Op::EmitStreamVertex => (true, true),
            Op::EndStreamPrimitive => (false, true),
            _ => return Ok(false),
        };
        if self.stage.geometry().is_none() {
            return Err(inst.invalid("vertex emission outside a geometry shader"));
        }
        let stream = if streamed {
            let s = self.operand_scalar(inst, 0)?;
            self.fold(s)
                .filter(|c| c.ty().is_int())
                .and_then(|c| u8::try_from(c.as_u64()).ok())
                .filter(|&s| s < MAX_VERTEX_STREAMS)
                .ok_or_else(|| {
                    inst.invalid(format!(
                        "the stream is not a constant below {MAX_VERTEX_STREAMS}"
                    ))
                })?
        } else {
            0
        };
        if emit {
            self.write_outputs(inst, Some(u32::from(stream)))?;
            self.effect(EffectOp::EmitVertex(stream), &[], &[]);
        } else {
            self.effect(EffectOp::EndPrimitive(stream), &[], &[]);
        }
        Ok(true)
    }
}
