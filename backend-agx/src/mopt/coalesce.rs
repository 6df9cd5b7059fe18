//! Copy coalescing: a copy between two groups that never hold different live values is removed
//! by giving both groups the same registers.
//!
//! Instruction selection copies values into the registers of the construct that hands them on:
//! an `if`'s results at each `yield`, a loop's parameters at its entry and at each `continue`,
//! its results at each `break`. The register allocator removes a copy whose source dies there
//! and whose destination starts there (`regalloc::copy_sources`), but its live intervals are
//! linear: a loop result written at a `break` and a loop parameter rewritten later in the same
//! iteration overlap in program order although no thread ever needs both (a thread that breaks
//! leaves the loop). This pass decides on the per-thread control-flow graph ([`super::flow`])
//! instead, so a loop-carried value keeps one register through the loop and out of it.
//!
//! Two groups related by a copy `iadd d, s, 0` (of a whole value, or of one element of a run)
//! are merged when one fits inside the other at the offsets the copy pairs (the source into the
//! destination if it fits, so a value lands where a run needs it; else the destination into
//! the source, so a run element is read where it already is) with the alignment it needs, and
//! they do not *interfere*: no instruction writes a unit of one while the paired unit of the
//! other is live after it, except a copy of exactly those units from the other (then both hold
//! the same value; Chaitin's rule, in 16-bit units). Merging renames the group; the copy
//! becomes a copy of a register to itself and is deleted. Copies in deeper loops are tried first. Each
//! round computes liveness once and merges each group at most once; rounds repeat until none
//! merges (a merge can turn another copy's source into a matching copy).
//!
//! Register pressure does not grow: a copy reads its source and writes its destination, so the
//! two groups' linear live intervals meet at the copy, and the merged group's interval is their
//! union. Groups read by cross-lane instructions ([`super::flow::cross_lane_reads`]) merge
//! only when both are written once, so that inactive threads' registers keep what they held.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use super::flow::{cross_lane_reads, step_back, BitSet, Cfg, Liveness, UnitMap};
use crate::isa::{Instr, IntSrc, Src};
use crate::mir::{MFunction, MInst, VReg};

/// Most rounds of liveness and merging.
const MAX_ROUNDS: usize = 8;

/// The destination and source of a plain register copy (`iadd d, s, 0`) of one shape.
pub fn copy_of(inst: &MInst<VReg>) -> Option<(VReg, VReg)> {
    match *inst {
        MInst::Op(Instr::Iadd {
            dst,
            a:
                IntSrc {
                    src: Src::Reg { reg, .. },
                    sext: false,
                },
            b: IntSrc {
                src: Src::Imm(0), ..
            },
            neg_b: false,
            shift: 0,
            sat: false,
        }) if dst.reg.class == reg.class => Some((dst.reg, reg)),
        _ => None,
    }
}

/// Coalesces copies in `m`; returns the copies removed.
pub fn coalesce(m: &mut MFunction) -> u32 {
    let cross = cross_lane_reads(m);
    let before = m.insts.len();
    for _ in 0..MAX_ROUNDS {
        let merges = round(m, &cross);
        if merges.is_empty() {
            break;
        }
        // By group, for the rewrite of every instruction.
        let mut merged: Vec<Option<(u32, u16)>> = vec![None; m.groups.len()];
        for (&from, &to) in &merges {
            if let Some(slot) = merged.get_mut(from as usize) {
                *slot = Some(to);
            }
        }
        for inst in &mut m.insts {
            *inst = inst.map_regs(|r| match merged.get(r.group as usize).copied().flatten() {
                Some((into, shift)) => VReg {
                    group: into,
                    offset: r.offset + shift,
                    class: r.class,
                },
                None => r,
            });
        }
        // The copies merged away are copies of a register to itself now; deleting them before
        // the next round keeps them from counting as writes of the merged group.
        m.insts
            .retain(|inst| copy_of(inst).is_none_or(|(d, s)| d != s));
    }
    (before - m.insts.len()) as u32
}

/// A possible merge: group `from` becomes the units `shift..` of group `into`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Merge {
    from: u32,
    into: u32,
    shift: u16,
}

/// How a copy `d = s` could merge its groups: the source into the destination where it fits
/// (it then lives where it is copied to), else the destination into the source.
fn merge_for(m: &MFunction, d: VReg, s: VReg) -> Option<Merge> {
    let fits = |from: VReg, into: VReg| -> Option<Merge> {
        let shift = into.offset.checked_sub(from.offset)?;
        let (f, i) = (
            &m.groups[from.group as usize],
            &m.groups[into.group as usize],
        );
        let ok = f.units + u32::from(shift) <= i.units
            && u32::from(shift) % f.align.max(1) == 0
            && i.align >= f.align;
        ok.then_some(Merge {
            from: from.group,
            into: into.group,
            shift,
        })
    };
    fits(s, d).or_else(|| fits(d, s))
}

