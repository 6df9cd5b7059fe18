//! End to end, integer textures and storage images: each shader is compiled at -O0 and -O2, run
//! in the simulator and compared bytewise with the reference interpreter on the same inputs
//! (integer texels are words, so every value is exact).

mod common;

use agxc_egraph::interp::{Resources, Sampler, Texture, TextureDesc, TextureFormat};
use agxc_egraph::ir::Binding;
use common::*;

fn b(binding: u32) -> Binding {
    Binding::new(0, binding)
}

/// A 4x4 texture of `format` whose words include NaN and denormal float patterns, which a
/// float conversion anywhere on the path would change.
fn int_texture(format: TextureFormat) -> Texture {
    let texels: Vec<[u32; 4]> = (0..16u32).map(texel_words).collect();
    Texture::from_words(TextureDesc::d2(format, 4, 4), &texels)
        .unwrap_or_else(|e| panic!("texture: {e}"))
}

/// The words of texel `i` (row-major) of [`int_texture`].
fn texel_words(i: u32) -> [u32; 4] {
    [
        i.wrapping_mul(0x9E37_79B9),
        0x7F80_0001 + i,
        i,
        0xFFFF_FFF0 | i,
    ]
}

#[test]
fn integer_fetch_and_nearest_sample_move_words_unchanged() {
    // Thread (x, y) fetches texel (x, y) of the rgba32ui texture and samples the r32i texture
    // at texel (y, x)'s centre with nearest filtering; all eight words go to the buffer.
    let f = parse(
        "function @int_tex compute local_size(4, 4, 1) {
         block0:
             v0:i32 = builtin global_id.x
             v1:i32 = builtin global_id.y
             v2:i32 = const 0
             v3:i32, v4:i32, v5:i32, v6:i32 = fetch 2d tex(0, 0) v0, v1, v2
             v7:f32 = s2f v1
             v8:f32 = s2f v0
             v9:f32 = const 0.5
             v10:f32 = fadd v7, v9
             v11:f32 = fadd v8, v9
             v12:f32 = const 0.25
             v13:f32 = fmul v10, v12
             v14:f32 = fmul v11, v12
             v15:f32 = const 0.0
             v16:i32, v17:i32, v18:i32, v19:i32 = sample 2d tex(0, 1) sampler(0, 1) explicit v13, v14, v15
             v20:i32 = const 4
             v21:i32 = imul v1, v20
             v22:i32 = iadd v21, v0
             v23:i32 = const 32
             v24:i32 = imul v22, v23
             store storage(0, 2) [v24], v3, v4, v5, v6
             v25:i32 = const 16
             v26:i32 = iadd v24, v25
             store storage(0, 2) [v26], v16, v17, v18, v19
             return
         }",
    );
    let mut res = Resources::new();
    res.bind_combined(
        b(0),
        int_texture(TextureFormat::Rgba32Uint),
        Sampler::nearest(),
    );
    res.bind_combined(
        b(1),
        int_texture(TextureFormat::R32Sint),
        Sampler::nearest(),
    );
    res.bind_storage(b(2), vec![0; 16 * 32]);
    // By hand: thread (x, y) writes texel (x, y)'s words, then the r32i texel (y, x) as
    // (r, 0, 0, 1).
    let mut want = Vec::new();
    for y in 0..4 {
        for x in 0..4 {
            want.extend(texel_words(4 * y + x));
            want.extend([texel_words(4 * x + y)[0], 0, 0, 1]);
        }
    }
    let mut interp = res.clone();
    agxc_egraph::interp::run_compute(&f, &mut interp, [1, 1, 1], &Default::default())
        .unwrap_or_else(|e| panic!("interpreter: {e}"));
    assert_eq!(interp.buffer_data(b(2)), Some(&u32s(&want)[..]));
    check_compute(&f, &res, [1, 1, 1], &[Out::Bytes(b(2))]);
}

#[test]
fn image_loads_read_texels_and_zeros_outside_and_sizes_are_level_0() {
    // An 8x4 grid over a 2-layer 5x3 rgba32f image array: threads past x = 4 or y = 2 read
    // zeros; layer 1 is read. Each thread stores its texel, then the size (5, 3, 2).
    let f = parse(
        "function @img_load compute local_size(8, 4, 1) {
         block0:
             v0:i32 = builtin global_id.x
             v1:i32 = builtin global_id.y
             v2:i32 = const 1
             v3:f32, v4:f32, v5:f32, v6:f32 = image_load 2d_array rgba32f img(0, 0) v0, v1, v2
             v7:i32, v8:i32, v9:i32 = image_size 2d_array rgba32f img(0, 0)
             v10:i32 = const 8
             v11:i32 = imul v1, v10
             v12:i32 = iadd v11, v0
             v13:i32 = const 32
             v14:i32 = imul v12, v13
             store storage(0, 1) [v14], v3, v4, v5, v6
             v15:i32 = const 16
             v16:i32 = iadd v14, v15
             store storage(0, 1) [v16], v7, v8, v9, v2
             return
         }",
    );
    let desc = TextureDesc::d2(TextureFormat::Rgba32Float, 5, 3).with_layers(2);
    let texel = |layer: u32, x: u32, y: u32| {
        let i = (layer * 15 + y * 5 + x) as f32;
        [i, -i, i * 0.5, 1.0 / (i + 1.0)]
    };
    let mut texels = Vec::new();
    for layer in 0..2 {
        for y in 0..3 {
            for x in 0..5 {
                texels.push(texel(layer, x, y));
            }
        }
    }
    let image = Texture::from_texels(desc, &texels).unwrap_or_else(|e| panic!("image: {e}"));
    let mut res = Resources::new();
    res.bind_texture(b(0), image);
    res.bind_storage(b(1), vec![0; 32 * 32]);
    // By hand: texel (x, y) of layer 1 inside the image, zeros outside; then (5, 3, 2, 1).
    let mut want = Vec::new();
    for y in 0..4 {
        for x in 0..8 {
            let t = if x < 5 && y < 3 {
                texel(1, x, y)
            } else {
                [0.0; 4]
            };
            want.extend(t.map(f32::to_bits));
            want.extend([5, 3, 2, 1]);
        }
    }
    let mut interp = res.clone();
    agxc_egraph::interp::run_compute(&f, &mut interp, [1, 1, 1], &Default::default())
        .unwrap_or_else(|e| panic!("interpreter: {e}"));
    assert_eq!(interp.buffer_data(b(1)), Some(&u32s(&want)[..]));
    check_compute(&f, &res, [1, 1, 1], &[Out::Bytes(b(1))]);
}

