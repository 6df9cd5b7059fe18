//! `RelaxedPrecision` arithmetic in f16 (`Options::relaxed_f16`, the optimizer's
//! `relax-precision` pass) on the G13: a shader whose float arithmetic is all marked relaxed
//! compiles to 16-bit float instructions in fewer registers than the f32 compile, and its results
//! stay within the relaxed tolerance of the interpreter running the unoptimized IR in f32.
//!
//! The tolerance: each f16 rounding (of an input, or of an operation's result) is a relative
//! error of at most 2^-11. The shader's values are positive (inputs in [0.5, 2], constants
//! positive, only additions and multiplications), so relative errors add up along each
//! expression without cancellation: the deepest output goes through 8 roundings, so it stays
//! within 8 * 2^-11 (plus second-order terms) of the exact value. The check allows 2^-7
//! (= 16 * 2^-11) relative, and requires the f32 compile (the default) to agree with the
//! interpreter to 4 ULP (contraction into `fma` may change the last bits). The same holds for a
//! GLSL `mediump` shader compiled by glslang, through the SPIR-V `RelaxedPrecision` decoration.

use agxc::sim;
use agxc::{compile, Compiled, Options};
use agxc_egraph::interp::{run_compute, Limits, Resources};
use agxc_egraph::ir::{parse_function, Binding, OpRegistry};

/// Four inputs per thread, eight relaxed intermediate values all live until the end, four
/// outputs.
const IR: &str = "function @main compute local_size(64, 1, 1) {
block0:
    v0:i32 = builtin global_id.x
    v1:i32 = const 16
    v2:i32 = imul v0, v1
    v3:f32 = load storage(0, 0) [v2]
    v4:i32 = const 4
    v5:i32 = iadd v2, v4
    v6:f32 = load storage(0, 0) [v5]
    v7:i32 = iadd v5, v4
    v8:f32 = load storage(0, 0) [v7]
    v9:i32 = iadd v7, v4
    v10:f32 = load storage(0, 0) [v9]
    v11:f32 = const 0.5
    v12:f32 = const 1.25
    v20:f32 = fmul.relaxed v3, v6
    v21:f32 = fmul.relaxed v8, v10
    v22:f32 = fadd.relaxed v3, v12
    v23:f32 = fadd.relaxed v6, v11
    v24:f32 = fmul.relaxed v22, v23
    v25:f32 = fadd.relaxed v20, v21
    v26:f32 = fmul.relaxed v25, v11
    v27:f32 = fadd.relaxed v24, v8
    v28:f32 = fmul.relaxed v26, v27
    v29:f32 = fadd.relaxed v28, v20
    v30:f32 = fmul.relaxed v29, v21
    v31:f32 = fadd.relaxed v30, v22
    v32:f32 = fmul.relaxed v31, v23
    v33:f32 = fadd.relaxed v32, v24
    v34:f32 = fmax.relaxed v33, v25
    v35:f32 = fadd.relaxed v34, v26
    store storage(0, 1) [v2], v35
    store storage(0, 1) [v5], v31
    store storage(0, 1) [v7], v29
    store storage(0, 1) [v9], v27
    return
}";

const THREADS: usize = 256;

/// The inputs: four f32 words per thread in [0.5, 2], from a fixed linear congruential
/// sequence (Knuth's MMIX constants).
fn inputs() -> Vec<f32> {
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    (0..4 * THREADS)
        .map(|_| {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            0.5 + 1.5 * ((x >> 40) as f32 / (1u64 << 24) as f32)
        })
        .collect()
}

