//! Finding the Python harness and running cases through it, all in one process.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::bindings::{Generator, TgsiBindings};
use super::error::SoftpipeError;
use super::jobs::{job_for, Environment, JobFile, ResultFile};
use crate::corpus::{Case, Outputs};

/// How the TGSI in a generated case was obtained (recorded in `tgsi.toml`).
pub const GENERATOR_HOW: &str =
    "tests/softpipe/run_cases.py: SOFTPIPE_DEBUG=fs,cs dump of the case's GLSL, linked by Mesa's \
     GL driver on softpipe (EGL surfaceless)";

/// The Python harness and the interpreter that runs it.
#[derive(Debug, Clone)]
pub struct Softpipe {
    /// The virtualenv's Python.
    pub python: PathBuf,
    /// `tests/softpipe/run_cases.py`.
    pub script: PathBuf,
    /// What the probe reported.
    pub environment: Environment,
}

/// One case's run: its outputs, the TGSI softpipe generated and the binding map.
#[derive(Debug, Clone)]
pub struct CaseRun {
    /// The outputs, keyed as the corpus keys them.
    pub outputs: Outputs,
    /// `shader.tgsi` as softpipe printed it.
    pub tgsi: String,
    /// The register map, with the generator filled in.
    pub bindings: TgsiBindings,
    /// Seconds the harness spent on the case.
    pub seconds: f64,
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_owned)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")))
}

/// The harness's virtualenv: `$SOFTPIPE_VENV`, else `<workspace>/target/softpipe-venv`.
pub fn venv_path() -> PathBuf {
    std::env::var_os("SOFTPIPE_VENV")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("target").join("softpipe-venv"))
}

/// The Python to use: `$SOFTPIPE_PYTHON`, else the venv's ([`venv_path`]).
pub fn python_path() -> PathBuf {
    if let Some(p) = std::env::var_os("SOFTPIPE_PYTHON") {
        return PathBuf::from(p);
    }
    venv_path().join("bin").join("python")
}

fn tail(text: &[u8]) -> String {
    let text = String::from_utf8_lossy(text);
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(20)..].join("\n")
}

impl Softpipe {
    /// Finds the harness and checks (with `--probe`) that softpipe works here. Without
    /// `$SOFTPIPE_PYTHON`, the venv is made (or brought up to date) first ([`super::venv`]).
    pub fn locate() -> Result<Softpipe, SoftpipeError> {
        let python = match std::env::var_os("SOFTPIPE_PYTHON") {
            Some(_) => python_path(),
            None => super::venv::ensure(&venv_path())?,
        };
        let script = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("softpipe")
            .join("run_cases.py");
        if !python.is_file() {
            return Err(SoftpipeError::Unavailable(format!(
                "no Python at {} (SOFTPIPE_PYTHON)",
                python.display()
            )));
        }
        let out = Command::new(&python)
            .env("PYTHONDONTWRITEBYTECODE", "1")
            .arg(&script)
            .arg("--probe")
            .output()
            .map_err(|e| SoftpipeError::Unavailable(format!("{}: {e}", python.display())))?;
        let stdout = String::from_utf8_lossy(&out.stdout);
        let probe: serde_json::Value = serde_json::from_str(stdout.trim()).map_err(|_| {
            SoftpipeError::Unavailable(format!(
                "the probe printed no report (exit {}): {}",
                out.status,
                tail(&out.stderr)
            ))
        })?;
        if probe.get("available") != Some(&serde_json::Value::Bool(true)) {
            let reason = probe
                .get("reason")
                .and_then(|r| r.as_str())
                .unwrap_or("unknown reason");
            return Err(SoftpipeError::Unavailable(reason.to_owned()));
        }
        let environment: Environment =
            serde_json::from_value(probe).map_err(|e| SoftpipeError::Json {
                path: "probe".into(),
                message: e.to_string(),
            })?;
        Ok(Softpipe {
            python,
            script,
            environment,
        })
    }

    /// Runs `cases` in one Python process, using `work` for inputs and outputs. Returns one
    /// result per case, in order: `Err(message)` for a case the harness could not run.
    pub fn run(
        &self,
        cases: &[Case],
        work: &Path,
    ) -> Result<Vec<Result<CaseRun, String>>, SoftpipeError> {
        let io = |path: &Path| {
            let path = path.to_owned();
            move |source| SoftpipeError::Io { path, source }
        };
        fs::create_dir_all(work).map_err(io(work))?;
        let jobs = JobFile {
            cases: cases
                .iter()
                .map(|c| job_for(c, work))
                .collect::<Result<_, _>>()?,
        };
        let jobs_path = work.join("jobs.json");
        let results_path = work.join("results.json");
        let text = serde_json::to_string_pretty(&jobs).map_err(|e| SoftpipeError::Json {
            path: jobs_path.clone(),
            message: e.to_string(),
        })?;
        fs::write(&jobs_path, text).map_err(io(&jobs_path))?;
        let _ = fs::remove_file(&results_path);
        let out = Command::new(&self.python)
            .env("PYTHONDONTWRITEBYTECODE", "1")
            .arg(&self.script)
            .arg("--jobs")
            .arg(&jobs_path)
            .arg("--results")
            .arg(&results_path)
            .output()
            .map_err(|e| SoftpipeError::Harness {
                program: self.python.display().to_string(),
                message: e.to_string(),
            })?;
        // Exit 1 means some case failed; its record says why. Anything else is the harness's own
        // failure.
        if !matches!(out.status.code(), Some(0 | 1)) || !results_path.is_file() {
            return Err(SoftpipeError::Harness {
                program: format!("{} {}", self.python.display(), self.script.display()),
                message: format!("exit {}: {}", out.status, tail(&out.stderr)),
            });
        }
        let text = fs::read_to_string(&results_path).map_err(io(&results_path))?;
        let results: ResultFile = serde_json::from_str(&text).map_err(|e| SoftpipeError::Json {
            path: results_path.clone(),
            message: e.to_string(),
        })?;
        cases
            .iter()
            .map(|case| {
                let Some(r) = results.cases.iter().find(|r| r.name == case.name) else {
                    return Ok(Err("the harness returned no record".to_owned()));
                };
                if !r.ok {
                    return Ok(Err(r.error.clone().unwrap_or_else(|| "failed".into())));
                }
                let mut outputs = Outputs::default();
                for spec in case.output_specs() {
                    let Some(path) = r.outputs.get(&spec.key.file_name()) else {
                        continue;
                    };
                    outputs.insert(spec.key, fs::read(path).map_err(io(path))?);
                }
                let (Some(tgsi), Some(b)) = (r.tgsi.clone(), r.bindings.clone()) else {
                    return Ok(Err("the record has no TGSI or binding map".to_owned()));
                };
                Ok(Ok(CaseRun {
                    outputs,
                    tgsi,
                    bindings: TgsiBindings {
                        generator: Generator {
                            renderer: results.environment.renderer.clone(),
                            mesa: results.environment.mesa.clone(),
                            how: GENERATOR_HOW.to_owned(),
                        },
                        storage: b.storage,
                        uniform: b.uniform,
                        texture: b.texture,
                        image: b.image,
                        input: b.input,
                        output: b.output,
                        state: b.state,
                    },
                    seconds: r.seconds,
                }))
            })
            .collect()
    }
}
