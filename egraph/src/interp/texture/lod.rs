//! Level of detail and the choice of mip levels (rules 3 to 5 of the interpreter's texture docs).
//!
//! Arithmetic is f32 (the operands are f32), except `log2`, which is computed in f64 and rounded
//! once so that it is the same on every host.

use super::{MipFilter, Sampler};

/// Where the LOD comes from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum LodInput {
    /// Screen-space derivatives of the texel-space coordinates at level 0 (`du/dx`, `dv/dx`,
    /// `dw/dx` and the same for y; unused axes are 0).
    Derivatives { dx: [f32; 3], dy: [f32; 3] },
    /// An explicit LOD.
    Explicit(f32),
}

/// `lambda_base`: `log2(max(rho_x, rho_y))` with `rho = sqrt(du^2 + dv^2 + dw^2)` (minus
/// infinity when both are 0), or the explicit LOD.
pub(crate) fn lambda_base(input: LodInput) -> f32 {
    match input {
        LodInput::Explicit(lod) => lod,
        LodInput::Derivatives { dx, dy } => {
            let rho = |d: [f32; 3]| (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
            let rho = rho(dx).max(rho(dy));
            (rho as f64).log2() as f32
        }
    }
}

/// `lambda = clamp(lambda_base + sampler bias + shader bias, max(sampler min, shader min),
/// sampler max)`; the upper clamp is applied last, so it wins if the bounds cross. A NaN LOD
/// (NaN coordinates or operands) is clamped to the lower bound, as IEEE `max` does.
pub(crate) fn lambda(base: f32, sampler: &Sampler, bias: f32, min_lod: Option<f32>) -> f32 {
    let low = match min_lod {
        Some(m) => sampler.min_lod.max(m),
        None => sampler.min_lod,
    };
    let lambda = (base + sampler.lod_bias + bias)
        .max(low)
        .min(sampler.max_lod);
    if lambda.is_nan() {
        0.0
    } else {
        lambda
    }
}

/// The level or levels a sample reads.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Levels {
    /// One level.
    One(u32),
    /// `lerp(sample(lo), sample(hi), delta)`.
    Blend { lo: u32, hi: u32, delta: f32 },
}

/// Rule 5: level selection for `levels` levels (q = levels - 1).
pub(crate) fn choose_levels(mip: MipFilter, lambda: f32, levels: u32) -> Levels {
    let q = levels.saturating_sub(1) as f32;
    match mip {
        MipFilter::None => Levels::One(0),
        MipFilter::Nearest => {
            if lambda <= 0.5 {
                Levels::One(0)
            } else {
                Levels::One(((lambda + 0.5).ceil() - 1.0).min(q) as u32)
            }
        }
        MipFilter::Linear => {
            let fl = lambda.floor();
            let lo = fl.max(0.0).min(q);
            let hi = (lo + 1.0).min(q);
            let delta = if lambda < 0.0 || lo == q {
                0.0
            } else {
                lambda - fl
            };
            if delta == 0.0 {
                Levels::One(lo as u32)
            } else {
                Levels::Blend {
                    lo: lo as u32,
                    hi: hi as u32,
                    delta,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rho_and_log2() {
        // du/dx = 4, dv/dy = 2: rho = 4, lambda = 2.
        let d = LodInput::Derivatives {
            dx: [4.0, 0.0, 0.0],
            dy: [0.0, 2.0, 0.0],
        };
        assert_eq!(lambda_base(d), 2.0);
        // 3-4-5: rho_x = 5.
        let d = LodInput::Derivatives {
            dx: [3.0, 4.0, 0.0],
            dy: [0.0, 0.0, 0.0],
        };
        assert_eq!(lambda_base(d), 5f64.log2() as f32);
        let zero = LodInput::Derivatives {
            dx: [0.0; 3],
            dy: [0.0; 3],
        };
        assert_eq!(lambda_base(zero), f32::NEG_INFINITY);
    }

    #[test]
    fn clamps_and_biases() {
        let s = Sampler {
            lod_bias: 0.5,
            min_lod: 1.0,
            max_lod: 3.0,
            ..Sampler::default()
        };
        assert_eq!(lambda(1.0, &s, 0.25, None), 1.75);
        assert_eq!(lambda(f32::NEG_INFINITY, &s, 0.0, None), 1.0);
        assert_eq!(lambda(10.0, &s, 0.0, None), 3.0);
        assert_eq!(lambda(0.0, &s, 0.0, Some(2.0)), 2.0);
        assert_eq!(lambda(f32::NAN, &s, 0.0, None), 1.0);
    }

    #[test]
    fn nearest_levels() {
        let pick = |l| choose_levels(MipFilter::Nearest, l, 4);
        assert_eq!(pick(0.5), Levels::One(0));
        assert_eq!(pick(0.6), Levels::One(1));
        assert_eq!(pick(1.5), Levels::One(1));
        assert_eq!(pick(1.6), Levels::One(2));
        assert_eq!(pick(100.0), Levels::One(3));
        assert_eq!(pick(f32::INFINITY), Levels::One(3));
    }

    #[test]
    fn linear_levels() {
        let pick = |l| choose_levels(MipFilter::Linear, l, 3);
        assert_eq!(pick(-1.0), Levels::One(0));
        assert_eq!(pick(1.0), Levels::One(1));
        assert_eq!(
            pick(0.25),
            Levels::Blend {
                lo: 0,
                hi: 1,
                delta: 0.25
            }
        );
        assert_eq!(pick(2.5), Levels::One(2));
        assert_eq!(pick(f32::INFINITY), Levels::One(2));
        assert_eq!(choose_levels(MipFilter::None, 5.0, 3), Levels::One(0));
    }
}
