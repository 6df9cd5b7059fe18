//! The per-instruction dispatch (everything but terminators and merge instructions, which
//! `cfg.rs` handles).

use super::context::Lowerer;
use super::error::SpirvError;
use super::module::Inst;
use agxc_egraph::ir::{BarrierKind, Builtin, EffectOp, InstFlags, Stage, Type};
use spirv::Op;

/// Whether lifting goes on after an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    Continue,
    /// The current IR block was terminated (an inlined callee that never returns).
    Stop,
}

impl<'m> Lowerer<'m> {
    /// Lifts one instruction.
    pub fn lower_inst(&mut self, inst: &Inst) -> Result<Step, SpirvError> {
        self.set_flags_for(inst);
        let step = self.dispatch(inst);
        self.flags = InstFlags::NONE;
        step
    }

    fn dispatch(&mut self, inst: &Inst) -> Result<Step, SpirvError> {
        match inst.opcode {
            Op::Nop | Op::Line | Op::NoLine | Op::Phi | Op::SelectionMerge | Op::LoopMerge => {}
            Op::Variable => self.lower_local_var(inst)?,
            Op::Load => self.lower_load(inst)?,
            Op::Store => self.lower_store(inst)?,
            Op::AccessChain | Op::InBoundsAccessChain => self.lower_access_chain(inst)?,
            Op::CopyMemory => self.lower_copy_memory(inst)?,
            Op::ArrayLength => self.lower_array_length(inst)?,
            Op::FunctionCall => return self.lower_call(inst),
            Op::ExtInst => self.lower_ext_inst(inst)?,
            Op::Undef => {
                let z = self.zero_agg(inst.result_ty()?, inst)?;
                self.bind(inst, z)?;
            }
            Op::ControlBarrier => {
                self.effect(EffectOp::Barrier(BarrierKind::Workgroup), &[], &[]);
            }
            Op::MemoryBarrier => {
                self.effect(EffectOp::Barrier(BarrierKind::Memory), &[], &[]);
            }
            Op::DemoteToHelperInvocation => {
                if self.stage != Stage::Fragment {
                    return Err(inst.invalid("demote outside a fragment shader"));
                }
                self.effect(EffectOp::Demote, &[], &[]);
            }
            Op::IsHelperInvocationEXT => {
                if self.stage != Stage::Fragment {
                    return Err(inst.invalid("helper invocations exist only in fragment shaders"));
                }
                let v = self.effect(
                    EffectOp::Builtin(Builtin::HelperInvocation),
                    &[],
                    &[Type::Bool],
                )[0];
                self.bind_components(inst, &[v])?;
            }
            _ if self.lower_atomic(inst)? => {}
            _ if self.lower_image(inst)? => {}
            _ if self.lower_geometry_inst(inst)? => {}
            _ if self.lower_arith(inst)? => {}
            _ => return Err(inst.unsupported_instruction()),
        }
        Ok(Step::Continue)
    }

    /// `OpExtInst`: GLSL.std.450, or skipped for non-semantic sets.
    fn lower_ext_inst(&mut self, inst: &Inst) -> Result<(), SpirvError> {
        let set = inst.id(0)?;
        if self.ignored_sets.contains(&set) {
            return Ok(());
        }
        if !self.glsl_sets.contains(&set) {
            return Err(inst.invalid(format!("%{set} is not an extended instruction set import")));
        }
        self.lower_glsl(inst)
    }
}
