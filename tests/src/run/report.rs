//! Running one case end to end ([`run_case`]: lift, verify, execute, compare) and reporting
//! it: a [`CaseReport`] per case and a [`Table`] of them for test logs.

use std::fmt;
use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

use super::error::RunError;
use super::executor::Executor;
use super::prepare::{prepare, Language};
use crate::corpus::{compare_outputs, Case, Mismatch, Stage};

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

/// Lifts `case`, runs it on `executor` and compares with the recorded outputs. With `dump`,
/// the lifted IR (`ir.txt`) and the produced outputs (named like `expected/`'s files) are
/// written to `dump/<case>/` for inspection.
pub fn run_case(
    case: &Case,
    language: Language,
    executor: &dyn Executor,
    dump: Option<&Path>,
) -> CaseReport {
    let start = Instant::now();
    let outcome = match attempt(case, language, executor, dump) {
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
    dump: Option<&Path>,
) -> Result<Vec<Mismatch>, RunError> {
    let expected = case.read_expected()?;
    let prepared = prepare(case, language)?;
    let dir = dump.map(|d| d.join(&case.name));
    if let Some(dir) = &dir {
        write_file(&dir.join("ir.txt"), prepared.func.to_string().as_bytes())?;
    }
    let actual = executor.execute(&prepared.func, &prepared.launch)?;
    if let Some(dir) = &dir {
        for (key, bytes) in &actual.entries {
            write_file(&dir.join(key.file_name()), bytes)?;
        }
    }
    Ok(compare_outputs(
        &case.name,
        &prepared.launch.outputs,
        &expected,
        &actual,
    ))
}

fn write_file(path: &Path, bytes: &[u8]) -> Result<(), RunError> {
    let io = |source| RunError::Io {
        path: path.to_owned(),
        source,
    };
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).map_err(io)?;
    }
    fs::write(path, bytes).map_err(io)
}

/// A table of reports, one line per case (the first line of the detail, cut to fit), for
/// test logs.
pub struct Table<'a>(pub &'a [CaseReport]);

impl fmt::Display for Table<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const DETAIL: usize = 160;
        let width = self
            .0
            .iter()
            .map(|r| r.case.len())
            .max()
            .unwrap_or(4)
            .max(4);
        writeln!(
            f,
            "{:width$}  {:8}  {:8}  {:>7}  detail",
            "case", "stage", "status", "secs"
        )?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_has_one_line_per_case_with_status_and_first_detail_line() {
        let reports = [
            CaseReport {
                case: "short".into(),
                stage: Stage::Compute,
                outcome: Outcome::Passed,
                elapsed: Duration::from_millis(1500),
            },
            CaseReport {
                case: "a_longer_name".into(),
                stage: Stage::Fragment,
                outcome: Outcome::Failed(RunError::Interface {
                    case: "a_longer_name".into(),
                    what: "first\nsecond".into(),
                }),
                elapsed: Duration::ZERO,
            },
        ];
        let text = Table(&reports).to_string();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "{text}");
        assert!(
            lines[1].starts_with("short          compute   pass"),
            "{text}"
        );
        assert!(lines[1].contains("1.50"), "{text}");
        assert!(lines[2].contains("fragment  inputs"), "{text}");
        assert!(lines[2].ends_with("tgsi.toml: first ..."), "{text}");
    }
}
