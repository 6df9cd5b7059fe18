//! Integer and bit-manipulation ALU encodings: `mov_imm`, `get_sr`, `iadd`, `imadd`,
//! `convert`, `bitrev`/`popcount`/`ffs`, the bitfield family, `asr`/`asrh`, `bitop`, the
//! compare-and-select forms and `simd_shuffle` (document sections "Move Instructions" ..
//! "SIMD Group and Quad Group Instructions"). Constant bits (the members' sub-operation codes
//! included), field positions and lengths are the shared description's entries
//! (`agxc_g13_isa::encoding`, `table_alu`); operand values follow the section "Operands": a
//! source slot is a 6-bit value, a type and (float forms) a 2-bit modifier, with its 2-bit
//! extension near the top.

use agxc_g13_isa::operands::Operand;
use agxc_g13_isa::Opcode;

use super::bits::Bits;
use super::operand::{alu_dst, alu_src, cmpsel_src, float_src, At, Result, Slot, A, B, D};
use super::Encoded;
use crate::isa::{bitop, Cmp, ConvertMode, Dst, IntSrc, PReg, RegClass, Round, SpecialReg, Src};

/// `mov_imm`: `L D 0 ? 1100010` with `Dt` over bits 8:7 (bit 8 = 0 makes the 16-bit form's
/// destination 16-bit), `imm16`; the 32-bit form has bit 8 = 1 and `imm32`.
pub(super) fn mov_imm(at: At, dst: &Dst<PReg>, imm: u32) -> Result<Encoded> {
    let d = alu_dst(at, "dst", dst, 32)?;
    let mut b;
    if dst.reg.class == RegClass::H16 {
        let imm = at.range("imm", i64::from(imm), 0, 0xffff)?;
        b = Bits::new(Opcode::MovImm16);
        b.set("imm16", imm);
    } else {
        b = Bits::new(Opcode::MovImm32);
        b.set("imm32", imm);
    }
    b.put(&D, d);
    Ok(b.finish())
}

/// `get_sr`: `0 D Dt 1110010`, `?? Dx SRx ???? SR`: the special register number is `SRx:SR`.
pub(super) fn get_sr(at: At, dst: &Dst<PReg>, sr: SpecialReg) -> Result<Encoded> {
    let mut b = Bits::new(Opcode::GetSr);
    b.put(&D, alu_dst(at, "dst", dst, 32)?);
    b.set("SR", sr.number() & 0x3f);
    b.set("SRx", sr.number() >> 6);
    Ok(b.finish())
}

/// The shift `s2:s1` of `iadd`/`imadd`.
fn put_shift(at: At, b: &mut Bits, shift: u8) -> Result<()> {
    let shift = at.range("shift", i64::from(shift), 0, 7)?;
    b.set("s1", shift & 1);
    b.set("s2", shift >> 1);
    Ok(())
}

/// `iadd`: `0 D Dt S 001110`, `s1 Bs Bt B N As At A`,
/// `?????????? s2 ?????? Dx Ax Bx`; 8 bytes, 64-bit destination and sources allowed.
pub(super) fn iadd(
    at: At,
    dst: &Dst<PReg>,
    a: &IntSrc<PReg>,
    b_src: &IntSrc<PReg>,
    neg_b: bool,
    shift: u8,
    sat: bool,
) -> Result<Encoded> {
    let mut b = Bits::new(Opcode::Iadd);
    b.set_bit("S", sat);
    b.put(&D, alu_dst(at, "dst", dst, 64)?);
    b.put(&A, alu_src(at, "a", &a.src, 64)?);
    b.set_bit("As", a.sext);
    b.set_bit("N", neg_b);
    b.put(&B, alu_src(at, "b", &b_src.src, 64)?);
    b.set_bit("Bs", b_src.sext);
    put_shift(at, &mut b, shift)?;
    Ok(b.finish())
}

