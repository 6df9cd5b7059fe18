//! Texture instructions through the texture unit: sampling and fetching, every LOD mode,
//! automatic LOD from quad derivatives, compare references and offsets, and binding errors.

use super::asm::enc;
use super::harness::{get32, set32, Env};
use super::runtime_api::{ld_var, load, st_tile};
use crate::encoding::Opcode;
use crate::error::{Error, ExecErrorKind};
use crate::program::ProgramMetadata;
use crate::runtime::{FragmentSetup, Plane, Simulator, Varying};
use crate::texture::{
    Filter, MipFilter, SamplerDescriptor, TexDim, TexFormat, TextureDescriptor, Wrap,
};

/// An environment with `texels` (RGBA8) in device memory behind texture slot 0 (a 2D texture
/// of `width x height` with `levels` levels) and a nearest sampler with nearest mips in slot 0.
fn texture_env(texels: &[u8], width: u32, height: u32, levels: u32) -> Env {
    let mut env = Env::default();
    let addr = env.memory.alloc(texels.len() as u64, 16).expect("alloc");
    env.memory.write(addr, texels).expect("write");
    env.textures.insert(
        0,
        TextureDescriptor::new_2d(TexFormat::Rgba8Unorm, width, height, levels, addr),
    );
    env.samplers.insert(
        0,
        SamplerDescriptor::with_filter(Filter::Nearest, MipFilter::Nearest, Wrap::ClampToEdge),
    );
    env
}

#[test]
fn texture_sample_and_load_go_through_the_texture_unit() {
    // A 2x2 texture, texel (x, y) = (10 + x, 20 + y, 30, 255).
    let texels: Vec<u8> = [(0, 0), (1, 0), (0, 1), (1, 1)]
        .iter()
        .flat_map(|&(x, y)| [10 + x, 20 + y, 30, 255])
        .collect();
    let mut env = texture_env(&texels, 2, 2, 1);
    // texture_sample {r0..r3}, {r4, r5}, explicit LOD r6; texture_load {r10, r11}, {r7, r8}.
    let code = [
        enc(
            Opcode::TextureSample,
            &[
                ("R", 0),
                ("Rt", 1),
                ("C", 8),
                ("n", 2),
                ("mask", 0b1111),
                ("lod", 6),
                ("D", 12),
            ],
        ),
        enc(
            Opcode::TextureLoad,
            &[
                ("R", 20),
                ("Rt", 1),
                ("C", 14),
                ("n", 2),
                ("mask", 0b0011),
                ("lod", 0),
            ],
        ),
        enc(Opcode::Wait, &[("i", 0)]),
    ]
    .concat();
    let g = env
        .run(&code, u32::MAX, |g| {
            set32(g, 4, |l| ((l & 1) as f32 * 0.5 + 0.25).to_bits());
            set32(g, 5, |l| (((l >> 1) & 1) as f32 * 0.5 + 0.25).to_bits());
            set32(g, 6, |_| 0.0f32.to_bits());
            set32(g, 7, |l| (l & 1) as u32);
            set32(g, 8, |l| ((l >> 1) & 1) as u32);
        })
        .expect("runs");
    for l in 0..32 {
        let (x, y) = ((l & 1) as u8, ((l >> 1) & 1) as u8);
        let expect = [10 + x, 20 + y, 30, 255].map(|c| f32::from(c) / 255.0);
        let got: Vec<f32> = (0..4).map(|r| f32::from_bits(get32(&g, r, l))).collect();
        assert_eq!(got, expect, "sample lane {l}");
        let fetched: Vec<f32> = (10..12).map(|r| f32::from_bits(get32(&g, r, l))).collect();
        assert_eq!(fetched, expect[..2], "fetch lane {l}");
    }
}

/// Texels of a 4x4 texture with 3 levels, each a solid colour: level 0 red, 1 green, 2 blue.
fn mip_texels() -> Vec<u8> {
    let mut bytes = Vec::new();
    for (texels, colour) in [
        (16, [255u8, 0, 0, 255]),
        (4, [0, 255, 0, 255]),
        (1, [0, 0, 255, 255]),
    ] {
        for _ in 0..texels {
            bytes.extend_from_slice(&colour);
        }
    }
    bytes
}

