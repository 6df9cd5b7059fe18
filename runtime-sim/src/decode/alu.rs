//! Typed decoding of the ALU instructions: moves, integer arithmetic, conversions, shifts and
//! bitfields, bit manipulation, float arithmetic, selects, ballots and shuffles.

use super::inst::{BitfieldOp, Compare, ConvertMode, FDst, FUnaryOp, Inst, Precision, Round};
use super::operands::{alu_dst, alu_src, cmpsel_src, fcond, float_src, icond, unsupported};
use crate::encoding::{Opcode, RawInst};
use crate::error::DecodeErrorKind;
use agxc_g13_isa::operands::{Operand, MAX_SRCS};

type Result<T> = std::result::Result<T, DecodeErrorKind>;

/// A 12-bit ALU source `X` with its type `Xt` and extension `Xx`, as an integer source.
fn src(raw: &RawInst, name: &'static str, max_size: u32) -> Result<super::inst::Src> {
    let (value, flags) = value_flags(raw, name);
    alu_src(raw.encoding.opcode, name, value, flags, max_size)
}

/// The same source read as a float (with its `Xm` modifier).
fn fsrc(raw: &RawInst, name: &'static str, max_size: u32) -> Result<super::inst::FSrc> {
    let (value, flags) = value_flags(raw, name);
    let modifier = raw.get(modifier_field(name));
    float_src(raw.encoding.opcode, name, value, flags, modifier, max_size)
}

/// `Xx:X` and `Xt` of operand `name`.
fn value_flags(raw: &RawInst, name: &'static str) -> (u32, u32) {
    let (x, t) = match name {
        "A" => ("Ax", "At"),
        "B" => ("Bx", "Bt"),
        "C" => ("Cx", "Ct"),
        "X" => ("Xx", "Xt"),
        "Y" => ("Yx", "Yt"),
        _ => unreachable!("invariant: ALU operands are A, B, C, X, Y"),
    };
    (raw.join(&[x, name]), raw.get(t))
}

fn modifier_field(name: &str) -> &'static str {
    match name {
        "A" => "Am",
        "B" => "Bm",
        "C" => "Cm",
        _ => unreachable!("invariant: float modifiers exist on A, B, C"),
    }
}

fn dst(raw: &RawInst, max_size: u32) -> super::inst::Dst {
    alu_dst(raw.join(&["Dx", "D"]), raw.get("Dt"), max_size)
}

/// `FloatDst(value, flags, S, max_size)`.
fn fdst(raw: &RawInst, max_size: u32) -> FDst {
    FDst {
        dst: dst(raw, max_size),
        sat: raw.get("S") != 0,
    }
}

pub(super) fn compare(raw: &RawInst, float: bool, with_invert: bool) -> Result<Compare> {
    let op = raw.encoding.opcode;
    let ccn = if with_invert { raw.get("ccn") } else { 0 };
    if float {
        Ok(Compare::Float {
            cond: fcond(op, raw.get("cc"), ccn)?,
            a: fsrc(raw, "A", 32)?,
            b: fsrc(raw, "B", 32)?,
        })
    } else {
        Ok(Compare::Int {
            cond: icond(op, raw.get("cc"), ccn)?,
            a: src(raw, "A", 32)?,
            b: src(raw, "B", 32)?,
        })
    }
}

/// Decodes a form of the description's generic path from its operand list.
pub(super) fn generic(raw: &RawInst, operands: &[Operand]) -> Result<Inst> {
    let mut d = None;
    let mut srcs = [super::inst::Src::Imm(0); MAX_SRCS];
    let mut n = 0;
    for operand in operands {
        match *operand {
            Operand::Dst { max_bits } => d = Some(dst(raw, max_bits)),
            Operand::Src {
                value,
                ty,
                ext,
                max_bits,
            } => {
                let v = raw.join(&[ext, value]);
                srcs[n] = alu_src(raw.encoding.opcode, value, v, raw.get(ty), max_bits)?;
                n += 1;
            }
        }
    }
    Ok(Inst::Alu {
        op: raw.encoding.opcode,
        d: d.expect("invariant: a generic form lists its destination (isa crate test)"),
        srcs,
    })
}

