//! The two properties, checked on one case.
//!
//! 1. **Optimizer**: the optimized function, run in the reference interpreter, gives the
//!    unoptimized function's output within the tolerances of the optimizer's error model.
//! 2. **Backend**: the function compiled for the G13 (at -O0 as it is, at -O2 after the
//!    optimizer with the G13 target) and run in the simulator gives the interpreter's output
//!    within the tolerances of the G13 error model.
//!
//! Both start the same way: the reference interpreter runs the unoptimized function, and the
//! shadow run (`bounds`) re-executes it to derive the tolerances; the two outputs must agree
//! byte for byte, or the harness itself (or the interpreter) is wrong.

use crate::equiv::bounds::{shadow_run, Coverage, Layout, ShadowRun};
use crate::equiv::case::Case;
use crate::equiv::compare::{compare, Mismatch};
use crate::equiv::model::ErrorModel;
pub use agxc::OptLevel;
use agxc_egraph::ir::arbitrary::{INVOCATION_BYTES, OUTPUT};
use agxc_egraph::ir::Function;
use agxc_egraph::opt::{optimize, OptOptions, Target};

/// What is checked against the reference.
#[derive(Clone, Copy)]
pub enum Property<'t> {
    /// Property (1): the optimizer with this target, tolerances from this model.
    Optimizer {
        /// The target (its rules and costs).
        target: &'t dyn Target,
        /// Where its results may differ.
        model: ErrorModel,
    },
    /// Property (2): the G13 backend and simulator at this optimization level.
    Backend(OptLevel),
}

impl Property<'_> {
    /// A short name for reports and directories.
    pub fn name(&self) -> String {
        match self {
            Property::Optimizer { target, .. } => format!("opt-{}", target.name()),
            Property::Backend(OptLevel::O0) => "g13-O0".into(),
            Property::Backend(OptLevel::O2) => "g13-O2".into(),
        }
    }

    fn model(&self) -> ErrorModel {
        match self {
            Property::Optimizer { model, .. } => *model,
            Property::Backend(_) => ErrorModel::G13,
        }
    }
}

/// A passing case's statistics.
#[derive(Clone, Copy, Debug, Default)]
pub struct Pass {
    /// What was compared.
    pub coverage: Coverage,
    /// Instructions in the generated function.
    pub insts: usize,
    /// Branch conditions that may flip.
    pub flips: u32,
    /// The optimizer gave up and returned its input (its report's `fallback`).
    pub fallback: bool,
}

/// A failing case: what went wrong, with everything a report shows.
#[derive(Clone, Debug)]
pub struct Failure {
    /// What went wrong: a mismatch, or an error of the optimizer, backend or a run.
    pub what: String,
    /// The first differing element, for mismatches.
    pub mismatch: Option<Mismatch>,
    /// The function as generated (the reference).
    pub reference: Function,
    /// The optimized function, if the optimizer ran.
    pub optimized: Option<Function>,
    /// The optimizer's report (rule firings), if it ran.
    pub opt_report: Option<String>,
    /// The saturated e-graph as DOT, if asked for and the optimizer ran.
    pub dot: Option<String>,
    /// The G13 disassembly, for backend cases that compiled.
    pub disassembly: Option<String>,
    /// The reference output buffer.
    pub expected: Vec<u8>,
    /// The output buffer under test (empty if it did not run).
    pub got: Vec<u8>,
}

/// The result of checking one case.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// Equal within the tolerances.
    Pass(Pass),
    /// A miscompile, or a valid program the compiler rejected or crashed on.
    Fail(Box<Failure>),
    /// The case could not be checked: the reference run failed or the shadow run disagreed
    /// with the interpreter (a harness or interpreter bug, not the compiler's).
    Harness(String),
}

/// The output layout of generated programs.
const LAYOUT: Layout = Layout {
    output: OUTPUT,
    invocation_bytes: INVOCATION_BYTES as usize,
};

