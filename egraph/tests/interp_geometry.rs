//! The geometry stage: the reference interpreter's emission model (strips, primitive ends,
//! outputs undefined after an emit, invocations, computed vertex indices) and its errors, and
//! the verifier's geometry rules. Expected outputs are worked out by hand from the inputs.

use agxc_egraph::interp::{
    run_geometry, run_vertex, GeometryVertex, InterpError, Limits, Resources, Strip,
};
use agxc_egraph::ir::{parse_function, verify, Function, OpRegistry, OutputSlot, VerifyErrorKind};
use std::collections::BTreeMap;

fn parse(text: &str) -> Function {
    parse_function(text, &OpRegistry::new()).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn run(text: &str, vertices: &[GeometryVertex]) -> Result<Vec<Strip>, InterpError> {
    let func = parse(text);
    run_geometry(&func, &Resources::new(), vertices, &Limits::default()).map(|out| out.strips)
}

const PX: OutputSlot = OutputSlot::Position(0);
const PY: OutputSlot = OutputSlot::Position(1);

fn loc(location: u32, component: u8) -> OutputSlot {
    OutputSlot::Location {
        location,
        component,
    }
}

/// A vertex with exactly these slots.
fn vertex(slots: &[(OutputSlot, f32)]) -> GeometryVertex {
    GeometryVertex {
        slots: slots.iter().copied().collect::<BTreeMap<_, _>>(),
    }
}

fn strip(primitive: u32, invocation: u32, vertices: Vec<GeometryVertex>) -> Strip {
    Strip {
        primitive,
        invocation,
        stream: 0,
        vertices,
    }
}

/// Passes each triangle through with its colour (location 1.x) doubled, ends the strip, and
/// emits a fourth vertex that writes only `position.x`.
const DOUBLE_COLOURS: &str = "\
function @double_colours geometry input(triangles) output(triangle_strip) max_vertices(4) invocations(1) {
block0:
    v0:i32 = const 0
    v1:i32 = const 1
    v2:i32 = const 2
    v3:f32 = vertex_input position.x v0
    v4:f32 = vertex_input position.y v0
    v5:f32 = vertex_input 1.x v0
    v6:f32 = fadd v5, v5
    output position.x v3
    output position.y v4
    output 1.x v6
    emit_vertex 0
    v7:f32 = vertex_input position.x v1
    v8:f32 = vertex_input position.y v1
    v9:f32 = vertex_input 1.x v1
    v10:f32 = fadd v9, v9
    output position.x v7
    output position.y v8
    output 1.x v10
    emit_vertex 0
    v11:f32 = vertex_input position.x v2
    v12:f32 = vertex_input position.y v2
    v13:f32 = vertex_input 1.x v2
    v14:f32 = fadd v13, v13
    output position.x v11
    output position.y v12
    output 1.x v14
    emit_vertex 0
    end_primitive 0
    output position.x v3
    emit_vertex 0
    return
}
";

#[test]
fn triangles_pass_through_with_strip_ends_and_undefined_outputs_after_emit() {
    let input = [
        vertex(&[(PX, 0.0), (PY, 0.0), (loc(1, 0), 0.25)]),
        vertex(&[(PX, 1.0), (PY, 0.0), (loc(1, 0), 0.5)]),
        vertex(&[(PX, 0.0), (PY, 1.0), (loc(1, 0), 0.75)]),
        vertex(&[(PX, 2.0), (PY, 2.0), (loc(1, 0), 1.5)]),
        vertex(&[(PX, 3.0), (PY, 2.0), (loc(1, 0), -2.0)]),
        vertex(&[(PX, 2.0), (PY, 3.0), (loc(1, 0), 3.0)]),
    ];
    let strips = run(DOUBLE_COLOURS, &input).unwrap();
    // Doubling is exact, so the expected colours are 2x the inputs; the vertex after
    // `end_primitive` starts a second strip and carries only the slot written after the
    // previous emit.
    let expected = vec![
        strip(
            0,
            0,
            vec![
                vertex(&[(PX, 0.0), (PY, 0.0), (loc(1, 0), 0.5)]),
                vertex(&[(PX, 1.0), (PY, 0.0), (loc(1, 0), 1.0)]),
                vertex(&[(PX, 0.0), (PY, 1.0), (loc(1, 0), 1.5)]),
            ],
        ),
        strip(0, 0, vec![vertex(&[(PX, 0.0)])]),
        strip(
            1,
            0,
            vec![
                vertex(&[(PX, 2.0), (PY, 2.0), (loc(1, 0), 3.0)]),
                vertex(&[(PX, 3.0), (PY, 2.0), (loc(1, 0), -4.0)]),
                vertex(&[(PX, 2.0), (PY, 3.0), (loc(1, 0), 6.0)]),
            ],
        ),
        strip(1, 0, vec![vertex(&[(PX, 2.0)])]),
    ];
    assert_eq!(strips, expected);
}

