//! The lockstep executor: structured control flow over active-lane masks, pure operations per
//! lane through the operation table, and the dispatch of effects to their modules.
//!
//! Every instruction runs for all active lanes before the next one starts. An `if` runs its
//! *then* arm with `mask & cond` and its *else* arm with `mask & !cond`; each lane's results
//! come from the `yield` of the arm it took. A `loop` runs its body while any lane remains:
//! `break` records the loop's results for its lanes and removes them until the loop ends,
//! `continue` writes the body parameters for its lanes and removes them until the next
//! iteration, `return` and `discard` remove lanes for the rest of the run. After a nested `if`,
//! the enclosing block continues only with the lanes that reached the `if`'s end.

use super::error::InterpError;
use super::float_mode::FloatMode;
use super::lanes::{LaneValues, Mask};
use super::limits::Limits;
use super::observe::{Observer, Run};
use super::resources::{Resources, ResourcesRef};
use super::stage::StageEnv;
use super::stats::Stats;
use crate::ir::{Block, Const, Function, Inst, Op, OutputSlot, Type};
use smallvec::SmallVec;
use std::collections::BTreeMap;

/// One loop instruction being executed.
struct LoopFrame {
    inst: Inst,
    /// Lanes that left through `break` (for the rest of this loop's execution).
    left: Mask,
    /// Lanes that reached `continue` in the current iteration.
    continued: Mask,
}

/// The state of one lockstep batch (a workgroup, a fragment grid, a vertex batch).
pub(crate) struct Machine<'a> {
    pub func: &'a Function,
    pub limits: &'a Limits,
    pub lanes: usize,
    pub vals: LaneValues<'a>,
    /// Lanes that have returned or discarded.
    pub ended: Mask,
    /// Lanes that have discarded.
    pub discarded: Mask,
    /// Helper lanes (quad padding or demoted): they run, but their stores and outputs are
    /// dropped.
    pub helper: Mask,
    pub resources: ResourcesRef<'a>,
    /// This workgroup's shared memory.
    pub shared: Vec<u8>,
    /// Every lane's private memory, `func.private_bytes` each, lane after lane (zeroed: the
    /// allocation is lazy, so an unused function costs nothing).
    pub private: Vec<u8>,
    pub env: StageEnv<'a>,
    /// Output writes per slot and lane, committed by the stage driver after the run.
    pub outputs: BTreeMap<OutputSlot, Vec<Option<Const>>>,
    pub stats: Stats,
    /// Lane-instructions executed so far in the whole run (carried across workgroups).
    pub steps: u64,
    /// How pure operations treat f32 denormals ([`FloatMode::Ieee`] unless the run asks).
    pub float: FloatMode,
    /// Sees every instruction (compute runs only; see `observe`).
    pub observer: Option<&'a mut dyn Observer>,
    loops: Vec<LoopFrame>,
}

