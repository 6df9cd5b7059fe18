//! Fetch (layout and out-of-range reads), size and levels queries, depth compare, and the errors
//! for broken descriptors, mismatched compares and unmapped memory.

use super::*;

/// R32F texels numbered 0, 1, 2, ... in memory order, so a fetch returns its byte index / 4.
fn numbered(count: usize) -> Vec<u8> {
    r32f(&(0..count).map(|i| i as f32).collect::<Vec<_>>())
}

fn fetch_r(tex: &TextureDescriptor, bytes: &[u8], xyz: [i32; 3], layer: i32, level: i32) -> f32 {
    let mem = SliceMemory::new(tex.address, bytes);
    fetch(&mem, tex, xyz, layer, level).expect("fetch")[0]
}

#[test]
fn fetch_follows_the_documented_layout() {
    // 2D 4x2, 2 levels: level 0 is texels 0..8 (row-major), level 1 (2x1) is 8..10.
    let tex = TextureDescriptor::new_2d(TexFormat::R32Float, 4, 2, 2, BASE);
    let bytes = numbered(10);
    assert_eq!(fetch_r(&tex, &bytes, [3, 1, 0], 0, 0), 7.0);
    assert_eq!(fetch_r(&tex, &bytes, [1, 0, 0], 0, 1), 9.0);
    // 3D 3x2x2: (x, y, z) = (2, 1, 1) is index (1 * 2 + 1) * 3 + 2 = 11.
    let tex3 = TextureDescriptor::new_3d(TexFormat::R32Float, [3, 2, 2], 1, BASE);
    assert_eq!(fetch_r(&tex3, &numbered(12), [2, 1, 1], 0, 0), 11.0);
    // 2D array 3x2 of 2 layers, 2 levels: level 0 = 12 texels, then level 1 (1x1) layers 0, 1.
    let array = TextureDescriptor::new_2d(TexFormat::R32Float, 3, 2, 2, BASE).arrayed(2);
    let bytes = numbered(14);
    // Layer 1, (x, y) = (2, 0): (1 * 2 + 0) * 3 + 2 = 8.
    assert_eq!(fetch_r(&array, &bytes, [2, 0, 0], 1, 0), 8.0);
    assert_eq!(fetch_r(&array, &bytes, [0, 0, 0], 1, 1), 13.0);
    // Cube array of 2 cubes with 2x2 faces: cube 1, face 3 (-Y), (1, 0) = slice 9 * 4 + 1 = 37.
    let cubes = TextureDescriptor::new_cube(TexFormat::R32Float, 2, 1, BASE).arrayed(2);
    assert_eq!(fetch_r(&cubes, &numbered(48), [1, 0, 3], 1, 0), 37.0);
    // 1D ignores the y and z coordinates.
    let line = TextureDescriptor::new_1d(TexFormat::R32Float, 4, 1, BASE);
    assert_eq!(fetch_r(&line, &numbered(4), [2, 99, -5], 0, 0), 2.0);
}

#[test]
fn fetch_out_of_range_reads_zero() {
    // RGBA8 so a wrongly returned in-range texel would have A = 1, not 0.
    let tex = TextureDescriptor::new_2d(TexFormat::Rgba8Unorm, 4, 2, 2, BASE);
    let bytes = vec![255u8; (8 + 2) * 4];
    let mem = SliceMemory::new(BASE, &bytes);
    let read = |xyz: [i32; 3], layer: i32, level: i32| fetch(&mem, &tex, xyz, layer, level);
    assert_eq!(read([3, 1, 0], 0, 0), Ok([1.0; 4]));
    for (xyz, layer, level) in [
        ([4, 0, 0], 0, 0),
        ([0, 2, 0], 0, 0),
        ([-1, 0, 0], 0, 0),
        ([0, -1, 0], 0, 0),
        ([2, 0, 0], 0, 1),
        ([0, 1, 0], 0, 1),
        ([0, 0, 0], 1, 0),
        ([0, 0, 0], -1, 0),
        ([0, 0, 0], 0, 2),
        ([0, 0, 0], 0, -1),
        ([i32::MIN, i32::MAX, 0], 0, 0),
    ] {
        assert_eq!(
            read(xyz, layer, level),
            Ok([0.0; 4]),
            "{xyz:?} layer {layer} level {level}"
        );
    }
    // Cube face outside 0..6.
    let cube = TextureDescriptor::new_cube(TexFormat::Rgba8Unorm, 1, 1, BASE);
    let mem = SliceMemory::new(BASE, &bytes[..24]);
    assert_eq!(fetch(&mem, &cube, [0, 0, 5], 0, 0), Ok([1.0; 4]));
    assert_eq!(fetch(&mem, &cube, [0, 0, 6], 0, 0), Ok([0.0; 4]));
}

