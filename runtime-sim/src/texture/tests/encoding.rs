//! Binary descriptor encoding: hand-written bytes decode to the expected descriptors and back.

use super::*;

#[test]
fn texture_descriptor_bytes() {
    let mut bytes = [0u8; 32];
    bytes[0] = 3; // D2Array
    bytes[1] = 7; // Rgba16Float
    bytes[4..8].copy_from_slice(&[0x00, 0x01, 0, 0]); // width 256
    bytes[8..12].copy_from_slice(&[0x80, 0, 0, 0]); // height 128
    bytes[12..16].copy_from_slice(&[1, 0, 0, 0]); // depth 1
    bytes[16..20].copy_from_slice(&[6, 0, 0, 0]); // layers 6
    bytes[20..24].copy_from_slice(&[9, 0, 0, 0]); // levels 9
    bytes[24..32].copy_from_slice(&[0x00, 0x10, 0, 0, 0x42, 0, 0, 0]); // 0x42_0000_1000
    let expected = TextureDescriptor {
        dim: TexDim::D2Array,
        format: TexFormat::Rgba16Float,
        width: 256,
        height: 128,
        depth: 1,
        layers: 6,
        levels: 9,
        address: 0x42_0000_1000,
    };
    assert_eq!(TextureDescriptor::from_bytes(&bytes), Ok(expected));
    assert_eq!(expected.to_bytes(), bytes);
    let mem = SliceMemory::new(0x800, &bytes);
    assert_eq!(TextureDescriptor::read(&mem, 0x800), Ok(expected));
    assert_eq!(
        TextureDescriptor::read(&mem, 0x801),
        Err(TextureError::Unmapped {
            address: 0x801,
            len: 32
        })
    );
}

#[test]
fn texture_descriptor_bad_bytes() {
    let good = TextureDescriptor::new_2d(TexFormat::R8Unorm, 4, 4, 1, 0).to_bytes();
    let mut bad_dim = good;
    bad_dim[0] = 7;
    assert_eq!(
        TextureDescriptor::from_bytes(&bad_dim),
        Err(TextureError::UnknownCode {
            descriptor: "texture",
            field: "dim",
            code: 7
        })
    );
    let mut bad_format = good;
    // Codes 0..=14 are formats (10 rgba32f, 11..=14 the integer formats).
    bad_format[1] = 15;
    assert_eq!(
        TextureDescriptor::from_bytes(&bad_format),
        Err(TextureError::UnknownCode {
            descriptor: "texture",
            field: "format",
            code: 15
        })
    );
    let mut reserved = good;
    reserved[3] = 0x80;
    assert_eq!(
        TextureDescriptor::from_bytes(&reserved),
        Err(TextureError::ReservedNonZero {
            descriptor: "texture",
            byte: 3,
            value: 0x80
        })
    );
}

#[test]
fn sampler_descriptor_bytes() {
    let mut bytes = [0u8; 32];
    bytes[0] = 1; // min linear
    bytes[1] = 0; // mag nearest
    bytes[2] = 2; // mip linear
    bytes[3] = 4; // compare: 1 + LessEqual (3)
    bytes[4..7].copy_from_slice(&[3, 2, 1]); // border, mirrored, clamp
    bytes[8..12].copy_from_slice(&0.5f32.to_le_bytes());
    bytes[12..16].copy_from_slice(&(-1.0f32).to_le_bytes());
    bytes[16..20].copy_from_slice(&[0x00, 0x00, 0x80, 0x7F]); // +inf
    let expected = SamplerDescriptor {
        min_filter: Filter::Linear,
        mag_filter: Filter::Nearest,
        mip_filter: MipFilter::Linear,
        wrap: [Wrap::ClampToBorder, Wrap::MirroredRepeat, Wrap::ClampToEdge],
        lod_bias: 0.5,
        min_lod: -1.0,
        max_lod: f32::INFINITY,
        compare: Some(CompareOp::LessEqual),
    };
    assert_eq!(SamplerDescriptor::from_bytes(&bytes), Ok(expected));
    assert_eq!(expected.to_bytes(), bytes);
    // No compare is code 0.
    assert_eq!(SamplerDescriptor::default().to_bytes()[3], 0);
}

#[test]
fn sampler_descriptor_bad_bytes() {
    let good = SamplerDescriptor::default().to_bytes();
    let mut bad_compare = good;
    bad_compare[3] = 9;
    assert_eq!(
        SamplerDescriptor::from_bytes(&bad_compare),
        Err(TextureError::UnknownCode {
            descriptor: "sampler",
            field: "compare",
            code: 9
        })
    );
    let mut bad_wrap = good;
    bad_wrap[6] = 4;
    assert_eq!(
        SamplerDescriptor::from_bytes(&bad_wrap),
        Err(TextureError::UnknownCode {
            descriptor: "sampler",
            field: "wrap",
            code: 4
        })
    );
    let mut bad_mip = good;
    bad_mip[2] = 3;
    assert_eq!(
        SamplerDescriptor::from_bytes(&bad_mip),
        Err(TextureError::UnknownCode {
            descriptor: "sampler",
            field: "mip_filter",
            code: 3
        })
    );
    let mut reserved = good;
    reserved[31] = 1;
    assert_eq!(
        SamplerDescriptor::from_bytes(&reserved),
        Err(TextureError::ReservedNonZero {
            descriptor: "sampler",
            byte: 31,
            value: 1
        })
    );
}
