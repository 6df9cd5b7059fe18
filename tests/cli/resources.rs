//! Every resource kind through `agxc run`: cube, 3D, 1D and array textures with mip levels,
//! storage images of every format read back with `--out`, vertex shaders with attribute files,
//! and the e-graph limit flags. Each run is checked against the graph-IR interpreter (the
//! independent reference) on the same inputs, built here from the test's own texel values.

use std::collections::BTreeMap;
use std::path::Path;

use agxc::egraph::interp::{
    self, Filter, Limits, MipFilter, Resources, Sampler, Texture, TextureDesc, TextureFormat, Wrap,
};
use agxc::egraph::ir::{parse_function, Binding, Function, OpRegistry};

use super::{agxc, f32s, scratch, write_f32s};

fn parse(text: &str) -> Function {
    parse_function(text, &OpRegistry::new()).unwrap_or_else(|e| panic!("parses: {e}"))
}

fn run_ok(args: &[&str]) -> String {
    let o = agxc(args);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "agxc {args:?}: {stderr}");
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// `a` and `b` agree within `tol` relative to `max(1, |b|)` (texture filtering: the simulator
/// and the interpreter weight texels in f32, maybe in another order).
fn close(a: &[f32], b: &[f32], tol: f32, what: &str) {
    assert_eq!(a.len(), b.len(), "{what}: lengths");
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        let ok = x.to_bits() == y.to_bits() || (x - y).abs() <= tol * y.abs().max(1.0);
        assert!(ok, "{what}: word {i}: agxc {x}, interpreter {y}");
    }
}

/// Texel values that vary along every axis, level and slice: `(i * 0.37) mod 2 - 1` and so on.
fn texels(n: usize) -> Vec<[f32; 4]> {
    (0..n)
        .map(|i| {
            let t = i as f32;
            [
                (t * 0.37) % 2.0 - 1.0,
                (t * 0.11) % 1.0,
                1.0 - (t * 0.05) % 1.5,
                0.25 + (t * 0.013) % 0.75,
            ]
        })
        .collect()
}

fn texel_count(d: &TextureDesc) -> usize {
    (0..d.levels)
        .map(|l| {
            let [w, h, z] = d.level_extent(l);
            (w * h * z * d.slices()) as usize
        })
        .sum()
}

/// A texture of `desc` with [`texels`], its bytes written to `path`.
fn texture_file(path: &Path, desc: TextureDesc) -> Texture {
    let tex = Texture::from_texels(desc, &texels(texel_count(&desc))).expect("texture");
    std::fs::write(path, tex.data()).unwrap();
    tex
}

/// Sixteen invocations sample a cube array, a 3D texture, a 1D array and a 2D array at
/// explicit levels between 0 and 2.25, storing four texels each.
const SAMPLE_KINDS: &str = "function @kinds compute local_size(16, 1, 1) {
block0:
    v0:i32 = builtin global_id.x
    v1:f32 = s2f v0
    v2:f32 = const 0.13
    v3:f32 = const -1.0
    v4:f32 = fma v1, v2, v3
    v5:f32 = const 0.07
    v6:f32 = const 0.1
    v7:f32 = fma v1, v5, v6
    v8:f32 = const -0.11
    v9:f32 = const 0.9
    v10:f32 = fma v1, v8, v9
    v11:f32 = const 0.15
    v12:f32 = fmul v1, v11
    v13:f32 = const 0.2
    v14:f32 = fmul v1, v13
    v15:f32, v16:f32, v17:f32, v18:f32 = sample cube_array tex(0, 1) sampler(0, 1) explicit v4, v7, v10, v14, v12
    v19:f32, v20:f32, v21:f32, v22:f32 = sample 3d tex(0, 2) sampler(0, 2) explicit v7, v10, v4, v12
    v23:f32, v24:f32, v25:f32, v26:f32 = sample 1d_array tex(0, 3) sampler(0, 3) explicit v4, v14, v12
    v27:f32, v28:f32, v29:f32, v30:f32 = sample 2d_array tex(0, 4) sampler(0, 5) explicit v10, v7, v14, v12
    v31:i32 = const 64
    v32:i32 = imul v0, v31
    store storage(0, 0) [v32], v15, v16, v17, v18
    v33:i32 = const 16
    v34:i32 = iadd v32, v33
    store storage(0, 0) [v34], v19, v20, v21, v22
    v35:i32 = iadd v34, v33
    store storage(0, 0) [v35], v23, v24, v25, v26
    v36:i32 = iadd v35, v33
    store storage(0, 0) [v36], v27, v28, v29, v30
    return
}
";

