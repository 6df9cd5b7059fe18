//! Cross-crate tests for agxc: corpora, equivalence properties and oracle comparisons.
pub mod corpus;
pub mod equiv;
pub mod filetest;
pub mod fuzz;
pub mod lavapipe;
pub mod run;
pub mod shaderdb;
pub mod softpipe;
