//! Texture opcodes: `TEX`, `TXP`, `TXB`, `TXL`, `TXD`, `TEX2`/`TXB2`/`TXL2`, `TEX_LZ`,
//! `TXF`/`TXF_LZ`, `TXQ`, `TG4`, and the Direct3D-style `SAMPLE*`, `SAMPLE_I`, `SVIEWINFO`.
//!
//! Operand layout per target (Gallium's `tgsi.rst`, TEX): coordinates first, then the array
//! layer (`1D_ARRAY`: y; `2D_ARRAY`: z; `CUBEARRAY`: w), then the shadow reference (z for
//! 1D and 2D targets and `SHADOW1D_ARRAY`, w for `SHADOWCUBE` and `SHADOW2D_ARRAY`, `src1.x`
//! with `TEX2` for `SHADOWCUBEARRAY`); `TXP` divides by w, `TXB`/`TXL` take the bias or LOD
//! from w (`TXB2`/`TXL2` from `src1.x`). Unit `n` (`SAMP[n]`) is one combined texture and
//! sampler binding.
//!
//! `RECT` targets take unnormalised coordinates; they are divided by the level-0 size. Outside
//! fragment shaders there are no quad derivatives, so implicit-LOD samples read level 0 (and a
//! bias becomes the LOD), as GLSL specifies for `texture()` there. A shadow sample returns
//! `(r, r, r, 1)`. A unit whose `SVIEW` declares `SINT` or `UINT` returns `i32` texels (the
//! IR's integer textures, sampled with nearest filtering by the API's rules).
//!
//! `TG4` (texture gather, `tgsi.rst`: the four texels of the bilinear footprint at the base
//! level in the order (-, +), (+, +), (+, -), (-, -)) takes the component to gather from
//! `src1.x`, which must be an immediate (GLSL makes it a constant expression); 2D, `RECT` and
//! cube targets (arrays too). Shadow targets are refused.

use super::super::{Lifter, Want};
use crate::tgsi::ast::{ImmType, RegFile, ReturnType, TextureTarget};
use crate::tgsi::error::{Result, TgsiError};
use crate::tgsi::opcode::Opcode;
use agxc_egraph::ir::{
    EffectOp, FetchOp, LodMode, PureOp, SampleOp, SizeOp, Stage, TexDim, TexTarget, Type, Value,
};

/// Where the shadow reference is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ref {
    None,
    Src0(u8),
    Src1X,
}

/// How a target's operands are laid out.
#[derive(Clone, Copy)]
struct Layout {
    dim: TexDim,
    arrayed: bool,
    layer: Option<u8>,
    shadow: Ref,
    rect: bool,
}

impl Layout {
    fn target(&self) -> TexTarget {
        TexTarget {
            dim: self.dim,
            arrayed: self.arrayed,
        }
    }

    /// True if source 0's w component is taken by the layer or the shadow reference.
    fn uses_w(&self) -> bool {
        self.layer == Some(3) || self.shadow == Ref::Src0(3)
    }
}

fn layout(t: TextureTarget) -> Option<Layout> {
    use TextureTarget::*;
    let l = |dim, arrayed, layer, shadow, rect| Layout {
        dim,
        arrayed,
        layer,
        shadow,
        rect,
    };
    Some(match t {
        D1 => l(TexDim::D1, false, None, Ref::None, false),
        Shadow1D => l(TexDim::D1, false, None, Ref::Src0(2), false),
        D2 => l(TexDim::D2, false, None, Ref::None, false),
        Rect => l(TexDim::D2, false, None, Ref::None, true),
        Shadow2D => l(TexDim::D2, false, None, Ref::Src0(2), false),
        ShadowRect => l(TexDim::D2, false, None, Ref::Src0(2), true),
        D3 => l(TexDim::D3, false, None, Ref::None, false),
        Cube => l(TexDim::Cube, false, None, Ref::None, false),
        ShadowCube => l(TexDim::Cube, false, None, Ref::Src0(3), false),
        Array1D => l(TexDim::D1, true, Some(1), Ref::None, false),
        Shadow1DArray => l(TexDim::D1, true, Some(1), Ref::Src0(2), false),
        Array2D => l(TexDim::D2, true, Some(2), Ref::None, false),
        Shadow2DArray => l(TexDim::D2, true, Some(2), Ref::Src0(3), false),
        CubeArray => l(TexDim::Cube, true, Some(3), Ref::None, false),
        ShadowCubeArray => l(TexDim::Cube, true, Some(3), Ref::Src1X, false),
        Buffer | Msaa2D | Msaa2DArray => return None,
    })
}

