//! Command-line tests: the `agxc` binary run as a user runs it, its outputs checked against
//! values computed here independently (f64 arithmetic in the test).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod amber;
mod asm;
mod dump;
mod egraph_html;
mod inputs;
mod limits;
mod resources;

fn agxc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_agxc"))
        .args(args)
        .output()
        .expect("the agxc binary runs")
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("cli")
        .join(name);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

fn f32s(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn write_f32s(path: &Path, values: &[f32]) {
    let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    std::fs::write(path, bytes).expect("write input");
}

const SAXPY_SIN: &str = "function @main compute local_size(64, 1, 1) {
block0:
    v0:i32 = builtin global_id.x
    v1:i32 = const 2
    v2:i32 = ishl v0, v1
    v3:f32 = load storage(0, 0) [v2]
    v4:i32 = const 0
    v5:f32 = load push [v4]
    v6:f32 = fmul v5, v3
    v7:f32 = sin v3
    v8:f32 = const 0.5
    v9:f32 = fmul v3, v8
    v10:f32 = cos v9
    v11:f32 = fmul v7, v10
    v12:f32 = fadd v6, v11
    store storage(0, 1) [v2], v12
    return
}
";

/// `y = a*x + sin(x)*cos(x/2)` through `agxc run` at -O0 and -O2, against f64.
#[test]
fn run_compute_matches_f64() {
    let dir = scratch("saxpy_sin");
    let shader = dir.join("saxpy_sin.ir");
    std::fs::write(&shader, SAXPY_SIN).unwrap();
    let x: Vec<f32> = (0..1024).map(|i| i as f32 * 0.01 - 5.0).collect();
    write_f32s(&dir.join("x.bin"), &x);
    write_f32s(&dir.join("push.bin"), &[2.5]);
    for level in ["-O0", "-O2"] {
        let out = dir.join(format!("y{level}.bin"));
        let o = agxc(&[
            "run",
            shader.to_str().unwrap(),
            level,
            "--buffer",
            &format!("0={}", dir.join("x.bin").display()),
            "--buffer-size",
            "1=4096",
            "--push",
            dir.join("push.bin").to_str().unwrap(),
            "--groups",
            "16",
            "--out",
            &format!("0.1={}", out.display()),
            "--stats",
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let stdout = String::from_utf8_lossy(&o.stdout);
        assert!(stdout.contains("storage buffer (0, 1)"), "{stdout}");
        assert!(stdout.contains("simulator statistics"), "{stdout}");
        let y = f32s(&std::fs::read(&out).unwrap());
        assert_eq!(y.len(), 1024);
        for (i, (&xi, &yi)) in x.iter().zip(&y).enumerate() {
            let xd = xi as f64;
            let expected = 2.5 * xd + xd.sin() * (xd * 0.5).cos();
            // sin/cos through sin_pt_1/sin_pt_2 are accurate to about 1e-6 on this range;
            // the rest is a few f32 roundings of values up to ~14.
            assert!(
                (yi as f64 - expected).abs() <= 1e-5 * (1.0 + expected.abs()),
                "{level} y[{i}] = {yi}, expected {expected}"
            );
        }
    }
}

/// The README's main command on the bundled example and its bundled inputs, at -O2 (which
/// reads its constants from the constant pool's uniforms): y = a*x + sin(x)*cos(x/2) for
/// every element, against f64.
#[test]
fn the_bundled_example_prints_the_right_result() {
    let dir = scratch("bundled_saxpy_sin");
    let example = |name: &str| format!("{}/examples/{name}", env!("CARGO_MANIFEST_DIR"));
    let out = dir.join("y.bin");
    let o = agxc(&[
        "run",
        &example("saxpy_sin.ir"),
        "--buffer",
        &format!("0={}", example("saxpy_sin.x.bin")),
        "--buffer-size",
        "1=4096",
        "--push",
        &example("saxpy_sin.push.bin"),
        "--groups",
        "16",
        "--out",
        &format!("0.1={}", out.display()),
        "--stats",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(stdout.contains("storage buffer (0, 1)"), "{stdout}");
    let x = f32s(&std::fs::read(example("saxpy_sin.x.bin")).unwrap());
    let a = f32s(&std::fs::read(example("saxpy_sin.push.bin")).unwrap())[0] as f64;
    let y = f32s(&std::fs::read(&out).unwrap());
    assert_eq!((x.len(), y.len()), (1024, 1024));
    for (i, (&xi, &yi)) in x.iter().zip(&y).enumerate() {
        let xd = xi as f64;
        let expected = a * xd + xd.sin() * (xd * 0.5).cos();
        assert!(
            (yi as f64 - expected).abs() <= 1e-5 * (1.0 + expected.abs()),
            "y[{i}] = {yi}, expected {expected}"
        );
    }
}

/// The SPIR-V corpus's saxpy through `agxc run` (push constants a = 1.5, n = 250; the last
/// invocations return early and leave y unchanged).
#[test]
fn run_spirv_with_push_constants_and_early_return() {
    let dir = scratch("saxpy_push");
    let shader = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/corpus/spirv/saxpy_push/shader.spv"
    );
    let x: Vec<f32> = (0..256).map(|i| i as f32 * 0.5 - 20.0).collect();
    let y: Vec<f32> = (0..256).map(|i| 100.0 - i as f32).collect();
    write_f32s(&dir.join("x.bin"), &x);
    write_f32s(&dir.join("y.bin"), &y);
    let mut push = 1.5f32.to_le_bytes().to_vec();
    push.extend(250u32.to_le_bytes());
    std::fs::write(dir.join("push.bin"), push).unwrap();
    let out = dir.join("out.bin");
    let o = agxc(&[
        "run",
        shader,
        "--buffer",
        &format!("0={}", dir.join("x.bin").display()),
        "--buffer",
        &format!("1={}", dir.join("y.bin").display()),
        "--push",
        dir.join("push.bin").to_str().unwrap(),
        "--groups",
        "4",
        "--out",
        &format!("1={}", out.display()),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let got = f32s(&std::fs::read(&out).unwrap());
    for i in 0..256 {
        let expected = if i < 250 {
            1.5 * x[i] as f64 + y[i] as f64
        } else {
            y[i] as f64
        };
        assert!(
            (got[i] as f64 - expected).abs() <= 1e-5,
            "y[{i}] = {}, expected {expected}",
            got[i]
        );
    }
}

/// A fragment shader through `agxc run --size --image`: colour = (u, v, 0, 1) from a varying,
/// with discard on the left column keeping the clear colour.
#[test]
fn run_fragment_writes_image() {
    let dir = scratch("frag");
    let shader = dir.join("uv.ir");
    std::fs::write(
        &shader,
        "function @main fragment {
block0:
    v0:f32 = input 0.x perspective
    v1:f32 = input 0.y perspective
    v2:f32 = builtin frag_coord.x
    v3:f32 = const 1.0
    v4:bool = flt v2, v3
    if v4 {
    block1:
        discard
    } else {
    block2:
        yield
    }
    v5:f32 = const 0.0
    output 0.x v0
    output 0.y v1
    output 0.z v5
    output 0.w v3
    return
}
",
    )
    .unwrap();
    // Location 0: base (0, 0, 0, 0), ddx (0.25, 0, 0, 0), ddy (0, 0.125, 0, 0).
    let mut varyings = vec![0f32; 12];
    varyings[4] = 0.25;
    varyings[9] = 0.125;
    write_f32s(&dir.join("var.bin"), &varyings);
    let image = dir.join("image.bin");
    let o = agxc(&[
        "run",
        shader.to_str().unwrap(),
        "--size",
        "4x8",
        "--varyings",
        dir.join("var.bin").to_str().unwrap(),
        "--clear",
        "9,9,9,nan",
        "--image",
        image.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let px = f32s(&std::fs::read(&image).unwrap());
    assert_eq!(px.len(), 4 * 8 * 4);
    for y in 0..8 {
        for x in 0..4 {
            let p = &px[(y * 4 + x) * 4..(y * 4 + x) * 4 + 4];
            if x == 0 {
                assert_eq!(&p[..3], &[9.0, 9.0, 9.0], "discarded pixel ({x}, {y})");
                assert!(p[3].is_nan());
            } else {
                let u = 0.25 * (x as f32 + 0.5);
                let v = 0.125 * (y as f32 + 0.5);
                assert_eq!(p, &[u, v, 0.0, 1.0], "pixel ({x}, {y})");
            }
        }
    }
}

#[test]
fn compile_report_and_disasm_round_trip() {
    let dir = scratch("report");
    let shader = dir.join("k.ir");
    std::fs::write(&shader, SAXPY_SIN).unwrap();
    let o = agxc(&["compile", shader.to_str().unwrap(), "--emit", "report"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let report = String::from_utf8_lossy(&o.stdout);
    for field in [
        "instructions:",
        "estimated cycles:",
        "registers:",
        "occupancy:",
        "spill",
    ] {
        assert!(report.contains(field), "report lacks `{field}`:\n{report}");
    }
    let bin = dir.join("k.bin");
    let o = agxc(&[
        "compile",
        shader.to_str().unwrap(),
        "-o",
        bin.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = agxc(&["disasm", bin.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let listing = String::from_utf8_lossy(&o.stdout);
    assert!(
        listing.contains("sin_pt_1") && listing.contains("device_store"),
        "{listing}"
    );
    let asm = agxc(&["compile", shader.to_str().unwrap(), "--emit", "asm"]);
    assert_eq!(
        String::from_utf8_lossy(&asm.stdout),
        listing,
        "--emit asm and disasm agree"
    );
}

/// Bad input: one line on stderr, non-zero exit, no panic.
#[test]
fn errors_are_one_line() {
    let dir = scratch("errors");
    let junk = dir.join("junk.bin");
    std::fs::write(&junk, [0xffu8, 0xff, 0xff, 0xff, 0x12, 0x34]).unwrap();
    let bad_spirv = dir.join("bad.spv");
    let mut words = vec![0x0723_0203u32, 0x0001_0000, 0, 10, 0];
    words.extend([0x0004_0047u32, 1, 2, 3]); // a truncated, dangling OpDecorate
    std::fs::write(
        &bad_spirv,
        words
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect::<Vec<_>>(),
    )
    .unwrap();
    let bad_tgsi = dir.join("bad.tgsi");
    std::fs::write(&bad_tgsi, "FRAG\nDCL IN[0]\nFOO TEMP[0], IN[0]\nEND\n").unwrap();
    let cases: [(&[&str], &str); 5] = [
        (&["compile", "/nonexistent/shader.spv"], "nonexistent"),
        (&["compile", junk.to_str().unwrap()], "not a SPIR-V binary"),
        (&["compile", bad_spirv.to_str().unwrap()], "SPIR-V"),
        (&["compile", bad_tgsi.to_str().unwrap()], "FOO"),
        (&["disasm", junk.to_str().unwrap()], "junk.bin"),
    ];
    for (args, needle) in cases {
        let o = agxc(args);
        assert!(!o.status.success(), "{args:?} should fail");
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        let last = stderr.lines().last().unwrap_or("");
        assert!(
            last.starts_with("agxc: error:") && last.contains(needle),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn geometry_is_refused_by_name_and_gathers_compile() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let geometry = root.join("frontend/tests/data/geometry/expand.spv");
    let o = agxc(&["compile", geometry.to_str().unwrap()]);
    assert!(!o.status.success());
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("the geometry stage")
            && stderr.contains("not supported by the G13 backend"),
        "{stderr}"
    );
    // textureGather(tex, uv, 1), textureGatherOffset(.., 3) and a depth-compare gather.
    let gather = root.join("tests/corpus/spirv/frag_texture_gather/shader.spv");
    let o = agxc(&["compile", "--emit", "asm", gather.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let asm = String::from_utf8_lossy(&o.stdout);
    for word in ["gather g", "gather a", "compare"] {
        assert!(asm.contains(word), "no `{word}` in\n{asm}");
    }
}
