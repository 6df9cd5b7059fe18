//! Sampling and fetching: layer selection, LOD, level selection, wrapping, nearest/linear
//! filtering and depth compare (Vulkan specification, "Texel Filtering" and "Texel Input
//! Operations"), over a validated [`Texture`].

use super::cube;
use super::descriptor::Texture;
use super::error::TextureError;
use super::format::{TexFormat, MAX_TEXEL_BYTES};
use super::lod::{self, LevelChoice, LodRequest};
use super::memory::TexelMemory;
use super::sampler::{wrap, CompareOp, Filter, MipFilter, SamplerDescriptor, Wrap};

/// One lane's `texture_sample` operands.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SampleRequest {
    /// Normalised coordinates, or the direction for cube maps (see the module docs).
    pub coords: [f32; 3],
    /// Array layer (cube index for cube arrays); ignored by non-arrays.
    pub layer: f32,
    /// LOD mode and operands.
    pub lod: LodRequest,
    /// Depth-compare reference; required exactly when the sampler compares.
    pub compare_ref: Option<f32>,
    /// Constant texel offset per axis, added after scaling to the level (not for cube maps).
    pub offset: [i32; 3],
}

impl SampleRequest {
    /// A request at `coords` with layer 0, no compare and no offset.
    pub fn new(coords: [f32; 3], lod: LodRequest) -> Self {
        SampleRequest {
            coords,
            layer: 0.0,
            lod,
            compare_ref: None,
            offset: [0; 3],
        }
    }

    /// The same request at array layer `layer`.
    pub fn with_layer(self, layer: f32) -> Self {
        SampleRequest { layer, ..self }
    }

    /// The same request with depth-compare reference `reference`.
    pub fn with_compare(self, reference: f32) -> Self {
        SampleRequest {
            compare_ref: Some(reference),
            ..self
        }
    }

    /// The same request with texel offset `offset`.
    pub fn with_offset(self, offset: [i32; 3]) -> Self {
        SampleRequest { offset, ..self }
    }
}

/// Array layer from the float coordinate: round half to even, clamp to `0..layers`; NaN is 0.
fn select_layer(layer: f32, layers: u32) -> u32 {
    let rounded = layer.round_ties_even();
    let last = layers.saturating_sub(1);
    if rounded >= last as f32 {
        last
    } else if rounded >= 0.0 {
        rounded as u32
    } else {
        0
    }
}

impl Texture {
    /// Samples this texture (see [`super::sample`]).
    pub fn sample<M: TexelMemory + ?Sized>(
        &self,
        mem: &M,
        sampler: &SamplerDescriptor,
        request: &SampleRequest,
    ) -> Result<[f32; 4], TextureError> {
        sampler.validate()?;
        check_integer_sampling(self.descriptor().format, sampler)?;
        let compare = match (sampler.compare, request.compare_ref) {
            (Some(op), Some(reference)) => Some((op, reference)),
            (None, None) => None,
            (Some(op), None) => return Err(TextureError::MissingCompareReference { op }),
            (None, Some(_)) => return Err(TextureError::UnexpectedCompareReference),
        };
        let desc = self.descriptor();
        let dim = desc.dim;
        // With one level (or no mip filtering) every LOD selects level 0, and with equal
        // filters the LOD does not choose the filter either: the result does not depend on
        // the LOD, so it is not computed (no derivatives projected, no square root or
        // logarithm per sample). `select_levels` and the filter choice below give level 0 and
        // the common filter for the LOD 0 used instead.
        let needs_lod = sampler.mag_filter != sampler.min_filter
            || (desc.levels > 1 && sampler.mip_filter != MipFilter::None);
        let layer = u64::from(select_layer(request.layer, desc.layers));
        let (st, slice, derivatives, wraps) = if dim.is_cube() {
            if request.offset != [0; 3] {
                return Err(TextureError::OffsetOnCube {
                    offset: request.offset,
                    dim,
                });
            }
            let derivatives = request.lod.derivatives().filter(|_| needs_lod);
            let projected = cube::project(request.coords, derivatives);
            let slice = layer * 6 + u64::from(projected.face);
            let wraps = [Wrap::ClampToEdge; 3];
            (projected.st, slice, projected.derivatives, wraps)
        } else {
            let derivatives = request.lod.derivatives().copied();
            (request.coords, layer, derivatives, sampler.wrap)
        };
        let lambda = if needs_lod {
            lod::lambda(
                sampler,
                &request.lod,
                derivatives.as_ref(),
                desc.extent(),
                dim.axes(),
            )
        } else {
            0.0
        };
        let filter = if lambda <= 0.0 {
            sampler.mag_filter
        } else {
            sampler.min_filter
        };
        let unit = LevelSampler {
            texture: self,
            mem,
            slice,
            st,
            filter,
            wraps,
            offset: request.offset,
            compare,
        };
        match lod::select_levels(sampler.mip_filter, lambda, desc.levels) {
            LevelChoice::One(level) => unit.sample(level),
            LevelChoice::Blend { lo, hi, delta } => {
                Ok(lerp4(unit.sample(lo)?, unit.sample(hi)?, delta))
            }
        }
    }

