//! Filetests in the Cranelift style: one text file per test under `tests/filetests/`, holding
//! what it runs, its input and the output it expects, so that every change in what the
//! optimizer or the backend produces shows up as a diff of a text file in review.
//!
//! ```text
//! test compile target g13 -O0        <- the header: what to run (first lines, no `;`)
//! ; free comments                    <- the input: graph-IR text or SPIR-V assembly
//! function @f compute { ... }
//!
//! ; expected:                        <- the marker, then the expected output, each line
//! ; 0: ...                              behind `; ` (comments for both the IR parser and
//!                                       spirv-as, so the whole file stays valid input)
//! ```
//!
//! The kinds ([`Kind`]):
//! - `test optimize`: the IR (with the G13's operations) through the library's pipeline at
//!   `-O2` up to the backend (`agxc::optimize`); the expected output is the optimized IR.
//! - `test compile target g13 [-O0|-O2]` (default `-O2`): the IR through the whole pipeline
//!   (`agxc::compile`); the expected output is the code statistics and the disassembly (then
//!   the preamble's, when there is one; bytes
//!   included, so encodings are covered too).
//! - `test lift spirv`: SPIR-V assembly lifted (`agxc::lift`); the expected output is the
//!   lifted IR.
//!
//! A `.ir` file holds graph-IR text; a `.spvasm` file SPIR-V assembly, which `spirv-as` assembles
//! before any kind runs (so `test optimize` and `test compile` take SPIR-V too).
//!
//! `AGXC_BLESS=1` rewrites each file's expected section with what the test produced (review
//! the diff before committing). [`run_file`] runs one file; the `filetests` test target walks
//! the tree.

mod diff;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

pub use diff::line_diff;

/// The line that separates the input from the expected output.
pub const MARKER: &str = "; expected:";

/// The environment variable that rewrites expected outputs instead of comparing them.
pub const BLESS_ENV: &str = "AGXC_BLESS";

/// What a filetest runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// IR to optimized IR.
    Optimize,
    /// IR to G13 statistics and disassembly at this level.
    Compile(agxc::OptLevel),
    /// SPIR-V assembly to lifted IR.
    LiftSpirv,
}

/// A parsed filetest.
#[derive(Clone, Debug)]
pub struct FileTest {
    /// What it runs.
    pub kind: Kind,
    /// The header lines as written.
    pub header: String,
    /// The input (without the header).
    pub input: String,
    /// The expected output (the marker's `; ` prefixes removed); `None` without a marker.
    pub expected: Option<String>,
    /// The input is SPIR-V assembly (a `.spvasm` file), assembled before any kind runs.
    pub spirv: bool,
}

/// Why a filetest did not pass.
#[derive(Debug, thiserror::Error)]
pub enum FileTestError {
    /// The file is not a filetest.
    #[error("{path}: {what}")]
    Format {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        what: String,
    },
    /// The input did not go through (lift, optimize or compile failed).
    #[error("{path}: {what}")]
    Run {
        /// The file.
        path: PathBuf,
        /// What failed.
        what: String,
    },
    /// The output differs from the expected one.
    #[error("{path}: the output differs from the expected one (- expected, + actual; rerun with AGXC_BLESS=1 to accept):\n{diff}")]
    Mismatch {
        /// The file.
        path: PathBuf,
        /// The line diff.
        diff: String,
    },
}

impl FileTest {
    /// Parses a filetest's text; `path` names it in errors.
    pub fn parse(path: &Path, text: &str) -> Result<FileTest, FileTestError> {
        let format = |what: String| FileTestError::Format {
            path: path.to_owned(),
            what,
        };
        let mut lines = text.lines().peekable();
        let mut header = String::new();
        while let Some(line) = lines.next_if(|l| l.starts_with("test ")) {
            header += line;
            header.push('\n');
        }
        let words: Vec<&str> = header.split_whitespace().collect();
        let kind = match words.as_slice() {
            ["test", "optimize"] => Kind::Optimize,
            ["test", "compile", "target", "g13"] | ["test", "compile", "target", "g13", "-O2"] => {
                Kind::Compile(agxc::OptLevel::O2)
            }
            ["test", "compile", "target", "g13", "-O0"] => Kind::Compile(agxc::OptLevel::O0),
            ["test", "lift", "spirv"] => Kind::LiftSpirv,
            _ => {
                return Err(format(format!(
                    "line 1: the header `{}` is none of `test optimize`, `test compile target \
                     g13 [-O0|-O2]`, `test lift spirv`",
                    header.trim()
                )))
            }
        };
        let mut input = String::new();
        let mut expected = None;
        for line in lines.by_ref() {
            if line.trim_end() == MARKER {
                expected = Some(String::new());
                break;
            }
            input += line;
            input.push('\n');
        }
        if let Some(out) = &mut expected {
            for line in lines {
                let body = line
                    .strip_prefix("; ")
                    .or_else(|| line.strip_prefix(';'))
                    .ok_or_else(|| {
                        format(format!(
                            "expected output line `{line}` does not start with `;`"
                        ))
                    })?;
                out.push_str(body);
                out.push('\n');
            }
        }
        let spirv = path.extension().is_some_and(|e| e == "spvasm");
        if kind == Kind::LiftSpirv && !spirv {
            return Err(format("`test lift spirv` needs a .spvasm file".into()));
        }
        Ok(FileTest {
            kind,
            header,
            input,
            expected,
            spirv,
        })
    }

