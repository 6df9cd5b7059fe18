//! Texel formats and their conversion to RGBA f32 (Vulkan specification, "Fixed-Point Data
//! Conversions" and "sRGB transfer functions"; half floats via the `half` crate).
//!
//! Integer formats (codes 11..=14) have no f32 meaning: their 32-bit words ride in f32
//! containers bit for bit (`f32::from_bits`) and are never computed with; the sampler refuses
//! filtering them ([`super::TextureError::IntegerFiltering`]) and the executor writes the bits,
//! not a converted value, to the destination registers. The codes are this simulator's own:
//! the public record (Mesa's `agx_pack.xml`) describes the hardware's format as a channel
//! layout plus a type field inside a different descriptor layout, which this project's
//! 32-byte descriptor does not model.

use std::fmt;

/// The largest texel, in bytes (RGBA32F).
pub(crate) const MAX_TEXEL_BYTES: usize = 16;

/// A texel format. Components a format lacks read as G = B = 0, A = 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum TexFormat {
    /// One 8-bit unsigned normalised channel: `c / 255`.
    R8Unorm = 0,
    /// Two 8-bit unsigned normalised channels.
    Rg8Unorm = 1,
    /// Four 8-bit unsigned normalised channels.
    Rgba8Unorm = 2,
    /// Four 8-bit channels, RGB sRGB-encoded (decoded to linear), alpha unorm.
    Rgba8Srgb = 3,
    /// Four 8-bit signed normalised channels: `max(c / 127, -1)`.
    Rgba8Snorm = 4,
    /// One IEEE half-float channel.
    R16Float = 5,
    /// Two IEEE half-float channels.
    Rg16Float = 6,
    /// Four IEEE half-float channels.
    Rgba16Float = 7,
    /// One IEEE single-float channel.
    R32Float = 8,
    /// Two IEEE single-float channels.
    Rg32Float = 9,
    /// Four IEEE single-float channels.
    Rgba32Float = 10,
    /// Four unsigned 32-bit integer channels, read as their words.
    Rgba32Uint = 11,
    /// Four signed 32-bit integer channels, read as their words.
    Rgba32Sint = 12,
    /// One unsigned 32-bit integer channel, read as the words `(r, 0, 0, 1)`.
    R32Uint = 13,
    /// One signed 32-bit integer channel, read as the words `(r, 0, 0, 1)`.
    R32Sint = 14,
}

impl TexFormat {
    /// Every format, in code order.
    pub const ALL: [TexFormat; 15] = [
        TexFormat::R8Unorm,
        TexFormat::Rg8Unorm,
        TexFormat::Rgba8Unorm,
        TexFormat::Rgba8Srgb,
        TexFormat::Rgba8Snorm,
        TexFormat::R16Float,
        TexFormat::Rg16Float,
        TexFormat::Rgba16Float,
        TexFormat::R32Float,
        TexFormat::Rg32Float,
        TexFormat::Rgba32Float,
        TexFormat::Rgba32Uint,
        TexFormat::Rgba32Sint,
        TexFormat::R32Uint,
        TexFormat::R32Sint,
    ];

    /// True for the integer formats, whose texels are 32-bit words rather than numbers.
    pub const fn is_integer(self) -> bool {
        matches!(
            self,
            TexFormat::Rgba32Uint | TexFormat::Rgba32Sint | TexFormat::R32Uint | TexFormat::R32Sint
        )
    }

    /// The format's code in binary descriptors.
    pub const fn code(self) -> u8 {
        self as u8
    }

    /// The format with binary code `code`, if any.
    pub fn from_code(code: u8) -> Option<TexFormat> {
        TexFormat::ALL.get(usize::from(code)).copied()
    }

    /// Bytes per texel.
    pub const fn texel_bytes(self) -> u32 {
        self.channels() * self.channel_bytes()
    }

