//! The uniform preamble end to end: work on push constants and uniform-buffer words alone moves
//! into the preamble program (the main program reads its result from a uniform register), the
//! simulator runs the preamble before the dispatch, and the outputs are what the shader
//! computes (expected values worked out here in Rust, independently of the compiler), also
//! when the uniform contents change between two dispatches of the same binary.

use agxc::sim;
use agxc::{compile, Options};
use agxc_backend_agx::Binary;
use agxc_egraph::interp::Resources;
use agxc_egraph::ir::Binding;

/// The mnemonics of a listing, one per instruction.
fn mnemonics(asm: &str) -> Vec<String> {
    asm.lines()
        .filter_map(|l| l.split_whitespace().nth(2).map(str::to_string))
        .collect()
}

/// Runs `binary` over `n` invocations (8 per group) with `res`; returns binding (0, 1) as words.
fn run(binary: &Binary, res: &mut Resources, n: usize) -> Vec<u32> {
    res.bind_storage(Binding::new(0, 1), vec![0; 4 * n]);
    sim::run_compute(binary, res, [n as u32 / 8, 1, 1]).expect("simulates");
    res.buffer_data(Binding::new(0, 1))
        .expect("bound")
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

#[test]
fn a_division_by_a_push_constant_takes_its_reciprocal_from_the_preamble() {
    let ir = "function @main compute local_size(8, 1, 1) {
block0:
    v0:i32 = builtin global_id.x
    v1:i32 = const 4
    v2:i32 = imul v0, v1
    v3:i32 = const 0
    v4:i32 = load push [v3]
    v5:i32 = iadd v0, v1
    v6:i32 = imul v5, v5
    v7:i32 = udiv v6, v4
    store storage(0, 1) [v2], v7
    return
}";
    let c = compile(ir.as_bytes(), &Options::default()).expect("compiles");
    let preamble = c
        .binary
        .preamble
        .as_ref()
        .expect("the divisor's work is uniform");
    let pre = mnemonics(&preamble.disassembly);
    let main = mnemonics(&c.binary.disassembly);
    assert!(pre.iter().any(|m| m == "rcp"), "{}", preamble.disassembly);
    assert!(pre.iter().any(|m| m == "uniform_store"));
    assert!(!main.iter().any(|m| m == "rcp"), "{}", c.binary.disassembly);
    // Two dispatches of the same binary with different divisors (0 gives all ones).
    for d in [7u32, 1, 0, 0xffff_fff1, 12_345] {
        let mut res = Resources::new();
        res.set_push_constants(d.to_le_bytes().to_vec());
        let got = run(&c.binary, &mut res, 64);
        let want: Vec<u32> = (0..64u32)
            .map(|i| {
                let x = (i + 4).wrapping_mul(i + 4);
                x.checked_div(d).unwrap_or(u32::MAX)
            })
            .collect();
        assert_eq!(got, want, "divisor {d}");
    }
    // The statistics show the preamble ran once for the dispatch (one SIMD-group, its own
    // instruction count), apart from the main program's 8 SIMD-groups of 8 threads.
    let mut res = Resources::new();
    res.set_push_constants(3u32.to_le_bytes().to_vec());
    res.bind_storage(Binding::new(0, 1), vec![0; 4 * 64]);
    let stats = sim::run_compute(&c.binary, &mut res, [8, 1, 1]).expect("simulates");
    let pre = stats.preamble.as_ref().expect("the preamble's statistics");
    assert_eq!(pre.simd_groups, 1);
    assert_eq!(stats.simd_groups, 8);
    assert_eq!(
        pre.instructions,
        u64::from(preamble.instructions),
        "straight-line code"
    );
    assert!(pre.preamble.is_none());
}

#[test]
fn a_product_of_uniform_buffer_words_is_computed_once() {
    let ir = "function @main compute local_size(8, 1, 1) {
block0:
    v0:i32 = builtin global_id.x
    v1:i32 = const 4
    v2:i32 = imul v0, v1
    v3:i32 = const 0
    v4:f32 = load uniform(0, 2) [v3]
    v5:f32 = load uniform(0, 2) [v1]
    v6:f32 = fmul v4, v5
    v7:f32 = fadd v6, v5
    v8:f32 = u2f v0
    v9:f32 = fmul v8, v7
    store storage(0, 1) [v2], v9
    return
}";
    let c = compile(ir.as_bytes(), &Options::default()).expect("compiles");
    let preamble = c.binary.preamble.as_ref().expect("the product is uniform");
    assert!(
        mnemonics(&preamble.disassembly)
            .iter()
            .any(|m| m.starts_with("fmul") || m.starts_with("fmadd")),
        "{}",
        preamble.disassembly
    );
    for (a, b) in [(1.5f32, -2.25f32), (3.0e-3, 7.0e4)] {
        let mut res = Resources::new();
        let words: Vec<u8> = [a, b].iter().flat_map(|v| v.to_le_bytes()).collect();
        res.bind_uniform(Binding::new(0, 2), words);
        let got = run(&c.binary, &mut res, 32);
        // The G13 fuses `a * b + b` (one rounding); the interpreter's IR rounds twice, so
        // compare within an ulp of the per-thread product.
        for (i, &w) in got.iter().enumerate() {
            let fused = (i as f32) * a.mul_add(b, b);
            let rounded = (i as f32) * (a * b + b);
            let g = f32::from_bits(w);
            let tol = 2.0 * f32::EPSILON * rounded.abs().max(fused.abs());
            assert!(
                (g - fused).abs() <= tol || (g - rounded).abs() <= tol,
                "a {a} b {b} i {i}: {g} vs {fused} / {rounded}"
            );
        }
    }
}
