//! Which tracked registers each construct must hand on.
//!
//! Structured SSA passes values out of an `if` through its results and around a loop through
//! its parameters. Threading every register through every construct would be correct but
//! noisy, so this pass computes classic backward liveness on the statement tree (a fixpoint
//! per loop) and records, per construct:
//!
//! - `after`: registers live when the construct is left;
//! - `head`: for loops, registers live at the top of the body (the loop parameters are the
//!   written ones among them);
//! - `writes`: registers some statement inside may write.
//!
//! An `if` yields `writes ∩ after`; a loop carries `writes ∩ head` and produces
//! `writes ∩ after`. Uses are over-approximated (every swizzled component of every source;
//! every element an indirect access may reach), which only ever threads a value too many.
//!
//! The outputs are read at the shader's exits, except in a geometry shader, which reads them
//! at each `EMIT` instead.

use super::regs::{is_tracked, RegId, RegSet, RegTable};
use crate::tgsi::ast::{Processor, Program, RegFile, RegRef};
use crate::tgsi::decls::Decls;
use crate::tgsi::error::{Result, TgsiError};
use crate::tgsi::limits::MAX_LIVENESS_BITS;
use crate::tgsi::opcode::Opcode;
use crate::tgsi::structure::{Stmt, Tree};
use std::cell::RefCell;
use std::collections::HashMap;

/// Per-construct register sets (indexed by the construct's `node`).
#[derive(Clone, Debug)]
pub struct Liveness {
    /// Live when the construct is left.
    pub after: Vec<RegSet>,
    /// Live at the top of a loop body (empty for `if`s).
    pub head: Vec<RegSet>,
    /// Possibly written inside.
    pub writes: Vec<RegSet>,
}

/// Uses and definitions of one instruction.
struct Effects {
    uses: RegSet,
    /// Certainly overwritten (direct destinations).
    kills: RegSet,
    /// Possibly written.
    writes: RegSet,
}

/// An array of a register file (`None`: the whole file) and a component mask.
type ArrayKey = (RegFile, Option<u32>, u8);

struct Analysis<'a> {
    /// The components of every register an indirect access may reach, by (file, array id,
    /// component mask): computed once per array.
    arrays: RefCell<HashMap<ArrayKey, RegSet>>,
    program: &'a Program,
    decls: &'a Decls,
    regs: &'a RegTable,
    effects: Vec<Option<Effects>>,
    outputs: RegSet,
    /// Live at an exit (`END`, `RET`): the outputs, or nothing for a geometry shader.
    exit: RegSet,
    live: Liveness,
}

/// Computes liveness for `tree`.
pub fn analyze(program: &Program, decls: &Decls, regs: &RegTable, tree: &Tree) -> Result<Liveness> {
    let n = regs.len();
    if n.saturating_mul(tree.nodes.max(1)).saturating_mul(3) > MAX_LIVENESS_BITS {
        return Err(TgsiError::limit(
            program.header_pos,
            format!("{n} register components in {} constructs", tree.nodes),
        ));
    }
    let mut outputs = RegSet::new(n);
    for id in regs.outputs() {
        outputs.insert(id);
    }
    let exit = if program.processor == Processor::Geometry {
        RegSet::new(n)
    } else {
        outputs.clone()
    };
    let mut a = Analysis {
        arrays: Default::default(),
        program,
        decls,
        regs,
        effects: (0..program.insts.len()).map(|_| None).collect(),
        outputs,
        exit,
        live: Liveness {
            after: vec![RegSet::new(n); tree.nodes],
            head: vec![RegSet::new(n); tree.nodes],
            writes: vec![RegSet::new(n); tree.nodes],
        },
    };
    a.writes_of(&tree.body)?;
    let end = a.exit.clone();
    let empty = RegSet::new(n);
    a.block(&tree.body, end, &empty, &empty)?;
    Ok(a.live)
}

