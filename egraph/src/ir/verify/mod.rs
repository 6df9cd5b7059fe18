//! The IR verifier: checks that a function is well formed and reports every problem it finds,
//! each naming the offending instruction (with its printed line), block or value.
//!
//! The checks run in four passes over one walk of the block tree:
//! - [`structure`]: every entity a function refers to exists; every reachable block ends in
//!   exactly one terminator and is owned by exactly one structured instruction (whose `parent`
//!   field agrees); `if` owns `[then, else]` without parameters, `loop` owns one body whose
//!   parameters match the initial values; `yield`, `break` and `continue` sit where they may
//!   and pass what their target expects;
//! - [`types`]: operand and result types of every operation, against the operation table's
//!   signatures, the constants' types and the effects' rules;
//! - [`scope`]: every operand is defined before its use in the same block or in an enclosing one
//!   (structured SSA's dominance), and every value is defined exactly where its `def` says;
//! - [`stage`]: stage-specific operations appear only in their stage.
//!
//! Only blocks reachable from the entry block are checked: entities a pass left behind are not
//! errors. The walk is cycle-safe, so the verifier never loops or panics on broken input.

mod scope;
mod stage;
mod structure;
mod types;

#[cfg(test)]
mod tests;

use super::effects::{EffectTypeError, OutputSlot};
use super::entities::{Block, Inst, Value};
use super::function::{Function, Stage, ValueDef};
use super::signature::SignatureError;
use super::types::Type;
use core::fmt;

/// The deepest nesting of structured instructions the verifier, printer and parser accept
/// (real shaders stay far below it; the limit bounds the recursion of all three).
pub const MAX_NESTING: usize = 256;

/// Checks a function, collecting every error.
///
/// ```
/// use agxc_egraph::ir::{verify, Builder, Function, PureOp, Stage};
///
/// let mut func = Function::new("main", Stage::Compute);
/// let mut b = Builder::new(&mut func);
/// let x = b.f32(1.0);
/// let n = b.i32(2);
/// b.pure(PureOp::Fadd, &[x, n]); // f32 + i32: ill-typed
/// b.return_();
/// let errors = verify(&func).unwrap_err();
/// assert_eq!(
///     errors.to_string(),
///     "inst2 (v2:f32 = fadd v0, v1): operand 1 has type i32, expected f32"
/// );
/// ```
pub fn verify(func: &Function) -> Result<(), VerifyErrors> {
    let mut errors = Errors {
        func,
        list: Vec::new(),
    };
    let walk = structure::check(func, &mut errors);
    types::check(func, &walk, &mut errors);
    scope::check(func, &walk, &mut errors);
    stage::check(func, &walk, &mut errors);
    if errors.list.is_empty() {
        Ok(())
    } else {
        Err(VerifyErrors {
            errors: errors.list,
        })
    }
}

/// Every error the verifier found, in the order of the passes and, within a pass, program order.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct VerifyErrors {
    /// The errors (never empty).
    pub errors: Vec<VerifyError>,
}

impl VerifyErrors {
    /// The errors.
    pub fn iter(&self) -> impl Iterator<Item = &VerifyError> {
        self.errors.iter()
    }
}

impl fmt::Display for VerifyErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.errors.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

/// One problem: where it is and what it is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{location}: {kind}")]
pub struct VerifyError {
    /// The offending entity.
    pub location: Location,
    /// What is wrong.
    pub kind: VerifyErrorKind,
}

/// The entity an error is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// The function as a whole (its header or entry).
    Function(String),
    /// A block.
    Block(Block),
    /// An instruction and its printed line (`v5:f32 = fadd v3, v4`).
    Inst(Inst, String),
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Function(name) => write!(f, "function @{name}"),
            Location::Block(b) => write!(f, "{b}"),
            Location::Inst(i, line) => write!(f, "{i} ({line})"),
        }
    }
}

