//! Effectful operations: memory, textures, stage inputs and outputs, built-ins, barriers.
//!
//! These stay in the control-flow skeleton when the optimizer builds its e-graph; they refer to
//! pure values (e-classes) but are never duplicated, removed or moved across each other by
//! rewriting.
//!
//! # Binding model
//! - Storage and uniform buffers are addressed by `(set, binding)` (Vulkan descriptor sets; TGSI
//!   `BUFFER[n]` is set 0, binding n and `CONST[n]` is a uniform buffer at set 0, binding n) and a
//!   byte offset. A load with several results reads consecutive, tightly packed scalars starting at
//!   the offset; a store writes its values likewise.
//! - Push constants are one byte-addressed block per function.
//! - Workgroup-shared memory is one byte-addressed block per workgroup of
//!   `Function::shared_memory` bytes.
//! - Private memory is one byte-addressed block per invocation of `Function::private_bytes`
//!   bytes, undefined until stored (the interpreter starts it zeroed).
//! - Textures and samplers are `(set, binding)` too; a combined image-sampler names the same
//!   binding for both.
//!
//! Offsets are `i32` values (plus a constant byte offset); an access outside the bound buffer is
//! an interpreter error, not undefined behaviour.
//!
//! # Atomics
//! `atomic OP SPACE [offset]` is an indivisible read-modify-write of one 32-bit integer in a
//! storage buffer or workgroup memory ([`AtomicOp`]); its one result is the value the word held
//! before. Atomics are sequentially consistent: every implementation runs them one after another
//! in some order, and the reference interpreter fixes that order (workgroups in dispatch order,
//! within a workgroup one instruction at a time in ascending lane order), so its results are
//! deterministic. Shaders whose outputs depend on the order are only checkable against the
//! interpreter's order, which the oracle corpus avoids. Atomic loads and stores need no
//! operation of their own: a plain load or store of one aligned word is already indivisible in
//! every implementation the project targets, and the IR gives plain accesses program order.
//!
//! # Geometry stage
//! A geometry invocation reads the vertices of its input primitive with `vertex_input SLOT
//! vIDX`: the value the previous stage wrote to `SLOT` (an [`OutputSlot`], so a vertex
//! shader's outputs feed it unchanged) for vertex `vIDX` (an `i32`, constant or computed) of
//! the primitive. It writes outputs with `output` as a vertex shader does, and `emit_vertex
//! STREAM` appends a vertex with the current output values to the stream; afterwards every
//! output is undefined until written again (GLSL's `EmitStreamVertex`). `end_primitive
//! STREAM` ends the current strip of the stream, so the next vertex starts a new one.

use super::entities::Value;
use super::image::{texel_class, ImageOp, ImageTypeError};
use super::types::Type;
use core::fmt;

/// A descriptor-set binding.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
pub struct Binding {
    /// Descriptor set.
    pub set: u32,
    /// Binding within the set.
    pub binding: u32,
}

impl Binding {
    /// `(set, binding)`.
    pub fn new(set: u32, binding: u32) -> Binding {
        Binding { set, binding }
    }
}

impl fmt::Display for Binding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.set, self.binding)
    }
}

/// Where a load or store goes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum AddressSpace {
    /// A storage buffer (read-write).
    Storage(Binding),
    /// A uniform buffer (read-only).
    Uniform(Binding),
    /// The push-constant block (read-only).
    PushConstant,
    /// Workgroup-shared memory.
    Workgroup,
    /// The function's own read-only data ([`crate::ir::Function::constant_data`]): tables the
    /// front end placed in memory rather than in registers (a large constant array indexed
    /// dynamically), which the runtime supplies with the binary.
    Constant,
    /// Each invocation's own memory ([`crate::ir::Function::private_bytes`] bytes): a large
    /// array the front end placed in memory rather than in registers (a local array indexed
    /// dynamically). Its contents are undefined until stored (as a SPIR-V `Function` variable
    /// without an initializer; the G13 does not clear its stack); the interpreter and the
    /// simulator start it zeroed, one choice among those. Nothing else can observe it, helper
    /// invocations of a fragment shader store to it like the others, and it needs no atomics.
    Private,
}

impl AddressSpace {
    /// True if stores are allowed.
    pub fn is_writable(self) -> bool {
        matches!(
            self,
            AddressSpace::Storage(_) | AddressSpace::Workgroup | AddressSpace::Private
        )
    }
}

