//! Per-format texel decoding, through `fetch` on 1D textures.

use super::*;

/// Fetches texel `x` of a 1D texture of `format` holding `bytes`.
fn decode(format: TexFormat, bytes: &[u8], x: i32) -> [f32; 4] {
    let width = (bytes.len() / format.texel_bytes() as usize) as u32;
    let tex = TextureDescriptor::new_1d(format, width, 1, BASE);
    let mem = SliceMemory::new(BASE, bytes);
    fetch(&mem, &tex, [x, 0, 0], 0, 0).expect("fetch")
}

#[test]
fn unorm8_is_code_over_255_with_missing_components_0_0_1() {
    // Tolerance 1e-7: c/255 is one correctly rounded f32 division.
    assert_rgba(
        decode(TexFormat::R8Unorm, &[51], 0),
        [0.2, 0.0, 0.0, 1.0],
        1e-7,
    );
    assert_rgba(
        decode(TexFormat::Rg8Unorm, &[0, 0, 255, 128], 1),
        [1.0, 128.0 / 255.0, 0.0, 1.0],
        1e-7,
    );
    assert_rgba(
        decode(TexFormat::Rgba8Unorm, &[0, 0, 0, 0, 255, 1, 128, 0], 1),
        [1.0, 1.0 / 255.0, 128.0 / 255.0, 0.0],
        1e-7,
    );
}

#[test]
fn snorm8_divides_by_127_and_clamps_minus_128() {
    // 0x81 = -127 -> -1; 0x80 = -128 -> -1.0039 clamped to -1; 64 -> 64/127; 127 -> 1.
    assert_rgba(
        decode(TexFormat::Rgba8Snorm, &[0x81, 0x80, 64, 127], 0),
        [-1.0, -1.0, 64.0 / 127.0, 1.0],
        1e-7,
    );
}

#[test]
fn srgb8_decodes_rgb_and_leaves_alpha_linear() {
    // sRGB EOTF: 10/255 = 0.039216 <= 0.04045 -> /12.92 = 0.0030353; 128 -> 0.2158605 (the
    // standard sRGB table value); alpha 128 stays 128/255. Tolerance 1e-6.
    assert_rgba(
        decode(TexFormat::Rgba8Srgb, &[10, 128, 255, 128], 0),
        [0.003_035_3, 0.215_860_5, 1.0, 128.0 / 255.0],
        1e-6,
    );
}

#[test]
fn half_floats_convert_exactly_keeping_denormals() {
    // 0x3C00 = 1, 0xC000 = -2, 0x3555 = (1 + 0x155 / 0x400) * 2^-2 = 0.25 + 341 / 4096,
    // 0x0001 = 2^-24 (denormal), 0x7C00 = +inf. Exact.
    let halves: [u16; 4] = [0x3C00, 0xC000, 0x3555, 0x0001];
    let bytes: Vec<u8> = halves.iter().flat_map(|h| h.to_le_bytes()).collect();
    let rgba = decode(TexFormat::Rgba16Float, &bytes, 0);
    assert_eq!(rgba, [1.0, -2.0, 0.25 + 341.0 / 4096.0, 2f32.powi(-24)]);
    let rg = decode(TexFormat::Rg16Float, &[0x00, 0x7C, 0x00, 0x3C], 0);
    assert_eq!(rg, [f32::INFINITY, 1.0, 0.0, 1.0]);
    let r = decode(TexFormat::R16Float, &[0x00, 0x3C, 0x00, 0xC0], 1);
    assert_eq!(r, [-2.0, 0.0, 0.0, 1.0]);
}

#[test]
fn float32_formats_pass_bits_through() {
    assert_eq!(
        decode(TexFormat::R32Float, &r32f(&[0.5, -3.25]), 1),
        [-3.25, 0.0, 0.0, 1.0]
    );
    assert_eq!(
        decode(TexFormat::Rg32Float, &r32f(&[0.5, -3.25, 7.0, 1e-30]), 1),
        [7.0, 1e-30, 0.0, 1.0]
    );
    let texels = [[0.1, 0.2, 0.3, 0.4], [5.0, -6.0, 7.5, 8.0]];
    assert_eq!(
        decode(TexFormat::Rgba32Float, &rgba32f(&texels), 1),
        texels[1]
    );
}

#[test]
fn texel_sizes() {
    let sizes: Vec<u32> = TexFormat::ALL.iter().map(|f| f.texel_bytes()).collect();
    assert_eq!(sizes, [1, 2, 4, 4, 4, 2, 4, 8, 4, 8, 16, 16, 16, 4, 4]);
}

