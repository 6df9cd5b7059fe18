//! The runtime API: device memory, uniform registers, texture and sampler bindings, compute
//! dispatches and fragment shading, with statistics.
//!
//! Compute: a workgroup of `x * y * z` threads (at most 1024) is linearised x fastest
//! (`index = x + X * (y + Y * z)`) and cut into SIMD-groups of 32; the last may be partial (its
//! missing threads do not exist: they never run and never become active). Workgroups run one
//! after another; the SIMD-groups of a workgroup run in turn until each stops or reaches
//! `threadgroup_barrier`, which releases when all have arrived.
//!
//! Fragment: the `width x height` grid is covered by 2x2 quads, numbered row-major over quads
//! (quad `(qx, qy)` has number `qy * ceil(width / 2) + qx`); SIMD-group `s` holds quads
//! `8s .. 8s + 7`, lanes `4k .. 4k + 3` being quad `8s + k` with pixels (x, y), (x+1, y),
//! (x, y+1), (x+1, y+1). Pixels outside the grid (odd sizes) run as helper threads whose outputs
//! are dropped. Special registers 80/81 (`thread_position_in_grid.x/y`) give the pixel.

use std::collections::BTreeMap;

use crate::error::{Error, RuntimeError};
use crate::exec::{FragmentState, GroupState, Machine, SimdGroup, ThreadIds};
use crate::memory::DeviceMemory;
use crate::program::{Program, Stage};
use crate::stats::Stats;
use crate::texture::{SamplerDescriptor, TextureDescriptor};

pub use crate::exec::RenderTarget;

/// Simulator settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config {
    /// Instructions one SIMD-group may execute before the dispatch fails with a step-limit error
    /// (runaway loops end here).
    pub step_limit: u64,
    /// Treat reads of never-written registers as errors (off by default: shaders may
    /// legitimately read undefined values, e.g. SPIR-V `OpUndef`).
    pub check_uninitialized: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            step_limit: 1 << 24,
            check_uninitialized: false,
        }
    }
}

/// One component of a varying: `value(x, y) = base + ddx * (x + 0.5) + ddy * (y + 0.5)` at
/// pixel centres.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Plane {
    /// Value at (-0.5, -0.5), the plane's constant term.
    pub base: f32,
    /// Change per pixel to the right.
    pub ddx: f32,
    /// Change per pixel down.
    pub ddy: f32,
}

impl Plane {
    /// A constant plane.
    pub fn constant(value: f32) -> Self {
        Plane {
            base: value,
            ddx: 0.0,
            ddy: 0.0,
        }
    }
}

/// A varying slot: what `ld_var` with `index = n` reads for slot `n` of
/// [`FragmentSetup::varyings`]. Component `j` (x, y, z, w) is plane `j`.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Varying {
    /// The four component planes.
    pub planes: [Plane; 4],
    /// Flat: every pixel reads `base`.
    pub flat: bool,
}

/// What a fragment dispatch shades.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FragmentSetup {
    /// Grid width in pixels.
    pub width: u32,
    /// Grid height in pixels.
    pub height: u32,
    /// Varying slots, by `ld_var` index.
    pub varyings: Vec<Varying>,
    /// One clear colour per render target; `st_tile` render target `n` is `clear[n]`'s target.
    pub clear: Vec<[f32; 4]>,
}

/// The result of a fragment dispatch.
#[derive(Debug, Clone, PartialEq)]
pub struct FragmentOutput {
    /// The render targets, RGBA f32, rows top to bottom, `(x, y)` at `y * width + x`.
    pub targets: Vec<RenderTarget>,
    /// Statistics.
    pub stats: Stats,
}

/// The largest workgroup.
pub const MAX_WORKGROUP_THREADS: u32 = 1024;

/// The largest fragment grid, in pixels (8192 x 8192): the render targets are host memory.
pub const MAX_FRAGMENT_PIXELS: u64 = 1 << 26;

/// A simulated device: memory, uniforms, bindings and settings.
#[derive(Debug, Clone)]
pub struct Simulator {
    memory: DeviceMemory,
    uniforms: [u32; 256],
    /// Bindings by slot; sparse, so that any slot number costs one entry.
    textures: BTreeMap<u32, TextureDescriptor>,
    samplers: BTreeMap<u32, SamplerDescriptor>,
    config: Config,
}

