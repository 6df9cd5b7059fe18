//! Records lavapipe's outputs for the SPIR-V corpus into each case's `expected/` directory.
//!
//! Usage: `record-lavapipe [--corpus DIR] [CASE...]`; with no case names, every case is recorded.
//! The recordings are the oracle's answers: commit them, and never edit them by hand.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use agxc_tests::corpus::{corpus_dir, load_corpus};
use agxc_tests::lavapipe::Lavapipe;

fn main() -> ExitCode {
    let mut dir = corpus_dir("spirv");
    let mut names = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--corpus" => match args.next() {
                Some(d) => dir = PathBuf::from(d),
                None => {
                    eprintln!("--corpus needs a directory");
                    return ExitCode::from(2);
                }
            },
            "-h" | "--help" => {
                println!("usage: record-lavapipe [--corpus DIR] [CASE...]");
                return ExitCode::SUCCESS;
            }
            _ => names.push(arg),
        }
    }
    let cases = match load_corpus(&dir) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let unknown: Vec<_> = names
        .iter()
        .filter(|n| !cases.iter().any(|c| &c.name == *n))
        .collect();
    if !unknown.is_empty() {
        eprintln!("error: no such case(s) in {}: {unknown:?}", dir.display());
        return ExitCode::FAILURE;
    }
    let start = Instant::now();
    let lavapipe = match Lavapipe::new() {
        Ok(l) => l,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!(
        "{} ready in {:.3} s",
        lavapipe.device_name(),
        start.elapsed().as_secs_f64()
    );
    let mut failed = 0;
    let mut recorded = 0;
    for case in cases
        .iter()
        .filter(|c| names.is_empty() || names.contains(&c.name))
    {
        let t = Instant::now();
        let result = lavapipe
            .run(case, &case.inputs())
            .map_err(|e| e.to_string())
            .and_then(|out| case.write_expected(&out).map_err(|e| e.to_string()));
        match result {
            Ok(()) => {
                recorded += 1;
                println!(
                    "recorded {:<40} {:>7.1} ms",
                    case.name,
                    t.elapsed().as_secs_f64() * 1e3
                );
            }
            Err(e) => {
                failed += 1;
                eprintln!("FAILED   {}: {e}", case.name);
            }
        }
    }
    println!(
        "{recorded} recorded, {failed} failed, {:.2} s",
        start.elapsed().as_secs_f64()
    );
    if failed > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
