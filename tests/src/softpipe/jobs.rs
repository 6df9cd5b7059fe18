//! The JSON protocol with the Python harness (`tests/softpipe/run_cases.py`).
//!
//! Rust generates every input with `crate::corpus` and writes it to a file, so softpipe reads the
//! same bytes as every other consumer; the job names those files. The harness answers with one
//! record per case: the output files it wrote, the TGSI softpipe printed and the binding map.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::bindings::{
    ImageBinding, IoBinding, StateConstant, StorageBinding, TextureBinding, UniformBinding,
};
use super::error::SoftpipeError;
use crate::corpus::Case;

/// The whole job file: every case of one harness run.
#[derive(Debug, Serialize)]
pub struct JobFile {
    /// The cases, run in this order by one Python process.
    pub cases: Vec<Job>,
}

/// One case as the harness needs it.
#[derive(Debug, Serialize)]
pub struct Job {
    /// The case directory's name.
    pub name: String,
    /// `compute` or `fragment`.
    pub stage: &'static str,
    /// The GLSL file.
    pub source: PathBuf,
    /// Compute: workgroup counts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub groups: Option<[u32; 3]>,
    /// Fragment: target size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<[u32; 2]>,
    /// Fragment: clear colour.
    pub clear: [f32; 4],
    /// Fragment: varyings (affine model, see tests/corpus/README.md).
    pub varyings: Vec<JobVarying>,
    /// Fragment: output locations read back.
    pub targets: Vec<u32>,
    /// Buffers with their input files.
    pub buffers: Vec<JobBuffer>,
    /// Textures with their input files.
    pub textures: Vec<JobTexture>,
    /// Where the harness writes `buffer-s0-b<binding>.bin` and `target-<location>.bin`.
    pub out_dir: PathBuf,
}

/// A fragment varying.
#[derive(Debug, Serialize)]
pub struct JobVarying {
    /// Location.
    pub location: u32,
    /// Components, 1 to 4.
    pub components: u32,
    /// `f32`, `i32` or `u32`.
    #[serde(rename = "type")]
    pub ty: &'static str,
    /// Value at the origin.
    pub base: Vec<f64>,
    /// Per pixel to the right.
    pub ddx: Vec<f64>,
    /// Per pixel down.
    pub ddy: Vec<f64>,
    /// Not interpolated.
    pub flat: bool,
}

/// A buffer.
#[derive(Debug, Serialize)]
pub struct JobBuffer {
    /// Always 0 (GL has no sets; checked by the harness).
    pub set: u32,
    /// GLSL binding.
    pub binding: u32,
    /// `storage` or `uniform`.
    pub kind: &'static str,
    /// Bytes.
    pub size: usize,
    /// The generated initial contents.
    pub input: PathBuf,
    /// Read back after the run.
    pub output: bool,
}

/// A texture.
#[derive(Debug, Serialize)]
pub struct JobTexture {
    /// Always 0 (GL has no sets).
    pub set: u32,
    /// Texture unit.
    pub binding: u32,
    /// `2d`, `3d`, `2d_array`, `cube` (`1d` is refused by the harness).
    pub dim: &'static str,
    /// `rgba8`, `rgba16f`, `rgba32f`, `r32f`, `rgba32ui`, `rgba32i`, `r32ui`, `r32i`.
    pub format: &'static str,
    /// Level-0 extent as in the manifest.
    pub size: Vec<u32>,
    /// Mip levels.
    pub levels: u32,
    /// `nearest` or `linear`.
    pub filter: &'static str,
    /// `none`, `nearest` or `linear`.
    pub mip: &'static str,
    /// `repeat`, `clamp` or `mirror`.
    pub wrap: &'static str,
    /// Whether the sampler compares (refused by the harness).
    pub compare: bool,
    /// Bound to an image unit (`bind_to_image`) instead of a texture unit.
    pub storage: bool,
    /// A storage image read back after the run.
    pub output: bool,
    /// The generated texels, all levels.
    pub input: PathBuf,
}

/// The harness's answer.
#[derive(Debug, Deserialize)]
pub struct ResultFile {
    /// Renderer, GL version and Mesa version.
    pub environment: Environment,
    /// One record per job, in job order.
    pub cases: Vec<CaseResult>,
}

/// What the harness reports about the GL implementation.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct Environment {
    /// GL_RENDERER.
    #[serde(default)]
    pub renderer: String,
    /// GL_VERSION.
    #[serde(default)]
    pub gl_version: String,
    /// Mesa's version number.
    #[serde(default)]
    pub mesa: String,
}