#[test]
fn invocations_see_their_primitive_and_invocation_ids() {
    let text = "\
function @ids geometry input(points) output(points) max_vertices(1) invocations(3) {
block0:
    v0:i32 = builtin primitive_id
    v1:i32 = builtin invocation_id
    v2:i32 = const 10
    v3:i32 = imul v0, v2
    v4:i32 = iadd v3, v1
    v5:i32 = const 0
    v6:f32 = vertex_input position.x v5
    output position.x v6
    output 0.x v4
    emit_vertex 0
    return
}
";
    let input = [vertex(&[(PX, 7.0)]), vertex(&[(PX, 8.0)])];
    let strips = run(text, &input).unwrap();
    let mut expected = Vec::new();
    for p in 0..2u32 {
        for i in 0..3u32 {
            // An integer output is recorded as its 32-bit pattern.
            let id = f32::from_bits(10 * p + i);
            let v = vertex(&[(PX, 7.0 + p as f32), (loc(0, 0), id)]);
            expected.push(strip(p, i, vec![v]));
        }
    }
    assert_eq!(strips, expected);
}

#[test]
fn a_loop_emits_with_computed_vertex_indices() {
    let text = "\
function @lines geometry input(lines) output(line_strip) max_vertices(2) invocations(1) {
block0:
    v0:i32 = const 0
    v1:i32 = const 2
    v2:i32 = const 1
    loop v0 {
    block1(v3:i32):
        v4:bool = sge v3, v1
        if v4 {
        block2:
            break
        } else {
        block3:
            yield
        }
        v5:f32 = vertex_input 0.x v3
        output 0.x v5
        emit_vertex 0
        v6:i32 = iadd v3, v2
        continue v6
    }
    return
}
";
    let x = |v: f32| vertex(&[(loc(0, 0), v)]);
    let strips = run(text, &[x(1.0), x(2.0), x(3.0), x(4.0)]).unwrap();
    assert_eq!(
        strips,
        vec![
            strip(0, 0, vec![x(1.0), x(2.0)]),
            strip(1, 0, vec![x(3.0), x(4.0)]),
        ]
    );
}

#[test]
fn emission_may_diverge_between_invocations() {
    // Primitive 0 emits inside the `if` and ends its strip, so its last vertex starts a new
    // strip and has only 0.y; primitive 1 skips the `if` and emits one vertex with both.
    let text = "\
function @diverge geometry input(points) output(points) max_vertices(2) invocations(1) {
block0:
    v0:i32 = builtin primitive_id
    v1:i32 = const 0
    v2:bool = ieq v0, v1
    v3:f32 = vertex_input 0.x v1
    output 0.x v3
    if v2 {
    block1:
        emit_vertex 0
        end_primitive 0
        yield
    } else {
    block2:
        yield
    }
    output 0.y v3
    emit_vertex 0
    return
}
";
    let input = [vertex(&[(loc(0, 0), 5.0)]), vertex(&[(loc(0, 0), 6.0)])];
    let strips = run(text, &input).unwrap();
    assert_eq!(
        strips,
        vec![
            strip(0, 0, vec![vertex(&[(loc(0, 0), 5.0)])]),
            strip(0, 0, vec![vertex(&[(loc(0, 1), 5.0)])]),
            strip(1, 0, vec![vertex(&[(loc(0, 0), 6.0), (loc(0, 1), 6.0)])]),
        ]
    );
}

