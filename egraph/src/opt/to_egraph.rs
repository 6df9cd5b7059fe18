//! From a function to a skeleton plus an e-graph of its pure values.
//!
//! One walk over the blocks in program order: pure instructions become e-nodes (identical ones
//! are shared by hash-consing, which is common-subexpression elimination for free); invariant
//! reads become floating e-nodes; every other effect, structured instruction and terminator
//! becomes a skeleton [`Item`] referring to e-classes; values the skeleton defines become leaves.
//! The relaxed-precision flag is recorded per e-class (see [`Lowered::relaxed`]).

use super::analysis::EGraph;
use super::language::{Kind, Node};
use super::skeleton::{floats, Item, SkelBlock, Skeleton};
use crate::ir::{Block, EffectOp, Function, InstFlags, Op, Type, Value};
use egg::Id;
use std::collections::HashMap;

/// Why a function could not be put into the e-graph (only for input the verifier should have
/// rejected).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LowerError {
    /// An operand that no earlier instruction or parameter defines.
    #[error("{inst}: operand {value} is used before it is defined")]
    Undefined {
        /// The instruction, by its entity name.
        inst: String,
        /// The value.
        value: Value,
    },
    /// A structured instruction without the blocks it needs.
    #[error("{inst}: {what}")]
    Malformed {
        /// The instruction, by its entity name.
        inst: String,
        /// What is wrong.
        what: &'static str,
    },
}

/// The result of putting a function into the e-graph.
#[derive(Debug, Default)]
pub struct Lowered {
    /// The skeleton.
    pub skeleton: Skeleton,
    /// The e-class of every value of the input function.
    pub classes: HashMap<Value, Id>,
    /// E-classes of pure instructions that carried `RELAXED`.
    pub relaxed: Vec<Id>,
    /// E-classes of pure instructions that did not.
    pub strict: Vec<Id>,
}

impl Lowered {
    /// The classes whose every pure instruction in the input allowed relaxed precision (a value
    /// computed both ways keeps full precision), by canonical id.
    pub fn relaxed_classes(&self, egraph: &EGraph) -> std::collections::HashSet<Id> {
        let strict: std::collections::HashSet<Id> =
            self.strict.iter().map(|&id| egraph.find(id)).collect();
        self.relaxed
            .iter()
            .map(|&id| egraph.find(id))
            .filter(|id| !strict.contains(id))
            .collect()
    }
}

/// Puts `func` into `egraph`.
pub fn lower(func: &Function, egraph: &mut EGraph) -> Result<Lowered, LowerError> {
    let mut cx = Cx {
        func,
        egraph,
        out: Lowered::default(),
    };
    cx.out.skeleton.entry = Some(func.entry);
    cx.block(func.entry, None)?;
    Ok(cx.out)
}

struct Cx<'a> {
    func: &'a Function,
    egraph: &'a mut EGraph,
    out: Lowered,
}

impl Cx<'_> {
    fn leaf(&mut self, value: Value) -> (Value, Type) {
        let ty = self.func.value_type(value);
        let id = self.egraph.add(Node::leaf(Kind::Leaf { value, ty }));
        self.out.classes.insert(value, id);
        (value, ty)
    }

    fn operands(&self, inst: crate::ir::Inst) -> Result<Vec<Id>, LowerError> {
        self.func.insts[inst]
            .args
            .iter()
            .map(|v| {
                self.out
                    .classes
                    .get(v)
                    .copied()
                    .ok_or_else(|| LowerError::Undefined {
                        inst: inst.to_string(),
                        value: *v,
                    })
            })
            .collect()
    }

    fn block(&mut self, b: Block, parent: Option<(Block, usize)>) -> Result<(), LowerError> {
        let params: Vec<(Value, Type)> = self.func.blocks[b]
            .params
            .iter()
            .map(|&p| self.leaf(p))
            .collect();
        self.out.skeleton.blocks.insert(
            b,
            SkelBlock {
                params,
                items: Vec::new(),
                parent,
            },
        );
        for &inst in &self.func.blocks[b].insts {
            let data = &self.func.insts[inst];
            let args = self.operands(inst)?;
            let flags = data.flags;
            let item = match data.op {
                Op::Pure(_) | Op::Custom(_) | Op::Const(_) => {
                    for &r in &data.results {
                        let ty = self.func.value_type(r);
                        let kind = Kind::from_op(data.op, ty, flags).ok_or_else(|| {
                            LowerError::Malformed {
                                inst: inst.to_string(),
                                what: "not a pure operation",
                            }
                        })?;
                        let id = self.egraph.add(Node::new(kind, &args));
                        self.out.classes.insert(r, id);
                        if flags.contains(InstFlags::RELAXED) {
                            self.out.relaxed.push(id);
                        } else {
                            self.out.strict.push(id);
                        }
                    }
                    continue;
                }
                Op::Effect(op) if floats(&op) => {
                    for (i, &r) in data.results.iter().enumerate() {
                        let ty = self.func.value_type(r);
                        let kind = Kind::Invariant {
                            op,
                            index: i as u8,
                            ty,
                        };
                        let id = self.egraph.add(Node::new(kind, &args));
                        self.out.classes.insert(r, id);
                    }
                    continue;
                }
                Op::Effect(EffectOp::Sample(s)) => {
                    let class = self.egraph.add(Node::new(Kind::Sample(s), &args));
                    let results = data.results.iter().map(|&r| self.leaf(r)).collect();
                    Item::Sample {
                        class,
                        results,
                        flags,
                    }
                }
                Op::Effect(op) => {
                    let results = data.results.iter().map(|&r| self.leaf(r)).collect();
                    Item::Effect {
                        op,
                        args,
                        results,
                        flags,
                    }
                }
                Op::If => {
                    let index = self.items_len(b);
                    let (then_block, else_block) = match data.blocks.as_slice() {
                        [t, e] => (*t, *e),
                        _ => {
                            return Err(LowerError::Malformed {
                                inst: inst.to_string(),
                                what: "an `if` needs two blocks",
                            })
                        }
                    };
                    self.block(then_block, Some((b, index)))?;
                    self.block(else_block, Some((b, index)))?;
                    let results = data.results.iter().map(|&r| self.leaf(r)).collect();
                    let cond = args.first().copied().ok_or_else(|| LowerError::Malformed {
                        inst: inst.to_string(),
                        what: "an `if` needs a condition",
                    })?;
                    Item::If {
                        cond,
                        results,
                        then_block,
                        else_block,
                        flags,
                    }
                }
                Op::Loop => {
                    let index = self.items_len(b);
                    let body = match data.blocks.as_slice() {
                        [body] => *body,
                        _ => {
                            return Err(LowerError::Malformed {
                                inst: inst.to_string(),
                                what: "a `loop` needs one block",
                            })
                        }
                    };
                    self.block(body, Some((b, index)))?;
                    let results = data.results.iter().map(|&r| self.leaf(r)).collect();
                    Item::Loop {
                        init: args,
                        results,
                        body,
                        flags,
                    }
                }
                op => Item::Terminator { op, args, flags },
            };
            self.push(b, item);
        }
        Ok(())
    }

    fn items_len(&self, b: Block) -> usize {
        self.out
            .skeleton
            .blocks
            .get(&b)
            .map_or(0, |s| s.items.len())
    }

    fn push(&mut self, b: Block, item: Item) {
        if let Some(s) = self.out.skeleton.blocks.get_mut(&b) {
            s.items.push(item);
        }
    }
}
