//! The document's operand decoders (section "Operands"): `ALUDst`, `ALUSrc`, `FloatSrc`,
//! `CmpselSrc`, `ICondition`, `FCondition`, `MemoryIndex`, `MemoryBase`, and the memory register
//! operands, which the document names (`MemoryReg`) without defining; this simulator reads them
//! as Mesa's AGX packer writes them (`agx_pack_memory_reg`: the type bit set for 32-bit
//! registers, the value counting 16-bit halves). Every `UNDEFINED()` case is a decode error.

use super::inst::{Dst, FCond, FRel, FSrc, Hint, ICond, IRel, MemIndex, Reg, RegRange, Src};
use crate::encoding::Opcode;
use crate::error::DecodeErrorKind;
use crate::float::decode_float_immediate;

type Result<T> = std::result::Result<T, DecodeErrorKind>;

/// An operand encoding the document marks `UNDEFINED()`.
pub(crate) fn undefined(
    opcode: Opcode,
    operand: &'static str,
    reason: &'static str,
) -> DecodeErrorKind {
    DecodeErrorKind::UndefinedOperand {
        opcode,
        operand,
        reason,
    }
}

/// `ALUDst(value, flags, max_size)`: bit 0 of `flags` is the cache hint, bit 1 selects 32-bit
/// (or 64-bit when `value` is odd and the instruction allows 64-bit destinations).
pub(crate) fn alu_dst(value: u32, flags: u32, max_size: u32) -> Dst {
    let cache = flags & 1 == 1;
    let reg = if flags & 2 != 0 && value & 1 == 1 && max_size >= 64 {
        Reg::R64((value >> 1) as u8)
    } else if flags & 2 != 0 && max_size >= 32 {
        Reg::R32((value >> 1) as u8)
    } else {
        Reg::Half(value as u8)
    };
    Dst { reg, cache }
}

/// A field value the simulator does not implement.
pub(crate) fn unsupported(opcode: Opcode, field: &'static str, value: u32) -> DecodeErrorKind {
    DecodeErrorKind::Unsupported {
        opcode,
        field,
        value,
    }
}

/// The cache hint in the low two bits of a register operand's type (docs/g13.md: 1 none, 2 cache,
/// 3 discard; 0 is `UNDEFINED()` for a register).
fn register_hint(opcode: Opcode, operand: &'static str, flags: u32) -> Result<Hint> {
    match flags & 0b11 {
        0b01 => Ok(Hint::None),
        0b10 => Ok(Hint::Cache),
        0b11 => Ok(Hint::Discard),
        _ => Err(undefined(
            opcode,
            operand,
            "register type with hint bits 00",
        )),
    }
}

/// `ALUSrc(value, flags, max_size)`.
pub(crate) fn alu_src(
    opcode: Opcode,
    operand: &'static str,
    value: u32,
    flags: u32,
    max_size: u32,
) -> Result<Src> {
    if flags == 0 {
        return Ok(Src::Imm(value as u16));
    }
    if flags >> 2 == 0b01 {
        let ureg = value | (flags & 1) << 8;
        if flags & 0b10 != 0 {
            if max_size < 32 {
                return Err(undefined(
                    opcode,
                    operand,
                    "32-bit uniform in a 16-bit operand",
                ));
            }
            return Ok(Src::Uni32((ureg >> 1) as u8));
        }
        return Ok(Src::Uni16(ureg as u16));
    }
    let hint = register_hint(opcode, operand, flags)?;
    if flags >> 2 == 0b11 && max_size >= 64 {
        if value & 1 == 1 {
            return Err(undefined(opcode, operand, "odd 64-bit register"));
        }
        return Ok(Src::Reg(Reg::R64((value >> 1) as u8), hint));
    }
    if flags >> 2 >= 0b10 && max_size >= 32 {
        if flags >> 2 != 0b10 {
            return Err(undefined(
                opcode,
                operand,
                "64-bit register in a 32-bit operand",
            ));
        }
        if value & 1 == 1 {
            return Err(undefined(opcode, operand, "odd 32-bit register"));
        }
        return Ok(Src::Reg(Reg::R32((value >> 1) as u8), hint));
    }
    if flags >> 2 != 0b00 {
        return Err(undefined(
            opcode,
            operand,
            "wide register in a 16-bit operand",
        ));
    }
    Ok(Src::Reg(Reg::Half(value as u8), hint))
}

/// `FloatSrc(value, flags, modifier, max_size)`: immediates decode as the 8-bit float
/// immediate; `modifier` bit 0 is `abs`, bit 1 `neg`.
pub(crate) fn float_src(
    opcode: Opcode,
    operand: &'static str,
    value: u32,
    flags: u32,
    modifier: u32,
    max_size: u32,
) -> Result<FSrc> {
    let src = match alu_src(opcode, operand, value, flags, max_size)? {
        Src::Imm(v) => Src::FImm(decode_float_immediate(v as u8)),
        other => other,
    };
    Ok(FSrc {
        src,
        abs: modifier & 1 != 0,
        neg: modifier & 2 != 0,
    })
}

