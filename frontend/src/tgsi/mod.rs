//! TGSI text lifted into the graph IR.
//!
//! TGSI is the shader language of Mesa's Gallium drivers and of virglrenderer. It has no
//! library, so this module has its own lexer, parser ([`parse`]) and lifter ([`lift`]):
//!
//! ```text
//! text ─► lexer (tokens per line) ─► parser (ast::Program) ─► structure (statement tree,
//!          subroutines inlined) ─► liveness ─► lift (scalar SSA) ─► verify ─► Function
//! ```
//!
//! ```
//! use agxc_frontend::tgsi::{lift, LiftOptions};
//!
//! let text = "COMP
//! PROPERTY CS_FIXED_BLOCK_WIDTH 64
//! DCL SV[0], THREAD_ID
//! DCL BUFFER[0]
//! DCL TEMP[0]
//! IMM[0] UINT32 {2, 0, 0, 0}
//!   0: SHL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
//!   1: STORE BUFFER[0].x, TEMP[0].xxxx, SV[0].xxxx
//!   2: END
//! ";
//! let func = lift(text, &LiftOptions::default()).unwrap();
//! assert_eq!(func.modes.local_size, [64, 1, 1]);
//! ```
//!
//! # Design
//! - **Scalar SSA.** TGSI registers are vec4s of untyped 32-bit words. TEMP, OUT and ADDR
//!   components that the program writes are tracked as SSA values while the lifter walks the
//!   structured program; `if` results, loop parameters, `break` and `continue` carry the ones
//!   that are live across (see `lift::liveness`). Each instruction reads its sources with the
//!   type its opcode works on (Mesa's `tgsi_opcode_infer_src_type`), bit-casting where a
//!   register holds the other type.
//! - **Indirect addressing** of TEMP, IN, OUT and IMM arrays is lowered to chains of selects
//!   over the array's registers (the IR has no private memory, and TGSI arrays are small); an
//!   index outside the array reads zero and writes nothing. `CONST` indexing is a dynamic
//!   offset of a uniform-buffer load.
//! - **Subroutines** (`CAL`/`BGNSUB`/`ENDSUB`/`RET`) are inlined; a `RET` inside an IF of a
//!   subroutine becomes a `break` out of a loop that runs once.
//! - **Outputs** are written at every exit from the OUT registers' values, so OUT registers can
//!   be read back and partially written like TEMPs.
//! - **Semantics** follow the seed reference lane by lane; TBD opcodes and evident typos
//!   follow Mesa's `tgsi_exec.c` (softpipe), commented where they apply.
//! - **Geometry shaders** read inputs per vertex (`IN[v][n]`, `v` constant or indirect) and
//!   write their outputs at each `EMIT` rather than at the exits; properties a `GEOM` shader
//!   leaves out take the defaults of Mesa's draw module (`lift/geometry.rs` says which).
//! - **Properties** without an IR counterpart are accepted and ignored:
//!   `FS_COLOR0_WRITES_ALL_CBUFS` (a blend-stage broadcast the caller sets up),
//!   `FS_DEPTH_LAYOUT`, `NEXT_SHADER`, and those of other stages.
//!
//! # Binding and I/O model
//! | TGSI | IR |
//! |---|---|
//! | `CONST[n]`, `CONST[x][n]` component c | `load uniform(0, x)` at byte `16n + 4c` (x = 0 for 1D); `CONST[0]` may be push constants ([`LiftOptions::const0_push_constants`]) |
//! | `BUFFER[n]` | storage buffer (0, n), byte addressed |
//! | `MEMORY[n], SHARED` | workgroup memory (all of them one block, as in softpipe) |
//! | `SAMP[n]` / `SVIEW[n]` (early spelling `RES[n]`) | combined texture and sampler at (0, n) |
//! | fragment `IN ..., POSITION` / `FACE` | `frag_coord` / `front_facing` as ±1.0 |
//! | fragment `IN ..., GENERIC[i]` | input location i (`COLOR[i]`: 32+i, `BCOLOR[i]`: 34+i, `FOG`: 36, `TEXCOORD[i]`: 40+i) |
//! | vertex `IN[n]` | attribute location n (any semantic is ignored) |
//! | fragment `OUT ..., COLOR[i]` / `POSITION` | colour target i / `frag_depth` (z) |
//! | vertex `OUT ..., POSITION` / `PSIZE` / other | `position` / `point_size` / locations as for inputs |
//! | geometry `IN[v][n], POSITION` / `PSIZE` / other | `vertex_input position` / `point_size` / locations as for vertex outputs, of vertex `v` |
//! | geometry `OUT`, `EMIT`, `ENDPRIM` | as vertex outputs, written at each `EMIT`; `emit_vertex` / `end_primitive` |
//! | geometry `SV` or `IN` `PRIM_ID`, `INVOCATIONID` | `primitive_id`, `invocation_id` |
//! | `PROPERTY GS_INPUT_PRIMITIVE`, `GS_OUTPUT_PRIMITIVE`, `GS_MAX_OUTPUT_VERTICES`, `GS_INVOCATIONS` | [`GeometryModes`](agxc_egraph::ir::GeometryModes) |
//! | `SV` `THREAD_ID`, `BLOCK_ID`, `BLOCK_SIZE`, `GRID_SIZE` | `local_id`, `workgroup_id`, `workgroup_size`, `num_workgroups` |
//! | `SV` `VERTEXID`, `INSTANCEID`, `HELPER_INVOCATION` | `vertex_index`, `instance_index`, helper mask |
//! | `PROPERTY CS_FIXED_BLOCK_*`, `FS_COORD_ORIGIN`, `FS_COORD_PIXEL_CENTER`, `FS_EARLY_DEPTH_STENCIL` | [`ExecutionModes`](agxc_egraph::ir::ExecutionModes) |
//! | `_PRECISE` | [`InstFlags::NO_CONTRACT`](agxc_egraph::ir::InstFlags::NO_CONTRACT) |
//!
//! Every mapping of a location or binding can be overridden through [`LiftOptions`]
//! (Mesa packs varyings and renumbers buffers; the softpipe corpus records how). The G13
//! backend packs whatever locations a fragment shader reads into its 16 varying slots, as a
//! driver's linker does (`agxc_backend_agx::abi`), so the legacy semantics' high locations
//! need no remapping.
//!
//! # Supported
//! - Stages: `FRAG`, `VERT`, `COMP`, `GEOM`. `TESS_CTRL` and `TESS_EVAL` parse but do not
//!   lift ([`TgsiError::UnsupportedStage`]): the IR has no such stages.
//! - Opcodes: everything in the seed reference except those it marks TBD without a Gallium
//!   meaning and the removed address-stack, loop-register and branch opcodes (`ARA`,
//!   `PUSHA`, `POPA`, `BGNFOR`/`ENDFOR`, `REP`/`ENDREP`, `BRA`, `CALLNZ`, `IFC`, `PK2US`,
//!   `PK4B`, `PK4UB`, `UP2US`, `UP4B`, `UP4UB`); the texture, control-flow and
//!   subroutine opcodes; Mesa's integer, bitwise, conversion, comparison, bitfield,
//!   derivative, memory (`LOAD`, `STORE`, `RESQ`, `MEMBAR`, `BARRIER`; on `IMAGE[n]`
//!   declared 1D, 2D, 3D, 1D_ARRAY or 2D_ARRAY with an rgba32f, rgba16f, r32f, rgba8 or
//!   32-bit integer `PIPE_FORMAT_*` too, bound by [`LiftOptions::image_bindings`]), integer
//!   atomic (`ATOMUADD`, `ATOMXCHG`, `ATOMCAS`, `ATOMAND`, `ATOMOR`, `ATOMXOR`, `ATOMUMIN`,
//!   `ATOMUMAX`, `ATOMIMIN`, `ATOMIMAX` on `BUFFER` and `MEMORY`), `DEMOTE`, `READ_HELPER`,
//!   `PK2H`/`UP2H`, `LDEXP`, `FMA`, `TG4` (not for shadow targets) and `SAMPLE*` opcodes.
//! - Not lifted, with an error naming the opcode: `ATOMFADD`, `ATOMINC_WRAP`,
//!   `ATOMDEC_WRAP` and atomics on images, `GATHER4`, `LODQ`, images of other targets or
//!   formats, multisampling, subgroup operations, `INTERP_OFFSET`, 64-bit arithmetic, `SWITCH`
//!   (Mesa lowers switches before TGSI), `EMIT`/`ENDPRIM` outside geometry shaders, and a
//!   vertex stream that is not an immediate.

pub mod ast;
mod decls;
mod error;
mod lexer;
mod lift;
pub mod limits;
pub mod opcode;
mod options;
mod parser;
mod structure;

#[cfg(test)]
mod tests;

pub use error::{Pos, TgsiError};
pub use lift::{
    BCOLOR_LOCATION, COLOR_LOCATION, FOG_LOCATION, GENERIC_LOCATION, TEXCOORD_LOCATION,
};
pub use options::LiftOptions;
pub use parser::parse;

use agxc_egraph::ir::Function;

/// Parses TGSI text and lifts it into a verified [`Function`].
///
/// Every error from the input carries its line and column; the function never panics.
pub fn lift(text: &str, options: &LiftOptions) -> Result<Function, TgsiError> {
    let program = parse(text)?;
    lift::lift_program(&program, options)
}

/// Lifts an already parsed program.
pub fn lift_parsed(program: &ast::Program, options: &LiftOptions) -> Result<Function, TgsiError> {
    lift::lift_program(program, options)
}
