//! Round trip through the simulator's decoder (`agxc-runtime-sim`), which has its own encoding
//! tables and disassembler: every triple, and random valid instructions, must decode to an
//! instruction of the same length whose disassembly is exactly this crate's assembly text.

use agxc_g13_isa::operands::{self, Operand};
use agxc_g13_isa::Opcode;
use agxc_runtime_sim::decode::decode_one;
use quickcheck::{Arbitrary, Gen, QuickCheck};

use super::{all, hex};
use crate::isa::{
    encode, AtomicOpc, BitfieldOp, Cmp, ConvertMode, DeviceAccess, DeviceAtomic, Dst, FCond, FSrc,
    FUnaryOp, Hint, ICond, ImageWriteOp, Instr, IntSrc, JumpTarget, Lod, MemBase, MemFormat,
    MemOffset, PReg, Precision, Round, SpecialReg, Src, StackAccess, StackOp, TexDim, TexExtra,
    TexIndex, TexOp, TgAccess, TgAtomic, TgBase, TgOffset, UReg,
};

/// Encodes, decodes with the simulator, and compares length and text.
fn round_trip(instr: &Instr<PReg>) -> Result<(), String> {
    let bytes = encode(instr).map_err(|e| format!("{instr}: {e}"))?;
    let decoded = decode_one(bytes.as_bytes(), 0)
        .map_err(|e| format!("{instr} ({}): simulator: {}", hex(bytes.as_bytes()), e.kind))?;
    if usize::from(decoded.len) != bytes.len() {
        return Err(format!(
            "{instr}: length {} decoded as {}",
            bytes.len(),
            decoded.len
        ));
    }
    let (ours, theirs) = (instr.to_string(), decoded.to_string());
    if ours != theirs {
        return Err(format!(
            "{} : ours {ours:?}, simulator {theirs:?}",
            hex(bytes.as_bytes())
        ));
    }
    Ok(())
}

