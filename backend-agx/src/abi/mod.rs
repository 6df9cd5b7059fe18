//! The binding ABI: where a compiled shader finds its resources, as metadata the runtime uses to
//! fill uniform registers and bind texture and sampler slots.
//!
//! # Uniform registers
//! Every value the runtime supplies lives in the 32-bit uniform registers `u0..u255`, laid out
//! per shader by [`Abi::for_function`] in a deterministic order: first the 64-bit addresses
//! (each in an even-aligned pair `u2k:u2k+1`, low word first), then the 32-bit words. What each
//! holds is a [`UniformContent`]:
//!
//! | content | size | value |
//! |---|---|---|
//! | `BufferAddress(set, binding)` | 64 | device address of the storage or uniform buffer |
//! | `BufferSize(set, binding)` | 32 | its size in bytes (`buffer_size`) |
//! | `PushAddress` | 64 | device address of a copy of the push constants (dynamic offsets) |
//! | `PushWord(k)` | 32 | push-constant bytes `4k .. 4k + 4`, little endian |
//! | `BufferWord(set, binding, k)` | 32 | uniform-buffer bytes `4k .. 4k + 4` (a push range) |
//! | `NumWorkgroups(axis)` | 32 | the dispatch's workgroup count on the axis |
//! | `TextureSize(binding, axis)` | 32 | level-0 width, height, depth (axes 0..3) or layers (3) |
//! | `TextureLevels(binding)` | 32 | mip level count |
//! | `FramebufferSize(axis)` | 32 | fragment grid width (0) or height (1) |
//! | `FragDepth` | 32 | `frag_coord.z`, f32 bits |
//! | `VertexCount` | 32 | vertices to shade |
//! | `VertexInput(location)` | 64 | address of the attribute array of a location |
//! | `VertexOutput(slot)` | 64 | address of an output array (per location; see below) |
//! | `Constant(bits)` | 32 | the constant `bits` (constant pool; see below) |
//! | `ConstantData` | 64 | device address of a copy of [`Abi::constant_data`] (see below) |
//! | `Preamble(k)` | 32 | result `k` of the preamble (not preloaded; see below) |
//!
//! A load from the push constants at a constant offset reads `PushWord` uniforms directly; a
//! dynamic offset loads from `PushAddress` with `device_load`.
//!
//! # Push ranges
//! Likewise a uniform-buffer load at a constant offset reads `BufferWord` uniforms, which the
//! runtime copies from the bound buffer before every dispatch or draw (bytes past the buffer's
//! end read as zero); [`Abi::push_ranges`] lists them as contiguous ranges. Which words are
//! preloaded, within the budget shared with the other contents, is decided in [`ranges`];
//! loads at dynamic offsets, and bindings that do not fit, use `BufferAddress` and
//! `device_load`. A binary therefore stays right when a uniform buffer's contents change
//! between dispatches, as long as the runtime preloads at each one.
//!
//! # Constant pool
//! A constant that fits no instruction's immediate field (the 8-bit integer or float
//! immediate) would cost a `mov_imm` in every invocation. As Mesa's AGX backend does
//! (`agx_opt_promote_constants.c`), the compiler instead *promotes* such constants to uniform
//! registers the runtime preloads: `Constant(bits)` words appended after every other uniform
//! of the shader, one per distinct value, a 16-bit constant in the low half of its word (high
//! half zero). Which constants are promoted is the `promote` pass's heuristic; the runtime only
//! copies each word's bits into its uniform before a dispatch, like any other content.
//!
//! # Constant data
//! A large constant table indexed dynamically (a GLSL `const vec2 disk[64]` read as
//! `disk[i]`) would cost a compare and a select per element in registers; the front end puts
//! such tables in the function's read-only data (`constant` loads in the IR) instead, as
//! Mesa's `nir_opt_large_constants` does. The binary carries the bytes
//! ([`Abi::constant_data`]); the runtime copies them to device memory once per dispatch or
//! draw and puts their address in the `ConstantData` uniforms, and the shader reads them with
//! `device_load`.
//!
//! # Preamble
//! Work that depends only on uniforms and constants (the reciprocal of a texture size, the
//! magic numbers of a division by a push constant) is the same for every thread of a dispatch
//! or draw. As Mesa's AGX backend does, the compiler moves it into a second program, the
//! *preamble* ([`crate::Binary::preamble`]), which the runtime runs once (one thread) after
//! preloading the uniforms above and before the main program; the preamble writes its results
//! to `Preamble(k)` uniforms with `uniform_store`, and the main program reads them there.
//! Which work moves is the `preamble` pass's choice (`crate::preamble`).
//!
//! # Textures and samplers
//! Textures are numbered by ascending `(set, binding)` into texture slots 0, 1, ..., samplers
//! likewise into sampler slots (a combined image-sampler has a texture slot and a sampler slot).
//!
//! # Fragment stage
//! The varying locations a fragment shader reads are packed into the 16 `ld_var` slots in
//! ascending order, as a driver's linker assigns coefficient registers to the varyings a
//! shader uses: [`Abi::varyings`] lists them, location `varyings[i]` is slot `i`, and component
//! `c` of the location is component `c` of its slot. Locations are any 32-bit numbers (TGSI's
//! legacy semantics sit at 32 and above: `COLOR` 32, `BCOLOR` 34, `FOG` 36, `TEXCOORD` 40);
//! at most 16 distinct ones may be read. The seed ISA document leaves `ld_var` as `TODO()`;
//! this ABI defines the varying supply:
//! - an interpolated slot's component is a plane the runtime evaluates at the pixel centre
//!   (the simulator's `Varying` planes), read as f32 (f16 into a 16-bit register); integer
//!   inputs convert it toward zero;
//! - a slot read `flat` ([`Abi::flat_varyings`]) is marked flat by the runtime and its
//!   components are 32-bit words, the provoking vertex's outputs under the vertex stage's
//!   output rule below (f32 bits, i32, i16 sign-extended, f16 widened to f32). The shader reads
//!   them with `ld_var` (perspective clear) into 32-bit registers, bit for bit: f32 and i32
//!   inputs use the word, f16 inputs round it to f16, i16 inputs take its low half. Mesa's
//!   production compiler reads flat varyings the same way, as the raw coefficient without
//!   interpolation. [`Abi::flat_inputs`] lists each flat component's type, so that a runtime
//!   given a numeric value rather than a word can convert it as the vertex stage would have.
//!
//! Colour output location `l` is `st_tile` render target `l` (0..8), stored as f32 (integers as
//! their 32-bit pattern). `frag_depth` goes to component 0 of render target
//! [`Abi::depth_target`], the first target after the colour locations used.
//! `frag_coord.xy` is the pixel position plus 0.5 (origin upper left; `origin_lower_left` flips
//! with the framebuffer height), `front_facing` is `!backfacing`, `helper_invocation` is true
//! for pixels outside the grid and for demoted or discarded pixels.
//!
//! # Vertex stage
//! The simulator has no vertex pipeline, so a vertex shader compiles to a *compute* program
//! over a one-dimensional grid: thread `i` (thread_position_in_grid.x) shades vertex `i`, and
//! threads with `i >= VertexCount` do nothing. Attribute location `l` is an array of four f32
//! per vertex (16-byte stride) at `VertexInput(l)`; an integer attribute converts its float
//! toward zero. Each output location is an array of four 32-bit words per vertex at
//! `VertexOutput(slot)` (the slot with component 0: [`output_array`]): `position`,
//! `point_size` (component 0) and every varying location; integers are stored as their 32-bit
//! pattern, f16 widened to f32.
//! `vertex_index` is `i`, `instance_index` 0.

