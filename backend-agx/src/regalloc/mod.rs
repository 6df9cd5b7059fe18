//! Register allocation: virtual register groups to physical registers, in 16-bit units.
//!
//! Pipeline position: after scheduling, before control-flow lowering (`cflow`), hints and
//! waits. The allocator is a linear scan ([`scan`]) over live intervals ([`liveness`]) of
//! register groups:
//!
//! - units are 16-bit halves (`r0l` is half 0); a group of 32-bit registers, a 64-bit pair or a
//!   run of registers for a memory or texture operand starts at an even half and is placed
//!   contiguously, so every view of it is a valid operand;
//! - `r0l` is reserved when the function has structured control flow (the execution-mask
//!   stack counts in it), up to the last structure instruction (nothing reads the counter
//!   after it); `r1` (the link register) is never used since the backend emits no
//!   calls;
//! - when the registers run out (256 halves, or the limit the options set), intervals are
//!   spilled to the stack ([`spill`]) and allocation starts again, until everything fits.
//!
//! The result reports the halves used, which decides occupancy (docs/g13.md's table, see
//! [`occupancy`]).

pub mod liveness;
pub mod scan;
pub mod spill;

use crate::error::BackendError;
use crate::isa::{Instr, IntSrc, PReg, Src};
use crate::mir::{MFunction, MInst, VReg};

/// Most allocate-and-spill rounds before giving up.
pub const MAX_ROUNDS: usize = 64;

/// The largest spill frame: stack instructions address it with a signed 16-bit byte offset
/// (`MemoryIndex`), and a slot of up to 16 bytes must fit below the limit.
pub const MAX_STACK_BYTES: u32 = i16::MAX as u32 - 16;

/// An allocated function.
#[derive(Clone, Debug)]
pub struct Allocation {
    /// The instructions over physical registers (structure still as pseudo-instructions).
    pub insts: Vec<MInst<PReg>>,
    /// 16-bit registers used: halves `0 .. gpr_halves`.
    pub gpr_halves: u32,
    /// Stack bytes per thread (the private memory, then the spill slots).
    pub stack_bytes: u32,
    /// Where the spill slots start: the private memory below it is the program's own.
    pub spill_base: u32,
    /// Groups spilled.
    pub spilled: u32,
    /// Whether `r0l` is reserved for the execution-mask stack.
    pub exec_stack: bool,
}

/// Allocates registers for `m` within halves `0..limit` (at most 256).
pub fn allocate(mut m: MFunction, limit: u32) -> Result<Allocation, BackendError> {
    // `r0l` is the execution-mask stack's counter up to the last structure instruction; after
    // it nothing reads the counter again (`stop` does not, and the lanes a `discard` or `return`
    // left inactive keep their counts, since an instruction writes only active lanes), so the
    // half returns to the pool for the code that follows (a fragment shader's outputs after its
    // last `if`).
    // Found again in every round: spill code moves the positions.
    let exec_stack = m.insts.iter().any(MInst::is_structure);
    let mut unspillable = vec![false; m.groups.len()];
    // Private memory first (isel addressed it from 0), then the spill slots, 16-byte aligned.
    if m.private_bytes > MAX_STACK_BYTES {
        return Err(BackendError::Unsupported {
            what: format!(
                "{} bytes of private memory per thread (the stack frame holds at most {MAX_STACK_BYTES})",
                m.private_bytes
            ),
        });
    }
    let spill_base = m.private_bytes.next_multiple_of(16);
    let mut frame = spill_base;
    let mut spilled_total = 0u32;
    for _ in 0..MAX_ROUNDS {
        let last_structure = m.insts.iter().rposition(MInst::is_structure);
        let reserved: Vec<(u16, usize)> = last_structure.map(|p| (0, p)).into_iter().collect();
        let iv = liveness::intervals(&m.insts, m.groups.len());
        unspillable.resize(m.groups.len(), false);
        let prefer = copy_sources(&m.insts, &iv, &m.groups);
        let units: Vec<u32> = m.groups.iter().map(|g| g.units).collect();
        let spans = liveness::unit_spans(&m.insts, &units, &iv);
        match scan::scan(
            &iv,
            &spans,
            &m.groups,
            &unspillable,
            &reserved,
            limit.min(256),
            &prefer,
        ) {
            scan::Scan::Assigned(base) => {
                let mut used = if exec_stack { 1 } else { 0 };
                for i in iv.iter().flatten() {
                    let g = i.group as usize;
                    used = used.max(u32::from(base[g]) + m.groups[g].units);
                }
                let insts = m
                    .insts
                    .into_iter()
                    .map(|inst| {
                        inst.map_regs(|v| PReg::new(base[v.group as usize] + v.offset, v.class))
                    })
                    .filter(|inst| !is_self_copy(inst))
                    .collect();
                return Ok(Allocation {
                    insts,
                    gpr_halves: used.max(1),
                    stack_bytes: frame,
                    spill_base,
                    spilled: spilled_total,
                    exec_stack,
                });
            }
            scan::Scan::Spill(groups) => {
                if groups.iter().any(|&g| unspillable[g as usize]) {
                    return Err(BackendError::RegisterAllocation {
                        reason: format!(
                            "the operands of one instruction need more than {limit} halves"
                        ),
                    });
                }
                spilled_total += groups.len() as u32;
                spill::spill(&mut m, &groups, &mut frame, &mut unspillable);
                if frame > MAX_STACK_BYTES {
                    return Err(BackendError::RegisterAllocation {
                        reason: format!(
                            "spilling needs {frame} stack bytes; stack offsets reach {MAX_STACK_BYTES}"
                        ),
                    });
                }
            }
        }
    }
    Err(BackendError::RegisterAllocation {
        reason: format!("no allocation after {MAX_ROUNDS} rounds of spilling"),
    })
}