/// A memory access: the space and a constant byte offset added to the dynamic offset operand.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct MemAccess {
    /// Address space.
    pub space: AddressSpace,
    /// Constant byte offset.
    pub offset: u32,
}

/// An atomic read-modify-write on one 32-bit integer word. `old` is the word's value before,
/// `v` the value operand; the word becomes the given expression and the result is `old`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum AtomicOp {
    /// `old + v`, wrapping.
    Add,
    /// `old - v`, wrapping.
    Sub,
    /// Signed `min(old, v)`.
    SMin,
    /// Unsigned `min(old, v)`.
    UMin,
    /// Signed `max(old, v)`.
    SMax,
    /// Unsigned `max(old, v)`.
    UMax,
    /// `old & v`.
    And,
    /// `old | v`.
    Or,
    /// `old ^ v`.
    Xor,
    /// `v` (exchange).
    Exchange,
    /// Compare-exchange: operands `cmp, v`; the word becomes `v` if `old == cmp`, else stays.
    CompareExchange,
}

impl AtomicOp {
    /// Every operation, in text-form order.
    pub const ALL: [AtomicOp; 11] = [
        AtomicOp::Add,
        AtomicOp::Sub,
        AtomicOp::SMin,
        AtomicOp::UMin,
        AtomicOp::SMax,
        AtomicOp::UMax,
        AtomicOp::And,
        AtomicOp::Or,
        AtomicOp::Xor,
        AtomicOp::Exchange,
        AtomicOp::CompareExchange,
    ];

    /// The text-form name (`atomic add`, ...).
    pub fn name(self) -> &'static str {
        match self {
            AtomicOp::Add => "add",
            AtomicOp::Sub => "sub",
            AtomicOp::SMin => "smin",
            AtomicOp::UMin => "umin",
            AtomicOp::SMax => "smax",
            AtomicOp::UMax => "umax",
            AtomicOp::And => "and",
            AtomicOp::Or => "or",
            AtomicOp::Xor => "xor",
            AtomicOp::Exchange => "xchg",
            AtomicOp::CompareExchange => "cmpxchg",
        }
    }

    /// The operation named `name` in the text form.
    pub fn from_name(name: &str) -> Option<AtomicOp> {
        AtomicOp::ALL.into_iter().find(|op| op.name() == name)
    }

    /// Number of value operands after the offset (2 for compare-exchange: `cmp, v`).
    pub fn value_operands(self) -> usize {
        if self == AtomicOp::CompareExchange {
            2
        } else {
            1
        }
    }

    /// The word's new value from its old value and the value operands (`[v]`, or `[cmp, v]`
    /// for compare-exchange), as 32-bit patterns.
    pub fn apply(self, old: u32, values: &[u32]) -> u32 {
        let v = values.last().copied().unwrap_or(0);
        match self {
            AtomicOp::Add => old.wrapping_add(v),
            AtomicOp::Sub => old.wrapping_sub(v),
            AtomicOp::SMin => (old as i32).min(v as i32) as u32,
            AtomicOp::UMin => old.min(v),
            AtomicOp::SMax => (old as i32).max(v as i32) as u32,
            AtomicOp::UMax => old.max(v),
            AtomicOp::And => old & v,
            AtomicOp::Or => old | v,
            AtomicOp::Xor => old ^ v,
            AtomicOp::Exchange => v,
            AtomicOp::CompareExchange => {
                if values.first() == Some(&old) {
                    v
                } else {
                    old
                }
            }
        }
    }
}

/// Which memory a barrier orders.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum BarrierKind {
    /// Execution and memory barrier across the workgroup (GLSL `barrier()`).
    Workgroup,
    /// Memory barrier only (GLSL `memoryBarrier*()`).
    Memory,
}

