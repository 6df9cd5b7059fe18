//! Running a compiled [`Binary`] in the G13 simulator (`agxc-runtime-sim`) with the reference
//! interpreter's resource types, so that one set of inputs drives both and the results compare
//! directly.
//!
//! This is the runtime side of the ABI ([`crate::abi`]): buffers are copied into device
//! memory, their addresses and every other ABI value written to the uniform registers, textures
//! and samplers converted to descriptors and bound to their slots; after the dispatch, storage
//! buffers are copied back into the [`Resources`].

use std::collections::BTreeMap;

use agxc_egraph::interp::{FragmentGrid, Resources};
use agxc_egraph::ir::{Binding, OutputSlot, Stage};
use agxc_runtime_sim::program::{Program, ProgramMetadata, Stage as SimStage};
use agxc_runtime_sim::runtime::{FragmentSetup, Plane, Simulator, Varying};
use agxc_runtime_sim::stats::Stats;

use crate::abi::UniformContent;
use crate::Binary;

mod textures;

/// Why a run failed.
#[derive(Debug, Clone, thiserror::Error)]
pub enum SimError {
    /// The simulator reported an error (decode, load, execution: a wrong binary).
    #[error("simulator: {0}")]
    Simulator(#[from] agxc_runtime_sim::Error),
    /// A resource the shader's ABI needs is not in the resources.
    #[error("missing resource: {0}")]
    Missing(String),
    /// The binary is for another kind of dispatch.
    #[error("wrong stage: {0}")]
    Stage(String),
    /// A resource the simulator cannot represent.
    #[error("unsupported resource: {0}")]
    Unsupported(String),
}

/// Values the ABI takes from the dispatch rather than the resources.
#[derive(Clone, Copy, Debug, Default)]
struct Dispatch {
    groups: [u32; 3],
    framebuffer: [u32; 2],
    depth: f32,
    vertex_count: u32,
}

/// The result of a fragment run.
#[derive(Clone, Debug)]
pub struct FragmentResult {
    /// Render targets by colour location: RGBA per pixel, rows top to bottom.
    pub targets: BTreeMap<u32, Vec<[f32; 4]>>,
    /// `frag_depth` per pixel where the shader writes it (the clear depth elsewhere).
    pub depth: Option<Vec<f32>>,
    /// Simulator statistics.
    pub stats: Stats,
}

/// The result of a vertex run: each output slot's four words per vertex, as f32.
#[derive(Clone, Debug)]
pub struct VertexResult {
    /// Outputs by slot.
    pub outputs: BTreeMap<OutputSlot, Vec<[f32; 4]>>,
    /// Simulator statistics.
    pub stats: Stats,
}

fn program(binary: &Binary, stage: SimStage) -> Result<Program, SimError> {
    let meta = ProgramMetadata {
        stage,
        gpr_halves: binary.metadata.gpr_halves,
        threadgroup_memory: binary.metadata.threadgroup_memory,
        stack_size: binary.metadata.stack_bytes,
    };
    Program::load(&binary.code, meta).map_err(|e| SimError::Simulator(e.into()))
}

/// Buffers in device memory, by binding.
struct Bound {
    buffers: BTreeMap<Binding, (u64, usize)>,
}

fn bind(
    sim: &mut Simulator,
    binary: &Binary,
    res: &Resources,
    d: Dispatch,
) -> Result<Bound, SimError> {
    let mut buffers = BTreeMap::new();
    for (b, buf) in res.buffers() {
        let addr = sim.alloc_bytes(&buf.data)?;
        buffers.insert(b, (addr, buf.data.len()));
    }
    let push = res.push_constants();
    let word = |k: u32| -> u32 {
        let mut w = [0u8; 4];
        for (i, byte) in w.iter_mut().enumerate() {
            *byte = push.get(4 * k as usize + i).copied().unwrap_or(0);
        }
        u32::from_le_bytes(w)
    };
    let textures = textures::bind(sim, binary, res)?;
    for slot in &binary.metadata.abi.uniforms {
        let index = u32::from(slot.index);
        let missing = |what: String| SimError::Missing(what);
        match slot.content {
            UniformContent::BufferAddress(b) => {
                let (addr, _) = buffers
                    .get(&b)
                    .ok_or_else(|| missing(format!("buffer {b}")))?;
                sim.set_uniform64(index, *addr)?;
            }
            UniformContent::BufferSize(b) => {
                let (_, len) = buffers
                    .get(&b)
                    .ok_or_else(|| missing(format!("buffer {b}")))?;
                sim.set_uniform32(index, *len as u32)?;
            }
            UniformContent::PushAddress => {
                let addr = sim.alloc_bytes(push)?;
                sim.set_uniform64(index, addr)?;
            }
            UniformContent::PushWord(k) => sim.set_uniform32(index, word(k))?,
            UniformContent::NumWorkgroups(a) => {
                sim.set_uniform32(index, d.groups[usize::from(a.min(2))])?
            }
            UniformContent::TextureSize(b, axis) => {
                let v = textures
                    .size(b, axis)
                    .ok_or_else(|| missing(format!("texture {b}")))?;
                sim.set_uniform32(index, v)?;
            }
            UniformContent::TextureLevels(b) => {
                let v = textures
                    .levels(b)
                    .ok_or_else(|| missing(format!("texture {b}")))?;
                sim.set_uniform32(index, v)?;
            }
            UniformContent::FramebufferSize(a) => {
                sim.set_uniform32(index, d.framebuffer[usize::from(a.min(1))])?
            }
            UniformContent::FragDepth => sim.set_uniform32(index, d.depth.to_bits())?,
            UniformContent::VertexCount => sim.set_uniform32(index, d.vertex_count)?,
            UniformContent::VertexInput(_) | UniformContent::VertexOutput(_) => {}
        }
    }
    Ok(Bound { buffers })
}

/// Copies storage buffers back into `res`.
fn read_back(sim: &Simulator, bound: &Bound, res: &mut Resources) -> Result<(), SimError> {
    for (&b, &(addr, len)) in &bound.buffers {
        if let Some(buf) = res.buffer_mut(b) {
            if buf.kind == agxc_egraph::interp::BufferKind::Storage {
                buf.data = sim.read(addr, len as u64)?;
            }
        }
    }
    Ok(())
}

/// Runs a compute binary over `groups` workgroups; storage buffers in `res` are updated.
pub fn run_compute(
    binary: &Binary,
    res: &mut Resources,
    groups: [u32; 3],
) -> Result<Stats, SimError> {
    if binary.metadata.stage != Stage::Compute {
        return Err(SimError::Stage("run_compute needs a compute shader".into()));
    }
    let program = program(binary, SimStage::Compute)?;
    let mut sim = Simulator::new();
    let bound = bind(
        &mut sim,
        binary,
        res,
        Dispatch {
            groups,
            ..Dispatch::default()
        },
    )?;
    let stats = sim.dispatch_compute(&program, groups, binary.metadata.workgroup_size)?;
    read_back(&sim, &bound, res)?;
    Ok(stats)
}

/// Shades `grid` with a fragment binary. Varying location `l` is `ld_var` slot `l`; the
/// interpreter's affine varyings map onto the simulator's planes one to one.
pub fn run_fragment(
    binary: &Binary,
    res: &mut Resources,
    grid: &FragmentGrid,
) -> Result<FragmentResult, SimError> {
    if binary.metadata.stage != Stage::Fragment {
        return Err(SimError::Stage(
            "run_fragment needs a fragment shader".into(),
        ));
    }
    let abi = &binary.metadata.abi;
    let program = program(binary, SimStage::Fragment)?;
    let mut sim = Simulator::new();
    let bound = bind(
        &mut sim,
        binary,
        res,
        Dispatch {
            framebuffer: [grid.width, grid.height],
            depth: grid.depth,
            ..Dispatch::default()
        },
    )?;
    let slots = abi.varyings.iter().copied().max().map_or(0, |m| m + 1) as usize;
    let mut varyings = vec![Varying::default(); slots];
    for (&loc, v) in &grid.varyings {
        if let Some(slot) = varyings.get_mut(loc as usize) {
            slot.planes = std::array::from_fn(|c| Plane {
                base: v.base[c],
                ddx: v.ddx[c],
                ddy: v.ddy[c],
            });
        }
    }
    for &l in &abi.flat_varyings {
        if let Some(slot) = varyings.get_mut(l as usize) {
            slot.flat = true;
        }
    }
    let targets = abi
        .render_targets
        .iter()
        .copied()
        .max()
        .map_or(0, |m| m + 1) as usize;
    let mut clear = vec![grid.clear; targets];
    if let Some(t) = abi.depth_target {
        clear[usize::from(t)] = [grid.clear_depth; 4];
    }
    let setup = FragmentSetup {
        width: grid.width,
        height: grid.height,
        varyings,
        clear,
    };
    let out = sim.shade_fragments(&program, &setup)?;
    read_back(&sim, &bound, res)?;
    let mut colour = BTreeMap::new();
    for &rt in &abi.render_targets {
        if Some(rt) == abi.depth_target {
            continue;
        }
        if let Some(t) = out.targets.get(usize::from(rt)) {
            colour.insert(u32::from(rt), t.pixels.clone());
        }
    }
    let depth = abi.depth_target.and_then(|t| {
        out.targets
            .get(usize::from(t))
            .map(|t| t.pixels.iter().map(|p| p[0]).collect())
    });
    Ok(FragmentResult {
        targets: colour,
        depth,
        stats: out.stats,
    })
}

/// Runs a vertex binary (a compute program, see the ABI) over `vertex_count` vertices with
/// four f32 attributes per vertex and location.
pub fn run_vertex(
    binary: &Binary,
    res: &Resources,
    vertex_count: u32,
    attributes: &BTreeMap<u32, Vec<[f32; 4]>>,
) -> Result<VertexResult, SimError> {
    if binary.metadata.stage != Stage::Vertex {
        return Err(SimError::Stage("run_vertex needs a vertex shader".into()));
    }
    let abi = &binary.metadata.abi;
    let program = program(binary, SimStage::Compute)?;
    let mut sim = Simulator::new();
    let groups = vertex_count.div_ceil(32).max(1);
    let _bound = bind(
        &mut sim,
        binary,
        res,
        Dispatch {
            groups: [groups, 1, 1],
            vertex_count,
            ..Dispatch::default()
        },
    )?;
    let mut outputs: BTreeMap<OutputSlot, u64> = BTreeMap::new();
    let bytes = 16 * u64::from(vertex_count.max(1));
    for slot in &abi.uniforms {
        let index = u32::from(slot.index);
        match slot.content {
            UniformContent::VertexInput(l) => {
                let data = attributes
                    .get(&l)
                    .ok_or_else(|| SimError::Missing(format!("vertex attribute {l}")))?;
                let mut raw = Vec::with_capacity(data.len() * 16);
                for v in data {
                    for c in v {
                        raw.extend_from_slice(&c.to_le_bytes());
                    }
                }
                let addr = sim.alloc_bytes(&raw)?;
                sim.set_uniform64(index, addr)?;
            }
            UniformContent::VertexOutput(s) => {
                let addr = sim.alloc(bytes, 16)?;
                let init: Vec<u8> = match s {
                    OutputSlot::PointSize => (0..4 * vertex_count.max(1))
                        .flat_map(|_| 1.0f32.to_le_bytes())
                        .collect(),
                    _ => vec![0; bytes as usize],
                };
                sim.write(addr, &init)?;
                sim.set_uniform64(index, addr)?;
                outputs.insert(s, addr);
            }
            _ => {}
        }
    }
    let stats = sim.dispatch_compute(&program, [groups, 1, 1], [32, 1, 1])?;
    let mut out = BTreeMap::new();
    for (slot, addr) in outputs {
        let words = sim.read_f32s(addr, 4 * vertex_count as usize)?;
        out.insert(
            slot,
            words
                .chunks_exact(4)
                .map(|c| [c[0], c[1], c[2], c[3]])
                .collect(),
        );
    }
    Ok(VertexResult {
        outputs: out,
        stats,
    })
}
