//! Flow control, execution-mask stack and synchronisation triples.

use super::{check, fs, imm, l, r, s, t, u32u, Triple};
use crate::isa::{Cmp, FCond, FSrc, ICond, Instr, JumpTarget, StackOp};

fn stack(
    op: StackOp,
    cmp: Cmp<crate::isa::PReg>,
    invert: bool,
    n: u8,
    cache: bool,
) -> Instr<crate::isa::PReg> {
    Instr::ExecStack {
        op,
        cmp,
        invert,
        n,
        cache,
    }
}

pub(super) fn triples() -> Vec<Triple> {
    use Instr::*;
    vec![
        // docs/g13.md reference encodings.
        t(Wait { slot: 0 }, "3800", "wait 0"),
        t(Stop, "8800", "stop"),
        t(
            stack(
                StackOp::If,
                Cmp::Int {
                    cond: ICond::Seq,
                    a: s(r(1)),
                    b: imm(0),
                },
                false,
                1,
                false,
            ),
            "528842020000",
            "if_icmp r0l, seq, r1, 0, 1",
        ),
        t(
            PopExec { n: 1, cache: false },
            "520e00000000",
            "pop_exec r0l, 1",
        ),
        t(
            JmpExecNone {
                target: JumpTarget::Offset(12),
            },
            "20c00c000000",
            "jmp_exec_none +12",
        ),
        // wait: 0x38 | slot << 8.
        t(Wait { slot: 1 }, "3801", "wait 1"),
        // trap is 0x0008 (docs/g13.md), threadgroup_barrier 0x68.
        t(Trap, "0800", "trap"),
        t(ThreadgroupBarrier, "6800", "threadgroup_barrier"),
        // jmp_exec_any 0xc000, offset -36 = 0xffffffdc.
        t(
            JmpExecAny {
                target: JumpTarget::Offset(-36),
            },
            "00c0dcffffff",
            "jmp_exec_any -36",
        ),
        // call 0xc010, +100.
        t(
            Call {
                target: JumpTarget::Offset(100),
            },
            "10c064000000",
            "call +100",
        ),
        // ret: reg32 ?? 0010100: 0x14 | 1<<9.
        t(Ret { reg: r(1) }, "1402", "ret r1"),
        // pop_exec: 000 n 11 ? Dt 1010010: 0x52 | 1<<7 | 3<<9 | 3<<11 = 0x1ed2.
        t(
            PopExec { n: 3, cache: true },
            "d21e00000000",
            "pop_exec r0l.cache, 3",
        ),
        // cc n op ccn Dt opcode: else (01) float (1000010), n 1: 0x42 | 1<<9 | 1<<11 = 0x0a42.
        t(
            stack(
                StackOp::Else,
                Cmp::Float {
                    cond: FCond::Eq,
                    a: FSrc::imm(0),
                    b: FSrc::imm(0),
                },
                false,
                1,
                false,
            ),
            "420a00000000",
            "else_fcmp r0l, eq, 0.0, 0.0, 1",
        ),
        // The continue idiom: while (10), n 2: 0x52 | 2<<9 | 2<<11 = 0x1452.
        t(
            stack(
                StackOp::While,
                Cmp::Int {
                    cond: ICond::Ueq,
                    a: imm(0),
                    b: imm(0),
                },
                false,
                2,
                false,
            ),
            "521400000000",
            "while_icmp r0l, ueq, 0, 0, 2",
        ),
        // The if idiom on a 16-bit condition: ccn (bit 8), n 1: 0x52 | 1<<8 | 1<<11 = 0x0952;
        // A r1l = half 2, type 0001: w1 = 2 | 1<<6.
        t(
            stack(
                StackOp::If,
                Cmp::Int {
                    cond: ICond::Ueq,
                    a: s(l(1)),
                    b: imm(0),
                },
                true,
                1,
                false,
            ),
            "520942000000",
            "if_icmp r0l, une, r1l, 0, 1",
        ),
        // FCond 6 is less-or-equal (docs/g13.md correction): 0x42 | 1<<11 | 6<<13 = 0xc842.
        t(
            stack(
                StackOp::If,
                Cmp::Float {
                    cond: FCond::Le,
                    a: fs(r(1)),
                    b: fs(r(2)),
                },
                false,
                1,
                false,
            ),
            "42c842422400",
            "if_fcmp r0l, le, r1, r2, 1",
        ),
        // Every field at once: while_fcmp, cache (7), ccn (8), while (10:9 = 10), n 1, cc lt 1:
        // w0 = 0x42 | 0x80 | 0x100 | 0x400 | 0x800 | 0x2000 = 0x2dc2. A r70.abs = half 140
        // (12, Ax 2, type 9, Am 1); B u2.neg = half 4 (type 0110, Bm 2).
        // bits 39:16 = 12 | 9<<6 | 1<<10 | 4<<12 | 6<<18 | 2<<22 = 0x98464c; byte 5 = Ax<<2.
        t(
            stack(
                StackOp::While,
                Cmp::Float {
                    cond: FCond::Lt,
                    a: fs(r(70)).with_abs(),
                    b: FSrc::new(u32u(2)).negated(),
                },
                true,
                1,
                true,
            ),
            "c22d4c469808",
            "while_fcmp r0l.cache, nlt, r70.abs, u2.neg, 1",
        ),
        // else_icmp, sgt inverted (sle): 0x52 | 1<<8 | 1<<9 | 6<<13 = 0xc352;
        // bits 39:16 = 6 | 9<<6 | 8<<12 | 9<<18 = 0x248246.
        t(
            stack(
                StackOp::Else,
                Cmp::Int {
                    cond: ICond::Sgt,
                    a: s(r(3)),
                    b: s(r(4)),
                },
                true,
                0,
                false,
            ),
            "52c346822400",
            "else_icmp r0l, sle, r3, r4, 0",
        ),
    ]
}

#[test]
fn control_encodings() {
    check(&triples());
}
