//! A loaded program: the code decoded once, its metadata checked, and per-instruction facts the
//! executor needs on every step (class, cost, registers for the timing model, hints) computed
//! up front.

use crate::decode::inst::{Decoded, Hint, Inst, Src};
use crate::decode::{decode_program, visit_registers};
use crate::error::LoadError;
use crate::timing::{classify, regs32, threads_per_core, Cost};

/// Which kind of shader a program is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// A compute kernel, run over a grid of workgroups.
    Compute,
    /// A fragment shader, run over a grid of pixels in 2x2 quads.
    Fragment,
}

impl Stage {
    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Compute => "compute",
            Stage::Fragment => "fragment",
        }
    }
}

/// What a program declares about itself, supplied with its code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProgramMetadata {
    /// The shader stage.
    pub stage: Stage,
    /// 16-bit registers used: the program may touch halves `0 .. gpr_halves` (`r0l` is half 0,
    /// `r0h` half 1, ...). 1..=256. Decides occupancy.
    pub gpr_halves: u32,
    /// Bytes of threadgroup memory per workgroup.
    pub threadgroup_memory: u32,
    /// Bytes of stack (spill space) per thread.
    pub stack_size: u32,
}

impl ProgramMetadata {
    /// A compute program using `gpr_halves` halves, no threadgroup memory, no stack.
    pub fn compute(gpr_halves: u32) -> Self {
        ProgramMetadata {
            stage: Stage::Compute,
            gpr_halves,
            threadgroup_memory: 0,
            stack_size: 0,
        }
    }

    /// A fragment program using `gpr_halves` halves, no threadgroup memory, no stack.
    pub fn fragment(gpr_halves: u32) -> Self {
        ProgramMetadata {
            stage: Stage::Fragment,
            gpr_halves,
            threadgroup_memory: 0,
            stack_size: 0,
        }
    }
}

/// Per-instruction facts computed at load.
#[derive(Debug, Clone)]
pub(crate) struct InstMeta {
    pub class_index: usize,
    /// Bit `h` set: the instruction writes half `h`.
    pub written: [u64; 4],
    pub cost: Cost,
    pub reads: Vec<u8>,
    pub writes: Vec<u8>,
    pub cache_hints: u32,
    pub discards: Vec<crate::decode::inst::Reg>,
}

impl InstMeta {
    /// Whether the instruction writes half `h`.
    pub fn writes_half(&self, h: u32) -> bool {
        let h = h as usize;
        h < 256 && self.written[h / 64] >> (h % 64) & 1 == 1
    }
}

/// Occupancy implied by a program's register use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Occupancy {
    /// 16-bit registers used.
    pub gpr_halves: u32,
    /// Threads in flight per core (docs/g13.md's table).
    pub threads_per_core: u32,
}

/// A decoded, checked program.
#[derive(Debug, Clone)]
pub struct Program {
    code: Vec<u8>,
    pub(crate) insts: Vec<Decoded>,
    pub(crate) meta: Vec<InstMeta>,
    /// The program translated for the fast engine.
    pub(crate) fast: crate::fast::Code,
    index_of_pc: Vec<u32>,
    metadata: ProgramMetadata,
}

const NOT_AN_INSTRUCTION: u32 = u32::MAX;

/// The most threadgroup memory a program may declare, 16 MiB. The G13 itself has 32 KiB; the
/// simulator's bound is generous for compiler experiments and keeps a corrupt metadata word from
/// allocating gigabytes per workgroup.
pub const MAX_THREADGROUP_MEMORY: u32 = 1 << 24;

/// The most stack a program may declare per thread, 64 KiB: every SIMD-group allocates 32 of
/// them, so this bounds a 1024-thread workgroup's stacks to 64 MiB.
pub const MAX_STACK_SIZE: u32 = 1 << 16;

