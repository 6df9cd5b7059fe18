//! The whole pipeline, declared once: [`PIPELINE`] lists its stages in order, the optimizer's
//! and the backend's stages being their crates' own ordered lists of named passes
//! ([`agxc_egraph::opt::STEPS`], [`agxc_backend_agx::PASSES`]). [`crate::compile`],
//! [`crate::compile_function`] and [`crate::optimize`] all run this list, nothing else assembles
//! the pipeline: the tests' runner and the benchmarks call those functions.
//!
//! Each pass runs inside a `tracing` span named `pass` with the pass's name, and logs (at
//! `info`) one `done` event with the thread CPU time and the wall time it took (the command line
//! prints them with `RUST_LOG=agxc=info`), and the passes named in
//! [`Options::dump`](crate::Options::dump) (or, when that is empty, in the `AGXC_DUMP`
//! environment variable: `all` or `PASS,PASS,...`) print the code they leave to stderr, headed
//! `; after PASS`: the graph IR up to the backend's `isel` (between `saturate` and `elaborate`, a
//! summary of the e-graph and the extraction), then the machine code. The optimizer's
//! control-flow passes, which its `cf-pre` and `cf-post` steps run, can be named too
//! ([`control_flow_pass_names`]): each run prints before the step's own dump. The dumps contain
//! no times or addresses, so they are the same on every run.

use std::io::Write;
use std::time::{Duration, Instant};

use agxc_backend_agx::{Machine, MachinePass, PassDump};
use agxc_egraph::ir::{verify, Function};
use agxc_egraph::opt::{OptStep, STEPS};
use agxc_egraph::passes;

use crate::error::Error;

/// One stage of the pipeline.
#[derive(Clone, Copy, Debug)]
pub enum Stage {
    /// `lift`: SPIR-V, TGSI or graph-IR text to graph IR (only when starting from a source).
    Lift,
    /// `verify`: the IR's invariants checked before anything trusts them.
    Verify,
    /// The optimizer's steps (at `-O2`).
    Optimizer(&'static [OptStep]),
    /// The backend's passes.
    Backend(&'static [MachinePass]),
}

/// The pipeline, in order.
pub const PIPELINE: &[Stage] = &[
    Stage::Lift,
    Stage::Verify,
    Stage::Optimizer(STEPS),
    Stage::Backend(agxc_backend_agx::PASSES),
];

/// The optimizer's control-flow passes, which run inside its `cf-pre` and `cf-post` steps
/// (some more than once): `--dump` accepts their names too, and prints the IR after each run
/// of them, before the step's own dump.
pub fn control_flow_pass_names() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Vec::new();
    let relax = [passes::Pass::RelaxPrecision];
    for pass in relax
        .iter()
        .chain(passes::PRE_SATURATION)
        .chain(passes::POST_SATURATION)
    {
        if !names.contains(&pass.name()) {
            names.push(pass.name());
        }
    }
    names
}

/// Every pass's name, in pipeline order (what `--dump` accepts, besides `all` and
/// [`control_flow_pass_names`]).
pub fn pass_names() -> Vec<&'static str> {
    let mut names = Vec::new();
    for stage in PIPELINE {
        match stage {
            Stage::Lift => names.push("lift"),
            Stage::Verify => names.push("verify"),
            Stage::Optimizer(steps) => names.extend(steps.iter().map(|s| s.name)),
            Stage::Backend(passes) => names.extend(passes.iter().map(|p| p.name)),
        }
    }
    names
}

/// The environment variable that selects passes to dump when [`Options::dump`] is empty.
///
/// [`Options::dump`]: crate::Options::dump
pub const DUMP_ENV: &str = "AGXC_DUMP";

/// Which passes' output to dump.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum DumpPasses {
    /// None (then `AGXC_DUMP` decides).
    #[default]
    None,
    /// Every pass.
    All,
    /// These passes (checked against [`pass_names`]).
    Some(Vec<&'static str>),
}

impl DumpPasses {
    /// Parses `all` or a comma-separated list of pass names; an unknown name is an error that
    /// lists the known ones.
    pub fn parse(text: &str) -> Result<DumpPasses, Error> {
        let text = text.trim();
        if text == "all" {
            return Ok(DumpPasses::All);
        }
        let mut known = pass_names();
        known.extend(control_flow_pass_names());
        let mut chosen = Vec::new();
        for name in text.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            match known.iter().find(|k| **k == name) {
                Some(k) => chosen.push(*k),
                None => {
                    return Err(Error::UnknownPass {
                        name: name.to_owned(),
                        known: known.join(", "),
                    })
                }
            }
        }
        Ok(if chosen.is_empty() {
            DumpPasses::None
        } else {
            DumpPasses::Some(chosen)
        })
    }

    /// The selection in `AGXC_DUMP` (none when it is unset).
    pub fn from_env() -> Result<DumpPasses, Error> {
        match std::env::var(DUMP_ENV) {
            Ok(text) => DumpPasses::parse(&text),
            Err(_) => Ok(DumpPasses::None),
        }
    }

    /// Whether any of the optimizer's control-flow passes is selected.
    pub(crate) fn wants_control_flow(&self) -> bool {
        control_flow_pass_names().iter().any(|p| self.wants(p))
    }

    fn wants(&self, pass: &str) -> bool {
        match self {
            DumpPasses::None => false,
            DumpPasses::All => true,
            DumpPasses::Some(names) => names.contains(&pass),
        }
    }
}

