//! 2x2 quads of the fragment grid: lane numbering and the lane pairs derivatives subtract.
//!
//! The grid is padded to even width and height; lane `y * width + x` shades pixel `(x, y)`
//! (row 0 at the top) and the quad of a pixel is the aligned 2x2 square containing it.

use super::lanes::Mask;
use crate::ir::{Axis, DerivPrecision};

/// The padded fragment grid.
#[derive(Clone, Copy, Debug)]
pub(crate) struct QuadGrid {
    /// Padded width (even).
    pub width: usize,
    /// Padded height (even).
    pub height: usize,
}

impl QuadGrid {
    /// The padded grid covering `width` x `height` pixels.
    pub fn covering(width: u32, height: u32) -> QuadGrid {
        QuadGrid {
            width: (width as usize).div_ceil(2) * 2,
            height: (height as usize).div_ceil(2) * 2,
        }
    }

    /// Lanes in the padded grid (saturating: the caller rejects anything above its limit).
    pub fn lanes(&self) -> usize {
        self.width.saturating_mul(self.height)
    }

    /// The pixel a lane shades.
    pub fn xy(&self, lane: usize) -> (usize, usize) {
        (lane % self.width, lane / self.width)
    }

    fn lane(&self, x: usize, y: usize) -> usize {
        y * self.width + x
    }

    /// The lanes `(from, to)` whose values' difference `to - from` is the derivative at `lane`
    /// along `axis`, or `None` if the quad offers no pair of executing lanes.
    ///
    /// Fine derivatives use the lane's own row (`ddx`) or column (`ddy`); coarse ones the quad's
    /// top row or left column. Where the preferred pair is not both executing (a neighbour ended
    /// or took another branch: Vulkan leaves the result undefined), the quad's other row or
    /// column is used, and with no complete pair the derivative is zero.
    pub fn pair(
        &self,
        lane: usize,
        axis: Axis,
        precision: DerivPrecision,
        active: &Mask,
    ) -> Option<(usize, usize)> {
        let (x, y) = self.xy(lane);
        let (qx, qy) = (x & !1, y & !1);
        let coarse = precision == DerivPrecision::Coarse;
        // The row (for ddx) or column (for ddy) tried first, then the other one of the quad.
        let (first, second) = match axis {
            Axis::X if coarse => (qy, qy + 1),
            Axis::X => (y, y ^ 1),
            Axis::Y if coarse => (qx, qx + 1),
            Axis::Y => (x, x ^ 1),
        };
        [first, second].into_iter().find_map(|line| {
            let (a, b) = match axis {
                Axis::X => (self.lane(qx, line), self.lane(qx + 1, line)),
                Axis::Y => (self.lane(line, qy), self.lane(line, qy + 1)),
            };
            (active.get(a) && active.get(b)).then_some((a, b))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fine_and_coarse_pairs() {
        let g = QuadGrid::covering(3, 3);
        assert_eq!((g.width, g.height), (4, 4));
        let all = Mask::all(g.lanes());
        // Pixel (1, 1): fine ddx uses row 1 of its quad, coarse the top row.
        let lane = 4 + 1;
        assert_eq!(
            g.pair(lane, Axis::X, DerivPrecision::Fine, &all),
            Some((4, 5))
        );
        assert_eq!(
            g.pair(lane, Axis::X, DerivPrecision::Coarse, &all),
            Some((0, 1))
        );
        assert_eq!(
            g.pair(lane, Axis::Y, DerivPrecision::Fine, &all),
            Some((1, 5))
        );
        assert_eq!(
            g.pair(lane, Axis::Y, DerivPrecision::Coarse, &all),
            Some((0, 4))
        );
        // Pixel (3, 2) is in the quad at (2, 2).
        let lane = 2 * 4 + 3;
        assert_eq!(
            g.pair(lane, Axis::X, DerivPrecision::Default, &all),
            Some((10, 11))
        );
    }

    #[test]
    fn falls_back_to_the_other_row_then_none() {
        let g = QuadGrid::covering(2, 2);
        let mut m = Mask::all(4);
        m.set(1, false);
        // Lane 0's row lacks lane 1: the bottom row (2, 3) is used.
        assert_eq!(g.pair(0, Axis::X, DerivPrecision::Fine, &m), Some((2, 3)));
        m.set(2, false);
        assert_eq!(g.pair(0, Axis::X, DerivPrecision::Fine, &m), None);
    }
}
