//! Running a property over many random cases: reproducible seeds, a configurable count,
//! shrinking of the first failure, and a one-line summary.
//!
//! Environment:
//! - `AGXC_EQUIV_CASES`: programs per property run (each test has its own default);
//! - `AGXC_EQUIV_SEED`: the first seed (case `i` uses seed `AGXC_EQUIV_SEED + i`; default
//!   fixed, so CI is deterministic; set it to explore);
//! - `AGXC_EQUIV_DIR`: where failure directories go (default `target/equiv-failures`).
//!
//! The first failing case is shrunk (smaller programs, then simpler inputs, keeping any
//! candidate that still fails, within [`SHRINK_BUDGET`] checks and [`SHRINK_TIME`]) and reported
//! ([`crate::equiv::report`]); the run goes on counting mismatches over the remaining cases
//! without shrinking them.

use crate::equiv::bounds::Coverage;
use crate::equiv::case::Case;
use crate::equiv::check::{check, Failure, Outcome, Property};
use crate::equiv::report;
use agxc_egraph::ir::arbitrary::Config;
use std::fmt;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The first seed when `AGXC_EQUIV_SEED` is not set.
pub const DEFAULT_SEED: u64 = 0x0a9c_e001;

/// Checks shrinking may spend on one failure.
pub const SHRINK_BUDGET: usize = 4000;

/// Time shrinking may spend on one failure: a candidate that loops until the simulator's step
/// limit takes seconds to check, so the check budget alone could take hours.
pub const SHRINK_TIME: Duration = Duration::from_secs(120);

/// How a property run is configured.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Cases to check.
    pub cases: u64,
    /// The first seed.
    pub seed: u64,
    /// Where failure reports are written.
    pub dir: PathBuf,
}

impl Settings {
    /// From the environment, with `default_cases` when `AGXC_EQUIV_CASES` is not set.
    pub fn from_env(default_cases: u64) -> Settings {
        let number = |name: &str| {
            std::env::var(name).ok().and_then(|v| {
                let v = v.trim();
                match v.strip_prefix("0x") {
                    Some(hex) => u64::from_str_radix(hex, 16).ok(),
                    None => v.parse().ok(),
                }
            })
        };
        Settings {
            cases: number("AGXC_EQUIV_CASES").unwrap_or(default_cases),
            seed: number("AGXC_EQUIV_SEED").unwrap_or(DEFAULT_SEED),
            dir: std::env::var_os("AGXC_EQUIV_DIR")
                .map(PathBuf::from)
                .unwrap_or_else(default_dir),
        }
    }
}

/// `target/equiv-failures` under the build's target directory.
fn default_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target"));
    target.join("equiv-failures")
}

/// A shrunk failure.
#[derive(Clone, Debug)]
pub struct Counterexample {
    /// The seed of the original case.
    pub seed: u64,
    /// The shrunk case.
    pub case: Case,
    /// What fails on it.
    pub failure: Box<Failure>,
    /// The report text (also printed and written to the failure directory).
    pub report: String,
    /// The failure directory, if it could be written.
    pub dir: Option<PathBuf>,
}

/// What a property run found.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// The property's name.
    pub property: String,
    /// Programs checked.
    pub programs: u64,
    /// Cases that failed.
    pub mismatches: u64,
    /// Cases the harness could not check (each one a bug to fix; the tests require zero).
    pub harness_errors: u64,
    /// The first harness error.
    pub first_harness_error: Option<String>,
    /// What was compared, over the passing cases.
    pub coverage: Coverage,
    /// Uncertain branch conditions over all passing cases.
    pub flips: u64,
    /// Cases where the optimizer fell back to its input.
    pub fallbacks: u64,
    /// Instructions of the generated functions, summed.
    pub insts: u64,
    /// The first failure, shrunk.
    pub counterexample: Option<Counterexample>,
    /// Wall time.
    pub elapsed: Duration,
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = self.coverage;
        let stored = (c.exact + c.bounded + c.unknown).max(1) as f64;
        let pct = |n: u64| 100.0 * n as f64 / stored;
        write!(
            f,
            "equiv {}: {} programs, {} mismatches, {} harness errors ({:.1}s; {:.1} instructions \
             per program; of {} stored values, {:.1}% compared exactly, {:.1}% within a bound, \
             {:.1}% not compared; {} output bytes not compared after {} uncertain branches; {} \
             optimizer fallbacks)",
            self.property,
            self.programs,
            self.mismatches,
            self.harness_errors,
            self.elapsed.as_secs_f64(),
            self.insts as f64 / self.programs.max(1) as f64,
            c.exact + c.bounded + c.unknown,
            pct(c.exact),
            pct(c.bounded),
            pct(c.unknown),
            c.unknown_bytes,
            self.flips,
            self.fallbacks
        )
    }
}

