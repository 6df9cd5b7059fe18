//! End to end, fragment shaders: `frag_coord`, varyings (`ld_var`), outputs (`st_tile`),
//! derivatives, discard and demote, and textures in every LOD mode, compiled at -O0 and -O2
//! and compared pixel by pixel with the interpreter.
//!
//! Tolerances: exact where the shader only moves values; 1e-5 absolute where the simulator
//! evaluates varyings in f32 (`(base + ddx * x) + ddy * y`) and the interpreter in f64
//! rounded once; 1e-4 absolute for filtered texture samples (weights and LOD are computed
//! in f32 by the texture unit and by the interpreter, in different orders).

mod common;

use agxc_egraph::interp::{
    CompareOp, FragmentGrid, MipFilter, Resources, Sampler, Texture, TextureDesc, TextureFormat,
    Varying, Wrap,
};
use agxc_egraph::ir::Binding;
use common::*;

/// `(u, v) = ((x + 0.5) / 8, (y + 0.5) / 8)` at location 0, plus a constant at location 1.
fn grid(w: u32, h: u32) -> FragmentGrid {
    FragmentGrid::new(w, h)
        .with_varying(
            0,
            Varying::affine(
                [0.0, 0.0, 0.25, 1.0],
                [0.125, 0.0, 0.0, 0.0],
                [0.0, 0.125, 0.0, 0.0],
            ),
        )
        .with_varying(
            1,
            Varying::affine([3.0, -7.0, 0.5, 0.0], [0.0; 4], [0.0; 4]),
        )
        .with_clear([0.25, 0.5, 0.75, 1.0])
}

#[test]
fn frag_coord_varyings_and_outputs() {
    let f = parse(
        "function @io fragment {
         block0:
             v0:f32 = builtin frag_coord.x
             v1:f32 = builtin frag_coord.y
             v2:f32 = builtin frag_coord.z
             v3:f32 = input 0.x perspective
             v4:f32 = input 0.y linear
             v5:i32 = input 1.y flat
             v6:f16 = input 1.z flat
             v7:f32 = fadd v0, v3
             v8:f32 = fmul v1, v4
             v9:f32 = fcvt v6
             output 0.x v7
             output 0.y v8
             output 0.z v2
             output 0.w v9
             output 1.x v5
             return
         }",
    );
    check_fragment(&f, &Resources::new(), &grid(5, 3), Tol::abs(1e-5));
}

#[test]
fn lower_left_origin_and_integer_centres() {
    let f = parse(
        "function @coord fragment origin_lower_left pixel_center_integer {
         block0:
             v0:f32 = builtin frag_coord.x
             v1:f32 = builtin frag_coord.y
             v2:f32 = builtin frag_coord.w
             output 0.x v0
             output 0.y v1
             output 0.z v2
             return
         }",
    );
    check_fragment(&f, &Resources::new(), &grid(4, 6), Tol::EXACT);
}

#[test]
fn fine_derivatives_of_nonlinear_values() {
    let f = parse(
        "function @deriv fragment {
         block0:
             v0:f32 = input 0.x linear
             v1:f32 = input 0.y linear
             v2:f32 = fmul v0, v1
             v3:f32 = fmul v2, v0
             v4:f32 = ddx.fine v3
             v5:f32 = ddy.fine v3
             v6:f32 = ddx v1
             v7:f32 = ddy.coarse v0
             output 0.x v4
             output 0.y v5
             output 0.z v6
             output 0.w v7
             return
         }",
    );
    check_fragment(&f, &Resources::new(), &grid(6, 4), Tol::abs(1e-5));
}

#[test]
fn coarse_derivatives_of_nonlinear_values() {
    // Coarse derivatives use the quad's top row / left column for all four pixels.
    let f = parse(
        "function @coarse fragment {
         block0:
             v0:f32 = input 0.x linear
             v1:f32 = input 0.y linear
             v2:f32 = fmul v0, v1
             v3:f32 = fmul v2, v0
             v4:f32 = ddx.coarse v3
             v5:f32 = ddy.coarse v3
             v6:f16 = fcvt v2
             v7:f16 = ddy.coarse v6
             v8:f32 = fcvt v7
             v9:f32 = fneg v3
             v10:f32 = ddx.coarse v9
             output 0.x v4
             output 0.y v5
             output 0.z v8
             output 0.w v10
             return
         }",
    );
    check_fragment(&f, &Resources::new(), &grid(6, 4), Tol::abs(1e-5));
}

#[test]
fn discard_in_divergent_code_keeps_the_clear_colour() {
    // Pixels with x + y odd are discarded after writing an output; others write (u, v).
    let f = parse(
        "function @discard fragment {
         block0:
             v0:f32 = builtin frag_coord.x
             v1:f32 = builtin frag_coord.y
             v2:f32 = input 0.x linear
             output 0.w v2
             v3:f32 = fadd v0, v1
             v4:i32 = f2s v3
             v5:i32 = const 1
             v6:i32 = and v4, v5
             v7:i32 = const 0
             v8:bool = ine v6, v7
             if v8 {
             block1:
                 discard
             } else {
             block2:
                 yield
             }
             v9:f32 = input 0.y linear
             output 0.x v2
             output 0.y v9
             return
         }",
    );
    check_fragment(&f, &Resources::new(), &grid(5, 5), Tol::abs(1e-5));
}

