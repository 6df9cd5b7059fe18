//! Spilling: a spilled group lives in a stack slot, and every instruction that references it
//! gets a short-lived temporary instead: a `stack_load` of the view it reads just before it, a
//! `stack_store` of the view it writes just after it. The temporaries are marked unspillable
//! and allocation runs again.
//!
//! Stack accesses are per thread and execution-masked like any other write, so spill code is
//! correct in divergent control flow; `stack_load` completes at once (no wait slot).

use crate::isa::{Instr, MemFormat, MemOffset, RegClass, StackAccess};
use crate::mir::{MFunction, MInst, VReg};

/// Rewrites `m` so that `spilled` groups live on the stack, growing the frame (`frame`, in
/// bytes) by their slots; `unspillable` grows with the temporaries.
pub fn spill(m: &mut MFunction, spilled: &[u32], frame: &mut u32, unspillable: &mut Vec<bool>) {
    let mut slot: Vec<Option<u32>> = vec![None; m.groups.len()];
    for &g in spilled {
        if slot[g as usize].is_some() {
            continue;
        }
        let bytes = (m.groups[g as usize].units * 2).next_multiple_of(4);
        slot[g as usize] = Some(*frame);
        *frame += bytes;
    }
    let old = std::mem::take(&mut m.insts);
    let mut out = Vec::with_capacity(old.len() * 2);
    for inst in old {
        let mut loads: Vec<(VReg, VReg)> = Vec::new();
        let mut stores: Vec<(VReg, VReg)> = Vec::new();
        // Uses and defs of spilled groups get fresh temporaries, one per distinct view.
        let mut uses: Vec<VReg> = Vec::new();
        inst.for_each_use(|r| {
            if slot[r.group as usize].is_some() && !uses.contains(r) {
                uses.push(*r);
            }
        });
        let mut defs: Vec<VReg> = Vec::new();
        inst.for_each_def(|r| {
            if slot[r.group as usize].is_some() && !defs.contains(r) {
                defs.push(*r);
            }
        });
        if uses.is_empty() && defs.is_empty() {
            out.push(inst);
            continue;
        }
        for &u in &uses {
            let t = new_temp(m, u.class, unspillable);
            loads.push((u, t));
        }
        for &d in &defs {
            let t = new_temp(m, d.class, unspillable);
            stores.push((d, t));
        }
        let rewritten = rewrite(inst, &loads, &stores);
        for &(view, t) in &loads {
            let base = slot[view.group as usize].unwrap_or(0);
            stack_ops(&mut out, false, t, base + 2 * u32::from(view.offset));
        }
        out.push(rewritten);
        for &(view, t) in &stores {
            let base = slot[view.group as usize].unwrap_or(0);
            stack_ops(&mut out, true, t, base + 2 * u32::from(view.offset));
        }
    }
    m.insts = out;
}

fn new_temp(m: &mut MFunction, class: RegClass, unspillable: &mut Vec<bool>) -> VReg {
    let t = m.new_group(class);
    unspillable.resize(m.groups.len(), false);
    unspillable[t.group as usize] = true;
    t
}

/// The instruction with spilled views replaced: destinations by their store temporaries,
/// sources by their load temporaries. `map_regs` visits destinations first, then sources, in
/// operand order; a view both read and written is a destination the first time it is seen.
fn rewrite(inst: MInst<VReg>, loads: &[(VReg, VReg)], stores: &[(VReg, VReg)]) -> MInst<VReg> {
    let mut n_defs = 0usize;
    inst.for_each_def(|_| n_defs += 1);
    let mut seen = 0usize;
    inst.map_regs(|r| {
        let is_def = seen < n_defs;
        seen += 1;
        let table = if is_def { stores } else { loads };
        table
            .iter()
            .find(|(v, _)| *v == r)
            .map(|&(_, t)| t)
            .unwrap_or(r)
    })
}

/// `stack_load`/`stack_store` of `t` at byte `offset`, in chunks of at most four registers.
fn stack_ops(out: &mut Vec<MInst<VReg>>, store: bool, t: VReg, offset: u32) {
    let (bits, count) = t.class.run();
    let mut i = 0u32;
    while i < count {
        let n = (count - i).min(4);
        let (data, format, elem) = if bits == 16 {
            let class = if n == 1 {
                RegClass::H16
            } else {
                RegClass::Vec16(n as u8)
            };
            (t.view(i as u16, class), MemFormat::I16, 2)
        } else {
            let class = match (t.class, n) {
                (RegClass::R64, 2) if i == 0 => RegClass::R64,
                (_, 1) => RegClass::R32,
                _ => RegClass::Vec32(n as u8),
            };
            (t.view(2 * i as u16, class), MemFormat::I32, 4)
        };
        let access = StackAccess {
            data,
            offset: MemOffset::Imm((offset + elem * i) as i16),
            format,
            mask: ((1u32 << n) - 1) as u8,
        };
        out.push(MInst::Op(if store {
            Instr::StackStore(access)
        } else {
            Instr::StackLoad(access)
        }));
        i += n;
    }
}
