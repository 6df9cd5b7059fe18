//! Memory, stack, fragment I/O and texture encodings (document section "Memory and Stack
//! Instructions"), plus `sample_mask`, which the document lacks.
//!
//! `uniform_store` comes before `device_store` in match order: the two share their first seven
//! bits, and a `device_store` whose unknown bits 29:28 are both set, whose base is a uniform
//! (`At = 1`) with `Al = Ah = 0`, whose format's top bit is 0 and whose `u5` is 0 reads as a
//! `uniform_store`. Mesa's AGX compiler (`agx_pack.c`) always writes those unknown bits as 0.

use super::{c, f, Seg};

/// `ld_tile`/`st_tile`: `? D Dt load 001001`, `???? F ????????`, `???????? mask u0 rt`,
/// `?? Dx ????????????`. The diagram does not give the widths of `u0` and `rt` in bits 35:32;
/// this table takes `u0` as bit 35 and `rt` (render target) as bits 34:32.
macro_rules! tile {
    ($load:expr) => {
        &[
            c(5, 0, 0b001001),
            c(6, 6, $load),
            f("Dt", 8, 7),
            f("D", 14, 9),
            f("F", 27, 24),
            f("rt", 34, 32),
            f("u0", 35, 35),
            f("mask", 39, 36),
            f("Dx", 61, 60),
        ]
    };
}

/// `ld_var`: `L D Dt perspective 100001`, `mask ???????? index`, 16 unknown bits,
/// `?? Dx ????????????`; the last four bytes are omitted if `L = 0`.
pub(crate) const LD_VAR: &[Seg] = &[
    c(5, 0, 0b100001),
    f("perspective", 6, 6),
    f("Dt", 8, 7),
    f("D", 14, 9),
    f("L", 15, 15),
    f("index", 19, 16),
    f("mask", 31, 28),
    f("Dx", 61, 60),
];

/// `uniform_store`: `R 0 F 1000101`, `?? 111 unk Ot Ol 0000`, `L b s Rx 0000 Oh`,
/// `Ox mask 00 Rt ?`.
pub(crate) const UNIFORM_STORE: &[Seg] = &[
    c(6, 0, 0b1000101),
    f("F", 8, 7),
    c(9, 9, 0),
    f("R", 15, 10),
    c(19, 16, 0),
    f("Ol", 23, 20),
    f("Ot", 24, 24),
    f("unk", 26, 25),
    c(29, 27, 0b111),
    f("Oh", 35, 32),
    c(39, 36, 0),
    f("Rx", 41, 40),
    f("s", 43, 42),
    f("b", 46, 44),
    f("L", 47, 47),
    f("Rt", 49, 49),
    c(51, 50, 0),
    f("mask", 55, 52),
    f("Ox", 63, 56),
];

/// `device_load`/`device_store`: `R F op`, `? u2 ?? At ? Ou Ot Ol Al`, `L ??? s Rx Ah Oh`,
/// `Ox mask ?? Rt Fx`. The unknown bits are named after the later applegpu tables (`u1` bit 26,
/// `u3` bits 29:28, `u4` bits 46:44, `u5` bits 51:50); `u2` (bit 30) is the wait slot
/// (docs/g13.md, "device_load / device_store").
macro_rules! device {
    ($op:expr) => {
        &[
            c(6, 0, $op),
            f("F", 9, 7),
            f("R", 15, 10),
            f("Al", 19, 16),
            f("Ol", 23, 20),
            f("Ot", 24, 24),
            f("Ou", 25, 25),
            f("u1", 26, 26),
            f("At", 27, 27),
            f("u3", 29, 28),
            f("u2", 30, 30),
            f("Oh", 35, 32),
            f("Ah", 39, 36),
            f("Rx", 41, 40),
            f("s", 43, 42),
            f("u4", 46, 44),
            f("L", 47, 47),
            f("Fx", 48, 48),
            f("Rt", 49, 49),
            f("u5", 51, 50),
            f("mask", 55, 52),
            f("Ox", 63, 56),
        ]
    };
}

/// `stack_store`/`stack_load`: `R F op8`, `? i6 ??? i1 ? Ot Ol 0000`, `L i5 ?? Rx ? i2 Oh`,
/// `Ox mask Fx Rt ?`.
macro_rules! stack {
    ($op:expr) => {
        &[
            c(7, 0, $op),
            f("F", 9, 8),
            f("R", 15, 10),
            c(19, 16, 0),
            f("Ol", 23, 20),
            f("Ot", 24, 24),
            f("i1", 26, 26),
            f("i6", 30, 30),
            f("Oh", 35, 32),
            f("i2", 38, 36),
            f("Rx", 41, 40),
            f("i5", 46, 44),
            f("L", 47, 47),
            f("Rt", 49, 49),
            f("Fx", 51, 50),
            f("mask", 55, 52),
            f("Ox", 63, 56),
        ]
    };
}

/// `stack_get_ptr`: `R i0 00110101`, `????? i1 ?????? 0001`, `1 i3 ?? Rx ? i2 ????`,
/// `???????? i4 10`.
pub(crate) const STACK_GET_PTR: &[Seg] = &[
    c(7, 0, 0b00110101),
    f("i0", 9, 8),
    f("R", 15, 10),
    c(19, 16, 0b0001),
    f("i1", 26, 26),
    f("i2", 38, 36),
    f("Rx", 41, 40),
    f("i3", 46, 44),
    c(47, 47, 1),
    c(49, 48, 0b10),
    f("i4", 55, 50),
];

