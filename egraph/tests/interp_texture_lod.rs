//! Level of detail and the rest of sampling through the interpreter: mip level choice
//! (none, nearest, linear) from explicit LODs and gradients, sampler bias and clamps, the
//! minimum-LOD operand, cube maps (faces, positions, arrays, gradients through the quotient
//! rule), shadow comparisons and projection. Expected values by hand from the texture rules
//! numbered in the `interp` module docs.

mod interp_support;

use agxc_egraph::interp::{
    CompareOp, Filter, MipFilter, Sampler, Texture, TextureDesc, TextureFormat, Wrap,
};
use agxc_egraph::ir::{LodMode, SampleOp, TexDim, TexTarget};
use interp_support::{run_sample, TEX};

fn op(dim: TexDim, arrayed: bool, lod: LodMode) -> SampleOp {
    SampleOp {
        texture: TEX,
        sampler: TEX,
        target: TexTarget { dim, arrayed },
        lod,
        proj: false,
        shadow: false,
        min_lod: false,
        offset: [0; 3],
    }
}

fn red(results: &[[f32; 4]]) -> Vec<f32> {
    results.iter().map(|t| t[0]).collect()
}

/// 4x4 R32F with 3 levels; every texel of level l has red 10 * l.
fn levels() -> Texture {
    let mut texels = Vec::new();
    for (l, n) in [(0, 16), (1, 4), (2, 1)] {
        texels.extend(std::iter::repeat_n([10.0 * l as f32, 0.0, 0.0, 1.0], n));
    }
    Texture::from_texels(
        TextureDesc::d2(TextureFormat::R32Float, 4, 4).with_full_mip_chain(),
        &texels,
    )
    .unwrap()
}

fn at_lods(sampler: Sampler, lods: &[f32]) -> Vec<f32> {
    let lanes: Vec<Vec<f32>> = lods.iter().map(|&l| vec![0.5, 0.5, l]).collect();
    red(&run_sample(
        op(TexDim::D2, false, LodMode::Explicit),
        levels(),
        sampler,
        &lanes,
    )
    .unwrap())
}

mod mip_levels {
    use super::*;

    #[test]
    fn mip_none_reads_level_zero() {
        let s = Sampler::linear().with_mip(MipFilter::None);
        assert_eq!(at_lods(s, &[0.0, 1.0, 5.0]), [0.0, 0.0, 0.0]);
    }

    #[test]
    fn mip_nearest_rounds_the_lod() {
        // Rule 5: d = 0 if lambda <= 0.5, else ceil(lambda + 0.5) - 1, at most q = 2.
        let s = Sampler::nearest().with_mip(MipFilter::Nearest);
        assert_eq!(
            at_lods(s, &[-3.0, 0.5, 0.6, 1.5, 1.6, 7.0]),
            [0.0, 0.0, 10.0, 10.0, 20.0, 20.0]
        );
    }

    #[test]
    fn mip_linear_blends_two_levels() {
        // Rule 5: lerp(level floor(lambda), the next, frac(lambda)), clamped at q.
        let s = Sampler::nearest().with_mip(MipFilter::Linear);
        assert_eq!(
            at_lods(s, &[-1.0, 0.25, 1.5, 2.5, 1.0]),
            [0.0, 2.5, 15.0, 20.0, 10.0]
        );
    }

    #[test]
    fn sampler_bias_and_clamps() {
        // Rule 3: lambda = clamp(lod + sampler bias + shader bias, max(min_lod, operand),
        // max_lod).
        let base = Sampler::nearest().with_mip(MipFilter::Linear);
        let biased = Sampler {
            lod_bias: 1.0,
            ..base
        };
        assert_eq!(at_lods(biased, &[0.25]), [12.5]);
        let clamped = Sampler {
            min_lod: 1.0,
            max_lod: 1.5,
            ..base
        };
        assert_eq!(at_lods(clamped, &[0.0, 1.25, 9.0]), [10.0, 12.5, 15.0]);
    }

