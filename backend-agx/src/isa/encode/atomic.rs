//! Atomic encodings. The document has no atomics; the layouts are Mesa's
//! (`src/asahi/compiler/agx_opcodes.py`, ops `atomic` and `local_atomic`: the constant bits;
//! `agx_pack.c`, `AGX_OPCODE_ATOMIC` and `AGX_OPCODE_LOCAL_ATOMIC`: the operand fields), and
//! the shared description's entries (`agxc_g13_isa::encoding`, `table_atomic`) record them; the
//! encoder sets their fields by name.

use agxc_g13_isa::Opcode;

use super::bits::Bits;
use super::error::EncodeErrorKind;
use super::operand::{reg32, run, At, Result};
use super::Encoded;
use crate::isa::{AtomicOpc, DeviceAtomic, MemBase, MemOffset, PReg, RegClass, TgAtomic};

/// The value operand: one 32-bit register, or two for `cmpxchg`; its first half.
fn value(at: At, op: AtomicOpc, reg: PReg) -> Result<u32> {
    let (half, is32) = run(at, "value", reg, op.value_count())?;
    if !is32 {
        return Err(at.wrong_class("value", "32-bit registers", reg.class));
    }
    Ok(half)
}

/// `atomic` (device memory), 8 bytes: constant `0x15` in 5:0 and bits 26, 31, 44 and 46;
/// `op` 9:6, result `Rx:R` (41:40, 15:10) with `Rt` (47) set when it is wanted, base
/// `Ah:Al` (39:36, 19:16) with `At` (27) set for a uniform pair, word index `Ox:Oh:Ol`
/// (63:56, 35:32, 23:20) with `Ot` (24) set for an immediate and `Ou` (25) zero-extending a
/// register, wait slot 30, value register `S` 55:48 (a half index below 0x100).
pub(super) fn device(at: At, a: &DeviceAtomic<PReg>) -> Result<Encoded> {
    let mut b = Bits::new(Opcode::Atomic);
    b.set("op", a.op.code());
    if let Some(dst) = a.dst {
        let half = reg32(at, "dst", dst)?;
        b.set("R", half & 0x3f);
        b.set("Rx", half >> 6);
        b.set_bit("Rt", true);
    }
    let base = match a.base {
        MemBase::Uniform(n) => {
            if n > 127 {
                let kind = EncodeErrorKind::UniformOutOfRange {
                    value: u32::from(n),
                    max: 127,
                };
                return Err(at.err("base", kind));
            }
            b.set_bit("At", true);
            2 * u32::from(n)
        }
        MemBase::Reg(reg) => {
            at.check_reg("base", reg)?;
            if reg.class != RegClass::R64 {
                return Err(at.wrong_class("base", "a 64-bit register pair", reg.class));
            }
            u32::from(reg.half)
        }
    };
    b.set("Al", base & 0xf);
    b.set("Ah", base >> 4);
    let offset = match a.offset {
        MemOffset::Imm(v) => {
            b.set_bit("Ot", true);
            u32::from(v as u16)
        }
        MemOffset::Reg { reg, signed } => {
            b.set_bit("Ou", !signed);
            reg32(at, "offset", reg)?
        }
    };
    b.set("Ol", offset & 0xf);
    b.set("Oh", (offset >> 4) & 0xf);
    b.set("Ox", offset >> 8);
    b.set("u2", at.range("slot", i64::from(a.slot), 0, 1)?);
    b.set("S", value(at, a.op, a.value)?);
    Ok(b.finish())
}

/// `local_atomic` (threadgroup memory), 10 bytes: constant `0x19` in 5:0 and bits 15 (the
/// long form, always), 36 and 47; result `Rx:R` (61:60, 14:9) with its 32-bit flag `Rt` (8)
/// and `Ra` (38) set when it is wanted, base `Ax:A` (59:58, 21:16) of type `At` (23:22, as
/// `threadgroup_load`), `op` 27:24, word index `Ox:O` (57:48, 33:28) with `Ot` (34) set for
/// an immediate, and the value register's half index in the last 16 bits (79:64).
pub(super) fn threadgroup(at: At, a: &TgAtomic<PReg>) -> Result<Encoded> {
    let mut b = Bits::new(Opcode::LocalAtomic);
    if let Some(dst) = a.dst {
        let half = reg32(at, "dst", dst)?;
        b.set_bit("Rt", true);
        b.set("R", half & 0x3f);
        b.set("Rx", half >> 6);
        b.set_bit("Ra", true);
    }
    super::memory::threadgroup_address(&mut b, at, a.base, a.offset)?;
    b.set("op", a.op.code());
    b.set("S", value(at, a.op, a.value)?);
    Ok(b.finish())
}
