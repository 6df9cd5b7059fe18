//! Atomic triples. Layouts from Mesa (`agx_opcodes.py` for the constant bits, `agx_pack.c` for
//! the operand fields; see `encode::atomic`); the bytes are derived by hand below as the low
//! and high 32-bit words (little-endian).

use super::{check, l, r, r64, t, Triple};
use crate::isa::{
    encode, AtomicOpc, DeviceAtomic, EncodeErrorKind, Instr, MemBase, MemOffset, PReg, TgAtomic,
    TgBase, TgOffset,
};

fn dev(
    op: AtomicOpc,
    dst: Option<PReg>,
    value: PReg,
    base: MemBase<PReg>,
    offset: MemOffset<PReg>,
    slot: u8,
) -> Instr<PReg> {
    Instr::DeviceAtomic(DeviceAtomic {
        op,
        dst,
        value,
        base,
        offset,
        slot,
    })
}

fn tg(
    op: AtomicOpc,
    dst: Option<PReg>,
    value: PReg,
    base: TgBase<PReg>,
    offset: TgOffset<PReg>,
) -> Instr<PReg> {
    Instr::ThreadgroupAtomic(TgAtomic {
        op,
        dst,
        value,
        base,
        offset,
    })
}

pub(super) fn triples() -> Vec<Triple> {
    use AtomicOpc::*;
    vec![
        // atomic: 0x15 | 1<<26 | 1<<31 | 5<<44; add = 0 at 9:6; r4 = half 8 at 15:10 with
        // Rt (47); u2_u3 = value 4 at 19:16 with At (27); immediate 3 at 23:20 with Ot (24);
        // slot 1 at 30; r6 = half 12 at 55:48.
        // Low 0x15 + 8<<10 + 4<<16 + 3<<20 + 1<<24 + 1<<26 + 1<<27 + 1<<30 + 1<<31 = 0xcd342015;
        // high 1<<12 + 1<<14 + 1<<15 + 12<<16 = 0x000cd000.
        t(
            dev(
                Add,
                Some(r(4)),
                r(6),
                MemBase::Uniform(2),
                MemOffset::Imm(3),
                1,
            ),
            "152034cd00d00c00",
            "atomic add r4, r6, u2_u3, 3, slot 1",
        ),
        // cmpxchg = 3 (0xc0), no result (R = 0, Rt = 0); base r10_r11 = half 20 (Al 4, Ah 1);
        // offset r3 = half 6 zero-extended (Ou, 25); value {r8, r9} = half 16.
        // Low 0x15 + 0xc0 + 4<<16 + 6<<20 + 1<<25 + 1<<26 + 1<<31 = 0x866400d5;
        // high 1<<4 + 0x5000 + 16<<16 = 0x00105010.
        t(
            dev(
                Cmpxchg,
                None,
                PReg::vec32(8, 2),
                MemBase::Reg(r64(10)),
                MemOffset::Reg {
                    reg: r(3),
                    signed: false,
                },
                0,
            ),
            "d500648610501000",
            "atomic cmpxchg _, {r8, r9}, r10_r11, r3.zx, slot 0",
        ),
        // imax = 7 (0x1c0); r100 = half 200: R 8, Rx 3 (41:40); u0_u1; -2 = 0xfffe: Ol 14,
        // Oh 15 (35:32), Ox 255 (63:56); value r2 = half 4.
        // Low 0x15 + 0x1c0 + 8<<10 + 14<<20 + 1<<24 + 1<<26 + 1<<27 + 1<<31 = 0x8de021d5;
        // high 15 + 3<<8 + 0x5000 + 0x8000 + 4<<16 + 0xff<<24 = 0xff04d30f.
        t(
            dev(
                Imax,
                Some(r(100)),
                r(2),
                MemBase::Uniform(0),
                MemOffset::Imm(-2),
                0,
            ),
            "d521e08d0fd304ff",
            "atomic imax r100, r2, u0_u1, -2, slot 0",
        ),
        // umin = 4 (0x100); r2 = half 4 (4<<10); u6_u7 = value 12 (Al 12, At); offset r5 =
        // half 10, sign-extended (Ou 0, Ot 0); value r12 = half 24.
        // Low 0x15 + 0x100 + 0x1000 + 12<<16 + 10<<20 + 1<<26 + 1<<27 + 1<<31 = 0x8cac1115;
        // high 0x5000 + 0x8000 + 24<<16 = 0x0018d000.
        t(
            dev(
                Umin,
                Some(r(2)),
                r(12),
                MemBase::Uniform(6),
                MemOffset::Reg {
                    reg: r(5),
                    signed: true,
                },
                0,
            ),
            "1511ac8c00d01800",
            "atomic umin r2, r12, u6_u7, r5.sx, slot 0",
        ),
        // local_atomic: 0x19 | 1<<15 | 1<<36 | 1<<47, 10 bytes; add = 0 at 27:24; r4 = half 8
        // at 14:9 with Rt (8) and Ra (38); immediate base 0 (At = 2 at 23:22); index 5 at
        // 33:28 with Ot (34); value r6 = half 12 in bytes 8-9.
        // Low 0x19 + 1<<8 + 8<<9 + 1<<15 + 2<<22 + 5<<28 = 0x50809119;
        // high 1<<2 + 1<<4 + 1<<6 + 1<<15 = 0x00008054; then 0x000c.
        t(
            tg(Add, Some(r(4)), r(6), TgBase::Imm(0), TgOffset::Imm(5)),
            "19918050548000000c00",
            "local_atomic add r4, r6, 0, 5",
        ),
        // cmpxchg = 3, no result; base r1l = half 2 (At 0); index r2h = half 5; value
        // {r10, r11} = half 20.
        // Low 0x19 + 1<<15 + 2<<16 + 3<<24 + 5<<28 = 0x53028019; high 1<<4 + 1<<15; 0x0014.
        t(
            tg(
                Cmpxchg,
                None,
                PReg::vec32(10, 2),
                TgBase::Reg(l(1)),
                TgOffset::Reg(PReg::hi(2)),
            ),
            "19800253108000001400",
            "local_atomic cmpxchg _, {r10, r11}, r1l, r2h",
        ),
        // xor = 10; r100 = half 200 (R 8, Rx 3 at 61:60); uniform half 200 (A 8, Ax 3 at
        // 59:58, At 1); index -1 = 0xffff (O 63, Ox 1023 at 57:48, Ot); value r2 = half 4.
        // Low 0x19 + 1<<8 + 8<<9 + 1<<15 + 8<<16 + 1<<22 + 10<<24 + 15<<28 = 0xfa489119;
        // high 3 + 1<<2 + 1<<4 + 1<<6 + 1<<15 + 1023<<16 + 3<<26 + 3<<28 = 0x3fff8057; 0x0004.
        t(
            tg(
                Xor,
                Some(r(100)),
                r(2),
                TgBase::Uniform(200),
                TgOffset::Imm(-1),
            ),
            "199148fa5780ff3f0400",
            "local_atomic xor r100, r2, u100l, -1",
        ),
        // umax = 6; no result; uniform half 300 (At 3, A 44); index r7l = half 14; value r3 =
        // half 6. Low 0x19 + 1<<15 + 44<<16 + 3<<22 + 6<<24 + 14<<28 = 0xe6ec8019;
        // high 1<<4 + 1<<15; 0x0006.
        t(
            tg(Umax, None, r(3), TgBase::Uniform(300), TgOffset::Reg(l(7))),
            "1980ece6108000000600",
            "local_atomic umax _, r3, u150l, r7l",
        ),
    ]
}

#[test]
fn atomic_triples() {
    check(&triples());
}

#[test]
fn value_operands_are_checked() {
    // cmpxchg needs the pair; the others one 32-bit register; results are 32-bit.
    let single = tg(
        AtomicOpc::Cmpxchg,
        None,
        r(3),
        TgBase::Imm(0),
        TgOffset::Imm(0),
    );
    let err = encode(&single).unwrap_err();
    assert!(matches!(
        err.kind,
        EncodeErrorKind::RegisterCount {
            expected: 2,
            found: 1
        }
    ));
    let half = dev(
        AtomicOpc::Add,
        None,
        l(3),
        MemBase::Uniform(0),
        MemOffset::Imm(0),
        0,
    );
    assert!(matches!(
        encode(&half).unwrap_err().kind,
        EncodeErrorKind::WrongClass { .. }
    ));
    let wide = tg(
        AtomicOpc::Add,
        Some(r64(4)),
        r(3),
        TgBase::Imm(0),
        TgOffset::Imm(0),
    );
    assert!(matches!(
        encode(&wide).unwrap_err().kind,
        EncodeErrorKind::WrongClass { .. }
    ));
}
