//! Geometry shaders (`GEOM`): the properties that make up the stage's modes, per-vertex inputs
//! `IN[v][n]`, and `EMIT`/`ENDPRIM`.
//!
//! - **Modes.** `GS_INPUT_PRIMITIVE`, `GS_OUTPUT_PRIMITIVE`, `GS_MAX_OUTPUT_VERTICES` and
//!   `GS_INVOCATIONS` give [`GeometryModes`]. A missing one takes the default Mesa's draw
//!   module gave it when graw's shaders were written (`draw_create_geometry_shader` in
//!   `src/gallium/auxiliary/draw/draw_gs.c`, Mesa 7.x: triangles in, triangle strip out, 32
//!   vertices) and one invocation; two of graw's shaders rely on the vertex default.
//! - **Inputs.** `DCL IN[][n], SEMANTIC` declares a per-vertex input: `IN[v][n].c` reads the
//!   slot a vertex shader's `OUT` of that semantic writes (`POSITION` to `position`, `PSIZE`
//!   to `point_size`, the rest to locations as for vertex outputs), for vertex `v` of the
//!   input primitive. A constant `v` is read once at the top of the shader; an indirect one
//!   (`IN[ADDR[0].x][n]`) where it is used, and an index outside the primitive is the
//!   interpreter's error. `PRIM_ID` and `INVOCATIONID` (as `SV`, old-style as a
//!   one-dimensional `IN`, or declared `IN[][n]` and read `IN[n]` as Mesa's `nir_to_tgsi`
//!   writes the primitive id) are the `primitive_id` and `invocation_id` built-ins.
//! - **Outputs** map as a vertex shader's do. `EMIT` writes every OUT component the program
//!   writes, from the registers' current values, then emits the vertex; `ENDPRIM` ends the
//!   strip. A geometry shader's outputs leave only through `EMIT`: nothing is written at
//!   `END`. After an `EMIT` the OUT registers keep their values, which is one choice of the
//!   "undefined" GLSL gives them.
//! - **Streams.** `EMIT IMM[k].x` names the stream by an immediate (Mesa always writes one;
//!   graw's old shaders leave it out, meaning stream 0).

use super::interface::{name_value, uint_value, varying_location};
use super::Lifter;
use crate::tgsi::ast::{Decl, Index, Program, RegFile, RegRef, Semantic};
use crate::tgsi::error::{Result, TgsiError};
use crate::tgsi::opcode::Opcode;
use crate::tgsi::options::LiftOptions;
use agxc_egraph::ir::{
    EffectOp, GeometryModes, InputPrimitive, OutputPrimitive, OutputSlot, PureOp, Stage, Type,
    Value, MAX_VERTEX_STREAMS,
};
use std::collections::{BTreeMap, BTreeSet};

/// `GS_MAX_OUTPUT_VERTICES` when the shader does not say (Mesa 7.x's `draw_gs.c`).
pub const DEFAULT_MAX_OUTPUT_VERTICES: u32 = 32;

/// The geometry modes from a `GEOM` program's properties.
pub fn geometry_modes(program: &Program) -> Result<GeometryModes> {
    let mut modes = GeometryModes::new(
        InputPrimitive::Triangles,
        OutputPrimitive::TriangleStrip,
        DEFAULT_MAX_OUTPUT_VERTICES,
    );
    for p in &program.props {
        let pos = p.name_pos;
        let unknown = |what, name: &str| TgsiError::UnknownName {
            pos,
            what,
            name: name.into(),
        };
        match p.name.as_str() {
            "GS_INPUT_PRIMITIVE" => {
                let name = name_value(&p.value, pos, &p.name)?;
                modes.input = match name {
                    "POINTS" => InputPrimitive::Points,
                    "LINES" => InputPrimitive::Lines,
                    "LINES_ADJACENCY" => InputPrimitive::LinesAdjacency,
                    "TRIANGLES" => InputPrimitive::Triangles,
                    "TRIANGLES_ADJACENCY" => InputPrimitive::TrianglesAdjacency,
                    _ => return Err(unknown("geometry input primitive", name)),
                };
            }
            "GS_OUTPUT_PRIMITIVE" => {
                let name = name_value(&p.value, pos, &p.name)?;
                modes.output = match name {
                    "POINTS" => OutputPrimitive::Points,
                    "LINES" => OutputPrimitive::Lines,
                    "LINE_STRIP" => OutputPrimitive::LineStrip,
                    "TRIANGLES" => OutputPrimitive::Triangles,
                    "TRIANGLE_STRIP" => OutputPrimitive::TriangleStrip,
                    _ => return Err(unknown("geometry output primitive", name)),
                };
            }
            "GS_MAX_OUTPUT_VERTICES" => {
                modes.max_vertices = uint_value(&p.value, pos, &p.name)?;
            }
            "GS_INVOCATIONS" => {
                let n = uint_value(&p.value, pos, &p.name)?;
                if n == 0 {
                    return Err(TgsiError::invalid(pos, "GS_INVOCATIONS must not be 0"));
                }
                modes.invocations = n;
            }
            _ => {}
        }
    }
    Ok(modes)
}

