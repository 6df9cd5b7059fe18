//! Simulator speed against lavapipe on large dispatches, whole process and warm.
//!
//! `cargo bench --bench sim_speed` runs, on the same SPIR-V with the same inputs:
//!
//! - the compute cases of `benches/sim_speed/` (corpus-format cases made for this bench, 1M
//!   invocations each): `alu_hash_noise` (integer hashing and value noise, about 530
//!   instructions per SIMD-group, no loads) and `mem_gather` (sixteen scattered loads and four
//!   coalesced vec4 loads per invocation);
//! - every fragment case of the SPIR-V corpus (`tests/corpus/spirv`) that writes no storage
//!   buffer, with its render target enlarged to `AGXC_SIM_BENCH_SIZE` pixels square (default
//!   1024: about a million fragments).
//!
//! For each case and each implementation it reports two times (median of `AGXC_BENCH_REPS`
//! runs, default 3, wall clock):
//!
//! - **whole process**: a fresh process (this bench re-run in a child mode) that loads the case,
//!   and for the simulator compiles the SPIR-V at -O2 (`agxc::compile`, as `agxc run` does),
//!   binds the resources, runs and reads back; for lavapipe creates the Vulkan instance and
//!   device, the pipeline (LLVM compilation), uploads, dispatches or draws and reads back;
//! - **warm**: in this process, the simulator's `sim::run_compute` / `sim::run_fragment` on the
//!   binary compiled beforehand (binding, dispatch and read-back included); for lavapipe, whose
//!   harness creates the pipeline on every run, the *marginal* time: a run of the case minus a
//!   run of the same case at one workgroup (compute; same buffers) or at its corpus size
//!   (fragment), which leaves the dispatch or draw of the extra work.
//!
//! The throughput ratio is the simulator's warm throughput over lavapipe's (items per second,
//! an item being an invocation or a fragment); the summary gives its median over the fragment
//! cases, over the compute cases and over all. Thread counts: the simulator runs on every core
//! (`Config::threads` 0), lavapipe on `LP_NUM_THREADS` or every core; both are printed.
//!
//! `AGXC_BENCH_FILTER=substring` restricts the cases.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use agxc::backend_agx::Binary;
use agxc::sim::{self, SimOptions};
use agxc_tests::corpus::{corpus_dir, load_corpus, Case};
use agxc_tests::lavapipe::Lavapipe;
use agxc_tests::run::{prepare, Language, LaunchStage, Prepared};

/// The child-mode variable: `sim` or `lvp`, a case directory and the fragment side, separated
/// by newlines.
const CHILD: &str = "AGXC_SIM_SPEED_CHILD";

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// `case` as this bench runs it: fragment targets enlarged to `side` pixels square.
fn sized(case: &Case, side: u32) -> Case {
    let mut c = case.clone();
    if c.manifest.size.is_some() {
        c.manifest.size = Some([side, side]);
    }
    c
}

/// `case` at one workgroup (compute) or its own corpus size (fragment): lavapipe's fixed cost.
fn tiny(case: &Case) -> Case {
    let mut c = case.clone();
    if c.manifest.groups.is_some() {
        c.manifest.groups = Some([1, 1, 1]);
    }
    c
}

/// The case compiled at -O2 the way `agxc run` compiles it.
fn compile(case: &Case) -> Result<(Prepared, Binary), String> {
    let prepared = prepare(case, Language::Spirv).map_err(|e| e.to_string())?;
    let bytes = std::fs::read(case.spv_file()).map_err(|e| e.to_string())?;
    let options = agxc::Options {
        entry: Some(case.manifest.entry.clone()),
        ..agxc::Options::default()
    };
    let compiled = agxc::compile(&bytes, &options).map_err(|e| e.to_string())?;
    Ok((prepared, compiled.binary))
}

/// One simulator run of a compiled case; returns the items (invocations or fragments) run.
fn run_sim(prepared: &Prepared, binary: &Binary) -> Result<u64, String> {
    let mut res = prepared.launch.resources();
    let opts = SimOptions::default();
    match &prepared.launch.stage {
        LaunchStage::Compute { groups } => {
            sim::run_compute_with(binary, &mut res, *groups, &opts).map_err(|e| e.to_string())?;
            let local: u64 = binary
                .metadata
                .workgroup_size
                .iter()
                .map(|&n| u64::from(n))
                .product();
            Ok(groups.iter().map(|&n| u64::from(n)).product::<u64>() * local)
        }
        LaunchStage::Fragment(grid) => {
            sim::run_fragment_with(binary, &mut res, grid, &opts).map_err(|e| e.to_string())?;
            Ok(u64::from(grid.width) * u64::from(grid.height))
        }
    }
}

