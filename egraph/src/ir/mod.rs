//! The graph IR: scalar SSA values in structured blocks.
//!
//! - [`types`](Type), [`constants`](Const) and [`entities`](Value) are the vocabulary;
//! - [`PureOp`] is the operation table (name, signature, evaluation, [`Precision`]: the single
//!   definition every other part derives from), [`CustomOp`] lets a target add its own operations, and
//!   [`EffectOp`] covers memory, textures, stage I/O (with the geometry stage's per-vertex
//!   inputs and vertex emission), built-ins and barriers;
//! - [`Function`] holds values, instructions and blocks with explicit structured control flow;
//! - [`Builder`] appends instructions, [`verify`] checks a function, and the text form prints
//!   with `Display` and reads back with [`parse_function`].

#[cfg(any(test, feature = "arbitrary"))]
pub mod arbitrary;
mod builder;
mod constant;
mod custom;
mod effects;
mod entities;
pub(crate) mod eval;
mod function;
mod geometry;
mod image;
mod ops;
mod precision;
mod signature;
pub mod text;
mod types;
mod verify;

pub use builder::Builder;
pub use constant::{Const, ConstParseError};
pub use custom::{CustomOp, CustomOpDef, OpRegistry};
pub use effects::{
    AddressSpace, AtomicOp, Axis, BarrierKind, Binding, Builtin, DerivPrecision, EffectOp,
    EffectTypeError, FetchOp, InputSlot, Interp, LodMode, MemAccess, OutputSlot, SampleOp,
    SampleOperands, SizeOp, TexDim, TexTarget,
};
pub use entities::{Block, Inst, Value};
pub use function::{
    BlockData, ExecutionModes, Function, InstData, InstFlags, Op, Stage, ValueData, ValueDef,
};
pub use geometry::{
    GeometryModes, InputPrimitive, OutputPrimitive, MAX_GEOMETRY_INVOCATIONS,
    MAX_GEOMETRY_OUTPUT_VERTICES, MAX_VERTEX_STREAMS,
};
pub use image::{texel_class, ImageFormat, ImageOp, ImageTypeError, TexelClass};
pub use ops::{Flags, PureOp};
pub use precision::Precision;
pub use signature::{Class, Signature, SignatureError, Width};
pub use text::{parse_function, FunctionDisplay, ParseError, ParseErrorKind};
pub use types::Type;
pub use verify::{verify, Location, VerifyError, VerifyErrorKind, VerifyErrors, MAX_NESTING};
