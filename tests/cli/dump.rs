//! `--dump PASS,...` and `AGXC_DUMP`: the code after the named pipeline passes on stderr.

use std::process::Command;

use super::{agxc, scratch, SAXPY_SIN};

fn sections(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter_map(|l| l.strip_prefix("; after "))
        .collect()
}

#[test]
fn dump_prints_the_named_passes_in_pipeline_order_and_deterministically() {
    let dir = scratch("dump");
    let shader = dir.join("saxpy_sin.ir");
    std::fs::write(&shader, SAXPY_SIN).unwrap();
    let path = shader.to_str().unwrap();
    let run = || {
        agxc(&[
            "compile",
            path,
            "-O2",
            "--emit",
            "asm",
            "--dump",
            "regalloc,elaborate,isel",
        ])
    };
    let o = run();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let err = String::from_utf8(o.stderr.clone()).unwrap();
    // Pipeline order, whatever the order given.
    assert_eq!(sections(&err), ["elaborate", "isel", "regalloc"], "{err}");
    // After elaborate: graph IR (with the optimizer's sin lowering); after isel: machine code
    // over virtual registers; after regalloc: physical registers.
    let after = |pass: &str| {
        let start = err.find(&format!("; after {pass}\n")).unwrap();
        let rest = &err[start + "; after ".len() + pass.len() + 1..];
        rest[..rest.find("; after ").unwrap_or(rest.len())].to_owned()
    };
    assert!(after("elaborate").starts_with("function @main"), "{err}");
    assert!(after("isel").contains("device_load"), "{err}");
    assert!(after("regalloc").contains("r0"), "{err}");
    // stdout is the disassembly as without --dump.
    let plain = agxc(&["compile", path, "-O2", "--emit", "asm"]);
    assert_eq!(o.stdout, plain.stdout);
    assert!(plain.stderr.is_empty());
    // Same input, same dumps.
    assert_eq!(run().stderr, o.stderr);
}

#[test]
fn dump_all_covers_every_pass_and_the_environment_variable_works() {
    let dir = scratch("dump_all");
    let shader = dir.join("saxpy_sin.ir");
    std::fs::write(&shader, SAXPY_SIN).unwrap();
    let path = shader.to_str().unwrap();
    let o = agxc(&["compile", path, "-O2", "-o", "-", "--dump", "all"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let err = String::from_utf8(o.stderr).unwrap();
    assert_eq!(sections(&err), agxc::pass_names(), "{err}");
    // -O0 skips the optimizer's passes.
    let env = Command::new(env!("CARGO_BIN_EXE_agxc"))
        .args(["compile", path, "-O0", "-o", "-"])
        .env("AGXC_DUMP", "saturate,emit")
        .output()
        .expect("runs");
    assert!(env.status.success());
    let err = String::from_utf8(env.stderr).unwrap();
    assert_eq!(sections(&err), ["emit"], "{err}");
}

#[test]
fn an_unknown_pass_is_a_one_line_error_listing_the_passes() {
    let o = agxc(&["compile", "nonexistent.ir", "--dump", "isel,frobnicate"]);
    assert!(!o.status.success());
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(
        err.contains("frobnicate") && err.contains("regalloc"),
        "{err}"
    );
    let dir = scratch("dump_unknown");
    let shader = dir.join("saxpy_sin.ir");
    std::fs::write(&shader, SAXPY_SIN).unwrap();
    let env = Command::new(env!("CARGO_BIN_EXE_agxc"))
        .args(["compile", shader.to_str().unwrap(), "-O0", "-o", "-"])
        .env("AGXC_DUMP", "nope")
        .output()
        .expect("runs");
    assert!(!env.status.success());
    let err = String::from_utf8(env.stderr).unwrap();
    assert!(err.contains("`nope`") && err.lines().count() == 1, "{err}");
}
