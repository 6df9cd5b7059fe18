//! The corpus cases whose SPIR-V marks arithmetic `RelaxedPrecision` (GLSL ES `mediump`),
//! compiled at -O2 with that arithmetic in f16 (`agxc::Options::relaxed_f16`) and run in the
//! simulator (`agxc_tests::run::run_relaxed_corpus`): each must match the interpreter's model
//! of the G13 on the IR it compiled (ordinary tolerances), and stay within its outputs'
//! `relaxed_tolerance` of the f32 interpreter on the lifted IR and of lavapipe's recording.
//! Each must also compute in 16 bits: at least one `fadd16`/`fmul16`/`fmadd16` in the listing,
//! and no more registers than the f32 compile.
//!
//! Debugging: `AGXC_CASES=case1,case2` runs some cases.

use std::io::Write;

use agxc_tests::run::{run_relaxed_corpus, CorpusOptions, Table};

/// Writes to the process's stderr directly: libtest captures `eprint!` of passing tests.
fn announce(text: &str) {
    let _ = writeln!(std::io::stderr(), "{text}");
}

#[test]
fn relaxed_cases_run_in_f16_within_their_tolerances() {
    let options = CorpusOptions::from_env();
    let run = run_relaxed_corpus(&options).expect("the SPIR-V corpus loads");
    let mut problems = String::new();
    for (title, corpus_run) in [
        ("relaxed-f16 vs the G13 model of its IR", &run.vs_model),
        ("relaxed-f16 vs the f32 interpreter", &run.vs_interp),
        ("relaxed-f16 vs lavapipe", &run.vs_oracle),
    ] {
        announce(&format!("{title}\n{}", Table(&corpus_run.reports)));
        let verdict = corpus_run.judge(&[]);
        announce(&format!(
            "{title}: {} passed, {} failed\n",
            verdict.passed, verdict.failed
        ));
        if !verdict.ok() {
            problems.push_str(&format!("{title}:\n{verdict}\n"));
        }
    }
    for (case, wide, half) in &run.figures {
        announce(&format!(
            "{case}: f32 {} instructions, {} halves; f16 {} instructions, {} halves, {} 16-bit \
             float arithmetic",
            wide.instructions,
            wide.gpr_halves,
            half.instructions,
            half.gpr_halves,
            half.half_arithmetic
        ));
        if half.half_arithmetic == 0 || half.gpr_halves > wide.gpr_halves {
            problems.push_str(&format!(
                "{case}: the relaxed compile should use 16-bit arithmetic and no more \
                 registers: {half:?} against f32 {wide:?}\n"
            ));
        }
    }
    if options.only.is_none() {
        assert!(
            run.figures.len() >= 2,
            "the corpus should hold relaxed cases (es_mediump_*); found {}",
            run.figures.len()
        );
    }
    assert!(problems.is_empty(), "{problems}");
}
