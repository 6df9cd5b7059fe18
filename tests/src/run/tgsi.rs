//! TGSI cases: `tgsi.toml`'s register map turned into TGSI lift options, so that the lifted
//! shader reads the case's resources at their GLSL bindings, exactly as the SPIR-V cases do.
//!
//! # How TGSI registers land in the IR's binding model
//! The TGSI front end (`agxc_frontend::tgsi`, "Binding and I/O model") maps, by default:
//! - `CONST[x][n]` component `c` (and 1D `CONST[n]`, which is `x = 0`) to a 4-byte load from
//!   the uniform buffer at binding `(0, x)`, byte offset `16n + 4c`: each constant buffer is one
//!   uniform buffer of vec4 slots;
//! - `BUFFER[n]` to the storage buffer `(0, n)`, byte addressed;
//! - `SAMP[n]`/`SVIEW[n]` to the combined texture and sampler `(0, n)`;
//! - fragment `IN[i], GENERIC[k]` to input location `k`, component for component, and
//!   `IN[i], POSITION` to `frag_coord`; `OUT[i], COLOR[k]` to colour target `k`.
//!
//! Mesa renumbers on the way from GLSL (tests/corpus/tgsi/README.md): storage blocks become
//! `BUFFER[block index]`, uniform blocks `CONST[1 + block index]` (std140, so vec4 slot `n` is
//! byte `16n` of the block, the same layout), samplers `SAMP[unit]`, and small varyings are
//! packed into one `IN` register. [`TgsiInterface::new`] inverts that with the recorded map:
//! `BUFFER[n]`, `CONST[x]` and `SAMP[n]` go to the manifest buffer or texture at the GLSL
//! binding, each packed `IN` component to its variable's location and component. Outputs keep
//! the semantic mapping (`COLOR[k]` is target `k`, which is how softpipe binds colour
//! buffers), so the map's `[[output]]` entries are not used. Remapping the lift rather than the
//! resources keeps one binding space for both front ends, and avoids the clash a default
//! mapping would have (`BUFFER[1]` and `CONST[1]` would both be binding `(0, 1)`).
//!
//! `CONST[0]` is GL's default uniform block; in this corpus it holds only the constants Mesa
//! adds itself (`[[state]]`), such as `gl_FbWposYTransform = (1, 0, -1, height)` that
//! `gl_FragCoord.y` and `dFdy` are rewritten with. Each state constant buffer becomes a uniform
//! buffer in a descriptor set no manifest resource uses (one past the highest), with every
//! recorded value at its vec4 slot and zeros elsewhere.

use std::collections::BTreeMap;

use agxc_egraph::ir::Binding;
use agxc_frontend::tgsi::LiftOptions;

use super::error::RunError;
use crate::corpus::{BufferKind, Case};
use crate::softpipe::TgsiBindings;

/// The lift options and extra resources of a TGSI case.
#[derive(Debug, Clone, PartialEq)]
pub struct TgsiInterface {
    /// Options mapping TGSI registers onto the manifest's GLSL bindings and locations.
    pub options: LiftOptions,
    /// Uniform buffers holding Mesa's state constants, by binding.
    pub state_buffers: Vec<(Binding, Vec<u8>)>,
}

/// The component index of a write-mask letter.
fn component(letter: char) -> Option<u8> {
    "xyzw".find(letter).and_then(|i| u8::try_from(i).ok())
}

