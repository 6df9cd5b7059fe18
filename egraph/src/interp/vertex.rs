//! Vertex runs: one lockstep batch of `vertex_count` invocations.

use super::error::InterpError;
use super::exec::Machine;
use super::fragment::output_f32;
use super::limits::Limits;
use super::resources::{Resources, ResourcesRef};
use super::stage::StageEnv;
use super::stats::Stats;
use crate::ir::{EffectOp, Function, Op, OutputSlot, Stage};
use std::collections::BTreeMap;

/// What a vertex run produced, per vertex.
#[derive(Clone, Debug, PartialEq)]
pub struct VertexOutput {
    /// `position` (components not written are 0).
    pub positions: Vec<[f32; 4]>,
    /// `point_size` (1 where not written).
    pub point_sizes: Vec<f32>,
    /// Output varyings by location (every location the shader has an `output` for; components
    /// not written are 0). Integer outputs hold their 32-bit pattern.
    pub varyings: BTreeMap<u32, Vec<[f32; 4]>>,
    /// Counts.
    pub stats: Stats,
}

/// Runs a vertex shader for vertices `0..vertex_count`. `attributes` holds, per location, four
/// floats per vertex (an integer attribute reads its value converted toward zero). The
/// resources are read-only: a store is an error.
pub fn run_vertex(
    func: &Function,
    resources: &Resources,
    vertex_count: u32,
    attributes: &BTreeMap<u32, Vec<[f32; 4]>>,
    limits: &Limits,
) -> Result<VertexOutput, InterpError> {
    if func.stage != Stage::Vertex {
        return Err(InterpError::WrongStage {
            expected: "vertex",
            got: func.stage.name(),
        });
    }
    crate::ir::verify(func)?;
    let n = vertex_count as usize;
    if n > limits.max_lanes {
        return Err(InterpError::VertexCount {
            count: vertex_count,
            limit: limits.max_lanes,
        });
    }
    if let Some((&location, a)) = attributes.iter().find(|(_, a)| a.len() < n) {
        return Err(InterpError::MissingVertices {
            location,
            supplied: a.len(),
            needed: n,
        });
    }
    let env = StageEnv::Vertex { attributes };
    let mut m = Machine::new(func, limits, n, ResourcesRef::Shared(resources), env, 0);
    m.run()?;

    let mut varyings = BTreeMap::new();
    func.for_each_inst(|_, inst| {
        if let Op::Effect(EffectOp::Output(OutputSlot::Location { location, .. })) =
            func.insts[inst].op
        {
            varyings.insert(location, vec![[0.0; 4]; n]);
        }
    });
    let mut positions = vec![[0.0; 4]; n];
    let mut point_sizes = vec![1.0; n];
    for (slot, values) in &m.outputs {
        for (lane, value) in values.iter().enumerate() {
            let Some(c) = *value else { continue };
            let v = output_f32(c);
            match *slot {
                OutputSlot::Location {
                    location,
                    component,
                } => {
                    if let Some(out) = varyings.get_mut(&location) {
                        out[lane][component as usize] = v;
                    }
                }
                OutputSlot::Position(c) => positions[lane][c as usize] = v,
                OutputSlot::PointSize => point_sizes[lane] = v,
                OutputSlot::FragDepth => {}
            }
        }
    }
    let mut stats = m.stats;
    stats.lanes = n as u64;
    Ok(VertexOutput {
        positions,
        point_sizes,
        varyings,
        stats,
    })
}
