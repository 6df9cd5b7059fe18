//! [`Instr::map_regs`]: an instruction with its register operands mapped (virtual to physical
//! registers after allocation), and the same for each memory operand type.

use super::*;

impl<R> Instr<R> {
    /// The same instruction with every register operand mapped by `f` (register allocation:
    /// virtual to physical). Operands are visited in a fixed order: destinations first, then
    /// sources in operand order.
    pub fn map_regs<S>(self, mut f: impl FnMut(R) -> S) -> Instr<S> {
        let f = &mut f;
        use Instr::*;
        match self {
            MovImm { dst, imm } => MovImm {
                dst: dst.map(f),
                imm,
            },
            GetSr { dst, sr } => GetSr {
                dst: dst.map(f),
                sr,
            },
            Iadd {
                dst,
                a,
                b,
                neg_b,
                shift,
                sat,
            } => {
                let dst = dst.map(f);
                Iadd {
                    dst,
                    a: a.map(f),
                    b: b.map(f),
                    neg_b,
                    shift,
                    sat,
                }
            }
            Imadd {
                dst,
                a,
                b,
                c,
                neg_c,
                shift,
                sat,
            } => {
                let dst = dst.map(f);
                let (a, b) = (a.map(f), b.map(f));
                Imadd {
                    dst,
                    a,
                    b,
                    c: c.map(f),
                    neg_c,
                    shift,
                    sat,
                }
            }
            Convert {
                dst,
                src,
                mode,
                round,
            } => {
                let dst = dst.map(f);
                Convert {
                    dst,
                    src: src.map(f),
                    mode,
                    round,
                }
            }
            Alu { op, dst, srcs } => {
                let dst = dst.map(f);
                Alu {
                    op,
                    dst,
                    srcs: srcs.map(|s| s.map(f)),
                }
            }
            Bitfield {
                op,
                dst,
                a,
                b,
                c,
                mask_bits,
            } => {
                let dst = dst.map(f);
                let (a, b) = (a.map(f), b.map(f));
                Bitfield {
                    op,
                    dst,
                    a,
                    b,
                    c: c.map(f),
                    mask_bits,
                }
            }
            Asr { high, dst, a, b } => {
                let dst = dst.map(f);
                let a = a.map(f);
                Asr {
                    high,
                    dst,
                    a,
                    b: b.map(f),
                }
            }
            Bitop { dst, a, b, table } => {
                let dst = dst.map(f);
                let a = a.map(f);
                Bitop {
                    dst,
                    a,
                    b: b.map(f),
                    table,
                }
            }
            Fmadd {
                prec,
                dst,
                sat,
                a,
                b,
                c,
            } => {
                let dst = dst.map(f);
                let (a, b) = (a.map(f), b.map(f));
                Fmadd {
                    prec,
                    dst,
                    sat,
                    a,
                    b,
                    c: c.map(f),
                }
            }
            Fadd {
                prec,
                dst,
                sat,
                a,
                b,
            } => {
                let dst = dst.map(f);
                let a = a.map(f);
                Fadd {
                    prec,
                    dst,
                    sat,
                    a,
                    b: b.map(f),
                }
            }
            Fmul {
                prec,
                dst,
                sat,
                a,
                b,
            } => {
                let dst = dst.map(f);
                let a = a.map(f);
                Fmul {
                    prec,
                    dst,
                    sat,
                    a,
                    b: b.map(f),
                }
            }
            FUnary { op, dst, sat, a } => {
                let dst = dst.map(f);
                FUnary {
                    op,
                    dst,
                    sat,
                    a: a.map(f),
                }
            }
            Stop => Stop,
            Trap => Trap,
            JmpExecAny { target } => JmpExecAny { target },
            JmpExecNone { target } => JmpExecNone { target },
            Call { target } => Call { target },
            Ret { reg } => Ret { reg: f(reg) },
            PopExec { n, cache } => PopExec { n, cache },
            ExecStack {
                op,
                cmp,
                invert,
                n,
                cache,
            } => ExecStack {
                op,
                cmp: cmp.map(f),
                invert,
                n,
                cache,
            },
            Select { dst, cmp, x, y } => {
                let dst = dst.map(f);
                let cmp = cmp.map(f);
                let x = x.map(f);
                Select {
                    dst,
                    cmp,
                    x,
                    y: y.map(f),
                }
            }
            Wait { slot } => Wait { slot },
            ThreadgroupBarrier => ThreadgroupBarrier,
            StTile {
                src,
                rt,
                mask,
                format,
            } => StTile {
                src: f(src),
                rt,
                mask,
                format,
            },
            UniformStore {
                src,
                offset,
                mask,
                format,
            } => UniformStore {
                src: f(src),
                offset,
                mask,
                format,
            },
            LdVar {
                dst,
                index,
                mask,
                perspective,
            } => LdVar {
                dst: f(dst),
                index,
                mask,
                perspective,
            },
            SampleMask { targets, value } => SampleMask { targets, value },
            SimdShuffle { dst, src, lane } => {
                let dst = f(dst);
                let src = f(src);
                SimdShuffle {
                    dst,
                    src,
                    lane: f(lane),
                }
            }
            DeviceLoad(a) => DeviceLoad(map_device(a, f)),
            DeviceStore(a) => DeviceStore(map_device(a, f)),
            StackLoad(a) => StackLoad(map_stack(a, f)),
            StackStore(a) => StackStore(map_stack(a, f)),
            ThreadgroupLoad(a) => ThreadgroupLoad(map_tg(a, f)),
            ThreadgroupStore(a) => ThreadgroupStore(map_tg(a, f)),
            TextureSample(t) => TextureSample(map_tex(t, f)),
            TextureLoad(t) => TextureLoad(map_tex(t, f)),
            DeviceAtomic(a) => {
                let dst = a.dst.map(&mut *f);
                let value = f(a.value);
                let base = match a.base {
                    crate::isa::mem::MemBase::Uniform(u) => crate::isa::mem::MemBase::Uniform(u),
                    crate::isa::mem::MemBase::Reg(r) => crate::isa::mem::MemBase::Reg(f(r)),
                };
                DeviceAtomic(crate::isa::mem::DeviceAtomic {
                    op: a.op,
                    dst,
                    value,
                    base,
                    offset: a.offset.map(f),
                    slot: a.slot,
                })
            }
            ThreadgroupAtomic(a) => {
                let dst = a.dst.map(&mut *f);
                let value = f(a.value);
                ThreadgroupAtomic(TgAtomic {
                    op: a.op,
                    dst,
                    value,
                    base: map_tg_base(a.base, f),
                    offset: map_tg_offset(a.offset, f),
                })
            }
            ImageWrite(w) => {
                let data = f(w.data);
                let coords = f(w.coords);
                ImageWrite(ImageWriteOp {
                    data,
                    coords,
                    coords_discard: w.coords_discard,
                    texture: w.texture.map(f),
                    dim: w.dim,
                    level: w.level,
                })
            }
        }
    }
}

