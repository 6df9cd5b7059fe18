//! Storage images on a lockstep batch: `image_load`, `image_store` and `image_size` on level 0
//! of the texture bound at the image's binding.
//!
//! Texels move as 32-bit words ([`super::TextureFormat::decode_words`]), so integer images
//! keep every bit and float images round only where their format does (rgba8, rgba16f).
//! Out-of-range coordinates (including the layer) read zeros and drop the store, as Vulkan's
//! robust image access does; helper invocations do not store.

use super::Texture;
use crate::interp::error::InterpError;
use crate::interp::exec::Machine;
use crate::interp::lanes::Mask;
use crate::ir::{texel_class, Const, ImageFormat, ImageOp, Inst, TexelClass};

/// A lane's texel address: `(x, y, z)` and the layer, or `None` outside the image.
fn locate(tex: &Texture, op: &ImageOp, ints: &[i64]) -> Option<([u32; 3], u32)> {
    let n = op.target.dim.coords();
    let extent = tex.desc().level_extent(0);
    let mut at = [0u32; 3];
    for axis in 0..n {
        let v = *ints.get(axis)?;
        if !(0..extent[axis] as i64).contains(&v) {
            return None;
        }
        at[axis] = v as u32;
    }
    let layer = if op.target.arrayed {
        let l = *ints.get(n)?;
        if !(0..tex.desc().layers as i64).contains(&l) {
            return None;
        }
        l as u32
    } else {
        0
    };
    Some((at, layer))
}

impl Machine<'_> {
    /// The image bound for `op`, checked against its target, declared format and the class
    /// of the texel values the instruction moves.
    fn image(&self, inst: Inst, op: &ImageOp, class: TexelClass) -> Result<&Texture, InterpError> {
        let tex = self.texture(inst, op.image, op.target)?;
        let format = tex.desc().format;
        let mismatch = |reason| InterpError::TexelMismatch {
            inst,
            binding: op.image,
            reason,
        };
        if op.format != ImageFormat::Unknown
            && super::TextureFormat::of_image(op.format) != Some(format)
        {
            return Err(mismatch("the bound image's format is not the declared one"));
        }
        if format.class() != class {
            return Err(mismatch(match class {
                TexelClass::Int => "integer texels for a float image",
                TexelClass::Float => "float texels for an integer image",
            }));
        }
        Ok(tex)
    }

    fn lane_ints(
        &self,
        inst: Inst,
        args: &[crate::ir::Value],
        lane: usize,
    ) -> Result<Vec<i64>, InterpError> {
        args.iter()
            .map(|&a| Ok(self.vals.get(inst, a, lane)?.as_i64()))
            .collect()
    }

    pub(crate) fn exec_image_load(
        &mut self,
        inst: Inst,
        op: ImageOp,
        mask: &Mask,
    ) -> Result<(), InterpError> {
        let func = self.func;
        let data = &func.insts[inst];
        let types: Vec<_> = data.results.iter().map(|&r| func.value_type(r)).collect();
        let class = texel_class(&types)
            .ok_or_else(|| self.malformed(inst, "image_load results are not a texel"))?;
        if data.args.len() != op.coords() {
            return Err(self.malformed(inst, "image_load operands do not fit its target"));
        }
        self.image(inst, &op, class)?;
        for lane in mask.lanes() {
            let ints = self.lane_ints(inst, &data.args, lane)?;
            let tex = self.image(inst, &op, class)?;
            let words = match locate(tex, &op, &ints) {
                Some((at, layer)) => tex.texel_words(0, layer, at[0], at[1], at[2]),
                None => [0; 4],
            };
            for (&r, &w) in data.results.iter().zip(&words) {
                let c = match class {
                    TexelClass::Float => Const::f32(f32::from_bits(w)),
                    TexelClass::Int => Const::u32(w),
                };
                self.vals.set(r, lane, c);
            }
        }
        Ok(())
    }

    pub(crate) fn exec_image_store(
        &mut self,
        inst: Inst,
        op: ImageOp,
        mask: &Mask,
    ) -> Result<(), InterpError> {
        let func = self.func;
        let data = &func.insts[inst];
        let n = op.coords();
        if data.args.len() != n + 4 {
            return Err(self.malformed(inst, "image_store operands do not fit its target"));
        }
        let types: Vec<_> = data.args[n..].iter().map(|&a| func.value_type(a)).collect();
        let class = texel_class(&types)
            .ok_or_else(|| self.malformed(inst, "image_store values are not a texel"))?;
        self.image(inst, &op, class)?;
        let read_only = || InterpError::ReadOnlyStore {
            inst,
            space: format!("image {}", op.image),
        };
        if self.resources.get_mut().is_none() {
            return Err(read_only());
        }
        for lane in mask.lanes() {
            if self.helper.get(lane) {
                continue;
            }
            let ints = self.lane_ints(inst, &data.args[..n], lane)?;
            let mut words = [0u32; 4];
            for (w, &a) in words.iter_mut().zip(&data.args[n..]) {
                // f32 and i32 values: their 32 bits.
                *w = self.vals.get(inst, a, lane)?.bits() as u32;
            }
            let binding = op.image;
            let tex = self
                .resources
                .get_mut()
                .and_then(|r| r.texture_mut(binding))
                .ok_or_else(read_only)?;
            if let Some((at, layer)) = locate(tex, &op, &ints) {
                tex.store_words(0, layer, at, words);
            }
        }
        Ok(())
    }

    pub(crate) fn exec_image_size(
        &mut self,
        inst: Inst,
        op: ImageOp,
        mask: &Mask,
    ) -> Result<(), InterpError> {
        let func = self.func;
        let data = &func.insts[inst];
        let components = op.target.dim.size_components();
        if !data.args.is_empty() || data.results.len() != components + op.target.arrayed as usize {
            return Err(self.malformed(inst, "image_size results do not fit its target"));
        }
        let desc = *self.texture(inst, op.image, op.target)?.desc();
        let extent = desc.level_extent(0);
        let mut sizes = [0u32; 4];
        sizes[..components].copy_from_slice(&extent[..components]);
        sizes[components] = desc.layers;
        for lane in mask.lanes() {
            for (&r, &s) in data.results.iter().zip(&sizes) {
                self.vals.set(r, lane, Const::u32(s));
            }
        }
        Ok(())
    }
}
