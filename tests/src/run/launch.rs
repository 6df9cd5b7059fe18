//! A corpus case's run described in the IR's binding model: what an [`Executor`] binds, how it
//! dispatches or draws, and which outputs it reads back.
//!
//! The manifest speaks Vulkan/GLSL (`(set, binding)`, locations, an affine varying model);
//! the IR speaks the same binding model ([`Binding`], input locations), so for SPIR-V the
//! launch is the manifest's resources as they are. A TGSI case is lifted with options that map
//! TGSI's registers back onto the same GLSL bindings (`super::tgsi`), so it gets the same
//! launch plus whatever Mesa added (the state constants in `CONST[0]`).
//!
//! Two things differ between the oracles and are therefore parameters ([`Conventions`]): how
//! an integer varying reaches the shader (as a typed integer in SPIR-V, as the raw bits in an
//! untyped TGSI register) and the fragment depth (Vulkan maps clip z = 0 to depth 0, GL's
//! default depth range maps it to 0.5).
//!
//! [`Executor`]: super::Executor

use agxc_egraph::interp::{BufferKind, FragmentGrid, Sampler, Texture, Varying};
use agxc_egraph::ir::Binding;

use super::error::RunError;
use super::texture::{interp_sampler, interp_texture};
use crate::corpus::{self, Case, Inputs, OutputSpec, ScalarType, Stage};

/// A buffer bound for the run.
#[derive(Debug, Clone, PartialEq)]
pub struct BoundBuffer {
    /// Where the IR finds it.
    pub binding: Binding,
    /// Storage (read-write) or uniform (read-only).
    pub kind: BufferKind,
    /// Initial contents.
    pub data: Vec<u8>,
}

/// A combined image sampler bound for the run.
#[derive(Debug, Clone, PartialEq)]
pub struct BoundTexture {
    /// Where the IR finds both the texture and the sampler.
    pub binding: Binding,
    /// Shape and texel bytes.
    pub texture: Texture,
    /// Filtering, wrapping, LOD range and comparison.
    pub sampler: Sampler,
}

/// How the run is started.
#[derive(Debug, Clone, PartialEq)]
pub enum LaunchStage {
    /// Dispatch this many workgroups.
    Compute {
        /// Workgroups in x, y and z.
        groups: [u32; 3],
    },
    /// Shade every pixel of the grid once (one primitive covering the target).
    Fragment(FragmentGrid),
}

/// How an integer varying's value is handed to the shader.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntegerVaryings {
    /// The IR input has an integer type and the interpreter converts the varying's value to
    /// it (SPIR-V: `flat in int` is an `OpTypeInt` input).
    Values,
    /// The IR input is an f32 register holding the integer's bits (TGSI registers are untyped
    /// and the TGSI front end reads every input as f32; the shader bit-casts).
    Bits,
}

/// What differs between the two oracles' pipelines (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Conventions {
    /// How integer varyings are supplied.
    pub integer_varyings: IntegerVaryings,
    /// `gl_FragCoord.z` of the full-screen primitive.
    pub frag_depth: f32,
}

impl Conventions {
    /// lavapipe's: typed integer inputs; the primitive at clip z = 0 has depth 0 (Vulkan's
    /// viewport maps z in [0, 1] directly).
    pub const SPIRV_LAVAPIPE: Conventions = Conventions {
        integer_varyings: IntegerVaryings::Values,
        frag_depth: 0.0,
    };
    /// softpipe's: integer bits in untyped registers; clip z = 0 lands at depth 0.5 (GL's
    /// default depth range maps z in [-1, 1] to [0, 1]).
    pub const TGSI_SOFTPIPE: Conventions = Conventions {
        integer_varyings: IntegerVaryings::Bits,
        frag_depth: 0.5,
    };
}

/// Everything an executor needs to run one case, in the IR's binding model.
#[derive(Debug, Clone, PartialEq)]
pub struct Launch {
    /// The case's name, for reports.
    pub case: String,
    /// Dispatch or draw.
    pub stage: LaunchStage,
    /// Storage and uniform buffers.
    pub buffers: Vec<BoundBuffer>,
    /// Push-constant bytes (empty if none).
    pub push: Vec<u8>,
    /// Combined image samplers.
    pub textures: Vec<BoundTexture>,
    /// What is read back and compared, in the case's order.
    pub outputs: Vec<OutputSpec>,
}

/// Largest integer magnitude every f32 holds exactly: integer varyings travel through the
/// interpreter's f32 varying model.
const F32_EXACT_INTEGERS: f64 = 16_777_216.0;

