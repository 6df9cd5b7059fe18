//! The compile entry points: [`compile`] (a source), [`compile_function`] (graph IR),
//! [`optimize`] and [`lift`] (stopping earlier). All run [`crate::pipeline::PIPELINE`].

use std::sync::OnceLock;

use agxc_backend_agx::target::G13Target;
use agxc_backend_agx::{Binary, CompileOptions, PassDump};
use agxc_egraph::ir::{parse_function, verify, Function, OpRegistry};
use agxc_egraph::opt::{self, DumpOptions, OptOptions, OptRun, Report};
use agxc_frontend::{spirv, tgsi};

use crate::error::Error;
use crate::pipeline::{DumpPasses, Runner, Stage, PIPELINE};
use crate::source::SourceKind;

/// How hard to optimize.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum OptLevel {
    /// No equality saturation: the lifted IR goes straight to the backend.
    O0,
    /// Equality saturation with the G13's rules and cost model.
    #[default]
    O2,
}

impl std::fmt::Display for OptLevel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            OptLevel::O0 => "-O0",
            OptLevel::O2 => "-O2",
        })
    }
}

impl OptLevel {
    /// Both levels, in order.
    pub const ALL: [OptLevel; 2] = [OptLevel::O0, OptLevel::O2];
}

/// Which debugging dumps to produce (the IR before and after optimization, the rule report and
/// the disassembly are always kept: they cost nothing extra; the code after any pass comes
/// from [`Options::dump`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DumpRequest {
    /// The saturated e-graph as Graphviz DOT, extracted nodes marked.
    pub egraph_dot: bool,
    /// The same rendered to SVG by Graphviz's `dot` (an error note when it is not installed).
    pub egraph_svg: bool,
    /// The saturated e-graph as an interactive HTML page (every e-class, extracted e-nodes
    /// marked, costs, the rules that merged each class, the optimizer's report).
    pub egraph_html: bool,
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
    /// The passes whose output is printed to stderr and kept in [`Compiled::pass_dumps`]
    /// (when none: those `AGXC_DUMP` names; see [`crate::pipeline`]).
    pub dump: DumpPasses,
    /// Compute `RelaxedPrecision` (GLSL `mediump`) float arithmetic in f16 at `-O2`, as
    /// Vulkan allows and Mesa's GL path does: half the registers for those values, results
    /// within the relaxed precision (a relative error of about 2^-11 per operation) instead of
    /// f32's. Off by default, so that results match f32 implementations such as lavapipe.
    pub relaxed_f16: bool,
    /// Backend settings.
    pub backend: CompileOptions,
}

/// A compiled shader and everything learned on the way.
#[derive(Debug)]
pub struct Compiled {
    /// What the input was (`None` from [`compile_function`]).
    pub source_kind: Option<SourceKind>,
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
    /// The code after each pass [`Options::dump`] (or `AGXC_DUMP`) selected, in order.
    pub pass_dumps: Vec<PassDump>,
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
    /// The code after each pass [`Options::dump`] (or `AGXC_DUMP`) selected, in order.
    pub pass_dumps: Vec<PassDump>,
    /// The e-graph viewer's HTML page, when asked for.
    pub egraph_html: Option<String>,
}

/// Lifts a shader and optimizes it at `-O2`, stopping before the backend (so IR dumps work for
/// shaders the G13 backend refuses, such as geometry shaders).
pub fn optimize(source: &[u8], opts: &Options) -> Result<Optimized, Error> {
    let mut run = run_pipeline(Input::Source(source), opts, false)?;
    let source_kind = run.source_kind.ok_or(Error::Incomplete)?;
    let egraph_html = run.optimized.as_mut().and_then(|o| o.dumps.html.take());
    let (ir_opt, opt_report, egraph_dot, egraph_svg, ir_passes) = run.optimized();
    Ok(Optimized {
        source_kind,
        ir: run.ir,
        ir_opt,
        opt_report,
        egraph_dot,
        egraph_svg,
        ir_passes,
        pass_dumps: run.dumps,
        egraph_html,
    })
}

/// Compiles a shader (SPIR-V bytes, TGSI text or graph-IR text) for the G13.
pub fn compile(source: &[u8], opts: &Options) -> Result<Compiled, Error> {
    run_pipeline(Input::Source(source), opts, true)?.compiled()
}

/// Compiles a graph-IR function for the G13: the pipeline from `verify` on ([`compile`] without
/// the front end, so `opts.entry` and `opts.tgsi_const0_push` do not apply).
pub fn compile_function(func: &Function, opts: &Options) -> Result<Compiled, Error> {
    run_pipeline(Input::Function(func), opts, true)?.compiled()
}

