//! Common-subexpression elimination: an instruction computing what an earlier one already
//! computed, from operands that have not changed since, becomes a copy of the earlier result
//! (which coalescing then usually removes).
//!
//! Instruction selection expands each IR operation on its own, so equal pieces of different
//! expansions repeat: the reciprocal of a divisor shared by two divisions, the bitfield extract
//! of an index used by four loads, `get_sr` of the same special register. The graph-IR optimizer
//! shares equal IR values but never sees these.
//!
//! Availability follows the structure, per thread: a table maps each instruction (its
//! destination left out) to the register holding its result. Writing a group removes the
//! entries that read or hold it. An `if`'s arms both start from the table at the `if` (a thread
//! runs one arm); after `end_if` only entries neither arm invalidated remain. Entering a loop
//! drops the entries whose groups the loop writes anywhere (a later iteration reaches the body
//! start through them); after the loop the table at its start remains. Entries made inside a
//! construct do not outlive it.
//!
//! Pure ALU instructions whose result group is written nowhere else take part; derivatives and special registers that depend on which
//! threads are active do not, nor do memory and texture instructions.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use crate::isa::{Dst, FUnaryOp, Instr, IntSrc, SpecialReg, Src};
use crate::mir::{MFunction, MInst, VReg};

/// Whether `i` computes a value from its operands alone, the same wherever it runs.
pub(crate) fn pure(i: &Instr<VReg>) -> bool {
    use Instr::*;
    match i {
        MovImm { .. } | Iadd { .. } | Imadd { .. } | Convert { .. } | Alu { .. } => true,
        Bitfield { .. } | Asr { .. } | Bitop { .. } | Fmadd { .. } | Fadd { .. } => true,
        Fmul { .. } | Select { .. } => true,
        FUnary { op, .. } => !matches!(op, FUnaryOp::Dfdx | FUnaryOp::Dfdy),
        GetSr { sr, .. } => fixed_per_thread(*sr),
        _ => false,
    }
}

/// Special registers whose value a thread never sees change.
fn fixed_per_thread(sr: SpecialReg) -> bool {
    use SpecialReg::*;
    !matches!(
        sr,
        ActiveThreadIndexInQuad
            | ActiveThreadIndexInSimdgroup
            | CoverageMask
            | IsActiveThread
            | InputSampleMask
    )
}

/// The groups every construct (from its `if` or `loop` to its end) writes, by the construct's
/// first instruction.
fn written_by_construct(insts: &[MInst<VReg>]) -> HashMap<usize, HashSet<u32>> {
    let mut out: HashMap<usize, HashSet<u32>> = HashMap::default();
    let mut open: Vec<usize> = Vec::new();
    for (i, inst) in insts.iter().enumerate() {
        match inst {
            MInst::If { .. } | MInst::Loop => {
                open.push(i);
                out.insert(i, HashSet::default());
            }
            MInst::EndIf | MInst::EndLoop => {
                if let Some(s) = open.pop() {
                    let inner = out.get(&s).cloned().unwrap_or_default();
                    if let Some(&outer) = open.last() {
                        out.entry(outer).or_default().extend(inner);
                    }
                }
            }
            _ => {
                if let Some(&s) = open.last() {
                    let set = out.entry(s).or_default();
                    inst.for_each_def(|r| {
                        set.insert(r.group);
                    });
                }
            }
        }
    }
    out
}

/// Available results: instruction (destination left out, sources through `alias`) to the
/// register holding its result; and groups that are copies of others (a recomputation replaced
/// by a copy), so that what reads the copy matches what reads the original.
///
/// The table is scoped: [`Table::mark`] and [`Table::undo_to`] return it to an earlier state
/// through a log of what changed since, so that an `if`'s arms and the ends of constructs cost
/// what they changed rather than a copy of the table each. A write drops only the entries that
/// mention the written group, found through an index per group. Both keep the pass linear in
/// the instructions (a table scan per write made 10,000-instruction blocks quadratic).
#[derive(Default)]
struct Table {
    entries: HashMap<Instr<VReg>, VReg>,
    alias: HashMap<u32, u32>,
    /// Per group: the keys of entries that read or hold it. Entries since dropped or moved to
    /// another register may linger; a lookup checks.
    entries_of: Vec<Vec<Instr<VReg>>>,
    /// Per group: the sources of aliases from or to it, checked likewise.
    aliases_of: Vec<Vec<u32>>,
    log: Vec<Undo>,
}

