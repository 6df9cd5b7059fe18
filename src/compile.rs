//! The compile pipeline: lift, verify, optimize (at `-O2`), compile for the G13.

use std::time::Instant;

use agxc_backend_agx::target::G13Target;
use agxc_backend_agx::{Binary, CompileOptions};
use agxc_egraph::ir::{parse_function, verify, Function, OpRegistry};
use agxc_egraph::opt::{self, DumpOptions, OptOptions, Report};
use agxc_frontend::{spirv, tgsi};
use tracing::info;

use crate::error::Error;
use crate::source::SourceKind;

/// How hard to optimize.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OptLevel {
    /// No equality saturation: the lifted IR goes straight to the backend.
    O0,
    /// Equality saturation with the G13's rules and cost model.
    #[default]
    O2,
}

/// Which debugging dumps to produce (the IR before and after optimization, the rule report and
/// the disassembly are always kept: they cost nothing extra).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DumpRequest {
    /// The saturated e-graph as Graphviz DOT, extracted nodes marked.
    pub egraph_dot: bool,
    /// The same rendered to SVG by Graphviz's `dot` (an error note when it is not installed).
    pub egraph_svg: bool,
    /// The saturated e-graph as an interactive HTML page (every e-class, extracted e-nodes
    /// marked, costs, the rules that merged each class, the optimizer's report).
    pub egraph_html: bool,
    /// The machine code after each backend pass.
    pub backend_passes: bool,
    /// The IR after each control-flow pass of the optimizer (`agxc_egraph::passes`).
    pub ir_passes: bool,
}

/// Compile options.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Entry point name (default: the module's only one; `main` for TGSI).
    pub entry: Option<String>,
    /// Optimization level.
    pub opt_level: OptLevel,
    /// Equality-saturation limits (iterations, nodes, time), set before the run.
    pub limits: opt::Limits,
    /// TGSI: read `CONST[0]` from push constants instead of a uniform buffer.
    pub tgsi_const0_push: bool,
    /// Requested dumps.
    pub dumps: DumpRequest,
    /// Backend settings.
    pub backend: CompileOptions,
}

/// A compiled shader and everything learned on the way.
#[derive(Debug)]
pub struct Compiled {
    /// What the input was.
    pub source_kind: SourceKind,
    /// The lifted IR, before optimization.
    pub ir: Function,
    /// The IR after optimization (`None` at `-O0`).
    pub ir_opt: Option<Function>,
    /// The optimizer's report: stop reason, iterations, e-graph size, rule firings (`-O2`).
    pub opt_report: Option<Report>,
    /// The e-graph as DOT, when asked for.
    pub egraph_dot: Option<String>,
    /// The e-graph as SVG, when asked for (or why it could not be made).
    pub egraph_svg: Option<Result<String, String>>,
    /// The IR after each control-flow pass, (pass name, text) in order, when asked for.
    pub ir_passes: Vec<(String, String)>,
    /// The G13 binary with metadata, statistics and disassembly.
    pub binary: Binary,
}

/// Lifts a shader into verified graph IR without optimizing or compiling it.
pub fn lift(source: &[u8], opts: &Options) -> Result<(SourceKind, Function), Error> {
    if source.is_empty() {
        return Err(Error::Empty);
    }
    let kind = SourceKind::detect(source).ok_or(Error::UnknownSource)?;
    let func = match kind {
        SourceKind::SpirV => spirv::lift(
            source,
            &spirv::LiftOptions {
                entry: opts.entry.clone(),
                ..spirv::LiftOptions::default()
            },
        )?,
        SourceKind::Tgsi => {
            let text = std::str::from_utf8(source).map_err(|_| Error::NotUtf8(kind))?;
            tgsi::lift(
                text,
                &tgsi::LiftOptions {
                    entry_name: opts.entry.clone(),
                    const0_push_constants: opts.tgsi_const0_push,
                    ..tgsi::LiftOptions::default()
                },
            )?
        }
        SourceKind::Ir => {
            let text = std::str::from_utf8(source).map_err(|_| Error::NotUtf8(kind))?;
            let registry = OpRegistry::with(&agxc_backend_agx::target::ops::OPS);
            let func = parse_function(text, &registry)?;
            verify(&func)?;
            func
        }
    };
    Ok((kind, func))
}

