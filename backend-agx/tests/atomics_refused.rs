//! The backend has no atomic instructions yet: compiling an IR `atomic` is a clear error naming
//! the instruction and the atomics, never a panic or a wrong program, on storage buffers and on
//! workgroup memory alike.

use agxc_backend_agx::{compile, BackendError, CompileOptions};
use agxc_egraph::ir::{parse_function, OpRegistry};

fn refusal(space: &str) -> BackendError {
    let text = format!(
        "function @a compute local_size(4, 1, 1) shared(4) {{
block0:
    v0:i32 = const 0
    v1:i32 = builtin local_index
    v2:i32 = atomic add {space} [v0], v1
    store storage(0, 1) [v0], v2
    return
}}
"
    );
    let func = parse_function(&text, &OpRegistry::new()).unwrap();
    compile(&func, &CompileOptions::default()).unwrap_err()
}

#[test]
fn atomics_are_refused_by_name() {
    for space in ["storage(0, 0)", "shared"] {
        let err = refusal(space);
        assert!(
            matches!(err, BackendError::UnsupportedInst { .. }),
            "{err:?}"
        );
        let message = err.to_string();
        assert!(
            message.contains("atomic memory operations")
                && message.ends_with("not supported by the G13 backend"),
            "{message}"
        );
    }
}
