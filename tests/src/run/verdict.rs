//! Judging a corpus run against an explicit allow-list of known differences.
//!
//! An allow-list entry names a case, says why it may fail, and bounds how: either any failure
//! (a feature the IR does not have, so the lift fails) or mismatches touching at most a given
//! number of elements in total, so that the rest of the case stays checked and a new
//! difference in it still fails the run. Entries must stay true: one for a case that passes is
//! stale, one for a case the corpus does not have is unknown, and both fail the run.

use std::fmt;

use super::report::{CaseReport, Outcome};
use crate::corpus::Difference;

/// How a known difference may show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Allowance {
    /// Any failure, including lift errors (for features the IR does not have).
    AnyFailure,
    /// Mismatching outputs only, with at most this many differing elements over all outputs.
    Elements(usize),
}

/// A case allowed to fail, with the reason (a known oracle behaviour or a reported bug).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KnownDifference {
    /// The case.
    pub case: &'static str,
    /// How it may fail.
    pub allowance: Allowance,
    /// Why it is allowed to fail, and where the fix is tracked.
    pub reason: &'static str,
}

impl KnownDifference {
    /// Whether `report`'s failure is within this entry's allowance.
    pub fn covers(&self, report: &CaseReport) -> bool {
        match (self.allowance, &report.outcome) {
            (_, Outcome::Passed) => false,
            (Allowance::AnyFailure, _) => true,
            (Allowance::Elements(max), Outcome::Mismatched(list)) => {
                let mut differing = 0;
                for m in list {
                    match m.difference {
                        Difference::Element { count, .. } => differing += count,
                        Difference::Missing | Difference::Size { .. } => return false,
                    }
                }
                differing <= max
            }
            (Allowance::Elements(_), Outcome::Failed(_)) => false,
        }
    }
}

/// The judgement of a corpus run against its allow-list.
#[derive(Debug, Default)]
pub struct Verdict<'a> {
    /// Failing cases not covered by the allow-list.
    pub unexpected: Vec<&'a CaseReport>,
    /// Allow-listed cases that now pass: the entry must go.
    pub stale: Vec<KnownDifference>,
    /// Allow-list entries naming no case of the corpus.
    pub unknown: Vec<KnownDifference>,
    /// Cases that passed.
    pub passed: usize,
    /// Cases that failed (allow-listed or not).
    pub failed: usize,
    /// Failing cases covered by the allow-list.
    pub allowed: usize,
}

impl Verdict<'_> {
    /// Whether the run is acceptable: no unexpected failure and an allow-list that is exactly
    /// true of this run.
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
            continue;
        }
        v.failed += 1;
        if listed.is_some_and(|k| k.covers(r)) {
            v.allowed += 1;
        } else {
            v.unexpected.push(r);
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
    use std::time::Duration;

    use super::*;
    use crate::corpus::{Mismatch, OutputKey, OutputSpec, ScalarType, Stage, Tolerance};

    fn mismatch(count: usize) -> Mismatch {
        Mismatch {
            case: "x".into(),
            spec: OutputSpec {
                key: OutputKey::Buffer { set: 0, binding: 0 },
                bytes: 64,
                elem: ScalarType::F32,
                tolerance: Tolerance::default(),
                row_pixels: None,
            },
            difference: Difference::Element {
                index: 0,
                expected: 0,
                actual: 1,
                count,
                total: 16,
            },
        }
    }

    fn report(case: &str, outcome: Outcome) -> CaseReport {
        CaseReport {
            case: case.into(),
            stage: Stage::Compute,
            outcome,
            elapsed: Duration::ZERO,
        }
    }

    fn known(case: &'static str, allowance: Allowance) -> KnownDifference {
        KnownDifference {
            case,
            allowance,
            reason: "test",
        }
    }

    #[test]
    fn verdict_separates_unexpected_stale_and_unknown() {
        let reports = [
            report("a", Outcome::Mismatched(vec![mismatch(1)])),
            report("b", Outcome::Mismatched(vec![mismatch(3)])),
            report("c", Outcome::Passed),
            report("d", Outcome::Passed),
        ];
        let list = [
            known("b", Allowance::AnyFailure),
            known("c", Allowance::AnyFailure),
            known("gone", Allowance::AnyFailure),
        ];
        let v = judge(&reports, &list, &["a", "b", "c", "d"]);
        assert_eq!((v.passed, v.failed, v.allowed), (2, 2, 1));
        let unexpected: Vec<_> = v.unexpected.iter().map(|r| r.case.as_str()).collect();
        assert_eq!(unexpected, ["a"]);
        assert_eq!(v.stale, [list[1]]);
        assert_eq!(v.unknown, [list[2]]);
        assert!(!v.ok());
        let text = v.to_string();
        assert!(text.contains("FAILED a (mismatch)"), "{text}");
        assert!(text.contains("STALE") && text.contains("`c`"), "{text}");
        assert!(text.contains("no case `gone`"), "{text}");
    }

    #[test]
    fn element_allowance_bounds_the_difference() {
        let two = report("a", Outcome::Mismatched(vec![mismatch(1), mismatch(1)]));
        let three = report("a", Outcome::Mismatched(vec![mismatch(2), mismatch(1)]));
        let entry = known("a", Allowance::Elements(2));
        assert!(entry.covers(&two));
        assert!(!entry.covers(&three), "3 differing elements exceed 2");
        let mut missing = mismatch(0);
        missing.difference = Difference::Missing;
        assert!(!entry.covers(&report("a", Outcome::Mismatched(vec![missing]))));
        assert!(known("a", Allowance::AnyFailure).covers(&three));
        assert!(!entry.covers(&report("a", Outcome::Passed)));
    }

    #[test]
    fn filtered_runs_judge_only_what_ran() {
        let reports = [report("a", Outcome::Passed)];
        // `c` exists but was not run: its entry is neither stale nor unknown.
        let v = judge(&reports, &[known("c", Allowance::AnyFailure)], &["a", "c"]);
        assert!(v.ok(), "{v}");
        assert_eq!((v.passed, v.failed), (1, 0));
    }
}
