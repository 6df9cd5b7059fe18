//! Compile speed: whole-process `agxc compile -O2` against `spirv-opt -O`, the fixed start-up
//! cost, and how optimizer-plus-backend time grows with the size of a function.
//!
//! `cargo bench --bench compile_speed [-- SECTION...]`, sections `startup`, `corpus`,
//! `scaling` (default: all three):
//!
//! - `startup`: whole-process wall time (best of the runs) of `/bin/true`, `agxc --version`
//!   (process start-up and argument parsing) and `agxc compile` of an empty compute shader
//!   (`benches/data/empty.spv`, a `void main() {}` from glslang) at `-O0` and `-O2`: what a
//!   compile costs before it depends on the shader.
//! - `corpus`: every `tests/corpus/spirv/*/shader.spv` compiled by the `agxc` binary
//!   (`agxc compile -O2 SHADER -o FILE`) and optimized by `spirv-opt -O SHADER -o FILE`, as
//!   processes, the two interleaved run by run; per shader the best wall time of each over the
//!   runs and their ratio; then the median and maximum of the ratios (the best of several runs
//!   is the measure least disturbed by other work on the machine). Also the ratio of the
//!   children's CPU time (`getrusage`), best of the runs.
//! - `scaling`: generated functions (`agxc_egraph::opt::synth`: `straight_line`, one block, and
//!   `loop_heavy`, mostly short blocks in nested loops) of 1,000, 10,000 and 100,000 IR
//!   instructions: in process, the thread CPU time of the optimizer (`optimize` with the G13's
//!   rules) and of the backend (`agxc_backend_agx::compile`), best of the runs; and the whole
//!   process (`agxc compile -O2` of the function's text form); then the growth ratios from
//!   each size to the next (linear growth: 10).
//!
//! Settings: `AGXC_BENCH_RUNS` (default 5; the 100,000-instruction functions run at most 3
//! times), `AGXC_BENCH_FILTER=substring` (corpus shaders), `AGXC_BENCH_BASELINE=PATH` (another
//! `agxc` binary, say one built from an earlier commit, timed in the same interleaved runs of
//! `startup` and `corpus`: before and after under the same load), `AGXC_BENCH_SIZES=1000,10000,100000`,
//! `AGXC_BENCH_WRITE_IR=DIR` (also write the generated functions there as `KIND-SIZE.ir`, for
//! profiling: `valgrind --tool=callgrind target/release/agxc compile DIR/straight-100000.ir`),
//! `AGXC_BENCH_KINDS=straight` (the generated kinds `scaling` runs, comma-separated; default
//! `straight,loops`: the loop-heavy functions take most of the section's time).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use agxc::egraph::ir::Function;
use agxc::egraph::opt::synth;
use agxc::{compile_function, OptLevel, Options};

/// The `agxc` binary cargo built for this benchmark.
const AGXC: &str = env!("CARGO_BIN_EXE_agxc");

fn thread_cpu_s() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, exclusively borrowed timespec for the call's duration.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

/// User plus system CPU time of all waited-for children, in seconds.
fn children_cpu_s() -> f64 {
    // SAFETY: getrusage fills the zeroed struct it is given.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut ru) };
    let s = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    s(ru.ru_utime) + s(ru.ru_stime)
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

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// The best wall and child CPU time (seconds) of a process over the runs so far.
#[derive(Clone, Copy, Debug)]
struct Best {
    wall: f64,
    cpu: f64,
}

impl Default for Best {
    fn default() -> Self {
        Best {
            wall: f64::INFINITY,
            cpu: f64::INFINITY,
        }
    }
}

/// Runs `program args` once, its output discarded; folds its times into `best`. Errors name
/// the program and its first line of stderr.
fn run_once(program: &str, args: &[&str], best: &mut Best) -> Result<(), String> {
    let c0 = children_cpu_s();
    let w0 = Instant::now();
    let out = Command::new(program)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| format!("{program}: {e}"))?;
    let wall = w0.elapsed().as_secs_f64();
    let cpu = children_cpu_s() - c0;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(format!(
            "{program} {}: {}",
            args.join(" "),
            err.lines().next().unwrap_or("failed")
        ));
    }
    best.wall = best.wall.min(wall);
    best.cpu = best.cpu.min(cpu);
    Ok(())
}

fn ms(s: f64) -> f64 {
    s * 1e3
}