/// True for a declaration of per-vertex geometry inputs (`IN[][n]`). Mesa's `nir_to_tgsi`
/// declares the primitive id with the per-vertex dimension too (`DCL IN[][2], PRIM_ID`) and
/// reads it as `IN[2]`: it is the `primitive_id` built-in, not a vertex slot.
pub fn is_per_vertex(decl: &Decl) -> bool {
    decl.file == RegFile::Input
        && decl.dimension.is_some()
        && !matches!(
            decl.semantic.map(|s| s.name),
            Some(Semantic::PrimId | Semantic::InvocationId)
        )
}

/// The vertex slot component `comp` of per-vertex input `index` reads, or `None` for a
/// component the slot does not have (y, z, w of a point size: they read zero).
pub fn vertex_slot(
    opts: &LiftOptions,
    decl: &Decl,
    index: u32,
    comp: u8,
) -> Result<Option<OutputSlot>> {
    let semantic = decl.semantic.map(|s| (s.name, s.index));
    let location = match semantic {
        Some((Semantic::Position, _)) => return Ok(Some(OutputSlot::Position(comp))),
        Some((Semantic::PSize, _)) => return Ok((comp == 0).then_some(OutputSlot::PointSize)),
        Some((s, i)) => varying_location(s, i),
        None => Some(index),
    };
    let slot = opts
        .input_slots
        .get(&(index, comp))
        .copied()
        .or(location.map(|l| (l, comp)));
    match slot {
        Some((location, component)) => Ok(Some(OutputSlot::Location {
            location,
            component,
        })),
        None => Err(TgsiError::UnsupportedDeclaration {
            pos: decl.pos,
            what: format!(
                "geometry input semantic {}",
                semantic.map_or("(none)", |(s, _)| s.name())
            ),
        }),
    }
}

impl Lifter<'_, '_> {
    fn geometry(&self) -> Option<GeometryModes> {
        self.stage.geometry()
    }

    /// Reads every per-vertex input component at a constant vertex and location that some
    /// instruction reads, at the top of the entry block.
    pub(super) fn materialize_vertex_inputs(&mut self) -> Result<()> {
        let Some(modes) = self.geometry() else {
            return Ok(());
        };
        let count = modes.input.vertex_count();
        let mut wanted = BTreeSet::new();
        for inst in &self.prog.insts {
            for src in &inst.srcs {
                let reg = &src.reg;
                let Some(vertex) = reg.dimension.filter(|_| reg.file == RegFile::Input) else {
                    continue;
                };
                let (Ok(v), Ok(index), None, None) = (
                    u32::try_from(vertex.offset),
                    u32::try_from(reg.index.offset),
                    vertex.indirect,
                    reg.index.indirect,
                ) else {
                    continue; // read where used, or reported there
                };
                if v < count {
                    wanted.extend(src.swizzle.iter().map(|&c| (v, index, c)));
                }
            }
        }
        let mut vertex_index = BTreeMap::new();
        for (v, index, comp) in wanted {
            let Some(&d) = self.decls.decl_of.get(&(RegFile::Input, index)) else {
                continue; // reported at the reading instruction
            };
            let decl = &self.prog.decls[d];
            if !is_per_vertex(decl) {
                continue;
            }
            let value = match vertex_slot(self.opts, decl, index, comp)? {
                Some(slot) => {
                    let k = *vertex_index
                        .entry(v)
                        .or_insert_with(|| self.b.i32(v as i32));
                    self.b
                        .effect(EffectOp::VertexInput(slot), &[k], &[Type::F32])[0]
                }
                None => self.zero(Type::F32),
            };
            self.vertex_inputs.insert((v, index, comp), value);
        }
        Ok(())
    }

    /// True if `reg` reads a per-vertex geometry input (well formed or not: `IN[n]` of a
    /// per-vertex register is reported by [`Self::read_vertex_input`]).
    pub(super) fn is_vertex_read(&self, reg: &RegRef) -> bool {
        if reg.file != RegFile::Input || self.geometry().is_none() {
            return false;
        }
        reg.dimension.is_some()
            || u32::try_from(reg.index.offset)
                .ok()
                .and_then(|i| self.decls.decl_of.get(&(RegFile::Input, i)))
                .is_some_and(|&d| is_per_vertex(&self.prog.decls[d]))
    }

