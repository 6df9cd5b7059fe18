//! The simulator's texture unit: `texture_sample` / `texture_load` over textures that live in device
//! memory, described by descriptors.
//!
//! Place in the pipeline: the executor decodes a texture instruction, gathers each lane's
//! coordinates, LOD operands and offsets, and calls [`sample`] / [`fetch`] / [`size`] / [`levels`]
//! here; texels are read through the [`TexelMemory`] trait, which the simulator's device memory
//! implements. This module knows nothing about registers, encodings or lanes beyond the 2x2 quad
//! helper [`quad_derivatives`].
//!
//! The rules are the project's texture semantics, which restate the Vulkan specification, chapter
//! "Image Operations" (sections "Cube Map Face Selection", "Scale Factor Operation, LOD Operation
//! and Image Level(s) Selection", "Wrapping Operation", "Texel Filtering", "Depth Compare
//! Operation"); the IR interpreter's module docs (`agxc_egraph::interp`, "Textures") list them as
//! numbered rules. This unit and the interpreter are written independently so that each checks
//! the other.
//!
//! # Runtime contract: descriptors and memory layout
//! A [`TextureDescriptor`] names a dimensionality ([`TexDim`]), a [`TexFormat`], the level-0 extent
//! (`width`, `height`, `depth`), the array size `layers`, the mip count `levels` and the 64-bit
//! device `address` of texel (0, 0, 0) of layer 0, level 0. Axes the dimensionality lacks must be 1
//! (`height` of 1D, `depth` of everything but 3D, `layers` of non-arrays); cube faces are square.
//! `levels` is at most `floor(log2(largest extent)) + 1` (Vulkan's `VkImageCreateInfo` limit).
//!
//! The texels are tightly packed, no padding or alignment anywhere:
//! - level 0 first, then level 1, 2, ...; level `l` has extent `max(1, e >> l)` on each axis the
//!   dimensionality has; the layer count never shrinks;
//! - each level holds `slices` slices: `layers` for 1D/2D/3D and their arrays, `6 * layers` for cube
//!   and cube arrays, where slice `6 * layer + face` holds face `face` in the order +X, -X, +Y, -Y,
//!   +Z, -Z;
//! - each slice holds `depth_l` planes (3D only) of `height_l` rows of `width_l` texels, row-major.
//!
//! So texel (x, y, z) of slice `k` at level `l` starts at byte
//! `address + level_offset(l) + (((k * depth_l + z) * height_l + y) * width_l + x) * texel_bytes`,
//! where `level_offset(l)` is the byte size of levels `0..l`. The descriptor types also have a fixed
//! 32-byte binary form ([`TEXTURE_DESCRIPTOR_BYTES`], [`SAMPLER_DESCRIPTOR_BYTES`]) so a runtime can
//! keep descriptor tables in device memory; the byte layouts are documented on those constants.
//!
//! # Coordinates
//! - [`sample`]: `coords` are normalised: (s) for 1D, (s, t) for 2D, (s, t, r) for 3D, and the
//!   direction (rx, ry, rz) for cube maps; unused components are ignored. The array layer is a
//!   separate float, rounded half-to-even and clamped, never wrapped or filtered. Derivatives in
//!   [`Lod`] are of the same components (of the direction for cube maps).
//! - [`fetch`]: integer texel coordinates (x, y, z) for the axes the texture has; for cube maps the
//!   third coordinate is the face index 0..6 and `layer` the cube index. Anything out of range
//!   (coordinate, face, layer, level) reads (0, 0, 0, 0); non-arrays have one layer, so their
//!   `layer` must be 0. Coordinates of axes the texture lacks are ignored.
//!
//! # Behaviour this module defines (the semantics document leaves it open)
//! - A depth-compare sampler needs a reference value and a reference value needs a compare sampler:
//!   a mismatch is an error ([`TextureError::MissingCompareReference`],
//!   [`TextureError::UnexpectedCompareReference`]), as Vulkan leaves it undefined. The compare is
//!   applied to border texels too (Vulkan applies texel replacement before the depth compare), and
//!   the result is `(v, 0, 0, 1)` for the filtered compare value `v`. The reference is not clamped.
//! - Texel offsets on cube textures are an error ([`TextureError::OffsetOnCube`]); SPIR-V forbids
//!   them. Offset components for axes the texture lacks are ignored.
//! - A NaN LOD (e.g. NaN derivatives) clamps to the lower LOD bound; a shader minimum LOD above the
//!   sampler's `max_lod` yields `max_lod` (Vulkan leaves both undefined).
//! - Linear mip filtering with `delta == 0` returns the lower level's sample as is (no blend with a
//!   weight of zero, which would turn an infinite texel into NaN).
//! - A cube direction whose major component is ±0 picks the positive face; the all-zero direction
//!   divides by zero and yields whatever texel the NaN coordinates select (never an error).
//! - The sampler's `lod_bias` is added to the LOD in every mode, explicit and gradient included
//!   (Vulkan's rule). For gradients this is docs/g13.md's "a sampler LOD bias scales gradients by
//!   exp2(bias)", since log2(rho * 2^b) = log2(rho) + b.
//! - NaN or infinite coordinates never fail: float-to-integer conversion saturates, so they select
//!   some texel or the border.
//!
//! # Integer formats and stores (behaviour this module defines)
//! - The integer formats ([`TexFormat::Rgba32Uint`], [`TexFormat::Rgba32Sint`],
//!   [`TexFormat::R32Uint`], [`TexFormat::R32Sint`], descriptor codes 11 to 14, this
//!   simulator's own numbering) read as their 32-bit words in f32 containers, one-channel ones
//!   as the words `(r, 0, 0, 1)`; the executor writes the bits to the registers unconverted.
//!   Sampling them needs nearest filters, no linear mip filtering and no compare
//!   ([`TextureError::IntegerFiltering`]), as Vulkan allows nothing else.
//! - `image_write` stores one texel at the address [`Texture::texel_at`] gives (nothing when it
//!   is out of range), encoded by [`TexFormat::encode`].
//!
//! # Performance
//! A fast path (`fast`) covers the common case (2D, one level, RGBA8 or RGBA32F, equal
//! nearest or linear filters, no compare or gather): no LOD, texels read as whole words from an
//! allocation found once per instruction; the executor calls it once per instruction for all
//! active lanes (`batch`: 32-lane loops for the arithmetic, session 10). Elsewhere sampling allocates nothing: texels are read
//! into a 16-byte stack buffer, and [`Texture`] holds the validated descriptor with its level
//! offsets in a fixed array. The free functions validate the descriptor on every call; an
//! executor that samples one texture many times can build the [`Texture`] once and call its
//! methods. The simulator's executor does, and reads the texels through the texture's
//! allocation, found once per instruction (whole words, no search of device memory per texel;
//! a texture that does not lie in one allocation is read through device memory, which reports
//! the unmapped texel). When the LOD cannot change the result (one level or no mip filtering,
//! and equal magnification and minification filters) [`Texture::sample`] does not compute it.
//! Measured on the corpus's texture-bound fragment cases at 1024x1024 (the `sim_speed` bench's
//! child mode, CPU time of the whole process, session 7): 1.2x to 1.8x less than before these
//! three changes.

