//! Live intervals of register groups over the linear instruction order.
//!
//! A group is live from its first reference to its last. Structured control flow needs one
//! extension: a group referenced inside a loop and live across the loop's boundary (defined
//! before it, or used after it) stays live for the whole loop, because the loop's later
//! iterations run the code before the reference again (loop parameters, values from outside,
//! values a `break` hands out). `if` needs nothing: both arms lie between the `if` and its
//! end, so a value live across the construct already covers both. Execution masking keeps
//! this sound for divergent code: a lane inactive in an arm keeps its register contents.

use crate::mir::{MInst, VReg};

/// A group's live interval, in instruction positions (inclusive).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interval {
    /// The group.
    pub group: u32,
    /// First position.
    pub start: usize,
    /// Last position.
    pub end: usize,
}

/// The live intervals of every referenced group, by group index (`None`: never referenced).
pub fn intervals(insts: &[MInst<VReg>], groups: usize) -> Vec<Option<Interval>> {
    let mut out: Vec<Option<Interval>> = vec![None; groups];
    let mut touch = |g: u32, pos: usize| {
        let slot = &mut out[g as usize];
        match slot {
            Some(iv) => {
                iv.start = iv.start.min(pos);
                iv.end = iv.end.max(pos);
            }
            None => {
                *slot = Some(Interval {
                    group: g,
                    start: pos,
                    end: pos,
                })
            }
        }
    };
    // Matched loops (`Loop` position, `EndLoop` position).
    let mut loops: Vec<(usize, usize)> = Vec::new();
    let mut open = Vec::new();
    for (pos, inst) in insts.iter().enumerate() {
        inst.for_each_use(|r| touch(r.group, pos));
        inst.for_each_def(|r| touch(r.group, pos));
        match inst {
            MInst::Loop => open.push(pos),
            MInst::EndLoop => {
                if let Some(start) = open.pop() {
                    loops.push((start, pos));
                }
            }
            _ => {}
        }
    }
    if loops.is_empty() {
        return out;
    }
    let nest = LoopNest::new(insts.len(), &loops);
    for iv in out.iter_mut().flatten() {
        let start = nest.outermost_without(iv.start, iv.end);
        let end = nest.outermost_without(iv.end, iv.start);
        if let Some(l) = start {
            iv.start = iv.start.min(loops[l].0);
        }
        if let Some(l) = end {
            iv.end = iv.end.max(loops[l].1);
        }
    }
    out
}

/// The span of each 16-bit unit of a group of more than one register: the positions of its
/// first reference and of its last read (the group's end for a unit never read). Empty for groups of at most two units, whose units live as long
/// as the group, and for groups with a loop boundary inside their interval (a unit referenced
/// inside a loop may be needed around the back edge, as the whole group is) or with a unit
/// never referenced.
///
/// A vector's components are often written one by one just before the instruction that reads
/// the vector (the four colours of an `st_tile`), by instructions that read the last use of
/// other values' registers, one component of a pair at a time: the allocator may give a unit
/// to the vector while another group still holds it, when that unit's last use comes by the
/// new unit's first reference.
pub fn unit_spans(
    insts: &[MInst<VReg>],
    units: &[u32],
    intervals: &[Option<Interval>],
) -> Vec<Vec<(usize, usize)>> {
    let mut spans: Vec<Vec<(usize, usize)>> = units
        .iter()
        .map(|&u| {
            if u > 2 {
                vec![(usize::MAX, 0); u as usize]
            } else {
                Vec::new()
            }
        })
        .collect();
    let mut boundaries = Vec::new();
    // The last reference that counts is the last read: a unit only written (a component of a
    // load nobody reads) may still be written after its position, when the load completes.
    // So may a unit written again after its last read (a dead component of a later load into
    // a group whose unit held an earlier value): the write still lands in the register, so
    // such a unit, like an unread one, lives to the group's end.
    let mut read = vec![false; spans.iter().map(Vec::len).sum()];
    let mut written_after_read = vec![false; read.len()];
    let offsets: Vec<usize> = spans
        .iter()
        .scan(0, |acc, l| {
            let o = *acc;
            *acc += l.len();
            Some(o)
        })
        .collect();
    for (pos, inst) in insts.iter().enumerate() {
        let mut touch = |r: &VReg, is_use: bool| {
            if let Some(list) = spans.get_mut(r.group as usize) {
                let first = usize::from(r.offset);
                let last = (first + r.class.units() as usize).min(list.len());
                let base = offsets[r.group as usize];
                for (u, s) in list.iter_mut().enumerate().take(last).skip(first) {
                    s.0 = s.0.min(pos);
                    let k = base + u;
                    if is_use {
                        s.1 = s.1.max(pos);
                        read[k] = true;
                        written_after_read[k] = false;
                    } else if read[k] && pos > s.1 {
                        written_after_read[k] = true;
                    }
                }
            }
        };
        inst.for_each_use(|r| touch(r, true));
        inst.for_each_def(|r| touch(r, false));
        if matches!(inst, MInst::Loop | MInst::EndLoop) {
            boundaries.push(pos);
        }
    }
    for (g, list) in spans.iter_mut().enumerate() {
        let Some(iv) = intervals.get(g).copied().flatten() else {
            list.clear();
            continue;
        };
        let crossed = |p: usize| boundaries.partition_point(|&b| b <= p);
        let unreferenced = list.iter().any(|s| s.0 == usize::MAX);
        if unreferenced || crossed(iv.start) != crossed(iv.end) {
            list.clear();
        }
        for (u, s) in list.iter_mut().enumerate() {
            let k = offsets[g] + u;
            if !read[k] || written_after_read[k] {
                s.1 = iv.end;
            }
        }
    }
    spans
}