impl Launch {
    /// The launch of `case` with its generated `inputs`, under the given conventions.
    pub fn new(case: &Case, inputs: &Inputs, conventions: Conventions) -> Result<Launch, RunError> {
        let m = &case.manifest;
        let buffers = m
            .buffers
            .iter()
            .zip(&inputs.buffers)
            .map(|(b, data)| BoundBuffer {
                binding: Binding::new(b.set, b.binding),
                kind: match b.kind {
                    corpus::BufferKind::Storage => BufferKind::Storage,
                    corpus::BufferKind::Uniform => BufferKind::Uniform,
                },
                data: data.clone(),
            })
            .collect();
        let textures = m
            .textures
            .iter()
            .zip(&inputs.textures)
            .map(|(t, data)| {
                let binding = Binding::new(t.set, t.binding);
                let texture =
                    interp_texture(t, data.clone()).map_err(|source| RunError::Texture {
                        case: case.name.clone(),
                        binding,
                        source,
                    })?;
                Ok(BoundTexture {
                    binding,
                    texture,
                    sampler: interp_sampler(t),
                })
            })
            .collect::<Result<_, RunError>>()?;
        let stage = match m.stage {
            // `Case::load` validated that compute cases have `groups`.
            Stage::Compute => LaunchStage::Compute {
                groups: m.groups.unwrap_or([1, 1, 1]),
            },
            Stage::Fragment => LaunchStage::Fragment(fragment_grid(case, conventions)?),
        };
        Ok(Launch {
            case: case.name.clone(),
            stage,
            buffers,
            push: inputs.push.clone(),
            textures,
            outputs: case.output_specs(),
        })
    }

    /// Adds a uniform buffer the front end introduced (TGSI state constants); the binding must
    /// be free.
    pub fn add_uniform(&mut self, binding: Binding, data: Vec<u8>) -> Result<(), RunError> {
        if self.buffers.iter().any(|b| b.binding == binding) {
            return Err(RunError::Interface {
                case: self.case.clone(),
                what: format!("binding {binding} is taken twice"),
            });
        }
        self.buffers.push(BoundBuffer {
            binding,
            kind: BufferKind::Uniform,
            data,
        });
        Ok(())
    }
}

fn fragment_grid(case: &Case, conventions: Conventions) -> Result<FragmentGrid, RunError> {
    let m = &case.manifest;
    // `Case::load` validated that fragment cases have `size`.
    let [width, height] = m.size.unwrap_or([1, 1]);
    let mut grid = FragmentGrid::new(width, height).with_clear(m.clear);
    grid.depth = conventions.frag_depth;
    for v in &m.varyings {
        grid = grid.with_varying(v.location, interp_varying(case, v, conventions)?);
    }
    Ok(grid)
}

