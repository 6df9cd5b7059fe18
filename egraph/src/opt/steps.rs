//! The optimizer as one ordered list of named steps ([`STEPS`]) over an [`OptRun`]:
//! [`super::optimize`] runs the list, and the facade (`agxc::compile_function`) runs the same
//! list inside the whole pipeline, with a dump and a `tracing` span per step.
//!
//! ```text
//!  cf-pre ─► saturate ─► extract ─► elaborate ─► cf-post ─► resaturate
//! ```
//!
//! `resaturate` is the second round (saturate, extract, elaborate again) that runs only when
//! `cf-post` changed the function (see [`crate::passes`] for why the work is split so).

use std::time::Instant;

use crate::ir::{verify, Function};
use crate::passes::{self, PassRun};

use super::analysis::{EGraph, FactAnalysis};
use super::extract::{self, Extraction};
use super::to_egraph::{self, Lowered};
use super::{
    clock, cost, dump, elaborate, explain, runner, Dumps, ExtractorKind, Node, OptError,
    OptOptions, Optimized, Target,
};
use crate::opt::analysis::Facts;

/// One optimizer step: its name (as `--dump` spells it) and what it does.
#[derive(Clone, Copy)]
pub struct OptStep {
    /// The step's name.
    pub name: &'static str,
    /// Runs it.
    pub run: fn(&mut OptRun<'_>) -> Result<(), OptError>,
}

impl std::fmt::Debug for OptStep {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

/// The optimizer's steps, in order.
pub const STEPS: &[OptStep] = &[
    OptStep {
        name: "cf-pre",
        run: cf_pre,
    },
    OptStep {
        name: "saturate",
        run: saturate,
    },
    OptStep {
        name: "extract",
        run: extract,
    },
    OptStep {
        name: "elaborate",
        run: elaborate,
    },
    OptStep {
        name: "cf-post",
        run: cf_post,
    },
    OptStep {
        name: "resaturate",
        run: resaturate,
    },
];

/// A saturation round between `saturate` and `elaborate`.
struct Round {
    /// The function the round started from (kept on a fallback).
    func: Function,
    egraph: EGraph,
    lowered: Lowered,
    report: runner::Report,
    extraction: Option<Extraction>,
}

/// One function on its way through the optimizer's steps.
pub struct OptRun<'a> {
    target: &'a dyn Target,
    opts: &'a OptOptions,
    /// The input, for the report's instruction count and the pre-pass fallback (borrowed: a
    /// copy of the function is about 1% of a small shader's compile).
    input: &'a Function,
    /// The function as the last step left it; between `saturate` and `elaborate` the round
    /// holds it, and once `cf-post` has changed nothing the first round's result is the
    /// function (see [`OptRun::current`]).
    func: Function,
    log: Vec<PassRun>,
    pass_dumps: Vec<(String, String)>,
    pass_fallback: Option<String>,
    round: Option<Round>,
    /// The first round's result, once elaborated.
    first: Option<Optimized>,
    post_changed: bool,
}

impl<'a> OptRun<'a> {
    /// A verified function ready for the first step.
    pub fn new(
        func: &'a Function,
        target: &'a dyn Target,
        opts: &'a OptOptions,
    ) -> Result<OptRun<'a>, OptError> {
        verify(func).map_err(OptError::InvalidInput)?;
        Ok(OptRun {
            target,
            opts,
            input: func,
            func: func.clone(),
            log: Vec::new(),
            pass_dumps: Vec::new(),
            pass_fallback: None,
            round: None,
            first: None,
            post_changed: false,
        })
    }

    /// The function as the last step left it, or (between `saturate` and `elaborate`) a
    /// summary of the e-graph and the extraction.
    pub fn listing(&self) -> String {
        match &self.round {
            Some(r) => {
                let mut s = format!(
                    "; e-graph: {} classes, {} nodes after {} iterations ({})\n",
                    r.report.classes, r.report.nodes, r.report.iterations, r.report.stop_reason
                );
                if let Some(ex) = &r.extraction {
                    s += &format!(
                        "; extracted: {} classes chosen, DAG cost {}\n",
                        ex.choice.len(),
                        ex.dag_cost
                    );
                }
                s
            }
            None => self.current().to_string(),
        }
    }

    /// The function as the last step left it, outside a round: the first round's result from
    /// `elaborate` until `cf-post` changes it (`cf-post` leaves `func` as it is when its passes
    /// change nothing or fail, instead of copying that result back into it).
    fn current(&self) -> &Function {
        match &self.first {
            Some(first) if !self.post_changed => &first.func,
            _ => &self.func,
        }
    }

    /// The IR after each control-flow pass run so far, (pass name, text), when
    /// `DumpOptions::passes` asks for them (so a caller can print them as each step ends).
    pub fn pass_dumps(&self) -> &[(String, String)] {
        &self.pass_dumps
    }

    /// The result, after the last step.
    pub fn finish(self) -> Result<Optimized, OptError> {
        let Some(mut out) = self.first else {
            return Err(OptError::OutOfOrder("finish"));
        };
        out.report.passes = self.log;
        if out.report.fallback.is_none() {
            out.report.fallback = self.pass_fallback;
        }
        out.dumps.passes = self.pass_dumps;
        if let Some(view) = out.dumps.view.take() {
            out.dumps.html = Some(super::html::page(&view, &out.report));
        }
        Ok(out)
    }

    fn run_passes(&mut self, list: &[passes::Pass]) -> Result<bool, passes::PassError> {
        let want = self.opts.dump.passes;
        passes::run(
            &mut self.func,
            list,
            self.target,
            &mut self.log,
            want.then_some(&mut self.pass_dumps),
        )
    }
}

