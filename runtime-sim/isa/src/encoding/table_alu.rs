//! ALU encodings: moves, integer arithmetic, shifts and bitfields, bit manipulation, floating
//! point, selects and the SIMD-group/quad instructions (document sections "Move Instructions"
//! through "SIMD Group and Quad Group Instructions").
//!
//! Most ALU forms share one layout: opcode in bits 5:0 or 6:0, `S` (saturate) at 6, `Dt` at 8:7,
//! `D` at 14:9, `L` or a constant at 15, then 12-bit sources from bit 16 (`A` 6 bits, `At` 4 bits,
//! `Am` 2 bits; the next source 12 bits higher), and the two-bit `x` extensions of destination
//! and sources near the top. The half-precision float forms drop the size bit of each source
//! type, so their `At` is 3 bits and `Am` sits one bit lower.

use super::{c, enc, f, Encoding, Length, Opcode, Seg};

/// The 6-byte forms whose `L` bit is shown as the constant 1.
const FIXED6: Length = Length::Fixed(6);
const FIXED4: Length = Length::Fixed(4);
const FIXED8: Length = Length::Fixed(8);
const L4_6: Length = Length::LongBit {
    bit: 15,
    short: 4,
    long: 6,
};
const L6_8: Length = Length::LongBit {
    bit: 15,
    short: 6,
    long: 8,
};
const L8_10: Length = Length::LongBit {
    bit: 15,
    short: 8,
    long: 10,
};

/// `mov_imm` 16-bit: `L D 0 ? 1100010`, `Dt` spanning bits 8:7 (so bit 8 = 0 forces a 16-bit
/// destination), `imm16`, then `?? Dx ????????????`.
const MOV16: &[Seg] = &[
    c(6, 0, 0b1100010),
    f("Dt", 8, 7),
    c(8, 8, 0),
    f("D", 14, 9),
    f("L", 15, 15),
    f("imm16", 31, 16),
    f("Dx", 45, 44),
];

/// `mov_imm` 32-bit: as the 16-bit form with bit 8 = 1 and a 32-bit immediate.
const MOV32: &[Seg] = &[
    c(6, 0, 0b1100010),
    f("Dt", 8, 7),
    c(8, 8, 1),
    f("D", 14, 9),
    f("L", 15, 15),
    f("imm32", 47, 16),
    f("Dx", 61, 60),
];

/// `get_sr`: `0 D Dt 1110010`, `?? Dx SRx ???? SR`.
const GET_SR: &[Seg] = &[
    c(6, 0, 0b1110010),
    f("Dt", 8, 7),
    f("D", 14, 9),
    c(15, 15, 0),
    f("SR", 21, 16),
    f("SRx", 27, 26),
    f("Dx", 29, 28),
];

/// `iadd`: `0 D Dt S 001110`, `s1 Bs Bt B N As At A`, `?????????? s2 ?????? Dx Ax Bx`.
const IADD: &[Seg] = &[
    c(5, 0, 0b001110),
    f("S", 6, 6),
    f("Dt", 8, 7),
    f("D", 14, 9),
    c(15, 15, 0),
    f("A", 21, 16),
    f("At", 25, 22),
    f("As", 26, 26),
    f("N", 27, 27),
    f("B", 33, 28),
    f("Bt", 37, 34),
    f("Bs", 38, 38),
    f("s1", 39, 39),
    f("Bx", 41, 40),
    f("Ax", 43, 42),
    f("Dx", 45, 44),
    f("s2", 53, 52),
];

/// `imadd`: `0 D Dt S 011110`, `s1 Bs Bt B N As At A`, `?? Dx Ax Bx Cx s2 ? Cs Ct C`.
const IMADD: &[Seg] = &[
    c(5, 0, 0b011110),
    f("S", 6, 6),
    f("Dt", 8, 7),
    f("D", 14, 9),
    c(15, 15, 0),
    f("A", 21, 16),
    f("At", 25, 22),
    f("As", 26, 26),
    f("N", 27, 27),
    f("B", 33, 28),
    f("Bt", 37, 34),
    f("Bs", 38, 38),
    f("s1", 39, 39),
    f("C", 45, 40),
    f("Ct", 49, 46),
    f("Cs", 50, 50),
    f("s2", 53, 52),
    f("Cx", 55, 54),
    f("Bx", 57, 56),
    f("Ax", 59, 58),
    f("Dx", 61, 60),
];

/// `convert`: `1 D Dt 0111110`, `00 srct src round 0000 mode`, `?? Dx 00 srcx`.
const CONVERT: &[Seg] = &[
    c(6, 0, 0b0111110),
    f("Dt", 8, 7),
    f("D", 14, 9),
    c(15, 15, 1),
    f("mode", 21, 16),
    c(25, 22, 0),
    f("round", 27, 26),
    f("src", 33, 28),
    f("srct", 37, 34),
    c(39, 38, 0),
    f("srcx", 41, 40),
    c(43, 42, 0),
    f("Dx", 45, 44),
];

