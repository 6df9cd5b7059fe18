//! The reference interpreter: it defines what a graph-IR shader computes for the whole project.
//!
//! The front ends' output, the optimizer's rewrites and the G13 backend (through its simulator)
//! are all checked against it. It runs verified IR only ([`crate::ir::verify`] runs on entry)
//! and reports every problem as an [`InterpError`] naming the instruction (`instN`, numbered as
//! in the text form), never by panicking.
//!
//! # Entry points
//! - [`run_compute`]: `groups` workgroups of `func.modes.local_size` invocations, one after
//!   another (x fastest), each with its own zeroed shared memory of `func.shared_memory` bytes.
//! - [`run_fragment`]: a [`FragmentGrid`] of pixels in 2x2 quads, giving a [`FragmentOutput`]
//!   (render targets, depth, dropped pixels).
//! - [`run_vertex`]: a batch of vertices with per-location attributes, giving a
//!   [`VertexOutput`].
//!
//! All take [`Resources`] (buffers, push constants, textures, samplers by binding) and
//! [`Limits`], and report [`Stats`].
//!
//! # Execution model
//! Lockstep SIMD over a whole batch: a compute workgroup, the whole fragment grid (plus helper
//! lanes padding odd sizes to full quads), or all vertices. Every SSA value holds one scalar
//! per lane, and every instruction runs for all active lanes before the next one starts.
//! Structured control flow runs with an active-lane mask:
//! - `if`: the *then* arm runs with `mask & cond`, the *else* arm with `mask & !cond`; each
//!   lane's results are the operands of the `yield` of the arm it took.
//! - `loop`: the body runs while any lane remains. `break` records the loop's results for its
//!   lanes and takes them out of the loop; `continue` sets the body parameters for the next
//!   iteration; `return` ends the lane; `discard` ends it and drops its fragment. Lanes that
//!   took any of these exits inside a nested `if` skip the rest of the enclosing blocks.
//! - A workgroup barrier is trivially satisfied by lockstep execution; reaching one with only
//!   some of the workgroup's running lanes (divergent control flow) is an error. Memory
//!   barriers have nothing left to order.
//!
//! Pure operations are evaluated per active lane by the operation table's own evaluation
//! functions ([`crate::ir::PureOp::eval`], [`crate::ir::CustomOp::eval`]): this module has no
//! second definition of any operation. Their reference semantics (IEEE round-to-nearest-even
//! with denormals kept, transcendentals computed in f64 and rounded once, shifts modulo the
//! width, division by zero, saturating float-to-int conversion) are documented with the
//! evaluation functions in `ir::eval`.
//!
//! # Memory
//! Storage and uniform buffers are byte vectors bound by `(set, binding)`; push constants and
//! shared memory are byte blocks. A load or store reads or writes consecutive tightly packed
//! little-endian scalars at `offset operand + constant offset`; a `bool` occupies 4 bytes (0 or
//! 1). Out-of-bounds or misaligned (to the scalar's size) accesses, a missing binding, and
//! stores to uniform buffers, push constants or (in a vertex run) any resource are errors.
//! Within an instruction, lanes access memory in ascending lane order, so when several lanes
//! store to one address the highest lane's value remains. Helper lanes never store.
//!
//! # Fragment stage
//! Lane `y * padded_width + x` shades pixel `(x, y)`, row 0 at the top.
//! - Varyings follow an affine model: component `c` of location `l` at the centre of pixel
//!   `(x, y)` is `base + ddx * (x + 0.5) + ddy * (y + 0.5)`, computed in f64 and rounded once to
//!   the input's type (`flat` inputs read `base`; integer inputs convert toward zero). The grid
//!   models a primitive with `w = 1`, so perspective and linear interpolation coincide.
//! - `frag_coord` is `(x + 0.5, y + 0.5, grid depth, 1)` with the origin at the upper left;
//!   `origin_lower_left` gives `y = height - 1 - row + 0.5`, and `pixel_center_integer` drops
//!   the `+ 0.5`s.
//! - `ddx`/`ddy` subtract values across the lane's quad (with `fsub`): fine (and default) within
//!   the lane's own row or column, coarse from the quad's top row or left column. Where Vulkan
//!   leaves a derivative undefined because a quad neighbour is not executing the instruction
//!   (it ended or took another branch), the quad's other row or column is used, and with no
//!   complete pair the derivative is 0.
//! - `discard` ends the lane; its pixel keeps the clear colour and clear depth. `demote` turns
//!   the lane into a helper: it keeps running (so its quad's derivatives stay defined) but its
//!   stores and outputs are dropped, and so is its pixel. Stores made before either remain.
//! - `output LOC.C` writes component C of render target LOC (RGBA f32, initialised to the clear
//!   colour; components a fragment does not write keep it); outputs take effect when the lane
//!   finishes without being dropped, the last write winning. `frag_depth` writes the depth
//!   plane, which otherwise receives the grid's depth.
//! - Implicit-LOD samples take fine quad derivatives of their (projected) coordinates.
//!
//! # Textures
//! The software texture model ([`Texture`], [`Sampler`]) follows the project's texture
//! semantics, after the Vulkan specification's "Image Operations" and "Texel Filtering"
//! chapters; see the `texture` module docs for the layout and the rules.
//!
//! # Budgets
//! A loop that runs more than [`Limits::max_loop_iterations`] iterations in one execution stops
//! with [`InterpError::LoopLimit`] naming the loop; a run that exceeds
//! [`Limits::max_steps`] lane-instructions stops with [`InterpError::StepLimit`] naming the
//! instruction and its innermost loop.
//!
//! # Example
//! ```
//! use agxc_egraph::interp::{bytes_f32, f32_bytes, run_compute, Limits, Resources};
//! use agxc_egraph::ir::{
//!     AddressSpace, Binding, Builder, Builtin, EffectOp, Function, MemAccess, PureOp, Stage, Type,
//! };
//!
//! // y[i] = x[i] * x[i], 4 invocations.
//! let mut func = Function::new("square", Stage::Compute);
//! func.modes.local_size = [4, 1, 1];
//! let mut b = Builder::new(&mut func);
//! let i = b.effect(EffectOp::Builtin(Builtin::GlobalId(0)), &[], &[Type::I32])[0];
//! let four = b.i32(4);
//! let offset = b.pure(PureOp::Imul, &[i, four]);
//! let access = |binding| MemAccess { space: AddressSpace::Storage(Binding::new(0, binding)), offset: 0 };
//! let x = b.effect(EffectOp::Load(access(0)), &[offset], &[Type::F32])[0];
//! let y = b.pure(PureOp::Fmul, &[x, x]);
//! b.effect(EffectOp::Store(access(1)), &[offset, y], &[]);
//! b.return_();
//!
//! let mut res = Resources::new();
//! res.bind_storage(Binding::new(0, 0), f32_bytes(&[1.0, 2.0, 3.0, -0.5]));
//! res.bind_storage(Binding::new(0, 1), vec![0; 16]);
//! run_compute(&func, &mut res, [1, 1, 1], &Limits::default()).unwrap();
//! let y = bytes_f32(res.buffer_data(Binding::new(0, 1)).unwrap());
//! assert_eq!(y, [1.0, 4.0, 9.0, 0.25]);
//! ```

mod compute;
mod effects;
mod error;
mod exec;
mod fragment;
mod lanes;
mod limits;
mod memory;
mod quad;
mod resources;
mod stage;
mod stats;
#[cfg(test)]
mod tests;
mod texture;
mod vertex;

pub use compute::run_compute;
pub use error::InterpError;
pub use fragment::{run_fragment, FragmentGrid, FragmentOutput, Varying};
pub use limits::{Limits, DEFAULT_MAX_LANES, DEFAULT_MAX_LOOP_ITERATIONS, DEFAULT_MAX_STEPS};
pub use resources::{bytes_f32, bytes_u32, f32_bytes, u32_bytes, Buffer, BufferKind, Resources};
pub use stats::Stats;
pub use texture::{
    CompareOp, Filter, MipFilter, Sampler, Texture, TextureDesc, TextureError, TextureFormat, Wrap,
};
pub use vertex::{run_vertex, VertexOutput};
