//! End to end, compute shaders: arithmetic, loads and stores, structured control flow. Each
//! shader is compiled at -O0 and -O2, run in the simulator and compared with the reference
//! interpreter on the same inputs (floats within the stated tolerances, integers exactly).

mod common;

use agxc_egraph::interp::Resources;
use agxc_egraph::ir::Binding;
use common::*;

fn b(binding: u32) -> Binding {
    Binding::new(0, binding)
}

#[test]
fn square_plus_one() {
    let f = parse(
        "function @square compute local_size(32, 1, 1) {
         block0:
             v0:i32 = builtin global_id.x
             v1:i32 = const 4
             v2:i32 = imul v0, v1
             v3:f32 = load storage(0, 0) [v2]
             v4:f32 = const 1.0
             v5:f32 = fma v3, v3, v4
             store storage(0, 1) [v2], v5
             return
         }",
    );
    let x: Vec<f32> = (0..64).map(|i| i as f32 * 0.37 - 5.0).collect();
    let mut res = Resources::new();
    res.bind_storage(b(0), f32s(&x));
    res.bind_storage(b(1), vec![0; 256]);
    check_compute(&f, &res, [2, 1, 1], &[Out::F32(b(1), Tol::EXACT)]);
}

#[test]
fn vector_loads_and_stores() {
    // out[i] = (a.x + a.w, a.y * a.z, a.x - a.y, 2) with a = in[i] (16 bytes per element).
    let f = parse(
        "function @vec compute local_size(16, 1, 1) {
         block0:
             v0:i32 = builtin global_id.x
             v1:i32 = const 16
             v2:i32 = imul v0, v1
             v3:f32, v4:f32, v5:f32, v6:f32 = load storage(0, 0) [v2]
             v7:f32 = fadd v3, v6
             v8:f32 = fmul v4, v5
             v9:f32 = fsub v3, v4
             v10:f32 = const 2.0
             store storage(0, 1) [v2], v7, v8, v9, v10
             return
         }",
    );
    let mut rng = Rng::new(7);
    let x: Vec<f32> = (0..64).map(|_| rng.range_f32(-10.0, 10.0)).collect();
    let mut res = Resources::new();
    res.bind_storage(b(0), f32s(&x));
    res.bind_storage(b(1), vec![0; 256]);
    check_compute(&f, &res, [1, 1, 1], &[Out::F32(b(1), Tol::EXACT)]);
}

#[test]
fn divergent_if_else_with_results() {
    // out[i] = x > 0 ? sqrt(x) : -x * 3
    let f = parse(
        "function @branch compute local_size(64, 1, 1) {
         block0:
             v0:i32 = builtin global_id.x
             v1:i32 = const 4
             v2:i32 = imul v0, v1
             v3:f32 = load storage(0, 0) [v2]
             v4:f32 = const 0.0
             v5:bool = fgt v3, v4
             v6:f32 = if v5 {
             block1:
                 v7:f32 = sqrt v3
                 yield v7
             } else {
             block2:
                 v8:f32 = fneg v3
                 v9:f32 = const 3.0
                 v10:f32 = fmul v8, v9
                 yield v10
             }
             store storage(0, 1) [v2], v6
             return
         }",
    );
    let mut rng = Rng::new(3);
    let x: Vec<f32> = (0..64).map(|_| rng.range_f32(-4.0, 4.0)).collect();
    let mut res = Resources::new();
    res.bind_storage(b(0), f32s(&x));
    res.bind_storage(b(1), vec![0; 256]);
    check_compute(&f, &res, [1, 1, 1], &[Out::F32(b(1), Tol::ulps(2))]);
}

