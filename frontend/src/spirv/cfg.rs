//! Structured control flow: SPIR-V blocks and branches into the IR's `if`/`loop`.
//!
//! # How it works
//! Lifting walks the CFG from a function's first block, following the structure the merge
//! instructions declare (SPIR-V section 2.11). Straight-line successors are lifted into the same
//! IR block; a header block opens a construct, kept on a stack of [`Frame`]s:
//!
//! - `OpSelectionMerge` + `OpBranchConditional` becomes an IR `if`; each arm is lifted until it
//!   branches to the merge block (a `yield`) or leaves otherwise.
//! - `OpLoopMerge` becomes an IR `loop` whose body starts at the header. A branch to the merge
//!   block is a `break`, the back edge a `continue`, and a branch to the continue target lifts the
//!   continue construct in place (so it is duplicated at each `continue` statement; it is
//!   normally a few instructions).
//! - `OpSwitch` becomes a one-trip IR loop (so a case can `break` from anywhere inside it) holding
//!   one `if` per case, each tested by its literals and, when the case before falls through into
//!   it, by that case's test (`switch.rs`); the optimizer's `flatten` pass removes the loop.
//! - An inlined function whose `return`s are not all at its end runs inside a one-trip loop, and
//!   its returns become `break`s (`calls.rs`).
//!
//! An IR `break` or `continue` only reaches the innermost IR loop. A branch that leaves several
//! (a `continue` inside a `switch`, a `return` inside a loop of an inlined function) breaks the
//! inner loop with an exit code among its results, and code after that loop dispatches on the code
//! and repeats the branch one level out (`merge.rs`).
//!
//! Values do not need phi nodes: the environment ([`Env`]) is cloned into each branch, and where
//! branches meet, every name whose value differs between them and that is used later becomes a
//! result of the construct (`merge.rs`). Promoted variables flow the same way, and loop-carried
//! ones become the loop's block parameters. `OpPhi` is resolved on the edge: the branch that
//! reaches a block binds the phi's incoming value for that edge.

use super::context::{limits, Lowerer};
use super::error::SpirvError;
use super::instruction::Step;
use super::module::{Block as SpvBlock, Id, Inst};
use super::value::{Env, Key};
use agxc_egraph::ir::{self, Type, Value};
use rspirv::dr::Operand;
use spirv::Op;

/// What kind of construct a frame is.
#[derive(Clone, Debug)]
pub(crate) enum FrameKind {
    /// An IR `if`; a branch to `merge` ends the arm.
    If { merge: Option<Id> },
    /// A SPIR-V loop; `carried` names are the IR loop's parameters.
    Loop {
        header: Id,
        cont: Id,
        merge: Id,
        carried: Vec<Key>,
    },
    /// A switch (a one-trip IR loop).
    Switch { merge: Id },
    /// An inlined function; `direct` ones have no IR loop (a single return at their end).
    Call { direct: bool, result: Option<Id> },
}

impl FrameKind {
    /// True for frames that own an IR loop (the only things `break` leaves).
    pub fn is_ir_loop(&self) -> bool {
        matches!(
            self,
            FrameKind::Loop { .. }
                | FrameKind::Switch { .. }
                | FrameKind::Call { direct: false, .. }
        )
    }
}

/// Where a branch goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Target {
    Block(Id),
    /// Return from the innermost function.
    Return,
}

/// A terminator that leaves a construct, to be given its operands when the construct closes.
#[derive(Clone, Debug)]
pub(crate) struct Site {
    pub inst: ir::Inst,
    /// Index into the frame's `exits`.
    pub kind: usize,
    pub env: Env,
}

/// An open construct.
#[derive(Clone, Debug)]
pub(crate) struct Frame {
    pub kind: FrameKind,
    /// The IR `if` or `loop`.
    pub ir: Option<ir::Inst>,
    /// For IR loops: where each exit code leads; index 0 is the frame's own exit.
    pub exits: Vec<Target>,
    pub sites: Vec<Site>,
    /// The environment where the construct starts.
    pub pre: Env,
    /// Where the construct's blocks start in `Lowerer::visited`.
    pub visited_start: usize,
    /// The instruction that opened it (for errors).
    pub at: Inst,
}

impl Frame {
    pub fn new(
        kind: FrameKind,
        ir: Option<ir::Inst>,
        exits: Vec<Target>,
        pre: Env,
        visited_start: usize,
        at: &Inst,
    ) -> Frame {
        Frame {
            kind,
            ir,
            exits,
            sites: Vec::new(),
            pre,
            visited_start,
            at: at.clone(),
        }
    }
}

