//! Operand types of the memory, fragment I/O and texture instructions (part of the decoded
//! form; see `inst`).

use super::inst::RegRange;

/// Memory element formats (Mesa's `enum agx_format`, `agx_compile.h`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum MemFormat {
    I8 = 0,
    I16 = 1,
    I32 = 2,
    F16 = 3,
    U8Norm = 4,
    S8Norm = 5,
    U16Norm = 6,
    S16Norm = 7,
    Rgb10a2 = 8,
    Srgba8 = 10,
    Rg11b10f = 12,
    Rgb9e5 = 13,
}

impl MemFormat {
    /// The format with code `code`.
    pub fn from_code(code: u32) -> Option<MemFormat> {
        use MemFormat::*;
        Some(match code {
            0 => I8,
            1 => I16,
            2 => I32,
            3 => F16,
            4 => U8Norm,
            5 => S8Norm,
            6 => U16Norm,
            7 => S16Norm,
            8 => Rgb10a2,
            10 => Srgba8,
            12 => Rg11b10f,
            13 => Rgb9e5,
            _ => return None,
        })
    }

    /// Bytes per element in memory (4 for the bit-packed formats, which read one word).
    pub fn element_bytes(self) -> u32 {
        use MemFormat::*;
        match self {
            I8 | U8Norm | S8Norm | Srgba8 => 1,
            I16 | F16 | U16Norm | S16Norm => 2,
            I32 | Rgb10a2 | Rg11b10f | Rgb9e5 => 4,
        }
    }

    /// Whether the format packs several components into one 32-bit word.
    pub fn is_bit_packed(self) -> bool {
        matches!(
            self,
            MemFormat::Rgb10a2 | MemFormat::Rg11b10f | MemFormat::Rgb9e5
        )
    }

    /// Components of a bit-packed format.
    pub fn packed_components(self) -> u32 {
        match self {
            MemFormat::Rgb10a2 => 4,
            _ => 3,
        }
    }

    /// The disassembler's name.
    pub fn name(self) -> &'static str {
        use MemFormat::*;
        match self {
            I8 => "i8",
            I16 => "i16",
            I32 => "i32",
            F16 => "f16",
            U8Norm => "unorm8",
            S8Norm => "snorm8",
            U16Norm => "unorm16",
            S16Norm => "snorm16",
            Rgb10a2 => "rgb10a2",
            Srgba8 => "srgba8",
            Rg11b10f => "rg11b10f",
            Rgb9e5 => "rgb9e5",
        }
    }
}

/// A memory offset operand (the document's `MemoryIndex`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemIndex {
    /// A sign-extended 16-bit immediate.
    Imm(i32),
    /// A 32-bit register, zero- or sign-extended.
    Reg {
        /// The 32-bit register.
        reg: u8,
        /// Zero-extend (`Ou = 1`) rather than sign-extend.
        unsigned: bool,
    },
}

/// The base of a threadgroup access (`ThreadgroupMemoryBase`, defined by this simulator; see
/// the `decode::memory` docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TgBase {
    /// A 16-bit register.
    Half(u8),
    /// A 16-bit uniform.
    Uni16(u16),
    /// An immediate byte offset.
    Imm(u16),
}

/// The index of a threadgroup access (`ThreadgroupIndex`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TgIndex {
    /// A sign-extended 16-bit immediate.
    Imm(i32),
    /// A sign-extended 16-bit register.
    Half(u8),
}

/// The texture instructions' dimensionality field (`n`, with `q4` bit 2 as its fourth bit).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum TexInstDim {
    D1 = 0,
    D1Array = 1,
    D2 = 2,
    D2Array = 3,
    D3 = 5,
    Cube = 6,
    CubeArray = 7,
}

impl TexInstDim {
    /// The disassembler's name.
    pub fn name(self) -> &'static str {
        match self {
            TexInstDim::D1 => "1d",
            TexInstDim::D1Array => "1d_array",
            TexInstDim::D2 => "2d",
            TexInstDim::D2Array => "2d_array",
            TexInstDim::D3 => "3d",
            TexInstDim::Cube => "cube",
            TexInstDim::CubeArray => "cube_array",
        }
    }

    /// Coordinate components before the array layer: 1, 2 or 3 (cube: the direction).
    pub fn coord_components(self) -> u32 {
        match self {
            TexInstDim::D1 | TexInstDim::D1Array => 1,
            TexInstDim::D2 | TexInstDim::D2Array => 2,
            TexInstDim::D3 | TexInstDim::Cube | TexInstDim::CubeArray => 3,
        }
    }

    /// Whether an array layer follows the coordinates.
    pub fn is_array(self) -> bool {
        matches!(
            self,
            TexInstDim::D1Array | TexInstDim::D2Array | TexInstDim::CubeArray
        )
    }
}

/// The texture instructions' LOD mode (docs/g13.md, "texture_sample / texture_load").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LodMode {
    /// 0: automatic, from quad derivatives.
    Auto,
    /// 1: bias from a uniform.
    BiasUniform,
    /// 2: explicit LOD from a uniform.
    LodUniform,
    /// 4: gradients in registers.
    Gradient,
    /// 5: bias from a register.
    BiasReg,
    /// 6: explicit LOD from a register.
    LodReg,
    /// 9: bias and minimum LOD from uniforms.
    BiasMinUniform,
    /// 12: gradients and a minimum LOD in registers.
    GradientMin,
    /// 13: bias and minimum LOD from registers.
    BiasMinReg,
}

