//! Unit tests of the SPIR-V front end.