/// One case's record.
#[derive(Debug, Deserialize)]
pub struct CaseResult {
    /// The case directory's name.
    pub name: String,
    /// Whether the case ran.
    pub ok: bool,
    /// Why it did not.
    #[serde(default)]
    pub error: Option<String>,
    /// Output file name to path.
    #[serde(default)]
    pub outputs: BTreeMap<String, PathBuf>,
    /// The TGSI softpipe generated.
    #[serde(default)]
    pub tgsi: Option<String>,
    /// The register map read from the dump.
    #[serde(default)]
    pub bindings: Option<ResultBindings>,
    /// Wall time of the case in the harness.
    #[serde(default)]
    pub seconds: f64,
}

/// The binding map as the harness reports it (the generator is added by the wrapper).
#[derive(Debug, Clone, Deserialize)]
pub struct ResultBindings {
    /// Storage blocks.
    pub storage: Vec<StorageBinding>,
    /// Uniform blocks.
    pub uniform: Vec<UniformBinding>,
    /// Samplers.
    pub texture: Vec<TextureBinding>,
    /// Storage images.
    #[serde(default)]
    pub image: Vec<ImageBinding>,
    /// Fragment inputs.
    pub input: Vec<IoBinding>,
    /// Fragment outputs.
    pub output: Vec<IoBinding>,
    /// Mesa's state constants.
    pub state: Vec<StateConstant>,
}

fn write_file(path: &Path, bytes: &[u8]) -> Result<(), SoftpipeError> {
    fs::write(path, bytes).map_err(|source| SoftpipeError::Io {
        path: path.to_owned(),
        source,
    })
}

/// Builds the job of one case, writing its generated inputs under `work/<case>/`.
pub fn job_for(case: &Case, work: &Path) -> Result<Job, SoftpipeError> {
    let m = &case.manifest;
    let unsupported = |problem: &str| SoftpipeError::Unsupported {
        case: case.name.clone(),
        problem: problem.to_owned(),
    };
    if m.push.is_some() {
        return Err(unsupported("GL has no push constants"));
    }
    let source = case.source_file()?;
    if !matches!(
        source.extension().and_then(|e| e.to_str()),
        Some("comp" | "frag")
    ) {
        return Err(unsupported("the softpipe harness runs GLSL sources only"));
    }
    let dir = work.join(&case.name);
    let in_dir = dir.join("in");
    fs::create_dir_all(&in_dir).map_err(|source| SoftpipeError::Io {
        path: in_dir.clone(),
        source,
    })?;
    let inputs = case.inputs();
    let mut buffers = Vec::new();
    for (b, bytes) in m.buffers.iter().zip(&inputs.buffers) {
        let input = in_dir.join(format!("buffer-s{}-b{}.bin", b.set, b.binding));
        write_file(&input, bytes)?;
        buffers.push(JobBuffer {
            set: b.set,
            binding: b.binding,
            kind: b.kind.name(),
            size: b.size,
            input,
            output: b.output,
        });
    }
    let mut textures = Vec::new();
    for (t, bytes) in m.textures.iter().zip(&inputs.textures) {
        let input = in_dir.join(format!("texture-s{}-b{}.bin", t.set, t.binding));
        write_file(&input, bytes)?;
        textures.push(JobTexture {
            set: t.set,
            binding: t.binding,
            dim: t.dim.name(),
            format: t.format.name(),
            size: t.size.clone(),
            levels: t.levels,
            filter: t.filter.name(),
            mip: t.mip.name(),
            wrap: t.wrap.name(),
            compare: t.compare.is_some(),
            storage: t.storage,
            output: t.output,
            input,
        });
    }
    Ok(Job {
        name: case.name.clone(),
        stage: m.stage.name(),
        source,
        groups: m.groups,
        size: m.size,
        clear: m.clear,
        varyings: m
            .varyings
            .iter()
            .map(|v| JobVarying {
                location: v.location,
                components: v.components,
                ty: v.ty.name(),
                base: v.base.clone(),
                ddx: v.ddx.clone(),
                ddy: v.ddy.clone(),
                flat: v.flat,
            })
            .collect(),
        targets: m.targets.iter().map(|t| t.location).collect(),
        buffers,
        textures,
        out_dir: dir.join("out"),
    })
}
