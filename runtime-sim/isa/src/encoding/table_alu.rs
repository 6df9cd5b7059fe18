//! ALU encodings: moves, integer arithmetic, shifts and bitfields, bit manipulation, floating
//! point, selects and the SIMD-group/quad instructions (document sections "Move Instructions"
//! through "SIMD Group and Quad Group Instructions").
//!
//! Most ALU forms share one layout: opcode in bits 5:0 or 6:0, `S` (saturate) at 6, `Dt` at 8:7,
//! `D` at 14:9, `L` or a constant at 15, then 12-bit sources from bit 16 (`A` 6 bits, `At` 4 bits,
//! `Am` 2 bits; the next source 12 bits higher), and the two-bit `x` extensions of destination
//! and sources near the top. The half-precision float forms drop the size bit of each source
//! type, so their `At` is 3 bits and `Am` sits one bit lower.

use super::{c, f, Seg};

/// `mov_imm` 16-bit: `L D 0 ? 1100010`, `Dt` spanning bits 8:7 (so bit 8 = 0 forces a 16-bit
/// destination), `imm16`, then `?? Dx ????????????`.
pub(crate) const MOV16: &[Seg] = &[
    c(6, 0, 0b1100010),
    f("Dt", 8, 7),
    c(8, 8, 0),
    f("D", 14, 9),
    f("L", 15, 15),
    f("imm16", 31, 16),
    f("Dx", 45, 44),
];

/// `mov_imm` 32-bit: as the 16-bit form with bit 8 = 1 and a 32-bit immediate.
pub(crate) const MOV32: &[Seg] = &[
    c(6, 0, 0b1100010),
    f("Dt", 8, 7),
    c(8, 8, 1),
    f("D", 14, 9),
    f("L", 15, 15),
    f("imm32", 47, 16),
    f("Dx", 61, 60),
];

/// `get_sr`: `0 D Dt 1110010`, `?? Dx SRx ???? SR`.
pub(crate) const GET_SR: &[Seg] = &[
    c(6, 0, 0b1110010),
    f("Dt", 8, 7),
    f("D", 14, 9),
    c(15, 15, 0),
    f("SR", 21, 16),
    f("SRx", 27, 26),
    f("Dx", 29, 28),
];

/// `iadd`: `0 D Dt S 001110`, `s1 Bs Bt B N As At A`, `?????????? s2 ?????? Dx Ax Bx`.
pub(crate) const IADD: &[Seg] = &[
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
pub(crate) const IMADD: &[Seg] = &[
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
pub(crate) const CONVERT: &[Seg] = &[
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
pub(crate) const BITOP: &[Seg] = &[
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
pub(crate) const FMADD: &[Seg] = &[
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
pub(crate) const FMADD16: &[Seg] = &[
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
pub(crate) const ICMPSEL: &[Seg] = &[
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
pub(crate) const FCMPSEL: &[Seg] = &[
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

pub(crate) const ICMP_BALLOT: &[Seg] = ballot!(0b0110010, false, 1);
pub(crate) const ICMP_QUAD_BALLOT: &[Seg] = ballot!(0b0110010, false, 0);
pub(crate) const FCMP_BALLOT: &[Seg] = ballot!(0b0100010, true, 1);
pub(crate) const FCMP_QUAD_BALLOT: &[Seg] = ballot!(0b0100010, true, 0);
pub(crate) const SHUFFLE: &[Seg] = shuffle!(0b00);
pub(crate) const SHUFFLE_DOWN: &[Seg] = shuffle!(0b11);
