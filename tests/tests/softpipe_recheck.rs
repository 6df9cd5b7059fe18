//! Reruns every generated TGSI case on softpipe and compares with what was recorded.
//!
//! All cases run in one Python process (`tests/softpipe/run_cases.py`). With the Mesa version the
//! corpus was recorded with, outputs must match bit for bit (NaNs match any NaN) and softpipe
//! must print the same TGSI and binding map; with another Mesa the outputs are compared within
//! each case's tolerances and the TGSI is not compared (a newer Mesa may generate different,
//! equally valid TGSI).
//!
//! Without softpipe (no virtualenv, no EGL, ...) the test prints `SKIPPED: softpipe not found`
//! and passes, unless `CI=true`, where a missing oracle is a failure.

use std::path::PathBuf;
use std::time::Instant;

use agxc_tests::corpus::{
    announce, compare_outputs, load_corpus, oracle_required, OutputSpec, Tolerance,
};
use agxc_tests::softpipe::{generated_corpus_dir, Softpipe, SoftpipeError, TgsiBindings};

#[test]
fn softpipe_reproduces_recorded_outputs() {
    let softpipe = match Softpipe::locate() {
        Ok(s) => s,
        Err(SoftpipeError::Unavailable(why)) if !oracle_required() => {
            announce(&format!("SKIPPED: softpipe not found: {why}"));
            return;
        }
        Err(e) => panic!(
            "{e} (CI=true: the softpipe oracle must be installed; install the README's apt line: the venv is made on first use)"
        ),
    };
    let cases = load_corpus(&generated_corpus_dir()).expect("the TGSI corpus loads");
    assert!(
        !cases.is_empty(),
        "no cases under {}",
        generated_corpus_dir().display()
    );
    let work = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("softpipe-recheck");
    let started = Instant::now();
    let runs = softpipe
        .run(&cases, &work)
        .expect("the softpipe harness runs");
    let elapsed = started.elapsed();

    let mut failures = Vec::new();
    let mut notes = Vec::new();
    for (case, run) in cases.iter().zip(runs) {
        let run = match run {
            Ok(r) => r,
            Err(e) => {
                failures.push(format!("case `{}`: {e}", case.name));
                continue;
            }
        };
        let recorded = match TgsiBindings::load(&case.dir) {
            Ok(b) => b,
            Err(e) => {
                failures.push(e.to_string());
                continue;
            }
        };
        let same_mesa = recorded.generator.mesa == run.bindings.generator.mesa;
        let specs: Vec<OutputSpec> = case
            .output_specs()
            .into_iter()
            .map(|mut s| {
                if same_mesa {
                    s.tolerance = Tolerance {
                        bit_exact: true,
                        ..Tolerance::default()
                    };
                }
                s
            })
            .collect();
        match case.read_expected() {
            Ok(expected) => failures.extend(
                compare_outputs(&case.name, &specs, &expected, &run.outputs)
                    .iter()
                    .map(ToString::to_string),
            ),
            Err(e) => failures.push(e.to_string()),
        }
        if same_mesa {
            let committed =
                std::fs::read_to_string(case.dir.join("shader.tgsi")).unwrap_or_default();
            if committed != run.tgsi {
                failures.push(format!(
                    "case `{}`: softpipe now prints different TGSI than shader.tgsi \
                     (re-record with `cargo run -p agxc-tests --bin record-softpipe -- {}`)",
                    case.name, case.name
                ));
            }
            if recorded != run.bindings {
                failures.push(format!(
                    "case `{}`: the binding map differs from tgsi.toml",
                    case.name
                ));
            }
        } else {
            notes.push(case.name.clone());
        }
    }
    announce(&format!(
        "softpipe recheck: {} cases in {:.2} s on {} ({})",
        cases.len(),
        elapsed.as_secs_f64(),
        softpipe.environment.renderer,
        softpipe.environment.gl_version
    ));
    if !notes.is_empty() {
        announce(&format!(
            "note: {} case(s) were recorded with another Mesa; outputs compared within tolerance, \
             TGSI not compared: {}",
            notes.len(),
            notes.join(", ")
        ));
    }
    assert!(
        failures.is_empty(),
        "{} difference(s) from the recording:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
