//! Operand access for the fast engine: resolved sources read into 32-lane arrays through the
//! register file's hazard masks, and results written back under the execution mask.

use super::ops::{Dst32, FSrc32, Src32};
use crate::decode::inst::Reg;
use crate::error::ExecErrorKind;
use crate::regfile::RegFile;

pub(super) type Lanes = [u32; 32];
pub(super) type Result<T> = std::result::Result<T, ExecErrorKind>;

/// The lanes of `mask` as all-ones or zero words.
#[inline(always)]
pub(super) fn expand(mask: u32) -> Lanes {
    let mut out = [0; 32];
    for (l, o) in out.iter_mut().enumerate() {
        *o = 0u32.wrapping_sub((mask >> l) & 1);
    }
    out
}

/// Checks that `lanes` may read `s` (the register file's hazard masks); without `CHECK`, does
/// nothing (for runs known to be free of hazards, see `fast::straight`).
#[inline(always)]
pub(super) fn check<const CHECK: bool>(regs: &RegFile, s: Src32, lanes: u32) -> Result<()> {
    if !CHECK {
        return Ok(());
    }
    match s {
        Src32::R(r) if (regs.hazard(2 * r) | regs.hazard(2 * r + 1)) & lanes != 0 => {
            Err(read_error(regs, Reg::R32(r), lanes))
        }
        Src32::H(h) | Src32::Hs(h) if regs.hazard(h) & lanes != 0 => {
            Err(read_error(regs, Reg::Half(h), lanes))
        }
        _ => Ok(()),
    }
}

/// The values of `s` (32 bits per lane, zero- or sign-extended as resolved), without checks:
/// [`check`] first. (Checking and reading are separate so that the 128-byte arrays travel as
/// plain return values rather than inside a `Result`, whose tag would misalign them.)
#[inline(always)]
pub(super) fn get(regs: &RegFile, uniforms: &[u32; 256], s: Src32) -> Lanes {
    match s {
        Src32::R(r) => *regs.row(r),
        Src32::H(h) | Src32::Hs(h) => {
            let row = regs.row(h >> 1);
            let shift = u32::from(h & 1) * 16;
            let mut out = [0; 32];
            if matches!(s, Src32::Hs(_)) {
                for l in 0..32 {
                    out[l] = (row[l] >> shift) as u16 as i16 as i32 as u32;
                }
            } else {
                for l in 0..32 {
                    out[l] = (row[l] >> shift) & 0xffff;
                }
            }
            out
        }
        Src32::K(v) => [v; 32],
        Src32::U(i) => [uniforms[usize::from(i)]; 32],
        Src32::Uh(i) => [uniform16(uniforms, i); 32],
        Src32::Uhs(i) => [uniform16(uniforms, i) as u16 as i16 as i32 as u32; 32],
    }
}

fn uniform16(uniforms: &[u32; 256], i: u16) -> u32 {
    (uniforms[usize::from(i >> 1) & 255] >> (16 * u32::from(i & 1))) & 0xffff
}

/// The reference's error for a read that hit a hazard.
#[cold]
#[inline(never)]
fn read_error(regs: &RegFile, reg: Reg, lanes: u32) -> ExecErrorKind {
    match regs.check_read(reg, lanes) {
        Err(e) => e,
        Ok(()) => unreachable!("invariant: the hazard mask hit, so the check fails"),
    }
}

/// Flushes an f32 denormal (as bits) to a zero of its sign.
#[inline(always)]
pub(super) fn ftz(bits: u32) -> u32 {
    if bits & 0x7f80_0000 == 0 {
        bits & 0x8000_0000
    } else {
        bits
    }
}

/// The values of a float source ([`check`] its `s` first): the bits, denormals flushed, `abs`
/// and `neg` applied.
#[inline(always)]
pub(super) fn get_f(regs: &RegFile, uniforms: &[u32; 256], f: FSrc32) -> [f32; 32] {
    let bits = get(regs, uniforms, f.s);
    let mut out = [0.0; 32];
    for l in 0..32 {
        out[l] = f32::from_bits((ftz(bits[l]) & f.and) ^ f.xor);
    }
    out
}

/// Writes `v` (the low 16 bits for a half) to `d` for `lanes`; `CHECK` as for [`check`]
/// (without it the register's hazard state is left alone: it has none).
#[inline(always)]
pub(super) fn write<const CHECK: bool>(
    regs: &mut RegFile,
    d: Dst32,
    v: &Lanes,
    lanes: u32,
) -> Result<()> {
    match d {
        Dst32::R(r) => write_r::<CHECK>(regs, r, v, lanes),
        Dst32::H(h) => {
            if CHECK {
                regs.prepare_write(Reg::Half(h), lanes)?;
            }
            regs.set_half(h, v, lanes);
            Ok(())
        }
    }
}

/// Writes `v` to 32-bit register `r` for `lanes`; `CHECK` as for [`write`].
#[inline(always)]
pub(super) fn write_r<const CHECK: bool>(
    regs: &mut RegFile,
    r: u8,
    v: &Lanes,
    lanes: u32,
) -> Result<()> {
    if CHECK {
        regs.prepare_write(Reg::R32(r), lanes)?;
    }
    regs.set32(r, v, lanes);
    Ok(())
}
