//! Fragment input and output: `ld_var` (interpolated varyings), `ld_tile`/`st_tile` (render
//! target values) and `sample_mask` (discard).
//!
//! - `ld_var` (document: `TODO()`): varying slot `index` is the runtime's
//!   [`crate::config::Varying`] number `index`; component `j` of `mask` (x, y, z, w) is its plane
//!   `j`, evaluated at the pixel centre as f32 operations in this order:
//!   `(base + ddx * (x + 0.5)) + ddy * (y + 0.5)` (flat slots: `base`). The values go to
//!   consecutive destination registers, f32 for 32-bit ones, f16 (rounded to nearest even) for
//!   16-bit ones. The `perspective` bit is accepted and ignored: the runtime supplies
//!   screen-space planes.
//! - `st_tile` (document: `TODO()`): component `j` of `mask` of render target `rt` of every active,
//!   non-helper, non-discarded thread's pixel gets the next register: 32-bit registers hold f32
//!   bits, 16-bit ones f16. Format `i32` stores the value as is, `f16` rounds it to f16 precision,
//!   `unorm8` clamps it to [0, 1] and quantises it to 8 bits. `ld_tile` reads the pixel back
//!   (helper threads read the clear colour) in the same register forms.
//! - `sample_mask` (not in the document; Mesa's discard): for each active thread, if bit 0 of
//!   the target operand `T` is set and bit 0 of the mask operand `S` is clear, the pixel is
//!   discarded: it keeps the clear colour whatever the thread stored before or stores after.

use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

use super::operand::Lanes;
use super::{Machine, SimdGroup};
use crate::config::Varying;
use crate::decode::inst::{Decoded, Inst, MemFormat};
use crate::error::ExecErrorKind;
use crate::float::{f16_source, f64_to_f16};
use crate::formats::{float_to_reg, store_element};

/// A render target being shaded: RGBA f32, row-major, `(x, y)` at `y * width + x`.
#[derive(Debug, Clone, PartialEq)]
pub struct RenderTarget {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// The clear colour, and the colour of every discarded pixel.
    pub clear: [f32; 4],
    /// The pixels.
    pub pixels: Vec<[f32; 4]>,
}

impl RenderTarget {
    /// A target filled with `clear`.
    pub fn new(width: u32, height: u32, clear: [f32; 4]) -> Self {
        RenderTarget {
            width,
            height,
            clear,
            pixels: vec![clear; width as usize * height as usize],
        }
    }
}

/// A render target while it is being shaded: four relaxed atomic words per pixel (RGBA f32
/// bits), so that the workers of a parallel draw write their own pixels through a shared
/// reference (see `crate::memory` for why atomics).
pub(crate) struct SharedTarget {
    clear: [f32; 4],
    words: Box<[AtomicU32]>,
}

impl SharedTarget {
    /// A target of `pixels` pixels filled with `clear`.
    pub fn new(pixels: usize, clear: [f32; 4]) -> Self {
        let words = (0..4 * pixels)
            .map(|i| AtomicU32::new(clear[i % 4].to_bits()))
            .collect();
        SharedTarget { clear, words }
    }

    /// Component `j` of pixel `p`.
    fn get(&self, p: usize, j: usize) -> f32 {
        f32::from_bits(self.words[4 * p + j].load(Relaxed))
    }

    /// Sets component `j` of pixel `p`.
    fn set(&self, p: usize, j: usize, v: f32) {
        self.words[4 * p + j].store(v.to_bits(), Relaxed);
    }

    /// The finished target.
    pub fn finish(self, width: u32, height: u32) -> RenderTarget {
        let pixels = self
            .words
            .chunks_exact(4)
            .map(|px| std::array::from_fn(|j| f32::from_bits(px[j].load(Relaxed))))
            .collect();
        RenderTarget {
            width,
            height,
            clear: self.clear,
            pixels,
        }
    }
}

/// The fragment dispatch's shared state.
pub(crate) struct FragmentState {
    pub varyings: Vec<Varying>,
    pub targets: Vec<SharedTarget>,
    pub width: u32,
    pub height: u32,
}

