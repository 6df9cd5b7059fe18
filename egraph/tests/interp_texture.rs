//! Textures through the interpreter (explicit LOD, so in compute shaders): each format, nearest
//! and linear filtering, every wrap mode, const offsets, 1D/2D/3D and arrays, fetch, size and
//! level queries, and the errors. Expected texel values are worked out by hand from the
//! texture rules numbered in the `interp` module docs (cited per test).

mod interp_support;

use agxc_egraph::interp::{
    Filter, InterpError, Sampler, Texture, TextureDesc, TextureError, TextureFormat, Wrap,
};
use agxc_egraph::ir::{FetchOp, LodMode, SampleOp, TexDim, TexTarget};
use half::f16;
use interp_support::{run_fetch, run_sample, TEX};

fn target(dim: TexDim, arrayed: bool) -> TexTarget {
    TexTarget { dim, arrayed }
}

/// An explicit-LOD sample (operands: coords, [layer], lod).
fn explicit(dim: TexDim, arrayed: bool) -> SampleOp {
    SampleOp {
        texture: TEX,
        sampler: TEX,
        target: target(dim, arrayed),
        lod: LodMode::Explicit,
        proj: false,
        shadow: false,
        min_lod: false,
        offset: [0; 3],
    }
}

/// R32F texels from red values (G = B = 0, A = 1 on reading).
fn reds(values: &[f32]) -> Vec<[f32; 4]> {
    values.iter().map(|&r| [r, 0.0, 0.0, 1.0]).collect()
}

fn r32(desc: TextureDesc, values: &[f32]) -> Texture {
    Texture::from_texels(desc, &reds(values)).unwrap()
}

fn red(results: &[[f32; 4]]) -> Vec<f32> {
    results.iter().map(|t| t[0]).collect()
}

fn fetch2d() -> FetchOp {
    FetchOp {
        texture: TEX,
        target: target(TexDim::D2, false),
        offset: [0; 3],
    }
}

mod formats {
    use super::*;

    #[test]
    fn rgba8_unorm_divides_by_255() {
        let tex = Texture::new(
            TextureDesc::d2(TextureFormat::Rgba8Unorm, 1, 1),
            vec![0, 51, 255, 128],
        )
        .unwrap();
        let got = run_fetch(fetch2d(), tex, &[vec![0, 0, 0]]).unwrap();
        assert_eq!(got[0], [0.0, 51.0 / 255.0, 1.0, 128.0 / 255.0]);
    }

    #[test]
    fn rgba16_float_widens_exactly() {
        let halves = [1.5f32, -2.0, 2f32.powi(-14), 65504.0];
        let bytes = halves
            .iter()
            .flat_map(|&v| f16::from_f32(v).to_bits().to_le_bytes())
            .collect();
        let tex = Texture::new(TextureDesc::d2(TextureFormat::Rgba16Float, 1, 1), bytes).unwrap();
        assert_eq!(
            run_fetch(fetch2d(), tex, &[vec![0, 0, 0]]).unwrap()[0],
            halves
        );
    }

    #[test]
    fn rgba32_float_and_r32_float() {
        let texel = [0.1f32, -7.0, 1e30, f32::from_bits(1)];
        let bytes = texel.iter().flat_map(|v| v.to_le_bytes()).collect();
        let tex = Texture::new(TextureDesc::d2(TextureFormat::Rgba32Float, 1, 1), bytes).unwrap();
        assert_eq!(
            run_fetch(fetch2d(), tex, &[vec![0, 0, 0]]).unwrap()[0],
            texel
        );
        // R32F reads as (r, 0, 0, 1).
        let tex = Texture::new(
            TextureDesc::d2(TextureFormat::R32Float, 1, 1),
            0.75f32.to_le_bytes().to_vec(),
        )
        .unwrap();
        assert_eq!(
            run_fetch(fetch2d(), tex, &[vec![0, 0, 0]]).unwrap()[0],
            [0.75, 0.0, 0.0, 1.0]
        );
    }

