//! The binary form of texture and sampler descriptors, so a runtime can keep descriptor tables in
//! device memory and the executor can read them the way hardware does. The byte layouts are
//! documented on [`TEXTURE_DESCRIPTOR_BYTES`] and [`SAMPLER_DESCRIPTOR_BYTES`]. Decoding checks
//! codes and reserved bytes only; [`super::Texture::new`] and [`SamplerDescriptor::validate`]
//! check the values.

use super::descriptor::{TexDim, TextureDescriptor};
use super::error::TextureError;
use super::format::TexFormat;
use super::memory::TexelMemory;
use super::sampler::{CompareOp, Filter, MipFilter, SamplerDescriptor, Wrap};

/// Size of a binary texture descriptor ([`TextureDescriptor::to_bytes`]): 32 bytes,
/// little-endian, reserved bytes zero.
///
/// | bytes | field |
/// |---|---|
/// | 0 | `dim` code ([`TexDim::code`]) |
/// | 1 | `format` code ([`TexFormat::code`]) |
/// | 2..4 | reserved |
/// | 4..8, 8..12, 12..16 | `width`, `height`, `depth` (u32) |
/// | 16..20, 20..24 | `layers`, `levels` (u32) |
/// | 24..32 | `address` (u64) |
pub const TEXTURE_DESCRIPTOR_BYTES: usize = 32;

/// Size of a binary sampler descriptor ([`SamplerDescriptor::to_bytes`]): 32 bytes,
/// little-endian, reserved bytes zero.
///
/// | bytes | field |
/// |---|---|
/// | 0, 1, 2 | `min_filter`, `mag_filter`, `mip_filter` codes (the enums' discriminants) |
/// | 3 | `compare`: 0 = none, 1 + the [`CompareOp`] discriminant |
/// | 4, 5, 6 | `wrap` codes for u, v, w (the [`Wrap`] discriminants) |
/// | 7 | reserved |
/// | 8..12, 12..16, 16..20 | `lod_bias`, `min_lod`, `max_lod` (f32) |
/// | 20..32 | reserved |
pub const SAMPLER_DESCRIPTOR_BYTES: usize = 32;

const TEXTURE: &str = "texture";
const SAMPLER: &str = "sampler";

fn u32_at(bytes: &[u8; 32], at: usize) -> u32 {
    let mut word = [0u8; 4];
    word.copy_from_slice(&bytes[at..at + 4]);
    u32::from_le_bytes(word)
}

fn f32_at(bytes: &[u8; 32], at: usize) -> f32 {
    f32::from_bits(u32_at(bytes, at))
}

fn check_reserved(
    descriptor: &'static str,
    bytes: &[u8; 32],
    reserved: std::ops::Range<usize>,
) -> Result<(), TextureError> {
    for byte in reserved {
        let value = bytes[byte];
        if value != 0 {
            return Err(TextureError::ReservedNonZero {
                descriptor,
                byte,
                value,
            });
        }
    }
    Ok(())
}

fn code<T>(
    descriptor: &'static str,
    field: &'static str,
    code: u8,
    all: &[T],
) -> Result<T, TextureError>
where
    T: Copy,
{
    all.get(usize::from(code))
        .copied()
        .ok_or(TextureError::UnknownCode {
            descriptor,
            field,
            code,
        })
}

fn read_32<M: TexelMemory + ?Sized>(mem: &M, address: u64) -> Result<[u8; 32], TextureError> {
    let mut bytes = [0u8; 32];
    mem.read_bytes(address, &mut bytes)
        .map_err(|_| TextureError::Unmapped { address, len: 32 })?;
    Ok(bytes)
}

impl TextureDescriptor {
    /// The 32-byte binary form.
    pub fn to_bytes(&self) -> [u8; TEXTURE_DESCRIPTOR_BYTES] {
        let mut bytes = [0u8; 32];
        bytes[0] = self.dim.code();
        bytes[1] = self.format.code();
        for (i, word) in [
            self.width,
            self.height,
            self.depth,
            self.layers,
            self.levels,
        ]
        .into_iter()
        .enumerate()
        {
            bytes[4 + 4 * i..8 + 4 * i].copy_from_slice(&word.to_le_bytes());
        }
        bytes[24..32].copy_from_slice(&self.address.to_le_bytes());
        bytes
    }

