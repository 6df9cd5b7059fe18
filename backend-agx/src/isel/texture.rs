//! Texture sampling, texel fetches and size queries.
//!
//! `sample` becomes `texture_sample` with the LOD mode of docs/g13.md ("texture_sample /
//! texture_load"):
//!
//! | IR | G13 LOD mode | registers |
//! |---|---|---|
//! | implicit | 0 auto | none |
//! | implicit + min_lod | 13 bias with min LOD | `0.0, min` |
//! | bias | 5 bias (13 with min_lod) | `bias[, min]` |
//! | explicit | 6 LOD (min_lod: `max(lod, min)`) | `lod` |
//! | grad | 4 gradient (12 with min_lod) | `dx.x, dy.x, dx.y, dy.y[, dx.z, dy.z][, min]` |
//! | gather_c | 0 auto, gather field `c` | none |
//!
//! A gather is `texture_sample` with its gather field set (Mesa's `agx_opcodes.py` `gather`
//! enum, packed at bit 23 of the extension word by `agx_pack.c`): the four texels of the
//! bilinear footprint at the base level, one component each, so no LOD operand; a shadow
//! gather returns four comparison results.
//!
//! Coordinates (and the array layer) go to consecutive 32-bit registers as f32; projective
//! samples divide the coordinates and the depth reference by `q` first. The depth reference
//! and constant texel offsets (packed 4 bits per axis) go to the extra registers. Cube maps
//! keep gradient mode (the simulator implements cube gradients as Vulkan specifies; docs/g13.md
//! warns that real hardware needs them lowered to an explicit LOD, which the optimizer's
//! `txd-cube-to-txl` rule does at -O2). 3D array textures do not exist on the G13.
//!
//! `fetch` is `texture_load` with integer coordinates (offsets added in the shader) and an
//! explicit level. `tex_size` shifts the ABI's level-0 extent right by the level (at least 1);
//! `tex_levels` reads the ABI's uniform.
//!
//! Storage images are textures at the image's binding: `image_load` is `texture_load` at
//! level 0, `image_store` is `image_write` at level 0, `image_size` reads the ABI's level-0
//! extent.

use agxc_egraph::ir::{
    FetchOp, ImageOp, LodMode, SampleOp, SizeOp, TexDim as IrDim, TexTarget, Type, Value,
};

use super::Isel;
use crate::abi::UniformContent;
use crate::error::BackendError;
use crate::isa::{
    BitfieldOp, FCond, FSrc, FUnaryOp, ICond, ImageWriteOp, Instr, IntSrc, Lod, Precision,
    RegClass, Src, TexDim, TexExtra, TexIndex, TexOp, UReg,
};
use crate::mir::VReg;

