//! Linear scan over live intervals in 16-bit units.
//!
//! Intervals are visited by start; each gets the registers of the copy it is made from when
//! those are free (so the copy disappears), else the lowest free run of halves of its size at
//! its alignment (first fit keeps the register count, and so occupancy, low). An interval whose
//! last use is the instruction where the next one starts may share its register: instructions
//! read all their sources before writing. A group of several registers whose units live over
//! different spans ([`super::liveness::unit_spans`]) may also take a unit another group still
//! holds, when the holder's last use of that unit comes by the unit's own first reference: the
//! unit passes to the group when the holder ends, instead of becoming free. When nothing fits, the live interval (current or
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

/// Assigns halves `0..limit` (minus each `reserved` half up to its position: an interval may take
/// it only if it starts after that position) to `intervals`. `prefer[g]` names a group
/// whose registers `g` should take if they are free when `g` starts (the source of a copy
/// that ends where `g` begins: sharing the register makes the copy a no-op). `spans[g]` gives
/// the first and last reference of each unit of `g` where these are known to be all that
/// matters (empty otherwise: every unit lives as long as the group).
pub fn scan(
    intervals: &[Option<Interval>],
    spans: &[Vec<(usize, usize)>],
    groups: &[Group],
    unspillable: &[bool],
    reserved: &[(u16, usize)],
    limit: u32,
    prefer: &[Option<u32>],
) -> Scan {
    let mut order: Vec<Interval> = intervals.iter().flatten().copied().collect();
    order.sort_by_key(|iv| (iv.start, iv.group));
    let mut units = Units::new(limit, reserved);
    let mut base = vec![0u16; groups.len()];
    let mut active: Vec<Interval> = Vec::new();
    let mut spilled: Vec<u32> = Vec::new();
    let mut reserved: Vec<(u16, usize)> = reserved.to_vec();
    for iv in order {
        reserved.retain(|&(h, until)| {
            let over = until < iv.start;
            if over && u32::from(h) < limit {
                units.free[usize::from(h)] = true;
            }
            !over
        });
        // Expire intervals that end before (or at) this start.
        active.retain(|a| {
            if a.end <= iv.start {
                units.release(
                    a.group,
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
                    && units
                        .free
                        .get(usize::from(h)..usize::from(h) + g.units as usize)
                        .is_some_and(|r| r.iter().all(|&f| f))
            });
        let unit_spans = spans.get(iv.group as usize).map_or(&[][..], Vec::as_slice);
        loop {
            let found = preferred.or_else(|| units.find(g, unit_spans, iv));
            if let Some(h) = found {
                base[iv.group as usize] = h;
                units.take(iv.group, h, unit_spans, iv, g.units);
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
                    units.release(
                        a.group,
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

/// No group.
const NONE: u32 = u32::MAX;

/// The state of the 256 halves during a scan.
struct Units {
    /// Halves nobody holds or claims.
    free: Vec<bool>,
    /// The group holding each half.
    owner: Vec<u32>,
    /// The group that takes each half when its holder ends.
    claim: Vec<u32>,
    /// The last use of each half by its holder (by its claimant, in `claim_end`).
    end: Vec<usize>,
    claim_end: Vec<usize>,
    /// The first reference of each half by its holder, when known from its spans (0: not
    /// known): before it the half is a hole another group may use.
    begin: Vec<usize>,
    /// The end of the last group given each half's hole.
    hole_end: Vec<usize>,
}

impl Units {
    fn new(limit: u32, reserved: &[(u16, usize)]) -> Units {
        let mut free = vec![true; 256];
        for f in free.iter_mut().skip(limit.min(256) as usize) {
            *f = false;
        }
        for &(h, _) in reserved {
            if let Some(f) = free.get_mut(usize::from(h)) {
                *f = false;
            }
        }
        Units {
            free,
            owner: vec![NONE; 256],
            claim: vec![NONE; 256],
            end: vec![usize::MAX; 256],
            claim_end: vec![usize::MAX; 256],
            begin: vec![0; 256],
            hole_end: vec![0; 256],
        }
    }

    /// Whether `iv` fits in the hole of half `h`: its holder's first reference of the half
    /// comes at or after `iv`'s end, and no other group is in the hole by `iv`'s start.
    fn in_hole(&self, h: usize, iv: Interval) -> bool {
        self.owner[h] != NONE
            && self.begin[h] > 0
            && iv.end <= self.begin[h]
            && self.hole_end[h] <= iv.start
    }

    /// The lowest place for `g` (interval `iv`) at its alignment: each unit free, or (when
    /// `spans` gives the units' first references) held by a group whose last use of it comes
    /// by the unit's first reference and not yet claimed, or in a hole ([`Units::in_hole`]).
    fn find(&self, g: &Group, spans: &[(usize, usize)], iv: Interval) -> Option<u16> {
        let (n, align) = (g.units as usize, g.align.max(1) as usize);
        let usable = |h: usize, u: usize| {
            self.free[h]
                || self.in_hole(h, iv)
                || spans.get(u).is_some_and(|&(first, _)| {
                    self.owner[h] != NONE && self.claim[h] == NONE && self.end[h] <= first
                })
        };
        let mut h = 0;
        while h + n <= self.free.len() {
            if (0..n).all(|u| usable(h + u, u)) {
                return Some(h as u16);
            }
            h += align;
        }
        None
    }

    /// Gives `g` (interval `iv`) the halves `h..h + n`: the free ones now, the holes of held
    /// ones for its whole interval, the other held ones when their holders end.
    fn take(&mut self, g: u32, h: u16, spans: &[(usize, usize)], iv: Interval, n: u32) {
        for (u, x) in (usize::from(h)..usize::from(h) + n as usize).enumerate() {
            let end = spans.get(u).map_or(iv.end, |s| s.1);
            if self.free[x] {
                self.free[x] = false;
                self.owner[x] = g;
                self.end[x] = end;
                self.begin[x] = spans.get(u).map_or(0, |s| s.0);
            } else if self.in_hole(x, iv) {
                self.hole_end[x] = iv.end;
            } else {
                self.claim[x] = g;
                self.claim_end[x] = end;
            }
        }
    }

    /// `g` (placed at `h`, `n` halves) ends or is spilled: its halves pass to their claimants
    /// or become free; its claims on halves others still hold are dropped.
    fn release(&mut self, g: u32, h: u16, n: u32) {
        for x in usize::from(h)..usize::from(h) + n as usize {
            if self.owner[x] == g {
                self.owner[x] = self.claim[x];
                self.end[x] = self.claim_end[x];
                self.begin[x] = 0;
                self.claim[x] = NONE;
                self.free[x] = self.owner[x] == NONE;
            } else if self.claim[x] == g {
                self.claim[x] = NONE;
            }
        }
    }
}
