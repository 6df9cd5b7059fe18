//! LOD: explicit, bias, implicit and gradient LOD, min/max clamps, and mip level selection.
//!
//! Most tests sample an 8x8 R32F texture with 4 levels whose levels are constant 1, 2, 4, 8, so the
//! result reveals the level(s) and blend weight: linear mip filtering at lambda between levels `l`
//! and `l + 1` reads `2^l * (1 - delta) + 2^(l + 1) * delta = 2^l * (1 + delta)`.

use super::*;

const LEVEL_VALUES: [f32; 4] = [1.0, 2.0, 4.0, 8.0];

/// The 8x8, 4-level texture, laid out level by level (64 + 16 + 4 + 1 texels).
fn mip_texture() -> (Vec<u8>, TextureDescriptor) {
    let mut values = Vec::new();
    for (level, value) in LEVEL_VALUES.iter().enumerate() {
        let side = 8usize >> level;
        values.extend(std::iter::repeat_n(*value, side * side));
    }
    let tex = TextureDescriptor::new_2d(TexFormat::R32Float, 8, 8, 4, BASE);
    (r32f(&values), tex)
}

fn mip_sampler(mip_filter: MipFilter) -> SamplerDescriptor {
    SamplerDescriptor::with_filter(Filter::Nearest, mip_filter, Wrap::Repeat)
}

fn sample_mip(sampler: &SamplerDescriptor, lod: LodRequest) -> f32 {
    let (bytes, tex) = mip_texture();
    sample_ok(
        &bytes,
        &tex,
        sampler,
        &SampleRequest::new([0.3, 0.6, 0.0], lod),
    )[0]
}

/// Expected linear-mip result at clamped `lambda` in f64 (levels 0..=3).
fn blended(lambda: f64) -> f64 {
    let lambda = lambda.clamp(0.0, 3.0);
    let lo = lambda.floor().min(3.0);
    2f64.powf(lo) * (1.0 + (lambda - lo))
}

fn derivs(dx: [f32; 2], dy: [f32; 2]) -> Derivatives {
    Derivatives {
        dx: [dx[0], dx[1], 0.0],
        dy: [dy[0], dy[1], 0.0],
    }
}

#[test]
fn explicit_lod_with_linear_mips() {
    let sampler = mip_sampler(MipFilter::Linear);
    // 1.25 -> 2 * 1.25 = 2.5; 0 -> 1; 3 -> 8; 3.7 -> level q = 3 only: 8; 2 -> 4. Exact.
    for (lod, want) in [(1.25, 2.5), (0.0, 1.0), (3.0, 8.0), (3.7, 8.0), (2.0, 4.0)] {
        assert_eq!(
            sample_mip(&sampler, LodRequest::explicit(lod)),
            want,
            "lod {lod}"
        );
    }
}

#[test]
fn nearest_mip_rounds_at_half() {
    let sampler = mip_sampler(MipFilter::Nearest);
    // d = 0 for lambda <= 0.5, else min(ceil(lambda + 0.5) - 1, 3).
    for (lod, want) in [
        (0.5, 1.0),
        (0.5001, 2.0),
        (1.5, 2.0),
        (1.5001, 4.0),
        (2.49, 4.0),
        (100.0, 8.0),
    ] {
        assert_eq!(
            sample_mip(&sampler, LodRequest::explicit(lod)),
            want,
            "lod {lod}"
        );
    }
}

#[test]
fn mip_none_reads_level_zero() {
    let sampler = mip_sampler(MipFilter::None);
    assert_eq!(sample_mip(&sampler, LodRequest::explicit(2.7)), 1.0);
}

#[test]
fn negative_lod_reads_level_zero() {
    let sampler = SamplerDescriptor {
        min_lod: -3.0,
        ..mip_sampler(MipFilter::Linear)
    };
    // lambda = -0.5 < 0: delta = 0, level 0.
    assert_eq!(sample_mip(&sampler, LodRequest::explicit(-0.5)), 1.0);
}