use std::collections::BTreeSet;
use std::fmt;

use agxc_egraph::ir::{
    AddressSpace, Binding, Builtin, EffectOp, Function, Op, OutputSlot, Stage, Type,
};

use crate::error::BackendError;

mod ranges;

pub(crate) use ranges::constant_words;
pub use ranges::{PushRange, UBO_UNIFORM_BUDGET};

/// What a uniform register holds.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum UniformContent {
    /// Device address of a storage or uniform buffer (64-bit).
    BufferAddress(Binding),
    /// Byte size of a buffer.
    BufferSize(Binding),
    /// Device address of the push constants (64-bit).
    PushAddress,
    /// Push-constant word `k` (bytes `4k .. 4k + 4`).
    PushWord(u32),
    /// Word `k` (bytes `4k .. 4k + 4`) of a uniform buffer: a push range.
    BufferWord(Binding, u32),
    /// Workgroups in the dispatch on an axis.
    NumWorkgroups(u8),
    /// Level-0 extent of a texture on an axis (0 width, 1 height, 2 depth, 3 layers).
    TextureSize(Binding, u8),
    /// Mip level count of a texture.
    TextureLevels(Binding),
    /// Fragment grid width (0) or height (1).
    FramebufferSize(u8),
    /// `frag_coord.z`, as f32 bits.
    FragDepth,
    /// Vertices to shade.
    VertexCount,
    /// Address of the attribute array of a location (64-bit).
    VertexInput(u32),
    /// Address of the output array of a slot (64-bit).
    VertexOutput(OutputSlot),
    /// A constant of the shader's constant pool: these bits, preloaded as they are.
    Constant(u32),
    /// Result `k` of the preamble: written by its `uniform_store`, not preloaded.
    Preamble(u16),
    /// Device address of a copy of [`Abi::constant_data`] (64-bit).
    ConstantData,
}

