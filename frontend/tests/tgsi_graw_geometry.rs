//! Mesa's graw geometry shaders (`tests/corpus/tgsi/graw/geometry-shader/`), lifted and run in
//! the reference interpreter on one triangle. The expected vertices are read off each
//! shader's text by hand; the inputs are chosen so that every sum is exact in f32.
//!
//! The vertex slots follow the lifter's mapping: `POSITION` is `position`, `COLOR` is location
//! 32 and `GENERIC[1]` location 1, for inputs and outputs alike.

use agxc_egraph::interp::{f32_bytes, run_geometry, GeometryVertex, Limits, Resources, Strip};
use agxc_egraph::ir::{Binding, InputPrimitive, OutputPrimitive, Stage};
use agxc_frontend::tgsi::{lift, LiftOptions, COLOR_LOCATION};
use std::path::Path;

const P: [[f32; 4]; 3] = [
    [-0.5, -0.5, 0.0, 1.0],
    [0.5, -0.5, 0.25, 1.0],
    [0.0, 0.75, 0.5, 1.0],
];
const C: [[f32; 4]; 3] = [
    [1.0, 0.0, 0.0, 1.0],
    [0.0, 0.5, 0.0, 0.25],
    [0.125, 0.0, 2.0, 0.5],
];
/// `GENERIC[1]` of each vertex (read by `mov-non-seq`).
const G: [[f32; 4]; 3] = [
    [3.0, 4.0, 5.0, 6.0],
    [7.0, 8.0, 9.0, 10.0],
    [11.0, 12.0, 13.0, 14.0],
];

fn triangle() -> Vec<GeometryVertex> {
    (0..3)
        .map(|k| {
            GeometryVertex::new()
                .with_position(P[k])
                .with_location(COLOR_LOCATION, C[k])
                .with_location(1, G[k])
        })
        .collect()
}

fn out(position: [f32; 4], colour: [f32; 4]) -> GeometryVertex {
    GeometryVertex::new()
        .with_position(position)
        .with_location(COLOR_LOCATION, colour)
}

fn add(a: [f32; 4], b: [f32; 4]) -> [f32; 4] {
    [0, 1, 2, 3].map(|i| a[i] + b[i])
}

/// Lifts a graw geometry shader and runs it on [`triangle`].
fn run(name: &str, resources: &Resources) -> (Stage, Vec<Strip>) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/corpus/tgsi/graw/geometry-shader")
        .join(format!("{name}.tgsi"));
    let text = std::fs::read_to_string(&path).unwrap();
    let func = lift(&text, &LiftOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
    let output = run_geometry(&func, resources, &triangle(), &Limits::default())
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    (func.stage, output.strips)
}

/// One strip of primitive 0, invocation 0, stream 0.
fn one_strip(vertices: Vec<GeometryVertex>) -> Vec<Strip> {
    vec![Strip {
        primitive: 0,
        invocation: 0,
        stream: 0,
        vertices,
    }]
}

#[test]
fn mov_passes_the_triangle_through() {
    let (stage, strips) = run("mov", &Resources::new());
    let g = stage.geometry().unwrap();
    assert_eq!(
        (g.input, g.output, g.max_vertices, g.invocations),
        (
            InputPrimitive::Triangles,
            OutputPrimitive::TriangleStrip,
            3,
            1
        )
    );
    assert_eq!(strips, one_strip((0..3).map(|k| out(P[k], C[k])).collect()));
}

#[test]
fn add_doubles_each_colour() {
    let (_, strips) = run("add", &Resources::new());
    let expected = (0..3).map(|k| out(P[k], add(C[k], C[k]))).collect();
    assert_eq!(strips, one_strip(expected));
}

#[test]
fn add_mix_adds_each_colour_to_the_next_vertex_colour() {
    let (_, strips) = run("add-mix", &Resources::new());
    // By hand: C0 + C1 = (1, 0.5, 0, 1.25), C1 + C2 = (0.125, 0.5, 2, 0.75),
    // C2 + C0 = (1.125, 0, 2, 1.5).
    let expected = vec![
        out(P[0], [1.0, 0.5, 0.0, 1.25]),
        out(P[1], [0.125, 0.5, 2.0, 0.75]),
        out(P[2], [1.125, 0.0, 2.0, 1.5]),
    ];
    assert_eq!(strips, one_strip(expected));
}

#[test]
fn line_outlines_the_triangle_with_the_default_vertex_limit() {
    let (stage, strips) = run("line", &Resources::new());
    let g = stage.geometry().unwrap();
    // No GS_MAX_OUTPUT_VERTICES: Mesa's draw module defaulted it to 32.
    assert_eq!((g.output, g.max_vertices), (OutputPrimitive::Lines, 32));
    // The second vertex takes vertex 0's colour (`MOV OUT[1], IN[0][1]`).
    let expected = vec![
        out(P[0], C[0]),
        out(P[1], C[0]),
        out(P[2], C[2]),
        out(P[0], C[0]),
    ];
    assert_eq!(strips, one_strip(expected));
}

#[test]
fn mov_cb_2d_reads_colours_from_constant_buffer_1() {
    // CONST[1][0..6]: register r holds (r, r + 0.5, -r, 1).
    let regs: Vec<f32> = (0..7)
        .flat_map(|r| [r as f32, r as f32 + 0.5, -(r as f32), 1.0])
        .collect();
    let mut resources = Resources::new();
    resources.bind_uniform(Binding::new(0, 1), f32_bytes(&regs));
    let (_, strips) = run("mov-cb-2d", &resources);
    let expected = vec![
        out(P[0], [0.0, 0.5, 0.0, 1.0]),
        out(P[1], [1.0, 1.5, -1.0, 1.0]),
        out(P[2], [4.0, 4.5, -4.0, 1.0]),
    ];
    assert_eq!(strips, one_strip(expected));
}

#[test]
fn mov_non_seq_reads_generic_1_from_input_register_3() {
    let (_, strips) = run("mov-non-seq", &Resources::new());
    assert_eq!(strips, one_strip((0..3).map(|k| out(P[k], G[k])).collect()));
}
