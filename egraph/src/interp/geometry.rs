//! Geometry runs: one lockstep batch of invocations, `invocations` per input primitive.
//!
//! The input is a vertex list taken `n` at a time (`n` = the input primitive's vertex count),
//! as a draw with a list topology assembles it. Lane `p * invocations + i` runs invocation `i`
//! for primitive `p`: `primitive_id` reads `p`, `invocation_id` reads `i`, and `vertex_input
//! SLOT vK` reads `SLOT` of vertex `p * n + K` of the list.
//!
//! Every lane keeps its own output record. `emit_vertex S` takes the lane's current output
//! values as a vertex (only the slots written since the last emit: the others are undefined,
//! as GLSL's `EmitStreamVertex` says) and appends it to the lane's open strip on stream `S`,
//! opening one if there is none; the outputs are then undefined again. `end_primitive S`
//! closes the open strip of stream `S`; an invocation's open strips close when it ends. The
//! result lists the strips in lane order and, within a lane, in the order they were opened,
//! which is the order GL rasterizes them in (primitive by primitive, then invocation by
//! invocation). Strips too short for a primitive are kept: discarding them is primitive
//! assembly's job, not the shader's.
//!
//! Emitting more than `max_vertices` vertices in one invocation is undefined in GLSL; here it
//! is [`InterpError::TooManyVertices`]. Reading a slot an input vertex lacks, or a vertex
//! outside the primitive, is an error too. A launch is refused before it starts if its
//! invocations, or the vertices they may emit, exceed [`Limits::max_lanes`].

use super::error::InterpError;
use super::exec::Machine;
use super::fragment::output_f32;
use super::lanes::Mask;
use super::limits::Limits;
use super::resources::{Resources, ResourcesRef};
use super::stage::StageEnv;
use super::stats::Stats;
use super::vertex::VertexOutput;
use crate::ir::eval::round_float;
use crate::ir::{
    Const, Function, GeometryModes, Inst, OutputSlot, Stage, Type, MAX_VERTEX_STREAMS,
};
use std::collections::BTreeMap;

/// A vertex entering or leaving the geometry stage: the value of each slot the previous stage
/// (or the geometry shader) wrote. Integer values are held as their 32-bit pattern, as
/// [`VertexOutput`] holds them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GeometryVertex {
    /// The written slots and their values.
    pub slots: BTreeMap<OutputSlot, f32>,
}

impl GeometryVertex {
    /// A vertex with no slot written.
    pub fn new() -> GeometryVertex {
        GeometryVertex::default()
    }

    /// This vertex with the four components of `position` set.
    pub fn with_position(mut self, position: [f32; 4]) -> GeometryVertex {
        for (c, v) in position.into_iter().enumerate() {
            self.slots.insert(OutputSlot::Position(c as u8), v);
        }
        self
    }

    /// This vertex with the four components of user location `location` set.
    pub fn with_location(mut self, location: u32, value: [f32; 4]) -> GeometryVertex {
        for (c, v) in value.into_iter().enumerate() {
            let slot = OutputSlot::Location {
                location,
                component: c as u8,
            };
            self.slots.insert(slot, v);
        }
        self
    }

    /// Vertex `index` of a vertex run's output: its position, point size and varyings.
    pub fn from_vertex_output(out: &VertexOutput, index: usize) -> Option<GeometryVertex> {
        let mut v = GeometryVertex::new().with_position(*out.positions.get(index)?);
        v.slots
            .insert(OutputSlot::PointSize, *out.point_sizes.get(index)?);
        for (&location, values) in &out.varyings {
            v = v.with_location(location, *values.get(index)?);
        }
        Some(v)
    }

    /// A slot's value, if written.
    pub fn get(&self, slot: OutputSlot) -> Option<f32> {
        self.slots.get(&slot).copied()
    }

    /// The position, if all four components were written.
    pub fn position(&self) -> Option<[f32; 4]> {
        self.vec4(OutputSlot::Position)
    }

    /// User location `location`, if all four components were written.
    pub fn location(&self, location: u32) -> Option<[f32; 4]> {
        self.vec4(|component| OutputSlot::Location {
            location,
            component,
        })
    }