#[test]
fn sampler_and_shader_bias_add_to_the_lod() {
    let sampler = SamplerDescriptor {
        lod_bias: 0.5,
        ..mip_sampler(MipFilter::Linear)
    };
    // Explicit 1 + sampler 0.5 = 1.5 -> 3.
    assert_eq!(sample_mip(&sampler, LodRequest::explicit(1.0)), 3.0);
    // Implicit: du/dx = 0.25 * 8 = 2, dv/dy = 0.125 * 8 = 1 -> rho 2 -> 1; + 0.5 + 0.25 = 1.75
    // -> 2 * 1.75 = 3.5.
    let d = derivs([0.25, 0.0], [0.0, 0.125]);
    assert_eq!(sample_mip(&sampler, LodRequest::bias(d, 0.25)), 3.5);
}

#[test]
fn implicit_lod_takes_the_larger_screen_axis() {
    let sampler = mip_sampler(MipFilter::Linear);
    // rho_x = 8 * sqrt(0.25^2 + 0.25^2) = 2 sqrt 2 -> 1.5 -> 3. Tolerance 1e-6 (log2 rounding).
    let diagonal = derivs([0.25, 0.25], [0.0, 0.0]);
    let got = sample_mip(&sampler, LodRequest::auto(diagonal));
    assert!((got - 3.0).abs() <= 1e-6, "{got}");
    // rho_y = 8 * 0.5 = 4 dominates rho_x = 1 -> 2 -> 4.
    let tall = derivs([0.125, 0.0], [0.0, 0.5]);
    assert_eq!(sample_mip(&sampler, LodRequest::auto(tall)), 4.0);
}

#[test]
fn gradient_lod_matches_the_f64_formula() {
    let sampler = mip_sampler(MipFilter::Linear);
    let d = derivs([0.0, 0.3], [0.1, 0.1]);
    // rho_x = 8 * 0.3 = 2.4; rho_y = 8 * sqrt(0.02) = 1.13: lambda = log2(2.4) = 1.263.
    let rho_x = 8.0 * (0.3f64 * 0.3).sqrt();
    let rho_y = 8.0 * (0.1f64 * 0.1 + 0.1 * 0.1).sqrt();
    let lambda = rho_x.max(rho_y).log2();
    let got = sample_mip(&sampler, LodRequest::gradient(d));
    // Tolerance 1e-5: f32 rounding of the derivative products and log2.
    assert!((f64::from(got) - blended(lambda)).abs() <= 1e-5, "{got}");
    // The third component does not exist in 2D and is ignored.
    let with_r = Derivatives {
        dx: [0.0, 0.3, 100.0],
        dy: [0.1, 0.1, -100.0],
    };
    assert_eq!(sample_mip(&sampler, LodRequest::gradient(with_r)), got);
}

#[test]
fn zero_and_nan_derivatives_fall_to_the_lower_clamp() {
    let sampler = SamplerDescriptor {
        min_lod: 1.5,
        ..mip_sampler(MipFilter::Linear)
    };
    let zero = Derivatives::default();
    // rho = 0 -> lambda_base = -inf -> clamped to min_lod 1.5 -> 3.
    assert_eq!(sample_mip(&sampler, LodRequest::auto(zero)), 3.0);
    let nan = derivs([f32::NAN, 0.0], [0.0, 0.0]);
    assert_eq!(sample_mip(&sampler, LodRequest::auto(nan)), 3.0);
}

#[test]
fn min_and_max_lod_clamps() {
    let linear = mip_sampler(MipFilter::Linear);
    // Shader min LOD 2.25 over explicit 1 -> 2.25 -> 4 * 1.25 = 5.
    assert_eq!(
        sample_mip(&linear, LodRequest::explicit(1.0).with_min_lod(2.25)),
        5.0
    );
    // The larger of sampler min_lod (1.5) and shader min LOD (1.0) wins: 1.5 -> 3.
    let sampler_min = SamplerDescriptor {
        min_lod: 1.5,
        ..linear
    };
    assert_eq!(
        sample_mip(&sampler_min, LodRequest::explicit(0.0).with_min_lod(1.0)),
        3.0
    );
    // Sampler max_lod 2 caps explicit 3 -> 4, and caps a shader min LOD of 3 (documented choice).
    let sampler_max = SamplerDescriptor {
        max_lod: 2.0,
        ..linear
    };
    assert_eq!(sample_mip(&sampler_max, LodRequest::explicit(3.0)), 4.0);
    assert_eq!(
        sample_mip(&sampler_max, LodRequest::explicit(0.0).with_min_lod(3.0)),
        4.0
    );
    // Gradient with min LOD (mode 12): gradient LOD 1 raised to 1.5 -> 3.
    let d = derivs([0.25, 0.0], [0.0, 0.0]);
    assert_eq!(
        sample_mip(&linear, LodRequest::gradient(d).with_min_lod(1.5)),
        3.0
    );
    // Bias with min LOD (modes 9, 13): 1 + 0.25 = 1.25, raised to 2.5 -> 4 * 1.5 = 6.
    assert_eq!(
        sample_mip(&linear, LodRequest::bias(d, 0.25).with_min_lod(2.5)),
        6.0
    );
}

