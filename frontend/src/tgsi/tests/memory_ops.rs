//! Buffers, shared memory, barriers and constant buffers.

use super::harness::{as_f, compute, compute_program, compute_text, f, lift_ok};
use crate::tgsi::LiftOptions;
use agxc_egraph::interp::{f32_bytes, run_compute, u32_bytes, Limits, Resources};
use agxc_egraph::ir::{AddressSpace, Binding, EffectOp, Op};

fn lane(t0: [u32; 4]) -> [[u32; 4]; 4] {
    [t0, [0; 4], [0; 4], [0; 4]]
}

#[test]
fn load_reads_the_channels_of_the_write_mask() {
    // Channel c of the destination is the word at address + 4c.
    let out = compute(
        "",
        "LOAD TEMP[4].yw, BUFFER[0], TEMP[9].xxxx",
        &[lane([1, 2, 3, 4]), lane([5, 6, 7, 8])],
    );
    assert_eq!(out[0][0], [0, 2, 0, 4]);
    assert_eq!(out[1][0], [0, 6, 0, 8]);
}

#[test]
fn partial_stores_write_only_their_channels() {
    let text = "COMP
DCL BUFFER[0]
DCL TEMP[0]
IMM[0] UINT32 {4, 11, 22, 33}
STORE BUFFER[0].yw, IMM[0].xxxx, IMM[0].xyzw
END
";
    let func = lift_ok(text);
    let mut res = Resources::new();
    res.bind_storage(Binding::new(0, 0), u32_bytes(&[9; 6]));
    run_compute(&func, &mut res, [1, 1, 1], &Limits::default()).unwrap();
    let words = agxc_egraph::interp::bytes_u32(res.buffer_data(Binding::new(0, 0)).unwrap());
    // Base byte 4 (word 1): .y goes to word 2, .w to word 4.
    assert_eq!(words, vec![9, 9, 11, 9, 33, 9]);
}

#[test]
fn shared_memory_with_a_barrier_exchanges_values() {
    // Each lane writes its input to shared[4 * tid], waits, reads its neighbour's.
    let decls = "DCL MEMORY[0], SHARED\nIMM[1] UINT32 {4, 1, 3, 0}";
    let body = "UMUL TEMP[6].x, SV[0].xxxx, IMM[1].xxxx
STORE MEMORY[0].x, TEMP[6].xxxx, TEMP[0].xxxx
BARRIER
UADD TEMP[6].y, SV[0].xxxx, IMM[1].yyyy
AND TEMP[6].y, TEMP[6].yyyy, IMM[1].zzzz
UMUL TEMP[6].y, TEMP[6].yyyy, IMM[1].xxxx
LOAD TEMP[4].x, MEMORY[0], TEMP[6].yyyy";
    let inputs: Vec<_> = (0..4).map(|k| lane([100 + k, 0, 0, 0])).collect();
    let out = compute(decls, body, &inputs);
    let got: Vec<u32> = out.iter().map(|o| o[0][0]).collect();
    assert_eq!(got, vec![101, 102, 103, 100]);
}

#[test]
fn atomics_return_old_values_in_lane_order() {
    // Lanes run an atomic one after another in ascending order. x = 10..13, y = 5, -3, 7, -1.
    let decls = "DCL MEMORY[0], SHARED\nIMM[1] UINT32 {0, 4, 8, 60}";
    let body = "ATOMUADD TEMP[4].x, MEMORY[0], IMM[1].xxxx, TEMP[0].xxxx
ATOMCAS TEMP[4].y, MEMORY[0], IMM[1].yyyy, IMM[1].xxxx, TEMP[0].xxxx
ATOMIMIN TEMP[4].z, MEMORY[0], IMM[1].zzzz, TEMP[0].yyyy
ATOMUMAX TEMP[4].w, BUFFER[0], IMM[1].wwww, TEMP[0].xxxx
BARRIER
LOAD TEMP[5].xyz, MEMORY[0], IMM[1].xxxx
LOAD TEMP[5].w, BUFFER[0], IMM[0].wwww";
    let ys = [5, -3, 7, -1];
    let inputs: Vec<_> = (0..4u32)
        .map(|k| lane([10 + k, ys[k as usize] as u32, 0, 0]))
        .collect();
    let out = compute(decls, body, &inputs);
    // add: running sums 0, 10, 21, 33 (total 46); cas: only lane 0 finds 0 and writes 10;
    // imin: 0, min(0, 5) = 0, then -3 from lane 1 on; umax on lane 0's zeroed TEMP[3].w word
    // (byte 60), read back by a `.w` load from byte 48, whose channel w is the word at 48 + 12.
    let m3 = -3i32 as u32;
    assert_eq!(out[0][0], [0, 0, 0, 0]);
    assert_eq!(out[1][0], [10, 10, 0, 10]);
    assert_eq!(out[2][0], [21, 10, m3, 11]);
    assert_eq!(out[3][0], [33, 10, m3, 12]);
    for o in &out {
        assert_eq!(o[1], [46, 10, m3, 13]);
    }
}