fn bytes(words: &[f32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn floats(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn resources() -> Resources {
    let mut res = Resources::new();
    res.bind_storage(Binding::new(0, 0), bytes(&inputs()));
    res.bind_storage(Binding::new(0, 1), vec![0; 16 * THREADS]);
    res
}

fn simulate(c: &Compiled) -> Vec<f32> {
    let mut res = resources();
    sim::run_compute(&c.binary, &mut res, [THREADS as u32 / 64, 1, 1]).expect("simulates");
    floats(res.buffer_data(Binding::new(0, 1)).expect("bound"))
}

/// The interpreter on the unoptimized IR, which evaluates every operation in f32.
fn interpret() -> Vec<f32> {
    let registry = OpRegistry::with(&agxc_backend_agx::target::ops::OPS);
    interpret_function(&parse_function(IR, &registry).expect("parses"))
}

/// `func` in the interpreter (relaxed flags are a permission it does not use).
fn interpret_function(func: &agxc_egraph::ir::Function) -> Vec<f32> {
    let mut res = resources();
    run_compute(
        func,
        &mut res,
        [THREADS as u32 / 64, 1, 1],
        &Limits::default(),
    )
    .expect("interprets");
    floats(res.buffer_data(Binding::new(0, 1)).expect("bound"))
}

fn compile_with(relaxed_f16: bool) -> Compiled {
    let opts = Options {
        relaxed_f16,
        ..Options::default()
    };
    compile(IR.as_bytes(), &opts).expect("compiles")
}

/// Float arithmetic instructions of a listing that compute in 16 bits (`fadd16`, `fmul16`,
/// `fmadd16`).
fn half_arithmetic(asm: &str) -> usize {
    asm.lines()
        .filter_map(|l| l.split_whitespace().nth(2))
        .filter(|m| ["fadd16", "fmul16", "fmadd16"].contains(m))
        .count()
}

#[test]
fn relaxed_arithmetic_runs_in_f16_with_fewer_registers() {
    let wide = compile_with(false);
    let half = compile_with(true);
    assert_eq!(
        half_arithmetic(&wide.binary.disassembly),
        0,
        "{}",
        wide.binary.disassembly
    );
    assert!(
        half_arithmetic(&half.binary.disassembly) >= 12,
        "{}",
        half.binary.disassembly
    );
    let (w, h) = (
        wide.binary.metadata.gpr_halves,
        half.binary.metadata.gpr_halves,
    );
    assert!(h < w, "registers: f16 {h} halves, f32 {w}");
}

#[test]
fn relaxed_results_stay_within_the_relaxed_tolerance() {
    let want = interpret();
    let wide = simulate(&compile_with(false));
    let half = simulate(&compile_with(true));
    let tolerance = 2f32.powi(-7);
    let mut off = Vec::new();
    for (i, ((&e, &w), &h)) in want.iter().zip(&wide).zip(&half).enumerate() {
        assert!(e.is_finite() && e > 0.0, "word {i}: {e}");
        let ulps = (w.to_bits() as i64 - e.to_bits() as i64).unsigned_abs();
        assert!(ulps <= 4, "f32 word {i}: {w} vs {e}");
        if ((h - e) / e).abs() > tolerance {
            off.push(format!("word {i}: {h} vs {e}"));
        }
    }
    assert!(
        off.is_empty(),
        "{} words off: {:?}",
        off.len(),
        &off[..off.len().min(5)]
    );
    // Not bit-identical either: the f16 compile really computed in 16 bits.
    assert_ne!(wide, half);
}

/// GLSL `mediump` (OpenGL ES 3.1) through glslang: the SPIR-V carries `RelaxedPrecision`, the
/// lifter sets the IR's flag, and the same checks hold as for the IR above. Values: `x` in
/// [0.5, 2], `y = 0.5x + 1.25` in [1.5, 2.25], `z = xy + y*y` in [3, 9.6], `w = zx + y` in
/// [3, 21.5], the output `wy + z` in [7.5, 58]: all positive, at most 10 f16 roundings on the way
/// to the output, so the 2^-7 bound (16 roundings of 2^-11) applies. The output reads `y` and
/// `z` again at the end, so they stay live with `w`: in f16 each takes half the registers.
const MEDIUMP: &str = "#version 310 es
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { highp vec4 a[]; };
layout(std430, binding = 1) writeonly buffer Out { highp vec4 o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    mediump vec4 x = a[i];
    mediump vec4 y = x * 0.5 + vec4(1.25);
    mediump vec4 z = x * y + y * y;
    mediump vec4 w = z * x + y;
    o[i] = w * y + z;
}
";

/// `MEDIUMP` compiled to SPIR-V by `glslangValidator` (installed with the test tools, see the
/// README).
fn mediump_spirv() -> Vec<u8> {
    let dir = std::env::temp_dir();
    let stem = format!("agxc-relaxed-{}", std::process::id());
    let src = dir.join(format!("{stem}.comp"));
    let spv = dir.join(format!("{stem}.spv"));
    std::fs::write(&src, MEDIUMP).expect("writes the shader");
    let out = std::process::Command::new("glslangValidator")
        .args(["-V", "-o"])
        .arg(&spv)
        .arg(&src)
        .output()
        .expect("glslangValidator runs (see the README's test tools)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let bytes = std::fs::read(&spv).expect("reads the SPIR-V");
    let _ = std::fs::remove_file(&src);
    let _ = std::fs::remove_file(&spv);
    bytes
}

#[test]
fn glsl_mediump_compiles_to_f16_within_the_relaxed_tolerance() {
    let spirv = mediump_spirv();
    let build = |relaxed_f16| {
        let opts = Options {
            relaxed_f16,
            ..Options::default()
        };
        compile(&spirv, &opts).expect("compiles")
    };
    let (wide, half) = (build(false), build(true));
    assert_eq!(half_arithmetic(&wide.binary.disassembly), 0);
    assert!(
        half_arithmetic(&half.binary.disassembly) >= 8,
        "{}",
        half.binary.disassembly
    );
    assert!(
        half.binary.metadata.gpr_halves < wide.binary.metadata.gpr_halves,
        "registers: f16 {} halves, f32 {}",
        half.binary.metadata.gpr_halves,
        wide.binary.metadata.gpr_halves
    );
    // The interpreter on the lifted IR, which ignores the permission and computes in f32.
    let (_, func) = agxc::lift(&spirv, &Options::default()).expect("lifts");
    let want = interpret_function(&func);
    let got = simulate(&half);
    let tolerance = 2f32.powi(-7);
    for (i, (&e, &h)) in want.iter().zip(&got).enumerate() {
        assert!(e.is_finite() && e > 0.0, "word {i}: {e}");
        assert!(((h - e) / e).abs() <= tolerance, "word {i}: {h} vs {e}");
    }
    assert_ne!(want, got, "the f16 compile computed in 16 bits");
}
