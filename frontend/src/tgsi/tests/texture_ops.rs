//! Texture opcodes on textures whose texels encode their own coordinates, so every expected
//! value follows from the sampling rules (nearest filtering picks the texel containing the
//! point).

use super::harness::{as_f, as_i, compute_program, compute_text, f, fragment, i};
use crate::tgsi::LiftOptions;
use agxc_egraph::interp::{
    CompareOp, FragmentGrid, MipFilter, Resources, Sampler, Texture, TextureDesc, TextureFormat,
    Varying,
};
use agxc_egraph::ir::Binding;

/// 4x4 RGBA32F with two levels: texel (x, y) of level l is (x, y, l, 1).
fn coords_texture() -> Texture {
    let desc = TextureDesc::d2(TextureFormat::Rgba32Float, 4, 4).with_levels(2);
    let mut texels = Vec::new();
    for (level, size) in [(0, 4), (1, 2)] {
        for y in 0..size {
            for x in 0..size {
                texels.push([x as f32, y as f32, level as f32, 1.0]);
            }
        }
    }
    Texture::from_texels(desc, &texels).unwrap()
}

fn nearest_mips() -> Sampler {
    Sampler::nearest().with_mip(MipFilter::Nearest)
}

const DECLS: &str = "DCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT";

/// Runs `body` per lane with `TEMP[0]` from `t0`, the texture at unit 0; returns `TEMP[4]`.
fn run_tex(
    decls: &str,
    body: &str,
    t0: &[[u32; 4]],
    texture: Texture,
    sampler: Sampler,
) -> Vec<[u32; 4]> {
    let inputs: Vec<_> = t0.iter().map(|&t| [t, [0; 4], [0; 4], [0; 4]]).collect();
    let text = compute_text(inputs.len(), decls, body);
    let out = compute_program(&text, &inputs, &LiftOptions::default(), |res| {
        res.bind_combined(Binding::new(0, 0), texture, sampler);
    });
    out.into_iter().map(|o| o[0]).collect()
}

#[test]
fn txl_takes_the_lod_from_w() {
    let out = run_tex(
        DECLS,
        "TXL TEMP[4], TEMP[0], SAMP[0], 2D",
        &[
            f([2.5 / 4.0, 1.5 / 4.0, 0.0, 0.0]),
            f([0.75, 0.25, 0.0, 1.0]),
        ],
        coords_texture(),
        nearest_mips(),
    );
    assert_eq!(as_f(out[0]), [2.0, 1.0, 0.0, 1.0]);
    assert_eq!(as_f(out[1]), [1.0, 0.0, 1.0, 1.0]);
}

#[test]
fn tex_outside_fragment_shaders_reads_level_zero() {
    let out = run_tex(
        DECLS,
        "TEX TEMP[4], TEMP[0], SAMP[0], 2D",
        &[f([0.9, 0.1, 0.0, 0.0])],
        coords_texture(),
        nearest_mips(),
    );
    assert_eq!(as_f(out[0]), [3.0, 0.0, 0.0, 1.0]);
}

#[test]
fn txp_divides_by_w() {
    let out = run_tex(
        DECLS,
        "TXP TEMP[4], TEMP[0], SAMP[0], 2D",
        &[f([1.25, 0.25, 0.0, 2.0])],
        coords_texture(),
        nearest_mips(),
    );
    // (1.25 / 2, 0.25 / 2) = (0.625, 0.125): texel (2, 0).
    assert_eq!(as_f(out[0]), [2.0, 0.0, 0.0, 1.0]);
}

