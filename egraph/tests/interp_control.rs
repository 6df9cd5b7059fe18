//! Structured control flow with divergent lanes: nested if/else, loops with per-lane break and
//! continue, nested loops, early return, and the loop and step limits. Each lane computes its
//! expected value by an ordinary scalar program written in the test.

mod interp_support;

use agxc_egraph::interp::{InterpError, Limits};
use interp_support::{i32s, run_compute_text, run_compute_text_with};

const NESTED_IF: &str = "
function @nested compute local_size(8, 1, 1) {
block0:
    v0:i32 = builtin local_index
    v1:i32 = const 2
    v2:i32 = urem v0, v1
    v3:i32 = const 0
    v4:bool = ieq v2, v3
    v5:i32 = const 4
    v6:bool = slt v0, v5
    v7:i32 = if v4 {
    block1:
        v8:i32 = if v6 {
        block2:
            v9:i32 = const 10
            yield v9
        } else {
        block3:
            v10:i32 = const 20
            yield v10
        }
        yield v8
    } else {
    block4:
        v11:i32 = if v6 {
        block5:
            v12:i32 = const 30
            yield v12
        } else {
        block6:
            v13:i32 = iadd v0, v0
            yield v13
        }
        yield v11
    }
    v14:i32 = imul v0, v5
    store storage(0, 0) [v14], v7
    return
}
";

#[test]
fn nested_divergent_if_else() {
    let (res, stats) = run_compute_text(NESTED_IF, [1, 1, 1], &[vec![0; 32]]).unwrap();
    let expected: Vec<i32> = (0..8)
        .map(|i| match (i % 2 == 0, i < 4) {
            (true, true) => 10,
            (true, false) => 20,
            (false, true) => 30,
            (false, false) => 2 * i,
        })
        .collect();
    assert_eq!(i32s(&res, 0), expected);
    // Every arm ran for some lanes: 11 entry-block instructions, 2 outer arms and 4 inner arms
    // of 2 instructions each.
    assert_eq!(stats.instructions, 11 + 2 * 2 + 4 * 2);
}

/// Per lane i: k counts up from 0; break (with (sum, k)) when k == i; odd k continue without
/// adding; even k add k to sum.
const BREAK_CONTINUE: &str = "
function @loops compute local_size(8, 1, 1) {
block0:
    v0:i32 = builtin local_index
    v1:i32 = const 0
    v2:i32 = const 1
    v3:i32, v4:i32 = loop v1, v1 {
    block1(v5:i32, v6:i32):
        v7:bool = ieq v5, v0
        if v7 {
        block2:
            break v6, v5
        } else {
        block3:
            yield
        }
        v8:i32 = iadd v5, v2
        v9:i32 = and v5, v2
        v10:bool = ine v9, v1
        if v10 {
        block4:
            continue v8, v6
        } else {
        block5:
            yield
        }
        v11:i32 = iadd v6, v5
        continue v8, v11
    }
    v12:i32 = const 4
    v13:i32 = imul v0, v12
    store storage(0, 0) [v13], v3
    store storage(0, 1) [v13], v4
    return
}
";

#[test]
fn loop_with_divergent_break_and_continue() {
    let (res, stats) =
        run_compute_text(BREAK_CONTINUE, [1, 1, 1], &[vec![0; 32], vec![0; 32]]).unwrap();
    let expected: Vec<i32> = (0..8)
        .map(|i| (0..i).filter(|k| k % 2 == 0).sum())
        .collect();
    assert_eq!(i32s(&res, 0), expected);
    assert_eq!(i32s(&res, 1), (0..8).collect::<Vec<_>>());
    // The last lane leaves in the 8th iteration.
    assert_eq!(stats.loop_iterations, 8);
}

/// An inner loop that breaks after `i` iterations inside an outer loop of 3: the inner break
/// must not leave the outer loop.
const NESTED_LOOPS: &str = "
function @nested_loops compute local_size(8, 1, 1) {
block0:
    v0:i32 = builtin local_index
    v1:i32 = const 0
    v2:i32 = const 1
    v3:i32 = const 3
    v4:i32 = loop v1, v1 {
    block1(v5:i32, v6:i32):
        v7:bool = sge v5, v3
        if v7 {
        block2:
            break v6
        } else {
        block3:
            yield
        }
        v8:i32 = loop v1, v6 {
        block4(v9:i32, v10:i32):
            v11:bool = sge v9, v0
            if v11 {
            block5:
                break v10
            } else {
            block6:
                yield
            }
            v12:i32 = iadd v9, v2
            v13:i32 = iadd v10, v2
            continue v12, v13
        }
        v14:i32 = iadd v5, v2
        continue v14, v8
    }
    v15:i32 = const 4
    v16:i32 = imul v0, v15
    store storage(0, 0) [v16], v4
    return
}
";