fn cf_pre(run: &mut OptRun<'_>) -> Result<(), OptError> {
    let relax: &[passes::Pass] = if run.opts.relaxed_f16 {
        &[passes::Pass::RelaxPrecision]
    } else {
        &[]
    };
    let result = run
        .run_passes(relax)
        .and_then(|_| run.run_passes(passes::PRE_SATURATION));
    if let Err(e) = result {
        run.pass_fallback = Some(e.to_string());
        run.func = run.input.clone();
    }
    Ok(())
}

fn saturate(run: &mut OptRun<'_>) -> Result<(), OptError> {
    // The round takes the function (elaboration gives `run.func` its result): no copy.
    let placeholder = Function::new(String::new(), run.func.stage);
    let func = std::mem::replace(&mut run.func, placeholder);
    let mut egraph = EGraph::new(FactAnalysis::default());
    if !run.opts.dump.explain.is_empty() || run.opts.dump.html {
        egraph = egraph.with_explanations_enabled();
    }
    let lowered = match to_egraph::lower(&func, &mut egraph) {
        Ok(lowered) => lowered,
        Err(e) => {
            run.func = func;
            return Err(e.into());
        }
    };
    clock::EggClock::new().run(|| egraph.rebuild());
    let (egraph, mut report) = runner::saturate(egraph, run.target.rules(), &run.opts.limits);
    report.insts_before = func.inst_count();
    run.round = Some(Round {
        func,
        egraph,
        lowered,
        report,
        extraction: None,
    });
    Ok(())
}

fn extract(run: &mut OptRun<'_>) -> Result<(), OptError> {
    let target = run.target;
    let Some(round) = &mut run.round else {
        return Err(OptError::OutOfOrder("extract"));
    };
    let start = Instant::now();
    let egraph = &round.egraph;
    let find = |id| egraph.find(id);
    round.lowered.skeleton.canonicalize(find);
    let roots = round.lowered.skeleton.roots();
    let cost = |n: &Node, f: &Facts| cost::extraction_cost(target.cost(n, f), n);
    let ex = match run.opts.extractor {
        ExtractorKind::Dag => extract::dag(egraph, &roots, cost),
        ExtractorKind::Tree => extract::tree(egraph, &roots, cost),
    };
    let report = &mut round.report;
    report.extraction_time = start.elapsed().as_secs_f64();
    report.cost = ex.dag_cost;
    report.unavailable = ex
        .unavailable
        .iter()
        .filter_map(|c| ex.choice.get(c).map(|n| n.to_string()))
        .collect();
    round.extraction = Some(ex);
    Ok(())
}

/// Places the extracted choices (keeping the round's input if that fails or the result does
/// not verify) and makes the round's dumps.
fn elaborate_round(run: &mut OptRun<'_>) -> Result<Optimized, OptError> {
    let Some(Round {
        func,
        mut egraph,
        lowered,
        mut report,
        extraction: Some(ex),
    }) = run.round.take()
    else {
        return Err(OptError::OutOfOrder("elaborate"));
    };
    let opts = run.opts;
    let start = Instant::now();
    let relaxed = lowered.relaxed_classes(&egraph);
    let out = match elaborate::elaborate(&func, &lowered.skeleton, &egraph, &ex, &relaxed) {
        Ok(f) => match verify(&f) {
            Ok(()) => f,
            Err(e) => {
                report.fallback = Some(format!("the optimized function does not verify: {e}"));
                func.clone()
            }
        },
        Err(e) => {
            report.fallback = Some(e.to_string());
            func.clone()
        }
    };
    report.elaboration_time = start.elapsed().as_secs_f64();
    report.insts_after = out.inst_count();

    let mut dumps = Dumps::default();
    if opts.dump.dot || opts.dump.svg {
        let roots = lowered.skeleton.roots();
        let text = dump::dot(&egraph, &roots, &ex.choice, opts.dump.max_dot_nodes);
        if opts.dump.svg {
            dumps.svg = Some(dump::svg(&text));
        }
        if opts.dump.dot {
            dumps.dot = Some(text);
        }
    }
    if opts.dump.html {
        let roots = lowered.skeleton.roots();
        dumps.view = Some(super::html::View::build(
            &egraph, &roots, &ex.choice, run.target,
        ));
    }
    for &v in &opts.dump.explain {
        let text = explain(&func, &mut egraph, &lowered.classes, &ex.choice, v);
        dumps.explanations.push((v, text));
    }
    run.func = out.clone();
    Ok(Optimized {
        func: out,
        report,
        dumps,
    })
}

fn elaborate(run: &mut OptRun<'_>) -> Result<(), OptError> {
    let mut first = elaborate_round(run)?;
    first.report.insts_before = run.input.inst_count();
    run.first = Some(first);
    Ok(())
}

fn cf_post(run: &mut OptRun<'_>) -> Result<(), OptError> {
    run.post_changed = match run.run_passes(passes::POST_SATURATION) {
        Ok(changed) => changed,
        Err(e) => {
            run.pass_fallback.get_or_insert(e.to_string());
            false
        }
    };
    // Unchanged (or failed), the function is the first round's result again, which
    // `OptRun::current` reads from the round itself: nothing later reads `run.func` then.
    Ok(())
}

fn resaturate(run: &mut OptRun<'_>) -> Result<(), OptError> {
    if !run.post_changed {
        return Ok(());
    }
    saturate(run)?;
    extract(run)?;
    let mut second = elaborate_round(run)?;
    let Some(mut first) = run.first.take() else {
        return Err(OptError::OutOfOrder("resaturate"));
    };
    first.report.absorb(second.report);
    // Explanations are about the input's values, which only the first round knows.
    second.dumps.explanations = first.dumps.explanations;
    run.first = Some(Optimized {
        func: second.func,
        report: first.report,
        dumps: second.dumps,
    });
    Ok(())
}
