//! Texture descriptors, their validation, and the memory layout they imply (see the module docs of
//! `texture` for the contract).

use std::fmt;

use super::error::TextureError;
use super::format::TexFormat;

/// The most mip levels any texture can have: extents are `u32`, so `floor(log2(u32::MAX)) + 1`.
pub const MAX_LEVELS: usize = 32;

/// A texture's dimensionality.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum TexDim {
    /// 1D: width only.
    D1 = 0,
    /// Array of 1D textures.
    D1Array = 1,
    /// 2D: width and height.
    D2 = 2,
    /// Array of 2D textures.
    D2Array = 3,
    /// 3D: width, height and depth.
    D3 = 4,
    /// Cube map: six square 2D faces addressed by a direction.
    Cube = 5,
    /// Array of cube maps.
    CubeArray = 6,
}

impl TexDim {
    /// Every dimensionality, in code order.
    pub const ALL: [TexDim; 7] = [
        TexDim::D1,
        TexDim::D1Array,
        TexDim::D2,
        TexDim::D2Array,
        TexDim::D3,
        TexDim::Cube,
        TexDim::CubeArray,
    ];

    /// The dimensionality's code in binary descriptors.
    pub const fn code(self) -> u8 {
        self as u8
    }

    /// The dimensionality with binary code `code`, if any.
    pub fn from_code(code: u8) -> Option<TexDim> {
        TexDim::ALL.get(usize::from(code)).copied()
    }

    /// Texel axes: 1 for 1D, 2 for 2D and cube faces, 3 for 3D (array layers not counted).
    pub const fn axes(self) -> usize {
        match self {
            TexDim::D1 | TexDim::D1Array => 1,
            TexDim::D2 | TexDim::D2Array | TexDim::Cube | TexDim::CubeArray => 2,
            TexDim::D3 => 3,
        }
    }

    /// Whether the texture has an array layer coordinate.
    pub const fn is_array(self) -> bool {
        matches!(self, TexDim::D1Array | TexDim::D2Array | TexDim::CubeArray)
    }

    /// Whether the texture is a cube map or cube map array.
    pub const fn is_cube(self) -> bool {
        matches!(self, TexDim::Cube | TexDim::CubeArray)
    }
}

impl fmt::Display for TexDim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self {
            TexDim::D1 => "1d",
            TexDim::D1Array => "1d_array",
            TexDim::D2 => "2d",
            TexDim::D2Array => "2d_array",
            TexDim::D3 => "3d",
            TexDim::Cube => "cube",
            TexDim::CubeArray => "cube_array",
        };
        f.write_str(name)
    }
}

/// Where a texture lives and how it is shaped. Level 0's extent is `width x height x depth`;
/// axes the dimensionality lacks must be 1, as must `layers` for non-arrays (for cube arrays
/// `layers` counts cubes, not faces).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TextureDescriptor {
    /// Dimensionality.
    pub dim: TexDim,
    /// Texel format.
    pub format: TexFormat,
    /// Level-0 width in texels.
    pub width: u32,
    /// Level-0 height in texels (1 for 1D).
    pub height: u32,
    /// Level-0 depth in texels (1 except for 3D).
    pub depth: u32,
    /// Array layers (cubes for cube arrays; 1 for non-arrays).
    pub layers: u32,
    /// Mip levels, at least 1.
    pub levels: u32,
    /// Device address of level 0, layer 0, texel (0, 0, 0).
    pub address: u64,
}

impl TextureDescriptor {
    /// A 1D texture.
    pub fn new_1d(format: TexFormat, width: u32, levels: u32, address: u64) -> Self {
        Self::shaped(TexDim::D1, format, [width, 1, 1], 1, levels, address)
    }

    /// A 2D texture.
    pub fn new_2d(format: TexFormat, width: u32, height: u32, levels: u32, address: u64) -> Self {
        Self::shaped(TexDim::D2, format, [width, height, 1], 1, levels, address)
    }

    /// A 3D texture.
    pub fn new_3d(format: TexFormat, extent: [u32; 3], levels: u32, address: u64) -> Self {
        Self::shaped(TexDim::D3, format, extent, 1, levels, address)
    }

    /// A cube map with `size x size` faces.
    pub fn new_cube(format: TexFormat, size: u32, levels: u32, address: u64) -> Self {
        Self::shaped(TexDim::Cube, format, [size, size, 1], 1, levels, address)
    }

    /// Any texture, from its extent `[width, height, depth]` and array size.
    pub fn shaped(
        dim: TexDim,
        format: TexFormat,
        extent: [u32; 3],
        layers: u32,
        levels: u32,
        address: u64,
    ) -> Self {
        TextureDescriptor {
            dim,
            format,
            width: extent[0],
            height: extent[1],
            depth: extent[2],
            layers,
            levels,
            address,
        }
    }

    /// The descriptor as an array of the same texture with `layers` layers.
    pub fn arrayed(self, layers: u32) -> Self {
        let dim = match self.dim {
            TexDim::D1 => TexDim::D1Array,
            TexDim::D2 => TexDim::D2Array,
            TexDim::Cube => TexDim::CubeArray,
            other => other,
        };
        TextureDescriptor {
            dim,
            layers,
            ..self
        }
    }

    /// Level-0 extent `[width, height, depth]`.
    pub fn extent(&self) -> [u32; 3] {
        [self.width, self.height, self.depth]
    }

    /// Extent of level `level`: `max(1, e >> level)` on every axis.
    pub fn level_extent(&self, level: u32) -> [u32; 3] {
        self.extent()
            .map(|e| e.checked_shr(level).unwrap_or(0).max(1))
    }

