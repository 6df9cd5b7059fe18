//! Corpus benchmark: compile time per shader at `-O0` and `-O2`, static code size and cycle
//! estimates, simulated cycles of the corpus runs, and Khronos's `spirv-opt -O` for scale.
//!
//! `cargo bench --bench corpus` walks every `tests/corpus/spirv/*/shader.spv` and every
//! `tests/corpus/tgsi/gen/*/shader.tgsi`:
//!
//! - compile time: `agxc::compile` (lift, saturate at `-O2`, backend, encode) repeated
//!   `AGXC_BENCH_REPS` times (default 5); the median of both the thread's CPU time
//!   (`CLOCK_THREAD_CPUTIME_ID`, which a loaded machine disturbs least) and wall time;
//! - the binary's static statistics (`Compiled.binary.stats`): instructions, estimated cycles;
//! - for cases with a manifest, the case's own launch (`agxc_tests::run::prepare`) compiled at
//!   both levels and run in the G13 simulator: executed instructions and summed SIMD-group
//!   cycles, with the outputs compared against the recorded oracle outputs;
//! - `spirv-opt -O` on each `.spv` when it is installed, as a subprocess: median wall time and
//!   median child CPU time (`getrusage(RUSAGE_CHILDREN)`), process start-up included.
//!
//! `AGXC_BENCH_FILTER=substring` restricts the shaders. Failures are listed with their error.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use agxc::backend_agx::Binary;
use agxc::egraph::ir::{Binding, Function};
use agxc::sim;
use agxc::{compile, compile_function, OptLevel, Options};
use agxc_tests::corpus::{compare_outputs, Case, OutputKey, Outputs};
use agxc_tests::run::{prepare, Language, Launch, LaunchStage};

/// Why a simulated run produced no cycles.
#[derive(Debug, thiserror::Error)]
enum RunFailure {
    #[error("prepare: {0}")]
    Prepare(String),
    #[error("optimize: {0}")]
    Optimize(String),
    #[error("backend: {0}")]
    Backend(String),
    #[error("simulator: {0}")]
    Sim(String),
}

/// A median CPU and wall time in milliseconds.
#[derive(Clone, Copy, Debug, Default)]
struct Timing {
    cpu_ms: f64,
    wall_ms: f64,
}

impl fmt::Display for Timing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:7.2}/{:7.2}", self.cpu_ms, self.wall_ms)
    }
}

fn thread_cpu_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, exclusively borrowed timespec for the call's duration.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// User plus system CPU time of all waited-for children, in nanoseconds.
fn children_cpu_ns() -> u64 {
    // SAFETY: getrusage fills the zeroed struct it is given.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut ru) };
    let us = |t: libc::timeval| t.tv_sec as u64 * 1_000_000 + t.tv_usec as u64;
    (us(ru.ru_utime) + us(ru.ru_stime)) * 1000
}

fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Runs `f` `reps` times; the median CPU/wall time and the last result.
fn measure<T>(reps: usize, mut f: impl FnMut() -> T) -> (Timing, T) {
    let mut cpu = Vec::with_capacity(reps);
    let mut wall = Vec::with_capacity(reps);
    let mut last = None;
    for _ in 0..reps.max(1) {
        let c0 = thread_cpu_ns();
        let w0 = Instant::now();
        let r = f();
        wall.push(w0.elapsed().as_secs_f64() * 1e3);
        cpu.push((thread_cpu_ns() - c0) as f64 / 1e6);
        last = Some(r);
    }
    let timing = Timing {
        cpu_ms: median(cpu),
        wall_ms: median(wall),
    };
    (timing, last.expect("at least one repetition"))
}

/// One level's compile of one shader.
struct LevelResult {
    time: Timing,
    instructions: u32,
    est_cycles: u32,
    gpr_halves: u32,
}

/// One level's simulated run.
struct SimResult {
    instructions: u64,
    cycles: u64,
    matches: Option<bool>,
}

