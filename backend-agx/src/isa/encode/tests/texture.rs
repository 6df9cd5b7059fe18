//! Texture triples. Layout: `L R Rt op8`, `q2 D q1 Ct C` (31:16), `q3 n Tt T` (47:32),
//! `q5 St S lod mask` (63:48), `Ox Sx Ot q6 O Tx Dx Cx Rx q4 U` (95:64); 8 bytes short, 12
//! long. Values count halves: the coordinate, LOD and extra runs are 32-bit registers named by
//! their even first half; a uniform LOD is `2N` for `uN`.

use super::{check, l, r, t, Triple};
use crate::isa::{ImageWriteOp, Instr, Lod, PReg, TexDim, TexExtra, TexIndex, TexOp};

fn op(dst: PReg, coords: PReg, dim: TexDim, lod: Lod<PReg>, mask: u8) -> TexOp<PReg> {
    TexOp {
        dst,
        coords,
        coords_discard: false,
        texture: TexIndex::Imm(0),
        sampler: TexIndex::Imm(0),
        dim,
        lod,
        extra: None,
        mask,
        slot: 0,
        gather: None,
    }
}

pub(super) fn triples() -> Vec<Triple> {
    use Instr::*;
    vec![
        // w0 = 0x31 | Rt 1<<8 = 0x0131; w1 = C 8 (r4); w2 = n 2<<8 (2d); w3 = mask 0xf.
        t(
            TextureSample(op(PReg::vec32(0, 4), PReg::vec32(4, 2), TexDim::D2, Lod::Auto, 0b1111)),
            "3101080000020f00",
            "texture_sample {r0, r1, r2, r3}, {r4, r5}, tex 0, samp 0, 2d, auto, 0b1111, slot 0",
        ),
        // Everything, long: R r10l = half 20 (Rt 0); coords r70 = half 140 (C 12, Cx 2), Ct 1;
        // compare q1 1; LOD r80 = half 160 (D 32, Dx 2), mode 6; texture r1l = half 2, Tt 1;
        // sampler 3; cube = 6; mask 3; slot q5 1; extras r90 = half 180 (O 52, Ox 2), Ot 1.
        // w0 = 0x31 | 20<<9 | L = 0xa831; w1 = 12 | 1<<6 | 1<<7 | 32<<8 = 0x20cc;
        // w2 = 2 | 1<<6 | 6<<8 = 0x0642; w3 = 3 | 6<<4 | 3<<8 | 1<<15 = 0x8363;
        // w4 = Cx 2<<10 | Dx 2<<12 = 0x2800; w5 = 52 | 1<<11 | 2<<14 = 0x8834.
        t(
            TextureSample(TexOp {
                dst: PReg::vec16(20, 2),
                coords: PReg::vec32(70, 3),
                coords_discard: true,
                texture: TexIndex::Reg(l(1)),
                sampler: TexIndex::Imm(3),
                dim: TexDim::Cube,
                lod: Lod::LodReg(r(80)),
                extra: Some(TexExtra { regs: PReg::vec32(90, 2), compare: true, offset: true }),
                mask: 0b0011,
                slot: 1,
                gather: None,
            }),
            "31a8cc204206638300283488",
            "texture_sample {r10l, r10h}, {r70, r71, r72}.discard, tex r1l, samp 3, cube, lod r80, \
             compare r90, offset r91, 0b0011, slot 1",
        ),
        // Gradients (mode 4) for 1D: two registers from r4 (D 8); texture 1, sampler 1.
        // w1 = 4 | 8<<8 = 0x0804; w2 = 1; w3 = 1 | 4<<4 | 1<<8 = 0x0141.
        t(
            TextureSample(TexOp {
                texture: TexIndex::Imm(1),
                sampler: TexIndex::Imm(1),
                ..op(r(0), r(2), TexDim::D1, Lod::Gradient(PReg::vec32(4, 2)), 0b0001)
            }),
            "3101040801004101",
            "texture_sample r0, r2, tex 1, samp 1, 1d, grad r4, 0b0001, slot 0",
        ),
        // Bias from u6 (mode 1, D 12), 2d_array (n 3), texture 2.
        // w1 = 8 | 12<<8 = 0x0c08; w2 = 2 | 3<<8 = 0x0302; w3 = 0xf | 1<<4 = 0x001f.
        t(
            TextureSample(TexOp {
                texture: TexIndex::Imm(2),
                ..op(PReg::vec32(0, 4), PReg::vec32(4, 3), TexDim::D2Array, Lod::BiasUniform(6), 0b1111)
            }),
            "3101080c02031f00",
            "texture_sample {r0, r1, r2, r3}, {r4, r5, r6}, tex 2, samp 0, 2d_array, bias u6, 0b1111, slot 0",
        ),
        // Gradients with minimum LOD (mode 12): 2*2 + 1 registers from r4 (D 8).
        // w1 = 4 | 8<<8; w2 = 2<<8; w3 = 3 | 12<<4 = 0x00c3.
        t(
            TextureSample(op(PReg::vec32(0, 2), PReg::vec32(2, 2), TexDim::D2, Lod::GradientMin(PReg::vec32(4, 5)), 0b0011)),
            "310104080002c300",
            "texture_sample {r0, r1}, {r2, r3}, tex 0, samp 0, 2d, grad_min r4, 0b0011, slot 0",
        ),
        // Bias and minimum LOD from registers (mode 13): r6, r7 (D 12); 1d_array (n 1).
        // w1 = 8 | 12<<8; w2 = 1<<8; w3 = 0xf | 13<<4 = 0x00df.
        t(
            TextureSample(op(PReg::vec32(0, 4), PReg::vec32(4, 2), TexDim::D1Array, Lod::BiasMinReg(PReg::vec32(6, 2)), 0b1111)),
            "3101080c0001df00",
            "texture_sample {r0, r1, r2, r3}, {r4, r5}, tex 0, samp 0, 1d_array, bias_min r6, 0b1111, slot 0",
        ),
        // Bias and minimum LOD from uniforms u9, u10 (mode 9, D 18). w1 = 4 | 18<<8 = 0x1204;
        // w3 = 1 | 9<<4 = 0x0091.
        t(
            TextureSample(op(r(0), r(2), TexDim::D1, Lod::BiasMinUniform(9), 0b0001)),
            "3101041200009100",
            "texture_sample r0, r2, tex 0, samp 0, 1d, bias_min u9, 0b0001, slot 0",
        ),
        // Bias from r3 (mode 5, D 6). w1 = 4 | 6<<8; w3 = 1 | 5<<4.
        t(
            TextureSample(op(r(0), r(2), TexDim::D1, Lod::BiasReg(r(3)), 0b0001)),
            "3101040600005100",
            "texture_sample r0, r2, tex 0, samp 0, 1d, bias r3, 0b0001, slot 0",
        ),
        // texture_load (opcode 0x71), explicit LOD r6 (mode 6, D 12), texel offsets in r7
        // (O 14, Ot bit 91: long form). w0 = 0x71 | 1<<8 | L = 0x8171; w1 = 8 | 12<<8;
        // w2 = 2<<8; w3 = 0xf | 6<<4; w4 = 0; w5 = 14 | 1<<11 = 0x080e.
        t(
            TextureLoad(TexOp {
                extra: Some(TexExtra { regs: r(7), compare: false, offset: true }),
                ..op(PReg::vec32(0, 4), PReg::vec32(4, 2), TexDim::D2, Lod::LodReg(r(6)), 0b1111)
            }),
            "7181080c00026f0000000e08",
            "texture_load {r0, r1, r2, r3}, {r4, r5}, tex 0, samp 0, 2d, lod r6, offset r7, 0b1111, slot 0",
        ),
        // texture_load from a uniform LOD u127 (mode 2, value 254: D 62, Dx 3), texture 255
        // (T 63, Tx 3), sampler r5h = half 11 (St 1), 3d (n 5), r8 (R 16, Rt 1), slot 1.
        // w0 = 0x71 | 1<<8 | 16<<9 | L = 0xa171; w1 = 62<<8 = 0x3e00; w2 = 63 | 5<<8 = 0x053f;
        // w3 = 1 | 2<<4 | 11<<8 | 1<<14 | 1<<15 = 0xcb21; w4 = 3<<12 | 3<<14 = 0xf000.
        t(
            TextureLoad(TexOp {
                texture: TexIndex::Imm(255),
                sampler: TexIndex::Reg(PReg::hi(5)),
                slot: 1,
                gather: None,
                ..op(r(8), PReg::vec32(0, 3), TexDim::D3, Lod::LodUniform(127), 0b0001)
            }),
            "71a1003e3f0521cb00f00000",
            "texture_load r8, {r0, r1, r2}, tex 255, samp r5h, 3d, lod u127, 0b0001, slot 1",
        ),
        // Gather green (Mesa's enum 0b011 at bit 23 of the extension word: bits 87 and 88),
        // otherwise the first triple: the extension word forces L (w0 = 0x0131 | 1<<15).
        // w4 = 0; w5 = 1<<7 | 1<<8 = 0x0180.
        t(
            TextureSample(TexOp {
                gather: Some(1),
                ..op(PReg::vec32(0, 4), PReg::vec32(4, 2), TexDim::D2, Lod::Auto, 0b1111)
            }),
            "3181080000020f0000008001",
            "texture_sample {r0, r1, r2, r3}, {r4, r5}, tex 0, samp 0, 2d, auto, gather g, \
             0b1111, slot 0",
        ),
        // Shadow gather of red (0b001: bit 87) from a 2D array (n 3), compare reference r8
        // (O 16, q1 1). w1 = 8 | 1<<7 = 0x0088; w2 = 3<<8; w4 = 0; w5 = O 16 | 1<<7 = 0x0090.
        t(
            TextureSample(TexOp {
                gather: Some(0),
                extra: Some(TexExtra { regs: r(8), compare: true, offset: false }),
                ..op(PReg::vec32(0, 4), PReg::vec32(4, 3), TexDim::D2Array, Lod::Auto, 0b1111)
            }),
            "3181880000030f0000009000",
            "texture_sample {r0, r1, r2, r3}, {r4, r5, r6}, tex 0, samp 0, 2d_array, auto, \
             compare r8, gather r, 0b1111, slot 0",
        ),
        // image_write (Mesa `agx_opcodes.py`: exact 0xF1 | 1<<23 | 9<<43; `agx_pack.c`):
        // data r0..r3 (R 0, Rt 1), coords r4 = half 8 (C 8), 2d (n 2), texture 0, level 0 as
        // an immediate (Dt bit 31). w0 = 0xf1 | 1<<8 = 0x01f1; w1 = 8 | 1<<7 | 1<<15 = 0x8088;
        // w2 = 2<<8 | 9<<11 = 0x4a00; nothing from bit 48 up, so the 6-byte form.
        t(
            ImageWrite(ImageWriteOp {
                data: PReg::vec32(0, 4),
                coords: PReg::vec32(4, 2),
                coords_discard: false,
                texture: TexIndex::Imm(0),
                dim: TexDim::D2,
                level: 0,
            }),
            "f1018880004a",
            "image_write {r0, r1, r2, r3}, {r4, r5}, tex 0, 2d, lod 0",
        ),
        // Long: data r40 = half 80 (R 16, Rx 1 at 57:56), coords r70 = half 140 (C 12, Cx 2
        // at 59:58) with Ct, texture r1l = half 2 (T 2, Tt 1), 2d_array (n 3).
        // w0 = 0xf1 | 1<<8 | 16<<9 | L 1<<15 = 0xa1f1; w1 = 12 | 1<<6 | 1<<7 | 1<<15 = 0x80cc;
        // w2 = 2 | 1<<6 | 3<<8 | 9<<11 = 0x4b42; w3 = 1<<8 | 2<<10 = 0x0900.
        t(
            ImageWrite(ImageWriteOp {
                data: PReg::vec32(40, 4),
                coords: PReg::vec32(70, 3),
                coords_discard: true,
                texture: TexIndex::Reg(l(1)),
                dim: TexDim::D2Array,
                level: 0,
            }),
            "f1a1cc80424b0009",
            "image_write {r40, r41, r42, r43}, {r70, r71, r72}.discard, tex r1l, 2d_array, lod 0",
        ),
    ]
}

#[test]
fn texture_encodings() {
    check(&triples());
}
