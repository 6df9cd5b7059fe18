//! The software texture model: textures, samplers, and sampling by the rules numbered in the
//! [interpreter's documentation](super#textures) (after the Vulkan specification's "Image
//! Operations" and "Texel Filtering" chapters).
//!
//! - [`Texture`]: a target, a [`TextureFormat`], extents, array layers, mip levels and the
//!   texel bytes, validated on construction. Memory layout: level 0 first, then 1, 2, ...;
//!   each level holds its slices (array layers; a cube map has 6 faces per layer in the order
//!   +X, -X, +Y, -Y, +Z, -Z), each slice `depth` planes (3D only) of `height` rows of `width`
//!   texels, row-major and tightly packed. Level `l` measures `max(1, extent >> l)` per axis;
//!   the layer count does not shrink.
//! - [`Sampler`]: filters, mip mode, wrap per axis, LOD bias and clamps, optional comparison.
//! - `sample` (filtering, rules 6 to 9), `lod` (rules 3 to 5), `cube` (rule 1), `execute` (the
//!   IR's texture instructions, rules 10 and 11), `image` (storage images: `image_load`,
//!   `image_store`, `image_size` on level 0 of a bound texture).
//!
//! # Why the simulator has a texture unit of its own
//! Issue 18 asked for one sampling model shared with the G13 simulator or a written reason for
//! two. There are two on purpose, and the reason is stated on both sides (here,
//! `runtime-sim/src/texture` and docs/oracles.md, "Two texture samplers"):
//! - **They check each other.** Texture filtering has many places to misread the specification
//!   (cube face selection, LOD clamping, mip rounding, wrap modes, border and comparison).
//!   The G13 tests compare the simulator's output with this interpreter within 1e-5
//!   (`tests/src/equiv/model.rs`, `ErrorModel::texture`; backend-agx's end-to-end tests), and
//!   the interpreter is checked against lavapipe and softpipe. One shared model would agree with
//!   itself: a misreading in it would pass every interpreter-versus-simulator comparison, and only
//!   the corpus oracles, which exercise few sampler states, could find it.
//! - **They sit on opposite sides of the machine boundary.** This model reads [`Texture`]
//!   objects bound by IR binding and is addressed by IR operands (one scalar per lane); the
//!   simulator's unit reads texels from device memory through 32-byte descriptors, with the
//!   G13's format codes and the operand packing its executor decodes from registers. Sharing
//!   would make `runtime-sim` depend on the IR crate (or the IR on the machine model), which the
//!   crate layout keeps apart.
//!
//! What they must share is the rule list, not code: both cite the numbered rules of the
//! interpreter's module docs, and a change of rule is made in both and shows up as a mismatch in
//! whichever was not changed.

mod cube;
mod execute;
mod format;
mod image;
mod lod;
mod sample;

pub use format::TextureFormat;

use crate::ir::{TexDim, TexTarget};

/// A texture's shape: target, format, extents, layers and levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextureDesc {
    /// Dimensionality and arrayness.
    pub target: TexTarget,
    /// Texel format.
    pub format: TextureFormat,
    /// Width of level 0.
    pub width: u32,
    /// Height of level 0 (1 for 1D).
    pub height: u32,
    /// Depth of level 0 (1 unless 3D).
    pub depth: u32,
    /// Array layers (cube arrays: cubes); 1 for non-array textures.
    pub layers: u32,
    /// Mip levels.
    pub levels: u32,
}

impl TextureDesc {
    fn with_dim(dim: TexDim, format: TextureFormat, extent: [u32; 3]) -> TextureDesc {
        TextureDesc {
            target: TexTarget {
                dim,
                arrayed: false,
            },
            format,
            width: extent[0],
            height: extent[1],
            depth: extent[2],
            layers: 1,
            levels: 1,
        }
    }

    /// A 1D texture with one level.
    pub fn d1(format: TextureFormat, width: u32) -> TextureDesc {
        TextureDesc::with_dim(TexDim::D1, format, [width, 1, 1])
    }

    /// A 2D texture with one level.
    pub fn d2(format: TextureFormat, width: u32, height: u32) -> TextureDesc {
        TextureDesc::with_dim(TexDim::D2, format, [width, height, 1])
    }