/// How the level of detail is chosen, with its operand.
enum Lod {
    Implicit,
    Bias(Value),
    Explicit(Value),
    /// Sources holding d/dx and d/dy of the coordinates.
    Grad(usize, usize),
    /// A gather of this component.
    Gather(u8),
}

impl Lifter<'_, '_> {
    pub(super) fn texture_op(&mut self, op: Opcode) -> Result<()> {
        use Opcode::*;
        match op {
            TXF | TXF_LZ => {
                let unit = self.unit(1, RegFile::Sampler)?;
                let target = self.target()?;
                self.fetch_texel(unit, target, op == TXF, [0, 1, 2, 3])
            }
            TXQ => {
                let unit = self.unit(1, RegFile::Sampler)?;
                let target = self.target()?;
                self.query_size(unit, target, [0, 1, 2, 3])
            }
            SAMPLE | SAMPLE_B | SAMPLE_L | SAMPLE_C | SAMPLE_C_LZ | SAMPLE_D => {
                let view = self.unit(1, RegFile::SamplerView)?;
                let sampler = self.unit(2, RegFile::Sampler)?;
                let target = self.view_target(view)?;
                let swizzle = self.src(1)?.swizzle;
                let lod = match op {
                    SAMPLE_B => Lod::Bias(self.fetch(3, 0, Want::F32)?),
                    SAMPLE_L => Lod::Explicit(self.fetch(3, 0, Want::F32)?),
                    SAMPLE_C_LZ => Lod::Explicit(self.fc(0.0)),
                    SAMPLE_D => Lod::Grad(3, 4),
                    _ => Lod::Implicit,
                };
                let shadow = match op {
                    SAMPLE_C | SAMPLE_C_LZ => Some(self.fetch(3, 0, Want::F32)?),
                    _ => None,
                };
                self.sample(view, sampler, target, lod, false, shadow, swizzle)
            }
            TG4 => {
                let unit = self.unit(2, RegFile::Sampler)?;
                let target = self.target()?;
                let l = self.layout(target)?;
                if l.shadow != Ref::None {
                    return Err(self.unsupported(format!("TG4 with {} targets", target.name())));
                }
                if !matches!(l.dim, TexDim::D2 | TexDim::Cube) {
                    return Err(TgsiError::invalid(
                        self.inst().pos,
                        format!("TG4 gathers from 2D or cube targets, not {}", target.name()),
                    ));
                }
                let component = self.gather_component()?;
                let lod = Lod::Gather(component);
                self.sample(unit, unit, target, lod, false, None, [0, 1, 2, 3])
            }
            SAMPLE_I => {
                let view = self.unit(1, RegFile::SamplerView)?;
                let target = self.view_target(view)?;
                let swizzle = self.src(1)?.swizzle;
                self.fetch_texel(view, target, true, swizzle)
            }
            SVIEWINFO => {
                let view = self.unit(1, RegFile::SamplerView)?;
                let target = self.view_target(view)?;
                self.query_size(view, target, [0, 1, 2, 3])
            }
            _ => self.tex(op),
        }
    }

    /// The texture target written after the operands.
    fn target(&self) -> Result<TextureTarget> {
        let inst = self.inst();
        inst.texture
            .ok_or_else(|| TgsiError::invalid(inst.pos, "a texture opcode needs a target"))
    }