impl Default for Simulator {
    fn default() -> Self {
        Self::new()
    }
}

impl Simulator {
    /// A simulator with empty memory, zero uniforms, nothing bound and the default settings.
    pub fn new() -> Self {
        Self::with_config(Config::default())
    }

    /// A simulator with settings `config`.
    pub fn with_config(config: Config) -> Self {
        Simulator {
            memory: DeviceMemory::new(),
            uniforms: [0; 256],
            textures: BTreeMap::new(),
            samplers: BTreeMap::new(),
            config,
        }
    }

    /// The settings.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The settings, mutable.
    pub fn config_mut(&mut self) -> &mut Config {
        &mut self.config
    }

    /// Device memory.
    pub fn memory(&self) -> &DeviceMemory {
        &self.memory
    }

    /// Device memory, mutable.
    pub fn memory_mut(&mut self) -> &mut DeviceMemory {
        &mut self.memory
    }

    /// Allocates `size` zeroed bytes aligned to `align` and returns the address.
    pub fn alloc(&mut self, size: u64, align: u64) -> Result<u64, Error> {
        Ok(self.memory.alloc(size, align)?)
    }

    /// Allocates a buffer holding `bytes` (aligned to 16) and returns its address.
    pub fn alloc_bytes(&mut self, bytes: &[u8]) -> Result<u64, Error> {
        let address = self.memory.alloc(bytes.len().max(1) as u64, 16)?;
        self.memory.write(address, bytes)?;
        Ok(address)
    }

    /// Copies `bytes` to device memory at `address`.
    pub fn write(&mut self, address: u64, bytes: &[u8]) -> Result<(), Error> {
        Ok(self.memory.write(address, bytes)?)
    }

    /// Reads `len` bytes of device memory at `address`.
    pub fn read(&self, address: u64, len: u64) -> Result<Vec<u8>, Error> {
        Ok(self.memory.read(address, len)?)
    }

