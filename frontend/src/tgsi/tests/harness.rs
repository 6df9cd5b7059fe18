//! Runs small TGSI programs in the reference interpreter.
//!
//! [`compute`] wraps a body of instructions in a compute shader with one invocation per lane:
//! `TEMP[0..3]` are loaded from a storage buffer (four vec4s per lane), the body runs, and
//! `TEMP[4]` and `TEMP[5]` are stored to a second buffer. The wrapper uses `IMM[0]`,
//! `TEMP[9]` and `SV[0]`; a test's own immediates start at `IMM[1]`.

use crate::tgsi::{lift, LiftOptions};
use agxc_egraph::interp::{
    bytes_u32, run_compute, run_fragment, u32_bytes, FragmentGrid, FragmentOutput, Limits,
    Resources,
};
use agxc_egraph::ir::{Binding, Function};

/// Four words from floats.
pub fn f(v: [f32; 4]) -> [u32; 4] {
    v.map(f32::to_bits)
}

/// Four words from signed integers.
pub fn i(v: [i32; 4]) -> [u32; 4] {
    v.map(|x| x as u32)
}

/// Four floats from words.
pub fn as_f(v: [u32; 4]) -> [f32; 4] {
    v.map(f32::from_bits)
}

/// Four signed integers from words.
pub fn as_i(v: [u32; 4]) -> [i32; 4] {
    v.map(|x| x as i32)
}

/// Lifts `text`, panicking with the error (tests only).
pub fn lift_ok(text: &str) -> Function {
    match lift(text, &LiftOptions::default()) {
        Ok(func) => func,
        Err(e) => panic!("{e}\n{text}"),
    }
}

/// The compute wrapper around `body` with extra declarations `decls`.
pub fn compute_text(lanes: usize, decls: &str, body: &str) -> String {
    compute_text_with_tail(lanes, decls, body, "")
}

/// Index of the first instruction of the body in [`compute_text`] (for `:label` targets).
pub const BODY_START: usize = 6;

/// The compute wrapper, with `tail` after its `END` (subroutines).
pub fn compute_text_with_tail(lanes: usize, decls: &str, body: &str, tail: &str) -> String {
    format!(
        "COMP
PROPERTY CS_FIXED_BLOCK_WIDTH {lanes}
DCL SV[0], THREAD_ID
DCL BUFFER[0]
DCL BUFFER[1]
DCL TEMP[0..9]
IMM[0] UINT32 {{64, 16, 32, 48}}
{decls}
UMUL TEMP[9].x, SV[0].xxxx, IMM[0].xxxx
UADD TEMP[9].yzw, TEMP[9].xxxx, IMM[0].xyzw
LOAD TEMP[0], BUFFER[0], TEMP[9].xxxx
LOAD TEMP[1], BUFFER[0], TEMP[9].yyyy
LOAD TEMP[2], BUFFER[0], TEMP[9].zzzz
LOAD TEMP[3], BUFFER[0], TEMP[9].wwww
{body}
STORE BUFFER[1], TEMP[9].xxxx, TEMP[4]
STORE BUFFER[1], TEMP[9].yyyy, TEMP[5]
END
{tail}
"
    )
}

/// Runs `body` once per lane with `TEMP[0..3]` from `inputs`; returns `TEMP[4]` and `TEMP[5]`
/// per lane.
pub fn compute(decls: &str, body: &str, inputs: &[[[u32; 4]; 4]]) -> Vec<[[u32; 4]; 2]> {
    let text = compute_text(inputs.len(), decls, body);
    compute_program(&text, inputs, &LiftOptions::default(), |_| {})
}

/// Runs a whole program built by [`compute_text_with_tail`] with extra resources and options.
pub fn compute_program(
    text: &str,
    inputs: &[[[u32; 4]; 4]],
    options: &LiftOptions,
    bind: impl FnOnce(&mut Resources),
) -> Vec<[[u32; 4]; 2]> {
    let func = match lift(text, options) {
        Ok(func) => func,
        Err(e) => panic!("{e}\n{text}"),
    };
    let words: Vec<u32> = inputs
        .iter()
        .flat_map(|l| l.iter().flatten().copied())
        .collect();
    let mut res = Resources::new();
    res.bind_storage(Binding::new(0, 0), u32_bytes(&words));
    res.bind_storage(Binding::new(0, 1), vec![0; inputs.len() * 64]);
    bind(&mut res);
    if let Err(e) = run_compute(&func, &mut res, [1, 1, 1], &Limits::default()) {
        panic!("{e}\n{text}\n{func}");
    }
    let out = bytes_u32(res.buffer_data(Binding::new(0, 1)).expect("bound above"));
    out.chunks_exact(16)
        .map(|c| {
            let v = |k: usize| [c[k], c[k + 1], c[k + 2], c[k + 3]];
            [v(0), v(4)]
        })
        .collect()
}

/// One lane: `TEMP[4]` after `body` with `TEMP[0..3] = inputs`.
pub fn run(decls: &str, body: &str, inputs: [[u32; 4]; 4]) -> [u32; 4] {
    compute(decls, body, &[inputs])[0][0]
}

/// One lane with float inputs `TEMP[0..2]`; returns `TEMP[4]` as floats.
pub fn run_f(body: &str, t0: [f32; 4], t1: [f32; 4], t2: [f32; 4]) -> [f32; 4] {
    as_f(run("", body, [f(t0), f(t1), f(t2), [0; 4]]))
}

/// One lane with integer inputs `TEMP[0..2]`; returns `TEMP[4]` as integers.
pub fn run_i(body: &str, t0: [i32; 4], t1: [i32; 4], t2: [i32; 4]) -> [i32; 4] {
    as_i(run("", body, [i(t0), i(t1), i(t2), [0; 4]]))
}

/// Lifts and runs a fragment shader over `grid`.
pub fn fragment(text: &str, grid: &FragmentGrid, res: &mut Resources) -> FragmentOutput {
    let func = lift_ok(text);
    match run_fragment(&func, res, grid, &Limits::default()) {
        Ok(out) => out,
        Err(e) => panic!("{e}\n{text}\n{func}"),
    }
}

/// Asserts float equality bit for bit (so NaN equals NaN and -0 differs from +0).
#[track_caller]
pub fn assert_bits(got: [f32; 4], want: [f32; 4]) {
    assert_eq!(
        got.map(f32::to_bits),
        want.map(f32::to_bits),
        "got {got:?}, want {want:?}"
    );
}
