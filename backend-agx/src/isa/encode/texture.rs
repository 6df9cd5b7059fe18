//! `texture_sample` and `texture_load` (document section "Memory and Stack Instructions";
//! the operands are the simulator's definitions, `agxc-runtime-sim` `decode::texture` docs,
//! and docs/g13.md's LOD modes).
//!
//! Layout: `L R Rt op`, `q2 D q1 Ct C`, `q3 n Tt T`, `q5 St S lod mask`,
//! `Ox Sx Ot q6 O Tx Dx Cx Rx q4 U`; 8 bytes short, 12 long. Every register operand's 2-bit
//! extension is in the long part, so registers past r31 (halves past 63) need the long form.
//! Constant bits, field positions and lengths are the shared description's entries
//! (`agxc_g13_isa::encoding`, `table_memory`).

use agxc_g13_isa::Opcode;

use super::bits::Bits;
use super::error::EncodeErrorKind;
use super::operand::{half16, run, run32, At, Result};
use super::Encoded;
use crate::isa::{ImageWriteOp, Lod, PReg, TexDim, TexIndex, TexOp};

/// Writes an 8-bit value: its 6-bit field and its 2-bit extension.
fn put8(b: &mut Bits, low: &str, ext: &str, value: u32) {
    b.set(low, value & 0x3f);
    b.set(ext, value >> 6);
}

/// A texture or sampler slot: (value, 1 if a 16-bit register).
fn index(at: At, operand: &'static str, i: &TexIndex<PReg>) -> Result<(u32, u32)> {
    match *i {
        TexIndex::Imm(v) => Ok((u32::from(v), 0)),
        TexIndex::Reg(r) => Ok((half16(at, operand, r)?, 1)),
    }
}

/// Encodes `texture_sample` or `texture_load` (`op`).
pub(super) fn texture(at: At, op: Opcode, t: &TexOp<PReg>) -> Result<Encoded> {
    let load = op == Opcode::TextureLoad;
    let mask = at.range("mask", i64::from(t.mask), 1, 15)?;
    let mut b = Bits::new(op);

    let (half, is32) = run(at, "dst", t.dst, mask.count_ones())?;
    b.set_bit("Rt", is32);
    put8(&mut b, "R", "Rx", half);

    let coords = run32(at, "coords", t.coords, t.dim.coord_count())?;
    put8(&mut b, "C", "Cx", coords);
    b.set_bit("Ct", t.coords_discard);

    if load && !matches!(t.lod, Lod::Auto | Lod::LodReg(_) | Lod::LodUniform(_)) {
        return Err(at.not_encodable(
            "lod",
            "texture_load takes only an automatic or explicit LOD",
        ));
    }
    let lod = match t.lod {
        Lod::Auto => 0,
        Lod::BiasUniform(n) | Lod::LodUniform(n) | Lod::BiasMinUniform(n) => {
            if n > 127 {
                let kind = EncodeErrorKind::UniformOutOfRange {
                    value: u32::from(n),
                    max: 127,
                };
                return Err(at.err("lod", kind));
            }
            2 * u32::from(n)
        }
        Lod::Gradient(r)
        | Lod::BiasReg(r)
        | Lod::LodReg(r)
        | Lod::GradientMin(r)
        | Lod::BiasMinReg(r) => run32(at, "lod", r, t.lod.register_count(t.dim))?,
    };
    put8(&mut b, "D", "Dx", lod);
    b.set("lod", t.lod.code());

    let (tex, tex_reg) = index(at, "texture", &t.texture)?;
    put8(&mut b, "T", "Tx", tex);
    b.set("Tt", tex_reg);
    let (samp, samp_reg) = index(at, "sampler", &t.sampler)?;
    put8(&mut b, "S", "Sx", samp);
    b.set_bit("St", samp_reg == 1);

    b.set("n", t.dim.code());
    b.set("mask", mask);
    // The wait slot is the entry's `q5` (bit 63).
    b.set("q5", at.range("slot", i64::from(t.slot), 0, 1)?);

    // Gather (Mesa `agx_pack.c`: the 3-bit `gather` enum at bit 23 of the extension word,
    // i.e. bits 89:87; `agx_opcodes.py`: bit 0 on, bits 2:1 the component).
    if let Some(component) = t.gather {
        if load {
            return Err(at.not_encodable("gather", "texture_load does not gather"));
        }
        if !matches!(
            t.dim,
            TexDim::D2 | TexDim::D2Array | TexDim::Cube | TexDim::CubeArray
        ) {
            return Err(at.not_encodable("gather", "only 2D and cube textures gather"));
        }
        let component = at.range("gather", i64::from(component), 0, 3)?;
        // In the entry's `q6` (bits 90:86): gather on at bit 87, the component at 89:88.
        b.set("q6", 0b10 | component << 2);
    }
    if let Some(extra) = &t.extra {
        if load && extra.compare {
            return Err(at.not_encodable("extra", "texture_load takes no compare reference"));
        }
        let count = u32::from(extra.compare) + u32::from(extra.offset);
        if count == 0 {
            return Err(at.not_encodable("extra", "extra registers without compare or offset"));
        }
        let first = run32(at, "extra", extra.regs, count)?;
        put8(&mut b, "O", "Ox", first);
        // The compare reference flag is the entry's `q1` (bit 23), the offset flag its `Ot`.
        b.set_bit("q1", extra.compare);
        b.set_bit("Ot", extra.offset);
    }
    Ok(b.finish())
}

/// Encodes `image_write` (Mesa's `agx_opcodes.py`: exact bits `0xF1 | (1 << 23) | (9 << 43)`;
/// `agx_pack.c`, `AGX_OPCODE_IMAGE_WRITE`): data `R` at 14:9 (`Rt` bit 8: 32-bit), coordinates
/// `C` at 21:16 (`Ct` bit 22), level `D` at 29:24 (`Dt` bit 31: immediate), texture `T` at
/// 37:32 (`Tt` 39:38), dimensionality at 42:40, and the registers' top two bits at 57:56
/// (R), 59:58 (C), 61:60 (D), 63:62 (T). 6 bytes, or 8 with `L` (bit 15) when any bit from 48
/// up is set.
pub(super) fn image_write(at: At, w: &ImageWriteOp<PReg>) -> Result<Encoded> {
    let mut b = Bits::new(Opcode::ImageWrite);
    let (data, is32) = run(at, "data", w.data, 4)?;
    if !is32 {
        return Err(at.not_encodable("data", "image_write takes 32-bit data here"));
    }
    b.set_bit("Rt", true);
    put8(&mut b, "R", "Rx", data);
    let coords = run32(at, "coords", w.coords, w.dim.coord_count())?;
    put8(&mut b, "C", "Cx", coords);
    b.set_bit("Ct", w.coords_discard);
    put8(&mut b, "D", "Dx", u32::from(w.level));
    b.set_bit("Dt", true);
    let (tex, tex_reg) = index(at, "texture", &w.texture)?;
    put8(&mut b, "T", "Tx", tex);
    b.set("Tt", tex_reg);
    b.set("n", w.dim.code());
    Ok(b.finish())
}