    #[test]
    fn min_lod_operand() {
        let mut o = op(TexDim::D2, false, LodMode::Explicit);
        o.min_lod = true;
        let s = Sampler::nearest().with_mip(MipFilter::Linear);
        // Operands: s, t, lod, min_lod.
        let got = run_sample(
            o,
            levels(),
            s,
            &[vec![0.5, 0.5, 0.0, 2.0], vec![0.5, 0.5, 1.5, 1.0]],
        )
        .unwrap();
        assert_eq!(red(&got), [20.0, 15.0]);
    }

    #[test]
    fn gradients_give_the_lod() {
        // Texel-space derivatives are ds * 4: dx = (0.5, 0) -> rho 2 -> lambda 1;
        // dx = (0.25, 0), dy = (0, 0.25) -> rho 1 -> lambda 0; dx = (1, 0) -> lambda 2;
        // dy = (0, 0.75) -> rho 3 -> lambda log2(3) = 1.58 -> nearest level 2;
        // dx = (0.3, 0.4) -> rho = 4 * 0.5 = 2 -> lambda 1.
        let s = Sampler::nearest().with_mip(MipFilter::Nearest);
        let g = |dx: [f32; 2], dy: [f32; 2]| vec![0.5, 0.5, dx[0], dx[1], dy[0], dy[1]];
        let got = run_sample(
            op(TexDim::D2, false, LodMode::Grad),
            levels(),
            s,
            &[
                g([0.5, 0.0], [0.0, 0.0]),
                g([0.25, 0.0], [0.0, 0.25]),
                g([1.0, 0.0], [0.0, 0.0]),
                g([0.125, 0.0], [0.0, 0.75]),
                g([0.3, 0.4], [0.0, 0.0]),
            ],
        )
        .unwrap();
        assert_eq!(red(&got), [10.0, 0.0, 20.0, 20.0, 10.0]);
    }

    #[test]
    fn each_level_is_filtered_at_its_own_size() {
        // Level 1 of a 4x1 1D texture is 2x1: red 0 1 2 3 at level 0, 10 20 at level 1. At
        // s = 0.5, level 1 linear: u = 1, u - 0.5 = 0.5: lerp(10, 20, 0.5) = 15.
        let tex = Texture::from_texels(
            TextureDesc::d1(TextureFormat::R32Float, 4).with_levels(2),
            &[0.0, 1.0, 2.0, 3.0, 10.0, 20.0].map(|r| [r, 0.0, 0.0, 1.0]),
        )
        .unwrap();
        let s = Sampler::linear()
            .with_mip(MipFilter::Nearest)
            .with_wrap(Wrap::ClampToEdge);
        let got = run_sample(
            op(TexDim::D1, false, LodMode::Explicit),
            tex,
            s,
            &[vec![0.5, 1.0]],
        )
        .unwrap();
        assert_eq!(red(&got), [15.0]);
    }
}

mod cube {
    use super::*;

    /// 2x2 faces; face f's texel (x, y) has red 10 * f + 2 * y + x.
    fn cube(layers: u32) -> Texture {
        let mut texels = Vec::new();
        for layer in 0..layers {
            for face in 0..6 {
                for t in 0..4 {
                    texels.push([(100 * layer + 10 * face + t) as f32, 0.0, 0.0, 1.0]);
                }
            }
        }
        let desc = TextureDesc::cube(TextureFormat::R32Float, 2);
        let desc = if layers > 1 {
            desc.with_layers(layers)
        } else {
            desc
        };
        Texture::from_texels(desc, &texels).unwrap()
    }

