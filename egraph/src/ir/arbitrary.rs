//! Random well-formed functions for property tests (being written).
