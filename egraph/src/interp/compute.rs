//! Compute runs: workgroups one after another, each a lockstep batch with its own zeroed
//! shared memory.

use super::error::InterpError;
use super::exec::Machine;
use super::float_mode::FloatMode;
use super::limits::Limits;
use super::observe::Observer;
use super::resources::{Resources, ResourcesRef};
use super::stage::StageEnv;
use super::stats::Stats;
use crate::ir::{Function, Stage};

/// Runs a compute shader over `groups` workgroups (x fastest, then y, then z) of
/// `func.modes.local_size` invocations. Storage buffers in `resources` are written in place.
pub fn run_compute(
    func: &Function,
    resources: &mut Resources,
    groups: [u32; 3],
    limits: &Limits,
) -> Result<Stats, InterpError> {
    run_compute_with(func, resources, groups, limits, FloatMode::Ieee)
}

/// [`run_compute`] with pure operations evaluated in float mode `float`.
pub fn run_compute_with(
    func: &Function,
    resources: &mut Resources,
    groups: [u32; 3],
    limits: &Limits,
    float: FloatMode,
) -> Result<Stats, InterpError> {
    run(func, resources, groups, limits, float, None)
}

/// [`run_compute`] with `observer` shown every instruction as it runs (see `observe`).
pub fn run_compute_observed(
    func: &Function,
    resources: &mut Resources,
    groups: [u32; 3],
    limits: &Limits,
    observer: &mut dyn Observer,
) -> Result<Stats, InterpError> {
    run(
        func,
        resources,
        groups,
        limits,
        FloatMode::Ieee,
        Some(observer),
    )
}

fn run(
    func: &Function,
    resources: &mut Resources,
    groups: [u32; 3],
    limits: &Limits,
    float: FloatMode,
    mut observer: Option<&mut dyn Observer>,
) -> Result<Stats, InterpError> {
    if func.stage != Stage::Compute {
        return Err(InterpError::WrongStage {
            expected: "compute",
            got: func.stage.name(),
        });
    }
    crate::ir::verify(func)?;
    let local_size = func.modes.local_size;
    let lanes = local_size
        .iter()
        .try_fold(1usize, |n, &s| n.checked_mul(s as usize))
        .unwrap_or(usize::MAX);
    if lanes == 0 || lanes > limits.max_lanes {
        return Err(InterpError::WorkgroupSize {
            size: local_size,
            limit: limits.max_lanes,
        });
    }
    let shared_memory = func.shared_memory as usize;
    if shared_memory > limits.max_shared_memory {
        return Err(InterpError::SharedMemory {
            bytes: func.shared_memory,
            limit: limits.max_shared_memory,
        });
    }
    let mut stats = Stats::default();
    let mut steps = 0;
    for gz in 0..groups[2] {
        for gy in 0..groups[1] {
            for gx in 0..groups[0] {
                let env = StageEnv::Compute {
                    local_size,
                    group: [gx, gy, gz],
                    groups,
                };
                let mut m = Machine::new(
                    func,
                    limits,
                    lanes,
                    ResourcesRef::Mut(resources),
                    env,
                    steps,
                );
                m.shared = vec![0; shared_memory];
                m.float = float;
                // A reborrow for this workgroup (the cast shortens the trait object's lifetime).
                m.observer = match observer {
                    Some(ref mut o) => Some(&mut **o as &mut dyn Observer),
                    None => None,
                };
                m.run()?;
                steps = m.steps;
                stats.add(&m.stats);
                stats.workgroups += 1;
                stats.lanes += lanes as u64;
            }
        }
    }
    Ok(stats)
}
