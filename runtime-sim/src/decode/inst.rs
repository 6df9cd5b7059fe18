//! The decoded form of an instruction: operands resolved into registers, uniforms and
//! immediates, conditions and formats into enums. The executor runs this form; the disassembler
//! prints it. Register numbering follows the document: a 16-bit register (half) index `h` names
//! `r(h/2)l` for even `h` and `r(h/2)h` for odd `h`; 32-bit registers are `r0..r127`; a 64-bit
//! register is a pair `rN:rN+1` named by `N`.

use crate::encoding::Opcode;

/// The sub-operation selectors, from the shared instruction description.
pub use agxc_g13_isa::ops::{BitfieldOp, ConvertMode, FUnaryOp, Precision, Round, StackOp};

pub use super::inst_memory::{
    AtomicOp, ImageLod, ImageWriteInst, LodMode, MemFormat, MemIndex, TexIndex, TexInstDim,
    TextureInst, TgBase, TgIndex,
};

/// A register-cache hint on a source register (docs/g13.md, "Register cache hints").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hint {
    /// No hint.
    None,
    /// Keep the value in the register cache.
    Cache,
    /// Invalidate the value after all operands are read.
    Discard,
}

/// A view of the general-purpose registers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reg {
    /// A 16-bit half, by half index (0..=255).
    Half(u8),
    /// A 32-bit register (0..=127).
    R32(u8),
    /// A 64-bit pair, by its low 32-bit register.
    R64(u8),
}

impl Reg {
    /// Width in bits.
    pub const fn bits(self) -> u32 {
        match self {
            Reg::Half(_) => 16,
            Reg::R32(_) => 32,
            Reg::R64(_) => 64,
        }
    }

    /// The first 16-bit half the view covers and how many halves it covers.
    pub const fn halves(self) -> (u32, u32) {
        match self {
            Reg::Half(h) => (h as u32, 1),
            Reg::R32(r) => (2 * r as u32, 2),
            Reg::R64(r) => (2 * r as u32, 4),
        }
    }
}

/// A source operand.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Src {
    /// An integer immediate: 8 bits zero-extended, a 16-bit value.
    Imm(u16),
    /// A float immediate (the document's 8-bit float immediate, decoded).
    FImm(f32),
    /// A 16-bit uniform by half index (0..=511).
    Uni16(u16),
    /// A 32-bit uniform (0..=255).
    Uni32(u8),
    /// A 64-bit uniform pair by its low 32-bit uniform.
    Uni64(u8),
    /// A register with its cache hint.
    Reg(Reg, Hint),
}

impl Src {
    /// Width in bits of the value the operand supplies (`thread_bit_size` in the document).
    pub const fn bits(self) -> u32 {
        match self {
            Src::Imm(_) | Src::Uni16(_) => 16,
            Src::FImm(_) | Src::Uni32(_) => 32,
            Src::Uni64(_) => 64,
            Src::Reg(r, _) => r.bits(),
        }
    }
}

/// A destination register with its cache hint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dst {
    /// The register.
    pub reg: Reg,
    /// The destination cache hint.
    pub cache: bool,
}

/// A float source: a source read as a float, then `abs`, then `neg`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FSrc {
    /// The operand.
    pub src: Src,
    /// Absolute value.
    pub abs: bool,
    /// Negate (after `abs`).
    pub neg: bool,
}

/// A float destination.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FDst {
    /// The register.
    pub dst: Dst,
    /// Saturate to [0, 1] (NaN and negatives to +0).
    pub sat: bool,
}

/// The relation of an integer comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IRel {
    /// Equal.
    Eq,
    /// Less than.
    Lt,
    /// Greater than.
    Gt,
}

/// An integer comparison (the document's `ICondition`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ICond {
    /// The relation.
    pub rel: IRel,
    /// Compare sign-extended (signed) values.
    pub signed: bool,
    /// Invert the result.
    pub invert: bool,
}

/// The relation of a float comparison, with docs/g13.md's correction (5 is `>=`, 6 is `<=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FRel {
    /// 0: equal.
    Eq,
    /// 1: less than.
    Lt,
    /// 2: greater than.
    Gt,
    /// 3: less than, a NaN operand loses (the comparison favours the non-NaN operand).
    LtNanLoses,
    /// 5: greater than or equal.
    Ge,
    /// 6: less than or equal.
    Le,
    /// 7: greater than, a NaN operand loses.
    GtNanLoses,
}

/// A float comparison (the document's `FCondition`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FCond {
    /// The relation.
    pub rel: FRel,
    /// Invert the result.
    pub invert: bool,
}

/// A comparison with its operands.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Compare {
    /// Integer comparison of two sources.
    Int {
        /// The condition.
        cond: ICond,
        /// Left operand.
        a: Src,
        /// Right operand.
        b: Src,
    },
    /// Float comparison of two float sources.
    Float {
        /// The condition.
        cond: FCond,
        /// Left operand.
        a: FSrc,
        /// Right operand.
        b: FSrc,
    },
}

/// A run of consecutive registers, all 16-bit or all 32-bit (the memory and texture
/// instructions' register operands).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RegRange {
    /// The first register: `Reg::Half` or `Reg::R32`.
    pub first: Reg,
    /// How many registers.
    pub count: u8,
}

impl RegRange {
    /// The most registers a run holds: one per bit of a 4-bit mask.
    pub const MAX_COUNT: u8 = 4;

    /// The `i`th register of the run.
    pub fn nth(self, i: u32) -> Reg {
        match self.first {
            Reg::Half(h) => Reg::Half((u32::from(h) + i) as u8),
            Reg::R32(r) => Reg::R32((u32::from(r) + i) as u8),
            Reg::R64(r) => Reg::R64((u32::from(r) + 2 * i) as u8),
        }
    }