/// A built-in input value.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Builtin {
    /// `gl_GlobalInvocationID` component (0..3), i32.
    GlobalId(u8),
    /// `gl_LocalInvocationID` component, i32.
    LocalId(u8),
    /// `gl_WorkGroupID` component, i32.
    WorkgroupId(u8),
    /// Workgroup size component, i32.
    WorkgroupSize(u8),
    /// `gl_NumWorkGroups` component, i32.
    NumWorkgroups(u8),
    /// `gl_LocalInvocationIndex`, i32.
    LocalIndex,
    /// `gl_FragCoord` component (x, y at pixel centres; z; w), f32.
    FragCoord(u8),
    /// `gl_FrontFacing`, bool.
    FrontFacing,
    /// `gl_HelperInvocation`, bool.
    HelperInvocation,
    /// `gl_VertexIndex`, i32.
    VertexIndex,
    /// `gl_InstanceIndex`, i32.
    InstanceIndex,
    /// `gl_PrimitiveIDIn` of a geometry shader: the index of the input primitive in the draw,
    /// i32.
    PrimitiveId,
    /// `gl_InvocationID` of a geometry shader: which of the `invocations` runs for the same
    /// primitive this is, i32.
    InvocationId,
}

impl Builtin {
    /// The result type.
    pub fn ty(self) -> Type {
        match self {
            Builtin::FragCoord(_) => Type::F32,
            Builtin::FrontFacing | Builtin::HelperInvocation => Type::Bool,
            _ => Type::I32,
        }
    }
}

/// Fragment input interpolation.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Interp {
    /// Perspective-correct (the default).
    Perspective,
    /// Linear in screen space (`noperspective`).
    Linear,
    /// Not interpolated (`flat`): the provoking vertex's value.
    Flat,
}

/// A stage input: a location and component (fragment varyings, vertex attributes).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct InputSlot {
    /// Location.
    pub location: u32,
    /// Component within the location (0..4).
    pub component: u8,
    /// Interpolation (fragment stage; vertex attributes use `Flat`).
    pub interp: Interp,
}

/// A stage output.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum OutputSlot {
    /// A user output: fragment colour target `location` or vertex varying `location`.
    Location {
        /// Location.
        location: u32,
        /// Component (0..4).
        component: u8,
    },
    /// Vertex `gl_Position` component.
    Position(u8),
    /// Vertex `gl_PointSize`.
    PointSize,
    /// Fragment `gl_FragDepth`.
    FragDepth,
}

/// Screen-space derivative direction.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Axis {
    /// Horizontal (`ddx`).
    X,
    /// Vertical (`ddy`).
    Y,
}

/// Derivative precision (SPIR-V `OpDPdxFine`/`Coarse`; the plain form lets the target choose).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum DerivPrecision {
    /// Implementation's choice (the reference interpreter uses fine).
    Default,
    /// Per row/column of the 2x2 quad.
    Fine,
    /// One value per quad (from its top-left pixel's row/column).
    Coarse,
}

/// Texture dimensionality.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum TexDim {
    /// 1D.
    D1,
    /// 2D.
    D2,
    /// 3D.
    D3,
    /// Cube map (3 direction coordinates).
    Cube,
}

impl TexDim {
    /// Number of coordinates (excluding the array layer).
    pub fn coords(self) -> usize {
        match self {
            TexDim::D1 => 1,
            TexDim::D2 => 2,
            TexDim::D3 | TexDim::Cube => 3,
        }
    }

    /// Number of size components a query returns (excluding the array layer count).
    pub fn size_components(self) -> usize {
        match self {
            TexDim::D1 => 1,
            TexDim::D2 | TexDim::Cube => 2,
            TexDim::D3 => 3,
        }
    }

    /// Text-form name.
    pub fn name(self) -> &'static str {
        match self {
            TexDim::D1 => "1d",
            TexDim::D2 => "2d",
            TexDim::D3 => "3d",
            TexDim::Cube => "cube",
        }
    }
}

/// A texture's dimensionality and arrayness.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct TexTarget {
    /// Dimensionality.
    pub dim: TexDim,
    /// True for array textures (an extra layer coordinate).
    pub arrayed: bool,
}

/// How a sample chooses its level of detail.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum LodMode {
    /// From quad derivatives of the coordinates (fragment stage only).
    Implicit,
    /// Implicit plus a bias operand.
    Bias,
    /// An explicit LOD operand.
    Explicit,
    /// From explicit gradient operands.
    Grad,
    /// No filtered sample: the four texels of the bilinear footprint at the base level (LOD
    /// 0, whatever the sampler's filters say), each giving the named component (0 to 3, red
    /// to alpha; a shadow gather gives the comparison results). The results are the texels
    /// (i0, j1), (i1, j1), (i1, j0), (i0, j0) in that order, as the Vulkan specification's
    /// "Texel Gathering" section numbers them. 2D and cube targets only, no projector or
    /// minimum LOD.
    Gather(u8),
}

