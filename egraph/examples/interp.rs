//! Runs an IR text file in the reference interpreter and prints what it computed.
//!
//! ```text
//! cargo run -p agxc-egraph --example interp -- egraph/examples/ir/saxpy_sin.ir
//! cargo run -p agxc-egraph --example interp -- egraph/examples/ir/frag_deriv_tex.ir --size 16x16
//! ```
//!
//! Inputs are made up deterministically from what the shader uses:
//! - compute: every storage or uniform buffer the shader only reads holds `--elements` f32s
//!   `x[i] = (i - elements / 2) / 64`; every buffer it writes starts as zeros; the push
//!   constants are `--push` (default `2.5`); the dispatch covers the elements with
//!   `local_size.x`-wide workgroups unless `--groups X,Y,Z` says otherwise.
//! - fragment: a `--size WxH` grid (default 16x16); every varying location is
//!   `(u, v, 0, 1)` with `u = (x + 0.5) / W`, `v = (y + 0.5) / H`; every sampled 2D texture is
//!   an 8x8 RGBA8 pattern with a full mip chain and a linear, repeating sampler.
//!
//! It prints the first and last few values of every output and an FNV-1a checksum of its bytes.

use agxc_egraph::interp::{
    bytes_f32, f32_bytes, run_compute, run_fragment, FragmentGrid, Limits, MipFilter, Resources,
    Sampler, Texture, TextureDesc, TextureFormat, Varying, Wrap,
};
use agxc_egraph::ir::{
    parse_function, AddressSpace, Binding, EffectOp, Function, Op, OpRegistry, Stage, TexDim,
};
use std::collections::BTreeSet;
use std::error::Error;
use std::process::ExitCode;

/// Values shown at each end of an output.
const SHOWN: usize = 4;

struct Options {
    path: String,
    elements: usize,
    groups: Option<[u32; 3]>,
    push: Vec<f32>,
    size: (u32, u32),
}

fn parse_args() -> Result<Options, String> {
    let mut args = std::env::args().skip(1);
    let mut opts = Options {
        path: String::new(),
        elements: 1024,
        groups: None,
        push: vec![2.5],
        size: (16, 16),
    };
    let number = |what: &str, s: &str| -> Result<u32, String> {
        s.trim()
            .parse()
            .map_err(|_| format!("{what}: `{s}` is not a number"))
    };
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "--elements" => opts.elements = number("--elements", &value("--elements")?)? as usize,
            "--groups" => {
                let v = value("--groups")?;
                let n: Vec<u32> = v
                    .split(',')
                    .map(|s| number("--groups", s))
                    .collect::<Result<_, _>>()?;
                let [x, y, z] = n[..] else {
                    return Err("--groups takes X,Y,Z".into());
                };
                opts.groups = Some([x, y, z]);
            }
            "--push" => {
                opts.push = value("--push")?
                    .split(',')
                    .map(|s| {
                        s.trim()
                            .parse()
                            .map_err(|_| format!("--push: bad float `{s}`"))
                    })
                    .collect::<Result<_, _>>()?;
            }
            "--size" => {
                let v = value("--size")?;
                let (w, h) = v.split_once('x').ok_or("--size takes WxH")?;
                opts.size = (number("--size", w)?, number("--size", h)?);
            }
            _ if arg.starts_with("--") => return Err(format!("unknown option {arg}")),
            _ => opts.path = arg,
        }
    }
    if opts.path.is_empty() {
        return Err(
            "usage: interp FILE.ir [--elements N] [--groups X,Y,Z] [--push A,B,..] \
                    [--size WxH]"
                .into(),
        );
    }
    Ok(opts)
}

/// FNV-1a, 64-bit: a checksum that is easy to recompute anywhere.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

fn show(values: &[String]) -> String {
    if values.len() <= 2 * SHOWN {
        return values.join(", ");
    }
    let (head, tail) = (&values[..SHOWN], &values[values.len() - SHOWN..]);
    format!("{}, ..., {}", head.join(", "), tail.join(", "))
}

/// The buffers a function reads and the ones it writes.
fn buffers(func: &Function) -> (BTreeSet<(Binding, bool)>, BTreeSet<Binding>) {
    let (mut used, mut written) = (BTreeSet::new(), BTreeSet::new());
    func.for_each_inst(|_, inst| match func.insts[inst].op {
        Op::Effect(EffectOp::Load(a) | EffectOp::Store(a)) => {
            let store = matches!(func.insts[inst].op, Op::Effect(EffectOp::Store(_)));
            match a.space {
                AddressSpace::Storage(b) => {
                    used.insert((b, false));
                    if store {
                        written.insert(b);
                    }
                }
                AddressSpace::Uniform(b) => {
                    used.insert((b, true));
                }
                _ => {}
            }
        }
        Op::Effect(EffectOp::BufferSize(b)) => {
            used.insert((b, false));
        }
        _ => {}
    });
    (used, written)
}

