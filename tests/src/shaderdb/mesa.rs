//! Mesa's reference figures: `stats.json` of `../shared/mesa-reference/` (Mesa 25.0.7's asahi
//! compiler on the same corpus; its README describes how they were made).
//!
//! Per case the file holds several runs (`gl`: the GLSL source through Mesa's GLSL front end;
//! `gl_spirv`: the same through glslang and GL_ARB_gl_spirv; `vk_spirv`: the corpus's own
//! `shader.spv`; `gl_linked`: a fragment shader linked with a vertex shader, whose cross-stage
//! optimisation moves work out of the fragment shader, so it is never used here). The figure
//! compared with agxc is the run with the fewest main-program instructions among `gl`,
//! `gl_spirv` and `vk_spirv` (the README's "best Mesa" anchor: the lower of its GLSL and SPIR-V
//! counts), with that run's registers. Caveats the numbers carry (the README has them all):
//! Mesa does not count its preamble (uniform-only work hoisted out of the per-thread program) or
//! a fragment shader's epilog; its GL path adds a y-flip multiply-add to every fragment shader
//! reading `gl_FragCoord.y` and a multiply before every `dFdy`.
//!
//! Registers: Mesa's `regs` is the index of the highest 16-bit half it uses
//! (`agx_ra`: `max_reg = max(reg + size - 1)`), so the count comparable with agxc's `halves` is
//! `regs + 1` (its `gprs32` is `(regs + 1) / 2`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

/// The runs compared with agxc, in the README's order of preference among equals.
pub const VARIANTS: [&str; 3] = ["gl", "gl_spirv", "vk_spirv"];

/// Mesa's figures for one shader: the run chosen (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MesaFigures {
    /// Which run (`gl`, `gl_spirv` or `vk_spirv`).
    pub variant: String,
    /// Main-program instructions (`wait` and `stop` included, preamble not).
    pub inst: u32,
    /// 16-bit registers used: `regs + 1`.
    pub halves: u32,
    /// Threads per core.
    pub threads: u32,
    /// Preamble instructions counted from the listing (`None`: no preamble).
    pub preamble: Option<u32>,
    /// Spill instructions.
    pub spills: u32,
    /// Fill instructions.
    pub fills: u32,
}

/// Mesa's figures for every case that has them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MesaReference {
    /// Where the figures came from.
    pub source: PathBuf,
    /// By case name.
    pub cases: BTreeMap<String, MesaFigures>,
}

impl MesaReference {
    /// Where `stats.json` is, if anywhere: `$AGXC_MESA_REFERENCE` (the file or its directory),
    /// else `shared/mesa-reference/stats.json` in the nearest ancestor of this source tree
    /// that has one (`../shared/mesa-reference/` of a checkout).
    pub fn locate() -> Option<PathBuf> {
        if let Some(p) = std::env::var_os("AGXC_MESA_REFERENCE") {
            let p = PathBuf::from(p);
            let file = if p.is_dir() { p.join("stats.json") } else { p };
            return file.is_file().then_some(file);
        }
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .ancestors()
            .map(|a| a.join("shared/mesa-reference/stats.json"))
            .find(|p| p.is_file())
    }

    /// Reads and parses `path`.
    pub fn load(path: &Path) -> Result<MesaReference, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut r = MesaReference::parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        r.source = path.to_owned();
        Ok(r)
    }

    /// Parses the text of a `stats.json`.
    pub fn parse(text: &str) -> Result<MesaReference, String> {
        let root: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let cases = root.as_object().ok_or("the top level is not an object")?;
        let mut out = MesaReference::default();
        for (name, case) in cases {
            if name.starts_with('_') {
                continue;
            }
            if let Some(f) = best_run(case).map_err(|e| format!("{name}: {e}"))? {
                out.cases.insert(name.clone(), f);
            }
        }
        Ok(out)
    }

    /// The figures of `name`, if Mesa has them.
    pub fn get(&self, name: &str) -> Option<&MesaFigures> {
        self.cases.get(name)
    }
}

/// The run with the fewest instructions among [`VARIANTS`] that compiled (first of equals).
fn best_run(case: &Value) -> Result<Option<MesaFigures>, String> {
    let mut best: Option<MesaFigures> = None;
    for variant in VARIANTS {
        let Some(run) = case.get(variant) else {
            continue;
        };
        if run.get("ok").and_then(Value::as_bool) != Some(true) {
            continue;
        }
        let Some(main) = run.get("main").filter(|m| m.is_object()) else {
            continue;
        };
        let field = |key: &str| -> Result<u32, String> {
            main.get(key)
                .and_then(Value::as_u64)
                .and_then(|v| u32::try_from(v).ok())
                .ok_or_else(|| format!("{variant}: `main.{key}` is missing or not a count"))
        };
        let figures = MesaFigures {
            variant: variant.to_owned(),
            inst: field("inst")?,
            halves: field("regs")? + 1,
            threads: field("threads")?,
            preamble: run
                .get("preamble")
                .and_then(|p| p.get("inst_from_listing"))
                .and_then(Value::as_u64)
                .map(|v| v as u32),
            spills: field("spills")?,
            fills: field("fills")?,
        };
        if best.as_ref().is_none_or(|b| figures.inst < b.inst) {
            best = Some(figures);
        }
    }
    Ok(best)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(inst: u32, regs: u32) -> String {
        format!(
            r#"{{"ok": true, "main": {{"inst": {inst}, "regs": {regs}, "threads": 1024,
                 "spills": 0, "fills": 0}}, "preamble": {{"inst_from_listing": 7}}}}"#
        )
    }

    #[test]
    fn the_run_with_fewest_instructions_is_chosen_and_regs_become_a_count() {
        let text = format!(
            r#"{{"_about": {{}},
               "a": {{"gl": {}, "gl_spirv": {}, "gl_linked": {}}},
               "b": {{"gl": {{"ok": false, "error": "x"}}, "vk_spirv": {}}},
               "c": {{"gl": {{"ok": false}}}}}}"#,
            run(40, 15),
            run(30, 21),
            run(5, 3),
            run(12, 9)
        );
        let r = MesaReference::parse(&text).unwrap();
        let a = r.get("a").unwrap();
        // gl_linked (5 instructions) is never the anchor.
        assert_eq!((a.variant.as_str(), a.inst, a.halves), ("gl_spirv", 30, 22));
        assert_eq!(a.preamble, Some(7));
        let b = r.get("b").unwrap();
        assert_eq!((b.variant.as_str(), b.inst, b.halves), ("vk_spirv", 12, 10));
        assert!(r.get("c").is_none());
        assert_eq!(r.cases.len(), 2);
    }

    #[test]
    fn a_run_without_a_count_is_an_error_naming_the_case() {
        let text = r#"{"a": {"gl": {"ok": true, "main": {"inst": 3}}}}"#;
        let e = MesaReference::parse(text).unwrap_err();
        assert!(e.starts_with("a: gl: `main.regs`"), "{e}");
    }
}
