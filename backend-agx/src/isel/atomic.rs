//! Atomic read-modify-writes: the IR's `atomic OP SPACE [offset]` on a storage buffer becomes
//! an `atomic` (device memory), on workgroup memory a `local_atomic`.
//!
//! Addresses are computed as for loads and stores (`memory`), with 4-byte elements: the
//! buffer's address in a uniform pair and a word index, or threadgroup byte address 0 and a
//! word index. `atomic` has no shift field, so an index that `memory` would scale through it
//! is shifted by an `iadd` first. The value is the operand's 32-bit register; `cmpxchg` takes
//! a pair of consecutive registers, the new value then the comparand (Mesa's
//! `agx_emit_atomic`, `agx_compile.c`), gathered into a fresh group. The old value is written
//! only when the IR uses it; a device atomic returns it on a wait slot like a load.

use agxc_egraph::ir::{AddressSpace, AtomicOp, MemAccess, Value};

use super::Isel;
use crate::abi::UniformContent;
use crate::error::BackendError;
use crate::isa::{
    AtomicOpc, DeviceAtomic, Instr, IntSrc, MemBase, MemOffset, RegClass, Src, TgAtomic, TgBase,
};
use crate::mir::VReg;

/// The machine operation of an IR atomic (`agx_atomic_opc` names signed min/max `imin`/`imax`).
fn opc(op: AtomicOp) -> AtomicOpc {
    match op {
        AtomicOp::Add => AtomicOpc::Add,
        AtomicOp::Sub => AtomicOpc::Sub,
        AtomicOp::SMin => AtomicOpc::Imin,
        AtomicOp::UMin => AtomicOpc::Umin,
        AtomicOp::SMax => AtomicOpc::Imax,
        AtomicOp::UMax => AtomicOpc::Umax,
        AtomicOp::And => AtomicOpc::And,
        AtomicOp::Or => AtomicOpc::Or,
        AtomicOp::Xor => AtomicOpc::Xor,
        AtomicOp::Exchange => AtomicOpc::Xchg,
        AtomicOp::CompareExchange => AtomicOpc::Cmpxchg,
    }
}

impl Isel<'_> {
    /// `args` are the offset then the value operands (`[v]`, or `[cmp, v]` for
    /// compare-exchange); `results` the old value.
    pub(super) fn atomic(
        &mut self,
        op: AtomicOp,
        access: MemAccess,
        args: &[Value],
        results: &[Value],
    ) -> Result<(), BackendError> {
        let (&offset, values) = args
            .split_first()
            .filter(|(_, v)| v.len() == op.value_operands())
            .ok_or_else(|| self.internal("an atomic with the wrong number of operands"))?;
        let op = opc(op);
        let value = match *values {
            [cmp, new] => {
                let pair = self.m.new_group(RegClass::Vec32(2));
                let new = self.src(new);
                self.mov_src(pair.view(0, RegClass::R32), new);
                let cmp = self.src(cmp);
                self.mov_src(pair.view(2, RegClass::R32), cmp);
                pair
            }
            _ => self.reg(values[0]),
        };
        let used = results.first().filter(|&&r| self.use_count(r) > 0);
        let dst = used.map(|_| self.m.new_group(RegClass::R32));
        match access.space {
            AddressSpace::Storage(b) => {
                let base = self.abi_uniform(UniformContent::BufferAddress(b))?;
                let offset = self.word_index(offset, access.offset)?;
                self.m.op(Instr::DeviceAtomic(DeviceAtomic {
                    op,
                    dst,
                    value,
                    base: MemBase::Uniform(base),
                    offset,
                    slot: 0,
                }));
            }
            AddressSpace::Workgroup => {
                let offset = self.shared_index(offset, access.offset, 2)?;
                self.m.op(Instr::ThreadgroupAtomic(TgAtomic {
                    op,
                    dst,
                    value,
                    base: TgBase::Imm(0),
                    offset,
                }));
            }
            _ => return Err(self.unsupported("an atomic outside storage and workgroup memory")),
        }
        if let (Some(&r), Some(d)) = (used, dst) {
            self.set(r, d);
        }
        Ok(())
    }

    /// The word index of the byte offset `offset + bytes`, with any extra shift applied.
    fn word_index(&mut self, offset: Value, bytes: u32) -> Result<MemOffset<VReg>, BackendError> {
        let (index, shift) = self.element_offset(offset, bytes, 4)?;
        let MemOffset::Reg { reg, signed } = index else {
            return Ok(index);
        };
        if shift == 0 {
            return Ok(index);
        }
        let shifted = self.m.new_group(RegClass::R32);
        self.m.op(Instr::Iadd {
            dst: crate::isa::Dst::new(shifted),
            a: IntSrc::zext(Src::Imm(0)),
            b: IntSrc::zext(Src::reg(reg)),
            neg_b: false,
            shift,
            sat: false,
        });
        Ok(MemOffset::Reg {
            reg: shifted,
            signed,
        })
    }
}