#[test]
fn cube_3d_1d_and_array_textures_with_mip_levels_match_the_interpreter() {
    let dir = scratch("texture_kinds");
    let shader = dir.join("kinds.ir");
    std::fs::write(&shader, SAMPLE_KINDS).unwrap();
    let func = parse(SAMPLE_KINDS);

    let cube = TextureDesc::cube(TextureFormat::Rgba16Float, 4)
        .with_layers(2)
        .with_full_mip_chain();
    let d3 = TextureDesc::d3(TextureFormat::R32Float, 4, 4, 4).with_levels(2);
    let d1 = TextureDesc::d1(TextureFormat::Rgba8Unorm, 8)
        .with_layers(3)
        .with_full_mip_chain();
    let d2 = TextureDesc::d2(TextureFormat::Rgba32Float, 4, 4)
        .with_layers(2)
        .with_levels(3);
    let mut res = Resources::new();
    let tex = |name: &str, desc| texture_file(&dir.join(name), desc);
    res.bind_texture(Binding::new(0, 1), tex("cube.bin", cube));
    res.bind_texture(Binding::new(0, 2), tex("d3.bin", d3));
    res.bind_texture(Binding::new(0, 3), tex("d1.bin", d1));
    res.bind_texture(Binding::new(0, 4), tex("d2.bin", d2));
    let linear = Sampler {
        mag_filter: Filter::Linear,
        min_filter: Filter::Linear,
        ..Sampler::default()
    };
    res.bind_sampler(
        Binding::new(0, 1),
        Sampler {
            mip_filter: MipFilter::Linear,
            wrap: [Wrap::ClampToEdge; 3],
            ..linear
        },
    );
    res.bind_sampler(
        Binding::new(0, 2),
        Sampler {
            mip_filter: MipFilter::Nearest,
            ..linear
        },
    );
    res.bind_sampler(
        Binding::new(0, 3),
        Sampler {
            mip_filter: MipFilter::Nearest,
            wrap: [Wrap::MirroredRepeat; 3],
            ..linear
        },
    );
    // A separate sampler object at (0, 5) for the 2D array at (0, 4).
    res.bind_sampler(
        Binding::new(0, 5),
        Sampler {
            mip_filter: MipFilter::Linear,
            wrap: [Wrap::ClampToBorder; 3],
            lod_bias: 0.5,
            ..Sampler::default()
        },
    );
    res.bind_storage(Binding::new(0, 0), vec![0; 1024]);
    interp::run_compute(&func, &mut res, [1, 1, 1], &Limits::default()).expect("interpreter");
    let expected = f32s(res.buffer_data(Binding::new(0, 0)).unwrap());
    // Filtering and mip levels really happened: not every sample is a plain texel.
    assert!(expected.iter().any(|v| *v != 0.0 && *v != 1.0));

    let p = |name: &str| dir.join(name).display().to_string();
    for level in ["-O0", "-O2"] {
        let out = dir.join(format!("out{level}.bin"));
        let stdout = run_ok(&[
            "run",
            shader.to_str().unwrap(),
            level,
            "--groups",
            "1",
            "--buffer-size",
            "0=1024",
            "--texture",
            &format!(
                "0.1={},cube:4,rgba16f,linear,clamp,levels=full,layers=2,mip=linear",
                p("cube.bin")
            ),
            "--texture",
            &format!("0.2={},3d:4x4x4,r32f,linear,repeat,levels=2", p("d3.bin")),
            "--texture",
            &format!(
                "0.3={},1d:8,rgba8,linear,mirror,layers=3,levels=full",
                p("d1.bin")
            ),
            "--texture",
            &format!("0.4={},2d:4x4,rgba32f,layers=2,levels=3", p("d2.bin")),
            "--sampler",
            "0.5=nearest,border,mip=linear,lod-bias=0.5",
            "--out",
            &format!("0={}", out.display()),
        ]);
        assert!(
            stdout.contains("storage buffer (0, 0): 1024 bytes"),
            "{stdout}"
        );
        let got = f32s(&std::fs::read(&out).unwrap());
        close(&got, &expected, 1e-4, &format!("texture kinds {level}"));
    }
}

