//! The memory, texture and fragment I/O forms: register runs, bases, offsets, formats and
//! the keyworded operands (`slot 0`, `tex 3`, `rt 0`, `lsl 2`).

use super::form::Args;
use super::operand::{
    choice, fail, half, i16_in, int_in, reg, reg32, run, u8_in, uniform, Op, Suffix, Suffixed, R,
};
use crate::isa::{
    AtomicOpc, DeviceAccess, DeviceAtomic, ImageWriteOp, Instr, Lod, MemBase, MemFormat, MemOffset,
    PReg, RegClass, StackAccess, TexDim, TexExtra, TexIndex, TexOp, TgAccess, TgAtomic, TgBase,
    TgOffset, UReg,
};

/// Parses the memory-family instruction `mnemonic`, or reports an unknown mnemonic.
pub(super) fn instr(mnemonic: Op<'_>, args: &mut Args<'_>) -> R<Instr<PReg>> {
    Ok(match mnemonic.text {
        "device_load" | "device_store" => {
            let a = device(args)?;
            if mnemonic.text == "device_load" {
                Instr::DeviceLoad(a)
            } else {
                Instr::DeviceStore(a)
            }
        }
        "stack_load" | "stack_store" => {
            let data = run(args.next("the data registers")?)?;
            let offset = mem_offset(args.next("an offset")?)?;
            let format = format(args.next("a format")?)?;
            let mask = mask(args.next("a mask")?)?;
            let a = StackAccess {
                data,
                offset,
                format,
                mask,
            };
            if mnemonic.text == "stack_load" {
                Instr::StackLoad(a)
            } else {
                Instr::StackStore(a)
            }
        }
        "threadgroup_load" | "threadgroup_store" => {
            let data = run(args.next("the data registers")?)?;
            let base = tg_base(args.next("a base")?)?;
            let offset = tg_offset(args.next("an offset")?)?;
            let format = format(args.next("a format")?)?;
            let mask = mask(args.next("a mask")?)?;
            let a = TgAccess {
                data,
                base,
                offset,
                format,
                mask,
            };
            if mnemonic.text == "threadgroup_load" {
                Instr::ThreadgroupLoad(a)
            } else {
                Instr::ThreadgroupStore(a)
            }
        }
        "st_tile" => {
            let src = run(args.next("the colour registers")?)?;
            let rt = u8_in(
                args.next("`rt N`")?.expect_keyword("rt")?,
                7,
                "render target",
            )?;
            let mask = mask(args.next("a mask")?)?;
            let format = format(args.next("a format")?)?;
            Instr::StTile {
                src,
                rt,
                mask,
                format,
            }
        }
        "uniform_store" => {
            let src = run(args.next("the value registers")?)?;
            let offset = int_in(args.next("a uniform offset")?, 0, 511, "uniform offset")? as u16;
            let format = format(args.next("a format")?)?;
            let mask = mask(args.next("a mask")?)?;
            Instr::UniformStore {
                src,
                offset,
                mask,
                format,
            }
        }
        "ld_var" => {
            let dst = run(args.next("the result registers")?)?;
            let index = u8_in(args.next("a varying slot")?, 15, "varying slot")?;
            let mask = mask(args.next("a mask")?)?;
            let perspective = args.word("perspective");
            Instr::LdVar {
                dst,
                index,
                mask,
                perspective,
            }
        }
        "texture_sample" | "texture_load" => {
            let t = texture(args)?;
            if mnemonic.text == "texture_sample" {
                Instr::TextureSample(t)
            } else {
                Instr::TextureLoad(t)
            }
        }
        "atomic" | "local_atomic" => atomic(mnemonic, args)?,
        "image_write" => {
            let data = run(args.next("the data registers")?)?;
            let (coords, coords_discard) = coords(args.next("the coordinates")?)?;
            let texture = tex_index(args.next("`tex N`")?, "tex")?;
            let dim = dim(args.next("a dimension")?)?;
            let level_op = args.next("`lod N`")?.expect_keyword("lod")?;
            if level_op.text.starts_with('r') {
                return fail(
                    level_op.at,
                    "a level in a register is decoded by the simulator but the backend's \
                     instruction type has no form for it",
                );
            }
            let level = u8_in(level_op, u8::MAX, "level")?;
            Instr::ImageWrite(ImageWriteOp {
                data,
                coords: vec32(coords, dim.coord_count()),
                coords_discard,
                texture,
                dim,
                level,
            })
        }
        other => return fail(mnemonic.at, format!("unknown instruction `{other}`")),
    })
}