impl UniformContent {
    /// Size in 32-bit uniforms (1 or 2).
    pub fn words(self) -> u16 {
        match self {
            UniformContent::BufferAddress(_)
            | UniformContent::PushAddress
            | UniformContent::VertexInput(_)
            | UniformContent::VertexOutput(_)
            | UniformContent::ConstantData => 2,
            _ => 1,
        }
    }
}

impl fmt::Display for UniformContent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UniformContent::BufferAddress(b) => write!(f, "address of buffer {b}"),
            UniformContent::BufferSize(b) => write!(f, "size of buffer {b}"),
            UniformContent::PushAddress => f.write_str("address of the push constants"),
            UniformContent::PushWord(k) => {
                write!(f, "push constant bytes {}..{}", 4 * k, 4 * k + 4)
            }
            UniformContent::BufferWord(b, k) => {
                write!(f, "uniform buffer {b} bytes {}..{}", 4 * k, 4 * k + 4)
            }
            UniformContent::NumWorkgroups(a) => write!(f, "workgroups on axis {a}"),
            UniformContent::TextureSize(b, a) => write!(f, "extent {a} of texture {b}"),
            UniformContent::TextureLevels(b) => write!(f, "levels of texture {b}"),
            UniformContent::FramebufferSize(a) => write!(f, "framebuffer extent {a}"),
            UniformContent::FragDepth => f.write_str("fragment depth"),
            UniformContent::VertexCount => f.write_str("vertex count"),
            UniformContent::VertexInput(l) => write!(f, "address of vertex attribute {l}"),
            UniformContent::VertexOutput(s) => write!(f, "address of vertex output {s:?}"),
            UniformContent::Constant(bits) => write!(f, "constant {bits:#010x}"),
            UniformContent::Preamble(k) => write!(f, "preamble result {k}"),
            UniformContent::ConstantData => f.write_str("address of the constant data"),
        }
    }
}

/// One uniform assignment: `u{index}` (and `u{index+1}` for 64-bit contents) holds `content`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct UniformSlot {
    /// First 32-bit uniform.
    pub index: u16,
    /// What it holds.
    pub content: UniformContent,
}

