//! The `case.toml` schema: what a corpus case declares about its shader, resources and outputs.
//!
//! The schema is documented for authors in `tests/corpus/README.md`; the types here are its one
//! definition. Parsing is strict (`deny_unknown_fields`) so that a misspelt key is an error rather
//! than a silently ignored setting.

use serde::Deserialize;

use super::compare::Tolerance;
use super::generate::Init;

/// The parsed `case.toml` of one case.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// Where the shader comes from: a URL pinned to a commit, or `agxc original`.
    pub source: String,
    /// SPDX licence expression of the shader source.
    pub licence: String,
    /// The exact command (run in the case directory) that builds the artefact from the source,
    /// e.g. `glslangValidator -V --target-env vulkan1.1 shader.comp -o shader.spv`. Absent for
    /// languages without a build step.
    #[serde(default)]
    pub build: Option<String>,
    /// Free text: what was changed from the public original, and why.
    #[serde(default)]
    pub notes: Option<String>,
    /// Which pipeline stage the shader is.
    pub stage: Stage,
    /// The entry point's name.
    #[serde(default = "default_entry")]
    pub entry: String,
    /// Compute: the number of workgroups in x, y and z.
    #[serde(default)]
    pub groups: Option<[u32; 3]>,
    /// Fragment: the render-target size in pixels (width, height).
    #[serde(default)]
    pub size: Option<[u32; 2]>,
    /// Fragment: the colour every render target is cleared to before the draw.
    #[serde(default)]
    pub clear: [f32; 4],
    /// Fragment: the shader's inputs, each an affine function of the pixel centre.
    #[serde(default, rename = "varying")]
    pub varyings: Vec<Varying>,
    /// Fragment: the RGBA32F render targets that are read back and compared.
    #[serde(default, rename = "target")]
    pub targets: Vec<RenderTarget>,
    /// Storage and uniform buffers.
    #[serde(default, rename = "buffer")]
    pub buffers: Vec<Buffer>,
    /// Push-constant bytes, if the shader has a push-constant block.
    #[serde(default)]
    pub push: Option<PushConstants>,
    /// Combined image samplers.
    #[serde(default, rename = "texture")]
    pub textures: Vec<Texture>,
}

fn default_entry() -> String {
    "main".to_owned()
}

/// The pipeline stage of a case's shader.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// A compute shader, run with `groups` workgroups.
    Compute,
    /// A fragment shader, run on one full-screen triangle.
    Fragment,
}

impl Stage {
    /// The name used in manifests and messages.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Compute => "compute",
            Stage::Fragment => "fragment",
        }
    }
}

/// The scalar type of a varying, or of an output buffer's elements.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ScalarType {
    /// 32-bit IEEE float.
    #[default]
    F32,
    /// 32-bit two's-complement integer.
    I32,
    /// 32-bit unsigned integer.
    U32,
}

impl ScalarType {
    /// The name used in manifests and messages.
    pub fn name(self) -> &'static str {
        match self {
            ScalarType::F32 => "f32",
            ScalarType::I32 => "i32",
            ScalarType::U32 => "u32",
        }
    }
}

/// One fragment-shader input at `location`.
///
/// Its value at pixel `(x, y)` is `base + ddx * (x + 0.5) + ddy * (y + 0.5)` per component (the
/// affine model shared by every consumer); a flat varying is `base` everywhere.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Varying {
    /// The `Location` decoration.
    pub location: u32,
    /// Vector width, 1 to 4.
    pub components: u32,
    /// Component type; integer varyings must be flat.
    #[serde(default, rename = "type")]
    pub ty: ScalarType,
    /// Value at the origin (the top-left corner of the target).
    pub base: Vec<f64>,
    /// Change per pixel to the right; empty means zero.
    #[serde(default)]
    pub ddx: Vec<f64>,
    /// Change per pixel downwards; empty means zero.
    #[serde(default)]
    pub ddy: Vec<f64>,
    /// No interpolation: the value is `base` at every pixel.
    #[serde(default)]
    pub flat: bool,
}

