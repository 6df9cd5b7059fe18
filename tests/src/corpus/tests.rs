//! Manifest parsing and validation on hand-written `case.toml` texts.

use std::path::Path;

use super::*;

fn parse(text: &str) -> Result<Case, CorpusError> {
    let manifest: Manifest = toml::from_str(text).map_err(|e| CorpusError::Toml {
        path: "case.toml".into(),
        source: Box::new(e),
    })?;
    let case = Case {
        name: "t".to_owned(),
        dir: Path::new("/nonexistent/t").to_owned(),
        manifest,
    };
    case.validate()?;
    Ok(case)
}

const COMPUTE: &str = r#"
source = "agxc original"
licence = "MIT OR Apache-2.0"
build = "glslangValidator -V --target-env vulkan1.1 shader.comp -o shader.spv"
stage = "compute"
groups = [2, 1, 1]

[[buffer]]
set = 0
binding = 0
kind = "storage"
size = 16
init = { f32_list = [1.0, 2.0] }

[[buffer]]
set = 0
binding = 1
kind = "storage"
size = 32
output = true
tolerance = { abs = 1e-6, ulp = 1 }

[push]
size = 8
init = { u32_list = [3, 4] }

[[texture]]
set = 1
binding = 0
dim = "2d"
format = "rgba16f"
size = [4, 2]
levels = 2
init = { f32_constant = 0.1 }
filter = "linear"
mip = "nearest"
wrap = "clamp"
"#;

#[test]
fn compute_manifest_parses_with_defaults() {
    let case = parse(COMPUTE).expect("valid manifest");
    let m = &case.manifest;
    assert_eq!(m.entry, "main");
    assert_eq!(m.stage, Stage::Compute);
    assert_eq!(m.buffers[0].init, Init::F32List(vec![1.0, 2.0]));
    assert_eq!(m.buffers[1].init, Init::Zero);
    assert_eq!(m.textures[0].wrap, Wrap::Clamp);
    let specs = case.output_specs();
    assert_eq!(specs.len(), 1);
    assert_eq!(specs[0].key, OutputKey::Buffer { set: 0, binding: 1 });
    assert_eq!(specs[0].tolerance.ulp, 1);

    let inputs = case.inputs();
    assert_eq!(inputs.buffers[0].len(), 16);
    assert_eq!(&inputs.buffers[0][4..8], &2.0f32.to_le_bytes());
    assert_eq!(inputs.push, vec![3, 0, 0, 0, 4, 0, 0, 0]);
    // 4x2 + 2x1 texels of 8 bytes; 0.1 rounds to half 0x2e66.
    assert_eq!(inputs.textures[0].len(), (8 + 2) * 8);
    assert_eq!(&inputs.textures[0][0..2], &0x2e66u16.to_le_bytes());
}

#[test]
fn fragment_manifest_and_varying_model() {
    let case = parse(
        r#"
source = "agxc original"
licence = "MIT OR Apache-2.0"
stage = "fragment"
size = [4, 2]
clear = [0.0, 0.0, 0.0, 1.0]

[[varying]]
location = 0
components = 2
base = [0.0, 1.0]
ddx = [0.25, 0.0]
ddy = [0.0, -0.5]

[[varying]]
location = 1
components = 1
type = "i32"
base = [-3]
flat = true

[[target]]
location = 0
"#,
    )
    .expect("valid manifest");
    let v = &case.manifest.varyings[0];
    // Pixel (1, 1) is sampled at (1.5, 1.5): 0 + 0.25 * 1.5 and 1 - 0.5 * 1.5.
    assert_eq!(
        v.words_at_pixel(1, 1),
        vec![0.375f32.to_bits(), 0.25f32.to_bits()]
    );
    assert_eq!(
        case.manifest.varyings[1].words_at_pixel(3, 0),
        vec![(-3i32) as u32]
    );
    let specs = case.output_specs();
    assert_eq!(specs[0].bytes, 4 * 2 * 16);
    assert_eq!(specs[0].row_pixels, Some(4));
}

fn problem(text: &str) -> Option<(String, Problem)> {
    match parse(text) {
        Err(CorpusError::Invalid { field, problem, .. }) => Some((field, problem)),
        _ => None,
    }
}

#[test]
fn validation_names_field() {
    let no_groups = COMPUTE.replace("groups = [2, 1, 1]", "");
    assert_eq!(
        problem(&no_groups),
        Some((
            "groups".to_owned(),
            Problem::RequiredForStage { stage: "compute" }
        ))
    );
    let dup = COMPUTE.replace("binding = 1", "binding = 0");
    assert!(matches!(
        problem(&dup),
        Some((f, Problem::Duplicate { .. })) if f == "buffer[1].binding"
    ));
    let long = COMPUTE.replace("[1.0, 2.0]", "[1.0, 2.0, 3.0, 4.0, 5.0]");
    assert_eq!(
        problem(&long),
        Some((
            "buffer[0].init".to_owned(),
            Problem::TooLong {
                needed: 20,
                available: 16
            }
        ))
    );
    let levels = COMPUTE.replace("levels = 2", "levels = 4");
    assert!(matches!(problem(&levels), Some((f, _)) if f == "texture[0].levels"));
}

#[test]
fn unknown_keys_are_rejected() {
    let typo = COMPUTE.replace("output = true", "ouput = true");
    assert!(matches!(parse(&typo), Err(CorpusError::Toml { .. })));
}

