//! Running a whole corpus on an executor, with the knobs a person debugging a failure needs:
//! which cases, which corpus directory, and where to dump the lifted IR and the outputs.

use std::path::PathBuf;

use super::executor::Executor;
use super::prepare::Language;
use super::report::{run_case, CaseReport};
use super::verdict::{judge, KnownDifference, Verdict};
use crate::corpus::{load_corpus, CorpusError};

/// Restricts a corpus run to some cases: comma-separated case names
/// (`AGXC_CASES=sw_pbr,frag_mrt`).
pub const CASES_ENV: &str = "AGXC_CASES";

/// A directory where every case run writes its lifted IR (`ir.txt`) and its outputs (named
/// like `expected/`'s files), under `<dir>/<language>/<case>/`.
pub const DUMP_ENV: &str = "AGXC_CORPUS_DUMP";

/// Runs another corpus directory of the same language instead of the committed one (a
/// scratch copy with a reduced shader, recorded with the oracle's recorder and `--corpus`).
pub const CORPUS_ENV: &str = "AGXC_CORPUS_DIR";

/// What to run and where to dump.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CorpusOptions {
    /// Case names to run; `None` runs all.
    pub only: Option<Vec<String>>,
    /// Dump directory.
    pub dump: Option<PathBuf>,
    /// Corpus directory; `None` is the language's committed corpus.
    pub dir: Option<PathBuf>,
}

impl CorpusOptions {
    /// The options [`CASES_ENV`], [`DUMP_ENV`] and [`CORPUS_ENV`] give.
    pub fn from_env() -> CorpusOptions {
        CorpusOptions {
            only: std::env::var(CASES_ENV)
                .ok()
                .map(|s| s.split(',').map(|n| n.trim().to_owned()).collect()),
            dump: std::env::var_os(DUMP_ENV).map(PathBuf::from),
            dir: std::env::var_os(CORPUS_ENV).map(PathBuf::from),
        }
    }
}

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

/// Runs the cases of `language`'s corpus that `options` select on `executor`.
pub fn run_corpus(
    language: Language,
    executor: &dyn Executor,
    options: &CorpusOptions,
) -> Result<CorpusRun, CorpusError> {
    let dir = options.dir.clone().unwrap_or_else(|| language.corpus_dir());
    let cases = load_corpus(&dir)?;
    let dump = options.dump.as_deref().map(|d| d.join(language.name()));
    let selected = |name: &str| {
        options
            .only
            .as_ref()
            .is_none_or(|only| only.iter().any(|n| n == name))
    };
    let reports = cases
        .iter()
        .filter(|c| selected(&c.name))
        .map(|c| run_case(c, language, executor, dump.as_deref()))
        .collect();
    Ok(CorpusRun {
        reports,
        corpus: cases.into_iter().map(|c| c.name).collect(),
    })
}