/// `imadd`: `0 D Dt S 011110`, `s1 Bs Bt B N As At A`, `?? Dx Ax Bx Cx s2 ? Cs Ct C`.
#[allow(clippy::too_many_arguments)] // one per operand of the instruction
pub(super) fn imadd(
    at: At,
    dst: &Dst<PReg>,
    a: &IntSrc<PReg>,
    b_src: &IntSrc<PReg>,
    c: &IntSrc<PReg>,
    neg_c: bool,
    shift: u8,
    sat: bool,
) -> Result<Encoded> {
    let mut b = Bits::new(Opcode::Imadd);
    b.set_bit("S", sat);
    b.put(&D, alu_dst(at, "dst", dst, 64)?);
    b.put(&A, alu_src(at, "a", &a.src, 32)?);
    b.set_bit("As", a.sext);
    b.set_bit("N", neg_c);
    b.put(&B, alu_src(at, "b", &b_src.src, 32)?);
    b.set_bit("Bs", b_src.sext);
    b.put(&super::operand::C, alu_src(at, "c", &c.src, 64)?);
    b.set_bit("Cs", c.sext);
    put_shift(at, &mut b, shift)?;
    Ok(b.finish())
}

/// `convert`: `1 D Dt 0111110`, `00 srct src round 0000 mode`, `?? Dx 00 srcx`
/// (docs/g13.md: `round` is bit 26).
pub(super) fn convert(
    at: At,
    dst: &Dst<PReg>,
    src: &Src<PReg>,
    mode: ConvertMode,
    round: Round,
) -> Result<Encoded> {
    let mut b = Bits::new(Opcode::Convert);
    b.put(&D, alu_dst(at, "dst", dst, 32)?);
    b.set("mode", mode.code());
    b.set("round", round.code());
    let slot = Slot {
        value: "src",
        ty: "srct",
        ext: "srcx",
    };
    b.put(&slot, alu_src(at, "src", src, 32)?);
    Ok(b.finish())
}

/// A form of the description's generic path (`bitrev`/`popcount`/`ffs`, ...): each operand of
/// its list (`agxc_g13_isa::operands`) into the fields the list names.
pub(super) fn generic(
    at: At,
    op: Opcode,
    operands: &[Operand],
    dst: &Dst<PReg>,
    srcs: &[Src<PReg>],
) -> Result<Encoded> {
    let mut b = Bits::new(op);
    let mut srcs = srcs.iter();
    for operand in operands {
        match *operand {
            Operand::Dst { max_bits } => b.put(&D, alu_dst(at, "dst", dst, max_bits)?),
            Operand::Src {
                value,
                ty,
                ext,
                max_bits,
            } => {
                let src = srcs
                    .next()
                    .expect("invariant: Instr::alu_srcs has the operand list's sources");
                b.put(&Slot { value, ty, ext }, alu_src(at, value, src, max_bits)?);
            }
        }
    }
    Ok(b.finish())
}

/// `bfi`, `bfeil`, `extr`, `shlhi`, `shrhi`: `b15 D Dt 0101110`, `m1 Bt B op At A`,
/// `m3 ? Dx Ax Bx Cx ?? m2 Ct C`; bit 15 and `op` (the member's entry) select the member,
/// `m3:m2:m1` is the field width.
#[allow(clippy::too_many_arguments)] // one per operand of the instruction
pub(super) fn bitfield(
    at: At,
    op: Opcode,
    dst: &Dst<PReg>,
    a: &Src<PReg>,
    b_src: &Src<PReg>,
    c: &Src<PReg>,
    mask_bits: u8,
) -> Result<Encoded> {
    let mut b = Bits::new(op);
    b.put(&D, alu_dst(at, "dst", dst, 32)?);
    b.put(&A, alu_src(at, "a", a, 32)?);
    b.put(&B, alu_src(at, "b", b_src, 32)?);
    b.put(&super::operand::C, alu_src(at, "c", c, 32)?);
    let m = at.range("mask_bits", i64::from(mask_bits), 0, 31)?;
    b.set("m1", m & 0b11);
    b.set("m2", (m >> 2) & 0b11);
    b.set("m3", m >> 4);
    Ok(b.finish())
}

