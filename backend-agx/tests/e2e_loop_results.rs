//! Loop results handed on by several `break`s: the shapes where instruction selection computes
//! a value straight into a construct's register (`isel::coalesce`) and where a `break`'s
//! copies could read a register another copy of the same `break` has just written. Each
//! shader runs at -O0 and -O2 in the simulator and is compared with the interpreter, whose
//! results are checked against values worked out by hand here.
//!
//! The first one is the reduction of the SPIR-V corpus case `frag_switch_flat` at -O2: a
//! constant defined in an inner loop body went to a `break` as one result (coalesced into
//! that result's register), then to another `break` as a different result; the second
//! coalescing moved the constant out of the first result's register, so lanes leaving by the
//! first `break` never wrote it, and a third `break` copied a register it had just
//! overwritten.

mod common;

use agxc_egraph::interp::{self, Limits, Resources};
use agxc_egraph::ir::{Binding, Function};
use common::*;

fn b(binding: u32) -> Binding {
    Binding::new(0, binding)
}

/// Checks the interpreter against `expected` (f32 words per invocation, exact), then the
/// simulator at -O0 and -O2 against the interpreter.
fn check(text: &str, expected: &[f32]) {
    let f: Function = parse(text);
    let mut res = Resources::new();
    res.bind_storage(b(0), vec![0; 4 * expected.len()]);
    let mut want = res.clone();
    if let Err(e) = interp::run_compute(&f, &mut want, [1, 1, 1], &Limits::default()) {
        panic!("interpreter failed: {e}\n{f}");
    }
    assert_eq!(want.buffer_data(b(0)), Some(&f32s(expected)[..]));
    check_compute(&f, &res, [1, 1, 1], &[Out::F32(b(0), Tol::EXACT)]);
}

/// Nested loops, the inner body defining `one = 1.0`; by `k = id & 3` the inner loop leaves
/// with `(x, 0, one)`, `(x, one, one)`, `(x, 0.5, one)` or `(x, x, x)`, `x = id`, and the
/// outer loop hands the inner results on.
const SHARED_CONSTANT: &str = "
function @shared_constant compute local_size(32, 1, 1) {
block0:
    v0:i32 = builtin global_id.x
    v1:i32 = const 3
    v2:i32 = and v0, v1
    v3:f32 = u2f v0
    v4:f32 = const 0.0
    v5:i32 = const 0
    v6:i32 = const 1
    v7:i32 = const 2
    v8:bool = ieq v2, v5
    v9:bool = ieq v2, v6
    v10:bool = ieq v2, v7
    v11:f32, v12:f32, v13:f32 = loop {
    block1:
        v14:f32, v15:f32, v16:f32 = loop {
        block2:
            v17:f32 = const 1.0
            if v8 {
            block3:
                break v3, v4, v17
            } else {
            block4:
                yield
            }
            if v9 {
            block5:
                break v3, v17, v17
            } else {
            block6:
                yield
            }
            if v10 {
            block7:
                v18:f32 = const 0.5
                break v3, v18, v17
            } else {
            block8:
                yield
            }
            break v3, v3, v3
        }
        break v14, v15, v16
    }
    v19:i32 = const 12
    v20:i32 = imul v0, v19
    store storage(0, 0) [v20], v11
    store storage(0, 0) [v20 + 4], v12
    store storage(0, 0) [v20 + 8], v13
    return
}";

#[test]
fn a_constant_shared_by_breaks_reaches_every_result() {
    let expected: Vec<f32> = (0..32u32)
        .flat_map(|id| {
            let x = id as f32;
            match id & 3 {
                0 => [x, 0.0, 1.0],
                1 => [x, 1.0, 1.0],
                2 => [x, 0.5, 1.0],
                _ => [x, x, x],
            }
        })
        .collect();
    check(SHARED_CONSTANT, &expected);
}