/// The most 16-bit units live at any position (an interval ending where another starts does not
/// overlap it: instructions read their sources before writing).
pub fn peak_units(iv: &[Option<liveness::Interval>], groups: &[crate::mir::Group]) -> u32 {
    let mut ev: Vec<(usize, i64)> = Vec::new();
    for i in iv.iter().flatten() {
        let u = i64::from(groups[i.group as usize].units);
        ev.push((i.start, u));
        ev.push((i.end.max(i.start + 1), -u));
    }
    // At one position, ends (negative) before starts.
    ev.sort();
    let (mut cur, mut best) = (0i64, 0i64);
    for (_, d) in ev {
        cur += d;
        best = best.max(cur);
    }
    best as u32
}

/// The register copied by a plain move (`iadd dst, src, 0`), if `inst` is one.
fn copy_of<R: Copy>(inst: &MInst<R>) -> Option<(R, R)> {
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
        }) => Some((dst.reg, reg)),
        _ => None,
    }
}

/// A copy whose source and destination got the same register.
fn is_self_copy(inst: &MInst<PReg>) -> bool {
    copy_of(inst).is_some_and(|(d, s)| d == s)
}

/// For each group made by copying a whole group that dies at the copy, that source group.
fn copy_sources(
    insts: &[MInst<VReg>],
    iv: &[Option<liveness::Interval>],
    groups: &[crate::mir::Group],
) -> Vec<Option<u32>> {
    let mut prefer = vec![None; groups.len()];
    for (pos, inst) in insts.iter().enumerate() {
        let Some((d, s)) = copy_of(inst) else {
            continue;
        };
        let whole = |v: VReg| v.offset == 0 && groups[v.group as usize].units == v.class.units();
        let (Some(di), Some(si)) = (iv[d.group as usize], iv[s.group as usize]) else {
            continue;
        };
        if whole(d) && whole(s) && d.class == s.class && di.start == pos && si.end == pos {
            prefer[d.group as usize] = Some(s.group);
        }
    }
    prefer
}

/// Threads in flight per core by the most 16-bit registers a thread may use for them
/// (docs/g13.md, "Registers and occupancy").
const OCCUPANCY: [(u32, u32); 10] = [
    (104, 1024),
    (112, 896),
    (128, 832),
    (136, 768),
    (144, 704),
    (160, 640),
    (184, 576),
    (208, 512),
    (232, 448),
    (256, 384),
];

/// Threads in flight per core for `halves` 16-bit registers (docs/g13.md, "Registers and
/// occupancy").
pub fn occupancy(halves: u32) -> u32 {
    OCCUPANCY
        .iter()
        .find(|&&(limit, _)| halves <= limit)
        .map_or(384, |&(_, threads)| threads)
}

/// The most 16-bit registers a shader may use and keep the occupancy of `halves` registers.
pub fn occupancy_limit(halves: u32) -> u32 {
    OCCUPANCY
        .iter()
        .find(|&&(limit, _)| halves <= limit)
        .map_or(256, |&(limit, _)| limit)
}

/// Counts spill instructions in allocated code: the stack accesses at or above `spill_base`
/// (spill code addresses its slots with immediates; the accesses below are the program's
/// private memory).
pub fn spill_instructions(insts: &[MInst<PReg>], spill_base: u32) -> u32 {
    insts
        .iter()
        .filter(|i| match i {
            MInst::Op(Instr::StackLoad(a) | Instr::StackStore(a)) => is_spill_slot(a, spill_base),
            _ => false,
        })
        .count() as u32
}