/// The reference output and the shadow run, or why the case cannot be checked.
fn reference(case: &Case, func: &Function, model: &ErrorModel) -> Result<ShadowRun, String> {
    let expected = case
        .interpret(func)
        .map_err(|e| format!("the reference interpreter rejects the generated program: {e}"))?;
    let shadow = shadow_run(func, &case.resources(), case.groups(), &LAYOUT, model)
        .map_err(|e| format!("shadow run: {e}"))?;
    if shadow.output != expected {
        let at = shadow
            .output
            .iter()
            .zip(&expected)
            .position(|(a, b)| a != b)
            .unwrap_or(expected.len().min(shadow.output.len()));
        return Err(format!(
            "the shadow run's output differs from the interpreter's at byte {at}"
        ));
    }
    Ok(shadow)
}

/// Checks `property` on `case`; `dumps` asks for the e-graph DOT (slow: only for reports).
pub fn check(case: &Case, property: Property<'_>, dumps: bool) -> Outcome {
    check_function(case, &case.recipe.lower(), property, dumps)
}

/// Checks `property` on `func` (a compute function in the generated programs' buffer layout,
/// with `case.recipe`'s workgroup size, such as a counterexample's IR read back with
/// `parse_function`) with `case`'s inputs.
pub fn check_function(
    case: &Case,
    func: &Function,
    property: Property<'_>,
    dumps: bool,
) -> Outcome {
    let func = func.clone();
    let model = property.model();
    let shadow = match reference(case, &func, &model) {
        Ok(s) => s,
        Err(e) => return Outcome::Harness(e),
    };
    let mut failure = Failure {
        what: String::new(),
        mismatch: None,
        reference: func.clone(),
        optimized: None,
        opt_report: None,
        dot: None,
        disassembly: None,
        expected: shadow.output.clone(),
        got: Vec::new(),
    };
    let fail = |mut f: Failure, what: String| {
        f.what = what;
        Outcome::Fail(Box::new(f))
    };
    let mut fallback = false;
    let got = match property {
        Property::Optimizer { target, .. } => {
            let mut opts = OptOptions::default();
            opts.dump.dot = dumps;
            let out = match optimize(&func, target, &opts) {
                Ok(out) => out,
                Err(e) => return fail(failure, format!("the optimizer failed: {e}")),
            };
            fallback = out.report.fallback.is_some();
            failure.optimized = Some(out.func.clone());
            failure.opt_report = Some(out.report.to_string());
            failure.dot = out.dumps.dot;
            match case.interpret(&out.func) {
                Ok(out) => out,
                Err(e) => {
                    return fail(
                        failure,
                        format!("the optimized program fails in the interpreter: {e}"),
                    )
                }
            }
        }
        Property::Backend(level) => {
            let options = agxc::Options {
                opt_level: level,
                dumps: agxc::DumpRequest {
                    egraph_dot: dumps,
                    ..agxc::DumpRequest::default()
                },
                ..agxc::Options::default()
            };
            let compiled = match agxc::compile_function(&func, &options) {
                Ok(c) => c,
                Err(agxc::Error::Optimize(e)) => {
                    return fail(failure, format!("the optimizer failed: {e}"))
                }
                Err(agxc::Error::Backend(e)) => {
                    return fail(failure, format!("the backend failed: {e}"))
                }
                Err(e) => return fail(failure, format!("the pipeline failed: {e}")),
            };
            if let Some(report) = &compiled.opt_report {
                fallback = report.fallback.is_some();
                failure.opt_report = Some(report.to_string());
            }
            failure.optimized = compiled.ir_opt;
            failure.dot = compiled.egraph_dot;
            let binary = compiled.binary;
            failure.disassembly = Some(binary.disassembly.clone());
            let mut res = case.resources();
            // Every simulator mode (engines, host threads) must agree byte for byte.
            let opts = agxc::sim::SimOptions::default();
            if let Err(e) = agxc::sim::crosscheck::run_compute_cross_checked(
                &binary,
                &mut res,
                case.groups(),
                &opts,
            ) {
                return fail(failure, format!("the simulator run failed: {e}"));
            }
            res.buffer_data(OUTPUT).unwrap_or(&[]).to_vec()
        }
    };
    failure.got = got;
    match compare(&shadow.output, &failure.got, &shadow.tolerances, model.g13) {
        Some(m) => {
            failure.mismatch = Some(m);
            fail(failure, "the outputs differ".into())
        }
        None => Outcome::Pass(Pass {
            coverage: shadow.tolerances.coverage(),
            flips: shadow.flips,
            fallback,
            insts: failure.reference.inst_count(),
        }),
    }
}
