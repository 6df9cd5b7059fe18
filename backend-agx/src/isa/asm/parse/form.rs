//! The instruction forms: a mnemonic and its operands to an [`Instr<PReg>`], one function per
//! family, each the inverse of the printer in `asm.rs` for that family.

use super::memory;
use super::operand::{
    choice, dst, fail, fsrc, int_src, plain_src, reg, u8_in, Op, Suffix, Suffixed, R,
};
use agxc_g13_isa::operands;
use smallvec::SmallVec;

use crate::isa::{
    BitfieldOp, Cmp, ConvertMode, FCond, FUnaryOp, ICond, Instr, JumpTarget, Label, PReg,
    Precision, Round, SpecialReg, Src, StackOp,
};

/// The operands of one instruction, taken in order.
pub(super) struct Args<'a> {
    ops: Vec<Op<'a>>,
    next: usize,
    /// Where a missing operand is reported: the end of the line.
    end: usize,
}

impl<'a> Args<'a> {
    pub fn new(ops: Vec<Op<'a>>, end: usize) -> Self {
        Args { ops, next: 0, end }
    }

    /// The next operand, or an error naming what was expected.
    pub fn next(&mut self, what: &str) -> R<Op<'a>> {
        let Some(&op) = self.ops.get(self.next) else {
            return fail(self.end, format!("missing operand: expected {what}"));
        };
        self.next += 1;
        Ok(op)
    }

    /// The next operand if it is `KEYWORD VALUE` (its value), else nothing consumed.
    pub fn keyword(&mut self, keyword: &str) -> Option<Op<'a>> {
        let value = self.ops.get(self.next)?.keyword(keyword)?;
        self.next += 1;
        Some(value)
    }

    /// The next operand if its text is exactly `word`.
    pub fn word(&mut self, word: &str) -> bool {
        let hit = self.ops.get(self.next).is_some_and(|o| o.text == word);
        if hit {
            self.next += 1;
        }
        hit
    }

    /// Where the operand taken last starts (the line's end when none was).
    pub fn last_at(&self) -> usize {
        self.next
            .checked_sub(1)
            .and_then(|i| self.ops.get(i))
            .map_or(self.end, |o| o.at)
    }

    /// Errors on operands left over.
    pub fn done(&self) -> R<()> {
        match self.ops.get(self.next) {
            Some(op) => fail(op.at, format!("unexpected operand `{}`", op.text)),
            None => Ok(()),
        }
    }
}

/// Resolves a jump target: `+12`/`-6` (bytes from the jump itself) or a label name.
pub(super) trait Labels {
    fn label(&mut self, name: &str, at: usize) -> Label;
}

/// Mnemonics the disassembler knows for which the backend's instruction type has no form
/// (the compiler never emits them), so the encoder cannot write them.
const NOT_EMITTED: [&str; 9] = [
    "icmp_ballot",
    "fcmp_ballot",
    "icmp_quad_ballot",
    "fcmp_quad_ballot",
    "jmp_incomplete",
    "ld_tile",
    "simd_shuffle_down",
    "stack_adjust",
    "stack_get_ptr",
];

