//! The fast engine's device loads and stores of 32-bit words (format `i32`, registers and mask
//! elements consecutive from the first): addresses computed for all lanes at once, the
//! allocation found once for the first lane and every lane checked against it with one
//! comparison. When a lane falls outside it the operation reports "not done" before touching
//! anything, and the reference executor runs the instruction (finding the allocation of each
//! lane, or the fault to report, in lane order).

use super::lanes::{check, get, write_r, Lanes, Result};
use super::ops::{Index32, Src32};
use crate::exec::{Machine, SimdGroup};
use crate::formats::float_to_reg;

/// Runs a device load or store; `Ok(false)` when the reference must run it instead.
#[allow(clippy::too_many_arguments)]
pub(super) fn device(
    m: &Machine<'_>,
    g: &mut SimdGroup,
    store: bool,
    first: u8,
    count: u8,
    base: u8,
    index: Index32,
    scale: u32,
    slot: u8,
    pc: u32,
) -> Result<bool> {
    let lanes = g.exec;
    let lo = m.uniforms[usize::from(base)];
    let hi = m.uniforms[(usize::from(base) + 1) & 255];
    let base = u64::from(lo) | u64::from(hi) << 32;
    let offsets: [i64; 32] = match index {
        Index32::Imm(v) => [i64::from(v); 32],
        Index32::Reg { reg, unsigned } => {
            check::<true>(&g.regs, Src32::R(reg), lanes)?;
            let v = get(&g.regs, m.uniforms, Src32::R(reg));
            let mut out = [0; 32];
            for l in 0..32 {
                out[l] = if unsigned {
                    i64::from(v[l])
                } else {
                    i64::from(v[l] as i32)
                };
            }
            out
        }
    };
    let mut address = [0u64; 32];
    for l in 0..32 {
        address[l] = base.wrapping_add((offsets[l] << scale) as u64) & !3;
    }
    let count_u = usize::from(count);
    let span = 4 * u64::from(count);
    if store {
        let mut values: [Lanes; 4] = [[0; 32]; 4];
        for (k, v) in values.iter_mut().enumerate().take(count_u) {
            let reg = Src32::R(first + k as u8);
            check::<true>(&g.regs, reg, lanes)?;
            *v = get(&g.regs, m.uniforms, reg);
        }
        let writers = lanes & !g.helper & !g.discarded;
        if writers == 0 {
            return Ok(true);
        }
        let l0 = writers.trailing_zeros() as usize;
        let Some(at) = m.memory.allocation(address[l0], span) else {
            return Ok(false);
        };
        if !(0..32).all(|l| writers >> l & 1 == 0 || at.contains(address[l], span)) {
            return Ok(false);
        }
        for l in (0..32).filter(|l| writers >> l & 1 == 1) {
            for (k, v) in values.iter().enumerate().take(count_u) {
                at.store(address[l] + 4 * k as u64, 4, v[l]);
            }
        }
        return Ok(true);
    }
    let mut values: [Lanes; 4] = [[0; 32]; 4];
    if lanes != 0 {
        let l0 = lanes.trailing_zeros() as usize;
        let Some(at) = m.memory.allocation(address[l0], span) else {
            return Ok(false);
        };
        let a0 = address[l0];
        if (0..32).all(|l| lanes >> l & 1 == 0 || address[l] == a0) {
            // Every active lane reads the same words (a uniform buffer's element, a push
            // constant block): read them once. The words are the same whichever lane reads
            // them; lanes outside the mask are not written.
            for (k, v) in values.iter_mut().enumerate().take(count_u) {
                *v = [at.load(a0 + 4 * k as u64, 4); 32];
            }
        } else {
            if !(0..32).all(|l| lanes >> l & 1 == 0 || at.contains(address[l], span)) {
                return Ok(false);
            }
            for l in (0..32).filter(|l| lanes >> l & 1 == 1) {
                for (k, v) in values.iter_mut().enumerate().take(count_u) {
                    v[l] = at.load(address[l] + 4 * k as u64, 4);
                }
            }
        }
    }
    for (k, v) in values.iter().enumerate().take(count_u) {
        write_r::<true>(&mut g.regs, first + k as u8, v, lanes)?;
    }
    for k in 0..count {
        g.regs
            .set_pending(crate::decode::inst::Reg::R32(first + k), slot, pc);
    }
    Ok(true)
}

/// `ld_var` into 32-bit registers, as `exec::fragment` computes it, with each component's
/// plane evaluated over the lanes at once; `Ok(false)` (nothing done) when there is no
/// fragment state or no such varying, for the reference to report.
pub(super) fn ld_var(
    m: &Machine<'_>,
    g: &mut SimdGroup,
    first: u8,
    index: u8,
    mask: u8,
) -> Result<bool> {
    let Some(slot) = m
        .fragment
        .and_then(|fs| fs.varyings.get(usize::from(index)))
    else {
        return Ok(false);
    };
    let lanes = g.exec;
    let xs = g.ids.global[0];
    let ys = g.ids.global[1];
    for (k, j) in (0..4).filter(|j| mask >> j & 1 == 1).enumerate() {
        let plane = slot.planes[j];
        let mut v = [0u32; 32];
        if slot.flat {
            // The provoking vertex's word, whatever its bits mean.
            v = [plane.base.to_bits(); 32];
        } else {
            for l in 0..32 {
                let value = (plane.base + plane.ddx * (xs[l] as f32 + 0.5))
                    + plane.ddy * (ys[l] as f32 + 0.5);
                v[l] = float_to_reg(f64::from(value), true);
            }
        }
        write_r::<true>(&mut g.regs, first.wrapping_add(k as u8), &v, lanes)?;
    }
    Ok(true)
}
