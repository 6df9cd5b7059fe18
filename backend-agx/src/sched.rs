//! Pre-register-allocation list scheduling.
//!
//! Pipeline position: after instruction selection, before register allocation. Each
//! straight-line block (the machine instructions between two structured pseudo-instructions or
//! `sample_mask`) is reordered on its dependence graph:
//!
//! - **register dependences** between views of a group whose units overlap: read after write
//!   (weighted with the writer's latency), write after read and write after write (order only);
//! - **memory order**: a store (device, threadgroup, stack, `st_tile`) stays after every earlier
//!   load and store, a load after the last earlier store; texture and varying reads are free;
//!   `threadgroup_barrier` is a fence for everything.
//!
//! # Heuristic
//! Classic critical-path list scheduling with a register-pressure guard:
//! 1. each instruction's *height* is its latency plus the longest latency-weighted path to the
//!    end of the block ([`crate::latency`]: device loads 60 cycles, textures 80, ALU 2..6), so
//!    loads and texture samples rise to the top of the block and their latency overlaps the
//!    independent work after them;
//! 2. among the ready instructions the tallest goes first (ties: original order);
//! 3. but when scheduling it would raise the live register units (16-bit) above
//!    [`PRESSURE_LIMIT`], the ready instruction that raises pressure least goes instead
//!    (ties: tallest), so hiding latency never costs spills in pressure-bound blocks.
//!
//! Live units are tracked per group: a group becomes live at its first definition in the block
//! (or is live on entry), and dies after its last use in the block unless it is live after the
//! block (by the intervals of `regalloc::liveness`).

use crate::isa::Instr;
use crate::latency;
use crate::mir::{Group, MFunction, MInst, VReg};
use crate::regalloc::liveness::{intervals, Interval};

/// Live 16-bit units above which the scheduler minimises pressure instead of latency: three
/// quarters of the register file, leaving room for the allocator's alignment and fragmentation.
pub const PRESSURE_LIMIT: u32 = 192;

/// Schedules every straight-line block of `m`.
pub fn schedule(m: &mut MFunction) {
    let iv = intervals(&m.insts, m.groups.len());
    let n = m.insts.len();
    let mut out = Vec::with_capacity(n);
    let mut i = 0;
    while i < n {
        if !matches!(m.insts[i], MInst::Op(_)) {
            out.push(m.insts[i]);
            i += 1;
            continue;
        }
        let start = i;
        while i < n && matches!(m.insts[i], MInst::Op(_)) {
            i += 1;
        }
        let block: Vec<Instr<VReg>> = m.insts[start..i]
            .iter()
            .filter_map(|x| match x {
                MInst::Op(op) => Some(*op),
                _ => None,
            })
            .collect();
        let order = schedule_block(&block, start, i - 1, &iv, &m.groups);
        out.extend(order.into_iter().map(|k| MInst::Op(block[k])));
    }
    m.insts = out;
}

/// How an instruction touches memory, for ordering.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mem {
    None,
    Read,
    Write,
    Fence,
}

fn mem_kind(i: &Instr<VReg>) -> Mem {
    use Instr::*;
    match i {
        DeviceLoad(_) | ThreadgroupLoad(_) | StackLoad(_) => Mem::Read,
        DeviceStore(_) | ThreadgroupStore(_) | StackStore(_) | StTile { .. } => Mem::Write,
        ThreadgroupBarrier | Stop | Trap | Wait { .. } => Mem::Fence,
        _ => Mem::None,
    }
}

fn overlaps(a: &VReg, b: &VReg) -> bool {
    if a.group != b.group {
        return false;
    }
    let (x, y) = (a.units_range(), b.units_range());
    x.start < y.end && y.start < x.end
}