/// `stack_adjust`: `?????? i0 10110101`, `????? i1 01 v1 0001`, `L i3 ????? i2 v2`,
/// `v3 i4 ??`.
pub(crate) const STACK_ADJUST: &[Seg] = &[
    c(7, 0, 0b10110101),
    f("i0", 9, 8),
    c(19, 16, 0b0001),
    f("v1", 23, 20),
    c(25, 24, 0b01),
    f("i1", 26, 26),
    f("v2", 35, 32),
    f("i2", 38, 36),
    f("i3", 46, 44),
    f("L", 47, 47),
    f("i4", 55, 50),
    f("v3", 63, 56),
];

/// `threadgroup_load`/`threadgroup_store`: `L R Rt ? op ? 1001` with op in bits 6:5 (11 load,
/// 01 store), `mask ? Ot O F At A`, `?? Rx Ax Ox ????????`.
macro_rules! threadgroup {
    ($op:expr) => {
        &[
            c(3, 0, 0b1001),
            c(6, 5, $op),
            f("Rt", 8, 8),
            f("R", 14, 9),
            f("L", 15, 15),
            f("A", 21, 16),
            f("At", 23, 22),
            f("F", 27, 24),
            f("O", 33, 28),
            f("Ot", 34, 34),
            f("mask", 39, 36),
            f("Ox", 57, 48),
            f("Ax", 59, 58),
            f("Rx", 61, 60),
        ]
    };
}

/// `texture_sample`/`texture_load`: `L R Rt op8`, `q2 D q1 Ct C`, `q3 n Tt T`,
/// `q5 St S lod mask`, `Ox Sx Ot q6 O Tx Dx Cx Rx q4 U`; the last four bytes are omitted if
/// `L = 0`. Field widths follow the operand order of the diagram and Mesa's AGX packer
/// (`agx_pack.c`, `AGX_OPCODE_TEXTURE_SAMPLE`).
macro_rules! texture {
    ($op:expr) => {
        &[
            c(7, 0, $op),
            f("Rt", 8, 8),
            f("R", 14, 9),
            f("L", 15, 15),
            f("C", 21, 16),
            f("Ct", 22, 22),
            f("q1", 23, 23),
            f("D", 29, 24),
            f("q2", 31, 30),
            f("T", 37, 32),
            f("Tt", 39, 38),
            f("n", 42, 40),
            f("q3", 47, 43),
            f("mask", 51, 48),
            f("lod", 55, 52),
            f("S", 61, 56),
            f("St", 62, 62),
            f("q5", 63, 63),
            f("U", 68, 64),
            f("q4", 71, 69),
            f("Rx", 73, 72),
            f("Cx", 75, 74),
            f("Dx", 77, 76),
            f("Tx", 79, 78),
            f("O", 85, 80),
            f("q6", 90, 86),
            f("Ot", 91, 91),
            f("Sx", 93, 92),
            f("Ox", 95, 94),
        ]
    };
}

/// `image_write` (not in the document; layout from Mesa's `agx_opcodes.py`, `op("image_write",
/// (0xF1 | (1 << 23) | (9 << 43), 0xFF, 6, 8), ...)`, and `agx_pack.c`,
/// `AGX_OPCODE_IMAGE_WRITE`): `Dt D 1 Ct C`, `L R Rt 11110001`, `Cs 1001 n Tt T`, then, in the
/// long form only, `Tx Dx Cx Rx n3 ? rtz U`. Mesa sets `L` exactly when a bit from 48 up is set.
pub(crate) const IMAGE_WRITE: &[Seg] = &[
    c(7, 0, 0b11110001),
    f("Rt", 8, 8),
    f("R", 14, 9),
    f("L", 15, 15),
    f("C", 21, 16),
    f("Ct", 22, 22),
    c(23, 23, 1),
    f("D", 29, 24),
    f("q0", 30, 30),
    f("Dt", 31, 31),
    f("T", 37, 32),
    f("Tt", 39, 38),
    f("n", 42, 40),
    c(46, 43, 0b1001),
    f("Cs", 47, 47),
    f("U", 52, 48),
    f("rtz", 53, 53),
    f("q1", 54, 54),
    f("n3", 55, 55),
    f("Rx", 57, 56),
    f("Cx", 59, 58),
    f("Dx", 61, 60),
    f("Tx", 63, 62),
];

/// `sample_mask` (not in the document; layout from Mesa's `agx_pack.c`,
/// `AGX_OPCODE_SAMPLE_MASK`): `T Tt 11000001`, `Sx ? Tx St ? S` with `St` set for an immediate.
pub(crate) const SAMPLE_MASK: &[Seg] = &[
    c(7, 0, 0b11000001),
    f("Tt", 8, 8),
    f("T", 14, 9),
    f("S", 21, 16),
    c(22, 22, 0),
    f("St", 23, 23),
    f("Tx", 25, 24),
    f("Sx", 29, 28),
];
