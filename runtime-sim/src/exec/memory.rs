//! Memory instructions: device loads and stores, threadgroup memory, the per-thread stack and
//! `uniform_store`.
//!
//! - `device_load`/`device_store` (docs/g13.md): address = base + (offset << (log2(element bytes) +
//!   shift)), rounded down to the element size; element `j` of the mask is at
//!   address + j * element bytes, and the registers are consecutive (gaps in the mask skip
//!   memory, not registers). Bit-packed formats read or write one aligned word at
//!   base + offset * 4 and ignore shift and mask. Every byte must lie in one device allocation.
//!   A load's registers are written at issue and marked pending on its wait slot; reading or
//!   writing them before `wait slot` is an error. Stores from fragment helper threads and
//!   discarded pixels are dropped; threads store in lane order.
//! - Threadgroup memory: see `crate::decode::memory` for the operands; accesses must lie inside
//!   the program's declared threadgroup memory. Loads complete at once (no wait needed).
//! - The stack: each thread has `stack_size` bytes; `stack_load`/`stack_store` access byte
//!   sp + O (+ j * element bytes for element `j` of the mask), where O is a byte offset;
//!   `stack_get_ptr` reads sp, `stack_adjust` adds to it (sp must stay within 0..=stack_size).
//!   Loads complete at once.
//! - `uniform_store` (document: stores R to uniform offset O, in 16-bit units): the value and a
//!   register offset come from the lowest active thread; element `j` of the mask goes to 16-bit
//!   uniform O + j (format i16) or to the 32-bit uniform at half index O + 2j (format i32). The
//!   uniform registers are shared by the whole dispatch.

use std::ops::Range;

use super::operand::Lanes;
use super::{Machine, SimdGroup};
use crate::decode::inst::{
    Decoded, Inst, MemFormat, MemIndex, Reg, RegRange, Src, TgBase, TgIndex,
};
use crate::error::ExecErrorKind;
use crate::formats::{load_element, load_packed, pack_word, packed_components, store_element};

type Result<T> = std::result::Result<T, ExecErrorKind>;

/// The values of a register run, `values[k][lane]` for its `k`th register: a run has at most
/// four registers (one per bit of a 4-bit mask, or per component of a packed format), so the
/// memory instructions need no heap allocation per execution.
pub(super) type RunValues = [Lanes<u32>; RegRange::MAX_COUNT as usize];

/// The bytes a threadgroup or stack access reads and writes.
enum ByteMemory<'a> {
    /// The workgroup's threadgroup memory.
    Threadgroup(&'a mut [u8]),
    /// The SIMD-group's per-thread stacks (`SimdGroup::stack`).
    Stack,
}

/// `(register index, element index)` of each element selected by a 4-bit mask.
fn elements(mask: u8) -> impl Iterator<Item = (usize, u32)> {
    (0..4u32).filter(move |j| mask >> j & 1 == 1).enumerate()
}

/// Little-endian read of up to 4 bytes.
fn get_le(bytes: &[u8]) -> u32 {
    bytes
        .iter()
        .rev()
        .fold(0u32, |acc, &b| acc << 8 | u32::from(b))
}

fn put_le(bytes: &mut [u8], v: u32) {
    for (i, b) in bytes.iter_mut().enumerate() {
        *b = (v >> (8 * i)) as u8;
    }
}

