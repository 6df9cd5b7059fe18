//! Memory, stack and fragment I/O encodings (document section "Memory and Stack
//! Instructions"). The document draws the fields but leaves their operands `TODO()`; the
//! operand meanings are the simulator's (`agxc-runtime-sim`, `decode::memory` docs): register
//! runs are a first half and a 32-bit flag, one register per set bit of the mask. Constant bits,
//! field positions and lengths are the shared description's entries (`agxc_g13_isa::encoding`,
//! `table_memory`).

use agxc_g13_isa::Opcode;

use super::bits::Bits;
use super::error::EncodeErrorKind;
use super::operand::{half16, reg32, run, At, Result};
use super::Encoded;
use crate::isa::{
    DeviceAccess, MemBase, MemFormat, MemOffset, PReg, RegClass, StackAccess, TgAccess, TgBase,
    TgOffset,
};

/// A 4-bit mask that is not empty.
fn mask(at: At, mask: u8) -> Result<u32> {
    at.range("mask", i64::from(mask), 1, 15)
}

/// `ld_tile`/`st_tile`: `? D Dt load 001001`, `???? F ????????`, `???????? mask u0 rt`,
/// `?? Dx ????????????`: the colour registers as an `ALUDst` (`D` 14:9, `Dt` 8:7, `Dx` 61:60),
/// `F` 27:24, `rt` 34:32, `mask` 39:36; always 8 bytes.
pub(super) fn st_tile(
    at: At,
    src: PReg,
    rt: u8,
    mask_value: u8,
    format: MemFormat,
) -> Result<Encoded> {
    let m = mask(at, mask_value)?;
    let (half, is32) = run(at, "src", src, m.count_ones())?;
    let mut b = Bits::new(Opcode::StTile);
    b.set("D", half & 0x3f);
    b.set("Dx", half >> 6);
    b.set("Dt", u32::from(is32) << 1);
    b.set("F", format.code());
    b.set("rt", at.range("rt", i64::from(rt), 0, 7)?);
    b.set("mask", m);
    Ok(b.finish())
}

/// `ld_var`: `L D Dt perspective 100001`, `mask ???????? index`, 16 unknown bits,
/// `?? Dx ????????????`: `index` 19:16, `mask` 31:28, `Dx` 61:60; 4 bytes short, 8 long.
pub(super) fn ld_var(
    at: At,
    dst: PReg,
    index: u8,
    mask_value: u8,
    perspective: bool,
) -> Result<Encoded> {
    let m = mask(at, mask_value)?;
    let (half, is32) = run(at, "dst", dst, m.count_ones())?;
    let mut b = Bits::new(Opcode::LdVar);
    b.set_bit("perspective", perspective);
    b.set("Dt", u32::from(is32) << 1);
    b.set("D", half & 0x3f);
    b.set("Dx", half >> 6);
    b.set("index", at.range("index", i64::from(index), 0, 15)?);
    b.set("mask", m);
    Ok(b.finish())
}

/// `sample_mask` with immediate operands (not in the document; the simulator's table follows
/// Mesa's `agx_pack.c`, `AGX_OPCODE_SAMPLE_MASK`): `T Tt 11000001`, `Sx ? Tx St ? S`, with
/// `T` 14:9, `Tt` 8 and `S` 21:16, `St` 23 set for immediates; always 4 bytes. The
/// extensions `Tx`/`Sx` extend register numbers only, so an immediate is 6 bits.
pub(super) fn sample_mask(at: At, targets: u8, value: u8) -> Result<Encoded> {
    let mut b = Bits::new(Opcode::SampleMask);
    b.set_bit("Tt", true);
    b.set("T", at.range("targets", i64::from(targets), 0, 63)?);
    b.set("S", at.range("value", i64::from(value), 0, 63)?);
    b.set_bit("St", true);
    Ok(b.finish())
}

/// The data run `Rx:R` with its 32-bit flag `Rt`, shared by the device and stack forms.
fn put_data(b: &mut Bits, half: u32, is32: bool) {
    b.set("R", half & 0x3f);
    b.set("Rx", half >> 6);
    b.set_bit("Rt", is32);
}

