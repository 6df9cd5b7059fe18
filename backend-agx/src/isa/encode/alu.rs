//! Integer and bit-manipulation ALU encodings: `mov_imm`, `get_sr`, `iadd`, `imadd`,
//! `convert`, `bitrev`/`popcount`/`ffs`, the bitfield family, `asr`/`asrh`, `bitop` and the
//! compare-and-select forms. Bit positions are the document's diagrams
//! (`seeds/001_9be1231add6061e8.txt`, "Move Instructions" .. "Select Instructions") read
//! with the operand widths of the section "Operands": a source slot is a 6-bit value, a 4-bit
//! type and (float forms) a 2-bit modifier, with its 2-bit extension near the top.

use super::bits::{Bits, Length};
use super::operand::{alu_dst, alu_src, cmpsel_src, dst_slot, float_src, At, Result, SrcSlot};
use super::Encoded;
use crate::isa::{
    bitop, BitUnaryOp, BitfieldOp, Cmp, ConvertMode, Dst, IntSrc, PReg, RegClass, Round,
    SpecialReg, Src,
};

/// Source slot A of the forms whose extensions sit at 43:42 (6-byte forms) ...
const A_SHORT: SrcSlot = SrcSlot {
    value: 16..22,
    ty: 22..26,
    ext: 42..44,
};
/// ... and source slot B there (extension 41:40).
const B_SHORT: SrcSlot = SrcSlot {
    value: 28..34,
    ty: 34..38,
    ext: 40..42,
};
/// Source slots of the 8-byte three-source forms (`imadd`, bitfield, `fmadd`): extensions
/// `Ax` 59:58, `Bx` 57:56, `Cx` 55:54.
pub(super) const A_LONG: SrcSlot = SrcSlot {
    value: 16..22,
    ty: 22..26,
    ext: 58..60,
};
pub(super) const B_LONG: SrcSlot = SrcSlot {
    value: 28..34,
    ty: 34..38,
    ext: 56..58,
};
pub(super) const C_LONG: SrcSlot = SrcSlot {
    value: 40..46,
    ty: 46..50,
    ext: 54..56,
};

/// `mov_imm`: `L D 0 ? 1100010` with `Dt` over bits 8:7 (bit 8 = 0 makes the 16-bit form's
/// destination 16-bit), `imm16` 31:16, `Dx` 45:44; the 32-bit form has bit 8 = 1, `imm32`
/// 47:16 and `Dx` 61:60.
pub(super) fn mov_imm(at: At, dst: &Dst<PReg>, imm: u32) -> Result<Encoded> {
    let d = alu_dst(at, "dst", dst, 32)?;
    let mut b = Bits::new(0b1100010);
    if dst.reg.class == RegClass::H16 {
        let imm = at.range("imm", i64::from(imm), 0, 0xffff)?;
        b.put(&dst_slot(44..46), d);
        b.set_field(16..32, imm);
        Ok(b.finish(Length::LongBit {
            bit: 15,
            short: 4,
            long: 6,
        }))
    } else {
        b.put(&dst_slot(60..62), d);
        b.set_field(16..48, imm);
        Ok(b.finish(Length::LongBit {
            bit: 15,
            short: 6,
            long: 8,
        }))
    }
}

/// `get_sr`: `0 D Dt 1110010`, `?? Dx SRx ???? SR`: `SR` 21:16, `SRx` 27:26, `Dx` 29:28.
pub(super) fn get_sr(at: At, dst: &Dst<PReg>, sr: SpecialReg) -> Result<Encoded> {
    let mut b = Bits::new(0b1110010);
    b.put(&dst_slot(28..30), alu_dst(at, "dst", dst, 32)?);
    b.set_field(16..22, sr.number() & 0x3f);
    b.set_field(26..28, sr.number() >> 6);
    Ok(b.finish(Length::Fixed(4)))
}

