//! The texture unit's fast path for the common case: a 2D texture with one level and one
//! layer, RGBA8 (unorm) or RGBA32F texels, sampled with the same nearest or linear filter for
//! magnification and minification, no depth compare, no gather. With one level every LOD
//! selects level 0, and with equal filters the LOD does not choose the filter either, so no
//! derivatives or LOD are computed; the texel array is found in device memory once per
//! instruction and texels are read as whole words. Each step is the general path's
//! (`sample.rs`) in the same order with the same operations, so the results are the same bits;
//! the texture-unit tests check both on every wrap mode and filter.

use super::descriptor::{TexDim, Texture};
use super::format::{TexFormat, UNORM8};
use super::sample::lerp4;
use super::sampler::{wrap, Filter, SamplerDescriptor, Wrap};
use crate::memory::{Allocation, DeviceMemory};

/// A texture and sampler pair the fast path handles, with the texel array's allocation.
pub(crate) struct Fast2d<'m> {
    memory: &'m Allocation,
    base: u64,
    pub(super) width: u32,
    pub(super) height: u32,
    pub(super) rgba8: bool,
    pub(super) linear: bool,
    pub(super) wrap: [Wrap; 2],
}

impl Texture {
    /// The fast path for sampling this texture with `sampler`, if the pair qualifies (see the
    /// module docs) and the texel array lies word-aligned in one allocation of `memory`.
    pub(crate) fn fast_2d<'m>(
        &self,
        memory: &'m DeviceMemory,
        sampler: &SamplerDescriptor,
    ) -> Option<Fast2d<'m>> {
        let d = self.descriptor();
        let rgba8 = match d.format {
            TexFormat::Rgba8Unorm => true,
            TexFormat::Rgba32Float => false,
            _ => return None,
        };
        let qualifies = d.dim == TexDim::D2
            && d.levels == 1
            && d.layers == 1
            && d.address.is_multiple_of(4)
            && sampler.mag_filter == sampler.min_filter
            && sampler.compare.is_none()
            && sampler.validate().is_ok();
        if !qualifies {
            return None;
        }
        Some(Fast2d {
            memory: memory.allocation(d.address, self.byte_size())?,
            base: d.address,
            width: d.width,
            height: d.height,
            rgba8,
            linear: sampler.mag_filter == Filter::Linear,
            wrap: [sampler.wrap[0], sampler.wrap[1]],
        })
    }
}

impl Fast2d<'_> {
    /// Word `c` of texel (x, y), in range (RGBA8 texels have one word, RGBA32F four).
    #[inline(always)]
    pub(super) fn load(&self, x: u32, y: u32, c: usize) -> u32 {
        let index = u64::from(y) * u64::from(self.width) + u64::from(x);
        let bytes = if self.rgba8 { 4 } else { 16 };
        self.memory
            .load(self.base + bytes * index + 4 * c as u64, 4)
    }

    /// Texel (x, y), in range.
    #[inline]
    fn texel(&self, x: u32, y: u32) -> [f32; 4] {
        if self.rgba8 {
            let w = self.load(x, y, 0);
            std::array::from_fn(|c| UNORM8[((w >> (8 * c)) & 0xff) as usize])
        } else {
            std::array::from_fn(|c| f32::from_bits(self.load(x, y, c)))
        }
    }

    /// A texel after wrapping (`None`: the border, transparent black).
    #[inline]
    pub(super) fn tap(&self, x: Option<u32>, y: Option<u32>) -> [f32; 4] {
        match (x, y) {
            (Some(x), Some(y)) => self.texel(x, y),
            _ => [0.0; 4],
        }
    }

    /// Samples at normalised coordinates (s, t) with texel offset `offset`.
    pub fn sample(&self, st: [f32; 2], offset: [i32; 2]) -> [f32; 4] {
        let size = [self.width, self.height];
        if !self.linear {
            let taps: [Option<u32>; 2] = std::array::from_fn(|axis| {
                let u = st[axis] * size[axis] as f32;
                let i = (u.floor() as i64).saturating_add(i64::from(offset[axis]));
                wrap(i, size[axis], self.wrap[axis])
            });
            return self.tap(taps[0], taps[1]);
        }
        let mut taps = [[None; 2]; 2];
        let mut weights = [0.0f32; 2];
        for axis in 0..2 {
            let x = st[axis] * size[axis] as f32 - 0.5;
            let floor = x.floor();
            let i0 = (floor as i64).saturating_add(i64::from(offset[axis]));
            let (n, mode) = (size[axis], self.wrap[axis]);
            taps[axis] = [wrap(i0, n, mode), wrap(i0.saturating_add(1), n, mode)];
            weights[axis] = x - floor;
        }
        let corner = |k: usize| self.tap(taps[0][k & 1], taps[1][k >> 1]);
        let bottom = lerp4(corner(0), corner(1), weights[0]);
        let top = lerp4(corner(2), corner(3), weights[0]);
        lerp4(bottom, top, weights[1])
    }
}
