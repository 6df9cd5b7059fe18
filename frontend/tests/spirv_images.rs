//! Storage images and integer textures lifted from SPIR-V and run in the reference
//! interpreter (`tests/data/images.comp`, built with `glslangValidator -V --target-env
//! vulkan1.1 images.comp -o images.spv`). Expected values are worked out by hand from the
//! GLSL.

use agxc_egraph::interp::{
    bytes_u32, run_compute, Limits, Resources, Sampler, Texture, TextureDesc, TextureFormat,
};
use agxc_egraph::ir::{Binding, EffectOp, Function, ImageFormat, Op};
use agxc_frontend::spirv::{lift, LiftOptions};

fn lift_images() -> Function {
    let path = format!("{}/tests/data/images.spv", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    lift(&bytes, &LiftOptions::default()).unwrap_or_else(|e| panic!("images: {e}"))
}

fn binding(b: u32) -> Binding {
    Binding::new(0, b)
}

fn words(format: TextureFormat, texels: &[[u32; 4]]) -> Texture {
    Texture::from_words(TextureDesc::d2(format, 4, 2), texels).unwrap()
}

fn f32_texels(tex: &Texture) -> Vec<[f32; 4]> {
    bytes_u32(tex.data())
        .chunks_exact(4)
        .map(|c| core::array::from_fn(|i| f32::from_bits(c[i])))
        .collect()
}

#[test]
fn image_formats_come_from_the_declarations() {
    let func = lift_images();
    let mut formats = Vec::new();
    func.for_each_inst(|_, inst| {
        if let Op::Effect(EffectOp::ImageLoad(op) | EffectOp::ImageStore(op)) = func.insts[inst].op
        {
            formats.push((op.image.binding, op.format));
        }
    });
    formats.sort();
    formats.dedup();
    assert_eq!(
        formats,
        vec![
            (0, ImageFormat::Rgba32f),
            (1, ImageFormat::Rgba32f),
            (2, ImageFormat::R32ui),
            (6, ImageFormat::Unknown),
        ]
    );
}

#[test]
fn storage_images_and_integer_textures_run() {
    let func = lift_images();
    let index = |i: u32| [i as f32, i as f32 + 0.5, -(i as f32), 1.0].map(f32::to_bits);
    let mut res = Resources::new();
    res.bind_texture(
        binding(0),
        words(
            TextureFormat::Rgba32Float,
            &(0..8).map(index).collect::<Vec<_>>(),
        ),
    )
    .bind_texture(binding(1), words(TextureFormat::Rgba32Float, &[[0; 4]; 8]))
    .bind_texture(
        binding(2),
        words(
            TextureFormat::R32Uint,
            &(0..8).map(|i| [10 * i, 0, 0, 1]).collect::<Vec<_>>(),
        ),
    )
    .bind_combined(
        binding(3),
        words(
            TextureFormat::Rgba32Uint,
            &(0..8).map(|i| [i + 1, 100 + i, 0, 0]).collect::<Vec<_>>(),
        ),
        Sampler::nearest(),
    )
    .bind_combined(
        binding(4),
        words(
            TextureFormat::R32Sint,
            &(0..8u32)
                .map(|i| [i.wrapping_neg(), 0, 0, 1])
                .collect::<Vec<_>>(),
        ),
        Sampler::nearest(),
    )
    .bind_storage(binding(5), vec![0; 48])
    .bind_texture(
        binding(6),
        Texture::new(
            TextureDesc::d2(TextureFormat::Rgba8Unorm, 4, 2),
            vec![0; 32],
        )
        .unwrap(),
    );
    run_compute(&func, &mut res, [1, 1, 1], &Limits::default()).unwrap();

    // dst = 2 * src(x, y) + src(x + 1, y); src(4, y) is outside: zeros.
    let dst: Vec<[f32; 4]> = (0..8)
        .map(|i| {
            let v = i as f32;
            if i % 4 == 3 {
                [2.0 * v, 2.0 * v + 1.0, -2.0 * v, 2.0]
            } else {
                [3.0 * v + 1.0, 3.0 * v + 2.5, -3.0 * v - 1.0, 3.0]
            }
        })
        .collect();
    assert_eq!(f32_texels(res.texture(binding(1)).unwrap()), dst);
    // counts = 10 i + (i + 1).
    let counts: Vec<u8> = (0..8u32).flat_map(|i| (11 * i + 1).to_le_bytes()).collect();
    assert_eq!(res.texture(binding(2)).unwrap().data(), &counts[..]);
    // sizes = (4, 2, 4, 2); fetched = (100 + i) + (-i) = 100.
    let out = bytes_u32(res.buffer_data(binding(5)).unwrap());
    assert_eq!(out[..4], [4, 2, 4, 2]);
    assert_eq!(out[4..], [100; 8]);
    // anyfmt (rgba8): red 0.25 x * 255 rounded to nearest even: 0, 63.75 -> 64, 127.5 -> 128,
    // 191.25 -> 191; green 255, blue 0, alpha 0.5 * 255 = 127.5 -> 128.
    let reds = [0u8, 64, 128, 191];
    let anyfmt: Vec<u8> = (0..8).flat_map(|i| [reds[i % 4], 255, 0, 128]).collect();
    assert_eq!(res.texture(binding(6)).unwrap().data(), &anyfmt[..]);
}