    /// The target a `SVIEW` declaration gives.
    fn view_target(&self, view: u32) -> Result<TextureTarget> {
        let decl = self.prog.decls.iter().find(|d| {
            d.file == RegFile::SamplerView && (d.range.first..=d.range.last).contains(&view)
        });
        match decl.and_then(|d| d.texture) {
            Some(t) => Ok(t),
            None => Err(TgsiError::invalid(
                self.inst().pos,
                format!("SVIEW[{view}] is not declared"),
            )),
        }
    }

    /// The unit index of source `s`, which must be a declared register of `file`.
    fn unit(&self, s: usize, file: RegFile) -> Result<u32> {
        let src = self.src(s)?;
        if src.reg.file != file {
            return Err(TgsiError::invalid(
                src.pos,
                format!(
                    "{} expects {} here, found {}",
                    self.inst().opcode.name(),
                    file.name(),
                    src.reg.file.name()
                ),
            ));
        }
        if src.reg.index.indirect.is_some() {
            return Err(self.unsupported("an indirectly indexed sampler"));
        }
        let unit = u32::try_from(src.reg.index.offset).unwrap_or(u32::MAX);
        if !self.decls.is_declared(file, unit) {
            return Err(TgsiError::invalid(
                src.pos,
                format!("{}[{unit}] is not declared", file.name()),
            ));
        }
        Ok(unit)
    }

    /// The texel component type of texture unit `unit`: `i32` when its `SVIEW` declares an
    /// integer return type, else `f32`.
    fn texel_type(&self, unit: u32) -> Type {
        let integer = self.prog.decls.iter().any(|d| {
            d.file == RegFile::SamplerView
                && (d.range.first..=d.range.last).contains(&unit)
                && d.return_types
                    .is_some_and(|t| matches!(t[0], ReturnType::Sint | ReturnType::Uint))
        });
        if integer {
            Type::I32
        } else {
            Type::F32
        }
    }

    fn layout(&self, target: TextureTarget) -> Result<Layout> {
        layout(target).ok_or_else(|| self.unsupported(format!("{} textures", target.name())))
    }

    /// The constant texel offset (`TEX ..., 2D, IMM[0].xyx`), if any.
    fn texel_offset(&self) -> Result<[i8; 3]> {
        let inst = self.inst();
        let Some(off) = inst.tex_offsets.first() else {
            return Ok([0; 3]);
        };
        if inst.tex_offsets.len() > 1 {
            return Err(self.unsupported("several texel offsets"));
        }
        let imm = match (off.reg.file, off.reg.index.indirect) {
            (RegFile::Immediate, None) => usize::try_from(off.reg.index.offset)
                .ok()
                .and_then(|i| self.prog.imms.get(i)),
            _ => return Err(self.unsupported("texel offsets that are not immediates")),
        };
        let Some(imm) = imm else {
            return Err(TgsiError::invalid(
                off.pos,
                "the texel offset names no immediate",
            ));
        };
        let mut out = [0i8; 3];
        for (k, slot) in out.iter_mut().enumerate() {
            let v = imm.slots[off.swizzle[k] as usize] as i32;
            *slot = i8::try_from(v).map_err(|_| {
                TgsiError::invalid(off.pos, format!("texel offset {v} is out of range"))
            })?;
        }
        Ok(out)
    }

    /// The component `TG4` gathers: `src1.x`, an immediate from 0 to 3.
    fn gather_component(&self) -> Result<u8> {
        let src = self.src(1)?;
        let imm = match (
            src.reg.file,
            src.reg.index.indirect,
            src.negate || src.absolute,
        ) {
            (RegFile::Immediate, None, false) => usize::try_from(src.reg.index.offset)
                .ok()
                .and_then(|i| self.prog.imms.get(i)),
            _ => return Err(self.unsupported("a gather component that is not an immediate")),
        };
        let Some(imm) = imm else {
            return Err(TgsiError::invalid(
                src.pos,
                "the gather component names no immediate",
            ));
        };
        let bits = imm.slots[src.swizzle[0] as usize & 3];
        let value = match imm.ty {
            // 0.0 to 3.0 as floats; anything else is out of range.
            ImmType::Flt32 => {
                let f = f32::from_bits(bits);
                if f.fract() == 0.0 && (0.0..=3.0).contains(&f) {
                    f as u32
                } else {
                    u32::MAX
                }
            }
            _ => bits,
        };
        u8::try_from(value).ok().filter(|&c| c <= 3).ok_or_else(|| {
            TgsiError::invalid(src.pos, format!("gather component {bits:#x} is not 0 to 3"))
        })
    }

