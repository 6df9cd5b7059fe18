//! f32 division's special values, bit for bit: the G13 has no divide, so `a / b` is
//! `q = a * rcp(b)` refined by one residual step (docs/g13.md); the step's fused sums must not
//! lose what IEEE 754 division gives exactly: the sign of a zero quotient, infinities and NaN.
//!
//! Expected values come from Rust's own `f32` division, with the G13's flush of f32 denormals
//! applied to the operands (docs/g13.md, "Float behaviour"); none of the quotients here is a
//! denormal or needs rounding, so they are exact at every level.

mod common;

use agxc_egraph::interp::Resources;
use agxc_egraph::ir::Binding;
use common::*;

const DIVIDE: &str = "
function @divide compute local_size(16, 1, 1) {
block0:
    v0:i32 = builtin global_id.x
    v1:i32 = const 2
    v2:i32 = ishl v0, v1
    v3:f32 = load storage(0, 0) [v2]
    v4:f32 = load storage(0, 1) [v2]
    v5:f32 = fdiv v3, v4
    store storage(0, 2) [v2], v5
    return
}
";

/// Operand pairs: signed zeros over finite, infinite and negative divisors, finite over
/// infinities and zeros, infinities over finite values, and exact ordinary quotients.
const PAIRS: [(f32, f32); 16] = [
    (-0.0, 3.0),
    (0.0, 3.0),
    (-0.0, -3.0),
    (0.0, -3.0),
    (-0.0, f32::INFINITY),
    (0.0, f32::NEG_INFINITY),
    (5.0, f32::INFINITY),
    (-5.0, f32::INFINITY),
    (5.0, 0.0),
    (5.0, -0.0),
    (f32::INFINITY, 2.0),
    (f32::NEG_INFINITY, 2.0),
    (0.0, 0.0),
    (6.0, 3.0),
    (-1.0, 4.0),
    (f32::MAX, 0.5),
];

#[test]
fn division_keeps_signed_zeros_and_infinities_exactly() {
    let func = parse(DIVIDE);
    let (a, b): (Vec<f32>, Vec<f32>) = PAIRS.iter().copied().unzip();
    let mut res = Resources::new();
    res.bind_storage(Binding::new(0, 0), f32s(&a));
    res.bind_storage(Binding::new(0, 1), f32s(&b));
    res.bind_storage(Binding::new(0, 2), f32s(&[f32::NAN; 16]));
    // Exact, with the sign of every zero and infinity checked; a NaN matches any NaN (the
    // G13 writes the default NaN 0x7fc00000, x86 0xffc00000: sign and payload are not part
    // of the contract).
    let binaries = check_compute(
        &func,
        &res,
        [1, 1, 1],
        &[Out::F32(Binding::new(0, 2), Tol::EXACT)],
    );
    assert_eq!(binaries.len(), 2);
    // The interpreter's outputs, which `check_compute` compared with the simulator's, are
    // themselves checked against Rust's division here.
    let mut expected = res.clone();
    agxc_egraph::interp::run_compute(
        &func,
        &mut expected,
        [1, 1, 1],
        &agxc_egraph::interp::Limits::default(),
    )
    .expect("the interpreter runs the division");
    let got = agxc_egraph::interp::bytes_f32(
        expected
            .buffer_data(Binding::new(0, 2))
            .expect("the output buffer is bound"),
    );
    for (i, &(x, y)) in PAIRS.iter().enumerate() {
        let want = x / y;
        if want.is_nan() {
            assert!(got[i].is_nan(), "{x} / {y}: want NaN, got {}", got[i]);
        } else {
            assert_eq!(
                got[i].to_bits(),
                want.to_bits(),
                "{x} / {y}: want {want:e}, got {:e}",
                got[i]
            );
        }
    }
}
