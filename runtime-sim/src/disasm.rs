//! The disassembler: [`Decoded`] instructions to text in the reverse-engineering community's
//! syntax (docs/g13.md, "Disassembly conventions"): `fadd32 r0, r1.discard, r2.cache`,
//! `mov_imm r0, 0x12345678`, `pop_exec r0l, 1`, `jmp_exec_none +12`.
//!
//! Operand syntax:
//! - registers `r5`, halves `r5l`/`r5h`, 64-bit pairs `r4_r5`; uniforms `u5`, `u5l`/`u5h`,
//!   `u4_u5`; a run of registers of a memory or texture instruction `{r0, r1, r2}`;
//! - suffixes in this order: the cache hint (`.cache`, `.discard`), then `.sat` on destinations,
//!   `.abs` and `.neg` on float sources, `.sx` on sign-extended integer sources and `.neg` on the
//!   negated addend of `iadd`/`imadd`;
//! - integer immediates in decimal below 256 and hex above, float immediates in Rust's shortest
//!   round-trip form (`0.5`, `1.0`), jump offsets with an explicit sign (`+12`, `-6`), masks in
//!   binary (`0b0011`, bit 0 = first element);
//! - integer conditions `ueq ult ugt seq slt sgt` (inverted: `une uge ule sne sge sle`), float
//!   conditions `eq lt gt ltn ge le gtn` (`ltn`/`gtn`: NaN loses; inverted: prefixed `n`).
//!
//! The instruction forms are listed in the crate docs.

use std::fmt::{self, Display, Formatter, Write as _};

use crate::decode::decode_one;
use crate::decode::inst::{
    Compare, Decoded, Dst, FCond, FDst, FRel, FSrc, Hint, ICond, IRel, Inst, MemIndex, Reg,
    RegRange, Src, TexIndex, TgBase, TgIndex,
};
use crate::exec::special_register_name;

impl Display for Reg {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match *self {
            Reg::Half(h) => write!(f, "r{}{}", h / 2, if h % 2 == 0 { 'l' } else { 'h' }),
            Reg::R32(r) => write!(f, "r{r}"),
            Reg::R64(r) => write!(f, "r{}_r{}", r, u32::from(r) + 1),
        }
    }
}

fn hint_suffix(hint: Hint) -> &'static str {
    match hint {
        Hint::None => "",
        Hint::Cache => ".cache",
        Hint::Discard => ".discard",
    }
}

impl Display for Src {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match *self {
            Src::Imm(v) => write_int(f, u32::from(v)),
            Src::FImm(x) => write!(f, "{x:?}"),
            Src::Uni16(u) => write!(f, "u{}{}", u / 2, if u % 2 == 0 { 'l' } else { 'h' }),
            Src::Uni32(u) => write!(f, "u{u}"),
            Src::Uni64(u) => write!(f, "u{}_u{}", u, u32::from(u) + 1),
            Src::Reg(r, hint) => write!(f, "{r}{}", hint_suffix(hint)),
        }
    }
}

impl Display for Dst {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.reg, if self.cache { ".cache" } else { "" })
    }
}

impl Display for FDst {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.dst, if self.sat { ".sat" } else { "" })
    }
}

impl Display for FSrc {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.src)?;
        if self.abs {
            f.write_str(".abs")?;
        }
        if self.neg {
            f.write_str(".neg")?;
        }
        Ok(())
    }
}

impl Display for ICond {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let rel = match (self.rel, self.invert) {
            (IRel::Eq, false) => "eq",
            (IRel::Lt, false) => "lt",
            (IRel::Gt, false) => "gt",
            (IRel::Eq, true) => "ne",
            (IRel::Lt, true) => "ge",
            (IRel::Gt, true) => "le",
        };
        write!(f, "{}{rel}", if self.signed { 's' } else { 'u' })
    }
}

impl Display for FCond {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let rel = match self.rel {
            FRel::Eq => "eq",
            FRel::Lt => "lt",
            FRel::Gt => "gt",
            FRel::LtNanLoses => "ltn",
            FRel::Ge => "ge",
            FRel::Le => "le",
            FRel::GtNanLoses => "gtn",
        };
        write!(f, "{}{rel}", if self.invert { "n" } else { "" })
    }
}

