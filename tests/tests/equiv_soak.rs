//! The equivalence properties at soak scale: 100,000 programs over both properties, on demand
//! (`cargo test -p agxc-tests --test equiv_soak -- --ignored`, about 5 minutes on 2 cores). `AGXC_EQUIV_CASES`
//! overrides the total, `AGXC_EQUIV_SEED` the first seed (the default differs from the CI
//! tests' so the soak explores new programs).

use agxc_backend_agx::target::G13Target;
use agxc_egraph::opt::GenericTarget;
use agxc_tests::equiv::case::config;
use agxc_tests::equiv::{run, ErrorModel, OptLevel, Property, Settings};
use std::io::Write;

/// Programs over all properties unless `AGXC_EQUIV_CASES` says otherwise.
const TOTAL: u64 = 100_000;

/// The soak's first seed when `AGXC_EQUIV_SEED` is not set.
const SOAK_SEED: u64 = 0x50a4_0000_0000;

#[test]
#[ignore = "soak: 100,000 programs, run on demand"]
fn equivalence_soak() {
    let mut settings = Settings::from_env(TOTAL);
    if std::env::var_os("AGXC_EQUIV_SEED").is_none() {
        settings.seed = SOAK_SEED;
    }
    let generic = GenericTarget::new();
    let g13 = G13Target::new();
    // Each property with its configuration: i64 where the implementation compiles it.
    let properties = [
        (
            Property::Optimizer {
                target: &generic,
                model: ErrorModel::GENERIC_OPT,
            },
            config(true),
        ),
        (
            Property::Optimizer {
                target: &g13,
                model: ErrorModel::G13_OPT,
            },
            config(true),
        ),
        (Property::Backend(OptLevel::O0), config(false)),
        (Property::Backend(OptLevel::O2), config(false)),
    ];
    let share = settings.cases / properties.len() as u64;
    // One thread per property: the machine's cores share the work.
    let summaries: Vec<_> = std::thread::scope(|scope| {
        let handles: Vec<_> = properties
            .into_iter()
            .enumerate()
            .map(|(k, (property, config))| {
                let part = Settings {
                    cases: share,
                    seed: settings.seed.wrapping_add(k as u64 * share),
                    dir: settings.dir.clone(),
                };
                scope.spawn(move || run(property, &config, &part))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a property run does not panic"))
            .collect()
    });
    let (mut programs, mut mismatches, mut harness) = (0, 0, 0);
    let mut reports = Vec::new();
    for summary in summaries {
        summary.print();
        programs += summary.programs;
        mismatches += summary.mismatches;
        harness += summary.harness_errors;
        reports.extend(summary.counterexample.map(|c| c.report));
        reports.extend(summary.first_harness_error);
    }
    let _ = writeln!(
        std::io::stderr(),
        "equiv: {programs} programs, {mismatches} mismatches, {harness} harness errors"
    );
    assert!(reports.is_empty(), "{}", reports.join("\n\n"));
}
