//! The vertex stage's inputs and outputs in memory ([`crate::abi`], "Vertex stage"): each
//! attribute and each output array holds four 32-bit words per vertex, so component `c` of
//! vertex `v` is element `4 * v + c`.
//!
//! Every access indexes from one register, `4 * v`, computed at the entry, and picks its
//! components with the access's mask (element `j` of the mask lies `j` words past the index;
//! the seed ISA document, "device_load"): the components of one location share one address
//! computation, and the locations of which two or more components are read are loaded with
//! one `device_load` at the entry (the inputs are read-only buffers distinct from the outputs,
//! so reading early is safe), as fragment varyings are read with one `ld_var`.

use agxc_egraph::ir::{EffectOp, Op, OutputSlot, Type};

use super::Isel;
use crate::abi::{output_array, UniformContent};
use crate::error::BackendError;
use crate::isa::{DeviceAccess, Dst, Instr, IntSrc, MemBase, MemFormat, MemOffset, RegClass, Src};
use crate::mir::VReg;

impl Isel<'_> {
    /// The element index `4 * vertex` of this vertex's component 0, computed once; the caller
    /// makes the first call at the function's entry so that every block may use it.
    pub(super) fn vertex_base(&mut self) -> VReg {
        if let Some(b) = self.vertex_base {
            return b;
        }
        let vid = self.vertex_index();
        let idx = self.m.new_group(RegClass::R32);
        self.m.op(Instr::Iadd {
            dst: Dst::new(idx),
            a: IntSrc::zext(Src::Imm(0)),
            b: IntSrc::zext(Src::reg(vid)),
            neg_b: false,
            shift: 2,
            sat: false,
        });
        self.vertex_base = Some(idx);
        idx
    }

    fn vertex_access(&mut self, data: VReg, base: u16, mask: u8) -> DeviceAccess<VReg> {
        let index = self.vertex_base();
        DeviceAccess {
            data,
            base: MemBase::Uniform(base),
            offset: MemOffset::Reg {
                reg: index,
                signed: false,
            },
            format: MemFormat::I32,
            mask,
            shift: 0,
            slot: 0,
        }
    }

    /// Loads the components `mask` of attribute `location` into `data` (one 32-bit register
    /// per set bit).
    pub(super) fn vertex_load(
        &mut self,
        data: VReg,
        location: u32,
        mask: u8,
    ) -> Result<(), BackendError> {
        let base = self.abi_uniform(UniformContent::VertexInput(location))?;
        let access = self.vertex_access(data, base, mask);
        self.m.op(Instr::DeviceLoad(access));
        Ok(())
    }

    /// Stores `data` (one 32-bit register per set bit of `mask`) to the components `mask` of
    /// output `slot`'s array.
    pub(super) fn vertex_store(
        &mut self,
        data: VReg,
        slot: OutputSlot,
        mask: u8,
    ) -> Result<(), BackendError> {
        let base = self.abi_uniform(UniformContent::VertexOutput(output_array(slot)))?;
        let access = self.vertex_access(data, base, mask);
        self.m.op(Instr::DeviceStore(access));
        Ok(())
    }

    /// At the entry: `4 * vertex`, and one `device_load` for each attribute location of
    /// which two or more components are read (as 32-bit words; [`Isel::input`] converts each
    /// component as it would a word of its own).
    pub(super) fn load_vertex_inputs(&mut self) -> Result<(), BackendError> {
        self.vertex_base();
        let mut wanted: std::collections::BTreeMap<u32, u8> = Default::default();
        let func = self.func;
        func.for_each_inst(|_, inst| {
            let data = &func.insts[inst];
            if let Op::Effect(EffectOp::Input(slot)) = data.op {
                if func.value_type(data.results[0]) != Type::I64 && slot.component <= 3 {
                    *wanted.entry(slot.location).or_default() |= 1 << slot.component;
                }
            }
        });
        for (location, mask) in wanted {
            let count = mask.count_ones();
            if count < 2 {
                continue;
            }
            let dst = self.m.new_group(RegClass::Vec32(count as u8));
            self.vertex_load(dst, location, mask)?;
            self.record_components(location, mask, dst);
        }
        Ok(())
    }
}
