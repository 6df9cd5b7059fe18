//! Operand encoders: the document's operand decoders (section "Operands") run backwards.
//! Each returns the field values of an operand (its 8-bit value, split by the caller into the
//! 6-bit field and 2-bit extension, and its type/flags) or an error naming the operand.

use super::bits::Bits;
use super::error::{EncodeError, EncodeErrorKind};
use crate::isa::{Dst, FSrc, Hint, PReg, RegClass, Src, UReg};

pub(super) type Result<T> = std::result::Result<T, EncodeError>;

/// The instruction being encoded, for error messages.
#[derive(Debug, Clone, Copy)]
pub(super) struct At {
    pub mnemonic: &'static str,
}

impl At {
    pub(super) fn err(self, operand: &'static str, kind: EncodeErrorKind) -> EncodeError {
        EncodeError {
            mnemonic: self.mnemonic,
            operand,
            kind,
        }
    }

    /// `value` if it lies in `min..=max`.
    pub(super) fn range(
        self,
        operand: &'static str,
        value: i64,
        min: i64,
        max: i64,
    ) -> Result<u32> {
        if (min..=max).contains(&value) {
            // The ranges callers pass are within u32 (offsets are converted separately).
            Ok(value as u32)
        } else {
            Err(self.err(operand, EncodeErrorKind::OutOfRange { value, min, max }))
        }
    }

    pub(super) fn not_encodable(self, operand: &'static str, why: &'static str) -> EncodeError {
        self.err(operand, EncodeErrorKind::NotEncodable(why))
    }

    /// Checks that `reg` lies within r0l..r127h and that a 32-bit or wider register starts
    /// at an even half.
    pub(super) fn check_reg(self, operand: &'static str, reg: PReg) -> Result<()> {
        if reg.class.units() == 0 {
            return Err(self.err(
                operand,
                EncodeErrorKind::RegisterCount {
                    expected: 1,
                    found: 0,
                },
            ));
        }
        if reg.halves().end > 256 {
            return Err(self.err(operand, EncodeErrorKind::RegisterOutOfRange(reg)));
        }
        if reg.class != RegClass::H16
            && !matches!(reg.class, RegClass::Vec16(_))
            && !reg.half.is_multiple_of(2)
        {
            return Err(self.err(operand, EncodeErrorKind::Misaligned(reg)));
        }
        Ok(())
    }

    pub(super) fn wrong_class(
        self,
        operand: &'static str,
        expected: &'static str,
        found: RegClass,
    ) -> EncodeError {
        self.err(operand, EncodeErrorKind::WrongClass { expected, found })
    }
}

/// An operand's field values: the 8-bit value (`Xx:X`) and the type/flags field (`Xt`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Field {
    pub value: u32,
    pub ty: u32,
}

/// The low two bits of a register source's type (docs/g13.md: 1 none, 2 cache, 3 discard).
fn hint_bits(hint: Hint) -> u32 {
    match hint {
        Hint::None => 0b01,
        Hint::Cache => 0b10,
        Hint::Discard => 0b11,
    }
}

/// `ALUSrc(value, flags, max_size)` backwards: `0000` immediate; `01ut` uniform (`t` = 32-bit,
/// `u` = bit 8 of the half index); `00hh` 16-bit, `10hh` 32-bit, `11hh` 64-bit register with
/// hint `hh`. The value of a 32- or 64-bit register is its (even) first half.
pub(super) fn alu_src(
    at: At,
    operand: &'static str,
    src: &Src<PReg>,
    max_bits: u32,
) -> Result<Field> {
    match *src {
        Src::Imm(v) => Ok(Field {
            value: u32::from(v),
            ty: 0,
        }),
        Src::Uniform(u) => uniform(at, operand, u, max_bits),
        Src::Reg { reg, hint } => {
            at.check_reg(operand, reg)?;
            let size = match reg.class {
                RegClass::H16 => 0b00,
                RegClass::R32 if max_bits >= 32 => 0b10,
                RegClass::R64 if max_bits >= 64 => 0b11,
                found => {
                    let expected = match max_bits {
                        16 => "a 16-bit register",
                        32 => "a 16- or 32-bit register",
                        _ => "a 16-, 32- or 64-bit register",
                    };
                    return Err(at.wrong_class(operand, expected, found));
                }
            };
            Ok(Field {
                value: u32::from(reg.half),
                ty: size << 2 | hint_bits(hint),
            })
        }
    }
}

