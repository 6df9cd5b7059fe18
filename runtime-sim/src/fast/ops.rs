//! The fast engine's operations and their translation from the decoded form.
//!
//! Each decoded instruction becomes one [`Op`]. The forms that dominate real shaders (32-bit
//! integer and float arithmetic on registers, uniforms and immediates, the common conversions,
//! selects, jumps, stores and loads of 32-bit words) get a specialised [`Kind`] whose operands
//! are already resolved: which register row, which uniform, which constant, which masks to
//! apply. Every other form (16-bit float arithmetic, 64-bit operands, saturating integer
//! arithmetic, textures, fragment I/O, atomics, ...) is [`Kind::Generic`] and runs through the
//! reference executor's `step`, on the same state, so the two engines cannot disagree on it.

use crate::decode::inst::{
    BitfieldOp, Compare, ConvertMode, Decoded, FRel, FSrc, FUnaryOp, IRel, Inst, MemFormat,
    MemIndex, Precision, Reg, RegRange, Round, Src, StackOp,
};
use crate::encoding::Opcode;
use crate::error::ExecErrorKind;
use crate::float::decode_float_immediate;

/// A source read as 32 bits per lane.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Src32 {
    /// 32-bit register `rN`.
    R(u8),
    /// Half `h`, zero-extended.
    H(u8),
    /// Half `h`, sign-extended.
    Hs(u8),
    /// A constant (immediates, already extended or decoded).
    K(u32),
    /// 32-bit uniform `uN` (read when the instruction runs: `uniform_store` may change it).
    U(u8),
    /// 16-bit uniform by half index, zero-extended.
    Uh(u16),
    /// 16-bit uniform by half index, sign-extended.
    Uhs(u16),
}

/// A 32-bit float source: the bits of `s`, denormals flushed, then `& and ^ xor` (abs clears
/// the sign bit, neg flips it).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct FSrc32 {
    pub s: Src32,
    pub and: u32,
    pub xor: u32,
}

/// A destination: a 32-bit register or a half (which keeps the low 16 bits).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Dst32 {
    R(u8),
    H(u8),
}

/// A comparison with 32-bit operands.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Cmp32 {
    /// Integer: operands extended to 32 bits as the comparison's signedness says.
    Int {
        rel: IRel,
        signed: bool,
        invert: bool,
        a: Src32,
        b: Src32,
    },
    /// Float.
    Float {
        rel: FRel,
        invert: bool,
        a: FSrc32,
        b: FSrc32,
    },
}

/// Where a jump goes: an instruction index, or the error taking it raises.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Target {
    Index(usize),
    Bad(ExecErrorKind),
}

/// A rounding operation of the one-source float family.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RoundOp {
    Floor,
    Ceil,
    Trunc,
    Rint,
}

/// A specialised operation.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Kind {
    /// Run by the reference executor.
    Generic,
    Mov {
        d: Dst32,
        v: u32,
    },
    /// `a + (±b << shift)`, wrapping (`shift` 32 means the `b` term is 0).
    Iadd {
        d: Dst32,
        a: Src32,
        b: Src32,
        neg: bool,
        shift: u32,
    },
    /// `a * b + (±c << shift)`, wrapping.
    Imadd {
        d: Dst32,
        a: Src32,
        b: Src32,
        c: Src32,
        neg: bool,
        shift: u32,
    },
    /// `a * b + (±c << shift)` in 64 bits, each source extended to 64 bits as `sx` says
    /// (zero or sign), written to the pair `rd`, `rd + 1` (low word first); `shift` as encoded
    /// (5 and above shift everything out). The mulhi idiom of division by a constant: session 14
    /// found `mem_gather` spending a fifth of its time on it in the reference executor.
    Imadd64 {
        d: u8,
        a: Src32,
        b: Src32,
        c: Src32,
        sx: [bool; 3],
        neg: bool,
        shift: u8,
    },
    /// `bitop`: the truth table as four lane masks (all ones or zero).
    Bitop {
        d: Dst32,
        a: Src32,
        b: Src32,
        t: [u32; 4],
    },
    /// A form of the description's generic path, run by its semantics function
    /// (`exec::table`, which the reference executor runs too); unused sources are `K(0)`.
    Table {
        op: Opcode,
        d: Dst32,
        s: [Src32; 3],
    },
    Bitfield {
        op: BitfieldOp,
        d: Dst32,
        a: Src32,
        b: Src32,
        c: Src32,
        mask: u32,
    },
    Asr {
        high: bool,
        d: Dst32,
        a: Src32,
        b: Src32,
    },
    /// Integer to f32: `a` already extended as the mode reads it.
    IntToF32 {
        d: u8,
        a: Src32,
        signed: bool,
        rte: bool,
    },
    /// Float to integer, clamped to the target's range, NaN to 0.
    F32ToInt {
        d: Dst32,
        a: FSrc32,
        to: IntTarget,
        rte: bool,
    },
    Fadd {
        d: u8,
        a: FSrc32,
        b: FSrc32,
        sat: bool,
    },
    Fmul {
        d: u8,
        a: FSrc32,
        b: FSrc32,
        sat: bool,
    },
    Fma {
        d: u8,
        a: FSrc32,
        b: FSrc32,
        c: FSrc32,
        sat: bool,
    },
    FRound {
        op: RoundOp,
        d: u8,
        a: FSrc32,
        sat: bool,
    },
    /// `rcp`, `rsqrt`, ... (computed per lane by the reference's function).
    FUnary {
        op: FUnaryOp,
        d: u8,
        a: FSrc32,
        sat: bool,
    },
    Select {
        d: Dst32,
        cmp: Cmp32,
        x: Src32,
        y: Src32,
    },
    /// `device_load`/`device_store` of `count` 32-bit words (format `i32`, registers
    /// `r..r+count`, consecutive mask bits from bit 0).
    Device {
        store: bool,
        first: u8,
        count: u8,
        base: u8,
        index: Index32,
        scale: u32,
        slot: u8,
    },
    JmpExecAny(Target),
    JmpExecNone(Target),
    Stop,
    Wait(u8),
    GetSr {
        d: Dst32,
        sr: u8,
    },
    /// `ld_var` into 32-bit registers `first..` (component `j` of `mask` to the next one).
    LdVar {
        first: u8,
        index: u8,
        mask: u8,
    },
    PopExec {
        n: u32,
    },
    /// `if_*cmp`, `else_*cmp`, `while_*cmp`.
    ExecStack {
        op: StackOp,
        cmp: Cmp32,
        n: u32,
    },
}

