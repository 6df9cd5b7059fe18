//! Every SPIR-V and TGSI corpus case compiled for the G13 at -O0 and at -O2, run in the
//! simulator, and compared with the oracle's recorded outputs (lavapipe, softpipe) and with the
//! reference interpreter's model of the G13 on the IR it ran (f32 denormals flushed; at -O2 the
//! optimized IR with its fused multiply-adds), within the case's tolerances. Where the G13's
//! float behaviour changes an element, the oracle comparison checks it through the models
//! (`agxc_tests::run::numerics`).
//!
//! Any simulator error (decode, execution, the register-cache hint sanitizer, the wait checks)
//! fails the case with the error. The test prints one table per comparison and the summaries
//! `g13 vs oracles: N passed, M failed` and `g13 vs interp: ...`, and passes only if every
//! failure is covered by an allow-list entry that says why.
//!
//! Debugging: `AGXC_CASES=case1,case2` runs some cases (of both corpora);
//! `AGXC_CORPUS_DIR=dir` is not honoured here (it names one language's corpus).

use std::io::Write;
use std::time::Instant;

use agxc_tests::run::{
    run_g13_corpus, Allowance, CorpusOptions, KnownDifference, Language, OptLevel, Table,
};

/// Oracle differences that no tolerance expresses, as in `interp_vs_lavapipe.rs`: the oracle
/// or the corpus is at fault, so the G13 differs as the interpreter does. Keep in step with
/// that file's list (the reasons are there in full).
const SPIRV_ORACLE: &[KnownDifference] = &[
    KnownDifference {
        case: "sw_raytracing",
        allowance: Allowance::Elements(3),
        reason: "numerics: a ray meets two planes on their common edge; the winner depends on \
                 the last bit of normalize() (see interp_vs_lavapipe.rs)",
    },
    KnownDifference {
        case: "int_div_mod_signs",
        allowance: Allowance::Elements(336),
        reason: "oracle: lavapipe's `OpSMod` takes the dividend's sign (see \
                 interp_vs_lavapipe.rs)",
    },
];

/// As in `interp_vs_softpipe.rs`.
const TGSI_ORACLE: &[KnownDifference] = &[
    KnownDifference {
        case: "comp_texture_lod",
        allowance: Allowance::Elements(127),
        reason: "oracle: softpipe's TXF takes the quad's first lane's LOD (see \
                 interp_vs_softpipe.rs)",
    },
    KnownDifference {
        case: "temp_array_dynamic",
        allowance: Allowance::Elements(46),
        reason: "oracle: softpipe's indirect TEMP store uses the quad's first lane's index (see \
                 interp_vs_softpipe.rs)",
    },
    KnownDifference {
        case: "frag_branches_loops",
        allowance: Allowance::Elements(1024),
        reason: "implementation-defined: coarse DDX from the quad's other row (see \
                 interp_vs_softpipe.rs)",
    },
    KnownDifference {
        case: "frag_derivatives",
        allowance: Allowance::Elements(768),
        reason: "implementation-defined: coarse derivatives from the quad's other row or column \
                 (see interp_vs_softpipe.rs)",
    },
    KnownDifference {
        case: "frag_texture_cube",
        allowance: Allowance::Elements(178),
        reason: "interpreter model: softpipe filters cube maps seamlessly (see \
                 interp_vs_softpipe.rs)",
    },
];

// The G13's own float behaviours are not allow-list entries: flushed f32 denormals
// (float_specials, TGSI float_compare and fmath_special_values) and -O2's contracted
// multiply-adds (float16_math, TGSI frag_flat_int_ubo) are checked element by element against
// the interpreter's models of the G13 (`agxc_tests::run::numerics`), and sqrt as
// x * rsqrt(x) (TGSI cf_early_return) is within the tolerance Vulkan states for sqrt, in the
// case's manifest.