impl Varying {
    /// The varying at continuous framebuffer position `(fx, fy)`, per component, in f64. Pixel
    /// `(x, y)` is sampled at `(x + 0.5, y + 0.5)`.
    pub fn value_at(&self, fx: f64, fy: f64) -> Vec<f64> {
        (0..self.components as usize)
            .map(|c| {
                let base = self.base.get(c).copied().unwrap_or(0.0);
                if self.flat {
                    return base;
                }
                let dx = self.ddx.get(c).copied().unwrap_or(0.0);
                let dy = self.ddy.get(c).copied().unwrap_or(0.0);
                base + dx * fx + dy * fy
            })
            .collect()
    }

    /// The value at the centre of pixel `(x, y)`, as the 32-bit words the shader reads (f32 bits,
    /// or the integer for integer varyings).
    pub fn words_at_pixel(&self, x: u32, y: u32) -> Vec<u32> {
        self.value_at(f64::from(x) + 0.5, f64::from(y) + 0.5)
            .into_iter()
            .map(|v| match self.ty {
                ScalarType::F32 => (v as f32).to_bits(),
                ScalarType::I32 => (v as i32) as u32,
                ScalarType::U32 => v as u32,
            })
            .collect()
    }
}

/// A fragment render target that is read back: RGBA32F, `size` pixels, rows top to bottom.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RenderTarget {
    /// The fragment output `Location`.
    pub location: u32,
    /// How close the compared values must be.
    #[serde(default)]
    pub tolerance: Tolerance,
    /// How close compared f32 elements must be when the shader's `RelaxedPrecision` arithmetic
    /// is computed in f16 (`agxc::Options::relaxed_f16`); `None` means `tolerance`.
    #[serde(default)]
    pub relaxed_tolerance: Option<Tolerance>,
}

/// Whether a buffer is bound as a storage or a uniform buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BufferKind {
    /// `StorageBuffer` (GLSL `buffer`), std430 by default.
    Storage,
    /// `Uniform` (GLSL `uniform` block), std140.
    Uniform,
}

impl BufferKind {
    /// The name used in manifests and messages.
    pub fn name(self) -> &'static str {
        match self {
            BufferKind::Storage => "storage",
            BufferKind::Uniform => "uniform",
        }
    }
}

/// A buffer bound at `(set, binding)`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Buffer {
    /// Descriptor set.
    pub set: u32,
    /// Binding within the set.
    pub binding: u32,
    /// Storage or uniform.
    pub kind: BufferKind,
    /// Size in bytes.
    pub size: usize,
    /// Initial contents.
    #[serde(default)]
    pub init: Init,
    /// Read back after the run and compared with the recording.
    #[serde(default)]
    pub output: bool,
    /// Element type for comparison of an output buffer.
    #[serde(default)]
    pub elem: ScalarType,
    /// How close compared f32 elements must be.
    #[serde(default)]
    pub tolerance: Tolerance,
    /// How close compared f32 elements must be when the shader's `RelaxedPrecision` arithmetic
    /// is computed in f16 (`agxc::Options::relaxed_f16`); `None` means `tolerance`.
    #[serde(default)]
    pub relaxed_tolerance: Option<Tolerance>,
}

/// The push-constant block's bytes.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PushConstants {
    /// Size in bytes (a multiple of 4, at most 128: the Vulkan minimum guarantee).
    pub size: usize,
    /// Contents.
    pub init: Init,
}

/// The dimensionality of a sampled texture.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum TextureDim {
    /// `sampler1D`: `size = [w]`.
    #[serde(rename = "1d")]
    D1,
    /// `sampler2D`: `size = [w, h]`.
    #[serde(rename = "2d")]
    D2,
    /// `sampler2DArray`: `size = [w, h, layers]`.
    #[serde(rename = "2d_array")]
    D2Array,
    /// `sampler3D`: `size = [w, h, d]`.
    #[serde(rename = "3d")]
    D3,
    /// `samplerCube`: `size = [w, w]`, six faces in the order +X, -X, +Y, -Y, +Z, -Z.
    #[serde(rename = "cube")]
    Cube,
}

impl TextureDim {
    /// The name used in manifests and messages.
    pub fn name(self) -> &'static str {
        match self {
            TextureDim::D1 => "1d",
            TextureDim::D2 => "2d",
            TextureDim::D2Array => "2d_array",
            TextureDim::D3 => "3d",
            TextureDim::Cube => "cube",
        }
    }
}

