//! Every shader of the SPIR-V corpus (`tests/corpus/spirv/*/shader.spv`) lifts and verifies, and
//! the lifted IR of a dozen of them matches the snapshots in `tests/snapshots/` exactly.
//! Re-bless the snapshots with `AGXC_BLESS=1 cargo test -p agxc-frontend --test spirv_corpus_lift`.

use agxc_egraph::ir::{parse_function, verify, OpRegistry};
use agxc_frontend::spirv::{lift, LiftOptions};
use std::path::{Path, PathBuf};

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/corpus/spirv");
const SNAPSHOTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/snapshots");

/// Cases whose lifted IR is pinned: control flow, memory layouts, 16-bit types, textures,
/// derivatives, specialization, inlining.
const SNAPSHOT_CASES: [&str; 12] = [
    "asm_phi_select_copy",
    "control_flow",
    "float16_math",
    "frag_demote_derivatives",
    "frag_shadow_samplers",
    "frag_texel_fetch_offset",
    "functions_inout",
    "int16_math",
    "private_array_sort",
    "shared_reduce",
    "spec_constants",
    "ubo_row_major",
];

/// The entry point a case names in its `case.toml` (`entry = "..."`), if any.
fn entry_of(dir: &Path) -> Option<String> {
    let manifest = std::fs::read_to_string(dir.join("case.toml")).ok()?;
    manifest.lines().find_map(|line| {
        let rest = line
            .trim()
            .strip_prefix("entry")?
            .trim_start()
            .strip_prefix('=')?;
        Some(rest.trim().trim_matches('"').to_string())
    })
}

fn cases() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(CORPUS)
        .unwrap_or_else(|e| panic!("{CORPUS}: {e}"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("shader.spv").is_file())
        .collect();
    dirs.sort();
    dirs
}

fn lift_case(dir: &Path) -> Result<agxc_egraph::ir::Function, String> {
    let bytes = std::fs::read(dir.join("shader.spv")).map_err(|e| e.to_string())?;
    let options = LiftOptions {
        entry: entry_of(dir),
        ..LiftOptions::default()
    };
    lift(&bytes, &options).map_err(|e| e.to_string())
}

#[test]
fn every_corpus_shader_lifts_and_verifies() {
    let dirs = cases();
    assert!(
        dirs.len() >= 60,
        "expected the corpus of at least 60 shaders, found {}",
        dirs.len()
    );
    let mut failures = Vec::new();
    for dir in &dirs {
        match lift_case(dir) {
            Ok(func) => {
                if let Err(e) = verify(&func) {
                    failures.push(format!("{}: verifier: {e}", dir.display()));
                }
            }
            Err(e) => failures.push(format!("{}: {e}", dir.display())),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} failed:\n{}",
        failures.len(),
        dirs.len(),
        failures.join("\n")
    );
}

#[test]
fn lifted_ir_matches_snapshots() {
    let bless = std::env::var_os("AGXC_BLESS").is_some_and(|v| v == "1");
    let mut stale = Vec::new();
    for name in SNAPSHOT_CASES {
        let dir = Path::new(CORPUS).join(name);
        let func = lift_case(&dir).unwrap_or_else(|e| panic!("{name}: {e}"));
        let text = func.to_string();
        // The dump is valid IR text: it reads back and prints the same.
        let reparsed =
            parse_function(&text, &OpRegistry::new()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            reparsed.to_string(),
            text,
            "{name}: the printed IR does not round-trip"
        );
        let path = Path::new(SNAPSHOTS).join(format!("{name}.ir"));
        if bless {
            std::fs::write(&path, &text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            continue;
        }
        match std::fs::read_to_string(&path) {
            Ok(expected) if expected == text => {}
            Ok(_) => stale.push(format!("{name}: differs from {}", path.display())),
            Err(e) => stale.push(format!("{name}: {}: {e}", path.display())),
        }
    }
    assert!(
        stale.is_empty(),
        "snapshots out of date (re-bless with AGXC_BLESS=1 after reviewing the change):\n{}",
        stale.join("\n")
    );
}