    #[test]
    fn from_texels_encodes_per_format() {
        // 0.5 * 255 = 127.5 rounds to even (128); values outside [0, 1] clamp.
        let tex = Texture::from_texels(
            TextureDesc::d2(TextureFormat::Rgba8Unorm, 1, 1),
            &[[0.5, -1.0, 2.0, 0.2]],
        )
        .unwrap();
        assert_eq!(tex.data(), [128, 0, 255, 51]);
        let tex = Texture::from_texels(
            TextureDesc::d2(TextureFormat::Rgba16Float, 1, 1),
            &[[1.0, 0.0, -0.5, 65520.0]],
        )
        .unwrap();
        assert_eq!(tex.data(), [0x00, 0x3c, 0, 0, 0x00, 0xb8, 0x00, 0x7c]);
    }
}

mod filtering {
    use super::*;

    /// 2x2 texture, red = 0 1 / 2 3 (row-major, top row first).
    fn quad_texture() -> Texture {
        r32(
            TextureDesc::d2(TextureFormat::R32Float, 2, 2),
            &[0.0, 1.0, 2.0, 3.0],
        )
    }

    #[test]
    fn nearest_reads_the_texel_containing_the_point() {
        // Rule 6: i = floor(s * width).
        let got = run_sample(
            explicit(TexDim::D2, false),
            quad_texture(),
            Sampler::nearest(),
            &[
                vec![0.25, 0.25, 0.0],
                vec![0.75, 0.25, 0.0],
                vec![0.25, 0.75, 0.0],
                vec![0.5, 0.5, 0.0],
                vec![0.999, 0.999, 0.0],
            ],
        )
        .unwrap();
        assert_eq!(red(&got), [0.0, 1.0, 2.0, 3.0, 3.0]);
        assert_eq!(got[0], [0.0, 0.0, 0.0, 1.0]);
    }

    #[test]
    fn linear_blends_with_weights_from_u_minus_half() {
        // Rule 6: at (0.375, 0.5): u - 0.5 = 0.25 (alpha), v - 0.5 = 0.5 (beta), so
        // lerp(lerp(0, 1, 0.25), lerp(2, 3, 0.25), 0.5) = lerp(0.25, 2.25, 0.5) = 1.25.
        // At (0.25, 0.25) the point is a texel centre: exactly texel (0, 0).
        // At (0.5, 0.5) all four weigh 1/4: 1.5.
        let sampler = Sampler::linear().with_wrap(Wrap::ClampToEdge);
        let got = run_sample(
            explicit(TexDim::D2, false),
            quad_texture(),
            sampler,
            &[
                vec![0.375, 0.5, 0.0],
                vec![0.25, 0.25, 0.0],
                vec![0.5, 0.5, 0.0],
            ],
        )
        .unwrap();
        assert_eq!(red(&got), [1.25, 0.0, 1.5]);
        // Alpha is 1 everywhere, and so is its blend.
        assert_eq!(got[0][3], 1.0);
    }

    #[test]
    fn magnification_and_minification_filters_follow_the_lod() {
        // Rule 4: lambda <= 0 uses the mag filter (nearest here), lambda > 0 the min filter
        // (linear): at the centre that is texel (1, 1) = 3 versus the average 1.5.
        let sampler = Sampler {
            mag_filter: Filter::Nearest,
            min_filter: Filter::Linear,
            ..Sampler::default()
        };
        let got = run_sample(
            explicit(TexDim::D2, false),
            quad_texture(),
            sampler,
            &[vec![0.5, 0.5, 0.0], vec![0.5, 0.5, 1.0]],
        )
        .unwrap();
        assert_eq!(red(&got), [3.0, 1.5]);
    }

    #[test]
    fn three_dimensional() {
        // 2x2x2, red = x + 2y + 4z. Nearest at (0.75, 0.25, 0.75) is texel (1, 0, 1) = 5;
        // linear at the centre averages all eight: 3.5.
        let values: Vec<f32> = (0..8).map(|i| i as f32).collect();
        let tex = || r32(TextureDesc::d3(TextureFormat::R32Float, 2, 2, 2), &values);
        let got = run_sample(
            explicit(TexDim::D3, false),
            tex(),
            Sampler::nearest(),
            &[vec![0.75, 0.25, 0.75, 0.0]],
        )
        .unwrap();
        assert_eq!(red(&got), [5.0]);
        let got = run_sample(
            explicit(TexDim::D3, false),
            tex(),
            Sampler::linear(),
            &[vec![0.5, 0.5, 0.5, 0.0]],
        )
        .unwrap();
        assert_eq!(red(&got), [3.5]);
    }
}

mod wrapping {
    use super::*;

