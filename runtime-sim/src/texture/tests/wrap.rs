//! Every wrap mode, nearest and linear, per axis.

use super::*;

/// 4-texel R32F 1D texture holding 10, 20, 30, 40.
fn row() -> (Vec<u8>, TextureDescriptor) {
    let tex = TextureDescriptor::new_1d(TexFormat::R32Float, 4, 1, BASE);
    (r32f(&[10.0, 20.0, 30.0, 40.0]), tex)
}

fn nearest_1d(wrap: Wrap, s: f32) -> f32 {
    let (bytes, tex) = row();
    let sampler = SamplerDescriptor::with_filter(Filter::Nearest, MipFilter::None, wrap);
    sample_ok(&bytes, &tex, &sampler, &at([s, 0.0, 0.0]))[0]
}

/// (s, integer texel i = floor(4 s), expected for repeat, clamp, mirrored repeat, border), by hand:
/// repeat i mod 4; clamp to 0..=3; mirrored m = i mod 8, m >= 4 -> 7 - m; border: outside -> 0.
const NEAREST_CASES: [(f32, [f32; 4]); 7] = [
    // i = 1: inside, every mode reads texel 1.
    (0.3, [20.0, 20.0, 20.0, 20.0]),
    // i = -1: repeat 3; clamp 0; m = 7 -> 0; border.
    (-0.1, [40.0, 10.0, 10.0, 0.0]),
    // i = 5: repeat 1; clamp 3; m = 5 -> 2; border.
    (1.3, [20.0, 40.0, 30.0, 0.0]),
    // i = 8: repeat 0; clamp 3; m = 0; border.
    (2.1, [10.0, 40.0, 10.0, 0.0]),
    // i = -5: repeat 3; clamp 0; m = 3; border.
    (-1.1, [40.0, 10.0, 40.0, 0.0]),
    // i = 4 (s = 1 exactly): repeat 0; clamp 3; m = 4 -> 3; border.
    (1.0, [10.0, 40.0, 40.0, 0.0]),
    // i = -9: repeat 3; clamp 0; m = 7 -> 0; border.
    (-2.2, [40.0, 10.0, 10.0, 0.0]),
];

const MODES: [Wrap; 4] = [
    Wrap::Repeat,
    Wrap::ClampToEdge,
    Wrap::MirroredRepeat,
    Wrap::ClampToBorder,
];

#[test]
fn nearest_wraps_integer_coordinates() {
    for (s, expected) in NEAREST_CASES {
        for (mode, want) in MODES.into_iter().zip(expected) {
            assert_eq!(nearest_1d(mode, s), want, "{mode:?} at s = {s}");
        }
    }
}

#[test]
fn mirrored_repeat_on_an_odd_size() {
    // Width 3 holding 1, 2, 3; i = floor(3 s). m = i mod 6, m >= 3 -> 5 - m.
    let tex = TextureDescriptor::new_1d(TexFormat::R32Float, 3, 1, BASE);
    let bytes = r32f(&[1.0, 2.0, 3.0]);
    let sampler =
        SamplerDescriptor::with_filter(Filter::Nearest, MipFilter::None, Wrap::MirroredRepeat);
    // s -> i -> m -> texel: 1.1 -> 3 -> 3 -> 2 (value 3); 1.5 -> 4 -> 4 -> 1 (2);
    // 1.9 -> 5 -> 5 -> 0 (1); 2.05 -> 6 -> 0 -> 0 (1); -0.2 -> -1 -> 5 -> 0 (1); -0.5 -> -2 -> 4 -> 1 (2).
    for (s, want) in [
        (1.1, 3.0),
        (1.5, 2.0),
        (1.9, 1.0),
        (2.05, 1.0),
        (-0.2, 1.0),
        (-0.5, 2.0),
    ] {
        assert_eq!(
            sample_ok(&bytes, &tex, &sampler, &at([s, 0.0, 0.0]))[0],
            want,
            "s = {s}"
        );
    }
}

#[test]
fn linear_wraps_both_neighbours() {
    let (bytes, tex) = row();
    // s = 0: u - 0.5 = -0.5 -> i0 = -1, i1 = 0, alpha 0.5.
    // repeat: (40 + 10) / 2; clamp: (10 + 10) / 2; mirrored: -1 -> 0, so 10; border: (0 + 10) / 2.
    // The border texel is (0, 0, 0, 0), so alpha and G are halved too.
    for (mode, want) in MODES.into_iter().zip([
        [25.0, 0.0, 0.0, 1.0],
        [10.0, 0.0, 0.0, 1.0],
        [10.0, 0.0, 0.0, 1.0],
        [5.0, 0.0, 0.0, 0.5],
    ]) {
        let sampler = SamplerDescriptor::with_filter(Filter::Linear, MipFilter::None, mode);
        let got = sample_ok(&bytes, &tex, &sampler, &at([0.0, 0.0, 0.0]));
        assert_eq!(got, want, "{mode:?}");
    }
}

#[test]
fn each_axis_uses_its_own_wrap_mode() {
    // 2x2 R32F: row 0 = 1, 2; row 1 = 3, 4.
    let tex = TextureDescriptor::new_2d(TexFormat::R32Float, 2, 2, 1, BASE);
    let bytes = r32f(&[1.0, 2.0, 3.0, 4.0]);
    let sampler = SamplerDescriptor {
        wrap: [Wrap::ClampToEdge, Wrap::Repeat, Wrap::ClampToBorder],
        ..SamplerDescriptor::default()
    };
    // u = 2.6 -> 2 clamps to 1; v = -0.6 -> -1 repeats to 1: texel (1, 1) = 4. The w axis (border)
    // does not exist in 2D, so r = 5 is ignored.
    let got = sample_ok(&bytes, &tex, &sampler, &at([1.3, -0.3, 5.0]));
    assert_eq!(got[0], 4.0);
    let swapped = SamplerDescriptor {
        wrap: [Wrap::Repeat, Wrap::ClampToBorder, Wrap::Repeat],
        ..SamplerDescriptor::default()
    };
    // v = -0.6 -> -1 is outside: border.
    assert_eq!(
        sample_ok(&bytes, &tex, &swapped, &at([1.3, -0.3, 0.0])),
        [0.0; 4]
    );
}

#[test]
fn extreme_coordinates_never_fail() {
    let (bytes, tex) = row();
    for mode in MODES {
        for filter in [Filter::Nearest, Filter::Linear] {
            let sampler = SamplerDescriptor::with_filter(filter, MipFilter::None, mode);
            for s in [
                f32::NAN,
                f32::INFINITY,
                f32::NEG_INFINITY,
                1e30,
                -1e30,
                f32::MAX,
            ] {
                let mem = SliceMemory::new(BASE, &bytes);
                let request = at([s, 0.0, 0.0]).with_offset([i32::MAX, 0, 0]);
                assert!(
                    sample(&mem, &tex, &sampler, &request).is_ok(),
                    "{mode:?} {filter:?} s = {s}"
                );
            }
        }
    }
}