mod batch;
mod cube;
mod descriptor;
mod encoding;
mod error;
mod fast;
mod format;
mod lod;
mod memory;
mod sample;
mod sampler;

#[cfg(test)]
mod tests;

pub use descriptor::{SizeQuery, TexDim, Texture, TextureDescriptor, MAX_LEVELS};
pub use encoding::{SAMPLER_DESCRIPTOR_BYTES, TEXTURE_DESCRIPTOR_BYTES};
pub use error::TextureError;
pub(crate) use fast::Fast2d;
pub use format::TexFormat;
pub use lod::{quad_derivatives, Derivatives, Lod, LodRequest};
pub use memory::{SliceMemory, TexelMemory, UnmappedAddress};
pub use sample::SampleRequest;
pub use sampler::{CompareOp, Filter, MipFilter, SamplerDescriptor, Wrap};

/// Samples `tex` with `sampler` (the `texture_sample` path): validates both descriptors, computes
/// the LOD, filters and returns RGBA.
///
/// ```
/// use agxc_runtime_sim::texture::*;
/// // A 2x1 RGBA8 texture at 0x1000: a black texel and a white one.
/// let bytes = [0, 0, 0, 0, 255, 255, 255, 255];
/// let mem = SliceMemory::new(0x1000, &bytes);
/// let tex = TextureDescriptor::new_2d(TexFormat::Rgba8Unorm, 2, 1, 1, 0x1000);
/// let sampler = SamplerDescriptor { mag_filter: Filter::Linear, ..Default::default() };
/// let request = SampleRequest::new([0.5, 0.5, 0.0], LodRequest::explicit(0.0));
/// // s = 0.5 lies halfway between the two texel centres.
/// let rgba = sample(&mem, &tex, &sampler, &request)?;
/// assert_eq!(rgba, [0.5, 0.5, 0.5, 0.5]);
/// # Ok::<(), TextureError>(())
/// ```
pub fn sample<M: TexelMemory + ?Sized>(
    mem: &M,
    tex: &TextureDescriptor,
    sampler: &SamplerDescriptor,
    request: &SampleRequest,
) -> Result<[f32; 4], TextureError> {
    Texture::new(*tex)?.sample(mem, sampler, request)
}

/// Reads one texel without filtering or wrapping (the `texture_load` path); out-of-range
/// coordinates, layer or level read (0, 0, 0, 0). See the module docs for the coordinate meaning.
pub fn fetch<M: TexelMemory + ?Sized>(
    mem: &M,
    tex: &TextureDescriptor,
    coords: [i32; 3],
    layer: i32,
    level: i32,
) -> Result<[f32; 4], TextureError> {
    Texture::new(*tex)?.fetch(mem, coords, layer, level)
}

/// The size query at `level`: the extent of the texture's axes at that level, then the layer
/// count for arrays (Vulkan's `OpImageQuerySizeLod`). Defined for every `level`: past the last
/// level every extent is 1.
pub fn size(tex: &TextureDescriptor, level: u32) -> Result<SizeQuery, TextureError> {
    Ok(Texture::new(*tex)?.size(level))
}

/// The levels query: the descriptor's mip count, as the hardware reports the field.
pub fn levels(tex: &TextureDescriptor) -> u32 {
    tex.levels
}