#[test]
fn demote_keeps_helpers_running_and_marks_them() {
    let f = parse(
        "function @demote fragment {
         block0:
             v0:f32 = input 0.x linear
             v1:f32 = const 0.5
             v2:bool = flt v0, v1
             if v2 {
             block1:
                 demote
                 yield
             } else {
             block2:
                 yield
             }
             v3:bool = builtin helper_invocation
             v4:f32 = const 1.0
             v5:f32 = const 0.0
             v6:f32 = select v3, v4, v5
             output 0.x v6
             output 0.y v0
             return
         }",
    );
    check_fragment(&f, &Resources::new(), &grid(7, 3), Tol::abs(1e-5));
}

/// An 8x8 RGBA32F texture with a full mip chain; every texel distinct.
fn mipped_texture(format: TextureFormat) -> Texture {
    let desc = TextureDesc::d2(format, 8, 8).with_full_mip_chain();
    let mut texels = Vec::new();
    for level in 0..desc.levels {
        let [w, h, _] = desc.level_extent(level);
        for y in 0..h {
            for x in 0..w {
                texels.push([
                    x as f32 / w as f32,
                    y as f32 / h as f32,
                    level as f32 * 0.25,
                    ((x * 7 + y * 3) % 5) as f32 * 0.2,
                ]);
            }
        }
    }
    Texture::from_texels(desc, &texels).unwrap_or_else(|e| panic!("texture: {e}"))
}

fn texture_resources() -> Resources {
    let mut res = Resources::new();
    let sampler = Sampler::linear()
        .with_mip(MipFilter::Linear)
        .with_wrap(Wrap::Repeat);
    res.bind_combined(
        Binding::new(0, 1),
        mipped_texture(TextureFormat::Rgba32Float),
        sampler,
    );
    res
}

/// A fragment shader sampling with `lod` (the IR text after `implicit`/`bias`/...) and the
/// operands `extra` after the coordinates, writing the four results.
fn sampling_shader(mode: &str, operands: &str, prelude: &str) -> String {
    format!(
        "function @tex fragment {{
         block0:
             v0:f32 = input 0.x linear
             v1:f32 = input 0.y linear
             v2:f32 = const 2.5
             v3:f32 = fmul v0, v2
             v4:f32 = fmul v1, v2
             {prelude}
             v10:f32, v11:f32, v12:f32, v13:f32 = sample 2d tex(0, 1) sampler(0, 1) {mode} v3, v4{operands}
             output 0.x v10
             output 0.y v11
             output 0.z v12
             output 0.w v13
             return
         }}"
    )
}

#[test]
fn texture_lod_modes() {
    let cases = [
        ("implicit", "", ""),
        ("bias", ", v5", "v5:f32 = const -0.75"),
        ("explicit", ", v5", "v5:f32 = input 0.z linear"),
        (
            "grad",
            ", v5, v6, v7, v8",
            "v5:f32 = const 0.3
             v6:f32 = const 0.0
             v7:f32 = ddy v3
             v8:f32 = const 0.4",
        ),
        (
            "grad min_lod",
            ", v5, v6, v7, v8, v9",
            "v5:f32 = const 0.3
             v6:f32 = const 0.0
             v7:f32 = ddy v3
             v8:f32 = const 0.4
             v9:f32 = const 1.5",
        ),
        ("implicit min_lod", ", v5", "v5:f32 = const 1.25"),
        (
            "bias min_lod",
            ", v5, v6",
            "v5:f32 = const 0.5
             v6:f32 = const 0.75",
        ),
        ("explicit offset(1, -2, 0)", ", v5", "v5:f32 = const 1.0"),
        ("implicit proj", ", v5", "v5:f32 = const 2.0"),
    ];
    for (mode, operands, prelude) in cases {
        let f = parse(&sampling_shader(mode, operands, prelude));
        check_fragment(&f, &texture_resources(), &grid(8, 8), Tol::abs(1e-4));
    }
}

#[test]
fn shadow_sampling_fetch_and_queries() {
    let mut res = texture_resources();
    let depth = Texture::from_texels(
        TextureDesc::d2(TextureFormat::R32Float, 4, 4),
        &(0..16)
            .map(|i| [i as f32 / 16.0, 0.0, 0.0, 1.0])
            .collect::<Vec<_>>(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    res.bind_combined(
        Binding::new(0, 2),
        depth,
        Sampler::nearest().with_compare(CompareOp::LessEqual),
    );
    let f = parse(
        "function @shadow fragment {
         block0:
             v0:f32 = input 0.x linear
             v1:f32 = input 0.y linear
             v2:f32 = const 0.5
             v3:f32 = sample 2d tex(0, 2) sampler(0, 2) explicit shadow v0, v1, v2, v2
             v4:f32 = builtin frag_coord.x
             v5:f32 = builtin frag_coord.y
             v6:i32 = f2s v4
             v7:i32 = f2s v5
             v8:i32 = const 1
             v9:f32, v10:f32, v11:f32, v12:f32 = fetch 2d tex(0, 1) offset(1, 0, 0) v6, v7, v8
             v13:i32, v14:i32 = tex_size 2d tex(0, 1) v8
             v15:i32 = tex_levels tex(0, 1)
             v16:i32 = iadd v13, v15
             v17:i32 = imul v16, v14
             v18:f32 = s2f v17
             output 0.x v3
             output 0.y v9
             output 0.z v10
             output 0.w v18
             return
         }",
    );
    check_fragment(&f, &res, &grid(8, 8), Tol::abs(1e-5));
}
