//! Typed decoding of the memory, stack and fragment I/O instructions.
//!
//! The document leaves the operands of several of these undefined (`TODO()`); this simulator
//! defines them as follows, and the runtime docs describe the behaviour:
//!
//! - Register runs (`MemoryReg`, `ThreadgroupMemoryReg`): the type bit set means 32-bit
//!   registers from half `Rx:R` (even), clear means 16-bit registers from half `Rx:R`; one
//!   register per set bit of `mask` (bit-packed device formats: one per component).
//! - An all-zero `mask` is rejected (the short forms of the memory instructions read their mask as
//!   zero, and what the hardware does then is unknown).
//! - `ld_tile`/`st_tile` formats: `i32` (32-bit registers hold f32 bits), `f16` (values pass
//!   through f16 precision) and `unorm8` (values quantised to 8-bit unorm).
//! - `uniform_store` formats: `i16` and `i32` (element size 2 or 4 bytes of uniform space).
//! - `stack_load`/`stack_store` formats: `i8`, `i16`, `i32` (raw bytes).
//! - `stack_get_ptr`: `Rx:R` names a 32-bit register by its (even) half index.
//! - `stack_adjust`: `v3:v2:v1` is a signed 16-bit byte adjustment of the stack pointer.
//! - `ThreadgroupMemoryBase(Ax:A, At)`: `At` 0 a 16-bit register, 1 a 16-bit uniform (`At` 3:
//!   plus 256), 2 an immediate byte offset. `ThreadgroupIndex(Ox:O, Ot)`: `Ot` 1 a signed 16-bit
//!   immediate, 0 a signed 16-bit register. Element `k` of the mask is at
//!   `base + (index << log2(element bytes)) + k * element bytes`.

use super::inst::{Inst, MemFormat, RegRange, Src, TgBase, TgIndex};
use super::operands::{
    alu_dst, memory_base, memory_index, memory_reg, run, undefined, unsupported,
};
use crate::encoding::{Opcode, RawInst};
use crate::error::DecodeErrorKind;

type Result<T> = std::result::Result<T, DecodeErrorKind>;

fn nonzero_mask(raw: &RawInst) -> Result<u32> {
    match raw.get("mask") {
        0 => Err(unsupported(raw.encoding.opcode, "mask", 0)),
        mask => Ok(mask),
    }
}

fn format(raw: &RawInst, code: u32, allowed: &[MemFormat]) -> Result<MemFormat> {
    MemFormat::from_code(code)
        .filter(|f| allowed.contains(f))
        .ok_or_else(|| unsupported(raw.encoding.opcode, "format", code))
}

/// A run of ALU-destination-style registers (`ALUDst(Dx:D, Dt)`, 16 or 32 bits), `count` long.
fn dst_run(raw: &RawInst, count: u32) -> Result<RegRange> {
    let d = alu_dst(raw.join(&["Dx", "D"]), raw.get("Dt"), 32);
    run(raw.encoding.opcode, "D", d.reg, count)
}

