//! The fragment shaders Mesa's graw C programs embed (`tests/corpus/tgsi/graw/programs/`),
//! and the two that do more than copy (tri-instanced's vertex shader, tri-gs's geometry
//! shader), lifted and run in the reference interpreter. Each expected value is read off the shader's
//! text by hand (and, for the textured quads, off the texture the program builds), with inputs
//! chosen so that every coordinate and product is exact or rounded once in f32.
//!
//! Varying slots follow the lifter's mapping: `GENERIC[i]` is location i, `COLOR` is location
//! 32; a fragment shader's `OUT ..., COLOR` is target 0 and `OUT ..., POSITION` the depth.

use agxc_egraph::interp::{
    run_fragment, run_geometry, run_vertex, FragmentGrid, FragmentOutput, GeometryVertex, Limits,
    Resources, Sampler, Strip, Texture, TextureDesc, TextureFormat, Varying, Wrap,
};
use agxc_egraph::ir::{Binding, Function, InputPrimitive, OutputPrimitive};
use agxc_frontend::tgsi::{lift, LiftOptions, COLOR_LOCATION};
use std::collections::BTreeMap;
use std::path::Path;

/// Lifts `programs/<name>.tgsi`.
fn lift_program(name: &str) -> Function {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/corpus/tgsi/graw/programs")
        .join(format!("{name}.tgsi"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
    lift(&text, &LiftOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Lifts `programs/<name>.tgsi` and shades `grid` with it.
fn shade(name: &str, grid: &FragmentGrid, resources: &mut Resources) -> FragmentOutput {
    let func = lift_program(name);
    run_fragment(&func, resources, grid, &Limits::default())
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Every pixel of target 0, row by row.
fn colours(out: &FragmentOutput) -> Vec<[f32; 4]> {
    out.targets[&0].clone()
}

#[test]
fn fs_frontface_is_red_in_front_and_green_behind() {
    // `SGT TEMP[0].x, IN[0].xxxx, IMM[1].xxxx` is FACE > 0.0; IF picks IMM[0] = (1, 0, 0, 0)
    // (red) for front faces (FACE = +1), ELSE IMM[1] = (0, 1, 0, 0) (green).
    for (front, want) in [(true, [1.0, 0.0, 0.0, 0.0]), (false, [0.0, 1.0, 0.0, 0.0])] {
        let mut grid = FragmentGrid::new(2, 2)
            .with_varying(0, Varying::constant([0.0, 0.0, 0.0, 1.0]))
            .with_clear([0.25, 0.25, 0.25, 1.0]);
        grid.front_facing = front;
        let out = shade("fs-frontface-fs", &grid, &mut Resources::new());
        assert_eq!(colours(&out), vec![want; 4], "front facing: {front}");
    }
}

/// `fs-fragcoord` mode 0/1: `MUL OUT[0], (frag_coord.xy, 0, 0), (0.003333, 0.003333, 1, 1)`.
fn scaled_coord(x: f32, y: f32) -> [f32; 4] {
    [x * 0.003333, y * 0.003333, 0.0, 0.0]
}

#[test]
fn fs_fragcoord_scales_the_window_position_from_either_origin() {
    let (w, h) = (4u32, 3u32);
    let grid = FragmentGrid::new(w, h);
    let upper = lift_program("fs-fragcoord-fs-origin-upper-left");
    let lower = lift_program("fs-fragcoord-fs-origin-lower-left");
    assert!(upper.modes.origin_upper_left && !lower.modes.origin_upper_left);

    let out = shade(
        "fs-fragcoord-fs-origin-upper-left",
        &grid,
        &mut Resources::new(),
    );
    for row in 0..h {
        for x in 0..w {
            // Upper-left origin, half-integer centres: (x + 0.5, row + 0.5).
            let want = scaled_coord(x as f32 + 0.5, row as f32 + 0.5);
            assert_eq!(out.pixel(0, x, row), Some(want), "upper left ({x}, {row})");
        }
    }
    let out = shade(
        "fs-fragcoord-fs-origin-lower-left",
        &grid,
        &mut Resources::new(),
    );
    for row in 0..h {
        for x in 0..w {
            // Lower-left origin: y counts up from the bottom edge, h - (row + 0.5).
            let want = scaled_coord(x as f32 + 0.5, h as f32 - (row as f32 + 0.5));
            assert_eq!(out.pixel(0, x, row), Some(want), "lower left ({x}, {row})");
        }
    }
}

#[test]
fn fs_fragcoord_fraction_is_zero_at_integer_centres_and_half_otherwise() {
    // `FRC TEMP[0], IN[0]`, then `.zw = 0`: integer centres give (0, 0, 0, 0) ("all pixels
    // black"), half-integer centres (0.5, 0.5, 0, 0) ("olive").
    let grid = FragmentGrid::new(3, 2);
    let integer = lift_program("fs-fragcoord-fs-center-integer");
    let half = lift_program("fs-fragcoord-fs-center-half-integer");
    assert!(integer.modes.pixel_center_integer && !half.modes.pixel_center_integer);
    let out = shade(
        "fs-fragcoord-fs-center-integer",
        &grid,
        &mut Resources::new(),
    );
    assert_eq!(colours(&out), vec![[0.0; 4]; 6]);
    let out = shade(
        "fs-fragcoord-fs-center-half-integer",
        &grid,
        &mut Resources::new(),
    );
    assert_eq!(colours(&out), vec![[0.5, 0.5, 0.0, 0.0]; 6]);
}

#[test]
fn fs_write_z_puts_the_red_quad_in_front() {
    // OUT[0] = the flat colour; `IF IN[0].xxxx` (red: x = 1) writes depth IMM[2].y = 0.4,
    // otherwise (blue: x = 0) IMM[2].x = 0.5. The grid's own depth (0.5 by default) is set
    // to 0.9 so that a missing depth write shows.
    for (colour, depth) in [
        ([1.0, 0.0, 0.0, 1.0], 0.4f32),
        ([0.0, 0.0, 1.0, -1.0], 0.5f32),
    ] {
        let mut grid = FragmentGrid::new(2, 1).with_varying(0, Varying::constant(colour));
        grid.depth = 0.9;
        let out = shade("fs-write-z-fs", &grid, &mut Resources::new());
        assert_eq!(colours(&out), vec![colour; 2]);
        assert_eq!(out.depth, vec![depth; 2], "colour {colour:?}");
    }
}

#[test]
fn shader_leak_computes_the_square_minus_the_double() {
    // MUL TEMP[0] = c * c, ADD TEMP[1] = c + c, SUB OUT[0] = TEMP[0] - TEMP[1]:
    // (0.5, 2, -1, 3) gives (0.25 - 1, 4 - 4, 1 + 2, 9 - 6).
    let grid = FragmentGrid::new(2, 1)
        .with_varying(COLOR_LOCATION, Varying::constant([0.5, 2.0, -1.0, 3.0]));
    let out = shade("shader-leak-fs", &grid, &mut Resources::new());
    assert_eq!(colours(&out), vec![[-0.75, 0.0, 3.0, 3.0]; 2]);
}

/// A `size` x `size` texture from graw's `B8G8R8A8_UNORM` texel bytes `bgra(s, t)` (`s` the
/// column, `t` the row, as in the programs' `tex2d[t][s]`), stored as RGBA8.
fn bgra8_texture(size: u32, bgra: impl Fn(u32, u32) -> [u8; 4]) -> Texture {
    let mut data = Vec::new();
    for t in 0..size {
        for s in 0..size {
            let [b, g, r, a] = bgra(s, t);
            data.extend([r, g, b, a]);
        }
    }
    let desc = TextureDesc::d2(TextureFormat::Rgba8Unorm, size, size);
    Texture::new(desc, data).expect("size * size RGBA8 texels")
}

/// `graw_util_create_simple_sampler(info, PIPE_TEX_WRAP_REPEAT, PIPE_TEX_FILTER_NEAREST)`.
fn repeat_nearest() -> Sampler {
    Sampler::nearest().with_wrap(Wrap::Repeat)
}

/// An 8-bit UNORM channel as the sampler returns it.
fn unorm(byte: u32) -> f32 {
    byte as f32 / 255.0
}

/// `quad-tex.c`'s (and `fs-test.c`'s) 16 x 16 texture: B = s * 255 / 15, G = t * 255 / 15,
/// R = 0 or 128 in 4 x 4 checks, A = 255.
fn quad_tex_bgra(s: u32, t: u32) -> [u8; 4] {
    let x = ((s ^ t) >> 2) & 1;
    let r = if x == 1 { 0 } else { 128 };
    [(s * 255 / 15) as u8, (t * 255 / 15) as u8, r, 255]
}

#[test]
fn quad_tex_projects_the_texture_coordinate_onto_every_texel() {
    // `TXP` divides (s, t) by q. With q = 2 and s, t growing 0.125 per pixel, pixel (x, y)
    // reads ((x + 0.5) / 16, (y + 0.5) / 16): the centre of texel (x, y).
    let coords = Varying::affine(
        [0.0, 0.0, 0.0, 2.0],
        [0.125, 0.0, 0.0, 0.0],
        [0.0, 0.125, 0.0, 0.0],
    );
    let grid = FragmentGrid::new(16, 16).with_varying(0, coords);
    for name in ["quad-tex-fs", "tex-srgb-fs"] {
        let mut res = Resources::new();
        res.bind_combined(
            Binding::new(0, 0),
            bgra8_texture(16, quad_tex_bgra),
            repeat_nearest(),
        );
        let out = shade(name, &grid, &mut res);
        for y in 0..16 {
            for x in 0..16 {
                let [b, g, r, a] = quad_tex_bgra(x, y).map(u32::from);
                let want = [unorm(r), unorm(g), unorm(b), unorm(a)];
                assert_eq!(out.pixel(0, x, y), Some(want), "{name} at ({x}, {y})");
            }
        }
    }
}

#[test]
fn tex_swizzle_reads_column_into_red_and_row_into_green() {
    // tex-swizzle.c's 256 x 256 texture: R = s, G = t, B = 0, A = 1 (bytes). `TXP OUT[0]`
    // with q = 4 and s, t growing 0.5 per pixel reads ((x + 0.5) / 8, (y + 0.5) / 8), the
    // centre of texel (32x + 16, 32y + 16).
    let texture = bgra8_texture(256, |s, t| [0, t as u8, s as u8, 1]);
    let mut res = Resources::new();
    res.bind_combined(Binding::new(0, 0), texture, repeat_nearest());
    let coords = Varying::affine(
        [0.0, 0.0, 0.0, 4.0],
        [0.5, 0.0, 0.0, 0.0],
        [0.0, 0.5, 0.0, 0.0],
    );
    let grid = FragmentGrid::new(8, 8).with_varying(0, coords);
    let out = shade("tex-swizzle-fs", &grid, &mut res);
    for y in 0..8 {
        for x in 0..8 {
            let want = [unorm(32 * x + 16), unorm(32 * y + 16), 0.0, unorm(1)];
            assert_eq!(out.pixel(0, x, y), Some(want), "({x}, {y})");
        }
    }
}

#[test]
fn quad_sample_reads_its_res_sampler_view_like_quad_tex() {
    // `SAMPLE TEMP[0], IN[0], RES[0], SAMP[0]`: no projective divide, so (s, t) grow
    // 1/16 per pixel from 0 and pixel (x, y) reads the centre of texel (x, y).
    let coords = Varying::affine([0.0; 4], [0.0625, 0.0, 0.0, 0.0], [0.0, 0.0625, 0.0, 0.0]);
    let grid = FragmentGrid::new(16, 16).with_varying(0, coords);
    let mut res = Resources::new();
    res.bind_combined(
        Binding::new(0, 0),
        bgra8_texture(16, quad_tex_bgra),
        repeat_nearest(),
    );
    let out = shade("quad-sample-fs", &grid, &mut res);
    for y in 0..16 {
        for x in 0..16 {
            let [b, g, r, a] = quad_tex_bgra(x, y).map(u32::from);
            let want = [unorm(r), unorm(g), unorm(b), unorm(a)];
            assert_eq!(out.pixel(0, x, y), Some(want), "({x}, {y})");
        }
    }
}

/// tri-instanced.c's and tri-gs.c's triangle: positions and colours.
const TRI_POSITIONS: [[f32; 4]; 3] = [
    [0.0, -0.3, 0.0, 1.0],
    [-0.2, 0.3, 0.0, 1.0],
    [0.2, 0.3, 0.0, 1.0],
];
const TRI_COLOURS: [[f32; 4]; 3] = [
    [1.0, 0.0, 0.0, 1.0],
    [0.0, 1.0, 0.0, 1.0],
    [0.0, 0.0, 1.0, 1.0],
];

#[test]
fn tri_instanced_adds_the_instance_offset_to_each_position() {
    // `ADD OUT[0], IN[0], IN[2]` with IN[2] the per-instance translation (instance 1 of the
    // program's `inst_data`, fed here as a per-vertex attribute); `MOV OUT[1], IN[1]` passes
    // the colour to COLOR.
    let offset = [-0.25f32, 0.1, 0.0, 0.0];
    let mut attributes = BTreeMap::new();
    attributes.insert(0, TRI_POSITIONS.to_vec());
    attributes.insert(1, TRI_COLOURS.to_vec());
    attributes.insert(2, vec![offset; 3]);
    let func = lift_program("tri-instanced-vs");
    let out = run_vertex(&func, &Resources::new(), 3, &attributes, &Limits::default())
        .unwrap_or_else(|e| panic!("tri-instanced-vs: {e}"));
    let want: Vec<[f32; 4]> = TRI_POSITIONS
        .iter()
        .map(|p| [0, 1, 2, 3].map(|i| p[i] + offset[i]))
        .collect();
    assert_eq!(out.positions, want);
    assert_eq!(out.varyings[&COLOR_LOCATION], TRI_COLOURS.to_vec());
}

#[test]
fn tri_gs_copies_the_first_colour_onto_the_second_vertex() {
    // Triangles in, one triangle strip out (no GS_MAX_OUTPUT_VERTICES: Mesa's default of 32).
    // Vertex 1 is emitted with vertex 0's colour (`4:MOV OUT[1], IN[0][1]`).
    let func = lift_program("tri-gs-gs");
    let g = func.stage.geometry().expect("a geometry shader");
    assert_eq!(
        (g.input, g.output, g.max_vertices),
        (
            InputPrimitive::Triangles,
            OutputPrimitive::TriangleStrip,
            32
        )
    );
    let vertex = |k: usize, colour: usize| {
        GeometryVertex::new()
            .with_position(TRI_POSITIONS[k])
            .with_location(COLOR_LOCATION, TRI_COLOURS[colour])
    };
    let input: Vec<_> = (0..3).map(|k| vertex(k, k)).collect();
    let out = run_geometry(&func, &Resources::new(), &input, &Limits::default())
        .unwrap_or_else(|e| panic!("tri-gs-gs: {e}"));
    let strip = Strip {
        primitive: 0,
        invocation: 0,
        stream: 0,
        vertices: vec![vertex(0, 0), vertex(1, 0), vertex(2, 2)],
    };
    assert_eq!(out.strips, vec![strip]);
}
