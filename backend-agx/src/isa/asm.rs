//! Assembly text of an instruction, in the disassembly syntax of docs/g13.md ("Disassembly
//! conventions") as the simulator's disassembler prints it, so that the two can be compared
//! line for line: `fadd32 r0, r1.discard, r2.cache`, `mov_imm r0l, 5`, `pop_exec r0l, 1`,
//! `jmp_exec_none +12`.
//!
//! Operand syntax: registers `r5`, halves `r5l`/`r5h`, pairs `r4_r5`, uniforms `u5`, `u5l`,
//! `u4_u5`, register runs `{r0, r1, r2}`; suffixes in the order hint (`.cache`, `.discard`),
//! `.sat`, `.abs`, `.neg`, `.sx`; integer immediates in decimal below 256 and hex above, float
//! immediates in Rust's shortest round-trip form (`0.5`), jump offsets signed (`+12`), masks
//! in binary (`0b0011`). A jump whose target is still a label prints the label (`L3`).

use std::fmt::{self, Display, Formatter};

pub mod parse;

use crate::isa::{
    float_imm_value, Cmp, Dst, FSrc, Instr, IntSrc, JumpTarget, Lod, MemBase, MemOffset, PReg, Src,
    TexIndex, TexOp, TgBase, TgOffset, UReg,
};

/// How a register type prints inside instructions. [`PReg`] prints the machine syntax; a
/// virtual register type can rely on the defaults, which print its `Display` form.
pub trait AsmReg: Display {
    /// Prints the operand as a run of registers (`{r0, r1}`; a run of one prints bare).
    fn fmt_run(&self, f: &mut Formatter<'_>) -> fmt::Result {
        Display::fmt(self, f)
    }

    /// Prints the `i`th 32-bit register of the operand as `rN` (texture LOD and extras).
    fn fmt_nth32(&self, i: u32, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{self}[{i}]")
    }
}

impl AsmReg for PReg {
    fn fmt_run(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let (_, count) = self.class.run();
        if count == 1 {
            return Display::fmt(&self.element(0), f);
        }
        f.write_str("{")?;
        for i in 0..count {
            if i > 0 {
                f.write_str(", ")?;
            }
            Display::fmt(&self.element(i), f)?;
        }
        f.write_str("}")
    }

    fn fmt_nth32(&self, i: u32, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "r{}", u32::from(self.half) / 2 + i)
    }
}

/// Integer immediates: decimal below 256, hex above.
struct Int(u32);

impl Display for Int {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if self.0 < 256 {
            write!(f, "{}", self.0)
        } else {
            write!(f, "{:#x}", self.0)
        }
    }
}

impl<R: Display> Display for Src<R> {
    /// An integer source; immediates print as integers.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Src::Reg { reg, hint } => write!(f, "{reg}{}", hint.suffix()),
            Src::Uniform(u) => write!(f, "{u}"),
            Src::Imm(v) => write!(f, "{}", Int(u32::from(*v))),
        }
    }
}

impl<R: Display> Display for FSrc<R> {
    /// A float source; immediates print as the decoded 8-bit float.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match &self.src {
            Src::Imm(code) => write!(f, "{:?}", float_imm_value(*code))?,
            other => write!(f, "{other}")?,
        }
        if self.abs {
            f.write_str(".abs")?;
        }
        if self.neg {
            f.write_str(".neg")?;
        }
        Ok(())
    }
}

impl<R: Display> Display for IntSrc<R> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.src, if self.sext { ".sx" } else { "" })
    }
}

impl<R: Display> Display for Dst<R> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.reg, if self.cache { ".cache" } else { "" })
    }
}

impl Display for JumpTarget {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            JumpTarget::Label(l) => write!(f, "{l}"),
            JumpTarget::Offset(o) => write!(f, "{o:+}"),
        }
    }
}

/// `cond, a, b` of a comparison, `invert` applying the `ccn` bit to the condition's name.
struct CmpText<'a, R>(&'a Cmp<R>, bool);

impl<R: Display> Display for CmpText<'_, R> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self.0 {
            Cmp::Int { cond, a, b } => write!(f, "{}, {a}, {b}", cond.name(self.1)),
            Cmp::Float { cond, a, b } => {
                write!(
                    f,
                    "{}{}, {a}, {b}",
                    if self.1 { "n" } else { "" },
                    cond.name()
                )
            }
        }
    }
}

/// A register operand printed as a run.
struct Run<'a, R>(&'a R);

impl<R: AsmReg> Display for Run<'_, R> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        self.0.fmt_run(f)
    }
}

/// The `i`th 32-bit register of an operand.
struct Nth32<'a, R>(&'a R, u32);

impl<R: AsmReg> Display for Nth32<'_, R> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        self.0.fmt_nth32(self.1, f)
    }
}

fn sat(sat: bool) -> &'static str {
    if sat {
        ".sat"
    } else {
        ""
    }
}

