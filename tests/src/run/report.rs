//! Running cases and judging the results: one [`CaseReport`] per case, a table of them, and
//! the verdict against an explicit allow-list of known differences.

use std::fmt;
use std::time::{Duration, Instant};

use super::error::RunError;
use super::executor::Executor;
use super::prepare::{prepare, Language};
use crate::corpus::{compare_outputs, load_corpus, Case, CorpusError, Mismatch, Stage};

/// How one case ended.
#[derive(Debug)]
pub enum Outcome {
    /// Every output within tolerance of the recording.
    Passed,
    /// The run finished but some outputs differ (one mismatch per output, naming the first
    /// differing element).
    Mismatched(Vec<Mismatch>),
    /// A step before the comparison failed.
    Failed(RunError),
}

/// The result of one case on one executor.
#[derive(Debug)]
pub struct CaseReport {
    /// The case's name.
    pub case: String,
    /// Its stage.
    pub stage: Stage,
    /// How it ended.
    pub outcome: Outcome,
    /// Lift, run and comparison time.
    pub elapsed: Duration,
}

impl CaseReport {
    /// Whether every output matched.
    pub fn passed(&self) -> bool {
        matches!(self.outcome, Outcome::Passed)
    }

    /// One word: `pass`, `mismatch`, or the failed step (`files`, `lift`, `verify`, `inputs`,
    /// `run`).
    pub fn status(&self) -> &'static str {
        match &self.outcome {
            Outcome::Passed => "pass",
            Outcome::Mismatched(_) => "mismatch",
            Outcome::Failed(e) => e.step(),
        }
    }

    /// The full explanation: every mismatching output, or the error.
    pub fn detail(&self) -> String {
        match &self.outcome {
            Outcome::Passed => String::new(),
            Outcome::Mismatched(list) => list
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("\n"),
            Outcome::Failed(e) => e.to_string(),
        }
    }
}

/// Lifts `case`, runs it on `executor` and compares with the recorded outputs.
pub fn run_case(case: &Case, language: Language, executor: &dyn Executor) -> CaseReport {
    let start = Instant::now();
    let outcome = match attempt(case, language, executor) {
        Ok(mismatches) if mismatches.is_empty() => Outcome::Passed,
        Ok(mismatches) => Outcome::Mismatched(mismatches),
        Err(e) => Outcome::Failed(e),
    };
    CaseReport {
        case: case.name.clone(),
        stage: case.manifest.stage,
        outcome,
        elapsed: start.elapsed(),
    }
}

fn attempt(
    case: &Case,
    language: Language,
    executor: &dyn Executor,
) -> Result<Vec<Mismatch>, RunError> {
    let expected = case.read_expected()?;
    let prepared = prepare(case, language)?;
    let actual = executor.execute(&prepared.func, &prepared.launch)?;
    Ok(compare_outputs(
        &case.name,
        &prepared.launch.outputs,
        &expected,
        &actual,
    ))
}

/// The environment variable that restricts a corpus run to some cases: comma-separated case
/// names (`AGXC_CASES=sw_pbr,frag_mrt`).
pub const CASES_ENV: &str = "AGXC_CASES";

/// The reports of a corpus run and the names of every case in the corpus.
#[derive(Debug)]
pub struct CorpusRun {
    /// One report per case run, in name order.
    pub reports: Vec<CaseReport>,
    /// Every case of the corpus, run or not.
    pub corpus: Vec<String>,
}

impl CorpusRun {
    /// Judges the run against an allow-list (see [`judge`]).
    pub fn judge(&self, known: &[KnownDifference]) -> Verdict<'_> {
        let names: Vec<&str> = self.corpus.iter().map(String::as_str).collect();
        judge(&self.reports, known, &names)
    }
}

/// Runs every case of `language`'s corpus on `executor`, or only those named in `only`
/// (comma-separated; see [`CASES_ENV`]).
pub fn run_corpus(
    language: Language,
    executor: &dyn Executor,
    only: Option<&str>,
) -> Result<CorpusRun, CorpusError> {
    let cases = load_corpus(&language.corpus_dir())?;
    let wanted: Option<Vec<&str>> = only.map(|s| s.split(',').map(str::trim).collect());
    let reports = cases
        .iter()
        .filter(|c| wanted.as_ref().is_none_or(|w| w.contains(&c.name.as_str())))
        .map(|c| run_case(c, language, executor))
        .collect();
    Ok(CorpusRun {
        reports,
        corpus: cases.into_iter().map(|c| c.name).collect(),
    })
}

/// A table of reports, one line per case (the first line of the detail, cut to fit), for
/// test logs.
pub struct Table<'a>(pub &'a [CaseReport]);

