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
//! - [`run_geometry`]: a list of input primitives' vertices ([`GeometryVertex`]), giving the
//!   strips of vertices each invocation emitted ([`GeometryOutput`]); see the geometry module
//!   for emission, primitive boundaries and undefined outputs.
//!
//! All take [`Resources`] (buffers, push constants, textures, samplers by binding) and
//! [`Limits`], and report [`Stats`]. [`run_compute_observed`] also shows an [`Observer`] every
//! instruction as it runs, so analyses that follow a run (the equivalence tests' shadow run)
//! reuse this executor's control flow instead of walking the program themselves. [`run_compute_with`] and [`run_fragment_with`] also take a
//! [`FloatMode`]: IEEE (the reference) or the G13's flushing of f32 denormals.
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
//! evaluation functions in `ir::eval`. [`FloatMode::FlushF32Denormals`] wraps them (never
//! changes them) to flush f32 denormals as the G13 does; its per-operation rules are in
//! `float_mode.rs`.
//!
//! # Memory
//! Storage and uniform buffers are byte vectors bound by `(set, binding)`; push constants and
//! shared memory are byte blocks. A load or store reads or writes consecutive tightly packed
//! little-endian scalars at `offset operand + constant offset`; a `bool` occupies 4 bytes (0 or
//! 1). Out-of-bounds or misaligned (to the scalar's size) accesses, a missing binding, and
//! stores to uniform buffers, push constants or (in a vertex run) any resource are errors.
//! Within an instruction, lanes access memory in ascending lane order, so when several lanes
//! store to one address the highest lane's value remains. Helper lanes never store.
//! Atomics read-modify-write one `i32` word the same way, one lane's whole operation after
//! another in ascending lane order (workgroups in dispatch order), which makes them sequentially
//! consistent and their returned old values deterministic; a helper lane gets the current value
//! and writes nothing.
//!
//! # Fragment stage
//! Lane `y * padded_width + x` shades pixel `(x, y)`, row 0 at the top.
//! - Varyings follow an affine model: component `c` of location `l` at the centre of pixel
//!   `(x, y)` is `base + ddx * (x + 0.5) + ddy * (y + 0.5)`, computed in f64 and rounded once to
//!   the input's type (integer inputs convert toward zero). The grid models a primitive with
//!   `w = 1`, so perspective and linear interpolation coincide. `flat` inputs read one 32-bit
//!   word per component, the provoking vertex's output: a raw word (any integer or bit pattern)
//!   or `base` converted to the input's type ([`Varying`], [`flat_input`]).
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
//! The software texture model ([`Texture`], [`Sampler`]) follows these rules, after the Vulkan
//! specification's "Image Operations" and "Texel Filtering" chapters; the G13 simulator's
//! texture unit implements the same rules independently, and the two are compared with an
//! absolute tolerance of 1e-5. Arithmetic is f32 except `log2`, computed in f64 and rounded.
//! 1. Cube maps: the face is the major axis of the direction `(rx, ry, rz)` (`|rz|` if it is at
//!    least `|rx|` and `|ry|`, else `|ry|` if at least `|rx|`, else `|rx|`; positive when that
//!    component is `>= 0`), with `(sc, tc, ma)` = +X `(-rz, -ry, rx)`, -X `(rz, -ry, rx)`,
//!    +Y `(rx, rz, ry)`, -Y `(rx, -rz, ry)`, +Z `(rx, -ry, rz)`, -Z `(-rx, -ry, rz)`;
//!    `s = 0.5 * sc / |ma| + 0.5`, likewise `t`. No seamless filtering: each face is
//!    clamp-to-edge on its own. Derivatives of `s` and `t` follow from the quotient rule,
//!    `ds = 0.5 * (dsc * |ma| - sc * d|ma|) / ma^2`, on the face of the lane's own direction.
//! 2. Texel space at level 0: `u = s * width`, `v = t * height`, `w = r * depth`.
//! 3. LOD: `rho = max(|(du, dv, dw)/dx|, |(du, dv, dw)/dy|)` (the axes the dimension has),
//!    `lambda_base = log2(rho)` (minus infinity for 0) or the explicit LOD;
//!    `lambda = clamp(lambda_base + sampler bias + shader bias, max(sampler min_lod, shader
//!    min_lod), sampler max_lod)`. Implicit LOD takes fine quad derivatives of the (projected)
//!    coordinates.
//! 4. `lambda <= 0` selects the magnification filter, else the minification filter.
//! 5. Levels, with `q = levels - 1`: mip none reads level 0; mip nearest reads level 0 if
//!    `lambda <= 0.5`, else `min(ceil(lambda + 0.5) - 1, q)`; mip linear blends
//!    `d = clamp(floor(lambda), 0, q)` and `min(d + 1, q)` by `lambda - floor(lambda)` (0 when
//!    `lambda < 0` or `d == q`).
//! 6. At level `d`, `u_d = s * width_d`. Nearest reads texel `floor(u_d)`; linear reads
//!    `floor(u_d - 0.5)` and the next texel, weighted by `frac(u_d - 0.5)`, with
//!    `lerp(a, b, t) = a * (1 - t) + b * t` along u, then v, then w. Constant offsets are added
//!    to the integer texel coordinates.
//! 7. Wrap: repeat `i mod size`; clamp-to-edge `clamp(i, 0, size - 1)`; mirrored repeat
//!    `m = i mod 2 size`, then `2 size - 1 - m` if `m >= size`; clamp-to-border reads
//!    (0, 0, 0, 0) outside.
//! 8. The array layer is `clamp(round_half_even(layer), 0, layers - 1)`; it is never wrapped,
//!    filtered or projected.
//! 9. Shadow samples replace each fetched texel's red by `ref OP red ? 1 : 0` before filtering
//!    and return the filtered red. Projective samples divide the coordinates (not the layer) and
//!    the reference by `q`.
//! 10. Fetch reads one texel at integer coordinates and level, unfiltered and unwrapped;
//!     anything out of range (coordinate, layer, level) reads (0, 0, 0, 0).
//! 11. Size queries at level `l` report `max(1, extent >> l)` per axis plus the layer count for
//!     arrays (zeros for a level outside the chain); the level query reports the level count.
//! 12. Gather reads the four texels a linear filter would at level 0 (whatever the sampler's
//!     filters, mip mode and LOD settings), wrapped (rule 7; cube faces clamp-to-edge) and
//!     offset (rule 6) as sampling does, and returns the requested component of
//!     `(i0, j1), (i1, j1), (i1, j0), (i0, j0)`; a shadow gather returns the four comparison
//!     results (rule 9, unfiltered).
//!
//! 12. Integer textures (fetch or sample with `i32` results) give their texels' words
//!     unchanged; sampling them needs nearest filtering and no linear mip blending (Vulkan
//!     allows nothing else), and the results' class must be the format's.
//! 13. Storage images are textures bound at the image's binding, accessed at level 0:
//!     `image_load` reads one texel (zeros out of range, layer included), `image_store` writes
//!     one (dropped out of range; helper invocations do not store; float values are encoded
//!     as the format says: unorm clamped and rounded to nearest even, f16 rounded), and
//!     `image_size` reports level 0's extent and the layer count. A declared format must be
//!     the bound one; `unknown` takes the bound one.
//!
//! Formats: RGBA8 unorm (`c / 255`), RGBA16F, RGBA32F, R32F (read as `(r, 0, 0, 1)`), RGBA32
//! and R32 unsigned and signed integers (R32 read as `(r, 0, 0, 1)`). Texture
//! memory holds level 0, then 1, ...; each level its slices (array layers, a cube map 6 faces
//! per layer in the order +X, -X, +Y, -Y, +Z, -Z), each slice `depth` planes of `height` rows
//! of `width` texels, tightly packed.
//!
//! # Budgets
//! A loop that runs more than [`Limits::max_loop_iterations`] iterations in one execution stops
//! with [`InterpError::LoopLimit`] naming the loop; a run that exceeds
//! [`Limits::max_steps`] lane-instructions stops with [`InterpError::StepLimit`] naming the
//! instruction and its innermost loop. Launches needing more than [`Limits::max_lanes`] lanes
//! or [`Limits::max_shared_memory`] bytes of shared memory are refused before they start.
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
//! let access = |binding| MemAccess {
//!     space: AddressSpace::Storage(Binding::new(0, binding)),
//!     offset: 0,
//! };
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
mod float_mode;
mod fragment;
mod geometry;
mod lanes;
mod limits;
mod memory;
mod observe;
mod quad;
mod resources;
mod stage;
mod stats;
#[cfg(test)]
mod tests;
mod texture;
mod vertex;

pub use compute::{run_compute, run_compute_observed, run_compute_with};
pub use error::InterpError;
pub use float_mode::{flush_f32_denormal, FloatMode};
pub use fragment::{
    flat_input, run_fragment, run_fragment_with, FragmentGrid, FragmentOutput, Varying,
};
pub use geometry::{run_geometry, GeometryOutput, GeometryVertex, Strip};
pub use limits::{
    Limits, DEFAULT_MAX_LANES, DEFAULT_MAX_LOOP_ITERATIONS, DEFAULT_MAX_SHARED_MEMORY,
    DEFAULT_MAX_STEPS,
};
pub use observe::{Observer, Run};
pub use resources::{bytes_f32, bytes_u32, f32_bytes, u32_bytes, Buffer, BufferKind, Resources};
pub use stats::Stats;
pub use texture::{
    CompareOp, Filter, MipFilter, Sampler, Texture, TextureDesc, TextureError, TextureFormat, Wrap,
};
pub use vertex::{run_vertex, VertexOutput};
