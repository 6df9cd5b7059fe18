//! Conditions of `IF`/`UIF`/`BREAKC`, discards, barriers and helper-lane queries.

use super::super::{Lifter, Want};
use crate::tgsi::ast::RegFile;
use crate::tgsi::error::{Result, TgsiError};
use crate::tgsi::opcode::Opcode;
use agxc_egraph::ir::{BarrierKind, Builtin, EffectOp, PureOp, Stage, Type, Value};

impl Lifter<'_, '_> {
    /// The condition of the current `IF` (`src.x != 0.0` as a float, true for NaN), `UIF` or
    /// `BREAKC` (`src.x != 0` as an integer).
    pub(in super::super) fn condition(&mut self) -> Result<Value> {
        match self.inst().opcode {
            Opcode::IF => {
                let x = self.fetch(0, 0, Want::F32)?;
                let zero = self.fc(0.0);
                Ok(self.p(PureOp::Fneu, &[x, zero]))
            }
            _ => {
                let x = self.fetch(0, 0, Want::I32)?;
                let zero = self.ic(0);
                Ok(self.p(PureOp::Ine, &[x, zero]))
            }
        }
    }

    pub(super) fn control_op(&mut self, op: Opcode) -> Result<()> {
        use Opcode::*;
        match op {
            KILL | KILP | KIL | KILL_IF | DEMOTE if self.stage != Stage::Fragment => {
                Err(self.unsupported("discarding outside fragment shaders"))
            }
            // Unconditional discard (`KILP` is its old name).
            KILL | KILP => {
                self.b.discard();
                self.terminated = true;
                Ok(())
            }
            // Discard if any swizzled component is negative (`KIL` is the old name).
            KIL | KILL_IF => {
                let mut any = None;
                for chan in 0..4 {
                    let x = self.fetch(0, chan, Want::F32)?;
                    let zero = self.fc(0.0);
                    let neg = self.p(PureOp::Flt, &[x, zero]);
                    any = Some(match any {
                        None => neg,
                        Some(a) => self.p(PureOp::Or, &[a, neg]),
                    });
                }
                let cond = any.expect("four components were tested");
                let parent = self.b.block();
                let (_, [then_block, else_block]) = self.b.begin_if(cond, &[]);
                self.b.switch_to(then_block);
                self.b.discard();
                self.b.switch_to(else_block);
                self.b.yield_(&[]);
                self.b.switch_to(parent);
                Ok(())
            }
            DEMOTE => {
                self.b.effect(EffectOp::Demote, &[], &[]);
                Ok(())
            }
            BARRIER if self.stage != Stage::Compute => {
                Err(self.unsupported("workgroup barriers outside compute shaders"))
            }
            BARRIER => {
                self.b
                    .effect(EffectOp::Barrier(BarrierKind::Workgroup), &[], &[]);
                Ok(())
            }
            // The operand says which kinds of memory to order; the IR's memory barrier
            // orders them all.
            MEMBAR => {
                self.b
                    .effect(EffectOp::Barrier(BarrierKind::Memory), &[], &[]);
                Ok(())
            }
            READ_HELPER => {
                if self.stage != Stage::Fragment {
                    return Err(self.unsupported("helper invocations outside fragment shaders"));
                }
                let h = self.b.effect(
                    EffectOp::Builtin(Builtin::HelperInvocation),
                    &[],
                    &[Type::Bool],
                )[0];
                let m = self.mask(h);
                self.store(0, [Some(m); 4])
            }
            // One sample per pixel: the centroid and sample 0 are the pixel centre, so these
            // read the input as it is (as softpipe does).
            INTERP_CENTROID | INTERP_SAMPLE => {
                let src = self.src(0)?;
                if src.reg.file != RegFile::Input {
                    let inst = self.inst();
                    return Err(TgsiError::invalid(
                        src.pos,
                        format!("{} interpolates an IN register", inst.opcode.name()),
                    ));
                }
                self.componentwise(&[Want::F32], |_, a| Ok(a[0]))
            }
            _ => unreachable!("control_op is only dispatched the opcodes above"),
        }
    }
}