fn startup(runs: usize, baseline: Option<&str>) {
    println!("== start-up: whole process, best of {runs} runs (wall ms / CPU ms) ==");
    let empty = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/data/empty.spv");
    let empty = empty.to_string_lossy().into_owned();
    let out = std::env::temp_dir().join(format!("agxc-bench-{}.bin", std::process::id()));
    let out = out.to_string_lossy().into_owned();
    let mut cases: Vec<(String, &str, Vec<&str>)> = vec![("/bin/true".into(), "/bin/true", vec![])];
    for (tag, bin) in [("", Some(AGXC)), (" (baseline)", baseline)] {
        let Some(bin) = bin else { continue };
        cases.push((format!("agxc --version{tag}"), bin, vec!["--version"]));
        for level in ["-O0", "-O2"] {
            cases.push((
                format!("agxc compile {level} empty.spv{tag}"),
                bin,
                vec!["compile", level, &empty, "-o", &out],
            ));
        }
    }
    cases.push((
        "spirv-opt -O empty.spv".into(),
        "spirv-opt",
        vec!["-O", &empty, "-o", &out],
    ));
    let mut best = vec![Best::default(); cases.len()];
    for _ in 0..runs.max(1) {
        for (b, (name, program, args)) in best.iter_mut().zip(&cases) {
            if let Err(e) = run_once(program, args, b) {
                println!("{name}: {e}");
            }
        }
    }
    for (b, (name, _, _)) in best.iter().zip(&cases) {
        println!("{name:<40} {:8.2} {:8.2}", ms(b.wall), ms(b.cpu));
    }
    let _ = std::fs::remove_file(&out);
    println!();
}

fn corpus(runs: usize, filter: Option<&str>, baseline: Option<&str>) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/spirv");
    let mut shaders: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path().join("shader.spv")))
                .filter(|p| p.is_file())
                .collect()
        })
        .unwrap_or_default();
    shaders.sort();
    if let Some(f) = filter {
        shaders.retain(|p| p.to_string_lossy().contains(f));
    }
    println!(
        "== corpus: agxc compile -O2 vs spirv-opt -O, whole process, interleaved, best of {runs} runs =="
    );
    println!(
        "{:<28} {:>9} {:>9} {:>7} {:>9} {:>9} {:>7}{}",
        "shader",
        "agxc ms",
        "sopt ms",
        "ratio",
        "agxc cpu",
        "sopt cpu",
        "ratio",
        if baseline.is_some() {
            "   base ms  ratio  base cpu  ratio"
        } else {
            ""
        }
    );
    let out = std::env::temp_dir().join(format!("agxc-bench-{}.out", std::process::id()));
    let out = out.to_string_lossy().into_owned();
    let mut wall_ratios = Vec::new();
    let mut cpu_ratios = Vec::new();
    let mut base_ratios: (Vec<f64>, Vec<f64>) = (Vec::new(), Vec::new());
    let mut worst: Option<(f64, String)> = None;
    for spv in &shaders {
        let name = spv
            .parent()
            .and_then(Path::file_name)
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let path = spv.to_string_lossy().into_owned();
        let (mut a, mut s, mut b) = (Best::default(), Best::default(), Best::default());
        let mut failed = None;
        for _ in 0..runs.max(1) {
            let args = ["compile", "-O2", &path, "-o", &out];
            let r = run_once(AGXC, &args, &mut a)
                .and_then(|()| run_once("spirv-opt", &["-O", &path, "-o", &out], &mut s))
                .and_then(|()| baseline.map_or(Ok(()), |bin| run_once(bin, &args, &mut b)));
            if let Err(e) = r {
                failed = Some(e);
                break;
            }
        }
        if let Some(e) = failed {
            println!("{name:<28} failed: {e}");
            continue;
        }
        let (rw, rc) = (a.wall / s.wall, a.cpu / s.cpu);
        let base = if baseline.is_some() {
            let (bw, bc) = (b.wall / s.wall, b.cpu / s.cpu);
            base_ratios.0.push(bw);
            base_ratios.1.push(bc);
            format!(" {:9.2} {bw:6.2} {:9.2} {bc:6.2}", ms(b.wall), ms(b.cpu))
        } else {
            String::new()
        };
        println!(
            "{name:<28} {:9.2} {:9.2} {rw:7.2} {:9.2} {:9.2} {rc:7.2}{base}",
            ms(a.wall),
            ms(s.wall),
            ms(a.cpu),
            ms(s.cpu)
        );
        if worst.as_ref().is_none_or(|(w, _)| rw > *w) {
            worst = Some((rw, name));
        }
        wall_ratios.push(rw);
        cpu_ratios.push(rc);
    }
    let _ = std::fs::remove_file(&out);
    let max = |v: &[f64]| v.iter().copied().fold(f64::NAN, f64::max);
    println!(
        "ratio agxc -O2 / spirv-opt -O over {} shaders: wall median {:.2}, max {:.2} ({}); CPU median {:.2}, max {:.2}",
        wall_ratios.len(),
        median(wall_ratios.clone()),
        max(&wall_ratios),
        worst.map(|w| w.1).unwrap_or_default(),
        median(cpu_ratios.clone()),
        max(&cpu_ratios)
    );
    if baseline.is_some() {
        println!(
            "baseline agxc -O2 / spirv-opt -O: wall median {:.2}, max {:.2}; CPU median {:.2}, max {:.2}",
            median(base_ratios.0.clone()),
            max(&base_ratios.0),
            median(base_ratios.1.clone()),
            max(&base_ratios.1)
        );
    }
    println!();
}

/// One generated function's times (seconds, best of the runs).
struct Scaled {
    insts: usize,
    machine: u32,
    opt: f64,
    backend: f64,
    process: f64,
}

