//! Valid SPIR-V that used to be refused, run in the reference interpreter where the corpus (which
//! lavapipe checks) cannot go: the out-of-range accesses of `asm_oob_const_index` executed, which
//! is undefined in SPIR-V and defined by agxc as reading zero and dropping the store.

use agxc_egraph::interp::{bytes_f32, f32_bytes, run_compute, Limits, Resources};
use agxc_egraph::ir::{Binding, Function};
use agxc_frontend::spirv::{lift, LiftOptions};

fn lift_corpus(case: &str) -> Function {
    let path = format!(
        "{}/../tests/corpus/spirv/{case}/shader.spv",
        env!("CARGO_MANIFEST_DIR")
    );
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    lift(&bytes, &LiftOptions::default()).unwrap_or_else(|e| panic!("{case}: {e}"))
}

/// Inputs above 1e6 run the selection full of out-of-range accesses. What each invocation
/// then stores, worked out from the shader text: `v[0] = m[5][2] + priv[4]` reads two
/// out-of-range elements, so it is 0; the stores to `v[5]`, `m[1][7]`, `a[9]` and `a[-1]` are
/// dropped and leave `m[2][1] = a[1] = 2x`, `priv[3] = v[3] = 1`. The result
/// `v[0] + m[2][1] + a[1] + priv[3] + v[3]` is `4x + 2`; below 1e6 it is `5x + 2`.
#[test]
fn out_of_range_constant_indices_read_zero_and_drop_stores_when_run() {
    let func = lift_corpus("asm_oob_const_index");
    // 2^20 and 2^21 (above 1e6) and small integers keep every sum exact.
    let xs: Vec<f32> = (0..128)
        .map(|i| {
            if i % 2 == 0 {
                2f32.powi(20 + i % 4 / 2)
            } else {
                i as f32
            }
        })
        .collect();
    let mut res = Resources::new();
    res.bind_storage(Binding::new(0, 0), f32_bytes(&xs));
    res.bind_storage(Binding::new(0, 1), vec![0; 512]);
    run_compute(&func, &mut res, [2, 1, 1], &Limits::default()).expect("runs");
    let out = bytes_f32(res.buffer_data(Binding::new(0, 1)).expect("bound"));
    for (i, (&x, &got)) in xs.iter().zip(&out).enumerate() {
        let want = if x > 1e6 {
            4.0 * x + 2.0
        } else {
            5.0 * x + 2.0
        };
        assert_eq!(got, want, "invocation {i}, x = {x}");
    }
}