#[test]
fn streams_keep_separate_strips() {
    let text = "\
function @streams geometry input(points) output(points) max_vertices(3) invocations(1) {
block0:
    v0:i32 = const 0
    v1:f32 = vertex_input 0.x v0
    output 0.x v1
    emit_vertex 0
    output 0.y v1
    emit_vertex 1
    output 0.z v1
    emit_vertex 0
    return
}
";
    let strips = run(text, &[vertex(&[(loc(0, 0), 9.0)])]).unwrap();
    let on = |stream, vertices| Strip {
        primitive: 0,
        invocation: 0,
        stream,
        vertices,
    };
    assert_eq!(
        strips,
        vec![
            on(
                0,
                vec![vertex(&[(loc(0, 0), 9.0)]), vertex(&[(loc(0, 2), 9.0)])]
            ),
            on(1, vec![vertex(&[(loc(0, 1), 9.0)])]),
        ]
    );
}

#[test]
fn integer_inputs_read_the_bit_pattern() {
    let text = "\
function @ints geometry input(points) output(points) max_vertices(1) invocations(1) {
block0:
    v0:i32 = const 0
    v1:i32 = vertex_input 2.w v0
    v2:i32 = const 1
    v3:i32 = iadd v1, v2
    output 0.x v3
    emit_vertex 0
    return
}
";
    let strips = run(text, &[vertex(&[(loc(2, 3), f32::from_bits(41))])]).unwrap();
    assert_eq!(
        strips,
        vec![strip(
            0,
            0,
            vec![vertex(&[(loc(0, 0), f32::from_bits(42))])]
        )]
    );
}

#[test]
fn launch_and_run_errors_name_their_cause() {
    let three = [
        vertex(&[(PX, 0.0), (PY, 0.0)]),
        vertex(&[(PX, 1.0), (PY, 0.0)]),
        vertex(&[(PX, 0.0), (PY, 1.0)]),
    ];
    // Not a whole number of triangles.
    assert!(matches!(
        run(DOUBLE_COLOURS, &three[..2]),
        Err(InterpError::PrimitiveVertices {
            vertices: 2,
            per_primitive: 3,
            ..
        })
    ));
    // Two invocations that may emit four vertices each need 8 lanes' worth.
    let small = Limits {
        max_lanes: 7,
        ..Limits::default()
    };
    let two = [three.clone(), three.clone()].concat();
    assert!(matches!(
        run_geometry(&parse(DOUBLE_COLOURS), &Resources::new(), &two, &small),
        Err(InterpError::GeometrySize {
            invocations: 2,
            max_vertices: 4,
            limit: 7
        })
    ));
    // The vertices lack the colour the shader reads: vertex 0's location 1.x.
    assert!(matches!(
        run(DOUBLE_COLOURS, &three),
        Err(InterpError::MissingVertexSlot { vertex: 0, slot, .. }) if slot == loc(1, 0)
    ));
    // A computed index past the triangle's three vertices.
    let index = "\
function @index geometry input(triangles) output(points) max_vertices(1) invocations(2) {
block0:
    v0:i32 = builtin invocation_id
    v1:i32 = const 2
    v2:i32 = iadd v0, v1
    v3:f32 = vertex_input position.x v2
    return
}
";
    assert!(matches!(
        run(index, &three),
        Err(InterpError::VertexIndex {
            index: 3,
            count: 3,
            ..
        })
    ));
    // One vertex allowed, two emitted.
    let many = "\
function @many geometry input(points) output(points) max_vertices(1) invocations(1) {
block0:
    emit_vertex 0
    emit_vertex 0
    return
}
";
    let err = run(many, &three[..1]).unwrap_err();
    assert!(matches!(err, InterpError::TooManyVertices { limit: 1, .. }));
    assert_eq!(
        err.to_string(),
        "inst1: emits more than max_vertices = 1 vertices"
    );
    // The wrong runner for either stage.
    let func = parse(many);
    assert!(matches!(
        run_vertex(
            &func,
            &Resources::new(),
            1,
            &BTreeMap::new(),
            &Limits::default()
        ),
        Err(InterpError::WrongStage {
            expected: "vertex",
            got: "geometry"
        })
    ));
    let compute = parse("function @c compute local_size(1, 1, 1) {\nblock0:\n    return\n}\n");
    assert!(matches!(
        run_geometry(&compute, &Resources::new(), &[], &Limits::default()),
        Err(InterpError::WrongStage {
            expected: "geometry",
            got: "compute"
        })
    ));
}

