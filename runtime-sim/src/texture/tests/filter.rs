//! Nearest and linear filtering in 1D, 2D and 3D, texel offsets, the min/mag filter choice and
//! array layer selection.

use super::*;

/// 4x2 RGBA32F texture; R of texel (x, y) is `GRID[y][x]`, G = 10 * R, B = -R, A = 1.
const GRID: [[f32; 4]; 2] = [[1.0, 2.0, 4.0, 8.0], [16.0, 32.0, 64.0, 128.0]];

fn grid_texture() -> (Vec<u8>, TextureDescriptor) {
    let texels: Vec<[f32; 4]> = GRID
        .iter()
        .flatten()
        .map(|&r| [r, 10.0 * r, -r, 1.0])
        .collect();
    let tex = TextureDescriptor::new_2d(TexFormat::Rgba32Float, 4, 2, 1, BASE);
    (rgba32f(&texels), tex)
}

fn linear(wrap: Wrap) -> SamplerDescriptor {
    SamplerDescriptor::with_filter(Filter::Linear, MipFilter::None, wrap)
}

#[test]
fn nearest_2d_takes_the_containing_texel() {
    let (bytes, tex) = grid_texture();
    let sampler = SamplerDescriptor::default();
    // u = 0.6 * 4 = 2.4 -> x = 2; v = 0.7 * 2 = 1.4 -> y = 1: texel 64. Exact.
    let rgba = sample_ok(&bytes, &tex, &sampler, &at([0.6, 0.7, 0.0]));
    assert_eq!(rgba, [64.0, 640.0, -64.0, 1.0]);
    // Exactly on a texel edge: u = 0.25 * 4 = 1.0 -> x = 1; v = 0.5 * 2 = 1.0 -> y = 1: 32.
    let rgba = sample_ok(&bytes, &tex, &sampler, &at([0.25, 0.5, 0.0]));
    assert_eq!(rgba[0], 32.0);
}

#[test]
fn bilinear_2d_weights_by_distance_to_texel_centres() {
    let (bytes, tex) = grid_texture();
    // u - 0.5 = 1.2 - 0.5 = 0.7 -> i0 = 0, alpha = 0.7; v - 0.5 = 0.8 - 0.5 = 0.3 -> j0 = 0,
    // beta = 0.3: lerp(lerp(1, 2, .7), lerp(16, 32, .7), .3) = 1.7 * .7 + 27.2 * .3 = 9.35.
    // Tolerance 1e-5: alpha and beta carry f32 rounding of s * width (~1e-7 relative).
    let rgba = sample_ok(&bytes, &tex, &linear(Wrap::Repeat), &at([0.3, 0.4, 0.0]));
    assert_rgba(rgba, [9.35, 93.5, -9.35, 1.0], 1e-5);
}

#[test]
fn bilinear_2d_matches_an_f64_evaluation_of_the_weights() {
    let (bytes, tex) = grid_texture();
    let sampler = linear(Wrap::ClampToEdge);
    for (s, t) in [(0.13, 0.27), (0.5, 0.5), (0.91, 0.66), (0.3751, 0.74)] {
        // Clamp-to-edge reference in f64: x = s * 4 - 0.5, neighbours clamped into 0..4.
        let x = s * 4.0 - 0.5;
        let y = t * 2.0 - 0.5;
        let (x0, y0) = (f64::floor(x), f64::floor(y));
        let (a, b) = (x - x0, y - y0);
        let texel = |i: f64, j: f64| {
            f64::from(GRID[j.clamp(0.0, 1.0) as usize][i.clamp(0.0, 3.0) as usize])
        };
        let top = texel(x0, y0) * (1.0 - a) + texel(x0 + 1.0, y0) * a;
        let bottom = texel(x0, y0 + 1.0) * (1.0 - a) + texel(x0 + 1.0, y0 + 1.0) * a;
        let r = top * (1.0 - b) + bottom * b;
        let rgba = sample_ok(&bytes, &tex, &sampler, &at([s as f32, t as f32, 0.0]));
        // Tolerance 1e-3: values up to 1280 with f32 weights (relative error ~1e-7 each).
        assert_rgba(rgba, [r, 10.0 * r, -r, 1.0], 1e-3);
    }
}

#[test]
fn linear_1d_interpolates_and_wraps_the_neighbour() {
    let tex = TextureDescriptor::new_1d(TexFormat::R32Float, 4, 1, BASE);
    let bytes = r32f(&[0.0, 1.0, 4.0, 9.0]);
    let sampler = linear(Wrap::Repeat);
    // u - 0.5 = 1.5 -> texels 1 and 2 at 0.5: 2.5. Exact.
    assert_rgba(
        sample_ok(&bytes, &tex, &sampler, &at([0.5, 0.0, 0.0])),
        [2.5, 0.0, 0.0, 1.0],
        0.0,
    );
    // u - 0.5 = -0.5 -> texels -1 (repeat: 3) and 0 at 0.5: (9 + 0) / 2.
    assert_rgba(
        sample_ok(&bytes, &tex, &sampler, &at([0.0, 0.0, 0.0])),
        [4.5, 0.0, 0.0, 1.0],
        0.0,
    );
}

