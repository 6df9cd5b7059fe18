//! A model of texture sampling for checking the texture rules.
//!
//! A sample's result is whatever the texture holds at its coordinates and level of detail, so two
//! sample forms are equal exactly when they agree on the normalized coordinates, face, layer,
//! depth reference and LOD. The model returns those (written independently from the project's
//! texture semantics, briefs/texture-semantics.md items 1-3, in f64): `[s, t, face + r + 7 layer,
//! lambda]`, or for a depth comparison the single value `s + 3t + 5(face + r) + 7 layer + 11 dref +
//! 13 lambda`. `lambda` is the LOD before sampler bias and clamps (which both forms then apply
//! alike), after the shader's bias and minimum LOD. An implicit LOD, which comes from the quad and
//! is the same for both forms, is a fixed stand-in value.
//!
//! Projection divides the coordinates and the reference with the table's `fdiv` (the shader does
//! the same division when the projector is lowered, so that rule is exact). The texture bound at
//! every binding is 64 x 32 x 16 texels (cube maps: 32 x 32 faces), 6 layers.

use super::super::rules::texture::SampleParts;
use crate::ir::{Const, LodMode, PureOp, SampleOp, SizeOp, TexDim};

/// The stand-in for a LOD computed from quad derivatives.
pub const IMPLICIT_LAMBDA: f64 = 0.375;

/// Level-0 size of the model texture along `axis` (the last axis of an array is its layer count).
pub fn size(op: &SizeOp, level: i64, axis: usize) -> i64 {
    let dims: &[i64] = match op.target.dim {
        TexDim::D1 => &[64],
        TexDim::D2 => &[64, 32],
        TexDim::D3 => &[64, 32, 16],
        TexDim::Cube => &[32, 32],
    };
    match dims.get(axis) {
        Some(&d) => (d >> level.clamp(0, 62)).max(1),
        None => 6,
    }
}

/// Face index and (s, t) of a cube direction, per texture-semantics item 1 (a coordinate of -0
/// counts as positive).
fn cube(r: [f64; 3]) -> (usize, f64, f64, f64, f64, f64) {
    let (ax, ay, az) = (r[0].abs(), r[1].abs(), r[2].abs());
    let neg = |v: f64| v < 0.0;
    // (face, sc, tc, ma)
    let (face, sc, tc, ma) = if az >= ax && az >= ay {
        if neg(r[2]) {
            (5, -r[0], -r[1], r[2])
        } else {
            (4, r[0], -r[1], r[2])
        }
    } else if ay >= ax {
        if neg(r[1]) {
            (3, r[0], -r[2], r[1])
        } else {
            (2, r[0], r[2], r[1])
        }
    } else if neg(r[0]) {
        (1, r[2], -r[1], r[0])
    } else {
        (0, -r[2], -r[1], r[0])
    };
    let s = 0.5 * sc / ma.abs() + 0.5;
    let t = 0.5 * tc / ma.abs() + 0.5;
    (face, s, t, sc, tc, ma)
}

/// (dsc, dtc, dma) of a derivative on the face chosen for `r` (same linear map as (sc, tc, ma)).
fn cube_deriv(r: [f64; 3], d: [f64; 3]) -> (f64, f64, f64) {
    let (face, ..) = cube(r);
    match face {
        0 => (-d[2], -d[1], d[0]),
        1 => (d[2], -d[1], d[0]),
        2 => (d[0], d[2], d[1]),
        3 => (d[0], -d[2], d[1]),
        4 => (d[0], -d[1], d[2]),
        _ => (-d[0], -d[1], d[2]),
    }
}

fn rho(d: &[f64], sizes: &[f64]) -> f64 {
    d.iter()
        .zip(sizes)
        .map(|(x, s)| (x * s) * (x * s))
        .sum::<f64>()
        .sqrt()
}

/// The model's result of a sample with these operands, or `None` for an ill-formed one.
pub fn sample(op: &SampleOp, args: &[Const]) -> Option<Vec<f64>> {
    let mut p = SampleParts::split(op, args)?;
    if let Some(q) = p.proj {
        p.coords = p
            .coords
            .iter()
            .map(|&c| PureOp::Fdiv.eval(&[c, q], c.ty()))
            .collect();
        p.dref = p.dref.map(|d| PureOp::Fdiv.eval(&[d, q], d.ty()));
    }
    let c: Vec<f64> = p.coords.iter().map(|c| c.as_f64()).collect();
    let size_op = SizeOp {
        texture: op.texture,
        target: op.target,
    };
    let sizes: Vec<f64> = (0..c.len().min(3))
        .map(|i| size(&size_op, 0, i) as f64)
        .collect();
    let (s, t, r) = if op.target.dim == TexDim::Cube {
        let rr = [c[0], c[1], c[2]];
        let (face, s, t, ..) = cube(rr);
        (s, t, face as f64)
    } else {
        (
            c[0],
            c.get(1).copied().unwrap_or(0.0),
            c.get(2).copied().unwrap_or(0.0),
        )
    };
    let layer = p.layer.map_or(0.0, |l| l.as_f64());
    if let LodMode::Gather(component) = op.lod {
        // Four results whatever `shadow` says; no LOD enters.
        let dref = p.dref.map_or(0.0, |d| d.as_f64());
        return Some(vec![
            s,
            t,
            r + 7.0 * layer + 11.0 * dref,
            f64::from(component),
        ]);
    }
    let mut lambda = match op.lod {
        LodMode::Gather(_) => 0.0,
        LodMode::Implicit => IMPLICIT_LAMBDA,
        LodMode::Bias => IMPLICIT_LAMBDA + p.lod?.as_f64(),
        LodMode::Explicit => p.lod?.as_f64(),
        LodMode::Grad => {
            let dx: Vec<f64> = p.ddx.iter().map(|v| v.as_f64()).collect();
            let dy: Vec<f64> = p.ddy.iter().map(|v| v.as_f64()).collect();
            let (rx, ry) = if op.target.dim == TexDim::Cube {
                let rr = [c[0], c[1], c[2]];
                let (_, _, _, sc, tc, ma) = cube(rr);
                let texel = |d: &[f64]| {
                    let (dsc, dtc, dma) = cube_deriv(rr, [d[0], d[1], d[2]]);
                    let dabs = if ma < 0.0 { -dma } else { dma };
                    let ds = 0.5 * (dsc * ma.abs() - sc * dabs) / (ma * ma);
                    let dt = 0.5 * (dtc * ma.abs() - tc * dabs) / (ma * ma);
                    rho(&[ds, dt], &[sizes[0], sizes[0]])
                };
                (texel(&dx), texel(&dy))
            } else {
                (rho(&dx, &sizes), rho(&dy, &sizes))
            };
            rx.max(ry).log2()
        }
    };
    if let Some(m) = p.min_lod {
        lambda = lambda.max(m.as_f64());
    }
    if op.shadow {
        let dref = p.dref.map_or(0.0, |d| d.as_f64());
        Some(vec![
            s + 3.0 * t + 5.0 * r + 7.0 * layer + 11.0 * dref + 13.0 * lambda,
        ])
    } else {
        Some(vec![s, t, r + 7.0 * layer, lambda])
    }
}