/// Invocation (x, y) loads texel (x, y) of img(0, 0) and stores it, rearranged, at (x, y) of
/// img(0, 1): `FORMAT` and `T` (f32 or i32) are substituted per format.
const IMAGE_COPY: &str = "function @copy compute local_size(4, 3, 1) {
block0:
    v0:i32 = builtin global_id.x
    v1:i32 = builtin global_id.y
    v2:T, v3:T, v4:T, v5:T = image_load 2d FORMAT img(0, 0) v0, v1
    v6:T = ADD v2, v3
    image_store 2d FORMAT img(0, 1) v0, v1, v6, v4, v5, v2
    v7:i32, v8:i32 = image_size 2d FORMAT img(0, 0)
    v9:i32 = const 4
    v10:i32 = imul v1, v9
    v11:i32 = iadd v10, v0
    v12:i32 = const 8
    v13:i32 = imul v11, v12
    store storage(0, 2) [v13], v7, v8
    return
}
";

#[test]
fn storage_images_of_every_format_are_bound_and_read_back() {
    let dir = scratch("storage_images");
    let formats = [
        TextureFormat::Rgba8Unorm,
        TextureFormat::Rgba16Float,
        TextureFormat::Rgba32Float,
        TextureFormat::R32Float,
        TextureFormat::Rgba32Uint,
        TextureFormat::Rgba32Sint,
        TextureFormat::R32Uint,
        TextureFormat::R32Sint,
    ];
    for format in formats {
        let int = matches!(
            format,
            TextureFormat::Rgba32Uint
                | TextureFormat::Rgba32Sint
                | TextureFormat::R32Uint
                | TextureFormat::R32Sint
        );
        let name = format.name();
        let text = IMAGE_COPY
            .replace("FORMAT", name)
            .replace(":T", if int { ":i32" } else { ":f32" })
            .replace("ADD", if int { "iadd" } else { "fadd" });
        let func = parse(&text);
        let shader = dir.join(format!("{name}.ir"));
        std::fs::write(&shader, &text).unwrap();
        let desc = TextureDesc::d2(format, 4, 3);
        let src = if int {
            let words: Vec<[u32; 4]> = (0..12u32)
                .map(|i| {
                    [
                        i.wrapping_mul(0x9E37_79B9),
                        0x7F80_0001 + i,
                        i,
                        0xFFFF_FFF0 | i,
                    ]
                })
                .collect();
            Texture::from_words(desc, &words).unwrap()
        } else {
            Texture::from_texels(desc, &texels(12)).unwrap()
        };
        let src_file = dir.join(format!("{name}.src"));
        std::fs::write(&src_file, src.data()).unwrap();
        let mut res = Resources::new();
        res.bind_texture(Binding::new(0, 0), src);
        // The destination starts zero-filled, as `--storage-image 0.1=,...` makes it.
        let zero = vec![0u8; src_file.metadata().unwrap().len() as usize];
        res.bind_texture(Binding::new(0, 1), Texture::new(desc, zero).unwrap());
        res.bind_storage(Binding::new(0, 2), vec![0; 96]);
        interp::run_compute(&func, &mut res, [1, 1, 1], &Limits::default()).expect("interpreter");
        let expected = res.texture(Binding::new(0, 1)).unwrap().data().to_vec();
        assert!(
            expected.iter().any(|&b| b != 0),
            "{name}: the interpreter stored texels"
        );
        let sizes = res.buffer_data(Binding::new(0, 2)).unwrap().to_vec();
        let words: Vec<u32> = sizes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        assert_eq!(words[..2], [4, 3], "{name}: the interpreter's image_size");

        for level in ["-O0", "-O2"] {
            let out = dir.join(format!("{name}{level}.out"));
            let sizes_out = dir.join(format!("{name}{level}.sizes"));
            let stdout = run_ok(&[
                "run",
                shader.to_str().unwrap(),
                level,
                "--groups",
                "1",
                "--storage-image",
                &format!("0.0={},4x3,{name}", src_file.display()),
                "--storage-image",
                &format!("0.1=,2d:4x3,{name}"),
                "--buffer-size",
                "2=96",
                "--out",
                &format!("0.1={}", out.display()),
                "--out",
                &format!("2={}", sizes_out.display()),
            ]);
            assert!(
                stdout.contains(&format!("storage image (0, 1): 4x3x1 {name}")),
                "{stdout}"
            );
            // Stores round to the format the same way in both: bytes compare exactly.
            assert_eq!(std::fs::read(&out).unwrap(), expected, "{name} {level}");
            assert_eq!(std::fs::read(&sizes_out).unwrap(), sizes, "{name} {level}");
        }
    }
}

