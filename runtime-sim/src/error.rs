//! The simulator's errors. Every failure is a value naming where it happened: the byte offset
//! (pc) of the instruction, and for execution errors the SIMD-group and, where one thread is at
//! fault, the thread. [`Error`] is the crate's one error type; its variants wrap the error of each
//! phase (decode, load, execution, runtime API misuse).

use crate::decode::inst::Reg;
use crate::encoding::Opcode;
use crate::texture::{TexDim, TextureError};

/// Why the bytes at a pc are not a valid instruction.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeErrorKind {
    /// The instruction runs past the end of the code.
    #[error("truncated instruction: needs {needed} bytes, {available} remain")]
    Truncated {
        /// Bytes the instruction needs.
        needed: usize,
        /// Bytes left in the code.
        available: usize,
    },
    /// No table entry matches.
    #[error("unknown encoding (first bytes, little-endian: {first_bytes:#010x})")]
    UnknownEncoding {
        /// The first four bytes as a little-endian word.
        first_bytes: u32,
    },
    /// An operand field holds a value the document marks `UNDEFINED()`.
    #[error("{opcode}: undefined encoding of operand {operand}: {reason}")]
    UndefinedOperand {
        /// The instruction.
        opcode: Opcode,
        /// The operand's name in the document (`A`, `D`, ...).
        operand: &'static str,
        /// What is wrong.
        reason: &'static str,
    },
    /// A field holds a value the simulator does not implement (an unknown condition code,
    /// conversion mode, format, special register, ...).
    #[error("{opcode}: unsupported {field} value {value}")]
    Unsupported {
        /// The instruction.
        opcode: Opcode,
        /// The field.
        field: &'static str,
        /// The value found.
        value: u32,
    },
}

/// A decode failure at a pc.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("pc {pc:#x}: {kind}")]
pub struct DecodeError {
    /// Byte offset of the instruction.
    pub pc: u32,
    /// What is wrong.
    pub kind: DecodeErrorKind,
}

/// Why a program could not be loaded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    /// The code does not decode.
    #[error(transparent)]
    Decode(#[from] DecodeError),
    /// An instruction names a register at or beyond the metadata's register count.
    #[error("pc {pc:#x}: {opcode} uses {register}, but the program declares {declared} 16-bit registers")]
    RegisterOutOfRange {
        /// Byte offset of the instruction.
        pc: u32,
        /// The instruction.
        opcode: Opcode,
        /// The register (`Display` prints it as the disassembler does).
        register: Reg,
        /// The metadata's `gpr_halves`.
        declared: u32,
    },
    /// A metadata field is outside the range the simulator supports.
    #[error("bad program metadata: {field} is {value}, must be in {min}..={max}")]
    MetadataOutOfRange {
        /// The [`crate::program::ProgramMetadata`] field.
        field: &'static str,
        /// Its value.
        value: u32,
        /// The smallest value accepted.
        min: u32,
        /// The largest value accepted.
        max: u32,
    },
    /// The code is empty or larger than the simulator addresses (4 GiB).
    #[error("code size {size} bytes is not supported (must be 2 ..= 2^32 - 1)")]
    CodeSize {
        /// Size of the code in bytes.
        size: usize,
    },
}

