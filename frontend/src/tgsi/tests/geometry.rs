//! Geometry shaders: properties to modes, per-vertex inputs at constant and computed
//! vertices, the primitive and invocation ids, `EMIT`/`ENDPRIM` inside control flow, and the
//! errors that name their place.

use super::harness::lift_ok;
use crate::tgsi::{lift, LiftOptions, TgsiError};
use agxc_egraph::interp::{run_geometry, GeometryVertex, Limits, Resources, Strip};
use agxc_egraph::ir::{GeometryModes, InputPrimitive, OutputPrimitive, OutputSlot};

fn strips(text: &str, vertices: &[GeometryVertex]) -> Vec<Strip> {
    let func = lift_ok(text);
    run_geometry(&func, &Resources::new(), vertices, &Limits::default())
        .unwrap_or_else(|e| panic!("{e}\n{func}"))
        .strips
}

fn position(p: [f32; 4]) -> GeometryVertex {
    GeometryVertex::new().with_position(p)
}

fn error(text: &str) -> String {
    lift(text, &LiftOptions::default()).unwrap_err().to_string()
}

#[test]
fn properties_give_the_modes_and_missing_ones_take_mesas_defaults() {
    let func = lift_ok(
        "GEOM
PROPERTY GS_INPUT_PRIMITIVE LINES_ADJACENCY
PROPERTY GS_OUTPUT_PRIMITIVE POINTS
PROPERTY GS_MAX_OUTPUT_VERTICES 7
PROPERTY GS_INVOCATIONS 4
END
",
    );
    assert_eq!(
        func.stage.geometry(),
        Some(GeometryModes {
            input: InputPrimitive::LinesAdjacency,
            output: OutputPrimitive::Points,
            max_vertices: 7,
            invocations: 4,
        })
    );
    // Mesa 7.x's draw_gs.c: triangles in, triangle strip out, 32 vertices; one invocation.
    let func = lift_ok("GEOM\nEND\n");
    assert_eq!(
        func.stage.geometry(),
        Some(GeometryModes::new(
            InputPrimitive::Triangles,
            OutputPrimitive::TriangleStrip,
            32
        ))
    );
}

#[test]
fn invocations_pick_vertices_through_an_address_register() {
    // Invocation i of each line emits vertex i of the line, with the primitive id added to z.
    let text = "GEOM
PROPERTY GS_INPUT_PRIMITIVE LINES
PROPERTY GS_OUTPUT_PRIMITIVE POINTS
PROPERTY GS_MAX_OUTPUT_VERTICES 1
PROPERTY GS_INVOCATIONS 2
DCL IN[][0], POSITION
DCL SV[0], INVOCATIONID
DCL SV[1], PRIM_ID
DCL OUT[0], POSITION
DCL ADDR[0]
DCL TEMP[0]
UARL ADDR[0].x, SV[0].xxxx
MOV OUT[0], IN[ADDR[0].x][0]
I2F TEMP[0].x, SV[1].xxxx
ADD OUT[0].z, IN[ADDR[0].x][0].zzzz, TEMP[0].xxxx
EMIT
END
";
    let input = [
        position([1.0, 2.0, 0.5, 1.0]),
        position([3.0, 4.0, 0.25, 1.0]),
        position([5.0, 6.0, 0.0, 1.0]),
        position([7.0, 8.0, 0.75, 1.0]),
    ];
    let got = strips(text, &input);
    let point = |primitive, invocation, p: [f32; 4]| Strip {
        primitive,
        invocation,
        stream: 0,
        vertices: vec![position(p)],
    };
    // z + primitive id: 0.5 + 0, 0.25 + 0, 0.0 + 1, 0.75 + 1.
    assert_eq!(
        got,
        vec![
            point(0, 0, [1.0, 2.0, 0.5, 1.0]),
            point(0, 1, [3.0, 4.0, 0.25, 1.0]),
            point(1, 0, [5.0, 6.0, 1.0, 1.0]),
            point(1, 1, [7.0, 8.0, 1.75, 1.0]),
        ]
    );
}

#[test]
fn emit_inside_a_loop_and_endprim_inside_an_if() {
    // Three vertices at x + 0, 1, 2; the strip ends after the second.
    let text = "GEOM
PROPERTY GS_INPUT_PRIMITIVE POINTS
PROPERTY GS_OUTPUT_PRIMITIVE LINE_STRIP
PROPERTY GS_MAX_OUTPUT_VERTICES 4
DCL IN[][0], POSITION
DCL OUT[0], POSITION
DCL TEMP[0]
IMM[0] FLT32 {1.0, 3.0, 0.0, 2.0}
MOV TEMP[0].x, IMM[0].zzzz
BGNLOOP
  SGE TEMP[0].y, TEMP[0].xxxx, IMM[0].yyyy
  IF TEMP[0].yyyy
    BRK
  ENDIF
  ADD OUT[0].x, IN[0][0].xxxx, TEMP[0].xxxx
  MOV OUT[0].yzw, IN[0][0]
  EMIT
  ADD TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx
  SEQ TEMP[0].z, TEMP[0].xxxx, IMM[0].wwww
  IF TEMP[0].zzzz
    ENDPRIM
  ENDIF
ENDLOOP
END
";
    let got = strips(text, &[position([10.0, 20.0, 30.0, 1.0])]);
    let v = |x| position([x, 20.0, 30.0, 1.0]);
    let strip = |vertices| Strip {
        primitive: 0,
        invocation: 0,
        stream: 0,
        vertices,
    };
    assert_eq!(
        got,
        vec![strip(vec![v(10.0), v(11.0)]), strip(vec![v(12.0)])]
    );
}

