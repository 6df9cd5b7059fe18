//! Every TGSI shader of the corpus parses, lifts and verifies.
//!
//! The corpus (`tests/corpus/tgsi/`) holds Mesa's `graw` test shaders (`graw/`: 66 stand-alone
//! files and, in `graw/programs/`, 34 shaders the graw C programs embed) and 60 shaders
//! generated from GLSL by softpipe (`gen/<case>/shader.tgsi`). `lift` runs the IR verifier on
//! its output, so a successful lift is a verified function.
//!
//! A few shaders need what the graph IR does not have; they must fail with exactly the error
//! listed in `EXPECTED_UNSUPPORTED` (so that the list shrinks as the IR grows, and any other
//! failure is caught).

use agxc_frontend::tgsi::{lift, parse, LiftOptions, TgsiError};
use std::path::{Path, PathBuf};

/// The corpus's size when this test was written (100 graw shaders and 60 generated ones), so
/// that a shader going missing is noticed.
const MIN_SHADERS: usize = 160;

/// Shaders that cannot lift, and a fragment of the error each must give.
const EXPECTED_UNSUPPORTED: &[(&str, &str)] = &[];

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/corpus/tgsi")
}

fn shaders() -> Vec<(String, String)> {
    let root = corpus();
    let mut out = Vec::new();
    let mut stack = vec![root.clone()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "tgsi") {
                let name = path
                    .strip_prefix(&root)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                let text = std::fs::read_to_string(&path).unwrap();
                out.push((name, text));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_corpus_shader_parses() {
    let shaders = shaders();
    assert!(
        shaders.len() >= MIN_SHADERS,
        "the corpus has {} shaders",
        shaders.len()
    );
    let failures: Vec<String> = shaders
        .iter()
        .filter_map(|(name, text)| parse(text).err().map(|e| format!("{name}: {e}")))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_corpus_shader_lifts_and_verifies() {
    let shaders = shaders();
    let mut failures = Vec::new();
    let mut lifted = 0;
    for (name, text) in &shaders {
        let expected = EXPECTED_UNSUPPORTED
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, why)| *why);
        match (lift(text, &LiftOptions::default()), expected) {
            (Ok(_), None) => lifted += 1,
            (Ok(_), Some(why)) => failures.push(format!(
                "{name}: lifted, but is listed as unsupported ({why})"
            )),
            (Err(e), Some(why))
                if e.to_string().contains(why) && !matches!(e, TgsiError::Verify(_)) => {}
            (Err(e), _) => failures.push(format!("{name}: {e}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let must_lift = MIN_SHADERS - EXPECTED_UNSUPPORTED.len();
    assert!(lifted >= must_lift, "only {lifted} shaders lifted");
}

#[test]
fn every_listed_exception_exists() {
    let names: Vec<String> = shaders().into_iter().map(|(n, _)| n).collect();
    for (name, _) in EXPECTED_UNSUPPORTED {
        assert!(
            names.iter().any(|n| n == name),
            "{name} is not in the corpus"
        );
    }
}
