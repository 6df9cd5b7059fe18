//! Atomics through the interpreter: every operation's new value and returned old value, the
//! documented order (ascending lanes, workgroups in dispatch order), workgroup-shared memory,
//! and the errors (out of bounds, misaligned, read-only space).

mod interp_support;

use agxc_egraph::interp::{u32_bytes, InterpError};
use interp_support::{i32s, run_compute_text};

/// One lane: buffer 0 holds `[old, cmp, v]`; the atomic runs on word 0 and its result goes to
/// buffer 1.
fn one_lane(op: &str, old: i32, cmp: i32, v: i32) -> (i32, i32) {
    let values = if op == "cmpxchg" { "v2, v3" } else { "v3" };
    let text = format!(
        "
function @one compute local_size(1, 1, 1) {{
block0:
    v0:i32 = const 0
    v1:i32, v2:i32, v3:i32 = load storage(0, 0) [v0]
    v4:i32 = atomic {op} storage(0, 0) [v0], {values}
    store storage(0, 1) [v0], v4
    return
}}
"
    );
    let words = [old as u32, cmp as u32, v as u32];
    let (res, _) = run_compute_text(&text, [1, 1, 1], &[u32_bytes(&words), vec![0; 4]])
        .unwrap_or_else(|e| panic!("{op}: {e}"));
    (i32s(&res, 0)[0], i32s(&res, 1)[0])
}

#[test]
fn every_operation_returns_the_old_value_and_writes_the_new() {
    // (op, old, cmp, v, new), worked out by hand.
    let table = [
        ("add", 7, 0, -3, 4),
        ("add", i32::MAX, 0, 1, i32::MIN),
        ("sub", 5, 0, 7, -2),
        ("sub", i32::MIN, 0, 1, i32::MAX),
        ("smin", -1, 0, 3, -1),
        ("umin", -1, 0, 3, 3),
        ("smax", -1, 0, 3, 3),
        ("umax", -1, 0, 3, -1),
        ("and", 0b1100, 0, 0b1010, 0b1000),
        ("or", 0b1100, 0, 0b1010, 0b1110),
        ("xor", 0b1100, 0, 0b1010, 0b0110),
        ("xchg", 9, 0, 42, 42),
        ("cmpxchg", 5, 5, 8, 8),
        ("cmpxchg", 5, 6, 8, 5),
    ];
    for (op, old, cmp, v, new) in table {
        assert_eq!(
            one_lane(op, old, cmp, v),
            (new, old),
            "{op} old {old} cmp {cmp} v {v}"
        );
    }
}

const COUNTER: &str = "
function @counter compute local_size(4, 1, 1) {
block0:
    v0:i32 = builtin global_id.x
    v1:i32 = const 1
    v2:i32 = iadd v0, v1
    v3:i32 = const 0
    v4:i32 = atomic add storage(0, 0) [v3], v2
    v5:i32 = const 4
    v6:i32 = imul v0, v5
    store storage(0, 1) [v6], v4
    return
}
";

#[test]
fn lanes_run_in_ascending_order_and_workgroups_in_dispatch_order() {
    // Global invocation g adds g + 1: group 0 adds 1, 2, 3, 4, group 1 adds 5, 6, 7, 8, so
    // the old values are the running sums 0, 1, 3, 6, 10, 15, 21, 28 and the total is 36.
    let (res, _) = run_compute_text(COUNTER, [2, 1, 1], &[vec![0; 4], vec![0; 32]]).unwrap();
    assert_eq!(i32s(&res, 0), [36]);
    assert_eq!(i32s(&res, 1), [0, 1, 3, 6, 10, 15, 21, 28]);
}

const SHARED: &str = "
function @shared compute local_size(8, 1, 1) shared(8) {
block0:
    v0:i32 = builtin local_index
    v1:i32 = const 0
    v2:i32 = const 1
    v3:i32 = iadd v0, v2
    v4:i32 = atomic umax shared [v1], v0
    v5:i32 = atomic cmpxchg shared [v1 + 4], v1, v3
    barrier workgroup
    v6:i32, v7:i32 = load shared [v1]
    v8:i32 = const 4
    v9:i32 = imul v0, v8
    store storage(0, 0) [v9], v5
    store storage(0, 1) [v1], v6, v7
    return
}
";

#[test]
fn shared_memory_atomics_start_from_zero_in_each_workgroup() {
    // umax of the lane indices 0..8 is 7; only lane 0 finds 0 to swap for its 1, so the
    // others see 1.
    let (res, _) = run_compute_text(SHARED, [2, 1, 1], &[vec![0; 32], vec![0; 8]]).unwrap();
    assert_eq!(i32s(&res, 0), [0, 1, 1, 1, 1, 1, 1, 1]);
    assert_eq!(i32s(&res, 1), [7, 1]);
}

#[test]
fn out_of_bounds_and_misaligned_atomics_are_errors() {
    let past_end = COUNTER.replace("[v3]", "[v3 + 4]");
    let err = run_compute_text(&past_end, [1, 1, 1], &[vec![0; 4], vec![0; 16]]).unwrap_err();
    assert!(
        matches!(err, InterpError::OutOfBounds { offset: 4, .. }),
        "{err}"
    );
    let misaligned = COUNTER.replace("[v3]", "[v3 + 2]");
    let err = run_compute_text(&misaligned, [1, 1, 1], &[vec![0; 8], vec![0; 16]]).unwrap_err();
    assert!(
        matches!(err, InterpError::Misaligned { offset: 2, .. }),
        "{err}"
    );
}

#[test]
fn atomics_on_uniform_memory_do_not_verify() {
    let text = COUNTER.replace("atomic add storage(0, 0)", "atomic add uniform(0, 0)");
    let func = interp_support::parse(&text);
    let err = agxc_egraph::ir::verify(&func).unwrap_err();
    assert!(err.to_string().contains("atomics work on storage"), "{err}");
}

#[test]
fn a_compare_exchange_needs_a_comparator_and_a_value() {
    let text = COUNTER.replace("atomic add", "atomic cmpxchg");
    let func = interp_support::parse(&text);
    let err = agxc_egraph::ir::verify(&func).unwrap_err();
    assert!(
        err.to_string().contains("expected [i32, i32, i32]"),
        "{err}"
    );
}