/// The order (indices into `block`) to emit the block in; `first..=last` are its positions in
/// the function, for liveness.
fn schedule_block(
    block: &[Instr<VReg>],
    first: usize,
    last: usize,
    iv: &[Option<Interval>],
    groups: &[Group],
) -> Vec<usize> {
    let n = block.len();
    if n <= 1 {
        return (0..n).collect();
    }
    // Dependence edges (pred -> succ, weight).
    let mut succs: Vec<Vec<(usize, u32)>> = vec![Vec::new(); n];
    let mut npreds = vec![0u32; n];
    let mut add = |succs: &mut Vec<Vec<(usize, u32)>>, p: usize, s: usize, w: u32| {
        if !succs[p].iter().any(|&(x, _)| x == s) {
            succs[p].push((s, w));
            npreds[s] += 1;
        }
    };
    let uses: Vec<Vec<VReg>> = block
        .iter()
        .map(|i| {
            let mut v = Vec::new();
            i.for_each_use(|r| v.push(*r));
            v
        })
        .collect();
    let defs: Vec<Vec<VReg>> = block
        .iter()
        .map(|i| {
            let mut v = Vec::new();
            i.for_each_def(|r| v.push(*r));
            v
        })
        .collect();
    let mut last_write: Option<usize> = None;
    let mut reads_since_write: Vec<usize> = Vec::new();
    let mut last_fence: Option<usize> = None;
    for s in 0..n {
        for p in 0..s {
            let raw = defs[p]
                .iter()
                .any(|d| uses[s].iter().any(|u| overlaps(d, u)));
            if raw {
                add(&mut succs, p, s, latency::cost(&block[p]).0);
                continue;
            }
            let war = uses[p]
                .iter()
                .any(|u| defs[s].iter().any(|d| overlaps(d, u)));
            let waw = defs[p]
                .iter()
                .any(|d| defs[s].iter().any(|e| overlaps(d, e)));
            if war || waw {
                add(&mut succs, p, s, 0);
            }
        }
        let kind = mem_kind(&block[s]);
        if let Some(f) = last_fence {
            add(&mut succs, f, s, 0);
        }
        match kind {
            Mem::Read => {
                if let Some(w) = last_write {
                    add(&mut succs, w, s, 0);
                }
                reads_since_write.push(s);
            }
            Mem::Write => {
                if let Some(w) = last_write {
                    add(&mut succs, w, s, 0);
                }
                for &r in &reads_since_write {
                    add(&mut succs, r, s, 0);
                }
                reads_since_write.clear();
                last_write = Some(s);
            }
            Mem::Fence => {
                for p in 0..s {
                    add(&mut succs, p, s, 0);
                }
                last_fence = Some(s);
            }
            Mem::None => {}
        }
    }
    // Heights, from the end.
    let mut height = vec![0u32; n];
    for p in (0..n).rev() {
        let own = latency::cost(&block[p]).0;
        height[p] = succs[p]
            .iter()
            .map(|&(s, w)| w.max(1) + height[s])
            .max()
            .unwrap_or(0)
            .max(own);
    }
    // Register pressure bookkeeping.
    let live_out = |g: u32| iv[g as usize].is_some_and(|i| i.end > last);
    let live_in = |g: u32| iv[g as usize].is_some_and(|i| i.start < first);
    let mut remaining_uses: std::collections::HashMap<u32, u32> = Default::default();
    for u in &uses {
        for r in u {
            *remaining_uses.entry(r.group).or_default() += 1;
        }
    }
    let mut live: std::collections::HashSet<u32> = Default::default();
    let mut pressure = 0u32;
    for u in uses.iter().flatten() {
        if live_in(u.group) && live.insert(u.group) {
            pressure += groups[u.group as usize].units;
        }
    }
    let delta = |k: usize,
                 live: &std::collections::HashSet<u32>,
                 remaining: &std::collections::HashMap<u32, u32>|
     -> i64 {
        let mut d = 0i64;
        let mut born: Vec<u32> = Vec::new();
        for r in &defs[k] {
            if !live.contains(&r.group) && !born.contains(&r.group) {
                born.push(r.group);
                d += i64::from(groups[r.group as usize].units);
            }
        }
        let mut dying: Vec<u32> = Vec::new();
        for r in &uses[k] {
            let here = uses[k].iter().filter(|x| x.group == r.group).count() as u32;
            if remaining.get(&r.group).copied().unwrap_or(0) == here
                && !live_out(r.group)
                && !dying.contains(&r.group)
            {
                dying.push(r.group);
                d -= i64::from(groups[r.group as usize].units);
            }
        }
        d
    };

    let mut ready: Vec<usize> = (0..n).filter(|&k| npreds[k] == 0).collect();
    let mut order = Vec::with_capacity(n);
    while !ready.is_empty() {
        let best_by_height = |ready: &[usize]| -> usize {
            let mut best = 0;
            for (j, &k) in ready.iter().enumerate() {
                let b = ready[best];
                if height[k] > height[b] || (height[k] == height[b] && k < b) {
                    best = j;
                }
            }
            best
        };
        let mut pick = best_by_height(&ready);
        let d = delta(ready[pick], &live, &remaining_uses);
        if pressure as i64 + d > i64::from(PRESSURE_LIMIT) {
            let mut best = pick;
            let mut best_d = d;
            for (j, &k) in ready.iter().enumerate() {
                let dk = delta(k, &live, &remaining_uses);
                let b = ready[best];
                if dk < best_d || (dk == best_d && height[k] > height[b]) {
                    best = j;
                    best_d = dk;
                }
            }
            pick = best;
        }
        let k = ready.swap_remove(pick);
        // Update pressure.
        for r in &defs[k] {
            if live.insert(r.group) {
                pressure += groups[r.group as usize].units;
            }
        }
        for r in &uses[k] {
            if let Some(c) = remaining_uses.get_mut(&r.group) {
                *c = c.saturating_sub(1);
                if *c == 0 && !live_out(r.group) && live.remove(&r.group) {
                    pressure = pressure.saturating_sub(groups[r.group as usize].units);
                }
            }
        }
        order.push(k);
        for &(s, _) in &succs[k] {
            npreds[s] -= 1;
            if npreds[s] == 0 {
                ready.push(s);
            }
        }
    }
    if order.len() != n {
        // The graph is acyclic by construction (edges go forward); keep the original order
        // should that ever fail.
        return (0..n).collect();
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::{DeviceAccess, Dst, FSrc, MemBase, MemFormat, MemOffset, Precision, RegClass};

    fn text(m: &MFunction) -> Vec<String> {
        m.insts.iter().map(|i| i.to_string()).collect()
    }

    #[test]
    fn loads_move_above_independent_arithmetic() {
        let mut m = MFunction::default();
        let a = m.new_group(RegClass::R32);
        let b = m.new_group(RegClass::R32);
        let x = m.new_group(RegClass::R32);
        let y = m.new_group(RegClass::R32);
        let add = |dst, src| {
            MInst::Op(Instr::Fadd {
                prec: Precision::F32,
                dst: Dst::new(dst),
                sat: false,
                a: FSrc::reg(src),
                b: FSrc::imm(0x30),
            })
        };
        m.push(MInst::Op(Instr::MovImm {
            dst: Dst::new(a),
            imm: 1,
        }));
        m.push(add(b, a));
        m.push(MInst::Op(Instr::DeviceLoad(DeviceAccess {
            data: x,
            base: MemBase::Uniform(0),
            offset: MemOffset::Imm(0),
            format: MemFormat::I32,
            mask: 1,
            shift: 0,
            slot: 0,
        })));
        m.push(add(y, x));
        m.push(MInst::Op(Instr::DeviceStore(DeviceAccess {
            data: y,
            base: MemBase::Uniform(2),
            offset: MemOffset::Imm(0),
            format: MemFormat::I32,
            mask: 1,
            shift: 0,
            slot: 0,
        })));
        m.push(MInst::Op(Instr::DeviceStore(DeviceAccess {
            data: b,
            base: MemBase::Uniform(2),
            offset: MemOffset::Imm(1),
            format: MemFormat::I32,
            mask: 1,
            shift: 0,
            slot: 0,
        })));
        schedule(&mut m);
        let t = text(&m);
        // The load goes first; the stores keep their order.
        assert!(t[0].starts_with("device_load"), "{t:?}");
        let s1 = t
            .iter()
            .position(|l| l.contains("device_store %3"))
            .unwrap_or(99);
        let s2 = t
            .iter()
            .position(|l| l.contains("device_store %1"))
            .unwrap_or(0);
        assert!(s1 < s2, "{t:?}");
    }
}
