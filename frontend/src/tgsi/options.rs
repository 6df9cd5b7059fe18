//! Options of the TGSI lifter: where TGSI's register files land in the IR's binding and
//! I/O model when the defaults (see the module docs) do not fit.

use agxc_egraph::ir::Binding;
use std::collections::BTreeMap;

/// How TGSI declarations map onto IR bindings and I/O slots. `LiftOptions::default()` gives
/// the mapping in the module documentation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LiftOptions {
    /// The entry point's name (`main` when `None`).
    pub entry_name: Option<String>,
    /// Read constant buffer 0 (`CONST[n]` and `CONST[0][n]`) from push constants instead of a
    /// uniform buffer.
    pub const0_push_constants: bool,
    /// The uniform buffer of `CONST[x][..]`, by `x` (default: set 0, binding `x`).
    pub const_bindings: BTreeMap<u32, Binding>,
    /// The storage buffer of `BUFFER[n]`, by `n` (default: set 0, binding `n`).
    pub storage_bindings: BTreeMap<u32, Binding>,
    /// The combined texture and sampler of unit `n` (`SAMP[n]`/`SVIEW[n]`), by `n` (default:
    /// set 0, binding `n`).
    pub texture_bindings: BTreeMap<u32, Binding>,
    /// The storage image of `IMAGE[n]`, by `n` (default: set 0, binding `n`).
    pub image_bindings: BTreeMap<u32, Binding>,
    /// Input slot of an input component, keyed by `(IN index, component)`, valued
    /// `(location, component)`: for packed varyings (`DCL IN[1].xyz, GENERIC[0]` holding two
    /// GLSL variables) and vertex attributes. Overrides the semantic's default location.
    pub input_slots: BTreeMap<(u32, u8), (u32, u8)>,
    /// Location of a user output (`COLOR`, `GENERIC`, ...), keyed by `OUT` index.
    pub output_locations: BTreeMap<u32, u32>,
    /// Bytes of workgroup-shared memory when the shader declares `MEMORY[n], SHARED` (TGSI
    /// text does not say; default [`DEFAULT_SHARED_MEMORY`](super::limits::DEFAULT_SHARED_MEMORY)).
    pub shared_memory: Option<u32>,
    /// Workgroup size of a compute shader without `CS_FIXED_BLOCK_*` properties (default
    /// 1, 1, 1).
    pub local_size: Option<[u32; 3]>,
}