/// The resource layout of one compiled shader.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Abi {
    /// Uniform registers the runtime fills, in index order.
    pub uniforms: Vec<UniformSlot>,
    /// Texture slot of each texture binding.
    pub textures: Vec<(Binding, u8)>,
    /// Sampler slot of each sampler binding.
    pub samplers: Vec<(Binding, u8)>,
    /// Render target receiving `frag_depth` (component 0), if the shader writes it.
    pub depth_target: Option<u8>,
    /// Render targets the shader writes (colour locations, then the depth target).
    pub render_targets: Vec<u8>,
    /// Varying locations the shader reads, ascending: location `varyings[i]` is `ld_var`
    /// slot `i` ([`Abi::varying_slot`]).
    pub varyings: Vec<u32>,
    /// The varying locations read without interpolation (`flat`): the runtime marks their
    /// slots flat.
    pub flat_varyings: Vec<u32>,
    /// Every flat varying component read, with the type it is read as (see the module docs).
    pub flat_inputs: Vec<FlatInput>,
    /// The shader's read-only data (the IR function's `constant_data`), which the runtime
    /// copies to memory for the `ConstantData` uniforms.
    pub constant_data: Vec<u8>,
}

/// A flat fragment input: the varying component it reads and the type it reads it as.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct FlatInput {
    /// Varying location (the `ld_var` slot).
    pub location: u32,
    /// Component, 0..4.
    pub component: u8,
    /// The input's type.
    pub ty: Type,
}

/// The most varying slots, hence distinct varying locations a fragment shader may read
/// (`ld_var` index is 4 bits).
pub const MAX_VARYINGS: u32 = 16;
/// The most render targets (`st_tile` rt is 3 bits).
pub const MAX_RENDER_TARGETS: u32 = 8;
/// The 32-bit uniform registers (`u0..u255`).
pub const UNIFORM_WORDS: u32 = 256;
/// The largest push-constant block kept in uniforms, in bytes; larger blocks are read from
/// memory only.
pub const MAX_PUSH_UNIFORM_BYTES: u32 = 256;

