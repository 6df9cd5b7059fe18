//! Operands that cannot be encoded give an error naming the instruction and operand.

use super::{d, fs, imm, l, r, s, u16u, u32u};
use crate::isa::{
    encode, DeviceAccess, EncodeErrorKind, FSrc, Instr, JumpTarget, Label, Lod, MemBase, MemFormat,
    MemOffset, PReg, Precision, RegClass, StackAccess, TexDim, TexExtra, TexIndex, TexOp, TgAccess,
    TgBase, TgOffset, UReg,
};

/// Encodes `instr` and returns the failing operand and error kind.
fn fails(instr: Instr<PReg>) -> (&'static str, EncodeErrorKind) {
    match encode(&instr) {
        Ok(e) => panic!("{instr} encoded as {:?}, expected an error", e.as_bytes()),
        Err(err) => {
            assert_eq!(err.mnemonic, instr.mnemonic());
            (err.operand, err.kind)
        }
    }
}

fn fadd(dst: PReg, a: FSrc<PReg>) -> Instr<PReg> {
    Instr::Fadd {
        prec: Precision::F32,
        dst: d(dst),
        sat: false,
        a,
        b: FSrc::imm(0),
    }
}

fn out_of_range(value: i64, min: i64, max: i64) -> EncodeErrorKind {
    EncodeErrorKind::OutOfRange { value, min, max }
}

#[test]
fn registers_out_of_range_or_misaligned() {
    assert_eq!(
        fails(fadd(r(128), fs(r(0)))),
        ("dst", EncodeErrorKind::RegisterOutOfRange(r(128)))
    );
    assert_eq!(
        fails(fadd(r(0), fs(PReg::half(256)))),
        ("a", EncodeErrorKind::RegisterOutOfRange(PReg::half(256)))
    );
    let odd = PReg::new(3, RegClass::R32);
    assert_eq!(
        fails(fadd(r(0), fs(odd))),
        ("a", EncodeErrorKind::Misaligned(odd))
    );
    // A run that starts in range but ends past r127.
    let run = PReg::vec32(126, 4);
    let store = Instr::StackStore(StackAccess {
        data: run,
        offset: MemOffset::Imm(0),
        format: MemFormat::I32,
        mask: 0b1111,
    });
    assert_eq!(
        fails(store),
        ("data", EncodeErrorKind::RegisterOutOfRange(run))
    );
}

#[test]
fn register_classes() {
    let (operand, kind) = fails(fadd(r(0), fs(PReg::r64(2))));
    assert_eq!(operand, "a");
    assert!(matches!(
        kind,
        EncodeErrorKind::WrongClass {
            found: RegClass::R64,
            ..
        }
    ));
    // fp16 operations take 16-bit registers only.
    let f16 = Instr::Fadd {
        prec: Precision::F16,
        dst: d(l(0)),
        sat: false,
        a: fs(r(1)),
        b: fs(l(2)),
    };
    assert!(matches!(
        fails(f16),
        (
            "a",
            EncodeErrorKind::WrongClass {
                found: RegClass::R32,
                ..
            }
        )
    ));
    let f16_dst = Instr::Fmul {
        prec: Precision::F16,
        dst: d(r(0)),
        sat: false,
        a: fs(l(1)),
        b: fs(l(2)),
    };
    assert!(matches!(
        fails(f16_dst),
        ("dst", EncodeErrorKind::WrongClass { .. })
    ));
    // 64-bit destinations only on iadd/imadd.
    let mov = Instr::MovImm {
        dst: d(PReg::r64(0)),
        imm: 0,
    };
    assert!(matches!(
        fails(mov),
        ("dst", EncodeErrorKind::WrongClass { .. })
    ));
    // Select results have the destination's width.
    let sel = Instr::Select {
        dst: d(r(0)),
        cmp: crate::isa::Cmp::Int {
            cond: crate::isa::ICond::Ueq,
            a: imm(0),
            b: imm(0),
        },
        x: s(l(1)),
        y: imm(0),
    };
    assert!(matches!(
        fails(sel),
        ("x", EncodeErrorKind::WrongClass { .. })
    ));
}