/// One loop: `y = x + 1` computed in the body leaves as the first result when `k == 0`
/// (coalesced into that result), then as the second with `2x` first when `k == 1`: the
/// `break`'s copy into the first result must not clobber `y` before the second copy reads
/// it. Otherwise `(x, y)`.
const SWAPPED_RESULTS: &str = "
function @swapped_results compute local_size(32, 1, 1) {
block0:
    v0:i32 = builtin global_id.x
    v1:i32 = const 3
    v2:i32 = and v0, v1
    v3:f32 = u2f v0
    v4:f32 = const 0.0
    v5:i32 = const 0
    v6:i32 = const 1
    v7:bool = ieq v2, v5
    v8:bool = ieq v2, v6
    v9:f32, v10:f32 = loop {
    block1:
        v11:f32 = const 1.0
        v12:f32 = fadd v3, v11
        if v7 {
        block2:
            break v12, v4
        } else {
        block3:
            yield
        }
        if v8 {
        block4:
            v13:f32 = fadd v3, v3
            break v13, v12
        } else {
        block5:
            yield
        }
        break v3, v12
    }
    v14:i32 = const 8
    v15:i32 = imul v0, v14
    store storage(0, 0) [v15], v9
    store storage(0, 0) [v15 + 4], v10
    return
}";

#[test]
fn a_break_copy_does_not_clobber_a_later_source() {
    let expected: Vec<f32> = (0..32u32)
        .flat_map(|id| {
            let x = id as f32;
            match id & 3 {
                0 => [x + 1.0, 0.0],
                1 => [x + x, x + 1.0],
                _ => [x, x + 1.0],
            }
        })
        .collect();
    check(SWAPPED_RESULTS, &expected);
}

/// A counting loop `i = 0, 1, ...` whose body computes `n = i + 1`, leaves with `n` once
/// `n > id` and otherwise continues with `n`: the value is handed both to a `break` (coalesced
/// into the result) and to the final `continue` (a candidate for the parameter). Invocation
/// `id` leaves with `id + 1`; with values from outside the loop, `id` twice.
const BREAK_AND_CONTINUE: &str = "
function @break_and_continue compute local_size(32, 1, 1) {
block0:
    v0:i32 = builtin global_id.x
    v1:i32 = const 0
    v2:i32, v3:i32, v4:i32 = loop v1 {
    block1(v5:i32):
        v6:i32 = const 1
        v7:i32 = iadd v5, v6
        v8:bool = ugt v7, v0
        if v8 {
        block2:
            break v7, v0, v0
        } else {
        block3:
            yield
        }
        continue v7
    }
    v9:f32 = u2f v2
    v10:f32 = u2f v3
    v11:f32 = u2f v4
    v12:i32 = const 12
    v13:i32 = imul v0, v12
    store storage(0, 0) [v13], v9
    store storage(0, 0) [v13 + 4], v10
    store storage(0, 0) [v13 + 8], v11
    return
}";

#[test]
fn a_value_handed_to_a_break_and_the_final_continue() {
    let expected: Vec<f32> = (0..32u32)
        .flat_map(|id| [(id + 1) as f32, id as f32, id as f32])
        .collect();
    check(BREAK_AND_CONTINUE, &expected);
}

/// Inside a loop, an `if` arm computes `z = 3x`, leaves the loop with it when `k == 0` and
/// otherwise yields it as the `if`'s result; the loop then leaves with `(r, x)`, `r` the
/// `if`'s result (`z` or `-1`). So `k == 0`: `(3x, 0)`; `k == 1`: `(3x, x)`; else `(-1, x)`.
const BREAK_THEN_YIELD: &str = "
function @break_then_yield compute local_size(32, 1, 1) {
block0:
    v0:i32 = builtin global_id.x
    v1:i32 = const 3
    v2:i32 = and v0, v1
    v3:f32 = u2f v0
    v4:f32 = const 0.0
    v5:i32 = const 0
    v6:bool = ieq v2, v5
    v16:i32 = const 1
    v7:bool = ule v2, v16
    v8:f32, v9:f32 = loop {
    block1:
        v10:f32 = if v7 {
        block2:
            v11:f32 = const 3.0
            v12:f32 = fmul v3, v11
            if v6 {
            block3:
                break v12, v4
            } else {
            block4:
                yield
            }
            yield v12
        } else {
        block5:
            v13:f32 = const -1.0
            yield v13
        }
        break v10, v3
    }
    v14:i32 = const 8
    v15:i32 = imul v0, v14
    store storage(0, 0) [v15], v8
    store storage(0, 0) [v15 + 4], v9
    return
}";

#[test]
fn a_value_handed_to_a_break_and_then_to_a_yield() {
    let expected: Vec<f32> = (0..32u32)
        .flat_map(|id| {
            let x = id as f32;
            match id & 3 {
                0 => [3.0 * x, 0.0],
                1 => [3.0 * x, x],
                _ => [-1.0, x],
            }
        })
        .collect();
    check(BREAK_THEN_YIELD, &expected);
}