    /// 1D, 4 texels: 10 20 30 40.
    fn line() -> Texture {
        r32(
            TextureDesc::d1(TextureFormat::R32Float, 4),
            &[10.0, 20.0, 30.0, 40.0],
        )
    }

    fn nearest_at(wrap: Wrap, s: &[f32]) -> Vec<[f32; 4]> {
        let lanes: Vec<Vec<f32>> = s.iter().map(|&s| vec![s, 0.0]).collect();
        run_sample(
            explicit(TexDim::D1, false),
            line(),
            Sampler::nearest().with_wrap(wrap),
            &lanes,
        )
        .unwrap()
    }

    // Rule 7, with texel coordinates floor(s * 4): -0.125 -> -1, 1.125 -> 4, 1.375 -> 5.
    const S: [f32; 4] = [-0.125, 1.125, 1.375, 0.6];

    #[test]
    fn repeat() {
        assert_eq!(red(&nearest_at(Wrap::Repeat, &S)), [40.0, 10.0, 20.0, 30.0]);
    }

    #[test]
    fn clamp_to_edge() {
        assert_eq!(
            red(&nearest_at(Wrap::ClampToEdge, &S)),
            [10.0, 40.0, 40.0, 30.0]
        );
    }

    #[test]
    fn mirrored_repeat() {
        // -1 mirrors to 0, 4 to 3, 5 to 2.
        assert_eq!(
            red(&nearest_at(Wrap::MirroredRepeat, &S)),
            [10.0, 40.0, 30.0, 30.0]
        );
    }

    #[test]
    fn clamp_to_border_reads_transparent_black() {
        let got = nearest_at(Wrap::ClampToBorder, &S);
        assert_eq!(got[0], [0.0; 4]);
        assert_eq!(got[1], [0.0; 4]);
        assert_eq!(got[3], [30.0, 0.0, 0.0, 1.0]);
    }

    #[test]
    fn linear_wraps_both_neighbours() {
        // At s = 0: u - 0.5 = -0.5, i0 = -1, alpha = 0.5. Repeat: lerp(40, 10) = 25; clamp:
        // lerp(10, 10) = 10; border: lerp(border 0, 10) = 5 and alpha lerp(0, 1) = 0.5.
        let run = |wrap| {
            run_sample(
                explicit(TexDim::D1, false),
                line(),
                Sampler::linear().with_wrap(wrap),
                &[vec![0.0, 0.0]],
            )
            .unwrap()[0]
        };
        assert_eq!(run(Wrap::Repeat)[0], 25.0);
        assert_eq!(run(Wrap::ClampToEdge)[0], 10.0);
        assert_eq!(run(Wrap::ClampToBorder), [5.0, 0.0, 0.0, 0.5]);
    }

    #[test]
    fn const_offsets_move_texel_coordinates_before_wrapping() {
        let mut op = explicit(TexDim::D1, false);
        op.offset = [2, 0, 0];
        let got = run_sample(
            op,
            line(),
            Sampler::nearest(),
            &[vec![0.125, 0.0], vec![0.875, 0.0]],
        )
        .unwrap();
        // Texel 0 + 2 = 2 (30); texel 3 + 2 = 5, repeat -> 1 (20).
        assert_eq!(red(&got), [30.0, 20.0]);
        op.offset = [-1, 0, 0];
        let got = run_sample(
            op,
            line(),
            Sampler::nearest().with_wrap(Wrap::ClampToEdge),
            &[vec![0.125, 0.0]],
        )
        .unwrap();
        assert_eq!(red(&got), [10.0]);
    }
    #[test]
    fn absurd_coordinates_still_address_a_texel() {
        // Texel coordinates saturate: 1e30 * 4 floors to i64::MAX, which is 3 mod 4 (40);
        // -inf to i64::MIN, 0 mod 4 (10); NaN converts to 0 (10). An offset on top saturates
        // too. Linear filtering of an infinite coordinate has a NaN weight (inf - inf).
        let mut op = explicit(TexDim::D1, false);
        let lanes = [1e30, f32::NEG_INFINITY, f32::NAN].map(|s| vec![s, 0.0]);
        let got = run_sample(op, line(), Sampler::nearest(), &lanes).unwrap();
        assert_eq!(red(&got), [40.0, 10.0, 10.0]);
        op.offset = [1, 0, 0];
        let got = run_sample(op, line(), Sampler::nearest(), &lanes[..1]).unwrap();
        assert_eq!(red(&got), [40.0]);
        let got = run_sample(op, line(), Sampler::linear(), &[vec![f32::INFINITY, 0.0]]).unwrap();
        assert!(got[0][0].is_nan());
    }
}