#[test]
fn trilinear_3d_blends_eight_texels() {
    // 2x2x2 R32F, v(x, y, z) = 1 + x + 2y + 4z + 8xyz (the last term makes it non-trilinear-flat).
    let v = |x: u32, y: u32, z: u32| (1 + x + 2 * y + 4 * z + 8 * x * y * z) as f32;
    let mut values = Vec::new();
    for z in 0..2 {
        for y in 0..2 {
            for x in 0..2 {
                values.push(v(x, y, z));
            }
        }
    }
    let bytes = r32f(&values);
    let tex = TextureDescriptor::new_3d(TexFormat::R32Float, [2, 2, 2], 1, BASE);
    let sampler = linear(Wrap::ClampToEdge);
    // Centre: all weights 1/2, the mean of 1, 2, 3, 4, 5, 6, 7, 16 = 5.5. Exact.
    let centre = sample_ok(&bytes, &tex, &sampler, &at([0.5, 0.5, 0.5]));
    assert_rgba(centre, [5.5, 0.0, 0.0, 1.0], 0.0);
    // s = 0.375 -> alpha 0.25, t = 0.5 -> beta 0.5, r = 0.625 -> gamma 0.75 (all exact in f32).
    let weights = |w: f64| [1.0 - w, w];
    let (wa, wb, wc) = (weights(0.25), weights(0.5), weights(0.75));
    let mut expected = 0.0;
    for z in 0..2 {
        for y in 0..2 {
            for x in 0..2 {
                expected +=
                    wa[x as usize] * wb[y as usize] * wc[z as usize] * f64::from(v(x, y, z));
            }
        }
    }
    let rgba = sample_ok(&bytes, &tex, &sampler, &at([0.375, 0.5, 0.625]));
    assert_rgba(rgba, [expected, 0.0, 0.0, 1.0], 1e-6);
}

#[test]
fn offsets_shift_integer_coordinates_before_wrapping() {
    let (bytes, tex) = grid_texture();
    let nearest = SamplerDescriptor::default();
    // x = floor(0.4) + 1 = 1, y = floor(1.8) - 1 = 0: texel (1, 0) = 2.
    let request = at([0.1, 0.9, 0.0]).with_offset([1, -1, 7]);
    assert_eq!(sample_ok(&bytes, &tex, &nearest, &request)[0], 2.0);
    // x = 3 + 2 = 5, repeat -> 1; y = 0: 2.
    let request = at([0.9, 0.1, 0.0]).with_offset([2, 0, 0]);
    assert_eq!(sample_ok(&bytes, &tex, &nearest, &request)[0], 2.0);
    // Linear: u - 0.5 = 0.5 -> i0 = 0 + 2 = 2, alpha 0.5; v - 0.5 = 0 -> j0 = 0, beta 0:
    // (4 + 8) / 2 = 6. Exact.
    let request = at([0.25, 0.25, 0.0]).with_offset([2, 0, 0]);
    assert_eq!(
        sample_ok(&bytes, &tex, &linear(Wrap::Repeat), &request)[0],
        6.0
    );
}

#[test]
fn lod_at_or_below_zero_magnifies_above_zero_minifies() {
    let tex = TextureDescriptor::new_1d(TexFormat::R32Float, 4, 1, BASE);
    let bytes = r32f(&[0.0, 1.0, 4.0, 9.0]);
    let sampler = SamplerDescriptor {
        mag_filter: Filter::Linear,
        min_filter: Filter::Nearest,
        min_lod: -4.0,
        ..SamplerDescriptor::default()
    };
    let at_lod = |lod: f32| SampleRequest::new([0.5, 0.0, 0.0], LodRequest::explicit(lod));
    // lambda 0 -> mag (linear): 2.5; lambda -1 -> mag; lambda 0.001 -> min (nearest, x = 2): 4.
    assert_eq!(sample_ok(&bytes, &tex, &sampler, &at_lod(0.0))[0], 2.5);
    assert_eq!(sample_ok(&bytes, &tex, &sampler, &at_lod(-1.0))[0], 2.5);
    assert_eq!(sample_ok(&bytes, &tex, &sampler, &at_lod(0.001))[0], 4.0);
}

#[test]
fn array_layer_rounds_half_to_even_and_clamps() {
    // 1x1 R32F 2D array of 4 layers holding 10, 20, 30, 40.
    let bytes = r32f(&[10.0, 20.0, 30.0, 40.0]);
    let tex = TextureDescriptor::new_2d(TexFormat::R32Float, 1, 1, 1, BASE).arrayed(4);
    // Linear filtering must not blend layers.
    let sampler = linear(Wrap::Repeat);
    for (layer, expected) in [
        (0.5, 10.0),
        (1.49, 20.0),
        (1.5, 30.0),
        (2.5, 30.0),
        (2.51, 40.0),
        (1.3, 20.0),
        (-0.7, 10.0),
        (7.0, 40.0),
        (f32::NAN, 10.0),
        (f32::INFINITY, 40.0),
    ] {
        let request = at([0.5, 0.5, 0.0]).with_layer(layer);
        let got = sample_ok(&bytes, &tex, &sampler, &request)[0];
        assert_eq!(got, expected, "layer {layer}");
    }
}

#[test]
fn one_d_array_layer_selects_the_row() {
    // 2-texel 1D array of 3 layers: layer k holds (k, k + 0.5).
    let bytes = r32f(&[0.0, 0.5, 1.0, 1.5, 2.0, 2.5]);
    let tex = TextureDescriptor::new_1d(TexFormat::R32Float, 2, 1, BASE).arrayed(3);
    let request = at([0.75, 0.0, 0.0]).with_layer(2.2);
    let got = sample_ok(&bytes, &tex, &SamplerDescriptor::default(), &request);
    assert_eq!(got[0], 2.5);
}