    /// Whether the registers are 32-bit.
    pub fn is_32(self) -> bool {
        matches!(self.first, Reg::R32(_))
    }
}

/// The decoded operation.
#[derive(Debug, Clone, Copy, PartialEq)]
#[allow(missing_docs)] // field names are the document's operand names
pub enum Inst {
    Mov {
        d: Dst,
        imm: u32,
    },
    GetSr {
        d: Dst,
        sr: u8,
    },
    Iadd {
        d: Dst,
        a: Src,
        b: Src,
        a_sx: bool,
        b_sx: bool,
        neg: bool,
        shift: u8,
        sat: bool,
    },
    Imadd {
        d: Dst,
        a: Src,
        b: Src,
        c: Src,
        a_sx: bool,
        b_sx: bool,
        c_sx: bool,
        neg: bool,
        shift: u8,
        sat: bool,
    },
    Convert {
        d: Dst,
        src: Src,
        mode: ConvertMode,
        round: Round,
    },
    /// A form of the description's generic path (`agxc_g13_isa::operands`): its destination
    /// and its sources in the order the operand list gives (`srcs[n..]` are unused, `Imm(0)`).
    /// Decoded, printed and scanned from the list; run by `exec::table`.
    Alu {
        op: Opcode,
        d: Dst,
        srcs: [Src; agxc_g13_isa::operands::MAX_SRCS],
    },
    Bitfield {
        op: BitfieldOp,
        d: Dst,
        a: Src,
        b: Src,
        c: Src,
        m: u8,
    },
    Asr {
        high: bool,
        d: Dst,
        a: Src,
        b: Src,
    },
    Bitop {
        d: Dst,
        a: Src,
        b: Src,
        table: u8,
    },
    Fma {
        p: Precision,
        d: FDst,
        a: FSrc,
        b: FSrc,
        c: FSrc,
    },
    Fadd {
        p: Precision,
        d: FDst,
        a: FSrc,
        b: FSrc,
    },
    Fmul {
        p: Precision,
        d: FDst,
        a: FSrc,
        b: FSrc,
    },
    FUnary {
        op: FUnaryOp,
        d: FDst,
        a: FSrc,
    },
    Ret {
        reg: u8,
    },
    Stop,
    Trap,
    CallReg {
        reg: u8,
    },
    CallImm {
        offset: i32,
    },
    JmpIncomplete {
        offset: i32,
    },
    JmpExecAny {
        offset: i32,
    },
    JmpExecNone {
        offset: i32,
    },
    PopExec {
        n: u8,
        cache: bool,
    },
    ExecStack {
        op: StackOp,
        cmp: Compare,
        n: u8,
        cache: bool,
    },
    Select {
        d: Dst,
        cmp: Compare,
        x: Src,
        y: Src,
    },
    Ballot {
        d: Dst,
        cmp: Compare,
        quad: bool,
    },
    Shuffle {
        d: Dst,
        a: Src,
        b: Src,
        down: bool,
    },
    Wait {
        slot: u8,
    },
    Tile {
        load: bool,
        regs: RegRange,
        rt: u8,
        mask: u8,
        format: MemFormat,
    },
    LdVar {
        regs: RegRange,
        index: u8,
        mask: u8,
        perspective: bool,
    },
    UniformStore {
        regs: RegRange,
        offset: MemIndex,
        mask: u8,
        format: MemFormat,
    },
    Device {
        store: bool,
        regs: RegRange,
        base: Src,
        offset: MemIndex,
        format: MemFormat,
        mask: u8,
        shift: u8,
        slot: u8,
    },
    Stack {
        store: bool,
        regs: RegRange,
        offset: MemIndex,
        format: MemFormat,
        mask: u8,
    },
    StackGetPtr {
        reg: u8,
    },
    StackAdjust {
        amount: i32,
    },
    Threadgroup {
        store: bool,
        regs: RegRange,
        base: TgBase,
        offset: TgIndex,
        format: MemFormat,
        mask: u8,
    },
    Texture(TextureInst),
    ImageWrite(ImageWriteInst),
    Barrier,
    SampleMask {
        target: Src,
        mask: Src,
    },
    /// `atomic` on device memory (see `decode::atomic`).
    DeviceAtomic {
        op: AtomicOp,
        /// The 32-bit register receiving the old value, if wanted.
        dst: Option<u8>,
        /// One 32-bit register, two for `cmpxchg`.
        value: RegRange,
        base: Src,
        offset: MemIndex,
        slot: u8,
    },
    /// `local_atomic` on threadgroup memory (see `decode::atomic`).
    LocalAtomic {
        op: AtomicOp,
        /// The 32-bit register receiving the old value, if wanted.
        dst: Option<u8>,
        /// One 32-bit register, two for `cmpxchg`.
        value: RegRange,
        base: TgBase,
        offset: TgIndex,
    },
}

/// One decoded instruction of a program.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Decoded {
    /// Byte offset in the code.
    pub pc: u32,
    /// Length in bytes.
    pub len: u8,
    /// The table entry it matched.
    pub opcode: Opcode,
    /// The operation.
    pub inst: Inst,
}

impl Inst {
    /// The sources of a generic-path form ([`Inst::Alu`]), as many as its operand list has;
    /// empty for the other forms.
    pub fn alu_srcs(&self) -> &[Src] {
        match self {
            Inst::Alu { op, srcs, .. } => &srcs[..agxc_g13_isa::operands::src_count(*op)],
            _ => &[],
        }
    }
}