/// Parses one instruction.
pub(super) fn instr(
    mnemonic: Op<'_>,
    args: &mut Args<'_>,
    labels: &mut dyn Labels,
) -> R<Instr<PReg>> {
    let m = mnemonic.text;
    if let Some(op) = operands::generic_forms().find(|o| o.name() == m) {
        let mut d = None;
        let mut srcs = SmallVec::<[Src<PReg>; operands::MAX_SRCS]>::new();
        for operand in operands::operands(op).unwrap_or_default() {
            match operand {
                operands::Operand::Dst { .. } => {
                    d = Some(dst(args.next("a destination")?, false)?.0)
                }
                operands::Operand::Src { .. } => srcs.push(plain_src(args.next("a source")?)?),
            }
        }
        let d = d.expect("invariant: a generic form lists its destination (isa crate test)");
        return Ok(Instr::alu(op, d, &srcs));
    }
    if let Some(op) = BitfieldOp::ALL.iter().find(|o| o.name() == m) {
        let (d, _) = dst(args.next("a destination")?, false)?;
        let a = plain_src(args.next("source a")?)?;
        let b = plain_src(args.next("source b")?)?;
        let c = plain_src(args.next("the shift amount c")?)?;
        let mask_bits = u8_in(args.next("the field width")?, 31, "field width")?;
        return Ok(Instr::Bitfield {
            op: *op,
            dst: d,
            a,
            b,
            c,
            mask_bits,
        });
    }
    if let Some(op) = FUnaryOp::ALL.iter().find(|o| o.name() == m) {
        let (d, sat) = dst(args.next("a destination")?, true)?;
        let a = fsrc(args.next("a source")?)?;
        return Ok(Instr::FUnary {
            op: *op,
            dst: d,
            sat,
            a,
        });
    }
    Ok(match m {
        "mov_imm" => {
            let (d, _) = dst(args.next("a destination")?, false)?;
            let imm =
                super::operand::int_in(args.next("an immediate")?, 0, 0xffff_ffff, "immediate")?;
            Instr::MovImm {
                dst: d,
                imm: imm as u32,
            }
        }
        "get_sr" => {
            let (d, _) = dst(args.next("a destination")?, false)?;
            let op = args.next("a special register name")?;
            let names: Vec<(&str, SpecialReg)> =
                SpecialReg::ALL.iter().map(|s| (s.name(), *s)).collect();
            let sr = choice(op, &names, "a special register")?;
            Instr::GetSr { dst: d, sr }
        }
        "iadd" | "imadd" => integer_add(m == "imadd", args)?,
        "convert" => {
            let (d, _) = dst(args.next("a destination")?, false)?;
            let modes: Vec<(&str, ConvertMode)> =
                ConvertMode::ALL.iter().map(|c| (c.name(), *c)).collect();
            let mode = choice(args.next("a conversion")?, &modes, "a conversion")?;
            let src = plain_src(args.next("a source")?)?;
            let rounds = [("rtz", Round::Rtz), ("rte", Round::Rte)];
            let round = choice(args.next("a rounding mode")?, &rounds, "a rounding mode")?;
            Instr::Convert {
                dst: d,
                src,
                mode,
                round,
            }
        }
        "asr" | "asrh" => {
            let (d, _) = dst(args.next("a destination")?, false)?;
            let a = plain_src(args.next("the value")?)?;
            let b = plain_src(args.next("the shift amount")?)?;
            Instr::Asr {
                high: m == "asrh",
                dst: d,
                a,
                b,
            }
        }
        "bitop" => {
            let (d, _) = dst(args.next("a destination")?, false)?;
            let a = plain_src(args.next("source a")?)?;
            let b = plain_src(args.next("source b")?)?;
            let table = u8_in(args.next("a 4-bit truth table")?, 15, "truth table")?;
            Instr::Bitop {
                dst: d,
                a,
                b,
                table,
            }
        }
        "fmadd32" | "fmadd16" | "fadd32" | "fadd16" | "fmul32" | "fmul16" => float(m, args)?,
        "stop" => Instr::Stop,
        "trap" => Instr::Trap,
        "threadgroup_barrier" => Instr::ThreadgroupBarrier,
        "jmp_exec_any" | "jmp_exec_none" | "call" => {
            let op = args.next("a jump target (`+12`, `-6` or a label)")?;
            if m == "call" && reg(op).is_ok() {
                return fail(
                    op.at,
                    "a call through a register is decoded by the simulator but the backend's \
                     instruction type has no form for it",
                );
            }
            let target = jump_target(op, labels)?;
            match m {
                "jmp_exec_any" => Instr::JmpExecAny { target },
                "jmp_exec_none" => Instr::JmpExecNone { target },
                _ => Instr::Call { target },
            }
        }
        "ret" => Instr::Ret {
            reg: super::operand::reg32(args.next("a 32-bit register")?)?,
        },
        "pop_exec" => {
            let cache = exec_reg(args.next("`r0l`")?)?;
            let n = u8_in(args.next("a level count")?, 3, "level count")?;
            Instr::PopExec { n, cache }
        }
        "if_icmp" | "if_fcmp" | "else_icmp" | "else_fcmp" | "while_icmp" | "while_fcmp" => {
            let op = match &m[..m.find('_').unwrap_or(0)] {
                "if" => StackOp::If,
                "else" => StackOp::Else,
                _ => StackOp::While,
            };
            let cache = exec_reg(args.next("`r0l`")?)?;
            let (cmp, invert, _) = compare(m.ends_with("fcmp"), args)?;
            let n = u8_in(args.next("a level count")?, 3, "level count")?;
            Instr::ExecStack {
                op,
                cmp,
                invert,
                n,
                cache,
            }
        }
        "icmpsel" | "fcmpsel" => {
            let (d, _) = dst(args.next("a destination")?, false)?;
            let (cmp, invert, cond_at) = compare(m == "fcmpsel", args)?;
            if invert {
                return fail(
                    cond_at,
                    "a select takes no inverted condition (swap the results instead)",
                );
            }
            let x = select_value(args.next("the result if true")?)?;
            let y = select_value(args.next("the result if false")?)?;
            Instr::Select { dst: d, cmp, x, y }
        }
        "wait" => Instr::Wait {
            slot: u8_in(args.next("a slot")?, 1, "slot")?,
        },
        "simd_shuffle" => {
            let d = reg(args.next("a destination")?)?;
            let src = reg(args.next("the value")?)?;
            let lane = reg(args.next("the lane")?)?;
            Instr::SimdShuffle { dst: d, src, lane }
        }
        "sample_mask" => Instr::SampleMask {
            targets: u8_in(args.next("the samples")?, 63, "sample set")?,
            value: u8_in(args.next("the coverage")?, 63, "coverage")?,
        },
        _ if NOT_EMITTED.contains(&m) => {
            return fail(
                mnemonic.at,
                format!(
                    "`{m}` is decoded by the simulator but the backend's instruction type has no \
                     form for it, so it cannot be assembled"
                ),
            )
        }
        _ => return memory::instr(mnemonic, args),
    })
}