fn run_compute_file(func: &Function, opts: &Options) -> Result<(), Box<dyn Error>> {
    let n = opts.elements;
    let (used, written) = buffers(func);
    let input: Vec<f32> = (0..n).map(|i| (i as f32 - (n / 2) as f32) / 64.0).collect();
    let mut res = Resources::new();
    res.set_push_constants(f32_bytes(&opts.push));
    for &(b, uniform) in &used {
        if uniform {
            res.bind_uniform(b, f32_bytes(&input));
        } else if written.contains(&b) {
            res.bind_storage(b, vec![0; 4 * n]);
        } else {
            res.bind_storage(b, f32_bytes(&input));
        }
    }
    let local_x = func.modes.local_size[0].max(1) as usize;
    let groups = opts.groups.unwrap_or([n.div_ceil(local_x) as u32, 1, 1]);
    println!(
        "running @{} (compute, local size {:?}) over {groups:?} workgroups, {n} elements",
        func.name, func.modes.local_size
    );
    if !opts.push.is_empty() {
        println!("push constants: {:?}", opts.push);
    }
    let stats = run_compute(func, &mut res, groups, &Limits::default())?;
    for &(b, _) in &used {
        let data = res.buffer_data(b).unwrap_or(&[]);
        let role = if written.contains(&b) {
            "output"
        } else {
            "input"
        };
        let values: Vec<String> = bytes_f32(data).iter().map(|v| format!("{v}")).collect();
        println!("{role} storage{b}: [{}]", show(&values));
        if written.contains(&b) {
            println!(
                "  checksum (FNV-1a of {} bytes): {:016x}",
                data.len(),
                fnv1a(data)
            );
        }
    }
    println!("{stats}");
    Ok(())
}

/// An 8x8 RGBA8 pattern (red across, green down, a blue checkerboard) with its mip chain, each
/// level the 2x2 box average of the one above.
fn pattern_texture() -> Result<Texture, Box<dyn Error>> {
    let mut level: Vec<[f32; 4]> = (0..64)
        .map(|i| {
            let (x, y) = (i % 8, i / 8);
            let blue = if (x + y) % 2 == 0 { 1.0 } else { 0.0 };
            [x as f32 / 7.0, y as f32 / 7.0, blue, 1.0]
        })
        .collect();
    let mut texels = level.clone();
    let mut size = 8;
    while size > 1 {
        let half = size / 2;
        level = (0..half * half)
            .map(|i| {
                let (x, y) = (2 * (i % half), 2 * (i / half));
                let at = |dx: usize, dy: usize| level[(y + dy) * size + x + dx];
                core::array::from_fn(|c| {
                    (at(0, 0)[c] + at(1, 0)[c] + at(0, 1)[c] + at(1, 1)[c]) / 4.0
                })
            })
            .collect();
        texels.extend(&level);
        size = half;
    }
    let desc = TextureDesc::d2(TextureFormat::Rgba8Unorm, 8, 8).with_full_mip_chain();
    Ok(Texture::from_texels(desc, &texels)?)
}

fn run_fragment_file(func: &Function, opts: &Options) -> Result<(), Box<dyn Error>> {
    let (w, h) = opts.size;
    let mut grid = FragmentGrid::new(w, h);
    let mut textures = BTreeSet::new();
    func.for_each_inst(|_, inst| match func.insts[inst].op {
        Op::Effect(EffectOp::Input(slot)) => {
            let uv = Varying::affine(
                [0.0, 0.0, 0.0, 1.0],
                [1.0 / w as f32, 0.0, 0.0, 0.0],
                [0.0, 1.0 / h as f32, 0.0, 0.0],
            );
            grid.varyings.insert(slot.location, uv);
        }
        Op::Effect(EffectOp::Sample(s)) => {
            textures.insert((s.texture, s.sampler, s.target.dim, s.target.arrayed));
        }
        _ => {}
    });
    let mut res = Resources::new();
    for &(texture, sampler, dim, arrayed) in &textures {
        if dim != TexDim::D2 || arrayed {
            return Err(format!("this runner only makes 2D textures ({texture} is not)").into());
        }
        res.bind_texture(texture, pattern_texture()?).bind_sampler(
            sampler,
            Sampler::linear()
                .with_mip(MipFilter::Linear)
                .with_wrap(Wrap::Repeat),
        );
    }
    println!("running @{} (fragment) over a {w}x{h} grid", func.name);
    let out = run_fragment(func, &mut res, &grid, &Limits::default())?;
    for (location, pixels) in &out.targets {
        let values: Vec<String> = pixels
            .iter()
            .map(|p| format!("({:.4}, {:.4}, {:.4}, {:.4})", p[0], p[1], p[2], p[3]))
            .collect();
        println!("render target {location}, pixels in rows from the top:");
        println!("  [{}]", show(&values));
        let bytes: Vec<u8> = pixels
            .iter()
            .flatten()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        println!(
            "  checksum (FNV-1a of {} bytes): {:016x}",
            bytes.len(),
            fnv1a(&bytes)
        );
    }
    let dropped = out.dropped.iter().filter(|&&d| d).count();
    println!(
        "{dropped} of {} pixels dropped; {}",
        out.dropped.len(),
        out.stats
    );
    Ok(())
}

fn run(opts: &Options) -> Result<(), Box<dyn Error>> {
    let text = std::fs::read_to_string(&opts.path)
        .map_err(|e| format!("cannot read {}: {e}", opts.path))?;
    let func = parse_function(&text, &OpRegistry::new())?;
    match func.stage {
        Stage::Compute => run_compute_file(&func, opts),
        Stage::Fragment => run_fragment_file(&func, opts),
        Stage::Vertex => Err("this runner does not make vertex inputs; use run_vertex".into()),
        Stage::Geometry(_) => {
            Err("this runner does not make geometry inputs; use run_geometry".into())
        }
    }
}

fn main() -> ExitCode {
    let opts = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    match run(&opts) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