#[test]
fn loop_with_divergent_trip_counts_break_and_continue() {
    // For each invocation: sum = 0; i = 0; loop { if i >= n[id] break;
    //   if i is odd { i += 1; continue }; sum += i * 3; i += 1 }; out[id] = sum
    let f = parse(
        "function @loops compute local_size(32, 1, 1) {
         block0:
             v0:i32 = builtin global_id.x
             v1:i32 = const 4
             v2:i32 = imul v0, v1
             v3:i32 = load storage(0, 0) [v2]
             v4:i32 = const 0
             v5:i32 = const 1
             v6:i32 = const 3
             v7:i32, v8:i32 = loop v4, v4 {
             block1(v9:i32, v10:i32):
                 v11:bool = sge v9, v3
                 if v11 {
                 block2:
                     break v9, v10
                 } else {
                 block3:
                     yield
                 }
                 v12:i32 = and v9, v5
                 v13:bool = ine v12, v4
                 v14:i32 = iadd v9, v5
                 if v13 {
                 block4:
                     continue v14, v10
                 } else {
                 block5:
                     yield
                 }
                 v15:i32 = imul v9, v6
                 v16:i32 = iadd v10, v15
                 continue v14, v16
             }
             v17:i32 = iadd v8, v7
             store storage(0, 1) [v2], v17
             return
         }",
    );
    let n: Vec<u32> = (0..32).map(|i| (i * 7) % 23).collect();
    let mut res = Resources::new();
    res.bind_storage(b(0), u32s(&n));
    res.bind_storage(b(1), vec![0; 128]);
    check_compute(&f, &res, [1, 1, 1], &[Out::Bytes(b(1))]);
}

#[test]
fn early_return_and_nested_loops() {
    // Odd invocations return early; even ones count pairs in two nested loops (the shared
    // fixture, also run under register pressure by e2e_spill).
    let f = parse(&fixtures::nested_loops(true));
    fixtures::check_nested_loops_reference(&f, true);
    let res = fixtures::nested_loops_inputs();
    check_compute(&f, &res, [1, 1, 1], &[Out::Bytes(b(0))]);
}

#[test]
fn push_constants_uniform_buffers_and_buffer_size() {
    // out[i] = (push.a * ubo[i % 4] + push.b[i & 1]) where push = { f32 a; f32 b[2] }, and the
    // last invocation also stores buffer_size(out) and num_workgroups.x.
    let f = parse(
        "function @push compute local_size(8, 1, 1) {
         block0:
             v0:i32 = builtin global_id.x
             v1:i32 = const 4
             v2:i32 = imul v0, v1
             v3:i32 = const 0
             v4:f32 = load push [v3]
             v5:i32 = const 3
             v6:i32 = and v0, v5
             v7:i32 = imul v6, v1
             v8:f32 = load uniform(1, 0) [v7]
             v9:i32 = const 1
             v10:i32 = and v0, v9
             v11:i32 = imul v10, v1
             v12:f32 = load push [v11 + 4]
             v13:f32 = fma v4, v8, v12
             store storage(0, 0) [v2], v13
             v14:i32 = buffer_size (0, 0)
             v15:i32 = builtin num_workgroups.x
             v16:i32 = iadd v14, v15
             v17:f32 = bitcast v16
             v18:i32 = isub v14, v1
             store storage(0, 0) [v18], v17
             return
         }",
    );
    let mut res = Resources::new();
    res.bind_storage(b(0), vec![0; 4 * 17]);
    res.bind_uniform(Binding::new(1, 0), f32s(&[1.5, -2.0, 0.25, 8.0]));
    res.set_push_constants(f32s(&[3.0, 10.0, 20.0]));
    check_compute(&f, &res, [2, 1, 1], &[Out::Bytes(b(0))]);
}

#[test]
fn workgroup_memory_and_barriers() {
    // Each invocation writes its value to shared memory, waits at a barrier, then reads its
    // neighbour's (reversed order within the workgroup) and stores the sum with its own.
    let f = parse(
        "function @shared compute local_size(64, 1, 1) shared(256) {
         block0:
             v0:i32 = builtin global_id.x
             v1:i32 = builtin local_index
             v2:i32 = const 4
             v3:i32 = imul v0, v2
             v4:i32 = imul v1, v2
             v5:f32 = load storage(0, 0) [v3]
             store shared [v4], v5
             barrier workgroup
             v6:i32 = const 63
             v7:i32 = isub v6, v1
             v8:i32 = imul v7, v2
             v9:f32 = load shared [v8]
             v10:f32 = fadd v5, v9
             store storage(0, 1) [v3], v10
             return
         }",
    );
    let x: Vec<f32> = (0..128).map(|i| i as f32 * 1.25).collect();
    let mut res = Resources::new();
    res.bind_storage(b(0), f32s(&x));
    res.bind_storage(b(1), vec![0; 512]);
    check_compute(&f, &res, [2, 1, 1], &[Out::F32(b(1), Tol::EXACT)]);
}