/// Group `g`'s list in a per-group index, grown to hold it (the placeholder group of a key's
/// destination has none).
fn slot<T>(lists: &mut Vec<Vec<T>>, g: u32) -> Option<&mut Vec<T>> {
    if g == u32::MAX {
        return None;
    }
    let g = g as usize;
    if g >= lists.len() {
        lists.resize_with(g + 1, Vec::new);
    }
    lists.get_mut(g)
}

/// A change to a [`Table`], with what undoes it.
enum Undo {
    Entry(Instr<VReg>, Option<VReg>),
    Alias(u32, Option<u32>),
}

impl Table {
    fn new(groups: usize) -> Self {
        Table {
            entries_of: vec![Vec::new(); groups],
            aliases_of: vec![Vec::new(); groups],
            ..Table::default()
        }
    }

    fn index_entry(&mut self, key: &Instr<VReg>, dst: VReg) {
        let lists = &mut self.entries_of;
        let mut push = |g: u32| {
            if let Some(list) = slot(lists, g) {
                list.push(*key);
            }
        };
        push(dst.group);
        key.for_each_use(|r| push(r.group));
    }

    fn index_alias(&mut self, a: u32, b: u32) {
        for g in [a, b] {
            if let Some(list) = slot(&mut self.aliases_of, g) {
                list.push(a);
            }
        }
    }

    fn set_entry(&mut self, key: Instr<VReg>, dst: Option<VReg>) -> Option<VReg> {
        match dst {
            Some(d) => {
                self.index_entry(&key, d);
                self.entries.insert(key, d)
            }
            None => self.entries.remove(&key),
        }
    }

    fn set_alias(&mut self, a: u32, b: Option<u32>) -> Option<u32> {
        match b {
            Some(b) => {
                self.index_alias(a, b);
                self.alias.insert(a, b)
            }
            None => self.alias.remove(&a),
        }
    }

    fn insert_entry(&mut self, key: Instr<VReg>, dst: VReg) {
        let old = self.set_entry(key, Some(dst));
        self.log.push(Undo::Entry(key, old));
    }

    fn insert_alias(&mut self, a: u32, b: u32) {
        let old = self.set_alias(a, Some(b));
        self.log.push(Undo::Alias(a, old));
    }

    /// The state to return to with [`Table::undo_to`].
    fn mark(&self) -> usize {
        self.log.len()
    }

    fn undo_to(&mut self, mark: usize) {
        while self.log.len() > mark {
            match self.log.pop() {
                Some(Undo::Entry(key, old)) => {
                    self.set_entry(key, old);
                }
                Some(Undo::Alias(a, old)) => {
                    self.set_alias(a, old);
                }
                None => break,
            }
        }
    }

    /// Drops the entries and aliases reading or holding group `g`.
    fn invalidate(&mut self, g: u32) {
        let Some(keys) = self.entries_of.get_mut(g as usize).map(std::mem::take) else {
            return;
        };
        for key in keys {
            let Some(&dst) = self.entries.get(&key) else {
                continue;
            };
            let mut hit = dst.group == g;
            key.for_each_use(|r| hit |= r.group == g);
            if hit {
                self.entries.remove(&key);
                self.log.push(Undo::Entry(key, Some(dst)));
            }
        }
        self.invalidate_aliases(g);
    }

