//! Texel formats: their sizes and how their bytes convert to and from RGBA f32.

use crate::ir::eval::round_float;
use crate::ir::Type;
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
}

impl TextureFormat {
    /// Bytes per texel.
    pub fn texel_bytes(self) -> usize {
        match self {
            TextureFormat::Rgba8Unorm | TextureFormat::R32Float => 4,
            TextureFormat::Rgba16Float => 8,
            TextureFormat::Rgba32Float => 16,
        }
    }

    /// The format's name (`rgba8`, `rgba16f`, `rgba32f`, `r32f`, as in the corpus files).
    pub fn name(self) -> &'static str {
        match self {
            TextureFormat::Rgba8Unorm => "rgba8",
            TextureFormat::Rgba16Float => "rgba16f",
            TextureFormat::Rgba32Float => "rgba32f",
            TextureFormat::R32Float => "r32f",
        }
    }

    /// Reads one texel from its bytes (`bytes.len() == self.texel_bytes()`).
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
        }
    }

    /// Writes one texel: unorm values are clamped to [0, 1] and rounded to the nearest step
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
        }
    }
}
