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
//! Two groups of the same size and alignment related by a copy at matching offsets
//! (`iadd d, s, 0`, or element-wise copies of a run) are merged when they do not *interfere*:
//! no instruction writes a unit of one while the same unit of the other is live after it,
//! except a copy of exactly that unit from the other (then both hold the same value; Chaitin's
//! rule, in 16-bit units). Merging renames the source group to the destination; the copy becomes
//! a copy of a register to itself and is deleted. Copies in deeper loops are tried first. Each
//! round computes liveness once and merges each group at most once; rounds repeat until none
//! merges (a merge can turn another copy's source into a matching copy).
//!
//! Register pressure does not grow: a copy reads its source and writes its destination, so the
//! two groups' linear live intervals meet at the copy, and the merged group's interval is their
//! union. Groups read by cross-lane instructions ([`super::flow::cross_lane_reads`]) merge
//! only when both are written once, so that inactive threads' registers keep what they held.

use std::collections::{HashMap, HashSet};

use super::flow::{cross_lane_reads, step_back, Cfg, Liveness, UnitMap};
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
    for _ in 0..MAX_ROUNDS {
        let merges = round(m, &cross);
        if merges.is_empty() {
            break;
        }
        for inst in &mut m.insts {
            *inst = inst.map_regs(|r| match merges.get(&r.group) {
                Some(&to) => VReg { group: to, ..r },
                None => r,
            });
        }
    }
    let before = m.insts.len();
    m.insts
        .retain(|inst| !copy_of(inst).is_some_and(|(d, s)| d == s));
    (before - m.insts.len()) as u32
}

/// The copy-related group pairs `(destination, source)` that may merge, with the loop depth and
/// position of their first copy.
fn candidates(m: &MFunction, cfg: &Cfg, cross: &[bool]) -> Vec<(u32, u32, u32, usize)> {
    let mut defs = vec![0u32; m.groups.len()];
    for inst in &m.insts {
        let mut last = u32::MAX;
        inst.for_each_def(|r| {
            if r.group != last {
                defs[r.group as usize] += 1;
                last = r.group;
            }
        });
    }
    // A group read by a cross-lane instruction merges only when both groups are written once:
    // then the merged registers hold that one value from its definition on, in every thread
    // that ran it, as the cross-lane group's own registers did.
    let single = |g: u32| defs[g as usize] == 1;
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for (i, inst) in m.insts.iter().enumerate() {
        let Some((d, s)) = copy_of(inst) else {
            continue;
        };
        let (gd, gs) = (&m.groups[d.group as usize], &m.groups[s.group as usize]);
        if d.group == s.group
            || d.offset != s.offset
            || gd != gs
            || ((cross[d.group as usize] || cross[s.group as usize])
                && !(single(d.group) && single(s.group)))
        {
            continue;
        }
        if seen.insert((d.group, s.group)) {
            out.push((d.group, s.group, cfg.depth[i], i));
        }
    }
    out.sort_by_key(|&(_, _, depth, at)| (std::cmp::Reverse(depth), at));
    out
}

/// One round: the merges (source group to destination group) that are safe together.
fn round(m: &MFunction, cross: &[bool]) -> HashMap<u32, u32> {
    let cfg = Cfg::new(&m.insts);
    let pairs = candidates(m, &cfg, cross);
    if pairs.is_empty() {
        return HashMap::new();
    }
    let mut partners: HashMap<u32, Vec<u32>> = HashMap::new();
    for &(d, s, _, _) in &pairs {
        partners.entry(d).or_default().push(s);
        partners.entry(s).or_default().push(d);
    }
    let units = UnitMap::new(m);
    let live = Liveness::new(m, &cfg, &units);
    let key = |a: u32, b: u32| (a.min(b), a.max(b));
    let mut conflicts: HashSet<(u32, u32)> = HashSet::new();
    for (b, range) in cfg.blocks.iter().enumerate() {
        let mut now = live.live_out[b].clone();
        for inst in m.insts[range.clone()].iter().rev() {
            let copy = copy_of(inst);
            let mut defined: Vec<u32> = Vec::new();
            inst.for_each_def(|r| {
                defined.push(r.group);
                let Some(list) = partners.get(&r.group) else {
                    return;
                };
                for &h in list {
                    // The same units of the partner, live after this write?
                    let other = VReg { group: h, ..*r };
                    let same_value = copy.is_some_and(|(d, s)| d == *r && s == other);
                    if !same_value && units.units(&other).any(|u| now.contains(u)) {
                        conflicts.insert(key(r.group, h));
                    }
                }
            });
            // One instruction writing both groups of a pair.
            for (k, &g) in defined.iter().enumerate() {
                for &h in &defined[k + 1..] {
                    if g != h && partners.get(&g).is_some_and(|l| l.contains(&h)) {
                        conflicts.insert(key(g, h));
                    }
                }
            }
            step_back(inst, &units, &mut now);
        }
    }
    let mut used: HashSet<u32> = HashSet::new();
    let mut merges = HashMap::new();
    for (d, s, _, _) in pairs {
        if conflicts.contains(&key(d, s)) || used.contains(&d) || used.contains(&s) {
            continue;
        }
        used.insert(d);
        used.insert(s);
        merges.insert(s, d);
    }
    merges
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
