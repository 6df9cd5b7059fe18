//! Texel formats: their sizes and how their bytes convert to and from RGBA f32.
//!
//! Integer formats have no f32 meaning: their texels travel as 32-bit words
//! ([`TextureFormat::decode_words`], [`TextureFormat::encode_words`]), and where the float
//! interface is used (the sampler, which only moves texels of integer textures because they
//! are sampled with nearest filtering) a word rides in an f32 bit for bit
//! (`f32::from_bits`), never computed with.

use crate::ir::eval::round_float;
use crate::ir::{ImageFormat, TexelClass, Type};
use half::f16;

/// A texel format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TextureFormat {
    /// 4 x 8-bit unsigned normalized: each byte `c` reads as `c / 255` (f32 division).
    Rgba8Unorm,
    /// 4 x binary16, widened exactly.
    Rgba16Float,
    /// 4 x binary32.
    Rgba32Float,
    /// 1 x binary32, read as `(r, 0, 0, 1)`.
    R32Float,
    /// 4 x unsigned 32-bit integer.
    Rgba32Uint,
    /// 4 x signed 32-bit integer.
    Rgba32Sint,
    /// 1 x unsigned 32-bit integer, read as `(r, 0, 0, 1)`.
    R32Uint,
    /// 1 x signed 32-bit integer, read as `(r, 0, 0, 1)`.
    R32Sint,
}

impl TextureFormat {
    /// Bytes per texel.
    pub fn texel_bytes(self) -> usize {
        match self {
            TextureFormat::Rgba8Unorm
            | TextureFormat::R32Float
            | TextureFormat::R32Uint
            | TextureFormat::R32Sint => 4,
            TextureFormat::Rgba16Float => 8,
            TextureFormat::Rgba32Float | TextureFormat::Rgba32Uint | TextureFormat::Rgba32Sint => {
                16
            }
        }
    }

    /// Whether texels read as floats or integers.
    pub fn class(self) -> TexelClass {
        match self {
            TextureFormat::Rgba8Unorm
            | TextureFormat::Rgba16Float
            | TextureFormat::Rgba32Float
            | TextureFormat::R32Float => TexelClass::Float,
            TextureFormat::Rgba32Uint
            | TextureFormat::Rgba32Sint
            | TextureFormat::R32Uint
            | TextureFormat::R32Sint => TexelClass::Int,
        }
    }

    /// The texture format of a declared storage-image format (`None` for `Unknown`).
    pub fn of_image(format: ImageFormat) -> Option<TextureFormat> {
        Some(match format {
            ImageFormat::Rgba32f => TextureFormat::Rgba32Float,
            ImageFormat::Rgba16f => TextureFormat::Rgba16Float,
            ImageFormat::R32f => TextureFormat::R32Float,
            ImageFormat::Rgba8 => TextureFormat::Rgba8Unorm,
            ImageFormat::Rgba32ui => TextureFormat::Rgba32Uint,
            ImageFormat::Rgba32i => TextureFormat::Rgba32Sint,
            ImageFormat::R32ui => TextureFormat::R32Uint,
            ImageFormat::R32i => TextureFormat::R32Sint,
            ImageFormat::Unknown => return None,
        })
    }

    /// True for the one-channel formats.
    fn single_channel(self) -> bool {
        matches!(
            self,
            TextureFormat::R32Float | TextureFormat::R32Uint | TextureFormat::R32Sint
        )
    }

    /// The format's name (`rgba8`, `rgba16f`, `rgba32f`, `r32f`, as in the corpus files).
    pub fn name(self) -> &'static str {
        match self {
            TextureFormat::Rgba8Unorm => "rgba8",
            TextureFormat::Rgba16Float => "rgba16f",
            TextureFormat::Rgba32Float => "rgba32f",
            TextureFormat::R32Float => "r32f",
            TextureFormat::Rgba32Uint => "rgba32ui",
            TextureFormat::Rgba32Sint => "rgba32i",
            TextureFormat::R32Uint => "r32ui",
            TextureFormat::R32Sint => "r32i",
        }
    }

    /// Reads one texel from its bytes (`bytes.len() == self.texel_bytes()`); integer formats
    /// give their words' bits in f32 containers (see the module notes).
    pub fn decode(self, bytes: &[u8]) -> [f32; 4] {
        let f32_at = |i: usize| {
            let mut b = [0u8; 4];
            b.copy_from_slice(&bytes[4 * i..4 * i + 4]);
            f32::from_le_bytes(b)
        };
        match self {
            TextureFormat::Rgba8Unorm => core::array::from_fn(|i| bytes[i] as f32 / 255.0),
            TextureFormat::Rgba16Float => core::array::from_fn(|i| {
                f16::from_bits(u16::from_le_bytes([bytes[2 * i], bytes[2 * i + 1]])).to_f32()
            }),
            TextureFormat::Rgba32Float => core::array::from_fn(f32_at),
            TextureFormat::R32Float => [f32_at(0), 0.0, 0.0, 1.0],
            _ => self.decode_words(bytes).map(f32::from_bits),
        }
    }

    /// Reads one texel as 32-bit words: the f32 bits of [`TextureFormat::decode`] for float
    /// formats, the integers for integer formats (one-channel ones as `(r, 0, 0, 1)`).
    pub fn decode_words(self, bytes: &[u8]) -> [u32; 4] {
        let word = |i: usize| {
            let mut b = [0u8; 4];
            b.copy_from_slice(&bytes[4 * i..4 * i + 4]);
            u32::from_le_bytes(b)
        };
        match self.class() {
            TexelClass::Float => self.decode(bytes).map(f32::to_bits),
            TexelClass::Int if self.single_channel() => [word(0), 0, 0, 1],
            TexelClass::Int => core::array::from_fn(word),
        }
    }

    /// Writes one texel given as 32-bit words (f32 bits for float formats, see
    /// [`TextureFormat::encode`]); one-channel formats keep the first word.
    pub fn encode_words(self, texel: [u32; 4], out: &mut Vec<u8>) {
        match self.class() {
            TexelClass::Float => self.encode(texel.map(f32::from_bits), out),
            TexelClass::Int if self.single_channel() => out.extend(texel[0].to_le_bytes()),
            TexelClass::Int => {
                for w in texel {
                    out.extend(w.to_le_bytes());
                }
            }
        }
    }

    /// Writes one texel (integer formats: the f32s' bits, see the module notes): unorm values are clamped to [0, 1] and rounded to the nearest step
    /// (Vulkan's float-to-unorm conversion), floats rounded to nearest even; `R32Float` keeps
    /// the red component.
    pub fn encode(self, texel: [f32; 4], out: &mut Vec<u8>) {
        match self {
            TextureFormat::Rgba8Unorm => out.extend(
                texel
                    .iter()
                    .map(|&c| (c.clamp(0.0, 1.0) * 255.0).round_ties_even() as u8),
            ),
            TextureFormat::Rgba16Float => {
                for c in texel {
                    let bits = round_float(Type::F16, c as f64).bits() as u16;
                    out.extend(bits.to_le_bytes());
                }
            }
            TextureFormat::Rgba32Float => {
                for c in texel {
                    out.extend(c.to_le_bytes());
                }
            }
            TextureFormat::R32Float => out.extend(texel[0].to_le_bytes()),
            _ => self.encode_words(texel.map(f32::to_bits), out),
        }
    }
}
