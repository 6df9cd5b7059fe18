//! Fragment runs: a `width` x `height` grid shaded in 2x2 quads.
//!
//! The grid models one primitive covering every pixel, with `w = 1` (so perspective and linear
//! interpolation coincide). Each varying component is affine in the pixel position: at the centre
//! of pixel `(x, y)` (row 0 at the top) it is `base + ddx * (x + 0.5) + ddy * (y + 0.5)`, computed
//! in f64 and rounded once to the input's type; `flat` inputs read `base`. Derivatives of
//! varyings are therefore `ddx`/`ddy` up to that rounding. Odd sizes are padded with helper
//! lanes to complete the quads; their outputs are dropped.

use super::error::InterpError;
use super::exec::Machine;
use super::limits::Limits;
use super::quad::QuadGrid;
use super::resources::{Resources, ResourcesRef};
use super::stage::StageEnv;
use super::stats::Stats;
use crate::ir::{Const, EffectOp, Function, Op, OutputSlot, Stage, Type};
use std::collections::BTreeMap;

/// One varying location: four components, each affine in the pixel position.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Varying {
    /// Value at the pixel-space origin (the top-left corner of the grid).
    pub base: [f32; 4],
    /// Change per pixel to the right.
    pub ddx: [f32; 4],
    /// Change per pixel downwards.
    pub ddy: [f32; 4],
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
        Varying { base, ddx, ddy }
    }

    /// Component `c` at the centre of pixel `(x, y)`, exactly (f64 holds the products and sums of
    /// f32 values and small integers without rounding in practice; it is rounded once by the
    /// reader).
    pub fn at(&self, c: usize, x: usize, y: usize) -> f64 {
        self.base[c] as f64
            + self.ddx[c] as f64 * (x as f64 + 0.5)
            + self.ddy[c] as f64 * (y as f64 + 0.5)
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
