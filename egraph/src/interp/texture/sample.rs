//! Filtered sampling of one lane's request (rules 1 to 9 of the interpreter's texture docs).
//!
//! Coordinates arrive normalized (already divided by the projector). Texel space at level `d`
//! is `u = s * width_d` (likewise `v`, `w`). Nearest filtering reads texel `floor(u)`; linear
//! filtering reads `floor(u - 0.5)` and the next texel with weight `frac(u - 0.5)`, combining
//! with `lerp(a, b, t) = a * (1 - t) + b * t` in f32, u first, then v, then w. Constant offsets
//! are added to the integer texel coordinates before wrapping. Shadow samples compare each
//! fetched texel's red component with the reference before filtering.

use super::cube::{select_face, Face};
use super::lod::{choose_levels, lambda, lambda_base, Levels, LodInput};
use super::{CompareOp, Filter, Sampler, Texture, Wrap};
use crate::ir::TexDim;

/// One lane's sample.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Request {
    /// Normalized coordinates (s, t, r), or the cube direction; unused axes 0.
    pub coords: [f32; 3],
    /// Array layer (unrounded).
    pub layer: f32,
    /// LOD source. Derivatives are of `coords` (for cube maps, of the direction).
    pub lod: LodInput,
    /// Shader bias (0 when none).
    pub bias: f32,
    /// Shader minimum LOD.
    pub min_lod: Option<f32>,
    /// Comparison reference of a shadow sample.
    pub dref: Option<f32>,
    /// Constant texel offset.
    pub offset: [i8; 3],
}

/// Samples `tex` with `sampler`: RGBA, or for shadow samples the filtered comparison result in
/// the red component.
pub(crate) fn sample(tex: &Texture, sampler: &Sampler, req: &Request) -> [f32; 4] {
    let desc = tex.desc();
    let dim = desc.target.dim;
    let [w0, h0, d0] = desc.level_extent(0).map(|e| e as f32);
    let layer = req
        .layer
        .round_ties_even()
        .max(0.0)
        .min((desc.layers - 1) as f32) as u32;

    // Normalized coordinates on the texture (the face, for cube maps) and the LOD source in
    // texel units of level 0.
    let (coords, face, lod_input) = match dim {
        TexDim::Cube => {
            let face: Face = select_face(req.coords);
            let [s, t] = face.st(req.coords);
            let lod = match req.lod {
                LodInput::Derivatives { dx, dy } => {
                    let [dsx, dtx] = face.st_derivative(req.coords, dx);
                    let [dsy, dty] = face.st_derivative(req.coords, dy);
                    LodInput::Derivatives {
                        dx: [dsx * w0, dtx * h0, 0.0],
                        dy: [dsy * w0, dty * h0, 0.0],
                    }
                }
                explicit => explicit,
            };
            ([s, t, 0.0], face.index, lod)
        }
        _ => {
            let axes = dim.coords();
            let scale = [w0, h0, d0];
            let texel_units = |d: [f32; 3]| -> [f32; 3] {
                core::array::from_fn(|i| if i < axes { d[i] * scale[i] } else { 0.0 })
            };
            let lod = match req.lod {
                LodInput::Derivatives { dx, dy } => LodInput::Derivatives {
                    dx: texel_units(dx),
                    dy: texel_units(dy),
                },
                explicit => explicit,
            };
            (req.coords, 0, lod)
        }
    };
    let slice = if dim == TexDim::Cube {
        layer * 6 + face
    } else {
        layer
    };

    let lambda = lambda(lambda_base(lod_input), sampler, req.bias, req.min_lod);
    let filter = if lambda <= 0.0 {
        sampler.mag_filter
    } else {
        sampler.min_filter
    };
    let compare = sampler.compare.zip(req.dref);
    let at = |level: u32| {
        let addr = Addressing {
            tex,
            level,
            slice,
            dim,
            wrap: sampler.wrap,
            offset: req.offset,
            compare,
        };
        addr.filter(filter, coords)
    };
    match choose_levels(sampler.mip_filter, lambda, desc.levels) {
        Levels::One(level) => at(level),
        Levels::Blend { lo, hi, delta } => lerp4(at(lo), at(hi), delta),
    }
}

