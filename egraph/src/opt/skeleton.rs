//! The control-flow skeleton: what stays in place while pure values float in the e-graph.
//!
//! A function's blocks keep their tree shape; each block keeps its effects, structured
//! instructions and terminator, in order, as [`Item`]s whose operands are e-class ids. Pure
//! instructions disappear into the e-graph; every value the skeleton defines (block parameters,
//! effect and `if`/`loop` results) is a [`Kind::Leaf`](super::language::Kind::Leaf) e-node.
//! Invariant reads (texture sizes, built-ins, stage inputs: see
//! [`floats`]) are pure enough to float and become e-nodes too.

use crate::ir::{Block, Builtin, EffectOp, InstFlags, Op, Type, Value};
use egg::Id;

/// A skeleton instruction.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// An anchored effect (load, store, output, derivative, barrier, fetch, demote, ...).
    Effect {
        /// The effect.
        op: EffectOp,
        /// Operands.
        args: Vec<Id>,
        /// Results (leaves) with their types.
        results: Vec<(Value, Type)>,
        /// Source flags.
        flags: InstFlags,
    },
    /// A texture sample: its operation is the e-class `class` (see `rules/texture.rs`).
    Sample {
        /// The sample's e-class.
        class: Id,
        /// Results (leaves) with their types.
        results: Vec<(Value, Type)>,
        /// Source flags.
        flags: InstFlags,
    },
    /// Structured conditional.
    If {
        /// Condition.
        cond: Id,
        /// Results (leaves) with their types.
        results: Vec<(Value, Type)>,
        /// The `then` arm.
        then_block: Block,
        /// The `else` arm.
        else_block: Block,
        /// Source flags.
        flags: InstFlags,
    },
    /// Structured loop.
    Loop {
        /// Initial values of the body's parameters.
        init: Vec<Id>,
        /// Results (leaves) with their types.
        results: Vec<(Value, Type)>,
        /// The body.
        body: Block,
        /// Source flags.
        flags: InstFlags,
    },
    /// `yield`, `break`, `continue`, `return` or `discard`.
    Terminator {
        /// Which one.
        op: Op,
        /// Operands.
        args: Vec<Id>,
        /// Source flags.
        flags: InstFlags,
    },
}

impl Item {
    /// The e-classes this item reads directly (for a sample: its operation's class).
    pub fn uses(&self) -> &[Id] {
        match self {
            Item::Effect { args, .. } | Item::Terminator { args, .. } => args,
            Item::Sample { class, .. } | Item::If { cond: class, .. } => {
                core::slice::from_ref(class)
            }
            Item::Loop { init, .. } => init,
        }
    }

    /// The e-classes this item reads, mutably (for canonicalization after saturation).
    pub fn uses_mut(&mut self) -> &mut [Id] {
        match self {
            Item::Effect { args, .. } | Item::Terminator { args, .. } => args,
            Item::Sample { class, .. } | Item::If { cond: class, .. } => {
                core::slice::from_mut(class)
            }
            Item::Loop { init, .. } => init,
        }
    }

    /// The blocks this item owns.
    pub fn blocks(&self) -> Vec<Block> {
        match self {
            Item::If {
                then_block,
                else_block,
                ..
            } => vec![*then_block, *else_block],
            Item::Loop { body, .. } => vec![*body],
            _ => vec![],
        }
    }

    /// The values this item defines.
    pub fn results(&self) -> &[(Value, Type)] {
        match self {
            Item::Effect { results, .. }
            | Item::Sample { results, .. }
            | Item::If { results, .. }
            | Item::Loop { results, .. } => results,
            Item::Terminator { .. } => &[],
        }
    }
}

/// A skeleton block.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SkelBlock {
    /// Parameters (loop bodies), with their types.
    pub params: Vec<(Value, Type)>,
    /// Items in order; the last is a terminator.
    pub items: Vec<Item>,
    /// The block and item index of the structured item owning this block (`None` for the
    /// entry block).
    pub parent: Option<(Block, usize)>,
}

/// A function's skeleton.
#[derive(Clone, Debug, Default)]
pub struct Skeleton {
    /// The entry block.
    pub entry: Option<Block>,
    /// Every reachable block, in pre-order.
    pub blocks: indexmap::IndexMap<Block, SkelBlock>,
}

impl Skeleton {
    /// A block.
    pub fn block(&self, b: Block) -> Option<&SkelBlock> {
        self.blocks.get(&b)
    }

    /// Every e-class an item reads (the roots of extraction), in program order.
    pub fn roots(&self) -> Vec<Id> {
        self.blocks
            .values()
            .flat_map(|b| b.items.iter().flat_map(|i| i.uses().iter().copied()))
            .collect()
    }

    /// Replaces every e-class id by its canonical id.
    pub fn canonicalize(&mut self, find: impl Fn(Id) -> Id) {
        for b in self.blocks.values_mut() {
            for item in &mut b.items {
                for id in item.uses_mut() {
                    *id = find(*id);
                }
            }
        }
    }
}

/// True for the effects that become floating e-nodes: invariant reads (their result depends only
/// on the invocation and its bound resources, `EffectOp::is_invariant_read`), except
/// `helper_invocation`, which a `demote` changes.
pub fn floats(op: &EffectOp) -> bool {
    op.is_invariant_read() && !matches!(op, EffectOp::Builtin(Builtin::HelperInvocation))
}
