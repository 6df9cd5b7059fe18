//! agxc's graph IR and its optimizer.
//!
//! Pipeline position: the front ends (`agxc-frontend`) lift SPIR-V and TGSI into the graph IR
//! defined here ([`ir`]); the reference interpreter runs it and is the project's definition of
//! what a shader computes; the optimizer rewrites it by equality saturation; the backend
//! (`agxc-backend-agx`) compiles the result for the G13.

#![warn(missing_docs)]

pub mod interp;
pub mod ir;
pub mod opt;
