//! Sinking: an instruction that computes a value from immediates and uniforms alone moves down
//! to just before its first reader, so that its register is not held across the code between.
//!
//! Instruction selection emits a constant where the IR defines it, usually at the top of the
//! function, while its one register use may sit at the end: a fragment shader's `vec4(.., 1.0)`
//! output keeps a register busy through every branch before the store (frag_discard_checker's
//! `mov_imm r7, 2.0`). The scheduler cannot help: it reorders within a block, and the ends are
//! in different blocks. Mesa's AGX backend gets the same effect by rematerializing constants at
//! their uses; moving the single definition costs no instruction.
//!
//! A fragment shader's varyings are the same case: instruction selection loads every varying
//! location with one `ld_var` at the top, and a shader that reads `uv` only after a `demote`
//! or a branch held it across them (`sw_shadowmap_scene` 42 -> 30 halves, `frag_demote_derivatives`
//! 12 -> 10). An `ld_var` reads no register and gives each thread the same value wherever it
//! runs (the interpolation planes and the pixel position do not change, and `sample_mask`
//! discards a pixel without deactivating its thread, so a derivative still sees it).
//!
//! When it may move, with `d` the definition and `u` its first reader in program order (the
//! machine function is linear, with the IR's structure as pseudo-instructions):
//! - the instruction reads no register (only immediates and uniforms, which no main-program
//!   instruction writes), is a pure ALU instruction or an `ld_var`, and is the only instruction
//!   that writes its group, writing all of it;
//! - `u` lies in `d`'s region (the straight code between structure markers, an `if` arm, a loop
//!   body) or in a region nested in it, and every other reader lies in `u`'s region or in one
//!   nested in it: within a region a thread reaches a later position only through the earlier
//!   ones of the same pass, so the moved definition still runs before every reader;
//! - no loop opens between `d`'s region and `u`'s: moving into a loop body would run the
//!   instruction once per iteration.

use crate::isa::Instr;
use crate::mir::{MFunction, MInst, VReg};

/// The regions of a machine function: for each instruction its region, and for each region its
/// parent and whether it is a loop body.
struct Regions {
    of: Vec<u32>,
    parent: Vec<Option<u32>>,
    is_loop: Vec<bool>,
}

impl Regions {
    fn new(insts: &[MInst<VReg>]) -> Regions {
        let mut r = Regions {
            of: Vec::with_capacity(insts.len()),
            parent: vec![None],
            is_loop: vec![false],
        };
        let mut stack = vec![0u32];
        for inst in insts {
            let top = *stack.last().expect("the function's region stays open");
            match inst {
                MInst::If { .. } | MInst::Loop => {
                    r.of.push(top);
                    let id = r.open(top, matches!(inst, MInst::Loop));
                    stack.push(id);
                }
                MInst::Else => {
                    stack.pop();
                    let outer = *stack.last().unwrap_or(&0);
                    r.of.push(outer);
                    let id = r.open(outer, false);
                    stack.push(id);
                }
                MInst::EndIf | MInst::EndLoop => {
                    if stack.len() > 1 {
                        stack.pop();
                    }
                    r.of.push(*stack.last().unwrap_or(&0));
                }
                _ => r.of.push(top),
            }
        }
        r
    }

    fn open(&mut self, parent: u32, is_loop: bool) -> u32 {
        self.parent.push(Some(parent));
        self.is_loop.push(is_loop);
        (self.parent.len() - 1) as u32
    }

    /// Whether `inner` is `outer` or nested in it; and whether a loop body lies on the way
    /// (excluding `outer`).
    fn within(&self, mut inner: u32, outer: u32) -> Option<bool> {
        let mut through_loop = false;
        loop {
            if inner == outer {
                return Some(through_loop);
            }
            through_loop |= self.is_loop[inner as usize];
            inner = self.parent[inner as usize]?;
        }
    }
}

