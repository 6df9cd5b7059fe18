//! Fragment runs: a `width` x `height` grid shaded in 2x2 quads.
//!
//! The grid models one primitive covering every pixel, with `w = 1` (so perspective and linear
//! interpolation coincide). Each varying component is affine in the pixel position: at the centre
//! of pixel `(x, y)` (row 0 at the top) it is `base + ddx * (x + 0.5) + ddy * (y + 0.5)`, computed
//! in f64 and rounded once to the input's type; `flat` inputs read one 32-bit word per component,
//! the provoking vertex's (see [`Varying`]). Derivatives of varyings are therefore `ddx`/`ddy` up
//! to that rounding. Odd sizes are padded with helper lanes to complete the quads; their outputs
//! are dropped.

use super::error::InterpError;
use super::exec::Machine;
use super::float_mode::FloatMode;
use super::limits::Limits;
use super::quad::QuadGrid;
use super::resources::{Resources, ResourcesRef};
use super::stage::StageEnv;
use super::stats::Stats;
use crate::ir::eval::conv::f64_to_signed;
use crate::ir::eval::round_float;
use crate::ir::{Const, EffectOp, Function, Op, OutputSlot, Stage, Type};
use std::collections::BTreeMap;

/// One varying location: four components, each affine in the pixel position or, for flat
/// inputs, a raw 32-bit word.
///
/// A component is read in one of two ways:
/// - interpolated inputs read the affine model, `base + ddx * (x + 0.5) + ddy * (y + 0.5)`,
///   rounded once to the input's type (integers convert toward zero);
/// - flat inputs read one 32-bit word, what the provoking vertex wrote under the vertex output
///   ABI: f32 bits, an i32, an i16 sign-extended, an f16 widened to f32. [`Varying::flat_word`]
///   says which word and [`flat_input`] how an input of each type reads it. The word is
///   `base`'s own bits where the component is `raw` (integer varyings beyond f32's exact
///   integers, any bit pattern), and otherwise `base` converted to the input's type as an
///   interpolated read would (so a flat `int` input given `base = 5.0` reads 5).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Varying {
    /// Value at the pixel-space origin (the top-left corner of the grid); a raw component's word
    /// as `f32::from_bits`.
    pub base: [f32; 4],
    /// Change per pixel to the right.
    pub ddx: [f32; 4],
    /// Change per pixel downwards.
    pub ddy: [f32; 4],
    /// Components whose `base` holds a raw 32-bit word for flat inputs (see the type's docs);
    /// interpolated inputs still read `base` as a number.
    pub raw: [bool; 4],
}

impl Varying {
    /// A varying with the same value at every pixel.
    pub fn constant(base: [f32; 4]) -> Varying {
        Varying {
            base,
            ..Varying::default()
        }
    }

    /// An affine varying.
    pub fn affine(base: [f32; 4], ddx: [f32; 4], ddy: [f32; 4]) -> Varying {
        Varying {
            base,
            ddx,
            ddy,
            raw: [false; 4],
        }
    }

    /// A flat varying given as raw 32-bit words (an integer, or any bit pattern, per component).
    pub fn words(words: [u32; 4]) -> Varying {
        Varying {
            base: words.map(f32::from_bits),
            raw: [true; 4],
            ..Varying::default()
        }
    }

    /// Component `c` at the centre of pixel `(x, y)`, exactly (f64 holds the products and sums of
    /// f32 values and small integers without rounding in practice; it is rounded once by the
    /// reader).
    pub fn at(&self, c: usize, x: usize, y: usize) -> f64 {
        self.base[c] as f64
            + self.ddx[c] as f64 * (x as f64 + 0.5)
            + self.ddy[c] as f64 * (y as f64 + 0.5)
    }

