//! `LOAD`, `STORE`, `RESQ` and the integer atomics (`ATOMUADD`, `ATOMCAS`, ...) on buffers,
//! shared memory and constant buffers (images are `image.rs`).
//!
//! Addresses are byte offsets (`src.x` read as an integer). Channel `c` of the destination
//! (or of the stored value) is the 32-bit word at `address + 4 * c`, for the channels of the
//! write mask; each contiguous run of channels becomes one multi-value load or store.
//!
//! An atomic works on the one word at the address, as Gallium defines them (Mesa
//! `docs/gallium/tgsi.rst`, "ATOMUADD" to "ATOMIMAX": `dst_x = resource[offset]`, the operation
//! takes `src_x` of the value operands): `ATOMxxx dst, RES, address, value`, or
//! `ATOMCAS dst, RES, address, cmp, value`. The old value goes to every
//! written channel of the destination.

use super::super::{Lifter, Want};
use crate::tgsi::ast::RegFile;
use crate::tgsi::error::{Result, TgsiError};
use crate::tgsi::opcode::Opcode;
use agxc_egraph::ir::{AddressSpace, AtomicOp, EffectOp, MemAccess, Type};

/// The runs of consecutive set bits of a 4-bit mask, as (first, count).
fn runs(mask: u8) -> Vec<(u8, u8)> {
    let mut out = Vec::new();
    let mut c = 0;
    while c < 4 {
        if mask & (1 << c) == 0 {
            c += 1;
            continue;
        }
        let start = c;
        while c < 4 && mask & (1 << c) != 0 {
            c += 1;
        }
        out.push((start, c - start));
    }
    out
}

impl Lifter<'_, '_> {
    /// `ATOMUADD` ... `ATOMIMAX` and `ATOMCAS` on a `BUFFER` or `MEMORY`.
    pub(super) fn atomic_op(&mut self, op: Opcode) -> Result<()> {
        let atomic = match op {
            Opcode::ATOMUADD => AtomicOp::Add,
            Opcode::ATOMXCHG => AtomicOp::Exchange,
            Opcode::ATOMCAS => AtomicOp::CompareExchange,
            Opcode::ATOMAND => AtomicOp::And,
            Opcode::ATOMOR => AtomicOp::Or,
            Opcode::ATOMXOR => AtomicOp::Xor,
            Opcode::ATOMUMIN => AtomicOp::UMin,
            Opcode::ATOMUMAX => AtomicOp::UMax,
            Opcode::ATOMIMIN => AtomicOp::SMin,
            Opcode::ATOMIMAX => AtomicOp::SMax,
            _ => return Err(self.unsupported("this atomic operation")),
        };
        let res = self.src(0)?;
        if res.reg.index.indirect.is_some() {
            return Err(self.unsupported("an indirectly indexed resource"));
        }
        if res.reg.file == RegFile::Const {
            return Err(TgsiError::invalid(
                res.reg.pos,
                "constant buffers are read-only",
            ));
        }
        let space = self.resource(res.reg.file, res.reg.index.offset, res.reg.pos)?;
        let mut args = vec![self.fetch(1, 0, Want::I32)?];
        for k in 0..atomic.value_operands() {
            args.push(self.fetch(2 + k, 0, Want::I32)?);
        }
        let access = MemAccess { space, offset: 0 };
        let old = self
            .b
            .effect(EffectOp::Atomic(atomic, access), &args, &[Type::I32])[0];
        self.store(0, [Some(old); 4])
    }

    fn resource(
        &mut self,
        file: RegFile,
        index: i64,
        pos: crate::tgsi::error::Pos,
    ) -> Result<AddressSpace> {
        let index =
            u32::try_from(index).map_err(|_| TgsiError::invalid(pos, "negative resource index"))?;
        self.resource_space(file, index, pos)
    }

    pub(super) fn memory_op(&mut self, op: Opcode) -> Result<()> {
        let inst = self.inst();
        let resource = match op {
            Opcode::STORE => inst.dsts.first().map(|d| d.reg.file),
            _ => inst.srcs.first().map(|s| s.reg.file),
        };
        if resource == Some(RegFile::Image) {
            return self.image_op(op);
        }
        match op {
            Opcode::LOAD => {
                let res = self.src(0)?;
                if res.reg.index.indirect.is_some() {
                    return Err(self.unsupported("an indirectly indexed resource"));
                }
                let space = self.resource(res.reg.file, res.reg.index.offset, res.reg.pos)?;
                let address = self.fetch(1, 0, Want::I32)?;
                let mut out = [None; 4];
                for (first, count) in runs(self.dst_mask()) {
                    let access = MemAccess {
                        space,
                        offset: 4 * first as u32,
                    };
                    let tys = vec![Type::F32; count as usize];
                    let values = self.b.effect(EffectOp::Load(access), &[address], &tys);
                    for (k, v) in values.into_iter().enumerate() {
                        out[first as usize + k] = Some(v);
                    }
                }
                self.store(0, out)
            }
            Opcode::STORE => {
                let inst = self.inst();
                let dst = inst.dsts[0];
                if dst.reg.index.indirect.is_some() {
                    return Err(self.unsupported("an indirectly indexed resource"));
                }
                if dst.reg.file == RegFile::Const {
                    return Err(TgsiError::invalid(
                        dst.pos,
                        "constant buffers are read-only",
                    ));
                }
                let space = self.resource(dst.reg.file, dst.reg.index.offset, dst.reg.pos)?;
                let address = self.fetch(0, 0, Want::I32)?;
                for (first, count) in runs(dst.mask) {
                    let mut args = vec![address];
                    for c in first..first + count {
                        args.push(self.fetch(1, c as usize, Want::Raw)?);
                    }
                    let access = MemAccess {
                        space,
                        offset: 4 * first as u32,
                    };
                    self.b.effect(EffectOp::Store(access), &args, &[]);
                }
                Ok(())
            }
            _ => {
                // RESQ: the size of a buffer in bytes, in every written channel.
                let res = self.src(0)?;
                let space = self.resource(res.reg.file, res.reg.index.offset, res.reg.pos)?;
                let AddressSpace::Storage(binding) = space else {
                    return Err(self.unsupported("size queries of anything but a BUFFER"));
                };
                let size = self
                    .b
                    .effect(EffectOp::BufferSize(binding), &[], &[Type::I32])[0];
                self.store(0, [Some(size); 4])
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn write_mask_runs() {
        assert_eq!(super::runs(0b1011), vec![(0, 2), (3, 1)]);
        assert_eq!(super::runs(0b0110), vec![(1, 2)]);
        assert_eq!(super::runs(0), vec![]);
    }
}