/// What is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VerifyErrorKind {
    // ---- entities
    /// A value number with no entry in the function's value table.
    #[error("refers to {0}, which does not exist")]
    NoSuchValue(Value),
    /// A block number with no entry in the block table.
    #[error("refers to {0}, which does not exist")]
    NoSuchBlock(Block),
    /// A block lists an instruction number with no entry in the instruction table.
    #[error("lists {0}, which does not exist")]
    NoSuchInst(Inst),

    // ---- structure
    /// The block's last instruction is not a terminator (or it has none).
    #[error("does not end in a terminator")]
    MissingTerminator,
    /// A terminator before the end of its block.
    #[error("is a terminator but not the last instruction of {0}")]
    EarlyTerminator(Block),
    /// An instruction listed twice (in one block or in two).
    #[error("appears in {0} but was already placed earlier")]
    PlacedTwice(Block),
    /// A block owned by two structured instructions (or twice by one, or by an instruction
    /// inside itself).
    #[error("owns {block}, which {first} already owns")]
    OwnedTwice {
        /// The block.
        block: Block,
        /// Its first owner in program order.
        first: Inst,
    },
    /// A structured instruction that owns the entry block.
    #[error("owns {0}, the entry block")]
    OwnsEntry(Block),
    /// A block's `parent` field disagrees with the instruction that owns it.
    #[error("is owned by {owner} but its parent field says {}", describe_parent(.recorded))]
    WrongParent {
        /// The owner found by the walk.
        owner: Inst,
        /// The `parent` field.
        recorded: Option<Inst>,
    },
    /// The entry block has a parent.
    #[error("is the entry block but its parent field says {0}")]
    EntryHasParent(Inst),
    /// The entry block has parameters.
    #[error("is the entry block but has parameters")]
    EntryHasParams,
    /// The entry block number does not exist.
    #[error("its entry {0} does not exist")]
    NoEntry(Block),
    /// Wrong number of owned blocks.
    #[error("owns {got} blocks, expected {expected}")]
    BlockCount {
        /// Expected number.
        expected: usize,
        /// Actual number.
        got: usize,
    },
    /// An `if` arm with parameters.
    #[error("has {block} as an arm, but an `if` arm takes no parameters")]
    ArmParams {
        /// The arm.
        block: Block,
    },
    /// A loop body whose parameters do not match the initial values in number.
    #[error("passes {got} initial values, but its body {body} has {expected} parameters")]
    LoopParamCount {
        /// The body.
        body: Block,
        /// Number of parameters.
        expected: usize,
        /// Number of initial values.
        got: usize,
    },
    /// A loop body parameter whose type differs from its initial value's.
    #[error("initial value {index} ({value}) has type {got}, but {body}'s parameter has type {expected}")]
    LoopParamType {
        /// The body.
        body: Block,
        /// Operand index.
        index: usize,
        /// The initial value.
        value: Value,
        /// Its type.
        got: Type,
        /// The parameter's type.
        expected: Type,
    },
    /// Nesting deeper than [`MAX_NESTING`].
    #[error("is nested deeper than {MAX_NESTING} levels")]
    TooDeep,

    // ---- terminators
    /// `yield` ending a block that is not an `if` arm.
    #[error("`yield` ends {0}, which is not an `if` arm")]
    YieldOutsideIf(Block),
    /// `yield` ending a loop body.
    #[error("`yield` ends loop body {0}; a loop body ends in `continue`, `break`, `return` or `discard`")]
    YieldEndsLoop(Block),
    /// `break` or `continue` with no enclosing loop.
    #[error("`{0}` is not inside a loop")]
    OutsideLoop(&'static str),
    /// A terminator passing the wrong number of values.
    #[error("passes {got} values, but {target} expects {expected}")]
    ExitArity {
        /// The `if` or `loop` that receives them.
        target: Inst,
        /// Expected number.
        expected: usize,
        /// Actual number.
        got: usize,
    },
    /// A terminator passing a value of the wrong type.
    #[error("value {index} ({value}) has type {got}, but {target} expects {expected}")]
    ExitType {
        /// The receiving `if` or `loop`.
        target: Inst,
        /// Operand index.
        index: usize,
        /// The value.
        value: Value,
        /// Its type.
        got: Type,
        /// The expected type.
        expected: Type,
    },

    // ---- types
    /// Operands or result do not fit the operation's signature.
    #[error("{0}")]
    Signature(SignatureError),
    /// Operands or results do not fit the effect.
    #[error("{0}")]
    Effect(EffectTypeError),
    /// Wrong number of operands.
    #[error("takes {expected} operands, found {got}")]
    OperandCount {
        /// Expected number.
        expected: usize,
        /// Actual number.
        got: usize,
    },
    /// Wrong number of results.
    #[error("has {got} results, expected {expected}")]
    ResultCount {
        /// Expected number.
        expected: usize,
        /// Actual number.
        got: usize,
    },
    /// A constant whose result type is not the constant's type.
    #[error("constant has type {constant}, but its result has type {result}")]
    ConstType {
        /// The constant's type.
        constant: Type,
        /// The result's type.
        result: Type,
    },
    /// An `if` condition that is not a bool.
    #[error("condition {value} has type {got}, expected bool")]
    Condition {
        /// The condition.
        value: Value,
        /// Its type.
        got: Type,
    },

    // ---- scope
    /// An operand that no instruction or block defines.
    #[error("operand {index} ({value}) is undefined")]
    Undefined {
        /// Operand index.
        index: usize,
        /// The value.
        value: Value,
    },
    /// An operand defined somewhere that does not dominate this use.
    #[error("operand {index} ({value}, {}) is not in scope here", describe_def(.def))]
    OutOfScope {
        /// Operand index.
        index: usize,
        /// The value.
        value: Value,
        /// Its recorded definition.
        def: ValueDef,
    },
    /// A value whose `def` field disagrees with where it appears.
    #[error("defines {value}, but the value's definition says {}", describe_def(.recorded))]
    WrongDef {
        /// The value.
        value: Value,
        /// Its `def` field.
        recorded: ValueDef,
    },
    /// A value defined in two places.
    #[error("defines {value}, which is already defined earlier")]
    DefinedTwice {
        /// The value.
        value: Value,
    },

    // ---- stage
    /// An operation its stage does not allow.
    #[error("{what} is only allowed in {allowed} shaders, not in a {} shader", .stage.name())]
    WrongStage {
        /// The operation or built-in.
        what: String,
        /// The stages that allow it.
        allowed: &'static str,
        /// The function's stage.
        stage: Stage,
    },
    /// A workgroup-shared access in a function that declares no shared memory.
    #[error("accesses workgroup-shared memory, but the function declares none")]
    NoSharedMemory,
    /// A private-memory access in a function that declares no private memory.
    #[error("accesses private memory, but the function declares none")]
    NoPrivateMemory,
    /// An atomic on private memory (only one invocation sees it).
    #[error("atomics on private memory are not allowed")]
    PrivateAtomic,
    /// A vector component out of range.
    #[error("component {component} is out of range for {what} (at most {max})")]
    Component {
        /// The built-in or slot.
        what: &'static str,
        /// The component.
        component: u8,
        /// The largest allowed.
        max: u8,
    },
    /// A compute function with a zero workgroup dimension.
    #[error("local_size {0:?} has a zero dimension")]
    ZeroLocalSize([u32; 3]),
    /// A geometry mode outside what every implementation supports.
    #[error("geometry {what}({value}) is outside {min}..={max}")]
    GeometryLimit {
        /// The mode (`max_vertices`, `invocations`).
        what: &'static str,
        /// Its value.
        value: u32,
        /// The smallest allowed.
        min: u32,
        /// The largest allowed.
        max: u32,
    },
    /// A constant `vertex_input` index outside the input primitive.
    #[error("vertex index {index} is outside the input primitive's {count} vertices")]
    VertexIndex {
        /// The index.
        index: i32,
        /// The primitive's vertex count.
        count: u32,
    },
    /// A `vertex_input` of `frag_depth`, which no vertex has.
    #[error("frag_depth is not a vertex slot")]
    NotAVertexSlot,
}