    /// Reads `count` little-endian 32-bit words at `address`.
    pub fn read_u32s(&self, address: u64, count: usize) -> Result<Vec<u32>, Error> {
        let bytes = self.memory.read(address, 4 * count as u64)?;
        Ok(bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
    }

    /// Reads `count` little-endian f32 values at `address`.
    pub fn read_f32s(&self, address: u64, count: usize) -> Result<Vec<f32>, Error> {
        Ok(self
            .read_u32s(address, count)?
            .into_iter()
            .map(f32::from_bits)
            .collect())
    }

    /// Sets the 16-bit uniform `half` (0 = `u0l`, 1 = `u0h`, ..., 511 = `u255h`).
    pub fn set_uniform16(&mut self, half: u32, value: u16) -> Result<(), Error> {
        if half >= 512 {
            return Err(RuntimeError::UniformIndex {
                index: half,
                what: "16-bit",
            }
            .into());
        }
        let word = &mut self.uniforms[half as usize / 2];
        let shift = 16 * (half % 2);
        *word = (*word & !(0xffff << shift)) | (u32::from(value) << shift);
        Ok(())
    }

    /// Sets the 32-bit uniform `u<index>`.
    pub fn set_uniform32(&mut self, index: u32, value: u32) -> Result<(), Error> {
        let slot = self
            .uniforms
            .get_mut(index as usize)
            .ok_or(RuntimeError::UniformIndex {
                index,
                what: "32-bit",
            })?;
        *slot = value;
        Ok(())
    }

    /// Sets the 64-bit uniform pair `u<index>:u<index+1>` (low word first), as memory
    /// instructions read a base address.
    pub fn set_uniform64(&mut self, index: u32, value: u64) -> Result<(), Error> {
        if index >= 255 {
            return Err(RuntimeError::UniformIndex {
                index,
                what: "64-bit",
            }
            .into());
        }
        self.uniforms[index as usize] = value as u32;
        self.uniforms[index as usize + 1] = (value >> 32) as u32;
        Ok(())
    }

    /// The 32-bit uniform `u<index>` (`uniform_store` may change the uniforms).
    pub fn uniform32(&self, index: u32) -> Option<u32> {
        self.uniforms.get(index as usize).copied()
    }

    /// Binds a texture to slot `slot` (the texture instructions' `T` operand).
    pub fn bind_texture(&mut self, slot: u32, texture: TextureDescriptor) {
        self.textures.insert(slot, texture);
    }

    /// Binds a sampler to slot `slot` (the texture instructions' `S` operand).
    pub fn bind_sampler(&mut self, slot: u32, sampler: SamplerDescriptor) {
        self.samplers.insert(slot, sampler);
    }

    fn machine<'a>(
        &'a mut self,
        program: &'a Program,
        stats: &'a mut Stats,
        fragment: Option<&'a mut FragmentState>,
    ) -> Machine<'a> {
        Machine {
            program,
            config: &self.config,
            uniforms: &mut self.uniforms,
            memory: &mut self.memory,
            textures: &self.textures,
            samplers: &self.samplers,
            stats,
            fragment,
        }
    }

    /// Runs a compute program over `groups` workgroups of `workgroup` threads each.
    pub fn dispatch_compute(
        &mut self,
        program: &Program,
        groups: [u32; 3],
        workgroup: [u32; 3],
    ) -> Result<Stats, Error> {
        let meta = *program.metadata();
        if meta.stage != Stage::Compute {
            return Err(wrong_stage("dispatch_compute", Stage::Compute, meta.stage));
        }
        let threads = workgroup
            .iter()
            .try_fold(1u32, |acc, &n| acc.checked_mul(n));
        let threads = match threads {
            Some(t) if (1..=MAX_WORKGROUP_THREADS).contains(&t) => t,
            _ => {
                return Err(RuntimeError::WorkgroupSize {
                    size: workgroup,
                    max: MAX_WORKGROUP_THREADS,
                }
                .into())
            }
        };
        let simd_count = threads.div_ceil(32);
        let mut stats = Stats {
            occupancy: Some(program.occupancy()),
            ..Stats::default()
        };
        let config = self.config;
        let mut tg = vec![0u8; meta.threadgroup_memory as usize];
        let mut machine = self.machine(program, &mut stats, None);
        let mut group_id = 0u32;
        for gz in 0..groups[2] {
            for gy in 0..groups[1] {
                for gx in 0..groups[0] {
                    let group = [gx, gy, gz];
                    let mut simds: Vec<SimdGroup> = (0..simd_count)
                        .map(|s| {
                            let ids = compute_ids(group, workgroup, s, threads);
                            let live = live_mask(threads, s);
                            SimdGroup::new(
                                group_id.wrapping_add(s),
                                live,
                                ids,
                                &config,
                                meta.stack_size,
                            )
                        })
                        .collect();
                    group_id = group_id.wrapping_add(simd_count);
                    tg.fill(0);
                    run_workgroup(&mut machine, &mut simds, &mut tg)?;
                    for g in &simds {
                        machine.stats.cycles.push(g.timing.cycles());
                    }
                    machine.stats.simd_groups += u64::from(simd_count);
                }
            }
        }
        Ok(stats)
    }

    /// Shades a `width x height` fragment grid with `program` (see the module docs for the quad
    /// layout) and returns the render targets.
    pub fn shade_fragments(
        &mut self,
        program: &Program,
        setup: &FragmentSetup,
    ) -> Result<FragmentOutput, Error> {
        let meta = *program.metadata();
        if meta.stage != Stage::Fragment {
            return Err(wrong_stage("shade_fragments", Stage::Fragment, meta.stage));
        }
        let (width, height) = (setup.width, setup.height);
        if width == 0 || height == 0 || u64::from(width) * u64::from(height) > MAX_FRAGMENT_PIXELS {
            return Err(RuntimeError::FragmentGrid {
                width,
                height,
                max: MAX_FRAGMENT_PIXELS,
            }
            .into());
        }
        let mut fs = FragmentState {
            varyings: setup.varyings.clone(),
            targets: setup
                .clear
                .iter()
                .map(|&c| RenderTarget::new(width, height, c))
                .collect(),
            width,
            height,
        };
        let quads_x = width.div_ceil(2);
        let quads = quads_x * height.div_ceil(2);
        let simd_count = quads.div_ceil(8);
        let mut stats = Stats {
            occupancy: Some(program.occupancy()),
            ..Stats::default()
        };
        let config = self.config;
        let mut tg = vec![0u8; meta.threadgroup_memory as usize];
        let mut machine = self.machine(program, &mut stats, Some(&mut fs));
        for s in 0..simd_count {
            let mut ids = ThreadIds::default();
            let mut live = 0u32;
            let mut helper = 0u32;
            for k in 0..8 {
                let q = 8 * s + k;
                if q >= quads {
                    break;
                }
                for j in 0..4 {
                    let l = (4 * k + j) as usize;
                    let x = 2 * (q % quads_x) + (j & 1);
                    let y = 2 * (q / quads_x) + (j >> 1);
                    ids.global[0][l] = x;
                    ids.global[1][l] = y;
                    ids.index_in_group[l] = l as u32;
                    live |= 1 << l;
                    if x >= width || y >= height {
                        helper |= 1 << l;
                    }
                }
            }
            ids.group_size = [32, 1, 1];
            let mut g = SimdGroup::new(s, live, ids, &config, meta.stack_size);
            g.helper = helper;
            tg.fill(0);
            run_workgroup(&mut machine, std::slice::from_mut(&mut g), &mut tg)?;
            machine.stats.cycles.push(g.timing.cycles());
            machine.stats.simd_groups += 1;
        }
        Ok(FragmentOutput {
            targets: fs.targets,
            stats,
        })
    }
}