/// True if a stack access is spill code (a slot at or above `spill_base`), not private memory.
pub fn is_spill_slot<R>(a: &crate::isa::StackAccess<R>, spill_base: u32) -> bool {
    matches!(a.offset, crate::isa::MemOffset::Imm(o) if i64::from(o) >= i64::from(spill_base))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::{Dst, IntSrc, RegClass, Src};

    #[test]
    fn occupancy_follows_the_table() {
        assert_eq!(occupancy(1), 1024);
        assert_eq!(occupancy(104), 1024);
        assert_eq!(occupancy(105), 896);
        assert_eq!(occupancy(256), 384);
        assert_eq!(occupancy_limit(1), 104);
        assert_eq!(occupancy_limit(105), 112);
        assert_eq!(occupancy_limit(256), 256);
        assert_eq!(occupancy(occupancy_limit(140)), occupancy(140));
    }

    /// `n` values all live at once (defined, then summed in reverse order).
    fn pressure(n: usize) -> MFunction {
        let mut m = MFunction::default();
        let vals: Vec<_> = (0..n).map(|_| m.new_group(RegClass::R32)).collect();
        for (i, &v) in vals.iter().enumerate() {
            m.op(Instr::MovImm {
                dst: Dst::new(v),
                imm: i as u32,
            });
        }
        let acc = m.new_group(RegClass::R32);
        m.op(Instr::MovImm {
            dst: Dst::new(acc),
            imm: 0,
        });
        for &v in vals.iter().rev() {
            m.op(Instr::Iadd {
                dst: Dst::new(acc),
                a: IntSrc::zext(Src::reg(acc)),
                b: IntSrc::zext(Src::reg(v)),
                neg_b: false,
                shift: 0,
                sat: false,
            });
        }
        m.op(Instr::StTile {
            src: acc,
            rt: 0,
            mask: 1,
            format: crate::isa::MemFormat::I32,
        });
        m
    }

    #[test]
    fn allocation_without_pressure_does_not_spill() {
        let a = allocate(pressure(10), 256).unwrap();
        assert_eq!(a.spilled, 0);
        // 11 32-bit values live at once at most: 22 halves.
        assert_eq!(a.gpr_halves, 22);
        let m = pressure(10);
        let iv = liveness::intervals(&m.insts, m.groups.len());
        assert_eq!(peak_units(&iv, &m.groups), 22);
    }

    fn iadd(m: &mut MFunction, dst: VReg, a: VReg, b: Src<VReg>) {
        m.op(Instr::Iadd {
            dst: Dst::new(dst),
            a: IntSrc::zext(Src::reg(a)),
            b: IntSrc::zext(b),
            neg_b: false,
            shift: 0,
            sat: false,
        });
    }

    /// A pair and a scalar, then a four-register vector whose first two components are the
    /// last reads of the pair's halves and of the scalar (the colours of one `st_tile`):
    /// `late_read` reads the pair's first register once more after the vector's first
    /// component is written.
    fn vector_over_last_uses(late_read: bool) -> MFunction {
        let mut m = MFunction::default();
        let pair = m.new_group(RegClass::Vec32(2));
        let c = m.new_group(RegClass::R32);
        let v = m.new_group(RegClass::Vec32(4));
        let (p0, p1) = (pair.view(0, RegClass::R32), pair.view(2, RegClass::R32));
        for (i, &d) in [p0, p1, c].iter().enumerate() {
            m.op(Instr::MovImm {
                dst: Dst::new(d),
                imm: i as u32 + 1,
            });
        }
        let comp = |k: u16| v.view(2 * k, RegClass::R32);
        iadd(&mut m, comp(0), p0, Src::Imm(1));
        iadd(&mut m, comp(1), p1, Src::reg(c));
        if late_read {
            iadd(&mut m, comp(2), p0, Src::Imm(2));
        } else {
            m.op(Instr::MovImm {
                dst: Dst::new(comp(2)),
                imm: 7,
            });
        }
        m.op(Instr::MovImm {
            dst: Dst::new(comp(3)),
            imm: 8,
        });
        m.op(Instr::StTile {
            src: v,
            rt: 0,
            mask: 0b1111,
            format: crate::isa::MemFormat::I32,
        });
        m
    }

    /// The registers the `st_tile` ending an allocated test function stores.
    fn stored(a: &Allocation) -> PReg {
        let Some(MInst::Op(Instr::StTile { src, .. })) = a.insts.last() else {
            panic!("ends with the store: {:?}", a.insts.last());
        };
        *src
    }

    #[test]
    fn a_vector_takes_the_registers_its_components_read_last() {
        // Before unit spans: the pair (halves 0..4) and the scalar (4..6) held their registers
        // to the end of their intervals, so the vector went to halves 6..14.
        let a = allocate(vector_over_last_uses(false), 256).unwrap();
        let src = stored(&a);
        assert_eq!(src.half, 0, "the vector starts over the pair");
        assert_eq!(a.gpr_halves, 8);
        // The pair's first register is read after the vector's first component is written:
        // the vector must not take it.
        let a = allocate(vector_over_last_uses(true), 256).unwrap();
        let src = stored(&a);
        assert_ne!(src.half, 0);
        assert_eq!(a.gpr_halves, 14);
    }

    #[test]
    fn a_short_value_lives_in_a_vector_unit_before_its_first_write() {
        // v.x is written first; t lives between v.x and v.y's definitions, which read it last:
        // t fits in the hole of v.y (or v.z, v.w) before its write, so the vector's four
        // registers are all the function needs.
        let mut m = MFunction::default();
        let v = m.new_group(RegClass::Vec32(4));
        let t = m.new_group(RegClass::R32);
        let comp = |k: u16| v.view(2 * k, RegClass::R32);
        m.op(Instr::MovImm {
            dst: Dst::new(comp(0)),
            imm: 1,
        });
        m.op(Instr::MovImm {
            dst: Dst::new(t),
            imm: 2,
        });
        iadd(&mut m, comp(1), t, Src::Imm(3));
        iadd(&mut m, comp(2), comp(0), Src::Imm(4));
        m.op(Instr::MovImm {
            dst: Dst::new(comp(3)),
            imm: 5,
        });
        m.op(Instr::StTile {
            src: v,
            rt: 0,
            mask: 0b1111,
            format: crate::isa::MemFormat::I32,
        });
        let a = allocate(m, 256).unwrap();
        assert_eq!(a.gpr_halves, 8, "{:?}", a.insts);
        // t's register is one of the vector's, and not v.x's (written before t and read after).
        let Some(MInst::Op(Instr::MovImm { dst, .. })) = a.insts.get(1) else {
            panic!("t's definition second: {:?}", a.insts);
        };
        assert!((2..8).contains(&dst.reg.half), "{:?}", a.insts);
    }

    #[test]
    fn r0l_returns_to_the_pool_after_the_last_structure_instruction() {
        // A condition, an `if` around a store, then a pair defined after the `end_if`: the
        // pair may start at `r0`, since nothing reads the execution-mask counter again.
        let build = |pair_before: bool| {
            let mut m = MFunction::default();
            let c = m.new_group(RegClass::R32);
            let pair = m.new_group(RegClass::Vec32(2));
            let (p0, p1) = (pair.view(0, RegClass::R32), pair.view(2, RegClass::R32));
            m.op(Instr::MovImm {
                dst: Dst::new(c),
                imm: 1,
            });
            if pair_before {
                m.op(Instr::MovImm {
                    dst: Dst::new(p0),
                    imm: 3,
                });
            }
            m.push(MInst::If {
                cmp: crate::isa::Cmp::Int {
                    cond: crate::isa::ICond::Ueq,
                    a: Src::reg(c),
                    b: Src::Imm(0),
                },
                invert: false,
            });
            m.op(Instr::StTile {
                src: c,
                rt: 0,
                mask: 1,
                format: crate::isa::MemFormat::I32,
            });
            m.push(MInst::EndIf);
            if !pair_before {
                m.op(Instr::MovImm {
                    dst: Dst::new(p0),
                    imm: 3,
                });
            }
            m.op(Instr::MovImm {
                dst: Dst::new(p1),
                imm: 4,
            });
            m.op(Instr::StTile {
                src: pair,
                rt: 0,
                mask: 0b11,
                format: crate::isa::MemFormat::I32,
            });
            m
        };
        let a = allocate(build(false), 256).unwrap();
        assert!(a.exec_stack);
        let src = stored(&a);
        assert_eq!(src.half, 0, "the pair takes r0 after the end_if");
        assert_eq!(a.gpr_halves, 4);
        // Defined before the `if`, the pair lives across the counter's uses: not at r0.
        let a = allocate(build(true), 256).unwrap();
        let src = stored(&a);
        assert_ne!(src.half, 0);
    }

    #[test]
    fn pressure_beyond_the_limit_spills() {
        let a = allocate(pressure(20), 16).unwrap();
        assert!(a.spilled > 0);
        assert!(a.gpr_halves <= 16);
        assert!(a.stack_bytes > 0);
        assert!(spill_instructions(&a.insts, a.spill_base) > 0);
    }
}
