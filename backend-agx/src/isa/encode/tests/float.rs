//! Floating-point triples.
//!
//! fp32 source slots: value 6 bits, type 4 bits, modifier 2 bits (bit 0 abs, bit 1 neg) from
//! bits 16 (A), 28 (B), 40 (C); fp16 slots have a 3-bit type and the modifier one bit lower.
//! Float immediates are the 8-bit code of `decode_float_immediate`: 0.5 = 0x20
//! ((16 + 0) * 2^(2 - 7)), 1.0 = 0x30, 0.25 = 0x10, -2.0 = 0xc0.

use super::{check, d, dc, fs, h, hinted, l, r, t, u16u, u32u, Triple};
use crate::isa::{FSrc, FUnaryOp, Hint, Instr, Precision};

fn funary(
    op: FUnaryOp,
    dst: crate::isa::PReg,
    a: FSrc<crate::isa::PReg>,
) -> Instr<crate::isa::PReg> {
    Instr::FUnary {
        op,
        dst: d(dst),
        sat: false,
        a,
    }
}

pub(super) fn triples() -> Vec<Triple> {
    use Instr::*;
    use Precision::{F16, F32};
    vec![
        // docs/g13.md reference encodings.
        t(
            Fadd {
                prec: F32,
                dst: d(r(0)),
                sat: false,
                a: fs(r(1)),
                b: fs(r(2)),
            },
            "2a8142422400",
            "fadd32 r0, r1, r2",
        ),
        t(
            Fmadd {
                prec: F32,
                dst: d(r(0)),
                sat: false,
                a: fs(r(1)),
                b: fs(r(2)),
                c: fs(r(3)),
            },
            "3a81424224460200",
            "fmadd32 r0, r1, r2, r3",
        ),
        t(
            Fmadd {
                prec: F32,
                dst: d(r(0)),
                sat: false,
                a: FSrc::new(hinted(r(1), Hint::Discard)),
                b: FSrc::new(hinted(r(2), Hint::Cache)),
                c: fs(r(3)),
            },
            "3a81c24228460200",
            "fmadd32 r0, r1.discard, r2.cache, r3",
        ),
        t(
            Fadd {
                prec: F32,
                dst: dc(r(4)),
                sat: false,
                a: fs(r(1)).negated(),
                b: FSrc::imm(0x20),
            },
            "aa91420a0200",
            "fadd32 r4.cache, r1.neg, 0.5",
        ),
        t(
            funary(FUnaryOp::SinPt1, r(0), fs(r(1))),
            "0a0142a2",
            "sin_pt_1 r0, r1",
        ),
        t(
            funary(FUnaryOp::SinPt2, r(0), fs(r(0))),
            "0a0140e2",
            "sin_pt_2 r0, r0",
        ),
        // fmadd32 short form with 16-bit operands: w0 = 0x3a; A r0h (1, type 1), B r1l.abs
        // (2, type 1, Bm 1), C r1h (3, type 1). bits 39:16 = 1 | 1<<6 | 2<<12 | 1<<18 | 1<<22
        // = 0x442041; bits 47:40 = 3 | 1<<6 = 0x43; bits 63:48 are zero: short.
        t(
            Fmadd {
                prec: F32,
                dst: d(l(0)),
                sat: false,
                a: fs(h(0)),
                b: fs(l(1)).with_abs(),
                c: fs(h(1)),
            },
            "3a0041204443",
            "fmadd32 r0l, r0h, r1l.abs, r1h",
        ),
        // A modifier on C (51:50) needs the long form. S; dst r2 (4, Dt 10); B 1.0 = 0x30.
        // w0 = 0x3a | 0x40 | 0x100 | 4<<9 | L = 0x897a; bits 39:16 = 1 | 1<<6 | 48<<12 = 0x030041;
        // bits 63:40 = 3 | 1<<6 | 2<<10 = 0x843.
        t(
            Fmadd {
                prec: F32,
                dst: d(r(2)),
                sat: true,
                a: fs(h(0)),
                b: FSrc::imm(0x30),
                c: fs(h(1)).negated(),
            },
            "7a89410003430800",
            "fmadd32 r2.sat, r0h, 1.0, r1h.neg",
        ),
        // fmadd16: L D Dt S 110110, ? Bm Bt B ? Am At A, ... ??? Cm Ct C. w0 = 0x36;
        // bits 39:16 = 2 | 1<<6 | 4<<12 | 1<<18 = 0x044042; bits 47:40 = 6 | 1<<6.
        t(
            Fmadd {
                prec: F16,
                dst: d(l(0)),
                sat: false,
                a: fs(l(1)),
                b: fs(l(2)),
                c: fs(l(3)),
            },
            "360042400446",
            "fmadd16 r0l, r1l, r2l, r3l",
        ),
        // Long: dst r100h = half 201 (9, Dx 3); A r1l.neg (Am 2 at 26:25); B u5h = half 11,
        // type 100, Bm 1 (38:37); C -2.0 = 0xc0 (C 0, Cx 3). w0 = 0x36 | 0x40 | 9<<9 | L = 0x9276;
        // bits 39:16 = 2 | 1<<6 | 2<<9 | 11<<12 | 4<<18 | 1<<21 = 0x30b442;
        // bits 63:40 = Cx 3<<14 | Dx 3<<20 = 0x30c000.
        t(
            Fmadd {
                prec: F16,
                dst: d(h(100)),
                sat: true,
                a: fs(l(1)).negated(),
                b: FSrc::new(u16u(11)).with_abs(),
                c: FSrc::imm(0xc0),
            },
            "769242b43000c030",
            "fmadd16 r100h.sat, r1l.neg, u5h.abs, -2.0",
        ),
        // fadd16: 1 D Dt S 100110. w0 = 0x26 | 0x8000; A r1h (3, type 1); B 0.25 = 0x10.
        t(
            Fadd {
                prec: F16,
                dst: d(l(0)),
                sat: false,
                a: fs(h(1)),
                b: FSrc::imm(0x10),
            },
            "268043000100",
            "fadd16 r0l, r1h, 0.25",
        ),
        // fmul32: 1 D Dt S 011010. w0 = 0x1a | 0x100 | 20<<9 | 0x8000 = 0xa91a; A r11 (22,
        // type 9, abs+neg = 3); B r12 (24, type 9). bits 39:16 = 22 | 9<<6 | 3<<10 | 24<<12
        // | 9<<18 = 0x258e56.
        t(
            Fmul {
                prec: F32,
                dst: d(r(10)),
                sat: false,
                a: fs(r(11)).with_abs().negated(),
                b: fs(r(12)),
            },
            "1aa9568e2500",
            "fmul32 r10, r11.abs.neg, r12",
        ),
        // fmul16 at the top of the file: r127h = half 255 (63, x 3), r127l = 254 (62, x 3).
        // w0 = 0x16 | 63<<9 | 0x8000 = 0xfe16; bits 39:16 = 63 | 1<<6 | 62<<12 | 1<<18 = 0x07e07f;
        // byte 5 = Bx 3 | Ax 3<<2 | Dx 3<<4 = 0x3f.
        t(
            Fmul {
                prec: F16,
                dst: d(h(127)),
                sat: false,
                a: fs(h(127)),
                b: fs(l(127)),
            },
            "16fe7fe0073f",
            "fmul16 r127h, r127h, r127l",
        ),
        // One-source family: L D Dt S 001010, op Am At A, ?? Dx Ax op2 (41:32).
        // floor (op 0000, op2 0), short: w0 = 0x0a | 0x100 | 4<<9 = 0x090a; w1 = 6 | 9<<6 | 2<<10.
        t(
            funary(FUnaryOp::Floor, r(2), fs(r(3)).negated()),
            "0a09460a",
            "floor r2, r3.neg",
        ),
        // ceil: op2 = 1 lies in the long part. w0 = 0x890a; w1 = 0x0246; w2 = 1.
        t(
            funary(FUnaryOp::Ceil, r(2), fs(r(3))),
            "0a8946020100",
            "ceil r2, r3",
        ),
        // trunc: op2 = 2; 16-bit dst r0l and source r0h (1, type 1).
        t(
            funary(FUnaryOp::Trunc, l(0), fs(h(0))),
            "0a8041000200",
            "trunc r0l, r0h",
        ),
        // rint: op2 = 3, S; A u4 = half 8, type 0110: w1 = 8 | 6<<6 = 0x0188.
        t(
            FUnary {
                op: FUnaryOp::Rint,
                dst: d(r(1)),
                sat: true,
                a: FSrc::new(u32u(4)),
            },
            "4a8588010300",
            "rint r1.sat, u4",
        ),
        // The rest differ only in op (31:28): w1 = 2 | 9<<6 | op<<12.
        t(
            funary(FUnaryOp::Rcp, r(0), fs(r(1))),
            "0a014282",
            "rcp r0, r1",
        ),
        t(
            funary(FUnaryOp::Rsqrt, r(0), fs(r(1))),
            "0a014292",
            "rsqrt r0, r1",
        ),
        t(
            funary(FUnaryOp::RsqrtSpecial, r(0), fs(r(1))),
            "0a014212",
            "rsqrt_special r0, r1",
        ),
        t(
            funary(FUnaryOp::Log2, r(0), fs(r(1))),
            "0a0142c2",
            "log2 r0, r1",
        ),
        t(
            funary(FUnaryOp::Exp2, r(0), fs(r(1))),
            "0a0142d2",
            "exp2 r0, r1",
        ),
        t(
            funary(FUnaryOp::Dfdx, r(0), fs(r(1))),
            "0a014242",
            "dfdx r0, r1",
        ),
        t(
            funary(FUnaryOp::Dfdy, r(0), fs(r(1))),
            "0a014262",
            "dfdy r0, r1",
        ),
        // Long through extensions: r64 = half 128 (0, Dx 2); r100.discard = half 200 (8, Ax 3,
        // type 1011). w0 = 0x0a | 0x100 | L = 0x810a; w1 = 8 | 11<<6 | 13<<12 = 0xd2c8;
        // w2 = Ax 3<<10 | Dx 2<<12 = 0x2c00.
        t(
            funary(
                FUnaryOp::Exp2,
                r(64),
                FSrc::new(hinted(r(100), Hint::Discard)),
            ),
            "0a81c8d2002c",
            "exp2 r64, r100.discard",
        ),
    ]
}

#[test]
fn float_encodings() {
    check(&triples());
}
