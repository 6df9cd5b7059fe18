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