struct ShaderResult {
    name: String,
    compiled: [Result<LevelResult, String>; 2],
    sim: Option<[Result<SimResult, RunFailure>; 2]>,
    spirv_opt: Option<Result<Timing, String>>,
}

/// Render targets by location, RGBA per pixel.
type Targets = BTreeMap<u32, Vec<[f32; 4]>>;

const LEVELS: [OptLevel; 2] = [OptLevel::O0, OptLevel::O2];

fn time_compile(
    source: &[u8],
    entry: Option<String>,
    level: OptLevel,
    reps: usize,
) -> Result<LevelResult, String> {
    let opts = Options {
        entry,
        opt_level: level,
        ..Options::default()
    };
    let (time, result) = measure(reps, || compile(source, &opts));
    let c = result.map_err(|e| e.to_string())?;
    Ok(LevelResult {
        time,
        instructions: c.binary.stats.instructions,
        est_cycles: c.binary.stats.estimated_cycles,
        gpr_halves: c.binary.metadata.gpr_halves,
    })
}

/// A render target as the corpus records it; a location never written keeps the clear colour.
fn target_bytes(targets: &Targets, pixels: usize, location: u32, clear: [f32; 4]) -> Vec<u8> {
    match targets.get(&location) {
        Some(t) => t
            .iter()
            .flat_map(|px| px.iter().flat_map(|c| c.to_le_bytes()))
            .collect(),
        None => std::iter::repeat_n(clear, pixels)
            .flat_map(|px| px.into_iter().flat_map(f32::to_le_bytes))
            .collect(),
    }
}

fn binary_at(func: &Function, level: OptLevel) -> Result<Binary, RunFailure> {
    let options = Options {
        opt_level: level,
        ..Options::default()
    };
    match compile_function(func, &options) {
        Ok(c) => Ok(c.binary),
        Err(agxc::Error::Optimize(e)) => Err(RunFailure::Optimize(e.to_string())),
        Err(e) => Err(RunFailure::Backend(e.to_string())),
    }
}

fn simulate(
    case: &Case,
    func: &Function,
    launch: &Launch,
    level: OptLevel,
) -> Result<SimResult, RunFailure> {
    let binary = binary_at(func, level)?;
    let mut res = launch.resources();
    let sim_err = |e: sim::SimError| RunFailure::Sim(e.to_string());
    let (stats, fragment) = match &launch.stage {
        LaunchStage::Compute { groups } => (
            sim::run_compute(&binary, &mut res, *groups).map_err(sim_err)?,
            None,
        ),
        LaunchStage::Fragment(grid) => {
            let r = sim::run_fragment(&binary, &mut res, grid).map_err(sim_err)?;
            let pixels = grid.width as usize * grid.height as usize;
            (r.stats, Some((r.targets, pixels, grid.clear)))
        }
    };
    let mut outputs = Outputs::default();
    for spec in &launch.outputs {
        let bytes = match (spec.key, &fragment) {
            (OutputKey::Buffer { set, binding }, _) => res
                .buffer_data(Binding::new(set, binding))
                .map(<[u8]>::to_vec),
            (OutputKey::Target { location }, Some((targets, pixels, clear))) => {
                Some(target_bytes(targets, *pixels, location, *clear))
            }
            (OutputKey::Target { .. }, None) => None,
            (OutputKey::Image { set, binding }, _) => res
                .texture(Binding::new(set, binding))
                .map(|t| t.data().to_vec()),
        };
        if let Some(bytes) = bytes {
            outputs.insert(spec.key, bytes);
        }
    }
    let matches = case.read_expected().ok().map(|expected| {
        compare_outputs(&case.name, &launch.outputs, &expected, &outputs).is_empty()
    });
    Ok(SimResult {
        instructions: stats.instructions,
        cycles: stats.total_cycles(),
        matches,
    })
}

