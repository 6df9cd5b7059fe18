//! agxc's front ends: source shader languages lifted into the graph IR.
//!
//! Pipeline position: this crate is the first stage. It reads a shader in a source language and
//! produces one [`agxc_egraph::ir::Function`] per entry point, already verified; the optimizer
//! (`agxc-egraph`) and the G13 backend (`agxc-backend-agx`) take it from there.
//!
//! - [`spirv`]: SPIR-V binaries (Vulkan shaders), decoded with `rspirv` and lifted with
//!   [`spirv::lift`].

#![warn(missing_docs)]

pub mod spirv;
pub mod tgsi;
