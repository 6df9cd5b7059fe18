//! The machine instruction type, generic over the register operand.
//!
//! [`Instr<R>`] is one G13 instruction with its operands resolved into typed form. Instruction
//! selection builds `Instr<VReg>` over virtual registers (any type implementing
//! [`RegUnits`](super::RegUnits)); register allocation maps it to `Instr<PReg>` with
//! [`Instr::map_regs`]; the encoder and the disassembly printer take `Instr<PReg>`.
//!
//! Operand widths come from the register operands themselves (a 16-bit half, a 32-bit register,
//! a 64-bit pair, a run of registers), not from the opcode, because G13 ALU instructions take
//! 16- and 32-bit operands in the same encoding. Registers an instruction uses implicitly
//! (`r0l` of the execution-mask stack instructions, the link register `r1` of `call`) are not
//! operands; see [`Instr::implicit_regs`].

use super::mem::{
    DeviceAccess, DeviceAtomic, ImageWriteOp, StackAccess, TexOp, TgAccess, TgAtomic,
};
use super::operand::{Cmp, Dst, FSrc, IntSrc, JumpTarget, SpecialReg, Src};
use super::ops::{BitfieldOp, ConvertMode, FUnaryOp, Precision, Round, StackOp};
use super::PReg;
use agxc_g13_isa::operands;
use agxc_g13_isa::Opcode;