fn time_function(f: &Function, runs: usize, ir_path: &Path) -> Result<Scaled, String> {
    let at = |opt_level| Options {
        opt_level,
        ..Options::default()
    };
    let (mut opt, mut backend, mut machine) = (f64::INFINITY, f64::INFINITY, 0);
    for _ in 0..runs {
        // The whole -O2 pipeline, then the backend alone (the pipeline at -O0) on the optimized
        // IR: the optimizer's share is the difference.
        let c0 = thread_cpu_s();
        let whole = compile_function(f, &at(OptLevel::O2)).map_err(|e| e.to_string())?;
        let c1 = thread_cpu_s();
        let optimized = whole.ir_opt.as_ref().unwrap_or(f);
        let b = compile_function(optimized, &at(OptLevel::O0)).map_err(|e| e.to_string())?;
        let c2 = thread_cpu_s();
        opt = opt.min(((c1 - c0) - (c2 - c1)).max(0.0));
        backend = backend.min(c2 - c1);
        machine = b.binary.stats.instructions;
    }
    let mut best = Best::default();
    let path = ir_path.to_string_lossy().into_owned();
    let out = format!("{path}.bin");
    for _ in 0..runs {
        run_once(AGXC, &["compile", "-O2", &path, "-o", &out], &mut best)?;
    }
    let _ = std::fs::remove_file(&out);
    Ok(Scaled {
        insts: f.inst_count(),
        machine,
        opt,
        backend,
        process: best.wall,
    })
}

fn scaling(runs: usize) {
    let sizes: Vec<usize> = std::env::var("AGXC_BENCH_SIZES")
        .ok()
        .map(|s| s.split(',').filter_map(|x| x.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![1_000, 10_000, 100_000]);
    let write_dir = std::env::var_os("AGXC_BENCH_WRITE_IR").map(PathBuf::from);
    type Generator = fn(usize, u64) -> Function;
    let all: [(&str, Generator); 2] = [
        ("straight", synth::straight_line),
        ("loops", synth::loop_heavy),
    ];
    let wanted = std::env::var("AGXC_BENCH_KINDS").ok();
    let kinds = all.into_iter().filter(|(kind, _)| {
        wanted
            .as_deref()
            .is_none_or(|w| w.split(',').any(|k| k.trim() == *kind))
    });
    println!(
        "== scaling: generated functions at -O2; optimizer and backend thread CPU, whole process wall; best of the runs =="
    );
    println!(
        "{:<9} {:>8} {:>8} {:>10} {:>10} {:>10} {:>10}",
        "kind", "IR", "machine", "opt ms", "backend ms", "sum ms", "process ms"
    );
    for (kind, generate) in kinds {
        let mut rows: Vec<Scaled> = Vec::new();
        for &n in &sizes {
            let f = generate(n, 42);
            let text = f.to_string();
            let dir = write_dir.clone().unwrap_or_else(std::env::temp_dir);
            let name = match &write_dir {
                Some(_) => format!("{kind}-{n}.ir"),
                None => format!("agxc-bench-{}-{kind}-{n}.ir", std::process::id()),
            };
            let path = dir.join(name);
            if let Err(e) = std::fs::write(&path, text) {
                println!("{kind} {n}: writing {}: {e}", path.display());
                continue;
            }
            let runs = if n >= 100_000 { runs.min(3) } else { runs };
            match time_function(&f, runs.max(1), &path) {
                Ok(s) => {
                    println!(
                        "{kind:<9} {:>8} {:>8} {:10.1} {:10.1} {:10.1} {:10.1}",
                        s.insts,
                        s.machine,
                        ms(s.opt),
                        ms(s.backend),
                        ms(s.opt + s.backend),
                        ms(s.process)
                    );
                    rows.push(s);
                }
                Err(e) => println!("{kind} {n}: {e}"),
            }
            if write_dir.is_none() {
                let _ = std::fs::remove_file(&path);
            }
        }
        for w in rows.windows(2) {
            let (a, b) = (&w[0], &w[1]);
            println!(
                "{kind}: {} -> {} IR instructions (x{:.1}): optimizer x{:.1}, backend x{:.1}, sum x{:.1}, process x{:.1}",
                a.insts,
                b.insts,
                b.insts as f64 / a.insts as f64,
                b.opt / a.opt,
                b.backend / a.backend,
                (b.opt + b.backend) / (a.opt + a.backend),
                b.process / a.process
            );
        }
    }
    println!();
}

fn main() {
    // `cargo bench` passes `--bench`; the other arguments name sections.
    let sections: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let wants = |s: &str| sections.is_empty() || sections.iter().any(|x| x == s);
    let runs = env_usize("AGXC_BENCH_RUNS", 5);
    let filter = std::env::var("AGXC_BENCH_FILTER").ok();
    let baseline = std::env::var("AGXC_BENCH_BASELINE").ok();
    if wants("startup") {
        startup(runs.max(10), baseline.as_deref());
    }
    if wants("corpus") {
        corpus(runs, filter.as_deref(), baseline.as_deref());
    }
    if wants("scaling") {
        scaling(runs);
    }
}
