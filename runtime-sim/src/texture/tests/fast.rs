//! The fast path against the general path: the same bits for every coordinate (NaN, infinities,
//! far outside the texture included), offset, wrap mode, filter and texel value, on RGBA8 and
//! RGBA32F textures of random sizes. Pairs outside the fast path's case are refused by it.

use quickcheck::{QuickCheck, TestResult};

use super::*;
use crate::memory::DeviceMemory;

const WRAPS: [Wrap; 4] = [
    Wrap::Repeat,
    Wrap::ClampToEdge,
    Wrap::MirroredRepeat,
    Wrap::ClampToBorder,
];

/// A coordinate from random bits: mostly moderate values, some specials.
fn coordinate(bits: u32) -> f32 {
    match bits % 16 {
        0 => f32::from_bits(bits),
        1 => [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -0.0][(bits >> 4) as usize % 4],
        _ => (bits >> 4) as f32 / (1u32 << 26) as f32 * 6.0 - 2.5,
    }
}

#[test]
fn the_fast_path_gives_the_general_paths_bits() {
    fn property(
        size: (u8, u8),
        texels: Vec<u32>,
        setup: (bool, bool, u8, u8),
        coords: Vec<(u32, u32, u8)>,
    ) -> TestResult {
        let (w, h) = (u32::from(size.0 % 9) + 1, u32::from(size.1 % 7) + 1);
        let (rgba8, linear, wrap_s, wrap_t) = setup;
        let count = (w * h) as usize * if rgba8 { 1 } else { 4 };
        let words: Vec<u32> = (0..count)
            .map(|i| {
                let v = texels.get(i % texels.len().max(1)).copied().unwrap_or(0);
                // Float texels: keep most finite (NaN payloads travel too).
                if rgba8 || v % 8 == 0 {
                    v
                } else {
                    ((v % 2000) as f32 / 16.0).to_bits() ^ (v & 0x8000_0000)
                }
            })
            .collect();
        let bytes: Vec<u8> = words.iter().flat_map(|v| v.to_le_bytes()).collect();
        let mut mem = DeviceMemory::new();
        let address = mem.alloc(bytes.len() as u64, 16).expect("alloc");
        mem.write(address, &bytes).expect("write");
        let format = if rgba8 {
            TexFormat::Rgba8Unorm
        } else {
            TexFormat::Rgba32Float
        };
        let desc = TextureDescriptor::new_2d(format, w, h, 1, address);
        let filter = if linear {
            Filter::Linear
        } else {
            Filter::Nearest
        };
        let sampler = SamplerDescriptor {
            min_filter: filter,
            mag_filter: filter,
            wrap: [
                WRAPS[usize::from(wrap_s) % 4],
                WRAPS[usize::from(wrap_t) % 4],
                Wrap::Repeat,
            ],
            ..SamplerDescriptor::default()
        };
        let tex = Texture::new(desc).expect("valid");
        let Some(fast) = tex.fast_2d(&mem, &sampler) else {
            return TestResult::error("the pair qualifies for the fast path");
        };
        for &(s, t, off) in &coords {
            let st = [coordinate(s), coordinate(t)];
            let offset = [i32::from(off & 15) - 8, i32::from(off >> 4) - 8];
            let lod = LodRequest::explicit(f32::from(off) / 40.0 - 3.0);
            let request =
                SampleRequest::new([st[0], st[1], 0.0], lod).with_offset([offset[0], offset[1], 0]);
            let general = tex.sample(&mem, &sampler, &request).expect("samples");
            let quick = fast.sample(st, offset);
            if general.map(f32::to_bits) != quick.map(f32::to_bits) {
                return TestResult::error(format!(
                    "{w}x{h} {format:?} {sampler:?} at {st:?} offset {offset:?}: \
                     general {general:?}, fast {quick:?}"
                ));
            }
        }
        TestResult::passed()
    }
    QuickCheck::new().tests(500).quickcheck(
        property as fn((u8, u8), Vec<u32>, (bool, bool, u8, u8), Vec<(u32, u32, u8)>) -> TestResult,
    );
}

