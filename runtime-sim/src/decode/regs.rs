//! The general-purpose registers each instruction reads and writes, for the load-time register
//! bound check and the timing model's dependency tracking.

use super::inst::{
    Compare, FSrc, Inst, LodMode, MemIndex, Reg, RegRange, Src, TexIndex, TgBase, TgIndex,
};

/// One register access.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RegAccess {
    /// The register.
    pub reg: Reg,
    /// Written (else read).
    pub write: bool,
}

/// Calls `f` for every general-purpose register `inst` reads or writes (uniforms and
/// immediates are not registers). The implicit `r0l` of the execution-mask stack instructions
/// and the link register `r1` of calls are included.
pub fn visit_registers(inst: &Inst, f: &mut dyn FnMut(RegAccess)) {
    let read = |reg: Reg, f: &mut dyn FnMut(RegAccess)| f(RegAccess { reg, write: false });
    let src = |s: &Src, f: &mut dyn FnMut(RegAccess)| {
        if let Src::Reg(reg, _) = *s {
            f(RegAccess { reg, write: false });
        }
    };
    let fsrc = |s: &FSrc, f: &mut dyn FnMut(RegAccess)| src(&s.src, f);
    let write = |reg: Reg, f: &mut dyn FnMut(RegAccess)| f(RegAccess { reg, write: true });
    let run = |r: &RegRange, w: bool, f: &mut dyn FnMut(RegAccess)| {
        for i in 0..u32::from(r.count) {
            f(RegAccess {
                reg: r.nth(i),
                write: w,
            });
        }
    };
    let r32s = |first: u8, count: u32, w: bool, f: &mut dyn FnMut(RegAccess)| {
        for i in 0..count {
            f(RegAccess {
                reg: Reg::R32((u32::from(first) + i).min(255) as u8),
                write: w,
            });
        }
    };
    let cmp = |c: &Compare, f: &mut dyn FnMut(RegAccess)| match c {
        Compare::Int { a, b, .. } => {
            src(a, f);
            src(b, f);
        }
        Compare::Float { a, b, .. } => {
            fsrc(a, f);
            fsrc(b, f);
        }
    };
    let mem_index = |o: &MemIndex, f: &mut dyn FnMut(RegAccess)| {
        if let MemIndex::Reg { reg, .. } = *o {
            f(RegAccess {
                reg: Reg::R32(reg),
                write: false,
            });
        }
    };
    let r0l = Reg::Half(0);
    match inst {
        Inst::Mov { d, .. } | Inst::GetSr { d, .. } => write(d.reg, f),
        Inst::Iadd { d, a, b, .. } | Inst::Asr { d, a, b, .. } | Inst::Bitop { d, a, b, .. } => {
            src(a, f);
            src(b, f);
            write(d.reg, f);
        }
        Inst::Imadd { d, a, b, c, .. } | Inst::Bitfield { d, a, b, c, .. } => {
            src(a, f);
            src(b, f);
            src(c, f);
            write(d.reg, f);
        }
        Inst::Convert { d, src: s, .. } => {
            src(s, f);
            write(d.reg, f);
        }
        Inst::Alu { d, .. } => {
            for a in inst.alu_srcs() {
                src(a, f);
            }
            write(d.reg, f);
        }
        Inst::Fma { d, a, b, c, .. } => {
            fsrc(a, f);
            fsrc(b, f);
            fsrc(c, f);
            write(d.dst.reg, f);
        }
        Inst::Fadd { d, a, b, .. } | Inst::Fmul { d, a, b, .. } => {
            fsrc(a, f);
            fsrc(b, f);
            write(d.dst.reg, f);
        }
        Inst::FUnary { d, a, .. } => {
            fsrc(a, f);
            write(d.dst.reg, f);
        }
        Inst::Ret { reg } | Inst::CallReg { reg } => {
            read(Reg::R32(*reg), f);
            if matches!(inst, Inst::CallReg { .. }) {
                write(Reg::R32(1), f);
            }
        }
        Inst::CallImm { .. } => write(Reg::R32(1), f),
        Inst::Stop
        | Inst::Trap
        | Inst::JmpIncomplete { .. }
        | Inst::JmpExecAny { .. }
        | Inst::JmpExecNone { .. }
        | Inst::Wait { .. }
        | Inst::Barrier
        | Inst::StackAdjust { .. } => {}
        Inst::PopExec { .. } => {
            read(r0l, f);
            write(r0l, f);
        }
        Inst::ExecStack { cmp: c, .. } => {
            read(r0l, f);
            cmp(c, f);
            write(r0l, f);
        }
        Inst::Select { d, cmp: c, x, y } => {
            cmp(c, f);
            src(x, f);
            src(y, f);
            write(d.reg, f);
        }
        Inst::Ballot { d, cmp: c, .. } => {
            cmp(c, f);
            write(d.reg, f);
        }
        Inst::Shuffle { d, a, b, .. } => {
            src(a, f);
            src(b, f);
            write(d.reg, f);
        }
        Inst::Tile { load, regs, .. } => run(regs, *load, f),
        Inst::LdVar { regs, .. } => run(regs, true, f),
        Inst::UniformStore { regs, offset, .. } => {
            run(regs, false, f);
            mem_index(offset, f);
        }
        Inst::Device {
            store,
            regs,
            base,
            offset,
            ..
        } => {
            src(base, f);
            mem_index(offset, f);
            run(regs, !store, f);
        }
        Inst::Stack {
            store,
            regs,
            offset,
            ..
        } => {
            mem_index(offset, f);
            run(regs, !store, f);
        }
        Inst::StackGetPtr { reg } => write(Reg::R32(*reg), f),
        Inst::Threadgroup {
            store,
            regs,
            base,
            offset,
            ..
        } => {
            if let TgBase::Half(h) = base {
                read(Reg::Half(*h), f);
            }
            if let TgIndex::Half(h) = offset {
                read(Reg::Half(*h), f);
            }
            run(regs, !store, f);
        }
        Inst::DeviceAtomic {
            dst,
            value,
            base,
            offset,
            ..
        } => {
            src(base, f);
            mem_index(offset, f);
            run(value, false, f);
            if let Some(d) = dst {
                write(Reg::R32(*d), f);
            }
        }
        Inst::LocalAtomic {
            dst,
            value,
            base,
            offset,
            ..
        } => {
            if let TgBase::Half(h) = base {
                read(Reg::Half(*h), f);
            }
            if let TgIndex::Half(h) = offset {
                read(Reg::Half(*h), f);
            }
            run(value, false, f);
            if let Some(d) = dst {
                write(Reg::R32(*d), f);
            }
        }
        Inst::Texture(t) => {
            let coords = t.dim.coord_components() + u32::from(t.dim.is_array());
            r32s(t.coords, coords, false, f);
            let n = t.dim.coord_components();
            let lod_regs = match t.lod_mode {
                LodMode::Auto
                | LodMode::BiasUniform
                | LodMode::LodUniform
                | LodMode::BiasMinUniform => 0,
                LodMode::BiasReg | LodMode::LodReg => 1,
                LodMode::BiasMinReg => 2,
                LodMode::Gradient => 2 * n,
                LodMode::GradientMin => 2 * n + 1,
            };
            r32s(t.lod, lod_regs, false, f);
            r32s(
                t.extra,
                u32::from(t.compare) + u32::from(t.offset),
                false,
                f,
            );
            for index in [t.texture, t.sampler] {
                if let TexIndex::Half(h) = index {
                    read(Reg::Half(h), f);
                }
            }
            run(&t.dst, true, f);
        }
        Inst::SampleMask { target, mask } => {
            src(target, f);
            src(mask, f);
        }
        Inst::ImageWrite(w) => {
            let coords = w.dim.coord_components() + u32::from(w.dim.is_array());
            r32s(w.coords, coords, false, f);
            run(&w.data, false, f);
            if let super::inst::ImageLod::Half(h) = w.lod {
                read(Reg::Half(h), f);
            }
            if let TexIndex::Half(h) = w.texture {
                read(Reg::Half(h), f);
            }
        }
    }
}