#[test]
fn texture_layout_halves_levels() {
    let case = parse(&COMPUTE.replace(
        "dim = \"2d\"\nformat = \"rgba16f\"\nsize = [4, 2]\nlevels = 2",
        "dim = \"3d\"\nformat = \"r32f\"\nsize = [4, 2, 8]\nlevels = 4",
    ))
    .expect("valid manifest");
    let layout = case.manifest.textures[0].layout();
    let dims: Vec<_> = layout
        .iter()
        .map(|l| (l.width, l.height, l.depth_or_layers, l.offset))
        .collect();
    assert_eq!(
        dims,
        vec![(4, 2, 8, 0), (2, 1, 4, 256), (1, 1, 2, 288), (1, 1, 1, 296)]
    );
}

#[test]
fn absurd_sizes_are_validation_errors() {
    // A mistyped buffer size would otherwise allocate gigabytes when the inputs are generated.
    let huge = COMPUTE.replace("size = 32", "size = 4294967296");
    assert!(matches!(
        problem(&huge),
        Some((f, Problem::OutOfRange { .. })) if f == "buffer[1].size"
    ));
    // 4096 x 4096 x 4096 r32f texels: 256 GiB.
    let texture = COMPUTE.replace(
        "dim = \"2d\"\nformat = \"rgba16f\"\nsize = [4, 2]\nlevels = 2",
        "dim = \"3d\"\nformat = \"r32f\"\nsize = [4096, 4096, 4096]\nlevels = 1",
    );
    assert!(matches!(
        problem(&texture),
        Some((f, Problem::OutOfRange { .. })) if f == "texture[0].size"
    ));
    let cube = COMPUTE.replace("dim = \"2d\"", "dim = \"cube\"");
    assert!(matches!(
        problem(&cube),
        Some((f, Problem::OutOfRange { .. })) if f == "texture[0].size"
    ));
    let zero_words = COMPUTE.replace(
        "init = { f32_list = [1.0, 2.0] }",
        "init = { records = { stride = 8, fields = [{ offset = 0, words = 0, init = \"zero\" }] } }",
    );
    assert!(matches!(
        problem(&zero_words),
        Some((f, Problem::OutOfRange { .. })) if f == "buffer[0].init"
    ));
}

#[test]
fn a_truncated_spv_is_an_error() {
    let dir = std::env::temp_dir().join(format!("agxc-corpus-spv-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let mut case = parse(COMPUTE).expect("valid manifest");
    case.dir = dir.clone();
    // The SPIR-V magic number and one stray byte.
    std::fs::write(case.spv_file(), [0x03, 0x02, 0x23, 0x07, 0x00]).expect("write");
    let result = case.spv_words();
    std::fs::write(case.spv_file(), [0x03, 0x02, 0x23, 0x07]).expect("write");
    let whole = case.spv_words();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        matches!(result, Err(CorpusError::SpvSize { bytes: 5, .. })),
        "{result:?}"
    );
    assert_eq!(whole.expect("4 bytes read"), vec![0x0723_0203]);
}

#[test]
fn descriptor_numbers_are_bounded() {
    // `set + 1` layouts are created for the largest set: u32::MAX would overflow, 10^6 would
    // create a million layouts.
    let set = COMPUTE.replacen("set = 0", "set = 4294967295", 1);
    assert!(matches!(
        problem(&set),
        Some((f, Problem::OutOfRange { .. })) if f == "buffer[0].set"
    ));
    let binding = COMPUTE.replace("binding = 1", "binding = 1000000");
    assert!(matches!(
        problem(&binding),
        Some((f, Problem::OutOfRange { .. })) if f == "buffer[1].binding"
    ));
}

/// Each enum's `name()` is the spelling its manifest key takes (the softpipe jobs use the names).
#[test]
fn names_are_the_manifest_spellings() {
    fn spelled<T>(value: T, name: &str)
    where
        T: serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
    {
        #[derive(serde::Deserialize)]
        struct Key<T> {
            v: T,
        }
        let key: Key<T> = toml::from_str(&format!("v = \"{name}\"")).expect(name);
        assert_eq!(key.v, value, "{name}");
    }
    for v in [Stage::Compute, Stage::Fragment] {
        spelled(v, v.name());
    }
    for v in [ScalarType::F32, ScalarType::I32, ScalarType::U32] {
        spelled(v, v.name());
    }
    for v in [BufferKind::Storage, BufferKind::Uniform] {
        spelled(v, v.name());
    }
    for v in [
        TextureDim::D1,
        TextureDim::D2,
        TextureDim::D2Array,
        TextureDim::D3,
        TextureDim::Cube,
    ] {
        spelled(v, v.name());
    }
    for v in [
        TexelFormat::Rgba8,
        TexelFormat::Rgba16f,
        TexelFormat::Rgba32f,
        TexelFormat::R32f,
        TexelFormat::D32f,
        TexelFormat::Rgba32ui,
        TexelFormat::Rgba32i,
        TexelFormat::R32ui,
        TexelFormat::R32i,
    ] {
        spelled(v, v.name());
    }
    for v in [Filter::Nearest, Filter::Linear] {
        spelled(v, v.name());
    }
    for v in [MipMode::None, MipMode::Nearest, MipMode::Linear] {
        spelled(v, v.name());
    }
    for v in [Wrap::Repeat, Wrap::Clamp, Wrap::Mirror] {
        spelled(v, v.name());
    }
}