    /// The 32-bit word a flat input of type `ty` reads at component `c` (`c < 4`): `base`'s bits
    /// for a raw component; otherwise the word the vertex output ABI stores for `base` as a `ty`
    /// (f32 bits for floats, which f16 inputs round; the integer toward zero, saturated, for
    /// integers, 16-bit ones sign-extended).
    pub fn flat_word(&self, c: usize, ty: Type) -> u32 {
        let base = self.base[c];
        if self.raw[c] || ty.is_float() {
            return base.to_bits();
        }
        // i64 inputs have no 32-bit word; their low word is what the ABI would keep.
        f64_to_signed(f64::from(base), ty).as_i64() as u32
    }

    /// The value a flat input of type `ty` reads at component `c`: [`flat_input`] of
    /// [`Varying::flat_word`], except that a non-raw `i64` input converts `base` in full.
    pub fn flat_value(&self, c: usize, ty: Type) -> Const {
        if ty == Type::I64 && !self.raw[c] {
            return f64_to_signed(f64::from(self.base[c]), ty);
        }
        flat_input(self.flat_word(c, ty), ty)
    }
}

/// How a flat input of type `ty` reads its 32-bit word: f32 and i32 take it bit for bit, f16
/// rounds it as an f32 to nearest even (exact for an f16 widened to f32), i16 takes the low 16
/// bits, i64 sign-extends it.
pub fn flat_input(word: u32, ty: Type) -> Const {
    match ty {
        Type::F16 => round_float(Type::F16, f64::from(f32::from_bits(word))),
        Type::I64 => Const::i64(i64::from(word as i32)),
        Type::Bool => Const::bool(word != 0),
        Type::I16 | Type::I32 | Type::F32 => Const::from_bits(ty, u64::from(word)),
    }
}

/// The fragment grid and its fixed-function state.
#[derive(Clone, Debug, PartialEq)]
pub struct FragmentGrid {
    /// Pixels per row.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// Varyings by location.
    pub varyings: BTreeMap<u32, Varying>,
    /// The primitive's depth: `frag_coord.z`, and the depth written when the shader does not
    /// write `frag_depth`.
    pub depth: f32,
    /// Initial colour of every render target (kept where no fragment writes).
    pub clear: [f32; 4],
    /// Initial depth (kept where fragments are dropped).
    pub clear_depth: f32,
    /// `front_facing`.
    pub front_facing: bool,
}

impl FragmentGrid {
    /// A grid with no varyings, depth 0.5, clear colour (0, 0, 0, 0), clear depth 1, front
    /// facing.
    pub fn new(width: u32, height: u32) -> FragmentGrid {
        FragmentGrid {
            width,
            height,
            varyings: BTreeMap::new(),
            depth: 0.5,
            clear: [0.0; 4],
            clear_depth: 1.0,
            front_facing: true,
        }
    }

    /// Adds a varying at `location`.
    pub fn with_varying(mut self, location: u32, varying: Varying) -> FragmentGrid {
        self.varyings.insert(location, varying);
        self
    }

    /// Sets the clear colour.
    pub fn with_clear(mut self, clear: [f32; 4]) -> FragmentGrid {
        self.clear = clear;
        self
    }
}

/// What a fragment run produced.
#[derive(Clone, Debug, PartialEq)]
pub struct FragmentOutput {
    /// Pixels per row.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// Render targets by location: RGBA per pixel, rows top to bottom. Every location the shader
    /// has an `output` for is present, initialised to the clear colour; components a fragment
    /// does not write keep it.
    pub targets: BTreeMap<u32, Vec<[f32; 4]>>,
    /// Depth per pixel: the clear depth where the fragment was dropped, else `frag_depth` if
    /// written, else the grid's depth.
    pub depth: Vec<f32>,
    /// Pixels whose fragment was dropped (discarded or demoted).
    pub dropped: Vec<bool>,
    /// Counts.
    pub stats: Stats,
}

impl FragmentOutput {
    /// The colour of pixel `(x, y)` in render target `location`.
    pub fn pixel(&self, location: u32, x: u32, y: u32) -> Option<[f32; 4]> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let target = self.targets.get(&location)?;
        target
            .get(y as usize * self.width as usize + x as usize)
            .copied()
    }
}