/// `bitrev`/`popcount`/`ffs`: `0 D Dt 0111110`, `op AtA` with op in bits 31:26,
/// `?? Dx Ax ?? 00000000`.
macro_rules! bit_unary {
    ($op:expr) => {
        &[
            c(6, 0, 0b0111110),
            f("Dt", 8, 7),
            f("D", 14, 9),
            c(15, 15, 0),
            f("A", 21, 16),
            f("At", 25, 22),
            c(31, 26, $op),
            c(39, 32, 0),
            f("Ax", 43, 42),
            f("Dx", 45, 44),
        ]
    };
}

/// The bitfield family: `b15 D Dt 0101110`, `m1 Bt B op At A` with op in bits 27:26,
/// `m3 ? Dx Ax Bx Cx ?? m2 Ct C`; bit 15 and op tell the members apart.
macro_rules! bitfield {
    ($b15:expr, $op:expr) => {
        &[
            c(6, 0, 0b0101110),
            f("Dt", 8, 7),
            f("D", 14, 9),
            c(15, 15, $b15),
            f("A", 21, 16),
            f("At", 25, 22),
            c(27, 26, $op),
            f("B", 33, 28),
            f("Bt", 37, 34),
            f("m1", 39, 38),
            f("C", 45, 40),
            f("Ct", 49, 46),
            f("m2", 51, 50),
            f("Cx", 55, 54),
            f("Bx", 57, 56),
            f("Ax", 59, 58),
            f("Dx", 61, 60),
            f("m3", 63, 63),
        ]
    };
}

/// `asr`/`asrh`: `1 D Dt 0101110`, `?? Bt B op At A`, `?? Dx Ax Bx ????????????????`.
macro_rules! asr {
    ($op:expr) => {
        &[
            c(6, 0, 0b0101110),
            f("Dt", 8, 7),
            f("D", 14, 9),
            c(15, 15, 1),
            f("A", 21, 16),
            f("At", 25, 22),
            c(27, 26, $op),
            f("B", 33, 28),
            f("Bt", 37, 34),
            f("Bx", 57, 56),
            f("Ax", 59, 58),
            f("Dx", 61, 60),
        ]
    };
}

/// `bitop`: `0 D Dt 1111110`, `tt3 tt2 Bt B tt1 tt0 At A`, `?? Dx Ax Bx`.
const BITOP: &[Seg] = &[
    c(6, 0, 0b1111110),
    f("Dt", 8, 7),
    f("D", 14, 9),
    c(15, 15, 0),
    f("A", 21, 16),
    f("At", 25, 22),
    f("tt0", 26, 26),
    f("tt1", 27, 27),
    f("B", 33, 28),
    f("Bt", 37, 34),
    f("tt2", 38, 38),
    f("tt3", 39, 39),
    f("Bx", 41, 40),
    f("Ax", 43, 42),
    f("Dx", 45, 44),
];

/// `fmadd` (fp32): `L D Dt S 111010`, `Bm Bt B Am At A`, `?? Dx Ax Bx Cx ?? Cm Ct C`.
const FMADD: &[Seg] = &[
    c(5, 0, 0b111010),
    f("S", 6, 6),
    f("Dt", 8, 7),
    f("D", 14, 9),
    f("L", 15, 15),
    f("A", 21, 16),
    f("At", 25, 22),
    f("Am", 27, 26),
    f("B", 33, 28),
    f("Bt", 37, 34),
    f("Bm", 39, 38),
    f("C", 45, 40),
    f("Ct", 49, 46),
    f("Cm", 51, 50),
    f("Cx", 55, 54),
    f("Bx", 57, 56),
    f("Ax", 59, 58),
    f("Dx", 61, 60),
];

/// `fmadd16`: `L D Dt S 110110`, `? Bm Bt B ? Am At A`, `?? Dx Ax Bx Cx ??? Cm Ct C`.
const FMADD16: &[Seg] = &[
    c(5, 0, 0b110110),
    f("S", 6, 6),
    f("Dt", 8, 7),
    f("D", 14, 9),
    f("L", 15, 15),
    f("A", 21, 16),
    f("At", 24, 22),
    f("Am", 26, 25),
    f("B", 33, 28),
    f("Bt", 36, 34),
    f("Bm", 38, 37),
    f("C", 45, 40),
    f("Ct", 48, 46),
    f("Cm", 50, 49),
    f("Cx", 55, 54),
    f("Bx", 57, 56),
    f("Ax", 59, 58),
    f("Dx", 61, 60),
];

