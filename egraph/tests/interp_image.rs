//! Storage images and integer textures through the interpreter: `image_load`/`image_store`/
//! `image_size` on float and integer formats, robust out-of-range behaviour, format checks,
//! and `fetch`/`sample` of integer textures. Expected values are worked out by hand.

mod interp_support;

use agxc_egraph::interp::{
    run_compute, InterpError, Limits, Resources, Sampler, Texture, TextureDesc, TextureFormat,
};
use agxc_egraph::ir::Binding;
use interp_support::{i32s, parse};

const SRC: Binding = Binding { set: 1, binding: 0 };
const DST: Binding = Binding { set: 1, binding: 1 };

/// Each of 3x2 invocations reads texel (x + 1, y) of the source, doubles it and writes it to
/// (x, y) of the destination; `x + 1 == 3` is outside the 3-wide source and reads zeros.
const SHIFT_DOUBLE: &str = "
function @shift compute local_size(3, 2, 1) {
block0:
    v0:i32 = builtin global_id.x
    v1:i32 = builtin global_id.y
    v2:i32 = const 1
    v3:i32 = iadd v0, v2
    v4:f32, v5:f32, v6:f32, v7:f32 = image_load 2d rgba32f img(1, 0) v3, v1
    v8:f32 = fadd v4, v4
    v9:f32 = fadd v5, v5
    v10:f32 = fadd v6, v6
    v11:f32 = fadd v7, v7
    image_store 2d rgba32f img(1, 1) v0, v1, v8, v9, v10, v11
    return
}
";

fn rgba32f(width: u32, height: u32, texels: &[[f32; 4]]) -> Texture {
    Texture::from_texels(
        TextureDesc::d2(TextureFormat::Rgba32Float, width, height),
        texels,
    )
    .unwrap()
}

fn texels_f32(tex: &Texture) -> Vec<[f32; 4]> {
    tex.data()
        .chunks_exact(16)
        .map(|c| {
            core::array::from_fn(|i| f32::from_le_bytes(c[4 * i..4 * i + 4].try_into().unwrap()))
        })
        .collect()
}

fn run(text: &str, res: &mut Resources) -> Result<(), InterpError> {
    run_compute(&parse(text), res, [1, 1, 1], &Limits::default()).map(|_| ())
}

#[test]
fn load_and_store_move_texels_and_out_of_range_reads_zero() {
    let src: Vec<[f32; 4]> = (0..6)
        .map(|i| {
            let v = i as f32;
            [v, v + 0.5, -v, 1.0]
        })
        .collect();
    let mut res = Resources::new();
    res.bind_texture(SRC, rgba32f(3, 2, &src))
        .bind_texture(DST, rgba32f(3, 2, &[[9.0; 4]; 6]));
    run(SHIFT_DOUBLE, &mut res).unwrap();
    let got = texels_f32(res.texture(DST).unwrap());
    // Row y: dst(x) = 2 * src(x + 1) for x < 2; dst(2) reads (3, y): zeros.
    let expect = |i: usize| [2.0 * i as f32, 2.0 * i as f32 + 1.0, -2.0 * i as f32, 2.0];
    assert_eq!(
        got,
        vec![
            expect(1),
            expect(2),
            [0.0; 4],
            expect(4),
            expect(5),
            [0.0; 4]
        ]
    );
}

#[test]
fn stores_outside_the_image_are_dropped() {
    // Each invocation writes at (x + 1, y): column 0 keeps its old value and (3, y) is dropped.
    let text = SHIFT_DOUBLE
        .replace("img(1, 0) v3, v1", "img(1, 0) v0, v1")
        .replace("img(1, 1) v0, v1", "img(1, 1) v3, v1");
    let src: Vec<[f32; 4]> = (0..6).map(|i| [i as f32; 4]).collect();
    let mut res = Resources::new();
    res.bind_texture(SRC, rgba32f(3, 2, &src))
        .bind_texture(DST, rgba32f(3, 2, &[[-1.0; 4]; 6]));
    run(&text, &mut res).unwrap();
    let got = texels_f32(res.texture(DST).unwrap());
    assert_eq!(
        got,
        vec![[-1.0; 4], [0.0; 4], [2.0; 4], [-1.0; 4], [6.0; 4], [8.0; 4]]
    );
}

/// Integer images keep every bit: r32ui reads `(r, 0, 0, 1)` and stores keep the first word.
#[test]
fn integer_images_round_trip_words_and_report_their_size() {
    let text = "
function @ints compute local_size(2, 1, 1) {
block0:
    v0:i32 = builtin global_id.x
    v1:i32 = const 0
    v2:i32, v3:i32, v4:i32, v5:i32 = image_load 1d r32ui img(1, 0) v0
    v6:i32 = iadd v2, v5
    v7:i32 = iadd v3, v4
    image_store 1d r32ui img(1, 1) v0, v6, v7, v7, v7
    v8:i32 = image_size 1d r32ui img(1, 0)
    v9:i32 = const 4
    v10:i32 = imul v0, v9
    store storage(0, 0) [v10], v8
    return
}
";
    let desc = TextureDesc::d1(TextureFormat::R32Uint, 2);
    let mut res = Resources::new();
    res.bind_texture(
        SRC,
        Texture::from_words(desc, &[[0xffff_ffff, 0, 0, 0], [41, 0, 0, 0]]).unwrap(),
    )
    .bind_texture(DST, Texture::from_words(desc, &[[7, 0, 0, 0]; 2]).unwrap())
    .bind_storage(Binding::new(0, 0), vec![0; 8]);
    run(text, &mut res).unwrap();
    // 0xffffffff + 1 wraps to 0; 41 + 1 = 42.
    assert_eq!(res.texture(DST).unwrap().data(), &[0, 0, 0, 0, 42, 0, 0, 0]);
    assert_eq!(i32s(&res, 0), vec![2, 2]);
}