fn uniform(at: At, operand: &'static str, u: UReg, max_bits: u32) -> Result<Field> {
    let (half, wide) = match u {
        UReg::U16(h) => {
            if h > 511 {
                let kind = EncodeErrorKind::UniformOutOfRange {
                    value: u32::from(h),
                    max: 511,
                };
                return Err(at.err(operand, kind));
            }
            (u32::from(h), 0)
        }
        UReg::U32(n) if max_bits >= 32 => {
            if n > 255 {
                let kind = EncodeErrorKind::UniformOutOfRange {
                    value: u32::from(n),
                    max: 255,
                };
                return Err(at.err(operand, kind));
            }
            (2 * u32::from(n), 1)
        }
        UReg::U32(_) => {
            return Err(at.not_encodable(operand, "a 32-bit uniform in a 16-bit operand"))
        }
        UReg::U64(_) => {
            return Err(at.not_encodable(operand, "a 64-bit uniform is not an ALU operand"))
        }
    };
    Ok(Field {
        value: half & 0xff,
        ty: 0b0100 | wide << 1 | half >> 8,
    })
}

/// `FloatSrc` backwards: the `ALUSrc` fields and the 2-bit modifier (bit 0 abs, bit 1 neg).
/// An immediate is the 8-bit float immediate code.
pub(super) fn float_src(
    at: At,
    operand: &'static str,
    src: &FSrc<PReg>,
    max_bits: u32,
) -> Result<(Field, u32)> {
    let field = alu_src(at, operand, &src.src, max_bits)?;
    Ok((field, u32::from(src.abs) | u32::from(src.neg) << 1))
}

/// `ALUDst(value, flags, max_size)` backwards: flags bit 0 is the cache hint, bit 1 selects
/// a 32-bit register (value = its even first half) or, with an odd value, a 64-bit pair
/// (value = first half + 1).
pub(super) fn alu_dst(
    at: At,
    operand: &'static str,
    dst: &Dst<PReg>,
    max_bits: u32,
) -> Result<Field> {
    let reg = dst.reg;
    at.check_reg(operand, reg)?;
    let cache = u32::from(dst.cache);
    let half = u32::from(reg.half);
    match reg.class {
        RegClass::H16 => Ok(Field {
            value: half,
            ty: cache,
        }),
        RegClass::R32 if max_bits >= 32 => Ok(Field {
            value: half,
            ty: 0b10 | cache,
        }),
        RegClass::R64 if max_bits >= 64 => Ok(Field {
            value: half + 1,
            ty: 0b10 | cache,
        }),
        found => {
            let expected = match max_bits {
                16 => "a 16-bit register",
                32 => "a 16- or 32-bit register",
                _ => "a 16-, 32- or 64-bit register",
            };
            Err(at.wrong_class(operand, expected, found))
        }
    }
}

/// `CmpselSrc(value, flags, destination_flags)` backwards: 3-bit flags, `100` immediate, `11u`
/// uniform, `0hh` register; the operand has the destination's width.
pub(super) fn cmpsel_src(
    at: At,
    operand: &'static str,
    src: &Src<PReg>,
    dst_is_32: bool,
) -> Result<Field> {
    match *src {
        Src::Imm(v) => Ok(Field {
            value: u32::from(v),
            ty: 0b100,
        }),
        Src::Uniform(u) => {
            let half = match (u, dst_is_32) {
                (UReg::U16(h), false) if h <= 511 => u32::from(h),
                (UReg::U32(n), true) if n <= 255 => 2 * u32::from(n),
                (UReg::U16(h), false) => {
                    let kind = EncodeErrorKind::UniformOutOfRange {
                        value: u32::from(h),
                        max: 511,
                    };
                    return Err(at.err(operand, kind));
                }
                (UReg::U32(n), true) => {
                    let kind = EncodeErrorKind::UniformOutOfRange {
                        value: u32::from(n),
                        max: 255,
                    };
                    return Err(at.err(operand, kind));
                }
                _ => {
                    return Err(at.not_encodable(
                        operand,
                        "a select result must have the destination's width",
                    ))
                }
            };
            Ok(Field {
                value: half & 0xff,
                ty: 0b110 | half >> 8,
            })
        }
        Src::Reg { reg, hint } => {
            at.check_reg(operand, reg)?;
            let expected = if dst_is_32 {
                RegClass::R32
            } else {
                RegClass::H16
            };
            if reg.class != expected {
                let what = if dst_is_32 {
                    "a 32-bit register"
                } else {
                    "a 16-bit register"
                };
                return Err(at.wrong_class(operand, what, reg.class));
            }
            Ok(Field {
                value: u32::from(reg.half),
                ty: hint_bits(hint),
            })
        }
    }
}