/// `CmpselSrc(value, flags, destination_flags)`: 3-bit flags; the destination's size decides
/// the operand's.
pub(crate) fn cmpsel_src(
    opcode: Opcode,
    operand: &'static str,
    value: u32,
    flags: u32,
    dst_flags: u32,
) -> Result<Src> {
    if flags == 0b100 {
        return Ok(Src::Imm(value as u16));
    }
    if flags >> 1 == 0b11 {
        let ureg = value | (flags & 1) << 8;
        if dst_flags & 2 != 0 {
            if ureg & 1 == 1 {
                return Err(undefined(opcode, operand, "odd 32-bit uniform"));
            }
            return Ok(Src::Uni32((ureg >> 1) as u8));
        }
        return Ok(Src::Uni16(ureg as u16));
    }
    if flags >> 2 == 1 {
        return Err(undefined(opcode, operand, "type 101"));
    }
    let hint = register_hint(opcode, operand, flags)?;
    if dst_flags & 2 != 0 {
        if value & 1 == 1 {
            return Err(undefined(opcode, operand, "odd 32-bit register"));
        }
        return Ok(Src::Reg(Reg::R32((value >> 1) as u8), hint));
    }
    Ok(Src::Reg(Reg::Half(value as u8), hint))
}

/// `ICondition(value, n)`: bit 2 sign-extends, bits 1:0 pick ==, <, >; 0b11 is not listed.
pub(crate) fn icond(opcode: Opcode, cc: u32, ccn: u32) -> Result<ICond> {
    let rel = match cc & 0b11 {
        0b00 => IRel::Eq,
        0b01 => IRel::Lt,
        0b10 => IRel::Gt,
        _ => return Err(unsupported(opcode, "cc", cc)),
    };
    Ok(ICond {
        rel,
        signed: cc & 0b100 != 0,
        invert: ccn != 0,
    })
}

/// `FCondition(condition, n)` with docs/g13.md's correction: 5 is `>=`, 6 is `<=`; 4 is not listed.
pub(crate) fn fcond(opcode: Opcode, cc: u32, ccn: u32) -> Result<FCond> {
    let rel = match cc {
        0b000 => FRel::Eq,
        0b001 => FRel::Lt,
        0b010 => FRel::Gt,
        0b011 => FRel::LtNanLoses,
        0b101 => FRel::Ge,
        0b110 => FRel::Le,
        0b111 => FRel::GtNanLoses,
        _ => return Err(unsupported(opcode, "cc", cc)),
    };
    Ok(FCond {
        rel,
        invert: ccn != 0,
    })
}

/// `MemoryIndex(value, flags)`: a sign-extended 16-bit immediate, or an even 32-bit register
/// below 0x100 halves; `unsigned` is the `Ou` bit (zero-extend the register).
pub(crate) fn memory_index(
    opcode: Opcode,
    value: u32,
    flags: u32,
    unsigned: bool,
) -> Result<MemIndex> {
    if flags != 0 {
        return Ok(MemIndex::Imm(i32::from(value as u16 as i16)));
    }
    if value & 1 == 1 {
        return Err(undefined(opcode, "O", "odd register offset"));
    }
    if value >= 0x100 {
        return Err(undefined(opcode, "O", "register offset at or above 0x100"));
    }
    Ok(MemIndex::Reg {
        reg: (value >> 1) as u8,
        unsigned,
    })
}

/// `MemoryBase(value, flags)`: an even 64-bit uniform pair or register pair.
pub(crate) fn memory_base(opcode: Opcode, value: u32, flags: u32) -> Result<Src> {
    if value & 1 == 1 {
        return Err(undefined(opcode, "A", "odd base"));
    }
    if flags != 0 {
        Ok(Src::Uni64((value >> 1) as u8))
    } else {
        Ok(Src::Reg(Reg::R64((value >> 1) as u8), Hint::None))
    }
}

/// The memory and texture register run: `rt` set means 32-bit registers starting at half
/// `value` (which must be even), clear means 16-bit registers starting at half `value`.
pub(crate) fn memory_reg(
    opcode: Opcode,
    operand: &'static str,
    value: u32,
    rt: u32,
    count: u32,
) -> Result<RegRange> {
    let first = if rt != 0 {
        if value & 1 == 1 {
            return Err(undefined(opcode, operand, "odd 32-bit register"));
        }
        Reg::R32((value >> 1) as u8)
    } else {
        Reg::Half(value as u8)
    };
    run(opcode, operand, first, count)
}

/// A run of `count` registers from `first`, which must end within the register file. Runs come
/// from 4-bit masks or packed formats, so they hold at most [`RegRange::MAX_COUNT`] registers
/// (the executor relies on it).
pub(crate) fn run(
    opcode: Opcode,
    operand: &'static str,
    first: Reg,
    count: u32,
) -> Result<RegRange> {
    if count > u32::from(RegRange::MAX_COUNT) {
        return Err(undefined(opcode, operand, "more than four registers"));
    }
    let (start, width) = first.halves();
    if start + count * width > 256 {
        return Err(undefined(opcode, operand, "register run past r127h"));
    }
    Ok(RegRange {
        first,
        count: count as u8,
    })
}
