//! Storage images (`DCL IMAGE`, `LOAD`/`STORE`/`RESQ` on `IMAGE[n]`), on the TGSI that Mesa's
//! GLSL compiler gave softpipe for `imageLoad`/`imageStore`/`imageSize` (captured with
//! `SOFTPIPE_DEBUG=cs`, Mesa 22.3).

use super::harness::lift_ok;
use crate::tgsi::{lift, LiftOptions};
use agxc_egraph::interp::{
    bytes_u32, run_compute, Limits, Resources, Texture, TextureDesc, TextureFormat,
};
use agxc_egraph::ir::{Binding, EffectOp, ImageFormat, Op};

/// From `dst = imageLoad(src, p) * 2.0 + vec4(imageSize(src), 0, 0)`,
/// `imageStore(counts, p, uvec4(imageLoad(counts, p).x + 1u))` and
/// `imageStore(ones, p.x, ivec4(imageSize(ones)))` with a 4x2 workgroup.
const SOFTPIPE_IMAGES: &str = "COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 4
PROPERTY CS_FIXED_BLOCK_HEIGHT 2
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], BLOCK_ID
DCL SV[1], THREAD_ID
DCL IMAGE[0], 2D, PIPE_FORMAT_R32G32B32A32_FLOAT
DCL IMAGE[1], 2D, PIPE_FORMAT_R32G32B32A32_FLOAT, WR
DCL IMAGE[2], 2D, PIPE_FORMAT_R32_UINT, WR
DCL IMAGE[3], 1D, PIPE_FORMAT_R32_SINT, WR
DCL TEMP[0..2]
IMM[0] UINT32 {2, 1, 0, 1073741824}
  0: SHL TEMP[0].xy, SV[0].xyzx, IMM[0].xyxx
  1: UADD TEMP[0].xy, TEMP[0].xyxx, SV[1].xyxx
  2: MOV TEMP[1].xy, TEMP[0].xyxx
  3: LOAD TEMP[1], IMAGE[0], TEMP[1], 2D, PIPE_FORMAT_R32G32B32A32_FLOAT
  4: RESQ TEMP[2].xy, IMAGE[0], 2D, PIPE_FORMAT_R32G32B32A32_FLOAT
  5: I2F TEMP[2].xy, TEMP[2].xyyy
  6: MOV TEMP[2].z, IMM[0].zzzz
  7: MAD TEMP[1], TEMP[1], IMM[0].wwww, TEMP[2].xyzz
  8: MOV TEMP[2].xy, TEMP[0].xyxx
  9: STORE IMAGE[1], TEMP[2], TEMP[1], 2D, PIPE_FORMAT_R32G32B32A32_FLOAT
 10: MOV TEMP[1].xy, TEMP[0].xyxx
 11: LOAD TEMP[1], IMAGE[2], TEMP[1], 2D, PIPE_FORMAT_R32_UINT
 12: UADD TEMP[1].x, TEMP[1].xxxx, IMM[0].yyyy
 13: MOV TEMP[2].xy, TEMP[0].xyxx
 14: STORE IMAGE[2], TEMP[2], TEMP[1].xxxx, 2D, PIPE_FORMAT_R32_UINT
 15: RESQ TEMP[1].x, IMAGE[3], 1D, PIPE_FORMAT_R32_SINT
 16: MOV TEMP[0].x, TEMP[0].xxxx
 17: STORE IMAGE[3], TEMP[0], TEMP[1].xxxx, 1D, PIPE_FORMAT_R32_SINT
 18: END
";

fn d2(format: TextureFormat, texels: &[[u32; 4]]) -> Texture {
    Texture::from_words(TextureDesc::d2(format, 4, 2), texels).unwrap()
}

#[test]
fn softpipe_image_shader_runs() {
    let func = lift_ok(SOFTPIPE_IMAGES);
    let src: Vec<[u32; 4]> = (0..8)
        .map(|i| [i as f32, -(i as f32), 0.5, 2.0].map(f32::to_bits))
        .collect();
    let counts: Vec<[u32; 4]> = (0..8).map(|i| [10 * i, 0, 0, 1]).collect();
    let mut res = Resources::new();
    res.bind_texture(Binding::new(0, 0), d2(TextureFormat::Rgba32Float, &src))
        .bind_texture(
            Binding::new(0, 1),
            d2(TextureFormat::Rgba32Float, &[[0; 4]; 8]),
        )
        .bind_texture(Binding::new(0, 2), d2(TextureFormat::R32Uint, &counts))
        .bind_texture(
            Binding::new(0, 3),
            Texture::from_words(TextureDesc::d1(TextureFormat::R32Sint, 4), &[[0; 4]; 4]).unwrap(),
        );
    run_compute(&func, &mut res, [1, 1, 1], &Limits::default()).unwrap();
    // dst = src * 2 + (4, 2, 0, 0) (the .w of TEMP[2].xyzz is the 0 in .z).
    let dst: Vec<u32> = (0..8)
        .flat_map(|i| [2.0 * i as f32 + 4.0, 2.0 - 2.0 * i as f32, 1.0, 4.0].map(f32::to_bits))
        .collect();
    assert_eq!(
        bytes_u32(res.texture(Binding::new(0, 1)).unwrap().data()),
        dst
    );
    let counted: Vec<u32> = (0..8).map(|i| 10 * i + 1).collect();
    assert_eq!(
        bytes_u32(res.texture(Binding::new(0, 2)).unwrap().data()),
        counted
    );
    assert_eq!(
        bytes_u32(res.texture(Binding::new(0, 3)).unwrap().data()),
        [4; 4]
    );
}