/// One G13 machine instruction over register type `R`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Instr<R> {
    /// `mov_imm`: broadcast an immediate. A 16-bit destination takes the 16-bit form (`imm`
    /// at most 0xffff), a 32-bit destination the 32-bit form.
    MovImm {
        /// Destination (16 or 32 bits).
        dst: Dst<R>,
        /// The value.
        imm: u32,
    },
    /// `get_sr`: read a special register.
    GetSr {
        /// Destination.
        dst: Dst<R>,
        /// Which special register.
        sr: SpecialReg,
    },
    /// `iadd`: `dst = a + (neg_b ? -b : b) << shift`, saturating if `sat` and `shift == 0`.
    Iadd {
        /// Destination (16, 32 or 64 bits).
        dst: Dst<R>,
        /// First addend.
        a: IntSrc<R>,
        /// Second addend (negated, shifted).
        b: IntSrc<R>,
        /// Subtract `b`.
        neg_b: bool,
        /// Left shift of `b`, 0..=4.
        shift: u8,
        /// Saturate (only with `shift == 0` and operands of at most 32 bits).
        sat: bool,
    },
    /// `imadd`: `dst = a * b + ((neg_c ? -c : c) << shift)`.
    Imadd {
        /// Destination (16, 32 or 64 bits).
        dst: Dst<R>,
        /// Multiplicand (at most 32 bits).
        a: IntSrc<R>,
        /// Multiplier (at most 32 bits).
        b: IntSrc<R>,
        /// Addend (negated, shifted; up to 64 bits).
        c: IntSrc<R>,
        /// Subtract `c`.
        neg_c: bool,
        /// Left shift of `c`, 0..=4.
        shift: u8,
        /// Saturate.
        sat: bool,
    },
    /// `convert`: integer/float conversion.
    Convert {
        /// Destination.
        dst: Dst<R>,
        /// Source.
        src: Src<R>,
        /// Conversion.
        mode: ConvertMode,
        /// Rounding.
        round: Round,
    },
    /// A form of the shared description's generic path (`agxc_g13_isa::operands`: `bitrev`,
    /// `popcount`, `ffs`, ...): a destination and ALU sources in the order of the form's
    /// operand list. Encoded, printed, parsed, mapped and scanned from that list, so a form
    /// added there needs no code here. Build it with [`Instr::alu`].
    Alu {
        /// Which form.
        op: Opcode,
        /// Destination.
        dst: Dst<R>,
        /// Sources: the first [`operands::src_count`] are the form's, the rest `Imm(0)`.
        srcs: [Src<R>; operands::MAX_SRCS],
    },
    /// `bfi`, `bfeil`, `extr`, `shlhi`, `shrhi`: `c` is the shift amount, `mask_bits` the field
    /// width (0 = 32 bits).
    Bitfield {
        /// Which operation.
        op: BitfieldOp,
        /// Destination.
        dst: Dst<R>,
        /// Base value.
        a: Src<R>,
        /// Inserted or shifted value.
        b: Src<R>,
        /// Shift amount (low 7 bits used).
        c: Src<R>,
        /// Field width in bits, 0..=31 (0 means all 32).
        mask_bits: u8,
    },
    /// `asr` (`high = false`) and `asrh`: arithmetic shift right of `a` by `b`.
    Asr {
        /// `asrh`: shift the sign-extended value placed in the high word.
        high: bool,
        /// Destination.
        dst: Dst<R>,
        /// Value.
        a: Src<R>,
        /// Shift amount.
        b: Src<R>,
    },
    /// `bitop`: any two-input bitwise function given by a truth table (see
    /// [`bitop`](super::ops::bitop)).
    Bitop {
        /// Destination.
        dst: Dst<R>,
        /// First input.
        a: Src<R>,
        /// Second input.
        b: Src<R>,
        /// Truth table, 4 bits.
        table: u8,
    },
    /// `fmadd32`/`fmadd16`: fused `a * b + c`.
    Fmadd {
        /// Precision of the operation.
        prec: Precision,
        /// Destination.
        dst: Dst<R>,
        /// Saturate the result to [0, 1].
        sat: bool,
        /// Multiplicand.
        a: FSrc<R>,
        /// Multiplier.
        b: FSrc<R>,
        /// Addend.
        c: FSrc<R>,
    },
    /// `fadd32`/`fadd16`.
    Fadd {
        /// Precision of the operation.
        prec: Precision,
        /// Destination.
        dst: Dst<R>,
        /// Saturate.
        sat: bool,
        /// First addend.
        a: FSrc<R>,
        /// Second addend.
        b: FSrc<R>,
    },
    /// `fmul32`/`fmul16`.
    Fmul {
        /// Precision of the operation.
        prec: Precision,
        /// Destination.
        dst: Dst<R>,
        /// Saturate.
        sat: bool,
        /// Multiplicand.
        a: FSrc<R>,
        /// Multiplier.
        b: FSrc<R>,
    },
    /// The one-source fp32 family: `floor`, `ceil`, `trunc`, `rint`, `rcp`, `rsqrt`,
    /// `rsqrt_special`, `sin_pt_1`, `sin_pt_2`, `log2`, `exp2`, `dfdx`, `dfdy`.
    FUnary {
        /// Which operation.
        op: FUnaryOp,
        /// Destination.
        dst: Dst<R>,
        /// Saturate.
        sat: bool,
        /// Source.
        a: FSrc<R>,
    },
    /// `stop`: end the SIMD-group.
    Stop,
    /// `trap`.
    Trap,
    /// `jmp_exec_any`: jump if any thread is active (loop back edges).
    JmpExecAny {
        /// Where to.
        target: JumpTarget,
    },
    /// `jmp_exec_none`: jump if no thread is active (skipping bodies).
    JmpExecNone {
        /// Where to.
        target: JumpTarget,
    },
    /// `call` to a pc-relative target; writes the return address to `r1`.
    Call {
        /// Where to.
        target: JumpTarget,
    },
    /// `ret`: return to the address in a 32-bit register (normally `r1`).
    Ret {
        /// The 32-bit register holding the return address.
        reg: R,
    },
    /// `pop_exec`: pop `n` execution-mask stack levels (implicitly reads and writes `r0l`).
    PopExec {
        /// Levels, 0..=3.
        n: u8,
        /// Cache hint on `r0l`.
        cache: bool,
    },
    /// `if_*cmp`, `else_*cmp`, `while_*cmp` (implicitly read and write `r0l`).
    ExecStack {
        /// Which operation.
        op: StackOp,
        /// The comparison; its kind selects the `icmp` or `fcmp` form.
        cmp: Cmp<R>,
        /// Invert the comparison (`ccn`).
        invert: bool,
        /// Levels, 0..=3.
        n: u8,
        /// Cache hint on `r0l`.
        cache: bool,
    },
    /// `icmpsel`/`fcmpsel`: `dst = cmp ? x : y`. `x` and `y` have the destination's width.
    Select {
        /// Destination.
        dst: Dst<R>,
        /// The comparison (no inversion: swap `x` and `y` instead).
        cmp: Cmp<R>,
        /// Result if the comparison holds.
        x: Src<R>,
        /// Result otherwise.
        y: Src<R>,
    },
    /// `wait`: wait for the loads of a slot.
    Wait {
        /// Slot, 0 or 1.
        slot: u8,
    },
    /// `threadgroup_barrier`.
    ThreadgroupBarrier,
    /// `st_tile`: write a fragment's colour to a render target.
    StTile {
        /// The colour: a run of 16- or 32-bit registers, one per set bit of `mask`.
        src: R,
        /// Render target, 0..=7.
        rt: u8,
        /// Components written (4 bits, not 0).
        mask: u8,
        /// Tile format (the simulator implements `i32`, `f16`, `unorm8`).
        format: super::MemFormat,
    },
    /// `uniform_store`: write a run of registers of the lowest active thread into uniform
    /// registers, for the rest of the dispatch (the preamble's results; `crate::preamble`).
    UniformStore {
        /// The value: a run of 16- or 32-bit registers, one per set bit of `mask`.
        src: R,
        /// The first uniform written, in 16-bit units (even for the `i32` format).
        offset: u16,
        /// Elements written (4 bits, not 0).
        mask: u8,
        /// `i16` or `i32`.
        format: super::MemFormat,
    },
    /// `ld_var`: read an interpolated varying.
    LdVar {
        /// Results: a run of 16- or 32-bit registers, one per set bit of `mask`.
        dst: R,
        /// Varying slot, 0..=15.
        index: u8,
        /// Components read (4 bits, not 0).
        mask: u8,
        /// Perspective-correct interpolation.
        perspective: bool,
    },
    /// `sample_mask targets, value` with immediate operands (Mesa's layout; the document
    /// lacks the instruction): for each active thread, the samples selected by `targets` take
    /// coverage from `value`. `sample_mask 1, 0` discards the active threads' pixels; the
    /// threads keep running.
    SampleMask {
        /// Samples updated, 0..=63.
        targets: u8,
        /// Their new coverage, 0..=63.
        value: u8,
    },
    /// `simd_shuffle dst, src, lane`: each thread reads `src` of the thread whose SIMD-group
    /// index is in its `lane`, restricted to the thread's own quad as the document's
    /// pseudocode defines it. Reads inactive threads too.
    SimdShuffle {
        /// Destination (16 or 32 bits).
        dst: R,
        /// Value read (the destination's width).
        src: R,
        /// Source lane per thread (a 16-bit register).
        lane: R,
    },
    /// `device_load`.
    DeviceLoad(DeviceAccess<R>),
    /// `device_store`.
    DeviceStore(DeviceAccess<R>),
    /// `stack_load` (reload of a spilled value).
    StackLoad(StackAccess<R>),
    /// `stack_store` (spill).
    StackStore(StackAccess<R>),
    /// `threadgroup_load`.
    ThreadgroupLoad(TgAccess<R>),
    /// `threadgroup_store`.
    ThreadgroupStore(TgAccess<R>),
    /// `texture_sample`.
    TextureSample(TexOp<R>),
    /// `texture_load`.
    TextureLoad(TexOp<R>),
    /// `atomic` (device memory).
    DeviceAtomic(DeviceAtomic<R>),
    /// `local_atomic` (threadgroup memory).
    ThreadgroupAtomic(TgAtomic<R>),
    /// `image_write`.
    ImageWrite(ImageWriteOp<R>),
}

