//! `OpFunctionCall`: callees are inlined.
//!
//! Parameters are bound to the arguments (pointer arguments included: a callee writing through
//! one writes the caller's promoted variable). A callee whose only return is its last block is
//! lifted in place; any other runs inside a one-trip IR loop whose `break`s are its returns, so
//! that a return inside the callee ends the callee, not the shader. Recursion is rejected (SPIR-V
//! forbids it in shaders).

use super::cfg::{Flow, Frame, FrameKind, Target};
use super::context::Lowerer;
use super::error::SpirvError;
use super::instruction::Step;
use super::module::{Func, Inst};
use super::value::Key;
use spirv::Op;

/// True if a function can be inlined without a loop around it: a single return, and nothing
/// (loop, discard, unreachable) that could leave a construct other than through its merge.
fn inline_directly(f: &Func) -> bool {
    let mut returns = 0;
    for b in &f.blocks {
        for i in &b.insts {
            match i.opcode {
                Op::Return | Op::ReturnValue => returns += 1,
                Op::LoopMerge | Op::Kill | Op::TerminateInvocation | Op::Unreachable => {
                    return false
                }
                _ => {}
            }
        }
    }
    returns == 1
}

impl<'m> Lowerer<'m> {
    pub fn lower_call(&mut self, inst: &Inst) -> Result<Step, SpirvError> {
        let callee = inst.id(0)?;
        let f: &'m Func = self
            .funcs
            .get(&callee)
            .copied()
            .ok_or_else(|| inst.unknown_id(callee))?;
        if self.calls.contains(&callee) {
            return Err(inst.invalid("recursive function call"));
        }
        self.check_nesting(inst)?;
        let args = inst.ids_from(1)?;
        if args.len() != f.params.len() {
            return Err(inst.mismatch(format!(
                "{} arguments for a function of {} parameters",
                args.len(),
                f.params.len()
            )));
        }
        let mut bound = Vec::new();
        for (p, a) in f.params.iter().zip(&args) {
            bound.push((p.result()?, self.value(*a, inst)?));
        }
        for (p, v) in bound {
            self.env.set(Key::Id(p), v);
        }
        let entry = f
            .blocks
            .first()
            .ok_or_else(|| inst.invalid("call to a function without a body"))?
            .label;
        let result = inst.result_id;
        self.calls.push(callee);
        let reachable = if inline_directly(f) {
            let kind = FrameKind::Call {
                direct: true,
                result,
            };
            let pre = self.env.clone();
            self.frames.push(Frame::new(
                kind,
                None,
                vec![Target::Return],
                pre,
                self.visited.len(),
                inst,
            ));
            let flow = self.lower_seq(entry, inst)?;
            self.frames.pop();
            flow == Flow::Returned
        } else {
            let parent = self.block;
            let (ir, body, _) = self.builder().begin_loop(&[], &[]);
            let kind = FrameKind::Call {
                direct: false,
                result,
            };
            let pre = self.env.clone();
            self.frames.push(Frame::new(
                kind,
                Some(ir),
                vec![Target::Return],
                pre,
                self.visited.len(),
                inst,
            ));
            self.block = body;
            let flow = self.lower_seq(entry, inst)?;
            let frame = self
                .frames
                .pop()
                .expect("the call frame pushed above is on top");
            self.block = parent;
            if flow == Flow::Returned {
                return Err(inst.unstructured("a callee returned past its own frame"));
            }
            self.close_loop(frame)?
        };
        self.calls.pop();
        // The callee's names are dead once it returns.
        if let Some(defs) = self.liveness.defs.get(&callee) {
            for id in defs {
                if Some(*id) != result {
                    self.env.map.remove(&Key::Id(*id));
                }
            }
        }
        if let Some(vars) = self.liveness.fn_vars.get(&callee) {
            for v in vars {
                self.env.map.remove(&Key::Var(*v));
            }
        }
        Ok(if reachable {
            Step::Continue
        } else {
            Step::Stop
        })
    }
}
