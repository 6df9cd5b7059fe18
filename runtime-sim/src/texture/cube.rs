//! Cube map face selection and projection (Vulkan specification, "Cube Map Face Selection and
//! Transformations"), with derivatives carried through the quotient rule for implicit and
//! gradient LOD.

use super::lod::Derivatives;

/// A direction projected onto its cube face.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct CubeProjection {
    /// Face index in layout order: +X, -X, +Y, -Y, +Z, -Z.
    pub face: u32,
    /// Normalised face coordinates (s, t, 0).
    pub st: [f32; 3],
    /// Derivatives of (s, t, 0), when the direction's derivatives were given.
    pub derivatives: Option<Derivatives>,
}

/// The major-axis face: Z if |rz| is largest (ties go to Z), else Y if |ry| >= |rx|, else X; the
/// sign of that component picks the face, ±0 counting as positive.
pub(crate) fn face_of(r: [f32; 3]) -> u32 {
    let [ax, ay, az] = r.map(f32::abs);
    let (axis, component) = if az >= ax && az >= ay {
        (2, r[2])
    } else if ay >= ax {
        (1, r[1])
    } else {
        (0, r[0])
    };
    2 * axis + u32::from(component < 0.0)
}

/// `(sc, tc, ma)` of vector `v` on `face`; linear in `v`, so it maps derivatives too.
fn face_axes(face: u32, v: [f32; 3]) -> [f32; 3] {
    let [x, y, z] = v;
    match face {
        0 => [-z, -y, x],
        1 => [z, -y, x],
        2 => [x, z, y],
        3 => [x, -z, y],
        4 => [x, -y, z],
        _ => [-x, -y, z],
    }
}

/// Projects direction `r` (and its derivatives, each lane using its own face).
pub(crate) fn project(r: [f32; 3], derivatives: Option<&Derivatives>) -> CubeProjection {
    let face = face_of(r);
    let [sc, tc, ma] = face_axes(face, r);
    let abs_ma = ma.abs();
    let s = 0.5 * sc / abs_ma + 0.5;
    let t = 0.5 * tc / abs_ma + 0.5;
    // d|ma| = sign(ma) * dma, and the face's sign is the sign of ma (positive for ±0).
    let negative_face = face % 2 == 1;
    let ma_squared = ma * ma;
    let project_derivative = |dv: [f32; 3]| -> [f32; 3] {
        let [dsc, dtc, dma] = face_axes(face, dv);
        let d_abs_ma = if negative_face { -dma } else { dma };
        [
            0.5 * (dsc * abs_ma - sc * d_abs_ma) / ma_squared,
            0.5 * (dtc * abs_ma - tc * d_abs_ma) / ma_squared,
            0.0,
        ]
    };
    CubeProjection {
        face,
        st: [s, t, 0.0],
        derivatives: derivatives.map(|d| Derivatives {
            dx: project_derivative(d.dx),
            dy: project_derivative(d.dy),
        }),
    }
}