mod arrays {
    use super::*;

    #[test]
    fn layer_is_rounded_half_even_and_clamped() {
        // Rule 8. 1x1 layers with red 0, 10, 20.
        let tex = r32(
            TextureDesc::d2(TextureFormat::R32Float, 1, 1).with_layers(3),
            &[0.0, 10.0, 20.0],
        );
        let lanes: Vec<Vec<f32>> = [1.5f32, 0.5, 2.5, -3.0, 7.0, 1.2]
            .iter()
            .map(|&l| vec![0.5, 0.5, l, 0.0])
            .collect();
        let got = run_sample(explicit(TexDim::D2, true), tex, Sampler::linear(), &lanes).unwrap();
        assert_eq!(red(&got), [20.0, 0.0, 20.0, 0.0, 20.0, 10.0]);
    }

    #[test]
    fn one_dimensional_arrays() {
        // 2 texels x 2 layers: layer 0 = 1 2, layer 1 = 3 4.
        let tex = r32(
            TextureDesc::d1(TextureFormat::R32Float, 2).with_layers(2),
            &[1.0, 2.0, 3.0, 4.0],
        );
        let got = run_sample(
            explicit(TexDim::D1, true),
            tex,
            Sampler::nearest(),
            &[vec![0.75, 1.0, 0.0], vec![0.25, 0.0, 0.0]],
        )
        .unwrap();
        assert_eq!(red(&got), [4.0, 1.0]);
    }
}

mod fetch_and_queries {
    use super::*;
    use agxc_egraph::interp::{run_compute, Limits, Resources};
    use agxc_egraph::ir::{parse_function, OpRegistry};

    /// 4x2 texture with 2 levels: level 0 red = 0..8, level 1 (2x1) red = 100, 101.
    fn mipped() -> Texture {
        r32(
            TextureDesc::d2(TextureFormat::R32Float, 4, 2).with_levels(2),
            &[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 100.0, 101.0],
        )
    }

    #[test]
    fn fetch_reads_exact_texels_and_zero_outside() {
        // Rule 10: no filtering, no wrapping; out of range (coordinate, level) reads zeros.
        let got = run_fetch(
            fetch2d(),
            mipped(),
            &[
                vec![3, 1, 0],
                vec![1, 0, 1],
                vec![4, 0, 0],
                vec![-1, 0, 0],
                vec![0, 2, 0],
                vec![2, 0, 1],
                vec![0, 0, 2],
                vec![0, 0, -1],
            ],
        )
        .unwrap();
        assert_eq!(got[0], [7.0, 0.0, 0.0, 1.0]);
        assert_eq!(got[1], [101.0, 0.0, 0.0, 1.0]);
        for t in &got[2..] {
            assert_eq!(*t, [0.0; 4]);
        }
    }

    #[test]
    fn fetch_layers_and_offsets() {
        let tex = r32(
            TextureDesc::d2(TextureFormat::R32Float, 2, 1).with_layers(2),
            &[1.0, 2.0, 3.0, 4.0],
        );
        let op = FetchOp {
            texture: TEX,
            target: target(TexDim::D2, true),
            offset: [1, 0, 0],
        };
        // (0 + 1, 0) of layer 1 = 4; (1 + 1) is outside; layer 2 does not exist.
        let got = run_fetch(
            op,
            tex,
            &[vec![0, 0, 1, 0], vec![1, 0, 0, 0], vec![0, 0, 2, 0]],
        )
        .unwrap();
        assert_eq!(red(&got), [4.0, 0.0, 0.0]);
    }

    const QUERIES: &str = "
function @queries compute local_size(4, 1, 1) {
block0:
    v0:i32 = builtin local_index
    v1:i32, v2:i32, v3:i32 = tex_size 2d_array tex(1, 0) v0
    v4:i32 = tex_levels tex(1, 0)
    v5:i32 = const 16
    v6:i32 = imul v0, v5
    store storage(0, 0) [v6], v1, v2, v3, v4
    return
}
";