    /// Drops the aliases from or to group `g`.
    fn invalidate_aliases(&mut self, g: u32) {
        let sources = self
            .aliases_of
            .get_mut(g as usize)
            .map(std::mem::take)
            .unwrap_or_default();
        for a in sources {
            if let Some(&b) = self.alias.get(&a) {
                if a == g || b == g {
                    self.alias.remove(&a);
                    self.log.push(Undo::Alias(a, Some(b)));
                }
            }
        }
    }

    /// Drops what a write of view `w` makes stale: the entries that read or hold any of its
    /// units (entries on other units of the same group stay: the three quotients written into
    /// a store vector do not disturb the reciprocal of the divisor in its fourth register),
    /// and the aliases from or to its group (aliases are of whole groups).
    fn invalidate_view(&mut self, w: VReg) {
        let g = w.group;
        let Some(keys) = self.entries_of.get_mut(g as usize).map(std::mem::take) else {
            return;
        };
        let (lo, hi) = (u32::from(w.offset), u32::from(w.offset) + w.class.units());
        let overlaps = |r: &VReg| {
            let start = u32::from(r.offset);
            r.group == g && start < hi && lo < start + r.class.units()
        };
        let mut kept = Vec::new();
        for key in keys {
            let Some(&dst) = self.entries.get(&key) else {
                continue;
            };
            let (mut hit, mut mentions) = (overlaps(&dst), dst.group == g);
            key.for_each_use(|r| {
                hit |= overlaps(r);
                mentions |= r.group == g;
            });
            if hit {
                self.entries.remove(&key);
                self.log.push(Undo::Entry(key, Some(dst)));
            } else if mentions {
                kept.push(key);
            }
        }
        if let Some(list) = self.entries_of.get_mut(g as usize) {
            list.extend(kept);
        }
        self.invalidate_aliases(g);
    }

    /// `inst` with its destination replaced by a placeholder of the same shape and its sources
    /// by the groups they copy, and its result.
    fn key_of(&self, inst: &Instr<VReg>) -> Option<(Instr<VReg>, VReg)> {
        key_of(inst, &self.alias)
    }
}

/// See [`Table::key_of`].
fn key_of(inst: &Instr<VReg>, alias: &HashMap<u32, u32>) -> Option<(Instr<VReg>, VReg)> {
    let mut dst = None;
    let key = inst.map_regs(|r| {
        if dst.is_none() {
            dst = Some(r);
            VReg {
                group: u32::MAX,
                offset: 0,
                class: r.class,
            }
        } else {
            match alias.get(&r.group) {
                Some(&g) => VReg { group: g, ..r },
                None => r,
            }
        }
    });
    let mut defs = 0;
    inst.for_each_def(|_| defs += 1);
    (defs == 1).then_some(())?;
    Some((key, dst?))
}

