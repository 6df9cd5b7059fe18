//! Records softpipe's results for the generated TGSI corpus (`tests/corpus/tgsi/gen/`).
//!
//! For every case (or the cases named on the command line) it runs the GLSL on softpipe through
//! `tests/softpipe/run_cases.py` and writes, into the case directory:
//! - `shader.tgsi`: the TGSI softpipe printed for the shader;
//! - `tgsi.toml`: the GLSL-to-TGSI register map ([`agxc_tests::softpipe::TgsiBindings`]);
//! - `expected/`: the outputs, as `agxc_tests::corpus` names them.
//!
//! Usage: `cargo run -p agxc-tests --bin record-softpipe [--check] [CASE...]`. With `--check`
//! nothing is written; the run only reports which files would change.

use std::fs;
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use agxc_tests::corpus::{load_corpus, Case};
use agxc_tests::softpipe::{generated_corpus_dir, CaseRun, Softpipe, BINDINGS_FILE};

fn differs(path: &Path, bytes: &[u8]) -> bool {
    fs::read(path).map_or(true, |old| old != bytes)
}

fn record(case: &Case, run: &CaseRun, check: bool) -> Result<Vec<String>, String> {
    let mut changed = Vec::new();
    let tgsi_path = case.dir.join("shader.tgsi");
    if differs(&tgsi_path, run.tgsi.as_bytes()) {
        changed.push("shader.tgsi".to_owned());
    }
    let bindings = run.bindings.to_toml().map_err(|e| e.to_string())?;
    let bindings_path = case.dir.join(BINDINGS_FILE);
    if differs(&bindings_path, bindings.as_bytes()) {
        changed.push(BINDINGS_FILE.to_owned());
    }
    for (key, bytes) in &run.outputs.entries {
        if differs(&case.expected_dir().join(key.file_name()), bytes) {
            changed.push(format!("expected/{}", key.file_name()));
        }
    }
    if !check {
        fs::write(&tgsi_path, &run.tgsi).map_err(|e| format!("{}: {e}", tgsi_path.display()))?;
        fs::write(&bindings_path, bindings)
            .map_err(|e| format!("{}: {e}", bindings_path.display()))?;
        case.write_expected(&run.outputs)
            .map_err(|e| e.to_string())?;
    }
    Ok(changed)
}

fn main() -> ExitCode {
    let mut check = false;
    let mut only = Vec::new();
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--check" => check = true,
            "-h" | "--help" => {
                eprintln!("usage: record-softpipe [--check] [CASE...]");
                return ExitCode::SUCCESS;
            }
            _ => only.push(arg),
        }
    }
    let cases = match load_corpus(&generated_corpus_dir()) {
        Ok(all) => all
            .into_iter()
            .filter(|c| only.is_empty() || only.contains(&c.name))
            .collect::<Vec<_>>(),
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    if let Some(missing) = only.iter().find(|n| !cases.iter().any(|c| &c.name == *n)) {
        eprintln!("error: no case named `{missing}`");
        return ExitCode::FAILURE;
    }
    let softpipe = match Softpipe::locate() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    eprintln!(
        "recording {} case(s) with {} ({})",
        cases.len(),
        softpipe.environment.renderer,
        softpipe.environment.gl_version
    );
    let work = std::env::temp_dir().join(format!("agxc-record-softpipe-{}", std::process::id()));
    let started = Instant::now();
    let runs = match softpipe.run(&cases, &work) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut failed = 0;
    for (case, run) in cases.iter().zip(runs) {
        match run
            .map_err(|e| e.to_string())
            .and_then(|r| record(case, &r, check))
        {
            Ok(changed) if changed.is_empty() => eprintln!("  {}: unchanged", case.name),
            Ok(changed) => eprintln!(
                "  {}: {} {}",
                case.name,
                if check { "would change" } else { "wrote" },
                changed.join(", ")
            ),
            Err(e) => {
                failed += 1;
                eprintln!("  {}: FAILED: {e}", case.name);
            }
        }
    }
    let _ = fs::remove_dir_all(&work);
    eprintln!(
        "{} case(s), {failed} failed, {:.1} s",
        cases.len(),
        started.elapsed().as_secs_f64()
    );
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