fn describe_def(def: &ValueDef) -> String {
    match def {
        ValueDef::Result(inst, i) => format!("result {i} of {inst}"),
        ValueDef::Param(block, i) => format!("parameter {i} of {block}"),
        ValueDef::Undefined => "undefined".into(),
    }
}

fn describe_parent(parent: &Option<Inst>) -> String {
    match parent {
        Some(inst) => inst.to_string(),
        None => "none".into(),
    }
}

/// The output slots' component limits, for [`VerifyErrorKind::Component`].
fn output_component(slot: OutputSlot) -> Option<(&'static str, u8)> {
    match slot {
        OutputSlot::Location { component, .. } => Some(("an output location", component)),
        OutputSlot::Position(c) => Some(("position", c)),
        OutputSlot::PointSize | OutputSlot::FragDepth => None,
    }
}

/// The error list the passes append to.
struct Errors<'f> {
    func: &'f Function,
    list: Vec<VerifyError>,
}

impl Errors<'_> {
    fn at_inst(&mut self, inst: Inst, kind: VerifyErrorKind) {
        let line = self.func.display_inst(inst).to_string();
        self.list.push(VerifyError {
            location: Location::Inst(inst, line),
            kind,
        });
    }

    fn at_block(&mut self, block: Block, kind: VerifyErrorKind) {
        self.list.push(VerifyError {
            location: Location::Block(block),
            kind,
        });
    }

    fn at_function(&mut self, kind: VerifyErrorKind) {
        self.list.push(VerifyError {
            location: Location::Function(self.func.name.clone()),
            kind,
        });
    }
}