/// `DATA, BASE, OFFSET, FORMAT, MASK[, lsl N], slot N`.
fn device(args: &mut Args<'_>) -> R<DeviceAccess<PReg>> {
    let data = run(args.next("the data registers")?)?;
    let base = mem_base(args.next("a base")?)?;
    let offset = mem_offset(args.next("an offset")?)?;
    let format = format(args.next("a format")?)?;
    let mask = mask(args.next("a mask")?)?;
    let shift = match args.keyword("lsl") {
        Some(op) => u8_in(op, u8::MAX, "shift")?,
        None => 0,
    };
    let slot = slot(args)?;
    Ok(DeviceAccess {
        data,
        base,
        offset,
        format,
        mask,
        shift,
        slot,
    })
}

fn slot(args: &mut Args<'_>) -> R<u8> {
    u8_in(
        args.next("`slot N`")?.expect_keyword("slot")?,
        u8::MAX,
        "slot",
    )
}

fn mask(op: Op<'_>) -> R<u8> {
    u8_in(op, 15, "mask")
}

fn format(op: Op<'_>) -> R<MemFormat> {
    let names: Vec<(&str, MemFormat)> = MemFormat::ALL.iter().map(|f| (f.name(), *f)).collect();
    choice(op, &names, "a memory format")
}

fn dim(op: Op<'_>) -> R<TexDim> {
    let names: Vec<(&str, TexDim)> = TexDim::ALL.iter().map(|d| (d.name(), *d)).collect();
    choice(op, &names, "a texture dimension")
}

/// A device base: a 64-bit uniform pair `u4_u5` or register pair `r4_r5`.
fn mem_base(op: Op<'_>) -> R<MemBase<PReg>> {
    if op.text.starts_with('u') {
        return match uniform(op)? {
            UReg::U64(n) => Ok(MemBase::Uniform(n)),
            _ => fail(op.at, "a device base is a 64-bit uniform pair (`u4_u5`)"),
        };
    }
    let r = reg(op)?;
    if r.class != RegClass::R64 {
        return fail(op.at, "a device base is a 64-bit register pair (`r4_r5`)");
    }
    Ok(MemBase::Reg(r))
}

/// A memory offset: a signed immediate or `rN.sx`/`rN.zx`.
fn mem_offset(op: Op<'_>) -> R<MemOffset<PReg>> {
    if !op.text.starts_with('r') {
        return Ok(MemOffset::Imm(i16_in(op, "offset")?));
    }
    let mut s = Suffixed::new(op)?;
    let reg = reg32(s.base)?;
    let signed = s.take(Suffix::Sx);
    let zero = s.take(Suffix::Zx);
    s.done()?;
    if signed == zero {
        return fail(op.at, "a register offset says `.sx` or `.zx`");
    }
    Ok(MemOffset::Reg { reg, signed })
}

fn tg_base(op: Op<'_>) -> R<TgBase<PReg>> {
    if op.text.starts_with('r') {
        return Ok(TgBase::Reg(half(op)?));
    }
    if op.text.starts_with('u') {
        return match uniform(op)? {
            UReg::U16(h) => Ok(TgBase::Uniform(h)),
            _ => fail(op.at, "a threadgroup base uniform is 16-bit (`u3l`)"),
        };
    }
    Ok(TgBase::Imm(u8_in(op, u8::MAX, "base")?))
}

fn tg_offset(op: Op<'_>) -> R<TgOffset<PReg>> {
    if op.text.starts_with('r') {
        return Ok(TgOffset::Reg(half(op)?));
    }
    Ok(TgOffset::Imm(i16_in(op, "offset")?))
}

/// `tex N`/`tex rNl` (or `samp ...`).
fn tex_index(op: Op<'_>, keyword: &str) -> R<TexIndex<PReg>> {
    let v = op.expect_keyword(keyword)?;
    if v.text.starts_with('r') {
        return Ok(TexIndex::Reg(half(v)?));
    }
    Ok(TexIndex::Imm(u8_in(v, u8::MAX, "index")?))
}

/// A coordinate run with its optional `.discard` hint.
fn coords(op: Op<'_>) -> R<(PReg, bool)> {
    let mut s = Suffixed::new(op)?;
    let r = run(s.base)?;
    let discard = s.take(Suffix::Discard);
    s.done()?;
    Ok((r, discard))
}

/// The run of `count` 32-bit registers starting where `r` starts (the listing prints only
/// the first register of LOD and extra operands; the count follows from the form).
fn vec32(r: PReg, count: u32) -> PReg {
    match count {
        1 => PReg::r32(r.half / 2),
        n => PReg {
            half: r.half,
            class: RegClass::Vec32(n.min(255) as u8),
        },
    }
}

/// The first register of a run printed as one register: a 32-bit `rN`.
fn first32(op: Op<'_>) -> R<PReg> {
    reg32(op)
}