#[test]
fn levels_use_their_own_extent_and_offset() {
    // 1D, width 4, 3 levels: level 0 = 0 0 0 0, level 1 = 10 20, level 2 = 7.
    let bytes = r32f(&[0.0, 0.0, 0.0, 0.0, 10.0, 20.0, 7.0]);
    let tex = TextureDescriptor::new_1d(TexFormat::R32Float, 4, 3, BASE);
    let sampler =
        SamplerDescriptor::with_filter(Filter::Linear, MipFilter::Nearest, Wrap::ClampToEdge);
    let at_level = |s: f32, lod: f32| SampleRequest::new([s, 0.0, 0.0], LodRequest::explicit(lod));
    // Level 1 (width 2): u = 0.5 * 2 = 1 -> 0.5 between texels 0 and 1: 15.
    assert_eq!(
        sample_ok(&bytes, &tex, &sampler, &at_level(0.5, 1.0))[0],
        15.0
    );
    // u = 0.375 * 2 = 0.75 -> 0.25: 10 * 0.75 + 20 * 0.25 = 12.5.
    assert_eq!(
        sample_ok(&bytes, &tex, &sampler, &at_level(0.375, 1.0))[0],
        12.5
    );
    assert_eq!(
        sample_ok(&bytes, &tex, &sampler, &at_level(0.9, 2.0))[0],
        7.0
    );
}

#[test]
fn one_d_lod_ignores_t_and_three_d_lod_uses_r() {
    // 1D: width 4, levels 0..3 constant 1, 2, 4.
    let bytes = r32f(&[1.0, 1.0, 1.0, 1.0, 2.0, 2.0, 4.0]);
    let tex = TextureDescriptor::new_1d(TexFormat::R32Float, 4, 3, BASE);
    let sampler = mip_sampler(MipFilter::Nearest);
    // du/dx = 0.5 * 4 = 2 -> lambda 1 -> level 1; the huge dt/dy does not count.
    let d = Derivatives {
        dx: [0.5, 0.0, 0.0],
        dy: [0.0, 100.0, 0.0],
    };
    let request = SampleRequest::new([0.5, 0.0, 0.0], LodRequest::auto(d));
    assert_eq!(sample_ok(&bytes, &tex, &sampler, &request)[0], 2.0);

    // 3D 4x4x4, 3 levels constant 1 (64 texels), 2 (8), 4 (1): dw/dx = 0.5 * 4 = 2 -> level 1.
    let mut values = vec![1.0; 64];
    values.extend([2.0; 8]);
    values.push(4.0);
    let tex3 = TextureDescriptor::new_3d(TexFormat::R32Float, [4, 4, 4], 3, BASE);
    let d3 = Derivatives {
        dx: [0.0, 0.0, 0.5],
        dy: [0.0; 3],
    };
    let request = SampleRequest::new([0.5, 0.5, 0.5], LodRequest::gradient(d3));
    assert_eq!(sample_ok(&r32f(&values), &tex3, &sampler, &request)[0], 2.0);
}

