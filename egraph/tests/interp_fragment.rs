//! The fragment stage through the interpreter: frag_coord conventions, affine and flat
//! varyings, fine and coarse derivatives over 2x2 quads (helper lanes for odd sizes,
//! divergence), discard, demote, render-target and depth outputs, and implicit-LOD sampling.
//! Expected values are computed per pixel in the test from the documented model.

mod interp_support;

use agxc_egraph::interp::{
    run_compute, run_fragment, FragmentGrid, FragmentOutput, InterpError, Limits, MipFilter,
    Resources, Sampler, Texture, TextureDesc, TextureFormat, Varying,
};
use agxc_egraph::ir::Binding;
use interp_support::{i32s, parse};

fn run(text: &str, grid: &FragmentGrid, res: &mut Resources) -> FragmentOutput {
    run_fragment(&parse(text), res, grid, &Limits::default()).unwrap_or_else(|e| panic!("{e}"))
}

/// `u = x + 0.5`, `v = y + 0.5` at pixel centres (location 0, components x and y).
fn uv_grid(w: u32, h: u32) -> FragmentGrid {
    FragmentGrid::new(w, h).with_varying(
        0,
        Varying::affine([0.0; 4], [1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]),
    )
}

const FRAG_COORD: &str = "
function @coord fragment {
block0:
    v0:f32 = builtin frag_coord.x
    v1:f32 = builtin frag_coord.y
    v2:f32 = builtin frag_coord.z
    v3:f32 = builtin frag_coord.w
    output 0.x v0
    output 0.y v1
    output 0.z v2
    output 0.w v3
    return
}
";

#[test]
fn frag_coord_is_the_pixel_centre_from_the_upper_left() {
    let out = run(FRAG_COORD, &FragmentGrid::new(3, 3), &mut Resources::new());
    for y in 0..3 {
        for x in 0..3 {
            let want = [x as f32 + 0.5, y as f32 + 0.5, 0.5, 1.0];
            assert_eq!(out.pixel(0, x, y), Some(want), "pixel ({x}, {y})");
        }
    }
    // 3x3 is padded to 4x4: 7 helper lanes.
    assert_eq!((out.stats.lanes, out.stats.helper_lanes), (16, 7));
}

#[test]
fn frag_coord_conventions() {
    let lower_left = FRAG_COORD.replace("fragment {", "fragment origin_lower_left {");
    let out = run(&lower_left, &FragmentGrid::new(2, 3), &mut Resources::new());
    // Row 0 (top) of a 3-row grid is y = 2.5 measured from the bottom.
    assert_eq!(out.pixel(0, 1, 0).map(|p| p[1]), Some(2.5));
    assert_eq!(out.pixel(0, 1, 2).map(|p| p[1]), Some(0.5));
    let integer = FRAG_COORD.replace("fragment {", "fragment pixel_center_integer {");
    let out = run(&integer, &FragmentGrid::new(2, 3), &mut Resources::new());
    assert_eq!(out.pixel(0, 1, 2).map(|p| [p[0], p[1]]), Some([1.0, 2.0]));
}

const VARYINGS: &str = "
function @varyings fragment {
block0:
    v0:f32 = input 0.x perspective
    v1:f32 = input 0.y linear
    v2:f32 = input 0.z flat
    v3:i32 = input 1.x flat
    v4:f16 = input 1.y linear
    v5:f32 = fcvt v4
    v6:f32 = bitcast v3
    output 0.x v0
    output 0.y v1
    output 0.z v2
    output 1.x v6
    output 1.y v5
    return
}
";

