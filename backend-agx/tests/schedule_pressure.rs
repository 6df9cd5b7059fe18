//! The scheduler spends registers on memory latency, not on interleaving independent ALU
//! chains: two chains that each need two registers at their widest run one after the other
//! where interleaving them would cost a register more. Results checked against the interpreter
//! (at -O0 and -O2) and against f32 arithmetic done here.

mod common;

use agxc::sim;
use agxc_backend_agx::CompileOptions;
use agxc_egraph::interp::Resources;
use agxc_egraph::ir::Binding;
use common::{build, check_compute, parse, Out, Tol};

/// `y = fract(x * 3) * fract(x * 3) + fract(x * 5) * fract(x * 5)`, with `fract` written out
/// as `t - floor(t)`: per chain, `t` and `floor(t)` are live together.
const TWO_CHAINS: &str = "function @two_chains compute local_size(32, 1, 1) {
block0:
    v0:i32 = builtin global_id.x
    v1:i32 = const 4
    v2:i32 = imul v0, v1
    v3:f32 = load storage(0, 0) [v2]
    v4:f32 = const 3.0
    v5:f32 = fmul v3, v4
    v6:f32 = floor v5
    v7:f32 = fsub v5, v6
    v8:f32 = fmul v7, v7
    v9:f32 = const 5.0
    v10:f32 = fmul v3, v9
    v11:f32 = floor v10
    v12:f32 = fsub v10, v11
    v13:f32 = fmul v12, v12
    v14:f32 = fadd v8, v13
    store storage(0, 1) [v2], v14
    return
}";

#[test]
fn independent_alu_chains_do_not_cost_an_extra_register() {
    let func = parse(TWO_CHAINS);
    let x: Vec<f32> = (0..64).map(|i| i as f32 * 0.37 - 11.0).collect();
    let mut res = Resources::default();
    res.bind_storage(
        Binding::new(0, 0),
        x.iter().flat_map(|v| v.to_le_bytes()).collect(),
    );
    res.bind_storage(Binding::new(0, 1), vec![0; 4 * x.len()]);
    // -O2 may fuse the final multiply-add.
    check_compute(
        &func,
        &res,
        [2, 1, 1],
        &[Out::F32(Binding::new(0, 1), Tol::ulps(2))],
    );

    let b = build(&func, &CompileOptions::default());
    // One chain at a time, the widest points hold four 32-bit values: the address, x (or the
    // first chain's square) and t and floor(t) of a chain. Interleaving the chains would hold
    // t and floor(t) of both with the address: five.
    assert_eq!(b.metadata.gpr_halves, 8, "{}", b.disassembly);

    let mut got = res.clone();
    if let Err(e) = sim::run_compute(&b, &mut got, [2, 1, 1]) {
        panic!("{e}\n{}", b.disassembly);
    }
    let data = got.buffer_data(Binding::new(0, 1)).unwrap_or(&[]);
    for (i, (w, &xi)) in data.chunks_exact(4).zip(&x).enumerate() {
        let yi = f32::from_le_bytes([w[0], w[1], w[2], w[3]]);
        let (a, c) = (xi * 3.0, xi * 5.0);
        let (fa, fc) = (a - a.floor(), c - c.floor());
        let want = fa * fa + fc * fc;
        assert_eq!(yi.to_bits(), want.to_bits(), "y[{i}] = {yi}, want {want}");
    }
}
