//! The work items of a dispatch: how a workgroup (compute) or a fragment SIMD-group is laid out
//! into SIMD-groups with their ids, and how a workgroup's SIMD-groups run to completion through
//! their barriers.

use crate::error::{Error, ExecError, ExecErrorKind};
use crate::exec::{GroupState, Machine, Scratch, SimdGroup, ThreadIds};

use super::dispatch::Worker;

/// A compute dispatch's layout.
pub(crate) struct ComputeLayout {
    groups: [u32; 3],
    workgroup: [u32; 3],
    /// Threads per workgroup.
    threads: u32,
    /// SIMD-groups per workgroup.
    simd_count: u32,
}

impl ComputeLayout {
    pub fn new(groups: [u32; 3], workgroup: [u32; 3], threads: u32) -> Self {
        ComputeLayout {
            groups,
            workgroup,
            threads,
            simd_count: threads.div_ceil(32),
        }
    }

    /// Runs workgroup `item` (linearised x fastest) on `w`.
    pub fn run_group(&self, w: &mut Worker<'_>, item: u64) -> Result<(), Error> {
        let [gx, gy, _] = self.groups.map(u64::from);
        let group = [
            (item % gx) as u32,
            (item / gx % gy) as u32,
            (item / (gx * gy)) as u32,
        ];
        // SIMD-group ids count through the dispatch (wrapping, as a 32-bit counter would).
        let first_id = (item as u32).wrapping_mul(self.simd_count);
        let meta = *w.shared.program.metadata();
        let config = *w.shared.config;
        let mut simds = std::mem::take(&mut w.pool);
        simds.truncate(self.simd_count as usize);
        for s in 0..self.simd_count {
            let ids = compute_ids(group, self.workgroup, s, self.threads);
            let live = live_mask(self.threads, s);
            let id = first_id.wrapping_add(s);
            match simds.get_mut(s as usize) {
                Some(g) => g.reset(id, live, ids, &config, meta.stack_size, meta.gpr_halves),
                None => simds.push(SimdGroup::new(id, live, ids, &config, meta.stack_size)),
            }
        }
        let (mut machine, tg, scratch) = w.machine();
        tg.fill(0);
        let result = run_workgroup(&mut machine, &mut simds, tg, scratch);
        if result.is_ok() {
            for g in &simds {
                machine.stats.cycles.push(g.timing.cycles());
            }
            machine.stats.simd_groups += u64::from(self.simd_count);
        }
        w.pool = simds;
        result
    }
}

/// A fragment grid's layout: quads row-major, eight per SIMD-group.
pub(crate) struct FragmentLayout {
    width: u32,
    height: u32,
    quads_x: u32,
    quads: u32,
}

impl FragmentLayout {
    pub fn new(width: u32, height: u32) -> Self {
        let quads_x = width.div_ceil(2);
        FragmentLayout {
            width,
            height,
            quads_x,
            quads: quads_x * height.div_ceil(2),
        }
    }

    /// SIMD-groups covering the grid.
    pub fn simd_groups(&self) -> u32 {
        self.quads.div_ceil(8)
    }

    /// Runs SIMD-group `item` on `w`.
    pub fn run_simd_group(&self, w: &mut Worker<'_>, item: u64) -> Result<(), Error> {
        let s = item as u32;
        let mut ids = ThreadIds::default();
        let mut live = 0u32;
        let mut helper = 0u32;
        for k in 0..8 {
            let q = 8 * s + k;
            if q >= self.quads {
                break;
            }
            for j in 0..4 {
                let l = (4 * k + j) as usize;
                let x = 2 * (q % self.quads_x) + (j & 1);
                let y = 2 * (q / self.quads_x) + (j >> 1);
                ids.global[0][l] = x;
                ids.global[1][l] = y;
                ids.index_in_group[l] = l as u32;
                live |= 1 << l;
                if x >= self.width || y >= self.height {
                    helper |= 1 << l;
                }
            }
        }
        ids.group_size = [32, 1, 1];
        let meta = *w.shared.program.metadata();
        let config = *w.shared.config;
        // The SIMD-group is reset and run in place in the worker's pool (moved out of the
        // worker as a vector, a few words): popping and pushing it moved its several kilobytes
        // of register file and timing state twice per SIMD-group, a measurable cost of cheap
        // fragment shaders.
        let mut pool = std::mem::take(&mut w.pool);
        match pool.last_mut() {
            Some(g) => g.reset(s, live, ids, &config, meta.stack_size, meta.gpr_halves),
            None => pool.push(SimdGroup::new(s, live, ids, &config, meta.stack_size)),
        }
        let Some(g) = pool.last_mut() else {
            // Unreachable: the pool was given a SIMD-group just above.
            w.pool = pool;
            return Ok(());
        };
        g.helper = helper;
        let (mut machine, tg, scratch) = w.machine();
        tg.fill(0);
        let result = run_workgroup(&mut machine, std::slice::from_mut(g), tg, scratch);
        if result.is_ok() {
            machine.stats.cycles.push(g.timing.cycles());
            machine.stats.simd_groups += 1;
        }
        w.pool = pool;
        result
    }
}

/// The threads of SIMD-group `s` that exist in a workgroup of `threads` threads.
fn live_mask(threads: u32, s: u32) -> u32 {
    let remaining = threads - 32 * s;
    if remaining >= 32 {
        u32::MAX
    } else {
        (1u32 << remaining) - 1
    }
}

fn compute_ids(group: [u32; 3], size: [u32; 3], s: u32, threads: u32) -> ThreadIds {
    let mut ids = ThreadIds {
        group,
        group_size: size,
        simd_in_group: s,
        ..ThreadIds::default()
    };
    for l in 0..32u32 {
        let tid = 32 * s + l;
        if tid >= threads {
            break;
        }
        let local = [
            tid % size[0],
            (tid / size[0]) % size[1],
            tid / (size[0] * size[1]),
        ];
        for axis in 0..3 {
            ids.local[axis][l as usize] = local[axis];
            ids.global[axis][l as usize] = group[axis]
                .wrapping_mul(size[axis])
                .wrapping_add(local[axis]);
        }
        ids.index_in_group[l as usize] = tid;
    }
    ids
}

/// Runs the SIMD-groups of one workgroup to completion, releasing barriers when every
/// SIMD-group has arrived.
fn run_workgroup(
    machine: &mut Machine<'_>,
    groups: &mut [SimdGroup],
    tg: &mut [u8],
    scratch: &mut Scratch,
) -> Result<(), Error> {
    loop {
        for g in groups.iter_mut().filter(|g| g.state == GroupState::Running) {
            machine.run_with(g, tg, scratch)?;
        }
        let waiting = groups
            .iter()
            .filter(|g| g.state == GroupState::AtBarrier)
            .count();
        if waiting == 0 {
            return Ok(());
        }
        if let Some(stopped) = groups.iter().position(|g| g.state == GroupState::Stopped) {
            let g = groups.iter().find(|g| g.state == GroupState::AtBarrier);
            let pc = g.and_then(|g| machine.program.instructions().get(g.index.wrapping_sub(1)));
            return Err(ExecError {
                pc: pc.map_or(0, |d| d.pc),
                simd_group: g.map_or(0, |g| g.id),
                kind: ExecErrorKind::BarrierDeadlock {
                    stopped: stopped as u32,
                },
            }
            .into());
        }
        let release = groups.iter().map(|g| g.timing.now()).max().unwrap_or(0);
        for g in groups.iter_mut() {
            g.state = GroupState::Running;
            g.timing.advance_to(release);
        }
    }
}