#[test]
fn image_bindings_and_formats_come_from_the_declarations() {
    let mut opts = LiftOptions::default();
    opts.image_bindings.insert(2, Binding::new(1, 7));
    let func = lift(SOFTPIPE_IMAGES, &opts).unwrap();
    let mut seen = Vec::new();
    func.for_each_inst(|_, inst| {
        if let Op::Effect(EffectOp::ImageStore(op)) = func.insts[inst].op {
            seen.push((op.image, op.format));
        }
    });
    assert_eq!(
        seen,
        vec![
            (Binding::new(0, 1), ImageFormat::Rgba32f),
            (Binding::new(1, 7), ImageFormat::R32ui),
            (Binding::new(0, 3), ImageFormat::R32i),
        ]
    );
}

#[test]
fn unsupported_image_formats_are_named() {
    let text = SOFTPIPE_IMAGES.replace(
        "DCL IMAGE[3], 1D, PIPE_FORMAT_R32_SINT, WR",
        "DCL IMAGE[3], 1D, PIPE_FORMAT_R16G16_SNORM, WR",
    );
    let err = lift(&text, &LiftOptions::default())
        .unwrap_err()
        .to_string();
    assert!(err.contains("PIPE_FORMAT_R16G16_SNORM"), "{err}");
}

/// From `o[x] = texelFetch(ids, ivec2(x, 1), 0) + uint(textureLod(offs, vec2(0.375, 0.75),
/// 0.0).r)` with `usampler2D ids` and `isampler2D offs` (softpipe's TGSI, Mesa 22.3).
const SOFTPIPE_INTEGER_TEXTURES: &str = "COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 4
PROPERTY CS_FIXED_BLOCK_HEIGHT 1
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], BLOCK_ID
DCL SV[1], THREAD_ID
DCL SAMP[0]
DCL SAMP[1]
DCL SVIEW[0], 2D, UINT
DCL SVIEW[1], 2D, SINT
DCL BUFFER[0]
DCL TEMP[0..2]
IMM[0] UINT32 {2, 4, 1, 0}
IMM[1] UINT32 {1052770304, 1061158912, 0, 0}
  0: SHL TEMP[0].x, SV[0].xyzx, IMM[0].xxxx
  1: UADD TEMP[0].x, TEMP[0].xxxx, SV[1].xxxx
  2: SHL TEMP[1].x, TEMP[0].xxxx, IMM[0].yyyy
  3: MOV TEMP[0].xz, TEMP[0].xxxx
  4: MOV TEMP[0].y, IMM[0].zzzz
  5: MOV TEMP[0].w, IMM[0].wwww
  6: TXF TEMP[0], TEMP[0], SAMP[0], 2D
  7: TXL TEMP[2], IMM[1].xyxz, SAMP[1], 2D
  8: UADD TEMP[0], TEMP[0], TEMP[2].xxxx
  9: STORE BUFFER[0], TEMP[1].xxxx, TEMP[0]
 10: END
";

#[test]
fn integer_sampler_views_fetch_and_sample_words() {
    let func = lift_ok(SOFTPIPE_INTEGER_TEXTURES);
    // ids: 4x2 rgba32ui, texel (x, y) = (100 y + x, 7, 0xffff_fff0, y); offs: 4x2 r32i,
    // texel (x, y) = -(10 y + x) - 1.
    let ids: Vec<[u32; 4]> = (0..8u32)
        .map(|i| [100 * (i / 4) + i % 4, 7, 0xffff_fff0, i / 4])
        .collect();
    let offs: Vec<[u32; 4]> = (0..8u32)
        .map(|i| [(10 * (i / 4) + i % 4 + 1).wrapping_neg(), 0, 0, 1])
        .collect();
    let mut res = Resources::new();
    res.bind_combined(
        Binding::new(0, 0),
        d2(TextureFormat::Rgba32Uint, &ids),
        agxc_egraph::interp::Sampler::nearest(),
    )
    .bind_combined(
        Binding::new(0, 1),
        d2(TextureFormat::R32Sint, &offs),
        agxc_egraph::interp::Sampler::nearest(),
    )
    .bind_storage(Binding::new(0, 0), vec![0; 64]);
    run_compute(&func, &mut res, [1, 1, 1], &Limits::default()).unwrap();
    // textureLod at (0.375, 0.75) of 4x2: texel (1.5 -> 1, 1.5 -> 1): -(10 + 1) - 1 = -12.
    // Each lane: texel (x, 1) = (100 + x, 7, 0xfffffff0, 1), plus -12 with wrapping.
    let b = 12u32.wrapping_neg();
    let expect: Vec<u32> = (0..4u32)
        .flat_map(|x| [100 + x, 7, 0xffff_fff0, 1].map(|w: u32| w.wrapping_add(b)))
        .collect();
    assert_eq!(
        bytes_u32(res.buffer_data(Binding::new(0, 0)).unwrap()),
        expect
    );
}