fn map_device<R, S>(a: DeviceAccess<R>, f: &mut impl FnMut(R) -> S) -> DeviceAccess<S> {
    use crate::isa::mem::MemBase;
    let data = f(a.data);
    let base = match a.base {
        MemBase::Uniform(u) => MemBase::Uniform(u),
        MemBase::Reg(r) => MemBase::Reg(f(r)),
    };
    DeviceAccess {
        data,
        base,
        offset: a.offset.map(f),
        format: a.format,
        mask: a.mask,
        shift: a.shift,
        slot: a.slot,
    }
}

fn map_stack<R, S>(a: StackAccess<R>, f: &mut impl FnMut(R) -> S) -> StackAccess<S> {
    let data = f(a.data);
    StackAccess {
        data,
        offset: a.offset.map(f),
        format: a.format,
        mask: a.mask,
    }
}

fn map_tg<R, S>(a: TgAccess<R>, f: &mut impl FnMut(R) -> S) -> TgAccess<S> {
    use crate::isa::mem::{TgBase, TgOffset};
    let data = f(a.data);
    let base = match a.base {
        TgBase::Reg(r) => TgBase::Reg(f(r)),
        TgBase::Uniform(u) => TgBase::Uniform(u),
        TgBase::Imm(v) => TgBase::Imm(v),
    };
    let offset = match a.offset {
        TgOffset::Imm(v) => TgOffset::Imm(v),
        TgOffset::Reg(r) => TgOffset::Reg(f(r)),
    };
    TgAccess {
        data,
        base,
        offset,
        format: a.format,
        mask: a.mask,
    }
}

fn map_tg_base<R, S>(
    b: crate::isa::mem::TgBase<R>,
    f: &mut impl FnMut(R) -> S,
) -> crate::isa::mem::TgBase<S> {
    use crate::isa::mem::TgBase;
    match b {
        TgBase::Reg(r) => TgBase::Reg(f(r)),
        TgBase::Uniform(u) => TgBase::Uniform(u),
        TgBase::Imm(v) => TgBase::Imm(v),
    }
}

fn map_tg_offset<R, S>(
    o: crate::isa::mem::TgOffset<R>,
    f: &mut impl FnMut(R) -> S,
) -> crate::isa::mem::TgOffset<S> {
    use crate::isa::mem::TgOffset;
    match o {
        TgOffset::Imm(v) => TgOffset::Imm(v),
        TgOffset::Reg(r) => TgOffset::Reg(f(r)),
    }
}

fn map_tex<R, S>(t: TexOp<R>, f: &mut impl FnMut(R) -> S) -> TexOp<S> {
    use crate::isa::mem::TexExtra;
    let dst = f(t.dst);
    let coords = f(t.coords);
    let texture = t.texture.map(f);
    let sampler = t.sampler.map(f);
    let lod = t.lod.map(f);
    let extra = t.extra.map(|e| TexExtra {
        regs: f(e.regs),
        compare: e.compare,
        offset: e.offset,
    });
    TexOp {
        dst,
        coords,
        coords_discard: t.coords_discard,
        texture,
        sampler,
        dim: t.dim,
        lod,
        extra,
        mask: t.mask,
        slot: t.slot,
        gather: t.gather,
    }
}