impl Program {
    /// Decodes `code` and checks it against `metadata`: every instruction must decode, every
    /// register it touches must lie below `metadata.gpr_halves`, and the memory sizes must be
    /// within [`MAX_THREADGROUP_MEMORY`] and [`MAX_STACK_SIZE`].
    pub fn load(code: &[u8], metadata: ProgramMetadata) -> Result<Program, LoadError> {
        if code.len() < 2 || u32::try_from(code.len()).is_err() {
            return Err(LoadError::CodeSize { size: code.len() });
        }
        for (field, value, min, max) in [
            ("gpr_halves", metadata.gpr_halves, 1, 256),
            (
                "threadgroup_memory",
                metadata.threadgroup_memory,
                0,
                MAX_THREADGROUP_MEMORY,
            ),
            ("stack_size", metadata.stack_size, 0, MAX_STACK_SIZE),
        ] {
            if !(min..=max).contains(&value) {
                return Err(LoadError::MetadataOutOfRange {
                    field,
                    value,
                    min,
                    max,
                });
            }
        }
        let insts = decode_program(code)?;
        let mut index_of_pc = vec![NOT_AN_INSTRUCTION; code.len()];
        let mut meta = Vec::with_capacity(insts.len());
        for (i, d) in insts.iter().enumerate() {
            index_of_pc[d.pc as usize] = i as u32;
            let mut bad = None;
            visit_registers(&d.inst, &mut |access| {
                let (first, count) = access.reg.halves();
                if first + count > metadata.gpr_halves && bad.is_none() {
                    bad = Some(access.reg);
                }
            });
            if let Some(reg) = bad {
                return Err(LoadError::RegisterOutOfRange {
                    pc: d.pc,
                    opcode: d.opcode,
                    register: reg,
                    declared: metadata.gpr_halves,
                });
            }
            meta.push(inst_meta(d));
        }
        let index_of = |pc: u32| match index_of_pc.get(pc as usize) {
            Some(&i) if i != NOT_AN_INSTRUCTION => Some(i as usize),
            _ => None,
        };
        let fast = crate::fast::Code::build(&insts, &meta, code.len() as u32, &index_of);
        Ok(Program {
            code: code.to_vec(),
            insts,
            meta,
            fast,
            index_of_pc,
            metadata,
        })
    }

    /// The code bytes.
    pub fn code(&self) -> &[u8] {
        &self.code
    }

    /// The decoded instructions, in address order.
    pub fn instructions(&self) -> &[Decoded] {
        &self.insts
    }

    /// The metadata the program was loaded with.
    pub fn metadata(&self) -> &ProgramMetadata {
        &self.metadata
    }

    /// The disassembly listing.
    pub fn disassemble(&self) -> String {
        crate::disasm::disassemble(&self.code)
    }

    /// Occupancy from the declared register use.
    pub fn occupancy(&self) -> Occupancy {
        Occupancy {
            gpr_halves: self.metadata.gpr_halves,
            threads_per_core: threads_per_core(self.metadata.gpr_halves).unwrap_or(0),
        }
    }

    /// Whether the program has a `uniform_store` (which changes state the whole dispatch shares).
    pub fn has_uniform_store(&self) -> bool {
        self.insts
            .iter()
            .any(|d| matches!(d.inst, Inst::UniformStore { .. }))
    }

    /// Whether the program has a device-memory `atomic`.
    pub fn has_device_atomics(&self) -> bool {
        self.insts
            .iter()
            .any(|d| matches!(d.inst, Inst::DeviceAtomic { .. }))
    }

    /// The index of the instruction starting at byte `pc`, if any.
    pub(crate) fn index_of(&self, pc: u32) -> Option<usize> {
        match self.index_of_pc.get(pc as usize) {
            Some(&i) if i != NOT_AN_INSTRUCTION => Some(i as usize),
            _ => None,
        }
    }
}