    /// A 3D texture with one level.
    pub fn d3(format: TextureFormat, width: u32, height: u32, depth: u32) -> TextureDesc {
        TextureDesc::with_dim(TexDim::D3, format, [width, height, depth])
    }

    /// A cube map with square faces of `size` texels and one level.
    pub fn cube(format: TextureFormat, size: u32) -> TextureDesc {
        TextureDesc::with_dim(TexDim::Cube, format, [size, size, 1])
    }

    /// Makes it an array texture of `layers` layers.
    pub fn with_layers(mut self, layers: u32) -> TextureDesc {
        self.target.arrayed = true;
        self.layers = layers;
        self
    }

    /// Sets the number of mip levels.
    pub fn with_levels(mut self, levels: u32) -> TextureDesc {
        self.levels = levels;
        self
    }

    /// Sets the number of mip levels to the full chain down to 1x1x1.
    pub fn with_full_mip_chain(mut self) -> TextureDesc {
        self.levels = max_levels(self.width.max(self.height).max(self.depth));
        self
    }

    /// Slices per level: layers, times 6 for cube maps (saturating: [`Texture::new`] refuses a
    /// shape whose count overflows).
    pub fn slices(&self) -> u32 {
        self.layers.saturating_mul(self.faces())
    }

    /// Faces per layer: 6 for cube maps, else 1.
    fn faces(&self) -> u32 {
        if self.target.dim == TexDim::Cube {
            6
        } else {
            1
        }
    }

    /// The extent of level `level`: `max(1, extent >> level)` per axis.
    pub fn level_extent(&self, level: u32) -> [u32; 3] {
        let shrink = |e: u32| e.checked_shr(level).unwrap_or(0).max(1);
        [shrink(self.width), shrink(self.height), shrink(self.depth)]
    }

    /// Checks the shape and returns the byte offset of each level and the total size.
    fn layout(&self) -> Result<(Vec<usize>, usize), TextureError> {
        let shape = |reason: &'static str| Err(TextureError::Shape(reason));
        if self.width == 0 || self.height == 0 || self.depth == 0 {
            return shape("extents must be at least 1");
        }
        if self.layers == 0 || self.levels == 0 {
            return shape("layers and levels must be at least 1");
        }
        match self.target.dim {
            TexDim::D1 if self.height != 1 || self.depth != 1 => {
                return shape("a 1D texture has height and depth 1")
            }
            TexDim::D2 | TexDim::Cube if self.depth != 1 => {
                return shape("a 2D or cube texture has depth 1")
            }
            TexDim::Cube if self.width != self.height => {
                return shape("cube faces are square");
            }
            TexDim::D3 if self.target.arrayed => return shape("3D textures cannot be arrayed"),
            _ => {}
        }
        if !self.target.arrayed && self.layers != 1 {
            return shape("a non-array texture has one layer");
        }
        let max = max_levels(self.width.max(self.height).max(self.depth));
        if self.levels > max {
            return Err(TextureError::TooManyLevels {
                levels: self.levels,
                max,
            });
        }
        let slices = self
            .layers
            .checked_mul(self.faces())
            .ok_or(TextureError::TooLarge)?;
        let mut offsets = Vec::with_capacity(self.levels as usize);
        let mut total = 0usize;
        for level in 0..self.levels {
            offsets.push(total);
            let [w, h, d] = self.level_extent(level);
            let bytes = [w, h, d, slices]
                .iter()
                .try_fold(self.format.texel_bytes(), |n, &e| n.checked_mul(e as usize))
                .and_then(|n| n.checked_add(total));
            total = bytes.ok_or(TextureError::TooLarge)?;
        }
        Ok((offsets, total))
    }
}

/// `1 + floor(log2(extent))`: levels of a full mip chain.
fn max_levels(extent: u32) -> u32 {
    32 - extent.max(1).leading_zeros()
}

/// Why a texture could not be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TextureError {
    /// Extents, layers or levels do not fit the target.
    #[error("bad texture shape: {0}")]
    Shape(&'static str),
    /// More levels than the full mip chain has.
    #[error("{levels} mip levels requested, the full chain has {max}")]
    TooManyLevels {
        /// Requested.
        levels: u32,
        /// Full chain.
        max: u32,
    },
    /// The size overflows.
    #[error("texture size overflows")]
    TooLarge,
    /// The data does not have the size the shape needs.
    #[error("texture data has {got} bytes ({what}), the shape needs {expected}")]
    DataSize {
        /// Needed.
        expected: usize,
        /// Supplied.
        got: usize,
        /// `bytes` or `texels * texel size`.
        what: &'static str,
    },
}

