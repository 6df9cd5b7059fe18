//! Cube maps: face selection and the (sc, tc, ma) table for every face, ties, per-face clamping,
//! cube arrays, and LOD derivatives through the quotient rule.

use super::super::cube::face_of;
use super::*;

/// A 2x2-face R32F cube array of `cubes` cubes: texel (x, y) of face f of cube c holds
/// `100 c + 10 f + 2 y + x`, laid out slice `6 c + f` after slice, rows of 2.
fn labelled_cubes(cubes: u32) -> (Vec<u8>, TextureDescriptor) {
    let mut values = Vec::new();
    for cube in 0..cubes {
        for face in 0..6 {
            for texel in 0..4 {
                values.push((100 * cube + 10 * face + texel) as f32);
            }
        }
    }
    let tex = TextureDescriptor::new_cube(TexFormat::R32Float, 2, 1, BASE);
    let tex = if cubes > 1 { tex.arrayed(cubes) } else { tex };
    (r32f(&values), tex)
}

fn nearest_at(direction: [f32; 3]) -> f32 {
    let (bytes, tex) = labelled_cubes(1);
    sample_ok(&bytes, &tex, &SamplerDescriptor::default(), &at(direction))[0]
}

#[test]
fn every_face_and_its_coordinate_table() {
    // s = 0.5 sc / |ma| + 0.5, t likewise; x = floor(2 s), y = floor(2 t).
    let cases = [
        // +X: sc = -rz = 0.5, tc = -ry = 0.5, ma = 1 -> s = t = 0.75: (1, 1) -> 3.
        ([1.0, -0.5, -0.5], 3.0),
        // +X: sc = 1, tc = -0.5, |ma| = 2 -> s = 0.75, t = 0.375: (1, 0) -> 1.
        ([2.0, 0.5, -1.0], 1.0),
        // -X: sc = rz = -1, tc = -ry = -0.5, |ma| = 2 -> s = 0.25, t = 0.375: (0, 0) -> 10.
        ([-2.0, 0.5, -1.0], 10.0),
        // -X: sc = 1, tc = 0.5 -> s = 0.75, t = 0.625: (1, 1) -> 13.
        ([-2.0, -0.5, 1.0], 13.0),
        // +Y: sc = rx = 1, tc = rz = -0.5, |ma| = 2 -> (1, 0) -> 21.
        ([1.0, 2.0, -0.5], 21.0),
        // -Y: sc = rx = 1, tc = -rz = 0.5 -> (1, 1) -> 33.
        ([1.0, -2.0, -0.5], 33.0),
        // -Y: sc = -1, tc = -0.5 -> (0, 0) -> 30.
        ([-1.0, -2.0, 0.5], 30.0),
        // +Z: sc = rx = -1, tc = -ry = -0.5 -> (0, 0) -> 40.
        ([-1.0, 0.5, 2.0], 40.0),
        // +Z: sc = 1, tc = 0.5 -> (1, 1) -> 43.
        ([1.0, -0.5, 2.0], 43.0),
        // -Z: sc = -rx = 1, tc = -ry = -0.5 -> (1, 0) -> 51.
        ([-1.0, 0.5, -2.0], 51.0),
        // -Z: sc = -1, tc = 0.5 -> (0, 1) -> 52.
        ([1.0, -0.5, -2.0], 52.0),
    ];
    for (direction, want) in cases {
        assert_eq!(nearest_at(direction), want, "direction {direction:?}");
    }
}

#[test]
fn ties_prefer_z_then_y() {
    // |rz| = |rx|: Z. +Z: sc = 1, tc = 0 -> s = 1 (x = 2, clamped to 1), t = 0.5 (y = 1) -> 43.
    assert_eq!(nearest_at([1.0, 0.0, 1.0]), 43.0);
    // |ry| = |rx| > |rz|: Y. +Y: sc = 1, tc = 0.5 -> s = 1 (x clamped to 1), t = 0.75 -> 23.
    assert_eq!(nearest_at([1.0, 1.0, 0.5]), 23.0);
    // All equal, negative: -Z. sc = -rx = 1, tc = -ry = 1 -> s = t = 1, clamped to (1, 1) -> 53.
    assert_eq!(nearest_at([-1.0, -1.0, -1.0]), 53.0);
    // A zero major component counts as positive (documented choice).
    assert_eq!(face_of([0.0, 0.0, -0.0]), 4);
    assert_eq!(face_of([0.0, -0.0, 0.0]), 4);
}

#[test]
fn faces_clamp_to_edge_whatever_the_sampler_says() {
    let (bytes, tex) = labelled_cubes(1);
    let sampler = SamplerDescriptor::with_filter(Filter::Linear, MipFilter::None, Wrap::Repeat);
    // +X: sc = tc = 0.9 -> s = t = 0.95, u - 0.5 = 1.4: taps 1 and 2, and 2 clamps to 1, so every
    // tap is texel (1, 1) = 3. Repeat would have blended in column and row 0.
    let got = sample_ok(&bytes, &tex, &sampler, &at([1.0, -0.9, -0.9]));
    assert!((got[0] - 3.0).abs() <= 1e-6, "{got:?}");
}

