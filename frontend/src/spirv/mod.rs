//! The SPIR-V front end: a SPIR-V module's entry point lifted into a graph-IR [`Function`].
//!
//! ```text
//! words ─► module.rs      rspirv decoding, word offsets of instructions
//!       ─► entry.rs       capabilities, extensions, entry point, execution modes
//!       ─► constants.rs   types (types.rs), constants, specialization, global variables
//!       ─► cfg.rs         structured control flow: if (cfg.rs), loops (loops.rs), switches
//!                         (switch.rs), inlined calls (calls.rs), merges (merge.rs, liveness.rs)
//!       ─► instruction.rs one SPIR-V instruction: arith.rs, composite.rs, memory.rs, buffer.rs,
//!                         atomic.rs, io.rs, image.rs, geometry.rs, glsl450/
//!       ─► verify         a verified IR Function
//! ```
//!
//! # Design notes
//! - Decoding is `rspirv`'s (`rspirv::dr::load_words`), with the `spirv` crate's enums; the only
//!   thing read from the words directly is each instruction's word count and opcode, to know its
//!   offset for error messages (SPIR-V section 2.3) and to set aside what the loader has no place
//!   for (`OpExecutionModeId`, decoded by `rspirv`'s parser on its own; module-scope non-semantic
//!   `OpExtInst`, dropped).
//! - The IR is scalarized: a SPIR-V vector is several IR values, a matrix a list of column
//!   vectors, arrays and structures trees of scalars (`value.rs`). Integers are signless; the
//!   opcode picks the signed or unsigned operation.
//! - Function and Private variables, and stage outputs, never reach memory: their contents are
//!   SSA values in an environment threaded through the structured control flow
//!   (`memory.rs`, `cfg.rs`). Buffers, push constants and workgroup memory are byte-addressed
//!   loads and stores laid out by `Offset`/`ArrayStride`/`MatrixStride`/`RowMajor`.
//! - Structured control flow (section 2.11) maps onto IR `if`/`loop`/`break`/`continue`/`yield`
//!   with loop-carried parameters; `OpPhi` is resolved on CFG edges; functions are inlined;
//!   `OpKill`/`OpTerminateInvocation` are `discard`, `OpDemoteToHelperInvocation` is `demote`.
//! - `NoContraction` puts [`InstFlags::NO_CONTRACT`] on the float operations of the decorated
//!   instruction (every IR operation it expands to); `RelaxedPrecision` puts
//!   [`InstFlags::RELAXED`] on its pure operations.
//! - Specialization constants take [`LiftOptions::specialization`] values or their defaults.
//! - An access chain into a Function, Private, Output or Input variable whose constant index
//!   is past the end of a vector, matrix or array (valid SPIR-V when the access never runs;
//!   undefined only when it does) reads zero and drops stores, as robust buffer access treats
//!   out-of-bounds accesses; a dynamic index out of range reads element 0 and drops stores. In
//!   buffer and workgroup memory an index is applied through the layout like any other (the
//!   access goes to the bytes past the composite, bounds-checked as every access is).
//! - The lifted function is verified before it is returned; a verifier failure is an
//!   [`SpirvError::Internal`], never a panic. Every other error names the instruction: opcode,
//!   word offset and function ([`Location`]).
//!
//! # Supported
//! - Capabilities: exactly [`SUPPORTED_CAPABILITIES`]; extensions: [`SUPPORTED_EXTENSIONS`];
//!   extended instruction sets: `GLSL.std.450` (all of it but `IMix` and the 64-bit pack
//!   functions, see `glsl450/`) and `NonSemantic.*` (skipped).
//! - Execution models GLCompute, Fragment, Vertex, Geometry; modes LocalSize, LocalSizeId,
//!   OriginUpperLeft/LowerLeft, PixelCenterInteger, DepthReplacing, EarlyFragmentTests
//!   (DepthGreater/Less/Unchanged and LocalSizeHint are accepted and ignored), the geometry
//!   input and output primitives, OutputVertices and Invocations (`geometry.rs`); a
//!   `WorkgroupSize` constant overrides LocalSize.
//! - Types: bool, 16/32-bit integers and floats, vectors, matrices, arrays, runtime arrays,
//!   structures, pointers, images (1D/2D/3D/cube, arrayed, 32-bit float or integer sampled
//!   type), storage images (`OpImageRead`, `OpImageWrite`, `OpImageQuerySize`; 1D/2D/3D and
//!   1D/2D arrays), samplers and sampled images.
//! - Storage classes: Function, Private, Input, Output, Uniform (and BufferBlock), StorageBuffer,
//!   PushConstant, Workgroup, UniformConstant (images and samplers, not arrays of them).
//! - Built-ins: GlobalInvocationId, LocalInvocationId, WorkgroupId, NumWorkgroups, WorkgroupSize,
//!   LocalInvocationIndex, FragCoord, FrontFacing, HelperInvocation, VertexIndex, InstanceIndex,
//!   PrimitiveId and InvocationId (geometry); outputs Position, PointSize, FragDepth; the
//!   geometry `gl_in[]` block's Position and PointSize. Other built-ins may be declared but not
//!   used.
//!
//! # Not supported (an error names the instruction)
//! 64-bit and 8-bit types, atomics on anything but 32-bit integers in storage buffers and
//! workgroup memory (`atomic.rs` lists what is lifted), storage images of formats other than
//! rgba32f, rgba16f, r32f, rgba8, rgba32ui, rgba32i, r32ui, r32i and Unknown, image atomics,
//! `OpImageQueryLod`/`Samples`, multisampled images, image offsets that are not constant,
//! arrays of descriptors, physical pointers and variable pointers, subgroup operations,
//! tessellation stages, transform feedback, dual-source blending (`Index`), pointers or images
//! chosen by control flow (`OpPhi`/`OpSelect` of them), initializers on Workgroup variables,
//! integer-typed textures, and `OpSpecConstantOp` operations outside the list SPIR-V allows for
//! shaders.
//!
//! # Output
//! All constants and invariant reads (built-ins, inputs, buffer and texture sizes) sit at the
//! start of the entry block, once each; unused ones are dropped. Stage outputs are written where
//! the entry point returns, once per written component. Control flow keeps its structure; code
//! is duplicated only for continue constructs reached by several `continue`s and for functions
//! called several times.
//!
//! # Limits
//! Nesting of constructs and inlined calls is bounded (48) and so is the size of the lifted
//! function (2^20 IR instructions), so adversarial input ends in [`SpirvError::TooLarge`]
//! rather than exhausting the stack or memory.
//!
//! [`InstFlags::NO_CONTRACT`]: agxc_egraph::ir::InstFlags::NO_CONTRACT
//! [`InstFlags::RELAXED`]: agxc_egraph::ir::InstFlags::RELAXED