/// `fadd`/`fmul` (fp32): `1 D Dt S op`, `Bm Bt B Am At A`, `?? Dx Ax Bx`.
macro_rules! fbin32 {
    ($op:expr) => {
        &[
            c(5, 0, $op),
            f("S", 6, 6),
            f("Dt", 8, 7),
            f("D", 14, 9),
            c(15, 15, 1),
            f("A", 21, 16),
            f("At", 25, 22),
            f("Am", 27, 26),
            f("B", 33, 28),
            f("Bt", 37, 34),
            f("Bm", 39, 38),
            f("Bx", 41, 40),
            f("Ax", 43, 42),
            f("Dx", 45, 44),
        ]
    };
}

/// `fadd16`/`fmul16`: `1 D Dt S op`, `? Bm Bt B ? Am At A`, `?? Dx Ax Bx`.
macro_rules! fbin16 {
    ($op:expr) => {
        &[
            c(5, 0, $op),
            f("S", 6, 6),
            f("Dt", 8, 7),
            f("D", 14, 9),
            c(15, 15, 1),
            f("A", 21, 16),
            f("At", 24, 22),
            f("Am", 26, 25),
            f("B", 33, 28),
            f("Bt", 36, 34),
            f("Bm", 38, 37),
            f("Bx", 41, 40),
            f("Ax", 43, 42),
            f("Dx", 45, 44),
        ]
    };
}

/// The one-source float family: `L D Dt S 001010`, `op Am At A` with op in bits 31:28,
/// `?? Dx Ax op2` with op2 in bits 41:32 (the rounding sub-operation of `floor`..`rint`).
macro_rules! funary {
    ($op:expr, $op2:expr) => {
        &[
            c(5, 0, 0b001010),
            f("S", 6, 6),
            f("Dt", 8, 7),
            f("D", 14, 9),
            f("L", 15, 15),
            f("A", 21, 16),
            f("At", 25, 22),
            f("Am", 27, 26),
            c(31, 28, $op),
            c(41, 32, $op2),
            f("Ax", 43, 42),
            f("Dx", 45, 44),
        ]
    };
}

/// `icmpsel`: `L D Dt 0010010`, `?? Bt B ?? At A`, `cc Yt Y ??? Xt X`,
/// `?? Dx Ax Bx Xx Yx ????`.
const ICMPSEL: &[Seg] = &[
    c(6, 0, 0b0010010),
    f("Dt", 8, 7),
    f("D", 14, 9),
    f("L", 15, 15),
    f("A", 21, 16),
    f("At", 25, 22),
    f("B", 33, 28),
    f("Bt", 37, 34),
    f("X", 45, 40),
    f("Xt", 48, 46),
    f("Y", 57, 52),
    f("Yt", 60, 58),
    f("cc", 63, 61),
    f("Yx", 69, 68),
    f("Xx", 71, 70),
    f("Bx", 73, 72),
    f("Ax", 75, 74),
    f("Dx", 77, 76),
];

/// `fcmpsel`: as `icmpsel` with opcode 0000010 and `Am`/`Bm` modifiers.
const FCMPSEL: &[Seg] = &[
    c(6, 0, 0b0000010),
    f("Dt", 8, 7),
    f("D", 14, 9),
    f("L", 15, 15),
    f("A", 21, 16),
    f("At", 25, 22),
    f("Am", 27, 26),
    f("B", 33, 28),
    f("Bt", 37, 34),
    f("Bm", 39, 38),
    f("X", 45, 40),
    f("Xt", 48, 46),
    f("Y", 57, 52),
    f("Yt", 60, 58),
    f("cc", 63, 61),
    f("Yx", 69, 68),
    f("Xx", 71, 70),
    f("Bx", 73, 72),
    f("Ax", 75, 74),
    f("Dx", 77, 76),
];

/// The ballots: `? D Dt op`, sources as the compare-select forms, then
/// `cc 000000000000 q ccn ? Dx Ax Bx` where `q` (bit 48) is 1 for the SIMD-group ballot and 0
/// for the quad ballot.
macro_rules! ballot {
    ($opcode:expr, $float:expr, $whole:expr) => {
        &[
            c(6, 0, $opcode),
            f("Dt", 8, 7),
            f("D", 14, 9),
            f("A", 21, 16),
            f("At", 25, 22),
            if $float {
                f("Am", 27, 26)
            } else {
                c(27, 26, 0)
            },
            f("B", 33, 28),
            f("Bt", 37, 34),
            if $float {
                f("Bm", 39, 38)
            } else {
                c(39, 38, 0)
            },
            f("Bx", 41, 40),
            f("Ax", 43, 42),
            f("Dx", 45, 44),
            f("ccn", 47, 47),
            c(48, 48, $whole),
            c(60, 49, 0),
            f("cc", 63, 61),
        ]
    };
}