/// Runs `f` in the interpreter and at both levels in the simulator, checks the interpreter's
/// image bytes at `image` against `want`, and the simulator's against the interpreter's.
fn check_image(f: &agxc_egraph::ir::Function, res: &Resources, image: Binding, want: &[u8]) {
    let mut interp = res.clone();
    agxc_egraph::interp::run_compute(f, &mut interp, [1, 1, 1], &Default::default())
        .unwrap_or_else(|e| panic!("interpreter: {e}"));
    let expected = interp.texture(image).map(|t| t.data().to_vec());
    assert_eq!(expected.as_deref(), Some(want), "interpreter image bytes");
    for level in LEVELS {
        let func = at_level(f, level);
        let binary = build(&func, &Default::default());
        let mut got = res.clone();
        agxc::sim::run_compute(&binary, &mut got, [1, 1, 1])
            .unwrap_or_else(|e| panic!("{level:?}: simulator: {e}\n{}", binary.disassembly));
        let have = got.texture(image).map(|t| t.data().to_vec());
        assert_eq!(
            have.as_deref(),
            Some(want),
            "{level:?}: image bytes\n{}",
            binary.disassembly
        );
    }
}

#[test]
fn image_stores_convert_to_the_format_and_drop_outside_texels() {
    // A 6x2 grid over a 4x2 rgba8 image: thread (x, y) stores
    // (x / 3, y - 0.5, 2.0, 0.5) at (x, y); threads x >= 4 are outside and store nothing.
    // Then it reads the texel back (after the store, so it sees it) into an r32ui image
    // at (y, x) as the word of its red byte plus 256 * alpha byte.
    let f = parse(
        "function @img_store compute local_size(6, 2, 1) {
         block0:
             v0:i32 = builtin global_id.x
             v1:i32 = builtin global_id.y
             v2:f32 = s2f v0
             v3:f32 = s2f v1
             v4:f32 = const 3.0
             v5:f32 = fdiv v2, v4
             v6:f32 = const 0.5
             v7:f32 = fsub v3, v6
             v8:f32 = const 2.0
             image_store 2d rgba8 img(0, 0) v0, v1, v5, v7, v8, v6
             v9:f32, v10:f32, v11:f32, v12:f32 = image_load 2d rgba8 img(0, 0) v0, v1
             v13:f32 = const 255.0
             v14:f32 = fmul v9, v13
             v15:f32 = fmul v12, v13
             v16:i32 = f2u v14
             v17:i32 = f2u v15
             v18:i32 = const 256
             v19:i32 = imul v17, v18
             v20:i32 = iadd v16, v19
             v21:i32 = const 0
             image_store 2d r32ui img(0, 1) v1, v0, v20, v21, v21, v21
             return
         }",
    );
    let mut res = Resources::new();
    let rgba8 = Texture::new(
        TextureDesc::d2(TextureFormat::Rgba8Unorm, 4, 2),
        vec![7; 32],
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let r32 = Texture::new(
        TextureDesc::d2(TextureFormat::R32Uint, 2, 4),
        vec![0xAA; 32],
    )
    .unwrap_or_else(|e| panic!("{e}"));
    res.bind_texture(b(0), rgba8);
    res.bind_texture(b(1), r32);
    // By hand: red x/3 * 255 = 0, 85, 170, 255; green y - 0.5 clamps to 0 for y = 0 and is
    // 127.5 -> 128 (ties to even) for y = 1; blue 2.0 clamps to 255; alpha 127.5 -> 128.
    let mut want = Vec::new();
    for y in 0..2u8 {
        for x in 0..4u8 {
            want.extend([85 * x, if y == 0 { 0 } else { 128 }, 255, 128]);
        }
    }
    check_image(&f, &res, b(0), &want);
    // The r32ui image is 2 wide and 4 high: texel (y, x) holds red + 256 * 128; threads with
    // x >= 4 read zeros (outside the rgba8 image) and their (y, x) is outside it too.
    let mut words = Vec::new();
    for x in 0..4u32 {
        for _y in 0..2u32 {
            words.push(85 * x + 256 * 128);
        }
    }
    check_image(&f, &res, b(1), &u32s(&words));
}
