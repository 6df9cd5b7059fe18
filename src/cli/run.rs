//! The subcommands: `compile`, `run`, `disasm`.

use std::io::Write;
use std::path::{Path, PathBuf};

use agxc::egraph::interp::Resources;
use agxc::egraph::ir::{Binding, Stage};
use agxc::sim::{self, SimError};
use agxc::{compile, Compiled, OptLevel, Options, SourceKind};

use super::resources::{self, ResourceError};
use super::{CompileArgs, Emit, RunArgs, ShaderArgs};

/// A failed command: printed as one line.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// Compiling failed.
    #[error("{path}: {source}")]
    Compile {
        /// The shader.
        path: PathBuf,
        /// Why.
        source: agxc::Error,
    },
    /// A resource argument was wrong.
    #[error(transparent)]
    Resource(#[from] ResourceError),
    /// The simulator reported an error.
    #[error("simulation failed: {0}{hint}", hint = missing_hint(.0))]
    Sim(#[from] SimError),
    /// The arguments do not fit the shader.
    #[error("{0}")]
    Usage(String),
    /// Writing output failed.
    #[error("writing output: {0}")]
    Io(#[from] std::io::Error),
    /// An assembly source has an error.
    #[error("{}:{}:{}: {}", path.display(), error.line, error.column, error.message)]
    Assemble {
        /// The source.
        path: PathBuf,
        /// Where and what.
        error: agxc::backend_agx::isa::AsmError,
    },
    /// A binary does not decode.
    #[error("{path}: {reason}")]
    Decode {
        /// The binary.
        path: PathBuf,
        /// Why.
        reason: String,
    },
}

/// For a resource the command line did not give, the flags that give it.
fn missing_hint(e: &SimError) -> &'static str {
    match e {
        SimError::Missing(what) if what.starts_with("texture") => {
            " (bind it with --texture or --storage-image)"
        }
        SimError::Missing(what) if what.starts_with("sampler") => {
            " (bind it with --sampler, or a --texture at that binding)"
        }
        SimError::Missing(what) if what.contains("buffer") => {
            " (bind it with --buffer or --buffer-size)"
        }
        SimError::Missing(what) if what.starts_with("vertex attribute") => {
            " (give it with --attribute)"
        }
        _ => "",
    }
}

pub(super) fn read(path: &Path) -> Result<Vec<u8>, CliError> {
    std::fs::read(path).map_err(|e| {
        CliError::Resource(ResourceError::Io {
            path: path.to_path_buf(),
            source: e,
        })
    })
}

fn options(shader: &ShaderArgs, kind: Option<SourceKind>, push: bool) -> Options {
    Options {
        entry: shader.entry.clone(),
        opt_level: if shader.opt == "0" {
            OptLevel::O0
        } else {
            OptLevel::O2
        },
        tgsi_const0_push: push && kind == Some(SourceKind::Tgsi),
        relaxed_f16: shader.relaxed_f16,
        dump: shader.dump.clone().unwrap_or_default(),
        limits: limits(shader),
        ..Options::default()
    }
}

/// The equality-saturation limits: the defaults with the flags given applied. `--max-nodes`
/// replaces the size-relative limit (growth factor times the input plus headroom) by an absolute
/// one.
fn limits(shader: &ShaderArgs) -> agxc::egraph::opt::Limits {
    let mut limits = agxc::egraph::opt::Limits::default();
    if let Some(n) = shader.max_iterations {
        limits.iterations = n as usize;
    }
    if let Some(n) = shader.max_nodes {
        limits.node_growth = 0;
        limits.node_headroom = usize::try_from(n).unwrap_or(usize::MAX);
    }
    if let Some(t) = shader.time_limit {
        limits.time = t;
    }
    limits
}

fn compile_file(shader: &ShaderArgs, opts: Options) -> Result<Compiled, CliError> {
    let source = read(&shader.shader)?;
    compile(&source, &opts).map_err(|source| CliError::Compile {
        path: shader.shader.clone(),
        source,
    })
}

/// `agxc compile`. The IR and e-graph dumps stop before the backend, so they work for
/// shaders the G13 backend refuses.
pub fn compile_cmd(args: &CompileArgs) -> Result<(), CliError> {
    let source = read(&args.shader.shader)?;
    let mut opts = options(&args.shader, SourceKind::detect(&source), false);
    opts.dumps.egraph_dot = args.emit == Emit::EgraphDot;
    opts.dumps.egraph_svg = args.emit == Emit::EgraphSvg;
    opts.dumps.egraph_html = args.emit == Emit::EgraphHtml;
    opts.dumps.ir_passes = args.emit == Emit::IrPasses;
    let failed = |source| CliError::Compile {
        path: args.shader.shader.clone(),
        source,
    };
    let not_optimized = || CliError::Usage("-O0 does not optimize: use --emit ir".into());
    let bytes: Vec<u8> = match args.emit {
        Emit::Ir => agxc::lift(&source, &opts)
            .map_err(failed)?
            .1
            .to_string()
            .into_bytes(),
        Emit::IrOpt | Emit::IrPasses | Emit::EgraphDot | Emit::EgraphSvg | Emit::EgraphHtml => {
            let optimized = agxc::optimize(&source, &opts).map_err(failed)?;
            match args.emit {
                Emit::IrOpt => optimized
                    .ir_opt
                    .ok_or_else(not_optimized)?
                    .to_string()
                    .into_bytes(),
                Emit::IrPasses => {
                    if optimized.ir_opt.is_none() {
                        return Err(not_optimized());
                    }
                    let mut text = String::new();
                    for (pass, ir) in &optimized.ir_passes {
                        text += &format!("; after {pass}\n{ir}\n");
                    }
                    text.into_bytes()
                }
                Emit::EgraphDot => optimized.egraph_dot.ok_or_else(not_optimized)?.into_bytes(),
                Emit::EgraphHtml => optimized
                    .egraph_html
                    .ok_or_else(not_optimized)?
                    .into_bytes(),
                _ => match optimized.egraph_svg.ok_or_else(not_optimized)? {
                    Ok(svg) => svg.into_bytes(),
                    Err(e) => return Err(CliError::Usage(format!("no SVG: {e}"))),
                },
            }
        }
        Emit::Bin | Emit::Asm | Emit::PreambleBin | Emit::PreambleAsm | Emit::Report => {
            let compiled = compile(&source, &opts).map_err(failed)?;
            let preamble = compiled.binary.preamble.as_ref();
            match args.emit {
                Emit::Bin => compiled.binary.code,
                Emit::Asm => {
                    let mut text = compiled.binary.disassembly.clone();
                    if let Some(p) = preamble {
                        text.push_str("; preamble (run once per dispatch, before the program):\n");
                        for line in p.disassembly.lines() {
                            text.push_str(&format!("; {line}\n"));
                        }
                    }
                    text.into_bytes()
                }
                Emit::PreambleBin => preamble.map(|p| p.code.clone()).unwrap_or_default(),
                Emit::PreambleAsm => preamble
                    .map(|p| p.disassembly.clone().into_bytes())
                    .unwrap_or_default(),
                _ => report(&compiled).into_bytes(),
            }
        }
    };
    // `-o -` is standard output, as for most tools.
    match &args.output {
        Some(path) if path.as_os_str() != "-" => resources::write(path, &bytes)?,
        _ => std::io::stdout().write_all(&bytes)?,
    }
    Ok(())
}

/// The `--emit report` text.
fn report(c: &Compiled) -> String {
    let mut out = format!(
        "source: {}\nIR instructions: {}",
        c.source_kind
            .map_or("graph IR (in memory)".into(), |k| k.to_string()),
        c.ir.inst_count()
    );
    if let Some(opt) = &c.ir_opt {
        out += &format!(" -> {} after optimization\n", opt.inst_count());
    } else {
        out += "\n";
    }
    out += &c.binary.report();
    out += "\n";
    if let Some(r) = &c.opt_report {
        out += &format!("{r}");
    }
    out
}

/// `agxc run`.
pub fn run_cmd(args: &RunArgs) -> Result<(), CliError> {
    let kind = SourceKind::detect(&read(&args.shader.shader)?);
    let compiled = compile_file(
        &args.shader,
        options(&args.shader, kind, args.push.is_some()),
    )?;
    let func = compiled.ir_opt.as_ref().unwrap_or(&compiled.ir);
    let mut res = resources::build(args, func)?;
    let stats = match compiled.binary.metadata.stage {
        Stage::Compute => {
            let groups = args.groups.ok_or_else(|| {
                CliError::Usage("a compute shader needs --groups X[,Y,Z] (workgroups to dispatch)".into())
            })?;
            let stats = sim::run_compute_with(&compiled.binary, &mut res, groups, &args.sim.options())?;
            print_buffers(&res, args);
            stats
        }
        Stage::Fragment => {
            let size = args
                .size
                .ok_or_else(|| CliError::Usage("a fragment shader needs --size WxH".into()))?;
            let grid = resources::grid(args, size)?;
            let result = sim::run_fragment_with(&compiled.binary, &mut res, &grid, &args.sim.options())?;
            let target0 = result.targets.get(&0).cloned().unwrap_or_default();
            println!(
                "render target 0: {}x{} pixels, checksum {:08x}",
                size[0],
                size[1],
                checksum(target0.iter().flatten())
            );
            for (i, px) in target0.iter().take(4).enumerate() {
                println!("  pixel ({}, {}) = {:?}", i as u32 % size[0], i as u32 / size[0], px);
            }
            if let Some(path) = &args.image {
                let bytes: Vec<u8> = target0.iter().flatten().flat_map(|v| v.to_le_bytes()).collect();
                resources::write(path, &bytes)?;
            }
            print_buffers(&res, args);
            result.stats
        }
        Stage::Vertex => super::vertex::run(&compiled.binary, &res, args)?,
        // The backend refuses geometry shaders before a binary exists.
        Stage::Geometry(_) => {
            return Err(CliError::Usage(
                "`agxc run` shades compute, fragment and vertex shaders; geometry shaders run in the interpreter (run_geometry)".into(),
            ))
        }
    };
    for &(b, ref path) in &args.outs {
        let binding = Binding::new(b.set, b.binding);
        let data = res
            .buffer_data(binding)
            .or_else(|| res.texture(binding).map(|t| t.data()))
            .ok_or_else(|| {
                CliError::Usage(format!(
                    "--out {}.{}: no buffer or image bound there",
                    b.set, b.binding
                ))
            })?;
        resources::write(path, data)?;
    }
    if args.stats {
        print_stats(&stats);
    }
    Ok(())
}

fn print_stats(stats: &agxc::runtime_sim::stats::Stats) {
    println!("simulator statistics:");
    println!("  SIMD-groups: {}", stats.simd_groups);
    println!(
        "  instructions: {} ({} thread-instructions)",
        stats.instructions, stats.thread_instructions
    );
    for (class, n) in stats.classes() {
        println!("    {class:?}: {n}");
    }
    let max = stats.cycles.iter().max().copied().unwrap_or(0);
    println!("  cycles per SIMD-group (timing model): max {max}");
    println!(
        "  register-cache hints executed: {} cache, {} discard",
        stats.cache_hints, stats.discard_hints
    );
    if let Some(occ) = &stats.occupancy {
        println!(
            "  occupancy: {} threads per core at {} 16-bit registers",
            occ.threads_per_core, occ.gpr_halves
        );
    }
    if let Some(p) = &stats.preamble {
        println!(
            "  preamble: ran {} SIMD-group(s), {} instructions",
            p.simd_groups, p.instructions
        );
    }
}

/// An FNV-1a checksum of float bit patterns, so two runs can be compared at a glance.
fn checksum<'a>(values: impl Iterator<Item = &'a f32>) -> u32 {
    values.fold(0x811c_9dc5u32, |h, v| {
        v.to_bits()
            .to_le_bytes()
            .iter()
            .fold(h, |h, &b| (h ^ u32::from(b)).wrapping_mul(0x0100_0193))
    })
}