/// A texture: shape and texel bytes.
#[derive(Clone, Debug, PartialEq)]
pub struct Texture {
    desc: TextureDesc,
    level_offsets: Vec<usize>,
    data: Vec<u8>,
}

impl Texture {
    /// A texture from bytes in the documented layout.
    pub fn new(desc: TextureDesc, data: Vec<u8>) -> Result<Texture, TextureError> {
        let (level_offsets, size) = desc.layout()?;
        if data.len() != size {
            return Err(TextureError::DataSize {
                expected: size,
                got: data.len(),
                what: "bytes",
            });
        }
        Ok(Texture {
            desc,
            level_offsets,
            data,
        })
    }

    /// A texture from RGBA texels in the documented layout, encoded in the format (see
    /// [`TextureFormat::encode`]).
    pub fn from_texels(desc: TextureDesc, texels: &[[f32; 4]]) -> Result<Texture, TextureError> {
        let (_, size) = desc.layout()?;
        let texel_bytes = desc.format.texel_bytes();
        if texels.len().checked_mul(texel_bytes) != Some(size) {
            return Err(TextureError::DataSize {
                expected: size,
                got: texels.len().saturating_mul(texel_bytes),
                what: "texels * texel size",
            });
        }
        let mut data = Vec::with_capacity(size);
        for &t in texels {
            desc.format.encode(t, &mut data);
        }
        Texture::new(desc, data)
    }

    /// The shape.
    pub fn desc(&self) -> &TextureDesc {
        &self.desc
    }

    /// The texel bytes.
    pub fn data(&self) -> &[u8] {
        &self.data
    }

    /// A texture from texels given as 32-bit words (integers for integer formats, f32 bits
    /// for float formats; see [`TextureFormat::encode_words`]).
    pub fn from_words(desc: TextureDesc, texels: &[[u32; 4]]) -> Result<Texture, TextureError> {
        let (_, size) = desc.layout()?;
        let texel_bytes = desc.format.texel_bytes();
        if texels.len().checked_mul(texel_bytes) != Some(size) {
            return Err(TextureError::DataSize {
                expected: size,
                got: texels.len().saturating_mul(texel_bytes),
                what: "texels * texel size",
            });
        }
        let mut data = Vec::with_capacity(size);
        for &t in texels {
            desc.format.encode_words(t, &mut data);
        }
        Texture::new(desc, data)
    }

    /// The byte range of texel `(x, y, z)` of `slice` at `level`, if inside the texture.
    fn texel_range(
        &self,
        level: u32,
        slice: u32,
        x: u32,
        y: u32,
        z: u32,
    ) -> Option<core::ops::Range<usize>> {
        let [w, h, d] = self.desc.level_extent(level);
        if level >= self.desc.levels || slice >= self.desc.slices() || x >= w || y >= h || z >= d {
            return None;
        }
        let index = ((slice as usize * d as usize + z as usize) * h as usize + y as usize)
            * w as usize
            + x as usize;
        let size = self.desc.format.texel_bytes();
        let start = self.level_offsets[level as usize] + index * size;
        let range = start..start + size;
        (range.end <= self.data.len()).then_some(range)
    }

    /// Texel `(x, y, z)` of `slice` at `level`, as RGBA; (0, 0, 0, 0) outside the texture.
    /// Integer formats give their words' bits in f32 containers.
    pub fn texel(&self, level: u32, slice: u32, x: u32, y: u32, z: u32) -> [f32; 4] {
        match self.texel_range(level, slice, x, y, z) {
            Some(r) => self.desc.format.decode(&self.data[r]),
            None => [0.0; 4],
        }
    }

    /// Texel `(x, y, z)` of `slice` at `level` as 32-bit words (see
    /// [`TextureFormat::decode_words`]); zeros outside the texture.
    pub fn texel_words(&self, level: u32, slice: u32, x: u32, y: u32, z: u32) -> [u32; 4] {
        match self.texel_range(level, slice, x, y, z) {
            Some(r) => self.desc.format.decode_words(&self.data[r]),
            None => [0; 4],
        }
    }