/// Gathers component `component` of the four texels of the bilinear footprint at level 0
/// (rule 12): `(i0, j1), (i1, j1), (i1, j0), (i0, j0)`. Only 2D and cube targets gather.
pub(crate) fn gather(tex: &Texture, sampler: &Sampler, req: &Request, component: u8) -> [f32; 4] {
    let desc = tex.desc();
    let dim = desc.target.dim;
    let layer = req
        .layer
        .round_ties_even()
        .max(0.0)
        .min((desc.layers - 1) as f32) as u32;
    let (coords, slice) = match dim {
        TexDim::Cube => {
            let face: Face = select_face(req.coords);
            let [s, t] = face.st(req.coords);
            ([s, t, 0.0], layer * 6 + face.index)
        }
        _ => (req.coords, layer),
    };
    let addr = Addressing {
        tex,
        level: 0,
        slice,
        dim,
        wrap: sampler.wrap,
        offset: req.offset,
        compare: sampler.compare.zip(req.dref),
    };
    let texels = addr.footprint(coords);
    let c = usize::from(component.min(3));
    [
        texels[0][1][c],
        texels[1][1][c],
        texels[1][0][c],
        texels[0][0][c],
    ]
}

fn lerp(a: f32, b: f32, t: f32) -> f32 {
    a * (1.0 - t) + b * t
}

fn lerp4(a: [f32; 4], b: [f32; 4], t: f32) -> [f32; 4] {
    core::array::from_fn(|i| lerp(a[i], b[i], t))
}

/// Rule 7: an integer texel coordinate wrapped into `[0, size)`, or `None` for the border.
pub(crate) fn wrap(i: i64, size: i64, mode: Wrap) -> Option<i64> {
    match mode {
        Wrap::Repeat => Some(i.rem_euclid(size)),
        Wrap::ClampToEdge => Some(i.clamp(0, size - 1)),
        Wrap::MirroredRepeat => {
            let m = i.rem_euclid(2 * size);
            Some(if m >= size { 2 * size - 1 - m } else { m })
        }
        Wrap::ClampToBorder => (0..size).contains(&i).then_some(i),
    }
}

/// Reading texels of one level and slice.
struct Addressing<'t> {
    tex: &'t Texture,
    level: u32,
    slice: u32,
    dim: TexDim,
    wrap: [Wrap; 3],
    offset: [i8; 3],
    compare: Option<(CompareOp, f32)>,
}

