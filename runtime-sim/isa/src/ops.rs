//! The operation selectors of instruction families that share one encoding: float precision,
//! `convert` modes and rounding, the bitfield family, the one-source
//! float family, the execution-mask stack operations and `bitop` truth tables. One copy, read by
//! the backend's instruction type and encoder and by the simulator's decoder, executors and
//! disassembler. A family member's [`Opcode`] (its own encoding entry, with its sub-operation
//! code as constant bits) and its mnemonic are the member's `opcode()` and that opcode's name.

use crate::Opcode;

/// Precision of a float arithmetic instruction (`fmadd32` vs `fmadd16`, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Precision {
    /// fp32 operation: 16- or 32-bit sources and destination; fp32 sources flush denormals,
    /// and a 16-bit destination rounds twice (docs/g13.md, "Corrections").
    F32,
    /// fp16 operation: 16-bit sources and destination only.
    F16,
}

impl Precision {
    /// The mnemonic suffix (`32`, `16`).
    pub const fn suffix(self) -> &'static str {
        match self {
            Precision::F32 => "32",
            Precision::F16 => "16",
        }
    }
}

/// `convert` modes (docs/g13.md, "convert"; the document says `TODO()`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ConvertMode {
    /// u8 to float, mode 0.
    U8ToF,
    /// s8 to float, mode 1.
    S8ToF,
    /// Float to u16, mode 4.
    FToU16,
    /// Float to s16, mode 5.
    FToS16,
    /// u16 to float, mode 6.
    U16ToF,
    /// s16 to float, mode 7.
    S16ToF,
    /// Float to u32, mode 8.
    FToU32,
    /// Float to s32, mode 9.
    FToS32,
    /// u32 to float, mode 10.
    U32ToF,
    /// s32 to float, mode 11.
    S32ToF,
}

impl ConvertMode {
    /// Every mode.
    pub const ALL: [ConvertMode; 10] = [
        ConvertMode::U8ToF,
        ConvertMode::S8ToF,
        ConvertMode::FToU16,
        ConvertMode::FToS16,
        ConvertMode::U16ToF,
        ConvertMode::S16ToF,
        ConvertMode::FToU32,
        ConvertMode::FToS32,
        ConvertMode::U32ToF,
        ConvertMode::S32ToF,
    ];

    /// The `mode` field value.
    pub const fn code(self) -> u32 {
        match self {
            ConvertMode::U8ToF => 0,
            ConvertMode::S8ToF => 1,
            ConvertMode::FToU16 => 4,
            ConvertMode::FToS16 => 5,
            ConvertMode::U16ToF => 6,
            ConvertMode::S16ToF => 7,
            ConvertMode::FToU32 => 8,
            ConvertMode::FToS32 => 9,
            ConvertMode::U32ToF => 10,
            ConvertMode::S32ToF => 11,
        }
    }

    /// The mode whose `mode` field value is `code`, if the document defines one.
    pub fn from_code(code: u32) -> Option<ConvertMode> {
        ConvertMode::ALL.into_iter().find(|m| m.code() == code)
    }

    /// The disassembler's name (`u8_to_f`, `f_to_s32`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            ConvertMode::U8ToF => "u8_to_f",
            ConvertMode::S8ToF => "s8_to_f",
            ConvertMode::FToU16 => "f_to_u16",
            ConvertMode::FToS16 => "f_to_s16",
            ConvertMode::U16ToF => "u16_to_f",
            ConvertMode::S16ToF => "s16_to_f",
            ConvertMode::FToU32 => "f_to_u32",
            ConvertMode::FToS32 => "f_to_s32",
            ConvertMode::U32ToF => "u32_to_f",
            ConvertMode::S32ToF => "s32_to_f",
        }
    }
}

/// Rounding of `convert` (docs/g13.md, "convert": bit 26).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Round {
    /// Toward zero (float to int).
    Rtz,
    /// To nearest, ties to even (int to float).
    Rte,
}

impl Round {
    /// The `round` field value.
    pub const fn code(self) -> u32 {
        match self {
            Round::Rtz => 0,
            Round::Rte => 1,
        }
    }

    /// The rounding whose `round` field value is `code`.
    pub const fn from_code(code: u32) -> Option<Round> {
        match code {
            0 => Some(Round::Rtz),
            1 => Some(Round::Rte),
            _ => None,
        }
    }

    /// The disassembler's name.
    pub const fn name(self) -> &'static str {
        match self {
            Round::Rtz => "rtz",
            Round::Rte => "rte",
        }
    }
}

/// The bitfield family (document, "Shift/Bitfield Instructions"), told apart by bit 15 and
/// bits 27:26.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BitfieldOp {
    /// Bitfield insert / shift left: `(a & ~(mask << c)) | ((b & mask) << c)`.
    Bfi,
    /// Bitfield extract and insert low / shift right: `(a & ~mask) | ((b >> c) & mask)`.
    Bfeil,
    /// Extract from the pair `b:a`: `((b << 32 | a) >> c) & mask`.
    Extr,
    /// Shift left high and insert.
    Shlhi,
    /// Shift right high and insert.
    Shrhi,
}