    const fn channels(self) -> u32 {
        match self {
            TexFormat::R8Unorm
            | TexFormat::R16Float
            | TexFormat::R32Float
            | TexFormat::R32Uint
            | TexFormat::R32Sint => 1,
            TexFormat::Rg8Unorm | TexFormat::Rg16Float | TexFormat::Rg32Float => 2,
            TexFormat::Rgba8Unorm
            | TexFormat::Rgba8Srgb
            | TexFormat::Rgba8Snorm
            | TexFormat::Rgba16Float
            | TexFormat::Rgba32Float
            | TexFormat::Rgba32Uint
            | TexFormat::Rgba32Sint => 4,
        }
    }

    const fn channel_bytes(self) -> u32 {
        match self {
            TexFormat::R8Unorm
            | TexFormat::Rg8Unorm
            | TexFormat::Rgba8Unorm
            | TexFormat::Rgba8Srgb
            | TexFormat::Rgba8Snorm => 1,
            TexFormat::R16Float | TexFormat::Rg16Float | TexFormat::Rgba16Float => 2,
            TexFormat::R32Float
            | TexFormat::Rg32Float
            | TexFormat::Rgba32Float
            | TexFormat::Rgba32Uint
            | TexFormat::Rgba32Sint
            | TexFormat::R32Uint
            | TexFormat::R32Sint => 4,
        }
    }

    /// Converts one texel, stored little-endian at the start of `bytes`, to RGBA.
    pub(crate) fn decode(self, bytes: &[u8; MAX_TEXEL_BYTES]) -> [f32; 4] {
        let unorm = |c: usize| UNORM8[usize::from(bytes[c])];
        let snorm = |c: usize| (f32::from(bytes[c] as i8) / 127.0).max(-1.0);
        let srgb = |c: usize| srgb_to_linear(bytes[c]);
        let half = |c: usize| half::f16::from_le_bytes([bytes[2 * c], bytes[2 * c + 1]]).to_f32();
        let single = |c: usize| {
            f32::from_le_bytes([
                bytes[4 * c],
                bytes[4 * c + 1],
                bytes[4 * c + 2],
                bytes[4 * c + 3],
            ])
        };
        match self {
            TexFormat::R8Unorm => [unorm(0), 0.0, 0.0, 1.0],
            TexFormat::Rg8Unorm => [unorm(0), unorm(1), 0.0, 1.0],
            TexFormat::Rgba8Unorm => [unorm(0), unorm(1), unorm(2), unorm(3)],
            TexFormat::Rgba8Srgb => [srgb(0), srgb(1), srgb(2), unorm(3)],
            TexFormat::Rgba8Snorm => [snorm(0), snorm(1), snorm(2), snorm(3)],
            TexFormat::R16Float => [half(0), 0.0, 0.0, 1.0],
            TexFormat::Rg16Float => [half(0), half(1), 0.0, 1.0],
            TexFormat::Rgba16Float => [half(0), half(1), half(2), half(3)],
            TexFormat::R32Float => [single(0), 0.0, 0.0, 1.0],
            TexFormat::Rg32Float => [single(0), single(1), 0.0, 1.0],
            TexFormat::Rgba32Float => [single(0), single(1), single(2), single(3)],
            TexFormat::Rgba32Uint | TexFormat::Rgba32Sint => {
                [single(0), single(1), single(2), single(3)]
            }
            TexFormat::R32Uint | TexFormat::R32Sint => [single(0), 0.0, 0.0, f32::from_bits(1)],
        }
    }
}