/// What went wrong while executing.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ExecErrorKind {
    /// The SIMD-group ran more instructions than the configured step limit.
    #[error("step limit of {limit} instructions per SIMD-group reached (runaway loop?) (`step_limit`, agxc run --step-limit)")]
    StepLimit {
        /// The limit.
        limit: u64,
    },
    /// A `trap` instruction executed.
    #[error("trap executed")]
    Trap,
    /// Execution ran past the last instruction without a `stop`.
    #[error("ran off the end of the code")]
    RanOffEnd,
    /// A jump, call or return targets a byte offset outside the code.
    #[error("{opcode} targets {target:#x}, outside the code (size {code_size:#x})")]
    TargetOutOfRange {
        /// The control-flow instruction.
        opcode: Opcode,
        /// The target byte offset.
        target: i64,
        /// Code size in bytes.
        code_size: u32,
    },
    /// A jump, call or return targets the middle of an instruction.
    #[error("{opcode} targets {target:#x}, which is not the start of an instruction")]
    TargetNotInstruction {
        /// The control-flow instruction.
        opcode: Opcode,
        /// The target byte offset.
        target: u32,
    },
    /// The active threads disagree on a register that must be uniform (call/return target).
    #[error("{opcode}: {what} differs between active threads ({first:#x} in thread {first_thread}, {other:#x} in thread {other_thread})")]
    Divergent {
        /// The instruction.
        opcode: Opcode,
        /// The operand.
        what: &'static str,
        /// Value in the first active thread.
        first: u32,
        /// That thread.
        first_thread: u32,
        /// A different value.
        other: u32,
        /// Its thread.
        other_thread: u32,
    },
    /// A register was read after a `discard` hint invalidated it and before any write
    /// (the register-cache hint sanitizer).
    #[error("thread {thread} reads {register}, discarded by the instruction at pc {discarded_at:#x} and not written since")]
    ReadAfterDiscard {
        /// The reading thread.
        thread: u32,
        /// The register.
        register: Reg,
        /// The pc of the instruction whose discard hint invalidated it.
        discarded_at: u32,
    },
    /// A register was read before any write (only with `Config::check_uninitialized`).
    #[error("thread {thread} reads {register} before anything wrote it")]
    UninitializedRead {
        /// The reading thread.
        thread: u32,
        /// The register.
        register: Reg,
    },
    /// A register was read or written while a load into it was still pending: no `wait` on its
    /// slot since the load issued.
    #[error("{access} of {register} while the load issued at pc {load_pc:#x} (wait slot {slot}) is pending: missing `wait {slot}`")]
    UnwaitedLoad {
        /// `read` or `write`.
        access: &'static str,
        /// The register.
        register: Reg,
        /// The wait slot of the load.
        slot: u8,
        /// The pc of the load.
        load_pc: u32,
    },
    /// A `discard` hint executed while some of the SIMD-group's threads were inactive.
    #[error("discard hint on {register} under a partial execution mask (exec {exec:#010x}, live {live:#010x})")]
    DiscardUnderPartialMask {
        /// The register.
        register: Reg,
        /// The execution mask.
        exec: u32,
        /// The threads that exist.
        live: u32,
    },
    /// A device-memory access outside every allocation.
    #[error("thread {thread}: {access} of {len} bytes at {address:#x} is outside device memory allocations")]
    DeviceFault {
        /// The thread.
        thread: u32,
        /// `load` or `store`.
        access: &'static str,
        /// First byte.
        address: u64,
        /// Length.
        len: u32,
    },
    /// A threadgroup-memory access outside the program's threadgroup memory.
    #[error("thread {thread}: threadgroup {access} of {len} bytes at offset {offset} exceeds the {size}-byte threadgroup memory")]
    ThreadgroupFault {
        /// The thread.
        thread: u32,
        /// `load` or `store`.
        access: &'static str,
        /// Byte offset.
        offset: i64,
        /// Length.
        len: u32,
        /// The metadata's threadgroup memory size.
        size: u32,
    },
    /// A stack access outside the thread's stack.
    #[error("thread {thread}: stack {access} of {len} bytes at offset {offset} exceeds the {size}-byte stack")]
    StackFault {
        /// The thread.
        thread: u32,
        /// `load`, `store` or `adjust`.
        access: &'static str,
        /// Byte offset from the stack base.
        offset: i64,
        /// Length.
        len: u32,
        /// The metadata's stack size per thread.
        size: u32,
    },
    /// A uniform register index past `u255`.
    #[error("uniform_store to 16-bit uniform {index}, past u255h")]
    UniformOutOfRange {
        /// The 16-bit uniform index.
        index: u32,
    },
    /// A texture instruction names a texture slot with nothing bound.
    #[error("thread {thread}: texture slot {slot} is not bound")]
    UnboundTexture {
        /// The thread.
        thread: u32,
        /// The slot.
        slot: u32,
    },
    /// A texture instruction names a sampler slot with nothing bound.
    #[error("thread {thread}: sampler slot {slot} is not bound")]
    UnboundSampler {
        /// The thread.
        thread: u32,
        /// The slot.
        slot: u32,
    },
    /// The texture unit refused the request.
    #[error("thread {thread}: {error}")]
    Texture {
        /// The thread.
        thread: u32,
        /// The texture unit's error.
        error: TextureError,
    },
    /// The instruction's dimensionality disagrees with the bound texture's.
    #[error(
        "thread {thread}: {opcode} with dimensionality {instruction} on a {descriptor} texture"
    )]
    TextureDimMismatch {
        /// The thread.
        thread: u32,
        /// The instruction.
        opcode: Opcode,
        /// The instruction's `n` field, as a name.
        instruction: &'static str,
        /// The descriptor's dimensionality.
        descriptor: TexDim,
    },
    /// `ld_var` names a varying slot the runtime did not supply.
    #[error("ld_var reads varying slot {slot}, but only {supplied} were supplied")]
    MissingVarying {
        /// The slot.
        slot: u32,
        /// Number of slots supplied.
        supplied: u32,
    },
    /// A tile instruction names a render target the runtime did not supply.
    #[error("{opcode} names render target {rt}, but only {supplied} were supplied")]
    MissingRenderTarget {
        /// The instruction.
        opcode: Opcode,
        /// The render target.
        rt: u32,
        /// Number supplied.
        supplied: u32,
    },
    /// An instruction that only makes sense in another stage.
    #[error("{opcode} is not available in a {stage} dispatch")]
    WrongStage {
        /// The instruction.
        opcode: Opcode,
        /// The stage being run.
        stage: &'static str,
    },
    /// Some SIMD-groups of a workgroup wait at a barrier that others can never reach.
    #[error("threadgroup_barrier deadlock: SIMD-group {stopped} stopped while others wait at the barrier")]
    BarrierDeadlock {
        /// A SIMD-group (index within the workgroup) that had stopped.
        stopped: u32,
    },
    /// A special register this dispatch cannot provide.
    #[error("get_sr: special register {sr} is not available in a {stage} dispatch")]
    SpecialRegister {
        /// The register number.
        sr: u32,
        /// The stage.
        stage: &'static str,
    },
}