impl Machine<'_> {
    // Out of line, like the other rarer families: see `Machine::step`.
    #[inline(never)]
    pub(super) fn memory_op(
        &mut self,
        g: &mut SimdGroup,
        d: &Decoded,
        tg: &mut [u8],
    ) -> Result<()> {
        match d.inst {
            Inst::Device {
                store,
                regs,
                base,
                offset,
                format,
                mask,
                shift,
                slot,
            } => self.device(g, d, store, regs, &base, &offset, format, mask, shift, slot),
            Inst::Threadgroup {
                store,
                regs,
                base,
                offset,
                format,
                mask,
            } => self.threadgroup(g, tg, store, regs, base, offset, format, mask),
            Inst::Stack {
                store,
                regs,
                offset,
                format,
                mask,
            } => self.stack(g, store, regs, &offset, format, mask),
            Inst::StackGetPtr { reg } => {
                let lanes = g.exec;
                g.regs.prepare_write(Reg::R32(reg), lanes)?;
                g.regs.set32(reg, &[g.sp; 32], lanes);
                Ok(())
            }
            Inst::StackAdjust { amount } => {
                let size = self.program.metadata().stack_size;
                let sp = i64::from(g.sp) + i64::from(amount);
                if sp < 0 || sp > i64::from(size) {
                    return Err(ExecErrorKind::StackFault {
                        thread: g.exec.trailing_zeros().min(31),
                        access: "adjust",
                        offset: sp,
                        len: 0,
                        size,
                    });
                }
                g.sp = sp as u32;
                Ok(())
            }
            Inst::UniformStore {
                regs,
                offset,
                mask,
                format,
            } => self.uniform_store(g, regs, &offset, mask, format),
            _ => unreachable!("invariant: memory_op receives memory instructions"),
        }
    }

    /// Per-lane byte offsets of a `MemoryIndex`.
    pub(super) fn mem_index(&self, g: &SimdGroup, o: &MemIndex, lanes: u32) -> Result<Lanes<i64>> {
        Ok(match *o {
            MemIndex::Imm(v) => [i64::from(v); 32],
            MemIndex::Reg { reg, unsigned } => {
                g.regs.check_read(Reg::R32(reg), lanes)?;
                let v = &g.regs.r[usize::from(reg)];
                std::array::from_fn(|l| {
                    if unsigned {
                        i64::from(v[l])
                    } else {
                        i64::from(v[l] as i32)
                    }
                })
            }
        })
    }

    /// Reads the registers of a run for `lanes`: `values[k][lane]`.
    pub(super) fn read_run(g: &SimdGroup, regs: RegRange, lanes: u32) -> Result<RunValues> {
        let mut values: RunValues = Default::default();
        for (k, v) in values.iter_mut().enumerate().take(usize::from(regs.count)) {
            let reg = regs.nth(k as u32);
            g.regs.check_read(reg, lanes)?;
            *v = g.regs.read32(reg);
        }
        Ok(values)
    }

    /// Writes a run's registers for `lanes` from `values[k][lane]`.
    pub(super) fn write_run(
        g: &mut SimdGroup,
        regs: RegRange,
        values: &RunValues,
        lanes: u32,
    ) -> Result<()> {
        for (k, v) in values.iter().enumerate().take(usize::from(regs.count)) {
            let reg = regs.nth(k as u32);
            g.regs.prepare_write(reg, lanes)?;
            g.regs.store32(reg, v, lanes);
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn device(
        &mut self,
        g: &mut SimdGroup,
        d: &Decoded,
        store: bool,
        regs: RegRange,
        base: &Src,
        offset: &MemIndex,
        format: MemFormat,
        mask: u8,
        shift: u8,
        slot: u8,
    ) -> Result<()> {
        let lanes = g.exec;
        let bases = self.read64(g, base, false, lanes)?;
        let offsets = self.mem_index(g, offset, lanes)?;
        let reg32 = regs.is_32();
        let size = format.element_bytes();
        let packed = format.is_bit_packed();
        let scale = if packed {
            2
        } else {
            size.trailing_zeros() + u32::from(shift)
        };
        let address = |l: usize| -> u64 {
            let a = bases[l].wrapping_add((offsets[l] << scale) as u64);
            a & !(u64::from(size) - 1)
        };
        let fault = |l: usize, a: u64, len: u32| ExecErrorKind::DeviceFault {
            thread: l as u32,
            access: if store { "store" } else { "load" },
            address: a,
            len,
        };
        if store {
            let values = Self::read_run(g, regs, lanes)?;
            let writers = lanes & !g.helper & !g.discarded;
            for l in (0..32).filter(|l| writers >> l & 1 == 1) {
                let a = address(l);
                if packed {
                    let lane_values: [u32; 4] = std::array::from_fn(|k| values[k][l]);
                    let count = usize::from(regs.count);
                    let w = pack_word(format, packed_components(&lane_values[..count], reg32));
                    let at = self.memory.allocation(a, 4).ok_or_else(|| fault(l, a, 4))?;
                    at.store(a, 4, w);
                    continue;
                }
                for (k, j) in elements(mask) {
                    let ea = a.wrapping_add(u64::from(j * size));
                    let bits = store_element(format, values[k][l], j, reg32);
                    let at = self
                        .memory
                        .allocation(ea, u64::from(size))
                        .ok_or_else(|| fault(l, ea, size))?;
                    at.store(ea, size, bits);
                }
            }
            return Ok(());
        }
        let mut values: RunValues = Default::default();
        for l in (0..32).filter(|l| lanes >> l & 1 == 1) {
            let a = address(l);
            if packed {
                let at = self.memory.allocation(a, 4).ok_or_else(|| fault(l, a, 4))?;
                let comps = load_packed(format, at.load(a, 4), reg32);
                for (k, v) in values.iter_mut().enumerate() {
                    v[l] = comps[k];
                }
                continue;
            }
            for (k, j) in elements(mask) {
                let ea = a.wrapping_add(u64::from(j * size));
                let at = self
                    .memory
                    .allocation(ea, u64::from(size))
                    .ok_or_else(|| fault(l, ea, size))?;
                values[k][l] = load_element(format, at.load(ea, size), j, reg32);
            }
        }
        Self::write_run(g, regs, &values, lanes)?;
        for k in 0..u32::from(regs.count) {
            g.regs.set_pending(regs.nth(k), slot, d.pc);
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn threadgroup(
        &mut self,
        g: &mut SimdGroup,
        tg: &mut [u8],
        store: bool,
        regs: RegRange,
        base: TgBase,
        offset: TgIndex,
        format: MemFormat,
        mask: u8,
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
        let size = format.element_bytes();
        let tg_size = tg.len() as u32;
        let access = if store { "store" } else { "load" };
        let span = |l: usize, j: u32| -> Result<Range<usize>> {
            let at = bases[l] + (index[l] << size.trailing_zeros()) + i64::from(j * size);
            if at < 0 || at + i64::from(size) > i64::from(tg_size) {
                return Err(ExecErrorKind::ThreadgroupFault {
                    thread: l as u32,
                    access,
                    offset: at,
                    len: size,
                    size: tg_size,
                });
            }
            Ok(at as usize..at as usize + size as usize)
        };
        let memory = ByteMemory::Threadgroup(tg);
        Self::access_bytes(g, memory, store, regs, format, mask, span)
    }

    fn stack(
        &mut self,
        g: &mut SimdGroup,
        store: bool,
        regs: RegRange,
        offset: &MemIndex,
        format: MemFormat,
        mask: u8,
    ) -> Result<()> {
        let lanes = g.exec;
        let offsets = self.mem_index(g, offset, lanes)?;
        let stack_size = self.program.metadata().stack_size;
        let size = format.element_bytes();
        let sp = i64::from(g.sp);
        let access = if store { "store" } else { "load" };
        let span = |l: usize, j: u32| -> Result<Range<usize>> {
            let at = sp + offsets[l] + i64::from(j * size);
            if at < 0 || at + i64::from(size) > i64::from(stack_size) {
                return Err(ExecErrorKind::StackFault {
                    thread: l as u32,
                    access,
                    offset: at,
                    len: size,
                    size: stack_size,
                });
            }
            let start = l * stack_size as usize + at as usize;
            Ok(start..start + size as usize)
        };
        Self::access_bytes(g, ByteMemory::Stack, store, regs, format, mask, span)
    }

    /// The element loop of threadgroup and stack loads and stores: element `j` of the mask of
    /// lane `l` occupies bytes `span(l, j)` of `memory` (which `span` has checked). Loads
    /// complete at once.
    fn access_bytes(
        g: &mut SimdGroup,
        memory: ByteMemory<'_>,
        store: bool,
        regs: RegRange,
        format: MemFormat,
        mask: u8,
        span: impl Fn(usize, u32) -> Result<Range<usize>>,
    ) -> Result<()> {
        let lanes = g.exec;
        let reg32 = regs.is_32();
        let stored = if store {
            Some(Self::read_run(g, regs, lanes)?)
        } else {
            None
        };
        let mut loaded: RunValues = Default::default();
        let bytes: &mut [u8] = match memory {
            ByteMemory::Threadgroup(tg) => tg,
            ByteMemory::Stack => &mut g.stack,
        };
        for l in (0..32).filter(|l| lanes >> l & 1 == 1) {
            for (k, j) in elements(mask) {
                let range = span(l, j)?;
                match &stored {
                    Some(values) => put_le(
                        &mut bytes[range],
                        store_element(format, values[k][l], j, reg32),
                    ),
                    None => loaded[k][l] = load_element(format, get_le(&bytes[range]), j, reg32),
                }
            }
        }
        if store {
            return Ok(());
        }
        Self::write_run(g, regs, &loaded, lanes)
    }

    fn uniform_store(
        &mut self,
        g: &mut SimdGroup,
        regs: RegRange,
        offset: &MemIndex,
        mask: u8,
        format: MemFormat,
    ) -> Result<()> {
        let lanes = g.exec;
        if lanes == 0 {
            return Ok(());
        }
        let first = lanes.trailing_zeros() as usize;
        let lane_mask = 1u32 << first;
        let base = self.mem_index(g, offset, lane_mask)?[first];
        let values = Self::read_run(g, regs, lane_mask)?;
        for (k, j) in elements(mask) {
            let v = values[k][first];
            let (index, halves, value) = if format == MemFormat::I32 {
                (base + 2 * i64::from(j), 2, v)
            } else {
                (base + i64::from(j), 1, v & 0xffff)
            };
            if index < 0 || index + halves > 512 {
                return Err(ExecErrorKind::UniformOutOfRange {
                    index: index.max(0) as u32,
                });
            }
            for h in 0..halves {
                let half = (index + h) as usize;
                let word = &mut self.uniforms[half / 2];
                let shift = 16 * (half % 2) as u32;
                let part = (value >> (16 * h as u32)) & 0xffff;
                *word = (*word & !(0xffff << shift)) | (part << shift);
            }
        }
        Ok(())
    }
}