    /// Decodes the binary form (codes and reserved bytes checked; values unchecked).
    pub fn from_bytes(bytes: &[u8; TEXTURE_DESCRIPTOR_BYTES]) -> Result<Self, TextureError> {
        check_reserved(TEXTURE, bytes, 2..4)?;
        let mut address = [0u8; 8];
        address.copy_from_slice(&bytes[24..32]);
        Ok(TextureDescriptor {
            dim: code(TEXTURE, "dim", bytes[0], &TexDim::ALL)?,
            format: code(TEXTURE, "format", bytes[1], &TexFormat::ALL)?,
            width: u32_at(bytes, 4),
            height: u32_at(bytes, 8),
            depth: u32_at(bytes, 12),
            layers: u32_at(bytes, 16),
            levels: u32_at(bytes, 20),
            address: u64::from_le_bytes(address),
        })
    }

    /// Reads and decodes a descriptor stored at `address`.
    pub fn read<M: TexelMemory + ?Sized>(mem: &M, address: u64) -> Result<Self, TextureError> {
        Self::from_bytes(&read_32(mem, address)?)
    }
}

const FILTERS: [Filter; 2] = [Filter::Nearest, Filter::Linear];
const MIP_FILTERS: [MipFilter; 3] = [MipFilter::None, MipFilter::Nearest, MipFilter::Linear];
const WRAPS: [Wrap; 4] = [
    Wrap::Repeat,
    Wrap::ClampToEdge,
    Wrap::MirroredRepeat,
    Wrap::ClampToBorder,
];

impl SamplerDescriptor {
    /// The 32-byte binary form.
    pub fn to_bytes(&self) -> [u8; SAMPLER_DESCRIPTOR_BYTES] {
        let mut bytes = [0u8; 32];
        bytes[0] = self.min_filter as u8;
        bytes[1] = self.mag_filter as u8;
        bytes[2] = self.mip_filter as u8;
        bytes[3] = self.compare.map_or(0, |op| op as u8 + 1);
        for (axis, wrap) in self.wrap.iter().enumerate() {
            bytes[4 + axis] = *wrap as u8;
        }
        for (i, value) in [self.lod_bias, self.min_lod, self.max_lod]
            .into_iter()
            .enumerate()
        {
            bytes[8 + 4 * i..12 + 4 * i].copy_from_slice(&value.to_le_bytes());
        }
        bytes
    }

    /// Decodes the binary form (codes and reserved bytes checked; LOD values unchecked).
    pub fn from_bytes(bytes: &[u8; SAMPLER_DESCRIPTOR_BYTES]) -> Result<Self, TextureError> {
        check_reserved(SAMPLER, bytes, 7..8)?;
        check_reserved(SAMPLER, bytes, 20..32)?;
        let compare = match bytes[3] {
            0 => None,
            c => Some(
                code(SAMPLER, "compare", c - 1, &CompareOp::ALL).map_err(|_| {
                    TextureError::UnknownCode {
                        descriptor: SAMPLER,
                        field: "compare",
                        code: c,
                    }
                })?,
            ),
        };
        let mut wrap = [Wrap::Repeat; 3];
        for (axis, slot) in wrap.iter_mut().enumerate() {
            *slot = code(SAMPLER, "wrap", bytes[4 + axis], &WRAPS)?;
        }
        Ok(SamplerDescriptor {
            min_filter: code(SAMPLER, "min_filter", bytes[0], &FILTERS)?,
            mag_filter: code(SAMPLER, "mag_filter", bytes[1], &FILTERS)?,
            mip_filter: code(SAMPLER, "mip_filter", bytes[2], &MIP_FILTERS)?,
            wrap,
            lod_bias: f32_at(bytes, 8),
            min_lod: f32_at(bytes, 12),
            max_lod: f32_at(bytes, 16),
            compare,
        })
    }

    /// Reads and decodes a sampler stored at `address`.
    pub fn read<M: TexelMemory + ?Sized>(mem: &M, address: u64) -> Result<Self, TextureError> {
        Self::from_bytes(&read_32(mem, address)?)
    }
}
