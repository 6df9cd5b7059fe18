//! 16-bit division and remainder on the G13 (instruction selection's f32 method,
//! `isel::divide::divide16`) against Rust's integer arithmetic with the IR's definitions
//! (division by zero: all ones for `udiv`, -1 for `sdiv`, the dividend for both remainders;
//! `MIN / -1` wraps to `MIN`), over every pair of edge values and many random pairs, at -O0 and
//! -O2.

use agxc::sim;
use agxc::{compile, OptLevel, Options};
use agxc_egraph::interp::Resources;
use agxc_egraph::ir::Binding;

/// Each thread reads `(n, d)` as two i32 words, truncates them to i16, and stores
/// `sdiv, srem, udiv, urem`, each sign-extended to i32.
const IR: &str = "function @main compute local_size(64, 1, 1) {
block0:
    v0:i32 = builtin global_id.x
    v1:i32 = const 8
    v2:i32 = imul v0, v1
    v3:i32 = load storage(0, 0) [v2]
    v4:i32 = const 4
    v5:i32 = iadd v2, v4
    v6:i32 = load storage(0, 0) [v5]
    v7:i16 = itrunc v3
    v8:i16 = itrunc v6
    v9:i16 = sdiv v7, v8
    v10:i16 = srem v7, v8
    v11:i16 = udiv v7, v8
    v12:i16 = urem v7, v8
    v13:i32 = sext v9
    v14:i32 = sext v10
    v15:i32 = sext v11
    v16:i32 = sext v12
    v17:i32 = const 16
    v18:i32 = imul v0, v17
    store storage(0, 1) [v18], v13
    v19:i32 = iadd v18, v4
    store storage(0, 1) [v19], v14
    v20:i32 = iadd v19, v4
    store storage(0, 1) [v20], v15
    v21:i32 = iadd v20, v4
    store storage(0, 1) [v21], v16
    return
}";

/// The four results the IR defines for `n` and `d`, as i16 bit patterns.
fn expected(n: i16, d: i16) -> [u16; 4] {
    let (un, ud) = (n as u16, d as u16);
    let sdiv = if d == 0 { -1 } else { n.wrapping_div(d) };
    let srem = if d == 0 { n } else { n.wrapping_rem(d) };
    let udiv = un.checked_div(ud).unwrap_or(u16::MAX);
    let urem = if ud == 0 { un } else { un % ud };
    [sdiv as u16, srem as u16, udiv, urem]
}

fn pairs() -> Vec<(i16, i16)> {
    let edges: [i16; 22] = [
        0, 1, -1, 2, -2, 3, -3, 7, -7, 10, 255, 256, -256, 1000, 12345, -12345, 16384, -16384,
        32766, 32767, -32767, -32768,
    ];
    let mut out: Vec<(i16, i16)> = edges
        .iter()
        .flat_map(|&n| edges.iter().map(move |&d| (n, d)))
        .collect();
    // A fixed linear congruential sequence for the rest (Knuth's MMIX constants).
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    while out.len() < 64 * 96 {
        x = x
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let n = (x >> 48) as i16;
        // Divisors of every magnitude: shift a random word right by 0..15 bits.
        let d = ((x >> 16) as i16) >> ((x >> 8) % 16);
        out.push((n, d));
    }
    out
}

fn check(level: OptLevel) {
    let opts = Options {
        opt_level: level,
        ..Options::default()
    };
    let c = compile(IR.as_bytes(), &opts).expect("compiles");
    let pairs = pairs();
    let mut input = Vec::with_capacity(8 * pairs.len());
    for &(n, d) in &pairs {
        input.extend_from_slice(&i32::from(n).to_le_bytes());
        input.extend_from_slice(&i32::from(d).to_le_bytes());
    }
    let mut res = Resources::new();
    res.bind_storage(Binding::new(0, 0), input);
    res.bind_storage(Binding::new(0, 1), vec![0; 16 * pairs.len()]);
    sim::run_compute(&c.binary, &mut res, [pairs.len() as u32 / 64, 1, 1]).expect("simulates");
    let out = res.buffer_data(Binding::new(0, 1)).expect("bound");
    let mut bad = Vec::new();
    for (i, &(n, d)) in pairs.iter().enumerate() {
        let got: Vec<u16> = (0..4)
            .map(|k| {
                let at = 16 * i + 4 * k;
                let w = i32::from_le_bytes([out[at], out[at + 1], out[at + 2], out[at + 3]]);
                w as u16
            })
            .collect();
        let want = expected(n, d);
        if got != want {
            bad.push(format!("{n} / {d}: got {got:?}, want {want:?}"));
        }
    }
    assert!(
        bad.is_empty(),
        "{level:?}: {} of {} pairs wrong, first: {:?}",
        bad.len(),
        pairs.len(),
        &bad[..bad.len().min(5)]
    );
}

#[test]
fn sixteen_bit_division_is_exact_at_o0() {
    check(OptLevel::O0);
}

#[test]
fn sixteen_bit_division_is_exact_at_o2() {
    check(OptLevel::O2);
}
