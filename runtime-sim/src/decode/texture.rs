//! Typed decoding of `texture_sample` and `texture_load`.
//!
//! The document names the operand decoders (`SampleReg`, `Texture`, `Sampler`, `Coords`, `Lod`,
//! `SampleOff`) without defining them. This simulator reads them as Mesa's AGX packer writes them
//! (`agx_pack.c`, `agx_pack_texture`, `agx_pack_sampler`, `agx_pack_lod`,
//! `agx_pack_sample_compare_offset`):
//!
//! - `R` (`Rx:R`, `Rt`): the result registers, 32-bit (f32) when `Rt` is set, else 16-bit (f16),
//!   one per component selected by `mask` (bit 0 red .. bit 3 alpha), consecutive.
//! - `C` (`Cx:C`): consecutive 32-bit registers from half `Cx:C`: the coordinates, then the
//!   array layer (float for `texture_sample`, integer for `texture_load`). `Ct` is a last-use
//!   (discard) hint on all of them (docs/g13.md).
//! - `n` with bit 2 of `q4` above it: 0 1D, 1 1D array, 2 2D, 3 2D array, 5 3D, 6 cube,
//!   7 cube array (4, 2D multisampled, is not supported).
//! - `lod` (docs/g13.md's LOD modes) and `D` (`Dx:D`): the 32-bit uniform or register holding the
//!   bias or LOD (a float for `texture_sample`, an integer level for `texture_load`), the bias
//!   followed by the minimum LOD, or the gradients interleaved as
//!   `dx.x, dy.x, dx.y, dy.y[, dx.z, dy.z][, min]`.
//! - `T` (`Tx:T`, `Tt`): `Tt` 0 an immediate texture slot, 1 a 16-bit register holding the slot;
//!   bindless (`Tt` 3, base in `U`) is not supported and `U` must be 0.
//! - `S` (`Sx:S`, `St`): `St` 0 an immediate sampler slot, 1 a 16-bit register.
//! - `q1` set: a compare (shadow) reference is supplied; `Ot` set: texel offsets are supplied.
//!   They come from consecutive 32-bit registers from half `Ox:O`: the reference (f32) first if
//!   present, then the offsets packed as signed 4-bit values, x in bits 3:0, y in 7:4, z in 11:8.
//! - `q6` (bits 90:86): gather mode. Mesa's packer writes its 3-bit `gather` enum at bit 23 of
//!   the extension word (`agx_pack.c`, `I->gather << 23`, i.e. bits 89:87), with the values
//!   `agx_opcodes.py` gives: `0b000` none, `0b001` red, `0b011` green, `0b101` blue, `0b111`
//!   alpha, so q6 bit 1 enables the gather and q6 bits 3:2 name the component. q6 bits 0 and
//!   4 must be 0. A gather reads the bilinear footprint at the base level whatever the LOD
//!   mode; only `texture_sample` of 2D, 2D array, cube and cube array textures gathers.
//! - `q5`: the wait slot of the result. `q2` (LOD query) must be 0; `q3` and the remaining
//!   bits of `q4` are not interpreted.

use super::inst::{ImageLod, ImageWriteInst, Inst, LodMode, TexIndex, TexInstDim, TextureInst};
use super::operands::{memory_reg, undefined, unsupported};
use crate::encoding::{Opcode, RawInst};
use crate::error::DecodeErrorKind;

type Result<T> = std::result::Result<T, DecodeErrorKind>;

fn even_half(opcode: Opcode, operand: &'static str, value: u32) -> Result<u8> {
    if value & 1 == 1 {
        return Err(undefined(opcode, operand, "odd 32-bit register or uniform"));
    }
    Ok((value >> 1) as u8)
}