#[test]
fn declared_format_must_match_the_bound_image() {
    let mut res = Resources::new();
    let desc = TextureDesc::d2(TextureFormat::Rgba8Unorm, 3, 2);
    res.bind_texture(SRC, Texture::new(desc, vec![0; 24]).unwrap())
        .bind_texture(DST, rgba32f(3, 2, &[[0.0; 4]; 6]));
    let err = run(SHIFT_DOUBLE, &mut res).unwrap_err();
    assert!(
        matches!(err, InterpError::TexelMismatch { binding, .. } if binding == SRC),
        "{err}"
    );
}

#[test]
fn unknown_format_uses_the_bound_one_and_rounds_unorm_stores() {
    // 0.3 * 255 = 76.5 rounds to even: 76; 1.7 clamps to 255; -1 clamps to 0; 0.5 -> 127.5
    // -> 128.
    let text = "
function @unorm compute local_size(1, 1, 1) {
block0:
    v0:i32 = const 0
    v1:f32 = const 0.3
    v2:f32 = const 1.7
    v3:f32 = const -1.0
    v4:f32 = const 0.5
    image_store 2d unknown img(1, 1) v0, v0, v1, v2, v3, v4
    return
}
";
    let mut res = Resources::new();
    let desc = TextureDesc::d2(TextureFormat::Rgba8Unorm, 1, 1);
    res.bind_texture(DST, Texture::new(desc, vec![9; 4]).unwrap());
    run(text, &mut res).unwrap();
    let stored = res.texture(DST).unwrap().data().to_vec();
    let expect = [(0.3f32 * 255.0).round_ties_even() as u8, 255, 0, 128];
    assert_eq!(expect[0], 76);
    assert_eq!(stored, expect);
}

#[test]
fn fetch_and_nearest_sample_of_an_integer_texture_give_words() {
    let text = "
function @ifetch compute local_size(1, 1, 1) {
block0:
    v0:i32 = const 1
    v1:i32 = const 0
    v2:i32, v3:i32, v4:i32, v5:i32 = fetch 2d tex(1, 0) v0, v1, v1
    v6:f32 = const 0.75
    v7:f32 = const 0.25
    v8:f32 = const 0.0
    v9:i32, v10:i32, v11:i32, v12:i32 = sample 2d tex(1, 0) sampler(1, 0) explicit v6, v7, v8
    store storage(0, 0) [v1], v2, v3, v4, v5, v9, v10, v11, v12
    return
}
";
    let desc = TextureDesc::d2(TextureFormat::Rgba32Sint, 2, 1);
    let texels = [[1, 2, 3, 4], [(-5i32) as u32, 0x7fc0_0001, 0xffff_ffff, 8]];
    let mut res = Resources::new();
    res.bind_combined(
        SRC,
        Texture::from_words(desc, &texels).unwrap(),
        Sampler::nearest(),
    )
    .bind_storage(Binding::new(0, 0), vec![0; 32]);
    run(text, &mut res).unwrap();
    // Texel (1, 0) both ways: u = 0.75 * 2 = 1.5 -> texel 1. The NaN-shaped words survive.
    let t = [-5, 0x7fc0_0001, -1, 8];
    assert_eq!(i32s(&res, 0), [t, t].concat());

    let linear = Sampler::linear();
    res.bind_sampler(SRC, linear);
    let err = run(text, &mut res).unwrap_err();
    assert!(matches!(err, InterpError::SamplerMismatch { .. }), "{err}");
}

#[test]
fn integer_fetch_of_a_float_texture_is_an_error() {
    let text = "
function @mismatch compute local_size(1, 1, 1) {
block0:
    v0:i32 = const 0
    v1:i32, v2:i32, v3:i32, v4:i32 = fetch 2d tex(1, 0) v0, v0, v0
    return
}
";
    let mut res = Resources::new();
    res.bind_texture(SRC, rgba32f(1, 1, &[[1.0; 4]]));
    let err = run(text, &mut res).unwrap_err();
    assert!(matches!(err, InterpError::TexelMismatch { .. }), "{err}");
}

#[test]
fn image_instructions_round_trip_through_the_text_form() {
    let func = parse(SHIFT_DOUBLE);
    let printed = func.display().to_string();
    assert!(
        printed.contains("image_load 2d rgba32f img(1, 0) v3, v1"),
        "{printed}"
    );
    assert_eq!(parse(&printed).display().to_string(), printed);
}

#[test]
fn the_verifier_refuses_float_texels_for_an_integer_image() {
    let text = SHIFT_DOUBLE.replace("image_store 2d rgba32f", "image_store 2d r32i");
    let func = agxc_egraph::ir::parse_function(&text, &agxc_egraph::ir::OpRegistry::new());
    let err = match func {
        Ok(f) => agxc_egraph::ir::verify(&f).unwrap_err().to_string(),
        Err(e) => e.to_string(),
    };
    assert!(err.contains("float texels of a r32i image"), "{err}");
}
