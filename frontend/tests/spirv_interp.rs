//! Lifted compute shaders run in the reference interpreter, compared with values computed here
//! in Rust from the GLSL source's meaning (`tests/data/*.comp`, built to `.spv` with
//! `glslangValidator -V --target-env vulkan1.1 X.comp -o X.spv`).

// The reference computations index vectors and matrices like the formulas they transcribe.
#![allow(clippy::needless_range_loop)]

use agxc_egraph::interp::{
    bytes_f32, bytes_u32, f32_bytes, run_compute, u32_bytes, Limits, Resources,
};
use agxc_egraph::ir::{Binding, Function};
use agxc_frontend::spirv::{lift, LiftOptions};
use half::f16;

fn lift_data(name: &str) -> Function {
    let path = format!("{}/tests/data/{name}.spv", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    lift(&bytes, &LiftOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Test inputs from the workspace's seeded generator.
struct Rng(agxc_egraph::opt::synth::Rng);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform in [lo, hi).
    fn f32(&mut self, lo: f32, hi: f32) -> f32 {
        let u = (self.next() >> 40) as f32 / (1u64 << 24) as f32;
        lo + (hi - lo) * u
    }

    fn i32(&mut self, lo: i32, hi: i32) -> i32 {
        lo + (self.next() % (hi - lo + 1) as u64) as i32
    }
}

fn close(what: &str, got: f32, want: f64, abs: f64, rel: f64) {
    let ok = (got as f64 - want).abs() <= abs + rel * want.abs() || (got.is_nan() && want.is_nan());
    assert!(
        ok,
        "{what}: got {got}, expected {want} (tolerance {abs} + {rel} relative)"
    );
}

// ---- control.comp

fn first_multiple(x: i32, m: i32) -> i32 {
    for i in 1..20 {
        if (x * i) % m == 0 {
            return i;
        }
        if i > x + 10 {
            break;
        }
    }
    -1
}

fn control_expected(x: i32) -> i32 {
    if x == 0 {
        return 777;
    }
    let mut acc = 0;
    'outer: for i in 0..6 {
        match (x + i) & 3 {
            0 => acc += 11,
            1 => acc += 10,
            2 => {
                if i == 3 {
                    continue 'outer;
                }
                acc += 100;
            }
            _ => acc -= 1000,
        }
        let mut j = 0;
        loop {
            j += 1;
            if j > i {
                break;
            }
            if j & 1 == 0 {
                continue;
            }
            acc += j;
        }
    }
    acc + 100000 * first_multiple(x.abs(), 7)
}

#[test]
fn control_flow_matches_rust() {
    let func = lift_data("control");
    let mut rng = Rng(agxc_egraph::opt::synth::Rng::new(1));
    let n = 64;
    let a: Vec<i32> = (0..n).map(|_| rng.i32(-20, 20)).collect();
    let mut res = Resources::new();
    res.bind_storage(
        Binding::new(0, 0),
        u32_bytes(&a.iter().map(|&x| x as u32).collect::<Vec<_>>()),
    );
    res.bind_storage(Binding::new(0, 1), vec![0; 4 * n]);
    run_compute(&func, &mut res, [4, 1, 1], &Limits::default()).expect("runs");
    let r = bytes_u32(res.buffer_data(Binding::new(0, 1)).expect("bound"));
    assert!(a.contains(&0), "the inputs exercise the early return");
    for (i, &x) in a.iter().enumerate() {
        assert_eq!(r[i] as i32, control_expected(x), "invocation {i}, x = {x}");
    }
}

// ---- loops.comp

fn find(x: i32) -> i32 {
    for i in 0..4 {
        for j in 0..4 {
            if i * 4 + j == x {
                return i * 10 + j;
            }
        }
    }
    -1
}

fn loops_expected(x: i32) -> i32 {
    let mut acc = 0;
    let mut n = 0;
    loop {
        acc += n * x;
        n += 1;
        if n >= x & 7 {
            break;
        }
    }
    let mut ps: Vec<(i32, i32)> = (0..4).map(|i| (i * x, i + x)).collect();
    ps[(x & 3) as usize].1 += 100;
    for i in 0..3 {
        match i + (x & 1) {
            0 => {
                for j in 0..3 {
                    if j == x % 3 {
                        break;
                    }
                    acc += 1;
                }
                continue;
            }
            1 => acc += ps[((i + x) & 3) as usize].1,
            _ => acc -= ps[i as usize].0,
        }
        acc *= 2;
    }
    let mut r = acc + 1000 * find(x & 15);
    for i in 0..5 {
        for j in 0..5 {
            if i * j == x {
                return r + 7;
            }
        }
    }
    r -= 3;
    r
}

#[test]
fn loop_shapes_match_rust() {
    let func = lift_data("loops");
    let a: Vec<i32> = (0..32).map(|i| (i * 5) % 29).collect();
    let mut res = Resources::new();
    res.bind_storage(
        Binding::new(0, 0),
        u32_bytes(&a.iter().map(|&x| x as u32).collect::<Vec<_>>()),
    );
    res.bind_storage(Binding::new(0, 1), vec![0; 4 * a.len()]);
    run_compute(&func, &mut res, [4, 1, 1], &Limits::default()).expect("runs");
    let r = bytes_u32(res.buffer_data(Binding::new(0, 1)).expect("bound"));
    for (i, &x) in a.iter().enumerate() {
        assert_eq!(r[i] as i32, loops_expected(x), "invocation {i}, x = {x}");
    }
}

// ---- memory.comp

#[test]
fn memory_layouts_and_promotion_match_rust() {
    let func = lift_data("memory");
    let mut rng = Rng(agxc_egraph::opt::synth::Rng::new(2));
    // std140 block: mat3 rot at 0 (columns 16 bytes apart), row_major mat2x3 rm at 48 (rows 16
    // bytes apart), vec4 bias[2] at 96 and 112.
    let mut ubo = vec![0f32; 32];
    let rot: [[f32; 3]; 3] = core::array::from_fn(|_| core::array::from_fn(|_| rng.f32(-1.0, 1.0)));
    let rm: [[f32; 3]; 2] = core::array::from_fn(|_| core::array::from_fn(|_| rng.f32(-1.0, 1.0)));
    let bias: [[f32; 4]; 2] =
        core::array::from_fn(|_| core::array::from_fn(|_| rng.f32(-1.0, 1.0)));
    for c in 0..3 {
        for r in 0..3 {
            ubo[c * 4 + r] = rot[c][r];
        }
    }
    for c in 0..2 {
        for r in 0..3 {
            ubo[12 + r * 4 + c] = rm[c][r];
        }
    }
    for (i, b) in bias.iter().enumerate() {
        ubo[24 + i * 4..28 + i * 4].copy_from_slice(b);
    }
    // std430 Item { vec3 pos; float w; ivec2 idx; }: 32 bytes apart.
    let n = 16;
    let mut items = vec![0u32; 8 * n];
    let mut pos = Vec::new();
    let mut w = Vec::new();
    let mut idx = Vec::new();
    for i in 0..n {
        let p: [f32; 3] = core::array::from_fn(|_| rng.f32(-2.0, 2.0));
        let wi = rng.f32(0.0, 3.0);
        let ix = [rng.i32(-9, 9), rng.i32(0, 5)];
        for k in 0..3 {
            items[i * 8 + k] = p[k].to_bits();
        }
        items[i * 8 + 3] = wi.to_bits();
        items[i * 8 + 4] = ix[0] as u32;
        items[i * 8 + 5] = ix[1] as u32;
        pos.push(p);
        w.push(wi);
        idx.push(ix);
    }
    let shift = 3i32;
    let mut res = Resources::new();
    res.bind_uniform(Binding::new(0, 0), f32_bytes(&ubo));
    res.bind_storage(Binding::new(0, 1), u32_bytes(&items));
    res.bind_storage(Binding::new(0, 2), vec![0; 16 * n]);
    res.set_push_constants(u32_bytes(&[shift as u32]));
    run_compute(&func, &mut res, [2, 1, 1], &Limits::default()).expect("runs");
    let out = bytes_f32(res.buffer_data(Binding::new(0, 2)).expect("bound"));

    let mut p_all = Vec::new();
    let mut tile = Vec::new();
    for g in 0..n {
        let mut table = [1.0f32, 2.0, 4.0, 8.0, 16.0];
        // GLSL `%` on ints is lifted from OpSMod: the remainder takes the divisor's sign.
        let k = (idx[g][0] + shift).rem_euclid(5) as usize;
        table[(k + 1) % 5] += w[g];
        let mut p = [0f32; 3];
        for (r, pr) in p.iter_mut().enumerate() {
            let a = rot[0][r] * pos[g][0] + rot[1][r] * pos[g][1] + rot[2][r] * pos[g][2];
            let b = rm[0][r] * w[g] + rm[1][r] * 1.0;
            *pr = a + b;
        }
        tile.push(p[0] + table[k] + table[(k + 1) % 5]);
        p_all.push(p);
    }
    for g in 0..n {
        let group = g / 8 * 8;
        let neighbour = tile[group + (g % 8 + 1) % 8];
        let b = bias[(idx[g][1] & 1) as usize];
        let want = [
            p_all[g][1] + b[0],
            p_all[g][2] + b[1],
            neighbour + b[2],
            n as f32 + b[3],
        ];
        for c in 0..4 {
            close(
                &format!("res[{g}].{c}"),
                out[g * 4 + c],
                want[c] as f64,
                1e-5,
                1e-5,
            );
        }
    }
}

// ---- glsl.comp

#[test]
fn glsl_std450_matches_rust() {
    let func = lift_data("glsl");
    let mut rng = Rng(agxc_egraph::opt::synth::Rng::new(3));
    let n = 64;
    let mut input = Vec::new();
    for _ in 0..n {
        let a = rng.f32(-4.0, 4.0);
        // Keep b away from 0 so that mod(a, b) is finite.
        let b = rng.f32(0.25, 4.0) * if rng.next() & 1 == 0 { 1.0 } else { -1.0 };
        let c = rng.f32(0.01, 8.0);
        let d = rng.f32(-1.0, 1.0);
        input.extend([a, b, c, d]);
    }
    let mut res = Resources::new();
    res.bind_storage(Binding::new(0, 0), f32_bytes(&input));
    res.bind_storage(Binding::new(0, 1), vec![0; 4 * 32 * n]);
    run_compute(&func, &mut res, [2, 1, 1], &Limits::default()).expect("runs");
    let out = bytes_f32(res.buffer_data(Binding::new(0, 1)).expect("bound"));
    for i in 0..n {
        let [a, b, c, d] = [
            input[4 * i],
            input[4 * i + 1],
            input[4 * i + 2],
            input[4 * i + 3],
        ];
        let (a64, b64, c64, d64) = (a as f64, b as f64, c as f64, d as f64);
        let r = |k: usize| out[i * 32 + k];
        let t = |k: usize, want: f64, abs: f64, rel: f64| {
            close(&format!("input {i}, slot {k}"), r(k), want, abs, rel)
        };
        t(0, a64.atan(), 1e-6, 0.0);
        t(1, a64.atan2(b64), 2e-6, 0.0);
        t(2, d64.asin(), 1e-5, 0.0);
        t(3, d64.acos(), 1e-5, 0.0);
        t(4, d64.tan(), 1e-6, 1e-5);
        t(5, d64.sinh(), 1e-5, 0.0);
        t(6, d64.cosh(), 1e-5, 0.0);
        t(7, a64.tanh(), 1e-5, 0.0);
        t(8, a64.asinh(), 1e-5, 0.0);
        t(9, (c64 + 1.0).acosh(), 1e-5, 0.0);
        t(10, ((d * 0.9) as f64).atanh(), 1e-5, 0.0);
        t(11, d64.exp(), 0.0, 1e-6);
        t(12, c64.ln(), 1e-6, 0.0);
        // Exactly the f32 operations GLSL defines.
        assert_eq!(r(13), a - b * (a / b).floor(), "mod, input {i}");
        assert_eq!(r(14), a - a.floor(), "fract, input {i}");
        let s = ((a + 1.0) / 3.0).clamp(0.0, 1.0);
        t(15, (s * s * (3.0 - 2.0 * s)) as f64, 1e-6, 0.0);
        assert_eq!(r(16), a * (1.0 - d) + b * d, "mix, input {i}");
        assert_eq!(r(17), if a < b { 0.0 } else { 1.0 }, "step, input {i}");
        assert_eq!(r(18), a.clamp(-1.0, 1.5), "clamp, input {i}");
        assert_eq!(
            r(19),
            if a > 0.0 {
                1.0
            } else if a < 0.0 {
                -1.0
            } else {
                0.0
            },
            "sign"
        );
        t(20, 1.0 / c64.sqrt(), 0.0, 1e-6);
        let len3 = (a64 * a64 + b64 * b64 + c64 * c64).sqrt();
        t(21, len3, 0.0, 1e-6);
        t(
            22,
            ((a64 - c64).powi(2) + (b64 - d64).powi(2)).sqrt(),
            0.0,
            1e-6,
        );
        t(23, b64 / len3, 1e-6, 1e-6);
        t(24, a64 * 2.0 - b64, 1e-6, 1e-6);
        let h = core::f64::consts::FRAC_1_SQRT_2;
        let dn = b64 * h + c64 * h;
        t(25, b64 - 2.0 * dn * h, 1e-5, 1e-6);
        let (nx, ny) = (a64 / len3, b64 / len3);
        let k = 1.0 - 0.49 * (1.0 - ny * ny);
        let refr = if k < 0.0 { 0.0 } else { 0.7 * nx };
        t(26, refr, 1e-5, 0.0);
        let big = c * 100.0;
        let e = (big as f64).log2().floor() as i32 + 1;
        let m = big as f64 / 2f64.powi(e);
        t(27, m + e as f64, 0.0, 1e-7);
        let ex = (d * 10.0) as i32;
        assert_eq!(r(28), a * 2f32.powi(ex), "ldexp, input {i}");
        let packed = (f16::from_f32(a).to_bits() as u32
            | (f16::from_f32(b).to_bits() as u32) << 16)
            & 0x7fff_7fff;
        assert_eq!(r(29).to_bits(), packed, "packHalf2x16, input {i}");
        let q = ((c * 0.1).clamp(0.0, 1.0) * 255.0).round_ties_even() / 255.0;
        assert_eq!(r(30), q, "unpackUnorm4x8(packUnorm4x8), input {i}");
        let ai = (a * 1000.0) as i32;
        let msb = if ai >= 0 {
            31 - ai.leading_zeros() as i32
        } else {
            31 - (!ai).leading_zeros() as i32
        };
        let ones = ((c * 1000.0) as u32).count_ones();
        assert_eq!(
            r(31),
            msb as f32 + 100.0 * ones as f32,
            "findMSB/bitCount, input {i}"
        );
    }
}

// ---- glsl2.comp

#[test]
fn more_glsl_std450_and_16_bit_match_rust() {
    let func = lift_data("glsl2");
    let mut rng = Rng(agxc_egraph::opt::synth::Rng::new(6));
    let n = 32;
    let mut input = Vec::new();
    for _ in 0..n {
        input.extend([
            rng.f32(-8.0, 8.0),
            rng.f32(-1.0, 1.0),
            rng.f32(-4.0, 4.0),
            rng.f32(0.0, 2.0),
        ]);
    }
    let mut res = Resources::new();
    res.bind_storage(Binding::new(0, 0), f32_bytes(&input));
    res.bind_storage(Binding::new(0, 1), vec![0; 4 * 12 * n]);
    run_compute(&func, &mut res, [2, 1, 1], &Limits::default()).expect("runs");
    let out = bytes_f32(res.buffer_data(Binding::new(0, 1)).expect("bound"));
    for i in 0..n {
        let [x, y, z, w] = [
            input[4 * i],
            input[4 * i + 1],
            input[4 * i + 2],
            input[4 * i + 3],
        ];
        let r = |k: usize| out[i * 12 + k];
        assert_eq!(r(0), x - x.trunc(), "modf fraction, input {i}");
        assert_eq!(r(1), x.trunc(), "modf whole, input {i}");
        let k = (y * 1000.0) as i32;
        let lsb = if k == 0 {
            -1
        } else {
            k.trailing_zeros() as i32
        };
        assert_eq!(r(2), lsb as f32, "findLSB({k})");
        let a = k.unsigned_abs();
        let msb = if a == 0 {
            -1
        } else {
            31 - a.leading_zeros() as i32
        };
        assert_eq!(r(3), msb as f32, "findMSB({a})");
        assert_eq!(
            r(4),
            k.clamp(-300, 300) as f32 + k.signum() as f32 * 0.5,
            "clamp/sign({k})"
        );
        assert_eq!(
            r(5),
            if y < 0.0 { 2.0 } else { -2.0 },
            "faceforward, input {i}"
        );
        let snorm =
            |c: f32| ((c.clamp(-1.0, 1.0) * 32767.0).round_ties_even() as i32 as u32) & 0xffff;
        let p = snorm(x * 0.5) | snorm(y * 0.5) << 16;
        let lo = (p & 0xffff) as u16 as i16;
        assert_eq!(
            r(6),
            (lo as f32 / 32767.0).max(-1.0),
            "unpackSnorm2x16, input {i}"
        );
        assert_eq!(r(7), (p & 0xffff) as f32, "packSnorm2x16, input {i}");
        let field = (k << 24) >> 27;
        let rev = (k as u32).reverse_bits() >> 28;
        assert_eq!(
            r(8),
            field as f32 + 100.0 * rev as f32,
            "bitfieldExtract/Reverse({k})"
        );
        let h = f16::from_f32(z);
        let hh = f16::from_f32(h.to_f32() * h.to_f32());
        assert_eq!(
            r(9),
            f16::from_f32(hh.to_f32() + 1.0).to_f32(),
            "f16 arithmetic, input {i}"
        );
        assert_eq!(r(10), (w * 4.0).round_ties_even(), "roundEven, input {i}");
        assert_eq!(
            r(11),
            ((w * 1000.0) as u32 % 7) as f32 + k.max(17) as f32,
            "umod/max, input {i}"
        );
    }
}

// ---- matrix.comp

type M4 = [[f64; 4]; 4];

fn mul_mv(m: &M4, v: &[f64; 4]) -> [f64; 4] {
    core::array::from_fn(|r| (0..4).map(|c| m[c][r] * v[c]).sum())
}

fn det(m: &[Vec<f64>]) -> f64 {
    let n = m.len();
    if n == 1 {
        return m[0][0];
    }
    (0..n)
        .map(|r| {
            let sub: Vec<Vec<f64>> = m[1..]
                .iter()
                .map(|col| {
                    col.iter()
                        .enumerate()
                        .filter(|&(k, _)| k != r)
                        .map(|(_, &x)| x)
                        .collect()
                })
                .collect();
            let s = if r % 2 == 0 { 1.0 } else { -1.0 };
            s * m[0][r] * det(&sub)
        })
        .sum()
}

/// Column `col` of the inverse, by Gauss-Jordan elimination (independent of the cofactor form).
fn inverse_col(m: &[Vec<f64>], col: usize) -> Vec<f64> {
    let n = m.len();
    // a[row][k]: the matrix, then the identity.
    let mut a: Vec<Vec<f64>> = (0..n)
        .map(|r| {
            (0..2 * n)
                .map(|k| {
                    if k < n {
                        m[k][r]
                    } else if k - n == r {
                        1.0
                    } else {
                        0.0
                    }
                })
                .collect()
        })
        .collect();
    for p in 0..n {
        let best = (p..n)
            .max_by(|&x, &y| a[x][p].abs().total_cmp(&a[y][p].abs()))
            .expect("rows");
        a.swap(p, best);
        let d = a[p][p];
        for k in 0..2 * n {
            a[p][k] /= d;
        }
        for r in 0..n {
            if r != p {
                let f = a[r][p];
                for k in 0..2 * n {
                    a[r][k] -= f * a[p][k];
                }
            }
        }
    }
    (0..n).map(|r| a[r][n + col]).collect()
}

#[test]
fn matrix_instructions_match_rust() {
    let func = lift_data("matrix");
    let mut rng = Rng(agxc_egraph::opt::synth::Rng::new(4));
    let n = 4;
    let mut input = Vec::new();
    let mut mats: Vec<M4> = Vec::new();
    for _ in 0..n {
        // Diagonally dominant, so every leading block is invertible.
        let m: M4 = core::array::from_fn(|c| {
            core::array::from_fn(|r| {
                let x = rng.f32(-1.0, 1.0) + if r == c { 4.0 } else { 0.0 };
                x as f64
            })
        });
        for col in &m {
            input.extend(col.iter().map(|&x| x as f32));
        }
        mats.push(m);
    }
    let mut res = Resources::new();
    res.bind_storage(Binding::new(0, 0), f32_bytes(&input));
    res.bind_storage(Binding::new(0, 1), vec![0; 16 * 8 * n]);
    run_compute(&func, &mut res, [1, 1, 1], &Limits::default()).expect("runs");
    let out = bytes_f32(res.buffer_data(Binding::new(0, 1)).expect("bound"));
    for (i, a) in mats.iter().enumerate() {
        let v = a[1];
        let check = |slot: usize, want: [f64; 4]| {
            for c in 0..4 {
                close(
                    &format!("matrix {i}, slot {slot}.{c}"),
                    out[(i * 8 + slot) * 4 + c],
                    want[c],
                    1e-4,
                    1e-5,
                );
            }
        };
        check(0, mul_mv(a, &v));
        check(
            1,
            core::array::from_fn(|c| (0..4).map(|r| v[r] * a[c][r]).sum()),
        );
        // (a * a^T) column 2: sum_k a[k] * a[k][2].
        check(
            2,
            core::array::from_fn(|r| (0..4).map(|k| a[k][r] * a[k][2]).sum()),
        );
        let m4: Vec<Vec<f64>> = a.iter().map(|c| c.to_vec()).collect();
        let m3: Vec<Vec<f64>> = a[..3].iter().map(|c| c[..3].to_vec()).collect();
        let m2 = vec![vec![a[2][0], a[2][1]], vec![a[3][2], a[3][3]]];
        check(
            3,
            [det(&m4), det(&m3), det(&m2), v.iter().map(|x| x * x).sum()],
        );
        let inv1 = inverse_col(&m4, 1);
        check(4, [inv1[0], inv1[1], inv1[2], inv1[3]]);
        let inv3 = inverse_col(&m3, 2);
        let inv2 = inverse_col(&m2, 1);
        check(5, [inv3[0], inv3[1], inv3[2], inv2[0]]);
        check(6, core::array::from_fn(|r| v[r] * a[3][0] + a[3][r] * 2.0));
        check(
            7,
            [a[1][0] * a[1][0], a[1][1] * a[1][1], a[1][2] * a[1][2], 0.0],
        );
    }
}

// ---- vertex.vert

#[test]
fn vertex_outputs_match_rust() {
    use agxc_egraph::interp::run_vertex;
    use std::collections::BTreeMap;
    let func = lift_data("vertex");
    let mut rng = Rng(agxc_egraph::opt::synth::Rng::new(5));
    // std140: mat4 mvp (columns 16 bytes apart) at 0, float size at 64.
    let mvp: [[f32; 4]; 4] = core::array::from_fn(|_| core::array::from_fn(|_| rng.f32(-1.0, 1.0)));
    let size = 3.5f32;
    let mut ubo: Vec<f32> = mvp.iter().flatten().copied().collect();
    ubo.extend([size, 0.0, 0.0, 0.0]);
    let mut res = Resources::new();
    res.bind_uniform(Binding::new(0, 0), f32_bytes(&ubo));
    let n = 6;
    let pos: Vec<[f32; 4]> = (0..n)
        .map(|_| {
            [
                rng.f32(-2.0, 2.0),
                rng.f32(-2.0, 2.0),
                rng.f32(-2.0, 2.0),
                0.0,
            ]
        })
        .collect();
    let uv: Vec<[f32; 4]> = (0..n)
        .map(|_| [rng.f32(0.0, 1.0), rng.f32(0.0, 1.0), 0.0, 0.0])
        .collect();
    let attributes = BTreeMap::from([(0, pos.clone()), (1, uv.clone())]);
    let out = run_vertex(&func, &res, n as u32, &attributes, &Limits::default()).expect("runs");
    for v in 0..n {
        let p = [pos[v][0], pos[v][1], pos[v][2], 1.0];
        for r in 0..4 {
            // mvp * p, summed column by column as the IR does.
            let want = mvp[0][r] * p[0] + mvp[1][r] * p[1] + mvp[2][r] * p[2] + mvp[3][r] * p[3];
            assert_eq!(out.positions[v][r], want, "vertex {v}, position.{r}");
        }
        assert_eq!(out.point_sizes[v], size + v as f32);
        assert_eq!(out.varyings[&0][v][..2], [uv[v][0] * 2.0, uv[v][1] * 2.0]);
        assert_eq!(out.varyings[&1][v][0], (v & 1) as f32);
        assert_eq!(out.varyings[&2][v][0], pos[v][2]);
    }
}
