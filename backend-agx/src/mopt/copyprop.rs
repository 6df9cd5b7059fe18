//! Copy propagation: a register written once by a copy of a uniform, an immediate or a float
//! register with modifiers is replaced in every operand that reads it by what it copies, and the
//! copy is deleted.
//!
//! Instruction selection folds uniforms, immediates and `fneg`/`fabs` into their users when it
//! sees them, but it also copies values into registers to hand them between constructs or to
//! build operands, and the passes before this one (coalescing, dead-code elimination) leave
//! some of those copies with only ALU readers. Two forms are propagated:
//!
//! - `iadd d, uN, 0` and `iadd d, #imm, 0` (and `mov_imm d, #imm` of an 8-bit value): into every
//!   operand field that takes a uniform register (all ALU fields) or, for an immediate, an
//!   integer immediate (integer operands and select values, not float operands, where an
//!   immediate is the 8-bit float format). Uniforms never change during a run, so no analysis
//!   is needed beyond `d` being written once.
//! - the float move `fadd d, s.abs?.neg?, -0.0` (no `.sat`; `x + -0.0` is `x` for every `x`,
//!   and fp32 sources flush denormals as the move does): its modifiers compose with each
//!   reader's (Mesa's `agx_compose_float_src`) and `s` takes `d`'s place in float operands. A
//!   16-bit `s` moved to a 32-bit `d` (an exact widening) folds only into fp32 operations; a
//!   32-bit `s` narrowed to a 16-bit `d` is a rounding and never folds. A register `s` must hold
//!   the same value wherever `d` is read: no write to `s` may happen while `d` is live (on the
//!   per-thread control-flow graph, [`super::flow`]). An immediate `s` folds when the composed
//!   value is an 8-bit float immediate.
//!
//! Every read of `d` must be replaceable (else the copy stays and nothing changes).

use rustc_hash::FxHashMap as HashMap;

use super::flow::{Cfg, Liveness, UnitMap};
use super::slots::{for_each_slot, slot_reg, Slot};
use crate::isa::{float_imm, float_imm_value, FSrc, Instr, IntSrc, Precision, RegClass, Src, UReg};
use crate::mir::{MFunction, MInst, VReg};

/// The 8-bit float immediate `-0.0`.
const NEG_ZERO: u8 = 0x80;

/// The 16-bit units of a uniform operand.
fn uniform_units(u: UReg) -> u32 {
    match u {
        UReg::U16(_) => 1,
        UReg::U32(_) => 2,
        UReg::U64(_) => 4,
    }
}

/// What a copy's destination can be replaced by.
#[derive(Clone, Copy, Debug)]
enum Value {
    /// A uniform or an integer immediate.
    Plain(Src<VReg>),
    /// A float source (with modifiers); `widened` if a 16-bit register moved to 32 bits.
    Float { src: FSrc<VReg>, widened: bool },
}

/// The value `inst` copies into a whole group, if it is a propagatable copy.
fn copied(inst: &MInst<VReg>) -> Option<(VReg, Value)> {
    let MInst::Op(i) = inst else { return None };
    match *i {
        Instr::Iadd {
            dst,
            a: IntSrc { src, sext: false },
            b: IntSrc {
                src: Src::Imm(0), ..
            },
            neg_b: false,
            shift: 0,
            sat: false,
        } => match src {
            Src::Uniform(u) if uniform_units(u) == dst.reg.class.units() => {
                Some((dst.reg, Value::Plain(src)))
            }
            Src::Imm(_) if matches!(dst.reg.class, RegClass::R32 | RegClass::H16) => {
                Some((dst.reg, Value::Plain(src)))
            }
            _ => None,
        },
        Instr::MovImm { dst, imm } if imm <= 0xff => {
            Some((dst.reg, Value::Plain(Src::Imm(imm as u8))))
        }
        Instr::Fadd {
            prec,
            dst,
            sat: false,
            a,
            b,
        } if b
            == FSrc {
                src: Src::Imm(NEG_ZERO),
                abs: false,
                neg: false,
            } =>
        {
            let d16 = dst.reg.class == RegClass::H16;
            let s16 = a.src.as_reg().is_some_and(|r| r.class == RegClass::H16)
                || matches!(a.src, Src::Uniform(u) if uniform_units(u) == 1);
            let ok = matches!(
                (prec, d16, s16),
                (Precision::F32, false, _) | (Precision::F16, true, true)
            ) && matches!(dst.reg.class, RegClass::R32 | RegClass::H16);
            ok.then_some((
                dst.reg,
                Value::Float {
                    src: a,
                    widened: s16 && !d16,
                },
            ))
        }
        _ => None,
    }
}