#[test]
fn varyings_are_affine_at_pixel_centres() {
    let grid = FragmentGrid::new(4, 2)
        .with_varying(
            0,
            Varying::affine(
                [1.0, -2.0, 7.0, 0.0],
                [0.25, 0.0, 5.0, 0.0],
                [0.0, 0.1, 5.0, 0.0],
            ),
        )
        .with_varying(
            1,
            Varying::affine(
                [-3.7, 0.0, 0.0, 0.0],
                [0.0, 0.001, 0.0, 0.0],
                [9.0, 0.0, 0.0, 0.0],
            ),
        );
    let out = run(VARYINGS, &grid, &mut Resources::new());
    for y in 0..2u32 {
        for x in 0..4u32 {
            let (cx, cy) = (x as f64 + 0.5, y as f64 + 0.5);
            let p = out.pixel(0, x, y).unwrap();
            assert_eq!(p[0], (1.0 + 0.25 * cx) as f32);
            assert_eq!(p[1], (-2.0 + 0.1f32 as f64 * cy) as f32);
            // Flat: the base, whatever ddx and ddy say.
            assert_eq!(p[2], 7.0);
            let q = out.pixel(1, x, y).unwrap();
            // Integer varyings convert the base toward zero: -3.7 -> -3.
            assert_eq!(q[0].to_bits() as i32, -3);
            // f16 input: the exact value rounded once to f16.
            let want = half::f16::from_f64(0.001f32 as f64 * cx).to_f32();
            assert_eq!(q[1], want);
            // Components not written keep the clear colour.
            assert_eq!(q[2], 0.0);
        }
    }
}

/// An interpolated integer input truncates the exact affine value: with base 2^24 and ddx 1,
/// pixel x = 1 sits at 2^24 + 1.5, which truncates to 2^24 + 1. (Rounding to f32 first would
/// give 2^24 + 2: f32 has no odd integers above 2^24.)
#[test]
fn interpolated_integer_inputs_truncate_the_exact_value() {
    let text = "
function @int_input fragment {
block0:
    v0:i32 = input 0.x linear
    v1:f32 = bitcast v0
    output 0.x v1
    return
}
";
    let grid = FragmentGrid::new(4, 2).with_varying(
        0,
        Varying::affine(
            [16_777_216.0, 0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0, 0.0],
            [0.0; 4],
        ),
    );
    let out = run(text, &grid, &mut Resources::new());
    let at = |x: u32| out.pixel(0, x, 0).map(|p| p[0].to_bits() as i32);
    assert_eq!(at(0), Some(16_777_216));
    assert_eq!(at(1), Some(16_777_217));
    assert_eq!(at(3), Some(16_777_219));
}

/// r = u * v with u = x + 0.5 and v = y + 0.5, and its four derivatives.
const DERIVATIVES: &str = "
function @derivs fragment {
block0:
    v0:f32 = input 0.x linear
    v1:f32 = input 0.y linear
    v2:f32 = fmul v0, v1
    v3:f32 = ddx v2
    v4:f32 = ddx.coarse v2
    v5:f32 = ddy.fine v2
    v6:f32 = ddy.coarse v2
    output 0.x v3
    output 0.y v4
    output 0.z v5
    output 0.w v6
    return
}
";

#[test]
fn fine_and_coarse_derivatives_over_quads() {
    // d(uv)/dx across the lane's own row is v; coarse takes the quad's top row (even y):
    // qy + 0.5. Likewise d/dy is u, coarse u at the quad's left column.
    let (w, h) = (5, 3);
    let out = run(DERIVATIVES, &uv_grid(w, h), &mut Resources::new());
    for y in 0..h {
        for x in 0..w {
            let (qx, qy) = ((x & !1) as f32, (y & !1) as f32);
            let want = [y as f32 + 0.5, qy + 0.5, x as f32 + 0.5, qx + 0.5];
            assert_eq!(out.pixel(0, x, y), Some(want), "pixel ({x}, {y})");
        }
    }
}

const DIVERGENT_DERIVATIVE: &str = "
function @divergent fragment {
block0:
    v0:f32 = input 0.x linear
    v1:f32 = input 0.y linear
    v2:f32 = builtin frag_coord.y
    v3:f32 = const 1.0
    v4:bool = flt v2, v3
    v5:f32, v6:f32 = if v4 {
    block1:
        v7:f32 = fmul v0, v0
        v8:f32 = ddx v7
        v9:f32 = ddy v1
        yield v8, v9
    } else {
    block2:
        v10:f32 = const -1.0
        yield v10, v10
    }
    output 0.x v5
    output 0.y v6
    return
}
";

