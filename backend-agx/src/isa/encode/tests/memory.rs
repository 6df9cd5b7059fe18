//! Memory, stack and fragment I/O triples. Register runs: the first half and a 32-bit flag,
//! one register per set mask bit (the simulator's `MemoryReg` definition).

use super::{check, h, l, r, r64, t, Triple};
use crate::isa::{
    DeviceAccess, Instr, MemBase, MemFormat, MemOffset, PReg, StackAccess, TgAccess, TgBase,
    TgOffset,
};

pub(super) fn triples() -> Vec<Triple> {
    use Instr::*;
    vec![
        // sample_mask (Mesa's layout, the simulator's table): T Tt 11000001, Sx ? Tx St ? S;
        // T 14:9, Tt 8, S 21:16, St 23 (both set for immediates); 4 bytes.
        // The discard: w0 = 0xc1 | 1<<8 | 1<<9 = 0x03c1; w1 = 0 | 1<<7 = 0x0080 (the
        // simulator's golden `c1038000`).
        t(
            SampleMask {
                targets: 1,
                value: 0,
            },
            "c1038000",
            "sample_mask 1, 0",
        ),
        // The widest immediates: w0 = 0xc1 | 1<<8 | 63<<9 = 0x7fc1; w1 = 5 | 1<<7 = 0x0085.
        t(
            SampleMask {
                targets: 63,
                value: 5,
            },
            "c17f8500",
            "sample_mask 63, 5",
        ),
        // st_tile: ? D Dt 0 001001, F 27:24, rt 34:32, mask 39:36, Dx 61:60; 8 bytes.
        // w0 = 0x09 | 2<<7 = 0x0109; w1 = 2<<8 (i32); w2 = 0xf<<4.
        t(
            StTile {
                src: PReg::vec32(0, 4),
                rt: 0,
                mask: 0b1111,
                format: MemFormat::I32,
            },
            "09010002f0000000",
            "st_tile {r0, r1, r2, r3}, rt 0, 0b1111, i32",
        ),
        // r66l = half 132: D 4, Dx 2; f16 = 3; rt 3, mask 3.
        // w0 = 0x09 | 4<<9 = 0x0809; w1 = 3<<8; w2 = 3 | 3<<4; w3 = 2<<12.
        t(
            StTile {
                src: PReg::vec16(132, 2),
                rt: 3,
                mask: 0b0011,
                format: MemFormat::F16,
            },
            "0908000333000020",
            "st_tile {r66l, r66h}, rt 3, 0b0011, f16",
        ),
        // uniform_store: R 15:10, F 8:7 (i32 = 2), 1000101; Ol 23:20, Ot 24 (immediate),
        // 29:27 = 111; L 47; Rt 49, mask 55:52. r4 = half 8, offset 6 (u3), mask 1:
        // w0 = 0x45 | 2<<7 | 8<<10 = 0x2145; w1 = 6<<4 | 1<<8 | 7<<11 = 0x3960;
        // w2 = L = 0x8000; w3 = Rt<<1 | 1<<4 = 0x0012.
        t(
            UniformStore {
                src: PReg::r32(4),
                offset: 6,
                mask: 1,
                format: MemFormat::I32,
            },
            "4521603900801200",
            "uniform_store r4, 6, i32, 0b0001",
        ),
        // r5h = half 11, i16 = 1, offset 9: w0 = 0x45 | 1<<7 | 11<<10 = 0x2cc5;
        // w1 = 9<<4 | 1<<8 | 7<<11 = 0x3990; w2 = 0x8000; w3 = 1<<4 = 0x0010.
        t(
            UniformStore {
                src: PReg::hi(5),
                offset: 9,
                mask: 1,
                format: MemFormat::I16,
            },
            "c52c903900801000",
            "uniform_store r5h, 9, i16, 0b0001",
        ),
        // ld_var: L D Dt perspective 100001, mask 31:28, index 19:16; 4 bytes short.
        // w0 = 0x21 | 0x40 | 2<<7 | 4<<9 = 0x0961; w1 = 1 | 3<<12.
        t(
            LdVar {
                dst: PReg::vec32(2, 2),
                index: 1,
                mask: 0b0011,
                perspective: true,
            },
            "61090130",
            "ld_var {r2, r3}, 1, 0b0011, perspective",
        ),
        // Long (8 bytes) for Dx: r100 = half 200 (8, Dx 3 at 61:60).
        // w0 = 0x21 | 2<<7 | 8<<9 | L = 0x9121; w1 = 15 | 1<<12; w2 = 0; w3 = 3<<12.
        t(
            LdVar {
                dst: r(100),
                index: 15,
                mask: 0b0001,
                perspective: false,
            },
            "21910f1000000030",
            "ld_var r100, 15, 0b0001",
        ),
        // device_load: R F 0000101 (F 9:7, R 15:10), ? u2 ?? At ? Ou Ot Ol Al,
        // L ??? s Rx Ah Oh, Ox mask ?? Rt Fx. i32 = 2: F 2, Fx 0; base u2_u3: value 4 (Al 4,
        // Ah 0), At 1; offset imm 0, Ot 1; mask 0xf, Rt 1.
        // w0 = 0x05 | 2<<7 = 0x0105; w1 = 4 | 1<<8 | 1<<11 = 0x0904; w2 = L 0x8000;
        // w3 = Rt 1<<1 | mask 0xf<<4 = 0x00f2.
        t(
            DeviceLoad(DeviceAccess {
                data: PReg::vec32(0, 4),
                base: MemBase::Uniform(2),
                offset: MemOffset::Imm(0),
                format: MemFormat::I32,
                mask: 0b1111,
                shift: 0,
                slot: 0,
            }),
            "050104090080f200",
            "device_load {r0, r1, r2, r3}, u2_u3, 0, i32, 0b1111, slot 0",
        ),
        // device_store: opcode 1000101. r5h = half 11 (R 11, Rt 0); i16 = 1; base r8_r9 = half
        // 16 (Al 0, Ah 1, At 0); offset r10 zero-extended: value 20 (Ol 4, Oh 1), Ou 1, Ot 0;
        // s 1; slot 1 (u2, bit 30); mask 1.
        // w0 = 0x45 | 1<<7 | 11<<10 = 0x2cc5; w1 = 4<<4 | 1<<9 | 1<<14 = 0x4240;
        // w2 = 1 | 1<<4 | 1<<10 | L = 0x8411; w3 = 1<<4.
        t(
            DeviceStore(DeviceAccess {
                data: h(5),
                base: MemBase::Reg(r64(8)),
                offset: MemOffset::Reg {
                    reg: r(10),
                    signed: false,
                },
                format: MemFormat::I16,
                mask: 0b0001,
                shift: 1,
                slot: 1,
            }),
            "c52c404211841000",
            "device_store r5h, r8_r9, r10.zx, i16, 0b0001, lsl 1, slot 1",
        ),
        // rgb10a2 = 8 (F 0, Fx 1), always four registers; r70 = half 140 (R 12, Rx 2, Rt 1);
        // base u100 = value 200 (Al 8, Ah 12), At 1; offset -300 = 0xfed4 (Ol 4, Oh 0xd,
        // Ox 0xfe), Ot 1; slot 1. w0 = 0x05 | 12<<10 = 0x3005;
        // w1 = 8 | 4<<4 | 1<<8 | 1<<11 | 1<<14 = 0x4948; w2 = 0xd | 12<<4 | 2<<8 | L = 0x82cd;
        // w3 = 1 | 1<<1 | 0xf<<4 | 0xfe<<8 = 0xfef3.
        t(
            DeviceLoad(DeviceAccess {
                data: PReg::vec32(70, 4),
                base: MemBase::Uniform(100),
                offset: MemOffset::Imm(-300),
                format: MemFormat::Rgb10a2,
                mask: 0b1111,
                shift: 0,
                slot: 1,
            }),
            "05304849cd82f3fe",
            "device_load {r70, r71, r72, r73}, u100_u101, -300, rgb10a2, 0b1111, slot 1",
        ),
        // i8 into r3l (R 6); base r0_r1; signed register offset r2 (value 4: Ol 4), Ou 0; s 2.
        // w0 = 0x05 | 6<<10 = 0x1805; w1 = 4<<4; w2 = 2<<10 | L = 0x8800; w3 = 1<<4.
        t(
            DeviceLoad(DeviceAccess {
                data: l(3),
                base: MemBase::Reg(r64(0)),
                offset: MemOffset::Reg {
                    reg: r(2),
                    signed: true,
                },
                format: MemFormat::I8,
                mask: 0b0001,
                shift: 2,
                slot: 0,
            }),
            "0518400000881000",
            "device_load r3l, r0_r1, r2.sx, i8, 0b0001, lsl 2, slot 0",
        ),
        // stack_store: R F 10110101 (F 9:8), ? i6 ??? i1 ? Ot Ol 0000, L i5 ?? Rx ? i2 Oh,
        // Ox mask Fx Rt ?. r0 (R 0, Rt 1); i32: F 2; offset 4 (Ol 4, Ot 1); mask 1.
        // w0 = 0xb5 | 2<<8 = 0x02b5; w1 = 4<<4 | 1<<8 = 0x0140; w2 = L; w3 = 1<<1 | 1<<4.
        t(
            StackStore(StackAccess {
                data: r(0),
                offset: MemOffset::Imm(4),
                format: MemFormat::I32,
                mask: 0b0001,
            }),
            "b502400100801200",
            "stack_store r0, 4, i32, 0b0001",
        ),
        // stack_load: opcode 00110101. Halves from 160 (R 32, Rx 2), i16 (F 1), offset r3
        // (value 6: Ol 6, Ot 0), mask 0b0111. w0 = 0x35 | 1<<8 | 32<<10 = 0x8135;
        // w1 = 6<<4; w2 = 2<<8 | L = 0x8200; w3 = 7<<4.
        t(
            StackLoad(StackAccess {
                data: PReg::vec16(160, 3),
                offset: MemOffset::Reg {
                    reg: r(3),
                    signed: true,
                },
                format: MemFormat::I16,
                mask: 0b0111,
            }),
            "3581600000827000",
            "stack_load {r80l, r80h, r81l}, r3.sx, i16, 0b0111",
        ),
        // threadgroup_load: L R Rt ? 11 ? 1001 (opcode byte 0x69), mask ? Ot O F At A,
        // ?? Rx Ax Ox ????????. r0 (Rt 1); base r2l = half 4 (At 0); i32 (F 2); offset imm 0
        // (Ot 1); mask 1. w0 = 0x69 | 1<<8 = 0x0169; bits 39:16 = 4 | 2<<8 | 1<<18 | 1<<20
        // = 0x140204; short.
        t(
            ThreadgroupLoad(TgAccess {
                data: r(0),
                base: TgBase::Reg(l(2)),
                offset: TgOffset::Imm(0),
                format: MemFormat::I32,
                mask: 0b0001,
            }),
            "690104021400",
            "threadgroup_load r0, r2l, 0, i32, 0b0001",
        ),
        // threadgroup_store (opcode byte 0x29): r70 = half 140 (R 12, Rx 2, Rt 1); base u200h
        // = half 401 = 256 + 145 (At 3, A 17, Ax 2); offset r3h = half 7 (Ot 0); mask 3.
        // w0 = 0x29 | 1<<8 | 12<<9 | L = 0x9929; bits 39:16 = 17 | 3<<6 | 2<<8 | 7<<12
        // | 3<<20 = 0x3072d1; bits 63:40 = Ax 2<<18 | Rx 2<<20 = 0x280000.
        t(
            ThreadgroupStore(TgAccess {
                data: PReg::vec32(70, 2),
                base: TgBase::Uniform(401),
                offset: TgOffset::Reg(h(3)),
                format: MemFormat::I32,
                mask: 0b0011,
            }),
            "2999d17230000028",
            "threadgroup_store {r70, r71}, u200h, r3h, i32, 0b0011",
        ),
        // Immediate base 64 (At 2: A 0, Ax 1) and offset -2 = 0xfffe (O 0x3e, Ox 0x3ff, Ot 1);
        // halves from 2 (R 2, Rt 0), f16 (F 3), mask 0xf. w0 = 0x69 | 2<<9 | L = 0x8469;
        // bits 39:16 = 2<<6 | 3<<8 | 0x3e<<12 | 1<<18 | 0xf<<20 = 0xf7e380;
        // bits 63:40 = 0x3ff<<8 | 1<<18 = 0x07ff00.
        t(
            ThreadgroupLoad(TgAccess {
                data: PReg::vec16(2, 4),
                base: TgBase::Imm(64),
                offset: TgOffset::Imm(-2),
                format: MemFormat::F16,
                mask: 0b1111,
            }),
            "698480e3f700ff07",
            "threadgroup_load {r1l, r1h, r2l, r2h}, 64, -2, f16, 0b1111",
        ),
    ]
}

#[test]
fn memory_encodings() {
    check(&triples());
}
