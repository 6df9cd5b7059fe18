//! A corpus case on disk: loading and checking its manifest, generating its inputs, and reading
//! and writing its recorded outputs.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use super::compare::{OutputKey, OutputSpec, Outputs, Tolerance};
use super::error::{CorpusError, Problem};
use super::manifest::{Manifest, ScalarType, Stage, TexelFormat};

/// Source file names a case directory may hold, in the order they are looked for.
pub const SOURCE_NAMES: [&str; 4] = ["shader.comp", "shader.frag", "shader.spvasm", "shader.tgsi"];

/// Largest push-constant block every Vulkan implementation must accept.
const MAX_PUSH_BYTES: usize = 128;

/// Fragment output locations: Vulkan guarantees `maxColorAttachments >= 4`; llvmpipe and G13
/// both offer 8.
const MAX_TARGETS: u32 = 8;

/// Varying locations: `maxFragmentInputComponents >= 64` guarantees 16 vec4s; llvmpipe offers
/// 128 components (32 locations).
const MAX_VARYINGS: u32 = 32;

/// Descriptor sets: Vulkan guarantees `maxBoundDescriptorSets >= 4`; llvmpipe offers 8. The
/// harnesses create a layout for every set up to the largest one named.
const MAX_SETS: u32 = 8;

/// Bindings within a set: not a Vulkan limit, a bound on the descriptor tables the oracles size
/// by the largest binding number.
const MAX_BINDINGS: u32 = 64;

/// Largest buffer: Vulkan guarantees `maxStorageBufferRange >= 2^27`. The bound also keeps a
/// mistyped size from allocating the host's memory when the inputs are generated.
const MAX_BUFFER_BYTES: usize = 1 << 27;

/// Largest texture, all levels, layers and faces together (as generated, before rounding
/// `rgba16f` to halves): the same bound as buffers.
const MAX_TEXTURE_BYTES: usize = 1 << 27;

/// One case directory with its parsed manifest.
#[derive(Debug, Clone)]
pub struct Case {
    /// The directory's name, used in every report.
    pub name: String,
    /// The directory.
    pub dir: PathBuf,
    /// The parsed `case.toml`.
    pub manifest: Manifest,
}

/// The generated inputs of a case, in manifest order.
#[derive(Debug, Clone, PartialEq)]
pub struct Inputs {
    /// Initial bytes of each `[[buffer]]`, same order as the manifest's buffers.
    pub buffers: Vec<Vec<u8>>,
    /// Push-constant bytes (empty when the case has none).
    pub push: Vec<u8>,
    /// Texel bytes of each `[[texture]]` (all levels; see `Texture::layout`), same order. `rgba16f`
    /// data is already rounded to half floats.
    pub textures: Vec<Vec<u8>>,
}

/// The corpus directory of a language (`spirv`, `tgsi`) in this source tree.
pub fn corpus_dir(language: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpus")
        .join(language)
}

/// Loads every case under `dir` (each subdirectory holding a `case.toml`), sorted by name.
pub fn load_corpus(dir: &Path) -> Result<Vec<Case>, CorpusError> {
    let io = |source| CorpusError::Io {
        path: dir.to_owned(),
        source,
    };
    let mut dirs = Vec::new();
    for entry in fs::read_dir(dir).map_err(io)? {
        let path = entry.map_err(io)?.path();
        if path.join("case.toml").is_file() {
            dirs.push(path);
        }
    }
    dirs.sort();
    dirs.iter().map(|d| Case::load(d)).collect()
}

fn io_at(path: &Path) -> impl FnOnce(std::io::Error) -> CorpusError + '_ {
    move |source| CorpusError::Io {
        path: path.to_owned(),
        source,
    }
}

impl Case {
    /// Reads and validates `dir/case.toml`.
    pub fn load(dir: &Path) -> Result<Case, CorpusError> {
        let path = dir.join("case.toml");
        let text = fs::read_to_string(&path).map_err(io_at(&path))?;
        let manifest = toml::from_str(&text).map_err(|e| CorpusError::Toml {
            path: path.clone(),
            source: Box::new(e),
        })?;
        let name = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let case = Case {
            name,
            dir: dir.to_owned(),
            manifest,
        };
        case.validate()?;
        Ok(case)
    }

    fn invalid(&self, field: impl Into<String>, problem: Problem) -> CorpusError {
        CorpusError::Invalid {
            case: self.name.clone(),
            field: field.into(),
            problem,
        }
    }

