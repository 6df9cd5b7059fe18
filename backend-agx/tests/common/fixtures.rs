//! IR fixtures that more than one test file runs, with their inputs and hand-computed results.

use agxc_egraph::interp::{self, Limits, Resources};
use agxc_egraph::ir::{Binding, Function};

use super::{f32s, u32s};

/// Invocations in [`nested_loops`]' workgroup.
pub const NESTED_LOOPS_INVOCATIONS: u32 = 16;

/// Two nested loops with divergent trip counts: invocation `id` counts the pairs `(a, b)` in
/// `0..id` with `a + b` divisible by 3 (the outer loop over `a` carries the count into the
/// inner loop over `b`), and adds the running count after each outer iteration, as f32, to the
/// f32 it loads from binding 1. Even invocations store the count to binding 0, odd ones the
/// bits of the float sum; with `early_return`, odd invocations return before the loops and
/// store nothing.
pub fn nested_loops(early_return: bool) -> String {
    let ret = if early_return {
        "
             if v6 {
             block1:
                 return
             } else {
             block2:
                 yield
             }"
    } else {
        ""
    };
    format!(
        "function @nested compute local_size({NESTED_LOOPS_INVOCATIONS}, 1, 1) {{
         block0:
             v0:i32 = builtin global_id.x
             v1:i32 = const 4
             v2:i32 = imul v0, v1
             v3:i32 = const 1
             v4:i32 = and v0, v3
             v5:i32 = const 0
             v6:bool = ine v4, v5{ret}
             v7:i32 = const 3
             v30:f32 = load storage(0, 1) [v2]
             v8:i32, v9:i32, v31:f32 = loop v5, v5, v30 {{
             block3(v10:i32, v11:i32, v32:f32):
                 v12:bool = sge v10, v0
                 if v12 {{
                 block4:
                     break v10, v11, v32
                 }} else {{
                 block5:
                     yield
                 }}
                 v13:i32, v14:i32 = loop v5, v11 {{
                 block6(v15:i32, v16:i32):
                     v17:bool = sge v15, v0
                     if v17 {{
                     block7:
                         break v15, v16
                     }} else {{
                     block8:
                         yield
                     }}
                     v18:i32 = iadd v10, v15
                     v19:i32 = urem v18, v7
                     v20:bool = ieq v19, v5
                     v21:i32 = select v20, v3, v5
                     v22:i32 = iadd v16, v21
                     v23:i32 = iadd v15, v3
                     continue v23, v22
                 }}
                 v33:f32 = s2f v14
                 v34:f32 = fadd v32, v33
                 v24:i32 = iadd v10, v3
                 continue v24, v14, v34
             }}
             v35:i32 = bitcast v31
             v36:i32 = select v6, v35, v9
             store storage(0, 0) [v2], v36
             return
         }}"
    )
}

/// The f32 each invocation of [`nested_loops`] loads and adds to.
pub const NESTED_LOOPS_START: f32 = 0.5;

/// Inputs for [`nested_loops`]: binding 0 filled with `0xdeadbeef` (what invocations that
/// return early leave), binding 1 with [`NESTED_LOOPS_START`].
pub fn nested_loops_inputs() -> Resources {
    let n = NESTED_LOOPS_INVOCATIONS as usize;
    let mut res = Resources::new();
    res.bind_storage(Binding::new(0, 0), u32s(&vec![0xdead_beef; n]));
    res.bind_storage(Binding::new(0, 1), f32s(&vec![NESTED_LOOPS_START; n]));
    res
}

/// What [`nested_loops`] stores for invocation `id`, worked out directly.
pub fn nested_loops_expected(id: u32, early_return: bool) -> u32 {
    let odd = id % 2 == 1;
    if odd && early_return {
        return 0xdead_beef;
    }
    let mut count = 0u32;
    let mut sum = NESTED_LOOPS_START;
    for a in 0..id {
        count += (0..id).filter(|b| (a + b) % 3 == 0).count() as u32;
        // Counts stay far below 2^24: every partial sum is exact in f32.
        sum += count as f32;
    }
    if odd {
        sum.to_bits()
    } else {
        count
    }
}

/// Checks that the reference interpreter stores [`nested_loops_expected`] for every
/// invocation of `func` (the fixture, at any optimization level), so that comparing the G13
/// with the interpreter also compares it with the hand-computed results.
pub fn check_nested_loops_reference(func: &Function, early_return: bool) {
    let mut res = nested_loops_inputs();
    if let Err(e) = interp::run_compute(func, &mut res, [1, 1, 1], &Limits::default()) {
        panic!("interpreter failed: {e}");
    }
    let expected: Vec<u32> = (0..NESTED_LOOPS_INVOCATIONS)
        .map(|id| nested_loops_expected(id, early_return))
        .collect();
    assert_eq!(
        res.buffer_data(Binding::new(0, 0)),
        Some(&u32s(&expected)[..])
    );
}
