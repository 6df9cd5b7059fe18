//! Texture gathers lifted from SPIR-V (`tests/data/gather.comp`, built with
//! `glslangValidator -V --target-env vulkan1.1 gather.comp -o gather.spv`) and run in the
//! reference interpreter. Expected texels are worked out by hand from the footprint rule
//! (the interpreter's texture rule 12): at (0.5, 0.5) on a 4x4 texture `u = v = 1.5`, so
//! i0 = j0 = 1, i1 = j1 = 2, and the results are texels (i0, j1), (i1, j1), (i1, j0), (i0, j0).

use agxc_egraph::interp::{
    bytes_f32, f32_bytes, run_compute, CompareOp, Limits, Resources, Sampler, Texture, TextureDesc,
    TextureFormat, Wrap,
};
use agxc_egraph::ir::Binding;
use agxc_frontend::spirv::{lift, LiftOptions};

fn lift_gather() -> agxc_egraph::ir::Function {
    let path = format!("{}/tests/data/gather.spv", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    lift(&bytes, &LiftOptions::default()).unwrap_or_else(|e| panic!("gather: {e}"))
}

#[test]
fn gathers_match_hand_worked_texels() {
    let func = lift_gather();
    // 4x4 RGBA32F: component c of texel (x, y) is 16 c + x + 4 y.
    let texels: Vec<[f32; 4]> = (0..16)
        .map(|k| core::array::from_fn(|c| (16 * c + k) as f32))
        .collect();
    let tex =
        Texture::from_texels(TextureDesc::d2(TextureFormat::Rgba32Float, 4, 4), &texels).unwrap();
    // 2x2 R32F depths 0.1, 0.2 / 0.3, 0.4.
    let depths: Vec<[f32; 4]> = [0.1, 0.2, 0.3, 0.4]
        .iter()
        .map(|&d| [d, 0.0, 0.0, 1.0])
        .collect();
    let depth =
        Texture::from_texels(TextureDesc::d2(TextureFormat::R32Float, 2, 2), &depths).unwrap();
    let mut res = Resources::new();
    res.bind_combined(
        Binding::new(0, 0),
        tex,
        Sampler::nearest().with_wrap(Wrap::Repeat),
    )
    .bind_combined(
        Binding::new(0, 1),
        depth,
        Sampler::linear().with_compare(CompareOp::Less),
    )
    .bind_storage(Binding::new(0, 2), f32_bytes(&[0.5, 0.5]))
    .bind_storage(Binding::new(0, 3), vec![0; 5 * 16]);
    run_compute(&func, &mut res, [1, 1, 1], &Limits::default()).unwrap();
    let out = bytes_f32(res.buffer_data(Binding::new(0, 3)).unwrap());
    let want: [[f32; 4]; 5] = [
        // textureGather(tex, uv): red of (1, 2), (2, 2), (2, 1), (1, 1).
        [9.0, 10.0, 6.0, 5.0],
        // Component 2 adds 32.
        [41.0, 42.0, 38.0, 37.0],
        // Offset (1, -1), green: texels (2, 1), (3, 1), (3, 0), (2, 0), plus 16.
        [22.0, 23.0, 19.0, 18.0],
        // Offsets (0, 0), (1, 0), (0, 1), (-1, -1): the (i0, j0) texel of each footprint,
        // (1, 1), (2, 1), (1, 2), (0, 0).
        [5.0, 6.0, 9.0, 0.0],
        // Depth 2x2 at (0.5, 0.5): i0 = j0 = 0; depths 0.3, 0.4, 0.2, 0.1; 0.25 < d.
        [1.0, 1.0, 0.0, 0.0],
    ];
    for (i, w) in want.iter().enumerate() {
        assert_eq!(out[4 * i..4 * i + 4], w[..], "r[{i}]");
    }
}

#[test]
fn gathers_lift_to_gather_samples() {
    let text = lift_gather().to_string();
    for word in ["gather_x", "gather_y", "gather_z", "gather_x shadow"] {
        assert!(text.contains(word), "no `{word}` in\n{text}");
    }
    assert!(text.contains("gather_y offset(1, -1, 0)"), "{text}");
    assert!(text.contains("gather_x offset(-1, -1, 0)"), "{text}");
}