#[test]
fn txf_fetches_texels_with_level_and_offset() {
    let out = run_tex(
        DECLS,
        "TXF TEMP[4], TEMP[0], SAMP[0], 2D",
        &[i([3, 2, 0, 0]), i([1, 1, 0, 1]), i([4, 0, 0, 0])],
        coords_texture(),
        nearest_mips(),
    );
    assert_eq!(as_f(out[0]), [3.0, 2.0, 0.0, 1.0]);
    assert_eq!(as_f(out[1]), [1.0, 1.0, 1.0, 1.0]);
    assert_eq!(as_f(out[2]), [0.0; 4], "out of range reads zero");
    let out = run_tex(
        "DCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\nIMM[1] INT32 {1, -1, 0, 0}",
        "TXF TEMP[4], TEMP[0], SAMP[0], 2D, IMM[1].xyz",
        &[i([1, 2, 0, 0])],
        coords_texture(),
        nearest_mips(),
    );
    assert_eq!(as_f(out[0]), [2.0, 1.0, 0.0, 1.0]);
}

#[test]
fn txq_gives_size_and_levels() {
    let out = run_tex(
        DECLS,
        "TXQ TEMP[4], TEMP[0], SAMP[0], 2D",
        &[i([0; 4]), i([1, 0, 0, 0])],
        coords_texture(),
        nearest_mips(),
    );
    assert_eq!(as_i(out[0]), [4, 4, 0, 2]);
    assert_eq!(as_i(out[1]), [2, 2, 0, 2]);
}

#[test]
fn rect_coordinates_are_in_texels() {
    let out = run_tex(
        "DCL SAMP[0]\nDCL SVIEW[0], RECT, FLOAT",
        "TEX TEMP[4], TEMP[0], SAMP[0], RECT",
        &[f([2.5, 1.5, 0.0, 0.0])],
        coords_texture(),
        nearest_mips(),
    );
    assert_eq!(as_f(out[0]), [2.0, 1.0, 0.0, 1.0]);
}

#[test]
fn shadow_samples_compare_with_the_reference_in_z() {
    let desc = TextureDesc::d2(TextureFormat::R32Float, 2, 1);
    let depth =
        Texture::from_texels(desc, &[[0.25, 0.0, 0.0, 1.0], [0.75, 0.0, 0.0, 1.0]]).unwrap();
    let out = run_tex(
        "DCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT",
        "TXL TEMP[4], TEMP[0], SAMP[0], SHADOW2D",
        &[f([0.25, 0.5, 0.5, 0.0]), f([0.75, 0.5, 0.5, 0.0])],
        depth,
        Sampler::nearest().with_compare(CompareOp::Less),
    );
    // 0.5 < 0.25 fails, 0.5 < 0.75 holds; the result is (r, r, r, 1).
    assert_eq!(as_f(out[0]), [0.0, 0.0, 0.0, 1.0]);
    assert_eq!(as_f(out[1]), [1.0, 1.0, 1.0, 1.0]);
}

#[test]
fn array_layers_come_from_z() {
    let desc = TextureDesc::d2(TextureFormat::Rgba32Float, 2, 2).with_layers(3);
    let mut texels = Vec::new();
    for layer in 0..3 {
        for y in 0..2 {
            for x in 0..2 {
                texels.push([x as f32, y as f32, layer as f32, 1.0]);
            }
        }
    }
    let tex = Texture::from_texels(desc, &texels).unwrap();
    let out = run_tex(
        "DCL SAMP[0]\nDCL SVIEW[0], 2D_ARRAY, FLOAT",
        "TXL TEMP[4], TEMP[0], SAMP[0], 2D_ARRAY",
        &[f([0.75, 0.25, 2.0, 0.0]), f([0.25, 0.75, 1.4, 0.0])],
        tex,
        Sampler::nearest(),
    );
    assert_eq!(as_f(out[0]), [1.0, 0.0, 2.0, 1.0]);
    // The layer rounds to nearest: 1.4 is layer 1.
    assert_eq!(as_f(out[1]), [0.0, 1.0, 1.0, 1.0]);
}

