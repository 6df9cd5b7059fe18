//! Every non-geometry shader of the graw corpus (`tests/corpus/tgsi/graw/`: Mesa's hand-written
//! fragment and vertex shaders and the shaders of graw's programs) compiles for the G13 at -O0
//! and -O2. Their legacy varyings (`COLOR`, `BCOLOR`, `FOG`, `TEXCOORD` at locations 32 and up)
//! are packed into the G13's 16 varying slots (`agxc_backend_agx::abi`). Those with inputs run
//! in the simulator on generated varyings or attributes, constants and textures, and match the
//! reference interpreter's model of the G13 (f32 denormals flushed) on the IR each binary was
//! compiled from.
//!
//! Tolerance: exact, except for the G13's transcendental instructions (`EX2`, `LG2`, `RCP`,
//! `RSQ`, `POW` and `LIT` through exp2/log2, `SIN`/`COS`), which the simulator computes as the
//! hardware's approximations and the interpreter with libm: `abs 1e-5 + rel 1e-5`, a few ulps
//! at the magnitudes these shaders produce (measured differences are printed).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use agxc::sim;
use agxc_egraph::interp::{
    self, f32_bytes, Filter, FloatMode, FragmentGrid, Limits, Resources, Sampler, Texture,
    TextureDesc, TextureFormat, Varying, Wrap,
};
use agxc_egraph::ir::{AddressSpace, Binding, EffectOp, Function, Op, OutputSlot, Stage};
use agxc_frontend::tgsi;
use agxc_tests::corpus::SplitMix64;
use agxc_tests::run::{OptLevel, G13};
use agxc_tests::softpipe::graw_corpus_dir;

