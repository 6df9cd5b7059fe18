//! Texture gather through the interpreter (rule 12 of the `interp` module docs): the four
//! texels of the bilinear footprint at level 0 in the order (i0, j1), (i1, j1), (i1, j0),
//! (i0, j0), one component each; offsets, wrap modes, cube faces, shadow gathers and the
//! verifier's limits. Expected values are worked out by hand in the comments.

mod interp_support;

use agxc_egraph::interp::{CompareOp, Sampler, Texture, TextureDesc, TextureFormat, Wrap};
use agxc_egraph::ir::{
    Builder, EffectOp, Function, LodMode, SampleOp, Stage, TexDim, TexTarget, Type,
};
use interp_support::{run_sample, TEX};

fn gather(dim: TexDim, arrayed: bool, component: u8) -> SampleOp {
    SampleOp {
        texture: TEX,
        sampler: TEX,
        target: TexTarget { dim, arrayed },
        lod: LodMode::Gather(component),
        proj: false,
        shadow: false,
        min_lod: false,
        offset: [0; 3],
    }
}

/// 4x4 RGBA32F whose texel (x, y) has component c equal to `16 c + x + 4 y`.
fn numbered() -> Texture {
    let texels: Vec<[f32; 4]> = (0..16)
        .map(|k| core::array::from_fn(|c| (16 * c + k) as f32))
        .collect();
    Texture::from_texels(TextureDesc::d2(TextureFormat::Rgba32Float, 4, 4), &texels).unwrap()
}

#[test]
fn footprint_order_and_component() {
    // (0.5, 0.5) on 4x4: u = v = 2 - 0.5 = 1.5, so i0 = j0 = 1 and i1 = j1 = 2. Red of
    // (1, 2), (2, 2), (2, 1), (1, 1) = 9, 10, 6, 5; blue adds 32. The nearest filter is
    // ignored: a gather always takes the linear footprint.
    let s = Sampler::nearest().with_wrap(Wrap::Repeat);
    let red = run_sample(
        gather(TexDim::D2, false, 0),
        numbered(),
        s,
        &[vec![0.5, 0.5]],
    );
    assert_eq!(red.unwrap(), [[9.0, 10.0, 6.0, 5.0]]);
    let blue = run_sample(
        gather(TexDim::D2, false, 2),
        numbered(),
        s,
        &[vec![0.5, 0.5]],
    );
    assert_eq!(blue.unwrap(), [[41.0, 42.0, 38.0, 37.0]]);
}

#[test]
fn wraps_each_texel() {
    // (0, 0): u = v = -0.5, i0 = j0 = -1, i1 = j1 = 0. Repeat maps -1 to 3: green (16 +) of
    // (3, 0), (0, 0), (0, 3), (3, 3) = 19, 16, 28, 31. Clamp-to-edge maps -1 to 0: all (0, 0).
    let op = gather(TexDim::D2, false, 1);
    let lanes = [vec![0.0, 0.0]];
    let repeat = run_sample(
        op,
        numbered(),
        Sampler::linear().with_wrap(Wrap::Repeat),
        &lanes,
    );
    assert_eq!(repeat.unwrap(), [[19.0, 16.0, 28.0, 31.0]]);
    let clamp = Sampler::linear().with_wrap(Wrap::ClampToEdge);
    assert_eq!(
        run_sample(op, numbered(), clamp, &lanes).unwrap(),
        [[16.0; 4]]
    );
}

#[test]
fn constant_offset_moves_the_footprint() {
    // Offset (1, -1) at (0.5, 0.5): i0 = 2, i1 = 3, j0 = 0, j1 = 1. Red of (2, 1), (3, 1),
    // (3, 0), (2, 0) = 6, 7, 3, 2.
    let mut op = gather(TexDim::D2, false, 0);
    op.offset = [1, -1, 0];
    let got = run_sample(op, numbered(), Sampler::linear(), &[vec![0.5, 0.5]]);
    assert_eq!(got.unwrap(), [[6.0, 7.0, 3.0, 2.0]]);
}

#[test]
fn reads_the_base_level_only() {
    // A two-level chain whose level 1 (2x2) holds 100s: the gather still reads level 0.
    let mut texels: Vec<[f32; 4]> = (0..16)
        .map(|k| core::array::from_fn(|c| (16 * c + k) as f32))
        .collect();
    texels.extend([[100.0; 4]; 4]);
    let desc = TextureDesc::d2(TextureFormat::Rgba32Float, 4, 4).with_levels(2);
    let tex = Texture::from_texels(desc, &texels).unwrap();
    let s = Sampler {
        min_lod: 1.0,
        ..Sampler::linear()
    };
    let got = run_sample(gather(TexDim::D2, false, 0), tex, s, &[vec![0.5, 0.5]]);
    assert_eq!(got.unwrap(), [[9.0, 10.0, 6.0, 5.0]]);
}

