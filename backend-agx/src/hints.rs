//! Register-cache hints (docs/g13.md, "Register cache hints"), set after register allocation
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
    discard_hints(insts);
    cache_hints(insts);
}

/// Whether none of `reg`'s halves is `needed` after the instruction.
fn all_dead(needed: &[bool; 256], reg: &PReg) -> bool {
    reg.halves().all(|h| !needed[h as usize])
}

/// Discards, on every top-level instruction executed with a full mask, the sources no later
/// instruction reads: one backward pass over the top-level items with the halves live after
/// each.
fn discard_hints(insts: &mut [MInst<PReg>]) {
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
    let mut full_mask = vec![false; insts.len()];
    let mut full = true;
    for &(s, e) in &items {
        if s == e {
            full_mask[s] = full && !matches!(insts[s], MInst::Exit);
        } else if insts[s..=e].iter().any(|i| matches!(i, MInst::Exit)) {
            full = false;
        }
    }
    let mut live = [false; 256];
    for &(s, e) in items.iter().rev() {
        if s == e {
            if let (true, MInst::Op(op)) = (full_mask[s], &mut insts[s]) {
                discard_dead_sources(op, &live);
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
}

/// Marks the sources of `op` that are dead after it (`live` holds the halves live after it)
/// for discarding.
fn discard_dead_sources(op: &mut Instr<PReg>, live: &[bool; 256]) {
    // A source is dead after the instruction if no later read needs it, or if the
    // instruction itself overwrites it (the new value is not the one discarded).
    let mut needed = *live;
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

/// Within each straight-line block, caches operands a later ALU instruction reads before
/// the register is written again: one backward pass keeping, per half, the position of the
/// next ALU read and of the next write in the block.
fn cache_hints(insts: &mut [MInst<PReg>]) {
    const NEVER: usize = usize::MAX;
    // Positions at or after the end of the current block are stale (from a later block).
    let mut next_read = [NEVER; 256];
    let mut next_write = [NEVER; 256];
    let mut block_end = insts.len();
    for i in (0..insts.len()).rev() {
        let MInst::Op(op) = &mut insts[i] else {
            block_end = i;
            continue;
        };
        let valid = |p: usize| if p < block_end { p } else { NEVER };
        // Read by an ALU instruction before (or where) it is next written.
        let later = |reg: &PReg| {
            reg.halves().any(|h| {
                let r = valid(next_read[h as usize]);
                r != NEVER && r <= valid(next_write[h as usize])
            })
        };
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
        op.for_each_def(|r| {
            for h in r.halves() {
                next_write[h as usize] = i;
            }
        });
        if op.is_alu() {
            op.for_each_use(|r| {
                for h in r.halves() {
                    next_read[h as usize] = i;
                }
            });
        }
    }
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

    /// The cache rule as first written: a forward scan per operand.
    fn read_later(rest: &[MInst<PReg>], reg: &PReg) -> bool {
        let mut pending: Vec<u32> = reg.halves().collect();
        for inst in rest {
            let MInst::Op(op) = inst else { continue };
            let mut hit = false;
            if op.is_alu() {
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

    fn cache_by_scanning(insts: &mut [MInst<PReg>]) {
        let mut block_start = 0;
        for i in 0..=insts.len() {
            if i == insts.len() || insts[i].is_structure() {
                let block = &mut insts[block_start..i];
                for k in 0..block.len() {
                    let (head, tail) = block.split_at_mut(k + 1);
                    let MInst::Op(op) = &mut head[k] else {
                        continue;
                    };
                    op.hint_slots_mut(|slot| match slot {
                        HintSlot::Src { reg, hint } => {
                            if *hint == Hint::None && read_later(tail, reg) {
                                *hint = Hint::Cache;
                            }
                        }
                        HintSlot::Dst { reg, cache } => {
                            if read_later(tail, reg) {
                                *cache = true;
                            }
                        }
                        HintSlot::SrcDiscard { .. } => {}
                    });
                }
                block_start = i + 1;
            }
        }
    }

    #[test]
    fn cache_hints_equal_a_forward_scan_per_operand() {
        let mut rng = agxc_egraph::opt::synth::Rng::new(11);
        for _ in 0..200 {
            let mut code = Vec::new();
            for _ in 0..rng.below(60) {
                let r = |rng: &mut agxc_egraph::opt::synth::Rng| rng.below(6) as u16;
                let h = |rng: &mut agxc_egraph::opt::synth::Rng| PReg::half(rng.below(12) as u16);
                match rng.below(10) {
                    3 => code.push(MInst::Op(Instr::Fadd {
                        prec: Precision::F16,
                        dst: Dst::new(h(&mut rng)),
                        sat: false,
                        a: FSrc::reg(h(&mut rng)),
                        b: FSrc::reg(h(&mut rng)),
                    })),
                    0 => code.push(MInst::Loop),
                    1 => code.push(MInst::EndLoop),
                    2 => code.push(MInst::Op(Instr::StackStore(crate::isa::StackAccess {
                        data: PReg::r32(r(&mut rng)),
                        offset: crate::isa::MemOffset::Imm(0),
                        format: crate::isa::MemFormat::I32,
                        mask: 1,
                    }))),
                    _ => {
                        let (d, a, b) = (r(&mut rng), r(&mut rng), r(&mut rng));
                        code.push(fadd(d, a, b));
                    }
                }
            }
            let mut fast = code.clone();
            cache_hints(&mut fast);
            cache_by_scanning(&mut code);
            assert_eq!(text(&fast), text(&code));
        }
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