impl Summary {
    /// Prints the summary line to stderr, past the test harness's output capture (which only
    /// catches the `print!` macros), so that every run shows its count.
    pub fn print(&self) {
        use std::io::Write;
        let _ = writeln!(std::io::stderr(), "{self}");
    }

    /// Panics with the shrunk counterexample's report or the first harness error, if any.
    pub fn assert_clean(&self) {
        if let Some(c) = &self.counterexample {
            panic!(
                "{} of {} programs failed; the first, shrunk:\n{}",
                self.mismatches, self.programs, c.report
            );
        }
        if let Some(e) = &self.first_harness_error {
            panic!("the harness could not check a case: {e}");
        }
        assert_eq!((self.mismatches, self.harness_errors), (0, 0));
    }
}

/// Checks `property` on `settings.cases` cases drawn under `config`.
pub fn run(property: Property<'_>, config: &Config, settings: &Settings) -> Summary {
    let start = Instant::now();
    let mut summary = Summary {
        property: property.name(),
        ..Summary::default()
    };
    for i in 0..settings.cases {
        let seed = settings.seed.wrapping_add(i);
        let case = Case::generate(seed, config);
        summary.programs += 1;
        match check(&case, property, false) {
            Outcome::Pass(p) => {
                summary.coverage += p.coverage;
                summary.flips += u64::from(p.flips);
                summary.fallbacks += u64::from(p.fallback);
                summary.insts += p.insts as u64;
            }
            Outcome::Fail(failure) => {
                summary.mismatches += 1;
                if summary.counterexample.is_none() {
                    summary.counterexample =
                        Some(counterexample(seed, case, failure, property, settings));
                }
            }
            Outcome::Harness(e) => {
                summary.harness_errors += 1;
                if summary.first_harness_error.is_none() {
                    summary.first_harness_error =
                        Some(format!("seed {seed:#x}: {e}\n{}", case.recipe.lower()));
                }
            }
        }
    }
    summary.elapsed = start.elapsed();
    summary
}

/// Shrinks the failing `case` (whose check gave `failure`) and writes its report.
pub fn counterexample(
    seed: u64,
    case: Case,
    failure: Box<Failure>,
    property: Property<'_>,
    settings: &Settings,
) -> Counterexample {
    let (case, failure) = shrink(case, failure, property);
    // Once more with the e-graph dump, which the shrinking checks leave out.
    let failure = match check(&case, property, true) {
        Outcome::Fail(f) => f,
        _ => failure,
    };
    let text = report::text(&property.name(), Some(seed), &case, &failure);
    eprintln!("{text}");
    let dir = report::write(
        &settings.dir,
        &property.name(),
        seed,
        &case,
        &failure,
        &text,
    )
    .map_err(|e| eprintln!("equiv: could not write the failure directory: {e}"))
    .ok();
    if let Some(d) = &dir {
        eprintln!("equiv: failure files in {}", d.display());
    }
    Counterexample {
        seed,
        case,
        failure,
        report: text,
        dir,
    }
}

/// Greedy shrinking: take the first smaller candidate that still fails, until none does or
/// the budget of [`SHRINK_BUDGET`] checks or [`SHRINK_TIME`] is spent. Returns the smallest
/// failing case and its failure.
pub fn shrink(
    mut case: Case,
    mut failure: Box<Failure>,
    property: Property<'_>,
) -> (Case, Box<Failure>) {
    let mut budget = SHRINK_BUDGET;
    let start = Instant::now();
    'outer: while budget > 0 {
        for candidate in case.shrink() {
            if budget == 0 || start.elapsed() > SHRINK_TIME {
                break 'outer;
            }
            budget -= 1;
            if let Outcome::Fail(f) = check(&candidate, property, false) {
                case = candidate;
                failure = f;
                continue 'outer;
            }
        }
        break;
    }
    (case, failure)
}