/// The CPU time this thread has used (`None` where the platform does not say).
#[cfg(unix)]
fn thread_cpu_time() -> Option<Duration> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, exclusively borrowed timespec for the call's duration.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    let secs = u64::try_from(ts.tv_sec).ok()?;
    let nanos = u32::try_from(ts.tv_nsec).ok()?;
    (rc == 0).then(|| Duration::new(secs, nanos))
}

#[cfg(not(unix))]
fn thread_cpu_time() -> Option<Duration> {
    None
}

/// Runs passes with their spans and dumps.
pub(crate) struct Runner {
    dump: DumpPasses,
    /// The dumps made so far, in order.
    pub(crate) dumps: Vec<PassDump>,
}

impl Runner {
    /// A runner dumping what `dump` selects, or `AGXC_DUMP` when that selects nothing.
    pub(crate) fn new(dump: &DumpPasses) -> Result<Runner, Error> {
        let dump = match dump {
            DumpPasses::None => DumpPasses::from_env()?,
            chosen => chosen.clone(),
        };
        Ok(Runner {
            dump,
            dumps: Vec::new(),
        })
    }

    /// Whether the selection names any of the optimizer's control-flow passes.
    pub(crate) fn wants_control_flow(&self) -> bool {
        self.dump.wants_control_flow()
    }

    /// Runs one pass inside its span, then dumps what `listing` prints if the pass is selected.
    pub(crate) fn pass<T>(
        &mut self,
        name: &'static str,
        state: &mut T,
        run: impl FnOnce(&mut T) -> Result<(), Error>,
        listing: impl FnOnce(&T) -> String,
    ) -> Result<(), Error> {
        self.pass_with_inner(name, state, run, |_| &[], listing)
    }

    /// [`Runner::pass`] for a pass that runs passes of its own: after it runs, the selected
    /// ones of `inner(state)`'s (name, text) dumps are printed before its own.
    pub(crate) fn pass_with_inner<T>(
        &mut self,
        name: &'static str,
        state: &mut T,
        run: impl FnOnce(&mut T) -> Result<(), Error>,
        inner: impl FnOnce(&T) -> &[(String, String)],
        listing: impl FnOnce(&T) -> String,
    ) -> Result<(), Error> {
        let span = tracing::info_span!("pass", name);
        let entered = span.enter();
        // The clocks are read only for the log line: the thread's CPU time is a system call
        // (two per pass, about 1% of a small shader's compile; issue 19).
        let logged = !span.is_disabled();
        let start = logged.then(|| (Instant::now(), thread_cpu_time()));
        run(state)?;
        if let Some((wall_start, cpu_start)) = start {
            // Both clocks: on a busy machine the wall time (what a span's own `time.busy` would
            // say) is several times the CPU time the pass used.
            let cpu = thread_cpu_time()
                .zip(cpu_start)
                .map(|(end, begin)| end.saturating_sub(begin));
            tracing::info!(cpu = ?cpu.unwrap_or_default(), wall = ?wall_start.elapsed(), "done");
        }
        drop(entered);
        for (pass, text) in inner(state) {
            let Some(&pass) = control_flow_pass_names().iter().find(|p| *p == pass) else {
                continue;
            };
            if self.dump.wants(pass) {
                let _ = write!(std::io::stderr().lock(), "; after {pass}\n{text}\n");
                self.dumps.push(PassDump {
                    pass,
                    text: text.clone(),
                });
            }
        }
        if self.dump.wants(name) {
            let text = listing(state);
            // A dump that cannot be written (stderr closed) does not fail the compile.
            let _ = write!(std::io::stderr().lock(), "; after {name}\n{text}\n");
            self.dumps.push(PassDump { pass: name, text });
        }
        Ok(())
    }

    /// The `verify` pass.
    pub(crate) fn verify(&mut self, func: &Function) -> Result<(), Error> {
        let mut state = ();
        self.pass(
            "verify",
            &mut state,
            |()| verify(func).map_err(Error::IrVerify),
            |()| func.to_string(),
        )
    }

    /// The backend's passes over `func`; `passes` is [`PIPELINE`]'s backend stage.
    pub(crate) fn backend(
        &mut self,
        passes: &[MachinePass],
        func: &Function,
        opts: &agxc_backend_agx::CompileOptions,
    ) -> Result<agxc_backend_agx::Binary, Error> {
        let mut machine = Machine::new(func, opts)?;
        let mut own = Vec::new();
        for pass in passes {
            self.pass(
                pass.name,
                &mut machine,
                |m| Ok((pass.run)(m)?),
                Machine::listing,
            )?;
            if opts.dump_passes {
                own.push(PassDump {
                    pass: pass.name,
                    text: machine.listing(),
                });
            }
        }
        Ok(machine.finish(own)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_in_order() {
        let names = pass_names();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len(), "{names:?}");
        let at = |n: &str| names.iter().position(|k| *k == n).expect(n);
        assert!(at("lift") < at("verify"));
        assert!(at("verify") < at("saturate"));
        assert!(at("saturate") < at("extract") && at("extract") < at("elaborate"));
        assert!(at("elaborate") < at("isel") && at("isel") < at("regalloc"));
        assert_eq!(names.last(), Some(&"emit"));
    }

    #[test]
    fn dump_selection_parses_and_rejects_unknown_names() {
        assert_eq!(DumpPasses::parse("all").unwrap(), DumpPasses::All);
        assert_eq!(
            DumpPasses::parse("isel, regalloc").unwrap(),
            DumpPasses::Some(vec!["isel", "regalloc"])
        );
        assert_eq!(DumpPasses::parse("").unwrap(), DumpPasses::None);
        let err = DumpPasses::parse("isel,nope").unwrap_err().to_string();
        assert!(err.contains("`nope`") && err.contains("regalloc"), "{err}");
    }
}
