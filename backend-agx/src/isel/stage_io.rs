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
    Axis, Builtin, Const, DerivPrecision, InputSlot, Interp, OutputSlot, Stage, Type, Value,
};

use super::build::{HALF, ONE};
use super::{class_of, CondForm, Isel};
use crate::abi::UniformContent;
use crate::error::BackendError;
use crate::isa::{
    Cmp, ConvertMode, Dst, FSrc, FUnaryOp, ICond, Instr, IntSrc, MemFormat, Precision, RegClass,
    Round, SpecialReg, Src, UReg,
};
use crate::mir::VReg;

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
            self.record_components(location, mask, dst);
        }
        Ok(())
    }

    /// Records where each component of `mask` of `location` landed in `dst`, a run of one
    /// 32-bit register per set bit (an `ld_var` or `device_load` of those components).
    pub(super) fn record_components(&mut self, location: u32, mask: u8, dst: VReg) {
        let mut k = 0u16;
        for c in 0..4u8 {
            if mask >> c & 1 == 1 {
                self.varyings.insert((location, c), dst.word(k));
                k += 1;
            }
        }
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
                let v = match self.varyings.get(&(slot.location, slot.component)) {
                    Some(&w) => w,
                    None => {
                        let v = self.m.new_group(RegClass::R32);
                        self.vertex_load(v, slot.location, 1 << slot.component.min(3))?;
                        v
                    }
                };
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

    /// `v` as the word an output stores: integers as their 32-bit pattern (16-bit ones
    /// sign-extended); f16 as is in a tile, widened to f32 in memory.
    pub(super) fn output_word(&mut self, v: Value) -> VReg {
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
                let component = match slot {
                    OutputSlot::Location { component, .. } | OutputSlot::Position(component) => {
                        component
                    }
                    _ => 0,
                };
                self.vertex_store(word, slot, 1 << component.min(3))
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
