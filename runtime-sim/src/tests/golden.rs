//! Golden vectors for every instruction: bytes worked out by hand from the seed's bit diagrams
//! (`seeds/001_9be1231add6061e8.txt`), each checked for the decoded form, the named fields and
//! the disassembly.
//!
//! Derivations. Bits are numbered from 0 at the least significant bit of the first byte, and the
//! bytes are written little-endian. Register fields count 16-bit halves (`r1` is 2), so a 32-bit
//! register `rN` has value `2N`; an 8-bit operand value `v` splits into its 6-bit field `v & 63`
//! and 2-bit extension `v >> 6`. Source types: `0b1001` a 32-bit register, `0b0001` a 16-bit one,
//! low bits `10` cache and `11` discard, `0b01x0` a uniform, `0` an 8-bit immediate.
//! For example `fmul32 r2, r3, r4.abs.neg`: opcode 011010 at 5:0, S=0 at 6, Dt=0b10 at 8:7, D=4
//! at 14:9, the constant 1 at 15 -> first halfword 0b1_000100_10_0_011010 = 0x891a; A=6 at 21:16,
//! At=0b1001 at 25:22, Am=0 at 27:26, B=8 at 33:28, Bt=0b1001 at 37:34, Bm=0b11 at 39:38 ->
//! bits 39:16 = 0b11_1001_001000_00_1001_000110 = 0xe48246 -> bytes 1a 89 46 82 e4 00.
//! The other vectors follow the same way from the diagrams quoted in `crate::encoding`; the
//! comment on each names its non-zero fields.

use crate::decode::decode_one;
use crate::encoding::{decode_raw, Opcode};

struct Golden {
    hex: &'static str,
    opcode: Opcode,
    fields: &'static [(&'static str, u32)],
    text: &'static str,
}

fn bytes(hex: &str) -> Vec<u8> {
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("test hex"))
        .collect()
}