#[test]
fn sixteen_and_sixty_four_bit_memory() {
    // Halves and 64-bit integers through memory and arithmetic.
    let f = parse(
        "function @widths compute local_size(16, 1, 1) {
         block0:
             v0:i32 = builtin global_id.x
             v1:i32 = const 2
             v2:i32 = imul v0, v1
             v3:f16, v4:f16 = load storage(0, 0) [v2 + 0]
             v5:f16 = fmul v3, v4
             v6:i32 = const 8
             v7:i32 = imul v0, v6
             v8:i64 = load storage(0, 1) [v7]
             v9:i64 = const 0x100000001
             v10:i64 = imul v8, v9
             v11:i16 = bitcast v5
             v12:i64 = uext v11
             v13:i64 = iadd v10, v12
             store storage(0, 2) [v7], v13
             return
         }",
    );
    let mut rng = Rng::new(11);
    let halves: Vec<u8> = (0..34)
        .flat_map(|_| {
            half::f16::from_f32(rng.range_f32(-4.0, 4.0))
                .to_bits()
                .to_le_bytes()
        })
        .collect();
    let longs: Vec<u8> = (0..16)
        .flat_map(|_| (u64::from(rng.next_u32()) << 32 | u64::from(rng.next_u32())).to_le_bytes())
        .collect();
    let mut res = Resources::new();
    res.bind_storage(b(0), halves);
    res.bind_storage(b(1), longs);
    res.bind_storage(b(2), vec![0; 128]);
    check_compute(&f, &res, [1, 1, 1], &[Out::Bytes(b(2))]);
}

#[test]
fn two_dimensional_dispatch_builtins() {
    // out[linear global index] = packed ids.
    let f = parse(
        "function @ids compute local_size(4, 2, 2) {
         block0:
             v0:i32 = builtin global_id.x
             v1:i32 = builtin global_id.y
             v2:i32 = builtin global_id.z
             v3:i32 = builtin local_id.x
             v4:i32 = builtin workgroup_id.y
             v5:i32 = builtin workgroup_size.x
             v6:i32 = builtin local_index
             v7:i32 = builtin num_workgroups.y
             v8:i32 = const 12
             v9:i32 = imul v1, v8
             v10:i32 = iadd v0, v9
             v11:i32 = const 72
             v12:i32 = imul v2, v11
             v13:i32 = iadd v10, v12
             v14:i32 = const 16
             v15:i32 = imul v13, v14
             store storage(0, 0) [v15], v3, v4, v6, v7
             v16:i32 = imul v5, v7
             store storage(0, 1) [v15], v16
             return
         }",
    );
    let mut res = Resources::new();
    res.bind_storage(b(0), vec![0; 16 * 12 * 6 * 2]);
    res.bind_storage(b(1), vec![0; 16 * 12 * 6 * 2]);
    check_compute(&f, &res, [3, 3, 1], &[Out::Bytes(b(0)), Out::Bytes(b(1))]);
}