    fn vec4(&self, slot: impl Fn(u8) -> OutputSlot) -> Option<[f32; 4]> {
        Some([
            self.get(slot(0))?,
            self.get(slot(1))?,
            self.get(slot(2))?,
            self.get(slot(3))?,
        ])
    }
}

/// Vertices one invocation emitted on one stream between primitive boundaries.
#[derive(Clone, Debug, PartialEq)]
pub struct Strip {
    /// The input primitive's index.
    pub primitive: u32,
    /// The invocation (0 up to `invocations`).
    pub invocation: u32,
    /// The vertex stream.
    pub stream: u8,
    /// The vertices, in emission order.
    pub vertices: Vec<GeometryVertex>,
}

/// What a geometry run emitted.
#[derive(Clone, Debug, PartialEq)]
pub struct GeometryOutput {
    /// The strips, by primitive, then invocation, then the order each was opened in.
    pub strips: Vec<Strip>,
    /// Counts.
    pub stats: Stats,
}

/// One lane's emission so far.
#[derive(Clone, Debug, Default)]
struct LaneEmission {
    /// `(stream, vertices)` in the order opened.
    strips: Vec<(u8, Vec<GeometryVertex>)>,
    /// The open strip of each stream: an index into `strips`.
    open: [Option<usize>; MAX_VERTEX_STREAMS as usize],
    /// Vertices emitted over all streams.
    emitted: u32,
}

/// The geometry stage's part of a batch: the input primitives and what each lane emitted.
pub(crate) struct GeometryEnv<'a> {
    modes: GeometryModes,
    vertices: &'a [GeometryVertex],
    lanes: Vec<LaneEmission>,
}

/// The primitive and invocation lane `lane` runs.
fn lane_ids(modes: GeometryModes, lane: usize) -> (u32, u32) {
    let n = modes.invocations.max(1) as usize;
    ((lane / n) as u32, (lane % n) as u32)
}

impl GeometryEnv<'_> {
    /// The primitive and invocation lane `lane` runs.
    pub fn lane_ids(&self, lane: usize) -> (u32, u32) {
        lane_ids(self.modes, lane)
    }
}

/// Runs a geometry shader on `vertices`, taken as a list of its input primitives. The
/// resources are read-only: a store is an error.
pub fn run_geometry(
    func: &Function,
    resources: &Resources,
    vertices: &[GeometryVertex],
    limits: &Limits,
) -> Result<GeometryOutput, InterpError> {
    let Stage::Geometry(modes) = func.stage else {
        return Err(InterpError::WrongStage {
            expected: "geometry",
            got: func.stage.name(),
        });
    };
    crate::ir::verify(func)?;
    let per_primitive = modes.input.vertex_count();
    if !vertices.len().is_multiple_of(per_primitive as usize) {
        return Err(InterpError::PrimitiveVertices {
            vertices: vertices.len(),
            primitive: modes.input.name(),
            per_primitive,
        });
    }
    let primitives = vertices.len() / per_primitive as usize;
    let count = primitives as u64 * u64::from(modes.invocations);
    // Emitted vertices are kept until the run ends, so they count against the lane budget
    // like the lanes themselves.
    let vertex_bound = count.saturating_mul(u64::from(modes.max_vertices));
    if count.max(vertex_bound) > limits.max_lanes as u64 {
        return Err(InterpError::GeometrySize {
            invocations: count,
            max_vertices: modes.max_vertices,
            limit: limits.max_lanes,
        });
    }
    let n = count as usize;
    let env = StageEnv::Geometry(GeometryEnv {
        modes,
        vertices,
        lanes: vec![LaneEmission::default(); n],
    });
    let mut m = Machine::new(func, limits, n, ResourcesRef::Shared(resources), env, 0);
    m.run()?;

    let mut stats = m.stats;
    stats.lanes = n as u64;
    let StageEnv::Geometry(env) = m.env else {
        // The batch was built as a geometry batch above and nothing replaces its stage.
        return Err(InterpError::WrongStage {
            expected: "geometry",
            got: m.env.name(),
        });
    };
    let mut strips = Vec::new();
    for (lane, emission) in env.lanes.into_iter().enumerate() {
        let (primitive, invocation) = lane_ids(modes, lane);
        strips.extend(emission.strips.into_iter().map(|(stream, vertices)| Strip {
            primitive,
            invocation,
            stream,
            vertices,
        }));
    }
    Ok(GeometryOutput { strips, stats })
}