    /// Gathers component `component` (0 red .. 3 alpha) of the four texels a linear filter
    /// reads at the base level, in the order the Vulkan specification's "Texel Gathering"
    /// gives: (i0, j1), (i1, j1), (i1, j0), (i0, j0). The sampler's filters, mip mode and LOD
    /// settings do not apply; wrapping, offsets and depth compare (per texel) do. 2D and cube
    /// textures (arrays too).
    pub fn gather<M: TexelMemory + ?Sized>(
        &self,
        mem: &M,
        sampler: &SamplerDescriptor,
        request: &SampleRequest,
        component: u8,
    ) -> Result<[f32; 4], TextureError> {
        sampler.validate()?;
        let compare = match (sampler.compare, request.compare_ref) {
            (Some(op), Some(reference)) => Some((op, reference)),
            (None, None) => None,
            (Some(op), None) => return Err(TextureError::MissingCompareReference { op }),
            (None, Some(_)) => return Err(TextureError::UnexpectedCompareReference),
        };
        let desc = self.descriptor();
        let dim = desc.dim;
        let layer = u64::from(select_layer(request.layer, desc.layers));
        let (st, slice, wraps) = if dim.is_cube() {
            if request.offset != [0; 3] {
                return Err(TextureError::OffsetOnCube {
                    offset: request.offset,
                    dim,
                });
            }
            let projected = cube::project(request.coords, None);
            let slice = layer * 6 + u64::from(projected.face);
            (projected.st, slice, [Wrap::ClampToEdge; 3])
        } else {
            (request.coords, layer, sampler.wrap)
        };
        let unit = LevelSampler {
            texture: self,
            mem,
            slice,
            st,
            filter: Filter::Linear,
            wraps,
            offset: request.offset,
            compare,
        };
        let t = unit.footprint(0)?;
        let c = usize::from(component & 3);
        Ok([t[2][c], t[3][c], t[1][c], t[0][c]])
    }

    /// Reads one texel (see [`super::fetch`]).
    pub fn fetch<M: TexelMemory + ?Sized>(
        &self,
        mem: &M,
        coords: [i32; 3],
        layer: i32,
        level: i32,
    ) -> Result<[f32; 4], TextureError> {
        match self.texel_at(coords, layer, level) {
            Some(address) => self.read_texel(mem, address),
            None => Ok([0.0; 4]),
        }
    }

    /// The address of the texel at integer coordinates (the meaning [`super::fetch`] gives
    /// them), or `None` when the coordinate, face, layer or level is out of range. Stores
    /// (`image_write`) write there, in [`TexFormat::encode`]'s bytes.
    pub fn texel_at(&self, coords: [i32; 3], layer: i32, level: i32) -> Option<u64> {
        let desc = self.descriptor();
        let level = u32::try_from(level).ok().filter(|&l| l < desc.levels)?;
        let layer = u32::try_from(layer).ok().filter(|&l| l < desc.layers)?;
        let extent = desc.level_extent(level);
        let mut xyz = [0u32; 3];
        for axis in 0..desc.dim.axes() {
            xyz[axis] = u32::try_from(coords[axis])
                .ok()
                .filter(|&c| c < extent[axis])?;
        }
        let slice = if desc.dim.is_cube() {
            let face = u32::try_from(coords[2]).ok().filter(|&f| f < 6)?;
            u64::from(layer) * 6 + u64::from(face)
        } else {
            u64::from(layer)
        };
        let (base, extent) = self.slice_base(level, slice);
        Some(self.texel_address(base, extent, xyz))
    }

    fn read_texel<M: TexelMemory + ?Sized>(
        &self,
        mem: &M,
        address: u64,
    ) -> Result<[f32; 4], TextureError> {
        let format = self.descriptor().format;
        let len = format.texel_bytes();
        let mut bytes = [0u8; MAX_TEXEL_BYTES];
        mem.read_bytes(address, &mut bytes[..len as usize])
            .map_err(|_| TextureError::Unmapped { address, len })?;
        Ok(format.decode(&bytes))
    }
}

/// One level of the sampled slice: its first byte and its extent.
struct LevelView {
    base: u64,
    extent: [u32; 3],
}

/// Filters within one level; everything but the level is fixed per sample.
struct LevelSampler<'a, M: ?Sized> {
    texture: &'a Texture,
    mem: &'a M,
    slice: u64,
    st: [f32; 3],
    filter: Filter,
    wraps: [Wrap; 3],
    offset: [i32; 3],
    compare: Option<(CompareOp, f32)>,
}