#[test]
fn every_triple_round_trips() {
    let failures: Vec<String> = all()
        .iter()
        .filter_map(|t| round_trip(&t.instr).err())
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// A generator of valid instructions: operands in range and of the classes each operand takes,
// and the field values the simulator implements.

fn below(g: &mut Gen, n: u32) -> u32 {
    u32::arbitrary(g) % n
}

fn pick<T: Copy>(g: &mut Gen, items: &[T]) -> T {
    items[below(g, items.len() as u32) as usize]
}

fn coin(g: &mut Gen) -> bool {
    bool::arbitrary(g)
}

fn hint(g: &mut Gen) -> Hint {
    pick(g, &[Hint::None, Hint::Cache, Hint::Discard])
}

fn half(g: &mut Gen) -> PReg {
    PReg::half(below(g, 256) as u16)
}

fn reg32(g: &mut Gen) -> PReg {
    PReg::r32(below(g, 128) as u16)
}

fn reg64(g: &mut Gen) -> PReg {
    PReg::r64(below(g, 127) as u16)
}

/// A register of at most `max_bits`.
fn reg(g: &mut Gen, max_bits: u32) -> PReg {
    match below(g, max_bits / 16) {
        0 => half(g),
        1 => reg32(g),
        _ => reg64(g),
    }
}

fn src(g: &mut Gen, max_bits: u32) -> Src<PReg> {
    match below(g, 4) {
        0 => Src::Imm(u8::arbitrary(g)),
        1 if max_bits >= 32 && coin(g) => Src::Uniform(UReg::U32(below(g, 256) as u16)),
        1 => Src::Uniform(UReg::U16(below(g, 512) as u16)),
        _ => Src::Reg {
            reg: reg(g, max_bits),
            hint: hint(g),
        },
    }
}

fn fsrc(g: &mut Gen, max_bits: u32) -> FSrc<PReg> {
    FSrc {
        src: src(g, max_bits),
        abs: coin(g),
        neg: coin(g),
    }
}

fn isrc(g: &mut Gen, max_bits: u32) -> IntSrc<PReg> {
    IntSrc {
        src: src(g, max_bits),
        sext: coin(g),
    }
}

fn dst(g: &mut Gen, max_bits: u32) -> Dst<PReg> {
    Dst {
        reg: reg(g, max_bits),
        cache: coin(g),
    }
}

/// A run of `count` registers of `bits`, sometimes spelled as a scalar class.
fn run(g: &mut Gen, bits: u32, count: u32) -> PReg {
    let count8 = count as u8;
    if bits == 16 {
        let first = below(g, 257 - count) as u16;
        if count == 1 && coin(g) {
            PReg::half(first)
        } else {
            PReg::vec16(first, count8)
        }
    } else {
        let first = below(g, 129 - count) as u16;
        match count {
            1 if coin(g) => PReg::r32(first),
            2 if coin(g) => PReg::r64(first),
            _ => PReg::vec32(first, count8),
        }
    }
}

fn cmp(g: &mut Gen) -> Cmp<PReg> {
    if coin(g) {
        let cond = pick(
            g,
            &[
                ICond::Ueq,
                ICond::Ult,
                ICond::Ugt,
                ICond::Seq,
                ICond::Slt,
                ICond::Sgt,
            ],
        );
        Cmp::Int {
            cond,
            a: src(g, 32),
            b: src(g, 32),
        }
    } else {
        let conds = [
            FCond::Eq,
            FCond::Lt,
            FCond::Gt,
            FCond::LtNanLoses,
            FCond::Ge,
            FCond::Le,
            FCond::GtNanLoses,
        ];
        Cmp::Float {
            cond: pick(g, &conds),
            a: fsrc(g, 32),
            b: fsrc(g, 32),
        }
    }
}

fn cmpsel(g: &mut Gen, wide: bool) -> Src<PReg> {
    match below(g, 3) {
        0 => Src::Imm(u8::arbitrary(g)),
        1 if wide => Src::Uniform(UReg::U32(below(g, 256) as u16)),
        1 => Src::Uniform(UReg::U16(below(g, 512) as u16)),
        _ => Src::Reg {
            reg: if wide { reg32(g) } else { half(g) },
            hint: hint(g),
        },
    }
}

fn mask(g: &mut Gen) -> u8 {
    1 + below(g, 15) as u8
}

fn alu(g: &mut Gen) -> Instr<PReg> {
    use Instr::*;
    match below(g, 15) {
        14 => {
            let dst = if coin(g) { reg32(g) } else { half(g) };
            let src = if dst.class == crate::isa::RegClass::R32 {
                reg32(g)
            } else {
                half(g)
            };
            SimdShuffle {
                dst,
                src,
                lane: half(g),
            }
        }
        0 => {
            let dst = dst(g, 32);
            let imm = if dst.reg.class == crate::isa::RegClass::H16 {
                below(g, 0x10000)
            } else {
                u32::arbitrary(g)
            };
            MovImm { dst, imm }
        }
        1 => GetSr {
            dst: dst(g, 32),
            sr: pick(g, &SpecialReg::ALL),
        },
        2 => Iadd {
            dst: dst(g, 64),
            a: isrc(g, 64),
            b: isrc(g, 64),
            neg_b: coin(g),
            shift: below(g, 8) as u8,
            sat: coin(g),
        },
        3 => Imadd {
            dst: dst(g, 64),
            a: isrc(g, 32),
            b: isrc(g, 32),
            c: isrc(g, 64),
            neg_c: coin(g),
            shift: below(g, 8) as u8,
            sat: coin(g),
        },
        4 => Convert {
            dst: dst(g, 32),
            src: src(g, 32),
            mode: pick(g, &ConvertMode::ALL),
            round: pick(g, &[Round::Rtz, Round::Rte]),
        },
        5 => {
            // Any form of the description's generic path, its operands as its list says.
            let forms: Vec<Opcode> = operands::generic_forms().collect();
            let op = pick(g, &forms);
            let mut d = None;
            let mut srcs = Vec::new();
            for operand in operands::operands(op).unwrap_or_default() {
                match *operand {
                    Operand::Dst { max_bits } => d = Some(dst(g, max_bits)),
                    Operand::Src { max_bits, .. } => srcs.push(src(g, max_bits)),
                }
            }
            Instr::alu(op, d.expect("a generic form has a destination"), &srcs)
        }
        6 => Bitfield {
            op: pick(g, &BitfieldOp::ALL),
            dst: dst(g, 32),
            a: src(g, 32),
            b: src(g, 32),
            c: src(g, 32),
            mask_bits: below(g, 32) as u8,
        },
        7 => Asr {
            high: coin(g),
            dst: dst(g, 32),
            a: src(g, 32),
            b: src(g, 32),
        },
        8 => {
            let table = pick(g, &[0u8, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15]);
            Bitop {
                dst: dst(g, 32),
                a: src(g, 32),
                b: src(g, 32),
                table,
            }
        }
        9 => {
            let prec = pick(g, &[Precision::F32, Precision::F16]);
            let bits = if prec == Precision::F32 { 32 } else { 16 };
            Fmadd {
                prec,
                dst: dst(g, bits),
                sat: coin(g),
                a: fsrc(g, bits),
                b: fsrc(g, bits),
                c: fsrc(g, bits),
            }
        }
        10 | 11 => {
            let prec = pick(g, &[Precision::F32, Precision::F16]);
            let bits = if prec == Precision::F32 { 32 } else { 16 };
            let (dst, sat, a, b) = (dst(g, bits), coin(g), fsrc(g, bits), fsrc(g, bits));
            if coin(g) {
                Fadd {
                    prec,
                    dst,
                    sat,
                    a,
                    b,
                }
            } else {
                Fmul {
                    prec,
                    dst,
                    sat,
                    a,
                    b,
                }
            }
        }
        12 => FUnary {
            op: pick(g, &FUnaryOp::ALL),
            dst: dst(g, 32),
            sat: coin(g),
            a: fsrc(g, 32),
        },
        _ => {
            let wide = coin(g);
            let dst = Dst {
                reg: if wide { reg32(g) } else { half(g) },
                cache: coin(g),
            };
            Select {
                dst,
                cmp: cmp(g),
                x: cmpsel(g, wide),
                y: cmpsel(g, wide),
            }
        }
    }
}

fn control(g: &mut Gen) -> Instr<PReg> {
    use Instr::*;
    match below(g, 10) {
        0 => Stop,
        1 => Trap,
        2 => ThreadgroupBarrier,
        3 => Wait {
            slot: below(g, 2) as u8,
        },
        4 => JmpExecAny {
            target: JumpTarget::Offset(i32::arbitrary(g)),
        },
        5 => JmpExecNone {
            target: JumpTarget::Offset(i32::arbitrary(g)),
        },
        6 => Call {
            target: JumpTarget::Offset(i32::arbitrary(g)),
        },
        7 => Ret { reg: reg32(g) },
        8 => PopExec {
            n: below(g, 4) as u8,
            cache: coin(g),
        },
        _ => ExecStack {
            op: pick(g, &[StackOp::If, StackOp::Else, StackOp::While]),
            cmp: cmp(g),
            invert: coin(g),
            n: below(g, 4) as u8,
            cache: coin(g),
        },
    }
}

fn mem_offset(g: &mut Gen, signed_only: bool) -> MemOffset<PReg> {
    if coin(g) {
        MemOffset::Imm(i16::arbitrary(g))
    } else {
        MemOffset::Reg {
            reg: reg32(g),
            signed: signed_only || coin(g),
        }
    }
}

fn memory(g: &mut Gen) -> Instr<PReg> {
    use Instr::*;
    let m = mask(g);
    let bits = pick(g, &[16, 32]);
    match below(g, 7) {
        6 => atomic(g),
        5 => SampleMask {
            targets: below(g, 64) as u8,
            value: below(g, 64) as u8,
        },
        0 => StTile {
            src: run(g, bits, m.count_ones()),
            rt: below(g, 8) as u8,
            mask: m,
            format: pick(g, &[MemFormat::I32, MemFormat::F16, MemFormat::U8Norm]),
        },
        1 => LdVar {
            dst: run(g, bits, m.count_ones()),
            index: below(g, 16) as u8,
            mask: m,
            perspective: coin(g),
        },
        2 => {
            let format = pick(g, &MemFormat::ALL);
            let bits = if format == MemFormat::I32 { 32 } else { bits };
            let access = DeviceAccess {
                data: run(g, bits, format.register_count(m)),
                base: if coin(g) {
                    MemBase::Uniform(below(g, 128) as u16)
                } else {
                    MemBase::Reg(reg64(g))
                },
                offset: mem_offset(g, false),
                format,
                mask: m,
                shift: below(g, 3) as u8,
                slot: below(g, 2) as u8,
            };
            if coin(g) {
                DeviceLoad(access)
            } else {
                DeviceStore(access)
            }
        }
        3 => {
            let access = StackAccess {
                data: run(g, bits, m.count_ones()),
                offset: mem_offset(g, true),
                format: pick(g, &[MemFormat::I8, MemFormat::I16, MemFormat::I32]),
                mask: m,
            };
            if coin(g) {
                StackLoad(access)
            } else {
                StackStore(access)
            }
        }
        _ => {
            use MemFormat::*;
            let access = TgAccess {
                data: run(g, bits, m.count_ones()),
                base: match below(g, 3) {
                    0 => TgBase::Reg(half(g)),
                    1 => TgBase::Uniform(below(g, 512) as u16),
                    _ => TgBase::Imm(u8::arbitrary(g)),
                },
                offset: if coin(g) {
                    TgOffset::Imm(i16::arbitrary(g))
                } else {
                    TgOffset::Reg(half(g))
                },
                format: pick(
                    g,
                    &[I8, I16, I32, F16, U8Norm, S8Norm, U16Norm, S16Norm, Srgba8],
                ),
                mask: m,
            };
            if coin(g) {
                ThreadgroupLoad(access)
            } else {
                ThreadgroupStore(access)
            }
        }
    }
}

fn atomic(g: &mut Gen) -> Instr<PReg> {
    let op = pick(g, &AtomicOpc::ALL);
    let dst = if coin(g) { Some(reg32(g)) } else { None };
    let value = if op == AtomicOpc::Cmpxchg {
        run(g, 32, 2)
    } else {
        reg32(g)
    };
    if coin(g) {
        Instr::DeviceAtomic(DeviceAtomic {
            op,
            dst,
            value,
            base: if coin(g) {
                MemBase::Uniform(below(g, 128) as u16)
            } else {
                MemBase::Reg(reg64(g))
            },
            offset: mem_offset(g, false),
            slot: below(g, 2) as u8,
        })
    } else {
        Instr::ThreadgroupAtomic(TgAtomic {
            op,
            dst,
            value,
            base: match below(g, 3) {
                0 => TgBase::Reg(half(g)),
                1 => TgBase::Uniform(below(g, 512) as u16),
                _ => TgBase::Imm(u8::arbitrary(g)),
            },
            offset: if coin(g) {
                TgOffset::Imm(i16::arbitrary(g))
            } else {
                TgOffset::Reg(half(g))
            },
        })
    }
}

fn tex_index(g: &mut Gen) -> TexIndex<PReg> {
    if coin(g) {
        TexIndex::Imm(u8::arbitrary(g))
    } else {
        TexIndex::Reg(half(g))
    }
}

fn texture(g: &mut Gen) -> Instr<PReg> {
    let load = coin(g);
    let dim = pick(g, &TexDim::ALL);
    let m = mask(g);
    let uniform = below(g, 128) as u16;
    let lod = match if load {
        pick(g, &[0, 2, 6])
    } else {
        pick(g, &[0, 1, 2, 4, 5, 6, 9, 12, 13])
    } {
        0 => Lod::Auto,
        1 => Lod::BiasUniform(uniform),
        2 => Lod::LodUniform(uniform),
        9 => Lod::BiasMinUniform(uniform),
        code => {
            let placeholder: Lod<u8> = match code {
                4 => Lod::Gradient(0),
                5 => Lod::BiasReg(0),
                6 => Lod::LodReg(0),
                12 => Lod::GradientMin(0),
                _ => Lod::BiasMinReg(0),
            };
            let regs = run(g, 32, placeholder.register_count(dim));
            placeholder.map(&mut |_| regs)
        }
    };
    let extra = match below(g, 4) {
        0 => None,
        1 => Some((false, true)),
        2 if !load => Some((true, false)),
        3 if !load => Some((true, true)),
        _ => None,
    }
    .map(|(compare, offset)| TexExtra {
        regs: run(g, 32, u32::from(compare) + u32::from(offset)),
        compare,
        offset,
    });
    let dst_bits = pick(g, &[16, 32]);
    let op = TexOp {
        dst: run(g, dst_bits, m.count_ones()),
        coords: run(g, 32, dim.coord_count()),
        coords_discard: coin(g),
        texture: tex_index(g),
        sampler: tex_index(g),
        dim,
        lod,
        extra,
        mask: m,
        slot: below(g, 2) as u8,
        gather: None,
    };
    if load {
        Instr::TextureLoad(op)
    } else {
        Instr::TextureSample(op)
    }
}

/// A random `image_write`: any non-cube dimensionality, 32-bit data, any immediate level.
fn image_write(g: &mut Gen) -> Instr<PReg> {
    let dim = pick(
        g,
        &[
            TexDim::D1,
            TexDim::D1Array,
            TexDim::D2,
            TexDim::D2Array,
            TexDim::D3,
        ],
    );
    Instr::ImageWrite(ImageWriteOp {
        data: run(g, 32, 4),
        coords: run(g, 32, dim.coord_count()),
        coords_discard: coin(g),
        texture: tex_index(g),
        dim,
        level: below(g, 256) as u8,
    })
}

/// A random instruction that must encode.
#[derive(Debug, Clone)]
struct Valid(Instr<PReg>);

impl Arbitrary for Valid {
    fn arbitrary(g: &mut Gen) -> Self {
        Valid(match below(g, 8) {
            0..=3 => alu(g),
            4 => control(g),
            5 | 6 => memory(g),
            _ if below(g, 5) == 0 => image_write(g),
            _ => texture(g),
        })
    }
}

#[test]
fn random_instructions_round_trip() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static RUNS: AtomicUsize = AtomicUsize::new(0);
    fn prop(v: Valid) -> Result<(), String> {
        RUNS.fetch_add(1, Ordering::Relaxed);
        round_trip(&v.0)
    }
    QuickCheck::new()
        .tests(5000)
        .quickcheck(prop as fn(Valid) -> Result<(), String>);
    assert!(RUNS.load(Ordering::Relaxed) >= 5000);
}