/// An output value as it is stored in an RGBA f32 target: floats by value, integers as their
/// 32-bit two's-complement pattern (so integer targets round-trip exactly).
pub(crate) fn output_f32(c: Const) -> f32 {
    match c.ty() {
        Type::F32 | Type::F16 => c.as_f32(),
        _ => f32::from_bits(c.as_i64() as u32),
    }
}

/// Runs a fragment shader over `grid`. Storage buffers in `resources` are written in place.
pub fn run_fragment(
    func: &Function,
    resources: &mut Resources,
    grid: &FragmentGrid,
    limits: &Limits,
) -> Result<FragmentOutput, InterpError> {
    run_fragment_with(func, resources, grid, limits, FloatMode::Ieee)
}

/// [`run_fragment`] with pure operations and derivatives evaluated in float mode `float`.
pub fn run_fragment_with(
    func: &Function,
    resources: &mut Resources,
    grid: &FragmentGrid,
    limits: &Limits,
    float: FloatMode,
) -> Result<FragmentOutput, InterpError> {
    if func.stage != Stage::Fragment {
        return Err(InterpError::WrongStage {
            expected: "fragment",
            got: func.stage.name(),
        });
    }
    crate::ir::verify(func)?;
    let quads = QuadGrid::covering(grid.width, grid.height);
    let lanes = quads.lanes();
    if lanes > limits.max_lanes {
        return Err(InterpError::GridSize {
            width: grid.width,
            height: grid.height,
            lanes,
            limit: limits.max_lanes,
        });
    }
    let env = StageEnv::Fragment {
        grid,
        quads,
        modes: func.modes,
    };
    let mut m = Machine::new(func, limits, lanes, ResourcesRef::Mut(resources), env, 0);
    m.float = float;
    let (w, h) = (grid.width as usize, grid.height as usize);
    for lane in 0..lanes {
        let (x, y) = quads.xy(lane);
        m.helper.set(lane, x >= w || y >= h);
    }
    let padding = m.helper.count();
    m.run()?;

    let pixels = w * h;
    let mut targets = BTreeMap::new();
    func.for_each_inst(|_, inst| {
        if let Op::Effect(EffectOp::Output(OutputSlot::Location { location, .. })) =
            func.insts[inst].op
        {
            targets.insert(location, vec![grid.clear; pixels]);
        }
    });
    let mut depth = vec![grid.clear_depth; pixels];
    let mut dropped = vec![false; pixels];
    for y in 0..h {
        for x in 0..w {
            let (pixel, lane) = (y * w + x, y * quads.width + x);
            if m.discarded.get(lane) || m.helper.get(lane) {
                dropped[pixel] = true;
                continue;
            }
            depth[pixel] = grid.depth;
            for (slot, values) in &m.outputs {
                let Some(c) = values[lane] else { continue };
                match *slot {
                    OutputSlot::Location {
                        location,
                        component,
                    } => {
                        if let Some(t) = targets.get_mut(&location) {
                            t[pixel][component as usize] = output_f32(c);
                        }
                    }
                    OutputSlot::FragDepth => depth[pixel] = output_f32(c),
                    OutputSlot::Position(_) | OutputSlot::PointSize => {}
                }
            }
        }
    }
    let mut stats = m.stats;
    stats.lanes = lanes as u64;
    stats.helper_lanes = padding as u64;
    Ok(FragmentOutput {
        width: grid.width,
        height: grid.height,
        targets,
        depth,
        dropped,
        stats,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{parse_function, OpRegistry};
    use half::f16;

    /// Every 32- and 16-bit type read flat from location 0 and written out as its bits (16-bit
    /// values sign- or zero-extended by the output rule), plus component 1 read interpolated.
    const FLAT: &str = "
function @flat fragment {
block0:
    v0:i32 = input 0.x flat
    v1:f32 = input 0.y flat
    v2:i16 = input 0.z flat
    v3:f16 = input 0.w flat
    v4:f32 = input 0.y linear
    v5:f32 = fcvt v3
    output 0.x v0
    output 0.y v1
    output 0.z v2
    output 0.w v5
    output 1.x v4
    return
}
";

    fn run(grid: &FragmentGrid) -> FragmentOutput {
        let func = parse_function(FLAT, &OpRegistry::new()).expect("test IR parses");
        run_fragment(&func, &mut Resources::new(), grid, &Limits::default()).expect("runs")
    }

    #[test]
    fn raw_words_reach_flat_inputs_bit_for_bit() {
        // 0xDEADBEEF has no exact f32 integer; 0x7f800001 is a signalling NaN pattern; the i16
        // input takes the low half 0x8001 (-32767); the f16 input reads 1.5 widened to f32.
        let words = [0xDEAD_BEEF, 0x7f80_0001, 0x1234_8001, 1.5f32.to_bits()];
        let grid = FragmentGrid::new(2, 2).with_varying(0, Varying::words(words));
        let out = run(&grid);
        let p = out.pixel(0, 1, 1).expect("pixel (1, 1)");
        assert_eq!(p[0].to_bits(), 0xDEAD_BEEF);
        assert_eq!(p[1].to_bits(), 0x7f80_0001);
        assert_eq!(p[2].to_bits(), (-32767i32) as u32);
        assert_eq!(p[3], 1.5);
        // Interpolated reads take base as a number (with zero slopes, the word as an f32): the
        // signalling NaN is a NaN there.
        assert!(out.pixel(1, 0, 0).is_some_and(|q| q[0].is_nan()));
    }

    #[test]
    fn numeric_bases_convert_to_the_flat_inputs_type() {
        // base -3.7 as i32 -> -3; as f32 itself; -40000.9 as i16 saturates to -32768; 0.1 as
        // f16 rounds once to nearest (f16 0.1 = 0x2e66).
        let v = Varying::constant([-3.7, 2.5, -40000.9, 0.1]);
        assert_eq!(v.flat_word(0, Type::I32), (-3i32) as u32);
        assert_eq!(v.flat_word(2, Type::I16), (-32768i32) as u32);
        let out = run(&FragmentGrid::new(1, 1).with_varying(0, v));
        let p = out.pixel(0, 0, 0).expect("pixel (0, 0)");
        assert_eq!(p[0].to_bits(), (-3i32) as u32);
        assert_eq!(p[1], 2.5);
        assert_eq!(p[2].to_bits(), (-32768i32) as u32);
        assert_eq!(p[3], f16::from_bits(0x2e66).to_f32());
    }

    #[test]
    fn flat_input_reads_words_by_type() {
        assert_eq!(flat_input(0xffff_fffe, Type::I32), Const::i32(-2));
        assert_eq!(flat_input(0x0001_fffe, Type::I16), Const::i16(-2));
        assert_eq!(flat_input(0xffff_fffe, Type::I64), Const::i64(-2));
        // f32 0x3f800001 = 1 + 2^-23 rounds to f16 1.0; 65520 rounds to infinity.
        assert_eq!(
            flat_input(0x3f80_0001, Type::F16),
            Const::f16(f16::from_f32(1.0))
        );
        assert_eq!(
            flat_input(65520f32.to_bits(), Type::F16),
            Const::f16(f16::INFINITY)
        );
        // A raw i64 component is the word sign-extended; a numeric one converts in full.
        let mut v = Varying::constant([5e9, 0.0, 0.0, 0.0]);
        assert_eq!(v.flat_value(0, Type::I64), Const::i64(5_000_000_000));
        v.raw[0] = true;
        assert_eq!(
            v.flat_value(0, Type::I64),
            Const::i64(i64::from(5e9f32.to_bits() as i32))
        );
    }
}