/// The merges copies suggest, with the loop depth and position of their first copy, deepest
/// first.
fn candidates(m: &MFunction, cfg: &Cfg, cross: &[bool]) -> Vec<(Merge, u32, usize)> {
    // Writes of each 16-bit unit of each group (one array, numbered as [`UnitMap`] does).
    let units = UnitMap::new(m);
    let mut writes = vec![0u8; units.total as usize];
    let unit_range = |g: u32| {
        let base = units.base[g as usize] as usize;
        base..base + m.groups[g as usize].units as usize
    };
    // Only the groups read by cross-lane instructions ask for the counts.
    let any_cross = cross.iter().any(|&c| c);
    for inst in m.insts.iter().filter(|_| any_cross) {
        inst.for_each_def(|r| {
            let range = unit_range(r.group);
            for u in r.units_range() {
                if let Some(n) = writes.get_mut(range.start + u as usize) {
                    if range.start + (u as usize) < range.end {
                        *n = n.saturating_add(1);
                    }
                }
            }
        });
    }
    // A group read by a cross-lane instruction merges only when every unit of both groups is
    // written once (a run built element by element, one copy per element, qualifies): then
    // the merged registers hold that one value from its definition on, in every thread that
    // ran it, as the cross-lane group's own registers did.
    let single = |g: u32| writes[unit_range(g)].iter().all(|&n| n <= 1);
    let mut seen = HashSet::default();
    let mut out = Vec::new();
    for (i, inst) in m.insts.iter().enumerate() {
        let Some((d, s)) = copy_of(inst) else {
            continue;
        };
        if d.group == s.group
            || ((cross[d.group as usize] || cross[s.group as usize])
                && !(single(d.group) && single(s.group)))
        {
            continue;
        }
        if let Some(merge) = merge_for(m, d, s) {
            if seen.insert(merge) {
                out.push((merge, cfg.depth[i], i));
            }
        }
    }
    out.sort_by_key(|&(_, depth, at)| (std::cmp::Reverse(depth), at));
    out
}