    #[test]
    fn faces_and_positions_follow_the_table() {
        // Rule 1. Each direction's (face, s, t), texel = (floor(2s), floor(2t)):
        //  (1, -0.5, 0.5):  +X, sc = -rz = -0.5, tc = -ry = 0.5, ma = 1 -> (0.25, 0.75) -> (0, 1)
        //  (-1, 0.5, 0.5):  -X, sc = rz = 0.5, tc = -ry = -0.5 -> (0.75, 0.25) -> (1, 0)
        //  (0.5, 1, 0.5):   +Y, sc = rx, tc = rz -> (0.75, 0.75) -> (1, 1)
        //  (0.5, -1, 0.5):  -Y, sc = rx, tc = -rz -> (0.75, 0.25) -> (1, 0)
        //  (-0.5, 0.5, 1):  +Z, sc = rx, tc = -ry -> (0.25, 0.25) -> (0, 0)
        //  (-0.5, 0.5, -1): -Z, sc = -rx, tc = -ry -> (0.75, 0.25) -> (1, 0)
        let dirs = [
            [1.0, -0.5, 0.5],
            [-1.0, 0.5, 0.5],
            [0.5, 1.0, 0.5],
            [0.5, -1.0, 0.5],
            [-0.5, 0.5, 1.0],
            [-0.5, 0.5, -1.0],
        ];
        let lanes: Vec<Vec<f32>> = dirs.iter().map(|d| vec![d[0], d[1], d[2], 0.0]).collect();
        let got = run_sample(
            op(TexDim::Cube, false, LodMode::Explicit),
            cube(1),
            Sampler::nearest(),
            &lanes,
        )
        .unwrap();
        assert_eq!(red(&got), [2.0, 11.0, 23.0, 31.0, 40.0, 51.0]);
    }

    #[test]
    fn faces_clamp_to_their_edges() {
        // Linear at the +Z face's corner direction (0.99, 0.99, 1): s = 0.995, u - 0.5 = 1.49,
        // so i0 = 1 and i1 = 2 clamps to 1 whatever the sampler's wrap; t = 0.005,
        // v - 0.5 = -0.49, so j0 = -1 clamps to 0 and j1 = 0. All four taps are texel (1, 0)
        // of face 4: 41.
        let s = Sampler::linear().with_wrap(Wrap::Repeat);
        let got = run_sample(
            op(TexDim::Cube, false, LodMode::Explicit),
            cube(1),
            s,
            &[vec![0.99, 0.99, 1.0, 0.0]],
        )
        .unwrap();
        assert_eq!(red(&got), [41.0]);
    }

    #[test]
    fn cube_arrays_index_six_faces_per_layer() {
        let got = run_sample(
            op(TexDim::Cube, true, LodMode::Explicit),
            cube(2),
            Sampler::nearest(),
            &[
                vec![-0.5, 0.5, 1.0, 1.0, 0.0],
                vec![1.0, -0.5, 0.5, 0.4, 0.0],
            ],
        )
        .unwrap();
        assert_eq!(red(&got), [140.0, 2.0]);
    }

    #[test]
    fn cube_gradients_use_the_quotient_rule() {
        // 4x4 faces with 3 levels, level l red 10 * l. On +Z at r = (0, 0, 1), moving rx by d
        // moves s by d / 2 (s = 0.5 * rx / rz + 0.5), so du = 4 * d / 2 = 2d: d = 1 -> rho 2 ->
        // lambda 1. Moving rz by 1 at r = (0.5, 0, 1): ds = 0.5 * (0 * 1 - 0.5 * 1) / 1 =
        // -0.25, du = -1 -> lambda 0.
        let mut texels = Vec::new();
        for (l, n) in [(0, 16), (1, 4), (2, 1)] {
            texels.extend(std::iter::repeat_n([10.0 * l as f32, 0.0, 0.0, 1.0], 6 * n));
        }
        let tex = Texture::from_texels(
            TextureDesc::cube(TextureFormat::R32Float, 4).with_full_mip_chain(),
            &texels,
        )
        .unwrap();
        let s = Sampler::nearest().with_mip(MipFilter::Nearest);
        let got = run_sample(
            op(TexDim::Cube, false, LodMode::Grad),
            tex,
            s,
            &[
                vec![0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0],
                vec![0.5, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0],
            ],
        )
        .unwrap();
        assert_eq!(red(&got), [10.0, 0.0]);
    }
}

mod shadow_and_projection {
    use super::*;