impl LodMode {
    /// The mode with code `code`.
    pub fn from_code(code: u32) -> Option<LodMode> {
        Some(match code {
            0 => LodMode::Auto,
            1 => LodMode::BiasUniform,
            2 => LodMode::LodUniform,
            4 => LodMode::Gradient,
            5 => LodMode::BiasReg,
            6 => LodMode::LodReg,
            9 => LodMode::BiasMinUniform,
            12 => LodMode::GradientMin,
            13 => LodMode::BiasMinReg,
            _ => return None,
        })
    }

    /// The disassembler's name.
    pub fn name(self) -> &'static str {
        match self {
            LodMode::Auto => "auto",
            LodMode::BiasUniform | LodMode::BiasReg => "bias",
            LodMode::LodUniform | LodMode::LodReg => "lod",
            LodMode::Gradient => "grad",
            LodMode::BiasMinUniform | LodMode::BiasMinReg => "bias_min",
            LodMode::GradientMin => "grad_min",
        }
    }

    /// Whether the LOD operand lives in uniforms rather than registers.
    pub fn from_uniform(self) -> bool {
        matches!(
            self,
            LodMode::BiasUniform | LodMode::LodUniform | LodMode::BiasMinUniform
        )
    }
}

/// A texture or sampler index operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TexIndex {
    /// An immediate slot number.
    Imm(u16),
    /// A 16-bit register holding the slot number.
    Half(u8),
}

/// A decoded `texture_sample` / `texture_load`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextureInst {
    /// `texture_load` (integer coordinates, no filtering) rather than `texture_sample`.
    pub load: bool,
    /// Destination registers: one per component selected by `mask`.
    pub dst: RegRange,
    /// First 32-bit coordinate register.
    pub coords: u8,
    /// The last-use (discard) hint on the coordinate registers (bit 22).
    pub coords_discard: bool,
    /// How the LOD is chosen.
    pub lod_mode: LodMode,
    /// The LOD operand: a 32-bit register or uniform index (unused for `Auto`).
    pub lod: u8,
    /// Dimensionality.
    pub dim: TexInstDim,
    /// Texture slot.
    pub texture: TexIndex,
    /// Sampler slot.
    pub sampler: TexIndex,
    /// A compare reference is supplied (shadow sampling, `q1`).
    pub compare: bool,
    /// Texel offsets are supplied (`Ot`).
    pub offset: bool,
    /// First 32-bit register of the compare reference, then the packed offsets.
    pub extra: u8,
    /// Components written: bit 0 red .. bit 3 alpha.
    pub mask: u8,
    /// Wait slot of the result (`q5`).
    pub slot: u8,
    /// Gather mode: the component (0 red .. 3 alpha) gathered from the four texels of the
    /// bilinear footprint at the base level, instead of a filtered sample (`q6`).
    pub gather: Option<u8>,
}

/// The operation of `atomic` / `local_atomic` (Mesa's `enum agx_atomic_opc`, `agx_opcodes.py`):
/// codes 0..=10; 11..=15 are not defined.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum AtomicOp {
    Add = 0,
    Sub = 1,
    Xchg = 2,
    Cmpxchg = 3,
    Umin = 4,
    Imin = 5,
    Umax = 6,
    Imax = 7,
    And = 8,
    Or = 9,
    Xor = 10,
}

impl AtomicOp {
    /// The operation with code `code`.
    pub fn from_code(code: u32) -> Option<AtomicOp> {
        use AtomicOp::*;
        Some(match code {
            0 => Add,
            1 => Sub,
            2 => Xchg,
            3 => Cmpxchg,
            4 => Umin,
            5 => Imin,
            6 => Umax,
            7 => Imax,
            8 => And,
            9 => Or,
            10 => Xor,
            _ => return None,
        })
    }

    /// The disassembler's name.
    pub fn name(self) -> &'static str {
        use AtomicOp::*;
        match self {
            Add => "add",
            Sub => "sub",
            Xchg => "xchg",
            Cmpxchg => "cmpxchg",
            Umin => "umin",
            Imin => "imin",
            Umax => "umax",
            Imax => "imax",
            And => "and",
            Or => "or",
            Xor => "xor",
        }
    }

    /// 32-bit registers of the value operand: `cmpxchg` takes two (new value, comparand).
    pub fn value_count(self) -> u32 {
        if self == AtomicOp::Cmpxchg {
            2
        } else {
            1
        }
    }

    /// The word's new value from its old value and the value registers (`value[1]` is the
    /// comparand of `cmpxchg`).
    pub fn apply(self, old: u32, value: [u32; 2]) -> u32 {
        use AtomicOp::*;
        let v = value[0];
        match self {
            Add => old.wrapping_add(v),
            Sub => old.wrapping_sub(v),
            Xchg => v,
            Cmpxchg => {
                if old == value[1] {
                    v
                } else {
                    old
                }
            }
            Umin => old.min(v),
            Imin => (old as i32).min(v as i32) as u32,
            Umax => old.max(v),
            Imax => (old as i32).max(v as i32) as u32,
            And => old & v,
            Or => old | v,
            Xor => old ^ v,
        }
    }
}
/// The LOD operand of `image_write`: a 16-bit immediate or register (`Dt` set for an
/// immediate, Mesa's `agx_pack_pbe_lod`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageLod {
    /// An immediate level.
    Imm(u8),
    /// A 16-bit register holding the level.
    Half(u8),
}

/// A decoded `image_write`: one texel per thread, converted to the bound texture's format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImageWriteInst {
    /// The four components (32-bit when `Rt` is set, else 16-bit).
    pub data: RegRange,
    /// First 32-bit coordinate register (integer coordinates, then the array layer).
    pub coords: u8,
    /// The last-use (discard) hint on the coordinate registers (`Ct`).
    pub coords_discard: bool,
    /// The level written.
    pub lod: ImageLod,
    /// Dimensionality.
    pub dim: TexInstDim,
    /// Texture slot.
    pub texture: TexIndex,
}
