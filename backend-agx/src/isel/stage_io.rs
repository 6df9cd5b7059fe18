//! Stage inputs and outputs: built-ins through `get_sr` (and the ABI's uniforms), fragment
//! varyings through `ld_var`, colour outputs through `st_tile`, derivatives through
//! `dfdx`/`dfdy`, and the vertex stage's memory-based inputs and outputs (see [`crate::abi`]).
//!
//! Interpolated varyings are read as floats (f16 inputs into a 16-bit register; integer inputs
//! convert the float toward zero). Flat varyings are 32-bit words (the provoking vertex's
//! output, bit for bit): `ld_var` with `perspective` clear into a 32-bit register, which f32 and
//! i32 inputs use as it is, f16 inputs round to f16 and i16 inputs take the low half of.
//!
//! Fine (and default) derivatives are `dfdx`/`dfdy`. Coarse ones are the fine derivative of the
//! quad's top-left lane (its top row or left column, as the interpreter defines them),
//! broadcast across the quad with `simd_shuffle` from lane `thread & ~3`.

use agxc_egraph::ir::{
    Axis, Builtin, Const, DerivPrecision, EffectOp, InputSlot, Inst, Interp, Op, OutputSlot, Stage,
    Type, Value,
};

use super::build::{HALF, ONE};
use super::{class_of, CondForm, Isel};
use crate::abi::UniformContent;
use crate::error::BackendError;
use crate::isa::{
    Cmp, ConvertMode, DeviceAccess, Dst, FSrc, FUnaryOp, ICond, Instr, IntSrc, MemBase, MemFormat,
    MemOffset, Precision, RegClass, Round, SpecialReg, Src, UReg,
};
use crate::mir::VReg;

/// The farthest apart (in IR instructions) the first and last output of one location may be
/// for [`Isel::gather_fragment_outputs`] to store them together.
pub const OUTPUT_GATHER_SPAN: usize = 12;