    /// Checks the rules the schema cannot express in types (see `tests/corpus/README.md`).
    pub fn validate(&self) -> Result<(), CorpusError> {
        let m = &self.manifest;
        let stage = m.stage.name();
        match m.stage {
            Stage::Compute => {
                let groups = m
                    .groups
                    .ok_or_else(|| self.invalid("groups", Problem::RequiredForStage { stage }))?;
                if groups.contains(&0) {
                    return Err(self.invalid("groups", out_of_range(groups, "at least 1 each")));
                }
                for (field, present) in [
                    ("size", m.size.is_some()),
                    ("varying", !m.varyings.is_empty()),
                    ("target", !m.targets.is_empty()),
                ] {
                    if present {
                        return Err(self.invalid(field, Problem::NotForStage { stage }));
                    }
                }
            }
            Stage::Fragment => {
                let size = m
                    .size
                    .ok_or_else(|| self.invalid("size", Problem::RequiredForStage { stage }))?;
                if size.contains(&0) || size.iter().any(|s| *s > 4096) {
                    return Err(self.invalid("size", out_of_range(size, "1 to 4096 each")));
                }
                if m.targets.is_empty() {
                    return Err(self.invalid("target", Problem::RequiredForStage { stage }));
                }
                if m.groups.is_some() {
                    return Err(self.invalid("groups", Problem::NotForStage { stage }));
                }
            }
        }
        self.validate_varyings()?;
        self.validate_resources()
    }

    fn validate_varyings(&self) -> Result<(), CorpusError> {
        let mut locations = BTreeSet::new();
        for (i, v) in self.manifest.varyings.iter().enumerate() {
            let field = |f: &str| format!("varying[{i}].{f}");
            if v.location >= MAX_VARYINGS {
                return Err(self.invalid(field("location"), out_of_range(v.location, "0 to 31")));
            }
            if !locations.insert(v.location) {
                return Err(self.invalid(field("location"), duplicate("location", v.location)));
            }
            if !(1..=4).contains(&v.components) {
                return Err(self.invalid(field("components"), out_of_range(v.components, "1 to 4")));
            }
            let n = v.components as usize;
            for (name, list, optional) in [
                ("base", &v.base, false),
                ("ddx", &v.ddx, true),
                ("ddy", &v.ddy, true),
            ] {
                if list.len() != n && !(optional && list.is_empty()) {
                    return Err(self.invalid(
                        field(name),
                        Problem::Length {
                            actual: list.len(),
                            wanted: n,
                        },
                    ));
                }
            }
            if v.ty != ScalarType::F32 && !v.flat {
                return Err(self.invalid(field("flat"), Problem::IntegerNotFlat));
            }
        }
        let mut targets = BTreeSet::new();
        for (i, t) in self.manifest.targets.iter().enumerate() {
            if t.location >= MAX_TARGETS {
                return Err(self.invalid(
                    format!("target[{i}].location"),
                    out_of_range(t.location, "0 to 7"),
                ));
            }
            if !targets.insert(t.location) {
                return Err(self.invalid(
                    format!("target[{i}].location"),
                    duplicate("location", t.location),
                ));
            }
        }
        Ok(())
    }

