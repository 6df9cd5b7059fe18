//! Images, samplers and derivatives.
//!
//! Images and samplers are resolved to their descriptor bindings at compile time
//! ([`Handle`]); `OpSampledImage` pairs them and `OpImage` takes the image back. Supported:
//! `OpImageSample{Implicit,Explicit}Lod`, their `Dref` and `Proj` forms (operands `Bias`, `Lod`,
//! `Grad`, `ConstOffset`, `MinLod`), `OpImageGather` and `OpImageDrefGather` (`ConstOffset`,
//! and `ConstOffsets` as four gathers that each keep their (i0, j0) texel, as the SPIR-V
//! specification describes the operand), `OpImageFetch` (`Lod`, `ConstOffset`),
//! `OpImageQuerySize`, `OpImageQuerySizeLod`, `OpImageQueryLevels`, and `OpDPdx`/`OpDPdy`/
//! `OpFwidth` with their `Fine` and `Coarse` forms, and storage images (`storage_image.rs`).
//! An `Offset` operand is taken when it folds to a constant. Images must be 1D, 2D, 3D or
//! cube (arrays too) with a 32-bit float or integer sampled type (integer textures give
//! `i32` texels); multisampling, sparse residency, offsets that are not constant and
//! `OpImageQueryLod` are rejected.

use super::context::Lowerer;
use super::error::SpirvError;
use super::module::Inst;
use super::types::{ImageTy, Ty};
use super::value::{Agg, Handle};
use agxc_egraph::ir::{
    Axis, DerivPrecision, EffectOp, FetchOp, LodMode, PureOp, SampleOp, SizeOp, Stage, TexDim,
    TexTarget, TexelClass, Type, Value,
};
use spirv::{Dim, ImageOperands, Op};

/// The image operands of an instruction, by role.
#[derive(Default)]
struct Operands {
    bias: Option<Value>,
    lod: Option<Value>,
    grad: Option<(Vec<Value>, Vec<Value>)>,
    offset: [i8; 3],
    /// `ConstOffsets`: one (u, v) offset per gathered texel.
    offsets: Option<[[i8; 2]; 4]>,
    min_lod: Option<Value>,
}