mod arith;
mod atomic;
mod buffer;
mod calls;
mod cfg;
mod composite;
mod constants;
mod context;
mod decorations;
mod entry;
mod error;
mod extent;
mod geometry;
mod glsl450;
mod image;
mod instruction;
mod io;
mod liveness;
mod loops;
mod memory;
mod merge;
mod module;
mod private;
mod storage_image;
mod stream;
mod switch;
mod table;
mod types;
mod value;

#[cfg(test)]
mod tests;

pub use error::{Location, SpirvError};
pub use stream::MAX_ID_BOUND;

use agxc_egraph::ir::Function;
use spirv::Capability;

/// Every capability a module may declare.
pub const SUPPORTED_CAPABILITIES: &[Capability] = &[
    Capability::Shader,
    Capability::Matrix,
    Capability::Float16,
    Capability::Int16,
    Capability::StorageBuffer16BitAccess,
    Capability::UniformAndStorageBuffer16BitAccess,
    Capability::StoragePushConstant16,
    Capability::StorageInputOutput16,
    Capability::ImageQuery,
    Capability::StorageImageReadWithoutFormat,
    Capability::StorageImageWriteWithoutFormat,
    Capability::DerivativeControl,
    Capability::Sampled1D,
    Capability::Image1D,
    Capability::SampledCubeArray,
    Capability::ImageCubeArray,
    Capability::MinLod,
    // Gather offsets: constant ones are lifted; an `Offset` that does not fold is rejected
    // where it happens.
    Capability::ImageGatherExtended,
    Capability::DemoteToHelperInvocation,
    Capability::Geometry,
    Capability::GeometryPointSize,
    Capability::GeometryStreams,
    Capability::ShaderNonUniform,
    Capability::VulkanMemoryModel,
    // Declared by compilers along with gl_PerVertex or per-sample qualifiers; writing the
    // built-ins themselves is rejected where it happens.
    Capability::ClipDistance,
    Capability::CullDistance,
    Capability::SampleRateShading,
    Capability::DrawParameters,
];