    fn validate_resources(&self) -> Result<(), CorpusError> {
        let m = &self.manifest;
        let mut slots = BTreeSet::new();
        for (i, b) in m.buffers.iter().enumerate() {
            let field = |f: &str| format!("buffer[{i}].{f}");
            self.validate_slot(&field, b.set, b.binding)?;
            if !slots.insert((b.set, b.binding)) {
                return Err(
                    self.invalid(field("binding"), duplicate("binding", (b.set, b.binding)))
                );
            }
            if b.size == 0 || b.size % 4 != 0 || b.size > MAX_BUFFER_BYTES {
                return Err(self.invalid(
                    field("size"),
                    out_of_range(b.size, "a positive multiple of 4, at most 2^27"),
                ));
            }
            b.init
                .validate(b.size)
                .map_err(|p| self.invalid(field("init"), p))?;
        }
        if let Some(p) = &m.push {
            if p.size == 0 || p.size % 4 != 0 || p.size > MAX_PUSH_BYTES {
                return Err(self.invalid(
                    "push.size",
                    out_of_range(p.size, "a multiple of 4, 4 to 128"),
                ));
            }
            p.init
                .validate(p.size)
                .map_err(|e| self.invalid("push.init", e))?;
        }
        for (i, t) in m.textures.iter().enumerate() {
            let field = |f: &str| format!("texture[{i}].{f}");
            self.validate_slot(&field, t.set, t.binding)?;
            if !slots.insert((t.set, t.binding)) {
                return Err(
                    self.invalid(field("binding"), duplicate("binding", (t.set, t.binding)))
                );
            }
            if t.size.len() != t.size_entries() {
                return Err(self.invalid(
                    field("size"),
                    Problem::Length {
                        actual: t.size.len(),
                        wanted: t.size_entries(),
                    },
                ));
            }
            if t.size.iter().any(|s| *s == 0 || *s > 4096) {
                return Err(self.invalid(
                    field("size"),
                    out_of_range(format!("{:?}", t.size), "1 to 4096 each"),
                ));
            }
            if t.dim == super::manifest::TextureDim::Cube && t.size.first() != t.size.get(1) {
                return Err(self.invalid(
                    field("size"),
                    out_of_range(format!("{:?}", t.size), "square cube faces"),
                ));
            }
            let [w, h, d] = t.extent();
            let largest = w.max(h).max(if t.dim == super::manifest::TextureDim::D3 {
                d
            } else {
                1
            });
            let max_levels = u32::BITS - largest.leading_zeros();
            if t.levels == 0 || t.levels > max_levels {
                return Err(self.invalid(
                    field("levels"),
                    out_of_range(t.levels, "1 to the full mip chain"),
                ));
            }
            if t.output && !t.storage {
                return Err(self.invalid(
                    field("output"),
                    out_of_range("true", "only storage images are outputs"),
                ));
            }
            if t.storage
                && (t.levels != 1
                    || t.dim == super::manifest::TextureDim::Cube
                    || t.format == TexelFormat::D32f)
            {
                return Err(self.invalid(
                    field("storage"),
                    out_of_range(
                        format!(
                            "{} {} with {} levels",
                            t.dim.name(),
                            t.format.name(),
                            t.levels
                        ),
                        "one level, not a cube map, not a depth format",
                    ),
                ));
            }
            if t.format.is_integer()
                && (t.filter == super::manifest::Filter::Linear
                    || t.mip == super::manifest::MipMode::Linear)
            {
                return Err(self.invalid(
                    field("filter"),
                    out_of_range("linear", "nearest filtering of integer formats"),
                ));
            }
            if (t.format == TexelFormat::D32f) != t.compare.is_some() {
                return Err(self.invalid(
                    field("compare"),
                    out_of_range(
                        format!("{:?}", t.compare),
                        "present exactly when the format is d32f",
                    ),
                ));
            }
            let bytes = if t.format == TexelFormat::Rgba16f {
                t.total_bytes() * 2
            } else {
                t.total_bytes()
            };
            if bytes > MAX_TEXTURE_BYTES {
                return Err(self.invalid(
                    field("size"),
                    out_of_range(
                        format!("{:?} ({bytes} bytes)", t.size),
                        "at most 2^27 bytes of texels",
                    ),
                ));
            }
            t.init
                .validate(bytes)
                .map_err(|p| self.invalid(field("init"), p))?;
        }
        Ok(())
    }

    /// Checks a resource's descriptor set and binding numbers against [`MAX_SETS`] and
    /// [`MAX_BINDINGS`].
    fn validate_slot(
        &self,
        field: &dyn Fn(&str) -> String,
        set: u32,
        binding: u32,
    ) -> Result<(), CorpusError> {
        if set >= MAX_SETS {
            return Err(self.invalid(field("set"), out_of_range(set, "0 to 7")));
        }
        if binding >= MAX_BINDINGS {
            return Err(self.invalid(field("binding"), out_of_range(binding, "0 to 63")));
        }
        Ok(())
    }

    /// The shader source file (GLSL, SPIR-V assembly or TGSI).
    pub fn source_file(&self) -> Result<PathBuf, CorpusError> {
        SOURCE_NAMES
            .iter()
            .map(|n| self.dir.join(n))
            .find(|p| p.is_file())
            .ok_or_else(|| CorpusError::MissingSource {
                case: self.name.clone(),
                expected: "shader.comp, shader.frag, shader.spvasm, shader.tgsi",
            })
    }

    /// The built SPIR-V module's path (it may not exist for other languages).
    pub fn spv_file(&self) -> PathBuf {
        self.dir.join("shader.spv")
    }

