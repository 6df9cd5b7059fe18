//! Running a compiled [`Binary`] in the G13 simulator (`agxc-runtime-sim`) with the reference
//! interpreter's resource types, so that one set of inputs drives both and the results compare
//! directly.
//!
//! It lives in the facade, not in `agxc-backend-agx`, so that the backend (which produces
//! binaries) does not depend on the simulator (which runs them): `agxc run`, the AmberScript
//! runner, the tests and the benchmarks use it from here.
//!
//! This is the runtime side of the ABI ([`agxc_backend_agx::abi`]): buffers are copied into device
//! memory, their addresses and every other ABI value written to the uniform registers, textures
//! and samplers converted to descriptors and bound to their slots; after the dispatch, storage
//! buffers are copied back into the [`Resources`].
//!
//! Every run takes [`SimOptions`]: the simulator's limits (instructions per SIMD-group, so a
//! runaway loop ends with an error instead of hanging the caller; instructions per dispatch;
//! threads per dispatch), its engine and host threads, and its uninitialized-register check,
//! on by default: the graph IR has no undefined values (SPIR-V `OpUndef` is lifted to zero), so
//! a read of a register no instruction has written is a compiler bug (a register given to two
//! values at once, a copy placed after its use) and must fail the run rather than read a stale
//! zero.
//!
//! A device-memory fault is reported against the resource it hit ([`faults::OutOfBounds`]:
//! the buffer's set and binding, the offset into it and its size), not only as an address.

use std::collections::BTreeMap;

use agxc_egraph::interp::{FragmentGrid, Resources};
use agxc_egraph::ir::{Binding, OutputSlot, Stage};
use agxc_runtime_sim::program::{Program, ProgramMetadata, Stage as SimStage};
use agxc_runtime_sim::runtime::{Config, Engine, FragmentSetup, Plane, Simulator, Varying};
use agxc_runtime_sim::stats::Stats;

use agxc_backend_agx::abi::{Abi, UniformContent};
use agxc_backend_agx::Binary;

pub mod crosscheck;
pub mod faults;
mod textures;

use faults::{Regions, Resource};

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
    /// Two simulator modes gave different results ([`crosscheck`]).
    #[error("simulator modes disagree: {0}")]
    Disagree(String),
    /// A device-memory access outside every allocation, located against the shader's
    /// resources.
    #[error("simulator: {0}")]
    OutOfBounds(Box<faults::OutOfBounds>),
}

/// How the simulator runs a binary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SimOptions {
    /// Instructions one SIMD-group may execute before the run fails with a step-limit error.
    pub step_limit: u64,
    /// SIMD-group instructions the whole dispatch or draw may execute.
    pub max_instructions: u64,
    /// Threads (compute) or pixels (fragment) a dispatch may have.
    pub max_grid_threads: u64,
    /// Fail on a read of a register half that no instruction has written for the reading
    /// thread.
    pub check_uninitialized: bool,
    /// The simulator's executor (both give identical results; the reference one is the
    /// specification the fast one is checked against).
    pub engine: Engine,
    /// Host threads (0: every core for large dispatches; see
    /// `agxc_runtime_sim::runtime::Config::threads`).
    pub threads: usize,
    /// Let programs with device atomics run on several threads (see
    /// `agxc_runtime_sim::runtime::Config::parallel_atomics`).
    pub parallel_atomics: bool,
}

impl Default for SimOptions {
    /// The simulator's own limits, engine and threads, and the uninitialized-register check on.
    fn default() -> Self {
        let c = Config::default();
        SimOptions {
            step_limit: c.step_limit,
            max_instructions: c.max_instructions,
            max_grid_threads: c.max_grid_threads,
            check_uninitialized: true,
            engine: c.engine,
            threads: c.threads,
            parallel_atomics: c.parallel_atomics,
        }
    }
}

