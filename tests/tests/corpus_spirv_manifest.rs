//! Checks that every SPIR-V corpus case is complete and that its `.spv` is what its recorded
//! build command produces.
//!
//! Completeness needs no tools. The rebuild check runs `glslangValidator`/`spirv-as` and
//! `spirv-val`; without them it prints `SKIPPED: ...` and passes, unless `CI=true`.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use agxc_tests::corpus::{announce, corpus_dir, load_corpus, oracle_required, Case, Stage};

/// Licences whose files may be copied into the corpus (SPDX expressions).
const ALLOWED_LICENCES: [&str; 4] = ["MIT", "Apache-2.0", "BSD-3-Clause", "MIT OR Apache-2.0"];

/// The acceptance asks for at least 60 real shaders.
const MIN_CASES: usize = 60;

fn cases() -> Vec<Case> {
    load_corpus(&corpus_dir("spirv")).expect("every case.toml parses and validates")
}

/// Problems with one case's files and provenance; empty when complete.
fn incomplete(case: &Case) -> Vec<String> {
    let mut problems = Vec::new();
    let m = &case.manifest;
    let source = match case.source_file() {
        Ok(s) => s,
        Err(e) => return vec![e.to_string()],
    };
    let text = fs::read_to_string(&source).unwrap_or_default();
    if !text.contains("SPDX-License-Identifier") {
        problems.push(format!("{} has no SPDX licence line", source.display()));
    }
    if m.source == "agxc original" {
        if m.licence != "MIT OR Apache-2.0" {
            problems.push(format!(
                "an original shader must be MIT OR Apache-2.0, not {}",
                m.licence
            ));
        }
    } else if !m.source.starts_with("https://") {
        problems.push(format!(
            "source `{}` is neither a URL nor `agxc original`",
            m.source
        ));
    } else if !text.contains(&m.source) {
        problems.push("the source file does not carry its provenance URL".to_owned());
    }
    if !ALLOWED_LICENCES.contains(&m.licence.as_str()) {
        problems.push(format!(
            "licence `{}` is not one of {ALLOWED_LICENCES:?}",
            m.licence
        ));
    }
    let source_name = source.file_name().map(|n| n.to_string_lossy().into_owned());
    match &m.build {
        None => problems.push("no build command".to_owned()),
        Some(b) => {
            let words: Vec<&str> = b.split_whitespace().collect();
            if !matches!(words.first(), Some(&"glslangValidator") | Some(&"spirv-as")) {
                problems.push(format!(
                    "build `{b}` uses neither glslangValidator nor spirv-as"
                ));
            }
            if !words.iter().any(|w| Some(*w) == source_name.as_deref()) {
                problems.push(format!("build `{b}` does not name the source file"));
            }
            if !words.windows(2).any(|w| w == ["-o", "shader.spv"]) {
                problems.push(format!("build `{b}` does not write shader.spv"));
            }
        }
    }
    if !case.spv_file().is_file() {
        problems.push("shader.spv is missing".to_owned());
    }
    if case.output_specs().is_empty() {
        problems.push("the case has no outputs to compare".to_owned());
    }
    if let Err(e) = case.read_expected() {
        problems.push(e.to_string());
    }
    problems
}

#[test]
fn every_case_is_complete() {
    let cases = cases();
    let problems: Vec<String> = cases
        .iter()
        .flat_map(|c| {
            incomplete(c)
                .into_iter()
                .map(move |p| format!("case `{}`: {p}", c.name))
        })
        .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_directory_is_a_case() {
    let dir = corpus_dir("spirv");
    let stray: Vec<PathBuf> = fs::read_dir(&dir)
        .expect("the corpus directory is readable")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir() && !p.join("case.toml").is_file())
        .collect();
    assert!(stray.is_empty(), "directories without case.toml: {stray:?}");
}

