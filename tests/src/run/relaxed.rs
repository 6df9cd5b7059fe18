//! The SPIR-V corpus cases with `RelaxedPrecision` arithmetic, compiled at -O2 with that
//! arithmetic in f16 ([`agxc::Options::relaxed_f16`]) and checked three ways:
//!
//! - against the interpreter's model of the G13 on the optimized IR the backend compiled (which
//!   holds the f16 operations the `relax-precision` pass made), within the case's ordinary
//!   tolerances: the backend and the simulator must implement that IR exactly as they do f32;
//! - against the interpreter on the lifted IR, which computes everything in f32, within the
//!   case's `relaxed_tolerance` (the manifest states per output why it covers f16);
//! - against the oracle's recording (lavapipe computes in f32 too), within `relaxed_tolerance`.
//!
//! A case is relaxed when its lifted entry point holds an operation flagged relaxed (the lifter
//! sets the flag from the `RelaxedPrecision` decoration); the others are not run here. The f32
//! compile of the same case is kept for the figures a test compares (registers, 16-bit
//! instructions).

use std::time::Instant;

use agxc::{Compiled, OptLevel, Options};
use agxc_egraph::ir::{Function, InstFlags};

use super::corpus_run::{CorpusOptions, CorpusRun};
use super::error::RunError;
use super::executor::{Executor, Interpreter};
use super::g13::G13;
use super::launch::Launch;
use super::prepare::{prepare, Language};
use super::report::{CaseReport, Outcome};
use crate::corpus::{compare_outputs, load_corpus, Case, CorpusError, OutputSpec};

/// The relaxed cases of a corpus run: three comparisons per case and the compile figures.
#[derive(Debug)]
pub struct RelaxedRun {
    /// The f16 compile against the G13 model on its optimized IR (ordinary tolerances).
    pub vs_model: CorpusRun,
    /// The f16 compile against the f32 interpreter on the lifted IR (relaxed tolerances).
    pub vs_interp: CorpusRun,
    /// The f16 compile against the oracle's recording (relaxed tolerances).
    pub vs_oracle: CorpusRun,
    /// Per relaxed case that compiled both ways: (case, f32 figures, f16 figures).
    pub figures: Vec<(String, Figures, Figures)>,
}

/// What one -O2 compile of a case came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Figures {
    /// Main-program instructions.
    pub instructions: u32,
    /// 16-bit registers.
    pub gpr_halves: u32,
    /// 16-bit float arithmetic instructions (`fadd16`, `fmul16`, `fmadd16`) in the listing.
    pub half_arithmetic: u32,
}

impl Figures {
    fn of(compiled: &Compiled) -> Figures {
        let half_arithmetic = compiled
            .binary
            .disassembly
            .lines()
            .filter_map(|l| l.split_whitespace().nth(2))
            .filter(|m| ["fadd16", "fmul16", "fmadd16"].contains(m))
            .count();
        Figures {
            instructions: compiled.binary.stats.instructions,
            gpr_halves: compiled.binary.metadata.gpr_halves,
            half_arithmetic: u32::try_from(half_arithmetic).unwrap_or(u32::MAX),
        }
    }
}

/// Whether `func` has an operation the lifter flagged relaxed.
pub fn has_relaxed(func: &Function) -> bool {
    func.insts
        .values()
        .any(|d| d.flags.contains(InstFlags::RELAXED))
}