#[test]
fn the_batched_fast_path_gives_the_general_paths_bits_in_every_active_lane() {
    fn property(
        size: (u8, u8),
        texels: Vec<u32>,
        setup: (bool, bool, u8, u8),
        coords: Vec<(u32, u32, u8)>,
        lanes: u32,
    ) -> TestResult {
        let (w, h) = (u32::from(size.0 % 9) + 1, u32::from(size.1 % 7) + 1);
        let (rgba8, linear, wrap_s, wrap_t) = setup;
        let count = (w * h) as usize * if rgba8 { 1 } else { 4 };
        // Float texels: some NaN with payloads (two NaN corners make the blend's NaN depend
        // on operand order, which the batched path must still get right), most finite.
        let words: Vec<u32> = (0..count)
            .map(|i| {
                let v = texels.get(i % texels.len().max(1)).copied().unwrap_or(0);
                match v % 8 {
                    _ if rgba8 => v,
                    0 => v,
                    1 => 0x7f80_0001 | (v & 0x803f_fff0),
                    _ => ((v % 2000) as f32 / 16.0).to_bits() ^ (v & 0x8000_0000),
                }
            })
            .collect();
        let bytes: Vec<u8> = words.iter().flat_map(|v| v.to_le_bytes()).collect();
        let mut mem = DeviceMemory::new();
        let address = mem.alloc(bytes.len() as u64, 16).expect("alloc");
        mem.write(address, &bytes).expect("write");
        let format = if rgba8 {
            TexFormat::Rgba8Unorm
        } else {
            TexFormat::Rgba32Float
        };
        let desc = TextureDescriptor::new_2d(format, w, h, 1, address);
        let filter = if linear {
            Filter::Linear
        } else {
            Filter::Nearest
        };
        let sampler = SamplerDescriptor {
            min_filter: filter,
            mag_filter: filter,
            wrap: [
                WRAPS[usize::from(wrap_s) % 4],
                WRAPS[usize::from(wrap_t) % 4],
                Wrap::Repeat,
            ],
            ..SamplerDescriptor::default()
        };
        let tex = Texture::new(desc).expect("valid");
        let Some(fast) = tex.fast_2d(&mem, &sampler) else {
            return TestResult::error("the pair qualifies for the fast path");
        };
        let lane = |l: usize| {
            coords
                .get(l % coords.len().max(1))
                .copied()
                .unwrap_or((0, 0, 0))
        };
        let s: [u32; 32] = std::array::from_fn(|l| coordinate(lane(l).0).to_bits());
        let t: [u32; 32] = std::array::from_fn(|l| coordinate(lane(l).1).to_bits());
        let offsets: [[i32; 2]; 32] = std::array::from_fn(|l| {
            let off = lane(l).2;
            [i32::from(off & 15) - 8, i32::from(off >> 4) - 8]
        });
        let batch = fast.sample_lanes(&s, &t, &offsets, lanes);
        for l in (0..32).filter(|l| lanes >> l & 1 == 1) {
            let st = [f32::from_bits(s[l]), f32::from_bits(t[l])];
            let request = SampleRequest::new([st[0], st[1], 0.0], LodRequest::explicit(0.0))
                .with_offset([offsets[l][0], offsets[l][1], 0]);
            let general = tex.sample(&mem, &sampler, &request).expect("samples");
            let lane_bits: [u32; 4] = std::array::from_fn(|c| batch[c][l].to_bits());
            if general.map(f32::to_bits) != lane_bits {
                return TestResult::error(format!(
                    "{w}x{h} {format:?} {sampler:?} lane {l} at {st:?} offset {:?}: \
                     general {general:?}, batched {lane_bits:x?}",
                    offsets[l]
                ));
            }
        }
        TestResult::passed()
    }
    QuickCheck::new().tests(300).quickcheck(
        property
            as fn((u8, u8), Vec<u32>, (bool, bool, u8, u8), Vec<(u32, u32, u8)>, u32) -> TestResult,
    );
}

#[test]
fn other_textures_and_samplers_take_the_general_path() {
    let mut mem = DeviceMemory::new();
    let address = mem.alloc(4096, 16).expect("alloc");
    let linear = SamplerDescriptor::with_filter(Filter::Linear, MipFilter::None, Wrap::Repeat);
    let qualifies = |desc: TextureDescriptor, sampler: &SamplerDescriptor| {
        Texture::new(desc)
            .expect("valid")
            .fast_2d(&mem, sampler)
            .is_some()
    };
    let d2 = TextureDescriptor::new_2d(TexFormat::Rgba8Unorm, 4, 4, 1, address);
    assert!(qualifies(d2, &linear));
    // Mip levels, another format, another dimensionality, an array.
    assert!(!qualifies(
        TextureDescriptor::new_2d(TexFormat::Rgba8Unorm, 4, 4, 3, address),
        &linear
    ));
    assert!(!qualifies(
        TextureDescriptor::new_2d(TexFormat::Rgba16Float, 4, 4, 1, address),
        &linear
    ));
    assert!(!qualifies(
        TextureDescriptor::new_1d(TexFormat::Rgba8Unorm, 4, 1, address),
        &linear
    ));
    assert!(!qualifies(d2.arrayed(2), &linear));
    // Different filters for magnification and minification, a depth compare.
    let mixed = SamplerDescriptor {
        mag_filter: Filter::Nearest,
        ..linear
    };
    assert!(!qualifies(d2, &mixed));
    let shadow = SamplerDescriptor {
        compare: Some(CompareOp::Less),
        ..linear
    };
    assert!(!qualifies(d2, &shadow));
    // Texels outside any allocation.
    let unmapped = TextureDescriptor::new_2d(TexFormat::Rgba8Unorm, 4, 4, 1, BASE);
    assert!(!qualifies(unmapped, &linear));
}