/// `iadd DST[.sat], A, B[.neg][, lsl N]` and `imadd DST[.sat], A, B, C[.neg][, lsl N]`.
fn integer_add(mul: bool, args: &mut Args<'_>) -> R<Instr<PReg>> {
    let (d, sat) = dst(args.next("a destination")?, true)?;
    let mut srcs = Vec::new();
    let count = if mul { 3 } else { 2 };
    let mut neg = false;
    for i in 0..count {
        let mut s = Suffixed::new(args.next("a source")?)?;
        let v = int_src(&mut s)?;
        if i == count - 1 {
            neg = s.take(Suffix::Neg);
        }
        s.done()?;
        srcs.push(v);
    }
    let shift = match args.keyword("lsl") {
        Some(op) => u8_in(op, 4, "shift")?,
        None => 0,
    };
    Ok(if mul {
        Instr::Imadd {
            dst: d,
            a: srcs[0],
            b: srcs[1],
            c: srcs[2],
            neg_c: neg,
            shift,
            sat,
        }
    } else {
        Instr::Iadd {
            dst: d,
            a: srcs[0],
            b: srcs[1],
            neg_b: neg,
            shift,
            sat,
        }
    })
}

/// `fmadd32`/`fadd16`/...: `DST[.sat], A, B[, C]`.
fn float(m: &str, args: &mut Args<'_>) -> R<Instr<PReg>> {
    let prec = if m.ends_with("32") {
        Precision::F32
    } else {
        Precision::F16
    };
    let (d, sat) = dst(args.next("a destination")?, true)?;
    let a = fsrc(args.next("source a")?)?;
    let b = fsrc(args.next("source b")?)?;
    Ok(match &m[..m.len() - 2] {
        "fmadd" => Instr::Fmadd {
            prec,
            dst: d,
            sat,
            a,
            b,
            c: fsrc(args.next("source c")?)?,
        },
        "fadd" => Instr::Fadd {
            prec,
            dst: d,
            sat,
            a,
            b,
        },
        _ => Instr::Fmul {
            prec,
            dst: d,
            sat,
            a,
            b,
        },
    })
}

