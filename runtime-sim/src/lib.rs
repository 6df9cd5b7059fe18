//! G13 simulator (being written).