/// The integer type of a float-to-integer conversion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum IntTarget {
    U16,
    S16,
    U32,
    S32,
}

/// A memory instruction's per-lane index.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Index32 {
    Imm(i32),
    Reg { reg: u8, unsigned: bool },
}

/// One instruction of the fast engine.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Op {
    pub kind: Kind,
    /// Byte offset of the instruction.
    pub pc: u32,
    /// The instruction has discard hints (the run loop checks and applies them).
    pub discards: bool,
    /// The wait slot of a load (for the timing model).
    pub slot: Option<u8>,
    /// The timing model's cost.
    pub cost: crate::timing::Cost,
    /// The timing model's register lists, packed (`None`: too long, use the metadata's).
    pub packed: Option<([u8; 4], [u8; 2])>,
}

fn src32(s: &Src, sx: bool) -> Option<Src32> {
    Some(match *s {
        Src::Imm(v) => Src32::K(if sx {
            v as i16 as i32 as u32
        } else {
            u32::from(v)
        }),
        Src::FImm(x) => Src32::K(x.to_bits()),
        Src::Uni16(i) if sx => Src32::Uhs(i),
        Src::Uni16(i) => Src32::Uh(i),
        Src::Uni32(i) => Src32::U(i),
        Src::Reg(Reg::Half(h), _) if sx => Src32::Hs(h),
        Src::Reg(Reg::Half(h), _) => Src32::H(h),
        Src::Reg(Reg::R32(r), _) => Src32::R(r),
        Src::Uni64(_) | Src::Reg(Reg::R64(_), _) => return None,
    })
}

fn fsrc32(f: &FSrc) -> Option<FSrc32> {
    let s = match f.src {
        Src::FImm(x) => Src32::K(x.to_bits()),
        Src::Uni32(i) => Src32::U(i),
        Src::Reg(Reg::R32(r), _) => Src32::R(r),
        // 16-bit sources are f16 values; 64-bit ones are rare.
        _ => return None,
    };
    Some(FSrc32 {
        s,
        and: if f.abs { 0x7fff_ffff } else { u32::MAX },
        xor: if f.neg { 0x8000_0000 } else { 0 },
    })
}

fn dst32(reg: Reg) -> Option<Dst32> {
    match reg {
        Reg::R32(r) => Some(Dst32::R(r)),
        Reg::Half(h) => Some(Dst32::H(h)),
        Reg::R64(_) => None,
    }
}

fn fdst32(reg: Reg) -> Option<u8> {
    match reg {
        Reg::R32(r) => Some(r),
        _ => None,
    }
}

fn cmp32(c: &Compare) -> Option<Cmp32> {
    Some(match c {
        Compare::Int { cond, a, b } => Cmp32::Int {
            rel: cond.rel,
            signed: cond.signed,
            invert: cond.invert,
            a: src32(a, cond.signed)?,
            b: src32(b, cond.signed)?,
        },
        Compare::Float { cond, a, b } => Cmp32::Float {
            rel: cond.rel,
            invert: cond.invert,
            a: fsrc32(a)?,
            b: fsrc32(b)?,
        },
    })
}