impl TexFormat {
    /// Encodes one texel for a store (`image_write`): `words` are the four components as
    /// 32-bit words, f32 bits for the float and normalised formats, the integers themselves
    /// for the integer formats. Returns the bytes and how many of them the texel has;
    /// components the format lacks are dropped. Unorm values are clamped to [0, 1] and
    /// rounded to the nearest step, ties to even, NaN giving 0 (Vulkan, "Conversion from
    /// Floating-Point to Normalized Fixed-Point"); snorm likewise on [-1, 1] with 127 steps;
    /// sRGB applies the inverse transfer function in f64 first; halves round to nearest even.
    pub fn encode(self, words: [u32; 4]) -> ([u8; MAX_TEXEL_BYTES], usize) {
        let float = |c: usize| f32::from_bits(words[c]);
        let unorm = |v: f32| -> u8 {
            if v.is_nan() {
                0
            } else {
                (v.clamp(0.0, 1.0) * 255.0).round_ties_even() as u8
            }
        };
        let snorm = |v: f32| -> u8 {
            if v.is_nan() {
                0
            } else {
                (v.clamp(-1.0, 1.0) * 127.0).round_ties_even() as i8 as u8
            }
        };
        let srgb = |v: f32| -> u8 {
            if v.is_nan() {
                return 0;
            }
            let l = f64::from(v.clamp(0.0, 1.0));
            let e = if l <= 0.0031308 {
                l * 12.92
            } else {
                1.055 * l.powf(1.0 / 2.4) - 0.055
            };
            (e * 255.0).round_ties_even() as u8
        };
        let half = |c: usize| half::f16::from_f32(float(c)).to_le_bytes();
        let mut out = [0u8; MAX_TEXEL_BYTES];
        let n = self.texel_bytes() as usize;
        match self {
            TexFormat::R8Unorm | TexFormat::Rg8Unorm | TexFormat::Rgba8Unorm => {
                for (c, byte) in out.iter_mut().enumerate().take(n) {
                    *byte = unorm(float(c));
                }
            }
            TexFormat::Rgba8Srgb => {
                for (c, byte) in out.iter_mut().enumerate().take(3) {
                    *byte = srgb(float(c));
                }
                out[3] = unorm(float(3));
            }
            TexFormat::Rgba8Snorm => {
                for (c, byte) in out.iter_mut().enumerate().take(4) {
                    *byte = snorm(float(c));
                }
            }
            TexFormat::R16Float | TexFormat::Rg16Float | TexFormat::Rgba16Float => {
                for c in 0..n / 2 {
                    out[2 * c..2 * c + 2].copy_from_slice(&half(c));
                }
            }
            TexFormat::R32Float
            | TexFormat::Rg32Float
            | TexFormat::Rgba32Float
            | TexFormat::Rgba32Uint
            | TexFormat::Rgba32Sint
            | TexFormat::R32Uint
            | TexFormat::R32Sint => {
                for c in 0..n / 4 {
                    out[4 * c..4 * c + 4].copy_from_slice(&words[c].to_le_bytes());
                }
            }
        }
        (out, n)
    }
}

/// `c / 255` for every 8-bit code, computed at compile time with the same correctly rounded f32
/// division (a table, because the division dominated decoding time).
pub(crate) static UNORM8: [f32; 256] = {
    let mut table = [0.0f32; 256];
    let mut c = 0;
    while c < 256 {
        table[c] = c as f32 / 255.0;
        c += 1;
    }
    table
};

/// The sRGB EOTF on an 8-bit code, evaluated in f64 and rounded once to f32.
fn srgb_to_linear(byte: u8) -> f32 {
    let c = f64::from(byte) / 255.0;
    let linear = if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    };
    linear as f32
}

impl fmt::Display for TexFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self {
            TexFormat::R8Unorm => "r8unorm",
            TexFormat::Rg8Unorm => "rg8unorm",
            TexFormat::Rgba8Unorm => "rgba8unorm",
            TexFormat::Rgba8Srgb => "rgba8srgb",
            TexFormat::Rgba8Snorm => "rgba8snorm",
            TexFormat::R16Float => "r16f",
            TexFormat::Rg16Float => "rg16f",
            TexFormat::Rgba16Float => "rgba16f",
            TexFormat::R32Float => "r32f",
            TexFormat::Rg32Float => "rg32f",
            TexFormat::Rgba32Float => "rgba32f",
            TexFormat::Rgba32Uint => "rgba32ui",
            TexFormat::Rgba32Sint => "rgba32i",
            TexFormat::R32Uint => "r32ui",
            TexFormat::R32Sint => "r32i",
        };
        f.write_str(name)
    }
}
