//! Sampler state: filters, wrap modes, LOD range and the depth-compare op, plus the wrap and
//! compare rules that use them (Vulkan specification, "Wrapping Operation" and "Depth Compare
//! Operation").

use super::error::TextureError;

/// Texel filter within one level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum Filter {
    /// The texel containing the coordinate.
    #[default]
    Nearest = 0,
    /// Weighted average of the 2^n texels around the coordinate.
    Linear = 1,
}

/// Filter between mip levels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum MipFilter {
    /// Level 0 only.
    #[default]
    None = 0,
    /// The level nearest the LOD.
    Nearest = 1,
    /// Blend of the two levels around the LOD.
    Linear = 2,
}

/// What an integer texel coordinate outside the level becomes, per axis.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum Wrap {
    /// `i mod size`.
    #[default]
    Repeat = 0,
    /// `clamp(i, 0, size - 1)`.
    ClampToEdge = 1,
    /// Repeat every `2 * size`, every other copy mirrored.
    MirroredRepeat = 2,
    /// Outside texels are the border colour (0, 0, 0, 0).
    ClampToBorder = 3,
}

/// Depth-compare op: the compared texel is 1.0 when `reference OP texel.r`, else 0.0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum CompareOp {
    /// Always 0.
    Never = 0,
    /// `reference < texel`.
    Less = 1,
    /// `reference == texel`.
    Equal = 2,
    /// `reference <= texel`.
    LessEqual = 3,
    /// `reference > texel`.
    Greater = 4,
    /// `reference != texel` (true when either is NaN).
    NotEqual = 5,
    /// `reference >= texel`.
    GreaterEqual = 6,
    /// Always 1.
    Always = 7,
}

impl CompareOp {
    /// Every op, in code order (Vulkan's `VkCompareOp` order).
    pub const ALL: [CompareOp; 8] = [
        CompareOp::Never,
        CompareOp::Less,
        CompareOp::Equal,
        CompareOp::LessEqual,
        CompareOp::Greater,
        CompareOp::NotEqual,
        CompareOp::GreaterEqual,
        CompareOp::Always,
    ];

    /// Whether `reference OP texel` holds.
    pub fn test(self, reference: f32, texel: f32) -> bool {
        match self {
            CompareOp::Never => false,
            CompareOp::Less => reference < texel,
            CompareOp::Equal => reference == texel,
            CompareOp::LessEqual => reference <= texel,
            CompareOp::Greater => reference > texel,
            CompareOp::NotEqual => reference != texel,
            CompareOp::GreaterEqual => reference >= texel,
            CompareOp::Always => true,
        }
    }
}

/// Sampler state. The default is Vulkan's zero-initialised sampler with `maxLod =
/// VK_LOD_CLAMP_NONE` (1000): nearest filters, no mipmapping, repeat, no bias, LOD range [0, 1000],
/// no compare.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SamplerDescriptor {
    /// Filter when minifying (LOD > 0).
    pub min_filter: Filter,
    /// Filter when magnifying (LOD <= 0).
    pub mag_filter: Filter,
    /// Filter between levels.
    pub mip_filter: MipFilter,
    /// Wrap mode for the u, v and w axes (ignored by cube maps, whose faces clamp to edge).
    pub wrap: [Wrap; 3],
    /// Added to every LOD, whatever the LOD mode.
    pub lod_bias: f32,
    /// Lower LOD clamp.
    pub min_lod: f32,
    /// Upper LOD clamp.
    pub max_lod: f32,
    /// Depth-compare op for shadow sampling.
    pub compare: Option<CompareOp>,
}

impl Default for SamplerDescriptor {
    fn default() -> Self {
        SamplerDescriptor {
            min_filter: Filter::Nearest,
            mag_filter: Filter::Nearest,
            mip_filter: MipFilter::None,
            wrap: [Wrap::Repeat; 3],
            lod_bias: 0.0,
            min_lod: 0.0,
            max_lod: 1000.0,
            compare: None,
        }
    }
}

impl SamplerDescriptor {
    /// A sampler with `filter` for min, mag and mip, `wrap` on every axis, and the default LOD
    /// range.
    pub fn with_filter(filter: Filter, mip_filter: MipFilter, wrap: Wrap) -> Self {
        SamplerDescriptor {
            min_filter: filter,
            mag_filter: filter,
            mip_filter,
            wrap: [wrap; 3],
            ..SamplerDescriptor::default()
        }
    }

    /// Checks the LOD fields: none NaN, `min_lod <= max_lod`. Infinities are allowed.
    pub fn validate(&self) -> Result<(), TextureError> {
        for (field, value) in [
            ("lod_bias", self.lod_bias),
            ("min_lod", self.min_lod),
            ("max_lod", self.max_lod),
        ] {
            if value.is_nan() {
                return Err(TextureError::SamplerNan { field });
            }
        }
        if self.min_lod > self.max_lod {
            return Err(TextureError::SamplerLodRange {
                min_lod: self.min_lod,
                max_lod: self.max_lod,
            });
        }
        Ok(())
    }
}

/// Wraps integer texel coordinate `i` into `0..size`; `None` is a border texel.
#[inline(always)]
pub(crate) fn wrap(i: i64, size: u32, mode: Wrap) -> Option<u32> {
    // Every mode maps an in-range index to itself; most taps are in range, and skipping the
    // 64-bit remainders below is the texture unit's largest saving.
    if let Ok(inside) = u32::try_from(i) {
        if inside < size {
            return Some(inside);
        }
    }
    let size = i64::from(size);
    let wrapped = match mode {
        Wrap::Repeat => i.rem_euclid(size),
        Wrap::ClampToEdge => i.clamp(0, size - 1),
        Wrap::MirroredRepeat => {
            let m = i.rem_euclid(2 * size);
            if m >= size {
                2 * size - 1 - m
            } else {
                m
            }
        }
        Wrap::ClampToBorder => {
            if !(0..size).contains(&i) {
                return None;
            }
            i
        }
    };
    // In range by construction: every arm yields 0..size.
    u32::try_from(wrapped).ok()
}
