//! The machine function: G13 instructions over virtual registers, with the IR's structured
//! control flow kept as pseudo-instructions until register allocation is done.
//!
//! ```text
//!  isel ─► MFunction { insts: [MInst<VReg>], groups } ─► sched ─► regalloc ─► [MInst<PReg>]
//!                                                                              │ cflow
//!                                                            exec-mask stack code (Instr<PReg>)
//! ```
//!
//! # Virtual registers
//! A virtual register is a *group*: a run of 16-bit units that the allocator places
//! contiguously (a 32-bit value is a group of 2 units, a 64-bit value 4, the data of a
//! four-component load 8). An operand is a *view* of a group ([`VReg`]): the group, an offset in
//! units and a register class, so the low half of a 32-bit value, the high word of a 64-bit pair
//! and component 2 of a texture result are all views of their groups and need no copies.
//!
//! Groups are not SSA: a group may be written piecewise (a vector built component by component,
//! `if` results written in both arms, loop parameters rewritten at every `continue`). Liveness
//! is computed per group over the linear instruction order, extended over loops (see
//! `regalloc::liveness`).
//!
//! # Structured pseudo-instructions
//! [`MInst::If`] .. [`MInst::EndIf`], [`MInst::Loop`] .. [`MInst::EndLoop`], [`MInst::Break`],
//! [`MInst::Continue`] and [`MInst::Exit`] mirror the IR's structure; `cflow` lowers them to the
//! execution-mask stack idioms of docs/g13.md once registers are allocated (they use `r0l`, a
//! physical register, and their cost decides where `jmp_exec_none` pays off).

use std::fmt;

use crate::isa::{AsmReg, Cmp, Instr, RegClass, RegUnits};

/// A view of a virtual register group: the group, the first 16-bit unit and the shape.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct VReg {
    /// The group (index into [`MFunction::groups`]).
    pub group: u32,
    /// First unit of the view within the group.
    pub offset: u16,
    /// Shape of the view.
    pub class: RegClass,
}

impl VReg {
    /// The view `class` at `offset` units into the same group.
    pub fn view(self, offset: u16, class: RegClass) -> VReg {
        VReg {
            group: self.group,
            offset: self.offset + offset,
            class,
        }
    }

    /// The 16-bit low half of this view.
    pub fn lo16(self) -> VReg {
        self.view(0, RegClass::H16)
    }

    /// The 16-bit high half of a 32-bit view.
    pub fn hi16(self) -> VReg {
        self.view(1, RegClass::H16)
    }

    /// The low 32-bit register of a 64-bit view (or the 32-bit element `i` of a run).
    pub fn word(self, i: u16) -> VReg {
        self.view(2 * i, RegClass::R32)
    }

    /// The 16-bit element `i` of a run of halves.
    pub fn half(self, i: u16) -> VReg {
        self.view(i, RegClass::H16)
    }

    /// The units this view covers within its group, as a half-open range.
    pub fn units_range(&self) -> std::ops::Range<u32> {
        let first = u32::from(self.offset);
        first..first + self.class.units()
    }
}

impl RegUnits for VReg {
    fn units(&self) -> u32 {
        self.class.units()
    }
}

impl fmt::Display for VReg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "%{}", self.group)?;
        if self.offset != 0 {
            write!(f, "+{}", self.offset)?;
        }
        match self.class {
            RegClass::H16 => f.write_str(":16"),
            RegClass::R32 => Ok(()),
            RegClass::R64 => f.write_str(":64"),
            RegClass::Vec16(n) => write!(f, ":16x{n}"),
            RegClass::Vec32(n) => write!(f, ":32x{n}"),
        }
    }
}

impl AsmReg for VReg {}

/// Allocation facts about a group.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Group {
    /// Size in 16-bit units.
    pub units: u32,
    /// Required alignment of the first unit (1, or 2 for anything holding 32-bit registers).
    pub align: u32,
}

