//! Failure reports: printed, and written with the dumps to a directory.
//!
//! The text shows the property, the seed that reproduces the original case
//! (`AGXC_EQUIV_SEED=<seed> AGXC_EQUIV_CASES=1`), what failed, the first differing element with
//! both values and its invocation and output slot, the shader (the shrunk program's IR text,
//! which `parse_function` reads back), the optimized IR and the input buffer. The directory
//! `<dir>/<property>-<seed>/` holds `report.txt`, `before.ir`, `after.ir`, `egraph.dot`,
//! `disasm.s` (whichever exist) and the raw `input.bin`, `expected.bin` and `got.bin`.

use crate::equiv::case::Case;
use crate::equiv::check::Failure;
use agxc_egraph::ir::arbitrary::{INVOCATION_BYTES, SLOT_BYTES};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The report text; `seed` is the random case's (none for a case built by hand).
pub fn text(property: &str, seed: Option<u64>, case: &Case, failure: &Failure) -> String {
    let mut s = String::new();
    let origin = match seed {
        Some(seed) => format!("seed {seed:#x}; shrunk to"),
        None => "a given case of".into(),
    };
    let _ = writeln!(
        s,
        "equiv {property}: FAILURE ({origin} {} statements, {} instructions besides the \
         prelude and epilogue)",
        case.recipe.size(),
        case.recipe.body_insts()
    );
    let _ = writeln!(s, "{}", failure.what);
    if let Some(m) = &failure.mismatch {
        let invocation = m.offset / INVOCATION_BYTES as usize;
        let slot = (m.offset % INVOCATION_BYTES as usize) / SLOT_BYTES as usize;
        let _ = writeln!(
            s,
            "first difference: invocation {invocation}, output slot {slot}, {m}"
        );
    }
    if let Some(seed) = seed {
        let _ = writeln!(
            s,
            "reproduce: AGXC_EQUIV_SEED={seed:#x} AGXC_EQUIV_CASES=1 (the unshrunk case)"
        );
    }
    let _ = writeln!(
        s,
        "--- shader (IR before optimization) ---\n{}",
        failure.reference
    );
    if let Some(opt) = &failure.optimized {
        let _ = writeln!(s, "--- IR after optimization ---\n{opt}");
    }
    let _ = writeln!(s, "--- inputs ---\n{:?}", case.input);
    s
}

/// Writes the failure directory; returns its path.
pub fn write(
    dir: &Path,
    property: &str,
    seed: u64,
    case: &Case,
    failure: &Failure,
    report: &str,
) -> std::io::Result<PathBuf> {
    let dir = dir.join(format!("{property}-{seed:#x}"));
    std::fs::create_dir_all(&dir)?;
    std::fs::write(dir.join("report.txt"), report)?;
    std::fs::write(dir.join("before.ir"), failure.reference.to_string())?;
    if let Some(opt) = &failure.optimized {
        std::fs::write(dir.join("after.ir"), opt.to_string())?;
    }
    if let Some(r) = &failure.opt_report {
        std::fs::write(dir.join("rules.txt"), r)?;
    }
    if let Some(dot) = &failure.dot {
        std::fs::write(dir.join("egraph.dot"), dot)?;
    }
    if let Some(asm) = &failure.disassembly {
        std::fs::write(dir.join("disasm.s"), asm)?;
    }
    std::fs::write(dir.join("input.bin"), case.input.bytes())?;
    std::fs::write(dir.join("expected.bin"), &failure.expected)?;
    std::fs::write(dir.join("got.bin"), &failure.got)?;
    Ok(dir)
}
