//! Turning `agxc run`'s resource arguments into the resources a dispatch binds.
//!
//! A buffer argument binds as a storage or a uniform buffer according to how the shader uses
//! that binding (loads from `storage(s, b)` or `uniform(s, b)` in its IR), so the user never has
//! to say which.
//!
//! Varyings file layout: for locations 0, 1, 2, ... in order, twelve little-endian f32 each:
//! `base[4], ddx[4], ddy[4]`, giving component `c` at the centre of pixel `(x, y)` the value
//! `base[c] + ddx[c] * (x + 0.5) + ddy[c] * (y + 0.5)` (the affine model the interpreter and the
//! simulator share); flat inputs read `base`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use agxc::egraph::interp::{
    Filter, FragmentGrid, Resources, Sampler, Texture, TextureDesc, TextureFormat, Varying, Wrap,
};
use agxc::egraph::ir::{AddressSpace, Binding, EffectOp, Function, Op};

use super::spec::{BindingSpec, FilterSpec, TexelFormat, WrapSpec};
use super::RunArgs;

/// Bytes per location in a varyings file.
pub const VARYING_RECORD_BYTES: usize = 48;

/// A resource problem, named for the argument that caused it.
#[derive(Debug, thiserror::Error)]
pub enum ResourceError {
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// A value does not fit what the shader or the argument needs.
    #[error("{0}")]
    Invalid(String),
}

fn read(path: &Path) -> Result<Vec<u8>, ResourceError> {
    std::fs::read(path).map_err(|source| ResourceError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Writes `bytes` to `path`.
pub fn write(path: &Path, bytes: &[u8]) -> Result<(), ResourceError> {
    std::fs::write(path, bytes).map_err(|source| ResourceError::Io {
        path: path.to_path_buf(),
        source,
    })
}

fn to_binding(b: BindingSpec) -> Binding {
    Binding::new(b.set, b.binding)
}

/// The uniform-buffer bindings a function loads from.
fn uniform_bindings(func: &Function) -> BTreeSet<Binding> {
    let mut out = BTreeSet::new();
    func.for_each_inst(|_, inst| {
        if let Op::Effect(EffectOp::Load(access)) = func.inst(inst).op {
            if let AddressSpace::Uniform(b) = access.space {
                out.insert(b);
            }
        }
    });
    out
}

fn bind_buffer(res: &mut Resources, uniforms: &BTreeSet<Binding>, b: Binding, data: Vec<u8>) {
    if uniforms.contains(&b) {
        res.bind_uniform(b, data);
    } else {
        res.bind_storage(b, data);
    }
}

fn texture(spec: &super::spec::TextureSpec) -> Result<(Texture, Sampler), ResourceError> {
    let data = read(&spec.file)?;
    let format = match spec.format {
        TexelFormat::Rgba8 => TextureFormat::Rgba8Unorm,
        TexelFormat::Rgba32f => TextureFormat::Rgba32Float,
    };
    let [w, h] = spec.size;
    let expected = u64::from(w) * u64::from(h) * spec.format.bytes();
    if data.len() as u64 != expected {
        return Err(ResourceError::Invalid(format!(
            "{}: a {w}x{h} texture needs {expected} bytes, the file has {}",
            spec.file.display(),
            data.len()
        )));
    }
    let tex = Texture::new(TextureDesc::d2(format, w, h), data)
        .map_err(|e| ResourceError::Invalid(format!("{}: {e}", spec.file.display())))?;
    let filter = match spec.filter {
        FilterSpec::Nearest => Filter::Nearest,
        FilterSpec::Linear => Filter::Linear,
    };
    let wrap = match spec.wrap {
        WrapSpec::Repeat => Wrap::Repeat,
        WrapSpec::Clamp => Wrap::ClampToEdge,
        WrapSpec::Mirror => Wrap::MirroredRepeat,
    };
    let sampler = Sampler {
        mag_filter: filter,
        min_filter: filter,
        wrap: [wrap; 3],
        ..Sampler::default()
    };
    Ok((tex, sampler))
}

/// Builds the resources for a run of `func` from the command line.
pub fn build(args: &RunArgs, func: &Function) -> Result<Resources, ResourceError> {
    let uniforms = uniform_bindings(func);
    let mut res = Resources::new();
    for &(b, ref file) in &args.buffers {
        bind_buffer(&mut res, &uniforms, to_binding(b), read(file)?);
    }
    for &(b, size) in &args.buffer_sizes {
        let size = usize::try_from(size)
            .ok()
            .filter(|&s| s <= 1 << 30)
            .ok_or_else(|| ResourceError::Invalid(format!("buffer size {size} is over 1 GiB")))?;
        bind_buffer(&mut res, &uniforms, to_binding(b), vec![0; size]);
    }
    // TGSI `CONST[n]` is the uniform buffer at (0, n) (the TGSI front end's binding model).
    for (n, file) in &args.consts {
        res.bind_uniform(Binding::new(0, *n), read(file)?);
    }
    if let Some(push) = &args.push {
        res.set_push_constants(read(push)?);
    }
    for spec in &args.textures {
        let (tex, sampler) = texture(spec)?;
        res.bind_combined(to_binding(spec.binding), tex, sampler);
    }
    Ok(res)
}

/// Reads a varyings file (layout in the module docs).
pub fn varyings(path: &Path) -> Result<BTreeMap<u32, Varying>, ResourceError> {
    let bytes = read(path)?;
    if bytes.len() % VARYING_RECORD_BYTES != 0 {
        return Err(ResourceError::Invalid(format!(
            "{}: {} bytes is not a whole number of {VARYING_RECORD_BYTES}-byte varying records",
            path.display(),
            bytes.len()
        )));
    }
    let floats: Vec<f32> = bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    Ok(floats
        .chunks_exact(12)
        .enumerate()
        .map(|(loc, r)| {
            let four = |i: usize| [r[i], r[i + 1], r[i + 2], r[i + 3]];
            (
                loc as u32,
                Varying {
                    base: four(0),
                    ddx: four(4),
                    ddy: four(8),
                },
            )
        })
        .collect())
}

/// The fragment grid for a run.
pub fn grid(args: &RunArgs, size: [u32; 2]) -> Result<FragmentGrid, ResourceError> {
    let mut grid = FragmentGrid::new(size[0], size[1]);
    if let Some(clear) = args.clear {
        grid.clear = clear;
    }
    if let Some(path) = &args.varyings {
        grid.varyings = varyings(path)?;
    }
    Ok(grid)
}
