//! SPIR-V geometry shaders (`tests/data/geometry/*.geom`, built with
//! `glslangValidator -V -S geom X.geom -o X.spv`) lifted and run with the reference
//! interpreter's `run_geometry` on hand-given input vertices. The expected vertices are worked
//! out by hand from each shader's GLSL; the inputs make every sum and product exact in f32.
//!
//! `expand.tgsi` is the TGSI softpipe (Mesa 22.3.6) made of the same shader in its GL form
//! (`expand_gl.geom`, dumped with `SOFTPIPE_DEBUG=gs` while linking it with a pass-through
//! vertex and fragment shader): the two front ends' lifts must run to the same vertices.

use agxc_egraph::interp::{run_geometry, GeometryVertex, Limits, Resources, Strip};
use agxc_egraph::ir::{InputPrimitive, OutputPrimitive, OutputSlot};
use agxc_frontend::spirv::{lift, LiftOptions};

fn lift_geometry(name: &str) -> agxc_egraph::ir::Function {
    let path = format!(
        "{}/tests/data/geometry/{name}.spv",
        env!("CARGO_MANIFEST_DIR")
    );
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    lift(&bytes, &LiftOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn scale(a: [f32; 4], k: f32) -> [f32; 4] {
    a.map(|x| x * k)
}

/// Two triangles: positions `p[prim][k]`, location 0 `c[prim][k]`.
fn two_triangles(p: [[[f32; 4]; 3]; 2], c: [[[f32; 4]; 3]; 2]) -> Vec<GeometryVertex> {
    (0..2)
        .flat_map(|prim| {
            (0..3).map(move |k| {
                GeometryVertex::new()
                    .with_position(p[prim][k])
                    .with_location(0, c[prim][k])
            })
        })
        .collect()
}

#[test]
fn expand_moves_each_triangle_per_invocation() {
    let func = lift_geometry("expand");
    let g = func.stage.geometry().expect("a geometry stage");
    assert_eq!(
        (g.input, g.output, g.max_vertices, g.invocations),
        (
            InputPrimitive::Triangles,
            OutputPrimitive::TriangleStrip,
            6,
            2
        )
    );
    // Two triangles: positions P[p][k], colours (location 0) C[p][k].
    let p: [[[f32; 4]; 3]; 2] = [
        [
            [0.0, 0.0, 0.0, 1.0],
            [1.0, 0.0, 0.5, 1.0],
            [0.0, 1.0, 0.25, 1.0],
        ],
        [
            [-1.0, -1.0, 0.0, 1.0],
            [-0.5, -1.0, 0.0, 1.0],
            [-1.0, -0.5, 0.75, 1.0],
        ],
    ];
    let c: [[[f32; 4]; 3]; 2] = [
        [
            [1.0, 2.0, 3.0, 4.0],
            [5.0, 6.0, 7.0, 8.0],
            [9.0, 10.0, 11.0, 12.0],
        ],
        [
            [0.5, 0.25, 0.125, 1.0],
            [2.0, 4.0, 8.0, 16.0],
            [-1.0, -2.0, -3.0, -4.0],
        ],
    ];
    let out = run_geometry(
        &func,
        &Resources::new(),
        &two_triangles(p, c),
        &Limits::default(),
    )
    .unwrap();
    // Per primitive, then invocation: gl_Position = P + (invocation, 0, 0, 0) and
    // ocolor = C * (primitive + 1), for the three vertices in order, one strip.
    let mut expected = Vec::new();
    for prim in 0..2u32 {
        for inv in 0..2u32 {
            let vertices = (0..3)
                .map(|k| {
                    let mut pos = p[prim as usize][k];
                    pos[0] += inv as f32;
                    GeometryVertex::new()
                        .with_position(pos)
                        .with_location(0, scale(c[prim as usize][k], (prim + 1) as f32))
                })
                .collect();
            expected.push(Strip {
                primitive: prim,
                invocation: inv,
                stream: 0,
                vertices,
            });
        }
    }
    assert_eq!(out.strips, expected);
}

#[test]
fn streams_split_outputs_and_point_size_doubles() {
    let func = lift_geometry("streams");
    let g = func.stage.geometry().expect("a geometry stage");
    assert_eq!(
        (g.input, g.output, g.max_vertices, g.invocations),
        (InputPrimitive::Points, OutputPrimitive::Points, 4, 1)
    );
    let mut v = GeometryVertex::new()
        .with_position([0.5, -0.25, 0.125, 1.0])
        .with_location(0, [2.0, 4.0, 0.0, 0.0]);
    v.slots.insert(OutputSlot::PointSize, 3.0);
    let out = run_geometry(&func, &Resources::new(), &[v], &Limits::default()).unwrap();
    // Stream 0: position p + (2, 4, 0, 0), point size 6, `first` = (1, 2, 3, 4).
    let mut v0 = GeometryVertex::new()
        .with_position([2.5, 3.75, 0.125, 1.0])
        .with_location(0, [1.0, 2.0, 3.0, 4.0]);
    v0.slots.insert(OutputSlot::PointSize, 6.0);
    // Stream 1: only `second` = 3 p. `first` and the gl_PerVertex block (position, point
    // size) are stream 0's: GLSL puts outputs without a stream qualifier on stream 0.
    let v1 = GeometryVertex::new().with_location(1, [1.5, -0.75, 0.375, 3.0]);
    let strip = |stream, vertex| Strip {
        primitive: 0,
        invocation: 0,
        stream,
        vertices: vec![vertex],
    };
    assert_eq!(out.strips, vec![strip(0, v0), strip(1, v1)]);
}

#[test]
fn clip_distance_inputs_are_refused_where_read() {
    let path = format!(
        "{}/tests/data/geometry/clip.spv",
        env!("CARGO_MANIFEST_DIR")
    );
    let bytes = std::fs::read(&path).unwrap();
    let err = lift(&bytes, &LiftOptions::default()).unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.contains("OpLoad") && msg.contains("gl_PerVertex"),
        "{msg}"
    );
}

#[test]
fn softpipe_tgsi_of_the_same_shader_runs_to_the_same_vertices() {
    let spirv = lift_geometry("expand");
    let path = format!(
        "{}/tests/data/geometry/expand.tgsi",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap();
    let tgsi = agxc_frontend::tgsi::lift(&text, &agxc_frontend::tgsi::LiftOptions::default())
        .unwrap_or_else(|e| panic!("expand.tgsi: {e}"));
    assert_eq!(spirv.stage, tgsi.stage);
    // Inputs whose products and sums are exact, with negative and fractional values.
    let p = [
        [
            [0.25, -0.5, 0.0, 1.0],
            [1.5, 0.0, 0.5, 1.0],
            [-2.0, 1.0, 0.25, 1.0],
        ],
        [
            [3.0, 3.0, 0.0, 1.0],
            [-0.5, -1.0, 0.125, 1.0],
            [-1.0, -0.5, 0.75, 1.0],
        ],
    ];
    let c = [
        [
            [0.5, -2.0, 3.0, 4.0],
            [5.0, 6.0, -7.0, 8.0],
            [9.0, 10.0, 11.0, -12.0],
        ],
        [
            [0.5, 0.25, 0.125, 1.0],
            [2.0, 4.0, 8.0, 16.0],
            [-1.0, -2.0, -3.0, -4.0],
        ],
    ];
    let input = two_triangles(p, c);
    let run = |f| run_geometry(f, &Resources::new(), &input, &Limits::default()).unwrap();
    let (a, b) = (run(&spirv), run(&tgsi));
    assert_eq!(a.strips.len(), 4);
    assert_eq!(a.strips, b.strips);
}