#[test]
fn size_queries_per_dimensionality() {
    let check = |tex: TextureDescriptor, level: u32, want: &[u32]| {
        let got = size(&tex, level).expect("size");
        assert_eq!(got.as_slice(), want, "{} level {level}", tex.dim);
    };
    let f = TexFormat::Rgba8Unorm;
    let line = TextureDescriptor::new_1d(f, 16, 5, 0);
    check(line, 0, &[16]);
    check(line, 3, &[2]);
    check(line, 4, &[1]);
    check(line, 9, &[1]);
    check(line, 40, &[1]);
    check(line.arrayed(7), 2, &[4, 7]);
    let plane = TextureDescriptor::new_2d(f, 16, 4, 5, 0);
    check(plane, 3, &[2, 1]);
    check(plane.arrayed(3), 1, &[8, 2, 3]);
    check(TextureDescriptor::new_3d(f, [8, 4, 2], 4, 0), 2, &[2, 1, 1]);
    let cube = TextureDescriptor::new_cube(f, 8, 4, 0);
    check(cube, 1, &[4, 4]);
    check(cube.arrayed(3), 0, &[8, 8, 3]);
    assert_eq!(levels(&cube), 4);
}

#[test]
fn compare_ops_against_the_texel_red() {
    // One texel with R = 0.25; references below, equal, above.
    let tex = TextureDescriptor::new_1d(TexFormat::R32Float, 1, 1, BASE);
    let bytes = r32f(&[0.25]);
    // reference OP texel for references 0.125, 0.25, 0.5.
    let table = [
        (CompareOp::Never, [0.0, 0.0, 0.0]),
        (CompareOp::Less, [1.0, 0.0, 0.0]),
        (CompareOp::Equal, [0.0, 1.0, 0.0]),
        (CompareOp::LessEqual, [1.0, 1.0, 0.0]),
        (CompareOp::Greater, [0.0, 0.0, 1.0]),
        (CompareOp::NotEqual, [1.0, 0.0, 1.0]),
        (CompareOp::GreaterEqual, [0.0, 1.0, 1.0]),
        (CompareOp::Always, [1.0, 1.0, 1.0]),
    ];
    for (op, results) in table {
        let sampler = SamplerDescriptor {
            compare: Some(op),
            ..SamplerDescriptor::default()
        };
        for (reference, want) in [0.125, 0.25, 0.5].into_iter().zip(results) {
            let request = at([0.5, 0.0, 0.0]).with_compare(reference);
            let got = sample_ok(&bytes, &tex, &sampler, &request);
            assert_eq!(got, [want, 0.0, 0.0, 1.0], "{op:?} ref {reference}");
        }
    }
}

#[test]
fn compare_happens_before_filtering_and_on_border_texels() {
    // Texels 0.2 and 0.6; linear at their midpoint with reference 0.4, op Less:
    // (0.4 < 0.2) = 0 and (0.4 < 0.6) = 1 blend to 0.5. Filtering first would give 0.4 < 0.4 = 0.
    let tex = TextureDescriptor::new_1d(TexFormat::R32Float, 2, 1, BASE);
    let bytes = r32f(&[0.2, 0.6]);
    let sampler = SamplerDescriptor {
        compare: Some(CompareOp::Less),
        ..SamplerDescriptor::with_filter(Filter::Linear, MipFilter::None, Wrap::ClampToEdge)
    };
    let got = sample_ok(
        &bytes,
        &tex,
        &sampler,
        &at([0.5, 0.0, 0.0]).with_compare(0.4),
    );
    assert_eq!(got, [0.5, 0.0, 0.0, 1.0]);
    // Border texel R = 0: -0.5 < 0 passes, 0 < 0 fails.
    let border = SamplerDescriptor {
        compare: Some(CompareOp::Less),
        ..SamplerDescriptor::with_filter(Filter::Nearest, MipFilter::None, Wrap::ClampToBorder)
    };
    let outside = at([-1.0, 0.0, 0.0]);
    assert_eq!(
        sample_ok(&bytes, &tex, &border, &outside.with_compare(-0.5))[0],
        1.0
    );
    assert_eq!(
        sample_ok(&bytes, &tex, &border, &outside.with_compare(0.0))[0],
        0.0
    );
}

#[test]
fn compare_needs_both_sampler_op_and_reference() {
    let tex = TextureDescriptor::new_1d(TexFormat::R32Float, 1, 1, BASE);
    let bytes = r32f(&[0.25]);
    let mem = SliceMemory::new(BASE, &bytes);
    let shadow = SamplerDescriptor {
        compare: Some(CompareOp::Less),
        ..SamplerDescriptor::default()
    };
    assert_eq!(
        sample(&mem, &tex, &shadow, &at([0.5, 0.0, 0.0])),
        Err(TextureError::MissingCompareReference {
            op: CompareOp::Less
        })
    );
    let plain = SamplerDescriptor::default();
    assert_eq!(
        sample(&mem, &tex, &plain, &at([0.5, 0.0, 0.0]).with_compare(0.5)),
        Err(TextureError::UnexpectedCompareReference)
    );
}