#[rustfmt::skip]
const GOLDEN: &[Golden] = &[
    // mov16 long: D=half 75 (D=11, Dx=1), Dt=1 (cache), L=1, imm16=0xbeef.
    Golden { hex: "e296efbe0010", opcode: Opcode::MovImm16, fields: &[("D", 11), ("Dx", 1), ("Dt", 1), ("L", 1), ("imm16", 0xbeef)], text: "mov_imm r37h.cache, 0xbeef" },
    // mov32 long: D=value 200 (D=8, Dx=3), Dt=2, imm32=0xdeadbeef.
    Golden { hex: "6291efbeadde0030", opcode: Opcode::MovImm32, fields: &[("D", 8), ("Dx", 3), ("Dt", 2), ("imm32", 0xdead_beef)], text: "mov_imm r100, 0xdeadbeef" },
    // get_sr: D=4 (r2), SR=80 split SR=16, SRx=1.
    Golden { hex: "72091004", opcode: Opcode::GetSr, fields: &[("D", 4), ("SR", 16), ("SRx", 1)], text: "get_sr r2, thread_position_in_grid.x" },
    // iadd: D=9 with Dt=2 is the 64-bit r4_r5; A=r1 As=1; B=r10 N=1; s1=1, s2=1 (shift 3).
    Golden { hex: "0e13424ea5001000", opcode: Opcode::Iadd, fields: &[("D", 9), ("A", 2), ("As", 1), ("N", 1), ("B", 20), ("s1", 1), ("s2", 1)], text: "iadd r4_r5, r1.sx, r10.neg, lsl 3" },
    // iadd with a 64-bit source: A=value 4 type 0b1101 (64-bit, no hint) is r2_r3; B=imm 1.
    Golden { hex: "0e13441300000000", opcode: Opcode::Iadd, fields: &[("A", 4), ("At", 13), ("B", 1), ("Bt", 0)], text: "iadd r4_r5, r2_r3, 1" },
    // imadd with a 64-bit addend: C=value 12 type 0b1110 (64-bit, cache) is r6_r7.cache.
    Golden { hex: "1e134242248c0300", opcode: Opcode::Imadd, fields: &[("C", 12), ("Ct", 14)], text: "imadd r4_r5, r1, r2, r6_r7.cache" },
    // imadd: S=1, D=r6, A=r2, B=imm 7, C=value 6 type 0b0110 (32-bit uniform u3).
    Golden { hex: "5e19447200860100", opcode: Opcode::Imadd, fields: &[("S", 1), ("D", 12), ("B", 7), ("Bt", 0), ("C", 6), ("Ct", 6)], text: "imadd r6.sat, r2, 7, u3" },
    // convert: D=r3, mode=9 (float to s32), round=0 (rtz), src=r7.
    Golden { hex: "3e8d09e02400", opcode: Opcode::Convert, fields: &[("D", 6), ("mode", 9), ("round", 0), ("src", 14), ("srct", 9)], text: "convert r3, f_to_s32, r7, rtz" },
    Golden { hex: "3e0544060000", opcode: Opcode::Bitrev, fields: &[("D", 2), ("A", 4)], text: "bitrev r1, r2" },
    // popcount: D=half 2 (Dt=0), A=half 7 (At=1).
    Golden { hex: "3e0447080000", opcode: Opcode::Popcount, fields: &[("Dt", 0), ("A", 7), ("At", 1)], text: "popcount r1l, r3h" },
    // ffs: D=value 240 (48, Dx 3), A=value 254 (62, Ax 3).
    Golden { hex: "3e617e0e003c", opcode: Opcode::Ffs, fields: &[("D", 48), ("Dx", 3), ("A", 62), ("Ax", 3)], text: "ffs r120, r127" },
    // The bitfield family: D=r0, A=r1, B=r2, C=imm 4, m2=2 (m = 8); shrhi also m3=1 (m = 24).
    Golden { hex: "2e01424224040800", opcode: Opcode::Bfi, fields: &[("m1", 0), ("m2", 2), ("m3", 0), ("C", 4), ("Ct", 0)], text: "bfi r0, r1, r2, 4, 8" },
    Golden { hex: "2e81424224040800", opcode: Opcode::Bfeil, fields: &[("m2", 2)], text: "bfeil r0, r1, r2, 4, 8" },
    Golden { hex: "2e01424624040800", opcode: Opcode::Extr, fields: &[("m2", 2)], text: "extr r0, r1, r2, 4, 8" },
    Golden { hex: "2e01424a24040800", opcode: Opcode::Shlhi, fields: &[("m2", 2)], text: "shlhi r0, r1, r2, 4, 8" },
    Golden { hex: "2e81424a24040880", opcode: Opcode::Shrhi, fields: &[("m2", 2), ("m3", 1)], text: "shrhi r0, r1, r2, 4, 24" },
    Golden { hex: "2e81423600000000", opcode: Opcode::Asr, fields: &[("A", 2), ("B", 3), ("Bt", 0)], text: "asr r0, r1, 3" },
    Golden { hex: "2e81424e24000000", opcode: Opcode::Asrh, fields: &[("B", 4), ("Bt", 9)], text: "asrh r0, r1, r2" },
    // bitop xor: tt1 = tt2 = 1.
    Golden { hex: "7e01424a6400", opcode: Opcode::Bitop, fields: &[("tt0", 0), ("tt1", 1), ("tt2", 1), ("tt3", 0)], text: "bitop r0, r1, r2, 0b0110" },
    // fmadd short (L=0): S=1, Am=1 (abs), Bm=2 (neg), C=imm 0x30 = 1.0.
    Golden { hex: "7a014246a430", opcode: Opcode::Fmadd, fields: &[("S", 1), ("L", 0), ("Am", 1), ("Bm", 2), ("C", 0x30), ("Ct", 0)], text: "fmadd32 r0.sat, r1.abs, r2.neg, 1.0" },
    // fmadd16: 3-bit types: A=half 2 t1, B=half 3 t3 (discard), C=half 4 t2 (cache).
    Golden { hex: "360042300c84", opcode: Opcode::Fmadd16, fields: &[("A", 2), ("At", 1), ("B", 3), ("Bt", 3), ("C", 4), ("Ct", 2)], text: "fmadd16 r0l, r1l, r1h.discard, r2l.cache" },
    // fadd: D=half 10 (r5l), A=value 4 type 0b0110 (u2), B=imm 0xc0 (B=0, Bx=3) = -2.0.
    Golden { hex: "2a9484010003", opcode: Opcode::Fadd, fields: &[("D", 10), ("At", 6), ("B", 0), ("Bx", 3)], text: "fadd32 r5l, u2, -2.0" },
    // fadd16: D=half 1, A=half 2 Am=1, B=imm 0x20 = 0.5.
    Golden { hex: "268242020200", opcode: Opcode::Fadd16, fields: &[("D", 1), ("Am", 1), ("B", 0x20)], text: "fadd16 r0h, r1l.abs, 0.5" },
    Golden { hex: "1a894682e400", opcode: Opcode::Fmul, fields: &[("D", 4), ("A", 6), ("B", 8), ("Bm", 3)], text: "fmul32 r2, r3, r4.abs.neg" },
    // fmul16: S=1, B=value 3 type 0b100 (16-bit uniform u1h).
    Golden { hex: "568040301000", opcode: Opcode::Fmul16, fields: &[("S", 1), ("B", 3), ("Bt", 4)], text: "fmul16 r0l.sat, r0l, u1h" },
    // The one-source family, r0 <- r1: op in bits 31:28, op2 in 41:32 (long form).
    Golden { hex: "0a014202", opcode: Opcode::Floor, fields: &[("L", 0)], text: "floor r0, r1" },
    Golden { hex: "0a8142020100", opcode: Opcode::Ceil, fields: &[("L", 1)], text: "ceil r0, r1" },
    Golden { hex: "0a8142020200", opcode: Opcode::Trunc, fields: &[], text: "trunc r0, r1" },
    Golden { hex: "0a8142020300", opcode: Opcode::Rint, fields: &[], text: "rint r0, r1" },
    Golden { hex: "0a014282", opcode: Opcode::Rcp, fields: &[], text: "rcp r0, r1" },
    Golden { hex: "0a014292", opcode: Opcode::Rsqrt, fields: &[], text: "rsqrt r0, r1" },
    Golden { hex: "0a014212", opcode: Opcode::RsqrtSpecial, fields: &[], text: "rsqrt_special r0, r1" },
    Golden { hex: "0a0142a2", opcode: Opcode::SinPt1, fields: &[], text: "sin_pt_1 r0, r1" },
    Golden { hex: "0a0142e2", opcode: Opcode::SinPt2, fields: &[], text: "sin_pt_2 r0, r1" },
    Golden { hex: "0a0142c2", opcode: Opcode::Log2, fields: &[], text: "log2 r0, r1" },
    Golden { hex: "0a0142d2", opcode: Opcode::Exp2, fields: &[], text: "exp2 r0, r1" },
    Golden { hex: "0a014242", opcode: Opcode::Dfdx, fields: &[], text: "dfdx r0, r1" },
    Golden { hex: "0a014262", opcode: Opcode::Dfdy, fields: &[], text: "dfdy r0, r1" },
    // rcp long: S=1, D=value 128 (D=0, Dx=2).
    Golden { hex: "4a8142820020", opcode: Opcode::Rcp, fields: &[("S", 1), ("Dx", 2), ("L", 1)], text: "rcp r64.sat, r1" },
    Golden { hex: "1402", opcode: Opcode::Ret, fields: &[("reg32", 1)], text: "ret r1" },
    Golden { hex: "040a", opcode: Opcode::CallReg, fields: &[("reg32", 5)], text: "call r5" },
    Golden { hex: "8800", opcode: Opcode::Stop, fields: &[], text: "stop" },
    Golden { hex: "0800", opcode: Opcode::Trap, fields: &[], text: "trap" },
    Golden { hex: "00000800", opcode: Opcode::JmpIncomplete, fields: &[("off", 8)], text: "jmp_incomplete +8" },
    // jmp_exec_any -24: off = 0xffffffe8.
    Golden { hex: "00c0e8ffffff", opcode: Opcode::JmpExecAny, fields: &[("off", 0xffff_ffe8)], text: "jmp_exec_any -24" },
    Golden { hex: "20c00c000000", opcode: Opcode::JmpExecNone, fields: &[("off", 12)], text: "jmp_exec_none +12" },
    Golden { hex: "10c064000000", opcode: Opcode::CallImm, fields: &[("off", 100)], text: "call +100" },
    Golden { hex: "521600000000", opcode: Opcode::PopExec, fields: &[("n", 2), ("Dt", 0)], text: "pop_exec r0l, 2" },
    // if_icmp: cc=0b001 (unsigned <), n=1, A=r2, B=imm 10.
    Golden { hex: "522844a20000", opcode: Opcode::IfIcmp, fields: &[("cc", 1), ("ccn", 0), ("n", 1), ("A", 4), ("B", 10)], text: "if_icmp r0l, ult, r2, 10, 1" },
    // else_icmp: cc=0b100 (signed ==), ccn=1, A=half 6, B=half 7.
    Golden { hex: "528b46700400", opcode: Opcode::ElseIcmp, fields: &[("cc", 4), ("ccn", 1), ("A", 6), ("At", 1), ("B", 7)], text: "else_icmp r0l, sne, r3l, r3h, 1" },
    Golden { hex: "52d442422400", opcode: Opcode::WhileIcmp, fields: &[("cc", 6), ("n", 2)], text: "while_icmp r0l, sgt, r1, r2, 2" },
    // if_fcmp: cc=0b101, which docs/g13.md corrects to >=.
    Golden { hex: "42a842020200", opcode: Opcode::IfFcmp, fields: &[("cc", 5), ("B", 0x20)], text: "if_fcmp r0l, ge, r1, 0.5, 1" },
    Golden { hex: "420a00000000", opcode: Opcode::ElseFcmp, fields: &[("cc", 0), ("n", 1)], text: "else_fcmp r0l, eq, 0.0, 0.0, 1" },
    // while_fcmp: Dt=1 (cache), ccn=1, cc=0b110 (<= after docs/g13.md), Am=2 (neg).
    Golden { hex: "c2cd424a2400", opcode: Opcode::WhileFcmp, fields: &[("Dt", 1), ("ccn", 1), ("cc", 6), ("Am", 2)], text: "while_fcmp r0l.cache, nle, r1.neg, r2, 1" },
    // icmpsel short: cc=0b101 (signed <), X=value 6 type 1 (r3), Y=imm 7 (type 0b100).
    Golden { hex: "12014242244670b0", opcode: Opcode::Icmpsel, fields: &[("cc", 5), ("X", 6), ("Xt", 1), ("Y", 7), ("Yt", 4), ("L", 0)], text: "icmpsel r0, slt, r1, r2, r3, 7" },
    // fcmpsel long: D=half 140 (D=12, Dx=2), X=value 0x90 type 0b111 (16-bit uniform 400 = u200l),
    // Y=half 4 type 3 (discard), cc=3 (< with NaN losing).
    Golden { hex: "0298423004d0416c8020", opcode: Opcode::Fcmpsel, fields: &[("Dx", 2), ("X", 0x10), ("Xx", 2), ("Xt", 7), ("Yt", 3), ("cc", 3), ("L", 1)], text: "fcmpsel r70l, ltn, r1l, r1h, u200l, r2l.discard" },
    Golden { hex: "3201420200000100", opcode: Opcode::IcmpBallot, fields: &[("cc", 0), ("ccn", 0)], text: "icmp_ballot r0, ueq, r1, 0" },
    Golden { hex: "3201420200800000", opcode: Opcode::IcmpQuadBallot, fields: &[("ccn", 1)], text: "icmp_quad_ballot r0, une, r1, 0" },
    Golden { hex: "2201424224000120", opcode: Opcode::FcmpBallot, fields: &[("cc", 1)], text: "fcmp_ballot r0, lt, r1, r2" },
    Golden { hex: "2201420203800040", opcode: Opcode::FcmpQuadBallot, fields: &[("cc", 2), ("ccn", 1), ("B", 0x30)], text: "fcmp_quad_ballot r0, ngt, r1, 1.0" },
    Golden { hex: "6f0142460400", opcode: Opcode::SimdShuffle, fields: &[("B", 4), ("Bt", 1)], text: "simd_shuffle r0, r1, r2l" },
    Golden { hex: "6f014216c000", opcode: Opcode::SimdShuffleDown, fields: &[("B", 1), ("Bt", 0)], text: "simd_shuffle_down r0, r1, 1" },
    Golden { hex: "3801", opcode: Opcode::Wait, fields: &[("i", 1)], text: "wait 1" },
    Golden { hex: "6800", opcode: Opcode::ThreadgroupBarrier, fields: &[], text: "threadgroup_barrier" },
    // st_tile: D=r0 (Dt=2), F=2 (i32), rt=1, mask=0b1111.
    Golden { hex: "09010002f1000000", opcode: Opcode::StTile, fields: &[("F", 2), ("rt", 1), ("mask", 15)], text: "st_tile {r0, r1, r2, r3}, rt 1, 0b1111, i32" },
    // ld_tile: load bit 6, D=half 8 (Dt=0), F=3 (f16), mask=1.
    Golden { hex: "4910000310000000", opcode: Opcode::LdTile, fields: &[("D", 8), ("F", 3), ("mask", 1)], text: "ld_tile r4l, rt 0, 0b0001, f16" },
    // ld_var short: D=r4, index=2, mask=0b0011.
    Golden { hex: "21110230", opcode: Opcode::LdVar, fields: &[("D", 8), ("index", 2), ("mask", 3), ("L", 0)], text: "ld_var {r4, r5}, 2, 0b0011" },
    // ld_var long: perspective=1, D=half 140 (D=12, Dx=2), index=1, mask=0b0100.
    Golden { hex: "6198014000000020", opcode: Opcode::LdVar, fields: &[("perspective", 1), ("Dx", 2), ("index", 1), ("mask", 4)], text: "ld_var r70l, 1, 0b0100, perspective" },
    // uniform_store: F=1 (i16), R=half 4, Ol=8 with Ot=1 (immediate 8), L=1, mask=0b0011.
    Golden { hex: "c510803900803000", opcode: Opcode::UniformStore, fields: &[("F", 1), ("R", 4), ("Ol", 8), ("Ot", 1), ("mask", 3)], text: "uniform_store {r2l, r2h}, 8, i16, 0b0011" },
    // device_load: F=2 (i32), R=0 Rt=1, Al=8 At=1 (u4_u5), O=0x123 (Ol=3, Oh=2, Ox=1) Ot=1, u2=1.
    Golden { hex: "050138490280f201", opcode: Opcode::DeviceLoad, fields: &[("F", 2), ("Rt", 1), ("Al", 8), ("At", 1), ("Ol", 3), ("Oh", 2), ("Ox", 1), ("u2", 1), ("mask", 15)], text: "device_load {r0, r1, r2, r3}, u4_u5, 291, i32, 0b1111, slot 1" },
    // device_store: F=4 (unorm8), R=half 10, Ah=1 At=0 (r8_r9), O=r2 (value 4, Ot=0) Ou=1, s=1.
    Golden { hex: "452a400210841000", opcode: Opcode::DeviceStore, fields: &[("F", 4), ("R", 10), ("Ah", 1), ("Ou", 1), ("s", 1), ("mask", 1)], text: "device_store r5l, r8_r9, r2.zx, unorm8, 0b0001, lsl 1, slot 0" },
    // device_load rg11b10f: format 12 = Fx:F = 1:0b100; three 32-bit registers from r4.
    Golden { hex: "0522040100801300", opcode: Opcode::DeviceLoad, fields: &[("F", 4), ("Fx", 1), ("R", 8), ("Al", 4)], text: "device_load {r4, r5, r6}, r2_r3, 0, rg11b10f, 0b0001, slot 0" },
    // stack_store / stack_load: F=2 (i32), R=value 6 Rt=1 (r3), Oh=1 Ot=1 (immediate 16).
    Golden { hex: "b51a000101801200", opcode: Opcode::StackStore, fields: &[("F", 2), ("R", 6), ("Oh", 1), ("Ot", 1), ("Rt", 1)], text: "stack_store r3, 16, i32, 0b0001" },
    Golden { hex: "351a000101801200", opcode: Opcode::StackLoad, fields: &[("F", 2), ("R", 6)], text: "stack_load r3, 16, i32, 0b0001" },
    Golden { hex: "3548010000800200", opcode: Opcode::StackGetPtr, fields: &[("R", 18)], text: "stack_get_ptr r9" },
    // stack_adjust: v = 0xffe0 = -32 (v1=0, v2=0xe, v3=0xff).
    Golden { hex: "b50001010e8000ff", opcode: Opcode::StackAdjust, fields: &[("v1", 0), ("v2", 14), ("v3", 255)], text: "stack_adjust -32" },
    // threadgroup_load short: Rt=1 R=0, A=half 4 At=0, F=2, O=imm 4 (Ot=1), mask=0b0011.
    Golden { hex: "690104423400", opcode: Opcode::ThreadgroupLoad, fields: &[("Rt", 1), ("A", 4), ("At", 0), ("F", 2), ("O", 4), ("Ot", 1), ("mask", 3)], text: "threadgroup_load {r0, r1}, r2l, 4, i32, 0b0011" },
    // threadgroup_store: R=half 6, At=2 (immediate base 0), O=half 2 (Ot=0), F=1.
    Golden { hex: "290c80211000", opcode: Opcode::ThreadgroupStore, fields: &[("R", 6), ("At", 2), ("O", 2), ("Ot", 0), ("F", 1)], text: "threadgroup_store r3l, 0, r1l, i16, 0b0001" },
    // texture_sample short: Rt=1, C=value 8 (r4), T=1, n=2 (2D), mask=15, S=2.
    Golden { hex: "3101080001020f02", opcode: Opcode::TextureSample, fields: &[("Rt", 1), ("C", 8), ("T", 1), ("n", 2), ("mask", 15), ("S", 2), ("lod", 0)], text: "texture_sample {r0, r1, r2, r3}, {r4, r5}, tex 1, samp 2, 2d, auto, 0b1111, slot 0" },
    // texture_sample long: Rt=0, C=value 20 Ct=1 q1=1 (compare), D=value 40 (r20), T=half 2 Tt=1,
    // n=3 (2D array), mask=3, lod=6, q5=1 (slot 1), O=value 60 (r30) with Ot=1 (offset).
    Golden { hex: "3180d4284203638000003c08", opcode: Opcode::TextureSample, fields: &[("C", 20), ("Ct", 1), ("q1", 1), ("D", 40), ("Tt", 1), ("n", 3), ("lod", 6), ("q5", 1), ("O", 60), ("Ot", 1)], text: "texture_sample {r0l, r0h}, {r10, r11, r12}.discard, tex r1l, samp 0, 2d_array, lod r20, compare r30, offset r31, 0b0011, slot 1" },
    Golden { hex: "7101080c00026f00", opcode: Opcode::TextureLoad, fields: &[("D", 12), ("lod", 6)], text: "texture_load {r0, r1, r2, r3}, {r4, r5}, tex 0, samp 0, 2d, lod r6, 0b1111, slot 0" },
    // texture_sample with every extension: R=value 128 (Rx=2), C=value 200 (Cx=3), D=value 160 (Dx=2),
    // T=65 (Tx=1), S=130 (Sx=2), n=7 (cube array), lod=4 (gradients).
    Golden { hex: "3181082001074102006e0020", opcode: Opcode::TextureSample, fields: &[("Rx", 2), ("Cx", 3), ("Dx", 2), ("Tx", 1), ("Sx", 2), ("n", 7), ("lod", 4)], text: "texture_sample r64, {r100, r101, r102, r103}, tex 65, samp 130, cube_array, grad r80, 0b0001, slot 0" },
    // sample_mask (Mesa's layout): immediates T=1 (Tt=1), S=0 (St=1); then registers r2l, r3l.
    Golden { hex: "c1038000", opcode: Opcode::SampleMask, fields: &[("Tt", 1), ("T", 1), ("St", 1), ("S", 0)], text: "sample_mask 1, 0" },
    Golden { hex: "c1080600", opcode: Opcode::SampleMask, fields: &[("Tt", 0), ("T", 4), ("S", 6)], text: "sample_mask r2l, r3l" },
    // atomic (Mesa's layout; constant 0x15 and bits 26, 31, 44, 46): op add=0; R=8 (r4) with Rt=1
    // (bit 47); Al=4 (u2_u3) with At=1; Ol=3 with Ot=1; slot bit 30; S=12 (r6) at 55:48.
    // Low word 0x15|8<<10|4<<16|3<<20|1<<24|1<<26|1<<27|1<<30|1<<31 = 0xcd342015; high word
    // 1<<12|1<<14|1<<15|12<<16 = 0x000cd000.
    Golden { hex: "152034cd00d00c00", opcode: Opcode::Atomic, fields: &[("op", 0), ("R", 8), ("Rt", 1), ("Al", 4), ("At", 1), ("Ol", 3), ("Ot", 1), ("u2", 1), ("S", 12)], text: "atomic add r4, r6, u2_u3, 3, slot 1" },
    // cmpxchg=3 (0xc0), no result; base r10_r11 (value 20: Al=4, Ah=1, At=0); offset r3 (Ol=6)
    // zero-extended (Ou, bit 25); S=16 (r8, r9). Low 0x866400d5, high 0x10|0x5000|16<<16.
    Golden { hex: "d500648610501000", opcode: Opcode::Atomic, fields: &[("op", 3), ("Rt", 0), ("Al", 4), ("Ah", 1), ("Ou", 1), ("Ol", 6), ("S", 16)], text: "atomic cmpxchg _, {r8, r9}, r10_r11, r3.zx, slot 0" },
    // imax=7; R=value 200 (r100: R=8, Rx=3); u0_u1; offset -2 = 0xfffe (Ol=14, Oh=15, Ox=255).
    Golden { hex: "d521e08d0fd304ff", opcode: Opcode::Atomic, fields: &[("op", 7), ("R", 8), ("Rx", 3), ("Ol", 14), ("Oh", 15), ("Ox", 255), ("S", 4)], text: "atomic imax r100, r2, u0_u1, -2, slot 0" },
    // local_atomic (constant 0x19, L=1 at 15, bits 36 and 47; 10 bytes): add; R=8 (r4) with Rt=1
    // (bit 8) and Ra=1 (bit 38); immediate base 0 (At=2); index 5 (Ot=1); S=12 (r6) in bytes 8-9.
    // Low 0x19|1<<8|8<<9|1<<15|2<<22|5<<28 = 0x50809119; high 1<<2|1<<4|1<<6|1<<15 = 0x8054.
    Golden { hex: "19918050548000000c00", opcode: Opcode::LocalAtomic, fields: &[("op", 0), ("Rt", 1), ("R", 8), ("Ra", 1), ("At", 2), ("O", 5), ("Ot", 1), ("S", 12)], text: "local_atomic add r4, r6, 0, 5" },
    // cmpxchg=3 at 27:24, no result; base r1l (A=2, At=0); index r2h (O=5, Ot=0); S=20 (r10, r11).
    Golden { hex: "19800253108000001400", opcode: Opcode::LocalAtomic, fields: &[("op", 3), ("Ra", 0), ("A", 2), ("At", 0), ("O", 5), ("Ot", 0), ("S", 20)], text: "local_atomic cmpxchg _, {r10, r11}, r1l, r2h" },
    // xor=10; R=value 200 (R=8, Rx=3); uniform half 200 (A=8, Ax=3, At=1); index -1 (O=63,
    // Ox=1023, Ot=1); S=4 (r2). Low 0xfa489119; high 3|1<<2|1<<4|1<<6|1<<15|1023<<16|3<<26|3<<28.
    Golden { hex: "199148fa5780ff3f0400", opcode: Opcode::LocalAtomic, fields: &[("op", 10), ("R", 8), ("Rx", 3), ("A", 8), ("Ax", 3), ("At", 1), ("O", 63), ("Ox", 1023), ("S", 4)], text: "local_atomic xor r100, r2, u100l, -1" },
    // image_write (Mesa's `agx_pack.c` layout, exact bits 0xf1 | 1<<23 | 9<<43): 16-bit data from
    // half 4 (Rt=0, R=4), coords C=value 12 (r6, r7), LOD register r3h (D=7, Dt=0), texture 3,
    // 2D. w0 = 0xf1 | 4<<9 = 0x08f1; w1 = 12 | 1<<7 | 7<<8 = 0x078c; w2 = 3 | 2<<8 | 9<<11 = 0x4a03.
    Golden { hex: "f1088c07034a", opcode: Opcode::ImageWrite, fields: &[("Rt", 0), ("R", 4), ("C", 12), ("D", 7), ("Dt", 0), ("T", 3), ("n", 2)], text: "image_write {r2l, r2h, r3l, r3h}, {r6, r7}, tex 3, 2d, lod r3h" },
];