#[test]
fn uniforms() {
    assert_eq!(
        fails(fadd(r(0), FSrc::new(u32u(256)))),
        (
            "a",
            EncodeErrorKind::UniformOutOfRange {
                value: 256,
                max: 255
            }
        )
    );
    assert_eq!(
        fails(fadd(r(0), FSrc::new(u16u(512)))),
        (
            "a",
            EncodeErrorKind::UniformOutOfRange {
                value: 512,
                max: 511
            }
        )
    );
    assert!(matches!(
        fails(fadd(
            r(0),
            FSrc::new(crate::isa::Src::Uniform(UReg::U64(0)))
        )),
        ("a", EncodeErrorKind::NotEncodable(_))
    ));
    let f16 = Instr::Fadd {
        prec: Precision::F16,
        dst: d(l(0)),
        sat: false,
        a: FSrc::new(u32u(1)),
        b: fs(l(2)),
    };
    assert!(matches!(
        fails(f16),
        ("a", EncodeErrorKind::NotEncodable(_))
    ));
    let dev = Instr::DeviceLoad(DeviceAccess {
        data: r(0),
        base: MemBase::Uniform(128),
        offset: MemOffset::Imm(0),
        format: MemFormat::I32,
        mask: 1,
        shift: 0,
        slot: 0,
    });
    assert_eq!(
        fails(dev),
        (
            "base",
            EncodeErrorKind::UniformOutOfRange {
                value: 128,
                max: 127
            }
        )
    );
}

#[test]
fn immediates_and_small_fields() {
    assert_eq!(
        fails(Instr::MovImm {
            dst: d(l(0)),
            imm: 0x1_0000
        }),
        ("imm", out_of_range(0x1_0000, 0, 0xffff))
    );
    assert_eq!(
        fails(Instr::PopExec { n: 4, cache: false }),
        ("n", out_of_range(4, 0, 3))
    );
    assert_eq!(
        fails(Instr::Wait { slot: 2 }),
        ("slot", out_of_range(2, 0, 1))
    );
    let iadd = Instr::Iadd {
        dst: d(r(0)),
        a: super::zx(imm(0)),
        b: super::zx(imm(0)),
        neg_b: false,
        shift: 8,
        sat: false,
    };
    assert_eq!(fails(iadd), ("shift", out_of_range(8, 0, 7)));
    let bfi = Instr::Bitfield {
        op: crate::isa::BitfieldOp::Bfi,
        dst: d(r(0)),
        a: imm(0),
        b: imm(0),
        c: imm(0),
        mask_bits: 32,
    };
    assert_eq!(fails(bfi), ("mask_bits", out_of_range(32, 0, 31)));
    let bitop = Instr::Bitop {
        dst: d(r(0)),
        a: imm(0),
        b: imm(0),
        table: 0b1100,
    };
    assert!(matches!(
        fails(bitop),
        ("table", EncodeErrorKind::NotEncodable(_))
    ));
    let var = Instr::LdVar {
        dst: r(0),
        index: 16,
        mask: 1,
        perspective: false,
    };
    assert_eq!(fails(var), ("index", out_of_range(16, 0, 15)));
    let tile = Instr::StTile {
        src: r(0),
        rt: 8,
        mask: 1,
        format: MemFormat::I32,
    };
    assert_eq!(fails(tile), ("rt", out_of_range(8, 0, 7)));
}

fn device(data: PReg, format: MemFormat, mask: u8, shift: u8) -> Instr<PReg> {
    Instr::DeviceLoad(DeviceAccess {
        data,
        base: MemBase::Reg(PReg::r64(0)),
        offset: MemOffset::Imm(0),
        format,
        mask,
        shift,
        slot: 0,
    })
}

#[test]
fn memory_operands() {
    assert_eq!(
        fails(device(r(2), MemFormat::I32, 0, 0)),
        ("mask", out_of_range(0, 1, 15))
    );
    assert_eq!(
        fails(device(PReg::vec32(2, 2), MemFormat::I32, 0b0111, 0)),
        (
            "data",
            EncodeErrorKind::RegisterCount {
                expected: 3,
                found: 2
            }
        )
    );
    // Bit-packed formats always move their component count.
    assert_eq!(
        fails(device(PReg::vec32(2, 2), MemFormat::Rgb10a2, 0b0011, 0)),
        (
            "data",
            EncodeErrorKind::RegisterCount {
                expected: 4,
                found: 2
            }
        )
    );
    assert!(matches!(
        fails(device(l(2), MemFormat::I32, 1, 0)),
        ("data", EncodeErrorKind::NotEncodable(_))
    ));
    assert_eq!(
        fails(device(r(2), MemFormat::I32, 1, 3)),
        ("shift", out_of_range(3, 0, 2))
    );
    let base32 = Instr::DeviceStore(DeviceAccess {
        data: r(2),
        base: MemBase::Reg(r(0)),
        offset: MemOffset::Imm(0),
        format: MemFormat::I32,
        mask: 1,
        shift: 0,
        slot: 0,
    });
    assert!(matches!(
        fails(base32),
        ("base", EncodeErrorKind::WrongClass { .. })
    ));
    let unsigned = Instr::StackLoad(StackAccess {
        data: r(0),
        offset: MemOffset::Reg {
            reg: r(1),
            signed: false,
        },
        format: MemFormat::I32,
        mask: 1,
    });
    assert!(matches!(
        fails(unsigned),
        ("offset", EncodeErrorKind::NotEncodable(_))
    ));
    let tg = Instr::ThreadgroupLoad(TgAccess {
        data: r(0),
        base: TgBase::Reg(r(1)),
        offset: TgOffset::Imm(0),
        format: MemFormat::I32,
        mask: 1,
    });
    assert!(matches!(
        fails(tg),
        ("base", EncodeErrorKind::WrongClass { .. })
    ));
}

