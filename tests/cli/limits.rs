//! `agxc run`'s bounds and simulator settings: a whole dispatch is bounded by a grid-size limit
//! and an instruction budget, a SIMD-group by its step limit, each error names its flag; an
//! out-of-bounds access names the buffer and offset; engines and thread counts agree.

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use super::{agxc, scratch};

/// Runs `agxc` with `args`, failing the test (instead of hanging it) if the run has not ended
/// after `limit`.
fn agxc_within(args: &[&str], limit: Duration) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_agxc"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the agxc binary runs");
    let start = Instant::now();
    loop {
        if child.try_wait().expect("wait").is_some() {
            return child.wait_with_output().expect("output");
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("agxc {args:?} still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A compute shader with no memory access.
const IDLE: &str = "function @main compute local_size(1, 1, 1) {
block0:
    v0:i32 = builtin global_id.x
    v1:i32 = const 3
    v2:i32 = imul v0, v1
    return
}
";

/// A loop that never ends.
const RUNAWAY: &str = "function @main compute local_size(2, 1, 1) {
block0:
    v0:i32 = const 0
    v1:i32 = const 1
    v2:i32 = loop v0 {
    block1(v3:i32):
        v4:i32 = iadd v3, v1
        continue v4
    }
    return
}
";

/// `out[id] = id * id`, and one store past the end for the last thread of a 64-thread grid.
const SQUARES: &str = "function @main compute local_size(32, 1, 1) {
block0:
    v0:i32 = builtin global_id.x
    v1:i32 = const 4
    v2:i32 = imul v0, v1
    v3:i32 = imul v0, v0
    store storage(0, 1) [v2], v3
    return
}
";

fn shader(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write shader");
    path.to_string_lossy().into_owned()
}

#[test]
fn a_huge_grid_ends_with_the_grid_limit_by_default() {
    let dir = scratch("limits_grid");
    let idle = shader(&dir, "idle.ir", IDLE);
    let out = agxc_within(
        &["run", &idle, "--groups", "65535,65535,65535"],
        Duration::from_secs(60),
    );
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("grid limit") && err.contains("--max-grid"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn the_instruction_budget_ends_a_grid_the_limit_lets_through() {
    let dir = scratch("limits_budget");
    let idle = shader(&dir, "idle.ir", IDLE);
    let out = agxc_within(
        &[
            "run",
            &idle,
            "--groups",
            "65535,65535,65535",
            "--max-grid",
            "1000000000000000",
            "--max-instructions",
            "100000",
        ],
        Duration::from_secs(60),
    );
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("instruction budget of 100000") && err.contains("--max-instructions"),
        "{err}"
    );
}

#[test]
fn a_runaway_loop_ends_at_the_step_limit_with_every_engine() {
    let dir = scratch("limits_step");
    let runaway = shader(&dir, "runaway.ir", RUNAWAY);
    for engine in ["fast", "fast-compiled", "fast-interpreted", "reference"] {
        let out = agxc_within(
            &[
                "run",
                &runaway,
                "--groups",
                "4",
                "--step-limit",
                "5000",
                "--engine",
                engine,
            ],
            Duration::from_secs(60),
        );
        assert!(!out.status.success());
        let err = stderr(&out);
        assert!(
            err.contains("step limit of 5000") && err.contains("--step-limit"),
            "{engine}: {err}"
        );
    }
}

#[test]
fn an_out_of_bounds_store_names_the_binding_and_offset() {
    let dir = scratch("limits_oob");
    let squares = shader(&dir, "squares.ir", SQUARES);
    // 64 threads store to a 252-byte buffer: thread 63 stores at offset 252.
    let out = agxc(&["run", &squares, "--buffer-size", "1=252", "--groups", "2"]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("buffer (set 0, binding 1)")
            && err.contains("offset 252")
            && err.contains("holds 252 bytes"),
        "{err}"
    );
}

#[test]
fn engines_and_thread_counts_give_the_same_output_and_statistics() {
    let dir = scratch("limits_same");
    let squares = shader(&dir, "squares.ir", SQUARES);
    let mut runs = Vec::new();
    for (engine, threads) in [
        ("fast", "1"),
        ("fast", "3"),
        ("fast-compiled", "1"),
        ("fast-compiled", "2"),
        ("fast-interpreted", "2"),
        ("reference", "1"),
        ("reference", "2"),
    ] {
        let path = dir.join(format!("out-{engine}-{threads}.bin"));
        let out_arg = format!("1={}", path.display());
        let out = agxc(&[
            "run",
            &squares,
            "--buffer-size",
            "1=4096",
            "--groups",
            "32",
            "--stats",
            "--engine",
            engine,
            "--threads",
            threads,
            "--out",
            &out_arg,
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        let bytes = std::fs::read(&path).expect("--out written");
        let expected: Vec<u8> = (0u32..1024).flat_map(|i| (i * i).to_le_bytes()).collect();
        assert_eq!(bytes, expected, "{engine}, {threads} threads");
        runs.push(String::from_utf8_lossy(&out.stdout).into_owned());
    }
    assert!(runs.iter().all(|r| *r == runs[0]), "{runs:#?}");
}
