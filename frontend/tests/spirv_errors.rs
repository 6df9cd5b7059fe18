//! Every kind of rejected input gives an error naming the opcode, its word offset and the
//! function. The modules are `tests/data/errors/*.spvasm`, assembled with
//! `spirv-as --target-env vulkan1.1 X.spvasm -o X.spv`; the expected offsets are the byte
//! offsets `spirv-dis --offsets X.spv` prints for the instruction, divided by 4.

use agxc_frontend::spirv::{lift, LiftOptions, SpirvError};

fn lift_error(name: &str) -> SpirvError {
    let path = format!(
        "{}/tests/data/errors/{name}.spv",
        env!("CARGO_MANIFEST_DIR")
    );
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    match lift(&bytes, &LiftOptions::default()) {
        Ok(_) => panic!("{name}: lifted, expected an error"),
        Err(e) => e,
    }
}

/// Checks the error's location and that its message names the opcode and the offset.
fn check(
    name: &str,
    opcode: &str,
    byte_offset: u32,
    function: Option<&str>,
    matches: fn(&SpirvError) -> bool,
) {
    let e = lift_error(name);
    assert!(matches(&e), "{name}: unexpected error kind: {e:?}");
    let at = e
        .location()
        .unwrap_or_else(|| panic!("{name}: no location in {e:?}"));
    assert_eq!(at.opcode, opcode, "{name}: {e}");
    assert_eq!(at.offset, byte_offset / 4, "{name}: {e}");
    assert_eq!(at.function.as_deref(), function, "{name}: {e}");
    let msg = e.to_string();
    assert!(
        msg.contains(opcode),
        "{name}: message `{msg}` does not name {opcode}"
    );
    assert!(
        msg.contains(&format!("word {}", byte_offset / 4)),
        "{name}: message `{msg}` lacks the offset"
    );
    if let Some(f) = function {
        assert!(
            msg.contains(&format!("`{f}`")),
            "{name}: message `{msg}` lacks the function"
        );
    }
}

#[test]
fn unsupported_capability_float64() {
    check(
        "float64",
        "OpCapability",
        0x1c,
        None,
        |e| matches!(e, SpirvError::UnsupportedCapability { capability, .. } if capability == "Float64"),
    );
}

#[test]
fn unsupported_capability_int64_atomics() {
    check(
        "int64_atomics",
        "OpCapability",
        0x1c,
        None,
        |e| matches!(e, SpirvError::UnsupportedCapability { capability, .. } if capability == "Int64Atomics"),
    );
}

#[test]
fn unsupported_extension() {
    check(
        "extension",
        "OpExtension",
        0x1c,
        None,
        |e| matches!(e, SpirvError::UnsupportedExtension { name, .. } if name == "SPV_KHR_variable_pointers"),
    );
}

#[test]
fn unsupported_execution_model() {
    check(
        "tessellation",
        "OpEntryPoint",
        0x40,
        None,
        |e| matches!(e, SpirvError::Unsupported { what, .. } if what.contains("TessellationEvaluation")),
    );
}

#[test]
fn geometry_without_output_primitive() {
    check(
        "geometry",
        "OpEntryPoint",
        0x40,
        None,
        |e| matches!(e, SpirvError::Invalid { detail, .. } if detail.contains("output primitive")),
    );
}

#[test]
fn atomic_on_a_private_variable_is_refused() {
    check(
        "atomic_private",
        "OpAtomicIAdd",
        0x1dc,
        Some("main"),
        |e| matches!(e, SpirvError::Unsupported { what, .. } if what.contains("Private")),
    );
}

#[test]
fn atomic_on_a_storage_buffer_lifts() {
    // The module `atomic.spv`, once an error test, now lifts to one IR atomic.
    let path = format!(
        "{}/tests/data/errors/atomic.spv",
        env!("CARGO_MANIFEST_DIR")
    );
    let bytes = std::fs::read(path).expect("read");
    let func = lift(&bytes, &LiftOptions::default()).expect("lifts");
    assert!(
        func.to_string().contains("atomic add storage(0, 0)"),
        "{func}"
    );
}

