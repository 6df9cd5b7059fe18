//! The texture random programs sample (see the module docs' layout), and the resources a
//! reference run needs.

use super::{InputBuffer, INPUT, OUTPUT};
use crate::interp::{
    Filter, MipFilter, Resources, Sampler, Texture, TextureDesc, TextureFormat, Wrap,
};
use crate::ir::effects::Binding;

/// The texture's binding (a combined image-sampler).
pub const TEXTURE: Binding = Binding { set: 0, binding: 2 };
/// Width and height of level 0.
pub const TEXTURE_SIZE: u32 = 8;
/// Mip levels (the full chain down to 1x1).
pub const TEXTURE_LEVELS: u32 = 4;

/// Component `c` of texel `(x, y)` at `level`: `((5x + 3y + 7 level + 2c) mod 16) / 8 - 0.75`.
/// Neighbouring texels differ, so filtering weights show in the result, and every value is an
/// exact binary fraction.
pub fn texel(level: u32, x: u32, y: u32, c: u32) -> f32 {
    let k = (5 * x + 3 * y + 7 * level + 2 * c) % 16;
    k as f32 / 8.0 - 0.75
}

/// The texture: 2D RGBA32F, [`TEXTURE_SIZE`] square, [`TEXTURE_LEVELS`] levels of [`texel`]s.
pub fn texture() -> Texture {
    let desc = TextureDesc::d2(TextureFormat::Rgba32Float, TEXTURE_SIZE, TEXTURE_SIZE)
        .with_levels(TEXTURE_LEVELS);
    let mut texels = Vec::new();
    for level in 0..TEXTURE_LEVELS {
        let [w, h, _] = desc.level_extent(level);
        for y in 0..h {
            for x in 0..w {
                texels.push(core::array::from_fn(|c| texel(level, x, y, c as u32)));
            }
        }
    }
    Texture::from_texels(desc, &texels)
        .unwrap_or_else(|e| unreachable!("the documented texture is well formed: {e}"))
}

/// The sampler: linear filtering and mipmapping, repeat on u, mirrored repeat on v, no bias,
/// the default LOD clamp.
pub fn sampler() -> Sampler {
    Sampler {
        mag_filter: Filter::Linear,
        min_filter: Filter::Linear,
        mip_filter: MipFilter::Linear,
        wrap: [Wrap::Repeat, Wrap::MirroredRepeat, Wrap::Repeat],
        ..Sampler::default()
    }
}

/// The resources of a reference run of `invocations` invocations: the input buffer, a zeroed
/// output buffer of `invocations * INVOCATION_BYTES` bytes, and the texture (bound whether or
/// not the program samples it).
pub fn bind_resources(input: &InputBuffer, invocations: u32) -> Resources {
    let mut res = Resources::new();
    res.bind_storage(INPUT, input.bytes().to_vec());
    res.bind_uniform(super::UNIFORM, input.bytes().to_vec());
    res.bind_storage(
        OUTPUT,
        vec![0; (invocations * super::INVOCATION_BYTES) as usize],
    );
    res.bind_combined(TEXTURE, texture(), sampler());
    res
}