#[test]
fn cube_maps_pick_the_major_axis_face() {
    let desc = TextureDesc::cube(TextureFormat::Rgba32Float, 2);
    let mut texels = Vec::new();
    for face in 0..6 {
        for y in 0..2 {
            for x in 0..2 {
                texels.push([face as f32, x as f32, y as f32, 1.0]);
            }
        }
    }
    let tex = Texture::from_texels(desc, &texels).unwrap();
    let out = run_tex(
        "DCL SAMP[0]\nDCL SVIEW[0], CUBE, FLOAT",
        "TXL TEMP[4], TEMP[0], SAMP[0], CUBE",
        // +X and -Z faces; w is the LOD. The face centre (s, t) = (0.5, 0.5) is texel (1, 1).
        &[f([1.0, 0.0, 0.0, 0.0]), f([0.0, 0.0, -2.0, 0.0])],
        tex,
        Sampler::nearest(),
    );
    assert_eq!(as_f(out[0]), [0.0, 1.0, 1.0, 1.0]);
    assert_eq!(as_f(out[1]), [5.0, 1.0, 1.0, 1.0]);
}

#[test]
fn sample_opcodes_use_separate_views_and_swizzle_the_result() {
    let inputs = [[f([0.6, 0.1, 0.0, 1.0]), [0; 4], [0; 4], [0; 4]]];
    let text = compute_text(
        1,
        "DCL SAMP[0]\nDCL SVIEW[1], 2D, FLOAT",
        "SAMPLE_L TEMP[4], TEMP[0], SVIEW[1].yxzw, SAMP[0], TEMP[0].wwww\nSVIEWINFO TEMP[5], TEMP[1], SVIEW[1]",
    );
    let out = compute_program(
        &text,
        &inputs,
        &LiftOptions::default(),
        |res: &mut Resources| {
            res.bind_texture(Binding::new(0, 1), coords_texture());
            res.bind_sampler(Binding::new(0, 0), nearest_mips());
        },
    );
    // Level 1 (2x2) at (0.6, 0.1): texel (1, 0), i.e. (1, 0, 1, 1); the view's swizzle puts y
    // first.
    assert_eq!(as_f(out[0][0]), [0.0, 1.0, 1.0, 1.0]);
    assert_eq!(as_i(out[0][1]), [4, 4, 0, 2]);
}

#[test]
fn res_is_the_sampler_view_file_of_old_graw_programs() {
    // graw's quad-sample.c: `DCL RES[0], 2D, FLOAT` sampled with `SAMPLE ..., RES[0], SAMP[0]`.
    let inputs = [[f([0.6, 0.1, 0.0, 0.0]), [0; 4], [0; 4], [0; 4]]];
    let text = compute_text(
        1,
        "DCL SAMP[0]\nDCL RES[1], 2D, FLOAT",
        "SAMPLE TEMP[4], TEMP[0], RES[1], SAMP[0]",
    );
    let out = compute_program(
        &text,
        &inputs,
        &LiftOptions::default(),
        |res: &mut Resources| {
            res.bind_texture(Binding::new(0, 1), coords_texture());
            res.bind_sampler(Binding::new(0, 0), nearest_mips());
        },
    );
    // Outside a fragment shader SAMPLE reads level 0 (4x4): (0.6, 0.1) lies in texel (2, 0).
    assert_eq!(as_f(out[0][0]), [2.0, 0.0, 0.0, 1.0]);
}

