//! Gathers: the four texels of the bilinear footprint at the base level, in the order
//! (i0, j1), (i1, j1), (i1, j0), (i0, j0), one component each; offsets and wrapping apply, the
//! sampler's filters and mip settings do not, and a compare applies to each texel.

use super::*;

/// 4x4 RGBA32F with two levels; component c of level-0 texel (x, y) is `16 c + x + 4 y`,
/// level 1 holds 100s.
fn numbered() -> (Vec<u8>, TextureDescriptor) {
    let mut texels: Vec<[f32; 4]> = (0..16)
        .map(|k| std::array::from_fn(|c| (16 * c + k) as f32))
        .collect();
    texels.extend([[100.0; 4]; 4]);
    let tex = TextureDescriptor::new_2d(TexFormat::Rgba32Float, 4, 4, 2, BASE);
    (rgba32f(&texels), tex)
}

fn gather_ok(
    bytes: &[u8],
    tex: &TextureDescriptor,
    sampler: &SamplerDescriptor,
    request: &SampleRequest,
    component: u8,
) -> [f32; 4] {
    let mem = SliceMemory::new(tex.address, bytes);
    match Texture::new(*tex).and_then(|t| t.gather(&mem, sampler, request, component)) {
        Ok(rgba) => rgba,
        Err(e) => panic!("gather failed: {e}"),
    }
}

#[test]
fn footprint_order_ignores_filters_and_levels() {
    let (bytes, tex) = numbered();
    // (0.5, 0.5): u = v = 1.5, i0 = j0 = 1. Red of (1, 2), (2, 2), (2, 1), (1, 1) =
    // 9, 10, 6, 5, even with nearest filtering and an explicit LOD of 1; blue adds 32.
    let sampler = SamplerDescriptor::with_filter(Filter::Nearest, MipFilter::Nearest, Wrap::Repeat);
    let request = SampleRequest::new([0.5, 0.5, 0.0], LodRequest::explicit(1.0));
    assert_eq!(
        gather_ok(&bytes, &tex, &sampler, &request, 0),
        [9.0, 10.0, 6.0, 5.0]
    );
    assert_eq!(
        gather_ok(&bytes, &tex, &sampler, &request, 2),
        [41.0, 42.0, 38.0, 37.0]
    );
}

#[test]
fn wrapping_and_offsets_move_the_footprint() {
    let (bytes, tex) = numbered();
    let repeat = SamplerDescriptor::with_filter(Filter::Linear, MipFilter::None, Wrap::Repeat);
    // (0, 0): i0 = j0 = -1, which repeat maps to 3: green (16 +) of (3, 0), (0, 0), (0, 3),
    // (3, 3) = 19, 16, 28, 31.
    assert_eq!(
        gather_ok(&bytes, &tex, &repeat, &at([0.0, 0.0, 0.0]), 1),
        [19.0, 16.0, 28.0, 31.0]
    );
    // Offset (1, -1) at (0.5, 0.5): i0 = 2, j0 = 0; red of (2, 1), (3, 1), (3, 0), (2, 0).
    let request = at([0.5, 0.5, 0.0]).with_offset([1, -1, 0]);
    assert_eq!(
        gather_ok(&bytes, &tex, &repeat, &request, 0),
        [6.0, 7.0, 3.0, 2.0]
    );
}

#[test]
fn compare_applies_to_each_texel() {
    // 2x2 R32F depths 0.1, 0.2 / 0.3, 0.4; (0.5, 0.5) has i0 = j0 = 0: 0.3, 0.4, 0.2, 0.1
    // against reference 0.25 with Less (ref < depth).
    let tex = TextureDescriptor::new_2d(TexFormat::R32Float, 2, 2, 1, BASE);
    let bytes = r32f(&[0.1, 0.2, 0.3, 0.4]);
    let sampler = SamplerDescriptor {
        compare: Some(CompareOp::Less),
        ..SamplerDescriptor::default()
    };
    let request = at([0.5, 0.5, 0.0]).with_compare(0.25);
    assert_eq!(
        gather_ok(&bytes, &tex, &sampler, &request, 0),
        [1.0, 1.0, 0.0, 0.0]
    );
}
