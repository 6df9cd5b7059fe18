//! The two example shaders of `examples/ir/`, parsed from their text files and run, checked
//! against values computed independently here.

mod interp_support;

use agxc_egraph::interp::{
    f32_bytes, run_compute, run_fragment, FragmentGrid, Limits, Resources, Sampler, Texture,
    TextureDesc, TextureFormat, Varying, Wrap,
};
use agxc_egraph::ir::Binding;
use interp_support::{f32s, parse};

const SAXPY_SIN: &str = include_str!("../examples/ir/saxpy_sin.ir");
const FRAG_DERIV_TEX: &str = include_str!("../examples/ir/frag_deriv_tex.ir");

/// Distance in f32 units in the last place (same-sign finite values).
fn ulps(a: f32, b: f32) -> u32 {
    (a.to_bits() as i64 - b.to_bits() as i64).unsigned_abs() as u32
}

#[test]
fn saxpy_sin_over_1024_elements() {
    const N: usize = 1024;
    let a = 2.5f32;
    let x: Vec<f32> = (0..N).map(|i| (i as f32 - 512.0) * 0.0137).collect();
    let mut res = Resources::new();
    res.set_push_constants(f32_bytes(&[a]))
        .bind_storage(Binding::new(0, 0), f32_bytes(&x))
        .bind_storage(Binding::new(0, 1), vec![0; 4 * N]);
    // 17 workgroups of 64: the last one lies past the end and must not touch memory.
    let stats = run_compute(&parse(SAXPY_SIN), &mut res, [17, 1, 1], &Limits::default()).unwrap();
    assert_eq!(stats.workgroups, 17);
    let y = f32s(&res, 1);
    assert_eq!(y.len(), N);
    for (i, (&xi, &yi)) in x.iter().zip(&y).enumerate() {
        // The reference semantics: a * x rounded in f32, sin(x) computed in f64 and rounded
        // once to f32, the sum rounded in f32. The interpreter must match this bit for bit.
        let reference = a * xi + (xi as f64).sin() as f32;
        assert_eq!(yi.to_bits(), reference.to_bits(), "y[{i}] for x = {xi}");
        // And it is within 3 ulp of the exact real result (three roundings of half an ulp,
        // away from cancellation: |a x| > |sin x| whenever x is not tiny).
        let exact = a as f64 * xi as f64 + (xi as f64).sin();
        if xi.abs() > 0.1 {
            assert!(ulps(yi, exact as f32) <= 3, "y[{i}] = {yi}, exact {exact}");
        } else {
            assert!(
                (yi as f64 - exact).abs() <= 1e-7,
                "y[{i}] = {yi}, exact {exact}"
            );
        }
    }
}

/// Texel (x, y) of the 4x4 example texture, RGBA8.
fn texel_bytes(x: usize, y: usize) -> [u8; 4] {
    [(x * 80) as u8, (y * 80) as u8, 200, 255]
}

/// Bilinear filtering of the red and green channels at (s, t) with clamp-to-edge, written out
/// from the Vulkan texel-filtering formulas.
fn bilinear_rg(s: f32, t: f32) -> [f32; 2] {
    let unorm = |c: u8| c as f32 / 255.0;
    let (u, v) = (s * 4.0 - 0.5, t * 4.0 - 0.5);
    let (i0, j0) = (u.floor(), v.floor());
    let (alpha, beta) = (u - i0, v - j0);
    let clamp = |k: f32| k.clamp(0.0, 3.0) as usize;
    let at = |di: f32, dj: f32, c: usize| unorm(texel_bytes(clamp(i0 + di), clamp(j0 + dj))[c]);
    let lerp = |a: f32, b: f32, w: f32| a * (1.0 - w) + b * w;
    [0, 1].map(|c| {
        let top = lerp(at(0.0, 0.0, c), at(1.0, 0.0, c), alpha);
        let bottom = lerp(at(0.0, 1.0, c), at(1.0, 1.0, c), alpha);
        lerp(top, bottom, beta)
    })
}

#[test]
fn fragment_derivatives_and_texture_over_16x16() {
    const W: usize = 16;
    let data: Vec<u8> = (0..16).flat_map(|i| texel_bytes(i % 4, i / 4)).collect();
    let tex = Texture::new(TextureDesc::d2(TextureFormat::Rgba8Unorm, 4, 4), data).unwrap();
    let mut res = Resources::new();
    res.bind_combined(
        Binding::new(0, 1),
        tex,
        Sampler::linear().with_wrap(Wrap::ClampToEdge),
    );
    // u = (x + 0.5) / 16, v = (y + 0.5) / 16.
    let step = 1.0 / W as f32;
    let grid = FragmentGrid::new(W as u32, W as u32).with_varying(
        0,
        Varying::affine([0.0; 4], [step, 0.0, 0.0, 0.0], [0.0, step, 0.0, 0.0]),
    );
    let out = run_fragment(&parse(FRAG_DERIV_TEX), &mut res, &grid, &Limits::default()).unwrap();

    let u = |x: usize| (x as f32 + 0.5) / W as f32;
    let w = |x: usize, y: usize| u(x) * u(y);
    for y in 0..W {
        for x in 0..W {
            let p = out.pixel(0, x as u32, y as u32).unwrap();
            // du/dx in texels is 4/16: LOD -2, magnification, bilinear at level 0.
            let [r, g] = bilinear_rg(u(x), u(y));
            assert!(
                (p[0] - r).abs() <= 1e-6,
                "red at ({x}, {y}): {} vs {r}",
                p[0]
            );
            assert!(
                (p[1] - g).abs() <= 1e-6,
                "green at ({x}, {y}): {} vs {g}",
                p[1]
            );
            // Fine ddx: the lane's own row of its quad; coarse ddy: the quad's left column.
            let (qx, qy) = (x & !1, y & !1);
            let ddx = w(qx + 1, y) - w(qx, y);
            let ddy = w(qx, qy + 1) - w(qx, qy);
            assert_eq!(p[2], ddx * 256.0, "ddx at ({x}, {y})");
            assert_eq!(p[3], ddy * 256.0, "ddy at ({x}, {y})");
        }
    }
    // The derivative of u * v really depends on the row: v / 16 * 256 = 16 v.
    assert_eq!(out.pixel(0, 0, 0).map(|p| p[2]), Some(0.5));
    assert_eq!(out.pixel(0, 0, 15).map(|p| p[2]), Some(15.5));
}
