//! Dead machine-code elimination.
//!
//! Instruction selection defines every value where the IR does, even when all its users fold
//! a cheaper form (an immediate, a uniform, a modifier, a fused comparison). This pass removes
//! instructions without side effects whose destination groups are never read, repeatedly (a
//! removed instruction may have been the last reader of another group).

use crate::mir::{instr_has_side_effects, MFunction, MInst};

/// Removes dead instructions from `m`.
pub fn remove_dead(m: &mut MFunction) {
    let groups = m.groups.len();
    let mut uses = vec![0u32; groups];
    let mut defs: Vec<Vec<usize>> = vec![Vec::new(); groups];
    for (i, inst) in m.insts.iter().enumerate() {
        inst.for_each_use(|r| uses[r.group as usize] += 1);
        inst.for_each_def(|r| defs[r.group as usize].push(i));
    }
    let removable = |inst: &MInst<_>| matches!(inst, MInst::Op(op) if !instr_has_side_effects(op));
    let mut dead = vec![false; m.insts.len()];
    let mut work: Vec<usize> = (0..m.insts.len()).collect();
    while let Some(i) = work.pop() {
        if dead[i] || !removable(&m.insts[i]) {
            continue;
        }
        let mut live = false;
        m.insts[i].for_each_def(|r| live |= uses[r.group as usize] > 0);
        if live {
            continue;
        }
        dead[i] = true;
        m.insts[i].for_each_use(|r| {
            let g = r.group as usize;
            uses[g] -= 1;
            if uses[g] == 0 {
                work.extend(defs[g].iter().copied());
            }
        });
    }
    let mut index = 0;
    m.insts.retain(|_| {
        let keep = !dead[index];
        index += 1;
        keep
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::{Dst, Instr, IntSrc, RegClass, Src};

    #[test]
    fn removes_chains_of_dead_code_but_keeps_stores() {
        let mut m = MFunction::default();
        let a = m.new_group(RegClass::R32);
        let b = m.new_group(RegClass::R32);
        let c = m.new_group(RegClass::R32);
        m.op(Instr::MovImm {
            dst: Dst::new(a),
            imm: 7,
        });
        // b = a + 1 is dead, and so then is a.
        m.op(Instr::Iadd {
            dst: Dst::new(b),
            a: IntSrc::zext(Src::reg(a)),
            b: IntSrc::zext(Src::Imm(1)),
            neg_b: false,
            shift: 0,
            sat: false,
        });
        m.op(Instr::MovImm {
            dst: Dst::new(c),
            imm: 3,
        });
        m.op(Instr::StTile {
            src: c,
            rt: 0,
            mask: 1,
            format: crate::isa::MemFormat::I32,
        });
        remove_dead(&mut m);
        assert_eq!(m.insts.len(), 2);
        assert!(matches!(
            m.insts[0],
            MInst::Op(Instr::MovImm { imm: 3, .. })
        ));
    }
}
