//! The block tree: entity references, terminators, block ownership, and where `yield`, `break`
//! and `continue` may go. Also records the walk the other passes follow.

use super::{Errors, VerifyErrorKind as E, MAX_NESTING};
use crate::ir::entities::{Block, Inst, Value};
use crate::ir::function::{Function, Op};
use cranelift_entity::{EntitySet, SecondaryMap};

/// A step of the pre-order walk over the reachable block tree.
#[derive(Clone, Copy, Debug)]
pub(super) enum Event {
    /// Entering a block (its parameters come into scope).
    Enter(Block),
    /// An instruction, before the blocks it owns.
    Inst(Inst),
    /// The same instruction after its blocks (its results come into scope).
    After(Inst),
    /// Leaving a block.
    Exit,
}

/// The walk, and the instructions that refer to entities that do not exist (the other passes
/// skip those, since their operands and results cannot be looked up).
pub(super) struct Walk {
    pub events: Vec<Event>,
    pub broken: EntitySet<Inst>,
}

/// An enclosing structured instruction and which of its blocks the walk is in.
#[derive(Clone, Copy)]
struct Frame {
    owner: Inst,
    is_loop: bool,
    block: Block,
}

pub(super) fn check<'f>(func: &'f Function, errors: &mut Errors<'f>) -> Walk {
    let mut walker = Walker {
        func,
        errors,
        walk: Walk {
            events: Vec::new(),
            broken: EntitySet::new(),
        },
        owner: SecondaryMap::new(),
        placed: EntitySet::new(),
        frames: Vec::new(),
    };
    let entry = func.entry;
    match func.blocks.get(entry) {
        None => walker.errors.at_function(E::NoEntry(entry)),
        Some(data) => {
            if let Some(parent) = data.parent {
                walker.errors.at_block(entry, E::EntryHasParent(parent));
            }
            if !data.params.is_empty() {
                walker.errors.at_block(entry, E::EntryHasParams);
            }
            walker.block(entry);
        }
    }
    walker.walk
}

struct Walker<'a, 'f> {
    func: &'f Function,
    errors: &'a mut Errors<'f>,
    walk: Walk,
    /// The structured instruction that owns each block reached so far.
    owner: SecondaryMap<Block, Option<Inst>>,
    /// Instructions already placed in a block.
    placed: EntitySet<Inst>,
    frames: Vec<Frame>,
}

impl Walker<'_, '_> {
    fn block(&mut self, block: Block) {
        let func = self.func;
        self.walk.events.push(Event::Enter(block));
        let data = &func.blocks[block];
        for &param in &data.params {
            if !func.values.is_valid(param) {
                self.errors.at_block(block, E::NoSuchValue(param));
            }
        }
        let n = data.insts.len();
        for (pos, &inst) in data.insts.iter().enumerate() {
            let Some(inst_data) = func.insts.get(inst) else {
                self.errors.at_block(block, E::NoSuchInst(inst));
                continue;
            };
            if !self.placed.insert(inst) {
                self.errors.at_inst(inst, E::PlacedTwice(block));
                continue;
            }
            self.check_refs(inst);
            let is_terminator = inst_data.op.is_terminator();
            if is_terminator && pos + 1 < n {
                self.errors.at_inst(inst, E::EarlyTerminator(block));
            }
            self.walk.events.push(Event::Inst(inst));
            if !self.walk.broken.contains(inst) {
                self.check_blocks(inst);
                if is_terminator {
                    self.check_exit(inst, block);
                }
            }
            self.children(inst);
            self.walk.events.push(Event::After(inst));
        }
        let ends_well = data
            .insts
            .last()
            .and_then(|&last| func.insts.get(last))
            .is_some_and(|last| last.op.is_terminator());
        if !ends_well {
            self.errors.at_block(block, E::MissingTerminator);
        }
        self.walk.events.push(Event::Exit);
    }

    /// Reports values and blocks the instruction names that do not exist.
    fn check_refs(&mut self, inst: Inst) {
        let func = self.func;
        let data = &func.insts[inst];
        let missing_values = data
            .args
            .iter()
            .chain(&data.results)
            .filter(|&&v| !func.values.is_valid(v));
        let mut broken = false;
        for &v in missing_values {
            self.errors.at_inst(inst, E::NoSuchValue(v));
            broken = true;
        }
        for &b in data.blocks.iter().filter(|&&b| !func.blocks.is_valid(b)) {
            self.errors.at_inst(inst, E::NoSuchBlock(b));
            broken = true;
        }
        if broken {
            self.walk.broken.insert(inst);
        }
    }

