//! The 2D fast path (`fast`) over a whole SIMD-group at once: one call per instruction
//! instead of one per lane, with the arithmetic (scaling, `floor`, weights, 8-bit decoding and
//! the bilinear blend) done as 32-lane loops the compiler vectorises, and only the wrapping and
//! the texel reads lane by lane. On x86-64 hosts with AVX2 the loops are compiled a second time
//! for it (checked once per call through the standard library's cached feature test), so
//! `floor` is one rounding instruction for eight lanes instead of a call into libm per lane.
//!
//! Why: per-lane sampling was the largest cost of the texture-bound fragment cases in
//! `sim_speed` (`sw_mirror`, 49 bilinear samples per pixel; `sw_radialblur`, 32).
//!
//! The results are [`Fast2d::sample`]'s bits, lane by lane: every step is the same IEEE
//! operation on the same operands (`x / 255` is how the 8-bit table is computed), and a
//! multiplication or addition whose operands are not NaN has one correctly rounded result
//! whatever order the compiler gives its operands. Only which NaN comes out of a blend with
//! two NaN operands depends on that order, so a lane whose blended result is NaN is sampled
//! again by [`Fast2d::sample`] (whose blend is the general path's, never inlined). The
//! texture-unit tests compare both on random textures, coordinates, offsets and lane masks.

use super::fast::Fast2d;
use super::sampler::wrap;

/// One component in every lane.
pub(crate) type Row = [f32; 32];