impl<R: Copy> Instr<R> {
    /// The generic-path instruction `op` with destination `dst` and sources `srcs`, which must
    /// be as many as the form's operand list has (an instruction selection bug otherwise).
    pub fn alu(op: Opcode, dst: Dst<R>, srcs: &[Src<R>]) -> Self {
        assert_eq!(
            srcs.len(),
            operands::src_count(op),
            "invariant: {op} takes its operand list's sources"
        );
        let mut all = [Src::Imm(0); operands::MAX_SRCS];
        all[..srcs.len()].copy_from_slice(srcs);
        Instr::Alu { op, dst, srcs: all }
    }
}

impl<R> Instr<R> {
    /// The sources of an [`Instr::Alu`], as many as its form has; empty for other instructions.
    pub fn alu_srcs(&self) -> &[Src<R>] {
        match self {
            Instr::Alu { op, srcs, .. } => &srcs[..operands::src_count(*op)],
            _ => &[],
        }
    }

    /// Mutable [`Instr::alu_srcs`].
    pub fn alu_srcs_of_mut(&mut self) -> &mut [Src<R>] {
        match self {
            Instr::Alu { op, srcs, .. } => &mut srcs[..operands::src_count(*op)],
            _ => &mut [],
        }
    }

    /// Whether the instruction runs on the ALU pipes (arithmetic, moves, selects, special
    /// registers): no memory, texture, control flow or side effect.
    pub fn is_alu(&self) -> bool {
        use Instr::*;
        matches!(
            self,
            MovImm { .. }
                | GetSr { .. }
                | Iadd { .. }
                | Imadd { .. }
                | Convert { .. }
                | Alu { .. }
                | Bitfield { .. }
                | Asr { .. }
                | Bitop { .. }
                | Fmadd { .. }
                | Fadd { .. }
                | Fmul { .. }
                | FUnary { .. }
                | Select { .. }
        )
    }

