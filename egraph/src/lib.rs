//! Graph IR (being written).