#[test]
fn explicit_bias_and_gradient_lod_modes() {
    // Level chosen (nearest mip): red 0, green 1, blue 2. The sample writes r0..r2.
    let red = [1.0, 0.0, 0.0];
    let green = [0.0, 1.0, 0.0];
    let blue = [0.0, 0.0, 1.0];
    let sample = |lod: u64, d: u64| {
        [
            enc(
                Opcode::TextureSample,
                &[
                    ("R", 0),
                    ("Rt", 1),
                    ("C", 8),
                    ("n", 2),
                    ("mask", 0b0111),
                    ("lod", lod),
                    ("D", d),
                ],
            ),
            enc(Opcode::Wait, &[("i", 0)]),
        ]
        .concat()
    };
    let check =
        |code: Vec<u8>, uniform: Option<f32>, regs: &[(u8, f32)], expect: [f32; 3], what: &str| {
            let mut env = texture_env(&mip_texels(), 4, 4, 3);
            if let Some(u) = uniform {
                env.uniforms[10] = u.to_bits();
                env.uniforms[11] = 0.0f32.to_bits();
            }
            let g = env
                .run(&code, u32::MAX, |g| {
                    set32(g, 4, |_| 0.5f32.to_bits());
                    set32(g, 5, |_| 0.5f32.to_bits());
                    for &(r, v) in regs {
                        set32(g, r, |_| v.to_bits());
                    }
                })
                .expect("runs");
            let got: Vec<f32> = (0..3).map(|r| f32::from_bits(get32(&g, r, 0))).collect();
            assert_eq!(got, expect, "{what}");
        };
    check(
        sample(6, 12),
        None,
        &[(6, 1.0)],
        green,
        "explicit LOD 1 from r6",
    );
    check(
        sample(6, 12),
        None,
        &[(6, 2.2)],
        blue,
        "explicit LOD 2.2 from r6",
    );
    check(
        sample(2, 20),
        Some(2.0),
        &[],
        blue,
        "explicit LOD 2 from u10",
    );
    // Bias in compute: the quad's coordinates are equal, so the implicit LOD is -inf plus bias.
    check(
        sample(5, 12),
        None,
        &[(6, 1.0)],
        red,
        "bias on a zero derivative stays at level 0",
    );
    // Gradients interleaved dx.s, dy.s, dx.t, dy.t from r6: 0.5 of the texture per pixel is two
    // texels at level 0, LOD 1.
    check(
        sample(4, 12),
        None,
        &[(6, 0.5), (7, 0.0), (8, 0.0), (9, 0.5)],
        green,
        "gradient LOD 1",
    );
    check(
        sample(4, 12),
        None,
        &[(6, 0.25), (7, 0.0), (8, 0.0), (9, 0.25)],
        red,
        "gradient LOD 0",
    );
    // With a minimum LOD of 2 (r10) the same gradients give level 2.
    check(
        sample(12, 12),
        None,
        &[(6, 0.25), (7, 0.0), (8, 0.0), (9, 0.25), (10, 2.0)],
        blue,
        "min LOD",
    );
}