    /// The mnemonic as the disassembler prints it (`fadd32`, `if_icmp`, `device_load`, ...):
    /// the shared description's name of [`Instr::opcode`].
    pub fn mnemonic(&self) -> &'static str {
        self.opcode().name()
    }

    /// The jump or call target, if the instruction transfers control to one.
    pub fn jump_target(&self) -> Option<JumpTarget> {
        match *self {
            Instr::JmpExecAny { target }
            | Instr::JmpExecNone { target }
            | Instr::Call { target } => Some(target),
            _ => None,
        }
    }

    /// Whether the instruction reads or writes the execution-mask stack register `r0l`
    /// implicitly.
    pub fn uses_exec_stack(&self) -> bool {
        matches!(self, Instr::PopExec { .. } | Instr::ExecStack { .. })
    }

    /// Physical registers the instruction reads and writes without naming them: `r0l` for the
    /// execution-mask stack instructions, the link register `r1` (written) for `call`.
    /// Returned as `(reads, writes)`.
    pub fn implicit_regs(&self) -> (&'static [PReg], &'static [PReg]) {
        const R0L: &[PReg] = &[PReg::R0L];
        const LINK: &[PReg] = &[PReg::LINK];
        match self {
            Instr::PopExec { .. } | Instr::ExecStack { .. } => (R0L, R0L),
            Instr::Call { .. } => (&[], LINK),
            _ => (&[], &[]),
        }
    }

    /// Whether the instruction starts an asynchronous load whose results need a `wait`
    /// (device, texture; the slot is returned).
    pub fn load_slot(&self) -> Option<u8> {
        match self {
            Instr::DeviceLoad(a) => Some(a.slot),
            Instr::DeviceAtomic(a) => Some(a.slot),
            Instr::TextureSample(t) | Instr::TextureLoad(t) => Some(t.slot),
            _ => None,
        }
    }
}

mod map;
mod opcode;