impl Abi {
    /// Lays out the resources `func` uses.
    ///
    /// Geometry functions are refused: the G13 has no geometry stage in hardware (Mesa's
    /// Asahi driver runs geometry shaders as compute programs that write the vertices to
    /// memory, a lowering this backend does not have).
    pub fn for_function(func: &Function) -> Result<Abi, BackendError> {
        if let Stage::Geometry(_) = func.stage {
            return Err(BackendError::Unsupported {
                what: "the geometry stage (the G13 has no geometry hardware; geometry shaders \
                       would have to be lowered to compute)"
                    .into(),
            });
        }
        let mut need = BTreeSet::new();
        let mut textures = BTreeSet::new();
        let mut samplers = BTreeSet::new();
        let mut colour_locations = BTreeSet::new();
        let mut varyings = BTreeSet::new();
        let mut flat = BTreeSet::new();
        let mut flat_inputs = BTreeSet::new();
        let mut interpolated = BTreeSet::new();
        let mut writes_depth = false;
        let mut push_end = 0u32;
        let mut push_dynamic = false;
        let mut ubo = ranges::UboReads::default();
        let mut bad = None;
        func.for_each_inst(|_, inst| {
            let data = &func.insts[inst];
            let Op::Effect(effect) = data.op else { return };
            match effect {
                EffectOp::Load(access) | EffectOp::Store(access) => match access.space {
                    AddressSpace::Uniform(b) => {
                        let types: Vec<Type> =
                            data.results.iter().map(|&r| func.value_type(r)).collect();
                        let words = data
                            .args
                            .first()
                            .and_then(|&a| constant_words(func, a, access.offset, &types));
                        ubo.record(b, words);
                    }
                    AddressSpace::Storage(b) => {
                        need.insert(UniformContent::BufferAddress(b));
                    }
                    AddressSpace::PushConstant => {
                        let bytes: u32 = data
                            .results
                            .iter()
                            .map(|&r| func.value_type(r).bytes())
                            .sum();
                        let constant = data.args.first().and_then(|&a| const_i32(func, a));
                        match constant {
                            Some(c) if c >= 0 => {
                                let end = (c as u32)
                                    .saturating_add(access.offset)
                                    .saturating_add(bytes);
                                push_end = push_end.max(end);
                            }
                            _ => push_dynamic = true,
                        }
                    }
                    AddressSpace::Workgroup | AddressSpace::Private => {}
                    AddressSpace::Constant => {
                        need.insert(UniformContent::ConstantData);
                    }
                },
                EffectOp::Atomic(_, access) => {
                    if let AddressSpace::Storage(b) = access.space {
                        need.insert(UniformContent::BufferAddress(b));
                    }
                }
                EffectOp::BufferSize(b) => {
                    need.insert(UniformContent::BufferSize(b));
                }
                EffectOp::Builtin(Builtin::NumWorkgroups(axis)) => {
                    need.insert(UniformContent::NumWorkgroups(axis));
                }
                EffectOp::Builtin(Builtin::FragCoord(1)) if !func.modes.origin_upper_left => {
                    need.insert(UniformContent::FramebufferSize(1));
                }
                EffectOp::Builtin(Builtin::FragCoord(2)) => {
                    need.insert(UniformContent::FragDepth);
                }
                EffectOp::Builtin(Builtin::HelperInvocation) => {
                    need.insert(UniformContent::FramebufferSize(0));
                    need.insert(UniformContent::FramebufferSize(1));
                }
                EffectOp::Input(slot) => match func.stage {
                    Stage::Vertex => {
                        need.insert(UniformContent::VertexInput(slot.location));
                    }
                    _ => {
                        varyings.insert(slot.location);
                        if slot.interp == agxc_egraph::ir::Interp::Flat {
                            flat.insert(slot.location);
                            flat_inputs.insert(FlatInput {
                                location: slot.location,
                                component: slot.component,
                                ty: func.value_type(data.results[0]),
                            });
                        } else {
                            interpolated.insert(slot.location);
                        }
                    }
                },
                EffectOp::Output(slot) => match func.stage {
                    Stage::Vertex => {
                        need.insert(UniformContent::VertexOutput(output_array(slot)));
                    }
                    _ => match slot {
                        OutputSlot::Location { location, .. } => {
                            colour_locations.insert(location);
                        }
                        OutputSlot::FragDepth => writes_depth = true,
                        _ => {}
                    },
                },
                EffectOp::Sample(s) => {
                    textures.insert(s.texture);
                    samplers.insert(s.sampler);
                }
                EffectOp::Fetch(f) => {
                    textures.insert(f.texture);
                }
                EffectOp::TexSize(s) => {
                    let axes = s.target.dim.size_components() as u8;
                    for axis in 0..axes {
                        need.insert(UniformContent::TextureSize(s.texture, axis));
                    }
                    if s.target.arrayed {
                        need.insert(UniformContent::TextureSize(s.texture, 3));
                    }
                }
                EffectOp::TexLevels(b) => {
                    need.insert(UniformContent::TextureLevels(b));
                }
                EffectOp::Builtin(_)
                | EffectOp::Barrier(_)
                | EffectOp::Derivative(..)
                | EffectOp::Demote => {}
                // Geometry functions were refused above.
                EffectOp::VertexInput(_) | EffectOp::EmitVertex(_) | EffectOp::EndPrimitive(_) => {}
                // Storage images are textures at the image's binding (loads are texture
                // loads; a size query reads the level-0 extent like `tex_size`).
                EffectOp::ImageLoad(op) | EffectOp::ImageStore(op) => {
                    textures.insert(op.image);
                }
                EffectOp::ImageSize(op) => {
                    textures.insert(op.image);
                    let axes = op.target.dim.size_components() as u8;
                    for axis in 0..axes {
                        need.insert(UniformContent::TextureSize(op.image, axis));
                    }
                    if op.target.arrayed {
                        need.insert(UniformContent::TextureSize(op.image, 3));
                    }
                }
            }
            if bad.is_none() {
                bad = check_limits(func.stage, effect);
            }
        });
        if let Some(e) = bad {
            return Err(e);
        }
        if func.stage == Stage::Fragment && varyings.len() > MAX_VARYINGS as usize {
            let listed: Vec<String> = varyings.iter().map(u32::to_string).collect();
            return Err(BackendError::Unsupported {
                what: format!(
                    "{} varying locations read ({}; the G13 has {MAX_VARYINGS} varying slots)",
                    varyings.len(),
                    listed.join(", ")
                ),
            });
        }
        if let Some(l) = flat.intersection(&interpolated).next() {
            return Err(BackendError::Unsupported {
                what: format!("varying location {l} read both flat and interpolated"),
            });
        }
        if func.stage == Stage::Vertex {
            need.insert(UniformContent::VertexCount);
        }
        if push_dynamic || push_end > MAX_PUSH_UNIFORM_BYTES {
            need.insert(UniformContent::PushAddress);
        }
        if push_end <= MAX_PUSH_UNIFORM_BYTES {
            for k in 0..push_end.div_ceil(4) {
                need.insert(UniformContent::PushWord(k));
            }
        }

        let used = need.iter().map(|c| u32::from(c.words())).sum();
        ubo.choose(used, &mut need);

        // 64-bit contents first so that every pair is even-aligned.
        let mut uniforms = Vec::new();
        let mut next: u32 = 0;
        for wide in [true, false] {
            for &content in need.iter().filter(|c| (c.words() == 2) == wide) {
                let index = u16::try_from(next)
                    .ok()
                    .filter(|&i| u32::from(i + content.words()) <= UNIFORM_WORDS);
                let Some(index) = index else {
                    return Err(BackendError::TooManyUniforms {
                        needed: next + u32::from(content.words()),
                    });
                };
                uniforms.push(UniformSlot { index, content });
                next += u32::from(content.words());
            }
        }

        let slots = |set: BTreeSet<Binding>, what: &'static str| {
            set.into_iter()
                .enumerate()
                .map(|(i, b)| {
                    u8::try_from(i)
                        .map(|slot| (b, slot))
                        .map_err(|_| BackendError::TooManyBindings { what })
                })
                .collect::<Result<Vec<_>, _>>()
        };
        let mut render_targets: Vec<u8> = colour_locations.iter().map(|&l| l as u8).collect();
        let depth_target = if writes_depth {
            let t = colour_locations.iter().next_back().map_or(0, |&l| l + 1);
            if t >= MAX_RENDER_TARGETS {
                return Err(BackendError::Unsupported {
                    what: "frag_depth with every render target in use".into(),
                });
            }
            render_targets.push(t as u8);
            Some(t as u8)
        } else {
            None
        };
        Ok(Abi {
            uniforms,
            textures: slots(textures, "textures")?,
            samplers: slots(samplers, "samplers")?,
            depth_target,
            render_targets,
            varyings: varyings.into_iter().collect(),
            flat_varyings: flat.into_iter().collect(),
            flat_inputs: flat_inputs.into_iter().collect(),
            constant_data: func.constant_data.clone(),
        })
    }

    /// The first 32-bit uniform holding `content`, if the shader uses it.
    pub fn uniform(&self, content: UniformContent) -> Option<u16> {
        self.uniforms
            .iter()
            .find(|s| s.content == content)
            .map(|s| s.index)
    }

    /// The `ld_var` slot of a varying location the shader reads.
    pub fn varying_slot(&self, location: u32) -> Option<u32> {
        self.varyings
            .iter()
            .position(|&l| l == location)
            .map(|s| s as u32)
    }

    /// The texture slot of a binding.
    pub fn texture_slot(&self, b: Binding) -> Option<u8> {
        self.textures.iter().find(|t| t.0 == b).map(|t| t.1)
    }

    /// The sampler slot of a binding.
    pub fn sampler_slot(&self, b: Binding) -> Option<u8> {
        self.samplers.iter().find(|t| t.0 == b).map(|t| t.1)
    }

    /// Appends `bits` to the constant pool (reusing its word if the pool has it already);
    /// returns its 32-bit uniform, or `None` when every uniform register is taken.
    pub fn add_constant(&mut self, bits: u32) -> Option<u16> {
        let content = UniformContent::Constant(bits);
        if let Some(index) = self.uniform(content) {
            return Some(index);
        }
        let next = self.uniform_words();
        let index = u16::try_from(next).ok().filter(|_| next < UNIFORM_WORDS)?;
        self.uniforms.push(UniformSlot { index, content });
        Some(index)
    }

    /// Appends a uniform for result `k` of the preamble; returns its 32-bit uniform, or
    /// `None` when every uniform register is taken.
    pub fn add_preamble_result(&mut self, k: u16) -> Option<u16> {
        let next = self.uniform_words();
        let index = u16::try_from(next).ok().filter(|_| next < UNIFORM_WORDS)?;
        self.uniforms.push(UniformSlot {
            index,
            content: UniformContent::Preamble(k),
        });
        Some(index)
    }

    /// 32-bit uniforms used.
    pub fn uniform_words(&self) -> u32 {
        self.uniforms
            .iter()
            .map(|s| u32::from(s.index) + u32::from(s.content.words()))
            .max()
            .unwrap_or(0)
    }
}

