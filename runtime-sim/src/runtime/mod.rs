//! The runtime API: device memory, uniform registers, texture and sampler bindings, compute
//! dispatches and fragment shading, with statistics.
//!
//! Compute: a workgroup of `x * y * z` threads (at most 1024) is linearised x fastest
//! (`index = x + X * (y + Y * z)`) and cut into SIMD-groups of 32; the last may be partial (its
//! missing threads do not exist: they never run and never become active). Workgroups run in
//! dispatch order on one host thread, or spread over several with the same results
//! (`dispatch`); the SIMD-groups of a workgroup run in turn until each stops or reaches
//! `threadgroup_barrier`, which releases when all have arrived.
//!
//! Fragment: the `width x height` grid is covered by 2x2 quads, numbered row-major over quads
//! (quad `(qx, qy)` has number `qy * ceil(width / 2) + qx`); SIMD-group `s` holds quads
//! `8s .. 8s + 7`, lanes `4k .. 4k + 3` being quad `8s + k` with pixels (x, y), (x+1, y),
//! (x, y+1), (x+1, y+1). Pixels outside the grid (odd sizes) run as helper threads whose outputs
//! are dropped. Special registers 80/81 (`thread_position_in_grid.x/y`) give the pixel.

use std::collections::BTreeMap;

use crate::error::{Error, RuntimeError};
use crate::exec::{FragmentState, SharedTarget};
use crate::memory::DeviceMemory;
use crate::program::{Program, Stage};
use crate::stats::Stats;
use crate::texture::{SamplerDescriptor, TextureDescriptor};

pub use crate::config::{
    Config, Engine, Plane, Varying, DEFAULT_MAX_GRID_THREADS, DEFAULT_MAX_INSTRUCTIONS,
    DEFAULT_STEP_LIMIT,
};
pub use crate::exec::RenderTarget;

mod dispatch;
mod grid;

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
        Ok(self.memory.alloc_bytes(bytes, 16)?)
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

    fn shared<'a>(
        &'a self,
        program: &'a Program,
        fragment: Option<&'a FragmentState>,
    ) -> dispatch::Shared<'a> {
        dispatch::Shared {
            program,
            config: &self.config,
            memory: &self.memory,
            textures: &self.textures,
            samplers: &self.samplers,
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
        let group_count = groups.iter().map(|&g| u64::from(g)).product::<u64>();
        let grid = u128::from(group_count) * u128::from(threads);
        if grid > u128::from(self.config.max_grid_threads) {
            return Err(RuntimeError::GridTooLarge {
                groups,
                workgroup,
                max: self.config.max_grid_threads,
            }
            .into());
        }
        let layout = grid::ComputeLayout::new(groups, workgroup, threads);
        let workers = dispatch::workers(&self.config, program, group_count);
        let mut uniforms = self.uniforms;
        let shared = self.shared(program, None);
        let run_item = |w: &mut dispatch::Worker<'_>, item: u64| layout.run_group(w, item);
        let result = dispatch::run(
            &shared,
            &mut uniforms,
            group_count,
            workers,
            "workgroup",
            &run_item,
        );
        self.uniforms = uniforms;
        let mut stats = result?;
        stats.occupancy = Some(program.occupancy());
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
        let pixels = u64::from(width) * u64::from(height);
        let max = MAX_FRAGMENT_PIXELS.min(self.config.max_grid_threads);
        if width == 0 || height == 0 || pixels > max {
            return Err(RuntimeError::FragmentGrid { width, height, max }.into());
        }
        let fs = FragmentState {
            varyings: setup.varyings.clone(),
            targets: setup
                .clear
                .iter()
                .map(|&c| SharedTarget::new(pixels as usize, c))
                .collect(),
            width,
            height,
        };
        let layout = grid::FragmentLayout::new(width, height);
        let simd_count = u64::from(layout.simd_groups());
        let workers = dispatch::workers(&self.config, program, simd_count);
        let mut uniforms = self.uniforms;
        let shared = self.shared(program, Some(&fs));
        let run_item = |w: &mut dispatch::Worker<'_>, item: u64| layout.run_simd_group(w, item);
        let result = dispatch::run(
            &shared,
            &mut uniforms,
            simd_count,
            workers,
            "SIMD-group",
            &run_item,
        );
        self.uniforms = uniforms;
        let mut stats = result?;
        stats.occupancy = Some(program.occupancy());
        Ok(FragmentOutput {
            targets: fs
                .targets
                .into_iter()
                .map(|t| t.finish(width, height))
                .collect(),
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