/// The words of an integer fetch (the f32 containers' bits).
fn words(format: TexFormat, bytes: &[u8], x: i32) -> [u32; 4] {
    decode(format, bytes, x).map(f32::to_bits)
}

#[test]
fn integer_texels_are_their_words_bit_for_bit() {
    // 0x7F80_0001 is a signalling-NaN pattern and 1 a denormal one: as floats either could be
    // changed by a conversion, as words they must come back unchanged.
    let texel = [0x7F80_0001u32, 1, 0xFFFF_FFFF, 0x8000_0000];
    let bytes: Vec<u8> = texel.iter().flat_map(|w| w.to_le_bytes()).collect();
    assert_eq!(words(TexFormat::Rgba32Uint, &bytes, 0), texel);
    assert_eq!(words(TexFormat::Rgba32Sint, &bytes, 0), texel);
    // One-channel integer formats fill in the words (r, 0, 0, 1), texel 2 of four.
    assert_eq!(words(TexFormat::R32Uint, &bytes, 2), [0xFFFF_FFFF, 0, 0, 1]);
    assert_eq!(words(TexFormat::R32Sint, &bytes, 0), [0x7F80_0001, 0, 0, 1]);
}

#[test]
fn integer_textures_sample_nearest_only() {
    let bytes: Vec<u8> = [7u32, 9].iter().flat_map(|w| w.to_le_bytes()).collect();
    let mem = SliceMemory::new(BASE, &bytes);
    let tex = TextureDescriptor::new_1d(TexFormat::R32Uint, 2, 1, BASE);
    // s = 0.75 lies in texel 1 (u = 1.5).
    let request = SampleRequest::new([0.75, 0.0, 0.0], LodRequest::explicit(0.0));
    let rgba = sample(&mem, &tex, &SamplerDescriptor::default(), &request).expect("sample");
    assert_eq!(rgba.map(f32::to_bits), [9, 0, 0, 1]);
    let linear = SamplerDescriptor {
        mag_filter: Filter::Linear,
        ..Default::default()
    };
    assert_eq!(
        sample(&mem, &tex, &linear, &request),
        Err(TextureError::IntegerFiltering {
            format: TexFormat::R32Uint,
            what: "a linear filter"
        })
    );
    let mip = SamplerDescriptor {
        mip_filter: MipFilter::Linear,
        ..Default::default()
    };
    assert!(matches!(
        sample(&mem, &tex, &mip, &request),
        Err(TextureError::IntegerFiltering { .. })
    ));
}

#[test]
fn store_encoding_rounds_clamps_and_keeps_words() {
    let w = |v: [f32; 4]| v.map(f32::to_bits);
    // unorm8: 0.5 * 255 = 127.5 ties to 128, NaN to 0, -1 and 2 clamp.
    let (b, n) = TexFormat::Rgba8Unorm.encode(w([0.5, f32::NAN, -1.0, 2.0]));
    assert_eq!((&b[..n], n), (&[128u8, 0, 0, 255][..], 4));
    // snorm8: -0.5 * 127 = -63.5 ties to -64 (0xc0), 3 clamps to 127, -3 to -127 (0x81).
    let (b, n) = TexFormat::Rgba8Snorm.encode(w([-0.5, 3.0, -3.0, 0.0]));
    assert_eq!(&b[..n], &[0xc0u8, 127, 0x81, 0]);
    // rgba16f: 1.0 is 0x3c00; 65520 rounds to infinity (0x7c00); 2^-25 ties to 0.
    let (b, n) = TexFormat::Rgba16Float.encode(w([1.0, 65520.0, 2f32.powi(-25), -2.0]));
    assert_eq!(&b[..n], &[0x00u8, 0x3c, 0x00, 0x7c, 0x00, 0x00, 0x00, 0xc0]);
    // One-channel integer formats keep the first word only; words pass unchanged.
    let (b, n) = TexFormat::R32Sint.encode([0xFFFF_FFFE, 5, 6, 7]);
    assert_eq!(&b[..n], &[0xfeu8, 0xff, 0xff, 0xff]);
    let (b, n) = TexFormat::Rgba32Uint.encode([0x7F80_0001, 1, 2, 3]);
    assert_eq!(&b[..n], &u32s(&[0x7F80_0001, 1, 2, 3])[..]);
}

fn u32s(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}
