//! Runs every filetest under `tests/filetests/` (the format: `agxc_tests::filetest`) and fails
//! with each failing file's diff. `AGXC_BLESS=1` rewrites the expected outputs instead;
//! `AGXC_FILETESTS=part,part` runs only the files whose path contains one of the parts.

use agxc_tests::corpus::{announce, oracle_required};
use agxc_tests::filetest::{collect, filetests_dir, run_file, BLESS_ENV};

#[test]
fn filetests() {
    let dir = filetests_dir();
    let files = collect(&dir).expect("the filetest tree is readable");
    assert!(files.len() >= 40, "only {} filetests", files.len());
    let bless = std::env::var_os(BLESS_ENV).is_some_and(|v| v != "0");
    let only: Option<Vec<String>> = std::env::var("AGXC_FILETESTS")
        .ok()
        .map(|s| s.split(',').map(str::to_owned).collect());
    let spirv_as = std::process::Command::new("spirv-as")
        .arg("--version")
        .output()
        .is_ok();
    let (mut ran, mut skipped) = (0, 0);
    let mut failures = Vec::new();
    for path in &files {
        let name = path
            .strip_prefix(&dir)
            .unwrap_or(path)
            .display()
            .to_string();
        if only
            .as_ref()
            .is_some_and(|o| !o.iter().any(|p| name.contains(p.as_str())))
        {
            continue;
        }
        if path.extension().is_some_and(|e| e == "spvasm") && !spirv_as {
            assert!(!oracle_required(), "spirv-as is required in CI for {name}");
            skipped += 1;
            continue;
        }
        ran += 1;
        if let Err(e) = run_file(path, bless) {
            failures.push(e.to_string());
        }
    }
    if skipped > 0 {
        announce(&format!(
            "filetests: {skipped} SPIR-V assembly files skipped (no spirv-as; install spirv-tools)"
        ));
    }
    announce(&format!(
        "filetests: {ran} run, {} failed{}",
        failures.len(),
        if bless { " (blessed)" } else { "" }
    ));
    assert!(failures.is_empty(), "\n{}", failures.join("\n\n"));
}
