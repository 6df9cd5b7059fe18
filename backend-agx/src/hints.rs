//! Register-cache hints (ERRATA.md, "Register cache hints"), set after register allocation
//! while the structured pseudo-instructions still show where control flow may diverge.
//!
//! The rule, a production compiler's:
//! - **discard** a source on its last use: no later instruction reads any of its halves
//!   before they are written again (or this instruction overwrites them). Only where the
//!   execution mask is known to be full: at the top level of the function (outside every
//!   `if` and loop) and before any construct that may end lanes early (`return`, `discard`).
//!   A discarded register's value is gone for inactive lanes too, which is why divergent code
//!   never gets the hint.
//! - **cache** a source or destination when a later ALU instruction in the same straight-line
//!   block reads the register before it is overwritten;
//! - never both hints on one operand (discard wins).
//!
//! Liveness for the discard rule is computed over the top-level sequence, treating each
//! construct as one opaque step that may read every register read inside it and kills
//! nothing (its writes are masked, so they may not happen for every lane).

use crate::isa::{Hint, HintSlot, Instr, PReg};
use crate::mir::MInst;

/// Sets cache and discard hints in `insts`.
pub fn assign(insts: &mut [MInst<PReg>]) {
    let discardable = top_level_last_uses(insts);
    for (i, d) in discardable.iter().enumerate() {
        if let (Some(live), MInst::Op(op)) = (d, &mut insts[i]) {
            // A source is dead after the instruction if no later read needs it, or if the
            // instruction itself overwrites it (the new value is not the one discarded).
            let mut needed = **live;
            op.for_each_def(|r| {
                for h in r.halves() {
                    needed[h as usize] = false;
                }
            });
            let dead = &needed;
            op.hint_slots_mut(|slot| match slot {
                HintSlot::Src { reg, hint } => {
                    if all_dead(dead, reg) {
                        *hint = Hint::Discard;
                    }
                }
                HintSlot::SrcDiscard { reg, discard } => {
                    if all_dead(dead, reg) {
                        *discard = true;
                    }
                }
                HintSlot::Dst { .. } => {}
            });
        }
    }
    cache_hints(insts);
}

/// Whether none of `reg`'s halves is `needed` after the instruction.
fn all_dead(needed: &[bool; 256], reg: &PReg) -> bool {
    reg.halves().all(|h| !needed[h as usize])
}

/// For each top-level instruction executed with a full mask, the halves live after it.
fn top_level_last_uses(insts: &[MInst<PReg>]) -> Vec<Option<Box<[bool; 256]>>> {
    let n = insts.len();
    let mut out: Vec<Option<Box<[bool; 256]>>> = vec![None; n];
    // Top-level items: single instructions, or constructs [start, end].
    let mut items: Vec<(usize, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut start = 0usize;
    for (i, inst) in insts.iter().enumerate() {
        match inst {
            MInst::If { .. } | MInst::Loop => {
                if depth == 0 {
                    start = i;
                }
                depth += 1;
            }
            MInst::EndIf | MInst::EndLoop => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    items.push((start, i));
                }
            }
            _ if depth == 0 => items.push((i, i)),
            _ => {}
        }
    }
    // Instructions after a construct containing an early exit may run with a partial mask.
    let mut full_mask = vec![false; n];
    let mut full = true;
    for &(s, e) in &items {
        if s == e {
            full_mask[s] = full && !matches!(insts[s], MInst::Exit);
        } else if insts[s..=e].iter().any(|i| matches!(i, MInst::Exit)) {
            full = false;
        }
    }
    let mut live = Box::new([false; 256]);
    for &(s, e) in items.iter().rev() {
        if s == e {
            if full_mask[s] {
                out[s] = Some(live.clone());
            }
            let inst = &insts[s];
            inst.for_each_def(|r| {
                for h in r.halves() {
                    live[h as usize] = false;
                }
            });
            inst.for_each_use(|r| {
                for h in r.halves() {
                    live[h as usize] = true;
                }
            });
        } else {
            for inst in &insts[s..=e] {
                inst.for_each_use(|r| {
                    for h in r.halves() {
                        live[h as usize] = true;
                    }
                });
            }
        }
    }
    out
}

