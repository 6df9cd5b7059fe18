//! `tgsi.toml`: how a generated case's GLSL interface lands in TGSI registers.
//!
//! Mesa renumbers resources on the way from GLSL to TGSI (storage blocks become `BUFFER[block
//! index]`, uniform blocks `CONST[1 + block index]`, samplers `SAMP[i]`/`SVIEW[i]`, varyings
//! `IN[i]`) and adds state constants of its own to `CONST[0]`. Whoever runs `shader.tgsi` on the
//! case's data (agxc's TGSI frontend, the IR interpreter) needs that map; the softpipe harness
//! reads it from softpipe's dump and the recorder writes it next to the shader. It is a separate
//! file because `case.toml` is the language-neutral schema shared with the SPIR-V corpus.

use std::fs;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::error::SoftpipeError;

/// The file name of the binding map in a case directory.
pub const BINDINGS_FILE: &str = "tgsi.toml";

/// The parsed `tgsi.toml` of one case.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TgsiBindings {
    /// What produced `shader.tgsi`.
    pub generator: Generator,
    /// Storage blocks: GLSL binding to `BUFFER[buffer]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub storage: Vec<StorageBinding>,
    /// Uniform blocks: GLSL binding to the constant buffer `CONST[const][..]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub uniform: Vec<UniformBinding>,
    /// Samplers: texture unit (the GLSL binding) to `SAMP[sampler]` and `SVIEW[sampler]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub texture: Vec<TextureBinding>,
    /// Storage images: image unit (the GLSL binding) to `IMAGE[image]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub image: Vec<ImageBinding>,
    /// Fragment inputs: `IN[index]`, a varying location or a built-in.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub input: Vec<IoBinding>,
    /// Fragment outputs: `OUT[index]` and the output location.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub output: Vec<IoBinding>,
    /// Constants Mesa added and the values it gives them in the harness's setup.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub state: Vec<StateConstant>,
}

/// Provenance of a generated `shader.tgsi`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Generator {
    /// The GL renderer string (`softpipe`).
    pub renderer: String,
    /// Mesa's version, from the GL version string.
    pub mesa: String,
    /// How the TGSI was obtained.
    pub how: String,
}

/// A storage block's GLSL binding and its TGSI `BUFFER` index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StorageBinding {
    /// `layout(binding = N)` in the GLSL, the manifest's `[[buffer]] binding`.
    pub binding: u32,
    /// `BUFFER[buffer]` in the TGSI.
    pub buffer: u32,
}

/// A uniform block's GLSL binding and its TGSI constant buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UniformBinding {
    /// `layout(binding = N)` in the GLSL, the manifest's `[[buffer]] binding`.
    pub binding: u32,
    /// The first dimension of `CONST[const][...]`; its second dimension counts vec4s from
    /// the start of the block (std140).
    #[serde(rename = "const")]
    pub constant: u32,
}

/// A sampler's texture unit and its TGSI sampler and view index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TextureBinding {
    /// The texture unit: `layout(binding = N)`, the manifest's `[[texture]] binding`.
    pub binding: u32,
    /// `SAMP[sampler]` and `SVIEW[sampler]`.
    pub sampler: u32,
}

/// A storage image's image unit and its TGSI `IMAGE` index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImageBinding {
    /// The image unit: `layout(binding = N)`, the manifest's `[[texture]] binding` of a
    /// storage image.
    pub binding: u32,
    /// `IMAGE[image]`.
    pub image: u32,
}

/// One fragment input or output register.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IoBinding {
    /// `IN[index]` or `OUT[index]`.
    pub index: u32,
    /// The components the GLSL variable occupies (`xyzw`, `xy`, ...).
    pub components: String,
    /// The GLSL `layout(location = N)` of a user variable. Mesa packs small varyings together,
    /// so several inputs can share one `IN` register in different components.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<u32>,
    /// The GLSL variable's name, for user variables.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The GLSL built-in (`gl_FragCoord`, ...), for built-ins.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub builtin: Option<String>,
}