impl SimOptions {
    fn simulator(&self) -> Simulator {
        Simulator::with_config(Config {
            step_limit: self.step_limit,
            max_instructions: self.max_instructions,
            max_grid_threads: self.max_grid_threads,
            check_uninitialized: self.check_uninitialized,
            engine: self.engine,
            threads: self.threads,
            parallel_atomics: self.parallel_atomics,
        })
    }
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

/// Runs the binary's preamble, if it has one, on the uniforms `sim` holds now: one thread,
/// once, before the main program (the backend's ABI, "Preamble"); it leaves its results in
/// the uniforms the main program reads. Its statistics are returned apart from the main
/// program's and end up in [`Stats::preamble`].
fn run_preamble(
    sim: &mut Simulator,
    binary: &Binary,
    bound: &Bound,
) -> Result<Option<Box<Stats>>, SimError> {
    let Some(p) = &binary.preamble else {
        return Ok(None);
    };
    let meta = ProgramMetadata {
        stage: SimStage::Compute,
        gpr_halves: p.gpr_halves,
        threadgroup_memory: 0,
        stack_size: 0,
    };
    let program = Program::load(&p.code, meta).map_err(|e| SimError::Simulator(e.into()))?;
    let stats = sim
        .dispatch_compute(&program, [1, 1, 1], [1, 1, 1])
        .map_err(|e| bound.regions.explain(e.into()))?;
    Ok(Some(Box::new(stats)))
}

/// Buffers in device memory, by binding, and the bound textures (storage images among them).
struct Bound {
    buffers: BTreeMap<Binding, (u64, usize)>,
    textures: textures::BoundTextures,
    regions: Regions,
}

fn bind(
    sim: &mut Simulator,
    binary: &Binary,
    res: &Resources,
    d: Dispatch,
) -> Result<Bound, SimError> {
    let mut buffers = BTreeMap::new();
    let mut regions = Regions::default();
    for (b, buf) in res.buffers() {
        let addr = sim.alloc_bytes(&buf.data)?;
        buffers.insert(b, (addr, buf.data.len()));
        regions.add(addr, buf.data.len() as u64, Resource::Buffer(b));
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
    for (address, len, b) in textures.regions() {
        regions.add(address, len, Resource::Texture(b));
    }
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
                regions.add(addr, push.len() as u64, Resource::PushConstants);
                sim.set_uniform64(index, addr)?;
            }
            UniformContent::PushWord(k) => sim.set_uniform32(index, word(k))?,
            // The tables the front end moved to memory (see `abi`, "Constant data").
            UniformContent::ConstantData => {
                let data = &binary.metadata.abi.constant_data;
                let addr = sim.alloc_bytes(data)?;
                regions.add(addr, data.len() as u64, Resource::ConstantData);
                sim.set_uniform64(index, addr)?;
            }
            // A push range: preloaded from the buffer bound now, so that a binary stays right
            // when the contents change between dispatches (zero past the end, like push words).
            UniformContent::BufferWord(b, k) => {
                let buf = res
                    .buffer(b)
                    .ok_or_else(|| missing(format!("uniform buffer {b}")))?;
                let mut w = [0u8; 4];
                for (i, byte) in w.iter_mut().enumerate() {
                    *byte = buf.data.get(4 * k as usize + i).copied().unwrap_or(0);
                }
                sim.set_uniform32(index, u32::from_le_bytes(w))?;
            }
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
            // The constant pool: preloaded as it is (see `abi`, "Constant pool").
            UniformContent::Constant(bits) => sim.set_uniform32(index, bits)?,
            // Written by the preamble (`run_preamble`); the vertex arrays by `run_vertex`.
            UniformContent::Preamble(_)
            | UniformContent::VertexInput(_)
            | UniformContent::VertexOutput(_) => {}
        }
    }
    Ok(Bound {
        buffers,
        textures,
        regions,
    })
}

/// Copies storage buffers and textures (which image stores may have written) back into `res`.
fn read_back(sim: &Simulator, bound: &Bound, res: &mut Resources) -> Result<(), SimError> {
    bound.textures.read_back(sim, res)?;
    for (&b, &(addr, len)) in &bound.buffers {
        if let Some(buf) = res.buffer_mut(b) {
            if buf.kind == agxc_egraph::interp::BufferKind::Storage {
                buf.data = sim.read(addr, len as u64)?;
            }
        }
    }
    Ok(())
}

/// Runs a compute binary over `groups` workgroups with the default [`SimOptions`]; storage
/// buffers in `res` are updated.
pub fn run_compute(
    binary: &Binary,
    res: &mut Resources,
    groups: [u32; 3],
) -> Result<Stats, SimError> {
    run_compute_with(binary, res, groups, &SimOptions::default())
}