#[test]
fn fragment_lod_follows_the_coordinate_derivatives() {
    let text = "FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL OUT[1], COLOR[1]
DCL OUT[2], COLOR[2]
DCL SAMP[0]
DCL SVIEW[0], 2D, FLOAT
DCL TEMP[0]
IMM[0] FLT32 {1.0, 0.5, 0.0, 0.0}
TEX OUT[0], IN[0], SAMP[0], 2D
MOV TEMP[0], IN[0]
MOV TEMP[0].w, IMM[0].xxxx
TXB OUT[1], TEMP[0], SAMP[0], 2D
TXD OUT[2], IN[0], IMM[0].yzzz, IMM[0].zyzz, SAMP[0], 2D
END
";
    // One texel per pixel: the implicit LOD is 0; a bias of 1 gives level 1; gradients of half
    // the texture (two texels per pixel) give LOD 1.
    let uv = Varying::affine([0.0; 4], [0.25, 0.0, 0.0, 0.0], [0.0, 0.25, 0.0, 0.0]);
    let mut res = Resources::new();
    res.bind_combined(Binding::new(0, 0), coords_texture(), nearest_mips());
    let out = fragment(text, &FragmentGrid::new(4, 4).with_varying(0, uv), &mut res);
    assert_eq!(out.pixel(0, 2, 1), Some([2.0, 1.0, 0.0, 1.0]));
    assert_eq!(out.pixel(1, 2, 1), Some([1.0, 0.0, 1.0, 1.0]));
    assert_eq!(out.pixel(2, 3, 3), Some([1.0, 1.0, 1.0, 1.0]));
}

/// A cube array of 2x2 faces, two layers: texel (x, y) of slice s (6 * layer + face) is
/// (s, x, y, 1).
fn cube_array() -> Texture {
    let desc = TextureDesc::cube(TextureFormat::Rgba32Float, 2).with_layers(2);
    let mut texels = Vec::new();
    for slice in 0..12 {
        for y in 0..2 {
            for x in 0..2 {
                texels.push([slice as f32, x as f32, y as f32, 1.0]);
            }
        }
    }
    Texture::from_texels(desc, &texels).unwrap()
}

#[test]
fn second_operand_forms_for_cube_arrays() {
    // TXL2: direction xyz, layer w, LOD in src1.x; the +X face of layer 1 is slice 6.
    let inputs = [[f([1.0, 0.0, 0.0, 1.0]), f([0.0; 4]), [0; 4], [0; 4]]];
    let text = compute_text(
        1,
        "DCL SAMP[0]\nDCL SVIEW[0], CUBEARRAY, FLOAT",
        "TXL2 TEMP[4], TEMP[0], TEMP[1], SAMP[0], CUBEARRAY",
    );
    let out = compute_program(&text, &inputs, &LiftOptions::default(), |res| {
        res.bind_combined(Binding::new(0, 0), cube_array(), Sampler::nearest());
    });
    assert_eq!(as_f(out[0][0]), [6.0, 1.0, 1.0, 1.0]);

    // TEX2 on a shadow cube array: the reference is src1.x. Layer 0 holds 0.25, layer 1 0.75.
    let desc = TextureDesc::cube(TextureFormat::R32Float, 1).with_layers(2);
    let texels: Vec<[f32; 4]> = (0..12)
        .map(|s| [if s < 6 { 0.25 } else { 0.75 }, 0.0, 0.0, 1.0])
        .collect();
    let depth = Texture::from_texels(desc, &texels).unwrap();
    let inputs: Vec<_> = [0.0, 1.0]
        .iter()
        .map(|&layer| {
            [
                f([0.0, 1.0, 0.0, layer]),
                f([0.5, 0.0, 0.0, 0.0]),
                [0; 4],
                [0; 4],
            ]
        })
        .collect();
    let text = compute_text(
        2,
        "DCL SAMP[0]\nDCL SVIEW[0], SHADOWCUBEARRAY, FLOAT",
        "TEX2 TEMP[4], TEMP[0], TEMP[1], SAMP[0], SHADOWCUBEARRAY",
    );
    let out = compute_program(&text, &inputs, &LiftOptions::default(), |res| {
        res.bind_combined(
            Binding::new(0, 0),
            depth,
            Sampler::nearest().with_compare(CompareOp::Less),
        );
    });
    assert_eq!(as_f(out[0][0]), [0.0, 0.0, 0.0, 1.0]);
    assert_eq!(as_f(out[1][0]), [1.0, 1.0, 1.0, 1.0]);
}