#[test]
fn quad_derivatives_are_fine_per_row_and_column() {
    // Lanes (x, y), (x+1, y), (x, y+1), (x+1, y+1) with distinct values per lane and component.
    let quad = [
        [1.0, 10.0, 100.0],
        [3.0, 13.0, 104.0],
        [6.0, 20.0, 120.0],
        [11.0, 24.0, 150.0],
    ];
    let d = quad_derivatives(&quad);
    // Top row dx = lane1 - lane0 = (2, 3, 4); bottom row dx = lane3 - lane2 = (5, 4, 30).
    // Left column dy = lane2 - lane0 = (5, 10, 20); right column dy = lane3 - lane1 = (8, 11, 46).
    let top_dx = [2.0, 3.0, 4.0];
    let bottom_dx = [5.0, 4.0, 30.0];
    let left_dy = [5.0, 10.0, 20.0];
    let right_dy = [8.0, 11.0, 46.0];
    assert_eq!(
        d[0],
        Derivatives {
            dx: top_dx,
            dy: left_dy
        }
    );
    assert_eq!(
        d[1],
        Derivatives {
            dx: top_dx,
            dy: right_dy
        }
    );
    assert_eq!(
        d[2],
        Derivatives {
            dx: bottom_dx,
            dy: left_dy
        }
    );
    assert_eq!(
        d[3],
        Derivatives {
            dx: bottom_dx,
            dy: right_dy
        }
    );
}

#[test]
fn implicit_lod_from_a_quad() {
    // A quad stepping s by 0.25 per pixel and t by 0.5: du/dx = 2, dv/dy = 4 -> lambda 2 -> 4.
    let quad = [
        [0.0, 0.0, 0.0],
        [0.25, 0.0, 0.0],
        [0.0, 0.5, 0.0],
        [0.25, 0.5, 0.0],
    ];
    let sampler = mip_sampler(MipFilter::Linear);
    let (bytes, tex) = mip_texture();
    for (lane, d) in quad_derivatives(&quad).into_iter().enumerate() {
        let request = SampleRequest::new(quad[lane], LodRequest::auto(d));
        assert_eq!(
            sample_ok(&bytes, &tex, &sampler, &request)[0],
            4.0,
            "lane {lane}"
        );
    }
}

#[test]
fn the_lod_matters_only_with_mips_or_unequal_filters() {
    // A 2x1 R32F texture [0, 1] at s = 0.5: a linear filter reads 0.5, a nearest one texel 1.
    let bytes = r32f(&[0.0, 1.0]);
    let request = |lod: LodRequest| SampleRequest::new([0.5, 0.5, 0.0], lod);
    let far = LodRequest::gradient(derivs([64.0, 0.0], [0.0, 64.0]));
    let nan = LodRequest::gradient(derivs([f32::NAN, 0.0], [0.0, f32::NAN]));
    let lods = [
        LodRequest::explicit(0.0),
        LodRequest::explicit(5.0),
        LodRequest::explicit(-3.0),
        far,
        nan,
        LodRequest::auto(derivs([64.0, 0.0], [0.0, 64.0])),
        LodRequest::bias(derivs([0.5, 0.0], [0.0, 0.5]), 9.0),
    ];
    // One level, or no mip filtering: level 0 and the common filter at every LOD.
    let one_level = TextureDescriptor::new_2d(TexFormat::R32Float, 2, 1, 1, BASE);
    for mip in [MipFilter::None, MipFilter::Nearest, MipFilter::Linear] {
        let sampler = SamplerDescriptor::with_filter(Filter::Linear, mip, Wrap::ClampToEdge);
        for lod in lods {
            let got = sample_ok(&bytes, &one_level, &sampler, &request(lod))[0];
            assert_eq!(got, 0.5, "{mip:?} {lod:?}");
        }
    }
    // Unequal filters: the LOD picks the filter (magnification at LOD <= 0).
    let sampler = SamplerDescriptor {
        mag_filter: Filter::Nearest,
        min_filter: Filter::Linear,
        ..SamplerDescriptor::with_filter(Filter::Linear, MipFilter::None, Wrap::ClampToEdge)
    };
    for (lod, want) in [
        (LodRequest::explicit(0.0), 1.0),
        (LodRequest::explicit(-3.0), 1.0),
        (LodRequest::explicit(5.0), 0.5),
        (far, 0.5),
    ] {
        let got = sample_ok(&bytes, &one_level, &sampler, &request(lod))[0];
        assert_eq!(got, want, "{lod:?}");
    }
}