impl fmt::Display for Table<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const DETAIL: usize = 160;
        let width = self.0.iter().map(|r| r.case.len()).max().unwrap_or(4).max(4);
        writeln!(f, "{:width$}  {:8}  {:8}  {:>7}  detail", "case", "stage", "status", "secs")?;
        for r in self.0 {
            let detail = r.detail();
            let first = detail.lines().next().unwrap_or("");
            let cut: String = first.chars().take(DETAIL).collect();
            let more = if cut.len() < detail.len() { " ..." } else { "" };
            writeln!(
                f,
                "{:width$}  {:8}  {:8}  {:>7.2}  {cut}{more}",
                r.case,
                r.stage.name(),
                r.status(),
                r.elapsed.as_secs_f64()
            )?;
        }
        Ok(())
    }
}

/// A case allowed to fail, with the reason (a known oracle behaviour or a reported bug).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KnownDifference {
    /// The case.
    pub case: &'static str,
    /// Why it is allowed to fail, and where the fix is tracked.
    pub reason: &'static str,
}

/// The judgement of a corpus run against its allow-list.
#[derive(Debug, Default)]
pub struct Verdict<'a> {
    /// Failing cases that are not on the allow-list.
    pub unexpected: Vec<&'a CaseReport>,
    /// Allow-listed cases that now pass: the entry must go.
    pub stale: Vec<KnownDifference>,
    /// Allow-list entries naming no case of the corpus.
    pub unknown: Vec<KnownDifference>,
    /// Cases that passed.
    pub passed: usize,
    /// Cases that failed (allow-listed or not).
    pub failed: usize,
}

impl Verdict<'_> {
    /// Whether the run is acceptable: no unexpected failure and an allow-list that is exactly
    /// the set of failing cases it names.
    pub fn ok(&self) -> bool {
        self.unexpected.is_empty() && self.stale.is_empty() && self.unknown.is_empty()
    }
}

/// Judges `reports` against `known`. `corpus` names every case of the corpus, so that an entry
/// for a case left out of this run (a filtered run) is neither stale nor unknown.
pub fn judge<'a>(
    reports: &'a [CaseReport],
    known: &[KnownDifference],
    corpus: &[&str],
) -> Verdict<'a> {
    let mut v = Verdict::default();
    for r in reports {
        let listed = known.iter().find(|k| k.case == r.case);
        if r.passed() {
            v.passed += 1;
            v.stale.extend(listed.copied());
        } else {
            v.failed += 1;
            if listed.is_none() {
                v.unexpected.push(r);
            }
        }
    }
    v.unknown = known
        .iter()
        .filter(|k| !corpus.contains(&k.case))
        .copied()
        .collect();
    v
}

impl fmt::Display for Verdict<'_> {
    /// Everything that makes the run unacceptable, one item per paragraph.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in &self.unexpected {
            writeln!(f, "FAILED {} ({}):\n{}\n", r.case, r.status(), r.detail())?;
        }
        for k in &self.stale {
            writeln!(
                f,
                "STALE allow-list entry: `{}` passes now; remove it ({})",
                k.case, k.reason
            )?;
        }
        for k in &self.unknown {
            writeln!(f, "UNKNOWN allow-list entry: no case `{}`", k.case)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(case: &str, passed: bool) -> CaseReport {
        CaseReport {
            case: case.into(),
            stage: Stage::Compute,
            outcome: if passed {
                Outcome::Passed
            } else {
                Outcome::Mismatched(Vec::new())
            },
            elapsed: Duration::ZERO,
        }
    }

    const KNOWN: [KnownDifference; 3] = [
        KnownDifference {
            case: "b",
            reason: "known",
        },
        KnownDifference {
            case: "c",
            reason: "fixed since",
        },
        KnownDifference {
            case: "gone",
            reason: "renamed",
        },
    ];

    #[test]
    fn verdict_separates_unexpected_stale_and_unknown() {
        let reports = [
            report("a", false),
            report("b", false),
            report("c", true),
            report("d", true),
        ];
        let v = judge(&reports, &KNOWN, &["a", "b", "c", "d"]);
        assert_eq!((v.passed, v.failed), (2, 2));
        assert_eq!(
            v.unexpected.iter().map(|r| r.case.as_str()).collect::<Vec<_>>(),
            ["a"]
        );
        assert_eq!(v.stale, [KNOWN[1]]);
        assert_eq!(v.unknown, [KNOWN[2]]);
        assert!(!v.ok());
        let text = v.to_string();
        assert!(text.contains("FAILED a (mismatch)"), "{text}");
        assert!(text.contains("STALE") && text.contains("`c`"), "{text}");
        assert!(text.contains("no case `gone`"), "{text}");
    }

    #[test]
    fn allow_listed_failures_alone_are_acceptable() {
        let reports = [report("a", true), report("b", false)];
        let v = judge(&reports, &KNOWN[..1], &["a", "b"]);
        assert!(v.ok(), "{v}");
        // A filtered run: `c` exists but was not run, so its entry is not judged.
        let v = judge(&reports, &KNOWN[..2], &["a", "b", "c"]);
        assert!(v.ok(), "{v}");
        let table = Table(&reports).to_string();
        assert!(table.contains("b ") && table.contains("mismatch"), "{table}");
    }
}
