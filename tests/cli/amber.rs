//! `agxc amber`: the committed google/amber cases (tests/amber/google, see its README) and
//! agxc's own (tests/amber) pass at
//! -O0 and -O2, the `expect_fail` ones fail, and failures and faults name their line.

use std::path::PathBuf;

use super::agxc;

/// The scripts that must pass and google/amber's `expect_fail` ones: tests/amber/google and
/// agxc's own cases in tests/amber (tests/amber/fail holds the deliberately failing ones).
fn cases() -> (Vec<PathBuf>, Vec<PathBuf>) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/amber");
    let mut files: Vec<PathBuf> = [root.join("google"), root]
        .iter()
        .flat_map(|dir| std::fs::read_dir(dir).expect("tests/amber"))
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "amber"))
        .collect();
    files.sort();
    files
        .into_iter()
        .partition(|p| !p.to_string_lossy().contains(".expect_fail."))
}

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn google_amber_cases_pass_at_o0_and_o2() {
    let (pass, _) = cases();
    assert!(pass.len() >= 8, "only {} cases", pass.len());
    for opt in ["-O0", "-O2"] {
        let mut args = vec!["amber", opt];
        let names: Vec<String> = pass.iter().map(|p| p.display().to_string()).collect();
        args.extend(names.iter().map(String::as_str));
        let out = agxc(&args);
        let text = stdout(&out);
        assert!(
            out.status.success(),
            "{opt}:\n{text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(
            text.lines().filter(|l| l.starts_with("PASS ")).count(),
            pass.len(),
            "{text}"
        );
    }
}

#[test]
fn google_amber_expect_fail_cases_fail() {
    let (_, fail) = cases();
    assert!(!fail.is_empty());
    for path in fail {
        let out = agxc(&["amber", &path.display().to_string()]);
        let text = stdout(&out);
        assert!(!out.status.success(), "{}: {text}", path.display());
        assert!(text.starts_with("FAIL "), "{}: {text}", path.display());
    }
}

#[test]
fn a_wrong_expect_fails_naming_its_line() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/amber/fail/wrong_expect.amber"
    );
    for opt in ["-O0", "-O2"] {
        let out = agxc(&["amber", opt, path]);
        let text = stdout(&out);
        assert!(!out.status.success());
        assert!(
            text.starts_with(&format!(
                "FAIL {path}:19: `EXPECT data IDX 4 EQ 4 6 9`: value 2 (byte 12) is 8"
            )),
            "{text}"
        );
        assert!(String::from_utf8_lossy(&out.stderr).contains("1 of 1 scripts failed"));
    }
}

#[test]
fn unsupported_commands_and_missing_tools_name_the_line() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/amber/fail/unsupported.amber"
    );
    let out = agxc(&["amber", path]);
    assert!(!out.status.success());
    assert_eq!(
        stdout(&out).trim(),
        format!("ERROR {path}:3: unsupported command `COPY`")
    );

    let wrong = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/amber/fail/wrong_expect.amber"
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_agxc"))
        .args(["amber", wrong])
        .env("PATH", "/nonexistent")
        .output()
        .expect("agxc runs");
    let text = stdout(&out);
    assert!(!out.status.success());
    assert!(
        text.contains(":3: shader `doubler`: `glslangValidator` is not installed"),
        "{text}"
    );
}
