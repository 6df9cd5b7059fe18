//! `EXPECT` checks against the buffers after a run. Values compare in the buffer's own type:
//! an expected value is first rounded to it (so `EQ 3.7` on a `float` buffer means the float
//! nearest 3.7), integers compare exactly, floats exactly unless a `TOLERANCE` is given
//! (absolute, or `%` of the expected value). Image probes compare channels in the format's
//! units (0..=255 for UNORM channels).

use std::collections::HashMap;

use super::exec::Buffer;
use super::format::Value;
use super::parse::{Check, Cmp, Expect, Tolerance};

fn within(actual: f64, expected: f64, tol: Option<Tolerance>) -> bool {
    match tol {
        None => actual == expected,
        Some(t) => {
            let room = if t.percent {
                expected.abs() * t.value / 100.0
            } else {
                t.value
            };
            (actual - expected).abs() <= room
        }
    }
}

fn buffer<'a>(buffers: &'a HashMap<String, Buffer>, name: &str) -> Result<&'a Buffer, String> {
    buffers
        .get(name)
        .ok_or_else(|| format!("no buffer `{name}`"))
}

/// Every component of a buffer, in value order, with its byte offset.
fn components(buf: &Buffer) -> Vec<(u64, Value)> {
    let stride = buf.ty.stride();
    if stride == 0 {
        return Vec::new();
    }
    let elems = buf.data.len() as u64 / stride;
    (0..elems)
        .flat_map(|e| buf.ty.offsets(e).collect::<Vec<_>>())
        .filter(|&o| o + buf.ty.comp.bytes() <= buf.data.len() as u64)
        .map(|o| (o, buf.ty.comp.decode(&buf.data[o as usize..])))
        .collect()
}

/// Checks one expectation; the error says what differs.
pub fn check(e: &Expect, buffers: &HashMap<String, Buffer>) -> Result<(), String> {
    let buf = buffer(buffers, &e.buffer)?;
    match &e.check {
        Check::Values {
            offset,
            cmp,
            values,
            tolerance,
        } => {
            let comps = components(buf);
            let Some(start) = comps.iter().position(|(o, _)| o == offset) else {
                return Err(format!(
                    "IDX {offset} is not the start of a component of `{}` ({} bytes)",
                    e.buffer,
                    buf.data.len()
                ));
            };
            if start + values.len() > comps.len() {
                return Err(format!(
                    "`{}` has {} components from IDX {offset}, the line expects {}",
                    e.buffer,
                    comps.len() - start,
                    values.len()
                ));
            }
            for (i, text) in values.iter().enumerate() {
                let (at, actual) = comps[start + i];
                let expected = buf.ty.comp.expected(text)?;
                let tol = (!tolerance.is_empty()).then(|| tolerance[i % tolerance.len()]);
                let ok = match (actual, expected, cmp) {
                    (Value::Int(a), Value::Int(x), _) if tol.is_none() => match cmp {
                        Cmp::Eq => a == x,
                        Cmp::Ne => a != x,
                        Cmp::Lt => a < x,
                        Cmp::Le => a <= x,
                        Cmp::Gt => a > x,
                        Cmp::Ge => a >= x,
                    },
                    _ => {
                        let (a, x) = (actual.as_f64(), expected.as_f64());
                        match cmp {
                            Cmp::Eq => within(a, x, tol),
                            Cmp::Ne => a != x,
                            Cmp::Lt => a < x,
                            Cmp::Le => a <= x,
                            Cmp::Gt => a > x,
                            Cmp::Ge => a >= x,
                        }
                    }
                };
                if !ok {
                    return Err(format!(
                        "value {i} (byte {at}) is {actual}, expected {cmp:?} {expected}"
                    ));
                }
            }
            Ok(())
        }
        Check::Rect {
            pos,
            size,
            rgba,
            tolerance,
        } => {
            let Some([w, h]) = buf.image else {
                return Err(format!("`{}` is not a colour attachment", e.buffer));
            };
            let (x1, y1) = (
                u64::from(pos[0]) + u64::from(size[0]),
                u64::from(pos[1]) + u64::from(size[1]),
            );
            if x1 > u64::from(w) || y1 > u64::from(h) {
                return Err(format!(
                    "the rectangle ({}, {}) size {}x{} is outside the {w}x{h} framebuffer",
                    pos[0], pos[1], size[0], size[1]
                ));
            }
            if (buf.data.len() as u64) < u64::from(w) * u64::from(h) * buf.ty.stride() {
                return Err(format!("`{}` no longer holds a {w}x{h} image", e.buffer));
            }
            let letters = buf.ty.channels.as_deref().unwrap_or("RGBA");
            let stride = buf.ty.stride() as usize;
            let cb = buf.ty.comp.bytes() as usize;
            for y in pos[1]..pos[1] + size[1] {
                for x in pos[0]..pos[0] + size[0] {
                    let base = (y as usize * w as usize + x as usize) * stride;
                    let mut px = [0.0f64; 4];
                    for (i, c) in letters.chars().enumerate() {
                        let v = buf.ty.comp.decode(&buf.data[base + i * cb..]).as_f64();
                        px["RGBA".find(c).unwrap_or(0)] = v;
                    }
                    let bad = rgba.iter().enumerate().any(|(i, &x)| {
                        let tol = (!tolerance.is_empty()).then(|| tolerance[i % tolerance.len()]);
                        !within(px[i], x, tol)
                    });
                    if bad {
                        let got: Vec<String> =
                            px[..rgba.len()].iter().map(|v| v.to_string()).collect();
                        return Err(format!("pixel ({x}, {y}) is ({})", got.join(", ")));
                    }
                }
            }
            Ok(())
        }
        Check::EqBuffer(other) => {
            let b = buffer(buffers, other)?;
            let (ca, cb) = (components(buf), components(b));
            if ca.len() != cb.len() {
                return Err(format!(
                    "`{}` has {} components, `{other}` {}",
                    e.buffer,
                    ca.len(),
                    cb.len()
                ));
            }
            for (i, ((_, a), (_, x))) in ca.iter().zip(&cb).enumerate() {
                let same = match (a, x) {
                    (Value::Int(a), Value::Int(x)) => a == x,
                    _ => a.as_f64() == x.as_f64(),
                };
                if !same {
                    return Err(format!("value {i} is {a}, `{other}` has {x}"));
                }
            }
            Ok(())
        }
        Check::RmseBuffer(other, tol) => {
            let b = buffer(buffers, other)?;
            let (ca, cb) = (components(buf), components(b));
            if ca.len() != cb.len() || ca.is_empty() {
                return Err(format!(
                    "`{}` has {} components, `{other}` {}",
                    e.buffer,
                    ca.len(),
                    cb.len()
                ));
            }
            let sum: f64 = ca
                .iter()
                .zip(&cb)
                .map(|((_, a), (_, x))| (a.as_f64() - x.as_f64()).powi(2))
                .sum();
            let rmse = (sum / ca.len() as f64).sqrt();
            if rmse > *tol {
                return Err(format!("root mean square error {rmse} is over {tol}"));
            }
            Ok(())
        }
    }
}