#[test]
fn automatic_lod_follows_quad_derivatives() {
    // A 4x4 texture with 3 levels, each a solid colour: level 0 red, 1 green, 2 blue.
    let mut sim = Simulator::new();
    let addr = sim.alloc_bytes(&mip_texels()).expect("alloc");
    sim.bind_texture(
        3,
        TextureDescriptor::new_2d(TexFormat::Rgba8Unorm, 4, 4, 3, addr),
    );
    sim.bind_sampler(
        1,
        SamplerDescriptor::with_filter(Filter::Nearest, MipFilter::Nearest, Wrap::Repeat),
    );
    let program = load(
        &[
            ld_var(8, 2, 0, 0b0011),
            enc(
                Opcode::TextureSample,
                &[
                    ("R", 0),
                    ("Rt", 1),
                    ("C", 8),
                    ("n", 2),
                    ("mask", 0b0111),
                    ("T", 3),
                    ("S", 1),
                ],
            ),
            enc(Opcode::Wait, &[("i", 0)]),
            st_tile(0, 0, 0b0111),
        ],
        ProgramMetadata::fragment(12),
    );
    // s = scale * (x + 0.5) / 4: one texel per pixel at scale 1 (LOD 0), two at scale 2 (LOD 1),
    // four at scale 4 (LOD 2).
    for (scale, expect) in [
        (1.0, [1.0, 0.0, 0.0]),
        (2.0, [0.0, 1.0, 0.0]),
        (4.0, [0.0, 0.0, 1.0]),
    ] {
        let p = |ddx: f32, ddy: f32| Plane {
            base: 0.0,
            ddx,
            ddy,
        };
        let setup = FragmentSetup {
            width: 4,
            height: 4,
            varyings: vec![Varying {
                planes: [
                    p(scale / 4.0, 0.0),
                    p(0.0, scale / 4.0),
                    p(0.0, 0.0),
                    p(0.0, 0.0),
                ],
                flat: false,
            }],
            clear: vec![[0.0; 4]],
        };
        let out = sim.shade_fragments(&program, &setup).expect("runs");
        for px in &out.targets[0].pixels {
            assert_eq!(px[..3], expect, "scale {scale}");
        }
    }
}

#[test]
fn texture_errors_name_the_thread() {
    let program = load(
        &[enc(
            Opcode::TextureSample,
            &[
                ("R", 0),
                ("Rt", 1),
                ("C", 8),
                ("n", 2),
                ("mask", 1),
                ("T", 5),
            ],
        )],
        ProgramMetadata::compute(12),
    );
    // Bindings are sparse: a slot past anything an instruction can name is one entry, not a
    // table of 2^32 (which would exhaust memory).
    let mut sim = Simulator::new();
    sim.bind_texture(
        u32::MAX,
        TextureDescriptor::new_1d(TexFormat::R32Float, 1, 1, 0),
    );
    sim.bind_sampler(u32::MAX, SamplerDescriptor::default());
    match sim.dispatch_compute(&program, [1, 1, 1], [1, 1, 1]) {
        Err(Error::Exec(e)) => {
            assert_eq!(e.kind, ExecErrorKind::UnboundTexture { thread: 0, slot: 5 })
        }
        other => panic!("expected an unbound texture: {:?}", other.err()),
    }
    // A 3D descriptor behind a 2D instruction.
    let mut sim = Simulator::new();
    let addr = sim.alloc(64, 16).expect("alloc");
    sim.bind_texture(
        5,
        TextureDescriptor::new_3d(TexFormat::R32Float, [2, 2, 2], 1, addr),
    );
    sim.bind_sampler(0, SamplerDescriptor::default());
    match sim.dispatch_compute(&program, [1, 1, 1], [1, 1, 1]) {
        Err(Error::Exec(e)) => {
            assert!(
                matches!(e.kind, ExecErrorKind::TextureDimMismatch { .. }),
                "{e}"
            );
            assert_eq!(TexDim::D3.to_string(), "3d");
        }
        other => panic!("expected a dimension mismatch: {:?}", other.err()),
    }
}

#[test]
fn texture_compare_reference_and_offsets_come_from_the_o_registers() {
    // A 1D R32F texture [0.1, 0.2, 0.3, 0.4]; s = 0.125 is texel 0, offset +2 makes it texel 2
    // (0.3); the compare is `reference <= texel`: 0.25 passes, 0.35 fails.
    let texels: Vec<u8> = [0.1f32, 0.2, 0.3, 0.4]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let mut env = Env::default();
    let addr = env.memory.alloc(16, 16).expect("alloc");
    env.memory.write(addr, &texels).expect("write");
    env.textures.insert(
        0,
        TextureDescriptor::new_1d(TexFormat::R32Float, 4, 1, addr),
    );
    let sampler = SamplerDescriptor {
        compare: Some(crate::texture::CompareOp::LessEqual),
        ..SamplerDescriptor::with_filter(Filter::Nearest, MipFilter::None, Wrap::ClampToEdge)
    };
    env.samplers.insert(0, sampler);
    let code = [
        enc(
            Opcode::TextureSample,
            &[
                ("R", 0),
                ("Rt", 1),
                ("C", 8),
                ("n", 0),
                ("mask", 0b1111),
                ("lod", 6),
                ("D", 24),
                ("q1", 1),
                ("Ot", 1),
                ("O", 20),
            ],
        ),
        enc(Opcode::Wait, &[("i", 0)]),
    ]
    .concat();
    let g = env
        .run(&code, u32::MAX, |g| {
            set32(g, 4, |_| 0.125f32.to_bits());
            set32(g, 12, |_| 0.0f32.to_bits());
            set32(g, 10, |l| if l % 2 == 0 { 0.25f32 } else { 0.35 }.to_bits());
            set32(g, 11, |_| 2);
        })
        .expect("runs");
    for l in 0..32 {
        let got: Vec<f32> = (0..4).map(|r| f32::from_bits(get32(&g, r, l))).collect();
        let v = if l % 2 == 0 { 1.0 } else { 0.0 };
        assert_eq!(got, [v, 0.0, 0.0, 1.0], "lane {l}");
    }
}