    /// Reads the built SPIR-V module as words.
    pub fn spv_words(&self) -> Result<Vec<u32>, CorpusError> {
        let path = self.spv_file();
        let bytes = fs::read(&path).map_err(io_at(&path))?;
        if bytes.len() % 4 != 0 {
            return Err(CorpusError::SpvSize {
                path,
                bytes: bytes.len(),
            });
        }
        Ok(bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
    }

    /// The directory of recorded outputs.
    pub fn expected_dir(&self) -> PathBuf {
        self.dir.join("expected")
    }

    /// Generates every input from the manifest's specs.
    pub fn inputs(&self) -> Inputs {
        let m = &self.manifest;
        Inputs {
            buffers: m.buffers.iter().map(|b| b.init.fill(b.size)).collect(),
            push: m
                .push
                .as_ref()
                .map(|p| p.init.fill(p.size))
                .unwrap_or_default(),
            textures: m
                .textures
                .iter()
                .map(|t| {
                    if t.format == TexelFormat::Rgba16f {
                        // Generated as f32 values, stored as the nearest half (round to even).
                        t.init
                            .fill(t.total_bytes() * 2)
                            .chunks_exact(4)
                            .flat_map(|c| {
                                let f = f32::from_le_bytes([c[0], c[1], c[2], c[3]]);
                                half::f16::from_f32(f).to_le_bytes()
                            })
                            .collect()
                    } else {
                        t.init.fill(t.total_bytes())
                    }
                })
                .collect(),
        }
    }

    /// What is compared: output buffers in manifest order, then render targets.
    pub fn output_specs(&self) -> Vec<OutputSpec> {
        let m = &self.manifest;
        let buffers = m.buffers.iter().filter(|b| b.output).map(|b| OutputSpec {
            key: OutputKey::Buffer {
                set: b.set,
                binding: b.binding,
            },
            bytes: b.size,
            elem: b.elem,
            tolerance: b.tolerance,
            row_pixels: None,
        });
        let [w, h] = m.size.unwrap_or([0, 0]);
        let targets = m.targets.iter().map(|t| OutputSpec {
            key: OutputKey::Target {
                location: t.location,
            },
            bytes: w as usize * h as usize * 16,
            elem: ScalarType::F32,
            tolerance: t.tolerance,
            row_pixels: Some(w),
        });
        let images = m.textures.iter().filter(|t| t.output).map(|t| OutputSpec {
            key: OutputKey::Image {
                set: t.set,
                binding: t.binding,
            },
            bytes: t.total_bytes(),
            elem: match t.format {
                TexelFormat::Rgba32f | TexelFormat::R32f => ScalarType::F32,
                // Packed or integer texels: compared word by word, exactly.
                _ => ScalarType::U32,
            },
            tolerance: t.tolerance,
            row_pixels: None,
        });
        buffers.chain(targets).chain(images).collect()
    }

    /// The tolerance of one output when the shader's `RelaxedPrecision` arithmetic runs in f16:
    /// its `relaxed_tolerance`, or its `tolerance` where the manifest gives none (exact if the
    /// key is not an output of this case).
    pub fn relaxed_tolerance(&self, key: &OutputKey) -> Tolerance {
        let m = &self.manifest;
        let relaxed = match *key {
            OutputKey::Buffer { set, binding } => m
                .buffers
                .iter()
                .find(|b| b.output && (b.set, b.binding) == (set, binding))
                .and_then(|b| b.relaxed_tolerance),
            OutputKey::Target { location } => m
                .targets
                .iter()
                .find(|t| t.location == location)
                .and_then(|t| t.relaxed_tolerance),
            OutputKey::Image { set, binding } => m
                .textures
                .iter()
                .find(|t| t.output && (t.set, t.binding) == (set, binding))
                .and_then(|t| t.relaxed_tolerance),
        };
        relaxed.unwrap_or_else(|| self.tolerance(key))
    }

    /// The tolerance of one output (exact if the key is not an output of this case).
    pub fn tolerance(&self, key: &OutputKey) -> Tolerance {
        self.output_specs()
            .into_iter()
            .find(|s| s.key == *key)
            .map(|s| s.tolerance)
            .unwrap_or_default()
    }

    /// Reads the recorded outputs, checking each file's size against the manifest.
    pub fn read_expected(&self) -> Result<Outputs, CorpusError> {
        let mut outputs = Outputs::default();
        for spec in self.output_specs() {
            let path = self.expected_dir().join(spec.key.file_name());
            let bytes = fs::read(&path).map_err(io_at(&path))?;
            if bytes.len() != spec.bytes {
                return Err(CorpusError::ExpectedSize {
                    case: self.name.clone(),
                    file: path,
                    actual: bytes.len(),
                    wanted: spec.bytes,
                });
            }
            outputs.insert(spec.key, bytes);
        }
        Ok(outputs)
    }

    /// Writes `outputs` as the recorded outputs (only the recording tools call this).
    pub fn write_expected(&self, outputs: &Outputs) -> Result<(), CorpusError> {
        let dir = self.expected_dir();
        fs::create_dir_all(&dir).map_err(io_at(&dir))?;
        for (key, bytes) in &outputs.entries {
            let path = dir.join(key.file_name());
            fs::write(&path, bytes).map_err(io_at(&path))?;
        }
        Ok(())
    }
}

fn out_of_range(value: impl std::fmt::Debug, allowed: &'static str) -> Problem {
    Problem::OutOfRange {
        value: format!("{value:?}"),
        allowed,
    }
}

fn duplicate(what: &'static str, at: impl std::fmt::Debug) -> Problem {
    Problem::Duplicate {
        what,
        at: format!("{at:?}"),
    }
}