fn tex(lod: Lod<PReg>, extra: Option<TexExtra<PReg>>) -> TexOp<PReg> {
    TexOp {
        dst: PReg::vec32(0, 4),
        coords: PReg::vec32(4, 2),
        coords_discard: false,
        texture: TexIndex::Imm(0),
        sampler: TexIndex::Imm(0),
        dim: TexDim::D2,
        lod,
        extra,
        mask: 0b1111,
        slot: 0,
        gather: None,
    }
}

#[test]
fn texture_operands() {
    assert!(matches!(
        fails(Instr::TextureLoad(tex(Lod::BiasReg(r(6)), None))),
        ("lod", EncodeErrorKind::NotEncodable(_))
    ));
    let compare = Some(TexExtra {
        regs: r(7),
        compare: true,
        offset: false,
    });
    assert!(matches!(
        fails(Instr::TextureLoad(tex(Lod::Auto, compare))),
        ("extra", EncodeErrorKind::NotEncodable(_))
    ));
    // 2D gradients are four registers.
    assert_eq!(
        fails(Instr::TextureSample(tex(
            Lod::Gradient(PReg::vec32(6, 2)),
            None
        ))),
        (
            "lod",
            EncodeErrorKind::RegisterCount {
                expected: 4,
                found: 2
            }
        )
    );
    let mut wrong_coords = tex(Lod::Auto, None);
    wrong_coords.coords = PReg::vec32(4, 3);
    assert_eq!(
        fails(Instr::TextureSample(wrong_coords)),
        (
            "coords",
            EncodeErrorKind::RegisterCount {
                expected: 2,
                found: 3
            }
        )
    );
    let mut half_coords = tex(Lod::Auto, None);
    half_coords.coords = PReg::vec16(8, 2);
    assert!(matches!(
        fails(Instr::TextureSample(half_coords)),
        ("coords", EncodeErrorKind::WrongClass { .. })
    ));
}

#[test]
fn unresolved_label() {
    let jump = Instr::JmpExecAny {
        target: JumpTarget::Label(Label(3)),
    };
    assert_eq!(
        fails(jump),
        ("target", EncodeErrorKind::UnresolvedLabel(Label(3)))
    );
}

#[test]
fn error_messages_name_the_place() {
    let err = encode(&fadd(r(128), fs(r(0)))).expect_err("r128 does not exist");
    assert_eq!(
        err.to_string(),
        "cannot encode fadd32, operand dst: register r128 (half 256) is outside r0l..r127h"
    );
}

#[test]
fn sample_mask_and_simd_shuffle_operands() {
    // Immediates are 6-bit fields (T 14:9, S 21:16).
    assert_eq!(
        fails(Instr::SampleMask {
            targets: 64,
            value: 0
        }),
        ("targets", out_of_range(64, 0, 63))
    );
    assert_eq!(
        fails(Instr::SampleMask {
            targets: 1,
            value: 255
        }),
        ("value", out_of_range(255, 0, 63))
    );
    let shuffle = |dst, src, lane| Instr::SimdShuffle { dst, src, lane };
    // The source has the destination's width.
    assert!(matches!(
        fails(shuffle(r(0), l(2), l(4))),
        ("src", EncodeErrorKind::NotEncodable(_))
    ));
    // The lane is a 16-bit register.
    assert!(matches!(
        fails(shuffle(r(0), r(1), r(2))),
        ("lane", EncodeErrorKind::WrongClass { .. })
    ));
    // 64-bit values are not shuffled.
    assert!(matches!(
        fails(shuffle(PReg::new(0, RegClass::R64), r(1), l(2))),
        ("dst", EncodeErrorKind::WrongClass { .. })
    ));
    assert_eq!(
        fails(shuffle(r(0), r(128), l(2))),
        ("src", EncodeErrorKind::RegisterOutOfRange(r(128)))
    );
}