impl BitfieldOp {
    /// Every operation.
    pub const ALL: [BitfieldOp; 5] = [
        BitfieldOp::Bfi,
        BitfieldOp::Bfeil,
        BitfieldOp::Extr,
        BitfieldOp::Shlhi,
        BitfieldOp::Shrhi,
    ];

    /// The member's instruction form in the shared description.
    pub const fn opcode(self) -> Opcode {
        match self {
            BitfieldOp::Bfi => Opcode::Bfi,
            BitfieldOp::Bfeil => Opcode::Bfeil,
            BitfieldOp::Extr => Opcode::Extr,
            BitfieldOp::Shlhi => Opcode::Shlhi,
            BitfieldOp::Shrhi => Opcode::Shrhi,
        }
    }

    /// The member whose instruction form is `op`, if `op` is one of the family's.
    pub fn from_opcode(op: Opcode) -> Option<BitfieldOp> {
        BitfieldOp::ALL.into_iter().find(|m| m.opcode() == op)
    }

    /// The mnemonic: the form's name.
    pub const fn name(self) -> &'static str {
        self.opcode().name()
    }
}

/// The one-source float family (document, "Floating-Point Arithmetic", `floor` .. `dfdy`):
/// one fp32 encoding, told apart by bits 31:28 and 41:32.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(missing_docs)] // the names are the document's
pub enum FUnaryOp {
    Floor,
    Ceil,
    Trunc,
    Rint,
    Rcp,
    Rsqrt,
    RsqrtSpecial,
    SinPt1,
    SinPt2,
    Log2,
    Exp2,
    Dfdx,
    Dfdy,
}

impl FUnaryOp {
    /// Every operation.
    pub const ALL: [FUnaryOp; 13] = {
        use FUnaryOp::*;
        [
            Floor,
            Ceil,
            Trunc,
            Rint,
            Rcp,
            Rsqrt,
            RsqrtSpecial,
            SinPt1,
            SinPt2,
            Log2,
            Exp2,
            Dfdx,
            Dfdy,
        ]
    };

    /// The member's instruction form in the shared description.
    pub const fn opcode(self) -> Opcode {
        match self {
            FUnaryOp::Floor => Opcode::Floor,
            FUnaryOp::Ceil => Opcode::Ceil,
            FUnaryOp::Trunc => Opcode::Trunc,
            FUnaryOp::Rint => Opcode::Rint,
            FUnaryOp::Rcp => Opcode::Rcp,
            FUnaryOp::Rsqrt => Opcode::Rsqrt,
            FUnaryOp::RsqrtSpecial => Opcode::RsqrtSpecial,
            FUnaryOp::SinPt1 => Opcode::SinPt1,
            FUnaryOp::SinPt2 => Opcode::SinPt2,
            FUnaryOp::Log2 => Opcode::Log2,
            FUnaryOp::Exp2 => Opcode::Exp2,
            FUnaryOp::Dfdx => Opcode::Dfdx,
            FUnaryOp::Dfdy => Opcode::Dfdy,
        }
    }

    /// The member whose instruction form is `op`, if `op` is one of the family's.
    pub fn from_opcode(op: Opcode) -> Option<FUnaryOp> {
        FUnaryOp::ALL.into_iter().find(|m| m.opcode() == op)
    }

    /// The mnemonic: the form's name.
    pub const fn name(self) -> &'static str {
        self.opcode().name()
    }
}

/// The execution-mask stack operations with a comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum StackOp {
    /// `if_*cmp`: push a level, deactivating threads where the comparison fails.
    If,
    /// `else_*cmp`: flip the threads of the innermost level.
    Else,
    /// `while_*cmp`: re-evaluate a loop condition.
    While,
}

impl StackOp {
    /// The mnemonic prefix (`if`, `else`, `while`).
    pub const fn name(self) -> &'static str {
        match self {
            StackOp::If => "if",
            StackOp::Else => "else",
            StackOp::While => "while",
        }
    }
}

/// `bitop` truth tables (document, "bitop"): bit 0 selects `~a & ~b`, bit 1 `a & ~b`, bit 2
/// `~a & b`, bit 3 `a & b`. The tables `0b0011` (`~b`) and `0b1100` (`b`) are `UNDEFINED()`.
pub mod bitop {
    /// `a & b`.
    pub const AND: u8 = 0b1000;
    /// `a | b`.
    pub const OR: u8 = 0b1110;
    /// `a ^ b`.
    pub const XOR: u8 = 0b0110;
    /// `~(a | b)`.
    pub const NOR: u8 = 0b0001;
    /// `~(a & b)`.
    pub const NAND: u8 = 0b0111;
    /// `~(a ^ b)`.
    pub const XNOR: u8 = 0b1001;
    /// `a & ~b`.
    pub const ANDN: u8 = 0b0010;
    /// `a | ~b`.
    pub const ORN: u8 = 0b1011;
    /// `a` (a move).
    pub const MOV_A: u8 = 0b1010;
    /// `~a`.
    pub const NOT_A: u8 = 0b0101;
    /// Always 0.
    pub const ZERO: u8 = 0b0000;
    /// Always all ones.
    pub const ONES: u8 = 0b1111;

    /// Whether the document defines `table` (4 bits, not `0b0011` or `0b1100`).
    pub const fn is_defined(table: u8) -> bool {
        table < 16 && table != 0b0011 && table != 0b1100
    }
}