/// `texture_sample DST, COORDS[.discard], tex T, samp S, DIM, LOD[, compare rN][, offset rN]
/// [, gather c], MASK, slot N`.
fn texture(args: &mut Args<'_>) -> R<TexOp<PReg>> {
    let dst = run(args.next("the result registers")?)?;
    let (coords, coords_discard) = coords(args.next("the coordinates")?)?;
    let texture = tex_index(args.next("`tex N`")?, "tex")?;
    let sampler = tex_index(args.next("`samp N`")?, "samp")?;
    let dim = dim(args.next("a dimension")?)?;
    let lod = lod(args.next("a LOD mode")?, dim)?;
    let compare = args.keyword("compare").map(first32).transpose()?;
    let offset = args.keyword("offset").map(first32).transpose()?;
    let extra = match (compare, offset) {
        (None, None) => None,
        (Some(c), o) => {
            if let Some(o) = o {
                if o.half != c.half + 2 {
                    return fail(
                        args_at(args),
                        "the offset register follows the compare register",
                    );
                }
            }
            Some(TexExtra {
                regs: vec32(c, 1 + u32::from(o.is_some())),
                compare: true,
                offset: o.is_some(),
            })
        }
        (None, Some(o)) => Some(TexExtra {
            regs: o,
            compare: false,
            offset: true,
        }),
    };
    let gather = match args.keyword("gather") {
        Some(op) => Some(choice(
            op,
            &[("r", 0u8), ("g", 1), ("b", 2), ("a", 3)],
            "a gathered component",
        )?),
        None => None,
    };
    let mask = mask(args.next("a mask")?)?;
    let slot = slot(args)?;
    Ok(TexOp {
        dst,
        coords: vec32(coords, dim.coord_count()),
        coords_discard,
        texture,
        sampler,
        dim,
        lod,
        extra,
        mask,
        slot,
        gather,
    })
}

/// Where the previous operand started (for errors about a pair of operands).
fn args_at(args: &Args<'_>) -> usize {
    args.last_at()
}

/// `auto`, `bias u3`, `lod r5`, `grad r6`, `bias_min r5`, `grad_min r6`, ...
fn lod(op: Op<'_>, dim: TexDim) -> R<Lod<PReg>> {
    if op.text == "auto" {
        return Ok(Lod::Auto);
    }
    let Some((mode, value)) = op.text.split_once(' ') else {
        return fail(
            op.at,
            format!("`{}` is not a LOD mode (`auto`, `lod r5`, ...)", op.text),
        );
    };
    let v = Op {
        text: value,
        at: op.at + mode.len(),
    }
    .trimmed();
    if v.text.starts_with('u') {
        let UReg::U32(n) = uniform(v)? else {
            return fail(v.at, "a LOD uniform is written `uN`");
        };
        return match mode {
            "bias" => Ok(Lod::BiasUniform(n)),
            "lod" => Ok(Lod::LodUniform(n)),
            "bias_min" => Ok(Lod::BiasMinUniform(n)),
            _ => fail(op.at, format!("`{mode}` takes a register, not a uniform")),
        };
    }
    let first = reg32(v)?;
    let with = |l: fn(PReg) -> Lod<PReg>| {
        let count = l(first).register_count(dim);
        Ok(l(vec32(first, count)))
    };
    match mode {
        "bias" => with(Lod::BiasReg),
        "lod" => with(Lod::LodReg),
        "grad" => with(Lod::Gradient),
        "bias_min" => with(Lod::BiasMinReg),
        "grad_min" => with(Lod::GradientMin),
        _ => fail(op.at, format!("`{mode}` is not a LOD mode")),
    }
}

/// `atomic OP DST|_, VALUE, BASE, OFFSET, slot N` and `local_atomic OP DST|_, VALUE, BASE,
/// OFFSET`.
fn atomic(mnemonic: Op<'_>, args: &mut Args<'_>) -> R<Instr<PReg>> {
    let first = args.next("an operation and a result")?;
    let Some((name, rest)) = first.text.split_once(' ') else {
        return fail(first.at, "expected `OP RESULT` (`add r4`, `cmpxchg _`)");
    };
    let ops: Vec<(&str, AtomicOpc)> = AtomicOpc::ALL.iter().map(|o| (o.name(), *o)).collect();
    let op = choice(
        Op {
            text: name,
            at: first.at,
        },
        &ops,
        "an atomic operation",
    )?;
    let d = Op {
        text: rest,
        at: first.at + name.len(),
    }
    .trimmed();
    let dst = if d.text == "_" { None } else { Some(reg32(d)?) };
    let value = run(args.next("the value registers")?)?;
    if mnemonic.text == "atomic" {
        let base = mem_base(args.next("a base")?)?;
        let offset = mem_offset(args.next("an offset")?)?;
        let slot = slot(args)?;
        Ok(Instr::DeviceAtomic(DeviceAtomic {
            op,
            dst,
            value,
            base,
            offset,
            slot,
        }))
    } else {
        let base = tg_base(args.next("a base")?)?;
        let offset = tg_offset(args.next("an offset")?)?;
        Ok(Instr::ThreadgroupAtomic(TgAtomic {
            op,
            dst,
            value,
            base,
            offset,
        }))
    }
}
