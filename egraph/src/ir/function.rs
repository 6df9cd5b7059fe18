//! Functions: values, instructions and structured blocks.
//!
//! # Structure
//! A function body is a tree of blocks. A block is a straight-line list of instructions ending in
//! exactly one terminator. Structured control flow is kept explicit for the backend (which maps it
//! onto the G13's execution-mask stack):
//!
//! - `if` (operand: a bool) owns two blocks, *then* and *else*. Its results are the operands of
//!   the `yield` that ends whichever arm a lane took.
//! - `loop` (operands: initial values) owns one body block whose parameters are the loop-carried
//!   values. `continue` starts the next iteration with new values for the parameters; `break`
//!   leaves the innermost loop and its operands become the loop's results. Both may appear
//!   inside nested `if`s.
//! - `return` ends the invocation early; `discard` ends it and drops its fragment.
//!
//! A value is visible in the block that defines it (after its definition) and in every block
//! nested below that point, so structured SSA needs no phi nodes: values flow out of constructs
//! only through `yield` and `break`, and around loops through block parameters.

use super::constant::Const;
use super::custom::CustomOp;
use super::effects::EffectOp;
use super::entities::{Block, Inst, Value};
use super::geometry::GeometryModes;
use super::ops::PureOp;
use super::types::Type;
use cranelift_entity::PrimaryMap;
use smallvec::SmallVec;

/// The shader stage.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Stage {
    /// Compute (GLCompute).
    Compute,
    /// Fragment.
    Fragment,
    /// Vertex.
    Vertex,
    /// Geometry: one invocation per input primitive (times `invocations`), reading its
    /// vertices with `vertex_input` and emitting vertices with `emit_vertex`.
    Geometry(GeometryModes),
}

impl Stage {
    /// Text-form name.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Compute => "compute",
            Stage::Fragment => "fragment",
            Stage::Vertex => "vertex",
            Stage::Geometry(_) => "geometry",
        }
    }

    /// The geometry modes, for a geometry stage.
    pub fn geometry(self) -> Option<GeometryModes> {
        match self {
            Stage::Geometry(g) => Some(g),
            _ => None,
        }
    }
}

/// Execution modes carried from the source (SPIR-V `OpExecutionMode`, TGSI `PROPERTY`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct ExecutionModes {
    /// Compute workgroup size.
    pub local_size: [u32; 3],
    /// Fragment coordinates have their origin at the upper left (Vulkan's only choice).
    pub origin_upper_left: bool,
    /// Fragment coordinates are at integer positions rather than pixel centres.
    pub pixel_center_integer: bool,
    /// The fragment shader writes its depth.
    pub depth_replacing: bool,
    /// Depth and stencil tests run before the fragment shader.
    pub early_fragment_tests: bool,
}

impl Default for ExecutionModes {
    fn default() -> Self {
        ExecutionModes {
            local_size: [1, 1, 1],
            origin_upper_left: true,
            pixel_center_integer: false,
            depth_replacing: false,
            early_fragment_tests: false,
        }
    }
}

/// Per-instruction flags from the source.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct InstFlags(u8);

impl InstFlags {
    /// No flags.
    pub const NONE: InstFlags = InstFlags(0);
    /// The source forbids contracting this float operation with others (SPIR-V `NoContraction`,
    /// TGSI `_PRECISE`): the optimizer must not fuse it.
    pub const NO_CONTRACT: InstFlags = InstFlags(1);
    /// The source allows reduced precision (SPIR-V `RelaxedPrecision`): a target may compute it
    /// in 16 bits.
    pub const RELAXED: InstFlags = InstFlags(2);

    /// True if every flag in `other` is set.
    pub fn contains(self, other: InstFlags) -> bool {
        self.0 & other.0 == other.0
    }

    /// True if no flag is set.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Sets or clears `other`.
    pub fn set(&mut self, other: InstFlags, on: bool) {
        if on {
            self.0 |= other.0
        } else {
            self.0 &= !other.0
        }
    }
}

impl core::ops::BitOr for InstFlags {
    type Output = InstFlags;
    fn bitor(self, rhs: InstFlags) -> InstFlags {
        InstFlags(self.0 | rhs.0)
    }
}

/// What an instruction does.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Op {
    /// A pure operation from the table.
    Pure(PureOp),
    /// A target-defined pure operation.
    Custom(CustomOp),
    /// A constant (no operands, one result).
    Const(Const),
    /// An effectful operation.
    Effect(EffectOp),
    /// Structured conditional: operand `cond`, blocks `[then, else]`.
    If,
    /// Structured loop: operands are the initial loop-carried values, blocks `[body]`.
    Loop,
    /// Terminator ending an `if` arm; operands become the `if`'s results.
    Yield,
    /// Terminator leaving the innermost loop; operands become the loop's results.
    Break,
    /// Terminator starting the innermost loop's next iteration; operands are the new parameters.
    Continue,
    /// Terminator ending the invocation.
    Return,
    /// Terminator ending the invocation and dropping its fragment.
    Discard,
}

impl Op {
    /// True for block terminators.
    pub fn is_terminator(self) -> bool {
        matches!(
            self,
            Op::Yield | Op::Break | Op::Continue | Op::Return | Op::Discard
        )
    }

    /// True for pure operations (table, custom, constants): the ones the optimizer rewrites.
    pub fn is_pure(self) -> bool {
        matches!(self, Op::Pure(_) | Op::Custom(_) | Op::Const(_))
    }