/// Whether `i` may move: a pure instruction (as common-subexpression elimination defines it)
/// reading no register, other than a special-register read (left where the program asked for
/// it: moving it would only reorder, not shorten, the code around the start of the shader).
fn movable(i: &Instr<VReg>) -> bool {
    let mut reads_register = false;
    i.for_each_use(|_| reads_register = true);
    let computes = super::cse::pure(i) && !matches!(i, Instr::GetSr { .. });
    (computes || matches!(i, Instr::LdVar { .. })) && !reads_register
}

/// `iadd r, r, 0` (with or without sign extension, which is the identity at one width).
fn self_copy(inst: &MInst<VReg>) -> bool {
    matches!(
        *inst,
        MInst::Op(Instr::Iadd {
            dst,
            a: crate::isa::IntSrc {
                src: crate::isa::Src::Reg { reg, .. },
                ..
            },
            b: crate::isa::IntSrc {
                src: crate::isa::Src::Imm(0),
                ..
            },
            neg_b: false,
            shift: 0,
            sat: false,
        }) if dst.reg == reg
    )
}

/// Moves each movable definition to just before its first reader; returns how many moved.
pub fn sink(f: &mut MFunction) -> u32 {
    let groups = f.groups.len();
    // Per group: the instructions writing it and reading it, with the units they touch (a
    // vector is written piecewise: a store's `vec4(x, y, z, 1.0)` is four definitions of
    // one group, and each may move on its own).
    let mut defs: Vec<Vec<(usize, std::ops::Range<u32>)>> = vec![Vec::new(); groups];
    let mut uses: Vec<Vec<(usize, std::ops::Range<u32>)>> = vec![Vec::new(); groups];
    for (k, inst) in f.insts.iter().enumerate() {
        // A copy of a register onto itself (left where coalescing gave a value its target's
        // register; register allocation drops it) reads the value but writes nothing new.
        // It stays where it is, as a reader: removing it here would free the scheduler to
        // hoist a vector's components away from their store.
        if !self_copy(inst) {
            inst.for_each_def(|r| defs[r.group as usize].push((k, r.units_range())));
        }
        inst.for_each_use(|r| uses[r.group as usize].push((k, r.units_range())));
    }
    let overlap =
        |a: &std::ops::Range<u32>, b: &std::ops::Range<u32>| a.start < b.end && b.start < a.end;
    let regions = Regions::new(&f.insts);
    // (destination position, instruction position): the instruction goes just before the
    // destination.
    let mut moves: Vec<(usize, usize)> = Vec::new();
    for (d, inst) in f.insts.iter().enumerate() {
        let MInst::Op(inst) = inst else {
            continue;
        };
        if !movable(inst) {
            continue;
        }
        let mut written = Vec::new();
        inst.for_each_def(|r: &VReg| written.push(*r));
        let [v] = written.as_slice() else {
            continue;
        };
        let g = v.group as usize;
        let range = v.units_range();
        // The only instruction writing these units.
        if defs[g].iter().any(|(k, r)| *k != d && overlap(r, &range)) {
            continue;
        }
        let readers: Vec<usize> = uses[g]
            .iter()
            .filter(|(_, r)| overlap(r, &range))
            .map(|&(k, _)| k)
            .collect();
        let Some(&u) = readers.iter().min() else {
            continue;
        };
        if u <= d + 1 {
            continue;
        }
        let (rd, ru) = (regions.of[d], regions.of[u]);
        if regions.within(ru, rd) != Some(false) {
            continue;
        }
        if readers
            .iter()
            .all(|&k| regions.within(regions.of[k], ru).is_some())
        {
            moves.push((u, d));
        }
    }
    if moves.is_empty() {
        return 0;
    }
    moves.sort_unstable();
    let moved: std::collections::HashSet<usize> = moves.iter().map(|&(_, d)| d).collect();
    let old = std::mem::take(&mut f.insts);
    let mut out = Vec::with_capacity(old.len());
    let mut next = 0;
    for (k, inst) in old.iter().enumerate() {
        while next < moves.len() && moves[next].0 == k {
            out.push(old[moves[next].1]);
            next += 1;
        }
        if !moved.contains(&k) {
            out.push(*inst);
        }
    }
    f.insts = out;
    moves.len() as u32
}

