//! Atomic encodings. The document has no atomics; the layouts are Mesa's:
//! `src/asahi/compiler/agx_opcodes.py` (ops `atomic` and `local_atomic`: the constant bits,
//! their masks and lengths) and `agx_pack.c` (`AGX_OPCODE_ATOMIC`, `AGX_OPCODE_LOCAL_ATOMIC`:
//! the operand fields). Bits Mesa never sets are named `u*`; the typed decoder rejects them
//! when set (`decode::atomic`).

use super::{c, f, Seg};

/// `atomic`: `0x15` in 5:0, `op` 9:6, result `Rx:R` (41:40, 15:10) wanted when `Rt` (47) is
/// set, base `Ah:Al` (39:36, 19:16) of type `At` (27), index `Ox:Oh:Ol` (63:56, 35:32, 23:20)
/// of type `Ot` (24) with `Ou` (25), wait slot `u2` (30, as `device_load`), value register
/// `S` (55:48); bits 26, 31, 44 and 46 are set. Mesa's bit 45 (G13X coherency) is `u5`.
pub(crate) const ATOMIC: &[Seg] = &[
    c(5, 0, 0x15),
    f("op", 9, 6),
    f("R", 15, 10),
    f("Al", 19, 16),
    f("Ol", 23, 20),
    f("Ot", 24, 24),
    f("Ou", 25, 25),
    c(26, 26, 1),
    f("At", 27, 27),
    f("u3", 29, 28),
    f("u2", 30, 30),
    c(31, 31, 1),
    f("Oh", 35, 32),
    f("Ah", 39, 36),
    f("Rx", 41, 40),
    f("u4", 43, 42),
    c(44, 44, 1),
    f("u5", 45, 45),
    c(46, 46, 1),
    f("Rt", 47, 47),
    f("S", 55, 48),
    f("Ox", 63, 56),
];

/// `local_atomic` (always the long form: Mesa sets `L`, bit 15): `0x19` in 5:0, result
/// `Rx:R` (61:60, 14:9) with its 32-bit flag `Rt` (8), wanted when `Ra` (38) is set, base
/// `Ax:A` (59:58, 21:16) of type `At` (23:22, as `threadgroup_load`), `op` 27:24, index
/// `Ox:O` (57:48, 33:28) of type `Ot` (34), bits 36 and 47 set, and the value register's
/// half index `S` in the last 16 bits (79:64).
pub(crate) const LOCAL_ATOMIC: &[Seg] = &[
    c(5, 0, 0x19),
    f("u0", 7, 6),
    f("Rt", 8, 8),
    f("R", 14, 9),
    c(15, 15, 1),
    f("A", 21, 16),
    f("At", 23, 22),
    f("op", 27, 24),
    f("O", 33, 28),
    f("Ot", 34, 34),
    f("u1", 35, 35),
    c(36, 36, 1),
    f("u2", 37, 37),
    f("Ra", 38, 38),
    f("u3", 46, 39),
    c(47, 47, 1),
    f("Ox", 57, 48),
    f("Ax", 59, 58),
    f("Rx", 61, 60),
    f("u4", 63, 62),
    f("S", 79, 64),
];