fn wrong_stage(call: &'static str, needed: Stage, got: Stage) -> Error {
    RuntimeError::WrongStage {
        call,
        needed: needed.name(),
        got: got.name(),
    }
    .into()
}

/// The threads of SIMD-group `s` that exist in a workgroup of `threads` threads.
fn live_mask(threads: u32, s: u32) -> u32 {
    let remaining = threads - 32 * s;
    if remaining >= 32 {
        u32::MAX
    } else {
        (1u32 << remaining) - 1
    }
}

fn compute_ids(group: [u32; 3], size: [u32; 3], s: u32, threads: u32) -> ThreadIds {
    let mut ids = ThreadIds {
        group,
        group_size: size,
        simd_in_group: s,
        ..ThreadIds::default()
    };
    for l in 0..32u32 {
        let tid = 32 * s + l;
        if tid >= threads {
            break;
        }
        let local = [
            tid % size[0],
            (tid / size[0]) % size[1],
            tid / (size[0] * size[1]),
        ];
        for axis in 0..3 {
            ids.local[axis][l as usize] = local[axis];
            ids.global[axis][l as usize] = group[axis]
                .wrapping_mul(size[axis])
                .wrapping_add(local[axis]);
        }
        ids.index_in_group[l as usize] = tid;
    }
    ids
}

/// Runs the SIMD-groups of one workgroup to completion, releasing barriers when every
/// SIMD-group has arrived.
fn run_workgroup(
    machine: &mut Machine<'_>,
    groups: &mut [SimdGroup],
    tg: &mut [u8],
) -> Result<(), Error> {
    loop {
        for g in groups.iter_mut().filter(|g| g.state == GroupState::Running) {
            machine.run(g, tg)?;
        }
        let waiting = groups
            .iter()
            .filter(|g| g.state == GroupState::AtBarrier)
            .count();
        if waiting == 0 {
            return Ok(());
        }
        if let Some(stopped) = groups.iter().position(|g| g.state == GroupState::Stopped) {
            let g = groups.iter().find(|g| g.state == GroupState::AtBarrier);
            let pc = g.and_then(|g| machine.program.instructions().get(g.index.wrapping_sub(1)));
            return Err(crate::error::ExecError {
                pc: pc.map_or(0, |d| d.pc),
                simd_group: g.map_or(0, |g| g.id),
                kind: crate::error::ExecErrorKind::BarrierDeadlock {
                    stopped: stopped as u32,
                },
            }
            .into());
        }
        let release = groups.iter().map(|g| g.timing.now()).max().unwrap_or(0);
        for g in groups.iter_mut() {
            g.state = GroupState::Running;
            g.timing.advance_to(release);
        }
    }
}
