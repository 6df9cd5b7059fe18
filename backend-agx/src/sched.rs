//! Pre-register-allocation list scheduling (see [`schedule`]).

use crate::mir::MFunction;

/// Reorders instructions within straight-line blocks.
pub fn schedule(_m: &mut MFunction) {}
