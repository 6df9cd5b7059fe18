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
    let names = agxc::pass_names();
    let top: Vec<&str> = sections(&err)
        .into_iter()
        .filter(|s| names.contains(s))
        .collect();
    assert_eq!(top, names, "{err}");
    // The control-flow passes inside cf-pre and cf-post print too.
    assert!(sections(&err).contains(&"simplify-cf"), "{err}");
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

/// The optimizer's control-flow passes run inside `cf-pre` and `cf-post`: `--dump` names them
/// too, and each run prints before the step that ran it.
#[test]
fn dump_names_the_control_flow_passes_inside_the_optimizer() {
    let dir = scratch("dump_cf");
    let shader = dir.join("loop.ir");
    // A counted loop of four trips: `unroll` unrolls it.
    std::fs::write(
        &shader,
        "function @main compute local_size(1, 1, 1) {
block0:
    v0:i32 = const 0
    v1:f32 = const 0.0
    v2:i32 = const 4
    v3:i32, v4:f32 = loop v0, v1 {
    block1(v5:i32, v6:f32):
        v7:bool = sge v5, v2
        if v7 {
        block2:
            break v5, v6
        } else {
        block3:
            yield
        }
        v8:f32 = const 1.5
        v9:f32 = fadd v6, v8
        v10:i32 = const 1
        v11:i32 = iadd v5, v10
        continue v11, v9
    }
    v12:i32 = const 0
    store storage(0, 0) [v12], v4
    return
}
",
    )
    .unwrap();
    let o = agxc(&[
        "compile",
        shader.to_str().unwrap(),
        "-o",
        "-",
        "--dump",
        "unroll,cf-pre,simplify-cf",
    ]);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "{err}");
    let s = sections(&err);
    // cf-pre runs simplify-cf, flatten, unroll, if-convert, simplify-cf; cf-post unroll,
    // flatten, if-convert, simplify-cf.
    assert_eq!(
        s,
        [
            "simplify-cf",
            "unroll",
            "simplify-cf",
            "cf-pre",
            "unroll",
            "simplify-cf"
        ],
        "{err}"
    );
    let first_unroll = err.split("; after unroll\n").nth(1).unwrap();
    assert!(first_unroll.starts_with("function @main"), "{err}");
    // --emit ir-passes is unchanged by it, and plain compiles print nothing.
    let plain = agxc(&["compile", shader.to_str().unwrap(), "-o", "-"]);
    assert!(plain.stderr.is_empty());
}