/// Decodes the ALU instruction `raw` (which must be one of the opcodes handled here).
pub(super) fn decode(raw: &RawInst) -> Result<Inst> {
    use Opcode::*;
    let op = raw.encoding.opcode;
    Ok(match op {
        MovImm16 => Inst::Mov {
            d: dst(raw, 32),
            imm: raw.get("imm16"),
        },
        MovImm32 => Inst::Mov {
            d: dst(raw, 32),
            imm: raw.get("imm32"),
        },
        GetSr => Inst::GetSr {
            d: dst(raw, 32),
            sr: raw.join(&["SRx", "SR"]) as u8,
        },
        Iadd => Inst::Iadd {
            d: dst(raw, 64),
            a: src(raw, "A", 64)?,
            b: src(raw, "B", 64)?,
            a_sx: raw.get("As") != 0,
            b_sx: raw.get("Bs") != 0,
            neg: raw.get("N") != 0,
            shift: raw.join(&["s2", "s1"]) as u8,
            sat: raw.get("S") != 0,
        },
        Imadd => Inst::Imadd {
            d: dst(raw, 64),
            a: src(raw, "A", 32)?,
            b: src(raw, "B", 32)?,
            c: src(raw, "C", 64)?,
            a_sx: raw.get("As") != 0,
            b_sx: raw.get("Bs") != 0,
            c_sx: raw.get("Cs") != 0,
            neg: raw.get("N") != 0,
            shift: raw.join(&["s2", "s1"]) as u8,
            sat: raw.get("S") != 0,
        },
        Convert => {
            let mode_value = raw.get("mode");
            let mode = ConvertMode::from_code(mode_value)
                .ok_or_else(|| unsupported(op, "mode", mode_value))?;
            let round_value = raw.get("round");
            let round = Round::from_code(round_value)
                .ok_or_else(|| unsupported(op, "round", round_value))?;
            let value = raw.join(&["srcx", "src"]);
            let src = alu_src(op, "src", value, raw.get("srct"), 32)?;
            Inst::Convert {
                d: dst(raw, 32),
                src,
                mode,
                round,
            }
        }
        Bfi | Bfeil | Extr | Shlhi | Shrhi => Inst::Bitfield {
            op: member(BitfieldOp::from_opcode(op)),
            d: dst(raw, 32),
            a: src(raw, "A", 32)?,
            b: src(raw, "B", 32)?,
            c: src(raw, "C", 32)?,
            m: raw.join(&["m3", "m2", "m1"]) as u8,
        },
        Asr | Asrh => Inst::Asr {
            high: op == Asrh,
            d: dst(raw, 32),
            a: src(raw, "A", 32)?,
            b: src(raw, "B", 32)?,
        },
        Bitop => Inst::Bitop {
            d: dst(raw, 32),
            a: src(raw, "A", 32)?,
            b: src(raw, "B", 32)?,
            table: raw.join(&["tt3", "tt2", "tt1", "tt0"]) as u8,
        },
        Fmadd | Fmadd16 => {
            let (p, size) = precision(op == Fmadd16);
            Inst::Fma {
                p,
                d: fdst(raw, size),
                a: fsrc(raw, "A", size)?,
                b: fsrc(raw, "B", size)?,
                c: fsrc(raw, "C", size)?,
            }
        }
        Fadd | Fadd16 => {
            let (p, size) = precision(op == Fadd16);
            Inst::Fadd {
                p,
                d: fdst(raw, size),
                a: fsrc(raw, "A", size)?,
                b: fsrc(raw, "B", size)?,
            }
        }
        Fmul | Fmul16 => {
            let (p, size) = precision(op == Fmul16);
            Inst::Fmul {
                p,
                d: fdst(raw, size),
                a: fsrc(raw, "A", size)?,
                b: fsrc(raw, "B", size)?,
            }
        }
        Floor | Ceil | Trunc | Rint | Rcp | Rsqrt | RsqrtSpecial | SinPt1 | SinPt2 | Log2
        | Exp2 | Dfdx | Dfdy => Inst::FUnary {
            op: member(FUnaryOp::from_opcode(op)),
            d: fdst(raw, 32),
            a: fsrc(raw, "A", 32)?,
        },
        Icmpsel | Fcmpsel => {
            let dt = raw.get("Dt");
            let (xv, xt) = value_flags(raw, "X");
            let (yv, yt) = value_flags(raw, "Y");
            Inst::Select {
                d: dst(raw, 32),
                cmp: compare(raw, op == Fcmpsel, false)?,
                x: cmpsel_src(op, "X", xv, xt, dt)?,
                y: cmpsel_src(op, "Y", yv, yt, dt)?,
            }
        }
        IcmpBallot | IcmpQuadBallot | FcmpBallot | FcmpQuadBallot => Inst::Ballot {
            d: dst(raw, 32),
            cmp: compare(raw, matches!(op, FcmpBallot | FcmpQuadBallot), true)?,
            quad: matches!(op, IcmpQuadBallot | FcmpQuadBallot),
        },
        SimdShuffle | SimdShuffleDown => Inst::Shuffle {
            d: dst(raw, 32),
            a: src(raw, "A", 32)?,
            b: src(raw, "B", 16)?,
            down: op == SimdShuffleDown,
        },
        _ => unreachable!("invariant: decode::alu handles only ALU opcodes"),
    })
}

fn precision(half: bool) -> (Precision, u32) {
    if half {
        (Precision::F16, 16)
    } else {
        (Precision::F32, 32)
    }
}

/// The family member of a form (`BitfieldOp::from_opcode` and the like): the match arm that
/// asks lists exactly the family's forms, so there always is one.
fn member<T>(m: Option<T>) -> T {
    m.expect("invariant: the arm lists the family's forms")
}
