//! `atomic` (device memory) and `local_atomic` (threadgroup memory): read-modify-writes of one
//! 32-bit little-endian word (operands: `crate::decode::atomic`).
//!
//! Order, which this simulator defines (the hardware's is unspecified, and any order is a valid
//! sequentially consistent one): within an instruction, the active threads run their whole
//! read-modify-write one after another in ascending lane order; across SIMD-groups and
//! workgroups, instructions run in the order the runtime runs the SIMD-groups (each until it
//! stops or reaches a barrier, in SIMD-group order, workgroups in dispatch order). The results
//! are therefore deterministic.
//!
//! A device atomic's result register is written at issue and pending on its wait slot, like a
//! `device_load`'s; a local atomic's result is ready at once. Fragment helper threads and
//! discarded pixels do not touch device memory (as stores from them are dropped); their result
//! is 0. The word's address is rounded down to a multiple of 4 and must lie in one device
//! allocation, or inside the declared threadgroup memory.

use super::operand::Lanes;
use super::{Machine, SimdGroup};
use crate::decode::inst::{AtomicOp, Decoded, Inst, Reg, RegRange, TgBase, TgIndex};
use crate::error::ExecErrorKind;

type Result<T> = std::result::Result<T, ExecErrorKind>;

/// Per-lane value operands: `[value, comparand]` (the comparand only for `cmpxchg`).
fn operands(g: &SimdGroup, value: RegRange, lanes: u32) -> Result<[Lanes<u32>; 2]> {
    let values = Machine::read_run(g, value, lanes)?;
    Ok([values[0], values[1]])
}

fn word(bytes: &[u8]) -> u32 {
    u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])
}

impl Machine<'_> {
    // Out of line, like the other rarer families: see `Machine::step`.
    #[inline(never)]
    pub(super) fn atomic_op(
        &mut self,
        g: &mut SimdGroup,
        d: &Decoded,
        tg: &mut [u8],
    ) -> Result<()> {
        let lanes = g.exec;
        let mut old: Lanes<u32> = [0; 32];
        let dst = match d.inst {
            Inst::DeviceAtomic {
                op,
                dst,
                value,
                base,
                offset,
                ..
            } => {
                let bases = self.read64(g, &base, false, lanes)?;
                let offsets = self.mem_index(g, &offset, lanes)?;
                let v = operands(g, value, lanes)?;
                let active = lanes & !g.helper & !g.discarded;
                for l in (0..32).filter(|l| active >> l & 1 == 1) {
                    let a = bases[l].wrapping_add((offsets[l] << 2) as u64) & !3;
                    let at = self
                        .memory
                        .allocation(a, 4)
                        .ok_or(ExecErrorKind::DeviceFault {
                            thread: l as u32,
                            access: "atomic",
                            address: a,
                            len: 4,
                        })?;
                    let operands = [v[0][l], v[1][l]];
                    old[l] = at.update(a, |w| op.apply(w, operands));
                }
                dst
            }
            Inst::LocalAtomic {
                op,
                dst,
                value,
                base,
                offset,
            } => {
                self.local(g, tg, op, value, base, offset, &mut old)?;
                dst
            }
            _ => unreachable!("invariant: atomic_op receives atomic instructions"),
        };
        if let Some(r) = dst {
            let reg = Reg::R32(r);
            g.regs.prepare_write(reg, lanes)?;
            g.regs.store32(reg, &old, lanes);
            if let Inst::DeviceAtomic { slot, .. } = d.inst {
                g.regs.set_pending(reg, slot, d.pc);
            }
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn local(
        &self,
        g: &SimdGroup,
        tg: &mut [u8],
        op: AtomicOp,
        value: RegRange,
        base: TgBase,
        offset: TgIndex,
        old: &mut Lanes<u32>,
    ) -> Result<()> {
        let lanes = g.exec;
        let bases: Lanes<i64> = match base {
            TgBase::Imm(v) => [i64::from(v); 32],
            TgBase::Uni16(u) => [i64::from(self.uni16(u)); 32],
            TgBase::Half(h) => {
                g.regs.check_read(Reg::Half(h), lanes)?;
                g.regs.half(h).map(i64::from)
            }
        };
        let index: Lanes<i64> = match offset {
            TgIndex::Imm(v) => [i64::from(v); 32],
            TgIndex::Half(h) => {
                g.regs.check_read(Reg::Half(h), lanes)?;
                g.regs.half(h).map(|v| i64::from(v as u16 as i16))
            }
        };
        let v = operands(g, value, lanes)?;
        let size = tg.len() as u32;
        for l in (0..32).filter(|l| lanes >> l & 1 == 1) {
            let at = (bases[l] + (index[l] << 2)) & !3;
            if at < 0 || at + 4 > i64::from(size) {
                return Err(ExecErrorKind::ThreadgroupFault {
                    thread: l as u32,
                    access: "atomic",
                    offset: at,
                    len: 4,
                    size,
                });
            }
            let bytes = &mut tg[at as usize..at as usize + 4];
            old[l] = word(bytes);
            let new = op.apply(old[l], [v[0][l], v[1][l]]);
            bytes.copy_from_slice(&new.to_le_bytes());
        }
        Ok(())
    }
}
