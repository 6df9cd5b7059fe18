//! Shared end-to-end harness: compile at -O0 and -O2 (the optimizer with the G13 target), run
//! the binary in the simulator and the IR in the reference interpreter on the same inputs, and
//! compare.
//!
//! Float comparison: NaN equals NaN; values below f32's smallest normal compare as zero (the
//! G13 flushes f32 denormals, the interpreter keeps them); beyond that, a per-test tolerance
//! in ULPs and/or absolute terms. Integers compare exactly.

#![allow(dead_code)]

pub mod fixtures;

use std::collections::BTreeMap;

use agxc::sim;
use agxc_backend_agx::target::G13Target;
use agxc_backend_agx::{compile, Binary, CompileOptions};
use agxc_egraph::interp::{self, FragmentGrid, Limits, Resources};
use agxc_egraph::ir::{parse_function, Binding, Function};
use agxc_egraph::opt::{optimize, OptOptions};

/// Optimization levels the tests run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// The function as given.
    O0,
    /// After the e-graph optimizer with the G13 target.
    O2,
}

pub const LEVELS: [Level; 2] = [Level::O0, Level::O2];

/// Parses IR text (with the G13 target's operations known).
pub fn parse(text: &str) -> Function {
    let registry = agxc_egraph::opt::Target::registry(&G13Target::new());
    match parse_function(text, &registry) {
        Ok(f) => f,
        Err(e) => panic!("test IR does not parse: {e}\n{text}"),
    }
}

/// The function at `level`.
pub fn at_level(func: &Function, level: Level) -> Function {
    match level {
        Level::O0 => func.clone(),
        Level::O2 => match optimize(func, &G13Target::new(), &OptOptions::default()) {
            Ok(o) => o.func,
            Err(e) => panic!("the optimizer failed: {e}"),
        },
    }
}

/// Compiles `func` with `opts`, panicking with the IR on failure.
pub fn build(func: &Function, opts: &CompileOptions) -> Binary {
    match compile(func, opts) {
        Ok(b) => b,
        Err(e) => panic!("compile failed: {e}\n{func}"),
    }
}

/// How closely floats must agree.
#[derive(Clone, Copy, Debug)]
pub struct Tol {
    /// ULPs of difference allowed.
    pub ulps: u32,
    /// Absolute difference allowed.
    pub abs: f32,
    /// Whether +0 and -0 compare equal.
    pub signed_zero: bool,
}

impl Tol {
    pub const EXACT: Tol = Tol {
        ulps: 0,
        abs: 0.0,
        signed_zero: false,
    };

    pub const fn ulps(n: u32) -> Tol {
        Tol {
            ulps: n,
            abs: 0.0,
            signed_zero: true,
        }
    }

    pub const fn abs(a: f32) -> Tol {
        Tol {
            ulps: 0,
            abs: a,
            signed_zero: true,
        }
    }
}

fn flush(x: f32) -> f32 {
    if x != 0.0 && x.abs() < f32::MIN_POSITIVE {
        0.0f32.copysign(x)
    } else {
        x
    }
}

fn ulp_distance(a: f32, b: f32) -> u64 {
    let key = |x: f32| {
        let i = x.to_bits() as i32;
        if i < 0 {
            -(i64::from(i & 0x7fff_ffff))
        } else {
            i64::from(i)
        }
    };
    (key(a) - key(b)).unsigned_abs()
}

/// Whether `got` matches `want` within `tol`.
pub fn float_matches(got: f32, want: f32, tol: Tol) -> bool {
    let (g, w) = (flush(got), flush(want));
    if g.is_nan() || w.is_nan() {
        return g.is_nan() && w.is_nan();
    }
    if g == w {
        return tol.signed_zero || g.to_bits() == w.to_bits() || g != 0.0;
    }
    if g.is_infinite() || w.is_infinite() {
        return false;
    }
    (g - w).abs() <= tol.abs || ulp_distance(g, w) <= u64::from(tol.ulps)
}

/// What a compute test compares.
#[derive(Clone, Copy, Debug)]
pub enum Out {
    /// A buffer of f32 with a tolerance.
    F32(Binding, Tol),
    /// A buffer compared bytewise.
    Bytes(Binding),
}

/// Runs `func` at both levels in the interpreter and the simulator and compares the outputs.
/// Returns the -O0 and -O2 binaries.
pub fn check_compute(
    func: &Function,
    res: &Resources,
    groups: [u32; 3],
    outs: &[Out],
) -> Vec<Binary> {
    check_compute_with(func, res, groups, outs, &CompileOptions::default())
}

