//! Scoping (structured SSA's dominance) and definitions.
//!
//! A value is in scope after its definition in the block that defines it and in every block
//! nested below that point; a block's parameters are in scope throughout the block and below.
//! An instruction's results come into scope after the blocks it owns, so an `if`'s arms cannot
//! see its results. Each value must be defined exactly once, where its `def` field says.

use super::structure::{Event, Walk};
use super::{Errors, VerifyErrorKind as E};
use crate::ir::entities::{Block, Inst, Value};
use crate::ir::function::{Function, ValueDef};
use cranelift_entity::EntitySet;

pub(super) fn check<'f>(func: &'f Function, walk: &Walk, errors: &mut Errors<'f>) {
    let mut scope = Scope {
        func,
        errors,
        visible: EntitySet::new(),
        defined: EntitySet::new(),
        log: Vec::new(),
        marks: Vec::new(),
    };
    for &event in &walk.events {
        match event {
            Event::Enter(block) => scope.enter(block),
            Event::Inst(inst) => scope.uses(inst),
            Event::After(inst) => scope.results(inst),
            Event::Exit => scope.exit(),
        }
    }
}

/// Where a definition is, for messages.
#[derive(Clone, Copy)]
enum Site {
    Block(Block),
    Inst(Inst),
}

struct Scope<'a, 'f> {
    func: &'f Function,
    errors: &'a mut Errors<'f>,
    /// Values in scope at the current point of the walk.
    visible: EntitySet<Value>,
    /// Values defined anywhere so far.
    defined: EntitySet<Value>,
    /// Values brought into scope, in order, so that leaving a block can take its own back out.
    log: Vec<Value>,
    /// `log` length at each block entry.
    marks: Vec<usize>,
}

impl Scope<'_, '_> {
    fn enter(&mut self, block: Block) {
        self.marks.push(self.log.len());
        let func = self.func;
        for (i, &param) in func.blocks[block].params.iter().enumerate() {
            self.define(param, ValueDef::Param(block, i as u32), Site::Block(block));
        }
    }

    fn exit(&mut self) {
        let mark = self.marks.pop().unwrap_or(0);
        for v in self.log.drain(mark..) {
            self.visible.remove(v);
        }
    }

    fn uses(&mut self, inst: Inst) {
        let func = self.func;
        for (index, &value) in func.insts[inst].args.iter().enumerate() {
            let Some(data) = func.values.get(value) else {
                continue; // reported with the structure
            };
            if self.visible.contains(value) {
                continue;
            }
            let kind = match data.def {
                ValueDef::Undefined => E::Undefined { index, value },
                def => E::OutOfScope { index, value, def },
            };
            self.errors.at_inst(inst, kind);
        }
    }

    fn results(&mut self, inst: Inst) {
        let func = self.func;
        for (i, &result) in func.insts[inst].results.iter().enumerate() {
            self.define(result, ValueDef::Result(inst, i as u32), Site::Inst(inst));
        }
    }

    fn define(&mut self, value: Value, actual: ValueDef, site: Site) {
        let Some(data) = self.func.values.get(value) else {
            return; // reported with the structure
        };
        let kind = if !self.defined.insert(value) {
            Some(E::DefinedTwice { value })
        } else if data.def != actual {
            Some(E::WrongDef {
                value,
                recorded: data.def,
            })
        } else {
            None
        };
        if let Some(kind) = kind {
            match site {
                Site::Block(b) => self.errors.at_block(b, kind),
                Site::Inst(i) => self.errors.at_inst(i, kind),
            }
        }
        if self.visible.insert(value) {
            self.log.push(value);
        }
    }
}
