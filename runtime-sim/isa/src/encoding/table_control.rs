//! Flow control, execution-mask stack and synchronisation encodings (document sections "Flow
//! Control Instructions", "Execution Mask Stack Instructions", "wait", "threadgroup_barrier").

use super::{c, f, Seg};

/// `stop`, 0x0088 (docs/g13.md: 0x0008 is `trap`, not `stop`).
pub(crate) const STOP: &[Seg] = &[c(15, 0, 0x0088)];
/// `trap`, 0x0008.
pub(crate) const TRAP: &[Seg] = &[c(15, 0, 0x0008)];
/// `ret`: `reg32 ?? 0010100`.
pub(crate) const RET: &[Seg] = &[c(6, 0, 0b0010100), f("reg32", 15, 9)];
/// `call` through a register: `reg32 ?? 0000100`.
pub(crate) const CALL_REG: &[Seg] = &[c(6, 0, 0b0000100), f("reg32", 15, 9)];
/// `jmp_incomplete`: first halfword 0, `00000000 off` above it.
pub(crate) const JMP_INCOMPLETE: &[Seg] = &[c(15, 0, 0), f("off", 23, 16), c(31, 24, 0)];
/// `jmp_exec_any`: 0xc000 then a 32-bit offset.
pub(crate) const JMP_EXEC_ANY: &[Seg] = &[c(15, 0, 0xc000), f("off", 47, 16)];
/// `jmp_exec_none`: 0xc020 then a 32-bit offset.
pub(crate) const JMP_EXEC_NONE: &[Seg] = &[c(15, 0, 0xc020), f("off", 47, 16)];
/// `call` to an immediate offset: 0xc010 then a 32-bit offset.
pub(crate) const CALL_IMM: &[Seg] = &[c(15, 0, 0xc010), f("off", 47, 16)];

/// `pop_exec`: `000 n 11 ? Dt 1010010`, then 32 zero bits.
pub(crate) const POP_EXEC: &[Seg] = &[
    c(6, 0, 0b1010010),
    f("Dt", 7, 7),
    c(10, 9, 0b11),
    f("n", 12, 11),
    c(15, 13, 0),
    c(47, 16, 0),
];

/// The integer exec-stack compare forms: `cc n op ccn Dt 1010010`, `00 Bt B 00 At A`,
/// `?? 00 Ax Bx`; `op` (bits 10:9) is 00 if, 01 else, 10 while.
macro_rules! icmp_stack {
    ($op:expr) => {
        &[
            c(6, 0, 0b1010010),
            f("Dt", 7, 7),
            f("ccn", 8, 8),
            c(10, 9, $op),
            f("n", 12, 11),
            f("cc", 15, 13),
            f("A", 21, 16),
            f("At", 25, 22),
            c(27, 26, 0),
            f("B", 33, 28),
            f("Bt", 37, 34),
            c(39, 38, 0),
            f("Bx", 41, 40),
            f("Ax", 43, 42),
            c(45, 44, 0),
        ]
    };
}

/// The float exec-stack compare forms: as the integer ones with `Am`/`Bm` modifiers in place of
/// the zero bits, and opcode 1000010.
macro_rules! fcmp_stack {
    ($op:expr) => {
        &[
            c(6, 0, 0b1000010),
            f("Dt", 7, 7),
            f("ccn", 8, 8),
            c(10, 9, $op),
            f("n", 12, 11),
            f("cc", 15, 13),
            f("A", 21, 16),
            f("At", 25, 22),
            f("Am", 27, 26),
            f("B", 33, 28),
            f("Bt", 37, 34),
            f("Bm", 39, 38),
            f("Bx", 41, 40),
            f("Ax", 43, 42),
            c(45, 44, 0),
        ]
    };
}

/// `wait`: `??????? i 00111000` (docs/g13.md: `0x38 | slot << 8`).
pub(crate) const WAIT: &[Seg] = &[c(7, 0, 0x38), f("i", 8, 8)];
/// `threadgroup_barrier`: `???????? 01101000`.
pub(crate) const BARRIER: &[Seg] = &[c(7, 0, 0x68)];