/// Decodes `texture_sample` / `texture_load`.
pub(super) fn decode(raw: &RawInst) -> Result<Inst> {
    let op = raw.encoding.opcode;
    let load = op == Opcode::TextureLoad;
    let mask = match raw.get("mask") {
        0 => return Err(unsupported(op, "mask", 0)),
        m => m,
    };
    let dst = memory_reg(
        op,
        "R",
        raw.join(&["Rx", "R"]),
        raw.get("Rt"),
        mask.count_ones(),
    )?;
    let coords = even_half(op, "C", raw.join(&["Cx", "C"]))?;
    let lod_code = raw.get("lod");
    let lod_mode = LodMode::from_code(lod_code).ok_or_else(|| unsupported(op, "lod", lod_code))?;
    if load
        && !matches!(
            lod_mode,
            LodMode::Auto | LodMode::LodReg | LodMode::LodUniform
        )
    {
        return Err(unsupported(op, "lod", lod_code));
    }
    let lod = if lod_mode == LodMode::Auto {
        0
    } else {
        even_half(op, "D", raw.join(&["Dx", "D"]))?
    };
    let dim = tex_dim(op, raw.get("n") | (raw.get("q4") >> 2) << 3)?;
    let t = raw.join(&["Tx", "T"]);
    let texture = match raw.get("Tt") {
        0 => TexIndex::Imm(t as u16),
        1 => TexIndex::Half(t as u8),
        value => return Err(unsupported(op, "Tt", value)),
    };
    if raw.get("U") != 0 {
        return Err(unsupported(op, "U", raw.get("U")));
    }
    let s = raw.join(&["Sx", "S"]);
    let sampler = if raw.get("St") != 0 {
        TexIndex::Half(s as u8)
    } else {
        TexIndex::Imm(s as u16)
    };
    let compare = raw.get("q1") != 0;
    let offset = raw.get("Ot") != 0;
    if load && compare {
        return Err(unsupported(op, "q1 (compare)", 1));
    }
    let extra = if compare || offset {
        even_half(op, "O", raw.join(&["Ox", "O"]))?
    } else {
        0
    };
    if raw.get("q2") != 0 {
        return Err(unsupported(op, "q2 (LOD query)", raw.get("q2")));
    }
    let q6 = raw.get("q6");
    let gather = match q6 {
        0 => None,
        _ if q6 & 0b10001 != 0 || q6 & 0b10 == 0 => {
            return Err(unsupported(op, "q6 (gather)", q6));
        }
        _ if load => return Err(unsupported(op, "q6 (gather with texture_load)", q6)),
        _ if !matches!(
            dim,
            TexInstDim::D2 | TexInstDim::D2Array | TexInstDim::Cube | TexInstDim::CubeArray
        ) =>
        {
            return Err(unsupported(op, "q6 (gather from a 1D or 3D texture)", q6));
        }
        _ => Some(((q6 >> 2) & 3) as u8),
    };
    Ok(Inst::Texture(TextureInst {
        load,
        dst,
        coords,
        coords_discard: raw.get("Ct") != 0,
        lod_mode,
        lod,
        dim,
        texture,
        sampler,
        compare,
        offset,
        extra,
        mask: mask as u8,
        slot: raw.get("q5") as u8,
        gather,
    }))
}

/// The dimensionality code (`n` with its extension bit above it).
fn tex_dim(op: Opcode, code: u32) -> Result<TexInstDim> {
    Ok(match code {
        0 => TexInstDim::D1,
        1 => TexInstDim::D1Array,
        2 => TexInstDim::D2,
        3 => TexInstDim::D2Array,
        5 => TexInstDim::D3,
        6 => TexInstDim::Cube,
        7 => TexInstDim::CubeArray,
        value => return Err(unsupported(op, "n (dimensionality)", value)),
    })
}

/// Decodes `image_write` (Mesa's `agx_pack.c`, `AGX_OPCODE_IMAGE_WRITE`): `R` the four data
/// registers (`Rt`: 32-bit, `agx_pack_pbe_source`), `C` the 32-bit coordinate registers (`Ct`
/// the discard hint; `Cs`, 16-bit coordinates, is not supported), `D` the 16-bit level
/// (`Dt` set: an immediate, else a register, `agx_pack_pbe_lod`), `T`/`Tt` the texture slot as
/// for `texture_load` (bindless, `Tt` 3 with a base in `U`, is not supported). Rounding
/// toward zero (`rtz`) and the unknown bits must be 0.
pub(super) fn decode_image_write(raw: &RawInst) -> Result<Inst> {
    let op = raw.encoding.opcode;
    let data = memory_reg(op, "R", raw.join(&["Rx", "R"]), raw.get("Rt"), 4)?;
    let coords = even_half(op, "C", raw.join(&["Cx", "C"]))?;
    for field in ["Cs", "U", "rtz", "q0", "q1"] {
        if raw.get(field) != 0 {
            return Err(unsupported(op, field, raw.get(field)));
        }
    }
    let d = raw.join(&["Dx", "D"]);
    let lod = if raw.get("Dt") != 0 {
        ImageLod::Imm(d as u8)
    } else {
        ImageLod::Half(d as u8)
    };
    let dim = tex_dim(op, raw.get("n") | raw.get("n3") << 3)?;
    let t = raw.join(&["Tx", "T"]);
    let texture = match raw.get("Tt") {
        0 => TexIndex::Imm(t as u16),
        1 => TexIndex::Half(t as u8),
        value => return Err(unsupported(op, "Tt", value)),
    };
    Ok(Inst::ImageWrite(ImageWriteInst {
        data,
        coords,
        coords_discard: raw.get("Ct") != 0,
        lod,
        dim,
        texture,
    }))
}
