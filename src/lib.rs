//! agxc: a retargetable shader compiler for the Apple G13 GPU.