/// `r0l[.cache]`, the execution-mask register the stack instructions name; whether cached.
fn exec_reg(op: Op<'_>) -> R<bool> {
    let mut s = Suffixed::new(op)?;
    if s.base.text != "r0l" {
        return fail(op.at, format!("expected `r0l`, found `{}`", s.base.text));
    }
    let cache = s.take(Suffix::Cache);
    s.done()?;
    Ok(cache)
}

const ICONDS: [(&str, (ICond, bool)); 12] = [
    ("ueq", (ICond::Ueq, false)),
    ("ult", (ICond::Ult, false)),
    ("ugt", (ICond::Ugt, false)),
    ("seq", (ICond::Seq, false)),
    ("slt", (ICond::Slt, false)),
    ("sgt", (ICond::Sgt, false)),
    ("une", (ICond::Ueq, true)),
    ("uge", (ICond::Ult, true)),
    ("ule", (ICond::Ugt, true)),
    ("sne", (ICond::Seq, true)),
    ("sge", (ICond::Slt, true)),
    ("sle", (ICond::Sgt, true)),
];

const FCONDS: [(&str, FCond); 7] = [
    ("eq", FCond::Eq),
    ("lt", FCond::Lt),
    ("gt", FCond::Gt),
    ("ltn", FCond::LtNanLoses),
    ("ge", FCond::Ge),
    ("le", FCond::Le),
    ("gtn", FCond::GtNanLoses),
];

/// `COND, A, B`: the comparison, whether its condition is inverted, and where the condition
/// is written.
fn compare(float: bool, args: &mut Args<'_>) -> R<(Cmp<PReg>, bool, usize)> {
    let cond = args.next("a condition")?;
    if float {
        let (invert, name) = match cond.text.strip_prefix('n') {
            // `ne` is no float condition, so a leading `n` is always the inversion.
            Some(rest) => (
                true,
                Op {
                    text: rest,
                    at: cond.at + 1,
                },
            ),
            None => (false, cond),
        };
        let c = choice(name, &FCONDS, "a float condition")?;
        let a = fsrc(args.next("source a")?)?;
        let b = fsrc(args.next("source b")?)?;
        Ok((Cmp::Float { cond: c, a, b }, invert, cond.at))
    } else {
        let (c, invert) = choice(cond, &ICONDS, "an integer condition")?;
        let a = plain_src(args.next("source a")?)?;
        let b = plain_src(args.next("source b")?)?;
        Ok((Cmp::Int { cond: c, a, b }, invert, cond.at))
    }
}

/// A select result: an integer source, or a float literal (its 8-bit code).
fn select_value(op: Op<'_>) -> R<crate::isa::Src<PReg>> {
    if op.text.contains('.')
        && op
            .text
            .starts_with(|c: char| c.is_ascii_digit() || c == '-')
    {
        return Ok(crate::isa::Src::Imm(super::operand::float_imm(op)?));
    }
    plain_src(op)
}

fn jump_target(op: Op<'_>, labels: &mut dyn Labels) -> R<JumpTarget> {
    let t = op.text;
    if t.starts_with(|c: char| c == '+' || c == '-' || c.is_ascii_digit()) {
        let v = super::operand::int_in(op, i64::from(i32::MIN), i64::from(i32::MAX), "offset")?;
        return Ok(JumpTarget::Offset(v as i32));
    }
    if !super::is_label_name(t) {
        return fail(
            op.at,
            format!("`{t}` is neither a byte offset (`+12`) nor a label name"),
        );
    }
    Ok(JumpTarget::Label(labels.label(t, op.at)))
}
