//! Unit tests of the SPIR-V front end on modules built with `rspirv::dr::Builder`.

mod atomics;
mod kernel;
mod lowering;
mod nesting;
mod private;
mod switch;
mod tables;
