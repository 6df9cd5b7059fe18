//! The IR text form (being written).