    /// Slices per level: layers, times six faces for cube maps.
    fn slices(&self) -> u64 {
        let faces = if self.dim.is_cube() { 6 } else { 1 };
        u64::from(self.layers) * faces
    }

    fn check_shape(&self) -> Result<(), TextureError> {
        let address = self.address;
        for (field, value) in [
            ("width", self.width),
            ("height", self.height),
            ("depth", self.depth),
            ("layers", self.layers),
            ("levels", self.levels),
        ] {
            if value == 0 {
                return Err(TextureError::ZeroField { address, field });
            }
        }
        let axes = self.dim.axes();
        let unused = [
            ("height", self.height, axes < 2),
            ("depth", self.depth, axes < 3),
            ("layers", self.layers, !self.dim.is_array()),
        ];
        for (field, value, must_be_one) in unused {
            if must_be_one && value != 1 {
                return Err(TextureError::UnusedAxis {
                    address,
                    dim: self.dim,
                    field,
                    value,
                });
            }
        }
        if self.dim.is_cube() && self.width != self.height {
            return Err(TextureError::CubeNotSquare {
                address,
                width: self.width,
                height: self.height,
            });
        }
        let extent = self.extent().into_iter().max().unwrap_or(1);
        let max = extent.ilog2() + 1;
        if self.levels > max {
            return Err(TextureError::TooManyLevels {
                address,
                levels: self.levels,
                extent,
                max,
            });
        }
        Ok(())
    }
}

/// A validated texture: the descriptor plus the byte offset of each level. Build it once per
/// binding to sample many times without re-validating.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Texture {
    desc: TextureDescriptor,
    level_offsets: [u64; MAX_LEVELS],
    slices: u64,
    texel_bytes: u64,
}

impl Texture {
    /// Validates `desc`: extents, unused axes, square cube faces, the level limit, and that the
    /// whole texel array fits the address space (its exclusive end address is at most
    /// `u64::MAX`, so `address + len` of any texel read cannot overflow).
    pub fn new(desc: TextureDescriptor) -> Result<Self, TextureError> {
        desc.check_shape()?;
        let overflow = TextureError::LayoutOverflow {
            address: desc.address,
        };
        let slices = desc.slices();
        let texel_bytes = u64::from(desc.format.texel_bytes());
        let mut level_offsets = [0u64; MAX_LEVELS];
        let mut offset = 0u64;
        // `check_shape` bounds `levels` by `floor(log2(u32::MAX)) + 1 == MAX_LEVELS`.
        for (level, slot) in (0..desc.levels).zip(level_offsets.iter_mut()) {
            *slot = offset;
            let [w, h, d] = desc.level_extent(level).map(u64::from);
            let bytes = [h, d, slices, texel_bytes]
                .into_iter()
                .try_fold(w, u64::checked_mul)
                .ok_or(overflow)?;
            offset = offset.checked_add(bytes).ok_or(overflow)?;
        }
        desc.address.checked_add(offset).ok_or(overflow)?;
        Ok(Texture {
            desc,
            level_offsets,
            slices,
            texel_bytes,
        })
    }

    /// The validated descriptor.
    pub fn descriptor(&self) -> &TextureDescriptor {
        &self.desc
    }

    /// Total bytes of texel data, all levels.
    pub fn byte_size(&self) -> u64 {
        let last = self.desc.levels - 1;
        let [w, h, d] = self.desc.level_extent(last).map(u64::from);
        // Validated in `new`: the sum fits.
        self.level_offsets[last as usize] + w * h * d * self.slices * self.texel_bytes
    }

    /// The size query at `level` (see [`super::size`]).
    pub fn size(&self, level: u32) -> SizeQuery {
        let [w, h, d] = self.desc.level_extent(level);
        let layers = self.desc.layers;
        let (values, len) = match self.desc.dim {
            TexDim::D1 => ([w, 0, 0], 1),
            TexDim::D1Array => ([w, layers, 0], 2),
            TexDim::D2 | TexDim::Cube => ([w, h, 0], 2),
            TexDim::D2Array | TexDim::CubeArray => ([w, h, layers], 3),
            TexDim::D3 => ([w, h, d], 3),
        };
        SizeQuery { values, len }
    }

    /// Byte address of texel (0, 0, 0) of `slice` at `level`, and the level's extent; the caller
    /// guarantees both are in range, which (with the validation in `new`) keeps every texel address
    /// of the slice below 2^64.
    pub(crate) fn slice_base(&self, level: u32, slice: u64) -> (u64, [u32; 3]) {
        let extent = self.desc.level_extent(level);
        let [w, h, d] = extent.map(u64::from);
        let base = self.desc.address
            + self.level_offsets[level as usize]
            + slice * w * h * d * self.texel_bytes;
        (base, extent)
    }

    /// Byte address of texel `xyz` in a slice starting at `base` with level extent `extent`.
    pub(crate) fn texel_address(&self, base: u64, extent: [u32; 3], xyz: [u32; 3]) -> u64 {
        let [w, h, _] = extent.map(u64::from);
        let [x, y, z] = xyz.map(u64::from);
        base + ((z * h + y) * w + x) * self.texel_bytes
    }
}

/// The result of a size query: `len` meaningful values, the extent of the texture's axes at the
/// level, then the array size for arrays (1D: w; 1D array: w, layers; 2D and cube: w, h; 2D and
/// cube arrays: w, h, layers; 3D: w, h, d). Unused values are 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SizeQuery {
    /// The values, zero-padded.
    pub values: [u32; 3],
    /// How many values are meaningful.
    pub len: usize,
}

impl SizeQuery {
    /// The meaningful values.
    pub fn as_slice(&self) -> &[u32] {
        self.values.get(..self.len).unwrap_or(&self.values)
    }
}