fn spirv_opt_time(spv: &Path, reps: usize) -> Option<Result<Timing, String>> {
    let out = std::env::temp_dir().join(format!("agxc-bench-{}.spv", std::process::id()));
    let mut cpu = Vec::new();
    let mut wall = Vec::new();
    for _ in 0..reps.max(1) {
        let c0 = children_cpu_ns();
        let w0 = Instant::now();
        let status = Command::new("spirv-opt")
            .arg("-O")
            .arg(spv)
            .arg("-o")
            .arg(&out)
            .output();
        wall.push(w0.elapsed().as_secs_f64() * 1e3);
        cpu.push((children_cpu_ns() - c0) as f64 / 1e6);
        match status {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
            Err(e) => return Some(Err(e.to_string())),
            Ok(o) if !o.status.success() => {
                return Some(Err(String::from_utf8_lossy(&o.stderr)
                    .lines()
                    .next()
                    .unwrap_or("failed")
                    .to_owned()))
            }
            Ok(_) => {}
        }
    }
    let _ = std::fs::remove_file(&out);
    Some(Ok(Timing {
        cpu_ms: median(cpu),
        wall_ms: median(wall),
    }))
}

fn shader_dirs(dir: &Path, file: &str) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.join(file).is_file())
                .collect()
        })
        .unwrap_or_default();
    dirs.sort();
    dirs
}

fn bench_shader(dir: &Path, language: Language, reps: usize) -> ShaderResult {
    let (file, prefix) = match language {
        Language::Spirv => ("shader.spv", "spv"),
        Language::Tgsi => ("shader.tgsi", "tgsi"),
    };
    let name = format!(
        "{prefix}/{}",
        dir.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    );
    let path = dir.join(file);
    let case = dir
        .join("case.toml")
        .is_file()
        .then(|| Case::load(dir))
        .and_then(Result::ok);
    let entry = match (language, &case) {
        (Language::Spirv, Some(c)) => Some(c.manifest.entry.clone()),
        _ => None,
    };
    let source = match std::fs::read(&path) {
        Ok(s) => s,
        Err(e) => {
            let err = || Err(format!("{}: {e}", path.display()));
            return ShaderResult {
                name,
                compiled: [err(), err()],
                sim: None,
                spirv_opt: None,
            };
        }
    };
    let compiled = LEVELS.map(|level| time_compile(&source, entry.clone(), level, reps));
    let sim = case.map(|case| match prepare(&case, language) {
        Ok(p) => LEVELS.map(|level| simulate(&case, &p.func, &p.launch, level)),
        Err(e) => [
            RunFailure::Prepare(e.to_string()),
            RunFailure::Prepare(e.to_string()),
        ]
        .map(Err),
    });
    let spirv_opt = match language {
        Language::Spirv => spirv_opt_time(&path, reps),
        Language::Tgsi => None,
    };
    ShaderResult {
        name,
        compiled,
        sim,
        spirv_opt,
    }
}

fn cell<T, E>(r: &Result<T, E>, f: impl Fn(&T) -> String) -> String {
    r.as_ref().map(f).unwrap_or_else(|_| "ERR".into())
}

fn print_row(r: &ShaderResult) {
    let time = |l: &Result<LevelResult, String>| cell(l, |l| format!("{}", l.time));
    let insts = |l: &Result<LevelResult, String>| {
        cell(l, |l| format!("{:>4}/{:<5}", l.instructions, l.est_cycles))
    };
    let regs = |l: &Result<LevelResult, String>| cell(l, |l| l.gpr_halves.div_ceil(2).to_string());
    let simc = |s: &Result<SimResult, RunFailure>| {
        cell(s, |s| {
            let tag = match s.matches {
                Some(true) => "",
                Some(false) => "!",
                None => "?",
            };
            format!("{}{tag}", s.cycles)
        })
    };
    let (s0, s2) = match &r.sim {
        Some([a, b]) => (simc(a), simc(b)),
        None => ("-".into(), "-".into()),
    };
    let sopt = match &r.spirv_opt {
        Some(Ok(t)) => format!("{t}"),
        Some(Err(_)) => "ERR".into(),
        None => "-".into(),
    };
    println!(
        "{:<34} {:>15} {:>15} {:>10} {:>10} {:>3} {:>3} {:>10} {:>10} {:>15}",
        r.name,
        time(&r.compiled[0]),
        time(&r.compiled[1]),
        insts(&r.compiled[0]),
        insts(&r.compiled[1]),
        regs(&r.compiled[0]),
        regs(&r.compiled[1]),
        s0,
        s2,
        sopt
    );
}