/// Replaces recomputations in `m` by copies; returns how many.
pub fn eliminate(m: &mut MFunction) -> u32 {
    let written = written_by_construct(&m.insts);
    // Only results whose registers are written once take part: a copy between two such views
    // almost always coalesces (neither is rewritten while the other lives), while one into
    // registers written in several places (an `if` result, a loop parameter) would usually
    // stay a copy, costing what the recomputation cost and keeping the earlier result live.
    let units = super::flow::UnitMap::new(m);
    let mut defs = vec![0u32; units.total as usize];
    for inst in &m.insts {
        inst.for_each_def(|r| {
            for u in units.units(r) {
                defs[u as usize] += 1;
            }
        });
    }
    let once = |r: &VReg| units.units(r).all(|u| defs[u as usize] == 1);
    let mut table = Table::new(m.groups.len());
    // Per open construct: its first instruction and the table's state at its start (for
    // `else`, `end_if`, `end_loop`).
    let mut saved: Vec<(usize, usize)> = Vec::new();
    let mut replaced = 0;
    for i in 0..m.insts.len() {
        match m.insts[i] {
            MInst::If { .. } => saved.push((i, table.mark())),
            MInst::Loop => {
                for &g in &written[&i] {
                    table.invalidate(g);
                }
                saved.push((i, table.mark()));
            }
            MInst::Else => {
                if let Some(&(_, mark)) = saved.last() {
                    table.undo_to(mark);
                }
            }
            MInst::EndIf => {
                if let Some((s, mark)) = saved.pop() {
                    table.undo_to(mark);
                    for &g in &written[&s] {
                        table.invalidate(g);
                    }
                }
            }
            MInst::EndLoop => {
                if let Some((_, mark)) = saved.pop() {
                    table.undo_to(mark);
                }
            }
            MInst::Break | MInst::Continue | MInst::Exit => {}
            MInst::Op(inst) => {
                let mut defined = Vec::new();
                inst.for_each_def(|r| defined.push(*r));
                // A register copy stays a copy of its own source: turning it into a copy of an
                // earlier copy gains nothing and gives a run built element by element sources
                // in several groups, which coalescing cannot merge into one.
                let is_copy = super::coalesce::copy_of(&m.insts[i]).is_some();
                let candidate = if pure(&inst) && !is_copy {
                    table.key_of(&inst).filter(|(_, dst)| once(dst))
                } else {
                    None
                };
                let mut new_alias = None;
                if let Some((key, dst)) = &candidate {
                    if let Some(&earlier) = table.entries.get(key) {
                        m.insts[i] = MInst::Op(copy(*dst, earlier));
                        replaced += 1;
                        let whole = |r: &VReg| {
                            r.offset == 0 && m.groups[r.group as usize].units == r.class.units()
                        };
                        if whole(dst) && whole(&earlier) && dst.class == earlier.class {
                            new_alias = Some((dst.group, earlier.group));
                        }
                    }
                }
                for w in defined {
                    table.invalidate_view(w);
                }
                if let Some((a, b)) = new_alias {
                    table.insert_alias(a, b);
                }
                if let Some((key, dst)) = candidate {
                    let mut reads_own = false;
                    key.for_each_use(|r| reads_own |= r.group == dst.group);
                    if !reads_own && matches!(m.insts[i], MInst::Op(ref j) if *j == inst) {
                        table.insert_entry(key, dst);
                    }
                }
            }
        }
    }
    replaced
}