    /// The texture's level-0 size as floats (for `RECT` coordinates).
    fn rect_size(&mut self, unit: u32) -> Vec<Value> {
        let texture = self.texture_binding(unit);
        let target = TexTarget {
            dim: TexDim::D2,
            arrayed: false,
        };
        let zero = self.ic(0);
        let size = self.b.effect(
            EffectOp::TexSize(SizeOp { texture, target }),
            &[zero],
            &[Type::I32; 2],
        );
        size.into_iter()
            .map(|s| self.b.convert(PureOp::S2f, s, Type::F32))
            .collect()
    }

    /// The `TEX` family.
    fn tex(&mut self, op: Opcode) -> Result<()> {
        use Opcode::*;
        let sampler_src = match op {
            TXD => 3,
            TEX2 | TXB2 | TXL2 => 2,
            _ => 1,
        };
        let unit = self.unit(sampler_src, RegFile::Sampler)?;
        let target = self.target()?;
        let l = self.layout(target)?;
        if matches!(op, TXP | TXB | TXL) && l.uses_w() {
            return Err(TgsiError::invalid(
                self.inst().pos,
                format!(
                    "{} takes its operand from w, which a {} target uses",
                    op.name(),
                    target.name()
                ),
            ));
        }
        let lod = match op {
            TXB => Lod::Bias(self.fetch(0, 3, Want::F32)?),
            TXB2 => Lod::Bias(self.fetch(1, 0, Want::F32)?),
            TXL => Lod::Explicit(self.fetch(0, 3, Want::F32)?),
            TXL2 => Lod::Explicit(self.fetch(1, 0, Want::F32)?),
            TEX_LZ => Lod::Explicit(self.fc(0.0)),
            TXD => Lod::Grad(1, 2),
            _ => Lod::Implicit,
        };
        let shadow = match l.shadow {
            Ref::None => None,
            Ref::Src0(c) => Some(self.fetch(0, c as usize, Want::F32)?),
            Ref::Src1X if op == TEX2 => Some(self.fetch(1, 0, Want::F32)?),
            Ref::Src1X => {
                return Err(self.unsupported(format!(
                    "{} with {} targets",
                    op.name(),
                    target.name()
                )))
            }
        };
        self.sample(unit, unit, target, lod, op == TXP, shadow, [0, 1, 2, 3])
    }