/// [`run_compute`] with simulator options.
pub fn run_compute_with(
    binary: &Binary,
    res: &mut Resources,
    groups: [u32; 3],
    opts: &SimOptions,
) -> Result<Stats, SimError> {
    if binary.metadata.stage != Stage::Compute {
        return Err(SimError::Stage("run_compute needs a compute shader".into()));
    }
    let program = program(binary, SimStage::Compute)?;
    let mut sim = opts.simulator();
    let bound = bind(
        &mut sim,
        binary,
        res,
        Dispatch {
            groups,
            ..Dispatch::default()
        },
    )?;
    let preamble = run_preamble(&mut sim, binary, &bound)?;
    let mut stats = sim
        .dispatch_compute(&program, groups, binary.metadata.workgroup_size)
        .map_err(|e| bound.regions.explain(e.into()))?;
    stats.preamble = preamble;
    read_back(&sim, &bound, res)?;
    Ok(stats)
}

/// Shades `grid` with a fragment binary with the default [`SimOptions`]. Varying location `l`
/// is `ld_var` slot [`Abi::varying_slot`]`(l)`; the interpreter's affine varyings map onto the
/// simulator's planes one to one, and flat slots carry the words the interpreter's flat inputs
/// read
/// ([`Varying::flat_word`]).
///
/// [`Varying::flat_word`]: agxc_egraph::interp::Varying::flat_word
pub fn run_fragment(
    binary: &Binary,
    res: &mut Resources,
    grid: &FragmentGrid,
) -> Result<FragmentResult, SimError> {
    run_fragment_with(binary, res, grid, &SimOptions::default())
}

/// [`run_fragment`] with simulator options.
pub fn run_fragment_with(
    binary: &Binary,
    res: &mut Resources,
    grid: &FragmentGrid,
    opts: &SimOptions,
) -> Result<FragmentResult, SimError> {
    if binary.metadata.stage != Stage::Fragment {
        return Err(SimError::Stage(
            "run_fragment needs a fragment shader".into(),
        ));
    }
    let abi = &binary.metadata.abi;
    let program = program(binary, SimStage::Fragment)?;
    let mut sim = opts.simulator();
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
    let mut varyings = vec![Varying::default(); abi.varyings.len()];
    for (&loc, v) in &grid.varyings {
        if let Some(slot) = abi
            .varying_slot(loc)
            .and_then(|s| varyings.get_mut(s as usize))
        {
            slot.planes = std::array::from_fn(|c| Plane {
                base: v.base[c],
                ddx: v.ddx[c],
                ddy: v.ddy[c],
            });
        }
    }
    for &l in &abi.flat_varyings {
        if let Some(slot) = abi
            .varying_slot(l)
            .and_then(|s| varyings.get_mut(s as usize))
        {
            slot.flat = true;
        }
    }
    flat_words(abi, grid, &mut varyings)?;
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
    let preamble = run_preamble(&mut sim, binary, &bound)?;
    let mut out = sim
        .shade_fragments(&program, &setup)
        .map_err(|e| bound.regions.explain(e.into()))?;
    out.stats.preamble = preamble;
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

/// Puts each flat varying component's word ([`agxc_backend_agx::abi`], "Fragment stage") into its
/// plane's `base`, which the simulator's flat `ld_var` into a 32-bit register returns bit for
/// bit (signalling NaN patterns included).
fn flat_words(abi: &Abi, grid: &FragmentGrid, slots: &mut [Varying]) -> Result<(), SimError> {
    let mut words: BTreeMap<(u32, u8), u32> = BTreeMap::new();
    for input in &abi.flat_inputs {
        let (l, c) = (input.location, input.component);
        let slot = abi.varying_slot(l).and_then(|s| slots.get_mut(s as usize));
        let (Some(v), Some(slot)) = (grid.varyings.get(&l), slot) else {
            continue;
        };
        let word = v.flat_word(usize::from(c.min(3)), input.ty);
        if words.insert((l, c), word).is_some_and(|w| w != word) {
            return Err(SimError::Unsupported(format!(
                "flat varying {l}.{c} is read as two types that need different words"
            )));
        }
        slot.planes[usize::from(c.min(3))].base = f32::from_bits(word);
    }
    Ok(())
}

/// Runs a vertex binary (a compute program, see the ABI) over `vertex_count` vertices with
/// four f32 attributes per vertex and location, with the default [`SimOptions`].
pub fn run_vertex(
    binary: &Binary,
    res: &Resources,
    vertex_count: u32,
    attributes: &BTreeMap<u32, Vec<[f32; 4]>>,
) -> Result<VertexResult, SimError> {
    run_vertex_with(
        binary,
        res,
        vertex_count,
        attributes,
        &SimOptions::default(),
    )
}

/// [`run_vertex`] with simulator options.
pub fn run_vertex_with(
    binary: &Binary,
    res: &Resources,
    vertex_count: u32,
    attributes: &BTreeMap<u32, Vec<[f32; 4]>>,
    opts: &SimOptions,
) -> Result<VertexResult, SimError> {
    if binary.metadata.stage != Stage::Vertex {
        return Err(SimError::Stage("run_vertex needs a vertex shader".into()));
    }
    let abi = &binary.metadata.abi;
    let program = program(binary, SimStage::Compute)?;
    let mut sim = opts.simulator();
    let groups = vertex_count.div_ceil(32).max(1);
    let mut bound = bind(
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
                bound
                    .regions
                    .add(addr, raw.len() as u64, Resource::VertexInput(l));
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
                bound.regions.add(addr, bytes, Resource::VertexOutput);
                sim.set_uniform64(index, addr)?;
                outputs.insert(s, addr);
            }
            _ => {}
        }
    }
    let preamble = run_preamble(&mut sim, binary, &bound)?;
    let mut stats = sim
        .dispatch_compute(&program, [groups, 1, 1], [32, 1, 1])
        .map_err(|e| bound.regions.explain(e.into()))?;
    stats.preamble = preamble;
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