/// A run of registers of a memory or texture instruction (`MemoryReg`, defined by the
/// simulator as Mesa packs it): the first half and whether the registers are 32-bit. `count`
/// is the number of registers the instruction moves.
pub(super) fn run(at: At, operand: &'static str, reg: PReg, count: u32) -> Result<(u32, bool)> {
    at.check_reg(operand, reg)?;
    let (bits, found) = reg.class.run();
    if found != count {
        return Err(at.err(
            operand,
            EncodeErrorKind::RegisterCount {
                expected: count,
                found,
            },
        ));
    }
    Ok((u32::from(reg.half), bits == 32))
}

/// A run of `count` 32-bit registers (texture coordinates, LOD, extras): its first half.
pub(super) fn run32(at: At, operand: &'static str, reg: PReg, count: u32) -> Result<u32> {
    let (half, is32) = run(at, operand, reg, count)?;
    if !is32 {
        return Err(at.wrong_class(operand, "32-bit registers", reg.class));
    }
    Ok(half)
}

/// A single 16-bit register operand (threadgroup base/index, texture/sampler slot): its half.
pub(super) fn half16(at: At, operand: &'static str, reg: PReg) -> Result<u32> {
    at.check_reg(operand, reg)?;
    if reg.class != RegClass::H16 {
        return Err(at.wrong_class(operand, "a 16-bit register", reg.class));
    }
    Ok(u32::from(reg.half))
}

/// A single 32-bit register operand (memory offsets, `ret`): its first half.
pub(super) fn reg32(at: At, operand: &'static str, reg: PReg) -> Result<u32> {
    at.check_reg(operand, reg)?;
    if reg.class != RegClass::R32 {
        return Err(at.wrong_class(operand, "a 32-bit register", reg.class));
    }
    Ok(u32::from(reg.half))
}

/// The names of one ALU operand slot's fields in a described form: the 6-bit value `X`, the
/// type `Xt` (its width is the form's: 4 bits, 3 in the fp16 forms and `CmpselSrc`) and the
/// 2-bit extension `Xx` (bits 7:6 of the value).
#[derive(Debug, Clone, Copy)]
pub(super) struct Slot {
    pub value: &'static str,
    pub ty: &'static str,
    pub ext: &'static str,
}

/// Source slot `A`.
pub(super) const A: Slot = Slot {
    value: "A",
    ty: "At",
    ext: "Ax",
};
/// Source slot `B`.
pub(super) const B: Slot = Slot {
    value: "B",
    ty: "Bt",
    ext: "Bx",
};
/// Source slot `C`.
pub(super) const C: Slot = Slot {
    value: "C",
    ty: "Ct",
    ext: "Cx",
};
/// The destination `D`, `Dt`, `Dx`.
pub(super) const D: Slot = Slot {
    value: "D",
    ty: "Dt",
    ext: "Dx",
};

impl Bits {
    /// Writes an operand's fields into a slot.
    pub(super) fn put(&mut self, slot: &Slot, field: Field) {
        self.set(slot.value, field.value & 0x3f);
        self.set(slot.ext, field.value >> 6);
        self.set(slot.ty, field.ty);
    }
}