/// The texel format of a texture.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TexelFormat {
    /// Four 8-bit unsigned-normalised channels (`R8G8B8A8_UNORM`).
    Rgba8,
    /// Four half floats (`R16G16B16A16_SFLOAT`); generated as f32 and rounded to half.
    Rgba16f,
    /// Four floats (`R32G32B32A32_SFLOAT`).
    Rgba32f,
    /// One float (`R32_SFLOAT`).
    R32f,
    /// 32-bit float depth (`D32_SFLOAT`), for shadow samplers; values belong in [0, 1].
    D32f,
    /// Four unsigned 32-bit integers (`R32G32B32A32_UINT`), for `usampler`/`uimage`.
    Rgba32ui,
    /// Four signed 32-bit integers (`R32G32B32A32_SINT`), for `isampler`/`iimage`.
    Rgba32i,
    /// One unsigned 32-bit integer (`R32_UINT`).
    R32ui,
    /// One signed 32-bit integer (`R32_SINT`).
    R32i,
}

impl TexelFormat {
    /// The name used in manifests and messages.
    pub fn name(self) -> &'static str {
        match self {
            TexelFormat::Rgba8 => "rgba8",
            TexelFormat::Rgba16f => "rgba16f",
            TexelFormat::Rgba32f => "rgba32f",
            TexelFormat::R32f => "r32f",
            TexelFormat::D32f => "d32f",
            TexelFormat::Rgba32ui => "rgba32ui",
            TexelFormat::Rgba32i => "rgba32i",
            TexelFormat::R32ui => "r32ui",
            TexelFormat::R32i => "r32i",
        }
    }

    /// Bytes per texel as stored.
    pub fn texel_bytes(self) -> usize {
        match self {
            TexelFormat::Rgba8
            | TexelFormat::R32f
            | TexelFormat::D32f
            | TexelFormat::R32ui
            | TexelFormat::R32i => 4,
            TexelFormat::Rgba16f => 8,
            TexelFormat::Rgba32f | TexelFormat::Rgba32ui | TexelFormat::Rgba32i => 16,
        }
    }

    /// True for the integer formats (nearest filtering only, by Vulkan's rules).
    pub fn is_integer(self) -> bool {
        matches!(
            self,
            TexelFormat::Rgba32ui | TexelFormat::Rgba32i | TexelFormat::R32ui | TexelFormat::R32i
        )
    }
}

/// Texture filtering within a level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Filter {
    /// Nearest texel.
    #[default]
    Nearest,
    /// Bilinear (trilinear in 3D).
    Linear,
}

impl Filter {
    /// The name used in manifests and messages.
    pub fn name(self) -> &'static str {
        match self {
            Filter::Nearest => "nearest",
            Filter::Linear => "linear",
        }
    }
}

/// Filtering between mip levels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MipMode {
    /// Level 0 only (the LOD is clamped to 0).
    #[default]
    None,
    /// Nearest level.
    Nearest,
    /// Blend of the two nearest levels.
    Linear,
}

impl MipMode {
    /// The name used in manifests and messages.
    pub fn name(self) -> &'static str {
        match self {
            MipMode::None => "none",
            MipMode::Nearest => "nearest",
            MipMode::Linear => "linear",
        }
    }
}

/// Addressing outside [0, 1].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Wrap {
    /// Repeat.
    #[default]
    Repeat,
    /// Clamp to the edge texel.
    Clamp,
    /// Mirrored repeat.
    Mirror,
}

impl Wrap {
    /// The name used in manifests and messages.
    pub fn name(self) -> &'static str {
        match self {
            Wrap::Repeat => "repeat",
            Wrap::Clamp => "clamp",
            Wrap::Mirror => "mirror",
        }
    }
}

/// The depth-comparison function of a shadow sampler (`ref OP texel`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CompareOp {
    /// `ref < texel`.
    Less,
    /// `ref <= texel`.
    LessEqual,
    /// `ref > texel`.
    Greater,
    /// `ref >= texel`.
    GreaterEqual,
    /// `ref == texel`.
    Equal,
    /// `ref != texel`.
    NotEqual,
    /// Always 1.
    Always,
    /// Always 0.
    Never,
}

