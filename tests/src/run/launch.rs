//! A corpus case's run described in the IR's binding model: what an [`Executor`] binds, how it
//! dispatches or draws, and which outputs it reads back.
//!
//! The manifest speaks Vulkan/GLSL (`(set, binding)`, locations, an affine varying model);
//! the IR speaks the same binding model ([`Binding`], input locations), so for SPIR-V the
//! launch is the manifest's resources as they are. A TGSI case is lifted with options that map
//! TGSI's registers back onto the same GLSL bindings (`super::tgsi`), so it gets the same
//! launch plus whatever Mesa added (the state constants in `CONST[0]`).
//!
//! Varyings: interpolated ones are the manifest's affine model with f32 coefficients; flat ones
//! are the 32-bit words the oracle's vertex shader wrote for the provoking vertex (f32 bits, or
//! the integer), given to the interpreter as raw words ([`Varying::words`]), so that an integer
//! beyond f32's exact range (`0xDEADBEEF`) or any bit pattern arrives bit for bit whatever the IR
//! input's type: a typed `int` in SPIR-V, an untyped f32 register in TGSI.
//!
//! One thing differs between the oracles' pipelines and is therefore a parameter
//! ([`Conventions`]): the fragment depth (Vulkan maps clip z = 0 to depth 0, GL's default
//! depth range maps it to 0.5).
//!
//! [`Executor`]: super::Executor

use agxc_egraph::interp::{BufferKind, FragmentGrid, Resources, Sampler, Texture, Varying};
use agxc_egraph::ir::Binding;

use super::error::RunError;
use super::texture::{interp_sampler, interp_texture};
use crate::corpus::{self, Case, Inputs, OutputSpec, Stage};

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

/// What differs between the two oracles' pipelines (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Conventions {
    /// `gl_FragCoord.z` of the full-screen primitive.
    pub frag_depth: f32,
}

impl Conventions {
    /// lavapipe's: the primitive at clip z = 0 has depth 0 (Vulkan's viewport maps z in [0, 1]
    /// directly).
    pub const SPIRV_LAVAPIPE: Conventions = Conventions { frag_depth: 0.0 };
    /// softpipe's: clip z = 0 lands at depth 0.5 (GL's default depth range maps z in [-1, 1] to
    /// [0, 1]).
    pub const TGSI_SOFTPIPE: Conventions = Conventions { frag_depth: 0.5 };
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
            Stage::Fragment => LaunchStage::Fragment(fragment_grid(case, conventions)),
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

    /// The launch's resources in the interpreter's types: what the interpreter runs on, and
    /// what the simulator runners bind through the backend's ABI.
    pub fn resources(&self) -> Resources {
        let mut res = Resources::new();
        for b in &self.buffers {
            match b.kind {
                BufferKind::Storage => res.bind_storage(b.binding, b.data.clone()),
                BufferKind::Uniform => res.bind_uniform(b.binding, b.data.clone()),
            };
        }
        res.set_push_constants(self.push.clone());
        for t in &self.textures {
            res.bind_combined(t.binding, t.texture.clone(), t.sampler);
        }
        res
    }
}

fn fragment_grid(case: &Case, conventions: Conventions) -> FragmentGrid {
    let m = &case.manifest;
    // `Case::load` validated that fragment cases have `size`.
    let [width, height] = m.size.unwrap_or([1, 1]);
    let mut grid = FragmentGrid::new(width, height).with_clear(m.clear);
    grid.depth = conventions.frag_depth;
    for v in &m.varyings {
        grid = grid.with_varying(v.location, interp_varying(v));
    }
    grid
}

/// The interpreter's varying for a manifest varying: the affine model with f32 coefficients
/// (evaluated in f64 at pixel centres by the interpreter), or for a flat varying the words the
/// provoking vertex carries, raw.
fn interp_varying(v: &corpus::Varying) -> Varying {
    let n = (v.components as usize).min(4);
    if v.flat {
        let mut words = [0u32; 4];
        for (w, word) in words.iter_mut().zip(v.words_at_pixel(0, 0)).take(n) {
            *w = word;
        }
        // Components beyond the varying's width read word 0: 0.0 or the integer 0.
        return Varying::words(words);
    }
    let at = |list: &[f64], c: usize| list.get(c).copied().unwrap_or(0.0) as f32;
    let mut out = Varying::default();
    for c in 0..n {
        out.base[c] = at(&v.base, c);
        out.ddx[c] = at(&v.ddx, c);
        out.ddy[c] = at(&v.ddy, c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Manifest;
    use agxc_egraph::ir::Type;

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
        assert_eq!(v.raw, [false; 4]);
        // The affine model at pixel (1, 1): 0.25 + 0.5 * 1.5 and -1 + 0.125 * 1.5.
        assert_eq!((v.at(0, 1, 1), v.at(1, 1, 1)), (1.0, -0.8125));
        // Flat integers are raw words: -3 and 7 as i32 bits.
        let ints = g.varyings[&1];
        assert_eq!(ints.raw, [true; 4]);
        assert_eq!(
            ints.base[..2]
                .iter()
                .map(|b| b.to_bits())
                .collect::<Vec<_>>(),
            [(-3i32) as u32, 7]
        );
        assert_eq!(ints.flat_word(0, Type::I32), (-3i32) as u32);
        // A flat float is its f32 bits, with no slope whatever the manifest says about ddx.
        let flat = g.varyings[&2];
        assert_eq!(flat.flat_word(0, Type::F32), 2.0f32.to_bits());
        assert_eq!(flat.ddx, [0.0; 4]);
        assert_eq!(launch.outputs.len(), 1);
    }

    #[test]
    fn flat_words_are_the_same_for_both_oracles_and_exact_beyond_f32() {
        // 0xDEADBEEF (u32) and 0x7f800001 (a signalling NaN's bits) travel bit for bit.
        let big = FRAG
            .replace(r#"type = "i32""#, r#"type = "u32""#)
            .replace("base = [-3.0, 7.0]", "base = [3735928559.0, 2139095041.0]");
        let c = case(&big);
        for conventions in [Conventions::SPIRV_LAVAPIPE, Conventions::TGSI_SOFTPIPE] {
            let launch = Launch::new(&c, &c.inputs(), conventions).expect("fits");
            let g = grid(&launch);
            let v = g.varyings[&1];
            assert_eq!(v.flat_word(0, Type::I32), 0xDEAD_BEEF);
            assert_eq!(v.flat_word(1, Type::F32), 0x7f80_0001);
            assert_eq!(g.depth, conventions.frag_depth);
        }
        assert_eq!(Conventions::TGSI_SOFTPIPE.frag_depth, 0.5);
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
