//! Texture unit tests. Expected values are worked out by hand from the texture semantics (the
//! numbered rules in the IR interpreter's module docs, after the Vulkan specification) or with
//! f64 arithmetic written in the test; each assertion states its tolerance.

mod cube;
mod encoding;
mod fast;
mod filter;
mod format;
mod gather;
mod lod;
mod queries;
mod wrap;

use super::*;

/// Texture data lives above 4 GiB so 64-bit address arithmetic is exercised.
const BASE: u64 = 0x42_0000_0000;

/// Little-endian RGBA32F texels.
fn rgba32f(texels: &[[f32; 4]]) -> Vec<u8> {
    texels
        .iter()
        .flatten()
        .flat_map(|c| c.to_le_bytes())
        .collect()
}

/// Little-endian R32F texels.
fn r32f(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|c| c.to_le_bytes()).collect()
}

/// Samples, panicking on error (tests only).
fn sample_ok(
    bytes: &[u8],
    tex: &TextureDescriptor,
    sampler: &SamplerDescriptor,
    request: &SampleRequest,
) -> [f32; 4] {
    let mem = SliceMemory::new(tex.address, bytes);
    match sample(&mem, tex, sampler, request) {
        Ok(rgba) => rgba,
        Err(e) => panic!("sample failed: {e}"),
    }
}

/// Asserts every component is within `tol` of `expected`.
#[track_caller]
fn assert_rgba(actual: [f32; 4], expected: [f64; 4], tol: f64) {
    for c in 0..4 {
        let diff = (f64::from(actual[c]) - expected[c]).abs();
        assert!(
            diff <= tol,
            "component {c}: got {actual:?}, expected {expected:?} (tolerance {tol})"
        );
    }
}

/// A request at `coords` with explicit LOD 0.
fn at(coords: [f32; 3]) -> SampleRequest {
    SampleRequest::new(coords, LodRequest::explicit(0.0))
}
