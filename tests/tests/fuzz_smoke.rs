//! A cheap run of every cargo-fuzz target's checking logic (`agxc_tests::fuzz`) under
//! `cargo test`: on a few committed seeds, on simple mutations of them (truncations, flipped
//! bytes), and on every crash input the fuzzers found (`tests/fuzz_crashes/<target>/`, each a
//! regression test; `corpus_buffers` ones sit in a directory named for their case, since
//! byte 0 indexes a selection that changes with the corpus). The fuzz crate itself needs libFuzzer and a nightly compiler and is
//! outside the workspace; this keeps its targets compiling and their checks passing.

use std::fs;
use std::path::{Path, PathBuf};

use agxc_tests::fuzz;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the tests crate sits in the repository")
        .to_path_buf()
}

fn read(path: &Path) -> Vec<u8> {
    fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The crash inputs recorded for `target`, in name order.
fn crashes(target: &str) -> Vec<PathBuf> {
    let dir = root().join("tests/fuzz_crashes").join(target);
    let mut files: Vec<PathBuf> = match fs::read_dir(&dir) {
        Ok(entries) => entries.filter_map(|e| Some(e.ok()?.path())).collect(),
        Err(_) => Vec::new(),
    };
    files.sort();
    files
}

/// `seed` itself, then deterministic mutations: cut at several lengths, and single bytes
/// flipped at spread-out positions (a fuzzer's first moves, to reach the error paths).
fn mutations(seed: &[u8]) -> Vec<Vec<u8>> {
    let mut out = vec![seed.to_vec()];
    for cut in [
        0,
        1,
        4,
        20,
        seed.len() / 3,
        seed.len() / 2,
        seed.len().saturating_sub(1),
    ] {
        out.push(seed[..cut.min(seed.len())].to_vec());
    }
    for k in 1..8 {
        let mut m = seed.to_vec();
        if let Some(b) = m.get_mut(k * seed.len() / 8) {
            *b ^= 0xa5;
        }
        out.push(m);
    }
    out
}

fn run_all(target: &str, seeds: &[PathBuf], check: fn(&[u8])) {
    assert!(!seeds.is_empty(), "{target}: no seeds");
    for path in seeds {
        for input in mutations(&read(path)) {
            check(&input);
        }
    }
    for path in crashes(target) {
        check(&read(&path));
    }
}

#[test]
fn spirv_compile_on_seeds() {
    let dir = root().join("tests/corpus/spirv");
    let seeds = ["array_length", "asm_switch_fallthrough_phi", "matrix_ops"]
        .iter()
        .map(|c| dir.join(c).join("shader.spv"))
        .filter(|p| p.exists())
        .chain([root().join("frontend/tests/data/control.spv")])
        .collect::<Vec<_>>();
    run_all("spirv_compile", &seeds, fuzz::spirv_compile);
}

#[test]
fn tgsi_compile_on_seeds() {
    let dir = root().join("tests/corpus/tgsi/gen");
    let seeds = ["cf_loop_break", "bool_logic"]
        .iter()
        .map(|c| dir.join(c).join("shader.tgsi"))
        .collect::<Vec<_>>();
    run_all("tgsi_compile", &seeds, fuzz::tgsi_compile);
}

#[test]
fn ir_compile_on_seeds() {
    run_all(
        "ir_compile",
        &[root().join("examples/saxpy_sin.ir")],
        fuzz::ir_compile,
    );
}

#[test]
fn g13_run_on_seeds() {
    // A corpus shader's code behind each stage/register/engine selector byte.
    let spv = read(&root().join("tests/corpus/spirv/array_length/shader.spv"));
    let compiled =
        agxc::compile(&spv, &fuzz::options(agxc::OptLevel::O2)).expect("array_length compiles");
    fuzz::check_compiled(&compiled);
    for head in [0x00u8, 0x01, 0x06, 0x30, 0x40, 0x80, 0xc1] {
        for mut input in mutations(&compiled.binary.code) {
            input.insert(0, head);
            fuzz::g13_run(&input);
        }
    }
    for path in crashes("g13_run") {
        fuzz::g13_run(&read(&path));
    }
}

#[test]
fn corpus_buffers_on_seeds() {
    // A few small cases: every input below picks among them.
    let wanted = ["array_length", "bool_logic", "cf_loop_break"];
    let cases = fuzz::CorpusBuffers::load_where(|n| wanted.contains(&n));
    assert!(!cases.names().is_empty(), "no corpus_buffers case loaded");
    for pick in 0..cases.names().len() as u8 {
        for level in 0..2u8 {
            cases.check(&[pick, level]);
            // Special floats and integers over the buffers' starts: NaNs, infinities,
            // denormals, zeros of both signs, extremes.
            let mut input = vec![pick, level];
            for word in [
                0x7fc0_0001u32,
                0xff80_0000,
                0x0000_0001,
                0x8000_0000,
                0x7f7f_ffff,
                0xffff_ffff,
                0,
                0x3f80_0000,
            ]
            .iter()
            .cycle()
            .take(256)
            {
                input.extend_from_slice(&word.to_le_bytes());
            }
            cases.check(&input);
        }
    }
}

#[test]
fn corpus_buffers_crash_inputs() {
    // tests/fuzz_crashes/corpus_buffers/<case>/<input>: the case alone is loaded, so that
    // byte 0 picks it whatever its value.
    for dir in crashes("corpus_buffers") {
        let case = dir.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        let cases = fuzz::CorpusBuffers::load_where(|n| n == case);
        assert_eq!(cases.names(), [case], "{}: no such case", dir.display());
        let mut inputs: Vec<PathBuf> = fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .filter_map(|e| Some(e.ok()?.path()))
            .collect();
        inputs.sort();
        for path in inputs {
            cases.check(&read(&path));
        }
    }
}