#[test]
fn derivatives_in_divergent_control_flow_use_what_the_quad_has() {
    // Only row 0 takes the branch. ddx of u^2 along row 0 is exact:
    // (qx + 1.5)^2 - (qx + 0.5)^2 = 2 qx + 2. ddy needs both rows of a column and no column is
    // complete: the reference defines it as 0.
    let out = run(DIVERGENT_DERIVATIVE, &uv_grid(4, 2), &mut Resources::new());
    for x in 0..4 {
        let qx = (x & !1) as f32;
        assert_eq!(
            out.pixel(0, x, 0).map(|p| [p[0], p[1]]),
            Some([2.0 * qx + 2.0, 0.0])
        );
        assert_eq!(out.pixel(0, x, 1).map(|p| [p[0], p[1]]), Some([-1.0, -1.0]));
    }
}

const DISCARD: &str = "
function @discard fragment {
block0:
    v0:f32 = builtin frag_coord.x
    v1:f32 = builtin frag_coord.y
    v2:i32 = f2s v0
    v3:i32 = f2s v1
    v4:i32 = const 4
    v5:i32 = imul v3, v4
    v6:i32 = iadd v5, v2
    v7:i32 = imul v6, v4
    store storage(0, 0) [v7], v4
    v8:bool = fgt v0, v1
    if v8 {
    block1:
        discard
    } else {
    block2:
        yield
    }
    v9:f32 = const 1.0
    output 0.x v9
    output frag_depth v1
    store storage(0, 1) [v7], v4
    return
}
";

#[test]
fn discard_keeps_the_clear_colour_and_earlier_stores() {
    let grid = FragmentGrid::new(4, 4).with_clear([0.25, 0.5, 0.75, 1.0]);
    let mut res = Resources::new();
    res.bind_storage(Binding::new(0, 0), vec![0; 64])
        .bind_storage(Binding::new(0, 1), vec![0; 64]);
    let out = run(DISCARD, &grid, &mut res);
    for y in 0..4 {
        for x in 0..4 {
            let discarded = x > y;
            let p = out.pixel(0, x, y).unwrap();
            let i = (y * 4 + x) as usize;
            if discarded {
                assert_eq!(p, [0.25, 0.5, 0.75, 1.0]);
                assert_eq!(out.depth[i], 1.0);
            } else {
                assert_eq!(p, [1.0, 0.5, 0.75, 1.0]);
                assert_eq!(out.depth[i], y as f32 + 0.5);
            }
            assert_eq!(out.dropped[i], discarded);
        }
    }
    // The store before the discard happened for every pixel, the one after only for kept ones.
    assert_eq!(i32s(&res, 0), [4; 16]);
    let after: Vec<i32> = (0..16).map(|i| if i % 4 > i / 4 { 0 } else { 4 }).collect();
    assert_eq!(i32s(&res, 1), after);
}

const DEMOTE: &str = "
function @demote fragment {
block0:
    v0:f32 = input 0.x linear
    v1:f32 = builtin frag_coord.x
    v2:f32 = const 1.0
    v3:bool = flt v1, v2
    if v3 {
    block1:
        demote
        yield
    } else {
    block2:
        yield
    }
    v4:f32 = fmul v0, v0
    v5:f32 = ddx v4
    v6:bool = builtin helper_invocation
    v7:f32 = const 2.0
    v8:f32 = const 3.0
    v9:f32 = select v6, v7, v8
    output 0.x v5
    output 0.y v9
    v10:i32 = f2s v1
    v11:i32 = const 4
    v12:i32 = imul v10, v11
    store storage(0, 0) [v12], v11
    return
}
";

#[test]
fn demoted_lanes_keep_derivatives_defined_but_drop_their_effects() {
    let mut res = Resources::new();
    res.bind_storage(Binding::new(0, 0), vec![0; 16]);
    let grid = uv_grid(4, 2).with_clear([9.0; 4]);
    let out = run(DEMOTE, &grid, &mut res);
    // Column 0 demoted: its pixels are dropped. Column 1 still gets ddx(u^2) = 1.5^2 - 0.5^2
    // = 2 from the pair with its demoted neighbour, and sees helper_invocation false.
    for y in 0..2 {
        assert_eq!(out.pixel(0, 0, y), Some([9.0; 4]));
        assert_eq!(out.pixel(0, 1, y).map(|p| [p[0], p[1]]), Some([2.0, 3.0]));
        assert_eq!(out.pixel(0, 3, y).map(|p| [p[0], p[1]]), Some([6.0, 3.0]));
        assert!(out.dropped[(y * 4) as usize]);
    }
    // Demoted lanes' stores are dropped: column 0 wrote nothing.
    assert_eq!(i32s(&res, 0), [0, 4, 4, 4]);
}