#[test]
fn array_layer_selects_the_slice() {
    // 2x2x2 layers, R32F red = 10 * layer + x + 2 y. Layer 0.6 rounds to 1; (0.5, 0.5) has
    // i0 = j0 = 0: red of (0, 1), (1, 1), (1, 0), (0, 0) on layer 1 = 12, 13, 11, 10.
    let texels: Vec<[f32; 4]> = (0..8)
        .map(|k| [(10 * (k / 4) + k % 4) as f32, 0.0, 0.0, 1.0])
        .collect();
    let desc = TextureDesc::d2(TextureFormat::R32Float, 2, 2).with_layers(2);
    let tex = Texture::from_texels(desc, &texels).unwrap();
    let got = run_sample(
        gather(TexDim::D2, true, 0),
        tex,
        Sampler::linear(),
        &[vec![0.5, 0.5, 0.6]],
    );
    assert_eq!(got.unwrap(), [[12.0, 13.0, 11.0, 10.0]]);
}

#[test]
fn cube_faces_clamp_to_their_edges() {
    // 2x2 faces, red = 100 * face + x + 2 y. Direction (-1, 0.2, -0.3) is on -X (face 1):
    // sc = rz = -0.3, tc = -ry = -0.2, s = 0.35, t = 0.4, so u = 0.2, v = 0.3, i0 = j0 = 0:
    // 102, 103, 101, 100. Direction (-1, 0.9, -0.9): s = t = 0.05, u = v = -0.4, i0 = j0 = -1,
    // which the face clamps to 0 even with a repeating sampler: 100 four times.
    let texels: Vec<[f32; 4]> = (0..24)
        .map(|k| [(100 * (k / 4) + k % 4) as f32, 0.0, 0.0, 1.0])
        .collect();
    let tex = Texture::from_texels(TextureDesc::cube(TextureFormat::R32Float, 2), &texels).unwrap();
    let got = run_sample(
        gather(TexDim::Cube, false, 0),
        tex,
        Sampler::linear().with_wrap(Wrap::Repeat),
        &[vec![-1.0, 0.2, -0.3], vec![-1.0, 0.9, -0.9]],
    );
    assert_eq!(
        got.unwrap(),
        [[102.0, 103.0, 101.0, 100.0], [100.0, 100.0, 100.0, 100.0]]
    );
}

#[test]
fn shadow_gather_returns_four_comparisons() {
    // 2x2 R32F depths 0.1, 0.2 / 0.3, 0.4 (row-major). (0.5, 0.5): i0 = j0 = 0, the texels
    // (0, 1), (1, 1), (1, 0), (0, 0) = 0.3, 0.4, 0.2, 0.1. Less with ref 0.25: 0.25 < 0.3,
    // 0.25 < 0.4 pass; 0.25 < 0.2, 0.25 < 0.1 fail.
    let depths: Vec<[f32; 4]> = [0.1, 0.2, 0.3, 0.4]
        .iter()
        .map(|&d| [d, 0.0, 0.0, 1.0])
        .collect();
    let tex =
        Texture::from_texels(TextureDesc::d2(TextureFormat::R32Float, 2, 2), &depths).unwrap();
    let mut op = gather(TexDim::D2, false, 0);
    op.shadow = true;
    assert_eq!(op.result_count(), 4);
    let s = Sampler::nearest().with_compare(CompareOp::Less);
    let got = run_sample(op, tex, s, &[vec![0.5, 0.5, 0.25]]);
    assert_eq!(got.unwrap(), [[1.0, 1.0, 0.0, 0.0]]);
}

/// Verifies a compute function with one gather of `op` on constant operands.
fn verify_gather(op: SampleOp) -> Result<(), String> {
    let mut func = Function::new("g", Stage::Compute);
    let mut b = Builder::new(&mut func);
    let args: Vec<_> = (0..op.arity()).map(|_| b.f32(0.5)).collect();
    b.effect(
        EffectOp::Sample(op),
        &args,
        &vec![Type::F32; op.result_count()],
    );
    b.return_();
    agxc_egraph::ir::verify(&func).map_err(|e| e.to_string())
}

#[test]
fn verifier_limits() {
    assert_eq!(verify_gather(gather(TexDim::D2, false, 3)), Ok(()));
    let err = |op| verify_gather(op).unwrap_err();
    assert!(err(gather(TexDim::D3, false, 0)).contains("2D or cube"));
    assert!(err(gather(TexDim::D2, false, 4)).contains("component is 0 to 3"));
    let mut shadow = gather(TexDim::D2, false, 1);
    shadow.shadow = true;
    assert!(err(shadow).contains("component 0"));
    let mut cube = gather(TexDim::Cube, false, 0);
    cube.offset = [1, 0, 0];
    assert!(err(cube).contains("no offset"));
    let mut proj = gather(TexDim::D2, false, 0);
    proj.proj = true;
    assert!(err(proj).contains("no projector"));
}
