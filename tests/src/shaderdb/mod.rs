//! The shader-db report: every shader of a corpus compiled at `-O2`, one line of figures per
//! shader in the spirit of Mesa's `SHADER-DB` line, totals, and, when Mesa's reference figures
//! are available (`../shared/mesa-reference/stats.json`, see [`mesa`]), Mesa's figures beside
//! each shader and the geometric means of agxc's over Mesa's instructions and registers.
//!
//! It is the yardstick of the code-quality work: `cargo bench --bench shaderdb` (or
//! `cargo run --release -p agxc-tests --bin shaderdb -- [DIR...]`) prints it, and the test
//! `tests/tests/shaderdb.rs` compiles the corpus through the same [`collect`] and checks the
//! report's invariants (never its numbers).
//!
//! What is counted, per shader (from [`agxc::backend_agx::CodeStats`] and the metadata):
//! - `inst`: main-program machine instructions, `wait` and `stop` included (as Mesa counts);
//! - `pre`: preamble instructions (`stop` included), counted apart as Mesa does (0: no
//!   preamble);
//! - `halves`: 16-bit registers used (`r0l` .. the highest half used, a count); Mesa's `regs`
//!   is the *index* of its highest half, so its count is `regs + 1` (see [`mesa`]);
//! - `threads`: threads per core at that register count;
//! - `spills:fills`: `stack_store`/`stack_load` instructions of spill code;
//! - `bytes`: code bytes.

pub mod mesa;
pub mod report;

use std::fs;
use std::path::{Path, PathBuf};

use agxc::{compile, OptLevel, Options};

pub use mesa::{MesaFigures, MesaReference};
pub use report::{geometric_mean, Report};

/// One shader found in a corpus directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShaderFile {
    /// The case name (its directory's name).
    pub name: String,
    /// The shader: `shader.spv` or `shader.tgsi`.
    pub path: PathBuf,
    /// The entry point named by the case's `case.toml`, if it names one.
    pub entry: Option<String>,
}

/// What compiling one shader gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShaderStats {
    /// The stage (`compute`, `fragment`, ...).
    pub stage: String,
    /// Main-program instructions, `wait` and `stop` included.
    pub inst: u32,
    /// Preamble instructions (0: no preamble).
    pub preamble: u32,
    /// 16-bit registers used (a count).
    pub halves: u32,
    /// Threads per core.
    pub threads: u32,
    /// `stack_store` instructions.
    pub spills: u32,
    /// `stack_load` instructions.
    pub fills: u32,
    /// Loops.
    pub loops: u32,
    /// Code bytes.
    pub bytes: u32,
}

/// One line of the report: a shader and what compiling it gave (or why it failed).
#[derive(Clone, Debug)]
pub struct Row {
    /// The shader.
    pub file: ShaderFile,
    /// Its figures, or the compile error.
    pub result: Result<ShaderStats, String>,
}

/// The source files the report compiles, in the order they are tried.
const SHADER_NAMES: [&str; 2] = ["shader.spv", "shader.tgsi"];

/// The shaders under `dir`: `dir` itself when it holds a `shader.spv` or `shader.tgsi`, else every
/// subdirectory that holds one, sorted by name.
pub fn find_shaders(dir: &Path) -> Result<Vec<ShaderFile>, String> {
    if let Some(file) = shader_in(dir) {
        return Ok(vec![file]);
    }
    let entries = fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut subdirs = Vec::new();
    for entry in entries {
        let path = entry.map_err(|e| format!("{}: {e}", dir.display()))?.path();
        if path.is_dir() {
            subdirs.push(path);
        }
    }
    subdirs.sort();
    Ok(subdirs.iter().filter_map(|d| shader_in(d)).collect())
}

