//! The interpreter's error type: every error names the instruction (`instN`, as in the text
//! form's numbering) or the launch parameter at fault.

use crate::ir::text::syntax;
use crate::ir::{AddressSpace, Binding, Builtin, Inst, OutputSlot, TexTarget, Value, VerifyErrors};

/// Why a run stopped.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InterpError {
    /// The function does not verify; the interpreter only defines the meaning of valid IR.
    #[error("the function does not verify: {0}")]
    Invalid(#[from] VerifyErrors),
    /// The function is for another stage than the one being run.
    #[error("function is a {got} shader, the run expects {expected}")]
    WrongStage {
        /// The stage the run executes.
        expected: &'static str,
        /// The function's stage.
        got: &'static str,
    },
    /// A workgroup of no invocations or of more than [`Limits::max_lanes`].
    ///
    /// [`Limits::max_lanes`]: super::Limits::max_lanes
    #[error("bad launch: workgroup size {size:?} must have between 1 and {limit} invocations")]
    WorkgroupSize {
        /// `local_size`.
        size: [u32; 3],
        /// The lane limit.
        limit: usize,
    },
    /// A fragment grid needing more lanes (pixels and helper lanes) than the limit.
    #[error(
        "bad launch: a {width}x{height} grid needs {lanes} lanes, more than the limit of {limit}"
    )]
    GridSize {
        /// Grid width.
        width: u32,
        /// Grid height.
        height: u32,
        /// Lanes the padded grid needs.
        lanes: usize,
        /// The lane limit.
        limit: usize,
    },
    /// More vertices than the lane limit.
    #[error("bad launch: {count} vertices exceed the limit of {limit} lanes")]
    VertexCount {
        /// Vertices requested.
        count: u32,
        /// The lane limit.
        limit: usize,
    },
    /// A vertex attribute with fewer vertices than the run.
    #[error("bad launch: attribute location {location} has {supplied} vertices, {needed} needed")]
    MissingVertices {
        /// The attribute location.
        location: u32,
        /// Vertices supplied.
        supplied: usize,
        /// Vertices run.
        needed: usize,
    },
    /// More shared memory than [`Limits::max_shared_memory`].
    ///
    /// [`Limits::max_shared_memory`]: super::Limits::max_shared_memory
    #[error("bad launch: the function declares {bytes} bytes of shared memory, more than the limit of {limit}")]
    SharedMemory {
        /// The function's `shared_memory`.
        bytes: u32,
        /// The limit.
        limit: usize,
    },
    /// A structure the verifier guarantees is missing (the interpreter checks instead of
    /// panicking).
    #[error("{inst}: malformed: {reason}")]
    Malformed {
        /// The instruction.
        inst: Inst,
        /// What is wrong.
        reason: String,
    },
    /// An observer (`run_compute_observed`) stopped the run.
    #[error("{inst}: observer: {reason}")]
    Observer {
        /// The instruction.
        inst: Inst,
        /// The observer's reason.
        reason: String,
    },
    /// A value was read on a lane where it was never defined.
    #[error("{inst}: reads {value}, which has no value here")]
    UndefinedValue {
        /// The reading instruction.
        inst: Inst,
        /// The value.
        value: Value,
    },
    /// No buffer is bound where a load, store or size query looks.
    #[error("{inst}: no {kind} buffer bound at {binding}")]
    MissingBuffer {
        /// The instruction.
        inst: Inst,
        /// The binding.
        binding: Binding,
        /// `storage` or `uniform`.
        kind: &'static str,
    },
    /// A memory access falls outside its buffer.
    #[error("{inst}: {size}-byte access at byte offset {offset} is outside {space} ({len} bytes)")]
    OutOfBounds {
        /// The instruction.
        inst: Inst,
        /// The memory accessed, in text-form spelling.
        space: String,
        /// The byte offset of the scalar that falls outside.
        offset: i64,
        /// The scalar's size in bytes.
        size: u32,
        /// The buffer's size in bytes.
        len: usize,
    },
    /// A scalar access is not aligned to its size.
    #[error("{inst}: {size}-byte access at byte offset {offset} of {space} is misaligned")]
    Misaligned {
        /// The instruction.
        inst: Inst,
        /// The memory accessed.
        space: String,
        /// The byte offset.
        offset: i64,
        /// The scalar's size (its required alignment) in bytes.
        size: u32,
    },
    /// A store to read-only memory (uniform buffers, push constants, or any resource of a
    /// vertex run, which borrows its resources read-only).
    #[error("{inst}: store to read-only {space}")]
    ReadOnlyStore {
        /// The instruction.
        inst: Inst,
        /// The memory.
        space: String,
    },
    /// No texture bound at a binding.
    #[error("{inst}: no texture bound at {binding}")]
    MissingTexture {
        /// The instruction.
        inst: Inst,
        /// The binding.
        binding: Binding,
    },
    /// No sampler bound at a binding.
    #[error("{inst}: no sampler bound at {binding}")]
    MissingSampler {
        /// The instruction.
        inst: Inst,
        /// The binding.
        binding: Binding,
    },
    /// The bound texture's target differs from the instruction's.
    #[error("{inst}: texture at {binding} is {got:?}, the instruction expects {expected:?}")]
    TextureTarget {
        /// The instruction.
        inst: Inst,
        /// The binding.
        binding: Binding,
        /// The instruction's target.
        expected: TexTarget,
        /// The texture's target.
        got: TexTarget,
    },
    /// A texel access whose component type or declared format does not fit the bound
    /// texture or storage image (undefined in Vulkan, an error here).
    #[error("{inst}: texture at {binding}: {reason}")]
    TexelMismatch {
        /// The instruction.
        inst: Inst,
        /// The binding.
        binding: Binding,
        /// What does not fit.
        reason: &'static str,
    },
    /// A shadow sample with a sampler that has no compare operation, or the reverse.
    #[error("{inst}: {reason}")]
    SamplerMismatch {
        /// The instruction.
        inst: Inst,
        /// What does not fit.
        reason: &'static str,
    },
    /// A fragment varying or vertex attribute the shader reads was not supplied.
    #[error("{inst}: no {what} supplied for location {location}")]
    MissingInput {
        /// The instruction.
        inst: Inst,
        /// `varying` or `attribute`.
        what: &'static str,
        /// The location.
        location: u32,
    },
    /// A built-in that the stage does not provide.
    #[error("{inst}: built-in {builtin:?} is not available in {stage} shaders")]
    BuiltinUnavailable {
        /// The instruction.
        inst: Inst,
        /// The built-in.
        builtin: Builtin,
        /// The stage.
        stage: &'static str,
    },
    /// An operation that the stage does not allow (derivatives outside fragment shaders, ...).
    #[error("{inst}: {what} is not allowed in {stage} shaders")]
    NotInStage {
        /// The instruction.
        inst: Inst,
        /// The operation.
        what: &'static str,
        /// The stage.
        stage: &'static str,
    },
    /// A workgroup barrier reached by only some of the workgroup's running invocations.
    #[error(
        "{inst}: workgroup barrier in divergent control flow \
         ({active} of {running} running invocations reach it)"
    )]
    DivergentBarrier {
        /// The barrier.
        inst: Inst,
        /// Invocations executing it.
        active: usize,
        /// Invocations that have not ended.
        running: usize,
    },
    /// A single execution of a loop ran more iterations than allowed.
    #[error("{inst}: loop ran more than {limit} iterations")]
    LoopLimit {
        /// The loop instruction.
        inst: Inst,
        /// The limit.
        limit: u64,
    },
    /// The whole run executed more lane-instructions than allowed.
    #[error("{inst}: step limit of {limit} lane-instructions reached{}", loop_note(.in_loop))]
    StepLimit {
        /// The instruction being executed.
        inst: Inst,
        /// The innermost loop executing it, if any.
        in_loop: Option<Inst>,
        /// The limit.
        limit: u64,
    },
    /// Geometry input vertices that are not a whole number of input primitives.
    #[error(
        "bad launch: {vertices} vertices are not a whole number of {primitive} \
         ({per_primitive} vertices each)"
    )]
    PrimitiveVertices {
        /// Vertices supplied.
        vertices: usize,
        /// The input primitive's name.
        primitive: &'static str,
        /// Vertices per primitive.
        per_primitive: u32,
    },
    /// A geometry launch too large for the lane limit: each invocation (primitives times
    /// invocations per primitive) is a lane, and so is each vertex it may emit.
    #[error(
        "bad launch: {invocations} geometry invocations emitting up to {max_vertices} vertices \
         each exceed the limit of {limit} lanes"
    )]
    GeometrySize {
        /// Invocations the launch needs.
        invocations: u64,
        /// `max_vertices`.
        max_vertices: u32,
        /// The lane limit.
        limit: usize,
    },
    /// A computed `vertex_input` index outside the input primitive.
    #[error("{inst}: vertex index {index} is outside the input primitive's {count} vertices")]
    VertexIndex {
        /// The instruction.
        inst: Inst,
        /// The index.
        index: i64,
        /// Vertices per primitive.
        count: u32,
    },
    /// An input vertex without a value for the slot a `vertex_input` reads.
    #[error("{inst}: input vertex {vertex} has no value for {}", syntax::output(*.slot))]
    MissingVertexSlot {
        /// The instruction.
        inst: Inst,
        /// The vertex's index in the launch's vertex list.
        vertex: usize,
        /// The slot.
        slot: OutputSlot,
    },
    /// A geometry invocation emitting more vertices than its `max_vertices` (undefined in
    /// GLSL).
    #[error("{inst}: emits more than max_vertices = {limit} vertices")]
    TooManyVertices {
        /// The `emit_vertex`.
        inst: Inst,
        /// `max_vertices`.
        limit: u32,
    },
}

fn loop_note(inst: &Option<Inst>) -> String {
    match inst {
        Some(l) => format!(" inside the loop {l}"),
        None => String::new(),
    }
}

/// The text-form spelling of an address space, for error messages.
pub(crate) fn space_name(space: AddressSpace) -> String {
    match space {
        AddressSpace::Storage(b) => format!("storage({}, {})", b.set, b.binding),
        AddressSpace::Uniform(b) => format!("uniform({}, {})", b.set, b.binding),
        AddressSpace::PushConstant => "push".into(),
        AddressSpace::Workgroup => "shared".into(),
        AddressSpace::Constant => "constant".into(),
        AddressSpace::Private => "private".into(),
    }
}