/// The kinds of the verifier's errors for a function text.
fn verify_errors(text: &str) -> Vec<VerifyErrorKind> {
    match verify(&parse(text)) {
        Ok(()) => Vec::new(),
        Err(e) => e.errors.into_iter().map(|e| e.kind).collect(),
    }
}

fn geometry(body: &str) -> String {
    format!(
        "function @g geometry input(triangles) output(triangle_strip) max_vertices(3) \
         invocations(1) {{\nblock0:\n{body}    return\n}}\n"
    )
}

#[test]
fn the_verifier_checks_geometry_rules() {
    // Emission outside the geometry stage.
    let kinds = verify_errors("function @v vertex {\nblock0:\n    emit_vertex 0\n    return\n}\n");
    assert!(
        matches!(&kinds[..], [VerifyErrorKind::WrongStage { what, allowed: "geometry", .. }] if what == "`emit_vertex`"),
        "{kinds:?}"
    );
    // A geometry shader reads inputs per vertex.
    let kinds = verify_errors(&geometry("    v0:f32 = input 0.x flat\n"));
    assert!(
        matches!(
            &kinds[..],
            [VerifyErrorKind::WrongStage {
                allowed: "fragment and vertex",
                ..
            }]
        ),
        "{kinds:?}"
    );
    // The vertex index is an i32.
    let kinds = verify_errors(&geometry(
        "    v0:f32 = const 1.0\n    v1:f32 = vertex_input 0.x v0\n",
    ));
    assert!(
        matches!(&kinds[..], [VerifyErrorKind::Effect(_)]),
        "{kinds:?}"
    );
    // A constant index must name one of the triangle's vertices.
    let kinds = verify_errors(&geometry(
        "    v0:i32 = const 3\n    v1:f32 = vertex_input 0.x v0\n",
    ));
    assert_eq!(kinds, [VerifyErrorKind::VertexIndex { index: 3, count: 3 }]);
    let kinds = verify_errors(&geometry(
        "    v0:i32 = const -1\n    v1:f32 = vertex_input 0.x v0\n",
    ));
    assert_eq!(
        kinds,
        [VerifyErrorKind::VertexIndex {
            index: -1,
            count: 3
        }]
    );
    // No vertex has a fragment depth.
    let kinds = verify_errors(&geometry(
        "    v0:i32 = const 0\n    v1:f32 = vertex_input frag_depth v0\n",
    ));
    assert_eq!(kinds, [VerifyErrorKind::NotAVertexSlot]);
    // Streams 0 to 3.
    let kinds = verify_errors(&geometry("    emit_vertex 4\n"));
    assert!(
        matches!(
            &kinds[..],
            [VerifyErrorKind::Component {
                component: 4,
                max: 3,
                ..
            }]
        ),
        "{kinds:?}"
    );
    // The ids are geometry built-ins.
    let kinds = verify_errors(
        "function @f fragment {\nblock0:\n    v0:i32 = builtin primitive_id\n    return\n}\n",
    );
    assert!(
        matches!(
            &kinds[..],
            [VerifyErrorKind::WrongStage {
                allowed: "geometry",
                ..
            }]
        ),
        "{kinds:?}"
    );
    // Modes within what every implementation supports.
    let kinds = verify_errors(
        "function @g geometry input(points) output(points) max_vertices(257) invocations(0) {\nblock0:\n    return\n}\n",
    );
    assert_eq!(
        kinds,
        [
            VerifyErrorKind::GeometryLimit {
                what: "max_vertices",
                value: 257,
                min: 0,
                max: 256
            },
            VerifyErrorKind::GeometryLimit {
                what: "invocations",
                value: 0,
                min: 1,
                max: 32
            },
        ]
    );
    // A well-formed geometry function verifies.
    assert_eq!(verify_errors(DOUBLE_COLOURS), []);
}