fn shader_in(dir: &Path) -> Option<ShaderFile> {
    let path = SHADER_NAMES
        .iter()
        .map(|n| dir.join(n))
        .find(|p| p.is_file())?;
    let name = dir
        .file_name()
        .map_or_else(|| dir.display().to_string(), |n| n.to_string_lossy().into());
    Some(ShaderFile {
        name,
        path,
        entry: case_entry(dir),
    })
}

/// The `entry` of `dir/case.toml`, if the file exists and names one.
fn case_entry(dir: &Path) -> Option<String> {
    let text = fs::read_to_string(dir.join("case.toml")).ok()?;
    let value: toml::Value = toml::from_str(&text).ok()?;
    value.get("entry")?.as_str().map(str::to_owned)
}

/// Compiles `file` at `level` and gathers its figures.
pub fn compile_one(file: &ShaderFile, level: OptLevel) -> Result<ShaderStats, String> {
    let source = fs::read(&file.path).map_err(|e| format!("{}: {e}", file.path.display()))?;
    let opts = Options {
        entry: file.entry.clone(),
        opt_level: level,
        ..Options::default()
    };
    let compiled = compile(&source, &opts).map_err(|e| e.to_string())?;
    let b = &compiled.binary;
    Ok(ShaderStats {
        stage: b.metadata.stage.name().to_owned(),
        inst: b.stats.instructions,
        preamble: b.preamble.as_ref().map_or(0, |p| p.instructions),
        halves: b.metadata.gpr_halves,
        threads: b.metadata.threads_per_core,
        spills: b.stats.spills,
        fills: b.stats.fills,
        loops: b.stats.loops,
        bytes: b.stats.bytes,
    })
}

/// Compiles every shader under `dirs` (see [`find_shaders`]) at `level`, one row each, in
/// directory order.
pub fn collect(dirs: &[PathBuf], level: OptLevel) -> Result<Vec<Row>, String> {
    let mut rows = Vec::new();
    for dir in dirs {
        for file in find_shaders(dir)? {
            let result = compile_one(&file, level);
            rows.push(Row { file, result });
        }
    }
    Ok(rows)
}

/// The SPIR-V corpus of this source tree.
pub fn default_corpus() -> PathBuf {
    crate::corpus::corpus_dir("spirv")
}

/// Runs the report as a command: `[-O0|-O2] [--mesa STATS_JSON | --no-mesa] [DIR...]` (default:
/// the SPIR-V corpus, Mesa's figures from [`MesaReference::locate`]). Arguments cargo's bench
/// runner adds (`--bench`) are ignored. Returns the text to print, or a usage error.
pub fn run_command(args: &[String]) -> Result<String, String> {
    let mut dirs = Vec::new();
    let mut level = OptLevel::O2;
    let mut mesa_path: Option<PathBuf> = None;
    let mut no_mesa = false;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "-O0" => level = OptLevel::O0,
            "-O2" => level = OptLevel::O2,
            "--bench" => {}
            "--no-mesa" => no_mesa = true,
            "--mesa" => {
                let p = it.next().ok_or("--mesa needs the path of stats.json")?;
                mesa_path = Some(PathBuf::from(p));
            }
            "-h" | "--help" => {
                return Ok(
                    "usage: shaderdb [-O0|-O2] [--mesa STATS_JSON | --no-mesa] [DIR...]\n\
                     DIR: a case directory or a directory of cases (default: tests/corpus/spirv)\n"
                        .into(),
                )
            }
            other if other.starts_with('-') => return Err(format!("unknown option {other}")),
            other => dirs.push(PathBuf::from(other)),
        }
    }
    if dirs.is_empty() {
        dirs.push(default_corpus());
    }
    let mesa = if no_mesa {
        None
    } else {
        match mesa_path {
            Some(p) => Some(MesaReference::load(&p)?),
            None => MesaReference::locate()
                .map(|p| MesaReference::load(&p))
                .transpose()?,
        }
    };
    let rows = collect(&dirs, level)?;
    Ok(Report::new(rows, mesa.as_ref()).to_string())
}
