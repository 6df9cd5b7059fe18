//! Runs test programs on one SIMD-group and exposes its registers.

use std::collections::BTreeMap;

use crate::error::{Error, ExecError};
use crate::exec::{Machine, SimdGroup, ThreadIds};
use crate::memory::DeviceMemory;
use crate::program::{Program, ProgramMetadata, Stage};
use crate::runtime::Config;
use crate::stats::Stats;
use crate::texture::{SamplerDescriptor, TextureDescriptor};

/// The stop instruction.
pub const STOP: [u8; 2] = [0x88, 0x00];

/// A test environment: the state a dispatch shares.
pub struct Env {
    pub uniforms: [u32; 256],
    pub memory: DeviceMemory,
    pub config: Config,
    pub stats: Stats,
    pub tg: Vec<u8>,
    pub stack_size: u32,
    pub textures: BTreeMap<u32, TextureDescriptor>,
    pub samplers: BTreeMap<u32, SamplerDescriptor>,
}

impl Default for Env {
    fn default() -> Self {
        Env {
            uniforms: [0; 256],
            memory: DeviceMemory::new(),
            config: Config::default(),
            stats: Stats::default(),
            tg: vec![0; 256],
            stack_size: 64,
            textures: BTreeMap::new(),
            samplers: BTreeMap::new(),
        }
    }
}

impl Env {
    /// Runs `code` (a `stop` is appended) on one compute SIMD-group with `live` threads, after
    /// `setup` has initialised it.
    pub fn run(
        &mut self,
        code: &[u8],
        live: u32,
        setup: impl FnOnce(&mut SimdGroup),
    ) -> Result<SimdGroup, Error> {
        let mut full = code.to_vec();
        full.extend_from_slice(&STOP);
        let meta = ProgramMetadata {
            stage: Stage::Compute,
            gpr_halves: 256,
            threadgroup_memory: self.tg.len() as u32,
            stack_size: self.stack_size,
        };
        let program = Program::load(&full, meta)?;
        let mut g = SimdGroup::new(0, live, ThreadIds::default(), &self.config, self.stack_size);
        setup(&mut g);
        let mut machine = Machine {
            program: &program,
            config: &self.config,
            uniforms: &mut self.uniforms,
            memory: &mut self.memory,
            textures: &self.textures,
            samplers: &self.samplers,
            stats: &mut self.stats,
            fragment: None,
        };
        machine.run(&mut g, &mut self.tg).map_err(Error::from)?;
        Ok(g)
    }
}

/// Runs `code` on 32 live threads after `setup`; panics on failure.
pub fn run(code: &[u8], setup: impl FnOnce(&mut SimdGroup)) -> SimdGroup {
    Env::default()
        .run(code, u32::MAX, setup)
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Runs `code` and returns the execution error it must produce.
pub fn run_err(code: &[u8], live: u32, setup: impl FnOnce(&mut SimdGroup)) -> ExecError {
    match Env::default().run(code, live, setup) {
        Err(Error::Exec(e)) => e,
        Err(other) => panic!("expected an execution error, got {other}"),
        Ok(_) => panic!("expected an execution error, the program ran"),
    }
}

/// Sets 32-bit register `n` of every lane from `f(lane)`.
pub fn set32(g: &mut SimdGroup, n: u8, f: impl Fn(usize) -> u32) {
    let v: [u32; 32] = std::array::from_fn(f);
    g.regs.set32(n, &v, u32::MAX);
}

/// Sets half `h` of every lane from `f(lane)`.
pub fn set16(g: &mut SimdGroup, h: u8, f: impl Fn(usize) -> u16) {
    let v: [u32; 32] = std::array::from_fn(|l| u32::from(f(l)));
    g.regs.set_half(h, &v, u32::MAX);
}

/// 32-bit register `n` of lane `l`.
pub fn get32(g: &SimdGroup, n: u8, l: usize) -> u32 {
    g.regs.r[usize::from(n)][l]
}

/// Half `h` of lane `l`.
pub fn get16(g: &SimdGroup, h: u8, l: usize) -> u16 {
    g.regs.half(h)[l] as u16
}