/// `outer` applied to the value `inner` stands for (abs first, then neg, as the encoding does).
fn compose(outer: &FSrc<VReg>, inner: FSrc<VReg>) -> FSrc<VReg> {
    let mut out = inner;
    if outer.abs {
        out.abs = true;
        out.neg = false;
    }
    out.neg ^= outer.neg;
    out
}

/// The float source `slot` becomes when `d` is replaced by `v`, if it can.
fn float_replacement(slot: &FSrc<VReg>, v: Value, prec: Precision) -> Option<FSrc<VReg>> {
    let composed = match v {
        Value::Plain(Src::Uniform(u)) => compose(slot, FSrc::new(Src::Uniform(u))),
        Value::Plain(_) => return None,
        Value::Float { widened, .. } if widened && prec != Precision::F32 => return None,
        Value::Float { src, .. } => compose(slot, src),
    };
    if let Src::Imm(code) = composed.src {
        let mut x = float_imm_value(code);
        if composed.abs {
            x = x.abs();
        }
        if composed.neg {
            x = -x;
        }
        return float_imm(x).map(FSrc::imm);
    }
    Some(composed)
}

/// Replaces propagatable copies in `m`; returns how many were removed.
pub fn propagate(m: &mut MFunction) -> u32 {
    let mut total = 0;
    for _ in 0..4 {
        let n = round(m);
        total += n;
        if n == 0 {
            break;
        }
    }
    total
}