#[test]
fn corpus_is_large_enough_and_mixed() {
    let cases = cases();
    let compute = cases
        .iter()
        .filter(|c| c.manifest.stage == Stage::Compute)
        .count();
    let fragment = cases.len() - compute;
    assert!(
        cases.len() >= MIN_CASES,
        "{} cases, need {MIN_CASES}",
        cases.len()
    );
    assert!(
        compute >= 30 && fragment >= 25,
        "{compute} compute, {fragment} fragment"
    );
}

/// Whether `tool` runs (`--version` works for all three).
fn tool_present(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Runs the case's build command with the output redirected to `out`.
fn rebuild(case: &Case, build: &str, out: &Path) -> Result<(), String> {
    let mut words = build.split_whitespace();
    let program = words.next().ok_or("empty build command")?;
    let args: Vec<String> = words
        .map(|w| {
            if w == "shader.spv" {
                out.display().to_string()
            } else {
                w.to_owned()
            }
        })
        .collect();
    let output = Command::new(program)
        .args(&args)
        .current_dir(&case.dir)
        .output()
        .map_err(|e| format!("running {program}: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "`{build}` failed: {}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    Ok(())
}

#[test]
fn spv_matches_recorded_build_and_validates() {
    let tools = ["glslangValidator", "spirv-as", "spirv-val"];
    let missing: Vec<&str> = tools.iter().copied().filter(|t| !tool_present(t)).collect();
    if !missing.is_empty() {
        assert!(
            !oracle_required(),
            "CI=true but {missing:?} are not installed"
        );
        announce(&format!(
            "SKIPPED: {missing:?} not found (install glslang-tools, spirv-tools)"
        ));
        return;
    }
    let scratch = std::env::temp_dir().join(format!("agxc-spv-rebuild-{}", std::process::id()));
    fs::create_dir_all(&scratch).expect("temporary directory");
    let mut problems = Vec::new();
    for case in cases() {
        let Some(build) = &case.manifest.build else {
            problems.push(format!("case `{}`: no build command", case.name));
            continue;
        };
        let out = scratch.join(format!("{}.spv", case.name));
        if let Err(e) = rebuild(&case, build, &out) {
            problems.push(format!("case `{}`: {e}", case.name));
            continue;
        }
        let rebuilt = fs::read(&out).unwrap_or_default();
        let committed = fs::read(case.spv_file()).unwrap_or_default();
        if rebuilt != committed {
            problems.push(format!(
                "case `{}`: shader.spv differs from what `{build}` produces (run tests/corpus/spirv/build.sh)",
                case.name
            ));
        }
        let val = Command::new("spirv-val")
            .args(["--target-env", "vulkan1.1"])
            .arg(case.spv_file())
            .output();
        match val {
            Ok(o) if o.status.success() => {}
            Ok(o) => problems.push(format!(
                "case `{}`: spirv-val: {}",
                case.name,
                String::from_utf8_lossy(&o.stderr)
            )),
            Err(e) => problems.push(format!("case `{}`: running spirv-val: {e}", case.name)),
        }
    }
    let _ = fs::remove_dir_all(&scratch);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The push-constant block size the SPIR-V front end records (`Function::push_constant_bytes`,
/// the block's extent from its layout decorations) is the size each manifest gives lavapipe.
#[test]
fn push_constant_blocks_lift_to_the_manifest_sizes() {
    let mut checked = 0;
    for case in cases() {
        let words = case.spv_words().expect("shader.spv reads");
        let options = agxc_frontend::spirv::LiftOptions {
            entry: Some(case.manifest.entry.clone()),
            ..Default::default()
        };
        let func = agxc_frontend::spirv::lift(&words, &options).expect("the case lifts");
        let want = case.manifest.push.as_ref().map_or(0, |p| p.size as u32);
        assert_eq!(func.push_constant_bytes, want, "{}", case.name);
        checked += usize::from(want > 0);
    }
    assert!(checked >= 9, "only {checked} cases have push constants");
}