fn inst_meta(d: &Decoded) -> InstMeta {
    let inst = &d.inst;
    let (class, cost) = classify(d.opcode);
    let mut reads = Vec::new();
    let mut writes = Vec::new();
    let mut written = [0u64; 4];
    visit_registers(inst, &mut |access| {
        if access.write {
            let (first, count) = access.reg.halves();
            for h in first..(first + count).min(256) {
                written[h as usize / 64] |= 1 << (h % 64);
            }
            regs32(access.reg, &mut writes);
        } else {
            regs32(access.reg, &mut reads);
        }
    });
    let mut cache_hints = 0;
    let mut discards = Vec::new();
    let mut count_src = |s: &Src| {
        if let Src::Reg(reg, hint) = *s {
            match hint {
                Hint::Cache => cache_hints += 1,
                Hint::Discard => {
                    if !discards.contains(&reg) {
                        discards.push(reg);
                    }
                }
                Hint::None => {}
            }
        }
    };
    for_each_alu_src(inst, &mut count_src);
    if let Inst::Texture(t) = inst {
        if t.coords_discard {
            let n = t.dim.coord_components() + u32::from(t.dim.is_array());
            for i in 0..n {
                discards.push(crate::decode::inst::Reg::R32(
                    (u32::from(t.coords) + i).min(127) as u8,
                ));
            }
        }
    }
    cache_hints += dest_cache_hints(inst);
    InstMeta {
        class_index: class.index(),
        written,
        cost,
        reads,
        writes,
        cache_hints,
        discards,
    }
}

/// Calls `f` on every ALU-style source (those that carry cache/discard hints).
fn for_each_alu_src(inst: &Inst, f: &mut dyn FnMut(&Src)) {
    use crate::decode::inst::Compare;
    let cmp = |c: &Compare, f: &mut dyn FnMut(&Src)| match c {
        Compare::Int { a, b, .. } => {
            f(a);
            f(b);
        }
        Compare::Float { a, b, .. } => {
            f(&a.src);
            f(&b.src);
        }
    };
    match inst {
        Inst::Iadd { a, b, .. }
        | Inst::Asr { a, b, .. }
        | Inst::Bitop { a, b, .. }
        | Inst::Shuffle { a, b, .. } => {
            f(a);
            f(b);
        }
        Inst::Imadd { a, b, c, .. } | Inst::Bitfield { a, b, c, .. } => {
            f(a);
            f(b);
            f(c);
        }
        Inst::Convert { src, .. } => f(src),
        Inst::Alu { .. } => inst.alu_srcs().iter().for_each(&mut *f),
        Inst::Fma { a, b, c, .. } => {
            f(&a.src);
            f(&b.src);
            f(&c.src);
        }
        Inst::Fadd { a, b, .. } | Inst::Fmul { a, b, .. } => {
            f(&a.src);
            f(&b.src);
        }
        Inst::FUnary { a, .. } => f(&a.src),
        Inst::ExecStack { cmp: c, .. } | Inst::Ballot { cmp: c, .. } => cmp(c, f),
        Inst::Select { cmp: c, x, y, .. } => {
            cmp(c, f);
            f(x);
            f(y);
        }
        _ => {}
    }
}

fn dest_cache_hints(inst: &Inst) -> u32 {
    let cached = match inst {
        Inst::Mov { d, .. }
        | Inst::GetSr { d, .. }
        | Inst::Iadd { d, .. }
        | Inst::Imadd { d, .. }
        | Inst::Convert { d, .. }
        | Inst::Alu { d, .. }
        | Inst::Bitfield { d, .. }
        | Inst::Asr { d, .. }
        | Inst::Bitop { d, .. }
        | Inst::Select { d, .. }
        | Inst::Ballot { d, .. }
        | Inst::Shuffle { d, .. } => d.cache,
        Inst::Fma { d, .. }
        | Inst::Fadd { d, .. }
        | Inst::Fmul { d, .. }
        | Inst::FUnary { d, .. } => d.dst.cache,
        Inst::PopExec { cache, .. } | Inst::ExecStack { cache, .. } => *cache,
        _ => false,
    };
    u32::from(cached)
}