/// Decodes the memory instruction `raw`.
pub(super) fn decode(raw: &RawInst) -> Result<Inst> {
    use MemFormat::*;
    use Opcode::*;
    let op = raw.encoding.opcode;
    Ok(match op {
        LdTile | StTile => {
            let mask = nonzero_mask(raw)?;
            Inst::Tile {
                load: op == LdTile,
                regs: dst_run(raw, mask.count_ones())?,
                rt: raw.get("rt") as u8,
                mask: mask as u8,
                format: format(raw, raw.get("F"), &[I32, F16, U8Norm])?,
            }
        }
        LdVar => {
            let mask = nonzero_mask(raw)?;
            Inst::LdVar {
                regs: dst_run(raw, mask.count_ones())?,
                index: raw.get("index") as u8,
                mask: mask as u8,
                perspective: raw.get("perspective") != 0,
            }
        }
        UniformStore => {
            let mask = nonzero_mask(raw)?;
            let regs = memory_reg(
                op,
                "R",
                raw.join(&["Rx", "R"]),
                raw.get("Rt"),
                mask.count_ones(),
            )?;
            Inst::UniformStore {
                regs,
                offset: memory_index(op, raw.join(&["Ox", "Oh", "Ol"]), raw.get("Ot"), false)?,
                mask: mask as u8,
                format: format(raw, raw.get("F"), &[I16, I32])?,
            }
        }
        DeviceLoad | DeviceStore => {
            let mask = nonzero_mask(raw)?;
            let fmt = format(
                raw,
                raw.join(&["Fx", "F"]),
                &[
                    I8, I16, I32, F16, U8Norm, S8Norm, U16Norm, S16Norm, Rgb10a2, Srgba8, Rg11b10f,
                    Rgb9e5,
                ],
            )?;
            let count = if fmt.is_bit_packed() {
                fmt.packed_components()
            } else {
                mask.count_ones()
            };
            let regs = memory_reg(op, "R", raw.join(&["Rx", "R"]), raw.get("Rt"), count)?;
            if fmt == I32 && !regs.is_32() {
                return Err(undefined(op, "R", "i32 format with 16-bit registers"));
            }
            let shift = raw.get("s");
            if shift > 2 {
                return Err(unsupported(op, "s", shift));
            }
            Inst::Device {
                store: op == DeviceStore,
                regs,
                base: memory_base(op, raw.join(&["Ah", "Al"]), raw.get("At"))?,
                offset: memory_index(
                    op,
                    raw.join(&["Ox", "Oh", "Ol"]),
                    raw.get("Ot"),
                    raw.get("Ou") != 0,
                )?,
                format: fmt,
                mask: mask as u8,
                shift: shift as u8,
                slot: raw.get("u2") as u8,
            }
        }
        StackLoad | StackStore => {
            let mask = nonzero_mask(raw)?;
            Inst::Stack {
                store: op == StackStore,
                regs: memory_reg(
                    op,
                    "R",
                    raw.join(&["Rx", "R"]),
                    raw.get("Rt"),
                    mask.count_ones(),
                )?,
                offset: memory_index(op, raw.join(&["Ox", "Oh", "Ol"]), raw.get("Ot"), false)?,
                format: format(raw, raw.join(&["Fx", "F"]), &[I8, I16, I32])?,
                mask: mask as u8,
            }
        }
        StackGetPtr => {
            let value = raw.join(&["Rx", "R"]);
            if value & 1 == 1 {
                return Err(undefined(op, "R", "odd 32-bit register"));
            }
            Inst::StackGetPtr {
                reg: (value >> 1) as u8,
            }
        }
        StackAdjust => Inst::StackAdjust {
            amount: i32::from(raw.join(&["v3", "v2", "v1"]) as u16 as i16),
        },
        ThreadgroupLoad | ThreadgroupStore => {
            let mask = nonzero_mask(raw)?;
            let a = raw.join(&["Ax", "A"]);
            let base = match raw.get("At") {
                0 => TgBase::Half(a as u8),
                1 => TgBase::Uni16(a as u16),
                3 => TgBase::Uni16(a as u16 + 256),
                _ => TgBase::Imm(a as u16),
            };
            let o = raw.join(&["Ox", "O"]);
            let offset = if raw.get("Ot") != 0 {
                TgIndex::Imm(i32::from(o as u16 as i16))
            } else if o < 0x100 {
                TgIndex::Half(o as u8)
            } else {
                return Err(undefined(op, "O", "register index at or above 0x100"));
            };
            Inst::Threadgroup {
                store: op == ThreadgroupStore,
                regs: memory_reg(
                    op,
                    "R",
                    raw.join(&["Rx", "R"]),
                    raw.get("Rt"),
                    mask.count_ones(),
                )?,
                base,
                offset,
                format: format(
                    raw,
                    raw.get("F"),
                    &[I8, I16, I32, F16, U8Norm, S8Norm, U16Norm, S16Norm, Srgba8],
                )?,
                mask: mask as u8,
            }
        }
        SampleMask => {
            let t = raw.join(&["Tx", "T"]);
            let s = raw.join(&["Sx", "S"]);
            Inst::SampleMask {
                target: if raw.get("Tt") != 0 {
                    Src::Imm(t as u16)
                } else {
                    Src::Reg(super::inst::Reg::Half(t as u8), super::inst::Hint::None)
                },
                mask: if raw.get("St") != 0 {
                    Src::Imm(s as u16)
                } else {
                    Src::Reg(super::inst::Reg::Half(s as u8), super::inst::Hint::None)
                },
            }
        }
        _ => unreachable!("invariant: decode::memory handles only memory opcodes"),
    })
}