    /// The text-form mnemonic.
    pub fn name(self) -> &'static str {
        match self {
            Op::Pure(p) => p.name(),
            Op::Custom(c) => c.name(),
            Op::Const(_) => "const",
            Op::Effect(e) => e.name(),
            Op::If => "if",
            Op::Loop => "loop",
            Op::Yield => "yield",
            Op::Break => "break",
            Op::Continue => "continue",
            Op::Return => "return",
            Op::Discard => "discard",
        }
    }
}

/// An instruction.
#[derive(Clone, Debug, PartialEq)]
pub struct InstData {
    /// The operation.
    pub op: Op,
    /// Operands.
    pub args: SmallVec<[Value; 4]>,
    /// Results.
    pub results: SmallVec<[Value; 2]>,
    /// Owned blocks (`if`: then, else; `loop`: body).
    pub blocks: SmallVec<[Block; 2]>,
    /// Source flags.
    pub flags: InstFlags,
}

/// Where a value comes from.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ValueDef {
    /// Result `index` of an instruction.
    Result(Inst, u32),
    /// Parameter `index` of a block.
    Param(Block, u32),
    /// Created but not (yet) defined: a parser placeholder or a builder's forward reference.
    Undefined,
}

/// A value's type and definition.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ValueData {
    /// Its type.
    pub ty: Type,
    /// Its definition.
    pub def: ValueDef,
}

/// A block: parameters, instructions (the last one a terminator) and the structured instruction
/// that owns it (`None` for the entry block).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BlockData {
    /// Parameters (loop bodies only).
    pub params: SmallVec<[Value; 2]>,
    /// Instructions in order.
    pub insts: Vec<Inst>,
    /// The owning `if` or `loop`.
    pub parent: Option<Inst>,
}

/// A shader entry point in graph IR.
#[derive(Clone, Debug)]
pub struct Function {
    /// Entry point name.
    pub name: String,
    /// Stage.
    pub stage: Stage,
    /// Execution modes.
    pub modes: ExecutionModes,
    /// Bytes of workgroup-shared memory.
    pub shared_memory: u32,
    /// Bytes of the push-constant block the shader declares (its extent: the end of its last
    /// member), 0 when it declares none or the front end does not know. A run must supply at
    /// least this many bytes.
    pub push_constant_bytes: u32,
    /// Read-only data that `constant` loads read (a multiple of 4 bytes, little endian):
    /// constant tables the front end moved out of registers. Empty for most functions.
    pub constant_data: Vec<u8>,
    /// Bytes of private memory each invocation has (`private` loads and stores): arrays the
    /// front end moved out of registers. 0 for most functions.
    pub private_bytes: u32,
    /// All values.
    pub values: PrimaryMap<Value, ValueData>,
    /// All instructions.
    pub insts: PrimaryMap<Inst, InstData>,
    /// All blocks.
    pub blocks: PrimaryMap<Block, BlockData>,
    /// The body.
    pub entry: Block,
}

impl Function {
    /// An empty function with an entry block (that has no terminator yet).
    pub fn new(name: impl Into<String>, stage: Stage) -> Function {
        let mut blocks = PrimaryMap::new();
        let entry = blocks.push(BlockData::default());
        Function {
            name: name.into(),
            stage,
            modes: ExecutionModes::default(),
            shared_memory: 0,
            push_constant_bytes: 0,
            constant_data: Vec::new(),
            private_bytes: 0,
            values: PrimaryMap::new(),
            insts: PrimaryMap::new(),
            blocks,
            entry,
        }
    }

    /// The type of a value.
    pub fn value_type(&self, v: Value) -> Type {
        self.values[v].ty
    }

    /// An instruction.
    pub fn inst(&self, i: Inst) -> &InstData {
        &self.insts[i]
    }

    /// A block.
    pub fn block(&self, b: Block) -> &BlockData {
        &self.blocks[b]
    }

    /// Creates a value (used by builders and parsers).
    pub fn make_value(&mut self, ty: Type, def: ValueDef) -> Value {
        self.values.push(ValueData { ty, def })
    }

    /// Creates an instruction that is not yet in any block.
    pub fn make_inst(&mut self, data: InstData) -> Inst {
        self.insts.push(data)
    }

    /// Creates an empty block owned by `parent`.
    pub fn make_block(&mut self, parent: Option<Inst>) -> Block {
        self.blocks.push(BlockData {
            parent,
            ..BlockData::default()
        })
    }

    /// The terminator of a block, if its last instruction is one.
    pub fn terminator(&self, b: Block) -> Option<Inst> {
        let last = *self.blocks[b].insts.last()?;
        self.insts[last].op.is_terminator().then_some(last)
    }

    /// Visits every instruction reachable from the entry block in program order (pre-order: an
    /// `if` or `loop` is visited before the blocks it owns), with the block holding it.
    ///
    /// The function must be well formed (see [`verify`](super::verify)): a block owned twice
    /// would be visited twice, and an ownership cycle would not terminate.
    pub fn for_each_inst(&self, mut f: impl FnMut(Block, Inst)) {
        let mut stack = vec![(self.entry, 0usize)];
        while let Some((block, pos)) = stack.pop() {
            let Some(&inst) = self.blocks[block].insts.get(pos) else {
                continue;
            };
            f(block, inst);
            stack.push((block, pos + 1));
            for &child in self.insts[inst].blocks.iter().rev() {
                stack.push((child, 0));
            }
        }
    }

    /// The number of instructions reachable from the entry block.
    pub fn inst_count(&self) -> usize {
        let mut n = 0;
        self.for_each_inst(|_, _| n += 1);
        n
    }
}