impl TgsiInterface {
    /// The interface of `case` under its register map.
    pub fn new(case: &Case, map: &TgsiBindings) -> Result<TgsiInterface, RunError> {
        let bad = |what: String| RunError::Interface {
            case: case.name.clone(),
            what,
        };
        let m = &case.manifest;
        let mut options = LiftOptions {
            entry_name: Some(m.entry.clone()),
            ..LiftOptions::default()
        };
        // GL has no descriptor sets; the manifest's buffers and textures for GL are in set 0,
        // but take whatever set the manifest gives the binding.
        let buffer = |binding: u32, kind: BufferKind| {
            m.buffers
                .iter()
                .find(|b| b.binding == binding && b.kind == kind)
                .map(|b| Binding::new(b.set, b.binding))
        };
        for s in &map.storage {
            let b = buffer(s.binding, BufferKind::Storage).ok_or_else(|| {
                bad(format!(
                    "BUFFER[{}] is GLSL binding {}, which has no storage buffer in case.toml",
                    s.buffer, s.binding
                ))
            })?;
            options.storage_bindings.insert(s.buffer, b);
        }
        for u in &map.uniform {
            let b = buffer(u.binding, BufferKind::Uniform).ok_or_else(|| {
                bad(format!(
                    "CONST[{}] is GLSL binding {}, which has no uniform buffer in case.toml",
                    u.constant, u.binding
                ))
            })?;
            options.const_bindings.insert(u.constant, b);
        }
        for t in &map.texture {
            let b = m
                .textures
                .iter()
                .find(|x| x.binding == t.binding)
                .map(|x| Binding::new(x.set, x.binding))
                .ok_or_else(|| {
                    bad(format!(
                        "SAMP[{}] is texture unit {}, which has no texture in case.toml",
                        t.sampler, t.binding
                    ))
                })?;
            options.texture_bindings.insert(t.sampler, b);
        }
        for i in &map.image {
            let b = m
                .textures
                .iter()
                .find(|x| x.storage && x.binding == i.binding)
                .map(|x| Binding::new(x.set, x.binding))
                .ok_or_else(|| {
                    bad(format!(
                        "IMAGE[{}] is image unit {}, which has no storage image in case.toml",
                        i.image, i.binding
                    ))
                })?;
            options.image_bindings.insert(i.image, b);
        }
        for input in &map.input {
            // Built-ins keep the front end's semantic mapping (POSITION is frag_coord).
            let Some(location) = input.location else {
                continue;
            };
            for (i, letter) in input.components.chars().enumerate() {
                let comp = component(letter).ok_or_else(|| {
                    bad(format!(
                        "IN[{}] has component list `{}`",
                        input.index, input.components
                    ))
                })?;
                let within = u8::try_from(i).unwrap_or(u8::MAX);
                options
                    .input_slots
                    .insert((input.index, comp), (location, within));
            }
        }
        // Outputs keep the front end's mapping by semantic (`OUT[i], COLOR[k]` is target k):
        // softpipe binds colour buffer k to the COLOR[k] output whatever the register's index,
        // and the recorded `[[output]]` index is not the register's in every case (in
        // `frag_multiple_targets`, `DCL OUT[0], COLOR[1]` is recorded as OUT[0] at location 0).
        let state_buffers = state_buffers(case, map, &mut options).map_err(bad)?;
        Ok(TgsiInterface {
            options,
            state_buffers,
        })
    }
}