    /// Writes texel `(x, y, z)` of `slice` at `level` from 32-bit words (see
    /// [`TextureFormat::encode_words`]); false (and nothing written) outside the texture.
    pub fn store_words(
        &mut self,
        level: u32,
        slice: u32,
        [x, y, z]: [u32; 3],
        texel: [u32; 4],
    ) -> bool {
        let Some(r) = self.texel_range(level, slice, x, y, z) else {
            return false;
        };
        let mut bytes = Vec::with_capacity(r.len());
        self.desc.format.encode_words(texel, &mut bytes);
        self.data[r].copy_from_slice(&bytes);
        true
    }
}

/// Texel filter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Filter {
    /// The texel containing the sample point.
    Nearest,
    /// Weighted average of the 2^n nearest texels.
    Linear,
}

/// Mipmap mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MipFilter {
    /// Level 0 only.
    None,
    /// The nearest level.
    Nearest,
    /// Blend of the two nearest levels.
    Linear,
}

/// Addressing outside [0, size).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Wrap {
    /// `i mod size`.
    Repeat,
    /// `clamp(i, 0, size - 1)`.
    ClampToEdge,
    /// Repeat, every other copy mirrored.
    MirroredRepeat,
    /// Outside texels read the border colour (0, 0, 0, 0).
    ClampToBorder,
}

/// Depth comparison of shadow samples: the result is 1 where `reference OP texel.r` holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CompareOp {
    /// Never.
    Never,
    /// `ref < texel`.
    Less,
    /// `ref == texel`.
    Equal,
    /// `ref <= texel`.
    LessEqual,
    /// `ref > texel`.
    Greater,
    /// `ref != texel`.
    NotEqual,
    /// `ref >= texel`.
    GreaterEqual,
    /// Always.
    Always,
}

impl CompareOp {
    /// Applies the comparison (IEEE: ordered comparisons are false with a NaN operand, `!=` is
    /// true).
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

/// Sampler state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sampler {
    /// Filter when magnifying (LOD <= 0).
    pub mag_filter: Filter,
    /// Filter when minifying (LOD > 0).
    pub min_filter: Filter,
    /// Mipmap mode.
    pub mip_filter: MipFilter,
    /// Wrap per axis (u, v, w).
    pub wrap: [Wrap; 3],
    /// Added to every LOD.
    pub lod_bias: f32,
    /// Lower LOD clamp.
    pub min_lod: f32,
    /// Upper LOD clamp.
    pub max_lod: f32,
    /// Comparison for shadow samples (required by them, and only by them).
    pub compare: Option<CompareOp>,
}

impl Default for Sampler {
    /// Nearest filtering, no mipmapping, repeat, no bias, LOD clamp [0, 1000] (Vulkan's
    /// `VK_LOD_CLAMP_NONE`), no comparison.
    fn default() -> Sampler {
        Sampler {
            mag_filter: Filter::Nearest,
            min_filter: Filter::Nearest,
            mip_filter: MipFilter::None,
            wrap: [Wrap::Repeat; 3],
            lod_bias: 0.0,
            min_lod: 0.0,
            max_lod: 1000.0,
            compare: None,
        }
    }
}

impl Sampler {
    /// Nearest filtering (the default sampler).
    pub fn nearest() -> Sampler {
        Sampler::default()
    }

    /// Linear magnification and minification.
    pub fn linear() -> Sampler {
        Sampler {
            mag_filter: Filter::Linear,
            min_filter: Filter::Linear,
            ..Sampler::default()
        }
    }

    /// Sets the mipmap mode.
    pub fn with_mip(mut self, mip: MipFilter) -> Sampler {
        self.mip_filter = mip;
        self
    }

    /// Sets the wrap mode of every axis.
    pub fn with_wrap(mut self, wrap: Wrap) -> Sampler {
        self.wrap = [wrap; 3];
        self
    }

    /// Sets the comparison (making it a shadow sampler).
    pub fn with_compare(mut self, op: CompareOp) -> Sampler {
        self.compare = Some(op);
        self
    }
}