#[test]
fn invalid_gather_component() {
    check(
        "gather",
        "OpImageGather",
        0x1e0,
        Some("main"),
        |e| matches!(e, SpirvError::Invalid { detail, .. } if detail.contains("component")),
    );
}

#[test]
fn unsupported_glsl_member_is_named() {
    check(
        "imix",
        "OpExtInst",
        0x12c,
        Some("main"),
        |e| matches!(e, SpirvError::Unsupported { what, .. } if what.contains("IMix")),
    );
}

#[test]
fn unsupported_decoration() {
    check(
        "decoration",
        "OpDecorate",
        0x8c,
        None,
        |e| matches!(e, SpirvError::UnsupportedDecoration { decoration, .. } if decoration == "Index"),
    );
}

#[test]
fn unknown_id() {
    // `%undefined` is assembled as %16 and never defined.
    check("unknown_id", "OpFAdd", 0x12c, Some("main"), |e| {
        matches!(e, SpirvError::UnknownId { id: 16, .. })
    });
}

#[test]
fn type_mismatch() {
    check("type_mismatch", "OpFAdd", 0x12c, Some("main"), |e| {
        matches!(e, SpirvError::TypeMismatch { .. })
    });
}

#[test]
fn unstructured_conditional_branch() {
    check(
        "unstructured",
        "OpBranchConditional",
        0x12c,
        Some("main"),
        |e| matches!(e, SpirvError::Unstructured { .. }),
    );
}

#[test]
fn unstructured_back_edge() {
    // The second `OpBranch %15` closes a cycle without an OpLoopMerge.
    check("back_edge", "OpBranch", 0x14c, Some("main"), |e| {
        matches!(e, SpirvError::Unstructured { .. })
    });
}

#[test]
fn not_spirv() {
    let e = lift(&[0u8, 1, 2, 3, 4, 5, 6, 7][..], &LiftOptions::default()).expect_err("not SPIR-V");
    assert!(matches!(e, SpirvError::NotSpirv(_)), "{e:?}");
    let e = lift(&[1u8, 2, 3][..], &LiftOptions::default()).expect_err("not whole words");
    assert!(matches!(e, SpirvError::NotSpirv(_)), "{e:?}");
}

#[test]
fn truncated_instruction_is_located() {
    let path = format!(
        "{}/tests/data/errors/atomic.spv",
        env!("CARGO_MANIFEST_DIR")
    );
    let bytes = std::fs::read(path).expect("read");
    // Cut the module inside OpAtomicIAdd (6 words at word 111, per spirv-dis --offsets).
    let e = lift(&bytes[..(111 + 3) * 4], &LiftOptions::default()).expect_err("truncated");
    let at = e.location().expect("located");
    assert_eq!(
        (at.opcode.as_str(), at.offset),
        ("OpAtomicIAdd", 111),
        "{e}"
    );
}

#[test]
fn entry_point_by_name() {
    let path = format!(
        "{}/tests/data/errors/float64.spv",
        env!("CARGO_MANIFEST_DIR")
    );
    let bytes = std::fs::read(path).expect("read");
    let options = LiftOptions {
        entry: Some("nope".into()),
        ..LiftOptions::default()
    };
    // The capability check comes first; an entry point is looked up only in a usable module.
    assert!(matches!(
        lift(&bytes, &options),
        Err(SpirvError::UnsupportedCapability { .. })
    ));
    let path = format!("{}/tests/data/control.spv", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(path).expect("read");
    let e = lift(&bytes, &options).expect_err("no such entry point");
    assert!(
        matches!(&e, SpirvError::EntryPoint(m) if m.contains("nope")),
        "{e:?}"
    );
    let ok = LiftOptions {
        entry: Some("main".into()),
        ..LiftOptions::default()
    };
    assert_eq!(lift(&bytes, &ok).expect("lifts").name, "main");
}