/// The offset `Ox:Oh:Ol` (63:56, 35:32, 23:20) and its type `Ot` (24) of the device and stack
/// forms (`MemoryIndex`): `Ot = 1` a signed 16-bit immediate, `Ot = 0` a 32-bit register by
/// its first half (below 0x100). Returns whether a register offset is signed.
fn put_offset(at: At, b: &mut Bits, offset: &MemOffset<PReg>) -> Result<Option<bool>> {
    let (value, signed) = match *offset {
        MemOffset::Imm(v) => {
            b.set_bit("Ot", true);
            (u32::from(v as u16), None)
        }
        MemOffset::Reg { reg, signed } => (reg32(at, "offset", reg)?, Some(signed)),
    };
    b.set("Ol", value & 0xf);
    b.set("Oh", (value >> 4) & 0xf);
    b.set("Ox", value >> 8);
    Ok(signed)
}

/// `uniform_store` (`R 0 F 1000101`): `?? 111 unk Ot Ol 0000`, `L b s Rx 0000 Oh`,
/// `Ox mask 00 Rt ?`: the register run as for `device_store` (`Rx:R`, `Rt` for 32-bit
/// registers), format `F` 8:7 (`i16`, `i32`), the uniform offset in 16-bit units as an
/// immediate (`Ot` set; `Ox:Oh:Ol`), `mask` 55:52, bits 29:27 set; the unknown `unk`, `b` and
/// `s` fields zero, as Mesa writes them (`agx_pack.c`). 8 bytes (the mask needs the long form).
pub(super) fn uniform_store(
    at: At,
    src: PReg,
    offset: u16,
    mask_value: u8,
    format: MemFormat,
) -> Result<Encoded> {
    let m = mask(at, mask_value)?;
    let (half, is32) = run(at, "src", src, m.count_ones())?;
    let wanted32 = match format {
        MemFormat::I16 => false,
        MemFormat::I32 => true,
        _ => return Err(at.not_encodable("format", "uniform_store takes i16 or i32")),
    };
    if wanted32 != is32 {
        return Err(at.not_encodable("src", "the format's width differs from the registers'"));
    }
    let step = if is32 { 2 } else { 1 };
    let last = i64::from(offset) + step * i64::from(m.count_ones());
    at.range("offset", last, 0, 512)?;
    let mut b = Bits::new(Opcode::UniformStore);
    put_data(&mut b, half, is32);
    b.set("F", format.code());
    put_offset(at, &mut b, &MemOffset::Imm(offset as i16))?;
    b.set("mask", m);
    Ok(b.finish())
}

/// `device_load` (`R F 0000101`) / `device_store` (`R F 1000101`): `? u2 ?? At ? Ou Ot Ol Al`,
/// `L ??? s Rx Ah Oh`, `Ox mask ?? Rt Fx`: format `Fx:F` (48, 9:7), base `Ah:Al` (39:36, 19:16)
/// with `At` (27) set for a uniform, `Ou` (25) zero-extends a register offset, `s` 43:42,
/// wait slot `u2` (30, docs/g13.md), `mask` 55:52; 6 bytes short, 8 long (`L` = bit 47), so any
/// non-empty mask needs the long form.
pub(super) fn device(at: At, op: Opcode, a: &DeviceAccess<PReg>) -> Result<Encoded> {
    let m = mask(at, a.mask)?;
    let (half, is32) = run(at, "data", a.data, a.format.register_count(a.mask))?;
    if a.format == MemFormat::I32 && !is32 {
        return Err(at.not_encodable("data", "the i32 format needs 32-bit registers"));
    }
    let mut b = Bits::new(op);
    put_data(&mut b, half, is32);
    b.set("F", a.format.code() & 0b111);
    b.set("Fx", a.format.code() >> 3);
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
                let kind = EncodeErrorKind::WrongClass {
                    expected: "a 64-bit register pair",
                    found: reg.class,
                };
                return Err(at.err("base", kind));
            }
            u32::from(reg.half)
        }
    };
    b.set("Al", base & 0xf);
    b.set("Ah", base >> 4);
    if let Some(signed) = put_offset(at, &mut b, &a.offset)? {
        b.set_bit("Ou", !signed);
    }
    b.set("s", at.range("shift", i64::from(a.shift), 0, 2)?);
    b.set("u2", at.range("slot", i64::from(a.slot), 0, 1)?);
    b.set("mask", m);
    Ok(b.finish())
}