fn summarize(results: &[ShaderResult]) {
    println!("\n== failures ==");
    for r in results {
        for (level, c) in ["-O0", "-O2"].iter().zip(&r.compiled) {
            if let Err(e) = c {
                println!("{} {level} compile: {e}", r.name);
            }
        }
        if let Some(sims) = &r.sim {
            for (level, s) in ["-O0", "-O2"].iter().zip(sims) {
                match s {
                    Err(e) => println!("{} {level} run: {e}", r.name),
                    Ok(s) if s.matches == Some(false) => println!(
                        "{} {level} run: output differs from the recorded oracle",
                        r.name
                    ),
                    Ok(_) => {}
                }
            }
        }
        if let Some(Err(e)) = &r.spirv_opt {
            println!("{} spirv-opt: {e}", r.name);
        }
    }

    println!("\n== summary ==");
    for (i, level) in ["-O0", "-O2"].iter().enumerate() {
        let ok: Vec<&LevelResult> = results
            .iter()
            .filter_map(|r| r.compiled[i].as_ref().ok())
            .collect();
        println!(
            "{level}: {}/{} shaders compile; median compile time {:.2} ms CPU, {:.2} ms wall; mean {:.2} ms CPU",
            ok.len(),
            results.len(),
            median(ok.iter().map(|l| l.time.cpu_ms).collect()),
            median(ok.iter().map(|l| l.time.wall_ms).collect()),
            ok.iter().map(|l| l.time.cpu_ms).sum::<f64>() / ok.len().max(1) as f64,
        );
    }
    let both: Vec<(&LevelResult, &LevelResult)> = results
        .iter()
        .filter_map(|r| Some((r.compiled[0].as_ref().ok()?, r.compiled[1].as_ref().ok()?)))
        .collect();
    let sum = |f: fn(&LevelResult) -> u32, level: usize| {
        both.iter()
            .map(|p| u64::from(f(if level == 0 { p.0 } else { p.1 })))
            .sum::<u64>()
    };
    let (i0, i2) = (sum(|l| l.instructions, 0), sum(|l| l.instructions, 1));
    let (c0, c2) = (sum(|l| l.est_cycles, 0), sum(|l| l.est_cycles, 1));
    let fewer = both
        .iter()
        .filter(|(a, b)| b.instructions < a.instructions)
        .count();
    let more = both
        .iter()
        .filter(|(a, b)| b.instructions > a.instructions)
        .count();
    println!(
        "static, over {} shaders compiling at both levels: instructions {i0} -O0 vs {i2} -O2 ({:+.1}%; fewer in {fewer}, more in {more}); estimated cycles {c0} vs {c2} ({:+.1}%)",
        both.len(),
        pct(i0, i2),
        pct(c0, c2)
    );
    let sims: Vec<(&SimResult, &SimResult)> = results
        .iter()
        .filter_map(|r| match &r.sim {
            Some([Ok(a), Ok(b)]) => Some((a, b)),
            _ => None,
        })
        .collect();
    let (sc0, sc2): (u64, u64) = (
        sims.iter().map(|p| p.0.cycles).sum(),
        sims.iter().map(|p| p.1.cycles).sum(),
    );
    let (si0, si2): (u64, u64) = (
        sims.iter().map(|p| p.0.instructions).sum(),
        sims.iter().map(|p| p.1.instructions).sum(),
    );
    let matching = sims
        .iter()
        .filter(|(a, b)| a.matches == Some(true) && b.matches == Some(true))
        .count();
    let faster = sims.iter().filter(|(a, b)| b.cycles < a.cycles).count();
    let slower = sims.iter().filter(|(a, b)| b.cycles > a.cycles).count();
    println!(
        "simulated, over {} cases running at both levels ({matching} matching the oracle at both): cycles {sc0} -O0 vs {sc2} -O2 ({:+.1}%; faster in {faster}, slower in {slower}); executed SIMD-group instructions {si0} vs {si2} ({:+.1}%)",
        sims.len(),
        pct(sc0, sc2),
        pct(si0, si2)
    );
    let sopt: Vec<(Timing, Option<&LevelResult>)> = results
        .iter()
        .filter_map(|r| match &r.spirv_opt {
            Some(Ok(t)) => Some((*t, r.compiled[1].as_ref().ok())),
            _ => None,
        })
        .collect();
    if sopt.is_empty() {
        println!("spirv-opt: not installed or no .spv timed");
    } else {
        let agx: Vec<&LevelResult> = sopt.iter().filter_map(|p| p.1).collect();
        let quicker = sopt
            .iter()
            .filter(|(t, l)| l.is_some_and(|l| l.time.wall_ms < t.wall_ms))
            .count();
        println!(
            "spirv-opt -O over {} .spv: median {:.2} ms wall, {:.2} ms child CPU (process start included); agxc -O2 whole compile over the same shaders: median {:.2} ms wall, {:.2} ms CPU; agxc -O2 quicker (wall) on {quicker}/{}",
            sopt.len(),
            median(sopt.iter().map(|p| p.0.wall_ms).collect()),
            median(sopt.iter().map(|p| p.0.cpu_ms).collect()),
            median(agx.iter().map(|l| l.time.wall_ms).collect()),
            median(agx.iter().map(|l| l.time.cpu_ms).collect()),
            sopt.len()
        );
    }
}