/// `cc, A, B` of a comparison.
struct CompareOperands<'a>(&'a Compare);

impl Display for CompareOperands<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self.0 {
            Compare::Int { cond, a, b } => write!(f, "{cond}, {a}, {b}"),
            Compare::Float { cond, a, b } => write!(f, "{cond}, {a}, {b}"),
        }
    }
}

/// A threadgroup base as the disassembler prints it.
fn tg_base(base: &TgBase) -> String {
    match base {
        TgBase::Half(h) => Reg::Half(*h).to_string(),
        TgBase::Uni16(u) => Src::Uni16(*u).to_string(),
        TgBase::Imm(v) => v.to_string(),
    }
}

/// A threadgroup index as the disassembler prints it.
fn tg_index(offset: &TgIndex) -> String {
    match offset {
        TgIndex::Imm(v) => v.to_string(),
        TgIndex::Half(h) => Reg::Half(*h).to_string(),
    }
}

/// An atomic's result register, `_` when the result is not wanted.
struct AtomicDst(Option<u8>);

impl Display for AtomicDst {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(r) => write!(f, "{}", Reg::R32(r)),
            None => f.write_char('_'),
        }
    }
}

struct Run(RegRange);

impl Display for Run {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if self.0.count == 1 {
            return write!(f, "{}", self.0.first);
        }
        f.write_char('{')?;
        for i in 0..u32::from(self.0.count) {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{}", self.0.nth(i))?;
        }
        f.write_char('}')
    }
}

impl Display for MemIndex {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match *self {
            MemIndex::Imm(v) => write!(f, "{v}"),
            MemIndex::Reg { reg, unsigned } => {
                write!(f, "r{reg}{}", if unsigned { ".zx" } else { ".sx" })
            }
        }
    }
}

fn write_int(f: &mut Formatter<'_>, v: u32) -> fmt::Result {
    if v < 256 {
        write!(f, "{v}")
    } else {
        write!(f, "{v:#x}")
    }
}

fn sx(src: &Src, sign_extend: bool) -> String {
    format!("{src}{}", if sign_extend { ".sx" } else { "" })
}

fn tex_index(kind: &str, index: TexIndex) -> String {
    match index {
        TexIndex::Imm(v) => format!("{kind} {v}"),
        TexIndex::Half(h) => format!("{kind} {}", Reg::Half(h)),
    }
}

fn shift_suffix(shift: u8) -> String {
    if shift == 0 {
        String::new()
    } else {
        format!(", lsl {shift}")
    }
}