impl<'m> Lowerer<'m> {
    /// Lifts an image or derivative instruction; `false` if `inst` is not one.
    pub fn lower_image(&mut self, inst: &Inst) -> Result<bool, SpirvError> {
        match inst.opcode {
            Op::SampledImage => {
                let image = self.operand_handle(inst, 0)?;
                let sampler = self.operand_handle(inst, 1)?;
                let (Handle::Image { binding, ty }, Handle::Sampler { binding: s }) =
                    (image, sampler)
                else {
                    return Err(inst.mismatch(
                        "OpSampledImage of something other than an image and a sampler",
                    ));
                };
                self.bind(
                    inst,
                    Agg::Handle(Handle::SampledImage {
                        texture: binding,
                        sampler: s,
                        ty,
                    }),
                )?;
            }
            Op::Image => match self.operand_handle(inst, 0)? {
                Handle::SampledImage { texture, ty, .. } => self.bind(
                    inst,
                    Agg::Handle(Handle::Image {
                        binding: texture,
                        ty,
                    }),
                )?,
                _ => return Err(inst.mismatch("OpImage of something other than a sampled image")),
            },
            Op::ImageSampleImplicitLod
            | Op::ImageSampleExplicitLod
            | Op::ImageSampleDrefImplicitLod
            | Op::ImageSampleDrefExplicitLod
            | Op::ImageSampleProjImplicitLod
            | Op::ImageSampleProjExplicitLod
            | Op::ImageSampleProjDrefImplicitLod
            | Op::ImageSampleProjDrefExplicitLod => self.sample(inst)?,
            Op::ImageGather | Op::ImageDrefGather => self.gather(inst)?,
            Op::ImageFetch => self.fetch(inst)?,
            Op::ImageQuerySizeLod | Op::ImageQuerySize => self.query_size(inst)?,
            Op::ImageQueryLevels => {
                let (binding, _) = self.image_of(inst, 0)?;
                let n = self.effect(EffectOp::TexLevels(binding), &[], &[Type::I32])[0];
                let to = self.result_scalar(inst)?;
                let n = self.int_resize(inst, n, to, false)?;
                self.bind_components(inst, &[n])?;
            }
            Op::DPdx | Op::DPdy | Op::DPdxFine | Op::DPdyFine | Op::DPdxCoarse | Op::DPdyCoarse => {
                let (axis, precision) = match inst.opcode {
                    Op::DPdx => (Axis::X, DerivPrecision::Default),
                    Op::DPdy => (Axis::Y, DerivPrecision::Default),
                    Op::DPdxFine => (Axis::X, DerivPrecision::Fine),
                    Op::DPdyFine => (Axis::Y, DerivPrecision::Fine),
                    Op::DPdxCoarse => (Axis::X, DerivPrecision::Coarse),
                    _ => (Axis::Y, DerivPrecision::Coarse),
                };
                self.need_fragment(inst)?;
                self.map1(inst, |s, x| s.derivative(inst, axis, precision, x))?;
            }
            Op::Fwidth | Op::FwidthFine | Op::FwidthCoarse => {
                let precision = match inst.opcode {
                    Op::Fwidth => DerivPrecision::Default,
                    Op::FwidthFine => DerivPrecision::Fine,
                    _ => DerivPrecision::Coarse,
                };
                self.need_fragment(inst)?;
                self.map1(inst, |s, x| {
                    let dx = s.derivative(inst, Axis::X, precision, x)?;
                    let dy = s.derivative(inst, Axis::Y, precision, x)?;
                    let ax = s.pure(PureOp::Fabs, &[dx]);
                    let ay = s.pure(PureOp::Fabs, &[dy]);
                    Ok(s.pure(PureOp::Fadd, &[ax, ay]))
                })?;
            }
            Op::ImageRead => self.image_read(inst)?,
            Op::ImageWrite => self.image_write(inst)?,
            Op::ImageQueryLod | Op::ImageQuerySamples | Op::ImageTexelPointer => {
                return Err(inst.unsupported_instruction())
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn need_fragment(&self, inst: &Inst) -> Result<(), SpirvError> {
        if self.stage != Stage::Fragment {
            return Err(inst.invalid("derivatives outside a fragment shader"));
        }
        Ok(())
    }

    fn derivative(
        &mut self,
        inst: &Inst,
        axis: Axis,
        precision: DerivPrecision,
        x: Value,
    ) -> Result<Value, SpirvError> {
        let ty = self.ty(x);
        if !ty.is_float() {
            return Err(inst.mismatch("derivative of a non-float"));
        }
        Ok(self.effect(EffectOp::Derivative(axis, precision), &[x], &[ty])[0])
    }

    pub(super) fn operand_handle(&mut self, inst: &Inst, i: usize) -> Result<Handle, SpirvError> {
        self.operand(inst, i)?
            .handle()
            .ok_or_else(|| inst.mismatch(format!("operand {i} is not an image or sampler")))
    }

    /// The binding and type of an image operand (an image, or the image of a sampled image).
    pub(super) fn image_of(
        &mut self,
        inst: &Inst,
        i: usize,
    ) -> Result<(agxc_egraph::ir::Binding, ImageTy), SpirvError> {
        match self.operand_handle(inst, i)? {
            Handle::Image { binding, ty }
            | Handle::SampledImage {
                texture: binding,
                ty,
                ..
            } => Ok((binding, ty)),
            Handle::Sampler { .. } => Err(inst.mismatch("a sampler where an image is expected")),
        }
    }

    pub(super) fn target(&self, inst: &Inst, ty: &ImageTy) -> Result<TexTarget, SpirvError> {
        let dim = match ty.dim {
            Dim::Dim1D => TexDim::D1,
            Dim::Dim2D => TexDim::D2,
            Dim::Dim3D => TexDim::D3,
            Dim::DimCube => TexDim::Cube,
            other => return Err(inst.unsupported(format!("{other:?} images"))),
        };
        if ty.multisampled {
            return Err(inst.unsupported("multisampled images"));
        }
        if ty.arrayed && dim == TexDim::D3 {
            return Err(inst.invalid("arrayed 3D image"));
        }
        Ok(TexTarget {
            dim,
            arrayed: ty.arrayed,
        })
    }

    /// Whether the image's texels are floats or (32-bit) integers, from its sampled type.
    pub(super) fn texel_class(&self, inst: &Inst, ty: &ImageTy) -> Result<TexelClass, SpirvError> {
        match self.types.get(ty.sampled_type, inst)? {
            Ty::Float { width: 32 } => Ok(TexelClass::Float),
            Ty::Int { width: 32, .. } => Ok(TexelClass::Int),
            _ => {
                Err(inst.unsupported("images whose sampled type is not a 32-bit float or integer"))
            }
        }
    }

    /// Parses the optional image operands starting at operand `at`.
    fn image_operands(
        &mut self,
        inst: &Inst,
        at: usize,
        coords: usize,
    ) -> Result<Operands, SpirvError> {
        let mut ops = Operands::default();
        let Some(mask) = inst.operands.get(at) else {
            return Ok(ops);
        };
        let rspirv::dr::Operand::ImageOperands(mask) = mask else {
            return Err(inst.invalid("expected image operands"));
        };
        let mask = *mask;
        let supported = ImageOperands::BIAS
            | ImageOperands::LOD
            | ImageOperands::GRAD
            | ImageOperands::CONST_OFFSET
            | ImageOperands::OFFSET
            | ImageOperands::CONST_OFFSETS
            | ImageOperands::MIN_LOD
            | ImageOperands::NON_PRIVATE_TEXEL
            | ImageOperands::VOLATILE_TEXEL
            | ImageOperands::NONTEMPORAL;
        if !supported.contains(mask) {
            return Err(
                inst.unsupported(format!("image operands {:?}", mask.difference(supported)))
            );
        }
        let mut next = at + 1;
        let mut take = |s: &mut Self| -> Result<Agg, SpirvError> {
            let v = s.operand(inst, next)?;
            next += 1;
            Ok(v)
        };
        if mask.contains(ImageOperands::BIAS) {
            ops.bias = take(self)?.scalar();
        }
        if mask.contains(ImageOperands::LOD) {
            ops.lod = take(self)?.scalar();
        }
        if mask.contains(ImageOperands::GRAD) {
            let dx = take(self)?.components();
            let dy = take(self)?.components();
            match (dx, dy) {
                (Some(dx), Some(dy)) if dx.len() == coords && dy.len() == coords => {
                    ops.grad = Some((dx.to_vec(), dy.to_vec()))
                }
                _ => return Err(inst.mismatch("gradients do not match the coordinates")),
            }
        }
        // `ConstOffset` and `Offset` (bits 3 and 4) both give the one offset; the IR takes
        // constants only, so a dynamic `Offset` must fold to one.
        for (bit, what) in [
            (ImageOperands::CONST_OFFSET, "ConstOffset is not a constant"),
            (ImageOperands::OFFSET, "non-constant texel offsets"),
        ] {
            if mask.contains(bit) {
                let off = take(self)?;
                let folded = self.const_offset(inst, &off, coords, what)?;
                for (slot, o) in ops.offset.iter_mut().zip(folded) {
                    *slot = o;
                }
            }
        }
        if mask.contains(ImageOperands::CONST_OFFSETS) {
            let arr = take(self)?;
            let elems = match arr.children() {
                Some(e) if e.len() == 4 => e.to_vec(),
                _ => return Err(inst.mismatch("ConstOffsets is not an array of four offsets")),
            };
            let mut offsets = [[0i8; 2]; 4];
            for (slot, e) in offsets.iter_mut().zip(&elems) {
                let o = self.const_offset(inst, e, 2, "ConstOffsets is not a constant")?;
                *slot = [o[0], o[1]];
            }
            ops.offsets = Some(offsets);
        }
        if mask.contains(ImageOperands::MIN_LOD) {
            ops.min_lod = take(self)?.scalar();
        }
        Ok(ops)
    }

    /// The components of a constant texel offset (`count` integers in -128..=127).
    fn const_offset(
        &mut self,
        inst: &Inst,
        off: &Agg,
        count: usize,
        not_constant: &'static str,
    ) -> Result<Vec<i8>, SpirvError> {
        let comps = off
            .components()
            .ok_or_else(|| inst.mismatch("offset is not a vector"))?;
        if comps.len() != count {
            return Err(inst.mismatch("offset does not match the coordinates"));
        }
        comps
            .iter()
            .map(|&o| {
                let c = self
                    .fold(o)
                    .filter(|c| c.ty().is_int())
                    .ok_or_else(|| inst.unsupported(not_constant))?;
                i8::try_from(c.as_i64())
                    .map_err(|_| inst.unsupported("texel offsets outside -128..127"))
            })
            .collect()
    }

    /// `OpImageGather` / `OpImageDrefGather`: one gather, or four for `ConstOffsets`.
    fn gather(&mut self, inst: &Inst) -> Result<(), SpirvError> {
        let (texture, sampler, ty) = match self.operand_handle(inst, 0)? {
            Handle::SampledImage {
                texture,
                sampler,
                ty,
            } => (texture, sampler, ty),
            _ => return Err(inst.mismatch("gathering from something other than a sampled image")),
        };
        let target = self.target(inst, &ty)?;
        if !matches!(target.dim, TexDim::D2 | TexDim::Cube) {
            return Err(inst.invalid("gathers read 2D or cube images"));
        }
        let shadow = inst.opcode == Op::ImageDrefGather;
        let n = target.dim.coords();
        let coord = self.operand_components(inst, 1)?;
        let want = n + target.arrayed as usize;
        if coord.len() < want || coord.iter().any(|&c| !self.ty(c).is_float()) {
            return Err(inst.mismatch(format!("expects at least {want} float coordinates")));
        }
        let third = self.operand_scalar(inst, 2)?;
        let (component, dref) = if shadow {
            if !self.ty(third).is_float() {
                return Err(inst.mismatch("the depth reference is not a float"));
            }
            (0, Some(third))
        } else {
            let c = self
                .fold(third)
                .filter(|c| c.ty().is_int())
                .ok_or_else(|| inst.invalid("the gather component is not a constant integer"))?;
            let c = u8::try_from(c.as_i64())
                .ok()
                .filter(|&c| c <= 3)
                .ok_or_else(|| inst.invalid("the gather component is not 0 to 3"))?;
            (c, None)
        };
        let ops = self.image_operands(inst, 3, n)?;
        if ops.bias.is_some() || ops.lod.is_some() || ops.grad.is_some() || ops.min_lod.is_some() {
            return Err(inst.invalid("image operands do not fit a gather"));
        }
        if target.dim == TexDim::Cube && (ops.offset != [0; 3] || ops.offsets.is_some()) {
            return Err(inst.invalid("offsets with a cube image"));
        }
        let mut args: Vec<Value> = coord[..want].to_vec();
        args.extend(dref);
        let op = SampleOp {
            texture,
            sampler,
            target,
            lod: LodMode::Gather(component),
            proj: false,
            shadow,
            min_lod: false,
            offset: ops.offset,
        };
        let results = match ops.offsets {
            None => self
                .effect(EffectOp::Sample(op), &args, &[Type::F32; 4])
                .to_vec(),
            Some(offsets) => {
                // Texel k is the (i0, j0) texel (the fourth result) of the footprint at offset k.
                let mut texels = Vec::with_capacity(4);
                for [u, v] in offsets {
                    let one = SampleOp {
                        offset: [u, v, 0],
                        ..op
                    };
                    texels.push(self.effect(EffectOp::Sample(one), &args, &[Type::F32; 4])[3]);
                }
                texels
            }
        };
        self.bind_float_results(inst, &results)
    }

    fn sample(&mut self, inst: &Inst) -> Result<(), SpirvError> {
        let (texture, sampler, ty) = match self.operand_handle(inst, 0)? {
            Handle::SampledImage {
                texture,
                sampler,
                ty,
            } => (texture, sampler, ty),
            _ => return Err(inst.mismatch("sampling something other than a sampled image")),
        };
        let target = self.target(inst, &ty)?;
        let class = self.texel_class(inst, &ty)?;
        let name = inst.name();
        let proj = name.contains("Proj");
        let shadow = name.contains("Dref");
        let explicit = name.contains("ExplicitLod");
        let n = target.dim.coords();
        let coord = self.operand_components(inst, 1)?;
        let want = n + target.arrayed as usize + proj as usize;
        if coord.len() < want || coord.iter().any(|&c| !self.ty(c).is_float()) {
            return Err(inst.mismatch(format!("expects at least {want} float coordinates")));
        }
        if proj && target.arrayed {
            return Err(inst.invalid("projective sampling of an array image"));
        }
        let dref = if shadow {
            Some(self.operand_scalar(inst, 2)?)
        } else {
            None
        };
        let ops = self.image_operands(inst, 2 + shadow as usize, n)?;
        if ops.offsets.is_some() {
            return Err(inst.invalid("ConstOffsets outside a gather"));
        }
        for v in [ops.bias, ops.lod, ops.min_lod].into_iter().flatten() {
            if !self.ty(v).is_float() {
                return Err(inst.mismatch("bias, LOD and minimum LOD must be floats"));
            }
        }
        let lod = match (explicit, ops.lod, &ops.grad, ops.bias) {
            (true, Some(_), None, None) => LodMode::Explicit,
            (true, None, Some(_), None) => LodMode::Grad,
            (false, None, None, Some(_)) => LodMode::Bias,
            (false, None, None, None) => LodMode::Implicit,
            _ => return Err(inst.invalid("image operands do not fit the sampling instruction")),
        };
        if matches!(lod, LodMode::Implicit | LodMode::Bias) && self.stage != Stage::Fragment {
            return Err(inst.invalid("implicit-LOD sampling outside a fragment shader"));
        }
        let mut args: Vec<Value> = coord[..n].to_vec();
        if target.arrayed {
            args.push(coord[n]);
        }
        if proj {
            args.push(coord[n]);
        }
        if let Some(d) = dref {
            if !self.ty(d).is_float() {
                return Err(inst.mismatch("the depth reference is not a float"));
            }
            args.push(d);
        }
        args.extend(ops.bias.or(ops.lod));
        if let Some((dx, dy)) = &ops.grad {
            args.extend(dx);
            args.extend(dy);
        }
        args.extend(ops.min_lod);
        let op = SampleOp {
            texture,
            sampler,
            target,
            lod,
            proj,
            shadow,
            min_lod: ops.min_lod.is_some(),
            offset: ops.offset,
        };
        if shadow && class == TexelClass::Int {
            return Err(inst.invalid("depth-comparison sampling of an integer image"));
        }
        let count = op.result_count();
        let results = self.effect(EffectOp::Sample(op), &args, &vec![class.ty(); count]);
        self.bind_texel_results(inst, &results, class)
    }

    /// Binds texel results of either class: floats as [`Self::bind_float_results`], integers
    /// (32-bit only) as they are.
    pub(super) fn bind_texel_results(
        &mut self,
        inst: &Inst,
        results: &[Value],
        class: TexelClass,
    ) -> Result<(), SpirvError> {
        if class == TexelClass::Float {
            return self.bind_float_results(inst, results);
        }
        let (ty, count) = self.types.components(inst.result_ty()?, inst)?;
        if ty != Type::I32 || count > results.len() {
            return Err(inst.mismatch("texel result type (an integer image gives 32-bit integers)"));
        }
        self.bind_components(inst, &results[..count])
    }

    /// Binds texel results (f32), narrowing them if the result type is 16-bit.
    fn bind_float_results(&mut self, inst: &Inst, results: &[Value]) -> Result<(), SpirvError> {
        let (ty, count) = self.types.components(inst.result_ty()?, inst)?;
        if !ty.is_float() || count > results.len() {
            return Err(inst.mismatch("texel result type"));
        }
        let out: Vec<Value> = results[..count]
            .iter()
            .map(|&v| {
                if ty == Type::F32 {
                    v
                } else {
                    self.convert(PureOp::Fcvt, v, ty)
                }
            })
            .collect();
        self.bind_components(inst, &out)
    }

    fn fetch(&mut self, inst: &Inst) -> Result<(), SpirvError> {
        let (texture, ty) = self.image_of(inst, 0)?;
        let target = self.target(inst, &ty)?;
        let class = self.texel_class(inst, &ty)?;
        if target.dim == TexDim::Cube {
            return Err(inst.invalid("OpImageFetch from a cube image"));
        }
        let n = target.dim.coords() + target.arrayed as usize;
        let coord = self.operand_components(inst, 1)?;
        if coord.len() != n {
            return Err(inst.mismatch(format!("expects {n} integer coordinates")));
        }
        let ops = self.image_operands(inst, 2, target.dim.coords())?;
        if ops.bias.is_some()
            || ops.grad.is_some()
            || ops.min_lod.is_some()
            || ops.offsets.is_some()
        {
            return Err(inst.invalid("image operands do not fit OpImageFetch"));
        }
        let mut args = Vec::new();
        for &c in &coord {
            args.push(self.int_resize(inst, c, Type::I32, true)?);
        }
        let lod = match ops.lod {
            Some(l) => self.int_resize(inst, l, Type::I32, true)?,
            None => self.zero(Type::I32),
        };
        args.push(lod);
        let op = FetchOp {
            texture,
            target,
            offset: ops.offset,
        };
        let results = self.effect(EffectOp::Fetch(op), &args, &[class.ty(); 4]);
        self.bind_texel_results(inst, &results, class)
    }

    fn query_size(&mut self, inst: &Inst) -> Result<(), SpirvError> {
        let (texture, ty) = self.image_of(inst, 0)?;
        if ty.sampled == 2 {
            return self.storage_image_size(inst, texture, &ty);
        }
        let target = self.target(inst, &ty)?;
        let lod = if inst.opcode == Op::ImageQuerySizeLod {
            let l = self.operand_scalar(inst, 1)?;
            self.int_resize(inst, l, Type::I32, false)?
        } else {
            self.zero(Type::I32)
        };
        let n = target.dim.size_components() + target.arrayed as usize;
        let sizes = self.effect(
            EffectOp::TexSize(SizeOp { texture, target }),
            &[lod],
            &vec![Type::I32; n],
        );
        let to = self.result_scalar(inst)?;
        let mut out = Vec::new();
        for &s in &sizes {
            out.push(self.int_resize(inst, s, to, false)?);
        }
        self.bind_components(inst, &out)
    }
}