    /// The file's text with `output` as its expected section.
    pub fn blessed(&self, output: &str) -> String {
        let mut text = format!("{}{}", self.header, self.input.trim_end());
        let _ = write!(text, "\n\n{MARKER}\n");
        for line in output.lines() {
            if line.is_empty() {
                text += ";\n";
            } else {
                let _ = writeln!(text, "; {line}");
            }
        }
        text
    }

    /// The source the pipeline gets: the IR text, or the SPIR-V assembled.
    fn source(&self) -> Result<Vec<u8>, String> {
        if self.spirv {
            assemble(&self.input)
        } else {
            Ok(self.input.clone().into_bytes())
        }
    }

    /// Runs the test and returns its output.
    pub fn output(&self) -> Result<String, String> {
        let source = self.source()?;
        match self.kind {
            Kind::Optimize => {
                let opts = agxc::Options {
                    opt_level: agxc::OptLevel::O2,
                    ..agxc::Options::default()
                };
                let out = agxc::optimize(&source, &opts).map_err(|e| e.to_string())?;
                let func = out.ir_opt.ok_or("the optimizer did not run")?;
                Ok(func.to_string())
            }
            Kind::Compile(opt_level) => {
                let opts = agxc::Options {
                    opt_level,
                    ..agxc::Options::default()
                };
                let c = agxc::compile(&source, &opts).map_err(|e| e.to_string())?;
                let mut out = format!("{}\n\n{}", c.binary.report(), c.binary.disassembly);
                if let Some(p) = &c.binary.preamble {
                    out.push_str(&format!("\npreamble:\n{}", p.disassembly));
                }
                Ok(out)
            }
            Kind::LiftSpirv => {
                let (_, func) =
                    agxc::lift(&source, &agxc::Options::default()).map_err(|e| e.to_string())?;
                Ok(func.to_string())
            }
        }
    }
}

/// Assembles SPIR-V assembly with `spirv-as` (for Vulkan 1.1, as the corpus's assembly cases).
fn assemble(text: &str) -> Result<Vec<u8>, String> {
    let dir = std::env::temp_dir().join(format!("agxc-filetest-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let src = dir.join(format!("{stamp}.spvasm"));
    let out = dir.join(format!("{stamp}.spv"));
    std::fs::write(&src, text).map_err(|e| e.to_string())?;
    let run = Command::new("spirv-as")
        .args(["--target-env", "vulkan1.1", "-o"])
        .arg(&out)
        .arg(&src)
        .output()
        .map_err(|e| format!("spirv-as could not be started ({e}); install spirv-tools"))?;
    let _ = std::fs::remove_file(&src);
    if !run.status.success() {
        return Err(format!(
            "spirv-as: {}",
            String::from_utf8_lossy(&run.stderr).trim()
        ));
    }
    let bytes = std::fs::read(&out).map_err(|e| e.to_string());
    let _ = std::fs::remove_file(&out);
    bytes
}

/// Runs the filetest at `path`: compares its output with the expected section, or with
/// `bless` rewrites the section (and passes).
pub fn run_file(path: &Path, bless: bool) -> Result<(), FileTestError> {
    let text = std::fs::read_to_string(path).map_err(|e| FileTestError::Format {
        path: path.to_owned(),
        what: e.to_string(),
    })?;
    let test = FileTest::parse(path, &text)?;
    let output = test.output().map_err(|what| FileTestError::Run {
        path: path.to_owned(),
        what,
    })?;
    if bless {
        let blessed = test.blessed(&output);
        if blessed != text {
            std::fs::write(path, blessed).map_err(|e| FileTestError::Format {
                path: path.to_owned(),
                what: e.to_string(),
            })?;
        }
        return Ok(());
    }
    let expected = test.expected.as_deref().unwrap_or("");
    if expected.trim_end() == output.trim_end() {
        return Ok(());
    }
    Err(FileTestError::Mismatch {
        path: path.to_owned(),
        diff: line_diff(expected.trim_end(), output.trim_end()),
    })
}

/// Every `*.ir` and `*.spvasm` file under `dir`, sorted.
pub fn collect(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d)? {
            let path = entry?.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "ir" || e == "spvasm") {
                out.push(path);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// The filetest tree.
pub fn filetests_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("filetests")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_blesses_round_trip() {
        let text = "test compile target g13 -O0\n; a note\nfunction @f compute {\n}\n\n\
                    ; expected:\n; line one\n;\n; line three\n";
        let t = FileTest::parse(Path::new("t.ir"), text).expect("parses");
        assert_eq!(t.kind, Kind::Compile(agxc::OptLevel::O0));
        assert_eq!(t.input, "; a note\nfunction @f compute {\n}\n\n");
        assert_eq!(t.expected.as_deref(), Some("line one\n\nline three\n"));
        assert_eq!(t.blessed("line one\n\nline three\n"), text);
    }

    #[test]
    fn rejects_unknown_headers() {
        let err = FileTest::parse(Path::new("t.ir"), "test frobnicate\n").unwrap_err();
        assert!(err.to_string().contains("t.ir: line 1"), "{err}");
        let err = FileTest::parse(Path::new("t.ir"), "test lift spirv\n").unwrap_err();
        assert!(err.to_string().contains(".spvasm"), "{err}");
    }
}