#[test]
fn a_value_both_broken_out_and_yielded() {
    // v6 leaves the loop through a nested break and is also yielded by the enclosing arm:
    // the two constructs' registers must stay distinct (from the TGSI corpus'
    // frag_branches_loops).
    let f = parse(
        "function @both compute local_size(32, 1, 1) {
         block0:
             v0:i32 = builtin global_id.x
             v1:i32 = const 4
             v2:i32 = imul v0, v1
             v3:i32 = const 0
             v4:i32 = const 1
             v20:i32, v21:i32 = loop v3, v3 {
             block1(v22:i32, v23:i32):
                 v24:bool = sge v22, v0
                 if v24 {
                 block2:
                     break v22, v23
                 } else {
                 block3:
                     yield
                 }
                 v25:i32 = and v22, v4
                 v26:bool = ieq v25, v3
                 v27:i32, v28:i32 = if v26 {
                 block4:
                     v29:i32 = iadd v22, v4
                     yield v29, v23
                 } else {
                 block5:
                     v30:i32 = iadd v23, v22
                     v31:i32 = const 7
                     v32:bool = sgt v30, v31
                     if v32 {
                     block6:
                         break v22, v30
                     } else {
                     block7:
                         yield
                     }
                     v33:i32 = iadd v22, v4
                     yield v33, v30
                 }
                 continue v27, v28
             }
             v34:i32 = const 100
             v35:i32 = imul v20, v34
             v36:i32 = iadd v35, v21
             store storage(0, 0) [v2], v36
             return
         }",
    );
    let mut res = Resources::new();
    res.bind_storage(b(0), vec![0; 128]);
    check_compute(&f, &res, [1, 1, 1], &[Out::Bytes(b(0))]);
}

#[test]
fn two_values_leaving_a_loop_through_different_breaks() {
    // v10 leaves through one break and is still used by the lanes that stay; v12 leaves
    // through another break computed later: they must not share the result register before
    // the exits (from a random program of the equivalence tests).
    let f = parse(
        "function @breaks compute local_size(32, 1, 1) {
         block0:
             v0:i32 = builtin global_id.x
             v1:i32 = const 4
             v2:i32 = imul v0, v1
             v3:i32 = const 0
             v4:i32 = const 1
             v5:i32 = const 3
             v6:i32 = loop v3 {
             block1(v7:i32):
                 v8:bool = sge v7, v0
                 v9:i32 = and v0, v5
                 v10:i32 = iadd v7, v4
                 if v8 {
                 block2:
                     break v10
                 } else {
                 block3:
                     yield
                 }
                 v11:bool = ieq v9, v4
                 v12:i32 = const 1000
                 if v11 {
                 block4:
                     break v12
                 } else {
                 block5:
                     yield
                 }
                 continue v10
             }
             store storage(0, 0) [v2], v6
             return
         }",
    );
    let mut res = Resources::new();
    res.bind_storage(b(0), vec![0; 128]);
    check_compute(&f, &res, [1, 1, 1], &[Out::Bytes(b(0))]);
}

#[test]
fn a_nested_continue_passing_a_parameter_on_unchanged() {
    // Lanes with an odd id continue with v5 unchanged; the others with a newly loaded value:
    // the load must not overwrite the parameter before the nested continue (from a random
    // program of the equivalence tests).
    let f = parse(
        "function @cont compute local_size(32, 1, 1) {
         block0:
             v0:i32 = builtin global_id.x
             v1:i32 = const 4
             v2:i32 = imul v0, v1
             v3:i32 = const 1
             v20:i32 = and v0, v3
             v21:i32 = const 0
             v22:bool = ine v20, v21
             v4:f32 = const 2652.0
             v5:i32, v6:f32 = loop v21, v4 {
             block1(v7:i32, v8:f32):
                 v9:bool = uge v7, v3
                 if v9 {
                 block2:
                     break v7, v8
                 } else {
                 block3:
                     yield
                 }
                 v10:i32 = iadd v7, v3
                 v11:f32 = load storage(0, 0) [v2]
                 if v22 {
                 block4:
                     continue v10, v8
                 } else {
                 block5:
                     yield
                 }
                 continue v10, v11
             }
             store storage(0, 1) [v2], v6
             return
         }",
    );
    let x: Vec<f32> = (0..32).map(|i| i as f32 - 10.0).collect();
    let mut res = Resources::new();
    res.bind_storage(b(0), f32s(&x));
    res.bind_storage(b(1), vec![0; 128]);
    check_compute(&f, &res, [1, 1, 1], &[Out::F32(b(1), Tol::EXACT)]);
}
