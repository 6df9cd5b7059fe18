//! Entity keys of the graph IR: SSA values, instructions and blocks.
//!
//! Their `Display` is the name the text form uses (`v12`, `inst3`, `block4`), so an error message
//! that names an entity can be matched against a dump directly.

use cranelift_entity::entity_impl;

/// An SSA value: an instruction result or a block parameter.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Value(u32);
entity_impl!(Value, "v");

/// An instruction.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Inst(u32);
entity_impl!(Inst, "inst");

/// A block: a straight-line list of instructions ending in a terminator, owned by the function
/// (the entry block) or by a structured instruction (`if` arms, `loop` bodies).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Block(u32);
entity_impl!(Block, "block");