/// `dst = src`.
pub(crate) fn copy(dst: VReg, src: VReg) -> Instr<VReg> {
    Instr::Iadd {
        dst: Dst::new(dst),
        a: IntSrc::zext(Src::reg(src)),
        b: IntSrc::zext(Src::Imm(0)),
        neg_b: false,
        shift: 0,
        sat: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::{Cmp, FSrc, ICond, Precision, RegClass};

    fn rcp(m: &mut MFunction, d: VReg, s: VReg) {
        m.op(Instr::FUnary {
            op: FUnaryOp::Rcp,
            dst: Dst::new(d),
            sat: false,
            a: FSrc::reg(s),
        });
    }

    fn out(m: &mut MFunction, v: VReg) {
        m.op(Instr::StTile {
            src: v,
            rt: 0,
            mask: 1,
            format: crate::isa::MemFormat::I32,
        });
    }

    /// Two divisions by one divisor: the second reciprocal is a copy of the first, and what
    /// reads the copy matches what read the original.
    #[test]
    fn recomputations_from_copies_match_too() {
        let mut m = MFunction::default();
        let g: Vec<VReg> = (0..6).map(|_| m.new_group(RegClass::R32)).collect();
        m.op(Instr::GetSr {
            dst: Dst::new(g[0]),
            sr: SpecialReg::ThreadPositionInGridX,
        });
        let fma = |m: &mut MFunction, d: VReg, r: VReg| {
            m.op(Instr::Fmadd {
                prec: Precision::F32,
                dst: Dst::new(d),
                sat: false,
                a: FSrc::reg(g[0]).negated(),
                b: FSrc::reg(r),
                c: FSrc::imm(0x30),
            })
        };
        rcp(&mut m, g[1], g[0]);
        fma(&mut m, g[2], g[1]);
        rcp(&mut m, g[3], g[0]);
        fma(&mut m, g[4], g[3]);
        m.op(Instr::Fadd {
            prec: Precision::F32,
            dst: Dst::new(g[5]),
            sat: false,
            a: FSrc::reg(g[2]),
            b: FSrc::reg(g[4]),
        });
        out(&mut m, g[5]);
        assert_eq!(eliminate(&mut m), 2, "{m}");
        let text: Vec<String> = m.insts.iter().map(|i| i.to_string()).collect();
        assert_eq!(text[3], "iadd %3, %1, 0");
        assert_eq!(text[4], "iadd %4, %2, 0");
    }

    /// A divisor in the fourth register of a store vector: writing the other three (the
    /// quotients) leaves its reciprocal available; writing the divisor's own register does not.
    #[test]
    fn writes_to_other_units_of_a_group_keep_an_entry() {
        let mut m = MFunction::default();
        let v = m.new_group(RegClass::Vec32(4));
        let r: Vec<VReg> = (0..3).map(|_| m.new_group(RegClass::R32)).collect();
        let comp = |k: u16| v.view(2 * k, RegClass::R32);
        m.op(Instr::GetSr {
            dst: Dst::new(comp(3)),
            sr: SpecialReg::ThreadPositionInGridX,
        });
        rcp(&mut m, r[0], comp(3));
        m.op(Instr::MovImm {
            dst: Dst::new(comp(0)),
            imm: 1,
        });
        rcp(&mut m, r[1], comp(3));
        m.op(Instr::MovImm {
            dst: Dst::new(comp(3)),
            imm: 2,
        });
        rcp(&mut m, r[2], comp(3));
        for &x in &r {
            out(&mut m, x);
        }
        out(&mut m, v);
        // Before: any write to the vector dropped the entry, and the second `rcp` stayed.
        assert_eq!(eliminate(&mut m), 1, "{m}");
        let text: Vec<String> = m.insts.iter().map(|i| i.to_string()).collect();
        assert_eq!(text[3], format!("iadd {}, {}, 0", r[1], r[0]), "{m}");
        assert!(text[5].starts_with("rcp"), "{m}");
    }

    #[test]
    fn a_repeated_reciprocal_becomes_a_copy_until_its_operand_changes() {
        let mut m = MFunction::default();
        let g: Vec<VReg> = (0..5).map(|_| m.new_group(RegClass::R32)).collect();
        m.op(Instr::GetSr {
            dst: Dst::new(g[0]),
            sr: SpecialReg::ThreadPositionInGridX,
        });
        rcp(&mut m, g[1], g[0]);
        m.push(MInst::If {
            cmp: Cmp::Int {
                cond: ICond::Ueq,
                a: Src::reg(g[0]),
                b: Src::Imm(0),
            },
            invert: false,
        });
        rcp(&mut m, g[2], g[0]); // available from before the if
        out(&mut m, g[2]);
        m.push(MInst::Else);
        m.op(Instr::Fadd {
            prec: Precision::F32,
            dst: Dst::new(g[0]),
            sat: false,
            a: FSrc::reg(g[0]),
            b: FSrc::imm(0x30),
        });
        m.push(MInst::EndIf);
        rcp(&mut m, g[3], g[0]); // the else arm changed the operand
        rcp(&mut m, g[4], g[0]); // but this one repeats the previous line
        out(&mut m, g[1]);
        out(&mut m, g[3]);
        out(&mut m, g[4]);
        let before = m.to_string();
        assert_eq!(eliminate(&mut m), 2, "{before}\n{m}");
        let text: Vec<String> = m.insts.iter().map(|i| i.to_string()).collect();
        assert_eq!(text[3], "iadd %2, %1, 0");
        assert_eq!(text[8], "rcp %3, %0");
        assert_eq!(text[9], "iadd %4, %3, 0");
    }
}