impl<'a> Machine<'a> {
    /// A batch of `lanes` lanes, none ended; `helper` marks the quad-padding lanes.
    pub fn new(
        func: &'a Function,
        limits: &'a Limits,
        lanes: usize,
        resources: ResourcesRef<'a>,
        env: StageEnv<'a>,
        steps: u64,
    ) -> Machine<'a> {
        Machine {
            func,
            limits,
            lanes,
            vals: LaneValues::new(func, lanes),
            ended: Mask::none(lanes),
            discarded: Mask::none(lanes),
            helper: Mask::none(lanes),
            resources,
            shared: Vec::new(),
            private: vec![0; lanes * func.private_bytes as usize],
            env,
            outputs: BTreeMap::new(),
            stats: Stats::default(),
            steps,
            float: FloatMode::Ieee,
            observer: None,
            loops: Vec::new(),
        }
    }

    /// Runs the function's body on every lane.
    pub fn run(&mut self) -> Result<(), InterpError> {
        let entry = self.func.entry;
        self.exec_block(entry, Mask::all(self.lanes))
        // Lanes that reach the end of the entry block without a terminator simply finish.
    }

    /// The resources, read-only.
    pub fn res(&self) -> &Resources {
        self.resources.get()
    }

    fn exec_block(&mut self, block: Block, mut mask: Mask) -> Result<(), InterpError> {
        let func = self.func;
        for &inst in &func.blocks[block].insts {
            if !mask.any() {
                break;
            }
            self.count(inst, &mask)?;
            // Only observed runs pay for the copy of the mask.
            let observed = if self.observer.is_some() {
                self.observe(inst, &mask, false)?;
                Some(mask.clone())
            } else {
                None
            };
            match func.insts[inst].op {
                Op::Pure(p) => {
                    self.check_arity(inst, p.signature().arity())?;
                    let mode = self.float;
                    self.exec_pure(inst, &mask, |args, ty| mode.eval_pure(p, args, ty))?
                }
                Op::Custom(c) => {
                    self.check_arity(inst, c.signature().arity())?;
                    let mode = self.float;
                    self.exec_pure(inst, &mask, |args, ty| mode.eval_custom(c, args, ty))?
                }
                Op::Const(c) => self.exec_const(inst, &mask, c)?,
                Op::Effect(e) => self.exec_effect(inst, e, &mask)?,
                Op::If => {
                    self.exec_if(inst, &mask)?;
                    mask = self.still_here(&mask);
                }
                Op::Loop => {
                    self.exec_loop(inst, &mask)?;
                    mask = mask.and_not(&self.ended);
                }
                Op::Yield => {
                    self.exec_yield(inst, block, &mask)?;
                    mask = Mask::none(self.lanes);
                }
                Op::Break => {
                    self.exec_break(inst, &mask)?;
                    mask = Mask::none(self.lanes);
                }
                Op::Continue => {
                    self.exec_continue(inst, &mask)?;
                    mask = Mask::none(self.lanes);
                }
                Op::Return => {
                    self.ended.or_assign(&mask);
                    mask = Mask::none(self.lanes);
                }
                Op::Discard => {
                    self.require_fragment(inst, "discard")?;
                    self.ended.or_assign(&mask);
                    self.discarded.or_assign(&mask);
                    mask = Mask::none(self.lanes);
                }
            }
            if let Some(ran) = observed {
                self.observe(inst, &ran, true)?;
            }
        }
        Ok(())
    }

    /// Calls the observer's hook (`after`, else `before`) for `inst` on `mask`.
    fn observe(&mut self, inst: Inst, mask: &Mask, after: bool) -> Result<(), InterpError> {
        let Some(observer) = self.observer.as_deref_mut() else {
            return Ok(());
        };
        let group = match self.env {
            StageEnv::Compute { group, .. } => group,
            _ => [0; 3],
        };
        let run = Run {
            func: self.func,
            vals: &self.vals,
            group,
            lanes: self.lanes,
        };
        let lanes: SmallVec<[usize; 64]> = mask.lanes().collect();
        let hook = if after {
            observer.after(&run, inst, &lanes)
        } else {
            observer.before(&run, inst, &lanes)
        };
        hook.map_err(|reason| InterpError::Observer { inst, reason })
    }

    /// Counts an instruction execution against the step budget.
    fn count(&mut self, inst: Inst, mask: &Mask) -> Result<(), InterpError> {
        let n = mask.count() as u64;
        self.stats.instructions += 1;
        self.stats.lane_instructions += n;
        self.steps += n;
        if self.steps > self.limits.max_steps {
            return Err(InterpError::StepLimit {
                inst,
                in_loop: self.loops.last().map(|f| f.inst),
                limit: self.limits.max_steps,
            });
        }
        Ok(())
    }

    /// The lanes of `mask` that are still executing the current block after a nested construct:
    /// not ended, and (inside a loop) neither broken out nor continued.
    fn still_here(&self, mask: &Mask) -> Mask {
        let mut m = mask.and_not(&self.ended);
        if let Some(frame) = self.loops.last() {
            m = m.and_not(&frame.left).and_not(&frame.continued);
        }
        m
    }

    pub(crate) fn malformed(&self, inst: Inst, reason: impl Into<String>) -> InterpError {
        InterpError::Malformed {
            inst,
            reason: reason.into(),
        }
    }

    fn check_arity(&self, inst: Inst, arity: usize) -> Result<(), InterpError> {
        let data = &self.func.insts[inst];
        if data.args.len() != arity || data.results.len() != 1 {
            return Err(self.malformed(
                inst,
                format!(
                    "{} takes {arity} operands and has one result, found {} and {}",
                    data.op.name(),
                    data.args.len(),
                    data.results.len()
                ),
            ));
        }
        Ok(())
    }

    /// Evaluates a pure operation per active lane with the table's evaluation function (wrapped
    /// by the run's [`FloatMode`]).
    fn exec_pure(
        &mut self,
        inst: Inst,
        mask: &Mask,
        eval: impl Fn(&[Const], Type) -> Const,
    ) -> Result<(), InterpError> {
        let data = &self.func.insts[inst];
        let result = data.results[0];
        let result_ty = self.func.value_type(result);
        let mut out = self.vals.take(result);
        let filled = (|| {
            let mut inputs: SmallVec<[(Type, &[u64]); 4]> = SmallVec::new();
            for &a in &data.args {
                inputs.push((self.func.value_type(a), self.vals.slots(inst, a)?));
            }
            let mut args: SmallVec<[Const; 4]> = SmallVec::new();
            for lane in mask.lanes() {
                args.clear();
                args.extend(inputs.iter().map(|&(ty, s)| Const::from_bits(ty, s[lane])));
                out[lane] = eval(&args, result_ty).bits();
            }
            Ok(())
        })();
        self.vals.put(result, out);
        filled
    }

    fn exec_const(&mut self, inst: Inst, mask: &Mask, c: Const) -> Result<(), InterpError> {
        let data = &self.func.insts[inst];
        let [result] = data.results[..] else {
            return Err(self.malformed(inst, "a constant has one result"));
        };
        for lane in mask.lanes() {
            self.vals.set(result, lane, c);
        }
        Ok(())
    }

    /// Copies `from[k]` to `to[k]` on every lane of `mask` (yield, break, continue, loop entry).
    /// All sources of a lane are read before any destination is written, so `continue v2, v1`
    /// swaps.
    fn copy_values(
        &mut self,
        inst: Inst,
        mask: &Mask,
        from: &[crate::ir::Value],
        to: &[crate::ir::Value],
    ) -> Result<(), InterpError> {
        if from.len() != to.len() {
            return Err(self.malformed(
                inst,
                format!("passes {} values to {} destinations", from.len(), to.len()),
            ));
        }
        let mut row: SmallVec<[Const; 4]> = SmallVec::new();
        for lane in mask.lanes() {
            row.clear();
            for &v in from {
                row.push(self.vals.get(inst, v, lane)?);
            }
            for (&v, &c) in to.iter().zip(&row) {
                self.vals.set(v, lane, c);
            }
        }
        Ok(())
    }

    /// Forgets the values a finished block defined.
    fn release_block(&mut self, block: Block) {
        let func = self.func;
        for &p in &func.blocks[block].params {
            self.vals.release(p);
        }
        for &inst in &func.blocks[block].insts {
            for &r in &func.insts[inst].results {
                self.vals.release(r);
            }
        }
    }

    fn exec_if(&mut self, inst: Inst, mask: &Mask) -> Result<(), InterpError> {
        let func = self.func;
        let data = &func.insts[inst];
        let ([cond], [then_block, else_block]) = (&data.args[..], &data.blocks[..]) else {
            return Err(self.malformed(inst, "an if takes one condition and owns two blocks"));
        };
        let cond = self.vals.slots(inst, *cond)?;
        let then_mask = Mask::from_fn(self.lanes, |l| mask.get(l) && cond[l] != 0);
        let else_mask = mask.and_not(&then_mask);
        for (block, arm) in [(*then_block, then_mask), (*else_block, else_mask)] {
            if arm.any() {
                self.exec_block(block, arm)?;
                self.release_block(block);
            }
        }
        Ok(())
    }

    fn exec_yield(&mut self, inst: Inst, block: Block, mask: &Mask) -> Result<(), InterpError> {
        let func = self.func;
        let owner = func.blocks[block].parent;
        let Some(owner) = owner.filter(|&o| func.insts[o].op == Op::If) else {
            return Err(self.malformed(inst, "yield outside an if arm"));
        };
        self.copy_values(
            inst,
            mask,
            &func.insts[inst].args,
            &func.insts[owner].results,
        )
    }

    fn exec_loop(&mut self, inst: Inst, mask: &Mask) -> Result<(), InterpError> {
        let func = self.func;
        let data = &func.insts[inst];
        let [body] = data.blocks[..] else {
            return Err(self.malformed(inst, "a loop owns one body block"));
        };
        self.copy_values(inst, mask, &data.args, &func.blocks[body].params)?;
        self.loops.push(LoopFrame {
            inst,
            left: Mask::none(self.lanes),
            continued: Mask::none(self.lanes),
        });
        let mut active = mask.clone();
        let mut iterations = 0u64;
        while active.any() {
            iterations += 1;
            if iterations > self.limits.max_loop_iterations {
                return Err(InterpError::LoopLimit {
                    inst,
                    limit: self.limits.max_loop_iterations,
                });
            }
            self.stats.loop_iterations += 1;
            if let Some(frame) = self.loops.last_mut() {
                frame.continued = Mask::none(self.lanes);
            }
            self.exec_block(body, active.clone())?;
            let Some(frame) = self.loops.last() else {
                return Err(self.malformed(inst, "loop frame lost"));
            };
            let fell_through = active
                .and_not(&frame.left)
                .and_not(&frame.continued)
                .and_not(&self.ended);
            if fell_through.any() {
                return Err(self.malformed(inst, "the loop body ends without a terminator"));
            }
            active = frame.continued.and_not(&self.ended);
        }
        self.loops.pop();
        self.release_block(body);
        Ok(())
    }

    fn exec_break(&mut self, inst: Inst, mask: &Mask) -> Result<(), InterpError> {
        let func = self.func;
        let Some(loop_inst) = self.loops.last().map(|f| f.inst) else {
            return Err(self.malformed(inst, "break outside a loop"));
        };
        self.copy_values(
            inst,
            mask,
            &func.insts[inst].args,
            &func.insts[loop_inst].results,
        )?;
        if let Some(frame) = self.loops.last_mut() {
            frame.left.or_assign(mask);
        }
        Ok(())
    }

    fn exec_continue(&mut self, inst: Inst, mask: &Mask) -> Result<(), InterpError> {
        let func = self.func;
        let Some(loop_inst) = self.loops.last().map(|f| f.inst) else {
            return Err(self.malformed(inst, "continue outside a loop"));
        };
        let Some(&body) = func.insts[loop_inst].blocks.first() else {
            return Err(self.malformed(loop_inst, "a loop owns one body block"));
        };
        self.copy_values(
            inst,
            mask,
            &func.insts[inst].args,
            &func.blocks[body].params,
        )?;
        if let Some(frame) = self.loops.last_mut() {
            frame.continued.or_assign(mask);
        }
        Ok(())
    }
}