/// One machine-function instruction: a G13 instruction or a structured pseudo-instruction.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum MInst<R> {
    /// A machine instruction.
    Op(Instr<R>),
    /// Opens a structured `if`: lanes where `cmp` holds (inverted if `invert`) run the then
    /// arm, the others the else arm.
    If {
        /// The condition.
        cmp: Cmp<R>,
        /// Negate the condition.
        invert: bool,
    },
    /// Separates the then arm from the else arm.
    Else,
    /// Closes an `if`.
    EndIf,
    /// Opens a loop.
    Loop,
    /// Closes a loop: the back edge for lanes that continue.
    EndLoop,
    /// The active lanes leave the innermost loop.
    Break,
    /// The active lanes start the innermost loop's next iteration.
    Continue,
    /// The active lanes end the invocation (IR `return`, and `discard` after its
    /// `sample_mask 1, 0`, an [`Instr::SampleMask`]).
    Exit,
}

impl<R: Copy> MInst<R> {
    /// The same instruction with registers mapped by `f`.
    pub fn map_regs<S>(self, mut f: impl FnMut(R) -> S) -> MInst<S> {
        match self {
            MInst::Op(i) => MInst::Op(i.map_regs(f)),
            MInst::If { cmp, invert } => MInst::If {
                cmp: cmp.map(&mut f),
                invert,
            },
            MInst::Else => MInst::Else,
            MInst::EndIf => MInst::EndIf,
            MInst::Loop => MInst::Loop,
            MInst::EndLoop => MInst::EndLoop,
            MInst::Break => MInst::Break,
            MInst::Continue => MInst::Continue,
            MInst::Exit => MInst::Exit,
        }
    }

    /// Calls `f` for every register the instruction reads.
    pub fn for_each_use(&self, mut f: impl FnMut(&R)) {
        match self {
            MInst::Op(i) => i.for_each_use(f),
            MInst::If { cmp, .. } => {
                for s in cmp.srcs() {
                    if let Some(r) = s.as_reg() {
                        f(r)
                    }
                }
            }
            _ => {}
        }
    }

    /// Calls `f` for every register the instruction writes.
    pub fn for_each_def(&self, f: impl FnMut(&R)) {
        if let MInst::Op(i) = self {
            i.for_each_def(f);
        }
    }

    /// True for the structured pseudo-instructions (everything but [`MInst::Op`]).
    pub fn is_structure(&self) -> bool {
        !matches!(self, MInst::Op(_))
    }

    /// True if the instruction must stay where it is relative to other effects (stores,
    /// barriers, outputs, discards, control flow).
    pub fn has_side_effects(&self) -> bool {
        match self {
            MInst::Op(i) => instr_has_side_effects(i),
            _ => true,
        }
    }
}

/// Instructions with effects beyond their register results.
pub fn instr_has_side_effects<R>(i: &Instr<R>) -> bool {
    use Instr::*;
    matches!(
        i,
        Stop | Trap
            | JmpExecAny { .. }
            | JmpExecNone { .. }
            | Call { .. }
            | Ret { .. }
            | PopExec { .. }
            | ExecStack { .. }
            | Wait { .. }
            | ThreadgroupBarrier
            | StTile { .. }
            | UniformStore { .. }
            | SampleMask { .. }
            | DeviceStore(_)
            | StackStore(_)
            | ThreadgroupStore(_)
            | DeviceAtomic(_)
            | ThreadgroupAtomic(_)
            | ImageWrite(_)
    )
}

impl<R: AsmReg + Copy> fmt::Display for MInst<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MInst::Op(i) => write!(f, "{i}"),
            MInst::If { cmp, invert } => {
                // Print the comparison through a select with the condition's operands, the
                // simplest instruction whose syntax shows a `Cmp`.
                let shown = match cmp {
                    Cmp::Int { cond, a, b } => {
                        format!("{} {}, {}", cond.name(*invert), src(a), src(b))
                    }
                    Cmp::Float { cond, a, b } => format!(
                        "{}{} {}, {}",
                        if *invert { "n" } else { "" },
                        cond.name(),
                        fsrc(a),
                        fsrc(b)
                    ),
                };
                write!(f, "if {shown}")
            }
            MInst::Else => f.write_str("else"),
            MInst::EndIf => f.write_str("end_if"),
            MInst::Loop => f.write_str("loop"),
            MInst::EndLoop => f.write_str("end_loop"),
            MInst::Break => f.write_str("break"),
            MInst::Continue => f.write_str("continue"),
            MInst::Exit => f.write_str("exit"),
        }
    }
}