/// An execution failure: where and why.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("pc {pc:#x} (SIMD-group {simd_group}): {kind}")]
pub struct ExecError {
    /// Byte offset of the failing instruction.
    pub pc: u32,
    /// Index of the SIMD-group within the dispatch.
    pub simd_group: u32,
    /// What went wrong.
    pub kind: ExecErrorKind,
}

/// Misuse of the runtime API.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuntimeError {
    /// A read or write of device memory outside every allocation.
    #[error("{len} bytes at {address:#x} are not inside one device memory allocation")]
    Unmapped {
        /// First byte.
        address: u64,
        /// Length.
        len: u64,
    },
    /// An allocation that overlaps another or wraps the address space.
    #[error("allocation of {size} bytes at {address:#x} overlaps an existing one or wraps")]
    Overlap {
        /// Requested address.
        address: u64,
        /// Requested size.
        size: u64,
    },
    /// A zero-sized allocation or an alignment that is not a power of two.
    #[error("bad allocation request: {reason}")]
    BadAllocation {
        /// What is wrong.
        reason: &'static str,
    },
    /// A uniform register index past u255.
    #[error("uniform register {index} out of range ({what})")]
    UniformIndex {
        /// The index given.
        index: u32,
        /// Which setter.
        what: &'static str,
    },
    /// A dispatch of a program of the wrong stage (`dispatch_compute` of a fragment program,
    /// `shade_fragments` of a compute one).
    #[error("{call} needs a {needed} program, got a {got} one")]
    WrongStage {
        /// The runtime call.
        call: &'static str,
        /// The stage it runs.
        needed: &'static str,
        /// The program's stage.
        got: &'static str,
    },
    /// A workgroup size whose thread count is 0 or above
    /// [`crate::runtime::MAX_WORKGROUP_THREADS`].
    #[error("workgroup {size:?} must have 1..={max} threads")]
    WorkgroupSize {
        /// The requested size.
        size: [u32; 3],
        /// The largest thread count.
        max: u32,
    },
    /// A fragment grid that is empty or has more pixels than
    /// [`crate::runtime::MAX_FRAGMENT_PIXELS`] or [`crate::runtime::Config::max_grid_threads`].
    #[error("fragment grid {width}x{height} is empty or larger than the grid limit of {max} pixels (`max_grid_threads`, agxc run --max-grid)")]
    FragmentGrid {
        /// Grid width.
        width: u32,
        /// Grid height.
        height: u32,
        /// The largest pixel count.
        max: u64,
    },
    /// A compute dispatch with more threads than [`crate::runtime::Config::max_grid_threads`].
    #[error("dispatch of {groups:?} workgroups of {workgroup:?} threads exceeds the grid limit of {max} threads (`max_grid_threads`, agxc run --max-grid)")]
    GridTooLarge {
        /// Workgroups per axis.
        groups: [u32; 3],
        /// Workgroup size.
        workgroup: [u32; 3],
        /// The limit.
        max: u64,
    },
    /// A dispatch executed more SIMD-group instructions than
    /// [`crate::runtime::Config::max_instructions`].
    #[error("instruction budget of {limit} SIMD-group instructions per dispatch exhausted at {what} {item} (`max_instructions`, agxc run --max-instructions)")]
    InstructionBudget {
        /// The limit.
        limit: u64,
        /// The work item (in dispatch order) after which the total passed the limit.
        item: u64,
        /// `workgroup` or `SIMD-group`.
        what: &'static str,
    },
}

impl RuntimeError {
    /// Whether this is one of the limits that bound a dispatch (grid size, instruction budget).
    pub fn is_limit(&self) -> bool {
        matches!(
            self,
            RuntimeError::GridTooLarge { .. }
                | RuntimeError::InstructionBudget { .. }
                | RuntimeError::FragmentGrid { .. }
        )
    }
}

/// The crate's error type.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Error {
    /// A program failed to decode or load.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// Execution failed.
    #[error(transparent)]
    Exec(#[from] ExecError),
    /// The runtime API was misused.
    #[error(transparent)]
    Runtime(#[from] RuntimeError),
}

impl From<DecodeError> for Error {
    fn from(e: DecodeError) -> Self {
        Error::Load(LoadError::Decode(e))
    }
}
