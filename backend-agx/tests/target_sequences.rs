//! G13 target sequences run in the simulator (`agxc::sim`) against what the rules were
//! checked with: the `g13.urcp` and `g13.imadd` selections, and division by a uniform sharing
//! one reciprocal. (They were unit tests of `target/`; the simulator glue now lives in the
//! facade, which these integration tests may use.)

use agxc::sim;
use agxc::sim::run_compute;
use agxc_backend_agx::target::divide::eval_urcp;
use agxc_backend_agx::target::imadd::eval_imadd;
use agxc_backend_agx::target::{ops, G13Target};
use agxc_backend_agx::{compile, CompileOptions};
use agxc_egraph::interp::{self, Limits, Resources};
use agxc_egraph::ir::{parse_function, Binding, Const, OpRegistry, Type};
use agxc_egraph::opt::{optimize, OptOptions};

/// Instruction selection's sequences for `g13.urcp` and `g13.imadd`, run on the simulator,
/// give what the rules were checked with (`eval_urcp`, `eval_imadd`).
#[test]
fn the_selected_sequences_compute_the_evaluated_values() {
    let registry = OpRegistry::with(&ops::OPS);
    let func = parse_function(
        "function @f compute local_size(64, 1, 1) {
         block0:
             v0:i32 = builtin global_id.x
             v1:i32 = const 4
             v2:i32 = imul v0, v1
             v3:i32 = load storage(0, 0) [v2]
             v4:i32 = g13.urcp v3
             store storage(0, 1) [v2], v4
             v5:i32 = load storage(0, 2) [v2]
             v6:i32 = g13.imadd v3, v5, v4
             store storage(0, 3) [v2], v6
             return
         }",
        &registry,
    )
    .expect("parses");
    let binary = compile(&func, &CompileOptions::default()).expect("compiles");
    let mut rng = agxc_egraph::opt::synth::Rng::new(0x2545_f491_4f6c_dd1du64);
    let mut next = move || rng.next_u64();
    let mut d: Vec<u32> = vec![
        0,
        1,
        2,
        3,
        7,
        255,
        256,
        65535,
        1 << 31,
        u32::MAX,
        u32::MAX - 1,
    ];
    d.extend((0..32).map(|k| 1u32 << k | 1));
    while !d.len().is_multiple_of(64) || d.len() < 1024 {
        let x = next();
        d.push((x >> (x % 32)) as u32);
    }
    let b: Vec<u32> = d.iter().map(|_| next() as u32).collect();
    let bytes = |w: &[u32]| w.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    let mut res = Resources::new();
    res.bind_storage(Binding::new(0, 0), bytes(&d));
    res.bind_storage(Binding::new(0, 1), vec![0; d.len() * 4]);
    res.bind_storage(Binding::new(0, 2), bytes(&b));
    res.bind_storage(Binding::new(0, 3), vec![0; d.len() * 4]);
    run_compute(&binary, &mut res, [d.len() as u32 / 64, 1, 1]).expect("runs");
    let words = |i| -> Vec<u32> {
        res.buffer_data(Binding::new(0, i))
            .expect("bound")
            .chunks(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    };
    let (z, fused) = (words(1), words(3));
    for i in 0..d.len() {
        let c = |x: u32| Const::from_bits(Type::I32, u64::from(x));
        let want = eval_urcp(&[c(d[i])], Type::I32).bits() as u32;
        assert_eq!(z[i], want, "urcp({})", d[i]);
        let want = eval_imadd(&[c(d[i]), c(b[i]), c(want)], Type::I32);
        assert_eq!(
            fused[i],
            want.bits() as u32,
            "imadd({}, {}, {})",
            d[i],
            b[i],
            z[i]
        );
    }
}

/// Acceptance (issue 13, item 2): two divisions by the same uniform share one reciprocal, in the
/// machine code, and the program still divides exactly (simulator against the interpreter).
#[test]
fn two_divisions_by_one_uniform_share_one_reciprocal() {
    let registry = OpRegistry::with(&ops::OPS);
    let f = parse_function(
        "function @f compute local_size(64, 1, 1) {
         block0:
             v0:i32 = builtin global_id.x
             v1:i32 = const 4
             v2:i32 = imul v0, v1
             v3:i32 = const 0
             v4:i32 = load push [v3]
             v5:i32 = load storage(0, 0) [v2]
             v6:i32 = udiv v5, v4
             v7:i32 = urem v0, v4
             v8:i32 = iadd v6, v7
             store storage(0, 1) [v2], v8
             return
         }",
        &registry,
    )
    .expect("parses");
    let opt = optimize(&f, &G13Target::new(), &OptOptions::default()).expect("optimizes");
    let text = opt.func.to_string();
    assert_eq!(text.matches("g13.urcp").count(), 1, "{text}");
    assert!(!text.contains("udiv") && !text.contains("urem"), "{text}");
    let binary = compile(&opt.func, &CompileOptions::default()).expect("compiles");
    // The divisor is a push constant: its reciprocal is uniform work, computed once by the
    // preamble; main program and preamble hold one `rcp` between them.
    let rcps = |listing: &str| listing.lines().filter(|l| l.contains(" rcp")).count();
    let preamble = binary
        .preamble
        .as_ref()
        .map_or("", |p| p.disassembly.as_str());
    assert_eq!(rcps(&binary.disassembly), 0, "{}", binary.disassembly);
    assert_eq!(rcps(preamble), 1, "{preamble}");

    let n = 256usize;
    let xs: Vec<u32> = (0..n as u32)
        .map(|i| i.wrapping_mul(0x9e37_79b9) >> (i % 29))
        .collect();
    for d in [0u32, 1, 3, 7, 1000, 65_537, 0x8000_0001, u32::MAX] {
        let mut res = Resources::new();
        res.set_push_constants(d.to_le_bytes().to_vec());
        res.bind_storage(
            Binding::new(0, 0),
            xs.iter().flat_map(|x| x.to_le_bytes()).collect(),
        );
        res.bind_storage(Binding::new(0, 1), vec![0; 4 * n]);
        let mut sim = res.clone();
        interp::run_compute(&f, &mut res, [n as u32 / 64, 1, 1], &Limits::default()).expect("runs");
        sim::run_compute(&binary, &mut sim, [n as u32 / 64, 1, 1]).expect("simulates");
        let want = res.buffer_data(Binding::new(0, 1));
        assert_eq!(sim.buffer_data(Binding::new(0, 1)), want, "divisor {d}");
        let first = u32::from_le_bytes(want.expect("bound")[4..8].try_into().expect("4 bytes"));
        let expect = xs[1]
            .checked_div(d)
            .unwrap_or(u32::MAX)
            .wrapping_add(1u32.checked_rem(d).unwrap_or(1));
        assert_eq!(first, expect, "divisor {d}");
    }
}
