//! `LOAD`, `STORE` and `RESQ` on `IMAGE[n]`: the IR's storage-image `image_load`,
//! `image_store` and `image_size`.
//!
//! The image's target and format come from its declaration (`DCL IMAGE[0], 2D,
//! PIPE_FORMAT_R32G32B32A32_FLOAT, WR`, as Mesa's GLSL-to-TGSI path writes it; the copies
//! after the operands of each instruction are not needed). Coordinates are integer channels
//! `x`, `xy` or `xyz` (the layer last for arrays). A load writes the channels of the write
//! mask; a store writes the whole texel (Mesa's `tgsi_exec.c` stores all four channels of an
//! image whatever the mask). `RESQ` writes the size per axis then the layer count; channels
//! past those are zero (`tgsi_exec.c` leaves them unset). Float formats move `f32`, integer
//! formats `i32` bit patterns.

use super::super::{Lifter, Want};
use crate::tgsi::ast::{RegFile, TextureTarget};
use crate::tgsi::error::{Result, TgsiError};
use crate::tgsi::opcode::Opcode;
use agxc_egraph::ir::{
    Binding, EffectOp, ImageFormat, ImageOp, TexDim, TexTarget, TexelClass, Type,
};

/// The IR format of a Gallium `PIPE_FORMAT_*` name, if the IR has it.
fn pipe_format(name: &str) -> Option<ImageFormat> {
    Some(match name {
        "PIPE_FORMAT_R32G32B32A32_FLOAT" => ImageFormat::Rgba32f,
        "PIPE_FORMAT_R16G16B16A16_FLOAT" => ImageFormat::Rgba16f,
        "PIPE_FORMAT_R32_FLOAT" => ImageFormat::R32f,
        "PIPE_FORMAT_R8G8B8A8_UNORM" => ImageFormat::Rgba8,
        "PIPE_FORMAT_R32G32B32A32_UINT" => ImageFormat::Rgba32ui,
        "PIPE_FORMAT_R32G32B32A32_SINT" => ImageFormat::Rgba32i,
        "PIPE_FORMAT_R32_UINT" => ImageFormat::R32ui,
        "PIPE_FORMAT_R32_SINT" => ImageFormat::R32i,
        _ => return None,
    })
}

/// The IR target of an image declaration's target.
fn image_target(t: TextureTarget) -> Option<TexTarget> {
    let (dim, arrayed) = match t {
        TextureTarget::D1 => (TexDim::D1, false),
        TextureTarget::D2 => (TexDim::D2, false),
        TextureTarget::D3 => (TexDim::D3, false),
        TextureTarget::Array1D => (TexDim::D1, true),
        TextureTarget::Array2D => (TexDim::D2, true),
        _ => return None,
    };
    Some(TexTarget { dim, arrayed })
}

impl Lifter<'_, '_> {
    /// The declared image `IMAGE[index]` as an IR access record, with its texel class.
    fn image(&self, index: i64, pos: crate::tgsi::error::Pos) -> Result<(ImageOp, TexelClass)> {
        let index =
            u32::try_from(index).map_err(|_| TgsiError::invalid(pos, "negative image index"))?;
        let decl = self
            .prog
            .decls
            .iter()
            .find(|d| d.file == RegFile::Image && (d.range.first..=d.range.last).contains(&index))
            .ok_or_else(|| TgsiError::invalid(pos, format!("IMAGE[{index}] is not declared")))?;
        let target = decl
            .texture
            .ok_or_else(|| TgsiError::invalid(pos, format!("IMAGE[{index}] has no target")))?;
        let target = image_target(target)
            .ok_or_else(|| self.unsupported(format!("{} images", target.name())))?;
        let format = match decl.image_format.as_deref() {
            Some(name) => pipe_format(name)
                .ok_or_else(|| self.unsupported(format!("images of format {name}")))?,
            None => return Err(self.unsupported("images without a format")),
        };
        let class = format.class().ok_or_else(|| {
            TgsiError::invalid(pos, "an image format that says nothing of its texels")
        })?;
        let image = self
            .opts
            .image_bindings
            .get(&index)
            .copied()
            .unwrap_or(Binding::new(0, index));
        Ok((
            ImageOp {
                image,
                target,
                format,
            },
            class,
        ))
    }

    fn want(class: TexelClass) -> Want {
        match class {
            TexelClass::Float => Want::F32,
            TexelClass::Int => Want::I32,
        }
    }

    /// `LOAD`/`STORE`/`RESQ` whose resource is an `IMAGE`.
    pub(super) fn image_op(&mut self, op: Opcode) -> Result<()> {
        match op {
            Opcode::LOAD => {
                let res = self.src(0)?;
                if res.reg.index.indirect.is_some() {
                    return Err(self.unsupported("an indirectly indexed image"));
                }
                let (image, class) = self.image(res.reg.index.offset, res.reg.pos)?;
                let mut args = Vec::with_capacity(image.coords());
                for c in 0..image.coords() {
                    args.push(self.fetch(1, c, Want::I32)?);
                }
                let texel = self
                    .b
                    .effect(EffectOp::ImageLoad(image), &args, &[class.ty(); 4]);
                self.store(0, [0, 1, 2, 3].map(|c| Some(texel[c])))
            }
            Opcode::STORE => {
                let dst = self.inst().dsts[0];
                if dst.reg.index.indirect.is_some() {
                    return Err(self.unsupported("an indirectly indexed image"));
                }
                let (image, class) = self.image(dst.reg.index.offset, dst.reg.pos)?;
                let mut args = Vec::with_capacity(image.coords() + 4);
                for c in 0..image.coords() {
                    args.push(self.fetch(0, c, Want::I32)?);
                }
                for c in 0..4 {
                    args.push(self.fetch(1, c, Self::want(class))?);
                }
                self.b.effect(EffectOp::ImageStore(image), &args, &[]);
                Ok(())
            }
            _ => {
                let res = self.src(0)?;
                let (image, _) = self.image(res.reg.index.offset, res.reg.pos)?;
                let n = image.target.dim.size_components() + image.target.arrayed as usize;
                let sizes = self
                    .b
                    .effect(EffectOp::ImageSize(image), &[], &vec![Type::I32; n]);
                let zero = self.b.i32(0);
                self.store(
                    0,
                    [0, 1, 2, 3].map(|c| Some(sizes.get(c).copied().unwrap_or(zero))),
                )
            }
        }
    }
}