fn round(m: &mut MFunction) -> u32 {
    let ng = m.groups.len();
    let mut defs = vec![0u32; ng];
    for inst in &m.insts {
        inst.for_each_def(|r| defs[r.group as usize] += 1);
    }
    let whole = |r: &VReg| r.offset == 0 && m.groups[r.group as usize].units == r.class.units();
    // Copies into groups written only by them.
    let mut cands: HashMap<u32, (usize, VReg, Value)> = HashMap::default();
    for (at, inst) in m.insts.iter().enumerate() {
        if let Some((d, v)) = copied(inst) {
            if whole(&d) && defs[d.group as usize] == 1 {
                cands.insert(d.group, (at, d, v));
            }
        }
    }
    if cands.is_empty() {
        return 0;
    }
    // Every read of a candidate must be a slot that can take its value.
    let mut ok: HashMap<u32, bool> = cands.keys().map(|&g| (g, true)).collect();
    for inst in &mut m.insts.clone() {
        let mut in_slots: HashMap<u32, u32> = HashMap::default();
        for_each_slot(inst, |slot| {
            let Some(r) = slot_reg(&slot) else { return };
            let Some(&(_, d, v)) = cands.get(&r.group) else {
                return;
            };
            *in_slots.entry(r.group).or_default() += 1;
            let fits = r == d
                && match (&slot, v) {
                    (Slot::Float(f, prec), v) => float_replacement(f, v, *prec).is_some(),
                    (Slot::Int(_) | Slot::Bits(_), Value::Plain(_)) => true,
                    (Slot::Other(_), Value::Plain(s)) => matches!(s, Src::Uniform(_)),
                    _ => false,
                };
            if !fits {
                ok.insert(r.group, false);
            }
        });
        let mut reads: HashMap<u32, u32> = HashMap::default();
        inst.for_each_use(|r| {
            if cands.contains_key(&r.group) {
                *reads.entry(r.group).or_default() += 1;
            }
        });
        for (g, n) in reads {
            if in_slots.get(&g).copied().unwrap_or(0) != n {
                ok.insert(g, false);
            }
        }
    }
    // A float move's register source must not change while the copy is live.
    let watched: HashMap<u32, Vec<u32>> = {
        let mut w: HashMap<u32, Vec<u32>> = HashMap::default();
        for (&g, &(_, _, v)) in &cands {
            if let Value::Float { src, .. } = v {
                if let Some(s) = src.src.as_reg() {
                    w.entry(s.group).or_default().push(g);
                }
            }
        }
        w
    };
    if !watched.is_empty() {
        let cfg = Cfg::new(&m.insts);
        let units = UnitMap::new(m);
        let live = Liveness::new(m, &cfg, &units);
        for (b, range) in cfg.blocks.iter().enumerate() {
            let mut now = live.live_out(&cfg, b);
            for inst in m.insts[range.clone()].iter().rev() {
                inst.for_each_def(|r| {
                    for &d in watched.get(&r.group).into_iter().flatten() {
                        let dv = cands[&d].1;
                        if units.units(&dv).any(|u| now.contains(u)) {
                            ok.insert(d, false);
                        }
                    }
                });
                super::flow::step_back(inst, &units, &mut now);
            }
        }
    }
    let chosen: HashMap<u32, (usize, VReg, Value)> = cands
        .into_iter()
        .filter(|(g, _)| ok[g])
        .filter(|(_, (_, _, v))| match v {
            // A source itself being replaced this round waits for the next.
            Value::Float { src, .. } => src
                .src
                .as_reg()
                .is_none_or(|s| !ok.contains_key(&s.group) || !ok[&s.group]),
            Value::Plain(_) => true,
        })
        .collect();
    if chosen.is_empty() {
        return 0;
    }
    for inst in &mut m.insts {
        for_each_slot(inst, |slot| {
            let Some(r) = slot_reg(&slot) else { return };
            let Some(&(_, _, v)) = chosen.get(&r.group) else {
                return;
            };
            match (slot, v) {
                (Slot::Float(f, prec), v) => {
                    if let Some(n) = float_replacement(f, v, prec) {
                        *f = n;
                    }
                }
                (Slot::Int(s) | Slot::Bits(s) | Slot::Other(s), Value::Plain(p)) => *s = p,
                _ => {}
            }
        });
    }
    let dead: std::collections::HashSet<usize> = chosen.values().map(|c| c.0).collect();
    let mut i = 0;
    m.insts.retain(|_| {
        i += 1;
        !dead.contains(&(i - 1))
    });
    dead.len() as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::Dst;

    fn run(m: &mut MFunction) -> Vec<String> {
        propagate(m);
        m.insts.iter().map(|i| i.to_string()).collect()
    }

    #[test]
    fn uniform_and_float_move_copies_fold_into_their_readers() {
        let mut m = MFunction::default();
        let (a, b, h, w, y) = (
            m.new_group(RegClass::R32),
            m.new_group(RegClass::R32),
            m.new_group(RegClass::H16),
            m.new_group(RegClass::R32),
            m.new_group(RegClass::R32),
        );
        m.op(Instr::Iadd {
            dst: Dst::new(a),
            a: IntSrc::zext(Src::Uniform(UReg::U32(6))),
            b: IntSrc::zext(Src::Imm(0)),
            neg_b: false,
            shift: 0,
            sat: false,
        });
        m.op(Instr::LdVar {
            dst: h,
            index: 0,
            mask: 1,
            perspective: false,
        });
        // b = -|h| widened to 32 bits.
        m.op(Instr::Fadd {
            prec: Precision::F32,
            dst: Dst::new(b),
            sat: false,
            a: FSrc::reg(h).with_abs().negated(),
            b: FSrc::imm(NEG_ZERO),
        });
        m.op(Instr::Fmul {
            prec: Precision::F32,
            dst: Dst::new(w),
            sat: false,
            a: FSrc::reg(a),
            b: FSrc::reg(b).negated(),
        });
        m.op(Instr::Fadd {
            prec: Precision::F32,
            dst: Dst::new(y),
            sat: false,
            a: FSrc::reg(w),
            b: FSrc::reg(b).with_abs(),
        });
        m.op(Instr::StTile {
            src: y,
            rt: 0,
            mask: 1,
            format: crate::isa::MemFormat::I32,
        });
        let before = m.to_string();
        assert_eq!(
            run(&mut m),
            [
                "ld_var %2:16, 0, 0b0001",
                "fmul32 %3, u6, %2:16.abs",
                "fadd32 %4, %3, %2:16.abs",
                "st_tile %4, rt 0, 0b0001, i32",
            ],
            "{before}"
        );
    }

    #[test]
    fn a_source_written_while_the_copy_lives_keeps_the_copy() {
        let mut m = MFunction::default();
        let (s, d, y) = (
            m.new_group(RegClass::R32),
            m.new_group(RegClass::R32),
            m.new_group(RegClass::R32),
        );
        m.op(Instr::MovImm {
            dst: Dst::new(s),
            imm: 0x4000_0000,
        });
        m.op(Instr::Fadd {
            prec: Precision::F32,
            dst: Dst::new(d),
            sat: false,
            a: FSrc::reg(s).negated(),
            b: FSrc::imm(NEG_ZERO),
        });
        m.op(Instr::MovImm {
            dst: Dst::new(s),
            imm: 0,
        });
        m.op(Instr::Fadd {
            prec: Precision::F32,
            dst: Dst::new(y),
            sat: false,
            a: FSrc::reg(d),
            b: FSrc::reg(s),
        });
        m.op(Instr::StTile {
            src: y,
            rt: 0,
            mask: 1,
            format: crate::isa::MemFormat::I32,
        });
        let before = m.to_string();
        assert_eq!(propagate(&mut m), 0);
        assert_eq!(m.to_string(), before);
    }
}