impl Machine<'_> {
    // Out of line, like the other rarer families: see `Machine::step`.
    #[inline(never)]
    pub(super) fn fragment_op(
        &mut self,
        g: &mut SimdGroup,
        d: &Decoded,
    ) -> Result<(), ExecErrorKind> {
        let stage = self.stage().name();
        let Some(fs) = self.fragment else {
            return Err(ExecErrorKind::WrongStage {
                opcode: d.opcode,
                stage,
            });
        };
        let lanes = g.exec;
        let xs = g.ids.global[0];
        let ys = g.ids.global[1];
        match d.inst {
            Inst::LdVar {
                regs, index, mask, ..
            } => {
                let slot =
                    fs.varyings
                        .get(usize::from(index))
                        .ok_or(ExecErrorKind::MissingVarying {
                            slot: u32::from(index),
                            supplied: fs.varyings.len() as u32,
                        })?;
                let reg32 = regs.is_32();
                for (k, j) in (0..4).filter(|j| mask >> j & 1 == 1).enumerate() {
                    let plane = slot.planes[j];
                    let v: Lanes<u32> = std::array::from_fn(|l| {
                        if slot.flat && reg32 {
                            // Flat shading copies the provoking vertex's word, whatever its
                            // bits mean (an integer, a signalling NaN): no float conversion.
                            return plane.base.to_bits();
                        }
                        let value = if slot.flat {
                            plane.base
                        } else {
                            (plane.base + plane.ddx * (xs[l] as f32 + 0.5))
                                + plane.ddy * (ys[l] as f32 + 0.5)
                        };
                        float_to_reg(f64::from(value), reg32)
                    });
                    let reg = regs.nth(k as u32);
                    g.regs.prepare_write(reg, lanes)?;
                    g.regs.store32(reg, &v, lanes);
                }
                Ok(())
            }
            Inst::Tile {
                load,
                regs,
                rt,
                mask,
                format,
            } => {
                let supplied = fs.targets.len() as u32;
                let width = fs.width;
                let height = fs.height;
                let target =
                    fs.targets
                        .get(usize::from(rt))
                        .ok_or(ExecErrorKind::MissingRenderTarget {
                            opcode: d.opcode,
                            rt: u32::from(rt),
                            supplied,
                        })?;
                let reg32 = regs.is_32();
                let pixel = |l: usize| -> Option<usize> {
                    (xs[l] < width && ys[l] < height)
                        .then(|| ys[l] as usize * width as usize + xs[l] as usize)
                };
                if load {
                    for (k, j) in (0..4).filter(|j| mask >> j & 1 == 1).enumerate() {
                        let v: Lanes<u32> = std::array::from_fn(|l| {
                            let value = pixel(l).map_or(target.clear[j], |p| target.get(p, j));
                            float_to_reg(f64::from(value), reg32)
                        });
                        let reg = regs.nth(k as u32);
                        g.regs.prepare_write(reg, lanes)?;
                        g.regs.store32(reg, &v, lanes);
                    }
                    return Ok(());
                }
                let values = Self::read_run(g, regs, lanes)?;
                let writers = lanes & !g.helper & !g.discarded;
                for l in (0..32).filter(|l| writers >> l & 1 == 1) {
                    let Some(p) = pixel(l) else { continue };
                    for (k, j) in (0..4).filter(|j| mask >> j & 1 == 1).enumerate() {
                        let raw = values[k][l];
                        let value = if reg32 {
                            f32::from_bits(raw)
                        } else {
                            f16_source(raw as u16)
                        };
                        let stored = match format {
                            MemFormat::F16 => f16_source(f64_to_f16(f64::from(value), true)),
                            MemFormat::U8Norm => {
                                let q = store_element(MemFormat::U8Norm, value.to_bits(), 0, true);
                                q as f32 / 255.0
                            }
                            _ => value,
                        };
                        target.set(p, j, stored);
                    }
                }
                Ok(())
            }
            Inst::SampleMask { target, mask } => {
                let t = self.read32(g, &target, lanes)?;
                let s = self.read32(g, &mask, lanes)?;
                for l in (0..32).filter(|l| lanes >> l & 1 == 1) {
                    if t[l] & 1 == 1 && s[l] & 1 == 0 && g.discarded >> l & 1 == 0 {
                        g.discarded |= 1 << l;
                        if xs[l] < fs.width && ys[l] < fs.height {
                            let p = ys[l] as usize * fs.width as usize + xs[l] as usize;
                            for target in &fs.targets {
                                for j in 0..4 {
                                    target.set(p, j, target.clear[j]);
                                }
                            }
                        }
                    }
                }
                Ok(())
            }
            _ => unreachable!("invariant: fragment_op receives fragment instructions"),
        }
    }
}