fn src<R: AsmReg>(s: &crate::isa::Src<R>) -> String {
    match s {
        crate::isa::Src::Reg { reg, .. } => reg.to_string(),
        crate::isa::Src::Uniform(u) => u.to_string(),
        crate::isa::Src::Imm(v) => v.to_string(),
    }
}

fn fsrc<R: AsmReg>(s: &crate::isa::FSrc<R>) -> String {
    let mut out = match s.src {
        crate::isa::Src::Imm(code) => format!("{:?}", crate::isa::float_imm_value(code)),
        ref other => src(other),
    };
    if s.abs {
        out.push_str(".abs");
    }
    if s.neg {
        out.push_str(".neg");
    }
    out
}

/// A machine function before register allocation.
#[derive(Clone, Debug, Default)]
pub struct MFunction {
    /// The instructions in program order.
    pub insts: Vec<MInst<VReg>>,
    /// The virtual register groups.
    pub groups: Vec<Group>,
    /// Bytes at the bottom of each thread's stack that hold the function's private memory
    /// (`private` loads and stores, byte offsets from 0); spill slots start above them.
    pub private_bytes: u32,
}

impl MFunction {
    /// A new group of `class`'s size; 32-bit and wider classes are aligned to a 32-bit register.
    pub fn new_group(&mut self, class: RegClass) -> VReg {
        let units = class.units();
        let align = if matches!(class, RegClass::H16 | RegClass::Vec16(_)) {
            1
        } else {
            2
        };
        let group = self.groups.len() as u32;
        self.groups.push(Group { units, align });
        VReg {
            group,
            offset: 0,
            class,
        }
    }

    /// Appends an instruction.
    pub fn push(&mut self, inst: MInst<VReg>) {
        self.insts.push(inst);
    }

    /// Appends a machine instruction.
    pub fn op(&mut self, inst: Instr<VReg>) {
        self.insts.push(MInst::Op(inst));
    }
}

impl fmt::Display for MFunction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_listing(f, &self.insts)
    }
}

/// Prints instructions one per line, indented by structure.
pub fn write_listing<R: AsmReg + Copy>(
    f: &mut fmt::Formatter<'_>,
    insts: &[MInst<R>],
) -> fmt::Result {
    let mut depth = 1usize;
    for inst in insts {
        if matches!(inst, MInst::Else | MInst::EndIf | MInst::EndLoop) {
            depth = depth.saturating_sub(1);
        }
        writeln!(f, "{:width$}{inst}", "", width = 4 * depth)?;
        if matches!(inst, MInst::If { .. } | MInst::Else | MInst::Loop) {
            depth += 1;
        }
    }
    Ok(())
}

/// A listing of instructions as a `Display` value.
pub struct Listing<'a, R>(pub &'a [MInst<R>]);

impl<R: AsmReg + Copy> fmt::Display for Listing<'_, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_listing(f, self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::{Dst, FSrc, Precision, Src};

    #[test]
    fn views_share_their_group() {
        let mut m = MFunction::default();
        let pair = m.new_group(RegClass::R64);
        let hi = pair.word(1);
        assert_eq!(hi.group, pair.group);
        assert_eq!(hi.units_range(), 2..4);
        assert_eq!(hi.to_string(), "%0+2");
        assert_eq!(hi.hi16().to_string(), "%0+3:16");
        assert_eq!(m.groups[0], Group { units: 4, align: 2 });
        let h = m.new_group(RegClass::H16);
        assert_eq!(m.groups[h.group as usize].align, 1);
    }

    #[test]
    fn listing_indents_structure() {
        let mut m = MFunction::default();
        let a = m.new_group(RegClass::R32);
        m.push(MInst::If {
            cmp: Cmp::Int {
                cond: crate::isa::ICond::Ueq,
                a: Src::reg(a),
                b: Src::Imm(0),
            },
            invert: true,
        });
        m.op(Instr::Fadd {
            prec: Precision::F32,
            dst: Dst::new(a),
            sat: false,
            a: FSrc::reg(a),
            b: FSrc::imm(0x30),
        });
        m.push(MInst::EndIf);
        assert_eq!(
            m.to_string(),
            "    if une %0, 0\n        fadd32 %0, %0, 1.0\n    end_if\n"
        );
    }
}