/// Position from attribute 0 scaled by a texel of a 2D texture fetched at the vertex's index,
/// point size from attribute 1, an integer and a float varying.
const VERTEX: &str = "function @vs vertex {
block0:
    v0:i32 = builtin vertex_index
    v1:f32 = input 0.x flat
    v2:f32 = input 0.y flat
    v3:f32 = input 0.z flat
    v4:f32 = input 1.x flat
    v5:f32 = s2f v0
    v6:f32 = const 0.125
    v7:f32 = fmul v5, v6
    v8:f32 = const 0.5
    v9:f32 = const 0.0
    v10:f32, v11:f32, v12:f32, v13:f32 = sample 2d tex(0, 0) sampler(0, 0) explicit v7, v8, v9
    v14:f32 = fmul v1, v10
    v15:f32 = fmul v2, v11
    v16:f32 = fadd v3, v12
    v17:f32 = const 1.0
    output position.x v14
    output position.y v15
    output position.z v16
    output position.w v17
    output point_size v4
    v18:i32 = const 3
    v19:i32 = imul v0, v18
    output 0.x v19
    v20:f32 = sin v4
    output 1.y v20
    output 1.w v13
    return
}
";

#[test]
fn vertex_shaders_run_from_attribute_files() {
    let dir = scratch("vertex");
    let shader = dir.join("vs.ir");
    std::fs::write(&shader, VERTEX).unwrap();
    let func = parse(VERTEX);
    let n = 37u32; // more than one SIMD-group of 32
    let attr0: Vec<[f32; 4]> = (0..n)
        .map(|i| {
            [
                i as f32 * 0.5 - 3.0,
                1.0 - i as f32 * 0.25,
                i as f32 * 0.01,
                1.0,
            ]
        })
        .collect();
    let attr1: Vec<[f32; 4]> = (0..n)
        .map(|i| [1.0 + i as f32 * 0.3, 0.0, 0.0, 0.0])
        .collect();
    write_f32s(&dir.join("a0.bin"), &attr0.concat());
    write_f32s(&dir.join("a1.bin"), &attr1.concat());
    let desc = TextureDesc::d2(TextureFormat::Rgba32Float, 8, 2);
    let tex = texture_file(&dir.join("tex.bin"), desc);
    let mut res = Resources::new();
    res.bind_combined(Binding::new(0, 0), tex, Sampler::default());
    let attributes = BTreeMap::from([(0, attr0), (1, attr1)]);
    let expected =
        interp::run_vertex(&func, &res, n, &attributes, &Limits::default()).expect("interpreter");

    for level in ["-O0", "-O2"] {
        let out = |name: &str| dir.join(format!("{name}{level}.bin"));
        let stdout = run_ok(&[
            "run",
            shader.to_str().unwrap(),
            level,
            "--attribute",
            &format!("0={}", dir.join("a0.bin").display()),
            "--attribute",
            &format!("1={}", dir.join("a1.bin").display()),
            "--texture",
            &format!("0={},8x2,rgba32f", dir.join("tex.bin").display()),
            "--vertex-out",
            &format!("position={}", out("pos").display()),
            "--vertex-out",
            &format!("point-size={}", out("psize").display()),
            "--vertex-out",
            &format!("0={}", out("v0").display()),
            "--vertex-out",
            &format!("1={}", out("v1").display()),
        ]);
        assert!(
            stdout.contains("37 vertices") && stdout.contains("position:"),
            "{stdout}"
        );
        let read = |name: &str| f32s(&std::fs::read(out(name)).unwrap());
        close(&read("pos"), &expected.positions.concat(), 0.0, "position");
        close(&read("psize"), &expected.point_sizes, 0.0, "point size");
        // Integer outputs as their bit pattern in both.
        assert_eq!(read("v0"), expected.varyings[&0].concat(), "location 0");
        close(
            &read("v1"),
            &expected.varyings[&1].concat(),
            1e-5,
            "location 1 (sin)",
        );
    }
    // No attributes and no count: an error naming the flag.
    let o = agxc(&["run", shader.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        !o.status.success() && stderr.contains("--vertices"),
        "{stderr}"
    );
}

/// `--max-iterations`, `--max-nodes` and `--time-limit` stop saturation where they say (the
/// report names the limit), and the code still computes what the interpreter does.
#[test]
fn egraph_limit_flags_stop_saturation_and_keep_results_right() {
    let dir = scratch("egraph_limits");
    let shader = dir.join("saxpy_sin.ir");
    std::fs::write(&shader, super::SAXPY_SIN).unwrap();
    let path = shader.to_str().unwrap();
    let x: Vec<f32> = (0..64).map(|i| i as f32 * 0.1 - 3.0).collect();
    write_f32s(&dir.join("x.bin"), &x);
    write_f32s(&dir.join("push.bin"), &[1.5]);
    let mut res = Resources::new();
    res.bind_storage(
        Binding::new(0, 0),
        x.iter().flat_map(|v| v.to_le_bytes()).collect(),
    );
    res.bind_storage(Binding::new(0, 1), vec![0; 256]);
    res.set_push_constants(1.5f32.to_le_bytes().to_vec());
    interp::run_compute(
        &parse(super::SAXPY_SIN),
        &mut res,
        [1, 1, 1],
        &Limits::default(),
    )
    .expect("interpreter");
    let expected = f32s(res.buffer_data(Binding::new(0, 1)).unwrap());

    let cases: [(&[&str], &str); 3] = [
        (&["--max-iterations", "1"], "iteration limit (1)"),
        (&["--max-nodes", "20"], "node limit"),
        (&["--time-limit", "0"], "time limit"),
    ];
    for (flags, reason) in cases {
        let mut args = vec!["compile", path, "--emit", "report"];
        args.extend_from_slice(flags);
        let report = run_ok(&args);
        assert!(report.contains(reason), "{flags:?}: {report}");
        let out = dir.join("y.bin");
        let push = dir.join("push.bin");
        let mut args = vec![
            "run",
            path,
            "--groups",
            "1",
            "--push",
            push.to_str().unwrap(),
        ];
        let x_arg = format!("0={}", dir.join("x.bin").display());
        let out_arg = format!("1={}", out.display());
        args.extend([
            "--buffer",
            &x_arg,
            "--buffer-size",
            "1=256",
            "--out",
            &out_arg,
        ]);
        args.extend_from_slice(flags);
        run_ok(&args);
        close(
            &f32s(&std::fs::read(&out).unwrap()),
            &expected,
            1e-5,
            reason,
        );
    }
    // Without the flags the run saturates or stops at the defaults, never at these.
    let report = run_ok(&["compile", path, "--emit", "report"]);
    assert!(!report.contains("iteration limit (1)"), "{report}");
    for bad in [["--max-iterations", "0"], ["--time-limit", "-1"]] {
        let o = agxc(&["compile", path, bad[0], bad[1]]);
        assert!(!o.status.success(), "{bad:?}");
    }
}

/// `agxc run --dump` prints the passes too; a texel file of the wrong size is a one-line error.
#[test]
fn run_dumps_passes_and_bad_images_are_one_line_errors() {
    let dir = scratch("run_dump");
    let shader = dir.join("saxpy_sin.ir");
    std::fs::write(&shader, super::SAXPY_SIN).unwrap();
    write_f32s(&dir.join("push.bin"), &[1.0]);
    let o = agxc(&[
        "run",
        shader.to_str().unwrap(),
        "--groups",
        "1",
        "--buffer-size",
        "0=256",
        "--buffer-size",
        "1=256",
        "--push",
        dir.join("push.bin").to_str().unwrap(),
        "--dump",
        "lift,emit",
    ]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    assert!(
        stderr.contains("; after lift\n") && stderr.contains("; after emit\n"),
        "{stderr}"
    );

    // A texel file of the wrong size names the file and the size it needs.
    let short = dir.join("short.bin");
    std::fs::write(&short, [0u8; 100]).unwrap();
    let o = agxc(&[
        "run",
        shader.to_str().unwrap(),
        "--groups",
        "1",
        "--push",
        dir.join("push.bin").to_str().unwrap(),
        "--texture",
        &format!("0.3={},cube:2,rgba8,levels=2", short.display()),
    ]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        !o.status.success() && !stderr.contains("panicked"),
        "{stderr}"
    );
    // 2x2 and 1x1 faces, six of each, four bytes a texel.
    assert!(
        stderr.contains("needs 120 bytes") && stderr.contains("short.bin"),
        "{stderr}"
    );
}
