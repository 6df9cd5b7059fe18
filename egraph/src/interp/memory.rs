//! Loads, stores, atomics and buffer-size queries.
//!
//! An access reads or writes consecutive, tightly packed little-endian scalars starting at
//! `offset operand (signed i32) + constant offset`; a `bool` occupies 4 bytes (0 or 1 when
//! stored, any non-zero value reads as true). Each scalar must lie inside the memory and be
//! aligned to its size, or the run stops with an error naming the instruction. Lanes access
//! memory in ascending lane order within one instruction (so of several lanes storing to one
//! address, the highest lane's value remains); helper lanes do not store, except to their own
//! private memory (`private` space: `func.private_bytes` per lane; undefined until stored in
//! the IR, zeroed here).
//!
//! Atomics run the same way, one lane's whole read-modify-write after another in ascending lane
//! order, which makes them sequentially consistent and the results deterministic; helper lanes
//! skip them (their result is the word's current value, and nothing is written), as they skip
//! stores.

use super::error::{space_name, InterpError};
use super::exec::Machine;
use super::lanes::Mask;
use super::resources::{BufferKind, ResourcesRef};
use crate::ir::{AddressSpace, AtomicOp, Binding, Const, Inst, MemAccess, Type};

/// Lane `lane`'s private memory within all lanes' `private`, `per_lane` bytes each.
fn lane_private(private: &[u8], per_lane: u32, lane: usize) -> std::ops::Range<usize> {
    let n = per_lane as usize;
    (lane * n).min(private.len())..((lane + 1) * n).min(private.len())
}

/// Finds the bytes an access reads (for private memory, lane `lane`'s).
fn readable<'m>(
    resources: &'m ResourcesRef<'_>,
    (shared, constant, private): (&'m [u8], &'m [u8], &'m [u8]),
    (private_bytes, lane): (u32, usize),
    inst: Inst,
    space: AddressSpace,
) -> Result<&'m [u8], InterpError> {
    let res = resources.get();
    match space {
        AddressSpace::Private => Ok(&private[lane_private(private, private_bytes, lane)]),
        AddressSpace::Storage(b) => buffer(res.buffer(b), inst, b, BufferKind::Storage),
        AddressSpace::Uniform(b) => buffer(res.buffer(b), inst, b, BufferKind::Uniform),
        AddressSpace::PushConstant => Ok(res.push_constants()),
        AddressSpace::Workgroup => Ok(shared),
        AddressSpace::Constant => Ok(constant),
    }
}

fn buffer(
    found: Option<&super::resources::Buffer>,
    inst: Inst,
    binding: Binding,
    kind: BufferKind,
) -> Result<&[u8], InterpError> {
    match found {
        Some(b) if b.kind == kind => Ok(&b.data),
        _ => Err(InterpError::MissingBuffer {
            inst,
            binding,
            kind: kind_name(kind),
        }),
    }
}

fn kind_name(kind: BufferKind) -> &'static str {
    match kind {
        BufferKind::Storage => "storage",
        BufferKind::Uniform => "uniform",
    }
}

/// Checks that `size` bytes at `offset` lie inside `len` bytes and are aligned to `size`.
fn check_range(
    inst: Inst,
    space: AddressSpace,
    offset: i64,
    size: u32,
    len: usize,
) -> Result<usize, InterpError> {
    if offset < 0 || offset + size as i64 > len as i64 {
        return Err(InterpError::OutOfBounds {
            inst,
            space: space_name(space),
            offset,
            size,
            len,
        });
    }
    if offset % size as i64 != 0 {
        return Err(InterpError::Misaligned {
            inst,
            space: space_name(space),
            offset,
            size,
        });
    }
    Ok(offset as usize)
}

fn read_scalar(bytes: &[u8], at: usize, ty: Type) -> Const {
    let mut raw = [0u8; 8];
    let n = ty.bytes() as usize;
    raw[..n].copy_from_slice(&bytes[at..at + n]);
    let bits = u64::from_le_bytes(raw);
    match ty {
        Type::Bool => Const::bool(bits != 0),
        _ => Const::from_bits(ty, bits),
    }
}

fn write_scalar(bytes: &mut [u8], at: usize, c: Const) {
    let n = c.ty().bytes() as usize;
    bytes[at..at + n].copy_from_slice(&c.bits().to_le_bytes()[..n]);
}

