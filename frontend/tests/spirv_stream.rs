//! Word-level checks before decoding: an `OpSpecConstantOp` whose operation `rspirv` cannot
//! parse (it used to panic inside `rspirv`), and the header's id bound (word 3).

use agxc_frontend::spirv::{lift, LiftOptions, SpirvError, MAX_ID_BOUND};

/// `control.spv` (glslang output) as words.
fn seed() -> Vec<u32> {
    let path = format!("{}/tests/data/control.spv", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Offset of the first instruction with this opcode.
fn find(words: &[u32], opcode: u32) -> usize {
    let mut at = 5;
    while at < words.len() {
        if words[at] & 0xffff == opcode {
            return at;
        }
        at += (words[at] >> 16) as usize;
    }
    panic!("no opcode {opcode}");
}

/// Inserts `%bound-1 = OpSpecConstantOp %type <operation> <operands>` before the first
/// `OpFunction`, with the id of the module's first `OpTypeInt` as its type. Returns the words
/// and the instruction's offset.
fn with_spec_op(operation: u32, operands: &[u32]) -> (Vec<u32>, usize) {
    let mut words = seed();
    let int_ty = words[find(&words, 21) + 1];
    let id = words[3];
    words[3] += 1;
    let mut inst = vec![0, int_ty, id, operation];
    inst.extend_from_slice(operands);
    inst[0] = (inst.len() as u32) << 16 | 52;
    let at = find(&words, 54);
    words.splice(at..at, inst);
    (words, at)
}

#[test]
fn spec_constant_op_rspirv_cannot_parse_is_an_error() {
    // OpSwitch (251): a PairLiteralIntegerIdRef operand; OpConstant (43), OpSpecConstant (50):
    // a context-dependent literal; OpSpecConstantOp (52): a nested operation. Each reached a
    // `panic!` in rspirv 0.13's operand parser.
    for (operation, name) in [
        (251, "OpSwitch"),
        (43, "OpConstant"),
        (50, "OpSpecConstant"),
        (52, "OpSpecConstantOp"),
    ] {
        let (words, at) = with_spec_op(operation, &[1, 2, 3, 4]);
        let e = lift(&words, &LiftOptions::default()).expect_err("refused");
        let msg = e.to_string();
        assert!(matches!(e, SpirvError::Decode { .. }), "{msg}");
        let loc = e.location().expect("names the instruction");
        assert_eq!(
            (loc.opcode.as_str(), loc.offset),
            ("OpSpecConstantOp", at as u32)
        );
        assert!(msg.contains(name) && !msg.contains('\n'), "{msg}");
    }
    // An operation rspirv parses but SPIR-V does not allow there is refused by the lifter.
    let (words, _) = with_spec_op(127, &[1]); // OpFNegate (Kernel only)
    let e = lift(&words, &LiftOptions::default()).expect_err("refused");
    assert!(e.to_string().contains("OpSpecConstantOp"), "{e}");
}

fn header_error(words: &[u32]) -> String {
    let e = lift(words, &LiftOptions::default()).expect_err("refused");
    assert!(
        matches!(e, SpirvError::Header { word: 3, .. }),
        "unexpected error {e:?}"
    );
    let msg = e.to_string();
    assert!(msg.starts_with("header word 3: id bound"), "{msg}");
    assert!(!msg.contains('\n'));
    msg
}

#[test]
fn id_bound_zero_too_large_or_too_small_is_an_error() {
    let good = seed();
    lift(&good, &LiftOptions::default()).expect("the seed lifts");
    let bound = good[3];

    let mut w = good.clone();
    w[3] = 0;
    assert!(header_error(&w).contains("id bound 0"));

    for huge in [MAX_ID_BOUND + 1, u32::MAX] {
        let mut w = good.clone();
        w[3] = huge;
        assert!(header_error(&w).contains(&huge.to_string()));
    }
    // The universal limit itself is allowed.
    let mut w = good.clone();
    w[3] = MAX_ID_BOUND;
    lift(&w, &LiftOptions::default()).expect("a bound at the limit lifts");

    // One below the largest id used: the message names the bound and an instruction using
    // the id.
    let mut w = good.clone();
    w[3] = bound - 1;
    let msg = header_error(&w);
    assert!(
        msg.contains(&format!("id bound {}", bound - 1))
            && msg.contains(&format!("%{}", bound - 1)),
        "{msg}"
    );
    let mut w = good;
    w[3] = 1;
    assert!(header_error(&w).contains("id bound 1,"));
}