/// Runs every relaxed case of the SPIR-V corpus (those `options` selects).
pub fn run_relaxed_corpus(options: &CorpusOptions) -> Result<RelaxedRun, CorpusError> {
    let language = Language::Spirv;
    let dir = options.dir.clone().unwrap_or_else(|| language.corpus_dir());
    let cases = load_corpus(&dir)?;
    let corpus: Vec<String> = cases.iter().map(|c| c.name.clone()).collect();
    let run = |reports| CorpusRun {
        reports,
        corpus: corpus.clone(),
    };
    let (mut model, mut interp, mut oracle, mut figures) = (vec![], vec![], vec![], vec![]);
    let selected = |name: &str| {
        options
            .only
            .as_ref()
            .is_none_or(|only| only.iter().any(|n| n == name))
    };
    for case in cases.iter().filter(|c| selected(&c.name)) {
        let start = Instant::now();
        let checked = match check_case(case, language) {
            Ok(None) => continue,
            Ok(Some(checked)) => Ok(checked),
            Err(e) => Err(e),
        };
        let report = |outcome| CaseReport {
            case: case.name.clone(),
            stage: case.manifest.stage,
            outcome,
            elapsed: start.elapsed(),
        };
        match checked {
            Ok(c) => {
                model.push(report(c.vs_model));
                interp.push(report(c.vs_interp));
                oracle.push(report(c.vs_oracle));
                figures.push((case.name.clone(), c.wide, c.half));
            }
            Err(e) => {
                // Each report owns its error: the message again, under the same executor.
                let again = || RunError::Executor {
                    case: case.name.clone(),
                    executor: "g13 -O2 relaxed-f16",
                    source: e.to_string().into(),
                };
                model.push(report(Outcome::Failed(again())));
                interp.push(report(Outcome::Failed(again())));
                oracle.push(report(Outcome::Failed(e)));
            }
        }
    }
    Ok(RelaxedRun {
        vs_model: run(model),
        vs_interp: run(interp),
        vs_oracle: run(oracle),
        figures,
    })
}

/// One relaxed case's outcomes and figures.
struct Checked {
    vs_model: Outcome,
    vs_interp: Outcome,
    vs_oracle: Outcome,
    wide: Figures,
    half: Figures,
}

/// Checks one case, or `None` when it has no relaxed operation.
fn check_case(case: &Case, language: Language) -> Result<Option<Checked>, RunError> {
    let expected = case.read_expected()?;
    let prepared = prepare(case, language)?;
    if !has_relaxed(&prepared.func) {
        return Ok(None);
    }
    let launch = &prepared.launch;
    let wide = G13::new(OptLevel::O2);
    let half = G13 {
        options: Options {
            relaxed_f16: true,
            ..wide.options.clone()
        },
    };
    let failed = |e| RunError::Executor {
        case: case.name.clone(),
        executor: "g13 -O2 relaxed-f16",
        source: Box::new(e),
    };
    let wide_compiled = wide.compile(&prepared.func).map_err(failed)?;
    let compiled = half.compile(&prepared.func).map_err(failed)?;
    let actual = half.run_binary(&compiled.binary, launch).map_err(failed)?;
    let ir = compiled.ir_opt.as_ref().unwrap_or(&prepared.func);
    let outcome = |mismatches: Vec<_>| {
        if mismatches.is_empty() {
            Outcome::Passed
        } else {
            Outcome::Mismatched(mismatches)
        }
    };
    let relaxed = relaxed_specs(case, launch);
    let vs_model = match Interpreter::g13_model().execute(ir, launch) {
        Ok(model) => outcome(compare_outputs(
            &case.name,
            &launch.outputs,
            &model,
            &actual,
        )),
        Err(e) => Outcome::Failed(e),
    };
    let vs_interp = match Interpreter::new().execute(&prepared.func, launch) {
        Ok(f32_run) => outcome(compare_outputs(&case.name, &relaxed, &f32_run, &actual)),
        Err(e) => Outcome::Failed(e),
    };
    let vs_oracle = outcome(compare_outputs(&case.name, &relaxed, &expected, &actual));
    Ok(Some(Checked {
        vs_model,
        vs_interp,
        vs_oracle,
        wide: Figures::of(&wide_compiled),
        half: Figures::of(&compiled),
    }))
}

/// `launch`'s outputs with each one's relaxed tolerance.
fn relaxed_specs(case: &Case, launch: &Launch) -> Vec<OutputSpec> {
    launch
        .outputs
        .iter()
        .map(|s| OutputSpec {
            tolerance: case.relaxed_tolerance(&s.key),
            ..s.clone()
        })
        .collect()
}