impl Isel<'_> {
    /// `dst = get_sr sr` into a new 32-bit register.
    fn get_sr(&mut self, sr: SpecialReg) -> VReg {
        let dst = self.m.new_group(RegClass::R32);
        self.m.op(Instr::GetSr {
            dst: Dst::new(dst),
            sr,
        });
        dst
    }

    /// The vertex index (the thread's grid position).
    pub(super) fn vertex_index(&mut self) -> VReg {
        if let Some(v) = self.vertex_id {
            return v;
        }
        let v = self.get_sr(SpecialReg::ThreadPositionInGridX);
        self.vertex_id = Some(v);
        v
    }

    pub(super) fn builtin(&mut self, b: Builtin, r: Value) -> Result<(), BackendError> {
        use SpecialReg::*;
        let axis = |base: [SpecialReg; 3], c: u8| base[usize::from(c.min(2))];
        match b {
            Builtin::GlobalId(c) => {
                let reg = self.get_sr(axis(
                    [
                        ThreadPositionInGridX,
                        ThreadPositionInGridY,
                        ThreadPositionInGridZ,
                    ],
                    c,
                ));
                self.set(r, reg);
            }
            Builtin::LocalId(c) => {
                let reg = self.get_sr(axis(
                    [
                        ThreadPositionInThreadgroupX,
                        ThreadPositionInThreadgroupY,
                        ThreadPositionInThreadgroupZ,
                    ],
                    c,
                ));
                self.set(r, reg);
            }
            Builtin::WorkgroupId(c) => {
                let reg = self.get_sr(axis(
                    [
                        ThreadgroupPositionInGridX,
                        ThreadgroupPositionInGridY,
                        ThreadgroupPositionInGridZ,
                    ],
                    c,
                ));
                self.set(r, reg);
            }
            Builtin::LocalIndex => {
                let reg = self.get_sr(ThreadIndexInThreadgroup);
                self.set(r, reg);
            }
            Builtin::WorkgroupSize(c) => {
                let size = self.func.modes.local_size[usize::from(c.min(2))];
                let k = Const::u32(size);
                let reg = self.materialize_const(k);
                self.set(r, reg);
                self.set_const(r, k);
            }
            Builtin::NumWorkgroups(c) => {
                let u = self.abi_uniform(UniformContent::NumWorkgroups(c))?;
                self.uniform_value(r, UReg::U32(u));
            }
            Builtin::FragCoord(c) => self.frag_coord(c, r)?,
            Builtin::FrontFacing => {
                let back = self.get_sr(Backfacing);
                let cmp = Cmp::Int {
                    cond: ICond::Ueq,
                    a: Src::reg(back),
                    b: Src::Imm(0),
                };
                let reg = self.bool_from_cmp(cmp, false, 32);
                self.set(r, reg);
                self.set_cond(
                    r,
                    CondForm {
                        cmp,
                        invert: false,
                        bits: 32,
                    },
                );
            }
            Builtin::HelperInvocation => {
                // Outside the grid, or no longer covered (demoted or discarded).
                let x = self.get_sr(ThreadPositionInGridX);
                let y = self.get_sr(ThreadPositionInGridY);
                let cover = self.get_sr(CoverageMask);
                let w = self.abi_uniform(UniformContent::FramebufferSize(0))?;
                let h = self.abi_uniform(UniformContent::FramebufferSize(1))?;
                let inside_x = self.m.new_group(RegClass::R32);
                self.icmpsel(
                    inside_x,
                    ICond::Ult,
                    Src::reg(x),
                    Src::Uniform(UReg::U32(w)),
                    Src::reg(cover),
                    Src::Imm(0),
                );
                let live = self.m.new_group(RegClass::R32);
                self.icmpsel(
                    live,
                    ICond::Ult,
                    Src::reg(y),
                    Src::Uniform(UReg::U32(h)),
                    Src::reg(inside_x),
                    Src::Imm(0),
                );
                let cmp = Cmp::Int {
                    cond: ICond::Ueq,
                    a: Src::reg(live),
                    b: Src::Imm(0),
                };
                let reg = self.bool_from_cmp(cmp, false, 32);
                self.set(r, reg);
                self.set_cond(
                    r,
                    CondForm {
                        cmp,
                        invert: false,
                        bits: 32,
                    },
                );
            }
            Builtin::VertexIndex => {
                let v = self.vertex_index();
                self.set(r, v);
            }
            Builtin::InstanceIndex => {
                let k = Const::i32(0);
                let reg = self.materialize_const(k);
                self.set(r, reg);
                self.set_const(r, k);
            }
            Builtin::PrimitiveId | Builtin::InvocationId => {
                return Err(self.unsupported("a geometry-stage built-in"));
            }
        }
        Ok(())
    }

    /// `frag_coord`: pixel centres (or integer positions), origin upper left unless the
    /// shader asks for lower left; z from the ABI; w = 1.
    fn frag_coord(&mut self, c: u8, r: Value) -> Result<(), BackendError> {
        let centre = !self.func.modes.pixel_center_integer;
        match c {
            0 | 1 => {
                let sr = if c == 0 {
                    SpecialReg::ThreadPositionInGridX
                } else {
                    SpecialReg::ThreadPositionInGridY
                };
                let p = self.get_sr(sr);
                let flip = c == 1 && !self.func.modes.origin_upper_left;
                let pos = if flip {
                    // y = height - 1 - row (+ 0.5) = (height - row) - 1 (+ 0.5).
                    let h = self.abi_uniform(UniformContent::FramebufferSize(1))?;
                    let d = self.m.new_group(RegClass::R32);
                    self.iadd(
                        d,
                        IntSrc::zext(Src::Uniform(UReg::U32(h))),
                        IntSrc::zext(Src::reg(p)),
                        true,
                    );
                    d
                } else {
                    p
                };
                let f = self.m.new_group(RegClass::R32);
                self.convert(f, Src::reg(pos), ConvertMode::U32ToF, Round::Rte);
                let adjust = match (flip, centre) {
                    (false, true) => Some(FSrc::imm(HALF)),
                    (false, false) => None,
                    (true, true) => Some(FSrc::imm(HALF).negated()),
                    (true, false) => Some(FSrc::imm(ONE).negated()),
                };
                match adjust {
                    Some(k) => {
                        let dst = self.m.new_group(RegClass::R32);
                        self.fadd(Precision::F32, dst, FSrc::reg(f), k);
                        self.set(r, dst);
                    }
                    None => self.set(r, f),
                }
            }
            2 => {
                let u = self.abi_uniform(UniformContent::FragDepth)?;
                self.uniform_value(r, UReg::U32(u));
            }
            _ => {
                let k = Const::f32(1.0);
                let reg = self.materialize_const(k);
                self.set(r, reg);
                self.set_const(r, k);
            }
        }
        Ok(())
    }

    /// Reads, with one `ld_var` each at the start, the varying locations of which two or
    /// more components are read (as 32-bit values with one interpolation mode; flat inputs of
    /// every type read 32-bit words): the components land in consecutive registers, and
    /// `ld_var` depends on the pixel only, so reading early is safe.
    pub(super) fn load_varyings(&mut self) -> Result<(), BackendError> {
        let mut wanted: std::collections::BTreeMap<u32, (u8, Option<Interp>, bool)> =
            Default::default();
        let func = self.func;
        func.for_each_inst(|_, inst| {
            let data = &func.insts[inst];
            if let agxc_egraph::ir::Op::Effect(agxc_egraph::ir::EffectOp::Input(slot)) = data.op {
                let ty = func.value_type(data.results[0]);
                let word = if slot.interp == Interp::Flat {
                    ty != Type::I64
                } else {
                    ty != Type::F16
                };
                if !word || slot.component > 3 {
                    return;
                }
                let entry = wanted.entry(slot.location).or_insert((0, None, true));
                entry.0 |= 1 << slot.component;
                match entry.1 {
                    None => entry.1 = Some(slot.interp),
                    Some(i) if i != slot.interp => entry.2 = false,
                    Some(_) => {}
                }
            }
        });
        for (location, (mask, interp, consistent)) in wanted {
            let count = mask.count_ones() as u16;
            if count < 2 || !consistent {
                continue;
            }
            let index = self.varying_index(location)?;
            let dst = self.m.new_group(RegClass::Vec32(count as u8));
            self.m.op(Instr::LdVar {
                dst,
                index,
                mask,
                perspective: interp == Some(Interp::Perspective),
            });
            let mut k = 0u16;
            for c in 0..4u8 {
                if mask >> c & 1 == 1 {
                    self.varyings.insert((location, c), dst.word(k));
                    k += 1;
                }
            }
        }
        Ok(())
    }

    /// The `ld_var` slot of a varying location (the ABI packs the locations read).
    fn varying_index(&self, location: u32) -> Result<u8, BackendError> {
        self.abi
            .varying_slot(location)
            .and_then(|s| u8::try_from(s).ok())
            .ok_or_else(|| self.internal(format!("varying location {location} has no slot")))
    }

    pub(super) fn input(&mut self, slot: InputSlot, r: Value) -> Result<(), BackendError> {
        let ty = self.func.value_type(r);
        match self.func.stage {
            Stage::Fragment if slot.interp == Interp::Flat => {
                let word = match self.varyings.get(&(slot.location, slot.component)) {
                    Some(&w) => w,
                    None => {
                        let index = self.varying_index(slot.location)?;
                        let w = self.m.new_group(RegClass::R32);
                        self.m.op(Instr::LdVar {
                            dst: w,
                            index,
                            mask: 1 << slot.component.min(3),
                            perspective: false,
                        });
                        w
                    }
                };
                let reg = self.flat_from_word(word, ty)?;
                self.set(r, reg);
                Ok(())
            }
            Stage::Fragment
                if ty != Type::F16
                    && self.varyings.contains_key(&(slot.location, slot.component)) =>
            {
                let v = self.varyings[&(slot.location, slot.component)];
                let reg = self.float_to_input_type(v, ty);
                self.set(r, reg);
                Ok(())
            }
            Stage::Fragment => {
                let float_class = if ty == Type::F16 {
                    RegClass::H16
                } else {
                    RegClass::R32
                };
                let index = self.varying_index(slot.location)?;
                let v = self.m.new_group(float_class);
                self.m.op(Instr::LdVar {
                    dst: v,
                    index,
                    mask: 1 << slot.component.min(3),
                    perspective: slot.interp == Interp::Perspective,
                });
                let reg = self.float_to_input_type(v, ty);
                self.set(r, reg);
                Ok(())
            }
            Stage::Vertex => {
                let base = self.abi_uniform(UniformContent::VertexInput(slot.location))?;
                let offset = self.vertex_element(slot.component);
                let v = self.m.new_group(RegClass::R32);
                self.m.op(Instr::DeviceLoad(DeviceAccess {
                    data: v,
                    base: MemBase::Uniform(base),
                    offset,
                    format: MemFormat::I32,
                    mask: 1,
                    shift: 0,
                    slot: 0,
                }));
                let reg = if ty == Type::F16 {
                    let h = self.m.new_group(RegClass::H16);
                    self.fmov(h, FSrc::reg(v));
                    h
                } else {
                    self.float_to_input_type(v, ty)
                };
                self.set(r, reg);
                Ok(())
            }
            Stage::Compute => Err(self.unsupported("a stage input in a compute shader")),
            Stage::Geometry(_) => Err(self.unsupported("the geometry stage")),
        }
    }

    /// A flat input from its varying word ([`crate::abi`], "Fragment stage"): 32-bit types
    /// take the word as it is, f16 rounds it as an f32 (exact for an f16 widened to f32), i16
    /// takes its low half.
    fn flat_from_word(&mut self, word: VReg, ty: Type) -> Result<VReg, BackendError> {
        match ty {
            Type::F32 | Type::I32 => Ok(word),
            Type::F16 => {
                let h = self.m.new_group(RegClass::H16);
                self.fmov(h, FSrc::reg(word));
                Ok(h)
            }
            Type::I16 => {
                let h = self.m.new_group(RegClass::H16);
                self.mov_src(h, Src::reg(word.lo16()));
                Ok(h)
            }
            Type::I64 | Type::Bool => Err(self.unsupported(format!("a flat {ty} fragment input"))),
        }
    }

    /// Interpolated integer inputs read their float value converted toward zero.
    fn float_to_input_type(&mut self, v: VReg, ty: Type) -> VReg {
        let mode = match ty {
            Type::I32 => ConvertMode::FToS32,
            Type::I16 => ConvertMode::FToS16,
            _ => return v,
        };
        let dst = self.m.new_group(class_of(ty));
        self.convert(dst, Src::reg(v), mode, Round::Rtz);
        dst
    }

    /// The element index `4 * vertex + component` of a vertex attribute or output word.
    fn vertex_element(&mut self, component: u8) -> MemOffset<VReg> {
        let vid = self.vertex_index();
        let idx = self.m.new_group(RegClass::R32);
        self.m.op(Instr::Iadd {
            dst: Dst::new(idx),
            a: IntSrc::zext(Src::Imm(component)),
            b: IntSrc::zext(Src::reg(vid)),
            neg_b: false,
            shift: 2,
            sat: false,
        });
        MemOffset::Reg {
            reg: idx,
            signed: false,
        }
    }

    /// Consecutive components of one fragment output location, `first` on, written by one
    /// `st_tile` (its source a run of registers, one per mask bit; the seed ISA document,
    /// "st_tile") instead of one per component. The values must all be 16-bit or all 32-bit
    /// words; the caller has checked they come from back-to-back `output` instructions, so
    /// nothing runs between the stores this one replaces.
    pub(super) fn fragment_output_run(
        &mut self,
        location: u32,
        first: u8,
        values: &[Value],
    ) -> Result<(), BackendError> {
        let words: Vec<VReg> = values.iter().map(|&v| self.output_word(v)).collect();
        let class = words[0].class;
        let n = words.len() as u8;
        let run = if class == RegClass::H16 {
            self.m.new_group(RegClass::Vec16(n))
        } else {
            self.m.new_group(RegClass::Vec32(n))
        };
        for (i, &w) in words.iter().enumerate() {
            let view = run.view(i as u16 * class.units() as u16, class);
            self.mov_src(view, Src::reg(w));
        }
        self.m.op(Instr::StTile {
            src: run,
            rt: location as u8,
            mask: ((1u8 << n) - 1) << first,
            format: MemFormat::I32,
        });
        Ok(())
    }

    /// `insts` with the colour outputs of one location moved together, sorted by component,
    /// to where the last of them is, so that [`Isel::fragment_output_run_at`] finds the whole
    /// location: one `st_tile` instead of one per component (Mesa's epilog also stores each
    /// render target once). Only within a stretch of pure instructions and input and builtin
    /// reads (an output never crosses another effect or a nested construct), only for locations written once per
    /// component there, and only when the first and last output are at most
    /// [`OUTPUT_GATHER_SPAN`] instructions apart: each earlier component's value then lives
    /// that much longer, and the run needs consecutive registers.
    pub(super) fn gather_fragment_outputs(&self, insts: Vec<Inst>) -> Vec<Inst> {
        if self.func.stage != Stage::Fragment {
            return insts;
        }
        let key = |inst: Inst| match self.func.insts[inst].op {
            Op::Effect(EffectOp::Output(OutputSlot::Location {
                location,
                component,
            })) => Some((location, component)),
            _ => None,
        };
        // Reads of stage inputs and builtins neither see nor change the tile, so an output
        // may move past them (elaboration places each varying read just before its first use,
        // between the outputs of one location).
        let is_read = |inst: Inst| {
            matches!(
                self.func.insts[inst].op,
                Op::Effect(EffectOp::Input(_) | EffectOp::Builtin(_))
            )
        };
        let movable = |inst: Inst| {
            matches!(
                self.func.insts[inst].op,
                Op::Const(_) | Op::Pure(_) | Op::Custom(_)
            ) || is_read(inst)
                || key(inst).is_some()
        };
        let mut out = Vec::with_capacity(insts.len());
        let mut start = 0;
        while start < insts.len() {
            let mut end = start;
            while end < insts.len() && movable(insts[end]) {
                end += 1;
            }
            let stretch = &insts[start..end];
            // Per location: its outputs' positions in the stretch.
            let mut by_location: std::collections::BTreeMap<u32, Vec<(u8, usize)>> =
                std::collections::BTreeMap::new();
            for (pos, &inst) in stretch.iter().enumerate() {
                if let Some((l, c)) = key(inst) {
                    by_location.entry(l).or_default().push((c, pos));
                }
            }
            // Where each gathered output goes: the position of its location's last output.
            let mut moved_to: Vec<Option<usize>> = vec![None; stretch.len()];
            for outputs in by_location.values() {
                let last = outputs.last().map_or(0, |o| o.1);
                let mut comps: Vec<u8> = outputs.iter().map(|o| o.0).collect();
                comps.sort_unstable();
                comps.dedup();
                if comps.len() != outputs.len() {
                    continue;
                }
                // The latest outputs within the span of the last one: the span counts the
                // instructions that compute values (input and builtin reads between the
                // outputs are placed by their uses and only move with them).
                let span =
                    |from: usize| stretch[from..last].iter().filter(|&&i| !is_read(i)).count();
                let kept = outputs
                    .iter()
                    .rev()
                    .take_while(|o| span(o.1) <= OUTPUT_GATHER_SPAN)
                    .count();
                let kept = &outputs[outputs.len() - kept..];
                // A varying stored to another component than its own (`OUT[0] = IN[0].yxzw`):
                // the inputs of a location are loaded as one vector, which then cannot be the
                // run's registers, so every value the run takes from that location is copied
                // into place. Gather only when that costs fewer copies than the stores saved.
                let input_of = |pos: usize| {
                    let v = self.func.insts[stretch[pos]].args[0];
                    match self.func.values[v].def {
                        agxc_egraph::ir::ValueDef::Result(i, 0) => match self.func.insts[i].op {
                            Op::Effect(EffectOp::Input(slot)) => Some(slot),
                            _ => None,
                        },
                        _ => None,
                    }
                };
                let moved: Vec<u32> = kept
                    .iter()
                    .filter_map(|&(c, pos)| input_of(pos).filter(|s| s.component != c))
                    .map(|s| s.location)
                    .collect();
                let copies = kept
                    .iter()
                    .filter(|&&(_, pos)| input_of(pos).is_some_and(|s| moved.contains(&s.location)))
                    .count();
                if kept.len() < 2 || copies + 1 >= kept.len() {
                    continue;
                }
                for &(_, pos) in kept {
                    moved_to[pos] = Some(last);
                }
            }
            for (pos, &inst) in stretch.iter().enumerate() {
                match moved_to[pos] {
                    Some(_) if moved_to[pos] != Some(pos) => {}
                    Some(_) => {
                        let mut group: Vec<(u8, Inst)> = (0..stretch.len())
                            .filter(|&p| moved_to[p] == Some(pos))
                            .map(|p| (key(stretch[p]).map_or(0, |k| k.1), stretch[p]))
                            .collect();
                        group.sort_by_key(|g| g.0);
                        out.extend(group.into_iter().map(|g| g.1));
                    }
                    None => out.push(inst),
                }
            }
            if end < insts.len() {
                out.push(insts[end]);
            }
            start = end + 1;
        }
        out
    }

    /// The fragment outputs at the start of `insts` that one `st_tile` can write: back-to-back
    /// `output`s of consecutive components of one location, all stored from registers of one
    /// class (`((location, component), value)` each; empty or one long when there is no run,
    /// or when every component is the same value).
    pub(super) fn fragment_output_run_at(&self, insts: &[Inst]) -> Vec<((u32, u8), Value)> {
        let mut run: Vec<((u32, u8), Value)> = Vec::new();
        if self.func.stage != Stage::Fragment {
            return run;
        }
        for &inst in insts {
            let data = &self.func.insts[inst];
            let Op::Effect(EffectOp::Output(OutputSlot::Location {
                location,
                component,
            })) = data.op
            else {
                break;
            };
            let v = data.args[0];
            if let Some(&((l, c), first)) = run.last() {
                let same_class = self.fragment_output_class(first) == self.fragment_output_class(v);
                if l != location || component != c + 1 || component > 3 || !same_class {
                    break;
                }
            }
            run.push(((location, component), v));
        }
        // One value in every component (a splat such as `vec4(-1.0)`): the run would copy it
        // into each register of the vector, as many instructions as the single stores it
        // replaces, and hold four registers instead of one. Store it component by component.
        if run.windows(2).all(|w| w[0].1 == w[1].1) {
            run.truncate(1);
        }
        run
    }

    /// The register class `v` is stored from by [`Isel::output`] in a fragment shader.
    pub(super) fn fragment_output_class(&self, v: Value) -> RegClass {
        match self.func.value_type(v) {
            Type::F16 => RegClass::H16,
            Type::I16 => RegClass::R32,
            ty => class_of(ty),
        }
    }

    /// `v` as the word an output stores: integers as their 32-bit pattern (16-bit ones
    /// sign-extended); f16 as is in a tile, widened to f32 in memory.
    fn output_word(&mut self, v: Value) -> VReg {
        let ty = self.func.value_type(v);
        let reg = self.reg(v);
        match ty {
            Type::I16 => {
                let w = self.m.new_group(RegClass::R32);
                self.iadd(
                    w,
                    IntSrc::sext(Src::reg(reg)),
                    IntSrc::zext(Src::Imm(0)),
                    false,
                );
                w
            }
            Type::F16 if self.func.stage == Stage::Vertex => {
                let w = self.m.new_group(RegClass::R32);
                self.fmov(w, FSrc::reg(reg));
                w
            }
            _ => reg,
        }
    }

    pub(super) fn output(&mut self, slot: OutputSlot, v: Value) -> Result<(), BackendError> {
        let word = self.output_word(v);
        match self.func.stage {
            Stage::Fragment => {
                let (rt, component) = match slot {
                    OutputSlot::Location {
                        location,
                        component,
                    } => (location as u8, component),
                    OutputSlot::FragDepth => (
                        self.abi
                            .depth_target
                            .ok_or_else(|| self.internal("no depth target in the ABI"))?,
                        0,
                    ),
                    _ => return Err(self.unsupported("a vertex output in a fragment shader")),
                };
                self.m.op(Instr::StTile {
                    src: word,
                    rt,
                    mask: 1 << component.min(3),
                    format: MemFormat::I32,
                });
                Ok(())
            }
            Stage::Vertex => {
                let base =
                    self.abi_uniform(UniformContent::VertexOutput(crate::abi::output_array(slot)))?;
                let component = match slot {
                    OutputSlot::Location { component, .. } | OutputSlot::Position(component) => {
                        component
                    }
                    _ => 0,
                };
                let offset = self.vertex_element(component);
                self.m.op(Instr::DeviceStore(DeviceAccess {
                    data: word,
                    base: MemBase::Uniform(base),
                    offset,
                    format: MemFormat::I32,
                    mask: 1,
                    shift: 0,
                    slot: 0,
                }));
                Ok(())
            }
            Stage::Compute => Err(self.unsupported("a stage output in a compute shader")),
            Stage::Geometry(_) => Err(self.unsupported("the geometry stage")),
        }
    }

    pub(super) fn derivative(
        &mut self,
        axis: Axis,
        precision: DerivPrecision,
        a: Value,
        r: Value,
    ) -> Result<(), BackendError> {
        if self.func.stage != Stage::Fragment {
            return Err(self.unsupported("a derivative outside a fragment shader"));
        }
        let ty = self.func.value_type(r);
        let class = class_of(ty);
        let op = match axis {
            Axis::X => FUnaryOp::Dfdx,
            Axis::Y => FUnaryOp::Dfdy,
        };
        let dst = self.m.new_group(class);
        let s = self.fsrc(a);
        self.funary(op, dst, s);
        if precision == DerivPrecision::Coarse {
            // The fine derivative of the quad's top-left lane is `v(1, 0) - v(0, 0)` (x) or
            // `v(0, 1) - v(0, 0)` (y), the coarse one by the interpreter's definition, with the
            // same operands: broadcast it across the quad from lane `thread & ~3`. Two
            // instructions (the lane mask is shared by CSE); Mesa lowers coarse to the fine
            // form outright, which Vulkan allows but the interpreter does not model.
            let lane = self.get_sr(SpecialReg::ThreadIndexInSimdgroup);
            let quad = self.m.new_group(RegClass::R32);
            self.bitop(quad, Src::reg(lane), Src::Imm(28), crate::isa::bitop::AND);
            let coarse = self.m.new_group(class);
            self.m.op(crate::isa::Instr::SimdShuffle {
                dst: coarse,
                src: dst,
                lane: quad.lo16(),
            });
            self.set(r, coarse);
            return Ok(());
        }
        self.set(r, dst);
        Ok(())
    }
}
