//! Register pressure beyond the register file: shaders that need more than 128 32-bit
//! registers compile through spilling (`stack_store`/`stack_load`) and still match the
//! interpreter; a register limit forces spilling inside loops and divergent code.

mod common;

use agxc_backend_agx::CompileOptions;
use agxc_egraph::interp::Resources;
use agxc_egraph::ir::Binding;
use common::*;

/// A chain `v[i] = v[i-1] * c[i] + d[i]` of `n` values, all kept until the end, where they
/// are combined pairwise from both ends: every value is live when the last is computed.
fn chain_shader(n: usize) -> String {
    let mut s = String::from(
        "function @pressure compute local_size(32, 1, 1) {
         block0:
             v0:i32 = builtin global_id.x
             v1:i32 = const 4
             v2:i32 = imul v0, v1
             v3:f32 = load storage(0, 0) [v2]
",
    );
    let mut next = 4;
    let mut chain = vec![3usize];
    for i in 1..n {
        let c = next;
        let d = next + 1;
        let v = next + 2;
        next += 3;
        let cv = 1.0 - (i % 7) as f32 * 0.015625;
        let dv = (i % 5) as f32 * 0.125;
        s += &format!(
            "             v{c}:f32 = const {cv:?}\n             v{d}:f32 = const {dv:?}\n             v{v}:f32 = fmul v{}, v{c}\n",
            chain[i - 1]
        );
        let w = next;
        next += 1;
        s += &format!("             v{w}:f32 = fadd v{v}, v{d}\n");
        chain.push(w);
    }
    let mut acc = None;
    for i in 0..n / 2 {
        let p = next;
        next += 1;
        s += &format!(
            "             v{p}:f32 = fmul v{}, v{}\n",
            chain[i],
            chain[n - 1 - i]
        );
        acc = Some(match acc {
            None => p,
            Some(a) => {
                let t = next;
                next += 1;
                s += &format!("             v{t}:f32 = fadd v{a}, v{p}\n");
                t
            }
        });
    }
    s += &format!(
        "             store storage(0, 1) [v2], v{}\n             return\n         }}",
        acc.unwrap_or(3)
    );
    s
}

fn inputs() -> Resources {
    let x: Vec<f32> = (0..32).map(|i| 0.5 + i as f32 * 0.03125).collect();
    let mut res = Resources::new();
    res.bind_storage(Binding::new(0, 0), f32s(&x));
    res.bind_storage(Binding::new(0, 1), vec![0; 128]);
    res
}

#[test]
fn more_than_128_registers_spill_and_match() {
    // However the products are scheduled, the first half of the chain (150 values, 300
    // halves) is live when the middle is computed.
    let f = parse(&chain_shader(300));
    let binaries = check_compute(
        &f,
        &inputs(),
        [1, 1, 1],
        &[Out::F32(Binding::new(0, 1), Tol::ulps(64))],
    );
    for b in &binaries {
        assert!(b.stats.spilled_values > 0, "150 live values must spill");
        assert!(b.metadata.stack_bytes > 0);
        assert!(b.metadata.gpr_halves <= 256);
        assert!(b.disassembly.contains("stack_store") && b.disassembly.contains("stack_load"));
    }
}

#[test]
fn spilling_inside_loops_and_branches() {
    // The nested-loop fixture (shared with e2e_compute) under a limit of 12 halves (r0l, and
    // a handful of 32-bit registers).
    let f = parse(&fixtures::nested_loops(false));
    fixtures::check_nested_loops_reference(&f, false);
    let res = fixtures::nested_loops_inputs();
    let opts = CompileOptions {
        max_gpr_halves: 12,
        ..CompileOptions::default()
    };
    let binaries = check_compute_with(
        &f,
        &res,
        [1, 1, 1],
        &[Out::Bytes(Binding::new(0, 0))],
        &opts,
    );
    for b in &binaries {
        assert!(b.metadata.gpr_halves <= 12);
        assert!(b.stats.spilled_values > 0);
    }
}