fn print_buffers(res: &Resources, args: &RunArgs) {
    print_storage_buffers(res);
    // Storage images (what image stores write); sampled textures are inputs only.
    for spec in &args.storage_images {
        let b = Binding::new(spec.binding.set, spec.binding.binding);
        if let Some(tex) = res.texture(b) {
            let d = tex.desc();
            let words: Vec<f32> = tex
                .data()
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect();
            println!(
                "storage image {b}: {}x{}x{} {}, {} slices, {} levels, {} bytes, checksum {:08x}",
                d.width,
                d.height,
                d.depth,
                d.format.name(),
                d.slices(),
                d.levels,
                tex.data().len(),
                checksum(words.iter())
            );
            let texels: Vec<String> = (0..d.width.min(4))
                .map(|x| {
                    if d.format.class() == agxc::egraph::ir::TexelClass::Int {
                        format!("{:?}", tex.texel_words(0, 0, x, 0, 0))
                    } else {
                        format!("{:?}", tex.texel(0, 0, x, 0, 0))
                    }
                })
                .collect();
            println!("  row 0: {}", texels.join("  "));
        }
    }
}

fn print_storage_buffers(res: &Resources) {
    for (binding, buf) in res.buffers() {
        if buf.kind != agxc::egraph::interp::BufferKind::Storage {
            continue;
        }
        let floats: Vec<f32> = buf
            .data
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        println!(
            "storage buffer {binding}: {} bytes, checksum {:08x}",
            buf.data.len(),
            checksum(floats.iter())
        );
        let show = |range: std::ops::Range<usize>| {
            range
                .filter_map(|i| floats.get(i).map(|v| format!("[{i}] {v}")))
                .collect::<Vec<_>>()
                .join("  ")
        };
        let n = floats.len();
        println!("  as f32: {}", show(0..4.min(n)));
        if n > 8 {
            println!("  ...     {}", show(n - 4..n));
        }
    }
}