/// Every extension a module may declare.
pub const SUPPORTED_EXTENSIONS: &[&str] = &[
    "SPV_KHR_storage_buffer_storage_class",
    "SPV_KHR_16bit_storage",
    "SPV_KHR_shader_draw_parameters",
    "SPV_KHR_terminate_invocation",
    "SPV_KHR_non_semantic_info",
    "SPV_KHR_vulkan_memory_model",
    "SPV_EXT_demote_to_helper_invocation",
    "SPV_EXT_descriptor_indexing",
    "SPV_GOOGLE_decorate_string",
    "SPV_GOOGLE_hlsl_functionality1",
    "SPV_GOOGLE_user_type",
];

/// Options for [`lift`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LiftOptions {
    /// The entry point's name; `None` picks the module's only entry point.
    pub entry: Option<String>,
    /// Specialization constant values by `SpecId`: the bits an `OpConstant` of the constant's
    /// type would hold (booleans: non-zero is true), as SPIR-V section 2.12 defines them.
    pub specialization: Vec<(u32, u64)>,
}

/// A SPIR-V binary: words, or bytes in either byte order.
#[derive(Clone, Copy, Debug)]
pub enum SpirvInput<'a> {
    /// 32-bit words in host order.
    Words(&'a [u32]),
    /// Bytes (the magic number tells the byte order).
    Bytes(&'a [u8]),
}

impl<'a> From<&'a [u32]> for SpirvInput<'a> {
    fn from(w: &'a [u32]) -> Self {
        SpirvInput::Words(w)
    }
}

impl<'a> From<&'a Vec<u32>> for SpirvInput<'a> {
    fn from(w: &'a Vec<u32>) -> Self {
        SpirvInput::Words(w)
    }
}

impl<'a> From<&'a [u8]> for SpirvInput<'a> {
    fn from(b: &'a [u8]) -> Self {
        SpirvInput::Bytes(b)
    }
}

impl<'a> From<&'a Vec<u8>> for SpirvInput<'a> {
    fn from(b: &'a Vec<u8>) -> Self {
        SpirvInput::Bytes(b)
    }
}

/// Lifts an entry point of a SPIR-V module into a verified graph-IR function.
///
/// ```no_run
/// use agxc_frontend::spirv::{lift, LiftOptions};
///
/// let bytes = std::fs::read("shader.spv").unwrap();
/// let func = lift(&bytes, &LiftOptions::default()).unwrap();
/// println!("{} instructions", func.inst_count());
/// ```
pub fn lift<'a>(
    module: impl Into<SpirvInput<'a>>,
    options: &LiftOptions,
) -> Result<Function, SpirvError> {
    match module.into() {
        SpirvInput::Words(w) => entry::lift_words(w, options),
        SpirvInput::Bytes(b) => {
            let words = module::words_from_bytes(b)?;
            entry::lift_words(&words, options)
        }
    }
}
