//! The texture unit's error type: every failure names the descriptor field, value or address at
//! fault. The executor adds the pc and thread.

use super::descriptor::TexDim;

/// Why a texture operation failed. Out-of-range texel coordinates are not errors (fetch reads
/// zeros, sampling wraps); these are broken descriptors, shader/sampler mismatches and unmapped
/// memory.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
pub enum TextureError {
    /// A descriptor extent, layer count or level count is zero.
    #[error("texture descriptor at {address:#x}: {field} is 0")]
    ZeroField {
        /// The texture's base address.
        address: u64,
        /// `width`, `height`, `depth`, `layers` or `levels`.
        field: &'static str,
    },
    /// An axis the dimensionality does not have is not 1.
    #[error("texture descriptor at {address:#x}: a {dim} texture needs {field} = 1, got {value}")]
    UnusedAxis {
        /// The texture's base address.
        address: u64,
        /// The descriptor's dimensionality.
        dim: TexDim,
        /// `height`, `depth` or `layers`.
        field: &'static str,
        /// The value found.
        value: u32,
    },
    /// A cube texture whose faces are not square.
    #[error("texture descriptor at {address:#x}: cube faces must be square, got {width}x{height}")]
    CubeNotSquare {
        /// The texture's base address.
        address: u64,
        /// Level-0 width.
        width: u32,
        /// Level-0 height.
        height: u32,
    },
    /// More mip levels than the largest extent allows.
    #[error(
        "texture descriptor at {address:#x}: {levels} mip levels, but largest extent {extent} \
         allows at most {max}"
    )]
    TooManyLevels {
        /// The texture's base address.
        address: u64,
        /// The descriptor's level count.
        levels: u32,
        /// The largest level-0 extent.
        extent: u32,
        /// `floor(log2(extent)) + 1`.
        max: u32,
    },
    /// The texel data does not fit below 2^64.
    #[error(
        "texture descriptor at {address:#x}: texel data does not fit the 64-bit address space"
    )]
    LayoutOverflow {
        /// The texture's base address.
        address: u64,
    },
    /// A sampler LOD field is NaN.
    #[error("sampler descriptor: {field} is NaN")]
    SamplerNan {
        /// `lod_bias`, `min_lod` or `max_lod`.
        field: &'static str,
    },
    /// The sampler's LOD range is empty.
    #[error("sampler descriptor: min_lod {min_lod} is above max_lod {max_lod}")]
    SamplerLodRange {
        /// The sampler's `min_lod`.
        min_lod: f32,
        /// The sampler's `max_lod`.
        max_lod: f32,
    },
    /// The sampler compares but the instruction supplied no reference value.
    #[error("sampler has compare op {op:?} but the sample supplies no reference value")]
    MissingCompareReference {
        /// The sampler's compare op.
        op: super::sampler::CompareOp,
    },
    /// The instruction supplied a reference value but the sampler does not compare.
    #[error("the sample supplies a compare reference but the sampler has no compare op")]
    UnexpectedCompareReference,
    /// A texel offset on a cube texture.
    #[error("texel offset {offset:?} on a {dim} texture (offsets are not allowed on cube maps)")]
    OffsetOnCube {
        /// The offending offset.
        offset: [i32; 3],
        /// The texture's dimensionality.
        dim: TexDim,
    },
    /// A texel or descriptor read hit memory the device does not map.
    #[error("read of {len} bytes at {address:#x} hits unmapped memory")]
    Unmapped {
        /// First byte of the read.
        address: u64,
        /// Bytes requested.
        len: u32,
    },
    /// A binary descriptor holds a code no enum value has.
    #[error("{descriptor} descriptor bytes: unknown {field} code {code}")]
    UnknownCode {
        /// `texture` or `sampler`.
        descriptor: &'static str,
        /// The field holding the code.
        field: &'static str,
        /// The code found.
        code: u8,
    },
    /// A binary descriptor has reserved bytes that are not zero.
    #[error("{descriptor} descriptor bytes: reserved byte {byte} is {value:#x}, must be 0")]
    ReservedNonZero {
        /// `texture` or `sampler`.
        descriptor: &'static str,
        /// Offset of the first offending byte.
        byte: usize,
        /// Its value.
        value: u8,
    },
    /// An integer texture sampled with a linear filter, linear mip blending or a depth
    /// compare: its texels are words, not numbers (Vulkan allows only nearest filtering of
    /// integer formats and no compare).
    #[error("a {format} texture sampled with {what} (integer texels cannot be filtered)")]
    IntegerFiltering {
        /// The texture's format.
        format: super::format::TexFormat,
        /// `a linear filter`, `linear mip filtering` or `a depth compare`.
        what: &'static str,
    },
}