#[test]
fn unmapped_texels_are_errors_naming_the_address() {
    // A 4x1 RGBA8 texture with only its first 8 bytes mapped: texel 3 is at BASE + 12.
    let tex = TextureDescriptor::new_2d(TexFormat::Rgba8Unorm, 4, 1, 1, BASE);
    let bytes = [0u8; 8];
    let mem = SliceMemory::new(BASE, &bytes);
    let unmapped = Err(TextureError::Unmapped {
        address: BASE + 12,
        len: 4,
    });
    assert_eq!(fetch(&mem, &tex, [3, 0, 0], 0, 0), unmapped);
    let request = at([0.9, 0.5, 0.0]);
    assert_eq!(
        sample(&mem, &tex, &SamplerDescriptor::default(), &request),
        unmapped
    );
    assert_eq!(fetch(&mem, &tex, [1, 0, 0], 0, 0), Ok([0.0; 4]));
}

#[test]
fn broken_descriptors_are_errors() {
    let f = TexFormat::Rgba32Float;
    let a = BASE;
    let cases = [
        (
            TextureDescriptor::new_2d(f, 0, 4, 1, a),
            TextureError::ZeroField {
                address: a,
                field: "width",
            },
        ),
        (
            TextureDescriptor::new_2d(f, 4, 4, 0, a),
            TextureError::ZeroField {
                address: a,
                field: "levels",
            },
        ),
        (
            TextureDescriptor::new_2d(f, 4, 4, 1, a).arrayed(0),
            TextureError::ZeroField {
                address: a,
                field: "layers",
            },
        ),
        (
            TextureDescriptor::shaped(TexDim::D1, f, [4, 2, 1], 1, 1, a),
            TextureError::UnusedAxis {
                address: a,
                dim: TexDim::D1,
                field: "height",
                value: 2,
            },
        ),
        (
            TextureDescriptor::shaped(TexDim::D2Array, f, [4, 4, 3], 2, 1, a),
            TextureError::UnusedAxis {
                address: a,
                dim: TexDim::D2Array,
                field: "depth",
                value: 3,
            },
        ),
        (
            TextureDescriptor::shaped(TexDim::D3, f, [4, 4, 4], 2, 1, a),
            TextureError::UnusedAxis {
                address: a,
                dim: TexDim::D3,
                field: "layers",
                value: 2,
            },
        ),
        (
            TextureDescriptor::shaped(TexDim::Cube, f, [4, 2, 1], 1, 1, a),
            TextureError::CubeNotSquare {
                address: a,
                width: 4,
                height: 2,
            },
        ),
        // 8x3: floor(log2(8)) + 1 = 4 levels at most.
        (
            TextureDescriptor::new_2d(f, 8, 3, 5, a),
            TextureError::TooManyLevels {
                address: a,
                levels: 5,
                extent: 8,
                max: 4,
            },
        ),
        // 2^32 * 2^32 texels of 16 bytes overflow u64 on the first level.
        (
            TextureDescriptor::new_2d(f, u32::MAX, u32::MAX, 1, a).arrayed(u32::MAX),
            TextureError::LayoutOverflow { address: a },
        ),
        // 16 bytes starting 8 bytes below 2^64 (the exclusive end must fit in u64).
        (
            TextureDescriptor::new_1d(f, 1, 1, u64::MAX - 7),
            TextureError::LayoutOverflow {
                address: u64::MAX - 7,
            },
        ),
    ];
    let mem = SliceMemory::new(0, &[]);
    for (tex, error) in cases {
        assert_eq!(Texture::new(tex), Err(error), "{tex:?}");
        assert_eq!(fetch(&mem, &tex, [0; 3], 0, 0), Err(error));
        assert_eq!(size(&tex, 0), Err(error));
    }
    // The largest legal level count, and data ending (exclusively) at u64::MAX, are accepted.
    assert!(Texture::new(TextureDescriptor::new_2d(f, 8, 3, 4, a)).is_ok());
    assert!(Texture::new(TextureDescriptor::new_1d(f, 1, 1, u64::MAX - 16)).is_ok());
}

#[test]
fn broken_samplers_are_errors() {
    let tex = TextureDescriptor::new_1d(TexFormat::R32Float, 1, 1, BASE);
    let bytes = r32f(&[0.25]);
    let mem = SliceMemory::new(BASE, &bytes);
    let nan_bias = SamplerDescriptor {
        lod_bias: f32::NAN,
        ..SamplerDescriptor::default()
    };
    let inverted = SamplerDescriptor {
        min_lod: 2.0,
        max_lod: 1.0,
        ..SamplerDescriptor::default()
    };
    let request = at([0.5, 0.0, 0.0]);
    assert_eq!(
        sample(&mem, &tex, &nan_bias, &request),
        Err(TextureError::SamplerNan { field: "lod_bias" })
    );
    assert_eq!(
        sample(&mem, &tex, &inverted, &request),
        Err(TextureError::SamplerLodRange {
            min_lod: 2.0,
            max_lod: 1.0
        })
    );
}

#[test]
fn byte_size_sums_every_level_and_slice() {
    // Cube array, 4x4 faces, 2 cubes, 3 levels, RGBA8: (16 + 4 + 1) * 12 slices * 4 bytes.
    let tex = TextureDescriptor::new_cube(TexFormat::Rgba8Unorm, 4, 3, 0).arrayed(2);
    assert_eq!(Texture::new(tex).map(|t| t.byte_size()), Ok(21 * 12 * 4));
}
