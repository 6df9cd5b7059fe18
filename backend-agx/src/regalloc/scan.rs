//! Linear scan over live intervals in 16-bit units.
//!
//! Intervals are visited by start; each gets the registers of the copy it is made from when
//! those are free (so the copy disappears), else the lowest free run of halves of its size at
//! its alignment (first fit keeps the register count, and so occupancy, low). An interval whose
//! last use is the instruction where the next one starts may share its register: instructions
//! read all their sources before writing. When nothing fits, the live interval (current or
//! active) that ends last is spilled (the classic linear-scan heuristic: it frees its
//! registers for the longest time); intervals created by spilling are never spilled again.

use super::liveness::Interval;
use crate::mir::Group;

/// The result of one scan.
pub enum Scan {
    /// First half of every group (unreferenced groups get 0).
    Assigned(Vec<u16>),
    /// Groups to spill before trying again.
    Spill(Vec<u32>),
}

/// Assigns halves `0..limit` (minus `reserved`) to `intervals`. `prefer[g]` names a group
/// whose registers `g` should take if they are free when `g` starts (the source of a copy
/// that ends where `g` begins: sharing the register makes the copy a no-op).
pub fn scan(
    intervals: &[Option<Interval>],
    groups: &[Group],
    unspillable: &[bool],
    reserved: &[u16],
    limit: u32,
    prefer: &[Option<u32>],
) -> Scan {
    let mut order: Vec<Interval> = intervals.iter().flatten().copied().collect();
    order.sort_by_key(|iv| (iv.start, iv.group));
    let mut free = vec![true; 256];
    for f in free.iter_mut().skip(limit.min(256) as usize) {
        *f = false;
    }
    for &h in reserved {
        if let Some(f) = free.get_mut(usize::from(h)) {
            *f = false;
        }
    }
    let mut base = vec![0u16; groups.len()];
    let mut active: Vec<Interval> = Vec::new();
    let mut spilled: Vec<u32> = Vec::new();
    for iv in order {
        // Expire intervals that end before (or at) this start.
        active.retain(|a| {
            if a.end <= iv.start {
                release(
                    &mut free,
                    base[a.group as usize],
                    groups[a.group as usize].units,
                );
                false
            } else {
                true
            }
        });
        let g = &groups[iv.group as usize];
        let preferred = prefer
            .get(iv.group as usize)
            .copied()
            .flatten()
            .map(|s| base[s as usize])
            .filter(|&h| {
                u32::from(h) % g.align.max(1) == 0
                    && free
                        .get(usize::from(h)..usize::from(h) + g.units as usize)
                        .is_some_and(|r| r.iter().all(|&f| f))
            });
        loop {
            if let Some(h) = preferred.or_else(|| find(&free, g.units, g.align)) {
                base[iv.group as usize] = h;
                take(&mut free, h, g.units);
                active.push(iv);
                break;
            }
            // Spill the interval (active or current) that ends last, if any may be spilled.
            let victim = active
                .iter()
                .enumerate()
                .filter(|(_, a)| !unspillable[a.group as usize])
                .max_by_key(|(_, a)| (a.end, a.group))
                .map(|(i, a)| (i, *a));
            let current_spillable = !unspillable[iv.group as usize];
            match victim {
                Some((i, a)) if !current_spillable || a.end > iv.end => {
                    release(
                        &mut free,
                        base[a.group as usize],
                        groups[a.group as usize].units,
                    );
                    active.remove(i);
                    spilled.push(a.group);
                }
                _ if current_spillable => {
                    spilled.push(iv.group);
                    break;
                }
                _ => {
                    // Nothing can be spilled: the spill temporaries of one instruction do
                    // not fit. Report the current interval; the caller gives up.
                    spilled.push(iv.group);
                    break;
                }
            }
        }
    }
    if spilled.is_empty() {
        Scan::Assigned(base)
    } else {
        Scan::Spill(spilled)
    }
}

fn find(free: &[bool], units: u32, align: u32) -> Option<u16> {
    let (units, align) = (units as usize, align.max(1) as usize);
    let mut h = 0;
    while h + units <= free.len() {
        if free[h..h + units].iter().all(|&f| f) {
            return Some(h as u16);
        }
        h += align;
    }
    None
}

fn take(free: &mut [bool], h: u16, units: u32) {
    for f in &mut free[usize::from(h)..usize::from(h) + units as usize] {
        *f = false;
    }
}

fn release(free: &mut [bool], h: u16, units: u32) {
    for f in &mut free[usize::from(h)..usize::from(h) + units as usize] {
        *f = true;
    }
}