#[test]
fn level_zero_forms_ignore_lod_and_derivatives() {
    let out = run_tex(
        DECLS,
        "TXF_LZ TEMP[4], TEMP[0], SAMP[0], 2D",
        &[i([1, 1, 0, 1])],
        coords_texture(),
        nearest_mips(),
    );
    assert_eq!(
        as_f(out[0]),
        [1.0, 1.0, 0.0, 1.0],
        "level 0 although w says 1"
    );
    // Two texels per pixel: TEX picks level 1, TEX_LZ level 0.
    let text = "FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL OUT[1], COLOR[1]
DCL SAMP[0]
DCL SVIEW[0], 2D, FLOAT
TEX OUT[0], IN[0], SAMP[0], 2D
TEX_LZ OUT[1], IN[0], SAMP[0], 2D
END
";
    let uv = Varying::affine([0.0; 4], [0.5, 0.0, 0.0, 0.0], [0.0, 0.5, 0.0, 0.0]);
    let mut res = Resources::new();
    res.bind_combined(Binding::new(0, 0), coords_texture(), nearest_mips());
    let out = fragment(text, &FragmentGrid::new(2, 2).with_varying(0, uv), &mut res);
    // Pixel (1, 0) is at uv (0.75, 0.25).
    assert_eq!(out.pixel(0, 1, 0), Some([1.0, 0.0, 1.0, 1.0]));
    assert_eq!(out.pixel(1, 1, 0), Some([3.0, 1.0, 0.0, 1.0]));
}

#[test]
fn sample_family_in_a_fragment_shader() {
    let text = "FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL OUT[1], COLOR[1]
DCL OUT[2], COLOR[2]
DCL OUT[3], COLOR[3]
DCL SAMP[2]
DCL SVIEW[1], 2D, FLOAT
IMM[0] FLT32 {1.0, 0.5, 0.0, 0.0}
IMM[1] INT32 {3, 2, 0, 0}
SAMPLE OUT[0], IN[0], SVIEW[1], SAMP[2]
SAMPLE_B OUT[1], IN[0], SVIEW[1].zyxw, SAMP[2], IMM[0].xxxx
SAMPLE_D OUT[2], IN[0], SVIEW[1], SAMP[2], IMM[0].yzzz, IMM[0].zyzz
SAMPLE_I OUT[3], IMM[1], SVIEW[1].wxyz
END
";
    let uv = Varying::affine([0.0; 4], [0.25, 0.0, 0.0, 0.0], [0.0, 0.25, 0.0, 0.0]);
    let mut res = Resources::new();
    res.bind_texture(Binding::new(0, 1), coords_texture());
    res.bind_sampler(Binding::new(0, 2), nearest_mips());
    let out = fragment(text, &FragmentGrid::new(4, 4).with_varying(0, uv), &mut res);
    // Pixel (2, 1) at uv (0.625, 0.375): level 0 texel (2, 1); biased: level 1 texel (1, 0),
    // swizzled zyxw; gradients of half the texture: level 1; fetch of texel (3, 2) swizzled wxyz.
    assert_eq!(out.pixel(0, 2, 1), Some([2.0, 1.0, 0.0, 1.0]));
    assert_eq!(out.pixel(1, 2, 1), Some([1.0, 0.0, 1.0, 1.0]));
    assert_eq!(out.pixel(2, 2, 1), Some([1.0, 0.0, 1.0, 1.0]));
    assert_eq!(out.pixel(3, 2, 1), Some([1.0, 3.0, 2.0, 0.0]));
}