/// The child mode: one whole run in this fresh process.
fn child(spec: &str) -> Result<(), String> {
    let mut parts = spec.lines();
    let (Some(kind), Some(dir), Some(side)) = (parts.next(), parts.next(), parts.next()) else {
        return Err(format!("bad {CHILD}"));
    };
    let side: u32 = side.parse().map_err(|_| "bad side")?;
    let case = sized(
        &Case::load(Path::new(dir)).map_err(|e| e.to_string())?,
        side,
    );
    match kind {
        "sim" => {
            let (prepared, binary) = compile(&case)?;
            run_sim(&prepared, &binary).map(|_| ())
        }
        _ => {
            let lvp = Lavapipe::new().map_err(|e| e.to_string())?;
            lvp.run(&case, &case.inputs())
                .map(|_| ())
                .map_err(|e| e.to_string())
        }
    }
}

/// Median wall time of `reps` fresh processes running `case` on `kind`.
fn whole_process(kind: &str, case: &Case, side: u32, reps: usize) -> Result<f64, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let spec = format!("{kind}\n{}\n{side}", case.dir.display());
    let mut times = Vec::new();
    for _ in 0..reps {
        let t0 = Instant::now();
        let out = Command::new(&exe)
            .env(CHILD, &spec)
            .output()
            .map_err(|e| e.to_string())?;
        times.push(t0.elapsed().as_secs_f64());
        if !out.status.success() {
            return Err(String::from_utf8_lossy(&out.stderr).trim().to_owned());
        }
    }
    Ok(median(times))
}

/// Median seconds of a warm simulator run, and the items it runs.
fn warm_sim(case: &Case, reps: usize) -> Result<(f64, u64), String> {
    let (prepared, binary) = compile(case)?;
    let mut times = Vec::new();
    let mut items = 0;
    for _ in 0..reps {
        let t0 = Instant::now();
        items = run_sim(&prepared, &binary)?;
        times.push(t0.elapsed().as_secs_f64());
    }
    Ok((median(times), items))
}

/// Median seconds of lavapipe runs of `case` (pipeline creation included).
fn lavapipe_runs(lvp: &Lavapipe, case: &Case, reps: usize) -> Result<f64, String> {
    let inputs = case.inputs();
    let mut times = Vec::new();
    for _ in 0..reps {
        let t0 = Instant::now();
        lvp.run(case, &inputs).map_err(|e| e.to_string())?;
        times.push(t0.elapsed().as_secs_f64());
    }
    Ok(median(times))
}

/// One row of the report.
struct Row {
    fragment: bool,
    ratio: Option<f64>,
    whole_ratio: Option<f64>,
}

fn bench_case(lvp: Option<&Lavapipe>, case: &Case, side: u32, reps: usize) -> Result<Row, String> {
    let big = sized(case, side);
    let (sim_warm, items) = warm_sim(&big, reps)?;
    let sim_whole = whole_process("sim", case, side, reps)?;
    let mut lvp_cols = String::new();
    let (mut ratio, mut whole_ratio) = (None, None);
    if let Some(lvp) = lvp {
        let lvp_whole = whole_process("lvp", case, side, reps)?;
        let full = lavapipe_runs(lvp, &big, reps)?;
        let fixed = lavapipe_runs(lvp, &tiny(case), reps)?;
        let lvp_warm = (full - fixed).max(1e-6);
        let r = lvp_warm / sim_warm;
        ratio = Some(r);
        whole_ratio = Some(sim_whole / lvp_whole);
        lvp_cols = format!(
            "{:>9.3} {:>9.1} {:>8.3} {:>9.1}",
            lvp_whole,
            lvp_warm * 1e3,
            r,
            sim_whole / lvp_whole
        );
    }
    println!(
        "{:<26} {:>4} {:>8} {:>9.3} {:>9.1} {:>9.1} {lvp_cols}",
        case.name,
        if big.manifest.size.is_some() {
            "frag"
        } else {
            "comp"
        },
        items,
        sim_whole,
        sim_warm * 1e3,
        items as f64 / sim_warm / 1e6,
    );
    Ok(Row {
        fragment: big.manifest.size.is_some(),
        ratio,
        whole_ratio,
    })
}

