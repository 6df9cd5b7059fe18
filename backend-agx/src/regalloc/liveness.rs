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
    let mut loops = Vec::new();
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
    // Inner loops first: a group extended over an outer loop then covers the inner ones.
    loops.sort_by_key(|&(s, e)| e - s);
    for &(ls, le) in &loops {
        for iv in out.iter_mut().flatten() {
            let inside = iv.start <= le && iv.end >= ls;
            let crosses = iv.start < ls || iv.end > le;
            if inside && crosses {
                iv.start = iv.start.min(ls);
                iv.end = iv.end.max(le);
            }
        }
    }
    out
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
}