impl Isel<'_> {
    fn tex_dim(&self, t: TexTarget) -> Result<TexDim, BackendError> {
        Ok(match (t.dim, t.arrayed) {
            (IrDim::D1, false) => TexDim::D1,
            (IrDim::D1, true) => TexDim::D1Array,
            (IrDim::D2, false) => TexDim::D2,
            (IrDim::D2, true) => TexDim::D2Array,
            (IrDim::D3, false) => TexDim::D3,
            (IrDim::Cube, false) => TexDim::Cube,
            (IrDim::Cube, true) => TexDim::CubeArray,
            (IrDim::D3, true) => return Err(self.unsupported("a 3D array texture")),
        })
    }

    /// A run of 32-bit registers holding `values` as f32 (each optionally scaled by `scale`).
    fn float_run(&mut self, values: &[FSrc<VReg>], scale: Option<VReg>) -> VReg {
        let group = run32(self, values.len());
        for (i, &v) in values.iter().enumerate() {
            let dst = group.word(i as u16);
            match scale {
                Some(s) => self.fmul(Precision::F32, dst, v, FSrc::reg(s)),
                None => self.float_copy(dst, v),
            }
        }
        group
    }

    /// `dst = v` as f32: a register copy when `v` already is a plain 32-bit register (which
    /// `collect` can coalesce away), else a float move converting or applying modifiers.
    fn float_copy(&mut self, dst: VReg, v: FSrc<VReg>) {
        match v.src {
            Src::Reg { reg, .. } if reg.class == RegClass::R32 && !v.abs && !v.neg => {
                self.mov(dst, reg)
            }
            _ => self.fmov(dst, v),
        }
    }

    pub(super) fn sample(
        &mut self,
        s: &SampleOp,
        args: &[Value],
        results: &[Value],
    ) -> Result<(), BackendError> {
        let dim = self.tex_dim(s.target)?;
        let ops = s.operands(args);
        let q = match ops.proj {
            Some(q) => {
                let r = self.m.new_group(RegClass::R32);
                let qs = self.fsrc(q);
                self.funary(FUnaryOp::Rcp, r, qs);
                Some(r)
            }
            None => None,
        };
        let coord_srcs: Vec<FSrc<VReg>> = ops.coords.iter().map(|&c| self.fsrc(c)).collect();
        let coords = run32(self, dim.coord_count() as usize);
        for (i, &c) in coord_srcs.iter().enumerate() {
            let dst = coords.word(i as u16);
            match q {
                Some(r) => self.fmul(Precision::F32, dst, c, FSrc::reg(r)),
                None => self.float_copy(dst, c),
            }
        }
        if let Some(layer) = ops.layer {
            let l = self.fsrc(layer);
            self.float_copy(coords.word(ops.coords.len() as u16), l);
        }
        let fs = |isel: &Self, v: Option<Value>| v.map(|v| isel.fsrc(v));
        let min = fs(self, ops.min_lod);
        let lod = match (s.lod, min) {
            (LodMode::Implicit, None) => Lod::Auto,
            (LodMode::Implicit, Some(m)) => {
                // Bias 0 (float immediate code 0 is +0.0) with the minimum.
                Lod::BiasMinReg(self.float_run(&[FSrc::imm(0), m], None))
            }
            (LodMode::Bias, m) => {
                let bias =
                    fs(self, ops.lod).ok_or_else(|| self.internal("bias without operand"))?;
                match m {
                    None => Lod::BiasReg(self.float_run(&[bias], None)),
                    Some(m) => Lod::BiasMinReg(self.float_run(&[bias, m], None)),
                }
            }
            (LodMode::Explicit, m) => {
                let l = fs(self, ops.lod).ok_or_else(|| self.internal("lod without operand"))?;
                match m {
                    None => Lod::LodReg(self.float_run(&[l], None)),
                    Some(m) => {
                        let dst = self.m.new_group(RegClass::R32);
                        let (x, y) = (float_reg_src(self, l), float_reg_src(self, m));
                        let cmp = crate::isa::Cmp::Float {
                            cond: FCond::GtNanLoses,
                            a: l,
                            b: m,
                        };
                        self.select_cmp(dst, cmp, x, y);
                        Lod::LodReg(dst)
                    }
                }
            }
            // A gather reads the base level whatever the mode; automatic needs no operand.
            (LodMode::Gather(_), _) => Lod::Auto,
            (LodMode::Grad, m) => {
                let mut g = Vec::new();
                for (&dx, &dy) in ops.ddx.iter().zip(ops.ddy) {
                    g.push(self.fsrc(dx));
                    g.push(self.fsrc(dy));
                }
                if let Some(m) = m {
                    g.push(m);
                }
                let run = self.float_run(&g, None);
                if min.is_some() {
                    Lod::GradientMin(run)
                } else {
                    Lod::Gradient(run)
                }
            }
        };
        let mut extra_vals: Vec<VReg> = Vec::new();
        if let Some(d) = ops.dref {
            let dr = self.fsrc(d);
            let t = self.m.new_group(RegClass::R32);
            match q {
                Some(r) => self.fmul(Precision::F32, t, dr, FSrc::reg(r)),
                None => self.float_copy(t, dr),
            }
            extra_vals.push(t);
        }
        let has_offset = s.offset.iter().any(|&o| o != 0);
        if has_offset {
            let packed = s.offset.iter().enumerate().fold(0u32, |acc, (i, &o)| {
                acc | (u32::from(o as u8) & 0xf) << (4 * i)
            });
            extra_vals.push(self.imm_reg(RegClass::R32, u64::from(packed)));
        }
        let extra = if extra_vals.is_empty() {
            None
        } else {
            let regs = run32(self, extra_vals.len());
            for (i, &v) in extra_vals.iter().enumerate() {
                self.mov(regs.word(i as u16), v);
            }
            Some(TexExtra {
                regs,
                compare: ops.dref.is_some(),
                offset: has_offset,
            })
        };
        let texture = self.texture_index(s.texture)?;
        let sampler = self
            .abi
            .sampler_slot(s.sampler)
            .ok_or_else(|| self.internal("sampler missing from the ABI"))?;
        let dst = self.result_run(results);
        self.m.op(Instr::TextureSample(TexOp {
            dst,
            coords,
            coords_discard: false,
            texture,
            sampler: TexIndex::Imm(sampler),
            dim,
            lod,
            extra,
            mask: ((1u32 << results.len()) - 1) as u8,
            slot: 0,
            gather: match s.lod {
                LodMode::Gather(component) => Some(component),
                _ => None,
            },
        }));
        self.define_results(dst, results);
        Ok(())
    }

    pub(super) fn fetch(
        &mut self,
        f: &FetchOp,
        args: &[Value],
        results: &[Value],
    ) -> Result<(), BackendError> {
        let dim = self.tex_dim(f.target)?;
        let n = f.target.dim.coords();
        let count = dim.coord_count() as usize;
        let coords = run32(self, count);
        for (i, &arg) in args.iter().enumerate().take(count) {
            let v = self.src(arg);
            let off = if i < n { f.offset[i] } else { 0 };
            let dst = coords.word(i as u16);
            if off == 0 {
                self.mov_src(dst, v);
            } else {
                let k = self.imm_src(RegClass::R32, u64::from(off.unsigned_abs()));
                self.iadd(dst, IntSrc::zext(v), IntSrc::zext(k), off < 0);
            }
        }
        // A constant level 0 is the encoding's automatic mode, which `texture_load` reads as
        // the base level (Mesa's listings show `#0`): no register, no `mov_imm`.
        let level = match self.konst(args[count]) {
            Some(c) if c.bits() == 0 => None,
            _ => Some(self.reg(args[count])),
        };
        let texture = self.texture_index(f.texture)?;
        self.texel_load(coords, texture, dim, level, results);
        Ok(())
    }

    pub(super) fn tex_size(
        &mut self,
        s: &SizeOp,
        level: Value,
        results: &[Value],
    ) -> Result<(), BackendError> {
        let axes = s.target.dim.size_components();
        for (i, &r) in results.iter().enumerate() {
            let axis = if i < axes { i as u8 } else { 3 };
            let u = self.abi_uniform(UniformContent::TextureSize(s.texture, axis))?;
            let level0 = self.konst(level).map(|c| c.bits() == 0).unwrap_or(false);
            if axis == 3 || level0 {
                self.uniform_value(r, UReg::U32(u));
                continue;
            }
            let lv = self.src(level);
            let shifted = self.m.new_group(RegClass::R32);
            self.bitfield_op(
                BitfieldOp::Bfeil,
                shifted,
                Src::Imm(0),
                Src::Uniform(UReg::U32(u)),
                lv,
                0,
            );
            let dst = self.m.new_group(RegClass::R32);
            self.icmpsel(
                dst,
                ICond::Ugt,
                Src::reg(shifted),
                Src::Imm(1),
                Src::reg(shifted),
                Src::Imm(1),
            );
            self.set(r, dst);
        }
        Ok(())
    }

    /// `image_load` is `texture_load` at level 0 through the image's texture slot, as in
    /// Mesa's AGX compiler (`agx_compile.c`, `nir_intrinsic_image_load` lowered to a texture
    /// load by `agx_nir_lower_texture.c`); out-of-range coordinates read zeros there as the
    /// IR says.
    pub(super) fn image_load(
        &mut self,
        op: &ImageOp,
        args: &[Value],
        results: &[Value],
    ) -> Result<(), BackendError> {
        let dim = self.tex_dim(op.target)?;
        let count = dim.coord_count() as usize;
        if args.len() != count {
            return Err(self.internal("image_load coordinates do not fit the target"));
        }
        let coords = self.word_run(args);
        let texture = self.texture_index(op.image)?;
        self.texel_load(coords, texture, dim, None, results);
        Ok(())
    }

    /// `image_store` is `image_write` at level 0 (Mesa's `agx_compile.c` emits
    /// `agx_image_write` for `nir_intrinsic_image_store`): the four components in a run of
    /// 32-bit registers, whatever the format (the texture unit converts and drops the
    /// channels the format lacks).
    pub(super) fn image_store(&mut self, op: &ImageOp, args: &[Value]) -> Result<(), BackendError> {
        let dim = self.tex_dim(op.target)?;
        let count = dim.coord_count() as usize;
        if args.len() != count + 4 {
            return Err(self.internal("image_store operands do not fit the target"));
        }
        let coords = self.word_run(&args[..count]);
        let data = self.word_run(&args[count..]);
        let texture = self.texture_index(op.image)?;
        self.m.op(Instr::ImageWrite(ImageWriteOp {
            data,
            coords,
            coords_discard: false,
            texture,
            dim,
            level: 0,
        }));
        Ok(())
    }

    /// `image_size`: the ABI's level-0 extent per axis, then the layer count.
    pub(super) fn image_size(
        &mut self,
        op: &ImageOp,
        results: &[Value],
    ) -> Result<(), BackendError> {
        let axes = op.target.dim.size_components();
        for (i, &r) in results.iter().enumerate() {
            let axis = if i < axes { i as u8 } else { 3 };
            let u = self.abi_uniform(UniformContent::TextureSize(op.image, axis))?;
            self.uniform_value(r, UReg::U32(u));
        }
        Ok(())
    }

    /// An unfiltered `texture_load` of `results.len()` components at `coords` and `level`:
    /// texel fetches and image loads.
    fn texel_load(
        &mut self,
        coords: VReg,
        texture: TexIndex<VReg>,
        dim: TexDim,
        level: Option<VReg>,
        results: &[Value],
    ) {
        let dst = self.result_run(results);
        self.m.op(Instr::TextureLoad(TexOp {
            dst,
            coords,
            coords_discard: false,
            texture,
            sampler: TexIndex::Imm(0),
            dim,
            lod: level.map_or(Lod::Auto, Lod::LodReg),
            extra: None,
            mask: ((1u32 << results.len()) - 1) as u8,
            slot: 0,
            gather: None,
        }));
        self.define_results(dst, results);
    }

    /// The values copied into a new run of 32-bit registers, in order.
    fn word_run(&mut self, values: &[Value]) -> VReg {
        let run = run32(self, values.len());
        for (i, &v) in values.iter().enumerate() {
            let src = self.src(v);
            self.mov_src(run.word(i as u16), src);
        }
        run
    }

    fn texture_index(&self, b: agxc_egraph::ir::Binding) -> Result<TexIndex<VReg>, BackendError> {
        self.abi
            .texture_slot(b)
            .map(TexIndex::Imm)
            .ok_or_else(|| self.internal("texture missing from the ABI"))
    }

    /// The destination run of a texture instruction: f16 results in halves, f32 in words.
    fn result_run(&mut self, results: &[Value]) -> VReg {
        let half = results
            .first()
            .map(|&r| self.func.value_type(r) == Type::F16)
            .unwrap_or(false);
        let n = results.len() as u8;
        let class = match (half, n) {
            (true, 1) => RegClass::H16,
            (true, _) => RegClass::Vec16(n),
            (false, 1) => RegClass::R32,
            (false, _) => RegClass::Vec32(n),
        };
        self.m.new_group(class)
    }

    fn define_results(&mut self, dst: VReg, results: &[Value]) {
        let half = matches!(dst.class, RegClass::H16 | RegClass::Vec16(_));
        for (i, &r) in results.iter().enumerate() {
            let view = if half {
                dst.half(i as u16)
            } else {
                dst.word(i as u16)
            };
            self.set(r, view);
        }
    }
}

/// A new run of `n` 32-bit registers (a single register for one).
fn run32(isel: &mut Isel<'_>, n: usize) -> VReg {
    let class = if n == 1 {
        RegClass::R32
    } else {
        RegClass::Vec32(n as u8)
    };
    isel.m.new_group(class)
}

/// A float source as a plain select operand (the register holding it with its modifiers).
fn float_reg_src(isel: &mut Isel<'_>, s: FSrc<VReg>) -> Src<VReg> {
    let plain_32 = match s.src {
        Src::Reg { reg, .. } => reg.class == RegClass::R32,
        Src::Uniform(u) => matches!(u, UReg::U32(_)),
        Src::Imm(_) => false,
    };
    if plain_32 && !s.abs && !s.neg {
        return s.src;
    }
    let r = isel.m.new_group(RegClass::R32);
    isel.fmov(r, s);
    Src::reg(r)
}