#[test]
fn inner_break_stays_in_the_outer_loop() {
    let (res, _) = run_compute_text(NESTED_LOOPS, [1, 1, 1], &[vec![0; 32]]).unwrap();
    assert_eq!(i32s(&res, 0), (0..8).map(|i| 3 * i).collect::<Vec<_>>());
}

/// Odd lanes return as soon as k reaches their index; everyone else breaks at k == 3 and
/// stores 100 + k.
const EARLY_RETURN: &str = "
function @early compute local_size(8, 1, 1) {
block0:
    v0:i32 = builtin local_index
    v1:i32 = const 0
    v2:i32 = const 1
    v3:i32 = const 3
    v4:i32 = and v0, v2
    v5:bool = ine v4, v1
    v6:i32 = loop v1 {
    block1(v7:i32):
        v8:bool = ieq v7, v0
        v9:bool = and v8, v5
        if v9 {
        block2:
            return
        } else {
        block3:
            yield
        }
        v10:bool = ieq v7, v3
        if v10 {
        block4:
            break v7
        } else {
        block5:
            yield
        }
        v11:i32 = iadd v7, v2
        continue v11
    }
    v12:i32 = const 100
    v13:i32 = iadd v6, v12
    v14:i32 = const 4
    v15:i32 = imul v0, v14
    store storage(0, 0) [v15], v13
    return
}
";

#[test]
fn early_return_inside_a_loop() {
    let (res, _) = run_compute_text(EARLY_RETURN, [1, 1, 1], &[vec![0; 32]]).unwrap();
    let expected: Vec<i32> = (0..8)
        .map(|i| if i % 2 == 1 && i <= 3 { 0 } else { 103 })
        .collect();
    assert_eq!(i32s(&res, 0), expected);
}

const RETURN_IN_IF: &str = "
function @ret compute local_size(4, 1, 1) {
block0:
    v0:i32 = builtin local_index
    v1:i32 = const 2
    v2:bool = slt v0, v1
    if v2 {
    block1:
        return
    } else {
    block2:
        yield
    }
    v3:i32 = const 4
    v4:i32 = imul v0, v3
    v5:i32 = const 7
    store storage(0, 0) [v4], v5
    return
}
";

#[test]
fn return_in_an_arm_skips_the_rest() {
    let (res, _) = run_compute_text(RETURN_IN_IF, [1, 1, 1], &[vec![0; 16]]).unwrap();
    assert_eq!(i32s(&res, 0), [0, 0, 7, 7]);
}

const RUNAWAY: &str = "
function @runaway compute local_size(2, 1, 1) {
block0:
    v0:i32 = const 0
    v1:i32 = const 1
    v2:i32 = loop v0 {
    block1(v3:i32):
        v4:i32 = iadd v3, v1
        continue v4
    }
    return
}
";

#[test]
fn runaway_loop_stops_at_the_iteration_limit() {
    let limits = Limits {
        max_loop_iterations: 1000,
        ..Limits::default()
    };
    let err = run_compute_text_with(RUNAWAY, [1, 1, 1], &[], &limits).unwrap_err();
    // The loop is the third instruction in text order.
    assert!(
        matches!(err, InterpError::LoopLimit { limit: 1000, .. }),
        "{err}"
    );
    assert!(
        err.to_string()
            .starts_with("inst2: loop ran more than 1000"),
        "{err}"
    );
}

#[test]
fn runaway_loop_stops_at_the_step_limit() {
    let limits = Limits {
        max_steps: 500,
        ..Limits::default()
    };
    let err = run_compute_text_with(RUNAWAY, [1, 1, 1], &[], &limits).unwrap_err();
    let InterpError::StepLimit { in_loop, .. } = &err else {
        panic!("expected a step limit, got {err}");
    };
    assert_eq!(in_loop.map(|l| l.to_string()), Some("inst2".to_string()));
    assert!(err.to_string().contains("inside the loop inst2"), "{err}");
}

#[test]
fn step_limit_counts_every_workgroup() {
    // Per workgroup: 4 instructions x 4 lanes, return and yield x 2 lanes each, then 5
    // instructions x the 2 remaining lanes = 30 lane-instructions.
    let limits = Limits {
        max_steps: 30 * 3,
        ..Limits::default()
    };
    assert!(run_compute_text_with(RETURN_IN_IF, [3, 1, 1], &[vec![0; 16]], &limits).is_ok());
    let err = run_compute_text_with(RETURN_IN_IF, [4, 1, 1], &[vec![0; 16]], &limits).unwrap_err();
    assert!(
        matches!(err, InterpError::StepLimit { in_loop: None, .. }),
        "{err}"
    );
}