const IMPLICIT_LOD: &str = "
function @implicit fragment {
block0:
    v0:f32 = input 0.x linear
    v1:f32 = input 0.y linear
    v2:f32, v3:f32, v4:f32, v5:f32 = sample 2d tex(0, 1) sampler(0, 1) implicit v0, v1
    v6:f32 = const 1.0
    v7:f32, v8:f32, v9:f32, v10:f32 = sample 2d tex(0, 1) sampler(0, 1) bias v0, v1, v6
    output 0.x v2
    output 0.y v7
    return
}
";

#[test]
fn implicit_lod_comes_from_quad_derivatives() {
    // 16x16 texture, full chain; level l is red 10 * l. s = x / 4 (ddx 0.25), t = y / 8
    // (ddy 0.125): du/dx = 4, dv/dy = 2, rho = 4, lambda = 2 -> level 2 (20); bias 1 -> 30.
    let mut texels = Vec::new();
    for l in 0..5 {
        let n = (16usize >> l) * (16 >> l);
        texels.extend(std::iter::repeat_n([10.0 * l as f32, 0.0, 0.0, 1.0], n));
    }
    let tex = Texture::from_texels(
        TextureDesc::d2(TextureFormat::R32Float, 16, 16).with_full_mip_chain(),
        &texels,
    )
    .unwrap();
    let mut res = Resources::new();
    res.bind_combined(
        Binding::new(0, 1),
        tex,
        Sampler::nearest().with_mip(MipFilter::Nearest),
    );
    let grid = FragmentGrid::new(6, 4).with_varying(
        0,
        Varying::affine([0.0; 4], [0.25, 0.0, 0.0, 0.0], [0.0, 0.125, 0.0, 0.0]),
    );
    let out = run(IMPLICIT_LOD, &grid, &mut res);
    for y in 0..4 {
        for x in 0..6 {
            assert_eq!(out.pixel(0, x, y).map(|p| [p[0], p[1]]), Some([20.0, 30.0]));
        }
    }
}

#[test]
fn fragment_only_operations_fail_in_compute() {
    let text = "
function @bad compute local_size(1, 1, 1) {
block0:
    v0:f32 = const 1.0
    v1:f32 = ddx v0
    return
}
";
    let err = run_compute(
        &parse(text),
        &mut Resources::new(),
        [1, 1, 1],
        &Limits::default(),
    )
    .unwrap_err();
    // The verifier rejects it first; the interpreter would too. Either way inst1 is named.
    assert!(
        matches!(
            err,
            InterpError::NotInStage { .. } | InterpError::Invalid(_)
        ),
        "{err}"
    );
    assert!(err.to_string().contains("inst1"), "{err}");
}

const TARGETS: &str = "
function @targets fragment {
block0:
    v0:i32 = const -5
    v1:f32 = const 0.5
    v2:bool = builtin front_facing
    v3:f32 = const 2.0
    v4:f32 = select v2, v1, v3
    output 2.w v0
    output 0.x v4
    output 0.x v3
    return
}
";

#[test]
fn outputs_go_to_their_targets_last_write_wins() {
    let mut grid = FragmentGrid::new(1, 1).with_clear([0.1, 0.2, 0.3, 0.4]);
    grid.front_facing = false;
    let out = run(TARGETS, &grid, &mut Resources::new());
    assert_eq!(out.targets.keys().copied().collect::<Vec<_>>(), [0, 2]);
    assert_eq!(out.pixel(0, 0, 0), Some([2.0, 0.2, 0.3, 0.4]));
    let t2 = out.pixel(2, 0, 0).unwrap();
    // Integer outputs keep their bit pattern.
    assert_eq!(t2[3].to_bits() as i32, -5);
    assert_eq!(out.depth, [0.5]);
}