/// The vertex output array a slot is written to: one array per location (component 0
/// names it), one for `position`, one for `point_size`.
pub fn output_array(slot: OutputSlot) -> OutputSlot {
    match slot {
        OutputSlot::Location { location, .. } => OutputSlot::Location {
            location,
            component: 0,
        },
        OutputSlot::Position(_) => OutputSlot::Position(0),
        other => other,
    }
}

/// The value of `v` if a constant instruction defines it as an i32.
pub(crate) fn const_i32(func: &Function, v: agxc_egraph::ir::Value) -> Option<i32> {
    match func.values[v].def {
        agxc_egraph::ir::ValueDef::Result(inst, 0) => match func.insts[inst].op {
            Op::Const(c) if c.ty() == agxc_egraph::ir::Type::I32 => Some(c.as_i64() as i32),
            _ => None,
        },
        _ => None,
    }
}

/// Slots beyond what the encodings can address.
fn check_limits(stage: Stage, effect: EffectOp) -> Option<BackendError> {
    match (stage, effect) {
        (Stage::Fragment, EffectOp::Output(OutputSlot::Location { location, .. }))
            if location >= MAX_RENDER_TARGETS =>
        {
            Some(BackendError::Unsupported {
                what: format!("render target {location} (at most 7)"),
            })
        }
        _ => None,
    }
}

