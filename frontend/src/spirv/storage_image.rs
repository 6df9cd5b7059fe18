//! Storage images: `OpImageRead`, `OpImageWrite` and `OpImageQuerySize` on images declared
//! with `Sampled = 2` (SPIR-V section 3.32.10), lifted to the IR's `image_load`,
//! `image_store` and `image_size`.
//!
//! The declared image format becomes the IR's [`ImageFormat`] (`Unknown` with the
//! `StorageImage{Read,Write}WithoutFormat` capabilities); the sampled type (32-bit float or
//! integer) gives the texel class. Coordinates are integers, one per axis plus the layer for
//! arrays. A texel written with fewer than four components is padded with zeros (the format
//! keeps only the channels it has). The memory-model image operands (`NonPrivateTexel`,
//! `VolatileTexel`, `MakeTexelAvailable`/`Visible`, `Nontemporal`) and the sign/zero
//! extension operands (a no-op for 32-bit texels) are accepted; `Sample`, offsets and the
//! rest are refused.

use super::context::Lowerer;
use super::error::SpirvError;
use super::module::Inst;
use super::types::ImageTy;
use super::value::Handle;
use agxc_egraph::ir::{Binding, EffectOp, ImageFormat, ImageOp, TexDim, TexelClass, Type, Value};
use spirv::ImageOperands;

/// The IR format of a SPIR-V image format, if the IR has it.
fn image_format(f: spirv::ImageFormat) -> Option<ImageFormat> {
    use spirv::ImageFormat as F;
    Some(match f {
        F::Rgba32f => ImageFormat::Rgba32f,
        F::Rgba16f => ImageFormat::Rgba16f,
        F::R32f => ImageFormat::R32f,
        F::Rgba8 => ImageFormat::Rgba8,
        F::Rgba32ui => ImageFormat::Rgba32ui,
        F::Rgba32i => ImageFormat::Rgba32i,
        F::R32ui => ImageFormat::R32ui,
        F::R32i => ImageFormat::R32i,
        F::Unknown => ImageFormat::Unknown,
        _ => return None,
    })
}

impl Lowerer<'_> {
    /// The storage image operand 0 of `inst`: its IR access record and texel class.
    fn storage_image(&mut self, inst: &Inst) -> Result<(ImageOp, TexelClass), SpirvError> {
        let (image, ty) = match self.operand_handle(inst, 0)? {
            Handle::Image { binding, ty } => (binding, ty),
            _ => return Err(inst.mismatch("operand 0 is not a storage image")),
        };
        self.storage_image_op(inst, image, &ty)
    }

    fn storage_image_op(
        &mut self,
        inst: &Inst,
        image: Binding,
        ty: &ImageTy,
    ) -> Result<(ImageOp, TexelClass), SpirvError> {
        if ty.sampled == 1 {
            return Err(inst.invalid("storage-image access to an image used with a sampler"));
        }
        let target = self.target(inst, ty)?;
        if target.dim == TexDim::Cube {
            return Err(inst.unsupported("cube-map storage images"));
        }
        let class = self.texel_class(inst, ty)?;
        let format = image_format(ty.format)
            .ok_or_else(|| inst.unsupported(format!("storage images of format {:?}", ty.format)))?;
        if format.class().is_some_and(|c| c != class) {
            return Err(inst.invalid("the image format does not fit the sampled type"));
        }
        Ok((
            ImageOp {
                image,
                target,
                format,
            },
            class,
        ))
    }

    /// Checks the optional image operands at `at` (only ones without effect on the texel).
    fn storage_image_operands(&self, inst: &Inst, at: usize) -> Result<(), SpirvError> {
        let Some(mask) = inst.operands.get(at) else {
            return Ok(());
        };
        let rspirv::dr::Operand::ImageOperands(mask) = mask else {
            return Err(inst.invalid("expected image operands"));
        };
        let accepted = ImageOperands::NON_PRIVATE_TEXEL
            | ImageOperands::VOLATILE_TEXEL
            | ImageOperands::MAKE_TEXEL_AVAILABLE
            | ImageOperands::MAKE_TEXEL_VISIBLE
            | ImageOperands::NONTEMPORAL
            | ImageOperands::SIGN_EXTEND
            | ImageOperands::ZERO_EXTEND;
        if !accepted.contains(*mask) {
            return Err(inst.unsupported(format!(
                "storage-image operands {:?}",
                mask.difference(accepted)
            )));
        }
        Ok(())
    }

    /// The integer coordinates (operand 1), as `i32`s.
    fn storage_coords(&mut self, inst: &Inst, op: &ImageOp) -> Result<Vec<Value>, SpirvError> {
        let coord = self.operand_components(inst, 1)?;
        let n = op.coords();
        if coord.len() != n || coord.iter().any(|&c| !self.ty(c).is_int()) {
            return Err(inst.mismatch(format!("expects {n} integer coordinates")));
        }
        coord
            .iter()
            .map(|&c| self.int_resize(inst, c, Type::I32, true))
            .collect()
    }

    /// `OpImageRead`: `image_load`, then the result's components.
    pub(super) fn image_read(&mut self, inst: &Inst) -> Result<(), SpirvError> {
        let (op, class) = self.storage_image(inst)?;
        let args = self.storage_coords(inst, &op)?;
        self.storage_image_operands(inst, 2)?;
        let results = self.effect(EffectOp::ImageLoad(op), &args, &[class.ty(); 4]);
        self.bind_texel_results(inst, &results, class)
    }

    /// `OpImageWrite`: `image_store` of the texel padded to four components with zeros.
    pub(super) fn image_write(&mut self, inst: &Inst) -> Result<(), SpirvError> {
        let (op, class) = self.storage_image(inst)?;
        let mut args = self.storage_coords(inst, &op)?;
        let texel = self.operand_components(inst, 2)?;
        if texel.len() > 4 || texel.iter().any(|&t| self.ty(t) != class.ty()) {
            return Err(inst.mismatch(format!(
                "the texel must be up to four {} values",
                class.ty()
            )));
        }
        self.storage_image_operands(inst, 3)?;
        args.extend(texel.iter().copied());
        for _ in texel.len()..4 {
            args.push(self.zero(class.ty()));
        }
        self.effect(EffectOp::ImageStore(op), &args, &[]);
        Ok(())
    }

    /// `OpImageQuerySize` of a storage image: `image_size`.
    pub(super) fn storage_image_size(
        &mut self,
        inst: &Inst,
        image: Binding,
        ty: &ImageTy,
    ) -> Result<(), SpirvError> {
        if inst.opcode == spirv::Op::ImageQuerySizeLod {
            return Err(inst.invalid("OpImageQuerySizeLod of a storage image"));
        }
        let (op, _) = self.storage_image_op(inst, image, ty)?;
        let n = op.target.dim.size_components() + op.target.arrayed as usize;
        let sizes = self.effect(EffectOp::ImageSize(op), &[], &vec![Type::I32; n]);
        let to = self.result_scalar(inst)?;
        let mut out = Vec::with_capacity(n);
        for &s in &sizes {
            out.push(self.int_resize(inst, s, to, false)?);
        }
        self.bind_components(inst, &out)
    }
}
