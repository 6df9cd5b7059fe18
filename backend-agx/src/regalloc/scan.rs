//! Linear scan over live intervals in 16-bit units.
//!
//! Intervals are visited by start; each gets the lowest free run of halves of its size at its
//! alignment (first fit keeps the register count, and so occupancy, low). An interval whose
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

/// Assigns halves `0..limit` (minus `reserved`) to `intervals`.
pub fn scan(
    intervals: &[Option<Interval>],
    groups: &[Group],
    unspillable: &[bool],
    reserved: &[u16],
    limit: u32,
) -> Scan {
    let mut order: Vec<Interval> = intervals.iter().flatten().copied().collect();
    order.sort_by_key(|iv| (iv.start, iv.group));
    let mut free = vec![true; 256];
    for h in limit.min(256) as usize..256 {
        free[h] = false;
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
                release(&mut free, base[a.group as usize], groups[a.group as usize].units);
                false
            } else {
                true
            }
        });
        let g = &groups[iv.group as usize];
        loop {
            if let Some(h) = find(&free, g.units, g.align) {
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
                    release(&mut free, base[a.group as usize], groups[a.group as usize].units);
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
