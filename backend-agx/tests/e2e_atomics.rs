//! End to end, atomics: `atomic` on storage buffers and `local_atomic` on workgroup memory,
//! compiled at -O0 and -O2, run in the simulator and compared with the reference interpreter.
//! Both run one lane's read-modify-write after another in ascending lane order (SIMD-groups
//! and workgroups in order), so even order-dependent results compare exactly; each test also
//! checks the interpreter's output against values worked out by hand, so the two cannot
//! agree on a wrong answer.

mod common;

use agxc_egraph::interp::{self, Limits, Resources};
use agxc_egraph::ir::Binding;
use common::*;

fn b(binding: u32) -> Binding {
    Binding::new(0, binding)
}

/// The interpreter's result for `words` of buffer `binding`, after checking it matches the
/// simulator at both levels.
fn run(text: &str, res: &Resources, groups: [u32; 3], outs: &[u32]) -> Vec<Vec<u32>> {
    let f = parse(text);
    let bytes: Vec<Out> = outs.iter().map(|&o| Out::Bytes(b(o))).collect();
    check_compute(&f, res, groups, &bytes);
    let mut expected = res.clone();
    interp::run_compute(&f, &mut expected, groups, &Limits::default()).expect("interpreter");
    outs.iter()
        .map(|&o| {
            let data = expected.buffer_data(b(o)).unwrap_or(&[]);
            data.chunks(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect()
        })
        .collect()
}

#[test]
fn storage_add_returns_old_values_in_lane_order() {
    // Four lanes add their index to word 0: they see 0, 0, 1, 3 and leave 6.
    let out = run(
        "function @a compute local_size(4, 1, 1) {
         block0:
             v0:i32 = const 0
             v1:i32 = builtin local_index
             v2:i32 = atomic add storage(0, 0) [v0], v1
             v3:i32 = const 4
             v4:i32 = imul v1, v3
             store storage(0, 1) [v4], v2
             return
         }",
        &resources(&[0], 4),
        [1, 1, 1],
        &[0, 1],
    );
    assert_eq!(out, [vec![6], vec![0, 0, 1, 3]]);
}

#[test]
fn storage_compare_exchange_chain_across_workgroups() {
    // Invocation i (of 2 x 4) swaps i + 1 for i: each finds the word its predecessor left, so
    // every swap succeeds, the old values are 0..7 and the word ends at 8. A second word
    // counts with an unused result (the atomic must still run).
    let out = run(
        "function @c compute local_size(4, 1, 1) {
         block0:
             v0:i32 = const 0
             v1:i32 = builtin global_id.x
             v2:i32 = const 1
             v3:i32 = iadd v1, v2
             v4:i32 = atomic cmpxchg storage(0, 0) [v0], v1, v3
             v5:i32 = const 4
             v6:i32 = imul v1, v5
             store storage(0, 1) [v6], v4
             v7:i32 = atomic add storage(0, 0) [v0 + 4], v2
             return
         }",
        &resources(&[0, 100], 8),
        [2, 1, 1],
        &[0, 1],
    );
    assert_eq!(out, [vec![8, 108], (0..8).collect::<Vec<u32>>()]);
}

#[test]
fn storage_min_max_and_bit_operations_by_index() {
    // Lane i applies op i of [smin, umin, smax, umax, and, or, xor, xchg, sub] with value
    // -2 (0xfffffffe) to word i, which holds 5: smin -2, umin 5, smax 5, umax 0xfffffffe,
    // and 4, or 0xffffffff, xor 0xfffffffb, xchg 0xfffffffe, sub 7. Every lane reads 5.
    let ops = [
        "smin", "umin", "smax", "umax", "and", "or", "xor", "xchg", "sub",
    ];
    for (i, op) in ops.iter().enumerate() {
        let text = format!(
            "function @m compute local_size(1, 1, 1) {{
             block0:
                 v0:i32 = const {offset}
                 v1:i32 = const -2
                 v2:i32 = atomic {op} storage(0, 0) [v0], v1
                 v3:i32 = const 0
                 store storage(0, 1) [v3], v2
                 return
             }}",
            offset = 4 * i
        );
        let out = run(&text, &resources(&[5; 9], 1), [1, 1, 1], &[0, 1]);
        let want = [
            0xffff_fffe,
            5,
            5,
            0xffff_fffe,
            4,
            0xffff_ffff,
            0xffff_fffb,
            0xffff_fffe,
            7,
        ][i];
        assert_eq!(out[0][i], want, "{op}");
        assert_eq!(out[1], [5], "{op}");
    }
}

#[test]
fn shared_histogram_and_compare_exchange() {
    // 64 invocations (two SIMD-groups) zero four shared counters, then add 1 to counter
    // i & 3 (16 each) and xor 1 << (i & 31) into a mask word (each bit twice: 0); after a
    // barrier the first four copy the counters out. Invocation 0 then swaps 99 into counter
    // 0 if it holds 16 (it does), and writes the old value (16) and the new counter (99).
    let out = run(
        "function @h compute local_size(64, 1, 1) shared(32) {
         block0:
             v0:i32 = builtin local_index
             v1:i32 = const 3
             v2:i32 = and v0, v1
             v3:i32 = const 4
             v4:i32 = imul v2, v3
             v5:i32 = const 0
             store shared [v4], v5
             store shared [v5 + 16], v5
             barrier workgroup
             v6:i32 = const 1
             v7:i32 = atomic add shared [v4], v6
             v8:i32 = const 31
             v9:i32 = and v0, v8
             v10:i32 = ishl v6, v9
             v11:i32 = atomic xor shared [v5 + 16], v10
             barrier workgroup
             v12:i32 = load shared [v4]
             v13:i32 = imul v0, v3
             v14:bool = slt v0, v3
             if v14 {
             block1:
                 store storage(0, 1) [v13], v12
                 yield
             } else {
             block2:
                 yield
             }
             v15:bool = ieq v0, v5
             if v15 {
             block3:
                 v16:i32 = const 16
                 v17:i32 = const 99
                 v18:i32 = atomic cmpxchg shared [v5], v16, v17
                 v19:i32 = load shared [v5]
                 v20:i32 = load shared [v5 + 16]
                 store storage(0, 0) [v5], v18, v19, v20
                 yield
             } else {
             block4:
                 yield
             }
             return
         }",
        &resources(&[7, 7, 7], 4),
        [1, 1, 1],
        &[0, 1],
    );
    assert_eq!(out, [vec![16, 99, 0], vec![16, 16, 16, 16]]);
}

/// Buffer 0 holding `words`, buffer 1 of `n` zero words.
fn resources(words: &[u32], n: usize) -> Resources {
    let mut res = Resources::new();
    res.bind_storage(b(0), u32s(words));
    res.bind_storage(b(1), vec![0; 4 * n]);
    res
}
