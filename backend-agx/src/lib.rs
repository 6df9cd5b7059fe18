//! G13 backend (placeholder until the backend issue lands).

pub mod isa;