impl Fast2d<'_> {
    /// Samples lane `l` of `lanes` at normalised (`s[l]`, `t[l]`) (f32 bits) with texel offset
    /// `offsets[l]`; returns component `c` of lane `l` at `[c][l]` (lanes outside `lanes` hold
    /// unspecified values).
    pub fn sample_lanes(
        &self,
        s: &[u32; 32],
        t: &[u32; 32],
        offsets: &[[i32; 2]; 32],
        lanes: u32,
    ) -> [Row; 4] {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: `sample_lanes_avx2` requires only AVX2, which the host has.
            return unsafe { self.sample_lanes_avx2(s, t, offsets, lanes) };
        }
        self.sample_lanes_impl(s, t, offsets, lanes)
    }

    /// [`Self::sample_lanes`] compiled for AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn sample_lanes_avx2(
        &self,
        s: &[u32; 32],
        t: &[u32; 32],
        offsets: &[[i32; 2]; 32],
        lanes: u32,
    ) -> [Row; 4] {
        self.sample_lanes_impl(s, t, offsets, lanes)
    }

    #[inline(always)]
    fn sample_lanes_impl(
        &self,
        s: &[u32; 32],
        t: &[u32; 32],
        offsets: &[[i32; 2]; 32],
        lanes: u32,
    ) -> [Row; 4] {
        let size = [self.width, self.height];
        let coords = [s, t];
        // Per axis and lane: the unwrapped index of the (first) tap and the second tap's
        // weight, as `Fast2d::sample` computes them.
        let mut first = [[0i64; 32]; 2];
        let mut weight = [[0.0f32; 32]; 2];
        for axis in 0..2 {
            let n = size[axis] as f32;
            let (first, weight) = (&mut first[axis], &mut weight[axis]);
            if self.linear {
                for l in 0..32 {
                    let x = f32::from_bits(coords[axis][l]) * n - 0.5;
                    let floor = x.floor();
                    first[l] = floor as i64;
                    weight[l] = x - floor;
                }
            } else {
                for l in 0..32 {
                    let u = f32::from_bits(coords[axis][l]) * n;
                    first[l] = u.floor() as i64;
                }
            }
        }
        let active = (0..32).filter(move |l| lanes >> l & 1 == 1);
        // Texel reads inline here (no per-texel call or array built per texel, which cost as
        // much as the filtering): word `c` of texel (x, y) into `row[c][l]`, 0.0 (transparent
        // black) for the border; RGBA8 words are decoded below, 32 lanes at a time.
        let words = if self.rgba8 { 1 } else { 4 };
        let read = |row: &mut [Row; 4], l: usize, x: Option<u32>, y: Option<u32>| match (x, y) {
            (Some(x), Some(y)) => {
                for (c, row) in row.iter_mut().enumerate().take(words) {
                    row[l] = f32::from_bits(self.load(x, y, c));
                }
            }
            _ => {
                for row in row.iter_mut().take(words) {
                    row[l] = 0.0;
                }
            }
        };
        if !self.linear {
            let mut out = [[0.0f32; 32]; 4];
            for l in active {
                let i = |axis: usize| first[axis][l].saturating_add(i64::from(offsets[l][axis]));
                let x = wrap(i(0), size[0], self.wrap[0]);
                let y = wrap(i(1), size[1], self.wrap[1]);
                read(&mut out, l, x, y);
            }
            if self.rgba8 {
                decode_rgba8(&mut out);
            }
            return out;
        }
        // The four corners' texels, corner `k` holding bit 0 of `k` as its x tap and bit 1 as
        // its y tap, as in `Fast2d::sample`.
        let mut corners = [[[0.0f32; 32]; 4]; 4];
        for l in active {
            let [tx, ty] = self.taps(&first, offsets, l);
            for (k, corner) in corners.iter_mut().enumerate() {
                read(corner, l, tx[k & 1], ty[k >> 1]);
            }
        }
        if self.rgba8 {
            for corner in &mut corners {
                decode_rgba8(corner);
            }
        }
        let mut out = [[0.0f32; 32]; 4];
        let [wx, wy] = &weight;
        for c in 0..4 {
            for l in 0..32 {
                let bottom = mix(corners[0][c][l], corners[1][c][l], wx[l]);
                let top = mix(corners[2][c][l], corners[3][c][l], wx[l]);
                out[c][l] = mix(bottom, top, wy[l]);
            }
        }
        let mut nan = 0u32;
        for row in &out {
            for (l, v) in row.iter().enumerate() {
                nan |= u32::from(v.is_nan()) << l;
            }
        }
        nan &= lanes;
        while nan != 0 {
            let l = nan.trailing_zeros() as usize;
            nan &= nan - 1;
            let st = [f32::from_bits(s[l]), f32::from_bits(t[l])];
            let rgba = self.sample(st, offsets[l]);
            for c in 0..4 {
                out[c][l] = rgba[c];
            }
        }
        out
    }

    /// Lane `l`'s two wrapped taps per axis (`None`: the border).
    #[inline(always)]
    fn taps(
        &self,
        first: &[[i64; 32]; 2],
        offsets: &[[i32; 2]; 32],
        l: usize,
    ) -> [[Option<u32>; 2]; 2] {
        let tap = |axis: usize, n: u32| {
            let i0 = first[axis][l].saturating_add(i64::from(offsets[l][axis]));
            let mode = self.wrap[axis];
            [wrap(i0, n, mode), wrap(i0.saturating_add(1), n, mode)]
        };
        [tap(0, self.width), tap(1, self.height)]
    }
}

/// Decodes RGBA8 words held in `rows[0]` (as f32 bits) into the four components, each
/// `byte / 255` (the division `UNORM8` is computed with, correctly rounded either way).
#[inline(always)]
fn decode_rgba8(rows: &mut [Row; 4]) {
    let words = rows[0].map(f32::to_bits);
    for (c, row) in rows.iter_mut().enumerate() {
        for l in 0..32 {
            row[l] = ((words[l] >> (8 * c)) & 0xff) as f32 / 255.0;
        }
    }
}

/// `a * (1 - t) + b * t`: `lerp4`'s arithmetic on one component.
#[inline(always)]
fn mix(a: f32, b: f32, t: f32) -> f32 {
    a * (1.0 - t) + b * t
}