impl Display for Decoded {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let m = self.opcode.name();
        match &self.inst {
            Inst::Mov { d, imm } => {
                write!(f, "{m} {d}, ")?;
                write_int(f, *imm)
            }
            Inst::GetSr { d, sr } => match special_register_name(*sr) {
                Some(name) => write!(f, "{m} {d}, {name}"),
                None => write!(f, "{m} {d}, sr{sr}"),
            },
            Inst::Iadd {
                d,
                a,
                b,
                a_sx,
                b_sx,
                neg,
                shift,
                sat,
            } => write!(
                f,
                "{m} {d}{}, {}, {}{}{}",
                if *sat { ".sat" } else { "" },
                sx(a, *a_sx),
                sx(b, *b_sx),
                if *neg { ".neg" } else { "" },
                shift_suffix(*shift)
            ),
            Inst::Imadd {
                d,
                a,
                b,
                c,
                a_sx,
                b_sx,
                c_sx,
                neg,
                shift,
                sat,
            } => write!(
                f,
                "{m} {d}{}, {}, {}, {}{}{}",
                if *sat { ".sat" } else { "" },
                sx(a, *a_sx),
                sx(b, *b_sx),
                sx(c, *c_sx),
                if *neg { ".neg" } else { "" },
                shift_suffix(*shift)
            ),
            Inst::Convert {
                d,
                src,
                mode,
                round,
            } => write!(f, "{m} {d}, {}, {src}, {}", mode.name(), round.name()),
            Inst::Alu { d, .. } => {
                write!(f, "{m} {d}")?;
                for s in self.inst.alu_srcs() {
                    write!(f, ", {s}")?;
                }
                Ok(())
            }
            Inst::Bitfield {
                d,
                a,
                b,
                c,
                m: mask,
                ..
            } => write!(f, "{m} {d}, {a}, {b}, {c}, {mask}"),
            Inst::Asr { d, a, b, .. } => write!(f, "{m} {d}, {a}, {b}"),
            Inst::Bitop { d, a, b, table } => write!(f, "{m} {d}, {a}, {b}, {table:#06b}"),
            Inst::Fma { d, a, b, c, .. } => write!(f, "{m} {d}, {a}, {b}, {c}"),
            Inst::Fadd { d, a, b, .. } | Inst::Fmul { d, a, b, .. } => {
                write!(f, "{m} {d}, {a}, {b}")
            }
            Inst::FUnary { d, a, .. } => write!(f, "{m} {d}, {a}"),
            Inst::Ret { reg } | Inst::CallReg { reg } => write!(f, "{m} r{reg}"),
            Inst::Stop | Inst::Trap | Inst::Barrier => f.write_str(m),
            Inst::CallImm { offset }
            | Inst::JmpIncomplete { offset }
            | Inst::JmpExecAny { offset }
            | Inst::JmpExecNone { offset } => write!(f, "{m} {offset:+}"),
            Inst::PopExec { n, cache } => {
                write!(f, "{m} r0l{}, {n}", if *cache { ".cache" } else { "" })
            }
            Inst::ExecStack { cmp, n, cache, .. } => {
                write!(
                    f,
                    "{m} r0l{}, {}, {n}",
                    if *cache { ".cache" } else { "" },
                    CompareOperands(cmp)
                )
            }
            Inst::Select { d, cmp, x, y } => {
                write!(f, "{m} {d}, {}, {x}, {y}", CompareOperands(cmp))
            }
            Inst::Ballot { d, cmp, .. } => write!(f, "{m} {d}, {}", CompareOperands(cmp)),
            Inst::Shuffle { d, a, b, .. } => write!(f, "{m} {d}, {a}, {b}"),
            Inst::Wait { slot } => write!(f, "{m} {slot}"),
            Inst::Tile {
                regs,
                rt,
                mask,
                format,
                ..
            } => {
                write!(
                    f,
                    "{m} {}, rt {rt}, {mask:#06b}, {}",
                    Run(*regs),
                    format.name()
                )
            }
            Inst::LdVar {
                regs,
                index,
                mask,
                perspective,
            } => write!(
                f,
                "{m} {}, {index}, {mask:#06b}{}",
                Run(*regs),
                if *perspective { ", perspective" } else { "" }
            ),
            Inst::UniformStore {
                regs,
                offset,
                mask,
                format,
            } => {
                write!(
                    f,
                    "{m} {}, {offset}, {}, {mask:#06b}",
                    Run(*regs),
                    format.name()
                )
            }
            Inst::Device {
                regs,
                base,
                offset,
                format,
                mask,
                shift,
                slot,
                ..
            } => write!(
                f,
                "{m} {}, {base}, {offset}, {}, {mask:#06b}{}, slot {slot}",
                Run(*regs),
                format.name(),
                shift_suffix(*shift)
            ),
            Inst::Stack {
                regs,
                offset,
                format,
                mask,
                ..
            } => {
                write!(
                    f,
                    "{m} {}, {offset}, {}, {mask:#06b}",
                    Run(*regs),
                    format.name()
                )
            }
            Inst::StackGetPtr { reg } => write!(f, "{m} r{reg}"),
            Inst::StackAdjust { amount } => write!(f, "{m} {amount:+}"),
            Inst::Threadgroup {
                regs,
                base,
                offset,
                format,
                mask,
                ..
            } => {
                write!(
                    f,
                    "{m} {}, {}, {}, {}, {mask:#06b}",
                    Run(*regs),
                    tg_base(base),
                    tg_index(offset),
                    format.name()
                )
            }
            Inst::DeviceAtomic {
                op,
                dst,
                value,
                base,
                offset,
                slot,
            } => write!(
                f,
                "{m} {} {}, {}, {base}, {offset}, slot {slot}",
                op.name(),
                AtomicDst(*dst),
                Run(*value)
            ),
            Inst::LocalAtomic {
                op,
                dst,
                value,
                base,
                offset,
            } => write!(
                f,
                "{m} {} {}, {}, {}, {}",
                op.name(),
                AtomicDst(*dst),
                Run(*value),
                tg_base(base),
                tg_index(offset)
            ),
            Inst::Texture(t) => {
                let coords = t.dim.coord_components() + u32::from(t.dim.is_array());
                let coords = RegRange {
                    first: Reg::R32(t.coords),
                    count: coords as u8,
                };
                write!(
                    f,
                    "{m} {}, {}{}, {}, {}, {}, {}",
                    Run(t.dst),
                    Run(coords),
                    if t.coords_discard { ".discard" } else { "" },
                    tex_index("tex", t.texture),
                    tex_index("samp", t.sampler),
                    t.dim.name(),
                    t.lod_mode.name()
                )?;
                if t.lod_mode != crate::decode::inst::LodMode::Auto {
                    if t.lod_mode.from_uniform() {
                        write!(f, " u{}", t.lod)?;
                    } else {
                        write!(f, " r{}", t.lod)?;
                    }
                }
                let mut extra = u32::from(t.extra);
                if t.compare {
                    write!(f, ", compare r{extra}")?;
                    extra += 1;
                }
                if t.offset {
                    write!(f, ", offset r{extra}")?;
                }
                if let Some(c) = t.gather {
                    write!(f, ", gather {}", ["r", "g", "b", "a"][usize::from(c & 3)])?;
                }
                write!(f, ", {:#06b}, slot {}", t.mask, t.slot)
            }
            Inst::SampleMask { target, mask } => write!(f, "{m} {target}, {mask}"),
            Inst::ImageWrite(w) => {
                let coords = w.dim.coord_components() + u32::from(w.dim.is_array());
                let coords = RegRange {
                    first: Reg::R32(w.coords),
                    count: coords as u8,
                };
                write!(
                    f,
                    "{m} {}, {}{}, {}, {}, ",
                    Run(w.data),
                    Run(coords),
                    if w.coords_discard { ".discard" } else { "" },
                    tex_index("tex", w.texture),
                    w.dim.name(),
                )?;
                match w.lod {
                    crate::decode::inst::ImageLod::Imm(v) => write!(f, "lod {v}"),
                    crate::decode::inst::ImageLod::Half(h) => {
                        write!(f, "lod r{}{}", h / 2, if h % 2 == 0 { "l" } else { "h" })
                    }
                }
            }
        }
    }
}

/// Disassembles a whole program, one line per instruction: byte offset, the instruction's bytes
/// in hex, and its text. Decoding stops at the first error, which ends the listing as a line
/// `<pc>: error: <reason>`.
pub fn disassemble(code: &[u8]) -> String {
    let mut out = String::new();
    let mut pc = 0usize;
    while pc < code.len() {
        let Ok(pc32) = u32::try_from(pc) else { break };
        match decode_one(code, pc32) {
            Ok(d) => {
                let end = (pc + usize::from(d.len)).min(code.len());
                let hex: String = code[pc..end].iter().map(|b| format!("{b:02x}")).collect();
                let _ = writeln!(out, "{pc:6x}: {hex:<24} {d}");
                pc = end;
            }
            Err(e) => {
                let _ = writeln!(out, "{pc:6x}: error: {}", e.kind);
                break;
            }
        }
    }
    out
}

/// Disassembles the single instruction at the start of `code` (the text only).
pub fn disassemble_one(code: &[u8]) -> Result<String, crate::error::DecodeError> {
    decode_one(code, 0).map(|d| d.to_string())
}