/// The interpreter's varying for a manifest varying: the same affine model with f32
/// coefficients, evaluated in f64 at pixel centres by the interpreter.
fn interp_varying(
    case: &Case,
    v: &corpus::Varying,
    conventions: Conventions,
) -> Result<Varying, RunError> {
    let bad = |component: usize, reason: String| RunError::Varying {
        case: case.name.clone(),
        location: v.location,
        component,
        reason,
    };
    let mut out = Varying::default();
    let n = v.components as usize;
    if v.ty == ScalarType::F32 {
        let at = |list: &[f64], c: usize| list.get(c).copied().unwrap_or(0.0) as f32;
        for c in 0..n {
            out.base[c] = at(&v.base, c);
            if !v.flat {
                out.ddx[c] = at(&v.ddx, c);
                out.ddy[c] = at(&v.ddy, c);
            }
        }
        return Ok(out);
    }
    // Integer varyings are flat (validated): the words the oracle's vertex shader passed are
    // the manifest's conversion of `base`.
    for (c, word) in v.words_at_pixel(0, 0).into_iter().enumerate().take(n) {
        out.base[c] = match conventions.integer_varyings {
            IntegerVaryings::Values => {
                let value = match v.ty {
                    ScalarType::I32 => f64::from(word as i32),
                    _ => f64::from(word),
                };
                if value.abs() > F32_EXACT_INTEGERS {
                    return Err(bad(
                        c,
                        format!("{value} has no exact f32 for the interpreter's varying model"),
                    ));
                }
                value as f32
            }
            IntegerVaryings::Bits => {
                // f32 -> f64 -> f32 keeps every pattern but signalling NaNs, which become quiet.
                let f = f32::from_bits(word);
                if f.is_nan() && word & 0x0040_0000 == 0 {
                    return Err(bad(
                        c,
                        format!(
                            "bits 0x{word:08x} are a signalling NaN, which the f32 varying \
                             model quiets"
                        ),
                    ));
                }
                f
            }
        };
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Manifest;

    fn case(toml_text: &str) -> Case {
        let manifest: Manifest = toml::from_str(toml_text).expect("test manifest parses");
        let case = Case {
            name: "t".into(),
            dir: ".".into(),
            manifest,
        };
        case.validate().expect("test manifest is valid");
        case
    }

    const FRAG: &str = r#"
        source = "agxc original"
        licence = "MIT"
        stage = "fragment"
        size = [4, 2]
        clear = [0.5, 0.0, 0.0, 1.0]
        [[target]]
        location = 0
        [[varying]]
        location = 0
        components = 2
        base = [0.25, -1.0]
        ddx = [0.5, 0.0]
        ddy = [0.0, 0.125]
        [[varying]]
        location = 1
        components = 2
        type = "i32"
        flat = true
        base = [-3.0, 7.0]
        [[varying]]
        location = 2
        components = 1
        base = [2.0]
        ddx = [1.0]
        flat = true
    "#;

    fn grid(launch: &Launch) -> &FragmentGrid {
        match &launch.stage {
            LaunchStage::Fragment(g) => g,
            LaunchStage::Compute { .. } => panic!("a fragment case launches a grid"),
        }
    }

    #[test]
    fn fragment_grid_follows_the_manifest() {
        let c = case(FRAG);
        let launch = Launch::new(&c, &c.inputs(), Conventions::SPIRV_LAVAPIPE).expect("fits");
        let g = grid(&launch);
        assert_eq!((g.width, g.height, g.clear), (4, 2, [0.5, 0.0, 0.0, 1.0]));
        assert_eq!(g.depth, 0.0);
        let v = g.varyings[&0];
        assert_eq!(v.base, [0.25, -1.0, 0.0, 0.0]);
        // The affine model at pixel (1, 1): 0.25 + 0.5 * 1.5 and -1 + 0.125 * 1.5.
        assert_eq!((v.at(0, 1, 1), v.at(1, 1, 1)), (1.0, -0.8125));
        // Integer values as numbers (the IR input is an integer).
        assert_eq!(g.varyings[&1].base[..2], [-3.0, 7.0]);
        // A flat varying has no slope, whatever the manifest says about ddx.
        assert_eq!(g.varyings[&2].ddx, [0.0; 4]);
        assert_eq!(launch.outputs.len(), 1);
    }

    #[test]
    fn tgsi_integer_varyings_are_bits() {
        let c = case(FRAG);
        let launch = Launch::new(&c, &c.inputs(), Conventions::TGSI_SOFTPIPE).expect("fits");
        let g = grid(&launch);
        assert_eq!(g.depth, 0.5);
        let bits = g.varyings[&1].base.map(f32::to_bits);
        assert_eq!(bits[..2], [(-3i32) as u32, 7]);
    }

    #[test]
    fn unrepresentable_integer_varyings_are_errors() {
        let big = FRAG.replace("base = [-3.0, 7.0]", "base = [-3.0, 16777217.0]");
        let c = case(&big);
        let e = Launch::new(&c, &c.inputs(), Conventions::SPIRV_LAVAPIPE)
            .expect_err("2^24 + 1 has no f32");
        assert!(
            matches!(
                e,
                RunError::Varying {
                    location: 1,
                    component: 1,
                    ..
                }
            ),
            "{e}"
        );
        // As bits it is fine: 0x01000001 is a small positive float.
        assert!(Launch::new(&c, &c.inputs(), Conventions::TGSI_SOFTPIPE).is_ok());
        // 0x7f800001 is a signalling NaN, which f32 -> f64 -> f32 would quiet.
        let snan = FRAG.replace("base = [-3.0, 7.0]", "base = [-3.0, 2139095041.0]");
        let c = case(&snan);
        assert!(Launch::new(&c, &c.inputs(), Conventions::TGSI_SOFTPIPE).is_err());
    }

    #[test]
    fn compute_resources_keep_their_bindings() {
        let c = case(
            r#"
            source = "agxc original"
            licence = "MIT"
            stage = "compute"
            groups = [3, 1, 1]
            [[buffer]]
            set = 1
            binding = 4
            kind = "uniform"
            size = 8
            init = { u32_list = [1, 2] }
            [[buffer]]
            set = 0
            binding = 0
            kind = "storage"
            size = 4
            output = true
            [push]
            size = 4
            init = { f32_list = [1.5] }
            "#,
        );
        let mut launch = Launch::new(&c, &c.inputs(), Conventions::SPIRV_LAVAPIPE).expect("fits");
        assert_eq!(launch.stage, LaunchStage::Compute { groups: [3, 1, 1] });
        assert_eq!(launch.buffers[0].binding, Binding::new(1, 4));
        assert_eq!(launch.buffers[0].kind, BufferKind::Uniform);
        assert_eq!(launch.buffers[0].data, [1, 0, 0, 0, 2, 0, 0, 0]);
        assert_eq!(launch.buffers[1].kind, BufferKind::Storage);
        assert_eq!(launch.push, 1.5f32.to_le_bytes());
        assert!(launch.add_uniform(Binding::new(1, 4), vec![0; 4]).is_err());
        assert!(launch.add_uniform(Binding::new(2, 0), vec![0; 4]).is_ok());
    }
}