    /// The number and shape of the blocks an instruction owns.
    fn check_blocks(&mut self, inst: Inst) {
        let func = self.func;
        let data = &func.insts[inst];
        let expected = match data.op {
            Op::If => 2,
            Op::Loop => 1,
            _ => 0,
        };
        if data.blocks.len() != expected {
            self.errors.at_inst(
                inst,
                E::BlockCount {
                    expected,
                    got: data.blocks.len(),
                },
            );
        }
        match data.op {
            Op::If => {
                for &arm in &data.blocks {
                    if !func.blocks[arm].params.is_empty() {
                        self.errors.at_inst(inst, E::ArmParams { block: arm });
                    }
                }
            }
            Op::Loop => {
                if let Some(&body) = data.blocks.first() {
                    self.check_loop_params(inst, body);
                }
            }
            _ => {}
        }
    }

    fn check_loop_params(&mut self, inst: Inst, body: Block) {
        let func = self.func;
        let init = &func.insts[inst].args;
        let params = &func.blocks[body].params;
        if init.len() != params.len() {
            self.errors.at_inst(
                inst,
                E::LoopParamCount {
                    body,
                    expected: params.len(),
                    got: init.len(),
                },
            );
            return;
        }
        for (index, (&value, &param)) in init.iter().zip(params).enumerate() {
            let (Some(got), Some(expected)) = (func.values.get(value), func.values.get(param))
            else {
                continue;
            };
            if got.ty != expected.ty {
                self.errors.at_inst(
                    inst,
                    E::LoopParamType {
                        body,
                        index,
                        value,
                        got: got.ty,
                        expected: expected.ty,
                    },
                );
            }
        }
    }

    /// Where a terminator may appear and what it must pass.
    fn check_exit(&mut self, inst: Inst, block: Block) {
        let func = self.func;
        let data = &func.insts[inst];
        match data.op {
            Op::Yield => match self.frames.last().copied() {
                None => self.errors.at_inst(inst, E::YieldOutsideIf(block)),
                Some(frame) if frame.is_loop => self.errors.at_inst(inst, E::YieldEndsLoop(block)),
                Some(frame) => {
                    let want = &func.insts[frame.owner].results;
                    self.check_passed(inst, frame.owner, want);
                }
            },
            Op::Break | Op::Continue => {
                let Some(frame) = self.frames.iter().rev().find(|f| f.is_loop).copied() else {
                    let word = if data.op == Op::Break {
                        "break"
                    } else {
                        "continue"
                    };
                    self.errors.at_inst(inst, E::OutsideLoop(word));
                    return;
                };
                let want = if data.op == Op::Break {
                    &func.insts[frame.owner].results
                } else {
                    &func.blocks[frame.block].params
                };
                self.check_passed(inst, frame.owner, want);
            }
            Op::Return | Op::Discard if !data.args.is_empty() => {
                self.errors.at_inst(
                    inst,
                    E::OperandCount {
                        expected: 0,
                        got: data.args.len(),
                    },
                );
            }
            _ => {}
        }
        if !data.results.is_empty() {
            self.errors.at_inst(
                inst,
                E::ResultCount {
                    expected: 0,
                    got: data.results.len(),
                },
            );
        }
    }

    /// Compares a terminator's operands with the values (results or parameters) they become.
    fn check_passed(&mut self, inst: Inst, target: Inst, want: &[Value]) {
        let func = self.func;
        let args = &func.insts[inst].args;
        if args.len() != want.len() {
            self.errors.at_inst(
                inst,
                E::ExitArity {
                    target,
                    expected: want.len(),
                    got: args.len(),
                },
            );
            return;
        }
        for (index, (&value, &w)) in args.iter().zip(want).enumerate() {
            let (Some(got), Some(expected)) = (func.values.get(value), func.values.get(w)) else {
                continue;
            };
            if got.ty != expected.ty {
                self.errors.at_inst(
                    inst,
                    E::ExitType {
                        target,
                        index,
                        value,
                        got: got.ty,
                        expected: expected.ty,
                    },
                );
            }
        }
    }

    /// Descends into the blocks an instruction owns, each at most once in the whole walk.
    fn children(&mut self, inst: Inst) {
        let func = self.func;
        let data = &func.insts[inst];
        let is_loop = data.op == Op::Loop;
        for &child in &data.blocks {
            let Some(child_data) = func.blocks.get(child) else {
                continue;
            };
            if child == func.entry {
                self.errors.at_inst(inst, E::OwnsEntry(child));
                continue;
            }
            if let Some(first) = self.owner[child] {
                self.errors.at_inst(
                    inst,
                    E::OwnedTwice {
                        block: child,
                        first,
                    },
                );
                continue;
            }
            self.owner[child] = Some(inst);
            if child_data.parent != Some(inst) {
                self.errors.at_block(
                    child,
                    E::WrongParent {
                        owner: inst,
                        recorded: child_data.parent,
                    },
                );
            }
            if self.frames.len() >= MAX_NESTING {
                self.errors.at_inst(inst, E::TooDeep);
                continue;
            }
            self.frames.push(Frame {
                owner: inst,
                is_loop,
                block: child,
            });
            self.block(child);
            self.frames.pop();
        }
    }
}