fn shift(f: &mut Formatter<'_>, shift: u8) -> fmt::Result {
    if shift != 0 {
        write!(f, ", lsl {shift}")?;
    }
    Ok(())
}

fn cache(cache: bool) -> &'static str {
    if cache {
        ".cache"
    } else {
        ""
    }
}

fn mem_offset<R: Display>(f: &mut Formatter<'_>, o: &MemOffset<R>) -> fmt::Result {
    match o {
        MemOffset::Imm(v) => write!(f, "{v}"),
        MemOffset::Reg { reg, signed } => write!(f, "{reg}{}", if *signed { ".sx" } else { ".zx" }),
    }
}

/// `atomic add r4, r6, ` / `local_atomic cmpxchg _, {r6, r7}, `: the mnemonic, the
/// operation, the result (`_` when unused) and the value.
fn atomic_head<R: AsmReg>(
    f: &mut Formatter<'_>,
    m: &str,
    op: &str,
    dst: &Option<R>,
    value: &R,
) -> fmt::Result {
    write!(f, "{m} {op} ")?;
    match dst {
        Some(d) => write!(f, "{d}")?,
        None => f.write_str("_")?,
    }
    write!(f, ", {}, ", Run(value))
}

fn tex_index<R: Display>(f: &mut Formatter<'_>, kind: &str, i: &TexIndex<R>) -> fmt::Result {
    match i {
        TexIndex::Imm(v) => write!(f, "{kind} {v}"),
        TexIndex::Reg(r) => write!(f, "{kind} {r}"),
    }
}

fn texture<R: AsmReg>(f: &mut Formatter<'_>, m: &str, t: &TexOp<R>) -> fmt::Result {
    write!(f, "{m} {}, {}", Run(&t.dst), Run(&t.coords))?;
    if t.coords_discard {
        f.write_str(".discard")?;
    }
    f.write_str(", ")?;
    tex_index(f, "tex", &t.texture)?;
    f.write_str(", ")?;
    tex_index(f, "samp", &t.sampler)?;
    write!(f, ", {}, {}", t.dim.name(), t.lod.name())?;
    match &t.lod {
        Lod::Auto => {}
        Lod::BiasUniform(n) | Lod::LodUniform(n) | Lod::BiasMinUniform(n) => write!(f, " u{n}")?,
        Lod::Gradient(r)
        | Lod::BiasReg(r)
        | Lod::LodReg(r)
        | Lod::GradientMin(r)
        | Lod::BiasMinReg(r) => write!(f, " {}", Nth32(r, 0))?,
    }
    if let Some(e) = &t.extra {
        if e.compare {
            write!(f, ", compare {}", Nth32(&e.regs, 0))?;
        }
        if e.offset {
            write!(f, ", offset {}", Nth32(&e.regs, u32::from(e.compare)))?;
        }
    }
    if let Some(c) = t.gather {
        write!(f, ", gather {}", ["r", "g", "b", "a"][usize::from(c & 3)])?;
    }
    write!(f, ", {:#06b}, slot {}", t.mask, t.slot)
}

