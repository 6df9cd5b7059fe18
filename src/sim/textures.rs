//! Interpreter textures and samplers as simulator descriptors. Both models lay texels out the
//! same way (levels, then slices, planes, rows; cube faces +X, -X, +Y, -Y, +Z, -Z), so the
//! bytes are copied unchanged, both ways: storage images are textures bound at the image's
//! binding (the interpreter's rule 13), and after a run every bound texture's bytes are
//! copied back, so image stores show in the resources.

use agxc_egraph::interp::{
    CompareOp, Filter, MipFilter, Resources, Sampler, Texture, TextureFormat, Wrap,
};
use agxc_egraph::ir::{Binding, TexDim};
use agxc_runtime_sim::runtime::Simulator;
use agxc_runtime_sim::texture::{
    CompareOp as SimCompare, Filter as SimFilter, MipFilter as SimMip, SamplerDescriptor,
    TexDim as SimDim, TexFormat, TextureDescriptor, Wrap as SimWrap,
};

use super::SimError;
use agxc_backend_agx::Binary;

/// The textures bound for a run, for the ABI's size and level uniforms.
pub(super) struct BoundTextures {
    descs: Vec<(Binding, TextureDescriptor)>,
}

impl BoundTextures {
    /// Replaces each bound texture's bytes in `res` by the device memory's.
    pub(super) fn read_back(&self, sim: &Simulator, res: &mut Resources) -> Result<(), SimError> {
        for (b, d) in &self.descs {
            let Some(tex) = res.texture_mut(*b) else {
                continue;
            };
            let bytes = sim.read(d.address, tex.data().len() as u64)?;
            *tex = Texture::new(*tex.desc(), bytes)
                .map_err(|e| SimError::Unsupported(format!("texture {b} read back: {e}")))?;
        }
        Ok(())
    }
}

impl BoundTextures {
    /// Each bound texture's memory: address, bytes, binding.
    pub(super) fn regions(&self) -> impl Iterator<Item = (u64, u64, Binding)> + '_ {
        self.descs.iter().filter_map(|(b, d)| {
            let bytes = agxc_runtime_sim::texture::Texture::new(*d)
                .ok()?
                .byte_size();
            Some((d.address, bytes, *b))
        })
    }

    pub(super) fn size(&self, b: Binding, axis: u8) -> Option<u32> {
        let d = self.descs.iter().find(|t| t.0 == b)?.1;
        Some(match axis {
            0 => d.width,
            1 => d.height,
            2 => d.depth,
            _ => d.layers,
        })
    }

    pub(super) fn levels(&self, b: Binding) -> Option<u32> {
        Some(self.descs.iter().find(|t| t.0 == b)?.1.levels)
    }
}

/// Binds every texture and sampler the binary's ABI names.
pub(super) fn bind(
    sim: &mut Simulator,
    binary: &Binary,
    res: &Resources,
) -> Result<BoundTextures, SimError> {
    let abi = &binary.metadata.abi;
    let mut descs = Vec::new();
    for &(b, slot) in &abi.textures {
        let tex = res
            .texture(b)
            .ok_or_else(|| SimError::Missing(format!("texture {b}")))?;
        let desc = descriptor(sim, tex)?;
        sim.bind_texture(u32::from(slot), desc);
        descs.push((b, desc));
    }
    for &(b, slot) in &abi.samplers {
        let s = res
            .sampler(b)
            .ok_or_else(|| SimError::Missing(format!("sampler {b}")))?;
        sim.bind_sampler(u32::from(slot), sampler(s));
    }
    Ok(BoundTextures { descs })
}

fn descriptor(sim: &mut Simulator, tex: &Texture) -> Result<TextureDescriptor, SimError> {
    let d = tex.desc();
    let dim = match (d.target.dim, d.target.arrayed) {
        (TexDim::D1, false) => SimDim::D1,
        (TexDim::D1, true) => SimDim::D1Array,
        (TexDim::D2, false) => SimDim::D2,
        (TexDim::D2, true) => SimDim::D2Array,
        (TexDim::D3, false) => SimDim::D3,
        (TexDim::Cube, false) => SimDim::Cube,
        (TexDim::Cube, true) => SimDim::CubeArray,
        (TexDim::D3, true) => return Err(SimError::Unsupported("a 3D array texture".into())),
    };
    let format = match d.format {
        TextureFormat::Rgba8Unorm => TexFormat::Rgba8Unorm,
        TextureFormat::Rgba16Float => TexFormat::Rgba16Float,
        TextureFormat::Rgba32Float => TexFormat::Rgba32Float,
        TextureFormat::R32Float => TexFormat::R32Float,
        TextureFormat::Rgba32Uint => TexFormat::Rgba32Uint,
        TextureFormat::Rgba32Sint => TexFormat::Rgba32Sint,
        TextureFormat::R32Uint => TexFormat::R32Uint,
        TextureFormat::R32Sint => TexFormat::R32Sint,
    };
    let address = sim.alloc_bytes(tex.data())?;
    Ok(TextureDescriptor::shaped(
        dim,
        format,
        [d.width, d.height, d.depth],
        d.layers,
        d.levels,
        address,
    ))
}

fn sampler(s: &Sampler) -> SamplerDescriptor {
    let filter = |f: Filter| match f {
        Filter::Nearest => SimFilter::Nearest,
        Filter::Linear => SimFilter::Linear,
    };
    let wrap = |w: Wrap| match w {
        Wrap::Repeat => SimWrap::Repeat,
        Wrap::ClampToEdge => SimWrap::ClampToEdge,
        Wrap::MirroredRepeat => SimWrap::MirroredRepeat,
        Wrap::ClampToBorder => SimWrap::ClampToBorder,
    };
    SamplerDescriptor {
        min_filter: filter(s.min_filter),
        mag_filter: filter(s.mag_filter),
        mip_filter: match s.mip_filter {
            MipFilter::None => SimMip::None,
            MipFilter::Nearest => SimMip::Nearest,
            MipFilter::Linear => SimMip::Linear,
        },
        wrap: s.wrap.map(wrap),
        lod_bias: s.lod_bias,
        min_lod: s.min_lod,
        max_lod: s.max_lod,
        compare: s.compare.map(|c| match c {
            CompareOp::Never => SimCompare::Never,
            CompareOp::Less => SimCompare::Less,
            CompareOp::Equal => SimCompare::Equal,
            CompareOp::LessEqual => SimCompare::LessEqual,
            CompareOp::Greater => SimCompare::Greater,
            CompareOp::NotEqual => SimCompare::NotEqual,
            CompareOp::GreaterEqual => SimCompare::GreaterEqual,
            CompareOp::Always => SimCompare::Always,
        }),
    }
}