/// How lifting a sequence of blocks ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flow {
    /// Continue with this block in the current IR block.
    Next(Id),
    /// The current IR block is terminated.
    Done,
    /// An inlined function without an IR loop returned; its caller continues here.
    Returned,
}

impl<'m> Lowerer<'m> {
    /// Lifts blocks from `start` until the current IR block is terminated (or a directly inlined
    /// function returns).
    pub fn lower_seq(&mut self, start: Id, at: &Inst) -> Result<Flow, SpirvError> {
        self.lower_seq_from(start, false, at)
    }

    /// As [`Lowerer::lower_seq`]; `in_header` says `start` is a loop header whose loop is
    /// already open.
    pub fn lower_seq_from(
        &mut self,
        start: Id,
        in_header: bool,
        at: &Inst,
    ) -> Result<Flow, SpirvError> {
        let mark = self.path_stack.len();
        let result = self.seq_inner(start, in_header, at);
        while self.path_stack.len() > mark {
            if let Some(b) = self.path_stack.pop() {
                if let Some(n) = self.on_path.get_mut(&b) {
                    *n = n.saturating_sub(1);
                }
            }
        }
        result
    }

    fn seq_inner(&mut self, start: Id, mut in_header: bool, at: &Inst) -> Result<Flow, SpirvError> {
        let mut cur = start;
        let mut from_inst = at.clone();
        loop {
            let block = self.spv_block(cur, &from_inst)?;
            if !in_header && block.merge().is_some_and(|m| m.opcode == Op::LoopMerge) {
                match self.lower_loop(block)? {
                    Some(next) => {
                        cur = next;
                        from_inst = block.label_inst.clone();
                        continue;
                    }
                    None => return Ok(Flow::Done),
                }
            }
            in_header = false;
            self.enter_block(block, &from_inst)?;
            let n = block.insts.len();
            for inst in &block.insts[..n.saturating_sub(1)] {
                if matches!(inst.opcode, Op::Phi | Op::SelectionMerge | Op::LoopMerge) {
                    continue;
                }
                if self.lower_inst(inst)? == Step::Stop {
                    return Ok(Flow::Done);
                }
            }
            match self.lower_terminator(block)? {
                Flow::Next(next) => {
                    cur = next;
                    from_inst = block.terminator().clone();
                }
                flow => return Ok(flow),
            }
        }
    }