    #[test]
    fn size_and_level_queries() {
        // Rule 11: level l is max(1, extent >> l); layers do not shrink; levels outside the
        // chain report zeros.
        let func = parse_function(QUERIES, &OpRegistry::new()).unwrap();
        let tex = Texture::from_texels(
            TextureDesc::d2(TextureFormat::Rgba8Unorm, 8, 2)
                .with_layers(3)
                .with_full_mip_chain(),
            &vec![[0.0; 4]; (16 + 4 + 2 + 1) * 3],
        )
        .unwrap();
        let mut res = Resources::new();
        res.bind_texture(TEX, tex)
            .bind_storage(agxc_egraph::ir::Binding::new(0, 0), vec![0; 64]);
        run_compute(&func, &mut res, [1, 1, 1], &Limits::default()).unwrap();
        assert_eq!(
            interp_support::i32s(&res, 0),
            [8, 2, 3, 4, 4, 1, 3, 4, 2, 1, 3, 4, 1, 1, 3, 4]
        );
    }
}

mod errors {
    use super::*;

    #[test]
    fn texture_constructors_validate() {
        let d = TextureDesc::d2(TextureFormat::Rgba8Unorm, 4, 4);
        assert!(matches!(
            Texture::new(d, vec![0; 63]),
            Err(TextureError::DataSize {
                expected: 64,
                got: 63,
                ..
            })
        ));
        assert!(matches!(
            Texture::new(d.with_levels(4), vec![0; 64 + 16 + 4 + 4]),
            Err(TextureError::TooManyLevels { levels: 4, max: 3 })
        ));
        // The full chain of 4x4 RGBA8 is 16 + 4 + 1 texels.
        assert!(Texture::new(d.with_full_mip_chain(), vec![0; 84]).is_ok());
        let not_square = TextureDesc {
            height: 2,
            ..TextureDesc::cube(TextureFormat::R32Float, 4)
        };
        assert!(matches!(
            Texture::new(not_square, vec![]),
            Err(TextureError::Shape(_))
        ));
        let layered_3d = TextureDesc::d3(TextureFormat::R32Float, 1, 1, 1).with_layers(2);
        assert!(matches!(
            Texture::new(layered_3d, vec![0; 8]),
            Err(TextureError::Shape(_))
        ));
        assert!(matches!(
            Texture::new(TextureDesc::d2(TextureFormat::R32Float, 0, 1), vec![]),
            Err(TextureError::Shape(_))
        ));
        // Cube maps hold 6 faces per layer.
        assert!(Texture::new(TextureDesc::cube(TextureFormat::R32Float, 2), vec![0; 96]).is_ok());
        // 6 faces times this many layers overflows 32 bits: an error, not an overflow.
        let huge_array =
            TextureDesc::cube(TextureFormat::R32Float, 1).with_layers(u32::MAX / 6 + 1);
        assert_eq!(
            Texture::new(huge_array, vec![]),
            Err(TextureError::TooLarge)
        );
        assert_eq!(huge_array.slices(), u32::MAX);
        assert!(Texture::from_texels(d, &[[0.0; 4]; 15]).is_err());
    }

    #[test]
    fn binding_and_target_mismatches() {
        let tex = || r32(TextureDesc::d2(TextureFormat::R32Float, 1, 1), &[1.0]);
        let err = run_sample(
            explicit(TexDim::D3, false),
            tex(),
            Sampler::nearest(),
            &[vec![0.0, 0.0, 0.0, 0.0]],
        )
        .unwrap_err();
        assert!(matches!(err, InterpError::TextureTarget { .. }), "{err}");
        let mut shadow = explicit(TexDim::D2, false);
        shadow.shadow = true;
        let err = run_sample(
            shadow,
            tex(),
            Sampler::nearest(),
            &[vec![0.0, 0.0, 0.5, 0.0]],
        )
        .unwrap_err();
        assert!(matches!(err, InterpError::SamplerMismatch { .. }), "{err}");
        let mut missing = explicit(TexDim::D2, false);
        missing.texture = agxc_egraph::ir::Binding::new(5, 5);
        let err =
            run_sample(missing, tex(), Sampler::nearest(), &[vec![0.0, 0.0, 0.0]]).unwrap_err();
        // builtin, const, imul, load, then the sample: inst4.
        assert_eq!(err.to_string(), "inst4: no texture bound at (5, 5)");
    }
}