fn pct(before: u64, after: u64) -> f64 {
    if before == 0 {
        0.0
    } else {
        (after as f64 - before as f64) * 100.0 / before as f64
    }
}

fn main() {
    // `cargo bench` passes `--bench`; a filter given on the command line is honoured too.
    let filter = std::env::var("AGXC_BENCH_FILTER")
        .ok()
        .or_else(|| std::env::args().skip(1).find(|a| !a.starts_with('-')));
    let reps = std::env::var("AGXC_BENCH_REPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("corpus");
    let mut shaders: Vec<(PathBuf, Language)> = shader_dirs(&root.join("spirv"), "shader.spv")
        .into_iter()
        .map(|d| (d, Language::Spirv))
        .collect();
    shaders.extend(
        shader_dirs(&root.join("tgsi").join("gen"), "shader.tgsi")
            .into_iter()
            .map(|d| (d, Language::Tgsi)),
    );
    if let Some(f) = &filter {
        shaders.retain(|(d, _)| d.to_string_lossy().contains(f.as_str()));
    }
    println!("agxc corpus benchmark: {} shaders, {reps} repetitions each, times are medians in ms (CPU/wall)", shaders.len());
    println!("columns: compile -O0, compile -O2, static instructions/estimated cycles -O0 and -O2, 32-bit registers -O0 and -O2,");
    println!("         simulated cycles -O0 and -O2 (`!` output differs from the oracle, `?` no recording), spirv-opt -O (child CPU/wall)");
    println!(
        "{:<34} {:>15} {:>15} {:>10} {:>10} {:>3} {:>3} {:>10} {:>10} {:>15}",
        "shader",
        "-O0 ms",
        "-O2 ms",
        "-O0 i/c",
        "-O2 i/c",
        "r0",
        "r2",
        "sim -O0",
        "sim -O2",
        "spirv-opt ms"
    );
    let mut results = Vec::new();
    for (dir, language) in &shaders {
        let r = bench_shader(dir, *language, reps);
        print_row(&r);
        results.push(r);
    }
    summarize(&results);
}