/// A filtered texture sample.
///
/// Operands, in order: `coords` (`target.dim.coords()` floats), the array layer (if arrayed), the
/// projector q (if `proj`: the coordinates, not the layer, are divided by it, and so is the
/// comparison reference), the comparison reference (if `shadow`), the bias or LOD (for those
/// modes), the gradients (`Grad`: d/dx of each coordinate, then d/dy of each), the minimum LOD
/// (if `min_lod`). Results: four floats, or one for shadow samples; four `i32` for an integer
/// texture (which must be sampled with nearest filtering, by Vulkan's rules).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct SampleOp {
    /// The texture.
    pub texture: Binding,
    /// The sampler (equal to `texture` for combined image-samplers).
    pub sampler: Binding,
    /// Dimensionality.
    pub target: TexTarget,
    /// LOD selection.
    pub lod: LodMode,
    /// Projective coordinates.
    pub proj: bool,
    /// Depth comparison.
    pub shadow: bool,
    /// A minimum-LOD clamp operand follows.
    pub min_lod: bool,
    /// Constant texel offset (SPIR-V `ConstOffset`), per coordinate.
    pub offset: [i8; 3],
}

impl SampleOp {
    /// True for a texture gather ([`LodMode::Gather`]).
    pub fn is_gather(&self) -> bool {
        matches!(self.lod, LodMode::Gather(_))
    }

    /// Why this gather's attributes do not fit together, if they do not (`None` for every
    /// other sample).
    pub fn gather_misfit(&self) -> Option<&'static str> {
        let LodMode::Gather(component) = self.lod else {
            return None;
        };
        Some(if !matches!(self.target.dim, TexDim::D2 | TexDim::Cube) {
            "a gather needs a 2D or cube target"
        } else if component > 3 {
            "a gather's component is 0 to 3"
        } else if self.shadow && component != 0 {
            "a shadow gather gathers component 0 (the comparison result)"
        } else if self.proj || self.min_lod {
            "a gather takes no projector or minimum LOD"
        } else if self.target.dim == TexDim::Cube && self.offset != [0; 3] {
            "a cube-map gather takes no offset"
        } else {
            return None;
        })
    }

    /// Number of operands this sample takes.
    pub fn arity(&self) -> usize {
        let n = self.target.dim.coords();
        n + self.target.arrayed as usize
            + self.proj as usize
            + self.shadow as usize
            + matches!(self.lod, LodMode::Bias | LodMode::Explicit) as usize
            + if self.lod == LodMode::Grad { 2 * n } else { 0 }
            + self.min_lod as usize
    }

    /// Number of results.
    pub fn result_count(&self) -> usize {
        if self.shadow && !self.is_gather() {
            1
        } else {
            4
        }
    }
}

/// An unfiltered texel fetch. Operands: integer coordinates, the layer (if arrayed), the level.
/// Results: four `f32`, or four `i32` for an integer texture. Out-of-range fetches return
/// zeros.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct FetchOp {
    /// The texture.
    pub texture: Binding,
    /// Dimensionality (not cube).
    pub target: TexTarget,
    /// Constant texel offset.
    pub offset: [i8; 3],
}

/// A size query. Operand: the level (i32). Results: the size per axis, then the layer count if
/// arrayed (all i32).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct SizeOp {
    /// The texture.
    pub texture: Binding,
    /// Dimensionality.
    pub target: TexTarget,
}

