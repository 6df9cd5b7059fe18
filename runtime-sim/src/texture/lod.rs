//! Level-of-detail: the LOD modes of `texture_sample` (docs/g13.md, "texture_sample /
//! texture_load"), quad derivatives, and the LOD and level selection rules of the Vulkan
//! specification ("Scale Factor Operation, LOD Operation and Image Level(s) Selection").

use super::sampler::{MipFilter, SamplerDescriptor};

/// Derivatives of the sample coordinates (s, t, r, or the cube direction) with respect to screen
/// x (`dx`) and y (`dy`). Components the texture lacks are ignored.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Derivatives {
    /// d(coords)/dx.
    pub dx: [f32; 3],
    /// d(coords)/dy.
    pub dy: [f32; 3],
}

/// Where the LOD comes from (the hardware's LOD mode field, less where the operand lives).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Lod {
    /// Implicit LOD from the lane's quad derivatives (mode 0); see [`quad_derivatives`].
    Auto(Derivatives),
    /// Implicit LOD plus a shader bias (modes 1, 5, and 9, 13 with a minimum LOD).
    Bias {
        /// The lane's quad derivatives.
        derivatives: Derivatives,
        /// The shader's bias, added to the LOD.
        bias: f32,
    },
    /// Explicit LOD (modes 2, 6).
    Explicit(f32),
    /// Shader-supplied gradients (modes 4, and 12 with a minimum LOD).
    Gradient(Derivatives),
}

/// A LOD mode with an optional shader minimum LOD, which raises the sampler's lower clamp.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LodRequest {
    /// The LOD source.
    pub lod: Lod,
    /// Shader minimum LOD clamp, if the mode has one.
    pub min_lod: Option<f32>,
}

impl LodRequest {
    /// Implicit LOD from quad derivatives.
    pub fn auto(derivatives: Derivatives) -> Self {
        Self::from(Lod::Auto(derivatives))
    }

    /// Implicit LOD plus `bias`.
    pub fn bias(derivatives: Derivatives, bias: f32) -> Self {
        Self::from(Lod::Bias { derivatives, bias })
    }

    /// Explicit LOD.
    pub fn explicit(lod: f32) -> Self {
        Self::from(Lod::Explicit(lod))
    }

    /// LOD from shader gradients.
    pub fn gradient(derivatives: Derivatives) -> Self {
        Self::from(Lod::Gradient(derivatives))
    }

    /// The same request with a shader minimum LOD.
    pub fn with_min_lod(self, min_lod: f32) -> Self {
        LodRequest {
            min_lod: Some(min_lod),
            ..self
        }
    }

    /// The derivatives the LOD is computed from; `None` for explicit LOD.
    pub fn derivatives(&self) -> Option<&Derivatives> {
        match &self.lod {
            Lod::Auto(d) | Lod::Gradient(d) | Lod::Bias { derivatives: d, .. } => Some(d),
            Lod::Explicit(_) => None,
        }
    }

    fn shader_bias(&self) -> f32 {
        match self.lod {
            Lod::Bias { bias, .. } => bias,
            _ => 0.0,
        }
    }
}

impl From<Lod> for LodRequest {
    fn from(lod: Lod) -> Self {
        LodRequest { lod, min_lod: None }
    }
}

/// Fine derivatives of each lane of a 2x2 quad, given the lanes' coordinates in quad order
/// (x, y), (x+1, y), (x, y+1), (x+1, y+1): `dx` is the right lane minus the left lane of the
/// lane's own row, `dy` the bottom lane minus the top lane of its own column.
pub fn quad_derivatives(quad: &[[f32; 3]; 4]) -> [Derivatives; 4] {
    let diff = |a: usize, b: usize| -> [f32; 3] {
        let mut d = [0.0; 3];
        for (c, out) in d.iter_mut().enumerate() {
            *out = quad[b][c] - quad[a][c];
        }
        d
    };
    let dx_top = diff(0, 1);
    let dx_bottom = diff(2, 3);
    let dy_left = diff(0, 2);
    let dy_right = diff(1, 3);
    [
        Derivatives {
            dx: dx_top,
            dy: dy_left,
        },
        Derivatives {
            dx: dx_top,
            dy: dy_right,
        },
        Derivatives {
            dx: dx_bottom,
            dy: dy_left,
        },
        Derivatives {
            dx: dx_bottom,
            dy: dy_right,
        },
    ]
}

/// The clamped LOD `lambda` for a request, given the derivatives of the normalised coordinates
/// (already projected onto the face for cube maps) and the level-0 extent.
pub(crate) fn lambda(
    sampler: &SamplerDescriptor,
    request: &LodRequest,
    normalised: Option<&Derivatives>,
    extent: [u32; 3],
    axes: usize,
) -> f32 {
    let base = match (request.lod, normalised) {
        (Lod::Explicit(lod), _) => lod,
        (_, Some(d)) => lambda_base(d, extent, axes),
        // A derivative-based mode always carries derivatives; treat their absence as zero.
        (_, None) => f32::NEG_INFINITY,
    };
    let biased = base + sampler.lod_bias + request.shader_bias();
    // `max`/`min` rather than `clamp`: a NaN LOD or shader minimum falls to the lower bound, and a
    // lower bound above `max_lod` yields `max_lod`, where `clamp` would panic.
    let lower = match request.min_lod {
        Some(min) => sampler.min_lod.max(min),
        None => sampler.min_lod,
    };
    biased.max(lower).min(sampler.max_lod)
}

/// `log2(max(rho_x, rho_y))` over the texture's axes, in texel units at level 0.
fn lambda_base(d: &Derivatives, extent: [u32; 3], axes: usize) -> f32 {
    let rho = |v: &[f32; 3]| -> f32 {
        let mut sum = 0.0f32;
        for (component, &e) in v.iter().zip(extent.iter()).take(axes) {
            let texels = component * e as f32;
            sum += texels * texels;
        }
        sum.sqrt()
    };
    rho(&d.dx).max(rho(&d.dy)).log2()
}

/// Which level(s) a sample reads.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum LevelChoice {
    /// One level.
    One(u32),
    /// `lerp(sample(lo), sample(hi), delta)`, `0 < delta < 1`.
    Blend { lo: u32, hi: u32, delta: f32 },
}

/// Level selection for the clamped `lambda` and a texture of `levels` levels.
pub(crate) fn select_levels(mip: MipFilter, lambda: f32, levels: u32) -> LevelChoice {
    let q = levels.saturating_sub(1);
    match mip {
        MipFilter::None => LevelChoice::One(0),
        MipFilter::Nearest => {
            if lambda <= 0.5 {
                LevelChoice::One(0)
            } else {
                // Saturating float-to-int conversion: +inf lands on q.
                LevelChoice::One((((lambda + 0.5).ceil() - 1.0) as u32).min(q))
            }
        }
        MipFilter::Linear => {
            let floor = lambda.floor();
            let lo = (floor.max(0.0) as u32).min(q);
            let hi = (lo + 1).min(q);
            let delta = if lambda < 0.0 || lo == q {
                0.0
            } else {
                lambda - floor
            };
            if delta == 0.0 || lo == hi {
                LevelChoice::One(lo)
            } else {
                LevelChoice::Blend { lo, hi, delta }
            }
        }
    }
}