impl Machine<'_> {
    /// The lane's first byte address: the offset operand (sign-extended) plus the constant.
    fn address(&self, inst: Inst, access: MemAccess, lane: usize) -> Result<i64, InterpError> {
        let Some(&offset) = self.func.insts[inst].args.first() else {
            return Err(self.malformed(inst, "a memory access takes an offset operand"));
        };
        Ok(self.vals.get(inst, offset, lane)?.as_i64() + access.offset as i64)
    }

    fn require_shared_memory(&self, inst: Inst, access: MemAccess) -> Result<(), InterpError> {
        if access.space == AddressSpace::Workgroup && self.env.name() != "compute" {
            return Err(InterpError::NotInStage {
                inst,
                what: "shared memory",
                stage: self.env.name(),
            });
        }
        Ok(())
    }

    pub(crate) fn exec_load(
        &mut self,
        inst: Inst,
        access: MemAccess,
        mask: &Mask,
    ) -> Result<(), InterpError> {
        self.require_shared_memory(inst, access)?;
        let func = self.func;
        let results = &func.insts[inst].results;
        for lane in mask.lanes() {
            let mut at = self.address(inst, access, lane)?;
            let mem = readable(
                &self.resources,
                (&self.shared, &func.constant_data, &self.private),
                (func.private_bytes, lane),
                inst,
                access.space,
            )?;
            for &r in results {
                let ty = func.value_type(r);
                let start = check_range(inst, access.space, at, ty.bytes(), mem.len())?;
                let c = read_scalar(mem, start, ty);
                at += ty.bytes() as i64;
                self.vals.set(r, lane, c);
            }
        }
        Ok(())
    }

    pub(crate) fn exec_store(
        &mut self,
        inst: Inst,
        access: MemAccess,
        mask: &Mask,
    ) -> Result<(), InterpError> {
        self.require_shared_memory(inst, access)?;
        let func = self.func;
        let values = func.insts[inst].args.get(1..).unwrap_or(&[]);
        let read_only = || InterpError::ReadOnlyStore {
            inst,
            space: space_name(access.space),
        };
        // Resolve the target once, so a bad binding is reported even when every lane is a
        // helper.
        match access.space {
            AddressSpace::Storage(b) => {
                let res = self.resources.get_mut().ok_or_else(read_only)?;
                buffer(res.buffer(b), inst, b, BufferKind::Storage)?;
            }
            AddressSpace::Workgroup | AddressSpace::Private => {}
            AddressSpace::Uniform(_) | AddressSpace::PushConstant | AddressSpace::Constant => {
                return Err(read_only())
            }
        }
        for lane in mask.lanes() {
            // A helper lane's private memory is its own: it stores there so that what it
            // computes from it (and the derivatives the visible lanes take of that) stays right.
            if self.helper.get(lane) && access.space != AddressSpace::Private {
                continue;
            }
            let mut at = self.address(inst, access, lane)?;
            for &v in values {
                // A bool's bits are 0 or 1 and it occupies 4 bytes: the stored word is 0 or 1.
                let c = self.vals.get(inst, v, lane)?;
                let mem: &mut [u8] = match access.space {
                    AddressSpace::Storage(b) => {
                        match self.resources.get_mut().and_then(|r| r.buffer_mut(b)) {
                            Some(buf) => &mut buf.data,
                            None => return Err(read_only()),
                        }
                    }
                    AddressSpace::Private => {
                        let range = lane_private(&self.private, func.private_bytes, lane);
                        &mut self.private[range]
                    }
                    _ => &mut self.shared,
                };
                let start = check_range(inst, access.space, at, c.ty().bytes(), mem.len())?;
                write_scalar(mem, start, c);
                at += c.ty().bytes() as i64;
            }
        }
        Ok(())
    }

    pub(crate) fn exec_atomic(
        &mut self,
        inst: Inst,
        op: AtomicOp,
        access: MemAccess,
        mask: &Mask,
    ) -> Result<(), InterpError> {
        self.require_shared_memory(inst, access)?;
        let func = self.func;
        let data = &func.insts[inst];
        let ([_, values @ ..], [result]) = (&data.args[..], &data.results[..]) else {
            return Err(self.malformed(inst, "an atomic takes an offset and has one result"));
        };
        if values.len() != op.value_operands() {
            return Err(self.malformed(inst, "wrong number of atomic value operands"));
        }
        let read_only = || InterpError::ReadOnlyStore {
            inst,
            space: space_name(access.space),
        };
        if let AddressSpace::Storage(b) = access.space {
            let res = self.resources.get_mut().ok_or_else(read_only)?;
            buffer(res.buffer(b), inst, b, BufferKind::Storage)?;
        } else if access.space != AddressSpace::Workgroup {
            return Err(read_only());
        }
        for lane in mask.lanes() {
            let at = self.address(inst, access, lane)?;
            let mut operands = [0u32; 2];
            for (slot, &v) in operands.iter_mut().zip(values) {
                *slot = self.vals.get(inst, v, lane)?.bits() as u32;
            }
            let helper = self.helper.get(lane);
            let mem: &mut [u8] = match access.space {
                AddressSpace::Storage(b) => {
                    match self.resources.get_mut().and_then(|r| r.buffer_mut(b)) {
                        Some(buf) => &mut buf.data,
                        None => return Err(read_only()),
                    }
                }
                _ => &mut self.shared,
            };
            let start = check_range(inst, access.space, at, 4, mem.len())?;
            let old = read_scalar(mem, start, Type::I32);
            if !helper {
                let new = op.apply(old.bits() as u32, &operands[..values.len()]);
                write_scalar(mem, start, Const::i32(new as i32));
            }
            self.vals.set(*result, lane, old);
        }
        Ok(())
    }

    pub(crate) fn exec_buffer_size(
        &mut self,
        inst: Inst,
        binding: Binding,
        mask: &Mask,
    ) -> Result<(), InterpError> {
        let res = self.resources.get();
        let len = buffer(res.buffer(binding), inst, binding, BufferKind::Storage)?.len();
        let size = Const::i32(i32::try_from(len).unwrap_or(i32::MAX));
        let [r] = self.func.insts[inst].results[..] else {
            return Err(self.malformed(inst, "buffer_size has one result"));
        };
        for lane in mask.lanes() {
            self.vals.set(r, lane, size);
        }
        Ok(())
    }
}