/// Where a run of the pipeline starts.
enum Input<'a> {
    Source(&'a [u8]),
    Function(&'a Function),
}

/// What a run of the pipeline produced.
struct Run {
    source_kind: Option<SourceKind>,
    ir: Function,
    optimized: Option<opt::Optimized>,
    binary: Option<Binary>,
    dumps: Vec<PassDump>,
}

type OptParts = (
    Option<Function>,
    Option<Report>,
    Option<String>,
    Option<Result<String, String>>,
    Vec<(String, String)>,
);

impl Run {
    fn optimized(&mut self) -> OptParts {
        match self.optimized.take() {
            None => (None, None, None, None, Vec::new()),
            Some(o) => (
                Some(o.func),
                Some(o.report),
                o.dumps.dot,
                o.dumps.svg.map(|r| r.map_err(|e| e.to_string())),
                o.dumps.passes,
            ),
        }
    }

    fn compiled(mut self) -> Result<Compiled, Error> {
        let binary = self.binary.take().ok_or(Error::Incomplete)?;
        let (ir_opt, opt_report, egraph_dot, egraph_svg, ir_passes) = self.optimized();
        Ok(Compiled {
            source_kind: self.source_kind,
            ir: self.ir,
            ir_opt,
            opt_report,
            egraph_dot,
            egraph_svg,
            ir_passes,
            pass_dumps: self.dumps,
            binary,
        })
    }
}

/// The G13 target: its rule set is built once per process (it is the same every time).
fn g13_target() -> &'static G13Target {
    static TARGET: OnceLock<G13Target> = OnceLock::new();
    TARGET.get_or_init(G13Target::new)
}

/// Runs [`PIPELINE`] from `input`, through the backend if `backend`.
fn run_pipeline(input: Input<'_>, opts: &Options, backend: bool) -> Result<Run, Error> {
    let mut runner = Runner::new(&opts.dump)?;
    let opt_opts = OptOptions {
        limits: opts.limits,
        dump: DumpOptions {
            dot: opts.dumps.egraph_dot,
            svg: opts.dumps.egraph_svg,
            html: opts.dumps.egraph_html,
            // `--dump unroll` and the like print from the same record.
            passes: opts.dumps.ir_passes || runner.wants_control_flow(),
            ..DumpOptions::default()
        },
        relaxed_f16: opts.relaxed_f16,
        ..OptOptions::default()
    };
    let (mut source_kind, mut ir) = (None, None);
    if let Input::Function(func) = input {
        ir = Some(func.clone());
    }
    let mut optimized = None;
    let mut binary = None;
    for stage in PIPELINE {
        match (*stage, &input) {
            (Stage::Lift, Input::Source(bytes)) => {
                let mut lifted = None;
                runner.pass(
                    "lift",
                    &mut lifted,
                    |l| {
                        *l = Some(lift(bytes, opts)?);
                        Ok(())
                    },
                    |l| l.as_ref().map(|(_, f)| f.to_string()).unwrap_or_default(),
                )?;
                if let Some((kind, func)) = lifted {
                    source_kind = Some(kind);
                    ir = Some(func);
                }
            }
            (Stage::Lift, Input::Function(_)) => {}
            (Stage::Verify, _) => runner.verify(ir.as_ref().ok_or(Error::Incomplete)?)?,
            (Stage::Optimizer(steps), _) => {
                if opts.opt_level == OptLevel::O0 {
                    continue;
                }
                let func = ir.as_ref().ok_or(Error::Incomplete)?;
                let mut run = OptRun::new(func, g13_target(), &opt_opts)?;
                for step in steps {
                    let seen = run.pass_dumps().len();
                    runner.pass_with_inner(
                        step.name,
                        &mut run,
                        |r| Ok((step.run)(r)?),
                        |r| &r.pass_dumps()[seen..],
                        OptRun::listing,
                    )?;
                }
                let mut done = run.finish()?;
                if !opts.dumps.ir_passes {
                    done.dumps.passes.clear();
                }
                tracing::info!(
                    stop = %done.report.stop_reason,
                    insts = done.report.insts_after,
                    "optimized"
                );
                optimized = Some(done);
            }
            (Stage::Backend(passes), _) => {
                if !backend {
                    break;
                }
                let func = match &optimized {
                    Some(o) => &o.func,
                    None => ir.as_ref().ok_or(Error::Incomplete)?,
                };
                let b = runner.backend(passes, func, &opts.backend)?;
                tracing::info!(instructions = b.stats.instructions, "compiled");
                binary = Some(b);
            }
        }
    }
    Ok(Run {
        source_kind,
        ir: ir.ok_or(Error::Incomplete)?,
        optimized,
        binary,
        dumps: runner.dumps,
    })
}