#[cfg(test)]
mod tests {
    use agxc_egraph::interp::Resources;
    use agxc_egraph::ir::{parse_function, Binding, OpRegistry};
    use agxc_runtime_sim::error::ExecErrorKind;

    use super::*;
    use agxc_backend_agx::cflow::Lowered;
    use agxc_backend_agx::isa::{DeviceAccess, Instr, MemBase, MemFormat, MemOffset, PReg};
    use agxc_backend_agx::{compile, emit, CompileOptions};

    /// A compute binary storing `global_id.x` to `out[global_id.x]`: its ABI has the output
    /// buffer's address in a uniform pair.
    fn store_id() -> Binary {
        let func = parse_function(
            "function @store_id compute local_size(4, 1, 1) {
             block0:
                 v0:i32 = builtin global_id.x
                 v1:i32 = const 4
                 v2:i32 = imul v0, v1
                 store storage(0, 0) [v2], v0
                 return
             }",
            &OpRegistry::new(),
        )
        .expect("parses");
        compile(&func, &CompileOptions::default()).expect("compiles")
    }

    fn out_buffer() -> Resources {
        let mut res = Resources::new();
        res.bind_storage(Binding::new(0, 0), vec![0; 16]);
        res
    }

    /// `binary` with its code replaced by `code` (same ABI and metadata).
    fn with_code(binary: &Binary, code: &[Lowered]) -> Binary {
        let emitted = emit::emit(code).expect("encodes");
        Binary {
            code: emitted.code,
            ..binary.clone()
        }
    }

    fn exec_error(e: SimError) -> ExecErrorKind {
        match e {
            SimError::Simulator(agxc_runtime_sim::Error::Exec(e)) => e.kind,
            other => panic!("not an execution error: {other}"),
        }
    }

    #[test]
    fn a_runaway_loop_ends_at_the_given_step_limit() {
        let binary = store_id();
        // `jmp_exec_any` to itself: every thread stays active, so the loop never ends.
        let spin = with_code(
            &binary,
            &[
                Lowered::Label(agxc_backend_agx::isa::Label(0)),
                Lowered::Instr(Instr::JmpExecAny {
                    target: agxc_backend_agx::isa::JumpTarget::Label(agxc_backend_agx::isa::Label(
                        0,
                    )),
                }),
                Lowered::Instr(Instr::Stop),
            ],
        );
        // In every mode: both engines, one thread and several.
        for engine in [Engine::Fast, Engine::Reference] {
            for threads in [1, 3] {
                let opts = SimOptions {
                    step_limit: 1000,
                    engine,
                    threads,
                    ..SimOptions::default()
                };
                let e = run_compute_with(&spin, &mut out_buffer(), [4, 1, 1], &opts).unwrap_err();
                assert_eq!(exec_error(e), ExecErrorKind::StepLimit { limit: 1000 });
            }
        }
    }

    #[test]
    fn a_read_of_a_never_written_register_fails_the_run() {
        let binary = store_id();
        let Some(base) = binary
            .metadata
            .abi
            .uniforms
            .iter()
            .find_map(|u| match u.content {
                UniformContent::BufferAddress(_) => Some(u.index),
                _ => None,
            })
        else {
            panic!("the ABI has a buffer address");
        };
        // Stores r0 (within the registers the binary declares), which nothing writes.
        let store = Instr::DeviceStore(DeviceAccess {
            data: PReg::r32(0),
            base: MemBase::Uniform(base),
            offset: MemOffset::Imm(0),
            format: MemFormat::I32,
            mask: 1,
            shift: 0,
            slot: 0,
        });
        let bad = with_code(
            &binary,
            &[Lowered::Instr(store), Lowered::Instr(Instr::Stop)],
        );
        let e = run_compute(&bad, &mut out_buffer(), [1, 1, 1]).unwrap_err();
        assert!(
            matches!(exec_error(e), ExecErrorKind::UninitializedRead { .. }),
            "the default options check for uninitialized reads"
        );
        // Without the check the store runs: every thread stores the register file's initial
        // zero to element 0.
        let unchecked = SimOptions {
            check_uninitialized: false,
            ..SimOptions::default()
        };
        let mut res = out_buffer();
        res.bind_storage(Binding::new(0, 0), vec![0xff; 16]);
        run_compute_with(&bad, &mut res, [1, 1, 1], &unchecked).expect("runs unchecked");
        let mut expected = [0xffu8; 16];
        expected[..4].fill(0);
        assert_eq!(res.buffer_data(Binding::new(0, 0)), Some(&expected[..]));
    }

    #[test]
    fn an_out_of_bounds_store_names_the_binding_and_offset() {
        // Two workgroups of four store to elements 0..8 of a four-element buffer.
        let e = run_compute(&store_id(), &mut out_buffer(), [2, 1, 1]).unwrap_err();
        let SimError::OutOfBounds(oob) = &e else {
            panic!("not located: {e}");
        };
        assert_eq!(oob.resource, Resource::Buffer(Binding::new(0, 0)));
        assert_eq!((oob.offset, oob.size, oob.len), (16, 16, 4));
        assert_eq!((oob.access, oob.thread), ("store", 0));
        let text = e.to_string();
        assert!(
            text.contains("buffer (set 0, binding 0)") && text.contains("offset 16"),
            "{text}"
        );
    }

    #[test]
    fn whole_dispatches_are_bounded() {
        use agxc_runtime_sim::error::{Error, RuntimeError};
        let binary = store_id();
        let mut res = Resources::new();
        res.bind_storage(Binding::new(0, 0), vec![0; 64]);
        // Four workgroups of a few instructions each pass a budget of 8 SIMD-group
        // instructions after the second.
        let budget = SimOptions {
            max_instructions: 8,
            ..SimOptions::default()
        };
        match run_compute_with(&binary, &mut res, [4, 1, 1], &budget) {
            Err(SimError::Simulator(Error::Runtime(RuntimeError::InstructionBudget {
                limit: 8,
                item,
                what: "workgroup",
            }))) => assert!(item < 4),
            other => panic!("{other:?}"),
        }
        let grid = SimOptions {
            max_grid_threads: 8,
            ..SimOptions::default()
        };
        let e = run_compute_with(&binary, &mut res, [3, 1, 1], &grid).unwrap_err();
        assert!(e.to_string().contains("grid limit of 8 threads"), "{e}");
        assert!(run_compute_with(&binary, &mut res, [2, 1, 1], &grid).is_ok());
    }

    #[test]
    fn compiled_code_reads_only_written_registers() {
        let binary = store_id();
        let mut res = out_buffer();
        run_compute(&binary, &mut res, [1, 1, 1]).expect("runs with the check on");
        let words: Vec<u8> = (0u32..4).flat_map(|i| i.to_le_bytes()).collect();
        assert_eq!(res.buffer_data(Binding::new(0, 0)), Some(&words[..]));
    }
}