/// Whether an instruction is an ALU instruction for the cache rule.
fn is_alu(i: &Instr<PReg>) -> bool {
    use Instr::*;
    matches!(
        i,
        MovImm { .. }
            | GetSr { .. }
            | Iadd { .. }
            | Imadd { .. }
            | Convert { .. }
            | BitUnary { .. }
            | Bitfield { .. }
            | Asr { .. }
            | Bitop { .. }
            | Fmadd { .. }
            | Fadd { .. }
            | Fmul { .. }
            | FUnary { .. }
            | Select { .. }
    )
}

/// Within each straight-line block, caches operands a later ALU instruction reads.
fn cache_hints(insts: &mut [MInst<PReg>]) {
    let mut block_start = 0;
    for i in 0..=insts.len() {
        let boundary = i == insts.len() || insts[i].is_structure();
        if boundary {
            cache_block(&mut insts[block_start..i]);
            block_start = i + 1;
        }
    }
}

fn cache_block(block: &mut [MInst<PReg>]) {
    for i in 0..block.len() {
        let (head, tail) = block.split_at_mut(i + 1);
        let MInst::Op(op) = &mut head[i] else {
            continue;
        };
        let later = |reg: &PReg| read_later(tail, reg);
        op.hint_slots_mut(|slot| match slot {
            HintSlot::Src { reg, hint } => {
                if *hint == Hint::None && later(reg) {
                    *hint = Hint::Cache;
                }
            }
            HintSlot::Dst { reg, cache } => {
                if later(reg) {
                    *cache = true;
                }
            }
            HintSlot::SrcDiscard { .. } => {}
        });
    }
}

/// Whether an ALU instruction in `rest` reads any half of `reg` before all of them are
/// written.
fn read_later(rest: &[MInst<PReg>], reg: &PReg) -> bool {
    let mut pending: Vec<u32> = reg.halves().collect();
    for inst in rest {
        let MInst::Op(op) = inst else { continue };
        let mut hit = false;
        if is_alu(op) {
            op.for_each_use(|r| hit |= r.halves().any(|h| pending.contains(&h)));
        }
        if hit {
            return true;
        }
        op.for_each_def(|r| pending.retain(|h| !r.halves().any(|d| d == *h)));
        if pending.is_empty() {
            return false;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::{Cmp, Dst, FSrc, ICond, Precision, Src};

    fn fadd(d: u16, a: u16, b: u16) -> MInst<PReg> {
        MInst::Op(Instr::Fadd {
            prec: Precision::F32,
            dst: Dst::new(PReg::r32(d)),
            sat: false,
            a: FSrc::reg(PReg::r32(a)),
            b: FSrc::reg(PReg::r32(b)),
        })
    }

    fn text(insts: &[MInst<PReg>]) -> Vec<String> {
        insts.iter().map(|i| i.to_string()).collect()
    }

    #[test]
    fn last_uses_at_top_level_are_discarded() {
        let mut code = vec![fadd(3, 1, 2), fadd(4, 3, 1), fadd(5, 4, 4)];
        assign(&mut code);
        assert_eq!(
            text(&code),
            [
                "fadd32 r3.cache, r1.cache, r2.discard",
                "fadd32 r4.cache, r3.discard, r1.discard",
                "fadd32 r5, r4.discard, r4.discard",
            ]
        );
    }

    #[test]
    fn nothing_is_discarded_inside_control_flow() {
        let mut code = vec![
            MInst::If {
                cmp: Cmp::Int {
                    cond: ICond::Ueq,
                    a: Src::reg(PReg::r32(1)),
                    b: Src::Imm(0),
                },
                invert: false,
            },
            fadd(3, 1, 2),
            MInst::EndIf,
            fadd(4, 2, 2),
        ];
        assign(&mut code);
        assert_eq!(text(&code)[1], "fadd32 r3, r1, r2");
        // After the construct the mask is full again (no early exit inside).
        assert_eq!(text(&code)[3], "fadd32 r4, r2.discard, r2.discard");
    }
}