/// The shift `s2:s1` of `iadd`/`imadd`: `s1` bit 39, `s2` 53:52.
fn put_shift(at: At, b: &mut Bits, shift: u8) -> Result<()> {
    let shift = at.range("shift", i64::from(shift), 0, 7)?;
    b.set_field(39..40, shift & 1);
    b.set_field(52..54, shift >> 1);
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
    let mut b = Bits::new(0b001110);
    b.set_bit(6, sat);
    b.put(&dst_slot(44..46), alu_dst(at, "dst", dst, 64)?);
    b.put(&A_SHORT, alu_src(at, "a", &a.src, 64)?);
    b.set_bit(26, a.sext);
    b.set_bit(27, neg_b);
    b.put(&B_SHORT, alu_src(at, "b", &b_src.src, 64)?);
    b.set_bit(38, b_src.sext);
    put_shift(at, &mut b, shift)?;
    Ok(b.finish(Length::Fixed(8)))
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
    let mut b = Bits::new(0b011110);
    b.set_bit(6, sat);
    b.put(&dst_slot(60..62), alu_dst(at, "dst", dst, 64)?);
    b.put(&A_LONG, alu_src(at, "a", &a.src, 32)?);
    b.set_bit(26, a.sext);
    b.set_bit(27, neg_c);
    b.put(&B_LONG, alu_src(at, "b", &b_src.src, 32)?);
    b.set_bit(38, b_src.sext);
    b.put(&C_LONG, alu_src(at, "c", &c.src, 64)?);
    b.set_bit(50, c.sext);
    put_shift(at, &mut b, shift)?;
    Ok(b.finish(Length::Fixed(8)))
}

/// `convert`: `1 D Dt 0111110`, `00 srct src round 0000 mode`, `?? Dx 00 srcx`: `mode` 21:16,
/// `round` 27:26 (docs/g13.md: bit 26), `src` 33:28, `srct` 37:34, `srcx` 41:40, `Dx` 45:44.
pub(super) fn convert(
    at: At,
    dst: &Dst<PReg>,
    src: &Src<PReg>,
    mode: ConvertMode,
    round: Round,
) -> Result<Encoded> {
    let mut b = Bits::new(0b0111110 | 1 << 15);
    b.put(&dst_slot(44..46), alu_dst(at, "dst", dst, 32)?);
    b.set_field(16..22, mode.code());
    b.set_field(26..28, round.code());
    b.put(
        &SrcSlot {
            value: 28..34,
            ty: 34..38,
            ext: 40..42,
        },
        alu_src(at, "src", src, 32)?,
    );
    Ok(b.finish(Length::Fixed(6)))
}

/// `bitrev`/`popcount`/`ffs`: `0 D Dt 0111110`, `op At A` with op (1, 2, 3) in 31:26,
/// `?? Dx Ax ?? 00000000`.
pub(super) fn bit_unary(at: At, op: BitUnaryOp, dst: &Dst<PReg>, a: &Src<PReg>) -> Result<Encoded> {
    let mut b = Bits::new(0b0111110);
    b.put(&dst_slot(44..46), alu_dst(at, "dst", dst, 32)?);
    b.put(&A_SHORT, alu_src(at, "a", a, 32)?);
    let code = match op {
        BitUnaryOp::Bitrev => 0b000001,
        BitUnaryOp::Popcount => 0b000010,
        BitUnaryOp::Ffs => 0b000011,
    };
    b.set_field(26..32, code);
    Ok(b.finish(Length::Fixed(6)))
}

/// The bitfield family and `asr`: `b15 D Dt 0101110`, `m1 Bt B op At A`,
/// `m3 ? Dx Ax Bx Cx ?? m2 Ct C`; bit 15 and `op` (27:26) select the member, `m3:m2:m1`
/// (bits 63, 51:50, 39:38) is the field width.
fn bitfield_form(bit15: bool, op: u32) -> Bits {
    let mut b = Bits::new(0b0101110);
    b.set_bit(15, bit15);
    b.set_field(26..28, op);
    b
}

/// `bfi`, `bfeil`, `extr`, `shlhi`, `shrhi`.
#[allow(clippy::too_many_arguments)] // one per operand of the instruction
pub(super) fn bitfield(
    at: At,
    op: BitfieldOp,
    dst: &Dst<PReg>,
    a: &Src<PReg>,
    b_src: &Src<PReg>,
    c: &Src<PReg>,
    mask_bits: u8,
) -> Result<Encoded> {
    let (bit15, code) = match op {
        BitfieldOp::Bfi => (false, 0b00),
        BitfieldOp::Bfeil => (true, 0b00),
        BitfieldOp::Extr => (false, 0b01),
        BitfieldOp::Shlhi => (false, 0b10),
        BitfieldOp::Shrhi => (true, 0b10),
    };
    let mut b = bitfield_form(bit15, code);
    b.put(&dst_slot(60..62), alu_dst(at, "dst", dst, 32)?);
    b.put(&A_LONG, alu_src(at, "a", a, 32)?);
    b.put(&B_LONG, alu_src(at, "b", b_src, 32)?);
    b.put(&C_LONG, alu_src(at, "c", c, 32)?);
    let m = at.range("mask_bits", i64::from(mask_bits), 0, 31)?;
    b.set_field(38..40, m & 0b11);
    b.set_field(50..52, (m >> 2) & 0b11);
    b.set_field(63..64, m >> 4);
    Ok(b.finish(Length::Fixed(8)))
}

