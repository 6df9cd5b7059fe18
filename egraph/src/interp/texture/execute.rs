//! The IR's texture instructions on a lockstep batch: operand decoding, projection, quad
//! derivatives for implicit LOD, and writing the results.

use super::lod::LodInput;
use super::sample::{gather, sample, Request};
use super::{Filter, MipFilter, Sampler, Texture};
use crate::interp::error::InterpError;
use crate::interp::exec::Machine;
use crate::interp::lanes::Mask;
use crate::ir::eval::round_float;
use crate::ir::{
    Axis, Binding, Const, DerivPrecision, FetchOp, Inst, LodMode, SampleOp, SizeOp, TexDim,
    TexTarget, TexelClass, Type, Value,
};

/// A float result of type `ty` from an f32 (rounded once for f16).
fn float_result(v: f32, ty: crate::ir::Type) -> Const {
    round_float(ty, v as f64)
}

impl Machine<'_> {
    pub(super) fn texture(
        &self,
        inst: Inst,
        binding: Binding,
        target: TexTarget,
    ) -> Result<&Texture, InterpError> {
        let tex = self
            .res()
            .texture(binding)
            .ok_or(InterpError::MissingTexture { inst, binding })?;
        if tex.desc().target != target {
            return Err(InterpError::TextureTarget {
                inst,
                binding,
                expected: target,
                got: tex.desc().target,
            });
        }
        Ok(tex)
    }

    fn f32_operand(&self, inst: Inst, v: Option<Value>, lane: usize) -> Result<f32, InterpError> {
        match v {
            Some(v) => Ok(self.vals.get(inst, v, lane)?.as_f32()),
            None => Err(self.malformed(inst, "missing texture operand")),
        }
    }

    fn f32_operands<const N: usize>(
        &self,
        inst: Inst,
        vs: &[Value],
        lane: usize,
    ) -> Result<[f32; N], InterpError> {
        let mut out = [0.0; N];
        for (o, &v) in out.iter_mut().zip(vs) {
            *o = self.vals.get(inst, v, lane)?.as_f32();
        }
        Ok(out)
    }

    /// Writes one lane's texel (or shadow result) to the instruction's results: integer
    /// results take the words' bits (integer textures carry them in f32 containers).
    pub(super) fn write_texel(&mut self, inst: Inst, lane: usize, texel: [f32; 4]) {
        let func = self.func;
        for (&r, &v) in func.insts[inst].results.iter().zip(&texel) {
            let ty = func.value_type(r);
            let c = if ty.is_float() {
                float_result(v, ty)
            } else {
                Const::u32(v.to_bits())
            };
            self.vals.set(r, lane, c);
        }
    }

    /// Checks that the results' class (f32 or i32) is the bound texture's format class.
    fn check_texel_class(
        &self,
        inst: Inst,
        binding: Binding,
        tex: &Texture,
    ) -> Result<(), InterpError> {
        let func = self.func;
        let int_results = func.insts[inst]
            .results
            .first()
            .is_some_and(|&r| func.value_type(r) == Type::I32);
        let want = if int_results {
            TexelClass::Int
        } else {
            TexelClass::Float
        };
        if tex.desc().format.class() != want {
            return Err(InterpError::TexelMismatch {
                inst,
                binding,
                reason: if int_results {
                    "integer results from a float texture"
                } else {
                    "float results from an integer texture"
                },
            });
        }
        Ok(())
    }

    pub(crate) fn exec_sample(
        &mut self,
        inst: Inst,
        op: SampleOp,
        mask: &Mask,
    ) -> Result<(), InterpError> {
        let func = self.func;
        let data = &func.insts[inst];
        if data.args.len() != op.arity() || data.results.len() != op.result_count() {
            return Err(self.malformed(inst, "sample operands or results do not fit its kind"));
        }
        let tex = self.texture(inst, op.texture, op.target)?;
        self.check_texel_class(inst, op.texture, tex)?;
        let integer = tex.desc().format.class() == TexelClass::Int;
        let sampler: Sampler =
            *self
                .res()
                .sampler(op.sampler)
                .ok_or(InterpError::MissingSampler {
                    inst,
                    binding: op.sampler,
                })?;
        match (op.shadow, sampler.compare.is_some()) {
            (true, false) => {
                return Err(InterpError::SamplerMismatch {
                    inst,
                    reason: "a shadow sample needs a sampler with a compare operation",
                })
            }
            (false, true) => {
                return Err(InterpError::SamplerMismatch {
                    inst,
                    reason: "a sampler with a compare operation is only for shadow samples",
                })
            }
            _ => {}
        }
        // Integer texels are only moved, never weighted (see the format module's notes), and
        // Vulkan allows only nearest filtering of integer formats anyway.
        if integer
            && (sampler.mag_filter != Filter::Nearest
                || sampler.min_filter != Filter::Nearest
                || sampler.mip_filter == MipFilter::Linear)
        {
            return Err(InterpError::SamplerMismatch {
                inst,
                reason: "an integer texture is sampled with nearest filtering only",
            });
        }
        let implicit = matches!(op.lod, LodMode::Implicit | LodMode::Bias);
        let quads = if implicit {
            Some(self.require_fragment(inst, "implicit-LOD sampling")?)
        } else {
            None
        };
        let operands = op.operands(&data.args);
        let n = op.target.dim.coords();

        // Projected coordinates and reference of every active lane first: implicit LOD needs
        // the neighbours'.
        let mut coords = vec![[0f32; 3]; self.lanes];
        let mut drefs = vec![0f32; self.lanes];
        for lane in mask.lanes() {
            let mut c: [f32; 3] = self.f32_operands(inst, operands.coords, lane)?;
            let mut dref = match operands.dref {
                Some(_) => self.f32_operand(inst, operands.dref, lane)?,
                None => 0.0,
            };
            if operands.proj.is_some() {
                let q = self.f32_operand(inst, operands.proj, lane)?;
                for x in c.iter_mut().take(n) {
                    *x /= q;
                }
                dref /= q;
            }
            coords[lane] = c;
            drefs[lane] = dref;
        }

        for lane in mask.lanes() {
            let lod = match (op.lod, quads) {
                // Gathers read level 0 whatever the LOD; `gather` below ignores it.
                (LodMode::Gather(_), _) => LodInput::Explicit(0.0),
                (LodMode::Explicit, _) => {
                    LodInput::Explicit(self.f32_operand(inst, operands.lod, lane)?)
                }
                (LodMode::Grad, _) => LodInput::Derivatives {
                    dx: self.f32_operands(inst, operands.ddx, lane)?,
                    dy: self.f32_operands(inst, operands.ddy, lane)?,
                },
                (_, Some(quads)) => {
                    // Implicit LOD uses fine derivatives (rule 3).
                    let diff = |axis| match quads.pair(lane, axis, DerivPrecision::Fine, mask) {
                        Some((from, to)) => {
                            core::array::from_fn(|i| coords[to][i] - coords[from][i])
                        }
                        None => [0.0; 3],
                    };
                    LodInput::Derivatives {
                        dx: diff(Axis::X),
                        dy: diff(Axis::Y),
                    }
                }
                (_, None) => return Err(self.malformed(inst, "implicit LOD without quads")),
            };
            let layer = match operands.layer {
                Some(_) => self.f32_operand(inst, operands.layer, lane)?,
                None => 0.0,
            };
            let bias = match (op.lod, operands.lod) {
                (LodMode::Bias, l @ Some(_)) => self.f32_operand(inst, l, lane)?,
                _ => 0.0,
            };
            let min_lod = match operands.min_lod {
                Some(_) => Some(self.f32_operand(inst, operands.min_lod, lane)?),
                None => None,
            };
            let req = Request {
                coords: coords[lane],
                layer,
                lod,
                bias,
                min_lod,
                dref: op.shadow.then_some(drefs[lane]),
                offset: op.offset,
            };
            let tex = self.texture(inst, op.texture, op.target)?;
            let texel = match op.lod {
                LodMode::Gather(component) => gather(tex, &sampler, &req, component),
                _ => sample(tex, &sampler, &req),
            };
            self.write_texel(inst, lane, texel);
        }
        Ok(())
    }

    pub(crate) fn exec_fetch(
        &mut self,
        inst: Inst,
        op: FetchOp,
        mask: &Mask,
    ) -> Result<(), InterpError> {
        let func = self.func;
        let args = &func.insts[inst].args;
        let n = op.target.dim.coords();
        if op.target.dim == TexDim::Cube || args.len() != n + op.target.arrayed as usize + 1 {
            return Err(self.malformed(inst, "fetch operands do not fit its target"));
        }
        let tex = self.texture(inst, op.texture, op.target)?;
        self.check_texel_class(inst, op.texture, tex)?;
        for lane in mask.lanes() {
            let mut ints = [0i64; 5];
            for (slot, &a) in ints.iter_mut().zip(args) {
                *slot = self.vals.get(inst, a, lane)?.as_i64();
            }
            let mut at = [0i64; 3];
            for (axis, x) in at.iter_mut().enumerate().take(n) {
                *x = ints[axis] + op.offset[axis] as i64;
            }
            let layer = if op.target.arrayed { ints[n] } else { 0 };
            let level = ints[args.len() - 1];
            let tex = self.texture(inst, op.texture, op.target)?;
            let desc = tex.desc();
            let in_range = |v: i64, size: u32| (0..size as i64).contains(&v);
            let texel = if in_range(level, desc.levels) {
                let extent = desc.level_extent(level as u32);
                if (0..3).all(|a| in_range(at[a], extent[a])) && in_range(layer, desc.layers) {
                    tex.texel(
                        level as u32,
                        layer as u32,
                        at[0] as u32,
                        at[1] as u32,
                        at[2] as u32,
                    )
                } else {
                    [0.0; 4]
                }
            } else {
                [0.0; 4]
            };
            self.write_texel(inst, lane, texel);
        }
        Ok(())
    }

    pub(crate) fn exec_tex_size(
        &mut self,
        inst: Inst,
        op: SizeOp,
        mask: &Mask,
    ) -> Result<(), InterpError> {
        let func = self.func;
        let data = &func.insts[inst];
        let components = op.target.dim.size_components();
        let [level_arg] = data.args[..] else {
            return Err(self.malformed(inst, "tex_size takes the level"));
        };
        if data.results.len() != components + op.target.arrayed as usize {
            return Err(self.malformed(inst, "tex_size results do not fit its target"));
        }
        let desc = *self.texture(inst, op.texture, op.target)?.desc();
        for lane in mask.lanes() {
            let level = self.vals.get(inst, level_arg, lane)?.as_i64();
            // Out-of-range levels (undefined in Vulkan) report zeros.
            let sizes: [u32; 4] = if (0..desc.levels as i64).contains(&level) {
                let e = desc.level_extent(level as u32);
                let mut s = [0; 4];
                s[..components].copy_from_slice(&e[..components]);
                s[components] = desc.layers;
                s
            } else {
                [0; 4]
            };
            for (&r, &s) in data.results.iter().zip(&sizes) {
                self.vals.set(r, lane, Const::u32(s));
            }
        }
        Ok(())
    }

    pub(crate) fn exec_tex_levels(
        &mut self,
        inst: Inst,
        binding: Binding,
        mask: &Mask,
    ) -> Result<(), InterpError> {
        let levels = self
            .res()
            .texture(binding)
            .ok_or(InterpError::MissingTexture { inst, binding })?
            .desc()
            .levels;
        let r = self.single_result(inst)?;
        for lane in mask.lanes() {
            self.vals.set(r, lane, Const::u32(levels));
        }
        Ok(())
    }
}