/// The shift amount of `iadd`/`imadd` as a 32-bit shift (5 and above drop the term).
fn shift32(shift: u8) -> u32 {
    if shift < 5 {
        u32::from(shift)
    } else {
        32
    }
}

/// The specialised form of `d`, or [`Kind::Generic`]. `target` resolves a jump's byte target.
pub(crate) fn translate(d: &Decoded, target: &dyn Fn(i64) -> Target) -> Kind {
    specialise(d, target).unwrap_or(Kind::Generic)
}

fn specialise(d: &Decoded, target: &dyn Fn(i64) -> Target) -> Option<Kind> {
    let pc = i64::from(d.pc);
    Some(match d.inst {
        Inst::Mov { d: dst, imm } => Kind::Mov {
            d: dst32(dst.reg)?,
            v: imm,
        },
        Inst::Iadd {
            d: dst,
            a,
            b,
            a_sx,
            b_sx,
            neg,
            shift,
            sat,
        } => {
            // With the narrow operands this form needs, the reference saturates exactly when
            // there is no shift.
            if sat && shift == 0 {
                return None;
            }
            Kind::Iadd {
                d: dst32(dst.reg)?,
                a: src32(&a, a_sx)?,
                b: src32(&b, b_sx)?,
                neg,
                shift: shift32(shift),
            }
        }
        Inst::Imadd {
            d: dst,
            a,
            b,
            c,
            a_sx,
            b_sx,
            c_sx,
            neg,
            shift,
            sat,
        } => {
            if let Reg::R64(r) = dst.reg {
                // The reference never saturates a 64-bit destination. An immediate's width
                // decides its sign extension there: only those that both extensions agree on.
                let (a, b, c) = (src32(&a, a_sx)?, src32(&b, b_sx)?, src32(&c, c_sx)?);
                let small = |s: Src32| !matches!(s, Src32::K(v) if v >= 0x8000);
                if r >= 127 || ![a, b, c].into_iter().all(small) {
                    return None;
                }
                return Some(Kind::Imadd64 {
                    d: r,
                    a,
                    b,
                    c,
                    sx: [a_sx, b_sx, c_sx],
                    neg,
                    shift,
                });
            }
            if sat && shift == 0 {
                return None;
            }
            Kind::Imadd {
                d: dst32(dst.reg)?,
                a: src32(&a, a_sx)?,
                b: src32(&b, b_sx)?,
                c: src32(&c, c_sx)?,
                neg,
                shift: shift32(shift),
            }
        }
        Inst::Alu { op, d: dst, srcs } => Kind::Table {
            op,
            d: dst32(dst.reg)?,
            s: [
                src32(&srcs[0], false)?,
                src32(&srcs[1], false)?,
                src32(&srcs[2], false)?,
            ],
        },
        Inst::Bitop {
            d: dst,
            a,
            b,
            table,
        } => {
            let tt = |i: u8| table >> i & 1 == 1;
            // The document's undefined tables (depending only on `b`) return `a`: the table
            // of `a` (`b` is still read, and checked, as the reference reads it).
            let undefined = tt(0) == tt(1) && tt(2) == tt(3) && tt(0) != tt(2);
            Kind::Bitop {
                d: dst32(dst.reg)?,
                a: src32(&a, false)?,
                b: src32(&b, false)?,
                t: std::array::from_fn(|i| {
                    let bit = if undefined { i & 1 == 1 } else { tt(i as u8) };
                    if bit {
                        u32::MAX
                    } else {
                        0
                    }
                }),
            }
        }
        Inst::Bitfield {
            op,
            d: dst,
            a,
            b,
            c,
            m,
        } => Kind::Bitfield {
            op,
            d: dst32(dst.reg)?,
            a: src32(&a, false)?,
            b: src32(&b, false)?,
            c: src32(&c, false)?,
            mask: match m {
                0 => u32::MAX,
                1..=31 => (1u32 << m) - 1,
                _ => return None,
            },
        },
        Inst::Asr { high, d: dst, a, b } => Kind::Asr {
            high,
            d: dst32(dst.reg)?,
            a: src32(&a, true)?,
            b: src32(&b, false)?,
        },
        Inst::Convert {
            d: dst,
            src,
            mode,
            round,
        } => convert(dst.reg, &src, mode, round)?,
        Inst::Fadd {
            p: Precision::F32,
            d: dst,
            a,
            b,
        } => Kind::Fadd {
            d: fdst32(dst.dst.reg)?,
            a: fsrc32(&a)?,
            b: fsrc32(&b)?,
            sat: dst.sat,
        },
        Inst::Fmul {
            p: Precision::F32,
            d: dst,
            a,
            b,
        } => Kind::Fmul {
            d: fdst32(dst.dst.reg)?,
            a: fsrc32(&a)?,
            b: fsrc32(&b)?,
            sat: dst.sat,
        },
        Inst::Fma {
            p: Precision::F32,
            d: dst,
            a,
            b,
            c,
        } => Kind::Fma {
            d: fdst32(dst.dst.reg)?,
            a: fsrc32(&a)?,
            b: fsrc32(&b)?,
            c: fsrc32(&c)?,
            sat: dst.sat,
        },
        Inst::FUnary { op, d: dst, a } => {
            let (d32, a32, sat) = (fdst32(dst.dst.reg)?, fsrc32(&a)?, dst.sat);
            let round = match op {
                FUnaryOp::Floor => RoundOp::Floor,
                FUnaryOp::Ceil => RoundOp::Ceil,
                FUnaryOp::Trunc => RoundOp::Trunc,
                FUnaryOp::Rint => RoundOp::Rint,
                // Derivatives read the whole quad.
                FUnaryOp::Dfdx | FUnaryOp::Dfdy => return None,
                _ => {
                    return Some(Kind::FUnary {
                        op,
                        d: d32,
                        a: a32,
                        sat,
                    })
                }
            };
            Kind::FRound {
                op: round,
                d: d32,
                a: a32,
                sat,
            }
        }
        Inst::Select { d: dst, cmp, x, y } => Kind::Select {
            d: dst32(dst.reg)?,
            cmp: cmp32(&cmp)?,
            x: src32(&x, false)?,
            y: src32(&y, false)?,
        },
        Inst::Device {
            store,
            regs,
            base: Src::Uni64(base),
            offset,
            format: MemFormat::I32,
            mask,
            shift,
            slot,
        } if regs.is_32()
            && mask != 0
            && (mask + 1) & mask == 0
            && u32::from(regs.count) == mask.count_ones() =>
        {
            let Reg::R32(first) = regs.first else {
                return None;
            };
            Kind::Device {
                store,
                first,
                count: regs.count,
                base,
                index: match offset {
                    MemIndex::Imm(v) => Index32::Imm(v),
                    MemIndex::Reg { reg, unsigned } => Index32::Reg { reg, unsigned },
                },
                scale: 2 + u32::from(shift),
                slot,
            }
        }
        Inst::JmpExecAny { offset } => Kind::JmpExecAny(target(pc + i64::from(offset))),
        Inst::JmpExecNone { offset } => Kind::JmpExecNone(target(pc + i64::from(offset))),
        Inst::Stop => Kind::Stop,
        Inst::Wait { slot } => Kind::Wait(slot),
        Inst::GetSr { d: dst, sr } => Kind::GetSr {
            d: dst32(dst.reg)?,
            sr,
        },
        Inst::PopExec { n, .. } => Kind::PopExec { n: u32::from(n) },
        Inst::LdVar {
            regs:
                RegRange {
                    first: Reg::R32(first),
                    ..
                },
            index,
            mask,
            ..
        } => Kind::LdVar { first, index, mask },
        Inst::ExecStack { op, cmp, n, .. } => Kind::ExecStack {
            op,
            cmp: cmp32(&cmp)?,
            n: u32::from(n),
        },
        _ => return None,
    })
}