#[test]
fn atomics_on_constant_buffers_are_refused() {
    let text = "COMP
DCL CONST[0][0]
DCL TEMP[0]
ATOMUADD TEMP[0].x, CONST[0], TEMP[0].xxxx, TEMP[0].xxxx
END
";
    let err = crate::tgsi::lift(text, &LiftOptions::default()).unwrap_err();
    assert!(err.to_string().contains("read-only"), "{err}");
}

#[test]
fn shared_memory_size_comes_from_the_options() {
    let text = compute_text(1, "DCL MEMORY[0], SHARED", "");
    let default = lift_ok(&text);
    assert_eq!(
        default.shared_memory,
        crate::tgsi::limits::DEFAULT_SHARED_MEMORY
    );
    let opts = LiftOptions {
        shared_memory: Some(256),
        ..LiftOptions::default()
    };
    assert_eq!(crate::tgsi::lift(&text, &opts).unwrap().shared_memory, 256);
}

#[test]
fn constants_load_from_uniform_buffers() {
    // CONST[3][y] is vec4 y of uniform buffer (0, 3); CONST[3][ADDR[0].x + 1] is indexed.
    let decls = "DCL CONST[3][0..3]\nDCL ADDR[0]";
    let body = "MOV TEMP[4], CONST[3][2].wzyx\nUARL ADDR[0].x, TEMP[0].xxxx\nMOV TEMP[5], CONST[3][ADDR[0].x + 1]";
    let consts: Vec<f32> = (0..16).map(|k| k as f32).collect();
    let text = compute_text(2, decls, body);
    let bind = |res: &mut Resources| {
        res.bind_uniform(Binding::new(0, 3), f32_bytes(&consts));
    };
    let out = compute_program(
        &text,
        &[lane([0, 0, 0, 0]), lane([2, 0, 0, 0])],
        &LiftOptions::default(),
        bind,
    );
    assert_eq!(as_f(out[0][0]), [11.0, 10.0, 9.0, 8.0]);
    assert_eq!(as_f(out[0][1]), [4.0, 5.0, 6.0, 7.0]);
    assert_eq!(as_f(out[1][1]), [12.0, 13.0, 14.0, 15.0]);
}

#[test]
fn constant_buffer_zero_may_be_push_constants_or_rebound() {
    let decls = "DCL CONST[0..1]";
    let body = "MOV TEMP[4], CONST[1]";
    let text = compute_text(1, decls, body);
    let consts: Vec<f32> = (0..8).map(|k| k as f32 * 0.5).collect();
    let push = LiftOptions {
        const0_push_constants: true,
        ..LiftOptions::default()
    };
    let out = compute_program(&text, &[lane([0; 4])], &push, |res| {
        res.set_push_constants(f32_bytes(&consts));
    });
    assert_eq!(as_f(out[0][0]), [2.0, 2.5, 3.0, 3.5]);
    // Two declared registers: a run must supply 32 bytes of push constants.
    let func = crate::tgsi::lift(&text, &push).unwrap();
    assert_eq!(func.push_constant_bytes, 32);
    assert_eq!(
        crate::tgsi::lift(&text, &LiftOptions::default())
            .unwrap()
            .push_constant_bytes,
        0
    );
    let mut rebound = LiftOptions::default();
    rebound.const_bindings.insert(0, Binding::new(0, 7));
    let func = crate::tgsi::lift(&text, &rebound).unwrap();
    let mut spaces = Vec::new();
    func.for_each_inst(|_, inst| {
        if let Op::Effect(EffectOp::Load(a)) = func.inst(inst).op {
            spaces.push(a.space);
        }
    });
    assert!(
        spaces.contains(&AddressSpace::Uniform(Binding::new(0, 7))),
        "{spaces:?}"
    );
}

#[test]
fn storage_buffers_can_be_rebound() {
    // BUFFER[1] (the wrapper's output) moved to binding 5.
    let text = compute_text(1, "", "MOV TEMP[4], TEMP[0]");
    let mut opts = LiftOptions::default();
    opts.storage_bindings.insert(1, Binding::new(0, 5));
    let func = crate::tgsi::lift(&text, &opts).unwrap();
    let mut res = Resources::new();
    res.bind_storage(
        Binding::new(0, 0),
        u32_bytes(&[1, 2, 3, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
    );
    res.bind_storage(Binding::new(0, 5), vec![0; 64]);
    run_compute(&func, &mut res, [1, 1, 1], &Limits::default()).unwrap();
    let words = agxc_egraph::interp::bytes_u32(res.buffer_data(Binding::new(0, 5)).unwrap());
    assert_eq!(&words[..4], &[1, 2, 3, 4]);
}

#[test]
fn resq_gives_the_buffer_size() {
    let out = compute(
        "",
        "RESQ TEMP[4].xz, BUFFER[0]",
        &[lane([0; 4]), lane([0; 4])],
    );
    // Two lanes of four vec4s: 128 bytes.
    assert_eq!(out[0][0], [128, 0, 128, 0]);
}

#[test]
fn float_values_survive_loads_and_stores() {
    let out = compute(
        "",
        "MOV TEMP[4], -TEMP[0]",
        &[lane(f([1.5, -2.0, 0.0, 4.0]))],
    );
    assert_eq!(as_f(out[0][0]), [-1.5, 2.0, -0.0, -4.0]);
}