/// A shader lifted and, at `-O2`, optimized: everything [`compile`] produces before the
/// backend runs.
#[derive(Debug)]
pub struct Optimized {
    /// What the input was.
    pub source_kind: SourceKind,
    /// The lifted IR, before optimization.
    pub ir: Function,
    /// The IR after optimization (`None` at `-O0`).
    pub ir_opt: Option<Function>,
    /// The optimizer's report (`-O2`).
    pub opt_report: Option<Report>,
    /// The e-graph as DOT, when asked for.
    pub egraph_dot: Option<String>,
    /// The e-graph as SVG, when asked for (or why it could not be made).
    pub egraph_svg: Option<Result<String, String>>,
    /// The IR after each control-flow pass, (pass name, text) in order, when asked for.
    pub ir_passes: Vec<(String, String)>,
    /// The e-graph viewer's HTML page, when asked for.
    pub egraph_html: Option<String>,
}

/// Lifts a shader and optimizes it at `-O2`, stopping before the backend (so IR dumps work for
/// shaders the G13 backend refuses, such as geometry shaders).
pub fn optimize(source: &[u8], opts: &Options) -> Result<Optimized, Error> {
    let start = Instant::now();
    let (source_kind, ir) = lift(source, opts)?;
    info!(kind = %source_kind, insts = ir.inst_count(), elapsed = ?start.elapsed(), "lifted");

    let (ir_opt, opt_report, egraph_dot, egraph_svg, ir_passes, egraph_html) = match opts.opt_level
    {
        OptLevel::O0 => (None, None, None, None, Vec::new(), None),
        OptLevel::O2 => {
            let target = G13Target::new();
            let optimized = opt::optimize(
                &ir,
                &target,
                &OptOptions {
                    limits: opts.limits,
                    dump: DumpOptions {
                        dot: opts.dumps.egraph_dot,
                        svg: opts.dumps.egraph_svg,
                        html: opts.dumps.egraph_html,
                        passes: opts.dumps.ir_passes,
                        ..DumpOptions::default()
                    },
                    ..OptOptions::default()
                },
            )?;
            info!(elapsed = ?start.elapsed(), "optimized: {}", optimized.report.stop_reason);
            let svg = optimized.dumps.svg.map(|r| r.map_err(|e| e.to_string()));
            (
                Some(optimized.func),
                Some(optimized.report),
                optimized.dumps.dot,
                svg,
                optimized.dumps.passes,
                optimized.dumps.html,
            )
        }
    };
    Ok(Optimized {
        source_kind,
        ir,
        ir_opt,
        opt_report,
        egraph_dot,
        egraph_svg,
        ir_passes,
        egraph_html,
    })
}

/// Compiles a shader (SPIR-V bytes, TGSI text or graph-IR text) for the G13.
pub fn compile(source: &[u8], opts: &Options) -> Result<Compiled, Error> {
    let start = Instant::now();
    let Optimized {
        source_kind,
        ir,
        ir_opt,
        opt_report,
        egraph_dot,
        egraph_svg,
        ir_passes,
        ..
    } = optimize(source, opts)?;
    let to_compile = ir_opt.as_ref().unwrap_or(&ir);
    let mut backend = opts.backend.clone();
    backend.dump_passes |= opts.dumps.backend_passes;
    let binary = agxc_backend_agx::compile(to_compile, &backend)?;
    info!(
        instructions = binary.stats.instructions,
        elapsed = ?start.elapsed(),
        "compiled"
    );
    Ok(Compiled {
        source_kind,
        ir,
        ir_opt,
        opt_report,
        egraph_dot,
        egraph_svg,
        ir_passes,
        binary,
    })
}