/// Loops nest (structured control flow): each is inside the next one out or disjoint from it.
/// A group referenced inside a loop and live across its boundary is extended over it, and the
/// extended interval may cross an enclosing loop in turn (inner loops first, as a fixpoint).
/// The loops an interval crosses are those holding one of its ends but not the other; those
/// around one end form a chain from the innermost loop at that end outwards, and the extended
/// interval reaches the ends of the outermost of each chain (and crosses nothing more: the
/// next loop out holds both ends). So each interval costs the nesting depth at its ends.
struct LoopNest<'l> {
    loops: &'l [(usize, usize)],
    /// The innermost loop holding each position (`Loop` and `EndLoop` included).
    innermost: Vec<Option<usize>>,
    /// The loop directly enclosing each loop.
    parent: Vec<Option<usize>>,
}

impl<'l> LoopNest<'l> {
    fn new(len: usize, loops: &'l [(usize, usize)]) -> Self {
        let mut opens: Vec<Option<usize>> = vec![None; len];
        for (l, &(s, _)) in loops.iter().enumerate() {
            opens[s] = Some(l);
        }
        let mut innermost = vec![None; len];
        let mut parent = vec![None; loops.len()];
        let mut stack: Vec<usize> = Vec::new();
        for pos in 0..len {
            if let Some(l) = opens[pos] {
                parent[l] = stack.last().copied();
                stack.push(l);
            }
            innermost[pos] = stack.last().copied();
            if stack.last().is_some_and(|&l| loops[l].1 == pos) {
                stack.pop();
            }
        }
        LoopNest {
            loops,
            innermost,
            parent,
        }
    }