/// A combined image sampler at `(set, binding)`, or with `storage = true` a storage image
/// (`image2D` and the like: one level, no sampler, read and written by the shader).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Texture {
    /// Descriptor set.
    pub set: u32,
    /// Binding within the set.
    pub binding: u32,
    /// Dimensionality.
    pub dim: TextureDim,
    /// Texel format.
    pub format: TexelFormat,
    /// Extent of level 0 (see [`TextureDim`] for the number of entries).
    pub size: Vec<u32>,
    /// Mip levels, each half the previous (rounded down, at least 1).
    #[serde(default = "one")]
    pub levels: u32,
    /// Texel data for all levels, layers and faces (order in [`Texture::layout`]).
    #[serde(default)]
    pub init: Init,
    /// Magnification and minification filter.
    #[serde(default)]
    pub filter: Filter,
    /// Mip filter.
    #[serde(default)]
    pub mip: MipMode,
    /// Addressing mode for every coordinate.
    #[serde(default)]
    pub wrap: Wrap,
    /// Depth comparison; present only for shadow samplers.
    #[serde(default)]
    pub compare: Option<CompareOp>,
    /// Bound as a storage image (descriptor `STORAGE_IMAGE`, layout `GENERAL`) instead of a
    /// combined image sampler; the sampler fields do not apply.
    #[serde(default)]
    pub storage: bool,
    /// A storage image whose texels are read back after the run and compared (file
    /// `image-s<set>-b<binding>.bin`).
    #[serde(default)]
    pub output: bool,
    /// Tolerance for the f32 texels of an output image (rgba32f, r32f); other formats are
    /// compared exactly.
    #[serde(default)]
    pub tolerance: Tolerance,
    /// How close compared f32 elements must be when the shader's `RelaxedPrecision` arithmetic
    /// is computed in f16 (`agxc::Options::relaxed_f16`); `None` means `tolerance`.
    #[serde(default)]
    pub relaxed_tolerance: Option<Tolerance>,
}

fn one() -> u32 {
    1
}

/// Where one mip level's texels sit in a texture's generated bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LevelLayout {
    /// Width in texels.
    pub width: u32,
    /// Height in texels (1 for 1D).
    pub height: u32,
    /// Depth for 3D, layer count for arrays, 6 for cubes, otherwise 1.
    pub depth_or_layers: u32,
    /// Byte offset of the level's first texel.
    pub offset: usize,
    /// Bytes in the level.
    pub bytes: usize,
}

impl Texture {
    /// Width, height and depth-or-layers of level 0.
    pub fn extent(&self) -> [u32; 3] {
        let at = |i: usize| self.size.get(i).copied().unwrap_or(1);
        match self.dim {
            TextureDim::D1 => [at(0), 1, 1],
            TextureDim::D2 => [at(0), at(1), 1],
            TextureDim::D2Array | TextureDim::D3 => [at(0), at(1), at(2)],
            TextureDim::Cube => [at(0), at(0), 6],
        }
    }

    /// Entries `size` must have for this dimensionality.
    pub fn size_entries(&self) -> usize {
        match self.dim {
            TextureDim::D1 => 1,
            TextureDim::D2 | TextureDim::Cube => 2,
            TextureDim::D2Array | TextureDim::D3 => 3,
        }
    }

    /// The levels in storage order. Within a level, texels go layer (or slice, or face) by layer,
    /// rows top to bottom, texels left to right, channels in RGBA order, tightly packed.
    pub fn layout(&self) -> Vec<LevelLayout> {
        let [w, h, d] = self.extent();
        let mut offset = 0;
        (0..self.levels)
            .map(|level| {
                let width = (w >> level).max(1);
                let height = (h >> level).max(1);
                let depth_or_layers = if self.dim == TextureDim::D3 {
                    (d >> level).max(1)
                } else {
                    d
                };
                let bytes = width as usize
                    * height as usize
                    * depth_or_layers as usize
                    * self.format.texel_bytes();
                let l = LevelLayout {
                    width,
                    height,
                    depth_or_layers,
                    offset,
                    bytes,
                };
                offset += bytes;
                l
            })
            .collect()
    }

    /// Bytes of texel data over all levels.
    pub fn total_bytes(&self) -> usize {
        self.layout().iter().map(|l| l.bytes).sum()
    }
}