    #[allow(clippy::too_many_arguments)]
    fn sample(
        &mut self,
        tex_unit: u32,
        sampler_unit: u32,
        target: TextureTarget,
        mut lod: Lod,
        proj: bool,
        shadow: Option<Value>,
        swizzle: [u8; 4],
    ) -> Result<()> {
        let l = self.layout(target)?;
        if self.stage != Stage::Fragment {
            lod = match lod {
                Lod::Implicit => Lod::Explicit(self.fc(0.0)),
                Lod::Bias(b) => Lod::Explicit(b),
                other => other,
            };
        }
        let n = l.dim.coords();
        let size = if l.rect {
            Some(self.rect_size(tex_unit))
        } else {
            None
        };
        let mut args = Vec::new();
        for c in 0..n {
            let mut v = self.fetch(0, c, Want::F32)?;
            if let Some(size) = &size {
                v = self.p(PureOp::Fdiv, &[v, size[c]]);
            }
            args.push(v);
        }
        if let Some(layer) = l.layer {
            args.push(self.fetch(0, layer as usize, Want::F32)?);
        }
        if proj {
            args.push(self.fetch(0, 3, Want::F32)?);
        }
        if let Some(r) = shadow {
            args.push(r);
        }
        let mode = match lod {
            Lod::Implicit => LodMode::Implicit,
            Lod::Bias(v) => {
                args.push(v);
                LodMode::Bias
            }
            Lod::Explicit(v) => {
                args.push(v);
                LodMode::Explicit
            }
            Lod::Gather(component) => LodMode::Gather(component),
            Lod::Grad(dx, dy) => {
                for s in [dx, dy] {
                    for c in 0..n {
                        let mut v = self.fetch(s, c, Want::F32)?;
                        if let Some(size) = &size {
                            v = self.p(PureOp::Fdiv, &[v, size[c]]);
                        }
                        args.push(v);
                    }
                }
                LodMode::Grad
            }
        };
        let op = SampleOp {
            texture: self.texture_binding(tex_unit),
            sampler: self.texture_binding(sampler_unit),
            target: l.target(),
            lod: mode,
            proj,
            shadow: shadow.is_some(),
            min_lod: false,
            offset: self.texel_offset()?,
        };
        let ty = self.texel_type(tex_unit);
        if ty == Type::I32 && shadow.is_some() {
            return Err(self.unsupported("depth comparison with an integer texture"));
        }
        let tys = vec![ty; op.result_count()];
        let results = self.b.effect(EffectOp::Sample(op), &args, &tys);
        let texel: [Value; 4] = if shadow.is_some() {
            let one = self.fc(1.0);
            [results[0], results[0], results[0], one]
        } else {
            [results[0], results[1], results[2], results[3]]
        };
        self.store(0, swizzle.map(|c| Some(texel[c as usize])))
    }

    /// `TXF`/`SAMPLE_I` (level from w) and `TXF_LZ` (level 0): integer coordinates.
    fn fetch_texel(
        &mut self,
        unit: u32,
        target: TextureTarget,
        level_from_w: bool,
        swizzle: [u8; 4],
    ) -> Result<()> {
        let l = self.layout(target)?;
        if l.dim == TexDim::Cube {
            return Err(self.unsupported("texel fetches from cube maps"));
        }
        let mut args = Vec::new();
        for c in 0..l.dim.coords() {
            args.push(self.fetch(0, c, Want::I32)?);
        }
        if let Some(layer) = l.layer {
            args.push(self.fetch(0, layer as usize, Want::I32)?);
        }
        args.push(if level_from_w {
            self.fetch(0, 3, Want::I32)?
        } else {
            self.ic(0)
        });
        let op = FetchOp {
            texture: self.texture_binding(unit),
            target: l.target(),
            offset: self.texel_offset()?,
        };
        let ty = self.texel_type(unit);
        let r = self.b.effect(EffectOp::Fetch(op), &args, &[ty; 4]);
        let texel = [r[0], r[1], r[2], r[3]];
        self.store(0, swizzle.map(|c| Some(texel[c as usize])))
    }

    /// `TXQ`/`SVIEWINFO`: width, height, depth or layers at the level `src0.x`, and the level
    /// count in w; components a target has no size for are 0.
    fn query_size(&mut self, unit: u32, target: TextureTarget, swizzle: [u8; 4]) -> Result<()> {
        let l = self.layout(target)?;
        let texture = self.texture_binding(unit);
        let level = self.fetch(0, 0, Want::I32)?;
        let n = l.dim.size_components() + l.arrayed as usize;
        let size = self.b.effect(
            EffectOp::TexSize(SizeOp {
                texture,
                target: l.target(),
            }),
            &[level],
            &vec![Type::I32; n],
        );
        let mut out = [None; 4];
        for (c, slot) in out.iter_mut().enumerate().take(3) {
            *slot = Some(match size.get(c) {
                Some(&v) => v,
                None => self.ic(0),
            });
        }
        if self.dst_mask() & 8 != 0 {
            out[3] = Some(
                self.b
                    .effect(EffectOp::TexLevels(texture), &[], &[Type::I32])[0],
            );
        }
        let values = swizzle.map(|c| out[c as usize]);
        self.store(0, values)
    }
}