/// The shuffles: `0 D Dt 1101111`, `op Bt B 01 At A` with op in bits 39:38 (00 shuffle,
/// 11 shuffle down), `0 ? Dx Ax Bx`.
macro_rules! shuffle {
    ($op:expr) => {
        &[
            c(6, 0, 0b1101111),
            f("Dt", 8, 7),
            f("D", 14, 9),
            c(15, 15, 0),
            f("A", 21, 16),
            f("At", 25, 22),
            c(27, 26, 0b01),
            f("B", 33, 28),
            f("Bt", 37, 34),
            c(39, 38, $op),
            f("Bx", 41, 40),
            f("Ax", 43, 42),
            f("Dx", 45, 44),
            c(47, 47, 0),
        ]
    };
}

const ICMP_BALLOT: &[Seg] = ballot!(0b0110010, false, 1);
const ICMP_QUAD_BALLOT: &[Seg] = ballot!(0b0110010, false, 0);
const FCMP_BALLOT: &[Seg] = ballot!(0b0100010, true, 1);
const FCMP_QUAD_BALLOT: &[Seg] = ballot!(0b0100010, true, 0);
const SHUFFLE: &[Seg] = shuffle!(0b00);
const SHUFFLE_DOWN: &[Seg] = shuffle!(0b11);

pub(super) static ENCODINGS: &[Encoding] = &[
    enc(Opcode::MovImm16, L4_6, MOV16),
    enc(Opcode::MovImm32, L6_8, MOV32),
    enc(Opcode::GetSr, FIXED4, GET_SR),
    enc(Opcode::Iadd, FIXED8, IADD),
    enc(Opcode::Imadd, FIXED8, IMADD),
    enc(Opcode::Convert, FIXED6, CONVERT),
    enc(Opcode::Bitrev, FIXED6, bit_unary!(0b000001)),
    enc(Opcode::Popcount, FIXED6, bit_unary!(0b000010)),
    enc(Opcode::Ffs, FIXED6, bit_unary!(0b000011)),
    enc(Opcode::Bfi, FIXED8, bitfield!(0, 0b00)),
    enc(Opcode::Bfeil, FIXED8, bitfield!(1, 0b00)),
    enc(Opcode::Extr, FIXED8, bitfield!(0, 0b01)),
    enc(Opcode::Shlhi, FIXED8, bitfield!(0, 0b10)),
    enc(Opcode::Shrhi, FIXED8, bitfield!(1, 0b10)),
    enc(Opcode::Asr, FIXED8, asr!(0b01)),
    enc(Opcode::Asrh, FIXED8, asr!(0b11)),
    enc(Opcode::Bitop, FIXED6, BITOP),
    enc(Opcode::Fmadd, L6_8, FMADD),
    enc(Opcode::Fmadd16, L6_8, FMADD16),
    enc(Opcode::Fadd, FIXED6, fbin32!(0b101010)),
    enc(Opcode::Fadd16, FIXED6, fbin16!(0b100110)),
    enc(Opcode::Fmul, FIXED6, fbin32!(0b011010)),
    enc(Opcode::Fmul16, FIXED6, fbin16!(0b010110)),
    enc(Opcode::Floor, L4_6, funary!(0b0000, 0)),
    enc(Opcode::Ceil, L4_6, funary!(0b0000, 1)),
    enc(Opcode::Trunc, L4_6, funary!(0b0000, 2)),
    enc(Opcode::Rint, L4_6, funary!(0b0000, 3)),
    enc(Opcode::Rcp, L4_6, funary!(0b1000, 0)),
    enc(Opcode::Rsqrt, L4_6, funary!(0b1001, 0)),
    enc(Opcode::RsqrtSpecial, L4_6, funary!(0b0001, 0)),
    enc(Opcode::SinPt1, L4_6, funary!(0b1010, 0)),
    enc(Opcode::SinPt2, L4_6, funary!(0b1110, 0)),
    enc(Opcode::Log2, L4_6, funary!(0b1100, 0)),
    enc(Opcode::Exp2, L4_6, funary!(0b1101, 0)),
    enc(Opcode::Dfdx, L4_6, funary!(0b0100, 0)),
    enc(Opcode::Dfdy, L4_6, funary!(0b0110, 0)),
    enc(Opcode::Icmpsel, L8_10, ICMPSEL),
    enc(Opcode::Fcmpsel, L8_10, FCMPSEL),
    enc(Opcode::IcmpBallot, FIXED8, ICMP_BALLOT),
    enc(Opcode::IcmpQuadBallot, FIXED8, ICMP_QUAD_BALLOT),
    enc(Opcode::FcmpBallot, FIXED8, FCMP_BALLOT),
    enc(Opcode::FcmpQuadBallot, FIXED8, FCMP_QUAD_BALLOT),
    enc(Opcode::SimdShuffle, FIXED6, SHUFFLE),
    enc(Opcode::SimdShuffleDown, FIXED6, SHUFFLE_DOWN),
];
