//! Constant promotion (`promote`): constants no immediate field holds go to the ABI's constant
//! pool instead of `mov_imm`, when that removes the `mov_imm`; the simulator run (through
//! `sim`, which preloads the pool) matches the interpreter and f32 arithmetic done here.

mod common;

use agxc::sim;
use agxc_backend_agx::abi::{Abi, UniformContent, UniformSlot, UNIFORM_WORDS};
use agxc_backend_agx::CompileOptions;
use agxc_egraph::interp::Resources;
use agxc_egraph::ir::Binding;
use common::{build, check_compute, parse, Out, Tol};

fn f32s(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn bytes(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

fn constants(abi: &Abi) -> Vec<u32> {
    abi.uniforms
        .iter()
        .filter_map(|s| match s.content {
            UniformContent::Constant(bits) => Some(bits),
            _ => None,
        })
        .collect()
}

/// `y[i] = x[i] * 0.3 + 1234.5 - x[i] * 0.3`-like arithmetic: 0.3 twice, 1234.5 once (neither
/// an 8-bit float immediate), every use an ALU source.
const ARITH: &str = "function @arith compute local_size(32, 1, 1) {
block0:
    v0:i32 = builtin global_id.x
    v1:i32 = const 4
    v2:i32 = imul v0, v1
    v3:f32 = load storage(0, 0) [v2]
    v4:f32 = const 0.3
    v5:f32 = fmul v3, v4
    v6:f32 = const 1234.5
    v7:f32 = fadd v5, v6
    v8:f32 = const 0.3
    v9:f32 = fmul v7, v8
    store storage(0, 1) [v2], v9
    return
}";

#[test]
fn alu_constants_come_from_uniforms_and_the_result_is_right() {
    let func = parse(ARITH);
    let x: Vec<f32> = (0..64).map(|i| i as f32 * 0.75 - 20.0).collect();
    let mut res = Resources::default();
    res.bind_storage(Binding::new(0, 0), bytes(&x));
    res.bind_storage(Binding::new(0, 1), vec![0; 4 * x.len()]);
    // -O2 fuses the first multiply and the add (one rounding fewer than the interpreter).
    let out = [Out::F32(Binding::new(0, 1), Tol::ulps(2))];
    let binaries = check_compute(&func, &res, [2, 1, 1], &out);
    // -O0 keeps the IR's operations unfused, as the f32 arithmetic below does.
    let o0 = &binaries[0];
    assert!(!o0.disassembly.contains("mov_imm"), "{}", o0.disassembly);
    // One word per distinct value, in order of use count: 0.3 (two `mov_imm`s) first.
    assert_eq!(
        constants(&o0.metadata.abi),
        vec![0.3f32.to_bits(), 1234.5f32.to_bits()]
    );
    let mut got = res.clone();
    if let Err(e) = sim::run_compute(o0, &mut got, [2, 1, 1]) {
        panic!("{e}\n{}", o0.disassembly);
    }
    let y = f32s(got.buffer_data(Binding::new(0, 1)).unwrap_or(&[]));
    for (i, (&xi, &yi)) in x.iter().zip(&y).enumerate() {
        let want = (xi * 0.3 + 1234.5) * 0.3;
        assert_eq!(yi.to_bits(), want.to_bits(), "y[{i}] = {yi}, want {want}");
    }
}

/// A constant stored to memory is read by the store's data operand, which only takes a
/// register: promoting it would not remove its `mov_imm`, so it stays.
#[test]
fn a_constant_only_stored_keeps_its_mov_imm() {
    let func = parse(
        "function @store_const compute local_size(32, 1, 1) {
block0:
    v0:i32 = builtin global_id.x
    v1:i32 = const 4
    v2:i32 = imul v0, v1
    v3:i32 = const 305419896
    store storage(0, 0) [v2], v3
    return
}",
    );
    let b = build(&func, &CompileOptions::default());
    assert!(b.disassembly.contains("mov_imm"), "{}", b.disassembly);
    assert!(constants(&b.metadata.abi).is_empty());
    let mut res = Resources::default();
    res.bind_storage(Binding::new(0, 0), vec![0; 4 * 32]);
    if let Err(e) = sim::run_compute(&b, &mut res, [1, 1, 1]) {
        panic!("{e}\n{}", b.disassembly);
    }
    let data = res.buffer_data(Binding::new(0, 0)).unwrap_or(&[]);
    for (i, w) in data.chunks_exact(4).enumerate() {
        assert_eq!(w, 0x1234_5678u32.to_le_bytes(), "word {i}");
    }
}

/// The pool shares a word between equal values and stops at the last uniform register.
#[test]
fn the_pool_reuses_values_and_respects_the_uniform_file() {
    let mut abi = Abi::default();
    abi.uniforms.push(UniformSlot {
        index: 0,
        content: UniformContent::BufferAddress(Binding::new(0, 0)),
    });
    assert_eq!(abi.add_constant(7), Some(2));
    assert_eq!(abi.add_constant(9), Some(3));
    assert_eq!(abi.add_constant(7), Some(2));
    abi.uniforms.push(UniformSlot {
        index: (UNIFORM_WORDS - 2) as u16,
        content: UniformContent::PushWord(0),
    });
    assert_eq!(abi.add_constant(11), Some((UNIFORM_WORDS - 1) as u16));
    assert_eq!(abi.add_constant(12), None);
    assert_eq!(abi.add_constant(9), Some(3));
}
