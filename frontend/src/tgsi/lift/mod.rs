//! Lifting a parsed TGSI program into the graph IR.
//!
//! Steps:
//! 1. [`Decls`] records the declarations; [`interface`] checks inputs, outputs and system
//!    values against the stage and applies the properties;
//! 2. [`structure`](crate::tgsi::structure) builds the statement tree (subroutines inlined);
//! 3. [`RegTable`] numbers the register components the program writes, and [`liveness`]
//!    finds which of them each `if` and loop must hand on;
//! 4. the walk below lifts statement by statement, keeping the current SSA value of every
//!    tracked component (`state`) and threading values through `if` results, loop
//!    parameters, `break` and `continue`;
//! 5. the result is verified.
//!
//! An instruction reads all its sources before it writes its destination (as softpipe does),
//! so `ADD TEMP[0], TEMP[0].yxzw, ...` sees the old value in every channel.

mod geometry;
mod interface;
mod liveness;
mod operand;
mod ops;
mod regs;
mod types;

pub use interface::{
    BCOLOR_LOCATION, COLOR_LOCATION, FOG_LOCATION, GENERIC_LOCATION, TEXCOORD_LOCATION,
};

use self::liveness::{both, Liveness};
use self::regs::{RegId, RegTable};
use super::ast::{Instruction, Program, RegFile};
use super::decls::Decls;
use super::error::{Result, TgsiError};
use super::limits::MAX_IR_INSTRUCTIONS;
use super::options::LiftOptions;
use super::structure::{structure, Stmt};
use agxc_egraph::ir::{verify, Builder, Const, Function, InstFlags, PureOp, Stage, Type, Value};
use std::collections::HashMap;

pub(crate) use operand::Want;

/// Lifts a parsed program.
pub fn lift_program(program: &Program, opts: &LiftOptions) -> Result<Function> {
    let stage = interface::stage_of(program)?;
    let decls = Decls::new(program)?;
    interface::check_declarations(program, stage, opts)?;
    let tree = structure(program)?;
    let regs = RegTable::new(program, &decls)?;
    let live = liveness::analyze(program, &decls, &regs, &tree)?;
    let name = opts.entry_name.clone().unwrap_or_else(|| "main".into());
    let mut func = Function::new(name, stage);
    interface::apply_properties(program, opts, &mut func)?;
    {
        let mut l = Lifter {
            prog: program,
            opts,
            decls: &decls,
            regs: &regs,
            live: &live,
            b: Builder::new(&mut func),
            stage,
            inputs: HashMap::new(),
            vertex_inputs: HashMap::new(),
            state: vec![None; regs.len()],
            loops: Vec::new(),
            terminated: false,
            cache: HashMap::new(),
            cur: 0,
        };
        l.materialize_inputs()?;
        l.materialize_vertex_inputs()?;
        l.block(&tree.body)?;
        if !l.terminated {
            l.write_outputs()?;
            l.b.return_();
        }
    }
    verify(&func).map_err(TgsiError::Verify)?;
    Ok(func)
}

/// What a loop hands to `break` and `continue`.
struct LoopFrame {
    params: Vec<RegId>,
    param_tys: Vec<Type>,
    results: Vec<RegId>,
    result_tys: Vec<Type>,
}

/// The lifter's state while walking the statement tree.
pub(super) struct Lifter<'a, 'f> {
    prog: &'a Program,
    opts: &'a LiftOptions,
    decls: &'a Decls,
    regs: &'a RegTable,
    live: &'a Liveness,
    b: Builder<'f>,
    stage: Stage,
    /// Input and system-value components, read at the top of the shader.
    inputs: HashMap<(RegFile, u32, u8), Value>,
    /// Geometry inputs at a constant vertex, read at the top of the shader: (vertex, IN
    /// register, component).
    vertex_inputs: HashMap<(u32, u32, u8), Value>,
    /// The current value of every tracked component (`None`: never written, reads as zero).
    state: Vec<Option<Value>>,
    loops: Vec<LoopFrame>,
    /// The current block already ends in a terminator: what follows is dead.
    terminated: bool,
    /// Sources of the current instruction already read: (operand, component, type).
    cache: HashMap<(usize, u8, Want), Value>,
    /// The instruction being lifted (index into `prog.insts`).
    cur: usize,
}