impl fmt::Display for Abi {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for s in &self.uniforms {
            if s.content.words() == 2 {
                writeln!(f, "u{}_u{}: {}", s.index, s.index + 1, s.content)?;
            } else {
                writeln!(f, "u{}: {}", s.index, s.content)?;
            }
        }
        for (b, slot) in &self.textures {
            writeln!(f, "texture slot {slot}: {b}")?;
        }
        for (b, slot) in &self.samplers {
            writeln!(f, "sampler slot {slot}: {b}")?;
        }
        for (slot, l) in self.varyings.iter().enumerate() {
            let flat = if self.flat_varyings.contains(l) {
                " (flat words)"
            } else {
                ""
            };
            writeln!(f, "varying slot {slot}: location {l}{flat}")?;
        }
        if let Some(t) = self.depth_target {
            writeln!(f, "render target {t}: frag_depth")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use agxc_egraph::ir::{parse_function, OpRegistry};

    fn abi(text: &str) -> Abi {
        let f = match parse_function(text, &OpRegistry::new()) {
            Ok(f) => f,
            Err(e) => panic!("{e}"),
        };
        match Abi::for_function(&f) {
            Ok(a) => a,
            Err(e) => panic!("{e}"),
        }
    }

    #[test]
    fn addresses_come_first_in_even_pairs_then_words() {
        let a = abi("function @f compute {
             block0:
                 v0:i32 = const 8
                 v1:f32 = load push [v0]
                 v2:i32 = buffer_size (0, 3)
                 v3:f32 = load storage(1, 0) [v2]
                 v4:i32 = builtin num_workgroups.y
                 store storage(0, 3) [v4], v1
                 return
             }");
        let layout: Vec<(u16, UniformContent)> =
            a.uniforms.iter().map(|s| (s.index, s.content)).collect();
        assert_eq!(
            layout,
            [
                (0, UniformContent::BufferAddress(Binding::new(0, 3))),
                (2, UniformContent::BufferAddress(Binding::new(1, 0))),
                (4, UniformContent::BufferSize(Binding::new(0, 3))),
                // Push constants at constant offsets up to byte 12: three words.
                (5, UniformContent::PushWord(0)),
                (6, UniformContent::PushWord(1)),
                (7, UniformContent::PushWord(2)),
                (8, UniformContent::NumWorkgroups(1)),
            ]
        );
        assert_eq!(a.uniform_words(), 9);
    }

    #[test]
    fn dynamic_push_offsets_use_memory_and_textures_get_slots() {
        let a = abi("function @f fragment {
             block0:
                 v0:f32 = input 2.x flat
                 v1:i32 = f2s v0
                 v2:f32 = load push [v1]
                 v3:f32, v4:f32, v5:f32, v6:f32 = sample 2d tex(0, 5) sampler(0, 5) implicit v0, v2
                 v7:f32, v8:f32, v9:f32, v10:f32 = sample 2d tex(0, 2) sampler(0, 9) implicit v0, v2
                 output 1.x v3
                 output 3.y v7
                 output frag_depth v2
                 return
             }");
        assert_eq!(a.uniform(UniformContent::PushAddress), Some(0));
        assert_eq!(
            a.textures,
            [(Binding::new(0, 2), 0), (Binding::new(0, 5), 1)]
        );
        assert_eq!(
            a.samplers,
            [(Binding::new(0, 5), 0), (Binding::new(0, 9), 1)]
        );
        assert_eq!(a.varyings, [2]);
        assert_eq!(a.flat_varyings, [2]);
        assert_eq!(
            a.flat_inputs,
            [FlatInput {
                location: 2,
                component: 0,
                ty: Type::F32
            }]
        );
        // Depth goes to the target after the highest colour location.
        assert_eq!(a.depth_target, Some(4));
        assert_eq!(a.render_targets, [1, 3, 4]);
    }

    #[test]
    fn varying_locations_are_packed_into_slots() {
        // TGSI's legacy semantics: COLOR[1] at 33, TEXCOORD[2] at 42; GENERIC[3] at 3.
        let a = abi("function @f fragment {
             block0:
                 v0:f32 = input 42.y perspective
                 v1:f32 = input 3.x linear
                 v2:f32 = input 33.w perspective
                 output 0.x v0
                 output 0.y v1
                 output 0.z v2
                 return
             }");
        assert_eq!(a.varyings, [3, 33, 42]);
        assert_eq!(
            [3, 33, 42, 0].map(|l| a.varying_slot(l)),
            [Some(0), Some(1), Some(2), None]
        );
        // Seventeen locations do not fit the sixteen slots.
        let mut text = String::from("function @f fragment {\nblock0:\n");
        for l in 0..17 {
            text += &format!("    v{l}:f32 = input {}.x perspective\n", 2 * l + 1);
            text += &format!("    output 0.x v{l}\n");
        }
        text += "    return\n}\n";
        let func = parse_function(&text, &OpRegistry::new()).unwrap();
        let e = Abi::for_function(&func).unwrap_err().to_string();
        assert!(
            e.contains("17 varying locations") && e.contains("16 varying slots"),
            "{e}"
        );
    }

    #[test]
    fn vertex_outputs_are_one_array_per_location() {
        let a = abi("function @v vertex {
             block0:
                 v0:f32 = input 0.x flat
                 output position.x v0
                 output position.w v0
                 output 2.y v0
                 output 2.z v0
                 return
             }");
        let arrays: Vec<UniformContent> = a
            .uniforms
            .iter()
            .map(|s| s.content)
            .filter(|c| matches!(c, UniformContent::VertexOutput(_)))
            .collect();
        assert_eq!(
            arrays,
            [
                UniformContent::VertexOutput(OutputSlot::Location {
                    location: 2,
                    component: 0
                }),
                UniformContent::VertexOutput(OutputSlot::Position(0)),
            ]
        );
        assert!(a.uniform(UniformContent::VertexCount).is_some());
    }
}
