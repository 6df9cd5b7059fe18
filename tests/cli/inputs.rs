//! Bad or unusual command-line inputs: one-line errors instead of panics or silent defaults,
//! dumps that stop before the backend, `-o -`, plain-text logs, closed pipes, empty files.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::{agxc, scratch};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn corpus_spv(case: &str) -> PathBuf {
    root()
        .join("tests/corpus/spirv")
        .join(case)
        .join("shader.spv")
}

/// Runs agxc expecting failure: exit status 1, no panic, one `agxc: error:` line on stderr
/// containing every needle. Returns that line.
fn fails_with(args: &[&str], needles: &[&str]) -> String {
    let o = agxc(args);
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(1), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{args:?}: not one line: {stderr}");
    assert!(lines[0].starts_with("agxc: error: "), "{stderr}");
    for n in needles {
        assert!(lines[0].contains(n), "{args:?}: `{n}` not in: {stderr}");
    }
    lines[0].to_string()
}

fn words_to_file(path: &Path, words: &[u32]) {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(path, bytes).unwrap();
}

fn spv_words(path: &Path) -> Vec<u32> {
    std::fs::read(path)
        .unwrap()
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// An `OpSpecConstantOp` wrapping `OpSwitch` (opcode 251) used to panic inside rspirv's
/// operand parser (exit 101); header id bounds of 0, too large, or below the ids used were
/// accepted. Each is now a one-line error with exit status 1.
#[test]
fn malformed_spirv_headers_and_spec_ops_are_one_line_errors() {
    let dir = scratch("malformed_spirv");
    let good = spv_words(&corpus_spv("saxpy_push"));
    // %bound = OpSpecConstantOp %uint-ish 251 ...: any type id will do, the word-level check
    // comes first. Inserted before the first OpFunction (opcode 54).
    let mut words = good.clone();
    let mut at = 5;
    while words[at] & 0xffff != 54 {
        at += (words[at] >> 16) as usize;
    }
    let id = words[3];
    words[3] += 1;
    words.splice(at..at, [7 << 16 | 52, 1, id, 251, 1, 2, 3]);
    let spec = dir.join("spec251.spv");
    words_to_file(&spec, &words);
    fails_with(
        &["compile", spec.to_str().unwrap()],
        &["OpSpecConstantOp", &format!("word {at}"), "OpSwitch"],
    );

    for (name, bound, needle) in [
        ("bound0", 0, "id bound 0".to_string()),
        ("bound_huge", u32::MAX, format!("id bound {}", u32::MAX)),
        (
            "bound_small",
            good[3] - 1,
            format!("uses id %{}", good[3] - 1),
        ),
    ] {
        let mut w = good.clone();
        w[3] = bound;
        let path = dir.join(format!("{name}.spv"));
        words_to_file(&path, &w);
        fails_with(
            &["compile", path.to_str().unwrap()],
            &["header word 3", &needle],
        );
    }
}

/// `--emit ir` and `--emit ir-opt` stop before the backend: a geometry shader (which the G13
/// backend refuses) dumps its IR at both levels.
#[test]
fn ir_dumps_stop_before_the_backend() {
    let geometry = root().join("frontend/tests/data/geometry/expand.spv");
    let g = geometry.to_str().unwrap();
    fails_with(&["compile", g], &["the geometry stage"]);
    for args in [
        ["compile", g, "-O0", "--emit", "ir"],
        ["compile", g, "-O2", "--emit", "ir"],
        ["compile", g, "-O2", "--emit", "ir-opt"],
        ["compile", g, "-O2", "--emit", "egraph-dot"],
    ] {
        let o = agxc(&args);
        assert!(
            o.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(
            out.starts_with("function @main geometry") || out.contains("digraph egraph"),
            "{args:?}: {out}"
        );
    }
}

/// A push-constant file shorter than the shader's block is an error naming both sizes, and so
/// is a run without one; a file of the block's size runs.
#[test]
fn short_or_missing_push_constants_are_errors() {
    let dir = scratch("push_short");
    let shader = corpus_spv("saxpy_push");
    let s = shader.to_str().unwrap();
    std::fs::write(dir.join("short.bin"), 1.5f32.to_le_bytes()).unwrap();
    let mut full = 1.5f32.to_le_bytes().to_vec();
    full.extend(4u32.to_le_bytes());
    std::fs::write(dir.join("full.bin"), full).unwrap();
    let base = [
        "run",
        s,
        "--buffer-size",
        "0=1024",
        "--buffer-size",
        "1=1024",
        "--groups",
        "4",
    ];
    let short = dir.join("short.bin");
    let mut args = base.to_vec();
    args.extend(["--push", short.to_str().unwrap()]);
    fails_with(
        &args,
        &["short.bin", "4 bytes", "8-byte push-constant block"],
    );
    fails_with(&base, &["8-byte push-constant block", "--push"]);
    let full = dir.join("full.bin");
    let mut args = base.to_vec();
    args.extend(["--push", full.to_str().unwrap()]);
    let o = agxc(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// A compute run needs `--groups` (it used to dispatch one workgroup without saying so).
#[test]
fn compute_run_without_groups_is_an_error() {
    let shader = corpus_spv("int_arith");
    fails_with(
        &[
            "run",
            shader.to_str().unwrap(),
            "--buffer-size",
            "0=1024",
            "--buffer-size",
            "1=4096",
        ],
        &["--groups"],
    );
}

/// `-o -` writes to standard output (and creates no file named `-`).
#[test]
fn dash_output_is_stdout() {
    let dir = scratch("dash_output");
    let shader = corpus_spv("saxpy_push");
    let s = shader.to_str().unwrap();
    let plain = agxc(&["compile", s, "--emit", "asm"]);
    let dashed = Command::new(env!("CARGO_BIN_EXE_agxc"))
        .args(["compile", s, "--emit", "asm", "-o", "-"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(
        dashed.status.success(),
        "{}",
        String::from_utf8_lossy(&dashed.stderr)
    );
    assert!(!plain.stdout.is_empty());
    assert_eq!(dashed.stdout, plain.stdout);
    assert!(!dir.join("-").exists());
}

/// Logs on a stderr that is not a terminal (a pipe here) carry no ANSI colour codes.
#[test]
fn no_colour_codes_when_stderr_is_not_a_terminal() {
    let shader = corpus_spv("saxpy_push");
    let o = Command::new(env!("CARGO_BIN_EXE_agxc"))
        .args(["compile", shader.to_str().unwrap(), "-o", "/dev/null"])
        .env("RUST_LOG", "agxc=info")
        .output()
        .unwrap();
    assert!(o.status.success());
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains("compiled"), "no log lines: {stderr}");
    assert!(!stderr.contains('\x1b'), "colour codes in: {stderr:?}");
    // Errors too.
    let e = agxc(&["compile", "/nonexistent.spv"]);
    assert!(!String::from_utf8_lossy(&e.stderr).contains('\x1b'));
}

/// A reader that goes away (`agxc ... | head -1`) ends agxc quietly: no error message, no
/// panic, for `compile` (one large write) and for `run` (many `println!`s).
#[test]
fn a_closed_pipe_ends_quietly() {
    let big = corpus_spv("sw_raytracing");
    let small = corpus_spv("int_arith");
    let commands: [Vec<&str>; 2] = [
        vec!["compile", big.to_str().unwrap(), "-O0", "--emit", "ir"],
        vec![
            "run",
            small.to_str().unwrap(),
            "--buffer-size",
            "0=1024",
            "--buffer-size",
            "1=4096",
            "--groups",
            "1",
            "--stats",
        ],
    ];
    for args in commands {
        let mut child = Command::new(env!("CARGO_BIN_EXE_agxc"))
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Read one byte, then close the pipe while agxc still has output to write.
        let mut stdout = child.stdout.take().unwrap();
        let mut byte = [0u8; 1];
        let _ = stdout.read(&mut byte);
        drop(stdout);
        let mut stderr = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut stderr)
            .unwrap();
        let status = child.wait().unwrap();
        assert_ne!(status.code(), Some(101), "{args:?}: {stderr}");
        assert!(stderr.is_empty(), "{args:?}: {status}: {stderr}");
    }
}

/// An empty shader (or binary) is called empty, not "not SPIR-V, TGSI or IR".
#[test]
fn an_empty_file_is_called_empty() {
    let dir = scratch("empty");
    let empty = dir.join("empty.spv");
    std::fs::write(&empty, b"").unwrap();
    let e = empty.to_str().unwrap();
    fails_with(&["compile", e], &["empty.spv", "empty"]);
    fails_with(&["disasm", e], &["empty.spv", "empty"]);
}

/// The e-graph DOT dump's node count (its first line when truncated) is the node count
/// `--emit report` prints.
#[test]
fn egraph_dot_node_count_agrees_with_the_report() {
    let shader = corpus_spv("sw_raytracing");
    let s = shader.to_str().unwrap();
    let dot = agxc(&["compile", s, "--emit", "egraph-dot"]);
    assert!(dot.status.success());
    let dot = String::from_utf8_lossy(&dot.stdout);
    let first = dot.lines().next().unwrap_or("");
    // `// truncated: 400 of 1967 e-nodes, ...`
    let dot_nodes: u64 = first
        .split(" of ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no node count in `{first}`"));
    let report = agxc(&["compile", s, "--emit", "report"]);
    let report = String::from_utf8_lossy(&report.stdout);
    // `  e-graph: 1635 -> 1967 e-nodes (1709 e-classes), limit 16540`
    let line = report
        .lines()
        .find(|l| l.trim_start().starts_with("e-graph:"))
        .unwrap_or_else(|| panic!("no e-graph line in {report}"));
    let report_nodes: u64 = line
        .split("-> ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no node count in `{line}`"));
    assert_eq!(dot_nodes, report_nodes, "{first}\n{line}");
}