impl<M: TexelMemory + ?Sized> LevelSampler<'_, M> {
    fn sample(&self, level: u32) -> Result<[f32; 4], TextureError> {
        let axes = self.texture.descriptor().dim.axes();
        let (base, extent) = self.texture.slice_base(level, self.slice);
        let level = LevelView { base, extent };
        // Per axis: the two wrapped texel indices (None = border) and the weight of the second.
        let mut taps = [[Some(0u32); 2]; 3];
        let mut weights = [0.0f32; 3];
        for axis in 0..axes {
            let u = self.st[axis] * extent[axis] as f32;
            let offset = i64::from(self.offset[axis]);
            let size = extent[axis];
            let mode = self.wraps[axis];
            match self.filter {
                Filter::Nearest => {
                    // Saturating conversion: NaN becomes 0, infinities the extreme integers.
                    let i = (u.floor() as i64).saturating_add(offset);
                    taps[axis][0] = wrap(i, size, mode);
                }
                Filter::Linear => {
                    let x = u - 0.5;
                    let floor = x.floor();
                    let i0 = (floor as i64).saturating_add(offset);
                    taps[axis] = [wrap(i0, size, mode), wrap(i0.saturating_add(1), size, mode)];
                    weights[axis] = x - floor;
                }
            }
        }
        if self.filter == Filter::Nearest {
            let [x, y, z] = [taps[0][0], taps[1][0], taps[2][0]];
            return self.texel(&level, x.zip(y).zip(z).map(|((x, y), z)| [x, y, z]));
        }
        // Corner k holds bit a of k as its tap on axis a; reducing x first, then y, then z gives
        // Vulkan's nesting lerp(lerp(T00, T10, a), lerp(T01, T11, a), b).
        let corners = 1usize << axes;
        let mut values = [[0.0f32; 4]; 8];
        for (k, value) in values.iter_mut().enumerate().take(corners) {
            let tap = |axis: usize| taps[axis][(k >> axis) & 1];
            let xyz = tap(0).zip(tap(1)).zip(tap(2)).map(|((x, y), z)| [x, y, z]);
            *value = self.texel(&level, xyz)?;
        }
        let mut live = corners;
        for &weight in weights.iter().take(axes) {
            live /= 2;
            for k in 0..live {
                values[k] = lerp4(values[2 * k], values[2 * k + 1], weight);
            }
        }
        Ok(values[0])
    }

    /// The 2x2 texels of the linear footprint on the first two axes at `level`, indexed
    /// `i + 2 j` (i along x, j along y).
    fn footprint(&self, level: u32) -> Result<[[f32; 4]; 4], TextureError> {
        let (base, extent) = self.texture.slice_base(level, self.slice);
        let view = LevelView { base, extent };
        let taps: [[Option<u32>; 2]; 2] = std::array::from_fn(|axis| {
            let x = self.st[axis] * extent[axis] as f32 - 0.5;
            let i0 = (x.floor() as i64).saturating_add(i64::from(self.offset[axis]));
            let (size, mode) = (extent[axis], self.wraps[axis]);
            [wrap(i0, size, mode), wrap(i0.saturating_add(1), size, mode)]
        });
        let mut out = [[0.0f32; 4]; 4];
        for (k, texel) in out.iter_mut().enumerate() {
            let xy = taps[0][k & 1].zip(taps[1][k >> 1]);
            *texel = self.texel(&view, xy.map(|(x, y)| [x, y, 0]))?;
        }
        Ok(out)
    }

    /// One texel after border replacement and depth compare.
    fn texel(&self, level: &LevelView, xyz: Option<[u32; 3]>) -> Result<[f32; 4], TextureError> {
        let rgba = match xyz {
            Some(xyz) => {
                let address = self.texture.texel_address(level.base, level.extent, xyz);
                self.texture.read_texel(self.mem, address)?
            }
            None => [0.0; 4],
        };
        Ok(match self.compare {
            Some((op, reference)) => {
                let passed = if op.test(reference, rgba[0]) {
                    1.0
                } else {
                    0.0
                };
                [passed, 0.0, 0.0, 1.0]
            }
            None => rgba,
        })
    }
}

/// Integer texels may be read by a sampler only without any arithmetic on them.
fn check_integer_sampling(
    format: TexFormat,
    sampler: &SamplerDescriptor,
) -> Result<(), TextureError> {
    if !format.is_integer() {
        return Ok(());
    }
    let what = if sampler.min_filter == Filter::Linear || sampler.mag_filter == Filter::Linear {
        "a linear filter"
    } else if sampler.mip_filter == MipFilter::Linear {
        "linear mip filtering"
    } else if sampler.compare.is_some() {
        "a depth compare"
    } else {
        return Ok(());
    };
    Err(TextureError::IntegerFiltering { format, what })
}

/// `a * (1 - t) + b * t` per component. Shared by the general and the fast path and never
/// inlined, so that both run the same machine code: with NaN operands, which NaN's payload an
/// operation returns depends on the order the compiler gives its commutative operands, and the
/// two paths must give the same bits.
#[inline(never)]
pub(super) fn lerp4(a: [f32; 4], b: [f32; 4], t: f32) -> [f32; 4] {
    let mut out = [0.0; 4];
    for c in 0..4 {
        out[c] = a[c] * (1.0 - t) + b[c] * t;
    }
    out
}