impl Analysis<'_> {
    fn effects(&mut self, i: usize) -> Result<&Effects> {
        if self.effects[i].is_none() {
            let e = self.compute(i)?;
            self.effects[i] = Some(e);
        }
        Ok(self.effects[i]
            .as_ref()
            .expect("effects were just computed"))
    }

    /// Adds the components `comps` (a bit mask) of the registers `reg` may name.
    fn reg_uses(&self, reg: &RegRef, comps: u8, set: &mut RegSet) -> Result<()> {
        for index in [reg.index.indirect, reg.dimension.and_then(|d| d.indirect)]
            .into_iter()
            .flatten()
        {
            if let Some(id) = self.regs.id(index.file, index.index, index.comp) {
                set.insert(id);
            }
        }
        if !is_tracked(reg.file) {
            return Ok(());
        }
        if reg.index.indirect.is_some() {
            let key = (reg.file, reg.array_id.filter(|&id| id != 0), comps);
            if let Some(elements) = self.arrays.borrow().get(&key) {
                set.union_with(elements);
                return Ok(());
            }
            let mut elements = RegSet::new(self.regs.len());
            for index in self.decls.elements(reg)? {
                self.add_components(reg.file, index, comps, &mut elements);
            }
            set.union_with(&elements);
            self.arrays.borrow_mut().insert(key, elements);
        } else if let Ok(index) = u32::try_from(reg.index.offset) {
            self.add_components(reg.file, index, comps, set);
        }
        Ok(())
    }

    fn add_components(&self, file: RegFile, index: u32, comps: u8, set: &mut RegSet) {
        for comp in 0..4u8 {
            if comps & (1 << comp) != 0 {
                if let Some(id) = self.regs.id(file, index, comp) {
                    set.insert(id);
                }
            }
        }
    }

    fn compute(&self, i: usize) -> Result<Effects> {
        let n = self.regs.len();
        let inst = &self.program.insts[i];
        let mut e = Effects {
            uses: RegSet::new(n),
            kills: RegSet::new(n),
            writes: RegSet::new(n),
        };
        for src in &inst.srcs {
            let comps = src.swizzle.iter().fold(0u8, |m, &c| m | 1 << c);
            self.reg_uses(&src.reg, comps, &mut e.uses)?;
        }
        if inst.opcode == Opcode::EMIT {
            e.uses.union_with(&self.outputs);
        }
        for off in &inst.tex_offsets {
            let comps = off.swizzle.iter().fold(0u8, |m, &c| m | 1 << c);
            self.reg_uses(&off.reg, comps, &mut e.uses)?;
        }
        for dst in &inst.dsts {
            let reg = &dst.reg;
            // Index registers of the destination are read.
            self.reg_uses(
                &RegRef {
                    file: RegFile::Null,
                    ..*reg
                },
                0,
                &mut e.uses,
            )?;
            if !is_tracked(reg.file) {
                continue;
            }
            if reg.index.indirect.is_some() {
                // Lowered to a select per element: every element is read and may be written.
                self.reg_uses(reg, dst.mask, &mut e.uses)?;
                self.reg_uses(reg, dst.mask, &mut e.writes)?;
            } else {
                self.reg_uses(reg, dst.mask, &mut e.kills)?;
                self.reg_uses(reg, dst.mask, &mut e.writes)?;
            }
        }
        Ok(e)
    }

    /// Fills `live.writes` for every construct; returns the writes of `stmts`.
    fn writes_of(&mut self, stmts: &[Stmt]) -> Result<RegSet> {
        let mut w = RegSet::new(self.regs.len());
        for s in stmts {
            match s {
                Stmt::Op(i) => {
                    let e = self.effects(*i)?;
                    w.union_with(&e.writes.clone());
                }
                Stmt::If {
                    node, then_, else_, ..
                } => {
                    let mut inner = self.writes_of(then_)?;
                    inner.union_with(&self.writes_of(else_)?);
                    w.union_with(&inner);
                    self.live.writes[*node] = inner;
                }
                Stmt::Loop { node, body, .. } => {
                    let inner = self.writes_of(body)?;
                    w.union_with(&inner);
                    self.live.writes[*node] = inner;
                }
                Stmt::Break(_) | Stmt::Continue(_) | Stmt::Return(_) => {}
            }
        }
        Ok(w)
    }

    /// Liveness before `stmts`, given liveness after them and at the enclosing loop's head
    /// (`cont`) and exit (`brk`).
    fn block(
        &mut self,
        stmts: &[Stmt],
        after: RegSet,
        cont: &RegSet,
        brk: &RegSet,
    ) -> Result<RegSet> {
        let mut live = after;
        for s in stmts.iter().rev() {
            live = match s {
                Stmt::Op(i) => {
                    if matches!(self.program.insts[*i].opcode, Opcode::KILL | Opcode::KILP) {
                        RegSet::new(self.regs.len())
                    } else {
                        let e = self.effects(*i)?;
                        let mut l = live;
                        l.subtract(&e.kills);
                        l.union_with(&e.uses);
                        l
                    }
                }
                Stmt::Break(_) => brk.clone(),
                Stmt::Continue(_) => cont.clone(),
                Stmt::Return(_) => self.exit.clone(),
                Stmt::If {
                    node,
                    inst,
                    then_,
                    else_,
                } => {
                    self.live.after[*node] = live.clone();
                    let mut l = self.block(then_, live.clone(), cont, brk)?;
                    l.union_with(&self.block(else_, live, cont, brk)?);
                    l.union_with(&self.effects(*inst)?.uses.clone());
                    l
                }
                Stmt::Loop {
                    node, body, once, ..
                } => {
                    self.live.after[*node] = live.clone();
                    let head = if *once {
                        self.block(body, live.clone(), &RegSet::new(self.regs.len()), &live)?
                    } else {
                        // Start from the head an enclosing loop's earlier round found: the sets
                        // only grow as the enclosing loop's do, so this stays a lower bound and
                        // nested loops cost rounds in proportion to their growth, not to the
                        // product of their depths. The last round runs with the final head,
                        // so nested tables are final.
                        let mut head = self.live.head[*node].clone();
                        loop {
                            let next = self.block(body, head.clone(), &head, &live)?;
                            if !head.union_with(&next) {
                                break head;
                            }
                        }
                    };
                    self.live.head[*node] = head.clone();
                    head
                }
            };
        }
        Ok(live)
    }
}

/// The ids in `a ∩ b`, in order.
pub fn both(a: &RegSet, b: &RegSet) -> Vec<RegId> {
    a.intersection(b).iter().collect()
}