/// `convert`'s fast forms: 8/16/32-bit integers to f32, f32 (or a float immediate) to 16/32-bit
/// integers.
fn convert(dst: Reg, src: &Src, mode: ConvertMode, round: Round) -> Option<Kind> {
    use ConvertMode::*;
    let rte = round == Round::Rte;
    match mode {
        // The 8- and 16-bit modes read part of the source: rare, left to the reference.
        U8ToF | S8ToF | U16ToF | S16ToF => None,
        U32ToF | S32ToF => Some(Kind::IntToF32 {
            d: fdst32(dst)?,
            a: src32(src, false)?,
            signed: mode == S32ToF,
            rte,
        }),
        FToU16 | FToS16 | FToU32 | FToS32 => {
            let a = match *src {
                Src::Imm(v) => FSrc32 {
                    s: Src32::K(decode_float_immediate(v as u8).to_bits()),
                    and: u32::MAX,
                    xor: 0,
                },
                other => fsrc32(&FSrc {
                    src: other,
                    abs: false,
                    neg: false,
                })?,
            };
            let to = match mode {
                FToU16 => IntTarget::U16,
                FToS16 => IntTarget::S16,
                FToU32 => IntTarget::U32,
                _ => IntTarget::S32,
            };
            Some(Kind::F32ToInt {
                d: dst32(dst)?,
                a,
                to,
                rte,
            })
        }
    }
}