impl<'a> Lifter<'a, '_> {
    /// The instruction being lifted.
    fn inst(&self) -> &'a Instruction {
        let prog: &'a Program = self.prog;
        &prog.insts[self.cur]
    }

    fn zero(&mut self, ty: Type) -> Value {
        self.b.konst(Const::zero(ty))
    }

    /// A value as `ty`, bit-cast if it has the other 32-bit type.
    fn cast(&mut self, v: Value, ty: Type) -> Value {
        if self.b.ty(v) == ty {
            v
        } else {
            self.b.convert(PureOp::Bitcast, v, ty)
        }
    }

    /// A bool as a TGSI integer mask: ~0 or 0.
    fn mask(&mut self, cond: Value) -> Value {
        let (t, f) = (self.b.i32(-1), self.b.i32(0));
        self.b.pure(PureOp::Select, &[cond, t, f])
    }

    /// The current value of a tracked component; a component never written reads as zero.
    fn current(&mut self, id: RegId) -> Value {
        match self.state[id as usize] {
            Some(v) => v,
            None => {
                let ty = self.regs.kind(id).ty();
                self.zero(ty)
            }
        }
    }

    fn block(&mut self, stmts: &[Stmt]) -> Result<()> {
        for s in stmts {
            if self.terminated {
                break;
            }
            match s {
                Stmt::Op(i) => self.op(*i)?,
                Stmt::If {
                    node,
                    inst,
                    then_,
                    else_,
                } => self.if_(*node, *inst, then_, else_)?,
                Stmt::Loop {
                    node, body, once, ..
                } => self.loop_(*node, body, *once)?,
                Stmt::Break(i) => {
                    self.cur = *i;
                    self.emit_break();
                }
                Stmt::Continue(i) => {
                    self.cur = *i;
                    self.emit_continue();
                }
                Stmt::Return(i) => {
                    self.cur = *i;
                    self.write_outputs()?;
                    self.b.return_();
                    self.terminated = true;
                }
            }
        }
        Ok(())
    }

    fn if_(&mut self, node: usize, inst: usize, then_: &[Stmt], else_: &[Stmt]) -> Result<()> {
        self.begin_inst(inst);
        let cond = self.condition()?;
        self.b.set_flags(InstFlags::NONE);
        let results = both(&self.live.writes[node], &self.live.after[node]);
        let placeholder = vec![Type::I32; results.len()];
        let (if_inst, [then_block, else_block]) = self.b.begin_if(cond, &placeholder);
        let parent = self.b.block();
        let saved = self.state.clone();

        let mut arms = Vec::with_capacity(2);
        for (block, stmts) in [(then_block, then_), (else_block, else_)] {
            self.state = saved.clone();
            self.b.switch_to(block);
            self.terminated = false;
            self.block(stmts)?;
            arms.push((
                self.b.block(),
                self.terminated,
                std::mem::take(&mut self.state),
            ));
        }

        // Each result gets the type its arms agree on (the kind of its writes otherwise),
        // so a float stays a float across the `if`.
        let tys: Vec<Type> = results
            .iter()
            .map(|&r| {
                let arm_ty = |(_, done, state): &(_, bool, Vec<Option<Value>>)| {
                    if *done {
                        None
                    } else {
                        state[r as usize].map(|v| self.b.ty(v))
                    }
                };
                match (arm_ty(&arms[0]), arm_ty(&arms[1])) {
                    (Some(a), Some(b)) if a == b => a,
                    (Some(a), None) | (None, Some(a)) => a,
                    _ => self.regs.kind(r).ty(),
                }
            })
            .collect();
        for (block, done, state) in arms {
            if done {
                continue;
            }
            self.b.switch_to(block);
            self.state = state;
            let values: Vec<Value> = results
                .iter()
                .zip(&tys)
                .map(|(&r, &ty)| {
                    let v = self.current(r);
                    self.cast(v, ty)
                })
                .collect();
            self.b.yield_(&values);
        }
        let values = self.b.results(if_inst).to_vec();
        for (&v, &ty) in values.iter().zip(&tys) {
            self.b.func_mut().values[v].ty = ty;
        }
        self.b.switch_to(parent);
        self.state = saved;
        for (&r, &v) in results.iter().zip(&values) {
            self.state[r as usize] = Some(v);
        }
        self.terminated = false;
        Ok(())
    }

    fn loop_(&mut self, node: usize, body: &[Stmt], once: bool) -> Result<()> {
        let writes = &self.live.writes[node];
        let params = if once {
            Vec::new()
        } else {
            both(writes, &self.live.head[node])
        };
        let results = both(writes, &self.live.after[node]);
        let init: Vec<Value> = params.iter().map(|&r| self.current(r)).collect();
        let param_tys: Vec<Type> = init.iter().map(|&v| self.b.ty(v)).collect();
        let result_tys: Vec<Type> = results
            .iter()
            .map(|&r| match params.iter().position(|&p| p == r) {
                Some(i) => param_tys[i],
                None => match self.state[r as usize] {
                    Some(v) => self.b.ty(v),
                    None => self.regs.kind(r).ty(),
                },
            })
            .collect();
        let (loop_inst, body_block, param_values) = self.b.begin_loop(&init, &result_tys);
        let parent = self.b.block();
        let saved = self.state.clone();
        for (&r, &v) in params.iter().zip(&param_values) {
            self.state[r as usize] = Some(v);
        }
        self.loops.push(LoopFrame {
            params,
            param_tys,
            results: results.clone(),
            result_tys,
        });
        self.b.switch_to(body_block);
        self.terminated = false;
        self.block(body)?;
        if !self.terminated {
            if once {
                self.emit_break();
            } else {
                self.emit_continue();
            }
        }
        self.loops.pop();
        self.b.switch_to(parent);
        self.state = saved;
        let values = self.b.results(loop_inst).to_vec();
        for (&r, &v) in results.iter().zip(&values) {
            self.state[r as usize] = Some(v);
        }
        self.terminated = false;
        Ok(())
    }

    fn frame_values(&mut self, regs: &[RegId], tys: &[Type]) -> Vec<Value> {
        regs.iter()
            .zip(tys)
            .map(|(&r, &ty)| {
                let v = self.current(r);
                self.cast(v, ty)
            })
            .collect()
    }

    fn emit_break(&mut self) {
        let frame = self
            .loops
            .pop()
            .expect("structure() only emits BRK inside loops");
        let values = self.frame_values(&frame.results, &frame.result_tys);
        self.loops.push(frame);
        self.b.break_(&values);
        self.terminated = true;
    }

    fn emit_continue(&mut self) {
        let frame = self
            .loops
            .pop()
            .expect("structure() only emits CONT inside loops");
        let values = self.frame_values(&frame.params, &frame.param_tys);
        self.loops.push(frame);
        self.b.continue_(&values);
        self.terminated = true;
    }

    /// Starts lifting instruction `i`: its source cache is fresh, its flags apply.
    fn begin_inst(&mut self, i: usize) {
        self.cur = i;
        self.cache.clear();
        let flags = if self.inst().precise {
            InstFlags::NO_CONTRACT
        } else {
            InstFlags::NONE
        };
        self.b.set_flags(flags);
    }

    /// Lifts one ordinary instruction.
    fn op(&mut self, i: usize) -> Result<()> {
        self.begin_inst(i);
        self.lift_op()?;
        self.b.set_flags(InstFlags::NONE);
        if self.b.func().insts.len() > MAX_IR_INSTRUCTIONS {
            return Err(TgsiError::limit(
                self.inst().pos,
                format!("more than {MAX_IR_INSTRUCTIONS} IR instructions"),
            ));
        }
        Ok(())
    }
}