#[test]
fn sample_c_compares_with_src3() {
    let desc = TextureDesc::d2(TextureFormat::R32Float, 2, 1);
    let depth =
        Texture::from_texels(desc, &[[0.25, 0.0, 0.0, 1.0], [0.75, 0.0, 0.0, 1.0]]).unwrap();
    let inputs = [[
        f([0.75, 0.5, 0.0, 0.0]),
        f([0.5, 0.0, 0.0, 0.0]),
        [0; 4],
        [0; 4],
    ]];
    let text = compute_text(
        1,
        "DCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT",
        "SAMPLE_C_LZ TEMP[4], TEMP[0], SVIEW[0], SAMP[0], TEMP[1].xxxx",
    );
    let out = compute_program(&text, &inputs, &LiftOptions::default(), |res| {
        res.bind_combined(
            Binding::new(0, 0),
            depth,
            Sampler::nearest().with_compare(CompareOp::Less),
        );
    });
    assert_eq!(as_f(out[0][0]), [1.0, 1.0, 1.0, 1.0]);
}

#[test]
fn tg4_gathers_the_component_from_src1_x() {
    // (0.5, 0.5) on 4x4: u = v = 1.5, so i0 = j0 = 1, i1 = j1 = 2; texels (i0, j1), (i1, j1),
    // (i1, j0), (i0, j0) = (1, 2), (2, 2), (2, 1), (1, 1) hold x = 1, 2, 2, 1 and
    // y = 2, 2, 1, 1. The nearest sampler does not matter: a gather takes the linear
    // footprint at level 0.
    let decls = "DCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\nIMM[1] UINT32 {0, 1, 0, 0}\n\
                 IMM[2] INT32 {1, -1, 0, 0}";
    let body = "TG4 TEMP[4], TEMP[0], IMM[1].xxxx, SAMP[0], 2D\n\
                TG4 TEMP[5], TEMP[0], IMM[1].yyyy, SAMP[0], 2D";
    let inputs = [[f([0.5, 0.5, 0.0, 0.0]), [0; 4], [0; 4], [0; 4]]];
    let text = compute_text(1, decls, body);
    let out = compute_program(&text, &inputs, &LiftOptions::default(), |res| {
        res.bind_combined(Binding::new(0, 0), coords_texture(), nearest_mips());
    });
    assert_eq!(as_f(out[0][0]), [1.0, 2.0, 2.0, 1.0]);
    assert_eq!(as_f(out[0][1]), [2.0, 2.0, 1.0, 1.0]);
    // Offset (1, -1): i0 = 2, i1 = 3, j0 = 0, j1 = 1; y of (2, 1), (3, 1), (3, 0), (2, 0).
    let out = run_tex(
        decls,
        "TG4 TEMP[4], TEMP[0], IMM[1].yyyy, SAMP[0], 2D, IMM[2].xyz",
        &[f([0.5, 0.5, 0.0, 0.0])],
        coords_texture(),
        nearest_mips(),
    );
    assert_eq!(as_f(out[0]), [1.0, 1.0, 0.0, 0.0]);
}

#[test]
fn tg4_refuses_what_the_ir_cannot_gather() {
    let lift_err = |decls: &str, body: &str| {
        let text = compute_text(1, decls, body);
        crate::tgsi::lift(&text, &LiftOptions::default())
            .unwrap_err()
            .to_string()
    };
    let err = lift_err(DECLS, "TG4 TEMP[4], TEMP[0], TEMP[1].xxxx, SAMP[0], 2D");
    assert!(err.contains("not an immediate"), "{err}");
    let err = lift_err(
        "DCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\nIMM[1] UINT32 {4, 0, 0, 0}",
        "TG4 TEMP[4], TEMP[0], IMM[1].xxxx, SAMP[0], 2D",
    );
    assert!(err.contains("not 0 to 3"), "{err}");
    let err = lift_err(
        DECLS,
        "TG4 TEMP[4], TEMP[0], IMM[0].xxxx, SAMP[0], SHADOW2D",
    );
    assert!(err.contains("TG4 with SHADOW2D"), "{err}");
    let err = lift_err(DECLS, "TG4 TEMP[4], TEMP[0], IMM[0].xxxx, SAMP[0], 3D");
    assert!(err.contains("2D or cube"), "{err}");
}
