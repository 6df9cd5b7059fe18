//! The G13 has no geometry stage: compiling a geometry function is a clear error naming the
//! stage, never a panic or a wrong program.

use agxc_backend_agx::{compile, BackendError, CompileOptions};
use agxc_egraph::ir::{parse_function, OpRegistry};

#[test]
fn a_geometry_function_is_refused_by_name() {
    let func = parse_function(
        "function @gs geometry input(triangles) output(triangle_strip) max_vertices(1) invocations(1) {
block0:
    v0:i32 = const 0
    v1:f32 = vertex_input position.x v0
    output position.x v1
    emit_vertex 0
    end_primitive 0
    return
}
",
        &OpRegistry::new(),
    )
    .unwrap();
    let err = compile(&func, &CompileOptions::default()).unwrap_err();
    assert!(matches!(err, BackendError::Unsupported { .. }), "{err:?}");
    let message = err.to_string();
    assert!(
        message.starts_with("the geometry stage")
            && message.ends_with("not supported by the G13 backend"),
        "{message}"
    );
}