impl Addressing<'_> {
    /// Axes addressed by texel coordinates.
    fn axes(&self) -> usize {
        match self.dim {
            TexDim::D1 => 1,
            TexDim::D2 | TexDim::Cube => 2,
            TexDim::D3 => 3,
        }
    }

    /// The texel at unwrapped integer coordinates (offset already applied), or the border
    /// colour; with a comparison, red replaced by its result.
    fn texel(&self, i: [i64; 3]) -> [f32; 4] {
        let extent = self.tex.desc().level_extent(self.level);
        let mut at = [0u32; 3];
        for axis in 0..self.axes() {
            // Cube faces are clamped to their edges whatever the sampler says.
            let mode = if self.dim == TexDim::Cube {
                Wrap::ClampToEdge
            } else {
                self.wrap[axis]
            };
            match wrap(i[axis], extent[axis] as i64, mode) {
                Some(c) => at[axis] = c as u32,
                None => return self.compared([0.0; 4]),
            }
        }
        let t = self.tex.texel(self.level, self.slice, at[0], at[1], at[2]);
        self.compared(t)
    }

    fn compared(&self, mut t: [f32; 4]) -> [f32; 4] {
        if let Some((op, reference)) = self.compare {
            t[0] = if op.test(reference, t[0]) { 1.0 } else { 0.0 };
        }
        t
    }

    /// The 2x2 texels (indexed `[i][j]`, offsets applied) a linear filter reads around the
    /// 2D coordinates `coords`.
    fn footprint(&self, coords: [f32; 3]) -> [[[f32; 4]; 2]; 2] {
        let extent = self.tex.desc().level_extent(self.level);
        let offset = |axis: usize| {
            if self.dim == TexDim::Cube {
                0
            } else {
                self.offset[axis] as i64
            }
        };
        let i0: [i64; 2] = core::array::from_fn(|a| {
            let x = coords[a] * extent[a] as f32 - 0.5;
            (x.floor() as i64).saturating_add(offset(a))
        });
        core::array::from_fn(|di| {
            core::array::from_fn(|dj| {
                self.texel([
                    i0[0].saturating_add(di as i64),
                    i0[1].saturating_add(dj as i64),
                    0,
                ])
            })
        })
    }

    fn filter(&self, filter: Filter, coords: [f32; 3]) -> [f32; 4] {
        let extent = self.tex.desc().level_extent(self.level);
        let axes = self.axes();
        let offset = |axis: usize| {
            if self.dim == TexDim::Cube {
                0
            } else {
                self.offset[axis] as i64
            }
        };
        // Texel-space coordinate per axis. `as i64` saturates and maps NaN to 0, and the
        // offset and neighbour additions saturate, so absurd coordinates still address a
        // texel (or the border) instead of overflowing.
        let u: [f32; 3] = core::array::from_fn(|a| coords[a] * extent[a] as f32);
        match filter {
            Filter::Nearest => {
                let i = core::array::from_fn(|a| {
                    if a < axes {
                        (u[a].floor() as i64).saturating_add(offset(a))
                    } else {
                        0
                    }
                });
                self.texel(i)
            }
            Filter::Linear => {
                let mut i0 = [0i64; 3];
                let mut frac = [0f32; 3];
                for a in 0..axes {
                    let x = u[a] - 0.5;
                    let fl = x.floor();
                    i0[a] = (fl as i64).saturating_add(offset(a));
                    frac[a] = x - fl;
                }
                let at = |dx: i64, dy: i64, dz: i64| {
                    self.texel([
                        i0[0].saturating_add(dx),
                        i0[1].saturating_add(dy),
                        i0[2].saturating_add(dz),
                    ])
                };
                let row = |dy: i64, dz: i64| lerp4(at(0, dy, dz), at(1, dy, dz), frac[0]);
                let plane = |dz: i64| {
                    if axes >= 2 {
                        lerp4(row(0, dz), row(1, dz), frac[1])
                    } else {
                        row(0, dz)
                    }
                };
                if axes == 3 {
                    lerp4(plane(0), plane(1), frac[2])
                } else {
                    plane(0)
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_modes() {
        assert_eq!(wrap(-1, 4, Wrap::Repeat), Some(3));
        assert_eq!(wrap(9, 4, Wrap::Repeat), Some(1));
        assert_eq!(wrap(-1, 4, Wrap::ClampToEdge), Some(0));
        assert_eq!(wrap(7, 4, Wrap::ClampToEdge), Some(3));
        // Mirrored: 0 1 2 3 | 3 2 1 0 | 0 1 ...; -1 mirrors to 0.
        assert_eq!(wrap(4, 4, Wrap::MirroredRepeat), Some(3));
        assert_eq!(wrap(7, 4, Wrap::MirroredRepeat), Some(0));
        assert_eq!(wrap(8, 4, Wrap::MirroredRepeat), Some(0));
        assert_eq!(wrap(-1, 4, Wrap::MirroredRepeat), Some(0));
        assert_eq!(wrap(-5, 4, Wrap::MirroredRepeat), Some(3));
        assert_eq!(wrap(4, 4, Wrap::ClampToBorder), None);
        assert_eq!(wrap(-1, 4, Wrap::ClampToBorder), None);
        assert_eq!(wrap(2, 4, Wrap::ClampToBorder), Some(2));
    }
}