    /// A block of the function being lifted.
    pub fn spv_block(&self, label: Id, at: &Inst) -> Result<&'m SpvBlock, SpirvError> {
        match self.blocks.get(&label) {
            Some(&(block, func)) if Some(&func) == self.calls.last() => Ok(block),
            Some(_) => Err(at.invalid(format!("branch to %{label}, a block of another function"))),
            None => Err(at.unknown_id(label)),
        }
    }

    /// Records that lifting entered `block` (by the branch `from`).
    fn enter_block(&mut self, block: &SpvBlock, from: &Inst) -> Result<(), SpirvError> {
        let label = block.label;
        let count = self.on_path.entry(label).or_insert(0);
        if *count > 0 {
            return Err(from.unstructured(format!(
                "a branch back to %{label}, which is not the header of an enclosing loop"
            )));
        }
        *count += 1;
        self.path_stack.push(label);
        self.visited.push(label);
        self.check_budget(&block.label_inst)
    }

    pub fn check_nesting(&self, at: &Inst) -> Result<(), SpirvError> {
        if self.frames.len() >= limits::MAX_NESTING {
            return Err(SpirvError::TooLarge {
                detail: format!("constructs nested more than {} deep", limits::MAX_NESTING),
                at: at.location(),
            });
        }
        Ok(())
    }

    fn lower_terminator(&mut self, block: &'m SpvBlock) -> Result<Flow, SpirvError> {
        let term = block.terminator();
        let from = block.label;
        match term.opcode {
            Op::Branch => self.jump(term, from, term.id(0)?),
            Op::BranchConditional => {
                let cond = self.operand_scalar(term, 0)?;
                let (t, f) = (term.id(1)?, term.id(2)?);
                match block.merge() {
                    Some(m) if m.opcode == Op::SelectionMerge => {
                        let merge = m.id(0)?;
                        self.lower_if(term, from, cond, t, f, Some(merge))
                    }
                    _ if t == f => self.jump(term, from, t),
                    _ => {
                        // Without a merge instruction one target must leave a construct (a
                        // break, continue or loop-header exit); the other is where lifting goes
                        // on.
                        let t_exit = self.owner(Target::Block(t)).is_some();
                        let f_exit = self.owner(Target::Block(f)).is_some();
                        match (t_exit, f_exit) {
                            (true, true) => self.lower_if(term, from, cond, t, f, None),
                            (true, false) => self.lower_if(term, from, cond, t, f, Some(f)),
                            (false, true) => self.lower_if(term, from, cond, t, f, Some(t)),
                            (false, false) => Err(term.unstructured(
                                "conditional branch without OpSelectionMerge whose targets \
                                 do not leave any construct",
                            )),
                        }
                    }
                }
            }
            Op::Switch => match block.merge() {
                Some(m) if m.opcode == Op::SelectionMerge => {
                    let merge = m.id(0)?;
                    self.lower_switch(block, merge)
                }
                _ => Err(term.unstructured("OpSwitch without OpSelectionMerge")),
            },
            Op::Return => self.goto(term, Target::Return),
            Op::ReturnValue => {
                let v = self.operand(term, 0)?;
                let result = self.frames.iter().rev().find_map(|f| match f.kind {
                    FrameKind::Call { result, .. } => Some(result),
                    _ => None,
                });
                match result {
                    Some(Some(r)) => self.env.set(Key::Id(r), v),
                    Some(None) => {}
                    None => return Err(term.invalid("OpReturnValue in the entry point")),
                }
                self.goto(term, Target::Return)
            }
            Op::Kill | Op::TerminateInvocation => {
                if self.stage != ir::Stage::Fragment {
                    return Err(term.invalid("discard outside a fragment shader"));
                }
                self.builder().discard();
                Ok(Flow::Done)
            }
            Op::Unreachable => {
                self.terminate_unreachable();
                Ok(Flow::Done)
            }
            _ => Err(term.unsupported_instruction()),
        }
    }

    /// Ends the current IR block where control never arrives.
    pub fn terminate_unreachable(&mut self) {
        self.builder().return_();
    }

    /// Takes the edge `from -> to`: binds `to`'s phis, then branches.
    pub fn jump(&mut self, at: &Inst, from: Id, to: Id) -> Result<Flow, SpirvError> {
        self.bind_phis(at, from, to)?;
        self.goto(at, Target::Block(to))
    }

    /// Binds the `OpPhi`s of `to` to their incoming values for the edge from `from`.
    pub fn bind_phis(&mut self, at: &Inst, from: Id, to: Id) -> Result<(), SpirvError> {
        let block = self.spv_block(to, at)?;
        let mut bound = Vec::new();
        for phi in block.insts.iter().take_while(|i| i.opcode == Op::Phi) {
            let incoming = phi.operands.chunks(2).find_map(|pair| match pair {
                [Operand::IdRef(v), Operand::IdRef(p)] if *p == from => Some(*v),
                _ => None,
            });
            let v = incoming.ok_or_else(|| {
                phi.invalid(format!("OpPhi has no value for the edge from %{from}"))
            })?;
            bound.push((phi.result()?, self.value(v, phi)?));
        }
        for (id, v) in bound {
            self.env.set(Key::Id(id), v);
        }
        Ok(())
    }

    /// The frame a target belongs to, innermost first, not looking past the innermost function.
    pub fn owner(&self, target: Target) -> Option<usize> {
        for (i, f) in self.frames.iter().enumerate().rev() {
            match (&f.kind, target) {
                (FrameKind::Call { .. }, Target::Return) => return Some(i),
                (FrameKind::Call { .. }, Target::Block(_)) => return None,
                (FrameKind::If { merge: Some(m) }, Target::Block(b)) if *m == b => return Some(i),
                (
                    FrameKind::Loop {
                        header,
                        cont,
                        merge,
                        ..
                    },
                    Target::Block(b),
                ) if b == *header || b == *cont || b == *merge => return Some(i),
                (FrameKind::Switch { merge }, Target::Block(b)) if *merge == b => return Some(i),
                _ => {}
            }
        }
        None
    }

    /// Branches to a target: continues straight on, or leaves constructs.
    pub fn goto(&mut self, at: &Inst, target: Target) -> Result<Flow, SpirvError> {
        let Some(owner) = self.owner(target) else {
            return match target {
                Target::Block(b) => Ok(Flow::Next(b)),
                Target::Return => {
                    self.emit_outputs(at)?;
                    self.builder().return_();
                    Ok(Flow::Done)
                }
            };
        };
        let top = self.frames.len() - 1;
        // Leaving an IR loop nested inside the owner: break it with an exit code.
        if let Some(j) = (owner + 1..=top)
            .rev()
            .find(|&j| self.frames[j].kind.is_ir_loop())
        {
            let kind = match self.frames[j].exits.iter().position(|t| *t == target) {
                Some(k) => k,
                None => {
                    self.frames[j].exits.push(target);
                    self.frames[j].exits.len() - 1
                }
            };
            self.record_site(j, kind, false);
            return Ok(Flow::Done);
        }
        match self.frames[owner].kind.clone() {
            FrameKind::If { .. } => {
                if owner != top {
                    return Err(at.unstructured(
                        "a branch to the merge block of an enclosing selection from inside a nested construct",
                    ));
                }
                self.record_site(owner, 0, true);
                Ok(Flow::Done)
            }
            FrameKind::Loop {
                header,
                cont,
                merge,
                carried,
            } => {
                if target == Target::Block(merge) {
                    self.record_site(owner, 0, false);
                    Ok(Flow::Done)
                } else if target == Target::Block(header) {
                    self.emit_continue(at, owner, &carried)?;
                    Ok(Flow::Done)
                } else {
                    Ok(Flow::Next(cont))
                }
            }
            FrameKind::Switch { .. } | FrameKind::Call { direct: false, .. } => {
                self.record_site(owner, 0, false);
                Ok(Flow::Done)
            }
            FrameKind::Call { direct: true, .. } => {
                if owner != top {
                    return Err(
                        at.unstructured("a return from inside a construct of an inlined function")
                    );
                }
                Ok(Flow::Returned)
            }
        }
    }

    /// Ends the current block with a `yield` or `break` whose operands are filled in when the
    /// frame closes.
    fn record_site(&mut self, frame: usize, kind: usize, yield_: bool) {
        let inst = if yield_ {
            self.builder().yield_(&[])
        } else {
            self.builder().break_(&[])
        };
        let env = self.env.clone();
        self.frames[frame]
            .sites
            .push(super::cfg::Site { inst, kind, env });
    }

    /// `continue` with the loop-carried values.
    fn emit_continue(
        &mut self,
        at: &Inst,
        frame: usize,
        carried: &[Key],
    ) -> Result<(), SpirvError> {
        let mut args: Vec<Value> = Vec::new();
        for key in carried {
            let template = self.frames[frame]
                .pre
                .get(*key)
                .cloned()
                .ok_or_else(|| at.invalid("loop-carried value without an initial value"))?;
            let current = match self.env.get(*key) {
                Some(v) if v.same_shape(&template) => v.clone(),
                Some(_) => {
                    return Err(at.unsupported(
                        "a loop-carried pointer or image that changes between iterations",
                    ))
                }
                None => self.zero_like(&template),
            };
            current.leaves(&mut args);
        }
        self.builder().continue_(&args);
        Ok(())
    }

    /// `OpSelectionMerge` + `OpBranchConditional` (or a conditional break/continue).
    fn lower_if(
        &mut self,
        at: &Inst,
        from: Id,
        cond: Value,
        t: Id,
        f: Id,
        merge: Option<Id>,
    ) -> Result<Flow, SpirvError> {
        self.check_nesting(at)?;
        if self.ty(cond) != Type::Bool {
            return Err(at.mismatch("the branch condition is not a bool"));
        }
        let parent = self.block;
        let (ir, [then_block, else_block]) = self.builder().begin_if(cond, &[]);
        let pre = self.env.clone();
        let frame = Frame::new(
            FrameKind::If { merge },
            Some(ir),
            Vec::new(),
            pre.clone(),
            self.visited.len(),
            at,
        );
        self.frames.push(frame);
        for (arm, target) in [(then_block, t), (else_block, f)] {
            self.block = arm;
            self.env = pre.clone();
            self.lower_arm(at, from, target)?;
        }
        let frame = self
            .frames
            .pop()
            .expect("the if frame pushed above is on top");
        self.block = parent;
        match (self.close_if(frame)?, merge) {
            (true, Some(m)) => Ok(Flow::Next(m)),
            _ => Ok(Flow::Done),
        }
    }

    /// Lifts an arm that starts with the edge `from -> target`.
    fn lower_arm(&mut self, at: &Inst, from: Id, target: Id) -> Result<(), SpirvError> {
        let flow = match self.jump(at, from, target)? {
            Flow::Next(n) => self.lower_seq(n, at)?,
            flow => flow,
        };
        match flow {
            Flow::Returned => {
                Err(at.unstructured("a return from inside a construct of an inlined function"))
            }
            _ => Ok(()),
        }
    }
}