/// One round: the merges (group to group and offset) that are safe together.
fn round(m: &MFunction, cross: &[bool]) -> HashMap<u32, (u32, u16)> {
    let cfg = Cfg::new(&m.insts);
    let merges = candidates(m, &cfg, cross);
    if merges.is_empty() {
        return HashMap::default();
    }
    // For each group, its possible partners and the offset of the partner's unit matching
    // unit 0 of the group.
    // (By group: looked up at every definition.)
    let mut partners: Vec<Vec<(usize, u32, i32)>> = vec![Vec::new(); m.groups.len()];
    for (k, &(mg, _, _)) in merges.iter().enumerate() {
        let shift = i32::from(mg.shift);
        partners[mg.from as usize].push((k, mg.into, shift));
        partners[mg.into as usize].push((k, mg.from, -shift));
    }
    let units = UnitMap::new(m);
    // Nothing lives out of a block without successors (a function without control flow is
    // one such block): liveness across blocks is needed only when some block has successors.
    let live = cfg
        .succs
        .iter()
        .any(|s| !s.is_empty())
        .then(|| Liveness::new(m, &cfg, &units));
    let mut conflict = vec![false; merges.len()];
    let mut defined: Vec<u32> = Vec::new();
    for (b, range) in cfg.blocks.iter().enumerate() {
        let mut now = match &live {
            Some(live) => live.live_out(&cfg, b),
            None => BitSet::new(units.total),
        };
        for inst in m.insts[range.clone()].iter().rev() {
            let copy = copy_of(inst);
            defined.clear();
            inst.for_each_def(|r| {
                defined.push(r.group);
                for &(k, h, delta) in partners.get(r.group as usize).into_iter().flatten() {
                    // The partner's units these registers would share, live after the write?
                    let hu = m.groups[h as usize].units as i32;
                    let first = i32::from(r.offset) + delta;
                    let same_value = copy.is_some_and(|(d, s)| {
                        d == *r && s.group == h && i32::from(s.offset) == first
                    });
                    if same_value {
                        continue;
                    }
                    let base = units.base[h as usize] as i32;
                    let hit = (first..first + r.class.units() as i32)
                        .filter(|&u| (0..hu).contains(&u))
                        .any(|u| now.contains((base + u) as u32));
                    if hit {
                        conflict[k] = true;
                    }
                }
            });
            // One instruction writing both groups of a pair.
            for (i, &g) in defined.iter().enumerate() {
                for &h in &defined[i + 1..] {
                    for &(k, p, _) in partners.get(g as usize).into_iter().flatten() {
                        if p == h && g != h {
                            conflict[k] = true;
                        }
                    }
                }
            }
            step_back(inst, &units, &mut now);
        }
    }
    let mut used: HashSet<u32> = HashSet::default();
    let mut out = HashMap::default();
    for (k, &(mg, _, _)) in merges.iter().enumerate() {
        if conflict[k] || used.contains(&mg.from) || used.contains(&mg.into) {
            continue;
        }
        used.insert(mg.from);
        used.insert(mg.into);
        out.insert(mg.from, (mg.into, mg.shift));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::{Cmp, Dst, ICond, RegClass};

    fn mov(m: &mut MFunction, d: VReg, s: VReg) {
        m.op(Instr::Iadd {
            dst: Dst::new(d),
            a: IntSrc::zext(Src::reg(s)),
            b: IntSrc::zext(Src::Imm(0)),
            neg_b: false,
            shift: 0,
            sat: false,
        });
    }

    fn add1(m: &mut MFunction, d: VReg, s: VReg) {
        m.op(Instr::Iadd {
            dst: Dst::new(d),
            a: IntSrc::zext(Src::reg(s)),
            b: IntSrc::zext(Src::Imm(1)),
            neg_b: false,
            shift: 0,
            sat: false,
        });
    }

    fn store(m: &mut MFunction, v: VReg) {
        m.op(Instr::StTile {
            src: v,
            rt: 0,
            mask: 1,
            format: crate::isa::MemFormat::I32,
        });
    }

    /// `loop { if p >= 7 { r = p; break } p = p + 1; continue }` with `r` used after the loop:
    /// the result and the parameter never both hold a value one thread needs.
    #[test]
    fn a_loop_result_shares_the_parameters_register() {
        let mut m = MFunction::default();
        let p = m.new_group(RegClass::R32);
        let r = m.new_group(RegClass::R32);
        let next = m.new_group(RegClass::R32);
        m.op(Instr::MovImm {
            dst: Dst::new(p),
            imm: 0,
        });
        m.push(MInst::Loop);
        m.push(MInst::If {
            cmp: Cmp::Int {
                cond: ICond::Slt,
                a: Src::reg(p),
                b: Src::Imm(7),
            },
            invert: true,
        });
        mov(&mut m, r, p);
        m.push(MInst::Break);
        m.push(MInst::Else);
        m.push(MInst::EndIf);
        add1(&mut m, next, p);
        mov(&mut m, p, next);
        m.push(MInst::Continue);
        m.push(MInst::EndLoop);
        store(&mut m, r);
        let before = m.to_string();
        assert_eq!(coalesce(&mut m), 2, "{before}\n{m}");
        assert_eq!(
            m.to_string(),
            "    mov_imm %1, 0\n    loop\n        if sge %1, 7\n            break\n        else\n        \
             end_if\n        iadd %1, %1, 1\n        continue\n    end_loop\n    st_tile %1, rt 0, 0b0001, i32\n"
        );
    }

    /// Elements of a loaded run copied into a shorter run are read where they are, and a
    /// value copied into a run element is computed there.
    #[test]
    fn runs_and_their_elements_share_registers() {
        let mut m = MFunction::default();
        let big = m.new_group(RegClass::Vec32(4));
        let small = m.new_group(RegClass::Vec32(2));
        let v = m.new_group(RegClass::R32);
        let out = m.new_group(RegClass::Vec32(2));
        m.op(Instr::DeviceLoad(crate::isa::DeviceAccess {
            data: big,
            base: crate::isa::MemBase::Uniform(0),
            offset: crate::isa::MemOffset::Imm(0),
            format: crate::isa::MemFormat::I32,
            mask: 0b1111,
            shift: 0,
            slot: 0,
        }));
        mov(&mut m, small.word(0), big.word(0));
        mov(&mut m, small.word(1), big.word(1));
        m.op(Instr::StTile {
            src: small,
            rt: 0,
            mask: 0b11,
            format: crate::isa::MemFormat::I32,
        });
        add1(&mut m, v, big.word(3));
        mov(&mut m, out.word(0), big.word(2));
        mov(&mut m, out.word(1), v);
        m.op(Instr::StTile {
            src: out,
            rt: 1,
            mask: 0b11,
            format: crate::isa::MemFormat::I32,
        });
        let before = m.to_string();
        assert_eq!(coalesce(&mut m), 4, "{before}\n{m}");
        let text: Vec<String> = m.insts.iter().map(|i| i.to_string()).collect();
        assert_eq!(text[1], "st_tile %0:32x2, rt 0, 0b0011, i32", "{m}");
        // `v` replaces the element it is computed from, which dies there, and lands in the run
        // the second output reads: the whole second run is the load's upper half.
        assert_eq!(text[2], "iadd %0+6, %0+6, 1", "{m}");
        assert_eq!(text[3], "st_tile %0+4:32x2, rt 1, 0b0011, i32", "{m}");
    }

    /// A copy whose source is still read after the destination changes stays.
    #[test]
    fn interfering_copies_stay() {
        let mut m = MFunction::default();
        let a = m.new_group(RegClass::R32);
        let b = m.new_group(RegClass::R32);
        m.op(Instr::MovImm {
            dst: Dst::new(a),
            imm: 5,
        });
        mov(&mut m, b, a);
        add1(&mut m, b, b);
        store(&mut m, a);
        store(&mut m, b);
        let before = m.to_string();
        assert_eq!(coalesce(&mut m), 0);
        assert_eq!(m.to_string(), before);
    }
}