#[test]
fn every_golden_vector_decodes_to_its_fields_and_text() {
    for g in GOLDEN {
        let code = bytes(g.hex);
        let raw = decode_raw(&code).unwrap_or_else(|e| panic!("{}: {e}", g.hex));
        assert_eq!(raw.encoding.opcode, g.opcode, "{}", g.hex);
        assert_eq!(usize::from(raw.len), code.len(), "{} length", g.hex);
        for &(name, value) in g.fields {
            assert_eq!(raw.field(name), Some(value), "{} field {name}", g.hex);
        }
        let decoded = decode_one(&code, 0).unwrap_or_else(|e| panic!("{}: {e}", g.hex));
        assert_eq!(decoded.to_string(), g.text, "{}", g.hex);
    }
}

#[test]
fn every_opcode_has_a_golden_vector() {
    use crate::encoding::encodings;
    for e in encodings() {
        assert!(
            GOLDEN.iter().any(|g| g.opcode == e.opcode),
            "{:?} has no golden vector",
            e.opcode
        );
    }
}

/// docs/g13.md, "Disassembly conventions": the reference encodings seen with the community's tool.
#[test]
fn errata_reference_encodings_disassemble_to_the_listed_text() {
    let table = [
        ("2a8142422400", "fadd32 r0, r1, r2"),
        ("3a81424224460200", "fmadd32 r0, r1, r2, r3"),
        ("3a81c24228460200", "fmadd32 r0, r1.discard, r2.cache, r3"),
        ("620178563412", "mov_imm r0, 0x12345678"),
        ("62000500", "mov_imm r0l, 5"),
        ("aa91420a0200", "fadd32 r4.cache, r1.neg, 0.5"),
        ("0a0142a2", "sin_pt_1 r0, r1"),
        ("0a0140e2", "sin_pt_2 r0, r0"),
        ("3800", "wait 0"),
        ("8800", "stop"),
        ("528842020000", "if_icmp r0l, seq, r1, 0, 1"),
        ("520e00000000", "pop_exec r0l, 1"),
        ("20c00c000000", "jmp_exec_none +12"),
    ];
    for (hex, text) in table {
        let code = bytes(hex);
        let d = decode_one(&code, 0).unwrap_or_else(|e| panic!("{hex}: {e}"));
        assert_eq!(usize::from(d.len), code.len(), "{hex}");
        assert_eq!(d.to_string(), text, "{hex}");
    }
}