impl<R: AsmReg> Display for Instr<R> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let m = self.mnemonic();
        use Instr::*;
        match self {
            MovImm { dst, imm } => write!(f, "{m} {dst}, {}", Int(*imm)),
            GetSr { dst, sr } => write!(f, "{m} {dst}, {}", sr.name()),
            Iadd {
                dst,
                a,
                b,
                neg_b,
                shift: s,
                sat: st,
            } => {
                write!(
                    f,
                    "{m} {dst}{}, {a}, {b}{}",
                    sat(*st),
                    if *neg_b { ".neg" } else { "" }
                )?;
                shift(f, *s)
            }
            Imadd {
                dst,
                a,
                b,
                c,
                neg_c,
                shift: s,
                sat: st,
            } => {
                let neg = if *neg_c { ".neg" } else { "" };
                write!(f, "{m} {dst}{}, {a}, {b}, {c}{neg}", sat(*st))?;
                shift(f, *s)
            }
            Convert {
                dst,
                src,
                mode,
                round,
            } => {
                write!(f, "{m} {dst}, {}, {src}, {}", mode.name(), round.name())
            }
            Alu { dst, .. } => {
                write!(f, "{m} {dst}")?;
                for a in self.alu_srcs() {
                    write!(f, ", {a}")?;
                }
                Ok(())
            }
            Bitfield {
                dst,
                a,
                b,
                c,
                mask_bits,
                ..
            } => write!(f, "{m} {dst}, {a}, {b}, {c}, {mask_bits}"),
            Asr { dst, a, b, .. } => write!(f, "{m} {dst}, {a}, {b}"),
            Bitop { dst, a, b, table } => write!(f, "{m} {dst}, {a}, {b}, {table:#06b}"),
            Fmadd {
                dst,
                sat: st,
                a,
                b,
                c,
                ..
            } => write!(f, "{m} {dst}{}, {a}, {b}, {c}", sat(*st)),
            Fadd {
                dst, sat: st, a, b, ..
            }
            | Fmul {
                dst, sat: st, a, b, ..
            } => {
                write!(f, "{m} {dst}{}, {a}, {b}", sat(*st))
            }
            FUnary {
                dst, sat: st, a, ..
            } => write!(f, "{m} {dst}{}, {a}", sat(*st)),
            Stop | Trap | ThreadgroupBarrier => f.write_str(m),
            JmpExecAny { target } | JmpExecNone { target } | Call { target } => {
                write!(f, "{m} {target}")
            }
            Ret { reg } => write!(f, "{m} {reg}"),
            PopExec { n, cache: c } => write!(f, "{m} r0l{}, {n}", cache(*c)),
            ExecStack {
                cmp,
                invert,
                n,
                cache: c,
                ..
            } => {
                write!(f, "{m} r0l{}, {}, {n}", cache(*c), CmpText(cmp, *invert))
            }
            Select { dst, cmp, x, y } => write!(f, "{m} {dst}, {}, {x}, {y}", CmpText(cmp, false)),
            Wait { slot } => write!(f, "{m} {slot}"),
            UniformStore {
                src,
                offset,
                mask,
                format,
            } => write!(
                f,
                "{m} {}, {offset}, {}, {mask:#06b}",
                Run(src),
                format.name()
            ),
            StTile {
                src,
                rt,
                mask,
                format,
            } => {
                write!(
                    f,
                    "{m} {}, rt {rt}, {mask:#06b}, {}",
                    Run(src),
                    format.name()
                )
            }
            LdVar {
                dst,
                index,
                mask,
                perspective,
            } => write!(
                f,
                "{m} {}, {index}, {mask:#06b}{}",
                Run(dst),
                if *perspective { ", perspective" } else { "" }
            ),
            SampleMask { targets, value } => write!(f, "{m} {targets}, {value}"),
            SimdShuffle { dst, src, lane } => write!(f, "{m} {dst}, {src}, {lane}"),
            DeviceLoad(a) | DeviceStore(a) => {
                write!(f, "{m} {}, ", Run(&a.data))?;
                match &a.base {
                    MemBase::Uniform(n) => write!(f, "{}", UReg::U64(*n))?,
                    MemBase::Reg(r) => write!(f, "{r}")?,
                }
                f.write_str(", ")?;
                mem_offset(f, &a.offset)?;
                write!(f, ", {}, {:#06b}", a.format.name(), a.mask)?;
                shift(f, a.shift)?;
                write!(f, ", slot {}", a.slot)
            }
            StackLoad(a) | StackStore(a) => {
                write!(f, "{m} {}, ", Run(&a.data))?;
                mem_offset(f, &a.offset)?;
                write!(f, ", {}, {:#06b}", a.format.name(), a.mask)
            }
            ThreadgroupLoad(a) | ThreadgroupStore(a) => {
                write!(f, "{m} {}, ", Run(&a.data))?;
                match &a.base {
                    TgBase::Reg(r) => write!(f, "{r}")?,
                    TgBase::Uniform(h) => write!(f, "{}", UReg::U16(*h))?,
                    TgBase::Imm(v) => write!(f, "{v}")?,
                }
                match &a.offset {
                    TgOffset::Imm(v) => write!(f, ", {v}")?,
                    TgOffset::Reg(r) => write!(f, ", {r}")?,
                }
                write!(f, ", {}, {:#06b}", a.format.name(), a.mask)
            }
            TextureSample(t) | TextureLoad(t) => texture(f, m, t),
            DeviceAtomic(a) => {
                atomic_head(f, m, a.op.name(), &a.dst, &a.value)?;
                match &a.base {
                    MemBase::Uniform(n) => write!(f, "{}", UReg::U64(*n))?,
                    MemBase::Reg(r) => write!(f, "{r}")?,
                }
                f.write_str(", ")?;
                mem_offset(f, &a.offset)?;
                write!(f, ", slot {}", a.slot)
            }
            ThreadgroupAtomic(a) => {
                atomic_head(f, m, a.op.name(), &a.dst, &a.value)?;
                match &a.base {
                    TgBase::Reg(r) => write!(f, "{r}")?,
                    TgBase::Uniform(h) => write!(f, "{}", UReg::U16(*h))?,
                    TgBase::Imm(v) => write!(f, "{v}")?,
                }
                match &a.offset {
                    TgOffset::Imm(v) => write!(f, ", {v}"),
                    TgOffset::Reg(r) => write!(f, ", {r}"),
                }
            }
            ImageWrite(w) => {
                write!(f, "{m} {}, {}", Run(&w.data), Run(&w.coords))?;
                if w.coords_discard {
                    f.write_str(".discard")?;
                }
                f.write_str(", ")?;
                tex_index(f, "tex", &w.texture)?;
                write!(f, ", {}, lod {}", w.dim.name(), w.level)
            }
        }
    }
}