    /// The outermost loop holding position `at` but not position `other`.
    fn outermost_without(&self, at: usize, other: usize) -> Option<usize> {
        let mut found = None;
        let mut l = self.innermost[at];
        while let Some(x) = l {
            let (s, e) = self.loops[x];
            if s <= other && other <= e {
                break;
            }
            found = Some(x);
            l = self.parent[x];
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::{Dst, Instr, IntSrc, RegClass, Src};
    use crate::mir::MFunction;

    fn add(m: &mut MFunction, dst: VReg, a: VReg) {
        m.op(Instr::Iadd {
            dst: Dst::new(dst),
            a: IntSrc::zext(Src::reg(a)),
            b: IntSrc::zext(Src::Imm(1)),
            neg_b: false,
            shift: 0,
            sat: false,
        });
    }

    #[test]
    fn values_crossing_a_loop_live_through_it() {
        let mut m = MFunction::default();
        let outside = m.new_group(RegClass::R32);
        let local = m.new_group(RegClass::R32);
        let tmp = m.new_group(RegClass::R32);
        m.op(Instr::MovImm {
            dst: Dst::new(outside),
            imm: 1,
        }); // 0
        m.push(MInst::Loop); // 1
        add(&mut m, local, outside); // 2: reads a value from before the loop
        add(&mut m, tmp, local); // 3: local dies here
        m.push(MInst::Continue); // 4
        m.push(MInst::EndLoop); // 5
        let iv = intervals(&m.insts, 3);
        assert_eq!(iv[0].map(|i| (i.start, i.end)), Some((0, 5)));
        assert_eq!(iv[1].map(|i| (i.start, i.end)), Some((2, 3)));
        assert_eq!(iv[2].map(|i| (i.start, i.end)), Some((3, 3)));
    }

    /// A vector unit read and then written again, never read after (a dead component of a
    /// later load into a group one of whose units held an earlier value): the unit lives to
    /// the group's end, or another group could take its register and be overwritten by the
    /// second write (the soak's seed 0x50a400014261: a texture sample's unused `.w` clobbered
    /// another sample's `.x`).
    #[test]
    fn a_unit_written_after_its_last_read_lives_to_the_group_end() {
        let mut m = MFunction::default();
        let v = m.new_group(RegClass::Vec32(4));
        let other = m.new_group(RegClass::R32);
        let w = |k: u16| v.view(2 * k, RegClass::R32);
        m.op(Instr::MovImm {
            dst: Dst::new(w(3)),
            imm: 1,
        }); // 0: the unit's first value
        add(&mut m, other, w(3)); // 1: its last read
        for k in 0..3 {
            m.op(Instr::MovImm {
                dst: Dst::new(w(k)),
                imm: 2,
            }); // 2..=4
        }
        m.op(Instr::MovImm {
            dst: Dst::new(w(3)),
            imm: 3,
        }); // 5: written again, never read
        add(&mut m, other, w(0)); // 6: the group's last read
        let iv = intervals(&m.insts, 2);
        let spans = unit_spans(&m.insts, &[8, 2], &iv);
        assert_eq!(iv[0].map(|i| i.end), Some(6));
        assert_eq!(
            spans[0][6],
            (0, 6),
            "the rewritten unit lives to the group's end"
        );
        assert_eq!(spans[0][0], (2, 6));
    }

    /// The extension as first written: every loop, inner first, over every interval.
    fn extended_loop_by_loop(insts: &[MInst<VReg>], groups: usize) -> Vec<Option<Interval>> {
        let mut out: Vec<Option<Interval>> = vec![None; groups];
        let mut loops = Vec::new();
        let mut open = Vec::new();
        for (pos, inst) in insts.iter().enumerate() {
            let mut touch = |g: u32| {
                let iv = out[g as usize].get_or_insert(Interval {
                    group: g,
                    start: pos,
                    end: pos,
                });
                iv.start = iv.start.min(pos);
                iv.end = iv.end.max(pos);
            };
            inst.for_each_use(|r| touch(r.group));
            inst.for_each_def(|r| touch(r.group));
            match inst {
                MInst::Loop => open.push(pos),
                MInst::EndLoop => {
                    if let Some(start) = open.pop() {
                        loops.push((start, pos));
                    }
                }
                _ => {}
            }
        }
        loops.sort_by_key(|&(s, e)| e - s);
        for &(ls, le) in &loops {
            for iv in out.iter_mut().flatten() {
                if iv.start <= le && iv.end >= ls && (iv.start < ls || iv.end > le) {
                    iv.start = iv.start.min(ls);
                    iv.end = iv.end.max(le);
                }
            }
        }
        out
    }

    #[test]
    fn nested_loops_extend_intervals_as_loop_by_loop_extension_does() {
        // Random nestings of loops (some left open, some closing nothing) over instructions
        // reading and writing a few groups.
        let mut rng = agxc_egraph::opt::synth::Rng::new(5);
        for _ in 0..300 {
            let mut m = MFunction::default();
            let regs: Vec<VReg> = (0..6).map(|_| m.new_group(RegClass::R32)).collect();
            for _ in 0..rng.below(40) {
                match rng.below(8) {
                    0 => m.push(MInst::Loop),
                    1 => m.push(MInst::EndLoop),
                    2 => m.push(MInst::Break),
                    _ => {
                        let (d, a) = (regs[rng.below(6)], regs[rng.below(6)]);
                        add(&mut m, d, a);
                    }
                }
            }
            assert_eq!(
                intervals(&m.insts, 6),
                extended_loop_by_loop(&m.insts, 6),
                "{:?}",
                m.insts
            );
        }
    }
}
