//! The G13 instruction set as the backend emits it: the machine instruction type, its encoder
//! and its assembly syntax.
//!
//! ```text
//!  isel ─► Instr<VReg> ─► schedule ─► regalloc (map_regs) ─► Instr<PReg> ─► hints, waits
//!                                                                │
//!                                        Assembler (labels, offsets) ─► encode ─► bytes + pc map
//! ```
//!
//! - [`Instr<R>`] ([`instr`]): one instruction with typed operands, generic over the register
//!   type so the same value serves before and after register allocation; [`Instr::map_regs`],
//!   [`Instr::defs`], [`Instr::uses`] and [`Instr::hint_slots_mut`] serve liveness, allocation
//!   and the register-cache hint pass.
//! - [`encode()`] ([`encode`]): bytes of one `Instr<PReg>`, the short form when every field fits
//!   in it, or an [`EncodeError`] naming the instruction and operand that cannot be encoded.
//!   [`Assembler`] lays out a sequence with symbolic [`Label`]s and patches jump offsets.
//! - [`asm`]: `Display` in the disassembly syntax of docs/g13.md ("Disassembly conventions"),
//!   identical to what the simulator's disassembler prints for the same bytes.
//!
//! ```
//! use agxc_backend_agx::isa::{encode, Dst, FSrc, Instr, PReg, Precision};
//!
//! let add = Instr::Fadd {
//!     prec: Precision::F32,
//!     dst: Dst::new(PReg::r32(0)),
//!     sat: false,
//!     a: FSrc::reg(PReg::r32(1)),
//!     b: FSrc::reg(PReg::r32(2)),
//! };
//! assert_eq!(add.to_string(), "fadd32 r0, r1, r2");
//! // docs/g13.md's reference encoding of this instruction.
//! assert_eq!(encode(&add)?.as_bytes(), [0x2a, 0x81, 0x42, 0x42, 0x24, 0x00]);
//! # Ok::<(), agxc_backend_agx::isa::EncodeError>(())
//! ```
//!
//! The bit layouts come from `seeds/001_9be1231add6061e8.txt` (section "Instructions") and
//! docs/g13.md; where the document says `TODO()` (memory, texture, fragment I/O operands, special
//! register numbers, `convert` modes) they follow the definitions of the simulator
//! (`agxc-runtime-sim`), so that the independent decoder there checks this encoder.

pub mod access;
pub mod asm;
pub mod encode;
pub mod instr;
pub mod mem;
pub mod operand;
pub mod reg;

pub use access::{HintSlot, RegRef};
/// The sub-operation selectors: the shared G13 description's (`agxc_g13_isa::ops`).
pub use agxc_g13_isa::ops;
pub use asm::parse::{assemble, AsmError};
pub use asm::AsmReg;
pub use encode::{
    encode, AssembleError, Assembled, Assembler, EncodeError, EncodeErrorKind, Encoded,
};
pub use instr::Instr;
pub use mem::ImageWriteOp;
pub use mem::{
    AtomicOpc, DeviceAccess, DeviceAtomic, Lod, MemBase, MemFormat, MemOffset, StackAccess, TexDim,
    TexExtra, TexIndex, TexOp, TgAccess, TgAtomic, TgBase, TgOffset,
};
pub use operand::{
    float_imm, float_imm_value, Cmp, Dst, FCond, FSrc, ICond, IntSrc, JumpTarget, Label,
    SpecialReg, Src,
};
pub use ops::{bitop, BitfieldOp, ConvertMode, FUnaryOp, Precision, Round, StackOp};
pub use reg::{Hint, PReg, RegClass, RegUnits, UReg};