#[cfg(test)]
mod tests {
    use super::super::cse::copy;
    use super::*;
    use crate::isa::{Cmp, Dst, ICond, RegClass, Src};

    /// `c = 7` at the top, an `if` in between, `c` read after it: `c` moves down to its
    /// reader; a constant read inside a loop stays outside it.
    #[test]
    fn a_constant_moves_to_its_reader_but_not_into_a_loop() {
        let mut f = MFunction::default();
        let c = f.new_group(RegClass::R32);
        let k = f.new_group(RegClass::R32);
        let x = f.new_group(RegClass::R32);
        let y = f.new_group(RegClass::R32);
        f.op(Instr::MovImm {
            dst: Dst::new(c),
            imm: 7,
        });
        f.op(Instr::MovImm {
            dst: Dst::new(k),
            imm: 9,
        });
        f.op(Instr::MovImm {
            dst: Dst::new(x),
            imm: 1,
        });
        f.push(MInst::If {
            cmp: Cmp::Int {
                cond: ICond::Ueq,
                a: Src::reg(x),
                b: Src::Imm(0),
            },
            invert: false,
        });
        f.op(Instr::MovImm {
            dst: Dst::new(y),
            imm: 3,
        });
        f.push(MInst::EndIf);
        f.push(MInst::Loop);
        f.op(copy(y, k));
        f.push(MInst::Break);
        f.push(MInst::EndLoop);
        f.op(copy(y, c));
        assert_eq!(sink(&mut f), 1);
        // `c`'s definition now sits right before the copy that reads it; `k` stays put.
        let at = f
            .insts
            .iter()
            .position(|i| matches!(i, MInst::Op(Instr::MovImm { dst, .. }) if dst.reg == c))
            .expect("still defined");
        assert_eq!(at, f.insts.len() - 2);
        assert!(matches!(f.insts[0], MInst::Op(Instr::MovImm { dst, .. }) if dst.reg == k));
    }

    /// A varying loaded at the top and read only after an `if` is loaded after it; one read
    /// before the `if` keeps it where it is.
    #[test]
    fn a_varying_load_moves_past_a_branch_to_its_first_reader() {
        let mut f = MFunction::default();
        let uv = f.new_group(RegClass::Vec32(2));
        let col = f.new_group(RegClass::R32);
        let t = f.new_group(RegClass::R32);
        let x = f.new_group(RegClass::R32);
        f.op(Instr::LdVar {
            dst: uv,
            index: 0,
            mask: 0b0011,
            perspective: true,
        });
        f.op(Instr::LdVar {
            dst: col,
            index: 1,
            mask: 0b0001,
            perspective: true,
        });
        f.op(copy(t, col));
        f.op(Instr::MovImm {
            dst: Dst::new(x),
            imm: 1,
        });
        f.push(MInst::If {
            cmp: Cmp::Int {
                cond: ICond::Ueq,
                a: Src::reg(x),
                b: Src::Imm(0),
            },
            invert: false,
        });
        f.op(copy(t, x));
        f.push(MInst::EndIf);
        f.op(copy(t, uv.word(1)));
        assert_eq!(sink(&mut f), 1);
        let at = |g: VReg| {
            f.insts
                .iter()
                .position(|i| matches!(i, MInst::Op(Instr::LdVar { dst, .. }) if *dst == g))
                .expect("still loaded")
        };
        assert_eq!(at(uv), f.insts.len() - 2, "{:?}", f.insts);
        assert_eq!(at(col), 0);
    }
}