fn cases(filter: Option<&str>) -> Result<Vec<Case>, String> {
    let bench_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("benches/sim_speed");
    let mut cases = load_corpus(&bench_dir).map_err(|e| e.to_string())?;
    let corpus = load_corpus(&corpus_dir("spirv")).map_err(|e| e.to_string())?;
    // A fragment shader that writes a storage buffer indexes it by pixel: its buffer is sized
    // for the recorded target, so enlarging the target would run off its end.
    cases.extend(
        corpus
            .into_iter()
            .filter(|c| c.manifest.size.is_some() && !c.manifest.buffers.iter().any(|b| b.output)),
    );
    Ok(cases
        .into_iter()
        .filter(|c| filter.is_none_or(|f| c.name.contains(f)))
        .collect())
}

fn summary(rows: &[Row], lp_threads: usize) {
    let pick = |fragment: Option<bool>, f: fn(&Row) -> Option<f64>| -> Vec<f64> {
        rows.iter()
            .filter(|r| fragment.is_none_or(|k| r.fragment == k))
            .filter_map(f)
            .collect()
    };
    for (name, kind) in [
        ("fragment", Some(true)),
        ("compute", Some(false)),
        ("all", None),
    ] {
        let warm = pick(kind, |r| r.ratio);
        let whole = pick(kind, |r| r.whole_ratio);
        if warm.is_empty() {
            continue;
        }
        println!(
            "median over {} {name} case(s): simulator/lavapipe warm throughput {:.3} \
             ({:.3} per lavapipe thread of {lp_threads}); whole process simulator/lavapipe \
             time {:.2}x",
            warm.len(),
            median(warm.clone()),
            median(warm) * lp_threads as f64,
            median(whole),
        );
    }
}

fn main() {
    if let Ok(spec) = std::env::var(CHILD) {
        if let Err(e) = child(&spec) {
            eprintln!("sim_speed child: {e}");
            std::process::exit(1);
        }
        return;
    }
    // `cargo bench` passes `--bench`; this harness has no options of its own.
    let side = env_usize("AGXC_SIM_BENCH_SIZE", 1024).clamp(16, 4096) as u32;
    let reps = env_usize("AGXC_BENCH_REPS", 3).max(1);
    let filter = std::env::var("AGXC_BENCH_FILTER").ok();
    let cases = match cases(filter.as_deref()) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("sim_speed: cannot load the cases: {e}");
            std::process::exit(1);
        }
    };
    let lvp = match Lavapipe::new() {
        Ok(l) => Some(l),
        Err(e) => {
            eprintln!("sim_speed: lavapipe unavailable ({e}); simulator figures only");
            None
        }
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let lp_threads = std::env::var("LP_NUM_THREADS")
        .ok()
        .and_then(|s| s.parse::<usize>().ok())
        .unwrap_or(cores);
    println!(
        "compute cases at 1M invocations, fragment cases at {side}x{side}; simulator {cores} \
         thread(s) (fast engine), lavapipe {lp_threads} thread(s); median of {reps} run(s), \
         wall clock; lavapipe warm = marginal time (see the bench's docs)"
    );
    println!(
        "{:<26} {:>4} {:>8} {:>9} {:>9} {:>9} {:>9} {:>9} {:>8} {:>9}",
        "case",
        "kind",
        "items",
        "sim s",
        "sim ms",
        "sim M/s",
        "lvp s",
        "lvp ms",
        "thr sim/",
        "whole"
    );
    println!(
        "{:<26} {:>4} {:>8} {:>9} {:>9} {:>9} {:>9} {:>9} {:>8} {:>9}",
        "", "", "", "(whole)", "(warm)", "(warm)", "(whole)", "(warm)", "lvp", "sim/lvp"
    );
    let mut rows = Vec::new();
    for case in &cases {
        match bench_case(lvp.as_ref(), case, side, reps) {
            Ok(row) => rows.push(row),
            Err(e) => println!("{:<26} failed: {e}", case.name),
        }
    }
    summary(&rows, lp_threads);
}