/// A G13-specific difference, at the levels where it shows. At a level it applies to, it
/// replaces an oracle entry for the same case, so its bound counts every differing element.
struct G13Difference {
    levels: &'static [OptLevel],
    known: KnownDifference,
}

/// G13-specific differences from lavapipe (backend bugs, with a minimal repro in the reason).
const SPIRV_G13_VS_ORACLE: &[G13Difference] = &[];

/// As [`SPIRV_G13_VS_ORACLE`], for softpipe.
const TGSI_G13_VS_ORACLE: &[G13Difference] = &[];

/// SPIR-V cases where the G13 may differ from the interpreter's model of it. A case the
/// interpreter cannot run (it reports an error) appears here too: there is nothing to compare
/// against.
const SPIRV_G13_VS_INTERP: &[G13Difference] = &[];

/// As [`SPIRV_G13_VS_INTERP`], for the TGSI corpus.
const TGSI_G13_VS_INTERP: &[G13Difference] = &[];

/// Writes to the process's stderr directly: libtest captures `eprint!` of passing tests.
fn announce(text: &str) {
    let _ = writeln!(std::io::stderr(), "{text}");
}

/// The allow-list at `level`: the G13 entries for that level, then the oracle entries for the
/// other cases.
fn allow_list(
    oracle: &[KnownDifference],
    g13: &[G13Difference],
    level: OptLevel,
) -> Vec<KnownDifference> {
    let mut list: Vec<KnownDifference> = g13
        .iter()
        .filter(|d| d.levels.contains(&level))
        .map(|d| d.known)
        .collect();
    list.extend(
        oracle
            .iter()
            .filter(|k| list.iter().all(|g| g.case != k.case))
            .copied()
            .collect::<Vec<_>>(),
    );
    list
}

#[test]
fn g13_matches_oracles_and_interpreter() {
    let start = Instant::now();
    let options = CorpusOptions {
        dir: None,
        ..CorpusOptions::from_env()
    };
    let mut totals = [(0, 0); 2];
    let mut problems = String::new();
    for (language, oracle, g13_vs_oracle, g13_vs_interp) in [
        (
            Language::Spirv,
            SPIRV_ORACLE,
            SPIRV_G13_VS_ORACLE,
            SPIRV_G13_VS_INTERP,
        ),
        (
            Language::Tgsi,
            TGSI_ORACLE,
            TGSI_G13_VS_ORACLE,
            TGSI_G13_VS_INTERP,
        ),
    ] {
        let runs = run_g13_corpus(language, &OptLevel::ALL, &options)
            .unwrap_or_else(|e| panic!("the {} corpus loads: {e}", language.name()));
        for run in &runs {
            let checks = [
                (
                    language.oracle(),
                    &run.vs_oracle,
                    allow_list(oracle, g13_vs_oracle, run.level),
                ),
                (
                    "interp",
                    &run.vs_interp,
                    allow_list(&[], g13_vs_interp, run.level),
                ),
            ];
            for (i, (against, corpus_run, known)) in checks.into_iter().enumerate() {
                let title = format!(
                    "g13 {} vs {against} ({} corpus)",
                    run.level,
                    language.name()
                );
                announce(&format!("{title}\n{}", Table(&corpus_run.reports)));
                let verdict = corpus_run.judge(&known);
                announce(&format!(
                    "{title}: {} passed, {} failed ({} of them known differences)\n",
                    verdict.passed, verdict.failed, verdict.allowed
                ));
                totals[i].0 += verdict.passed;
                totals[i].1 += verdict.failed;
                if !verdict.ok() {
                    problems.push_str(&format!("{title}:\n{verdict}\n"));
                }
            }
        }
    }
    announce(&format!(
        "g13 vs oracles: {} passed, {} failed\ng13 vs interp: {} passed, {} failed\n\
         ({:.1} s)",
        totals[0].0,
        totals[0].1,
        totals[1].0,
        totals[1].1,
        start.elapsed().as_secs_f64()
    ));
    assert!(problems.is_empty(), "{problems}");
}