/// `stack_load` (`R F 00110101`) / `stack_store` (`R F 10110101`):
/// `? i6 ??? i1 ? Ot Ol 0000`, `L i5 ?? Rx ? i2 Oh`, `Ox mask Fx Rt ?`: format `Fx:F`
/// (51:50, 9:8), `mask` 55:52; the register offset is always sign-extended (no `Ou` bit).
pub(super) fn stack(at: At, op: Opcode, a: &StackAccess<PReg>) -> Result<Encoded> {
    let m = mask(at, a.mask)?;
    let (half, is32) = run(at, "data", a.data, m.count_ones())?;
    let mut b = Bits::new(op);
    put_data(&mut b, half, is32);
    b.set("F", a.format.code() & 0b11);
    b.set("Fx", a.format.code() >> 2);
    if put_offset(at, &mut b, &a.offset)? == Some(false) {
        return Err(at.not_encodable("offset", "stack offsets are always sign-extended"));
    }
    b.set("mask", m);
    Ok(b.finish())
}

/// `threadgroup_load` (`L R Rt ? 11 ? 1001`) / `threadgroup_store` (`... 01 ...`):
/// `mask ? Ot O F At A`, `?? Rx Ax Ox ????????`: data `Rx:R` (61:60, 14:9) with `Rt` (8),
/// base `Ax:A` (59:58, 21:16) of type `At` (23:22: 0 register, 1 uniform, 3 uniform + 256,
/// 2 immediate), format `F` 27:24, index `Ox:O` (57:48, 33:28) with `Ot` (34) set for an
/// immediate, `mask` 39:36; 6 bytes short, 8 long.
pub(super) fn threadgroup(at: At, op: Opcode, a: &TgAccess<PReg>) -> Result<Encoded> {
    let m = mask(at, a.mask)?;
    let (half, is32) = run(at, "data", a.data, m.count_ones())?;
    if a.format.is_bit_packed() {
        return Err(at.not_encodable("format", "threadgroup memory takes no bit-packed format"));
    }
    let mut b = Bits::new(op);
    b.set_bit("Rt", is32);
    b.set("R", half & 0x3f);
    b.set("Rx", half >> 6);
    threadgroup_address(&mut b, at, a.base, a.offset)?;
    b.set("F", a.format.code());
    b.set("mask", m);
    Ok(b.finish())
}

/// A threadgroup address, shared by `threadgroup_load`/`_store` and `local_atomic`: base
/// `Ax:A` (59:58, 21:16) of type `At` (23:22: 0 register, 1 uniform, 3 uniform + 256,
/// 2 immediate) and index `Ox:O` (57:48, 33:28) with `Ot` (34) set for an immediate.
pub(super) fn threadgroup_address(
    b: &mut Bits,
    at: At,
    base: TgBase<PReg>,
    offset: TgOffset<PReg>,
) -> Result<()> {
    let (base, ty) = match base {
        TgBase::Reg(reg) => (half16(at, "base", reg)?, 0),
        TgBase::Uniform(h) if h < 256 => (u32::from(h), 1),
        TgBase::Uniform(h) if h < 512 => (u32::from(h) - 256, 3),
        TgBase::Uniform(h) => {
            let kind = EncodeErrorKind::UniformOutOfRange {
                value: u32::from(h),
                max: 511,
            };
            return Err(at.err("base", kind));
        }
        TgBase::Imm(v) => (u32::from(v), 2),
    };
    b.set("A", base & 0x3f);
    b.set("Ax", base >> 6);
    b.set("At", ty);
    let offset = match offset {
        TgOffset::Imm(v) => {
            b.set_bit("Ot", true);
            u32::from(v as u16)
        }
        TgOffset::Reg(reg) => half16(at, "offset", reg)?,
    };
    b.set("O", offset & 0x3f);
    b.set("Ox", offset >> 6);
    Ok(())
}
