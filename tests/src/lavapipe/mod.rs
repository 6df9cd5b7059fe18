//! The lavapipe oracle: runs SPIR-V corpus cases on Mesa's Vulkan driver for the CPU.
//!
//! lavapipe was written by other people and shares none of agxc's code, so its outputs are an
//! independent check of the IR interpreter and the G13 simulator (see `docs/oracles.md`). The
//! Vulkan loader is opened at run time (`ash::Entry::load`), so building this crate needs no
//! Vulkan SDK; on a machine without `libvulkan1` or `mesa-vulkan-drivers`,
//! [`Lavapipe::new`] returns [`LavapipeError::OracleUnavailable`] and callers skip.
//!
//! ```text
//! Lavapipe::new()              loader, instance, llvmpipe device, queue, command pool (once)
//!   └─ run(case, inputs)       per case, all objects owned by a Scratch:
//!        compute:  buffers + textures ─► descriptor sets ─► pipeline ─► dispatch ─► read back
//!        fragment: … ─► generated vertex shader ─► dynamic rendering into RGBA32F targets
//!                  (one full-screen triangle, cleared first) ─► copy targets ─► read back
//! ```
//!
//! Resources follow the manifest: buffers at `(set, binding)` as storage or uniform buffers,
//! push constants from offset 0, textures as combined image samplers uploaded level by level.
//! Fragment varyings come from a vertex shader assembled from the manifest (see [`vertex`]).

mod context;
mod error;
mod resources;
mod run;
pub mod vertex;

pub use crate::corpus::oracle_required;
pub use context::Lavapipe;
pub use error::{LavapipeError, Unavailable};