/// [`check_compute`] with compile options.
pub fn check_compute_with(
    func: &Function,
    res: &Resources,
    groups: [u32; 3],
    outs: &[Out],
    opts: &CompileOptions,
) -> Vec<Binary> {
    let mut expected = res.clone();
    if let Err(e) = interp::run_compute(func, &mut expected, groups, &Limits::default()) {
        panic!("interpreter failed: {e}\n{func}");
    }
    let mut binaries = Vec::new();
    for level in LEVELS {
        let f = at_level(func, level);
        let binary = build(&f, opts);
        let mut got = res.clone();
        if let Err(e) = sim::run_compute(&binary, &mut got, groups) {
            panic!(
                "{level:?}: simulator failed: {e}\nIR:\n{f}\ncode:\n{}",
                binary.disassembly
            );
        }
        compare_buffers(level, &f, &binary, &expected, &got, outs);
        binaries.push(binary);
    }
    binaries
}

fn compare_buffers(
    level: Level,
    f: &Function,
    binary: &Binary,
    expected: &Resources,
    got: &Resources,
    outs: &[Out],
) {
    for out in outs {
        let (b, tol) = match *out {
            Out::F32(b, t) => (b, Some(t)),
            Out::Bytes(b) => (b, None),
        };
        let want = expected.buffer_data(b).unwrap_or(&[]);
        let have = got.buffer_data(b).unwrap_or(&[]);
        assert_eq!(want.len(), have.len(), "buffer {b} size");
        match tol {
            None => {
                if want != have {
                    let i = want.iter().zip(have).position(|(a, b)| a != b).unwrap_or(0);
                    panic!(
                        "{level:?}: buffer {b} differs first at byte {i}: want {:02x?} got {:02x?}\nIR:\n{f}\ncode:\n{}",
                        &want[i & !3..(i & !3) + 4],
                        &have[i & !3..(i & !3) + 4],
                        binary.disassembly
                    );
                }
            }
            Some(tol) => {
                let w = interp::bytes_f32(want);
                let h = interp::bytes_f32(have);
                for (i, (&x, &y)) in w.iter().zip(&h).enumerate() {
                    if !float_matches(y, x, tol) {
                        panic!(
                            "{level:?}: buffer {b} element {i}: want {x:e} ({:#010x}) got {y:e} ({:#010x}), tolerance {tol:?}\nIR:\n{f}\ncode:\n{}",
                            x.to_bits(),
                            y.to_bits(),
                            binary.disassembly
                        );
                    }
                }
            }
        }
    }
}

/// Runs a fragment shader at both levels and compares every render target.
pub fn check_fragment(
    func: &Function,
    res: &Resources,
    grid: &FragmentGrid,
    tol: Tol,
) -> Vec<Binary> {
    let mut expected_res = res.clone();
    let expected = match interp::run_fragment(func, &mut expected_res, grid, &Limits::default()) {
        Ok(e) => e,
        Err(e) => panic!("interpreter failed: {e}\n{func}"),
    };
    let mut binaries = Vec::new();
    for level in LEVELS {
        let f = at_level(func, level);
        let binary = build(&f, &CompileOptions::default());
        let mut got_res = res.clone();
        let got = match sim::run_fragment(&binary, &mut got_res, grid) {
            Ok(g) => g,
            Err(e) => panic!(
                "{level:?}: simulator failed: {e}\nIR:\n{f}\ncode:\n{}",
                binary.disassembly
            ),
        };
        compare_targets(
            level,
            &f,
            &binary,
            &expected.targets,
            &got.targets,
            grid,
            tol,
        );
        binaries.push(binary);
    }
    binaries
}

fn compare_targets(
    level: Level,
    f: &Function,
    binary: &Binary,
    want: &BTreeMap<u32, Vec<[f32; 4]>>,
    got: &BTreeMap<u32, Vec<[f32; 4]>>,
    grid: &FragmentGrid,
    tol: Tol,
) {
    for (loc, w) in want {
        let g = got
            .get(loc)
            .unwrap_or_else(|| panic!("{level:?}: render target {loc} missing"));
        for (p, (a, b)) in w.iter().zip(g).enumerate() {
            for c in 0..4 {
                if !float_matches(b[c], a[c], tol) {
                    panic!(
                        "{level:?}: target {loc} pixel ({}, {}) component {c}: want {:e} got {:e}\nIR:\n{f}\ncode:\n{}",
                        p as u32 % grid.width,
                        p as u32 / grid.width,
                        a[c],
                        b[c],
                        binary.disassembly
                    );
                }
            }
        }
    }
}

/// f32 values as little-endian bytes.
pub fn f32s(v: &[f32]) -> Vec<u8> {
    interp::f32_bytes(v)
}

/// u32 values as little-endian bytes.
pub fn u32s(v: &[u32]) -> Vec<u8> {
    interp::u32_bytes(v)
}

/// Test inputs from the workspace's seeded generator ([`agxc_egraph::opt::synth::Rng`]).
pub struct Rng(agxc_egraph::opt::synth::Rng);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(agxc_egraph::opt::synth::Rng::new(seed))
    }

    pub fn next_u32(&mut self) -> u32 {
        self.0.next_u32()
    }

    pub fn range_f32(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * (self.next_u32() as f32 / u32::MAX as f32)
    }
}
