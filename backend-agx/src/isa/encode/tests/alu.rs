//! Integer, bit-manipulation, move and select triples.
//!
//! Shared facts used below: `ALUDst` puts `D` (6 bits) at 14:9 and `Dt` at 8:7 (bit 1 = 32-bit,
//! bit 0 = cache); a 32-bit register's value is its even first half (`rN` = `2N`), a 64-bit
//! pair's value is that plus 1. `ALUSrc` types: `0000` immediate, `0110` 32-bit uniform,
//! `0100`/`0101` 16-bit uniform (bit 0 = bit 8 of the half index), `00hh` 16-bit, `10hh`
//! 32-bit, `11hh` 64-bit register, `hh` = 01 none, 10 cache, 11 discard. A plain 32-bit source
//! `rN` is thus value `2N`, type `1001`. Values wider than 6 bits put their top two bits in the
//! operand's `x` field.

use super::{check, d, dc, h, hinted, imm, l, r, r64, s, sx, t, u16u, u32u, zx, Triple};
use crate::isa::{
    bitop, BitfieldOp, Cmp, ConvertMode, FCond, FSrc, Hint, ICond, Instr, Round, SpecialReg,
};
use agxc_g13_isa::Opcode;

pub(super) fn triples() -> Vec<Triple> {
    use Instr::*;
    vec![
        // docs/g13.md reference encodings.
        t(
            MovImm {
                dst: d(l(0)),
                imm: 5,
            },
            "62000500",
            "mov_imm r0l, 5",
        ),
        t(
            MovImm {
                dst: d(r(0)),
                imm: 0x1234_5678,
            },
            "620178563412",
            "mov_imm r0, 0x12345678",
        ),
        // 16-bit long form: r40h is half 81 = D 17, Dx 1; Dt 01 (cache).
        // w0 = 0x62 | 1<<7 | 17<<9 | L<<15 = 0xa2e2; imm16 0xbeef; w2: Dx<<12 (45:44) = 0x1000.
        t(
            MovImm {
                dst: dc(h(40)),
                imm: 0xbeef,
            },
            "e2a2efbe0010",
            "mov_imm r40h.cache, 0xbeef",
        ),
        // 32-bit long form: r100 = half 200 = D 8, Dx 3. w0 = 0x62 | 2<<7 | 8<<9 | L = 0x9162;
        // imm32 7; w3: Dx at 61:60 = 0x3000.
        t(
            MovImm {
                dst: d(r(100)),
                imm: 7,
            },
            "6291070000000030",
            "mov_imm r100, 7",
        ),
        // get_sr: 0 D Dt 1110010. thread_position_in_grid.x = 80: SR 16 (21:16), SRx 1 (27:26).
        // w0 = 0x72 | 2<<7 | 4<<9 = 0x0972; w1 = 16 | 1<<10 = 0x0410.
        t(
            GetSr {
                dst: d(r(2)),
                sr: SpecialReg::ThreadPositionInGridX,
            },
            "72091004",
            "get_sr r2, thread_position_in_grid.x",
        ),
        // r70l = half 140: D 12, Dx 2 (29:28). w0 = 0x72 | 12<<9 = 0x1872; w1 = 52 | 2<<12.
        t(
            GetSr {
                dst: d(l(70)),
                sr: SpecialReg::ThreadIndexInSimdgroup,
            },
            "72183420",
            "get_sr r70l, thread_index_in_simdgroup",
        ),
        // iadd: 0 D Dt S 001110, s1 Bs Bt B N As At A (39:16), Bx 41:40, Ax 43:42, Dx 45:44,
        // s2 53:52. w0 = 0x0e | 2<<7 = 0x010e; bits 39:16 = 2 | 9<<6 | 4<<12 | 9<<18 = 0x244242.
        t(
            Iadd {
                dst: d(r(0)),
                a: zx(s(r(1))),
                b: zx(s(r(2))),
                neg_b: false,
                shift: 0,
                sat: false,
            },
            "0e01424224000000",
            "iadd r0, r1, r2",
        ),
        // 64-bit: dst r4_r5 value 9 (odd) Dt 10: w0 = 0x0e | 0x100 | 9<<9 = 0x130e.
        // A r6_r7.discard: value 12 type 1111; N (27); B r8 value 16 type 1001, Bs (38);
        // shift 2: s1 = 0, s2 = 1. bits 39:16 = 12 | 15<<6 | 1<<11 | 16<<12 | 9<<18 | 1<<22
        // = 0x650bcc; bits 63:48 = s2<<4 = 0x0010.
        t(
            Iadd {
                dst: d(r64(4)),
                a: zx(hinted(r64(6), Hint::Discard)),
                b: sx(s(r(8))),
                neg_b: true,
                shift: 2,
                sat: false,
            },
            "0e13cc0b65001000",
            "iadd r4_r5, r6_r7.discard, r8.sx.neg, lsl 2",
        ),
        // S (bit 6); dst r3l half 6; A r2h.cache half 5 type 0010; B imm 200 = B 8, Bx 3.
        // w0 = 0x0e | 0x40 | 6<<9 = 0x0c4e; bits 39:16 = 5 | 2<<6 | 8<<12 = 0x8085; byte 5 = 3.
        t(
            Iadd {
                dst: d(l(3)),
                a: zx(hinted(h(2), Hint::Cache)),
                b: zx(imm(200)),
                neg_b: false,
                shift: 0,
                sat: true,
            },
            "4e0c858000030000",
            "iadd r3l.sat, r2h.cache, 200",
        ),
        // Uniforms: u5 = half 10 type 0110; u150l = half 300: value 44, type 0101.
        // w0 = 0x0e | 0x100 | 20<<9 = 0x290e; bits 39:16 = 10 | 6<<6 | 44<<12 | 5<<18 = 0x16c18a.
        t(
            Iadd {
                dst: d(r(10)),
                a: zx(u32u(5)),
                b: zx(u16u(300)),
                neg_b: false,
                shift: 0,
                sat: false,
            },
            "0e298ac116000000",
            "iadd r10, u5, u150l",
        ),
        // imadd: ... Cx 55:54, Bx 57:56, Ax 59:58, Dx 61:60, s2 53:52, Cs 50, Ct 49:46, C 45:40.
        // w0 = 0x1e | 0x100 = 0x011e; bits 39:16 = 2 | 9<<6 | As<<10 | 4<<12 | 9<<18 | Bs<<22
        // = 0x644642; bits 63:40 = 6 | 9<<6 = 0x246.
        t(
            Imadd {
                dst: d(r(0)),
                a: sx(s(r(1))),
                b: sx(s(r(2))),
                c: zx(s(r(3))),
                neg_c: false,
                shift: 0,
                sat: false,
            },
            "1e01424664460200",
            "imadd r0, r1.sx, r2.sx, r3",
        ),
        // dst r60_r61.cache: value 121 = D 57, Dx 1, Dt 11: w0 = 0x1e | 3<<7 | 57<<9 = 0x739e.
        // A r70 = half 140: A 12, Ax 2, type 1001; N; B imm 3; C u200 = half 400 = 0x190:
        // value 0x90 = C 16, Cx 2, type 0111, Cs; shift 4: s1 0, s2 2.
        // bits 39:16 = 12 | 9<<6 | 1<<11 | 3<<12 = 0x3a4c;
        // bits 63:40 = 16 | 7<<6 | 1<<10 | 2<<12 | 2<<14 | 2<<18 | 1<<20 = 0x18a5d0.
        t(
            Imadd {
                dst: dc(r64(60)),
                a: zx(s(r(70))),
                b: zx(imm(3)),
                c: sx(u32u(200)),
                neg_c: true,
                shift: 4,
                sat: false,
            },
            "9e734c3a00d0a518",
            "imadd r60_r61.cache, r70, 3, u200.sx.neg, lsl 4",
        ),
        // convert: 1 D Dt 0111110, mode 21:16, round 27:26, src 33:28, srct 37:34, srcx 41:40,
        // Dx 45:44. w0 = 0x3e | 0x100 | 0x8000; bits 39:16 = 9 | 2<<12 | 9<<18 = 0x242009.
        t(
            Convert {
                dst: d(r(0)),
                src: s(r(1)),
                mode: ConvertMode::FToS32,
                round: Round::Rtz,
            },
            "3e8109202400",
            "convert r0, f_to_s32, r1, rtz",
        ),
        // r100h = half 201: D 9, Dx 3; src r90.discard = half 180: 52, srcx 2, type 1011.
        // w0 = 0x3e | 9<<9 | 0x8000 = 0x923e; bits 39:16 = 10 | 1<<10 | 52<<12 | 11<<18
        // = 0x2f440a; byte 5 = srcx | Dx<<4 = 0x32.
        t(
            Convert {
                dst: d(h(100)),
                src: hinted(r(90), Hint::Discard),
                mode: ConvertMode::U32ToF,
                round: Round::Rte,
            },
            "3e920a442f32",
            "convert r100h, u32_to_f, r90.discard, rte",
        ),
        // bitrev/popcount/ffs: 0 D Dt 0111110, op At A (op 31:26), Ax 43:42, Dx 45:44.
        // w0 = 0x013e; w1 = 2 | 9<<6 | 1<<10 = 0x0642.
        t(
            Instr::alu(Opcode::Bitrev, d(r(0)), &[s(r(1))]),
            "3e0142060000",
            "bitrev r0, r1",
        ),
        // r65l = half 130: D 2, Dx 2; r64h = half 129: A 1, Ax 2, type 0001.
        // w0 = 0x3e | 2<<9 = 0x043e; w1 = 1 | 1<<6 | 2<<10 = 0x0841; w2 = 2<<10 | 2<<12.
        t(
            Instr::alu(Opcode::Popcount, d(l(65)), &[s(h(64))]),
            "3e0441080028",
            "popcount r65l, r64h",
        ),
        // w0 = 0x3e | 0x100 | 6<<9 = 0x0d3e; w1 = 7 | 3<<10 = 0x0c07.
        t(
            Instr::alu(Opcode::Ffs, d(r(3)), &[imm(7)]),
            "3e0d070c0000",
            "ffs r3, 7",
        ),
        // Bitfield family: b15 D Dt 0101110, m1 Bt B op At A (39:16), m3 ? Dx Ax Bx Cx ?? m2 Ct C.
        // m = 8: m1 = 0, m2 = 2, m3 = 0. bits 39:16 = 0x244242; bits 63:40 = 6 | 9<<6 | 2<<10.
        t(
            Bitfield {
                op: BitfieldOp::Bfi,
                dst: d(r(0)),
                a: s(r(1)),
                b: s(r(2)),
                c: s(r(3)),
                mask_bits: 8,
            },
            "2e01424224460a00",
            "bfi r0, r1, r2, r3, 8",
        ),
        // bfeil (bit 15 = 1), m = 31: m1 3, m2 3, m3 1. A r6.cache: 12, type 1010; B u7: 14,
        // type 0110; C imm 4. w0 = 0x2e | 0x100 | 10<<9 | 0x8000 = 0x952e;
        // bits 39:16 = 12 | 10<<6 | 14<<12 | 6<<18 | 3<<22 = 0xd8e28c;
        // bits 63:40 = 4 | 3<<10 | 1<<23 = 0x800c04.
        t(
            Bitfield {
                op: BitfieldOp::Bfeil,
                dst: d(r(5)),
                a: hinted(r(6), Hint::Cache),
                b: u32u(7),
                c: imm(4),
                mask_bits: 31,
            },
            "2e958ce2d8040c80",
            "bfeil r5, r6.cache, u7, 4, 31",
        ),
        // extr: op 01 (bit 26). C r6l = half 12, type 0001.
        // bits 39:16 = 4 | 9<<6 | 1<<10 | 8<<12 | 9<<18 = 0x248644; bits 63:40 = 12 | 1<<6.
        t(
            Bitfield {
                op: BitfieldOp::Extr,
                dst: d(r(0)),
                a: s(r(2)),
                b: s(r(4)),
                c: s(l(6)),
                mask_bits: 0,
            },
            "2e014486244c0000",
            "extr r0, r2, r4, r6l, 0",
        ),
        // shlhi: op 10; m = 16: m3 = 1 only. w0 = 0x2e | 0x100 | 2<<9 = 0x052e;
        // bits 39:16 = 2 | 9<<6 | 2<<10 | 4<<12 | 9<<18 = 0x244a42; bits 63:40 = 3 | 1<<23.
        t(
            Bitfield {
                op: BitfieldOp::Shlhi,
                dst: d(r(1)),
                a: s(r(1)),
                b: s(r(2)),
                c: imm(3),
                mask_bits: 16,
            },
            "2e05424a24030080",
            "shlhi r1, r1, r2, 3, 16",
        ),
        // shrhi: the same with bit 15 set.
        t(
            Bitfield {
                op: BitfieldOp::Shrhi,
                dst: d(r(1)),
                a: s(r(1)),
                b: s(r(2)),
                c: imm(3),
                mask_bits: 16,
            },
            "2e85424a24030080",
            "shrhi r1, r1, r2, 3, 16",
        ),
        // asr: 1 D Dt 0101110, ?? Bt B 01 At A. bits 39:16 = 2 | 9<<6 | 1<<10 | 5<<12 = 0x5642.
        t(
            Asr {
                high: false,
                dst: d(r(0)),
                a: s(r(1)),
                b: imm(5),
            },
            "2e81425600000000",
            "asr r0, r1, 5",
        ),
        // asrh (op 11) with extensions: r70 = half 140 (12, x 2), r80 = 160 (32, x 2),
        // r90 = 180 (52, x 2). w0 = 0x2e | 0x100 | 12<<9 | 0x8000 = 0x992e;
        // bits 39:16 = 32 | 9<<6 | 3<<10 | 52<<12 | 9<<18 = 0x274e60;
        // bits 63:40 = Bx 2<<16 | Ax 2<<18 | Dx 2<<20 = 0x2a0000.
        t(
            Asr {
                high: true,
                dst: d(r(70)),
                a: s(r(80)),
                b: s(r(90)),
            },
            "2e99604e2700002a",
            "asrh r70, r80, r90",
        ),
        // bitop: tt3 tt2 Bt B tt1 tt0 At A. xor = 0b0110: tt1 (27), tt2 (38).
        // bits 39:16 = 2 | 9<<6 | 1<<11 | 4<<12 | 9<<18 | 1<<22 = 0x644a42.
        t(
            Bitop {
                dst: d(r(0)),
                a: s(r(1)),
                b: s(r(2)),
                table: bitop::XOR,
            },
            "7e01424a6400",
            "bitop r0, r1, r2, 0b0110",
        ),
        // and = 0b1000: tt3 (39). r64l = half 128 (0, Dx 2); r65h.discard = half 131 (3, Ax 2,
        // type 0011). bits 39:16 = 3 | 3<<6 | 1<<23 = 0x8000c3; byte 5 = Ax<<2 | Dx<<4 = 0x28.
        t(
            Bitop {
                dst: d(l(64)),
                a: hinted(h(65), Hint::Discard),
                b: imm(0),
                table: bitop::AND,
            },
            "7e00c3008028",
            "bitop r64l, r65h.discard, 0, 0b1000",
        ),
        // icmpsel: L D Dt 0010010, ?? Bt B ?? At A, cc Yt Y ??? Xt X (63:40), ?? Dx Ax Bx Xx Yx.
        // CmpselSrc: 0hh register of the destination's width, 100 immediate, 11u uniform.
        // bits 39:16 = 0x244242; bits 63:40 = X 6 | Xt 1<<6 | Yt 4<<18 | cc 1<<21 = 0x300046.
        t(
            Instr::Select {
                dst: d(r(0)),
                cmp: Cmp::Int {
                    cond: ICond::Ult,
                    a: s(r(1)),
                    b: s(r(2)),
                },
                x: s(r(3)),
                y: imm(0),
            },
            "1201424224460030",
            "icmpsel r0, ult, r1, r2, r3, 0",
        ),
        // Long form: dst r100l.cache = half 200 (D 8, Dx 3, Dt 01); A r64h = half 129 (1, Ax 2,
        // type 0001); B u3l = half 6 (type 0100); X u150l = half 300 (44, type 111);
        // Y imm 255 (Y 63, Yx 3, type 100); cc sgt = 6.
        // w0 = 0x12 | 1<<7 | 8<<9 | L = 0x9092; bits 39:16 = 1 | 1<<6 | 6<<12 | 4<<18 = 0x106041;
        // bits 63:40 = 44 | 7<<6 | 63<<12 | 4<<18 | 6<<21 = 0xd3f1ec;
        // bits 79:64 = Yx 3<<4 | Ax 2<<10 | Dx 3<<12 = 0x3830.
        t(
            Instr::Select {
                dst: dc(l(100)),
                cmp: Cmp::Int {
                    cond: ICond::Sgt,
                    a: s(h(64)),
                    b: u16u(6),
                },
                x: u16u(300),
                y: imm(255),
            },
            "9290416010ecf1d33038",
            "icmpsel r100l.cache, sgt, r64h, u3l, u150l, 255",
        ),
        // simd_shuffle (document, "simd_shuffle"): 0 D Dt 1101111, 00 Bt B 01 At A,
        // 0 ? Dx Ax Bx; D 14:9 Dt 8:7, A 21:16 At 25:22, 01 at 27:26, B 33:28 Bt 37:34,
        // Bx 41:40, Ax 43:42, Dx 45:44; 6 bytes. r0, r1 (half 2, At 0b1001), r2l (half 4,
        // Bt 0b0001): w0 = 0x6f | 1<<8 = 0x016f; w1 = 2 | 9<<6 | 1<<10 | 4<<12 = 0x4642;
        // w2 = 1<<2 = 0x0004 (the simulator's golden `6f0142460400`).
        t(
            Instr::SimdShuffle {
                dst: r(0),
                src: r(1),
                lane: l(2),
            },
            "6f0142460400",
            "simd_shuffle r0, r1, r2l",
        ),
        // Extensions: r40 = half 80 (D 16, Dx 1), r70 = half 140 (A 12, Ax 2), r100h =
        // half 201 (B 9, Bx 3). w0 = 0x6f | 1<<8 | 16<<9 = 0x216f;
        // w1 = 12 | 9<<6 | 1<<10 | 9<<12 = 0x964c; w2 = 1<<2 | 3<<8 | 2<<10 | 1<<12 = 0x1b04.
        t(
            Instr::SimdShuffle {
                dst: r(40),
                src: r(70),
                lane: h(100),
            },
            "6f214c96041b",
            "simd_shuffle r40, r70, r100h",
        ),
        // 16-bit: r3l = half 6, r5h = half 11 (At 0b0001), r7l = half 14.
        // w0 = 0x6f | 6<<9 = 0x0c6f; w1 = 11 | 1<<6 | 1<<10 | 14<<12 = 0xe44b; w2 = 0x0004.
        t(
            Instr::SimdShuffle {
                dst: l(3),
                src: h(5),
                lane: l(7),
            },
            "6f0c4be40400",
            "simd_shuffle r3l, r5h, r7l",
        ),
        // fcmpsel: opcode 0000010, Bm Bt B Am At A. ge = 5 (docs/g13.md correction).
        // A r1.abs: Am 1 (27:26); B 0.5 = float immediate 0x20 (32, type 0).
        // bits 39:16 = 2 | 9<<6 | 1<<10 | 32<<12 = 0x020642;
        // bits 63:40 = 4 | 1<<6 | 6<<12 | 1<<18 | 5<<21 = 0xa46044.
        t(
            Instr::Select {
                dst: d(r(0)),
                cmp: Cmp::Float {
                    cond: FCond::Ge,
                    a: FSrc::reg(r(1)).with_abs(),
                    b: FSrc::imm(0x20),
                },
                x: s(r(2)),
                y: s(r(3)),
            },
            "02014206024460a4",
            "fcmpsel r0, ge, r1.abs, 0.5, r2, r3",
        ),
    ]
}

#[test]
fn alu_encodings() {
    check(&triples());
}