#[test]
fn cube_array_layer_selects_the_cube() {
    let (bytes, tex) = labelled_cubes(3);
    let sampler = SamplerDescriptor::default();
    // Cube 2, -Y face, texel (1, 1): 200 + 30 + 3. Layer 1.5 rounds to 2.
    let request = at([1.0, -2.0, -0.5]).with_layer(1.5);
    assert_eq!(sample_ok(&bytes, &tex, &sampler, &request)[0], 233.0);
    // Cube 1, +Z, (0, 0): 140.
    let request = at([-1.0, 0.5, 2.0]).with_layer(1.0);
    assert_eq!(sample_ok(&bytes, &tex, &sampler, &request)[0], 140.0);
}

/// An 8x8-face cube with 4 levels, every face of level l constant 2^l.
fn mip_cube() -> (Vec<u8>, TextureDescriptor) {
    let mut values = Vec::new();
    for level in 0..4 {
        let side = 8usize >> level;
        values.extend(std::iter::repeat_n((1u32 << level) as f32, 6 * side * side));
    }
    (
        r32f(&values),
        TextureDescriptor::new_cube(TexFormat::R32Float, 8, 4, BASE),
    )
}

/// Expected linear-mip result for a face projection `st(r)` (f64), by central finite differences:
/// rho = 8 * |d(s, t)| along each screen axis, lambda = log2(max), blended between 2^l levels.
fn expected_by_finite_differences(
    st: impl Fn([f64; 3]) -> [f64; 2],
    r: [f64; 3],
    d: &Derivatives,
) -> f64 {
    let h = 1e-6;
    let rho = |dr: [f32; 3]| {
        let step = |sign: f64| st([0, 1, 2].map(|i| r[i] + sign * h * f64::from(dr[i])));
        let (plus, minus) = (step(1.0), step(-1.0));
        let ds = (plus[0] - minus[0]) / (2.0 * h);
        let dt = (plus[1] - minus[1]) / (2.0 * h);
        8.0 * (ds * ds + dt * dt).sqrt()
    };
    let lambda = rho(d.dx).max(rho(d.dy)).log2().clamp(0.0, 3.0);
    let lo = lambda.floor();
    2f64.powf(lo) * (1.0 + (lambda - lo))
}

fn check_lod(r: [f32; 3], d: Derivatives, st: impl Fn([f64; 3]) -> [f64; 2]) {
    let (bytes, tex) = mip_cube();
    let sampler = SamplerDescriptor::with_filter(Filter::Nearest, MipFilter::Linear, Wrap::Repeat);
    let expected = expected_by_finite_differences(st, r.map(f64::from), &d);
    for lod in [LodRequest::auto(d), LodRequest::gradient(d)] {
        let got = sample_ok(&bytes, &tex, &sampler, &SampleRequest::new(r, lod))[0];
        // Tolerance 1e-4: finite differences (~1e-9) plus f32 derivative arithmetic.
        assert!(
            (f64::from(got) - expected).abs() <= 1e-4,
            "direction {r:?}: got {got}, expected {expected}"
        );
    }
}

#[test]
fn derivatives_follow_the_quotient_rule_on_a_positive_face() {
    // +X: s = 0.5 (-rz) / |rx| + 0.5, t = 0.5 (-ry) / |rx| + 0.5. By hand, ds/dx = 0.22,
    // dt/dx = -0.13, so rho_x = 8 * 0.2555 = 2.044 and lambda is about 1.03.
    let d = Derivatives {
        dx: [0.2, 0.3, -0.5],
        dy: [-0.1, 0.2, 0.4],
    };
    check_lod([1.0, 0.2, -0.3], d, |r| {
        [
            0.5 * -r[2] / r[0].abs() + 0.5,
            0.5 * -r[1] / r[0].abs() + 0.5,
        ]
    });
}

#[test]
fn derivatives_follow_the_quotient_rule_on_a_negative_face() {
    // -Y: s = 0.5 rx / |ry| + 0.5, t = 0.5 (-rz) / |ry| + 0.5; here d|ma| = -dry.
    let d = Derivatives {
        dx: [0.4, 0.6, -0.2],
        dy: [0.1, -0.2, 0.5],
    };
    check_lod([0.3, -1.5, 0.2], d, |r| {
        [
            0.5 * r[0] / r[1].abs() + 0.5,
            0.5 * -r[2] / r[1].abs() + 0.5,
        ]
    });
}

#[test]
fn offsets_on_cubes_are_rejected() {
    let (bytes, tex) = labelled_cubes(1);
    let mem = SliceMemory::new(BASE, &bytes);
    let request = at([1.0, 0.0, 0.0]).with_offset([1, 0, 0]);
    let err = sample(&mem, &tex, &SamplerDescriptor::default(), &request);
    assert_eq!(
        err,
        Err(TextureError::OffsetOnCube {
            offset: [1, 0, 0],
            dim: TexDim::Cube
        })
    );
}