/// The graw shaders, geometry shaders left out (the G13 has no geometry stage).
fn shaders() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for sub in ["fragment-shader", "vertex-shader", "programs"] {
        let dir = graw_corpus_dir().join(sub);
        for entry in std::fs::read_dir(&dir).expect("graw directory").flatten() {
            let path = entry.path();
            let text = std::fs::read_to_string(&path).expect("TGSI text");
            if path.extension().is_some_and(|e| e == "tgsi") && !text.starts_with("GEOM") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// Values in [-2, 2) from a seeded generator.
fn values(seed: u64, n: usize) -> Vec<f32> {
    let mut g = SplitMix64::new(seed);
    (0..n)
        .map(|_| -2.0 + 4.0 * ((g.next_u64() >> 40) as f32 / (1u64 << 24) as f32))
        .collect()
}

/// What a function reads: varying or attribute locations, uniform buffers, textures.
#[derive(Default)]
struct Reads {
    inputs: Vec<u32>,
    uniforms: Vec<Binding>,
    textures: Vec<(Binding, Binding)>,
}

fn reads(func: &Function) -> Reads {
    let mut r = Reads::default();
    func.for_each_inst(|_, inst| {
        let Op::Effect(effect) = func.inst(inst).op else {
            return;
        };
        match effect {
            EffectOp::Input(slot) => r.inputs.push(slot.location),
            EffectOp::Load(a) => {
                if let AddressSpace::Uniform(b) = a.space {
                    r.uniforms.push(b);
                }
            }
            EffectOp::Sample(s) => r.textures.push((s.texture, s.sampler)),
            EffectOp::Fetch(f) => r.textures.push((f.texture, f.texture)),
            _ => {}
        }
    });
    r.inputs.sort();
    r.inputs.dedup();
    r.uniforms.sort();
    r.uniforms.dedup();
    r.textures.sort();
    r.textures.dedup();
    r
}

/// 4 KiB of constants per uniform buffer, a 4x4 RGBA8 texture per texture binding.
fn resources(r: &Reads) -> Resources {
    let mut res = Resources::new();
    for (i, &b) in r.uniforms.iter().enumerate() {
        res.bind_uniform(b, f32_bytes(&values(100 + i as u64, 1024)));
    }
    for (i, &(t, _)) in r.textures.iter().enumerate() {
        let mut g = SplitMix64::new(200 + i as u64);
        let texels: Vec<u8> = (0..64).map(|_| g.next_u64() as u8).collect();
        let tex = Texture::new(TextureDesc::d2(TextureFormat::Rgba8Unorm, 4, 4), texels)
            .expect("a valid texture");
        let sampler = Sampler {
            mag_filter: Filter::Nearest,
            min_filter: Filter::Nearest,
            wrap: [Wrap::ClampToEdge; 3],
            ..Sampler::default()
        };
        res.bind_combined(t, tex, sampler);
    }
    res
}

fn close(got: f32, want: f32) -> bool {
    got.to_bits() == want.to_bits()
        || (got.is_nan() && want.is_nan())
        || (got - want).abs() <= 1e-5 + 1e-5 * want.abs()
}

/// The largest difference seen, for the report.
#[derive(Default)]
struct Worst(f32, String);

fn compare(what: &str, got: &[[f32; 4]], want: &[[f32; 4]], worst: &mut Worst) -> Vec<String> {
    let mut bad = Vec::new();
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        for c in 0..4 {
            let d = (g[c] - w[c]).abs();
            if d.is_finite() && d > worst.0 {
                *worst = Worst(d, format!("{what}[{i}].{c}: {} vs {}", g[c], w[c]));
            }
            if !close(g[c], w[c]) {
                bad.push(format!(
                    "{what}[{i}].{c}: G13 {} interpreter {}",
                    g[c], w[c]
                ));
            }
        }
    }
    if got.len() != want.len() {
        bad.push(format!("{what}: {} vs {} elements", got.len(), want.len()));
    }
    bad
}

fn run_fragment(
    ir: &Function,
    binary: &agxc_backend_agx::Binary,
    worst: &mut Worst,
) -> Vec<String> {
    let r = reads(ir);
    let mut grid = FragmentGrid::new(8, 8);
    for &l in &r.inputs {
        let v = values(u64::from(l), 12);
        let a = |k: usize| [v[k], v[k + 1], v[k + 2], v[k + 3]];
        grid.varyings.insert(
            l,
            Varying {
                base: a(0),
                ddx: a(4).map(|d| d / 8.0),
                ddy: a(8).map(|d| d / 8.0),
                raw: [false; 4],
            },
        );
    }
    let mut res = resources(&r);
    let want = match interp::run_fragment_with(
        ir,
        &mut res.clone(),
        &grid,
        &Limits::default(),
        FloatMode::FlushF32Denormals,
    ) {
        Ok(w) => w,
        Err(e) => return vec![format!("interpreter: {e}")],
    };
    let got = match sim::run_fragment(binary, &mut res, &grid) {
        Ok(g) => g,
        Err(e) => return vec![format!("simulator: {e}")],
    };
    let mut bad = Vec::new();
    for (l, w) in &want.targets {
        match got.targets.get(l) {
            Some(g) => bad.extend(compare(&format!("target {l}"), g, w, worst)),
            None => bad.push(format!("target {l}: not written by the G13")),
        }
    }
    bad
}

fn run_vertex(ir: &Function, binary: &agxc_backend_agx::Binary, worst: &mut Worst) -> Vec<String> {
    let r = reads(ir);
    let n = 40u32;
    let mut attributes = BTreeMap::new();
    for &l in &r.inputs {
        let v = values(50 + u64::from(l), 4 * n as usize);
        attributes.insert(
            l,
            v.chunks_exact(4)
                .map(|c| [c[0], c[1], c[2], c[3]])
                .collect(),
        );
    }
    let res = resources(&r);
    let want = match interp::run_vertex(ir, &res, n, &attributes, &Limits::default()) {
        Ok(w) => w,
        Err(e) => return vec![format!("interpreter: {e}")],
    };
    let got = match sim::run_vertex(binary, &res, n, &attributes) {
        Ok(g) => g,
        Err(e) => return vec![format!("simulator: {e}")],
    };
    let mut bad = Vec::new();
    if let Some(pos) = got.outputs.get(&OutputSlot::Position(0)) {
        bad.extend(compare("position", pos, &want.positions, worst));
    }
    for (&location, w) in &want.varyings {
        let slot = OutputSlot::Location {
            location,
            component: 0,
        };
        match got.outputs.get(&slot) {
            Some(g) => bad.extend(compare(&format!("output {location}"), g, w, worst)),
            None => bad.push(format!("output {location}: not written by the G13")),
        }
    }
    bad
}

fn name(path: &Path) -> String {
    let dir = path.parent().and_then(Path::file_name).unwrap_or_default();
    format!(
        "{}/{}",
        dir.to_string_lossy(),
        path.file_name().unwrap_or_default().to_string_lossy()
    )
}

#[test]
fn graw_shaders_compile_for_the_g13_and_match_the_interpreter() {
    let paths = shaders();
    // 28 fragment-shader/, 32 vertex-shader/, 33 of the 34 programs/ shaders (tri-gs-gs is a
    // geometry shader).
    assert_eq!(paths.len(), 93, "{paths:?}");
    let mut failures = Vec::new();
    let (mut compiled, mut ran) = (0, 0);
    let mut worst = Worst::default();
    for path in &paths {
        let text = std::fs::read_to_string(path).expect("TGSI text");
        let func = match tgsi::lift(&text, &tgsi::LiftOptions::default()) {
            Ok(f) => f,
            Err(e) => {
                failures.push(format!("{}: lift: {e}", name(path)));
                continue;
            }
        };
        for level in OptLevel::ALL {
            let built = G13::new(level)
                .compile(&func)
                .map(|c| (c.ir_opt.unwrap_or_else(|| func.clone()), c.binary))
                .map_err(|e| e.to_string());
            let (ir, binary) = match built {
                Ok(b) => b,
                Err(e) => {
                    failures.push(format!("{} {level}: compile: {e}", name(path)));
                    continue;
                }
            };
            compiled += 1;
            if reads(&ir).inputs.is_empty() {
                continue;
            }
            let bad = match func.stage {
                Stage::Fragment => run_fragment(&ir, &binary, &mut worst),
                Stage::Vertex => run_vertex(&ir, &binary, &mut worst),
                _ => continue,
            };
            ran += 1;
            if let Some(first) = bad.first() {
                failures.push(format!(
                    "{} {level}: {} differences, first {first}",
                    name(path),
                    bad.len()
                ));
            }
        }
    }
    eprintln!(
        "graw on the G13: {compiled} compiles of {} shaders at -O0 and -O2, {ran} runs with \
         inputs compared with the interpreter; largest difference {} ({})",
        paths.len(),
        worst.0,
        worst.1
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(compiled, 2 * paths.len());
}