#[test]
fn point_size_and_streams() {
    // PSIZE reads the point size into x (y, z, w read zero); EMIT names stream 1 by an
    // immediate.
    let text = "GEOM
PROPERTY GS_INPUT_PRIMITIVE POINTS
PROPERTY GS_OUTPUT_PRIMITIVE POINTS
PROPERTY GS_MAX_OUTPUT_VERTICES 1
DCL IN[][0], PSIZE
DCL OUT[0], GENERIC[2]
IMM[0] UINT32 {0, 1, 0, 0}
MOV OUT[0], IN[0][0]
EMIT IMM[0].yyyy
ENDPRIM IMM[0].yyyy
END
";
    let mut input = GeometryVertex::new();
    input.slots.insert(OutputSlot::PointSize, 4.5);
    let got = strips(text, &[input]);
    assert_eq!(
        got,
        vec![Strip {
            primitive: 0,
            invocation: 0,
            stream: 1,
            vertices: vec![GeometryVertex::new().with_location(2, [4.5, 0.0, 0.0, 0.0])],
        }]
    );
}

#[test]
fn geometry_errors_name_their_place() {
    let head = "GEOM\nPROPERTY GS_INPUT_PRIMITIVE TRIANGLES\nDCL IN[][0], POSITION\nDCL OUT[0], POSITION\n";
    assert_eq!(
        error("GEOM\nPROPERTY GS_INPUT_PRIMITIVE QUADS\nEND\n"),
        "2:10: unknown geometry input primitive `QUADS`"
    );
    assert_eq!(
        error("GEOM\nPROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_FAN\nEND\n"),
        "2:10: unknown geometry output primitive `TRIANGLE_FAN`"
    );
    assert_eq!(
        error("GEOM\nPROPERTY GS_INVOCATIONS 0\nEND\n"),
        "2:10: GS_INVOCATIONS must not be 0"
    );
    assert_eq!(
        error(&format!("{head}MOV OUT[0], IN[3][0]\nEND\n")),
        "5:13: vertex 3 is outside the triangles input primitive (3 vertices)"
    );
    assert_eq!(
        error(&format!("{head}MOV OUT[0], IN[0]\nEND\n")),
        "5:13: a geometry input is read per vertex: IN[vertex][index]"
    );
    assert_eq!(
        error(&format!("{head}DCL TEMP[0]\nEMIT TEMP[0].xxxx\nEND\n")),
        "6:6: EMIT: a vertex stream that is not an immediate is not supported"
    );
    assert_eq!(
        error(&format!(
            "{head}IMM[0] UINT32 {{4, 0, 0, 0}}\nENDPRIM IMM[0].xxxx\nEND\n"
        )),
        "6:9: vertex stream 4 (streams are 0 to 3)"
    );
    assert_eq!(
        error("GEOM\nDCL IN[0], GENERIC[0]\nEND\n"),
        "2:1: unsupported declaration: a geometry input without a vertex dimension (declare IN[][n])"
    );
    assert_eq!(
        error("VERT\nEMIT\nEND\n"),
        "2:1: EMIT: geometry output outside geometry shaders is not supported"
    );
    assert!(matches!(
        lift("TESS_CTRL\nEND\n", &LiftOptions::default()),
        Err(TgsiError::UnsupportedStage {
            stage: "TESS_CTRL",
            ..
        })
    ));
}

#[test]
fn an_indirect_location_selects_among_the_per_vertex_registers() {
    // IN[1][ADDR[0].x] with ADDR[0].x = 2 reads GENERIC[2] of vertex 1; the old-style PRIM_ID
    // input is not one of the registers the index ranges over.
    let text = "GEOM
PROPERTY GS_INPUT_PRIMITIVE LINES
PROPERTY GS_OUTPUT_PRIMITIVE POINTS
PROPERTY GS_MAX_OUTPUT_VERTICES 1
DCL IN[0], PRIM_ID
DCL IN[][1], GENERIC[1]
DCL IN[][2], GENERIC[2]
DCL OUT[0], GENERIC[0]
DCL ADDR[0]
IMM[0] INT32 {2, 0, 0, 0}
UARL ADDR[0].x, IMM[0].xxxx
MOV OUT[0], IN[1][ADDR[0].x]
EMIT
END
";
    let vertex = |g1: f32, g2: f32| {
        GeometryVertex::new()
            .with_location(1, [g1; 4])
            .with_location(2, [g2; 4])
    };
    let got = strips(text, &[vertex(1.0, 2.0), vertex(3.0, 4.0)]);
    assert_eq!(
        got,
        vec![Strip {
            primitive: 0,
            invocation: 0,
            stream: 0,
            vertices: vec![GeometryVertex::new().with_location(0, [4.0; 4])],
        }]
    );
}
