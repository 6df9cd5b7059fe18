//! Runs test programs on one SIMD-group and exposes its registers. Every program runs on every
//! engine (the reference executor, the fast engine as configured by default, and the fast
//! engine with its straight runs compiled to host code), from identical copies of the
//! environment, and everything they leave behind must agree: the result or error, the
//! SIMD-group's registers, checker state, execution mask, timing and stack, device memory,
//! uniforms, threadgroup memory and statistics. So every unit test of an instruction's
//! semantics or of a checker is also a differential test of the fast engine.

use std::collections::BTreeMap;

use crate::error::{Error, ExecError};
use crate::exec::{Machine, Scratch, SimdGroup, ThreadIds};
use crate::memory::DeviceMemory;
use crate::program::{Program, ProgramMetadata, Stage};
use crate::runtime::{Config, Engine};
use crate::stats::Stats;
use crate::texture::{SamplerDescriptor, TextureDescriptor};

/// The stop instruction.
pub const STOP: [u8; 2] = [0x88, 0x00];

/// A test environment: the state a dispatch shares.
#[derive(Clone)]
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
        setup: impl Fn(&mut SimdGroup),
    ) -> Result<SimdGroup, Error> {
        let start = self.clone();
        let reference = self.run_on(Engine::Reference, code, live, &setup);
        for engine in [Engine::Fast, Engine::FastCompiled] {
            let mut fast = start.clone();
            let other = fast.run_on(engine, code, live, &setup);
            assert_eq!(reference, other, "{engine:?} disagrees on the result");
            assert_eq!(
                self.uniforms, fast.uniforms,
                "{engine:?} disagrees on uniforms"
            );
            assert_eq!(
                self.tg, fast.tg,
                "{engine:?} disagrees on threadgroup memory"
            );
            assert_eq!(self.stats, fast.stats, "{engine:?} disagrees on statistics");
            let spans: Vec<_> = self.memory.allocations().collect();
            assert_eq!(spans, fast.memory.allocations().collect::<Vec<_>>());
            for (address, len) in spans {
                assert_eq!(
                    self.memory.read(address, len).ok(),
                    fast.memory.read(address, len).ok(),
                    "{engine:?} disagrees on device memory at {address:#x}"
                );
            }
        }
        reference
    }

    /// Runs `code` on one engine.
    fn run_on(
        &mut self,
        engine: Engine,
        code: &[u8],
        live: u32,
        setup: &dyn Fn(&mut SimdGroup),
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
        let config = Config {
            engine,
            ..self.config
        };
        let mut g = SimdGroup::new(0, live, ThreadIds::default(), &config, self.stack_size);
        setup(&mut g);
        let mut scratch = Scratch::new(&program);
        let mut machine = Machine {
            program: &program,
            config: &config,
            uniforms: &mut self.uniforms,
            memory: &self.memory,
            textures: &self.textures,
            samplers: &self.samplers,
            stats: &mut self.stats,
            fragment: None,
        };
        let result = machine.run_with(&mut g, &mut self.tg, &mut scratch);
        scratch.flush(&program, &mut self.stats);
        #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
        assert!(
            !program.fast.compile_failed(),
            "Cranelift did not compile\n{}",
            program.disassemble()
        );
        result.map_err(Error::from)?;
        Ok(g)
    }
}

/// Runs `code` on 32 live threads after `setup`; panics on failure.
pub fn run(code: &[u8], setup: impl Fn(&mut SimdGroup)) -> SimdGroup {
    Env::default()
        .run(code, u32::MAX, setup)
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Runs `code` and returns the execution error it must produce.
pub fn run_err(code: &[u8], live: u32, setup: impl Fn(&mut SimdGroup)) -> ExecError {
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
