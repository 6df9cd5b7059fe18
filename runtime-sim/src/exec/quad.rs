//! SIMD-group and quad instructions: ballots and shuffles (the quad derivatives live with the
//! float operations).
//!
//! - `icmp_ballot`/`fcmp_ballot`: the document's pseudocode; every active thread receives the
//!   mask of active threads whose comparison holds.
//! - `icmp_quad_ballot`/`fcmp_quad_ballot` (document: `TODO()`): each active thread receives the
//!   4-bit mask of its own quad (bit `j` for lane `4k + j`), counting active threads only.
//! - `simd_shuffle`: exactly the document's pseudocode, including its quirk: for each quad, the
//!   lane index within the source quad is the OR of `B & 3` over all four threads of that quad,
//!   active or not; a thread reading index `b` gets that quad's value of quad `b >> 2`, and
//!   threads with `b >= 32` are not written. With `B` the same in every thread (a broadcast), it
//!   reads `A[b]`.
//! - `simd_shuffle_down` (document: `TODO()`): thread `t` receives `A[t + B[t]]` when
//!   `t + B[t] < 32` and keeps `A[t]` otherwise. Sources are read from inactive threads too.

use super::alu::compare;
use super::operand::{write32, Lanes};
use super::{Machine, SimdGroup};
use crate::decode::inst::{Decoded, Inst};
use crate::error::ExecErrorKind;

impl Machine<'_> {
    // Out of line, like the other rarer families: see `Machine::step`.
    #[inline(never)]
    pub(super) fn quad_op(&mut self, g: &mut SimdGroup, d: &Decoded) -> Result<(), ExecErrorKind> {
        let lanes = g.exec;
        match d.inst {
            Inst::Ballot { d: dst, cmp, quad } => {
                let bits = compare(self, g, &cmp, lanes)? & lanes;
                let r: Lanes<u32> = if quad {
                    std::array::from_fn(|l| bits >> (l & !3) & 0xF)
                } else {
                    [bits; 32]
                };
                write32(g, &dst, &r, lanes)
            }
            Inst::Shuffle { d: dst, a, b, down } => {
                // Shuffles read every thread that exists, active or not.
                let av = self.read32(g, &a, g.live)?;
                let bv = self.read32(g, &b, g.live)?;
                if down {
                    let r: Lanes<u32> = std::array::from_fn(|t| {
                        let src = t + bv[t] as usize;
                        if src < 32 {
                            av[src]
                        } else {
                            av[t]
                        }
                    });
                    write32(g, &dst, &r, lanes)
                } else {
                    let quad_values: [u32; 8] = std::array::from_fn(|q| {
                        let index = (0..4).fold(0, |acc, j| acc | (bv[4 * q + j] & 3)) as usize;
                        av[4 * q + index]
                    });
                    let written = (0..32)
                        .filter(|&t| bv[t] < 32)
                        .fold(0u32, |m, t| m | 1 << t)
                        & lanes;
                    let r: Lanes<u32> =
                        std::array::from_fn(|t| quad_values[(bv[t] as usize >> 2) & 7]);
                    write32(g, &dst, &r, written)
                }
            }
            _ => unreachable!("invariant: quad_op receives ballots and shuffles"),
        }
    }
}