#[test]
fn a_texture_partly_outside_its_allocation_reads_the_mapped_texels_and_faults_on_the_rest() {
    // A 2x2 RGBA8 texture whose allocation holds only its first row (8 bytes): the texture unit
    // reads texels from the allocation it finds once per instruction only when the whole
    // texture lies inside one; otherwise it reads through device memory, which reports the
    // unmapped texel. Both engines, sample and load.
    let mut env = Env::default();
    let addr = env.memory.alloc(8, 16).expect("alloc");
    env.memory
        .write(addr, &[10, 20, 30, 40, 50, 60, 70, 80])
        .expect("write");
    env.textures.insert(
        0,
        TextureDescriptor::new_2d(TexFormat::Rgba8Unorm, 2, 2, 1, addr),
    );
    env.samplers.insert(
        0,
        SamplerDescriptor::with_filter(Filter::Nearest, MipFilter::None, Wrap::ClampToEdge),
    );
    let code = [
        enc(
            Opcode::TextureSample,
            &[
                ("R", 0),
                ("Rt", 1),
                ("C", 8),
                ("n", 2),
                ("mask", 0b1111),
                ("lod", 6),
                ("D", 12),
            ],
        ),
        enc(
            Opcode::TextureLoad,
            &[
                ("R", 20),
                ("Rt", 1),
                ("C", 14),
                ("n", 2),
                ("mask", 0b1111),
                ("lod", 0),
            ],
        ),
        enc(Opcode::Wait, &[("i", 0)]),
    ]
    .concat();
    // `t` of the sample and `y` of the load per lane.
    let setup = |bad_lane: Option<usize>| {
        move |g: &mut crate::exec::SimdGroup| {
            let bad = |l: usize| bad_lane == Some(l);
            set32(g, 4, |l| ((l & 1) as f32 * 0.5 + 0.25).to_bits());
            set32(g, 5, |l| if bad(l) { 0.75f32 } else { 0.25 }.to_bits());
            set32(g, 6, |_| 0.0f32.to_bits());
            set32(g, 7, |l| (l & 1) as u32);
            set32(g, 8, |l| u32::from(bad(l)));
        }
    };
    let g = env.run(&code, u32::MAX, setup(None)).expect("runs");
    for l in 0..32 {
        let x = l & 1;
        let expect: Vec<f32> = (0..4)
            .map(|c| f32::from(10 * (4 * x as u8 + c + 1)) / 255.0)
            .collect();
        let sampled: Vec<f32> = (0..4).map(|r| f32::from_bits(get32(&g, r, l))).collect();
        let fetched: Vec<f32> = (10..14).map(|r| f32::from_bits(get32(&g, r, l))).collect();
        assert_eq!(sampled, expect, "sample lane {l}");
        assert_eq!(fetched, expect, "load lane {l}");
    }
    // Lane 5 samples (1, 1), outside the allocation: the sample faults there.
    match env.run(&code, u32::MAX, setup(Some(5))) {
        Err(Error::Exec(e)) => assert_eq!(
            e.kind,
            ExecErrorKind::Texture {
                thread: 5,
                error: crate::texture::TextureError::Unmapped {
                    address: addr + 12,
                    len: 4
                }
            },
            "{e}"
        ),
        other => panic!("expected an unmapped texel: {:?}", other.err()),
    }
}