/// `asr` (op 01) / `asrh` (op 11): `1 D Dt 0101110`, `?? Bt B op At A`,
/// `?? Dx Ax Bx ????????????????`.
pub(super) fn asr(
    at: At,
    high: bool,
    dst: &Dst<PReg>,
    a: &Src<PReg>,
    b_src: &Src<PReg>,
) -> Result<Encoded> {
    let mut b = bitfield_form(true, if high { 0b11 } else { 0b01 });
    b.put(&dst_slot(60..62), alu_dst(at, "dst", dst, 32)?);
    b.put(&A_LONG, alu_src(at, "a", a, 32)?);
    b.put(&B_LONG, alu_src(at, "b", b_src, 32)?);
    Ok(b.finish(Length::Fixed(8)))
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
    let mut b = Bits::new(0b1111110);
    b.put(&dst_slot(44..46), alu_dst(at, "dst", dst, 32)?);
    b.put(&A_SHORT, alu_src(at, "a", a, 32)?);
    b.put(&B_SHORT, alu_src(at, "b", b_src, 32)?);
    b.set_field(26..28, t & 0b11);
    b.set_field(38..40, t >> 2);
    Ok(b.finish(Length::Fixed(6)))
}

/// `icmpsel` (`0010010`) / `fcmpsel` (`0000010`): `L D Dt op`, `?? Bt B ?? At A` (float:
/// `Bm Bt B Am At A`), `cc Yt Y ??? Xt X`, `?? Dx Ax Bx Xx Yx ????`; 8 bytes short, 10 long.
pub(super) fn select(
    at: At,
    dst: &Dst<PReg>,
    cmp: &Cmp<PReg>,
    x: &Src<PReg>,
    y: &Src<PReg>,
) -> Result<Encoded> {
    let a_slot = SrcSlot {
        value: 16..22,
        ty: 22..26,
        ext: 74..76,
    };
    let b_slot = SrcSlot {
        value: 28..34,
        ty: 34..38,
        ext: 72..74,
    };
    let d = alu_dst(at, "dst", dst, 32)?;
    let mut b = match cmp {
        Cmp::Int { cond, a, b: b_src } => {
            let mut b = Bits::new(0b0010010);
            b.put(&a_slot, alu_src(at, "a", a, 32)?);
            b.put(&b_slot, alu_src(at, "b", b_src, 32)?);
            b.set_field(61..64, cond.code());
            b
        }
        Cmp::Float { cond, a, b: b_src } => {
            let mut b = Bits::new(0b0000010);
            let (fa, ma) = float_src(at, "a", a, 32)?;
            let (fb, mb) = float_src(at, "b", b_src, 32)?;
            b.put(&a_slot, fa);
            b.set_field(26..28, ma);
            b.put(&b_slot, fb);
            b.set_field(38..40, mb);
            b.set_field(61..64, cond.code());
            b
        }
    };
    b.put(&dst_slot(76..78), d);
    let wide = dst.reg.class == RegClass::R32;
    b.put(
        &SrcSlot {
            value: 40..46,
            ty: 46..49,
            ext: 70..72,
        },
        cmpsel_src(at, "x", x, wide)?,
    );
    b.put(
        &SrcSlot {
            value: 52..58,
            ty: 58..61,
            ext: 68..70,
        },
        cmpsel_src(at, "y", y, wide)?,
    );
    Ok(b.finish(Length::LongBit {
        bit: 15,
        short: 8,
        long: 10,
    }))
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
    let mut b = Bits::new(0b1101111);
    b.put(&dst_slot(44..46), d);
    b.put(&A_SHORT, a);
    b.set_field(26..28, 0b01);
    b.put(&B_SHORT, lane);
    Ok(b.finish(Length::Fixed(6)))
}