/// A constant Mesa added to the default constant buffer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StateConstant {
    /// Mesa's name for it (`gl_FbWposYTransform`).
    pub name: String,
    /// `CONST[const[0]][const[1]]`.
    #[serde(rename = "const")]
    pub constant: [u32; 2],
    /// Its value during the harness's draw.
    pub value: [f32; 4],
}

impl TgsiBindings {
    /// Reads `dir/tgsi.toml`.
    pub fn load(dir: &Path) -> Result<TgsiBindings, SoftpipeError> {
        let path = dir.join(BINDINGS_FILE);
        let text = fs::read_to_string(&path).map_err(|source| SoftpipeError::Io {
            path: path.clone(),
            source,
        })?;
        toml::from_str(&text).map_err(|e| SoftpipeError::Bindings {
            path,
            message: e.to_string(),
        })
    }

    /// The file's text: a header comment, then the tables in a stable order.
    pub fn to_toml(&self) -> Result<String, SoftpipeError> {
        let body = toml::to_string(self).map_err(|e| SoftpipeError::Bindings {
            path: BINDINGS_FILE.into(),
            message: e.to_string(),
        })?;
        Ok(format!(
            "# Written by `record-softpipe` from softpipe's dump: how this case's GLSL interface\n\
             # maps onto TGSI registers (tests/corpus/tgsi/README.md). Do not edit by hand.\n\n\
             {body}"
        ))
    }

    /// The `BUFFER` index of the storage block at `binding`.
    pub fn buffer_of(&self, binding: u32) -> Option<u32> {
        self.storage
            .iter()
            .find(|s| s.binding == binding)
            .map(|s| s.buffer)
    }

    /// The `CONST` buffer index of the uniform block at `binding`.
    pub fn const_of(&self, binding: u32) -> Option<u32> {
        self.uniform
            .iter()
            .find(|u| u.binding == binding)
            .map(|u| u.constant)
    }

    /// The `SAMP`/`SVIEW` index of the texture unit `binding`.
    pub fn sampler_of(&self, binding: u32) -> Option<u32> {
        self.texture
            .iter()
            .find(|t| t.binding == binding)
            .map(|t| t.sampler)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_through_toml() {
        let b = TgsiBindings {
            generator: Generator {
                renderer: "softpipe".into(),
                mesa: "22.3.6".into(),
                how: "SOFTPIPE_DEBUG=fs".into(),
            },
            storage: vec![StorageBinding {
                binding: 3,
                buffer: 0,
            }],
            uniform: vec![UniformBinding {
                binding: 5,
                constant: 2,
            }],
            texture: vec![TextureBinding {
                binding: 1,
                sampler: 0,
            }],
            image: vec![ImageBinding {
                binding: 2,
                image: 0,
            }],
            input: vec![IoBinding {
                index: 0,
                components: "xyzw".into(),
                location: None,
                name: None,
                builtin: Some("gl_FragCoord".into()),
            }],
            output: vec![IoBinding {
                index: 0,
                components: "xyzw".into(),
                location: Some(0),
                name: Some("color".into()),
                builtin: None,
            }],
            state: vec![StateConstant {
                name: "gl_FbWposYTransform".into(),
                constant: [0, 0],
                value: [1.0, 0.0, -1.0, 16.0],
            }],
        };
        let text = b.to_toml().expect("serialisable");
        assert!(text.contains("[[storage]]"), "{text}");
        let back: TgsiBindings = toml::from_str(&text).expect("parses back");
        assert_eq!(back, b);
        assert_eq!(back.buffer_of(3), Some(0));
        assert_eq!(back.buffer_of(0), None);
        assert_eq!(back.const_of(5), Some(2));
        assert_eq!(back.sampler_of(1), Some(0));
    }
}