/// An operation with effects or environment dependence.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum EffectOp {
    /// Load consecutive scalars at `[offset operand + access.offset]`; one operand (i32 byte offset).
    Load(MemAccess),
    /// Store the value operands at `[offset operand + access.offset]`; operands: offset, values.
    Store(MemAccess),
    /// The byte size of the storage buffer bound at the binding (for runtime arrays); i32.
    BufferSize(Binding),
    /// A barrier.
    Barrier(BarrierKind),
    /// A built-in input.
    Builtin(Builtin),
    /// A stage input (fragment varying or vertex attribute).
    Input(InputSlot),
    /// A stage output; one operand.
    Output(OutputSlot),
    /// Screen-space derivative of a float operand, across the 2x2 quad.
    Derivative(Axis, DerivPrecision),
    /// Filtered texture sample.
    Sample(SampleOp),
    /// Texel fetch.
    Fetch(FetchOp),
    /// Texture size query.
    TexSize(SizeOp),
    /// Texture mip level count query; i32.
    TexLevels(Binding),
    /// Turn this invocation into a helper: it keeps running (so quad derivatives stay defined)
    /// but its stores and outputs are dropped (SPIR-V `OpDemoteToHelperInvocation`).
    Demote,
    /// A geometry input: the slot the previous stage wrote, of the input primitive's vertex
    /// given by the one `i32` operand (0 up to the primitive's vertex count); one numeric
    /// result. `frag_depth` is no vertex slot.
    VertexInput(OutputSlot),
    /// Appends a vertex with the current output values to a vertex stream (0 up to
    /// [`MAX_VERTEX_STREAMS`](super::MAX_VERTEX_STREAMS)); the outputs are undefined
    /// afterwards until written again.
    EmitVertex(u8),
    /// Ends the current output strip of a vertex stream.
    EndPrimitive(u8),
    /// Atomic read-modify-write of the `i32` at `[offset operand + access.offset]` in a storage
    /// buffer or workgroup memory; operands: offset, then [`AtomicOp::value_operands`] `i32`s;
    /// one `i32` result, the word's old value.
    Atomic(AtomicOp, MemAccess),
    /// Storage-image load (see [`ImageOp`]): `i32` coordinates in, four texel components out.
    ImageLoad(ImageOp),
    /// Storage-image store: `i32` coordinates, then four texel components.
    ImageStore(ImageOp),
    /// Storage-image size: the size per axis, then the layer count if arrayed (all `i32`).
    ImageSize(ImageOp),
}

/// Why an effect's operands or results do not fit it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EffectTypeError {
    /// The operand types are not the ones the effect takes.
    #[error("operands have types [{}], expected [{}]", list(.found), list(.expected))]
    Operands {
        /// The operands' types.
        found: Vec<Type>,
        /// The types the effect takes.
        expected: Vec<Type>,
    },
    /// The result types are not the ones the effect produces.
    #[error("results have types [{}], expected [{}]", list(.found), list(.expected))]
    Results {
        /// The results' types.
        found: Vec<Type>,
        /// The types the effect produces.
        expected: Vec<Type>,
    },
    /// A load without results.
    #[error("a load needs at least one result")]
    LoadWithoutResults,
    /// A store to uniform memory or push constants.
    #[error("store to a read-only address space")]
    StoreToReadOnly,
    /// A store's operands are not an i32 offset and one or more values.
    #[error("a store takes an i32 offset and at least one value")]
    StoreOperands,
    /// An input's result is not one numeric value.
    #[error("an input has one numeric result")]
    InputResult,
    /// An output's operand is not one numeric value.
    #[error("an output takes one numeric operand")]
    OutputOperand,
    /// A derivative's operand and result are not one float of one type.
    #[error("a derivative maps one float to the same type")]
    Derivative,
    /// A sample's operands are not the given number of floats.
    #[error("a sample takes {0} float operands")]
    SampleOperands(usize),
    /// A gather whose attributes do not fit together (see [`LodMode::Gather`]).
    #[error("{0}")]
    Gather(&'static str),
    /// A sample's results are not the given number of floats (or four `i32`).
    #[error("a sample has {0} float (or 4 i32) results")]
    SampleResults(usize),
    /// A texel fetch from a cube map (SPIR-V fetches from cube maps are not allowed).
    #[error("fetch from a cube map")]
    FetchFromCube,
    /// A fetch's results are not four floats (or four `i32`).
    #[error("a fetch has 4 float (or 4 i32) results")]
    FetchResults,
    /// A per-vertex input's operand is not one `i32` vertex index, or its result not one
    /// numeric value.
    #[error("a vertex input takes one i32 vertex index and has one numeric result")]
    VertexInput,
    /// An atomic outside storage buffers and workgroup memory.
    #[error("atomics work on storage buffers and workgroup memory only")]
    AtomicSpace,
    /// A storage-image operation does not fit its image.
    #[error(transparent)]
    Image(#[from] ImageTypeError),
}

mod signature;

use signature::list;
pub use signature::SampleOperands;