/// `asr` (op 01) / `asrh` (op 11): `1 D Dt 0101110`, `?? Bt B op At A`,
/// `?? Dx Ax Bx ????????????????`.
pub(super) fn asr(
    at: At,
    op: Opcode,
    dst: &Dst<PReg>,
    a: &Src<PReg>,
    b_src: &Src<PReg>,
) -> Result<Encoded> {
    let mut b = Bits::new(op);
    b.put(&D, alu_dst(at, "dst", dst, 32)?);
    b.put(&A, alu_src(at, "a", a, 32)?);
    b.put(&B, alu_src(at, "b", b_src, 32)?);
    Ok(b.finish())
}

/// `bitop`: `0 D Dt 1111110`, `tt3 tt2 Bt B tt1 tt0 At A`, `?? Dx Ax Bx`.
pub(super) fn bitop(
    at: At,
    dst: &Dst<PReg>,
    a: &Src<PReg>,
    b_src: &Src<PReg>,
    table: u8,
) -> Result<Encoded> {
    if !bitop::is_defined(table) {
        return Err(at.not_encodable(
            "table",
            "bitop truth table 0b0011 or 0b1100 (or wider than 4 bits) is undefined",
        ));
    }
    let t = u32::from(table);
    let mut b = Bits::new(Opcode::Bitop);
    b.put(&D, alu_dst(at, "dst", dst, 32)?);
    b.put(&A, alu_src(at, "a", a, 32)?);
    b.put(&B, alu_src(at, "b", b_src, 32)?);
    for (i, name) in ["tt0", "tt1", "tt2", "tt3"].into_iter().enumerate() {
        b.set(name, (t >> i) & 1);
    }
    Ok(b.finish())
}

/// `icmpsel` (`0010010`) / `fcmpsel` (`0000010`): `L D Dt op`, `?? Bt B ?? At A` (float:
/// `Bm Bt B Am At A`), `cc Yt Y ??? Xt X`, `?? Dx Ax Bx Xx Yx ????`; 8 bytes short, 10 long.
pub(super) fn select(
    at: At,
    op: Opcode,
    dst: &Dst<PReg>,
    cmp: &Cmp<PReg>,
    x: &Src<PReg>,
    y: &Src<PReg>,
) -> Result<Encoded> {
    let d = alu_dst(at, "dst", dst, 32)?;
    let mut b = Bits::new(op);
    match cmp {
        Cmp::Int { cond, a, b: b_src } => {
            b.put(&A, alu_src(at, "a", a, 32)?);
            b.put(&B, alu_src(at, "b", b_src, 32)?);
            b.set("cc", cond.code());
        }
        Cmp::Float { cond, a, b: b_src } => {
            let (fa, ma) = float_src(at, "a", a, 32)?;
            let (fb, mb) = float_src(at, "b", b_src, 32)?;
            b.put(&A, fa);
            b.set("Am", ma);
            b.put(&B, fb);
            b.set("Bm", mb);
            b.set("cc", cond.code());
        }
    }
    b.put(&D, d);
    let wide = dst.reg.class == RegClass::R32;
    let x_slot = Slot {
        value: "X",
        ty: "Xt",
        ext: "Xx",
    };
    let y_slot = Slot {
        value: "Y",
        ty: "Yt",
        ext: "Yx",
    };
    b.put(&x_slot, cmpsel_src(at, "x", x, wide)?);
    b.put(&y_slot, cmpsel_src(at, "y", y, wide)?);
    Ok(b.finish())
}

/// `simd_shuffle` (document, "simd_shuffle"): `0 D Dt 1101111`, `00 Bt B 01 At A`,
/// `0 ? Dx Ax Bx`; always 6 bytes. `D` is an `ALUDst`, `A` an `ALUSrc` of the destination's
/// width and `B` (the lane) a 16-bit `ALUSrc`, all registers without cache hints.
pub(super) fn simd_shuffle(at: At, dst: PReg, src: PReg, lane: PReg) -> Result<Encoded> {
    let d = alu_dst(at, "dst", &Dst::new(dst), 32)?;
    let a = alu_src(at, "src", &Src::reg(src), 32)?;
    if dst.class != src.class {
        return Err(at.not_encodable("src", "the source must have the destination's width"));
    }
    let lane = alu_src(at, "lane", &Src::reg(lane), 16)?;
    let mut b = Bits::new(Opcode::SimdShuffle);
    b.put(&D, d);
    b.put(&A, a);
    b.put(&B, lane);
    Ok(b.finish())
}