/// One uniform buffer per constant buffer holding state constants, bound one set past the
/// manifest's resources.
fn state_buffers(
    case: &Case,
    map: &TgsiBindings,
    options: &mut LiftOptions,
) -> Result<Vec<(Binding, Vec<u8>)>, String> {
    let m = &case.manifest;
    let free_set = m
        .buffers
        .iter()
        .map(|b| b.set)
        .chain(m.textures.iter().map(|t| t.set))
        .max()
        .map_or(0, |s| s + 1);
    let mut buffers: BTreeMap<u32, Vec<u8>> = BTreeMap::new();
    for s in &map.state {
        let [buffer, slot] = s.constant;
        if options.const_bindings.contains_key(&buffer) {
            return Err(format!(
                "state constant {} is in CONST[{buffer}], which is a uniform block",
                s.name
            ));
        }
        let start = slot as usize * 16;
        let data = buffers.entry(buffer).or_default();
        if data.len() < start + 16 {
            data.resize(start + 16, 0);
        }
        for (i, v) in s.value.iter().enumerate() {
            data[start + 4 * i..start + 4 * i + 4].copy_from_slice(&v.to_le_bytes());
        }
    }
    Ok(buffers
        .into_iter()
        .map(|(buffer, data)| {
            let binding = Binding::new(free_set, buffer);
            options.const_bindings.insert(buffer, binding);
            (binding, data)
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Manifest;
    use crate::softpipe::{IoBinding, StateConstant, StorageBinding, UniformBinding};

    fn case(toml_text: &str) -> Case {
        let manifest: Manifest = toml::from_str(toml_text).expect("test manifest parses");
        Case {
            name: "t".into(),
            dir: ".".into(),
            manifest,
        }
    }

    const FRAG: &str = r#"
        source = "agxc original"
        licence = "MIT"
        stage = "fragment"
        size = [4, 4]
        [[target]]
        location = 0
        [[buffer]]
        set = 0
        binding = 4
        kind = "uniform"
        size = 32
        [[buffer]]
        set = 0
        binding = 2
        kind = "storage"
        size = 16
    "#;

    fn io(index: u32, components: &str, location: Option<u32>) -> IoBinding {
        IoBinding {
            index,
            components: components.into(),
            location,
            name: None,
            builtin: location.is_none().then(|| "gl_FragCoord".into()),
        }
    }

    #[test]
    fn registers_map_back_to_glsl_bindings() {
        let map = TgsiBindings {
            storage: vec![StorageBinding {
                binding: 2,
                buffer: 0,
            }],
            uniform: vec![UniformBinding {
                binding: 4,
                constant: 1,
            }],
            input: vec![
                io(0, "xyzw", None),
                io(1, "xy", Some(0)),
                io(1, "z", Some(1)),
            ],
            output: vec![io(0, "xyzw", Some(3))],
            state: vec![StateConstant {
                name: "gl_FbWposYTransform".into(),
                constant: [0, 1],
                value: [1.0, 0.0, -1.0, 4.0],
            }],
            ..TgsiBindings::default()
        };
        let i = TgsiInterface::new(&case(FRAG), &map).expect("the map fits the manifest");
        let o = &i.options;
        assert_eq!(o.storage_bindings.get(&0), Some(&Binding::new(0, 2)));
        assert_eq!(o.const_bindings.get(&1), Some(&Binding::new(0, 4)));
        // The packed IN[1]: .xy is location 0's x and y, .z is location 1's x.
        assert_eq!(o.input_slots.get(&(1, 0)), Some(&(0, 0)));
        assert_eq!(o.input_slots.get(&(1, 1)), Some(&(0, 1)));
        assert_eq!(o.input_slots.get(&(1, 2)), Some(&(1, 0)));
        assert!(
            !o.input_slots.contains_key(&(0, 0)),
            "built-ins keep their semantic"
        );
        assert!(
            o.output_locations.is_empty(),
            "outputs go by COLOR semantic"
        );
        // CONST[0][1] = (1, 0, -1, 4) in set 1 (the manifest uses set 0), slot 0 zero.
        let state = Binding::new(1, 0);
        assert_eq!(o.const_bindings.get(&0), Some(&state));
        let mut want = vec![0u8; 16];
        for v in [1.0f32, 0.0, -1.0, 4.0] {
            want.extend(v.to_le_bytes());
        }
        assert_eq!(i.state_buffers, vec![(state, want)]);
    }

    #[test]
    fn unknown_bindings_are_errors() {
        let map = TgsiBindings {
            storage: vec![StorageBinding {
                binding: 4, // a uniform buffer in the manifest, not a storage one
                buffer: 0,
            }],
            ..TgsiBindings::default()
        };
        let e = TgsiInterface::new(&case(FRAG), &map).expect_err("binding 4 is not storage");
        assert!(e.to_string().contains("BUFFER[0]"), "{e}");
        let map = TgsiBindings {
            uniform: vec![UniformBinding {
                binding: 4,
                constant: 0,
            }],
            state: vec![StateConstant {
                name: "s".into(),
                constant: [0, 0],
                value: [0.0; 4],
            }],
            ..TgsiBindings::default()
        };
        let e = TgsiInterface::new(&case(FRAG), &map).expect_err("CONST[0] claimed twice");
        assert!(e.to_string().contains("CONST[0]"), "{e}");
    }
}