/// `agxc disasm`.
pub fn disasm_cmd(path: &Path) -> Result<(), CliError> {
    let code = read(path)?;
    if code.is_empty() {
        return Err(CliError::Decode {
            path: path.to_path_buf(),
            reason: "the file is empty (0 bytes)".into(),
        });
    }
    let listing = agxc::runtime_sim::disasm::disassemble(&code);
    std::io::stdout().write_all(listing.as_bytes())?;
    agxc::runtime_sim::decode::decode_program(&code).map_err(|e| CliError::Decode {
        path: path.to_path_buf(),
        reason: e.to_string(),
    })?;
    Ok(())
}

/// `agxc amber`: one line per script; an error (non-zero exit) when any fails.
pub fn amber_cmd(scripts: &[PathBuf], opt: &str) -> Result<(), CliError> {
    let level = if opt == "0" {
        OptLevel::O0
    } else {
        OptLevel::O2
    };
    let mut failed = 0;
    for path in scripts {
        let name = path.display().to_string();
        let outcome = match std::fs::read_to_string(path) {
            Ok(text) => agxc::amber::run_script(&text, level),
            Err(e) => agxc::amber::Outcome::Error {
                line: 0,
                message: e.to_string(),
            },
        };
        if outcome != agxc::amber::Outcome::Pass {
            failed += 1;
        }
        println!("{}", agxc::amber::describe(&name, &outcome));
    }
    if failed > 0 {
        return Err(CliError::Usage(format!(
            "{failed} of {} scripts failed",
            scripts.len()
        )));
    }
    Ok(())
}