    /// Component `comp` of `IN[vertex][index]`, with either index constant or indirect.
    pub(super) fn read_vertex_input(&mut self, reg: &RegRef, comp: u8) -> Result<Value> {
        let Some(modes) = self.geometry() else {
            return Err(TgsiError::invalid(
                reg.pos,
                "IN registers have two dimensions only in geometry shaders",
            ));
        };
        let Some(vertex) = reg.dimension else {
            return Err(TgsiError::invalid(
                reg.pos,
                "a geometry input is read per vertex: IN[vertex][index]",
            ));
        };
        let count = modes.input.vertex_count();
        let vertex_const = match vertex.indirect {
            Some(_) => None,
            None => match u32::try_from(vertex.offset) {
                Ok(v) if v < count => Some(v),
                _ => {
                    return Err(TgsiError::invalid(
                        reg.pos,
                        format!(
                            "vertex {} is outside the {} input primitive ({count} vertices)",
                            vertex.offset,
                            modes.input.name()
                        ),
                    ))
                }
            },
        };
        let indices: Vec<u32> = match reg.index.indirect {
            None => {
                let index = u32::try_from(reg.index.offset)
                    .map_err(|_| TgsiError::invalid(reg.pos, "negative register index"))?;
                vec![index]
            }
            // Only the per-vertex registers: an old-style `IN[n], PRIM_ID` is no vertex slot.
            Some(_) => self
                .decls
                .elements(reg)?
                .into_iter()
                .filter(|i| {
                    self.decls
                        .decl_of
                        .get(&(RegFile::Input, *i))
                        .is_some_and(|&d| is_per_vertex(&self.prog.decls[d]))
                })
                .collect(),
        };
        // Each register the access may reach, read at the vertex.
        let mut elements = Vec::with_capacity(indices.len());
        for index in indices {
            let read_at_top =
                vertex_const.and_then(|v| self.vertex_inputs.get(&(v, index, comp)).copied());
            let v = match read_at_top {
                Some(v) => v,
                None => self.vertex_input_at(reg, &vertex, index, comp)?,
            };
            elements.push((index, v));
        }
        if let (None, [(_, v)]) = (reg.index.indirect, &elements[..]) {
            return Ok(*v);
        }
        // An indirect location selects among the registers; one outside them reads zero.
        let at = self.index_value(&reg.index)?;
        let mut acc = self.zero(Type::F32);
        for (i, v) in elements.into_iter().rev() {
            let k = self.b.i32(i as i32);
            let hit = self.b.pure(PureOp::Ieq, &[at, k]);
            acc = self.b.pure(PureOp::Select, &[hit, v, acc]);
        }
        Ok(acc)
    }

    /// One `vertex_input` of register `index` at the vertex `vertex` denotes, emitted here.
    fn vertex_input_at(
        &mut self,
        reg: &RegRef,
        vertex: &Index,
        index: u32,
        comp: u8,
    ) -> Result<Value> {
        let Some(&d) = self.decls.decl_of.get(&(RegFile::Input, index)) else {
            return Err(TgsiError::invalid(
                reg.pos,
                format!("IN[{index}] is not declared"),
            ));
        };
        let decl = &self.prog.decls[d];
        if !is_per_vertex(decl) {
            return Err(TgsiError::invalid(
                reg.pos,
                format!("IN[{index}] is not a per-vertex input (declared without IN[][n])"),
            ));
        }
        let Some(slot) = vertex_slot(self.opts, decl, index, comp)? else {
            return Ok(self.zero(Type::F32));
        };
        let k = self.index_value(vertex)?;
        Ok(self
            .b
            .effect(EffectOp::VertexInput(slot), &[k], &[Type::F32])[0])
    }

    /// `EMIT` and `ENDPRIM`.
    pub(super) fn geometry_op(&mut self, op: Opcode) -> Result<()> {
        if !matches!(self.stage, Stage::Geometry(_)) {
            let inst = self.inst();
            return Err(TgsiError::unsupported(
                inst.pos,
                inst.opcode.name(),
                "geometry output outside geometry shaders",
            ));
        }
        let stream = self.stream()?;
        if op == Opcode::EMIT {
            self.store_outputs()?;
            self.b.effect(EffectOp::EmitVertex(stream), &[], &[]);
        } else {
            self.b.effect(EffectOp::EndPrimitive(stream), &[], &[]);
        }
        Ok(())
    }

    /// The stream operand of `EMIT`/`ENDPRIM`: `.x` of an immediate, or 0 when left out.
    fn stream(&mut self) -> Result<u8> {
        let inst = self.inst();
        let Some(src) = inst.srcs.first().copied() else {
            return Ok(0);
        };
        let reg = src.reg;
        let imm = match (
            reg.file,
            reg.index.indirect,
            u32::try_from(reg.index.offset),
        ) {
            (RegFile::Immediate, None, Ok(i)) => self.prog.imms.get(i as usize),
            _ => None,
        };
        let Some(imm) = imm else {
            return Err(TgsiError::unsupported(
                src.pos,
                inst.opcode.name(),
                "a vertex stream that is not an immediate",
            ));
        };
        let stream = imm.slots[src.swizzle[0] as usize & 3];
        match u8::try_from(stream) {
            Ok(s) if s < MAX_VERTEX_STREAMS => Ok(s),
            _ => Err(TgsiError::invalid(
                src.pos,
                format!(
                    "vertex stream {stream} (streams are 0 to {})",
                    MAX_VERTEX_STREAMS - 1
                ),
            )),
        }
    }
}
