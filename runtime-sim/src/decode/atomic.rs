//! Typed decoding of `atomic` and `local_atomic`, which the document lacks. The layouts are
//! Mesa's (`encoding::table_atomic`); this simulator defines what Mesa leaves open:
//!
//! - `op` codes 11..=15 are not defined and rejected.
//! - The value `S` is a 32-bit register by its (even) half index, below 0x100; `cmpxchg`
//!   reads two consecutive 32-bit registers, the new value then the comparand (the order of
//!   Mesa's `agx_emit_atomic`, `agx_compile.c`).
//! - The result register is written only when it is wanted (`atomic`: `Rt`; `local_atomic`:
//!   `Ra`, with `Rt` its 32-bit flag, which must be set); a result field that is not wanted
//!   must be zero, as Mesa writes it.
//! - Bits Mesa never sets (`u*`) must be zero; set, they are rejected as unsupported, since
//!   what the hardware does then is unknown (Mesa's bit 45 of `atomic` is a G13X coherency
//!   flag, which this G13 model does not have).
//! - `atomic` addresses the 32-bit word at `base + (index << 2)` (`MemoryBase`,
//!   `MemoryIndex` as `device_load`), `local_atomic` the word at `base + (index << 2)` of
//!   threadgroup memory (`ThreadgroupMemoryBase`, `ThreadgroupIndex` as `threadgroup_load`);
//!   both round the address down to a multiple of 4.

use super::inst::{AtomicOp, Inst, TgBase, TgIndex};
use super::operands::{memory_base, memory_index, memory_reg, undefined, unsupported};
use crate::encoding::{Opcode, RawInst};
use crate::error::DecodeErrorKind;

type Result<T> = std::result::Result<T, DecodeErrorKind>;

fn zero(raw: &RawInst, fields: &[&'static str]) -> Result<()> {
    for &name in fields {
        let v = raw.get(name);
        if v != 0 {
            return Err(unsupported(raw.encoding.opcode, name, v));
        }
    }
    Ok(())
}

/// The result register (a 32-bit register by its even half index `value`), if `wanted`.
fn result(op: Opcode, wanted: bool, value: u32) -> Result<Option<u8>> {
    if !wanted {
        return if value == 0 {
            Ok(None)
        } else {
            Err(undefined(op, "R", "result register without its wanted bit"))
        };
    }
    if value & 1 == 1 {
        return Err(undefined(op, "R", "odd 32-bit register"));
    }
    Ok(Some((value >> 1) as u8))
}

/// Decodes `atomic` or `local_atomic`.
pub(super) fn decode(raw: &RawInst) -> Result<Inst> {
    let op = raw.encoding.opcode;
    let code = raw.get("op");
    let atomic = AtomicOp::from_code(code).ok_or_else(|| unsupported(op, "op", code))?;
    let s = raw.get("S");
    if s >= 0x100 {
        return Err(undefined(op, "S", "value register at or above 0x100"));
    }
    let value = memory_reg(op, "S", s, 1, atomic.value_count())?;
    if op == Opcode::Atomic {
        zero(raw, &["u3", "u4", "u5"])?;
        return Ok(Inst::DeviceAtomic {
            op: atomic,
            dst: result(op, raw.get("Rt") != 0, raw.join(&["Rx", "R"]))?,
            value,
            base: memory_base(op, raw.join(&["Ah", "Al"]), raw.get("At"))?,
            offset: memory_index(
                op,
                raw.join(&["Ox", "Oh", "Ol"]),
                raw.get("Ot"),
                raw.get("Ou") != 0,
            )?,
            slot: raw.get("u2") as u8,
        });
    }
    zero(raw, &["u0", "u1", "u2", "u3", "u4"])?;
    let wanted = raw.get("Ra") != 0;
    if wanted && raw.get("Rt") == 0 {
        return Err(undefined(op, "R", "16-bit result register"));
    }
    if !wanted && raw.get("Rt") != 0 {
        return Err(undefined(op, "R", "result register without its wanted bit"));
    }
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
    Ok(Inst::LocalAtomic {
        op: atomic,
        dst: result(op, wanted, raw.join(&["Rx", "R"]))?,
        value,
        base,
        offset,
    })
}