    /// 2x1 R32F: 0.3, 0.7.
    fn depths() -> Texture {
        Texture::from_texels(
            TextureDesc::d2(TextureFormat::R32Float, 2, 1),
            &[[0.3, 0.0, 0.0, 1.0], [0.7, 0.0, 0.0, 1.0]],
        )
        .unwrap()
    }

    fn shadow_op() -> SampleOp {
        let mut o = op(TexDim::D2, false, LodMode::Explicit);
        o.shadow = true;
        o
    }

    #[test]
    fn comparison_happens_before_filtering() {
        // Rule 9 with Less: ref 0.5 < 0.3 is false (0), 0.5 < 0.7 true (1). Nearest picks one;
        // linear at the middle (u = 1, alpha 0.5) blends the comparisons: 0.5, not a
        // comparison of the blended depth (0.5 < 0.5 would be 0).
        let s = Sampler {
            mag_filter: Filter::Linear,
            min_filter: Filter::Linear,
            wrap: [Wrap::ClampToEdge; 3],
            ..Sampler::nearest().with_compare(CompareOp::Less)
        };
        // Operands: s, t, dref, lod.
        let got = run_sample(
            shadow_op(),
            depths(),
            s,
            &[
                vec![0.25, 0.5, 0.5, 0.0],
                vec![0.75, 0.5, 0.5, 0.0],
                vec![0.5, 0.5, 0.5, 0.0],
            ],
        )
        .unwrap();
        assert_eq!(red(&got), [0.0, 1.0, 0.5]);
    }

    #[test]
    fn compare_ops() {
        let run = |cmp, dref: f32| {
            run_sample(
                shadow_op(),
                depths(),
                Sampler::nearest().with_compare(cmp),
                &[vec![0.25, 0.5, dref, 0.0]],
            )
            .unwrap()[0][0]
        };
        // The texel is 0.3.
        assert_eq!(run(CompareOp::Never, 0.0), 0.0);
        assert_eq!(run(CompareOp::Always, 0.0), 1.0);
        assert_eq!(run(CompareOp::Less, 0.2), 1.0);
        assert_eq!(run(CompareOp::LessEqual, 0.3), 1.0);
        assert_eq!(run(CompareOp::Equal, 0.3), 1.0);
        assert_eq!(run(CompareOp::NotEqual, 0.3), 0.0);
        assert_eq!(run(CompareOp::Greater, 0.3), 0.0);
        assert_eq!(run(CompareOp::GreaterEqual, 0.3), 1.0);
        assert_eq!(run(CompareOp::Less, f32::NAN), 0.0);
    }

    #[test]
    fn projection_divides_coordinates_and_reference_not_the_layer() {
        // Operands: s, t, q, dref, lod. (1.5, 1, 2) -> (0.75, 0.5): texel 1 (0.7); the reference
        // 1.2 / 2 = 0.6 < 0.7 -> 1. Unprojected the reference 1.2 would fail.
        let mut o = shadow_op();
        o.proj = true;
        let s = Sampler::nearest()
            .with_compare(CompareOp::Less)
            .with_wrap(Wrap::ClampToEdge);
        let got = run_sample(o, depths(), s, &[vec![1.5, 1.0, 2.0, 1.2, 0.0]]).unwrap();
        assert_eq!(red(&got), [1.0]);

        // A projected array sample keeps its layer: layers 0 and 1 hold 5 and 6.
        let tex = Texture::from_texels(
            TextureDesc::d2(TextureFormat::R32Float, 1, 1).with_layers(2),
            &[[5.0, 0.0, 0.0, 1.0], [6.0, 0.0, 0.0, 1.0]],
        )
        .unwrap();
        let mut o = op(TexDim::D2, true, LodMode::Explicit);
        o.proj = true;
        // Operands: s, t, layer, q, lod.
        let got = run_sample(o, tex, Sampler::nearest(), &[vec![1.0, 1.0, 1.0, 4.0, 0.0]]).unwrap();
        assert_eq!(red(&got), [6.0]);
    }
}
