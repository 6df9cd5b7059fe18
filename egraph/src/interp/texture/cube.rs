//! Cube-map face selection and face coordinates (Vulkan, "Cube Map Face Selection and
//! Transformations", rule 1 of the interpreter's texture docs).
//!
//! The major axis picks the face: `|rz|` if it is at least `|rx|` and `|ry|`, else `|ry|` if it
//! is at least `|rx|`, else `|rx|`. The face is negative only when that component is `< 0.0`:
//! -0.0 and NaN pick the positive face, as the simulator's texture unit does
//! (`runtime-sim/src/texture/cube.rs`; Vulkan leaves NaN directions undefined, so the two models
//! only have to agree). There is no seamless filtering across faces: each face is
//! addressed with clamp-to-edge on its own.

/// A selected face: its index in the layout order (+X, -X, +Y, -Y, +Z, -Z) and which direction
/// components, with which signs, give `sc`, `tc` and `ma`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Face {
    pub index: u32,
    s: (usize, f32),
    t: (usize, f32),
    m: usize,
}

const X: usize = 0;
const Y: usize = 1;
const Z: usize = 2;

/// The face a direction points at.
pub(crate) fn select_face(r: [f32; 3]) -> Face {
    let [ax, ay, az] = r.map(f32::abs);
    let (index, s, t, m) = if az >= ax && az >= ay {
        if r[Z] < 0.0 {
            (5, (X, -1.0), (Y, -1.0), Z)
        } else {
            (4, (X, 1.0), (Y, -1.0), Z)
        }
    } else if ay >= ax {
        if r[Y] < 0.0 {
            (3, (X, 1.0), (Z, -1.0), Y)
        } else {
            (2, (X, 1.0), (Z, 1.0), Y)
        }
    } else if r[X] < 0.0 {
        (1, (Z, 1.0), (Y, -1.0), X)
    } else {
        (0, (Z, -1.0), (Y, -1.0), X)
    };
    Face { index, s, t, m }
}

impl Face {
    fn sc_tc_ma(&self, r: [f32; 3]) -> (f32, f32, f32) {
        (self.s.1 * r[self.s.0], self.t.1 * r[self.t.0], r[self.m])
    }

    /// Face coordinates in [0, 1]: `s = 0.5 * sc / |ma| + 0.5`, likewise `t`.
    pub fn st(&self, r: [f32; 3]) -> [f32; 2] {
        let (sc, tc, ma) = self.sc_tc_ma(r);
        [0.5 * sc / ma.abs() + 0.5, 0.5 * tc / ma.abs() + 0.5]
    }

    /// Derivatives of `(s, t)` given the direction `r` and its derivative `dr`, by the quotient
    /// rule on this face: `ds = 0.5 * (dsc * |ma| - sc * d|ma|) / ma^2`.
    pub fn st_derivative(&self, r: [f32; 3], dr: [f32; 3]) -> [f32; 2] {
        let (sc, tc, ma) = self.sc_tc_ma(r);
        let (dsc, dtc, dma) = self.sc_tc_ma(dr);
        let abs_ma = ma.abs();
        let d_abs_ma = if ma < 0.0 { -dma } else { dma };
        let ma2 = ma * ma;
        [
            0.5 * (dsc * abs_ma - sc * d_abs_ma) / ma2,
            0.5 * (dtc * abs_ma - tc * d_abs_ma) / ma2,
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faces_follow_the_major_axis() {
        assert_eq!(select_face([1.0, 0.2, -0.3]).index, 0);
        assert_eq!(select_face([-1.0, 0.2, -0.3]).index, 1);
        assert_eq!(select_face([0.1, 2.0, -0.3]).index, 2);
        assert_eq!(select_face([0.1, -2.0, -0.3]).index, 3);
        assert_eq!(select_face([0.1, 0.2, 3.0]).index, 4);
        assert_eq!(select_face([0.1, 0.2, -3.0]).index, 5);
        // A NaN major axis (every comparison with it false) is +X, whatever its sign bit.
        assert_eq!(select_face([-f32::NAN, 0.2, -0.3]).index, 0);
        assert_eq!(select_face([-0.0, 0.0, 0.0]).index, 4);
        // Ties go to Z, then Y.
        assert_eq!(select_face([1.0, 1.0, 1.0]).index, 4);
        assert_eq!(select_face([1.0, -1.0, 0.0]).index, 3);
    }

    #[test]
    fn face_coordinates_per_the_table() {
        // +X: sc = -rz, tc = -ry: (rx, ry, rz) = (2, 1, -1) -> s = 0.5 * 1 / 2 + 0.5 = 0.75,
        // t = 0.5 * -1 / 2 + 0.5 = 0.25.
        let r = [2.0, 1.0, -1.0];
        assert_eq!(select_face(r).st(r), [0.75, 0.25]);
        // -Y: sc = rx, tc = -rz: (0.5, -2, 1) -> s = 0.625, t = 0.25.
        let r = [0.5, -2.0, 1.0];
        assert_eq!(select_face(r).st(r), [0.625, 0.25]);
        // -Z: sc = -rx, tc = -ry: (1, 0, -4) -> s = 0.375, t = 0.5.
        let r = [1.0, 0.0, -4.0];
        assert_eq!(select_face(r).st(r), [0.375, 0.5]);
    }

    #[test]
    fn quotient_rule() {
        // +Z face, r = (x, 0, 2): s = x / 4 + 0.5, so ds/dx = dx / 4 when only rx moves.
        let r = [1.0, 0.0, 2.0];
        assert_eq!(
            select_face(r).st_derivative(r, [0.5, 0.0, 0.0]),
            [0.125, 0.0]
        );
        // Moving rz: s = 0.5 * 1 / rz + 0.5, ds = -0.5 * drz / rz^2 = -0.5 * 1 / 4.
        assert_eq!(
            select_face(r).st_derivative(r, [0.0, 0.0, 1.0]),
            [-0.125, 0.0]
        );
    }
}