/// A vertex slot's value (an f32, or an integer's 32-bit pattern) read as type `ty`: the
/// inverse of how outputs are recorded.
fn slot_value(v: f32, ty: Type) -> Const {
    match ty {
        Type::F32 => Const::f32(v),
        Type::F16 => round_float(Type::F16, v as f64),
        _ => Const::int(ty, v.to_bits() as i32 as i64),
    }
}

/// The batch's geometry part, or the error for using `what` in another stage.
fn geometry<'e, 'a>(
    env: &'e mut StageEnv<'a>,
    inst: Inst,
    what: &'static str,
) -> Result<&'e mut GeometryEnv<'a>, InterpError> {
    let stage = env.name();
    match env {
        StageEnv::Geometry(g) => Ok(g),
        _ => Err(InterpError::NotInStage { inst, what, stage }),
    }
}

impl Machine<'_> {
    pub(crate) fn exec_vertex_input(
        &mut self,
        inst: Inst,
        slot: OutputSlot,
        mask: &Mask,
    ) -> Result<(), InterpError> {
        let r = self.single_result(inst)?;
        let [index] = self.func.insts[inst].args[..] else {
            return Err(self.malformed(inst, "a vertex input takes one vertex index"));
        };
        let ty = self.func.value_type(r);
        let env = geometry(&mut self.env, inst, "a per-vertex input")?;
        let count = env.modes.input.vertex_count();
        for lane in mask.lanes() {
            let k = self.vals.get(inst, index, lane)?.as_i64();
            if !(0..i64::from(count)).contains(&k) {
                return Err(InterpError::VertexIndex {
                    inst,
                    index: k,
                    count,
                });
            }
            let (primitive, _) = lane_ids(env.modes, lane);
            let vertex = primitive as usize * count as usize + k as usize;
            let v = env
                .vertices
                .get(vertex)
                .and_then(|v| v.get(slot))
                .ok_or(InterpError::MissingVertexSlot { inst, vertex, slot })?;
            self.vals.set(r, lane, slot_value(v, ty));
        }
        Ok(())
    }

    pub(crate) fn exec_emit_vertex(
        &mut self,
        inst: Inst,
        stream: u8,
        mask: &Mask,
    ) -> Result<(), InterpError> {
        let env = geometry(&mut self.env, inst, "`emit_vertex`")?;
        let s = stream as usize;
        let limit = env.modes.max_vertices;
        for lane in mask.lanes() {
            let (Some(e), true) = (env.lanes.get_mut(lane), s < MAX_VERTEX_STREAMS as usize) else {
                return Err(InterpError::Malformed {
                    inst,
                    reason: format!("no stream {stream} for lane {lane}"),
                });
            };
            if e.emitted >= limit {
                return Err(InterpError::TooManyVertices { inst, limit });
            }
            e.emitted += 1;
            // Taking the values leaves every output undefined until written again.
            let mut vertex = GeometryVertex::new();
            for (&slot, values) in self.outputs.iter_mut() {
                if let Some(c) = values.get_mut(lane).and_then(Option::take) {
                    vertex.slots.insert(slot, output_f32(c));
                }
            }
            match e.open[s] {
                Some(i) => e.strips[i].1.push(vertex),
                None => {
                    e.open[s] = Some(e.strips.len());
                    e.strips.push((stream, vec![vertex]));
                }
            }
        }
        Ok(())
    }

    pub(crate) fn exec_end_primitive(
        &mut self,
        inst: Inst,
        stream: u8,
        mask: &Mask,
    ) -> Result<(), InterpError> {
        let env = geometry(&mut self.env, inst, "`end_primitive`")?;
        for lane in mask.lanes() {
            if let Some(open) = env
                .lanes
                .get_mut(lane)
                .and_then(|e| e.open.get_mut(stream as usize))
            {
                *open = None;
            }
        }
        Ok(())
    }
}
